// shell.frag: a glass shell (mesh.frag's mode 3): faint fill, a rim that
// thickens towards the silhouette, and the three principal sections as lines;
// with RINGS (the added-mass ellipsoid) the sections alone, dashed.
in vec3 v_world;
in vec3 v_normal;
in vec3 v_local;
flat in vec3 v_color;
flat in float v_emphasis;   // 1.6 for the selected link, 0.35 for the others while one is, else 1

uniform vec3 u_eye;
uniform float u_alpha;

out vec4 frag_color;

void
main ()
{
  vec3 n = v_normal;
  vec3 to_eye = normalize (u_eye - v_world);

#ifdef NORMAL_FALLBACK
  // Only for a batch whose matrices may shrink a normal to nothing (see
  // normals_may_vanish in bl-renderer.c): llvmpipe would pay for this
  // branch on every pixel even when it is never taken.
  if (dot (n, n) < 1e-12)
    n = cross (dFdx (v_world), dFdy (v_world));
#endif
  n = normalize (n);
  {
    // Two-sided: the headlight sees whichever face is towards the eye.
    float facing = abs (dot (n, to_eye));
    float rim = pow (1.0 - facing, 2.0);
    vec3 w = fwidth (v_local);
    vec3 d = abs (v_local) / max (w, vec3 (1e-6));
    float line = 1.0 - clamp (min (d.x, min (d.y, d.z)) - 0.5, 0.0, 1.0);
#ifdef RINGS
    // Only the three principal sections, dashed (twelve dashes a ring,
    // two pixels wide), no fill: the added-mass ellipsoid reads apart from
    // an inertia ellipsoid of the same shape behind or around it.
    vec3 angle = vec3 (atan (v_local.z, v_local.y), atan (v_local.x, v_local.z), atan (v_local.y, v_local.x));
    vec3 dash = step (0.5, fract (angle * (6.0 / 3.14159265)));
    vec3 on = (1.0 - clamp (d - 1.0, 0.0, 1.0)) * dash;
    float ring = max (on.x, max (on.y, on.z));

    if (ring <= 0.0)
      discard;
    frag_color = vec4 (v_color * (0.7 + 0.3 * facing) + vec3 (0.15),
                       ring * clamp (4.0 * u_alpha * v_emphasis, 0.0, 0.95));
#else
    float a = u_alpha * v_emphasis * (1.0 + 2.5 * rim);

    a = max (a, line * min (1.0, 2.0 * u_alpha * v_emphasis));
    frag_color = vec4 (v_color * (0.55 + 0.45 * facing) + vec3 (0.25 * line), clamp (a, 0.0, 0.95));
#endif
  }
}
