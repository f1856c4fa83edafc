/* test-simplify.c: the viewport's levels of detail (bl_simplify_levels, bl_simplify_smooth_mesh).
 *
 * Expected values are closed forms: the unit sphere's volume 4π/3 and the
 * depth 1 − h of a chord plane at distance h from its centre, the unit
 * cube's corners, faces and edges, a flat grid's boundary; the distances
 * the simplifier reports are checked against a brute-force search written
 * here independently (projection onto the plane, else the nearest edge). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-simplify-smooth.h"
#include "distance.h"
#include "test-common.h"
#include "torus.h"

typedef struct
{
  GArray *positions;   /* float, stride 3 */
  GArray *indices;     /* guint32 */
} Mesh;

static void
mesh_clear (Mesh *mesh)
{
  g_clear_pointer (&mesh->positions, g_array_unref);
  g_clear_pointer (&mesh->indices, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Mesh, mesh_clear)

static void
mesh_init (Mesh *mesh)
{
  mesh->positions = g_array_new (FALSE, FALSE, sizeof (float));
  mesh->indices = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static guint32
add_vertex (Mesh   *mesh,
            double  x,
            double  y,
            double  z)
{
  float p[3] = { (float) x, (float) y, (float) z };

  g_array_append_vals (mesh->positions, p, 3);
  return mesh->positions->len / 3 - 1;
}

static void
add_triangle (Mesh    *mesh,
              guint32  a,
              guint32  b,
              guint32  c)
{
  guint32 t[3] = { a, b, c };

  g_array_append_vals (mesh->indices, t, 3);
}

static const float *
vertex_of (const Mesh *mesh,
           guint32     v)
{
  return (const float *) mesh->positions->data + 3 * (gsize) v;
}

/* A welded UV sphere of radius 1 about CENTER: single vertices at the
 * poles, wound outward. */
static void
add_sphere (Mesh         *mesh,
            guint         slices,
            guint         stacks,
            const double  center[3])
{
  guint32 north = add_vertex (mesh, center[0], center[1], center[2] + 1.0);
  guint32 first = north + 1, south;

  for (guint i = 1; i < stacks; i++)
    for (guint j = 0; j < slices; j++)
      {
        double theta = G_PI * i / stacks, phi = 2 * G_PI * j / slices;

        add_vertex (mesh, center[0] + sin (theta) * cos (phi), center[1] + sin (theta) * sin (phi), center[2] + cos (theta));
      }
  south = add_vertex (mesh, center[0], center[1], center[2] - 1.0);
  for (guint j = 0; j < slices; j++)
    {
      guint32 j1 = (j + 1) % slices;

      add_triangle (mesh, north, first + j, first + j1);
      add_triangle (mesh, south, first + (stacks - 2) * slices + j1, first + (stacks - 2) * slices + j);
    }
  for (guint i = 0; i + 2 < stacks; i++)
    for (guint j = 0; j < slices; j++)
      {
        guint32 a = first + i * slices + j, b = first + i * slices + (j + 1) % slices;
        guint32 c = a + slices, d = b + slices;

        /* a b on the upper ring (east is b), c d below: a c d, a d b. */
        add_triangle (mesh, a, c, d);
        add_triangle (mesh, a, d, b);
      }
}

static void
sphere (Mesh  *mesh,
        guint  slices,
        guint  stacks)
{
  static const double origin[3] = { 0, 0, 0 };

  mesh_init (mesh);
  add_sphere (mesh, slices, stacks, origin);
}

/* The cube [−½, ½]³, each face an N × N grid, welded: vertex (i, j, k)
 * at (i/N − ½, j/N − ½, k/N − ½) (exact in float for N a power of two). */
static void
cube (Mesh  *mesh,
      guint  n)
{
  g_autofree guint32 *id = g_new (guint32, (n + 1) * (n + 1) * (n + 1));

  mesh_init (mesh);
  memset (id, 0xff, (n + 1) * (n + 1) * (n + 1) * sizeof *id);
  for (int axis = 0; axis < 3; axis++)
    for (int side = 0; side < 2; side++)
      {
        int ua = (axis + 1) % 3, va = (axis + 2) % 3;

        for (guint a = 0; a < n; a++)
          for (guint b = 0; b < n; b++)
            {
              guint32 q[4];

              for (int c = 0; c < 4; c++)
                {
                  guint g[3];
                  guint *slot;

                  g[axis] = side * n;
                  g[ua] = a + (c == 1 || c == 2);
                  g[va] = b + (c >= 2);
                  slot = &id[(g[0] * (n + 1) + g[1]) * (n + 1) + g[2]];
                  if (*slot == G_MAXUINT32)
                    *slot = add_vertex (mesh, (double) g[0] / n - 0.5, (double) g[1] / n - 0.5, (double) g[2] / n - 0.5);
                  q[c] = *slot;
                }
              /* u × v is +axis: counter-clockwise on the + side. */
              if (side == 1)
                {
                  add_triangle (mesh, q[0], q[1], q[2]);
                  add_triangle (mesh, q[0], q[2], q[3]);
                }
              else
                {
                  add_triangle (mesh, q[0], q[2], q[1]);
                  add_triangle (mesh, q[0], q[3], q[2]);
                }
            }
      }
}

/* The unit square in z = 0, N × N squares, facing +z. */
static void
flat_grid (Mesh  *mesh,
           guint  n)
{
  mesh_init (mesh);
  for (guint i = 0; i <= n; i++)
    for (guint j = 0; j <= n; j++)
      add_vertex (mesh, (double) i / n, (double) j / n, 0.0);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      {
        guint32 a = i * (n + 1) + j, b = a + n + 1;

        add_triangle (mesh, a, b, b + 1);
        add_triangle (mesh, a, b + 1, a + 1);
      }
}

static GPtrArray *
simplify (const Mesh *mesh,
          guint       min_triangles,
          double      max_error)
{
  GPtrArray *levels = bl_simplify_levels ((const float *) mesh->positions->data, 3, mesh->positions->len / 3,
                                          (const guint32 *) mesh->indices->data, mesh->indices->len / 3,
                                          min_triangles, max_error, NULL);

  g_assert_nonnull (levels);
  return levels;
}

static BlSimplifyLevel *
level_at (GPtrArray *levels,
          guint      i)
{
  return g_ptr_array_index (levels, i);
}

static guint
n_level_triangles (const BlSimplifyLevel *level)
{
  return level->indices->len / 3;
}

static guint64
edge_key (guint32 a,
          guint32 b)
{
  return (guint64) a << 32 | b;
}

/* Every directed edge once and its reverse too (a closed, consistently
 * oriented 2-manifold), and no triangle of zero area. */
static void
assert_closed_manifold (const Mesh   *mesh,
                        const GArray *indices)
{
  g_autoptr(GHashTable) directed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  const guint32 *idx = (const guint32 *) (gconstpointer) indices->data;

  g_assert_cmpuint (indices->len % 3, ==, 0);
  for (guint t = 0; t < indices->len / 3; t++)
    {
      const float *p[3];
      double e1[3], e2[3], n[3];

      for (int k = 0; k < 3; k++)
        {
          gint64 *key = g_new (gint64, 1);

          *key = (gint64) edge_key (idx[3 * t + k], idx[3 * t + (k + 1) % 3]);
          g_assert_cmpuint (idx[3 * t + k], !=, idx[3 * t + (k + 1) % 3]);
          g_assert_true (g_hash_table_add (directed, key));   /* once */
          p[k] = vertex_of (mesh, idx[3 * t + k]);
        }
      for (int a = 0; a < 3; a++)
        {
          e1[a] = (double) p[1][a] - p[0][a];
          e2[a] = (double) p[2][a] - p[0][a];
        }
      n[0] = e1[1] * e2[2] - e1[2] * e2[1];
      n[1] = e1[2] * e2[0] - e1[0] * e2[2];
      n[2] = e1[0] * e2[1] - e1[1] * e2[0];
      g_assert_cmpfloat (n[0] * n[0] + n[1] * n[1] + n[2] * n[2], >, 0.0);
    }
  for (guint t = 0; t < indices->len / 3; t++)
    for (int k = 0; k < 3; k++)
      {
        gint64 reverse = (gint64) edge_key (idx[3 * t + (k + 1) % 3], idx[3 * t + k]);

        g_assert_true (g_hash_table_contains (directed, &reverse));
      }
}

/* Enclosed volume by the divergence theorem. */
static double
volume (const Mesh   *mesh,
        const GArray *indices)
{
  const guint32 *idx = (const guint32 *) (gconstpointer) indices->data;
  double sum = 0.0;

  for (guint t = 0; t < indices->len / 3; t++)
    {
      const float *a = vertex_of (mesh, idx[3 * t]), *b = vertex_of (mesh, idx[3 * t + 1]), *c = vertex_of (mesh, idx[3 * t + 2]);

      sum += a[0] * ((double) b[1] * c[2] - (double) b[2] * c[1])
             + a[1] * ((double) b[2] * c[0] - (double) b[0] * c[2])
             + a[2] * ((double) b[0] * c[1] - (double) b[1] * c[0]);
    }
  return sum / 6.0;
}

static double
dot (const double a[3],
     const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void
triangle_of (const Mesh    *mesh,
             const guint32 *tri,
             double         v[3][3])
{
  for (int k = 0; k < 3; k++)
    for (int a = 0; a < 3; a++)
      v[k][a] = vertex_of (mesh, tri[k])[a];
}

/* The largest distance from a vertex of the input to the level: every
 * vertex against every triangle. */
static double
brute_force_error (const Mesh   *mesh,
                   const GArray *indices)
{
  const guint32 *idx = (const guint32 *) (gconstpointer) indices->data;
  double error = 0.0;

  for (guint o = 0; o < mesh->positions->len / 3; o++)
    {
      double p[3] = { vertex_of (mesh, o)[0], vertex_of (mesh, o)[1], vertex_of (mesh, o)[2] }, best = G_MAXDOUBLE;

      for (guint t = 0; t < indices->len / 3; t++)
        {
          double v[3][3];

          triangle_of (mesh, idx + 3 * t, v);
          best = MIN (best, point_triangle_distance (p, v[0], v[1], v[2]));
        }
      error = MAX (error, best);
    }
  return error;
}

/* A fine sphere: every level closed, oriented, about a quarter of the one
 * before, inside the sphere and around the ball that it leaves free, and
 * its chords' depth of the order of the reported error. */
static void
test_sphere (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  guint before;

  sphere (&mesh, 256, 128);
  before = mesh.indices->len / 3;
  g_assert_cmpuint (before, ==, 2 * 256 * 127);
  levels = simplify (&mesh, 64, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 4);
  for (guint i = 0; i < levels->len; i++)
    {
      BlSimplifyLevel *level = level_at (levels, i);
      const guint32 *idx = (const guint32 *) (gconstpointer) level->indices->data;
      guint n = n_level_triangles (level);
      double inner = G_MAXDOUBLE, chord_centroid = 0.0, v = volume (&mesh, level->indices);
      static const double origin[3] = { 0, 0, 0 };

      assert_closed_manifold (&mesh, level->indices);
      g_assert_cmpfloat (n, >=, 0.15 * before);
      g_assert_cmpfloat (n, <=, 0.45 * before);
      for (guint t = 0; t < n; t++)
        {
          double p[3][3], c[3];

          triangle_of (&mesh, idx + 3 * t, p);
          for (int k = 0; k < 3; k++)
            c[k] = (p[0][k] + p[1][k] + p[2][k]) / 3;
          inner = MIN (inner, point_triangle_distance (origin, p[0], p[1], p[2]));
          chord_centroid = MAX (chord_centroid, 1.0 - sqrt (dot (c, c)));
        }
      g_test_message ("level %u: %u triangles, error %.3g, deepest point %.3g, deepest centroid %.3g, volume %.6f",
                      i + 1, n, level->error, 1 - inner, chord_centroid, v);
      /* Every vertex is on the unit sphere (to float rounding), so the
       * level lies in the ball; no point of it is nearer the centre than
       * INNER, so (closed, wound outward) it encloses that ball. */
      g_assert_cmpfloat (v, <=, 4 * G_PI / 3 * pow (1 + 1e-7, 3));
      g_assert_cmpfloat (v, >=, 4 * G_PI / 3 * pow (inner, 3) * (1 - 1e-9));
      /* A centroid is a point of the level. */
      g_assert_cmpfloat (chord_centroid, <=, 1 - inner + 1e-12);
      /* The deepest chord, where the level is farthest inside the sphere,
       * is about where the input's vertices are farthest from it: the
       * reported error is of its order (input vertices sample the sphere
       * at about 1.4° here, so one lies near that deepest direction). */
      g_assert_cmpfloat (level->error, >=, 0.5 * (1 - inner));
      g_assert_cmpfloat (level->error, <=, 2 * (1 - inner));
      /* And so the volume is within the error of the sphere's. */
      g_assert_cmpfloat (v, >=, 4 * G_PI / 3 * pow (1 - 2 * level->error, 3));
      before = n;
    }
}

/* On a small sphere, the reported error bounds the true largest distance
 * from an input vertex to the level (found by brute force). */
static void
test_error_bounds_distance (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;

  sphere (&mesh, 64, 40);
  levels = simplify (&mesh, 32, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 3);
  for (guint i = 0; i < levels->len; i++)
    {
      BlSimplifyLevel *level = level_at (levels, i);
      double brute = brute_force_error (&mesh, level->indices);

      g_test_message ("level %u: %u triangles, error %.6g, brute force %.6g", i + 1, n_level_triangles (level), level->error, brute);
      g_assert_cmpfloat (brute, >, 0.0);
      g_assert_cmpfloat (level->error, >=, brute * (1 - 1e-12));
      /* The bound searches only near the vertex: not far above the truth. */
      g_assert_cmpfloat (level->error, <=, 2 * brute);
    }
}

static gboolean
is_corner (const float *p)
{
  return fabsf (p[0]) == 0.5f && fabsf (p[1]) == 0.5f && fabsf (p[2]) == 0.5f;
}

/* A subdivided cube simplifies by coplanar collapses only: corners,
 * bounds and edges stay, every triangle in one face. */
static void
test_cube (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;

  cube (&mesh, 32);
  g_assert_cmpuint (mesh.indices->len / 3, ==, 6 * 2 * 32 * 32);
  g_assert_cmpuint (mesh.positions->len / 3, ==, 6 * 31 * 31 + 12 * 31 + 8);
  levels = simplify (&mesh, 12, 1e-6);
  for (guint i = 0; i < levels->len; i++)
    g_test_message ("level %u: %u triangles, error %g", i + 1, n_level_triangles (level_at (levels, i)), level_at (levels, i)->error);
  g_assert_cmpuint (levels->len, >=, 3);
  for (guint i = 0; i < levels->len; i++)
    {
      BlSimplifyLevel *level = level_at (levels, i);
      const guint32 *idx = (const guint32 *) (gconstpointer) level->indices->data;
      guint corners = 0;
      g_autoptr(GHashTable) used = g_hash_table_new (NULL, NULL);
      float lo[3] = { 1, 1, 1 }, hi[3] = { -1, -1, -1 };

      assert_closed_manifold (&mesh, level->indices);
      g_assert_cmpfloat (level->error, <=, 1e-6);
      for (guint t = 0; t < n_level_triangles (level); t++)
        {
          gboolean in_face = FALSE;

          for (int a = 0; a < 3; a++)
            {
              float c = vertex_of (&mesh, idx[3 * t])[a];

              /* The three corners on one face plane: no triangle cuts an edge. */
              if (fabsf (c) == 0.5f && vertex_of (&mesh, idx[3 * t + 1])[a] == c && vertex_of (&mesh, idx[3 * t + 2])[a] == c)
                in_face = TRUE;
            }
          g_assert_true (in_face);
          for (int k = 0; k < 3; k++)
            {
              const float *p = vertex_of (&mesh, idx[3 * t + k]);

              g_assert_cmpfloat (MAX (fabsf (p[0]), MAX (fabsf (p[1]), fabsf (p[2]))), ==, 0.5f);
              for (int a = 0; a < 3; a++)
                {
                  lo[a] = MIN (lo[a], p[a]);
                  hi[a] = MAX (hi[a], p[a]);
                }
              if (g_hash_table_add (used, GUINT_TO_POINTER (idx[3 * t + k])) && is_corner (p))
                corners++;
            }
        }
      g_assert_cmpuint (corners, ==, 8);
      for (int a = 0; a < 3; a++)
        {
          g_assert_cmpfloat (lo[a], ==, -0.5f);
          g_assert_cmpfloat (hi[a], ==, 0.5f);
        }
      g_assert_cmpfloat (fabs (volume (&mesh, level->indices) - 1.0), <=, 1e-6);
    }
}

/* The undirected edges used by exactly one triangle. */
static GHashTable *
boundary_edges (const GArray *indices)
{
  GHashTable *count = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  const guint32 *idx = (const guint32 *) (gconstpointer) indices->data;
  GHashTableIter iter;
  gpointer key, value;

  for (guint t = 0; t < indices->len / 3; t++)
    for (int k = 0; k < 3; k++)
      {
        guint32 a = idx[3 * t + k], b = idx[3 * t + (k + 1) % 3];
        gint64 *edge = g_new (gint64, 1);

        *edge = (gint64) edge_key (MIN (a, b), MAX (a, b));
        value = g_hash_table_lookup (count, edge);
        g_hash_table_insert (count, edge, GUINT_TO_POINTER (GPOINTER_TO_UINT (value) + 1));
      }
  g_hash_table_iter_init (&iter, count);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (value) != 1)
      g_hash_table_iter_remove (&iter);
  return count;
}

/* An open flat grid: the boundary stays edge for edge, the inside is
 * simplified without error. */
static void
test_flat_grid (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  g_autoptr(GHashTable) boundary = NULL;

  flat_grid (&mesh, 64);
  boundary = boundary_edges (mesh.indices);
  g_assert_cmpuint (g_hash_table_size (boundary), ==, 4 * 64);
  levels = simplify (&mesh, 8, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 2);
  for (guint i = 0; i < levels->len; i++)
    {
      BlSimplifyLevel *level = level_at (levels, i);
      g_autoptr(GHashTable) level_boundary = boundary_edges (level->indices);
      GHashTableIter iter;
      gpointer key;
      double area = 0.0;
      const guint32 *idx = (const guint32 *) (gconstpointer) level->indices->data;

      g_assert_cmpfloat (level->error, <=, 1e-6);
      g_assert_cmpuint (g_hash_table_size (level_boundary), ==, g_hash_table_size (boundary));
      g_hash_table_iter_init (&iter, boundary);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_assert_true (g_hash_table_contains (level_boundary, key));
      /* Facing +z and covering the square exactly (no fold, no hole). */
      for (guint t = 0; t < n_level_triangles (level); t++)
        {
          const float *a = vertex_of (&mesh, idx[3 * t]), *b = vertex_of (&mesh, idx[3 * t + 1]), *c = vertex_of (&mesh, idx[3 * t + 2]);
          double z = ((double) b[0] - a[0]) * ((double) c[1] - a[1]) - ((double) b[1] - a[1]) * ((double) c[0] - a[0]);

          g_assert_cmpfloat (z, >, 0.0);
          area += z / 2;
        }
      g_assert_cmpfloat (fabs (area - 1.0), <=, 1e-9);
    }
  /* The boundary's 256 vertices alone need 254 triangles: the inside went. */
  g_assert_cmpuint (n_level_triangles (level_at (levels, levels->len - 1)), <=, 0.45 * 2 * 64 * 64 / 4);
}

/* Meshes with nothing to simplify. */
static void
test_nothing_to_do (void)
{
  g_auto(Mesh) tetra = { 0 };
  g_auto(Mesh) box = { 0 };
  g_auto(Mesh) degenerate = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  g_autoptr(GPtrArray) box_levels = NULL;
  g_autoptr(GPtrArray) empty = NULL;
  g_autoptr(GPtrArray) degenerate_levels = NULL;

  mesh_init (&tetra);
  add_vertex (&tetra, 1, 1, 1);
  add_vertex (&tetra, 1, -1, -1);
  add_vertex (&tetra, -1, 1, -1);
  add_vertex (&tetra, -1, -1, 1);
  add_triangle (&tetra, 0, 1, 2);
  add_triangle (&tetra, 0, 2, 3);
  add_triangle (&tetra, 0, 3, 1);
  add_triangle (&tetra, 1, 3, 2);
  levels = simplify (&tetra, 1, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, ==, 0);

  cube (&box, 1);
  g_assert_cmpuint (box.indices->len / 3, ==, 12);
  box_levels = simplify (&box, 4, G_MAXDOUBLE);
  g_assert_cmpuint (box_levels->len, ==, 0);
  g_clear_pointer (&box_levels, g_ptr_array_unref);
  /* Allowed down to one triangle, it can only become a tetrahedron (the
   * one closed manifold of fewer than 7.2 triangles with valences ≥ 3)
   * of four corners, no two of them joined by a cube edge: any other
   * four would flatten a face.  The four removed corners are each 1/√3
   * from the face opposite (the plane through its three neighbours). */
  box_levels = simplify (&box, 1, G_MAXDOUBLE);
  for (guint i = 0; i < box_levels->len; i++)
    g_test_message ("12-triangle cube: level %u: %u triangles, error %g", i + 1, n_level_triangles (level_at (box_levels, i)), level_at (box_levels, i)->error);
  g_assert_cmpuint (box_levels->len, ==, 1);
  g_assert_cmpuint (n_level_triangles (level_at (box_levels, 0)), ==, 4);
  assert_closed_manifold (&box, level_at (box_levels, 0)->indices);
  assert_close (level_at (box_levels, 0)->error, 1 / sqrt (3.0), 1e-7);

  empty = bl_simplify_levels (NULL, 3, 0, NULL, 0, 1, G_MAXDOUBLE, NULL);
  g_assert_nonnull (empty);
  g_assert_cmpuint (empty->len, ==, 0);

  /* A repeated index, a repeated position and a zero-area (collinear) one. */
  mesh_init (&degenerate);
  add_vertex (&degenerate, 0, 0, 0);
  add_vertex (&degenerate, 1, 0, 0);
  add_vertex (&degenerate, 2, 0, 0);
  add_vertex (&degenerate, 0, 0, 0);
  for (int i = 0; i < 64; i++)
    {
      add_triangle (&degenerate, 0, 0, 1);
      add_triangle (&degenerate, 0, 1, 3);
      add_triangle (&degenerate, 0, 1, 2);
    }
  degenerate_levels = simplify (&degenerate, 1, G_MAXDOUBLE);
  g_assert_cmpuint (degenerate_levels->len, ==, 0);
}

/* Two flat grids crossing along a line (y = ½, z = 0): its edges are used
 * by three triangles each, and stay so. */
static void
test_non_manifold_edge (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  guint n = 32, base;
  g_autoptr(GArray) line = g_array_new (FALSE, FALSE, sizeof (guint32));

  flat_grid (&mesh, n);
  /* The fin: x from 0 to 1, z from 0 to 1 at y = ½ (row n/2 of the grid). */
  base = mesh.positions->len / 3;
  for (guint i = 0; i <= n; i++)
    for (guint k = 0; k <= n; k++)
      add_vertex (&mesh, (double) i / n, 0.5, (double) k / n);
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < n; k++)
      {
        guint32 a = base + i * (n + 1) + k, b = a + n + 1;

        add_triangle (&mesh, a, b, b + 1);
        add_triangle (&mesh, a, b + 1, a + 1);
      }
  levels = simplify (&mesh, 16, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 1);
  for (guint i = 0; i < levels->len; i++)
    {
      BlSimplifyLevel *level = level_at (levels, i);
      const guint32 *idx = (const guint32 *) (gconstpointer) level->indices->data;

      /* Each segment of the line, as vertex positions, in three triangles. */
      for (guint s = 0; s < n; s++)
        {
          guint uses = 0;

          for (guint t = 0; t < n_level_triangles (level); t++)
            {
              gboolean has_a = FALSE, has_b = FALSE;

              for (int k = 0; k < 3; k++)
                {
                  const float *p = vertex_of (&mesh, idx[3 * t + k]);

                  if (p[1] == 0.5f && p[2] == 0.0f && p[0] == (float) s / n)
                    has_a = TRUE;
                  if (p[1] == 0.5f && p[2] == 0.0f && p[0] == (float) (s + 1) / n)
                    has_b = TRUE;
                }
              uses += has_a && has_b;
            }
          g_assert_cmpuint (uses, ==, 3);
        }
    }
}

/* Every triangle with its own three vertices (as an STL loader leaves
 * them): simplified as the welded mesh, into a closed manifold. */
static void
test_unwelded (void)
{
  g_auto(Mesh) welded = { 0 };
  g_auto(Mesh) soup = { 0 };
  g_autoptr(GPtrArray) welded_levels = NULL;
  g_autoptr(GPtrArray) soup_levels = NULL;

  sphere (&welded, 64, 40);
  mesh_init (&soup);
  for (guint i = 0; i < welded.indices->len; i++)
    {
      const float *p = vertex_of (&welded, g_array_index (welded.indices, guint32, i));

      g_array_append_vals (soup.positions, p, 3);
      g_array_append_val (soup.indices, i);
    }
  welded_levels = simplify (&welded, 32, G_MAXDOUBLE);
  soup_levels = simplify (&soup, 32, G_MAXDOUBLE);
  g_assert_cmpuint (soup_levels->len, ==, welded_levels->len);
  for (guint i = 0; i < soup_levels->len; i++)
    {
      BlSimplifyLevel *a = level_at (welded_levels, i), *b = level_at (soup_levels, i);

      assert_closed_manifold (&soup, b->indices);
      g_assert_cmpfloat (fabs ((double) n_level_triangles (a) - n_level_triangles (b)), <=, 0.05 * n_level_triangles (a));
      g_assert_cmpfloat (b->error, <=, 2 * a->error);
      g_assert_cmpfloat (a->error, <=, 2 * b->error);
    }
}

/* The viewport's own sphere (stride 6 with normals; the poles' vertices
 * repeated, and the seam's too, where sin 2π ≠ 0 leaves them apart by
 * 1e-16, as bl_tess_sphere makes it): welded by position, its levels keep
 * the seam's open edges as they are, each other edge between two
 * triangles wound opposite ways, and lie inside the unit ball. */
static void
test_tess_sphere (void)
{
  g_autoptr(BlTessMesh) tess = bl_tess_sphere (128, 64);
  g_auto(Mesh) xyz = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  g_autoptr(GHashTable) first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) welded = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GHashTable) seam = NULL;
  guint stride = bl_tess_mesh_get_stride (tess), n_vertices = bl_tess_mesh_get_n_vertices (tess);
  g_autofree guint32 *rep = g_new (guint32, n_vertices);
  const guint32 *idx = (const guint32 *) tess->indices->data;

  g_assert_cmpuint (stride, ==, 6);
  mesh_init (&xyz);
  for (guint v = 0; v < n_vertices; v++)
    {
      const float *p = (const float *) tess->vertices->data + stride * v;
      guint32 bits[3];
      char *key;
      gpointer found;

      memcpy (bits, p, sizeof bits);
      key = g_strdup_printf ("%08x%08x%08x", bits[0], bits[1], bits[2]);
      g_array_append_vals (xyz.positions, p, 3);
      if (g_hash_table_lookup_extended (first, key, NULL, &found))
        {
          rep[v] = GPOINTER_TO_UINT (found);
          g_free (key);
        }
      else
        {
          rep[v] = v;
          g_hash_table_insert (first, key, GUINT_TO_POINTER (v));
        }
    }
  for (guint t = 0; t < bl_tess_mesh_get_n_triangles (tess); t++)
    {
      guint32 w[3] = { rep[idx[3 * t]], rep[idx[3 * t + 1]], rep[idx[3 * t + 2]] };

      if (w[0] != w[1] && w[1] != w[2] && w[2] != w[0])
        g_array_append_vals (welded, w, 3);
    }
  seam = boundary_edges (welded);
  g_assert_cmpuint (g_hash_table_size (seam), ==, 2 * 64);   /* both sides of the seam, pole to pole */

  levels = bl_simplify_levels ((const float *) tess->vertices->data, stride, n_vertices, idx,
                               bl_tess_mesh_get_n_triangles (tess), 64, G_MAXDOUBLE, NULL);
  g_assert_nonnull (levels);
  g_assert_cmpuint (levels->len, >=, 3);
  for (guint i = 0; i < levels->len; i++)
    {
      BlSimplifyLevel *level = level_at (levels, i);
      g_autoptr(GHashTable) level_seam = boundary_edges (level->indices);
      g_autoptr(GHashTable) directed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      const guint32 *lidx = (const guint32 *) (gconstpointer) level->indices->data;
      double v = volume (&xyz, level->indices);
      GHashTableIter iter;
      gpointer key;

      for (guint t = 0; t < level->indices->len; t++)
        {
          gint64 *edge = g_new (gint64, 1);

          *edge = (gint64) edge_key (lidx[t], lidx[t / 3 * 3 + (t + 1) % 3]);
          g_assert_true (g_hash_table_add (directed, edge));
        }
      g_assert_cmpuint (g_hash_table_size (level_seam), ==, g_hash_table_size (seam));
      g_hash_table_iter_init (&iter, seam);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_assert_true (g_hash_table_contains (level_seam, key));
      g_assert_cmpfloat (v, <=, 4 * G_PI / 3 * pow (1 + 1e-7, 3));
      g_assert_cmpfloat (v, >=, 4 * G_PI / 3 * pow (1 - 2 * level->error, 3));
    }
}

