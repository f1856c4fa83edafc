/* torus.c: a closed, welded torus grid for the tests and the benchmarks. */
#include "config.h"

#include <math.h>

#include "torus.h"

void
torus_mesh (double   R,
            double   r,
            guint    nu,
            guint    nv,
            GArray **positions,
            GArray **indices)
{
  *positions = g_array_sized_new (FALSE, FALSE, sizeof (float), 3 * nu * nv);
  *indices = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 6 * nu * nv);
  for (guint i = 0; i < nu; i++)
    for (guint j = 0; j < nv; j++)
      {
        double u = 2 * G_PI * i / nu, v = 2 * G_PI * j / nv;
        float p[3] = {
          (float) ((R + r * cos (v)) * cos (u)),
          (float) ((R + r * cos (v)) * sin (u)),
          (float) (r * sin (v)),
        };
        guint32 c[4] = {
          i * nv + j,
          (i + 1) % nu * nv + j,
          (i + 1) % nu * nv + (j + 1) % nv,
          i * nv + (j + 1) % nv,
        };
        guint32 tris[6] = { c[0], c[1], c[2], c[0], c[2], c[3] };

        g_array_append_vals (*positions, p, 3);
        g_array_append_vals (*indices, tris, 6);
      }
}

void
torus_grid_for (double  R,
                double  r,
                guint   n_triangles,
                guint  *nu,
                guint  *nv)
{
  /* 2 nu nv = n and nu / nv = R / r. */
  *nv = MAX (8, (guint) round (sqrt (n_triangles * r / (2 * R))));
  *nu = MAX (8, (guint) round (n_triangles / (2.0 * *nv)));
}
