// mesh.frag: headlight shading and the looks of the viewport's layers.
// Modes: 0 solid body (per-link tint, selection, hover, the others dimmed
// while a link is selected), 1 flat edges (the same),
// 2 vertex colour (lines), 4 the centre-of-mass marker (black and white
// octants), 5 a lit marker in its own colour.  (3, the translucent overlay
// shells, have their own program: shell.vert/.frag.)
in vec3 v_world;
in vec3 v_normal;
in vec3 v_local;
flat in vec4 v_color;
flat in float v_link;

uniform int u_mode;
uniform vec3 u_eye;
uniform float u_alpha;
uniform float u_selected;
uniform float u_hovered;
uniform vec3 u_selection_color;
uniform float u_selection_mix;
uniform vec3 u_com_dark;
uniform vec3 u_background;
uniform float u_dim_mix;

out vec4 frag_color;

void
main ()
{
  vec4 base = v_color;
  bool selected = v_link >= 0.0 && abs (v_link - u_selected) < 0.5;
  bool hovered = v_link >= 0.0 && abs (v_link - u_hovered) < 0.5;
  vec3 to_eye = normalize (u_eye - v_world);
  vec3 n = v_normal;
  float facing;

  if (u_mode == 2)
    {
      frag_color = vec4 (v_normal, base.a * u_alpha);
      return;
    }

  if (u_mode <= 1)
    {
      if (selected)
        base.rgb = mix (base.rgb, u_selection_color, u_selection_mix);
      else if (hovered)
        base.rgb = mix (base.rgb, vec3 (1.0), 0.35);
      else if (u_selected >= 0.0)
        base.rgb = mix (base.rgb, u_background, u_dim_mix);
    }
  if (u_mode == 1)
    {
      frag_color = vec4 (base.rgb, base.a * u_alpha);
      return;
    }

  if (dot (n, n) < 1e-12)
    n = cross (dFdx (v_world), dFdy (v_world));
  n = normalize (n);
  // Two-sided: the headlight sees whichever face is towards the eye.
  facing = abs (dot (n, to_eye));

  if (u_mode == 4)
    {
      // The usual centre-of-mass symbol: alternate octants black and white.
      float s = v_local.x * v_local.y * v_local.z;

      base.rgb = s >= 0.0 ? base.rgb : u_com_dark;
    }
  // While a link is selected the others' markers are dimmed, as their
  // bodies and edges are.
  if (u_mode >= 4 && !selected && u_selected >= 0.0)
    base.rgb = mix (base.rgb, u_background, u_dim_mix);

  frag_color = vec4 (base.rgb * (0.3 + 0.7 * facing), base.a * u_alpha);
}
