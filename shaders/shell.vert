// shell.vert: the translucent overlay shells (inertia and added-mass ellipsoids) alone.
// mesh.vert's mode 3 without the other layers' work: llvmpipe runs every
// branch of a shader under a mask, so each layer that covers many pixels
// has a program of its own.  The #version line is prepended at load.
in vec3 a_position;
in vec3 a_normal;
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
uniform float u_selected;

out vec3 v_world;
out vec3 v_normal;
out vec3 v_local;
flat out vec3 v_color;
flat out float v_emphasis;

void
main ()
{
  bool selected = a_link >= 0.0 && abs (a_link - u_selected) < 0.5;
  vec4 world;

  if (a_flags > 0.5 && !selected)
    {
      // Outside the clip volume: nothing is rasterised.
      gl_Position = vec4 (2.0, 2.0, 2.0, 1.0);
      v_world = v_normal = v_local = vec3 (0.0);
      v_color = vec3 (0.0);
      v_emphasis = 0.0;
      return;
    }
  // As mesh.vert computes it, so that the shells cover the same pixels.
  world = mat4 (a_model0, a_model1, a_model2, a_model3) * vec4 (a_position, 1.0);
  v_world = world.xyz;
  v_local = a_position;
  v_normal = mat3 (a_normal0, a_normal1, a_normal2) * a_normal;
  v_color = a_color.rgb;
  // The selected link's shells stronger, the others' faint while one is.
  v_emphasis = selected ? 1.6 : u_selected >= 0.0 ? 0.35 : 1.0;
  gl_Position = u_view_projection * world;
}
