/* bl-cluster.c: triangle clusters of big meshes and the conservative per-frame tests that skip them.
 *
 * llvmpipe fetches, shades, clips and culls every triangle it is given on
 * the calling thread, even the half of a closed mesh that back-face culling
 * then drops.  A cluster that is wholly back-facing or wholly outside the
 * frustum can be left out of the draw: the picture stays the same pixel
 * for pixel provided no test ever drops a triangle that the GPU would have
 * drawn.  So every test has a margin, larger than what the GPU's single
 * precision can move a triangle or its plane by. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "bl-cluster.h"

/* Groups of the sort: the dominant axis of the normal and its sign, then
 * degenerate triangles (no normal). */
#define N_GROUPS 7
#define GROUP_DEGENERATE 6
/* Morton code of the centroid: bits per axis. */
#define MORTON_BITS 9

/* A triangle is dropped only if the eye is behind its plane by this much
 * of its distance (a sine: about 0.11°) plus the rounding terms. */
#define FACING_MARGIN 2e-3

/* The low MORTON_BITS bits of V, two zero bits after each. */
static guint32
spread_bits (guint32 v)
{
  v &= 0x3ff;
  v = (v | (v << 16)) & 0x030000ff;
  v = (v | (v << 8)) & 0x0300f00f;
  v = (v | (v << 4)) & 0x030c30c3;
  v = (v | (v << 2)) & 0x09249249;
  return v;
}

static guint32
morton3 (guint32 x,
         guint32 y,
         guint32 z)
{
  return spread_bits (x) | (spread_bits (y) << 1) | (spread_bits (z) << 2);
}

static void
vertex (const float *positions,
        guint        stride,
        guint32      index,
        double       p[3])
{
  const float *v = positions + (gsize) stride * index;

  p[0] = v[0];
  p[1] = v[1];
  p[2] = v[2];
}

