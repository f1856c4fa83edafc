/* bl-simplify-smooth.c: smooth normals for a level of detail, creases kept. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-math.h"
#include "bl-simplify-smooth.h"

BlTessMesh *
bl_simplify_smooth_mesh (const float  *positions,
                         guint         stride,
                         const GArray *indices,
                         double        crease_degrees)
{
  const guint32 *idx;
  gsize n_tris, n_used = 0;
  guint32 n_vertices = 0;
  double cos_crease = cos (crease_degrees * G_PI / 180.0);
  g_autofree BlVec3 *normals = NULL;
  g_autofree BlVec3 *units = NULL;
  g_autofree guint32 *start = NULL;
  g_autofree guint32 *ring = NULL;
  g_autofree guint32 *first_out = NULL;
  g_autofree guint32 *next_out = NULL;
  BlTessMesh *mesh;

  g_return_val_if_fail (indices != NULL, NULL);
  g_return_val_if_fail (stride >= 3, NULL);
  g_return_val_if_fail (positions != NULL || indices->len == 0, NULL);

  mesh = bl_tess_mesh_new (TRUE);
  idx = (const guint32 *) (gconstpointer) indices->data;
  n_tris = indices->len / 3;
  for (gsize i = 0; i < 3 * n_tris; i++)
    n_vertices = MAX (n_vertices, idx[i] + 1);

  normals = g_new (BlVec3, MAX (n_tris, 1));
  units = g_new (BlVec3, MAX (n_tris, 1));
  for (gsize t = 0; t < n_tris; t++)
    {
      BlVec3 p[3];
      double len;

      for (int k = 0; k < 3; k++)
        {
          const float *f = positions + (gsize) stride * idx[3 * t + k];
          p[k] = bl_vec3 (f[0], f[1], f[2]);
        }
      normals[t] = bl_vec3_cross (bl_vec3_sub (p[1], p[0]), bl_vec3_sub (p[2], p[0]));
      len = bl_vec3_length (normals[t]);
      units[t] = len > 0.0 ? bl_vec3_scale (normals[t], 1.0 / len) : BL_VEC3_ZERO;
    }

  start = g_new (guint32, (gsize) n_vertices + 1);
  ring = g_new (guint32, 3 * MAX (n_tris, 1));
  bl_simplify_vertex_rings (idx, n_tris, n_vertices, start, ring);

  first_out = g_new (guint32, MAX (n_vertices, 1));
  memset (first_out, 0xff, MAX (n_vertices, 1) * sizeof *first_out);
  next_out = g_new (guint32, 3 * MAX (n_tris, 1));
  for (gsize t = 0; t < n_tris; t++)
    for (int k = 0; k < 3; k++)
      {
        guint32 v = idx[3 * t + k], found = G_MAXUINT32;
        gboolean flat = units[t].x == 0.0 && units[t].y == 0.0 && units[t].z == 0.0;
        gboolean hub = start[v + 1] - start[v] > BL_SIMPLIFY_HUB_RING;
        BlVec3 sum = BL_VEC3_ZERO;
        double len;
        float vertex[6];

        if (hub)
          sum = normals[t];   /* flat, and a vertex of its own (below) */
        else
          for (guint32 i = start[v]; i < start[v + 1]; i++)
            {
              guint32 other = ring[i];

              if (flat || bl_vec3_dot (units[other], units[t]) >= cos_crease)
                sum = bl_vec3_add (sum, normals[other]);
            }
        len = bl_vec3_length (sum);
        for (int a = 0; a < 3; a++)
          {
            vertex[a] = positions[(gsize) stride * v + a];
            vertex[3 + a] = len > 0.0 ? (float) (bl_vec3_get (sum, a) / len) : a == 2 ? 1.0f : 0.0f;
          }
        for (guint32 o = hub ? G_MAXUINT32 : first_out[v]; o != G_MAXUINT32; o = next_out[o])
          if (memcmp (&g_array_index (mesh->vertices, float, 6 * (gsize) o + 3), vertex + 3, 3 * sizeof (float)) == 0)
            {
              found = o;
              break;
            }
        if (found == G_MAXUINT32)
          {
            found = (guint32) n_used++;
            g_array_append_vals (mesh->vertices, vertex, 6);
            next_out[found] = first_out[v];
            first_out[v] = found;
          }
        g_array_append_val (mesh->indices, found);
      }
  return mesh;
}
