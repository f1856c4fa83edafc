/* bl-panel.c: added mass by a constant-strength panel method (see bl-panel.h):
 * the influence matrix, its GMRES solve on several threads, and the
 * estimate from two resolutions.  The surface it solves on is built in
 * bl-panel-surface.c. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-panel.h"

/* ---- Influences ------------------------------------------------------------ */

typedef struct
{
  double corners[9];
  double centroid[3];
  double normal[3];     /* unit */
  double area;
  double radius;        /* largest distance from the centroid to a corner */
} Panel;

/* Panels farther than this many radii are points: the error of the point
 * rule for 1/r falls as (radius/distance)² with a zero mean over
 * directions (1/r is harmonic), below 1e-3 here. */
#define NEAR_RADII 6.0

static void
influence (const Panel  *p,
           const double  x[3],
           double       *single,
           double       *solid)
{
  double d[3] = { p->centroid[0] - x[0], p->centroid[1] - x[1], p->centroid[2] - x[2] };
  double dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  double limit = NEAR_RADII * p->radius;

  if (dist2 > limit * limit)
    {
      double dist = sqrt (dist2);

      *single = p->area / dist;
      *solid = p->area * (d[0] * p->normal[0] + d[1] * p->normal[1] + d[2] * p->normal[2]) / (dist2 * dist);
      return;
    }
  bl_panel_triangle_integrals (p->corners, x, single, solid);
}

/* ---- Solve ------------------------------------------------------------------ */

typedef struct
{
  const Panel  *panels;
  gsize         n;
  float        *matrix;     /* n × n, row major */
  double       *rhs;        /* 6 × n */
  const double *modes;      /* n × 6: n_k of each panel */
  volatile gint next_row;
  volatile gint rows_done;
  GCancellable *cancellable;
} Assembly;

#define ROW_BLOCK 16

/* Assembles the next block of rows; FALSE when none is left. */
static gboolean
assemble_block (Assembly *as)
{
  gsize n = as->n;
  gsize first = (gsize) g_atomic_int_add (&as->next_row, ROW_BLOCK);

  if (first >= n || g_cancellable_is_cancelled (as->cancellable))
    return FALSE;
  for (gsize i = first; i < MIN (first + ROW_BLOCK, n); i++)
    {
      const double *x = as->panels[i].centroid;
      float *row = as->matrix + i * n;
      double b[6] = { 0 };

      for (gsize j = 0; j < n; j++)
        {
          double single, solid;

          influence (&as->panels[j], x, &single, &solid);
          /* At its own centroid a flat panel subtends no solid angle: the
           * diagonal is the ½ of the jump alone. */
          row[j] = j == i ? 0.5f : (float) (solid / (4 * G_PI));
          for (int k = 0; k < 6; k++)
            b[k] -= single * as->modes[6 * j + k];
        }
      for (int k = 0; k < 6; k++)
        as->rhs[k * n + i] = b[k] / (4 * G_PI);
    }
  g_atomic_int_add (&as->rows_done, (gint) (MIN (first + ROW_BLOCK, n) - first));
  return TRUE;
}

static gpointer
assemble_rows (gpointer data)
{
  while (assemble_block (data))
    ;
  return NULL;
}

typedef struct
{
  const float  *matrix;
  gsize         n;
  const double *x;     /* n × 6, interleaved: the six values of column j together */
  double       *y;     /* 6 × n */
  gsize         first, end;
} Product;

static gpointer
multiply_rows (gpointer data)
{
  Product *p = data;

  for (gsize i = p->first; i < p->end; i++)
    {
      const float *row = p->matrix + i * p->n;
      const double *x = p->x;
      double acc[6] = { 0 };

      for (gsize j = 0; j < p->n; j++, x += 6)
        {
          double a = row[j];
          acc[0] += a * x[0];
          acc[1] += a * x[1];
          acc[2] += a * x[2];
          acc[3] += a * x[3];
          acc[4] += a * x[4];
          acc[5] += a * x[5];
        }
      for (int k = 0; k < 6; k++)
        p->y[k * p->n + i] = acc[k];
    }
  return NULL;
}

static guint
n_threads (void)
{
  return CLAMP (g_get_num_processors (), 1, 8);
}

