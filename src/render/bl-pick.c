/* bl-pick.c: ray intersections in double for picking links in the viewport. */
#include "config.h"

#include <math.h>

#include "bl-pick.h"

/* Keeps the smallest non-negative root seen so far in *best. */
static void
consider (double    t,
          gboolean *hit,
          double   *best)
{
  if (t >= 0.0 && isfinite (t) && (!*hit || t < *best))
    {
      *best = t;
      *hit = TRUE;
    }
}

gboolean
bl_pick_aabb (const double  min[3],
              const double  max[3],
              const double  origin[3],
              const double  direction[3],
              double       *t)
{
  double t0 = -INFINITY, t1 = INFINITY;

  for (int k = 0; k < 3; k++)
    {
      if (direction[k] == 0.0)
        {
          if (origin[k] < min[k] || origin[k] > max[k])
            return FALSE;
          continue;
        }
      double a = (min[k] - origin[k]) / direction[k];
      double b = (max[k] - origin[k]) / direction[k];

      t0 = MAX (t0, MIN (a, b));
      t1 = MIN (t1, MAX (a, b));
    }
  if (t1 < t0 || t1 < 0.0)
    return FALSE;
  *t = t0 >= 0.0 ? t0 : 0.0;
  return TRUE;
}

/* Roots of a t² + b t + c = 0 that satisfy the height test |z| ≤ ½. */
static void
quadric_side (double        a,
              double        b,
              double        c,
              const double  o[3],
              const double  d[3],
              gboolean     *hit,
              double       *best)
{
  double disc, s;

  if (fabs (a) < 1e-300)
    return;
  disc = b * b - 4 * a * c;
  if (disc < 0.0)
    return;
  s = sqrt (disc);
  for (int i = 0; i < 2; i++)
    {
      double t = (-b + (i == 0 ? -s : s)) / (2 * a);
      double z = o[2] + t * d[2];

      if (z >= -0.5 && z <= 0.5)
        consider (t, hit, best);
    }
}

/* The disc of radius R at height z. */
static void
disc (double        z,
      double        radius,
      const double  o[3],
      const double  d[3],
      gboolean     *hit,
      double       *best)
{
  double t, x, y;

  if (d[2] == 0.0)
    return;
  t = (z - o[2]) / d[2];
  x = o[0] + t * d[0];
  y = o[1] + t * d[1];
  if (x * x + y * y <= radius * radius)
    consider (t, hit, best);
}

gboolean
bl_pick_unit_shape (BlPickShape   shape,
                    const double  o[3],
                    const double  d[3],
                    double       *t)
{
  gboolean hit = FALSE;
  double best = 0.0;

  switch (shape)
    {
    case BL_PICK_BOX:
      {
        static const double lo[3] = { -0.5, -0.5, -0.5 }, hi[3] = { 0.5, 0.5, 0.5 };

        return bl_pick_aabb (lo, hi, o, d, t);
      }

    case BL_PICK_SPHERE:
      {
        double a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        double b = 2 * (o[0] * d[0] + o[1] * d[1] + o[2] * d[2]);
        double c = o[0] * o[0] + o[1] * o[1] + o[2] * o[2] - 1.0;
        double disc_ = b * b - 4 * a * c;

        if (a == 0.0 || disc_ < 0.0)
          return FALSE;
        consider ((-b - sqrt (disc_)) / (2 * a), &hit, &best);
        consider ((-b + sqrt (disc_)) / (2 * a), &hit, &best);
        break;
      }

    case BL_PICK_CYLINDER:
      quadric_side (d[0] * d[0] + d[1] * d[1],
                    2 * (o[0] * d[0] + o[1] * d[1]),
                    o[0] * o[0] + o[1] * o[1] - 1.0, o, d, &hit, &best);
      disc (0.5, 1.0, o, d, &hit, &best);
      disc (-0.5, 1.0, o, d, &hit, &best);
      break;

    case BL_PICK_CONE:
      {
        /* x² + y² = (½ − z)², the radius shrinking from 1 at z = −½ to 0
         * at the apex. */
        double k = 0.5 - o[2];
        double a = d[0] * d[0] + d[1] * d[1] - d[2] * d[2];
        double b = 2 * (o[0] * d[0] + o[1] * d[1] + k * d[2]);
        double c = o[0] * o[0] + o[1] * o[1] - k * k;

        quadric_side (a, b, c, o, d, &hit, &best);
        disc (-0.5, 1.0, o, d, &hit, &best);
        break;
      }

    case BL_PICK_PLANE:
      {
        double tp, x, y;

        if (d[2] == 0.0)
          return FALSE;
        tp = -o[2] / d[2];
        x = o[0] + tp * d[0];
        y = o[1] + tp * d[1];
        if (fabs (x) <= 0.5 && fabs (y) <= 0.5)
          consider (tp, &hit, &best);
        break;
      }

    default:
      g_assert_not_reached ();
    }

  if (hit)
    *t = best;
  return hit;
}