/* The triangle's corners and its unnormalised normal (b − a) × (c − a). */
static void
triangle (const float   *positions,
          guint          stride,
          const guint32 *tri,
          double         p[3][3],
          double         n[3])
{
  double e1[3], e2[3];

  for (int k = 0; k < 3; k++)
    vertex (positions, stride, tri[k], p[k]);
  for (int k = 0; k < 3; k++)
    {
      e1[k] = p[1][k] - p[0][k];
      e2[k] = p[2][k] - p[0][k];
    }
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

static double
dot3 (const double a[3],
      const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Rounded up or down to float: a stored bound stays a bound (float
 * rounding is below 6e-8 of the value; the nudge is 1e-6 of it). */
static float
float_up (double x)
{
  return (float) (x + fabs (x) * 1e-6 + 1e-30);
}

static float
float_down (double x)
{
  return (float) (x - fabs (x) * 1e-6 - 1e-30);
}

/* LSD radix sort of (key << 32 | triangle) by the 30-bit key, 10 bits a pass. */
static void
radix_sort (guint64 *items,
            guint64 *scratch,
            gsize    n)
{
  for (int shift = 32; shift < 62; shift += 10)
    {
      g_autofree gsize *count = g_new0 (gsize, 1025);

      for (gsize i = 0; i < n; i++)
        count[((items[i] >> shift) & 0x3ff) + 1]++;
      if (count[((items[0] >> shift) & 0x3ff) + 1] == n)
        continue;   /* one value of these bits: already in order */
      for (int b = 0; b < 1024; b++)
        count[b + 1] += count[b];
      for (gsize i = 0; i < n; i++)
        scratch[count[(items[i] >> shift) & 0x3ff]++] = items[i];
      memcpy (items, scratch, n * sizeof *items);
    }
}

/* Fills CLUSTER's bounds from its triangles (the reordered INDICES);
 * NORMALS: room for cluster->count unit normals. */
static void
cluster_bounds (BlCluster     *cluster,
                const float   *positions,
                guint          stride,
                const guint32 *indices,
                double       (*normals)[3])
{
  double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE };
  double hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };
  double center[3], radius2 = 0.0, sum[3] = { 0, 0, 0 }, axis[3], len;
  double cos_cone = 1.0, offset = -G_MAXDOUBLE, inv_altitude = 0.0;
  gboolean degenerate = FALSE;

  for (guint32 i = 0; i < cluster->count; i++)
    {
      guint32 t = cluster->first + i;
      double p[3][3], longest2 = 0.0;

      triangle (positions, stride, indices + 3 * t, p, normals[i]);
      for (int k = 0; k < 3; k++)
        {
          double e[3] = { p[(k + 1) % 3][0] - p[k][0], p[(k + 1) % 3][1] - p[k][1], p[(k + 1) % 3][2] - p[k][2] };

          longest2 = MAX (longest2, dot3 (e, e));
          for (int a = 0; a < 3; a++)
            {
              lo[a] = MIN (lo[a], p[k][a]);
              hi[a] = MAX (hi[a], p[k][a]);
            }
        }
      len = sqrt (dot3 (normals[i], normals[i]));
      if (!(len > 0.0))
        {
          degenerate = TRUE;
          continue;
        }
      for (int a = 0; a < 3; a++)
        {
          normals[i][a] /= len;
          sum[a] += normals[i][a];
        }
      /* Twice the area over the longest side: the smallest altitude. */
      inv_altitude = MAX (inv_altitude, sqrt (longest2) / len);
    }
  /* The stored (float) centre is the one every bound is measured from. */
  for (int a = 0; a < 3; a++)
    {
      cluster->center[a] = (float) (0.5 * (lo[a] + hi[a]));
      center[a] = cluster->center[a];
    }
  len = sqrt (dot3 (sum, sum));
  if (degenerate || !(len > 0.0))
    memset (axis, 0, sizeof axis);
  else
    for (int a = 0; a < 3; a++)
      {
        cluster->axis[a] = (float) (sum[a] / len);
        axis[a] = cluster->axis[a];
      }

  for (guint32 i = 0; i < cluster->count; i++)
    {
      guint32 t = cluster->first + i;

      for (int k = 0; k < 3; k++)
        {
          double p[3], d[3];

          vertex (positions, stride, indices[3 * t + k], p);
          for (int a = 0; a < 3; a++)
            d[a] = center[a] - p[a];
          radius2 = MAX (radius2, dot3 (d, d));
          /* n·(centre − p) is the same for every point of the triangle's
           * plane (up to rounding: the largest of the three). */
          if (!degenerate)
            offset = MAX (offset, dot3 (normals[i], d));
        }
      if (!degenerate)
        cos_cone = MIN (cos_cone, dot3 (normals[i], axis));
    }
  /* A non-finite coordinate: never skipped. */
  if (!isfinite (radius2) || !isfinite (center[0] + center[1] + center[2]))
    {
      memset (cluster->center, 0, sizeof cluster->center);
      cluster->radius = FLT_MAX;
      memset (cluster->axis, 0, sizeof cluster->axis);
      return;
    }
  cluster->radius = float_up (sqrt (radius2));
  /* No normal, or a cone wider than nearly all directions: drops nothing
   * as back-facing. */
  if (degenerate || !(len > 0.0) || !(cos_cone >= -0.99) || !isfinite (offset) || !isfinite (inv_altitude))
    {
      memset (cluster->axis, 0, sizeof cluster->axis);
      return;
    }
  /* The axis was rounded to float (its length is within 1e-7 of 1): 1e-6
   * covers it. */
  cluster->cos_cone = float_down (cos_cone - 1e-6);
  cluster->sin_cone = float_up (MIN (1.0, sqrt (MAX (0.0, 1.0 - (double) cluster->cos_cone * cluster->cos_cone)) + 1e-6));
  cluster->plane_offset = float_up (offset + 1e-6 * sqrt (radius2));
  cluster->inv_altitude = float_up (inv_altitude);
}

