// mesh.vert: instanced collisions, overlays, markers and lines; the #version line is prepended at load (GL 3.3 core or GLES 3.0).
in vec3 a_position;
in vec3 a_normal;      // normal, or the vertex colour in mode 2; (0, 0, 0) for meshes: flat-shaded per fragment
in vec4 a_model0;
in vec4 a_model1;
in vec4 a_model2;
in vec4 a_model3;
in vec3 a_normal0;     // inverse transpose of the model's 3×3, by column
in vec3 a_normal1;
in vec3 a_normal2;
in vec4 a_color;
in float a_link;       // link index, −1 for none
in float a_flags;      // 1: shown only while its link is selected (a static link's overlays)

uniform mat4 u_view_projection;
uniform int u_mode;
uniform vec3 u_eye;
uniform float u_selected;
// Markers: world size of one pixel per metre of distance times the marker's
// radius in pixels (0 for everything else).  The marker keeps that size on
// screen, up to its link's own size (the model matrix's scale) unless its
// link is selected.
uniform float u_marker_scale;

out vec3 v_world;
out vec3 v_normal;
out vec3 v_local;
flat out vec4 v_color;
flat out float v_link;

void
main ()
{
  mat4 model = mat4 (a_model0, a_model1, a_model2, a_model3);
  bool selected = a_link >= 0.0 && abs (a_link - u_selected) < 0.5;
  vec4 world;

  if (a_flags > 0.5 && !selected)
    {
      // Outside the clip volume: nothing is rasterised.
      gl_Position = vec4 (2.0, 2.0, 2.0, 1.0);
      v_world = v_normal = v_local = vec3 (0.0);
      v_color = vec4 (0.0);
      v_link = -1.0;
      return;
    }
  if (u_marker_scale > 0.0)
    {
      vec3 center = a_model3.xyz;
      float r = u_marker_scale * length (center - u_eye);

      if (!selected)
        r = min (r, length (a_model0.xyz));
      world = vec4 (center + r * a_position, 1.0);
    }
  else
    world = model * vec4 (a_position, 1.0);

  v_world = world.xyz;
  v_local = a_position;
  // Mode 2 carries a colour in a_normal: it must not be transformed.
  if (u_mode == 2 || u_marker_scale > 0.0)
    v_normal = a_normal;
  else
    v_normal = mat3 (a_normal0, a_normal1, a_normal2) * a_normal;
  v_color = a_color;
  v_link = a_link;
  gl_Position = u_view_projection * world;
}
