/* bl-tessellate.c: unit primitives and BlMesh conversion into float triangle lists. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "bl-tessellate.h"

BlTessMesh *
bl_tess_mesh_new (gboolean has_normals)
{
  BlTessMesh *mesh = g_new0 (BlTessMesh, 1);

  mesh->vertices = g_array_new (FALSE, FALSE, sizeof (float));
  mesh->indices = g_array_new (FALSE, FALSE, sizeof (guint32));
  mesh->has_normals = has_normals;
  return mesh;
}

void
bl_tess_mesh_free (BlTessMesh *mesh)
{
  if (mesh == NULL)
    return;
  g_array_unref (mesh->vertices);
  g_array_unref (mesh->indices);
  g_free (mesh);
}

guint
bl_tess_mesh_get_stride (BlTessMesh *mesh)
{
  return mesh->has_normals ? 6 : 3;
}

guint
bl_tess_mesh_get_n_vertices (BlTessMesh *mesh)
{
  return mesh->vertices->len / bl_tess_mesh_get_stride (mesh);
}

guint
bl_tess_mesh_get_n_triangles (BlTessMesh *mesh)
{
  return mesh->indices->len / 3;
}

void
bl_tess_mesh_get_bounds (BlTessMesh *mesh,
                         float       min[3],
                         float       max[3])
{
  guint stride = bl_tess_mesh_get_stride (mesh);
  guint n = bl_tess_mesh_get_n_vertices (mesh);
  const float *v = (const float *) mesh->vertices->data;

  for (int k = 0; k < 3; k++)
    {
      min[k] = n > 0 ? INFINITY : 0.0f;
      max[k] = n > 0 ? -INFINITY : 0.0f;
    }
  for (guint i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      {
        min[k] = MIN (min[k], v[i * stride + k]);
        max[k] = MAX (max[k], v[i * stride + k]);
      }
}

double
bl_tess_mesh_get_inradius (BlTessMesh *mesh)
{
  guint stride = bl_tess_mesh_get_stride (mesh);
  const float *v = (const float *) mesh->vertices->data;
  const guint32 *idx = (const guint32 *) mesh->indices->data;
  double inradius = G_MAXDOUBLE;

  for (guint t = 0; t + 2 < mesh->indices->len; t += 3)
    {
      const float *a = v + idx[t] * stride, *b = v + idx[t + 1] * stride, *c = v + idx[t + 2] * stride;
      double u[3], w[3], n[3], len;

      for (int k = 0; k < 3; k++)
        {
          u[k] = (double) b[k] - a[k];
          w[k] = (double) c[k] - a[k];
        }
      n[0] = u[1] * w[2] - u[2] * w[1];
      n[1] = u[2] * w[0] - u[0] * w[2];
      n[2] = u[0] * w[1] - u[1] * w[0];
      len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      /* a degenerate triangle (at a pole) covers nothing */
      if (len > 0.0)
        inradius = MIN (inradius, fabs (n[0] * a[0] + n[1] * a[1] + n[2] * a[2]) / len);
    }
  return inradius == G_MAXDOUBLE ? 0.0 : inradius;
}

static guint32
add_vertex (BlTessMesh *mesh,
            double      px,
            double      py,
            double      pz,
            double      nx,
            double      ny,
            double      nz)
{
  float v[6] = { (float) px, (float) py, (float) pz, (float) nx, (float) ny, (float) nz };
  guint32 index = bl_tess_mesh_get_n_vertices (mesh);

  g_array_append_vals (mesh->vertices, v, 6);
  return index;
}

static void
add_triangle (BlTessMesh *mesh,
              guint32     a,
              guint32     b,
              guint32     c)
{
  guint32 t[3] = { a, b, c };

  g_array_append_vals (mesh->indices, t, 3);
}

/* A quad a b c d, counter-clockwise seen from outside. */
static void
add_quad (BlTessMesh *mesh,
          guint32     a,
          guint32     b,
          guint32     c,
          guint32     d)
{
  add_triangle (mesh, a, b, c);
  add_triangle (mesh, a, c, d);
}