GArray *
bl_cluster_build (const float *positions,
                  guint        stride,
                  guint32     *indices,
                  guint        n_triangles,
                  guint        target)
{
  GArray *clusters = g_array_new (FALSE, TRUE, sizeof (BlCluster));
  g_autofree guint64 *items = NULL;
  g_autofree guint64 *scratch = NULL;
  g_autofree guint32 *sorted = NULL;
  g_autofree double (*normals)[3] = NULL;
  float lo[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, hi[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
  double scale[3];

  if (n_triangles == 0)
    return clusters;
  target = MAX (target, 1);
  items = g_new (guint64, n_triangles);
  scratch = g_new (guint64, n_triangles);
  normals = g_malloc_n (target, sizeof *normals);

  /* Centroids (times 3) and their bounds. */
  for (guint t = 0; t < n_triangles; t++)
    for (int a = 0; a < 3; a++)
      {
        float c = positions[(gsize) stride * indices[3 * t] + a] + positions[(gsize) stride * indices[3 * t + 1] + a]
                  + positions[(gsize) stride * indices[3 * t + 2] + a];

        lo[a] = MIN (lo[a], c);
        hi[a] = MAX (hi[a], c);
      }
  for (int a = 0; a < 3; a++)
    scale[a] = hi[a] > lo[a] ? ((1 << MORTON_BITS) - 1) / ((double) hi[a] - lo[a]) : 0.0;

  for (guint t = 0; t < n_triangles; t++)
    {
      double p[3][3], n[3], an[3];
      guint32 q[3], group;
      int axis;

      triangle (positions, stride, indices + 3 * t, p, n);
      for (int a = 0; a < 3; a++)
        {
          float c = positions[(gsize) stride * indices[3 * t] + a] + positions[(gsize) stride * indices[3 * t + 1] + a]
                    + positions[(gsize) stride * indices[3 * t + 2] + a];

          double cell = (c - lo[a]) * scale[a] + 0.5;

          /* (Not a number, from a non-finite coordinate: cell 0.) */
          q[a] = cell >= 0.0 ? (guint32) MIN (cell, (1 << MORTON_BITS) - 1) : 0;
          an[a] = fabs (n[a]);
        }
      axis = an[0] >= an[1] && an[0] >= an[2] ? 0 : an[1] >= an[2] ? 1 : 2;
      group = !(an[axis] > 0.0) ? GROUP_DEGENERATE : (guint32) (2 * axis + (n[axis] < 0.0));
      items[t] = ((guint64) ((group << (3 * MORTON_BITS)) | morton3 (q[0], q[1], q[2])) << 32) | t;
    }
  radix_sort (items, scratch, n_triangles);

  sorted = g_new (guint32, 3 * (gsize) n_triangles);
  for (guint i = 0; i < n_triangles; i++)
    memcpy (sorted + 3 * (gsize) i, indices + 3 * (gsize) (guint32) items[i], 3 * sizeof (guint32));
  memcpy (indices, sorted, 3 * (gsize) n_triangles * sizeof (guint32));

  /* Runs of at most TARGET triangles, never across a group. */
  for (guint i = 0; i < n_triangles;)
    {
      guint32 group = (guint32) (items[i] >> (32 + 3 * MORTON_BITS));
      BlCluster cluster = { 0 };

      cluster.first = i;
      while (i < n_triangles && cluster.count < target && (guint32) (items[i] >> (32 + 3 * MORTON_BITS)) == group)
        {
          cluster.count++;
          i++;
        }
      cluster_bounds (&cluster, positions, stride, indices, normals);
      g_array_append_val (clusters, cluster);
    }
  return clusters;
}

void
bl_cluster_renumber (guint32     *indices,
                     gsize        n_indices,
                     const float *vertices,
                     guint        stride,
                     guint        n_vertices,
                     float       *vertices_out)
{
  g_autofree guint32 *new_index = g_new (guint32, n_vertices);
  guint32 next = 0;

  memset (new_index, 0xff, n_vertices * sizeof (guint32));
  for (gsize i = 0; i < n_indices; i++)
    {
      guint32 old = indices[i];

      if (new_index[old] == G_MAXUINT32)
        {
          new_index[old] = next;
          memcpy (vertices_out + (gsize) stride * next, vertices + (gsize) stride * old, stride * sizeof (float));
          next++;
        }
      indices[i] = new_index[old];
    }
  for (guint32 v = 0; v < n_vertices; v++)
    if (new_index[v] == G_MAXUINT32)
      {
        memcpy (vertices_out + (gsize) stride * next, vertices + (gsize) stride * v, stride * sizeof (float));
        next++;
      }
}

gboolean
bl_cluster_view_init (BlClusterView *view,
                      const float    model[16],
                      const float    planes[6][4],
                      const double   eye[3],
                      double         mesh_radius,
                      gboolean       backfaces)
{
  double m[3][3], inv[3][3], t[3], det, frob = 0.0, inv_frob = 0.0, rel[3];

  for (int c = 0; c < 3; c++)
    for (int r = 0; r < 3; r++)
      m[r][c] = model[4 * c + r];
  for (int r = 0; r < 3; r++)
    t[r] = model[12 + r];
  det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      frob += m[r][c] * m[r][c];
  frob = sqrt (frob);
  /* Singular (or nearly: the inverse would be noise): skip nothing. */
  if (!isfinite (det) || !(fabs (det) > 1e-12 * frob * frob * frob))
    return FALSE;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      {
        int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;

        /* The adjugate over the determinant. */
        inv[r][c] = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / det;
        inv_frob += inv[r][c] * inv[r][c];
      }
  inv_frob = sqrt (inv_frob);

  for (int k = 0; k < 3; k++)
    rel[k] = eye[k] - t[k];
  for (int r = 0; r < 3; r++)
    view->eye[r] = inv[r][0] * rel[0] + inv[r][1] * rel[1] + inv[r][2] * rel[2];

  /* World plane p·x + d over x = M y + t: (Mᵀp)·y + (p·t + d). */
  for (int p = 0; p < 6; p++)
    {
      double len = 0.0;

      for (int c = 0; c < 3; c++)
        {
          view->planes[p][c] = m[0][c] * planes[p][0] + m[1][c] * planes[p][1] + m[2][c] * planes[p][2];
          len += view->planes[p][c] * view->planes[p][c];
        }
      view->planes[p][3] = planes[p][0] * t[0] + planes[p][1] * t[1] + planes[p][2] * t[2] + planes[p][3];
      view->plane_norm[p] = sqrt (len);
    }

  /* Single precision through the model and camera transforms: a few ulps
   * of the largest coordinate involved, generously. */
  view->world_error = 2e-6 * (sqrt (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) + frob * mesh_radius
                              + sqrt (dot3 (eye, eye)))
                      + 1e-30;
  view->local_error = view->world_error * inv_frob;
  view->backfaces = backfaces && det > 0.0;
  return TRUE;
}

gboolean
bl_cluster_is_visible (const BlCluster     *cluster,
                       const BlClusterView *view)
{
  double center[3] = { cluster->center[0], cluster->center[1], cluster->center[2] };
  double axis[3] = { cluster->axis[0], cluster->axis[1], cluster->axis[2] };
  double d[3], dist, max_dot, reach, margin;

  for (int p = 0; p < 6; p++)
    if (dot3 (view->planes[p], center) + view->planes[p][3] + cluster->radius * view->plane_norm[p]
        < -4.0 * view->world_error)
      return FALSE;

  if (!view->backfaces || (axis[0] == 0.0 && axis[1] == 0.0 && axis[2] == 0.0))
    return TRUE;

  /* For a triangle with unit normal n through p (n within the cone, p in
   * the sphere): n·(eye − p) = n·(eye − centre) + n·(centre − p)
   * ≤ max over the cone of n·(eye − centre) + plane_offset.  When that is
   * below −margin, every triangle faces away. */
  for (int k = 0; k < 3; k++)
    d[k] = view->eye[k] - center[k];
  dist = sqrt (dot3 (d, d));
  if (dist > 0.0)
    {
      double cos_phi = CLAMP (dot3 (axis, d) / (dist * sqrt (dot3 (axis, axis))), -1.0, 1.0);

      if (cos_phi >= cluster->cos_cone)
        max_dot = dist;
      else
        max_dot = dist * (cos_phi * cluster->cos_cone + sqrt (1.0 - cos_phi * cos_phi) * cluster->sin_cone);
    }
  else
    max_dot = 0.0;

  /* The GPU decides on rounded vertices: rounding of ε tilts a triangle's
   * plane by about ε / altitude, which moves it by that times the
   * distance at the eye. */
  reach = dist + cluster->radius;
  margin = reach * (FACING_MARGIN + 8.0 * view->local_error * cluster->inv_altitude) + 8.0 * view->local_error;
  return max_dot + cluster->plane_offset >= -margin;
}