/* y = A x for six vectors at once (6 × n each): one pass over the matrix. */
static void
multiply (const float  *matrix,
          gsize         n,
          const double *x,
          double       *y)
{
  guint threads = n_threads ();
  g_autofree double *interleaved = g_new (double, 6 * n);
  Product parts[8];
  GThread *workers[8];

  for (gsize j = 0; j < n; j++)
    for (int k = 0; k < 6; k++)
      interleaved[6 * j + k] = x[k * n + j];
  for (guint t = 0; t < threads; t++)
    parts[t] = (Product) { matrix, n, interleaved, y, n * t / threads, n * (t + 1) / threads };
  for (guint t = 1; t < threads; t++)
    workers[t] = g_thread_new ("bl-panel", multiply_rows, &parts[t]);
  multiply_rows (&parts[0]);
  for (guint t = 1; t < threads; t++)
    g_thread_join (workers[t]);
}

static double
dot (const double *a,
     const double *b,
     gsize         n)
{
  double s = 0.0;

  for (gsize i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

#define RESTART 40
#define MAX_ITERATIONS 400
#define TOLERANCE 1e-9

/* Restarted GMRES for A x_k = b_k, k = 0…5, in lockstep (each iteration one
 * six-vector product).  x starts at 0.  Returns the iterations used, or 0
 * when some system did not reach TOLERANCE·|b_k|. */
static guint
gmres6 (const float  *matrix,
        gsize         n,
        const double *b,
        double       *x,
        GCancellable *cancellable)
{
  g_autofree double *basis = g_new (double, (gsize) (RESTART + 1) * 6 * n);
  g_autofree double *w = g_new (double, 6 * n);
  g_autofree double *ax = g_new (double, 6 * n);
  double hess[6][RESTART + 1][RESTART];
  double cs[6][RESTART], sn[6][RESTART], g[6][RESTART + 1];
  double bnorm[6];
  gboolean done[6];
  guint iterations = 0;

  memset (x, 0, 6 * n * sizeof (double));
  for (int k = 0; k < 6; k++)
    {
      bnorm[k] = sqrt (dot (b + k * n, b + k * n, n));
      done[k] = bnorm[k] == 0.0;
    }

  while (iterations < MAX_ITERATIONS)
    {
      int m = 0;
      gboolean all_done = TRUE;

      /* r = b − A x, the first basis vector r/|r|. */
      multiply (matrix, n, x, ax);
      for (int k = 0; k < 6; k++)
        {
          double *v0 = basis + k * n;
          double beta;

          for (gsize i = 0; i < n; i++)
            v0[i] = b[k * n + i] - ax[k * n + i];
          beta = sqrt (dot (v0, v0, n));
          if (done[k] || beta <= TOLERANCE * bnorm[k])
            {
              done[k] = TRUE;
              memset (v0, 0, n * sizeof (double));
              g[k][0] = 0.0;
              continue;
            }
          all_done = FALSE;
          for (gsize i = 0; i < n; i++)
            v0[i] /= beta;
          memset (g[k], 0, sizeof g[k]);
          g[k][0] = beta;
        }
      if (all_done)
        return MAX (iterations, 1);

      for (m = 0; m < RESTART && iterations < MAX_ITERATIONS; m++)
        {
          gboolean converged = TRUE;

          if (g_cancellable_is_cancelled (cancellable))
            return 0;
          multiply (matrix, n, basis + (gsize) m * 6 * n, w);
          iterations++;
          for (int k = 0; k < 6; k++)
            {
              double *wk = w + k * n, *next = basis + ((gsize) (m + 1) * 6 + k) * n;
              double norm, t;

              if (done[k])
                {
                  memset (next, 0, n * sizeof (double));
                  continue;
                }
              /* Modified Gram–Schmidt. */
              for (int i = 0; i <= m; i++)
                {
                  const double *vi = basis + ((gsize) i * 6 + k) * n;
                  double hij = dot (wk, vi, n);

                  hess[k][i][m] = hij;
                  for (gsize l = 0; l < n; l++)
                    wk[l] -= hij * vi[l];
                }
              norm = sqrt (dot (wk, wk, n));
              hess[k][m + 1][m] = norm;
              for (gsize l = 0; l < n; l++)
                next[l] = norm > 0.0 ? wk[l] / norm : 0.0;
              /* Givens rotations keep the Hessenberg matrix triangular. */
              for (int i = 0; i < m; i++)
                {
                  t = cs[k][i] * hess[k][i][m] + sn[k][i] * hess[k][i + 1][m];
                  hess[k][i + 1][m] = -sn[k][i] * hess[k][i][m] + cs[k][i] * hess[k][i + 1][m];
                  hess[k][i][m] = t;
                }
              t = hypot (hess[k][m][m], hess[k][m + 1][m]);
              cs[k][m] = t > 0.0 ? hess[k][m][m] / t : 1.0;
              sn[k][m] = t > 0.0 ? hess[k][m + 1][m] / t : 0.0;
              hess[k][m][m] = t;
              hess[k][m + 1][m] = 0.0;
              g[k][m + 1] = -sn[k][m] * g[k][m];
              g[k][m] = cs[k][m] * g[k][m];
              if (fabs (g[k][m + 1]) > TOLERANCE * bnorm[k])
                converged = FALSE;
            }
          if (converged)
            {
              m++;
              break;
            }
        }

      /* x += V y, H y = g (back substitution), for each unfinished system. */
      for (int k = 0; k < 6; k++)
        {
          double y[RESTART];

          if (done[k])
            continue;
          for (int i = m - 1; i >= 0; i--)
            {
              double s = g[k][i];
              for (int j = i + 1; j < m; j++)
                s -= hess[k][i][j] * y[j];
              y[i] = s / hess[k][i][i];
            }
          for (int i = 0; i < m; i++)
            {
              const double *vi = basis + ((gsize) i * 6 + k) * n;
              for (gsize l = 0; l < n; l++)
                x[k * n + l] += y[i] * vi[l];
            }
        }
    }
  return 0;
}

gboolean
bl_panel_solve (const BlPanelSurface *surface,
                double                rho,
                GCancellable         *cancellable,
                BlPanelProgressFunc   progress,
                gpointer              user_data,
                BlPanelSolution      *out,
                GError              **error)
{
  gsize n = surface->n_panels;
  g_autofree Panel *panels = NULL;
  g_autofree double *modes = NULL;
  g_autofree float *matrix = NULL;
  g_autofree double *rhs = NULL;
  g_autofree double *phi = NULL;
  Assembly as;
  GThread *workers[8];
  guint threads = n_threads (), iterations;
  BlMat6 mu;

  memset (out, 0, sizeof *out);
  if (n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "There is no surface to solve on");
      return FALSE;
    }
  if (n > BL_PANEL_MAX_PANELS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%zu panels are more than the panel method takes (%d: its matrix alone would need %zu MB)",
                   n, BL_PANEL_MAX_PANELS, (gsize) (4.0 * n * n / 1e6));
      return FALSE;
    }

  panels = g_new (Panel, n);
  modes = g_new (double, 6 * n);
  for (gsize i = 0; i < n; i++)
    {
      Panel *p = &panels[i];
      const double *c = surface->points + 9 * i;
      BlVec3 a = bl_vec3 (c[0], c[1], c[2]), b = bl_vec3 (c[3], c[4], c[5]), d = bl_vec3 (c[6], c[7], c[8]);
      BlVec3 centroid = bl_vec3_scale (bl_vec3_add (bl_vec3_add (a, b), d), 1.0 / 3);
      BlVec3 cross = bl_vec3_cross (bl_vec3_sub (b, a), bl_vec3_sub (d, a));
      double twice_area = bl_vec3_length (cross);
      BlVec3 normal = twice_area > 0.0 ? bl_vec3_scale (cross, 1.0 / twice_area) : BL_VEC3_ZERO;
      BlVec3 moment = bl_vec3_cross (centroid, normal);

      memcpy (p->corners, c, sizeof p->corners);
      p->centroid[0] = centroid.x; p->centroid[1] = centroid.y; p->centroid[2] = centroid.z;
      p->normal[0] = normal.x; p->normal[1] = normal.y; p->normal[2] = normal.z;
      p->area = twice_area / 2;
      p->radius = MAX (bl_vec3_length (bl_vec3_sub (a, centroid)),
                       MAX (bl_vec3_length (bl_vec3_sub (b, centroid)), bl_vec3_length (bl_vec3_sub (d, centroid))));
      if (!(twice_area > 0.0) || !isfinite (twice_area))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "Panel %zu has no area: the surface has a degenerate triangle", i);
          return FALSE;
        }
      /* n_k: translation modes n, rotation modes r × n about the link
       * origin (exact over the flat panel: r × n is linear in r). */
      modes[6 * i + 0] = normal.x; modes[6 * i + 1] = normal.y; modes[6 * i + 2] = normal.z;
      modes[6 * i + 3] = moment.x; modes[6 * i + 4] = moment.y; modes[6 * i + 5] = moment.z;
    }

  /* Panels wound inward would give the flow inside a cavity: a negative
   * added mass, silently. */
  if (!(bl_panel_surface_volume (surface) > 0.0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "The surface encloses no volume or is wound inward (its triangles' normals must point into the fluid)");
      return FALSE;
    }

  matrix = g_try_malloc ((gsize) n * n * sizeof (float));
  if (matrix == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "Not enough memory for the panel method's matrix (%zu MB)", (gsize) (4.0 * n * n / 1e6));
      return FALSE;
    }
  rhs = g_new (double, 6 * n);
  as = (Assembly) { panels, n, matrix, rhs, modes, 0, 0, cancellable };
  for (guint t = 1; t < threads; t++)
    workers[t] = g_thread_new ("bl-panel", assemble_rows, &as);
  /* The calling thread assembles too, and reports between its blocks. */
  while (assemble_block (&as))
    if (progress != NULL)
      progress (0.8 * g_atomic_int_get (&as.rows_done) / n, user_data);
  for (guint t = 1; t < threads; t++)
    g_thread_join (workers[t]);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (progress != NULL)
    progress (0.8, user_data);

  phi = g_new (double, 6 * n);
  iterations = gmres6 (matrix, n, rhs, phi, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (iterations == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "The panel method did not converge in %d iterations: the surface may not be closed",
                   MAX_ITERATIONS);
      return FALSE;
    }

  /* μ_jk = −ρ Σ_i φ_k(i) n_j(i) A_i. */
  mu = bl_mat6_zero ();
  for (gsize i = 0; i < n; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 6; k++)
        mu.m[j][k] -= rho * phi[k * n + i] * modes[6 * i + j] * panels[i].area;
  {
    double largest = bl_mat6_max_abs (&mu), asymmetry;

    out->added_mass = bl_mat6_symmetrize (&mu, &asymmetry, NULL, NULL);
    out->asymmetry = largest > 0.0 ? asymmetry / largest : 0.0;
  }
  out->iterations = iterations;
  out->n_panels = n;
  out->potentials = g_new (double, 6 * n);
  for (gsize i = 0; i < n; i++)
    for (int k = 0; k < 6; k++)
      out->potentials[6 * i + k] = phi[k * n + i];
  if (progress != NULL)
    progress (1.0, user_data);
  return TRUE;
}

