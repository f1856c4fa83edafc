// body.vert: opaque collision bodies, the viewport's heaviest pass: only what they need.
// SMOOTH (defined for primitives) carries a normal; meshes have none and are
// shaded flat per fragment.  The #version line and the defines are prepended at load.
in vec3 a_position;
#ifdef SMOOTH
in vec3 a_normal;
#endif
in vec4 a_model0;
in vec4 a_model1;
in vec4 a_model2;
in vec4 a_model3;
in vec4 a_color;
in float a_link;       // link index, −1 for none
in float a_part;       // the collision's position in its link

uniform mat4 u_view_projection;
uniform float u_selected;
uniform float u_hovered;
uniform vec3 u_selection_color;
uniform float u_selection_mix;
uniform float u_selected_collision;  // in the selected link, −1 for none
uniform float u_collision_mix;
uniform vec3 u_background;
uniform float u_dim_mix;

out vec3 v_world;
#ifdef SMOOTH
out vec3 v_normal;
#endif
flat out vec3 v_color;

void
main ()
{
  vec3 world = a_model0.xyz * a_position.x + a_model1.xyz * a_position.y
               + a_model2.xyz * a_position.z + a_model3.xyz;
  vec3 color = a_color.rgb;

  // The selection and hover tints, once per vertex rather than per pixel:
  // the selected link towards the selection colour, its selected collision
  // nearly all the way, every other link dimmed towards the background.
  if (a_link >= 0.0 && abs (a_link - u_selected) < 0.5)
    color = mix (color, u_selection_color,
                 abs (a_part - u_selected_collision) < 0.5 ? u_collision_mix : u_selection_mix);
  else if (a_link >= 0.0 && abs (a_link - u_hovered) < 0.5)
    color = mix (color, vec3 (1.0), 0.35);
  else if (u_selected >= 0.0)
    color = mix (color, u_background, u_dim_mix);

#ifdef SMOOTH
  {
    // The cofactor matrix: the inverse transpose up to a scale, which the
    // normalisation removes (the sign does not matter: two-sided light).
    vec3 n = cross (a_model1.xyz, a_model2.xyz) * a_normal.x
             + cross (a_model2.xyz, a_model0.xyz) * a_normal.y
             + cross (a_model0.xyz, a_model1.xyz) * a_normal.z;
    float len = length (n);

    v_normal = len > 0.0 ? n / len : vec3 (0.0);
  }
#endif
  v_world = world;
  v_color = color;
  gl_Position = u_view_projection * vec4 (world, 1.0);
  // Specks are drawn as points of one pixel (OpenGL ES needs it said).
  gl_PointSize = 1.0;
}
