/* bl-mesh-integrate.c: the volume integrals of closed triangle surfaces
 * (Eberly), in SIMD lanes and, for large meshes, in threads. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-mesh-private.h"

/* Eberly, "Polyhedral Mass Properties (Revisited)". */

/* Accumulates one triangle's unscaled terms, in the order
 * 1, x, y, z, x², y², z², xy, yz, zx. */
void
bl_mesh_integrate_triangle (const double a[3],
                            const double b[3],
                            const double c[3],
                            double       acc[BL_MESH_N_MOMENTS])
{
  double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  double n[3] = {
    e1[1] * e2[2] - e1[2] * e2[1],
    e1[2] * e2[0] - e1[0] * e2[2],
    e1[0] * e2[1] - e1[1] * e2[0],
  };
  double f1[3], f2[3], f3[3], g0[3], g1[3], g2[3];

  for (int k = 0; k < 3; k++)
    {
      double w0 = a[k], w1 = b[k], w2 = c[k];
      double t0 = w0 + w1;
      double t1 = w0 * w0;
      double t2 = t1 + w1 * t0;

      f1[k] = t0 + w2;
      f2[k] = t2 + w2 * f1[k];
      f3[k] = w0 * t1 + w1 * t2 + w2 * f2[k];
      g0[k] = f2[k] + w0 * (f1[k] + w0);
      g1[k] = f2[k] + w1 * (f1[k] + w1);
      g2[k] = f2[k] + w2 * (f1[k] + w2);
    }

  acc[0] += n[0] * f1[0];
  acc[1] += n[0] * f2[0];
  acc[2] += n[1] * f2[1];
  acc[3] += n[2] * f2[2];
  acc[4] += n[0] * f3[0];
  acc[5] += n[1] * f3[1];
  acc[6] += n[2] * f3[2];
  acc[7] += n[0] * (a[1] * g0[0] + b[1] * g1[0] + c[1] * g2[0]);
  acc[8] += n[1] * (a[2] * g0[1] + b[2] * g1[1] + c[2] * g2[1]);
  acc[9] += n[2] * (a[0] * g0[2] + b[0] * g1[2] + c[0] * g2[2]);
}

void
bl_mesh_scale_moments (double acc[BL_MESH_N_MOMENTS])
{
  acc[0] /= 6.0;
  for (int i = 1; i <= 3; i++)
    acc[i] /= 24.0;
  for (int i = 4; i <= 6; i++)
    acc[i] /= 60.0;
  for (int i = 7; i <= 9; i++)
    acc[i] /= 120.0;
}

/* The bulk integrator: triangles are gathered LANES at a time into
 * structure-of-arrays blocks so that the arithmetic runs in SIMD lanes
 * (each lane keeps its own sums; they are added at the end). */