void
bl_panel_solution_clear (BlPanelSolution *solution)
{
  g_clear_pointer (&solution->potentials, g_free);
}

/* ---- Two resolutions -------------------------------------------------------- */

typedef struct
{
  BlPanelProgressFunc progress;
  gpointer            user_data;
  double              offset, scale;
} Stage;

static void
stage_progress (double   fraction,
                gpointer data)
{
  Stage *stage = data;

  if (stage->progress != NULL)
    stage->progress (stage->offset + stage->scale * fraction, stage->user_data);
}

gboolean
bl_panel_estimate (const BlPanelBody    *bodies,
                   gsize                 n_bodies,
                   gsize                 budget,
                   double                rho,
                   GCancellable         *cancellable,
                   BlPanelProgressFunc   progress,
                   gpointer              user_data,
                   BlPanelEstimate      *out,
                   GError              **error)
{
  g_autoptr(BlPanelSurface) fine = bl_panel_surface_new (bodies, n_bodies, budget);
  g_autoptr(BlPanelSurface) coarse = bl_panel_surface_new (bodies, n_bodies, budget / 4);

  return bl_panel_estimate_surfaces (fine, coarse, rho, cancellable, progress, user_data, out, error);
}

gboolean
bl_panel_estimate_surfaces (const BlPanelSurface *fine,
                            const BlPanelSurface *coarse,
                            double                rho,
                            GCancellable         *cancellable,
                            BlPanelProgressFunc   progress,
                            gpointer              user_data,
                            BlPanelEstimate      *out,
                            GError              **error)
{
  BlPanelSolution coarse_solution;
  /* The coarse solve costs about a sixteenth of the fine one. */
  Stage stage = { progress, user_data, 0.0, 1.0 / 17 };
  gboolean same;
  double largest, scale[2] = { 0.0, 0.0 };

  memset (out, 0, sizeof *out);
  if (!bl_panel_solve (coarse, rho, cancellable, stage_progress, &stage, &coarse_solution, error))
    return FALSE;
  out->coarse = coarse_solution.added_mass;
  out->coarse_panels = coarse_solution.n_panels;
  bl_panel_solution_clear (&coarse_solution);
  stage.offset = 1.0 / 17;
  stage.scale = 16.0 / 17;
  if (!bl_panel_solve (fine, rho, cancellable, stage_progress, &stage, &out->fine, error))
    return FALSE;
  out->n_removed = fine->n_removed;
  out->simplify_error = fine->simplify_error;
  out->n_slivers = fine->n_slivers;

  largest = bl_mat6_max_abs (&out->fine.added_mass);
  /* The same surface twice (a mesh too fine to be cut for this budget):
   * no estimate. */
  same = fine->n_panels == coarse->n_panels;
  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      out->errors.m[j][k] = same ? NAN : fabs (out->fine.added_mass.m[j][k] - out->coarse.m[j][k]) / 3;

  /* The natural scale of each block: the largest translational term,
   * and that times the square of the body's size (the radius of the
   * sphere of the same area) for the rotational one, which may be all
   * noise (a sphere's is 0).  The relative error: the largest over the
   * diagonal terms that carry their block (a tenth of its scale). */
  for (int j = 0; j < 3; j++)
    scale[0] = MAX (scale[0], fabs (out->fine.added_mass.m[j][j]));
  scale[1] = scale[0] * bl_panel_surface_area (fine) / (4 * G_PI);
  out->relative_error = same ? NAN : 0.0;
  for (int j = 0; j < 6 && !same; j++)
    if (fabs (out->fine.added_mass.m[j][j]) >= 0.1 * scale[j / 3] && scale[j / 3] > 0.0)
      out->relative_error = MAX (out->relative_error, out->errors.m[j][j] / fabs (out->fine.added_mass.m[j][j]));

  /* A term is shown as 0 when it is within its own difference between the
   * resolutions of 0, or within the relative error of the scale of its
   * blocks (√(s_j s_k), which bounds |μ_jk| for a positive matrix of
   * those scales). */
  out->added_mass = out->fine.added_mass;
  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      {
        double value = fabs (out->fine.added_mass.m[j][k]);
        double block = sqrt (scale[j / 3] * scale[k / 3]);
        double limit = same ? 1e-9 * largest : MAX (3 * out->errors.m[j][k], out->relative_error * block);

        if (value <= limit)
          out->added_mass.m[j][k] = 0.0;
      }
  return TRUE;
}

