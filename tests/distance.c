/* distance.c: the exact distance from a point to a triangle, written
 * plainly for the tests of the levels of detail (independent of
 * src/render/bl-simplify.c's own). */
#include "config.h"

#include <math.h>

#include "distance.h"

double
point_triangle_distance (const double p[3],
                         const double a[3],
                         const double b[3],
                         const double c[3])
{
  const double *corners[3] = { a, b, c };
  double best = G_MAXDOUBLE, n[3], ab[3], ac[3], len2;

  for (int k = 0; k < 3; k++)
    {
      ab[k] = b[k] - a[k];
      ac[k] = c[k] - a[k];
    }
  n[0] = ab[1] * ac[2] - ab[2] * ac[1];
  n[1] = ab[2] * ac[0] - ab[0] * ac[2];
  n[2] = ab[0] * ac[1] - ab[1] * ac[0];
  len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
  if (len2 > 0.0)
    {
      double d = ((p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1] + (p[2] - a[2]) * n[2]) / len2;
      double q[3];
      gboolean inside = TRUE;

      for (int k = 0; k < 3; k++)
        q[k] = p[k] - d * n[k];
      /* inside when q is on the inner side of every edge */
      for (int e = 0; e < 3 && inside; e++)
        {
          const double *u = corners[e], *v = corners[(e + 1) % 3];
          double uv[3] = { v[0] - u[0], v[1] - u[1], v[2] - u[2] };
          double uq[3] = { q[0] - u[0], q[1] - u[1], q[2] - u[2] };
          double cr[3] = { uv[1] * uq[2] - uv[2] * uq[1], uv[2] * uq[0] - uv[0] * uq[2], uv[0] * uq[1] - uv[1] * uq[0] };

          inside = cr[0] * n[0] + cr[1] * n[1] + cr[2] * n[2] >= 0.0;
        }
      if (inside)
        best = fabs (d) * sqrt (len2);
    }
  for (int e = 0; e < 3; e++)
    {
      const double *u = corners[e], *v = corners[(e + 1) % 3];
      double uv[3] = { v[0] - u[0], v[1] - u[1], v[2] - u[2] };
      double l2 = uv[0] * uv[0] + uv[1] * uv[1] + uv[2] * uv[2];
      double t = 0.0, dist2 = 0.0;

      if (l2 > 0.0)
        t = CLAMP (((p[0] - u[0]) * uv[0] + (p[1] - u[1]) * uv[1] + (p[2] - u[2]) * uv[2]) / l2, 0.0, 1.0);
      for (int k = 0; k < 3; k++)
        dist2 += (p[k] - u[k] - t * uv[k]) * (p[k] - u[k] - t * uv[k]);
      best = MIN (best, sqrt (dist2));
    }
  return best;
}