/* Two spheres apart: both stay, each closed. */
static void
test_two_spheres (void)
{
  static const double left[3] = { -2, 0, 0 }, right[3] = { 2, 0, 0 };
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;

  mesh_init (&mesh);
  add_sphere (&mesh, 64, 40, left);
  add_sphere (&mesh, 64, 40, right);
  levels = simplify (&mesh, 64, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 2);
  for (guint i = 0; i < levels->len; i++)
    {
      BlSimplifyLevel *level = level_at (levels, i);
      const guint32 *idx = (const guint32 *) (gconstpointer) level->indices->data;
      g_autoptr(GArray) left_side = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) right_side = g_array_new (FALSE, FALSE, sizeof (guint32));
      GArray *sides[2] = { left_side, right_side };

      for (guint t = 0; t < n_level_triangles (level); t++)
        g_array_append_vals (sides[vertex_of (&mesh, idx[3 * t])[0] > 0], idx + 3 * t, 3);
      for (int s = 0; s < 2; s++)
        {
          /* Each a closed manifold around its centre: its volume about a
           * unit ball's (inscribed: less, by at most the chords). */
          double v = volume (&mesh, sides[s]);

          assert_closed_manifold (&mesh, sides[s]);
          g_assert_cmpfloat (v, <=, 4 * G_PI / 3 * (1 + 1e-6));
          g_assert_cmpfloat (v, >=, 4 * G_PI / 3 * pow (1 - 2 * level->error, 3) * 0.9);
        }
    }
}

