/* fuzz-simplify.c: libFuzzer target for the viewport's levels of detail.
 *
 * The input is a small mesh: a vertex count, vertices on a coarse integer
 * grid (so that coincident points, flat fans, slivers and repeated
 * triangles are common) and triangles.  Every level bl_simplify_levels
 * makes must index the input's vertices, hold no triangle with a repeated
 * vertex, have a finite error no smaller than the true distance of any
 * input vertex from the level's surface (checked against every level
 * triangle), and turn into a drawable mesh with unit normals. */
#include "config.h"

#include <math.h>

#include "bl-simplify-smooth.h"
#include "distance.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  guint n_vertices, n_triangles;
  g_autofree float *positions = NULL;
  g_autofree guint32 *indices = NULL;
  g_autoptr(GPtrArray) levels = NULL;

  if (size < 1)
    return 0;
  n_vertices = 3 + data[0] % 62;
  if (size < 1 + 3 * (gsize) n_vertices)
    return 0;
  positions = g_new (float, 3 * n_vertices);
  for (guint i = 0; i < 3 * n_vertices; i++)
    positions[i] = (float) (data[1 + i] % 16) * 0.25f;
  data += 1 + 3 * n_vertices;
  size -= 1 + 3 * n_vertices;
  n_triangles = MIN (size / 3, 512);
  indices = g_new (guint32, 3 * MAX (n_triangles, 1));
  for (guint i = 0; i < 3 * n_triangles; i++)
    indices[i] = data[i] % n_vertices;

  levels = bl_simplify_levels (positions, 3, n_vertices, indices, n_triangles, 1, G_MAXDOUBLE, NULL);
  g_assert_nonnull (levels);
  for (guint l = 0; l < levels->len; l++)
    {
      BlSimplifyLevel *level = g_ptr_array_index (levels, l);
      const guint32 *ix = (const guint32 *) level->indices->data;
      guint n = level->indices->len / 3;
      g_autoptr(BlTessMesh) smooth = NULL;

      g_assert_cmpuint (level->indices->len % 3, ==, 0);
      g_assert_true (isfinite (level->error) && level->error >= 0.0);
      for (guint t = 0; t < n; t++)
        {
          g_assert_cmpuint (ix[3 * t], <, n_vertices);
          g_assert_cmpuint (ix[3 * t + 1], <, n_vertices);
          g_assert_cmpuint (ix[3 * t + 2], <, n_vertices);
          g_assert_true (ix[3 * t] != ix[3 * t + 1] && ix[3 * t + 1] != ix[3 * t + 2] && ix[3 * t] != ix[3 * t + 2]);
        }

      /* The reported error bounds the distance of every vertex of a
       * non-degenerate input triangle from the level (rounding aside). */
      for (guint t = 0; t < n_triangles; t++)
        {
          const float *a = &positions[3 * indices[3 * t]], *b = &positions[3 * indices[3 * t + 1]];
          const float *c = &positions[3 * indices[3 * t + 2]];
          double ab[3], ac[3], cr[3];

          for (int k = 0; k < 3; k++)
            {
              ab[k] = (double) b[k] - a[k];
              ac[k] = (double) c[k] - a[k];
            }
          cr[0] = ab[1] * ac[2] - ab[2] * ac[1];
          cr[1] = ab[2] * ac[0] - ab[0] * ac[2];
          cr[2] = ab[0] * ac[1] - ab[1] * ac[0];
          if (cr[0] == 0.0 && cr[1] == 0.0 && cr[2] == 0.0)
            continue;
          for (int corner = 0; corner < 3 && n > 0; corner++)
            {
              const float *pf = &positions[3 * indices[3 * t + corner]];
              double p[3] = { pf[0], pf[1], pf[2] }, nearest = G_MAXDOUBLE;

              for (guint s = 0; s < n; s++)
                {
                  double q[3][3];

                  for (int v = 0; v < 3; v++)
                    for (int k = 0; k < 3; k++)
                      q[v][k] = positions[3 * ix[3 * s + v] + k];
                  nearest = MIN (nearest, point_triangle_distance (p, q[0], q[1], q[2]));
                }
              if (nearest > level->error + 1e-9 * (1.0 + level->error))
                g_error ("level %u: an input vertex lies %g from the level, which reports %g", l, nearest,
                         level->error);
            }
        }

      smooth = bl_simplify_smooth_mesh (positions, 3, level->indices, 60.0);
      g_assert_true (smooth->has_normals);
      g_assert_cmpuint (smooth->indices->len, ==, level->indices->len);
      for (guint v = 0; v < smooth->vertices->len / 6; v++)
        {
          const float *nv = &g_array_index (smooth->vertices, float, 6 * v + 3);
          double len = sqrt ((double) nv[0] * nv[0] + (double) nv[1] * nv[1] + (double) nv[2] * nv[2]);

          g_assert_true (fabs (len - 1.0) < 1e-5);
        }
    }
  return 0;
}
