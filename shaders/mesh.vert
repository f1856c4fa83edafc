// mesh.vert: instanced collisions, overlays and lines; the #version line is prepended at load (GL 3.3 core or GLES 3.0).
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

uniform mat4 u_view_projection;
uniform int u_mode;

out vec3 v_world;
out vec3 v_normal;
out vec4 v_color;
flat out float v_link;

void
main ()
{
  mat4 model = mat4 (a_model0, a_model1, a_model2, a_model3);
  vec4 world = model * vec4 (a_position, 1.0);

  v_world = world.xyz;
  // Mode 2 carries a colour in a_normal: it must not be transformed.
  v_normal = u_mode == 2 ? a_normal : mat3 (a_normal0, a_normal1, a_normal2) * a_normal;
  v_color = a_color;
  v_link = a_link;
  gl_Position = u_view_projection * world;
}