/* No level's error exceeds MAX_ERROR, and a smaller limit stops sooner. */
static void
test_max_error (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) limited = NULL;
  double limit;

  sphere (&mesh, 128, 64);
  all = simplify (&mesh, 16, G_MAXDOUBLE);
  g_assert_cmpuint (all->len, >=, 4);
  /* Between the second and the third level's errors. */
  limit = (level_at (all, 1)->error + level_at (all, 2)->error) / 2;
  limited = simplify (&mesh, 16, limit);
  g_assert_cmpuint (limited->len, >=, 1);
  g_assert_cmpuint (limited->len, <, all->len);
  for (guint i = 0; i < limited->len; i++)
    g_assert_cmpfloat (level_at (limited, i)->error, <=, limit);
}

static void
test_cancelled (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GPtrArray *levels;

  sphere (&mesh, 64, 40);
  g_cancellable_cancel (cancellable);
  levels = bl_simplify_levels ((const float *) mesh.positions->data, 3, mesh.positions->len / 3,
                               (const guint32 *) mesh.indices->data, mesh.indices->len / 3,
                               16, G_MAXDOUBLE, cancellable);
  g_assert_null (levels);
}

/* A torus from the shared generator: closed, and its levels too. */
static void
test_torus (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  guint nu, nv;

  torus_grid_for (1.0, 0.35, 20000, &nu, &nv);
  torus_mesh (1.0, 0.35, nu, nv, &mesh.positions, &mesh.indices);
  assert_closed_manifold (&mesh, mesh.indices);
  /* The volume of the torus is 2π² R r²; the grid's polyhedron is inside. */
  g_assert_cmpfloat (volume (&mesh, mesh.indices), <=, 2 * G_PI * G_PI * 0.35 * 0.35);
  g_assert_cmpfloat (volume (&mesh, mesh.indices), >=, 0.99 * 2 * G_PI * G_PI * 0.35 * 0.35);
  levels = simplify (&mesh, 64, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 3);
  for (guint i = 0; i < levels->len; i++)
    assert_closed_manifold (&mesh, level_at (levels, i)->indices);
}

