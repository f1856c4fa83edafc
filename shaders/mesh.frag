// mesh.frag: headlight shading, per-link colour, selection and hover; modes 0 lit, 1 flat colour, 2 vertex colour.
in vec3 v_world;
in vec3 v_normal;
in vec4 v_color;
flat in float v_link;

uniform int u_mode;
uniform vec3 u_eye;
uniform float u_alpha;
uniform float u_selected;
uniform float u_hovered;
uniform vec3 u_selection_color;

out vec4 frag_color;

void
main ()
{
  vec4 base = v_color;

  if (u_mode == 2)
    base = vec4 (v_normal, 1.0);

  if (v_link >= 0.0 && abs (v_link - u_selected) < 0.5)
    base.rgb = u_selection_color;
  else if (v_link >= 0.0 && abs (v_link - u_hovered) < 0.5)
    base.rgb = mix (base.rgb, vec3 (1.0), 0.35);

  if (u_mode == 0)
    {
      vec3 to_eye = normalize (u_eye - v_world);
      vec3 n = v_normal;

      if (dot (n, n) < 1e-12)
        n = cross (dFdx (v_world), dFdy (v_world));
      n = normalize (n);
      // Two-sided: the headlight sees whichever face is towards the eye.
      float lambert = abs (dot (n, to_eye));
      base.rgb *= 0.3 + 0.7 * lambert;
    }

  frag_color = vec4 (base.rgb, base.a * u_alpha);
}
