/* torus.c: a closed, welded torus grid for the tests and the benchmarks, and binary STL files of triangle soups. */
#include "config.h"

#include <math.h>
#include <string.h>

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

GArray *
torus_triangles (double R,
                 double r,
                 guint  nu,
                 guint  nv)
{
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GArray) indices = NULL;
  GArray *soup;

  torus_mesh (R, r, nu, nv, &positions, &indices);
  soup = g_array_sized_new (FALSE, FALSE, sizeof (float), 3 * indices->len);
  for (guint k = 0; k < indices->len; k++)
    g_array_append_vals (soup, &g_array_index (positions, float, 3 * g_array_index (indices, guint32, k)), 3);
  return soup;
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

GArray *
soup_triangles (guint   n_triangles,
                guint32 seed)
{
  GArray *soup = g_array_sized_new (FALSE, FALSE, sizeof (float), 9 * n_triangles);

  for (guint t = 0; t < n_triangles; t++)
    {
      float v[9], c[3];

      for (int k = 0; k < 3; k++)
        {
          seed = seed * 1664525u + 1013904223u;
          c[k] = (float) (seed >> 8) / (float) (1 << 24);
        }
      for (int i = 0; i < 9; i++)
        {
          seed = seed * 1664525u + 1013904223u;
          v[i] = c[i % 3] + 0.1f * (float) (seed >> 8) / (float) (1 << 24);
        }
      g_array_append_vals (soup, v, 9);
    }
  return soup;
}

void
write_stl (const char  *path,
           const float *triangles,
           guint32      n_triangles)
{
  gsize size = 84 + 50 * (gsize) n_triangles;
  g_autofree guint8 *stl = g_malloc0 (size);
  g_autoptr(GError) error = NULL;

  memcpy (stl + 80, &n_triangles, 4);
  for (guint32 t = 0; t < n_triangles; t++)
    memcpy (stl + 84 + 50 * (gsize) t + 12, triangles + 9 * (gsize) t, 36);
  g_file_set_contents (path, (const char *) stl, size, &error);
  g_assert_no_error (error);
}