/* The number of distinct vertices INDICES uses. */
static guint
n_distinct (const GArray *indices)
{
  g_autoptr(GHashTable) used = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < indices->len; i++)
    g_hash_table_add (used, GUINT_TO_POINTER (g_array_index (indices, guint32, i)));
  return g_hash_table_size (used);
}

/* Smooth normals split at creases: exactly the face normals on a cube. */
static void
test_smooth_cube (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  g_autoptr(BlTessMesh) smooth = NULL;
  const float *v;
  const guint32 *idx;

  cube (&mesh, 8);
  levels = simplify (&mesh, 12, 1e-6);
  g_assert_cmpuint (levels->len, >=, 1);
  smooth = bl_simplify_smooth_mesh ((const float *) mesh.positions->data, 3, level_at (levels, 0)->indices, 30.0);
  g_assert_true (smooth->has_normals);
  g_assert_cmpuint (smooth->indices->len, ==, level_at (levels, 0)->indices->len);
  v = (const float *) smooth->vertices->data;
  idx = (const guint32 *) smooth->indices->data;
  for (guint t = 0; t < smooth->indices->len / 3; t++)
    {
      int axis = -1;
      float sign = 0;

      /* The face: the coordinate all three corners share at ±½. */
      for (int a = 0; a < 3; a++)
        if (fabsf (v[6 * idx[3 * t] + a]) == 0.5f && v[6 * idx[3 * t] + a] == v[6 * idx[3 * t + 1] + a]
            && v[6 * idx[3 * t] + a] == v[6 * idx[3 * t + 2] + a])
          {
            axis = a;
            sign = v[6 * idx[3 * t] + a] > 0 ? 1.0f : -1.0f;
          }
      g_assert_cmpint (axis, >=, 0);
      for (int k = 0; k < 3; k++)
        {
          const float *p = v + 6 * idx[3 * t + k];
          const float *orig = vertex_of (&mesh, g_array_index (level_at (levels, 0)->indices, guint32, 3 * t + k));

          g_assert_cmpmem (p, 3 * sizeof (float), orig, 3 * sizeof (float));
          for (int a = 0; a < 3; a++)
            g_assert_cmpfloat (p[3 + a], ==, a == axis ? sign : 0.0f);
        }
    }
  /* Each corner of the cube is split in three (at least: a vertex on an
   * edge in two). */
  g_assert_cmpuint (smooth->vertices->len / 6, >=, n_distinct (level_at (levels, 0)->indices) + 8 * 2);
}