#define LANES 8

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define BL_VECTORIZE __attribute__ ((optimize ("O3", "tree-vectorize"), target_clones ("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define BL_VECTORIZE __attribute__ ((optimize ("O3", "tree-vectorize")))
#else
#define BL_VECTORIZE
#endif

BL_VECTORIZE static void
integrate_range (const double  *vertices,
                 const guint32 *indices,
                 gsize          first,
                 gsize          last,
                 const double   ref[3],
                 double         acc[BL_MESH_N_MOMENTS])
{
  double lane[BL_MESH_N_MOMENTS][LANES] = { { 0 } };
  double sum[BL_MESH_N_MOMENTS] = { 0 };
  double rx = ref[0], ry = ref[1], rz = ref[2];
  gsize t = first;

  for (; t + LANES <= last; t += LANES)
    {
      double x0[LANES], y0[LANES], z0[LANES];
      double x1[LANES], y1[LANES], z1[LANES];
      double x2[LANES], y2[LANES], z2[LANES];

      for (int l = 0; l < LANES; l++)
        {
          const guint32 *tri = &indices[3 * (t + l)];
          const double *a = &vertices[3 * (gsize) tri[0]];
          const double *b = &vertices[3 * (gsize) tri[1]];
          const double *c = &vertices[3 * (gsize) tri[2]];

          x0[l] = a[0] - rx; y0[l] = a[1] - ry; z0[l] = a[2] - rz;
          x1[l] = b[0] - rx; y1[l] = b[1] - ry; z1[l] = b[2] - rz;
          x2[l] = c[0] - rx; y2[l] = c[1] - ry; z2[l] = c[2] - rz;
        }

      for (int l = 0; l < LANES; l++)
        {
          double e1x = x1[l] - x0[l], e1y = y1[l] - y0[l], e1z = z1[l] - z0[l];
          double e2x = x2[l] - x0[l], e2y = y2[l] - y0[l], e2z = z2[l] - z0[l];
          double nx = e1y * e2z - e1z * e2y;
          double ny = e1z * e2x - e1x * e2z;
          double nz = e1x * e2y - e1y * e2x;
          /* x */
          double tx0 = x0[l] + x1[l], tx1 = x0[l] * x0[l], tx2 = tx1 + x1[l] * tx0;
          double f1x = tx0 + x2[l], f2x = tx2 + x2[l] * f1x;
          double f3x = x0[l] * tx1 + x1[l] * tx2 + x2[l] * f2x;
          double g0x = f2x + x0[l] * (f1x + x0[l]);
          double g1x = f2x + x1[l] * (f1x + x1[l]);
          double g2x = f2x + x2[l] * (f1x + x2[l]);
          /* y */
          double ty0 = y0[l] + y1[l], ty1 = y0[l] * y0[l], ty2 = ty1 + y1[l] * ty0;
          double f1y = ty0 + y2[l], f2y = ty2 + y2[l] * f1y;
          double f3y = y0[l] * ty1 + y1[l] * ty2 + y2[l] * f2y;
          double g0y = f2y + y0[l] * (f1y + y0[l]);
          double g1y = f2y + y1[l] * (f1y + y1[l]);
          double g2y = f2y + y2[l] * (f1y + y2[l]);
          /* z */
          double tz0 = z0[l] + z1[l], tz1 = z0[l] * z0[l], tz2 = tz1 + z1[l] * tz0;
          double f1z = tz0 + z2[l], f2z = tz2 + z2[l] * f1z;
          double f3z = z0[l] * tz1 + z1[l] * tz2 + z2[l] * f2z;
          double g0z = f2z + z0[l] * (f1z + z0[l]);
          double g1z = f2z + z1[l] * (f1z + z1[l]);
          double g2z = f2z + z2[l] * (f1z + z2[l]);

          lane[0][l] += nx * f1x;
          lane[1][l] += nx * f2x;
          lane[2][l] += ny * f2y;
          lane[3][l] += nz * f2z;
          lane[4][l] += nx * f3x;
          lane[5][l] += ny * f3y;
          lane[6][l] += nz * f3z;
          lane[7][l] += nx * (y0[l] * g0x + y1[l] * g1x + y2[l] * g2x);
          lane[8][l] += ny * (z0[l] * g0y + z1[l] * g1y + z2[l] * g2y);
          lane[9][l] += nz * (x0[l] * g0z + x1[l] * g1z + x2[l] * g2z);
        }
    }

  for (; t < last; t++)
    {
      const double *pa = &vertices[3 * (gsize) indices[3 * t]];
      const double *pb = &vertices[3 * (gsize) indices[3 * t + 1]];
      const double *pc = &vertices[3 * (gsize) indices[3 * t + 2]];
      double a[3] = { pa[0] - rx, pa[1] - ry, pa[2] - rz };
      double b[3] = { pb[0] - rx, pb[1] - ry, pb[2] - rz };
      double c[3] = { pc[0] - rx, pc[1] - ry, pc[2] - rz };

      bl_mesh_integrate_triangle (a, b, c, sum);
    }

  for (int k = 0; k < BL_MESH_N_MOMENTS; k++)
    {
      for (int l = 0; l < LANES; l++)
        sum[k] += lane[k][l];
      acc[k] += sum[k];
    }
}

typedef struct
{
  const double  *vertices;
  const guint32 *indices;
  gsize          first;
  gsize          last;
  const double  *ref;
  double         acc[BL_MESH_N_MOMENTS];
} IntegrateJob;

static gpointer
integrate_job_run (gpointer data)
{
  IntegrateJob *job = data;

  integrate_range (job->vertices, job->indices, job->first, job->last, job->ref, job->acc);
  return NULL;
}

/* How many pieces bl_mesh_integrate_moments splits N_TRIANGLES into. */
static guint
integrate_pieces (gsize n_triangles)
{
  return n_triangles >= BL_MESH_PARALLEL_THRESHOLD ? CLAMP (g_get_num_processors (), 1, 16) : 1;
}

/* The moments of the triangles, summed piece by piece as
 * bl_mesh_integrate_moments does (so bit for bit the same result); the
 * pieces run in threads when THREADED. */
void
bl_mesh_integrate_moments_threaded (const double  *vertices,
                                    const guint32 *indices,
                                    gsize          n_triangles,
                                    const double   ref[3],
                                    gboolean       threaded,
                                    double         moments[BL_MESH_N_MOMENTS])
{
  guint n_pieces = integrate_pieces (n_triangles);
  gint64 start = g_get_monotonic_time ();
  IntegrateJob jobs[16];
  GThread *threads[16] = { NULL };

  memset (moments, 0, BL_MESH_N_MOMENTS * sizeof (double));

  if (n_pieces == 1)
    {
      integrate_range (vertices, indices, 0, n_triangles, ref, moments);
    }
  else
    {
      for (guint i = 0; i < n_pieces; i++)
        {
          jobs[i] = (IntegrateJob) {
            vertices, indices,
            n_triangles * i / n_pieces, n_triangles * (i + 1) / n_pieces,
            ref, { 0 }
          };
        }
      for (guint i = 1; i < n_pieces; i++)
        {
          if (threaded)
            threads[i] = g_thread_new ("bl-mesh-integrate", integrate_job_run, &jobs[i]);
          else
            integrate_job_run (&jobs[i]);
        }
      integrate_job_run (&jobs[0]);
      for (guint i = 1; i < n_pieces; i++)
        if (threads[i] != NULL)
          g_thread_join (threads[i]);
      for (guint i = 0; i < n_pieces; i++)
        for (int k = 0; k < BL_MESH_N_MOMENTS; k++)
          moments[k] += jobs[i].acc[k];
    }

  bl_mesh_scale_moments (moments);
  bl_mesh_timings.integrate += bl_mesh_seconds_between (start, g_get_monotonic_time ());
}

void
bl_mesh_integrate_moments (const double  *vertices,
                           const guint32 *indices,
                           gsize          n_triangles,
                           const double   ref[3],
                           double         moments[BL_MESH_N_MOMENTS])
{
  bl_mesh_integrate_moments_threaded (vertices, indices, n_triangles, ref, TRUE, moments);
}

/* Volume, centroid and central tensor (unit density) from moments taken
 * about REF.  FALSE when the volume is zero. */
gboolean
bl_mesh_moments_to_props (const double  m[BL_MESH_N_MOMENTS],
                          const double  ref[3],
                          double       *volume,
                          BlVec3       *centroid,
                          BlMat3       *inertia)
{
  double v = m[0];
  double cx, cy, cz;
  double ixx, iyy, izz, ixy, iyz, ixz;

  if (v == 0.0 || !isfinite (v))
    {
      *volume = 0.0;
      *centroid = bl_vec3 (ref[0], ref[1], ref[2]);
      memset (inertia, 0, sizeof *inertia);
      return FALSE;
    }

  cx = m[1] / v;
  cy = m[2] / v;
  cz = m[3] / v;
  ixx = m[5] + m[6] - v * (cy * cy + cz * cz);
  iyy = m[6] + m[4] - v * (cz * cz + cx * cx);
  izz = m[4] + m[5] - v * (cx * cx + cy * cy);
  ixy = -(m[7] - v * cx * cy);
  iyz = -(m[8] - v * cy * cz);
  ixz = -(m[9] - v * cz * cx);

  *volume = v;
  *centroid = bl_vec3 (cx + ref[0], cy + ref[1], cz + ref[2]);
  *inertia = (BlMat3) { {
    { ixx, ixy, ixz },
    { ixy, iyy, iyz },
    { ixz, iyz, izz },
  } };
  return TRUE;
}
