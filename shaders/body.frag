// body.frag: the headlight on an opaque body (mesh.frag's solid mode, selection tint already applied).
in vec3 v_world;
#ifdef SMOOTH
in vec3 v_normal;
#endif
flat in vec3 v_color;

uniform vec3 u_eye;

out vec4 frag_color;

void
main ()
{
#ifdef SMOOTH
  vec3 n = v_normal;

#ifdef NORMAL_FALLBACK
  // Only for batches whose matrices may leave a vertex without a normal
  // (normals_may_vanish in bl-renderer.c): llvmpipe pays for a branch on
  // every pixel even when it is never taken.
  if (dot (n, n) < 1e-12)
    n = cross (dFdx (v_world), dFdy (v_world));
#endif
#else
  vec3 n = cross (dFdx (v_world), dFdy (v_world));
#endif
  // Two-sided: the headlight sees whichever face is towards the eye.  A
  // speck (a body under a pixel, drawn as a point) has no derivatives: it
  // shows its colour (a select, not a branch).
  float n2 = dot (n, n);
  float facing = n2 > 0.0 ? abs (dot (n * inversesqrt (n2), normalize (u_eye - v_world))) : 1.0;

  frag_color = vec4 (v_color * (0.3 + 0.7 * facing), 1.0);
}