/* On a sphere level the smooth normals are the radial direction, within a
 * few degrees (the level's triangles span about 3°). */
static void
test_smooth_sphere (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  g_autoptr(BlTessMesh) smooth = NULL;
  const float *v;
  guint n;

  sphere (&mesh, 256, 128);
  levels = simplify (&mesh, 64, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 2);
  smooth = bl_simplify_smooth_mesh ((const float *) mesh.positions->data, 3, level_at (levels, 1)->indices, 60.0);
  v = (const float *) smooth->vertices->data;
  n = smooth->vertices->len / 6;
  for (guint i = 0; i < n; i++)
    {
      double p[3] = { v[6 * i], v[6 * i + 1], v[6 * i + 2] }, nn[3] = { v[6 * i + 3], v[6 * i + 4], v[6 * i + 5] };

      g_assert_cmpfloat (fabs (sqrt (dot (nn, nn)) - 1.0), <=, 1e-6);
      g_assert_cmpfloat (dot (p, nn) / sqrt (dot (p, p)), >=, cos (5.0 * G_PI / 180));
    }
  /* Smooth: no vertex split (one per position the level uses). */
  g_assert_cmpuint (n, ==, n_distinct (level_at (levels, 1)->indices));
}

/* A vertex with more than 256 triangles around it (each pole of a sphere
 * of 2,000 slices: a hub) is neither removed nor collapsed into while it
 * is one, so that no check walks a huge ring; the rings around it thin
 * out, and the levels come as for any sphere, closed.  Drawn smooth, its
 * corners are shaded flat, each with its own triangle's normal; every
 * other vertex of the sphere gets its smooth normal, within a few degrees
 * of the radius (the stacks are 9° apart). */