BlTessMesh *
bl_tess_box (void)
{
  BlTessMesh *mesh = bl_tess_mesh_new (TRUE);

  /* For each axis and sign, the face with outward normal n: two in-plane
   * axes u, v with u × v = n keep the winding counter-clockwise. */
  for (int axis = 0; axis < 3; axis++)
    for (int sign = -1; sign <= 1; sign += 2)
      {
        int ua = (axis + 1) % 3, va = (axis + 2) % 3;
        guint32 idx[4];
        static const double corners[4][2] = { { -0.5, -0.5 }, { 0.5, -0.5 }, { 0.5, 0.5 }, { -0.5, 0.5 } };

        for (int c = 0; c < 4; c++)
          {
            double p[3] = { 0, 0, 0 }, n[3] = { 0, 0, 0 };

            p[axis] = 0.5 * sign;
            /* Mirror u on the negative face so the winding stays outward. */
            p[ua] = corners[c][0] * sign;
            p[va] = corners[c][1];
            n[axis] = sign;
            idx[c] = add_vertex (mesh, p[0], p[1], p[2], n[0], n[1], n[2]);
          }
        add_quad (mesh, idx[0], idx[1], idx[2], idx[3]);
      }
  return mesh;
}

BlTessMesh *
bl_tess_sphere (guint slices,
                guint stacks)
{
  BlTessMesh *mesh = bl_tess_mesh_new (TRUE);

  slices = MAX (slices, 3);
  stacks = MAX (stacks, 2);

  for (guint i = 0; i <= stacks; i++)
    {
      double theta = G_PI * i / stacks;   /* from the north pole */
      double z = cos (theta), r = sin (theta);

      for (guint j = 0; j <= slices; j++)
        {
          double phi = 2.0 * G_PI * j / slices;
          double x = r * cos (phi), y = r * sin (phi);

          if (i == 0 || i == stacks)
            x = y = 0.0;
          add_vertex (mesh, x, y, z, x, y, z);
        }
    }

  for (guint i = 0; i < stacks; i++)
    for (guint j = 0; j < slices; j++)
      {
        guint32 a = i * (slices + 1) + j, b = a + 1;
        guint32 c = a + slices + 1, d = c + 1;

        /* Going down the stacks and east along slices: a c d b is
         * counter-clockwise seen from outside. */
        if (i != 0)
          add_triangle (mesh, a, c, b);
        if (i != stacks - 1)
          add_triangle (mesh, b, c, d);
      }
  return mesh;
}

/* A disc of radius 1 at height z facing ±z. */
static void
add_disc (BlTessMesh *mesh,
          guint       slices,
          double      z,
          double      nz)
{
  guint32 centre = add_vertex (mesh, 0, 0, z, 0, 0, nz);
  guint32 first = 0;

  for (guint j = 0; j <= slices; j++)
    {
      double phi = 2.0 * G_PI * j / slices;
      guint32 v = add_vertex (mesh, cos (phi), sin (phi), z, 0, 0, nz);

      if (j == 0)
        first = v;
    }
  for (guint j = 0; j < slices; j++)
    {
      if (nz > 0)
        add_triangle (mesh, centre, first + j, first + j + 1);
      else
        add_triangle (mesh, centre, first + j + 1, first + j);
    }
}

BlTessMesh *
bl_tess_cylinder (guint slices)
{
  BlTessMesh *mesh = bl_tess_mesh_new (TRUE);
  guint32 first;

  slices = MAX (slices, 3);
  first = bl_tess_mesh_get_n_vertices (mesh);
  for (guint j = 0; j <= slices; j++)
    {
      double phi = 2.0 * G_PI * j / slices;
      double x = cos (phi), y = sin (phi);

      add_vertex (mesh, x, y, -0.5, x, y, 0);
      add_vertex (mesh, x, y, 0.5, x, y, 0);
    }
  for (guint j = 0; j < slices; j++)
    {
      guint32 b0 = first + 2 * j, t0 = b0 + 1, b1 = b0 + 2, t1 = b0 + 3;

      add_quad (mesh, b0, b1, t1, t0);
    }
  add_disc (mesh, slices, 0.5, 1.0);
  add_disc (mesh, slices, -0.5, -1.0);
  return mesh;
}