gboolean
bl_pick_triangles (const double  *v,
                   const guint32 *indices,
                   guint          n_triangles,
                   const double   o[3],
                   const double   d[3],
                   double        *t)
{
  gboolean hit = FALSE;
  double best = 0.0;

  for (guint i = 0; i < n_triangles; i++)
    {
      const double *p0 = v + 3 * indices[3 * i];
      const double *p1 = v + 3 * indices[3 * i + 1];
      const double *p2 = v + 3 * indices[3 * i + 2];
      double e1[3], e2[3], p[3], q[3], s[3], det, inv, u, w, tt;

      for (int k = 0; k < 3; k++)
        {
          e1[k] = p1[k] - p0[k];
          e2[k] = p2[k] - p0[k];
          s[k] = o[k] - p0[k];
        }
      p[0] = d[1] * e2[2] - d[2] * e2[1];
      p[1] = d[2] * e2[0] - d[0] * e2[2];
      p[2] = d[0] * e2[1] - d[1] * e2[0];
      det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
      if (fabs (det) < 1e-300)
        continue;
      inv = 1.0 / det;
      u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
      if (u < 0.0 || u > 1.0)
        continue;
      q[0] = s[1] * e1[2] - s[2] * e1[1];
      q[1] = s[2] * e1[0] - s[0] * e1[2];
      q[2] = s[0] * e1[1] - s[1] * e1[0];
      w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
      if (w < 0.0 || u + w > 1.0)
        continue;
      tt = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
      consider (tt, &hit, &best);
    }
  if (hit)
    *t = best;
  return hit;
}

void
bl_pick_transform_ray (const double m[16],
                       const double origin[3],
                       const double direction[3],
                       double       lo[3],
                       double       ld[3])
{
  for (int r = 0; r < 3; r++)
    {
      lo[r] = m[12 + r];
      ld[r] = 0.0;
      for (int c = 0; c < 3; c++)
        {
          lo[r] += m[c * 4 + r] * origin[c];
          ld[r] += m[c * 4 + r] * direction[c];
        }
    }
}

gboolean
bl_pick_affine_inverse (const double m[16],
                        double       inv[16])
{
  /* A = upper 3×3 (a[r][c] = m[c*4+r]); inverse [A⁻¹, −A⁻¹ t]. */
  double a[3][3], b[3][3], det;

  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      a[r][c] = m[c * 4 + r];
  b[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
  b[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
  b[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
  b[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
  b[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
  b[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
  b[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
  b[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
  b[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  det = a[0][0] * b[0][0] + a[0][1] * b[1][0] + a[0][2] * b[2][0];
  if (!(fabs (det) > 1e-300) || !isfinite (det))
    return FALSE;
  for (int r = 0; r < 3; r++)
    {
      for (int c = 0; c < 3; c++)
        inv[c * 4 + r] = b[r][c] / det;
      inv[r * 4 + 3] = 0.0;
    }
  for (int r = 0; r < 3; r++)
    inv[12 + r] = -(inv[0 * 4 + r] * m[12] + inv[1 * 4 + r] * m[13] + inv[2 * 4 + r] * m[14]);
  inv[15] = 1.0;
  return TRUE;
}