static void
test_hubs (void)
{
  g_auto(Mesh) mesh = { 0 };
  g_autoptr(GPtrArray) levels = NULL;
  g_autoptr(BlTessMesh) smooth = NULL;
  guint32 south;
  const guint32 *idx, *out;
  const float *v;
  guint n_flat = 0;

  sphere (&mesh, 2000, 20);
  south = mesh.positions->len / 3 - 1;
  levels = simplify (&mesh, 64, G_MAXDOUBLE);
  g_assert_cmpuint (levels->len, >=, 3);
  for (guint l = 0; l < levels->len; l++)
    assert_closed_manifold (&mesh, level_at (levels, l)->indices);

  smooth = bl_simplify_smooth_mesh ((const float *) mesh.positions->data, 3, mesh.indices, 60.0);
  idx = (const guint32 *) (gconstpointer) mesh.indices->data;
  out = (const guint32 *) (gconstpointer) smooth->indices->data;
  v = (const float *) smooth->vertices->data;
  for (guint t = 0; t < mesh.indices->len / 3; t++)
    for (int k = 0; k < 3; k++)
      {
        const float *corner = v + 6 * out[3 * t + k];
        gboolean hub = idx[3 * t + k] == 0 || idx[3 * t + k] == south;
        double expected[3], len;

        if (hub)
          {
            const float *a = vertex_of (&mesh, idx[3 * t]), *b = vertex_of (&mesh, idx[3 * t + 1]);
            const float *c = vertex_of (&mesh, idx[3 * t + 2]);
            double e1[3], e2[3];

            for (int i = 0; i < 3; i++)
              {
                e1[i] = (double) b[i] - a[i];
                e2[i] = (double) c[i] - a[i];
              }
            expected[0] = e1[1] * e2[2] - e1[2] * e2[1];
            expected[1] = e1[2] * e2[0] - e1[0] * e2[2];
            expected[2] = e1[0] * e2[1] - e1[1] * e2[0];
            n_flat++;
          }
        else
          for (int i = 0; i < 3; i++)
            expected[i] = corner[i];   /* the position: the sphere's normal */
        len = sqrt (dot (expected, expected));
        for (int i = 0; i < 3; i++)
          g_assert_cmpfloat (fabs (corner[3 + i] - expected[i] / len), <=, hub ? 1e-6 : 0.05);
      }
  g_assert_cmpuint (n_flat, ==, 2 * 2000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/simplify/sphere", test_sphere);
  g_test_add_func ("/simplify/error-bounds-distance", test_error_bounds_distance);
  g_test_add_func ("/simplify/cube", test_cube);
  g_test_add_func ("/simplify/flat-grid", test_flat_grid);
  g_test_add_func ("/simplify/nothing-to-do", test_nothing_to_do);
  g_test_add_func ("/simplify/non-manifold-edge", test_non_manifold_edge);
  g_test_add_func ("/simplify/unwelded", test_unwelded);
  g_test_add_func ("/simplify/tess-sphere", test_tess_sphere);
  g_test_add_func ("/simplify/two-spheres", test_two_spheres);
  g_test_add_func ("/simplify/max-error", test_max_error);
  g_test_add_func ("/simplify/cancelled", test_cancelled);
  g_test_add_func ("/simplify/torus", test_torus);
  g_test_add_func ("/simplify/smooth-cube", test_smooth_cube);
  g_test_add_func ("/simplify/smooth-sphere", test_smooth_sphere);
  g_test_add_func ("/simplify/hubs", test_hubs);
  return g_test_run ();
}