BlTessMesh *
bl_tess_cone (guint slices)
{
  BlTessMesh *mesh = bl_tess_mesh_new (TRUE);
  /* The side's normal leans up by atan(r / l) = 45° for r = l = 1. */
  double nr = 1.0 / sqrt (2.0), nz = 1.0 / sqrt (2.0);
  guint32 first;

  slices = MAX (slices, 3);
  first = bl_tess_mesh_get_n_vertices (mesh);
  for (guint j = 0; j <= slices; j++)
    {
      double phi = 2.0 * G_PI * j / slices;
      double mid = 2.0 * G_PI * (j + 0.5) / slices;
      double x = cos (phi), y = sin (phi);

      add_vertex (mesh, x, y, -0.5, x * nr, y * nr, nz);
      /* One apex per slice, with the normal of the slice's middle. */
      add_vertex (mesh, 0, 0, 0.5, cos (mid) * nr, sin (mid) * nr, nz);
    }
  for (guint j = 0; j < slices; j++)
    {
      guint32 b0 = first + 2 * j, apex = b0 + 1, b1 = b0 + 2;

      add_triangle (mesh, b0, b1, apex);
    }
  add_disc (mesh, slices, -0.5, -1.0);
  return mesh;
}

BlTessMesh *
bl_tess_plane (void)
{
  BlTessMesh *mesh = bl_tess_mesh_new (TRUE);
  guint32 a = add_vertex (mesh, -0.5, -0.5, 0, 0, 0, 1);
  guint32 b = add_vertex (mesh, 0.5, -0.5, 0, 0, 0, 1);
  guint32 c = add_vertex (mesh, 0.5, 0.5, 0, 0, 0, 1);
  guint32 d = add_vertex (mesh, -0.5, 0.5, 0, 0, 0, 1);

  add_quad (mesh, a, b, c, d);
  return mesh;
}

BlTessMesh *
bl_tess_from_mesh (BlMesh *source)
{
  BlTessMesh *mesh = bl_tess_mesh_new (FALSE);
  guint n_sub = bl_mesh_get_n_submeshes (source);

  for (guint s = 0; s < n_sub; s++)
    {
      guint n_vertices = 0, n_triangles = 0;
      const double *v = bl_mesh_get_submesh_vertices (source, s, &n_vertices);
      const guint32 *idx = bl_mesh_get_submesh_indices (source, s, &n_triangles);
      guint32 base = bl_tess_mesh_get_n_vertices (mesh);
      guint old_v = mesh->vertices->len, old_i = mesh->indices->len;
      float *fv;
      guint32 *fi;

      g_array_set_size (mesh->vertices, old_v + 3 * n_vertices);
      fv = &g_array_index (mesh->vertices, float, old_v);
      for (guint i = 0; i < 3 * n_vertices; i++)
        fv[i] = (float) v[i];

      g_array_set_size (mesh->indices, old_i + 3 * n_triangles);
      fi = &g_array_index (mesh->indices, guint32, old_i);
      for (guint i = 0; i < 3 * n_triangles; i++)
        fi[i] = base + idx[i];
    }
  return mesh;
}

static int
compare_u64 (const void *a,
             const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

GArray *
bl_tess_edges (const guint32 *indices,
               guint          n_triangles)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 *edges = g_new (guint64, 3 * (gsize) n_triangles);
  gsize n = 0;

  for (guint t = 0; t < n_triangles; t++)
    for (int k = 0; k < 3; k++)
      {
        guint32 a = indices[3 * t + k], b = indices[3 * t + (k + 1) % 3];

        if (a == b)
          continue;
        edges[n++] = ((guint64) MIN (a, b) << 32) | MAX (a, b);
      }
  qsort (edges, n, sizeof (guint64), compare_u64);
  for (gsize i = 0; i < n; i++)
    if (i == 0 || edges[i] != edges[i - 1])
      {
        guint32 pair[2] = { (guint32) (edges[i] >> 32), (guint32) (edges[i] & 0xffffffffu) };

        g_array_append_vals (lines, pair, 2);
      }
  g_free (edges);
  return lines;
}