void
bl_panel_estimate_findings (const BlPanelEstimate *estimate,
                            GPtrArray             *findings)
{
  if (estimate->simplify_error > 0.0)
    g_ptr_array_add (findings, bl_added_mass_finding_new ("estimate", BL_SEVERITY_INFO,
                                                          "meshes finer than the panel budget were simplified: no "
                                                          "mesh vertex is farther than %.3g m from its panels",
                                                          estimate->simplify_error));
  if (estimate->n_slivers > 0)
    g_ptr_array_add (findings, bl_added_mass_finding_new ("estimate", BL_SEVERITY_WARNING,
                                                          "%zu of the panels are long and thin (the mesh's own "
                                                          "triangles): the result is less accurate than the error "
                                                          "estimate says; a mesh of evenly sized triangles, or a "
                                                          "primitive, gives a better one", estimate->n_slivers));
  if (estimate->n_removed > 0)
    g_ptr_array_add (findings, bl_added_mass_finding_new ("overlap", BL_SEVERITY_INFO,
                                                          "%zu panels inside other collisions were left out: the "
                                                          "volume collisions share is solid, not wetted",
                                                          estimate->n_removed));
}

void
bl_panel_estimate_clear (BlPanelEstimate *estimate)
{
  bl_panel_solution_clear (&estimate->fine);
}
