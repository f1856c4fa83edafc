/* test-panel.c: the panel method against closed forms.
 *
 * Expected values: the sphere's ½ρV by hand; ellipsoids from Lamb's
 * coefficients as the core's closed-form estimate computes them (itself
 * tested against docs/reference/added-mass.md's tables in test-added-mass.c); the panel
 * integrals against brute-force quadrature and the solid angles of closed
 * surfaces (4π inside, 0 outside). */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bl-document.h"
#include "bl-link-panel.h"
#include "bl-panel.h"

static BlPanelBody
ellipsoid (double a,
           double b,
           double c)
{
  return (BlPanelBody) { .kind = BL_PANEL_BODY_ELLIPSOID, .pose = BL_POSE_IDENTITY, .size = { a, b, c } };
}

static BlPanelSolution
solve (const BlPanelBody *bodies,
       gsize              n_bodies,
       gsize              budget)
{
  g_autoptr(BlPanelSurface) surface = bl_panel_surface_new (bodies, n_bodies, budget);
  g_autoptr(GError) error = NULL;
  BlPanelSolution solution;

  g_assert_cmpuint (surface->n_panels, <=, budget * 11 / 10);
  g_assert_true (bl_panel_solve (surface, 1000.0, NULL, NULL, NULL, &solution, &error));
  g_assert_no_error (error);
  /* The collocation matrix is not symmetric, but μ must be (Green), and
   * positive semi-definite (it is twice a kinetic energy). */
  g_assert_cmpfloat (solution.asymmetry, <, 1e-3);
  {
    double eigenvalues[6];

    bl_mat6_sym_eigen (&solution.added_mass, eigenvalues, NULL);
    g_assert_cmpfloat (eigenvalues[0], >=, -1e-6 * bl_mat6_max_abs (&solution.added_mass));
  }
  return solution;
}

/* The largest |a_jk − b_jk| over the largest |b_jk|. */
static double
relative_difference (const BlMat6 *a,
                     const BlMat6 *b)
{
  double difference = 0.0;

  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      difference = MAX (difference, fabs (a->m[j][k] - b->m[j][k]));
  return difference / bl_mat6_max_abs (b);
}

/* Every term the closed form makes nonzero within `tolerance` of it, every
 * zero one below tolerance times the largest term. */
static void
assert_terms_within (const BlMat6 *actual,
                     const BlMat6 *expected,
                     double        tolerance)
{
  double largest = bl_mat6_max_abs (expected);

  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      {
        double e = expected->m[j][k], a = actual->m[j][k];
        gboolean zero = fabs (e) < 1e-9 * largest;

        if (zero ? fabs (a) > tolerance * largest : fabs (a - e) > tolerance * fabs (e))
          g_error ("μ[%d][%d] = %.6g, expected %.6g (within %g %s)", j, k, a, e, tolerance,
                   zero ? "of the largest term" : "relative");
      }
}

/* ∫ 1/r and the solid angle of a triangle by the midpoint rule on 4^8
 * sub-triangles: a brute force independent of the closed forms. */
static void
brute_force (const double  c[9],
             const double  x[3],
             double       *one_over_r,
             double       *solid_angle)
{
  const int n = 256;
  double e1[3], e2[3], normal[3], area;

  for (int i = 0; i < 3; i++)
    {
      e1[i] = (c[3 + i] - c[i]) / n;
      e2[i] = (c[6 + i] - c[i]) / n;
    }
  normal[0] = e1[1] * e2[2] - e1[2] * e2[1];
  normal[1] = e1[2] * e2[0] - e1[0] * e2[2];
  normal[2] = e1[0] * e2[1] - e1[1] * e2[0];
  area = sqrt (normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]) / 2;
  *one_over_r = *solid_angle = 0.0;
  for (int u = 0; u < n; u++)
    for (int v = 0; u + v < n; v++)
      for (int upper = 0; upper < 2 && (upper == 0 || u + v + 2 <= n); upper++)
        {
          /* Centroid of the small triangle (u, v) or its upside-down twin. */
          double s = upper ? u + 2.0 / 3 : u + 1.0 / 3, t = upper ? v + 2.0 / 3 : v + 1.0 / 3;
          double y[3], d[3], r;

          for (int i = 0; i < 3; i++)
            {
              y[i] = c[i] + s * e1[i] + t * e2[i];
              d[i] = y[i] - x[i];
            }
          r = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
          *one_over_r += area / r;
          *solid_angle += (d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2]) / (r * r * r) / 2;
        }
}

static void
test_triangle_integrals (void)
{
  const double corners[9] = { 0, 0, 0, 2, 0, 0, 0.5, 1.5, 0 };
  const double points[][3] = {
    { 0.8, 0.5, 1.0 },     /* above the inside */
    { 0.8, 0.5, -0.3 },    /* below, close */
    { 3.0, 2.0, 0.7 },     /* above the outside */
    { 3.0, 2.0, 0.0 },     /* in the plane, outside */
    { 1.0, -0.2, 0.05 },   /* near an edge */
    { 5.0, -4.0, 9.0 },    /* far */
  };

  for (guint i = 0; i < G_N_ELEMENTS (points); i++)
    {
      double one_over_r, solid, bf_one_over_r, bf_solid;

      bl_panel_triangle_integrals (corners, points[i], &one_over_r, &solid);
      brute_force (corners, points[i], &bf_one_over_r, &bf_solid);
      g_assert_cmpfloat_with_epsilon (one_over_r, bf_one_over_r, 2e-4 * fabs (bf_one_over_r));
      g_assert_cmpfloat_with_epsilon (solid, bf_solid, 2e-4 * MAX (fabs (bf_solid), 1e-2));
    }

  /* A closed box seen from inside subtends 4π (every normal points away),
   * from outside 0; the panel surface of a box is exact. */
  {
    BlPanelBody box = { .kind = BL_PANEL_BODY_BOX, .pose = BL_POSE_IDENTITY, .size = { 1, 2, 3 } };
    g_autoptr(BlPanelSurface) surface = bl_panel_surface_new (&box, 1, 200);
    const double inside[3] = { 0.2, -0.3, 1.1 }, outside[3] = { 0.9, 0.2, 0.1 };
    double total_in = 0.0, total_out = 0.0;

    for (gsize p = 0; p < surface->n_panels; p++)
      {
        double unused, solid;

        bl_panel_triangle_integrals (surface->points + 9 * p, inside, &unused, &solid);
        total_in += solid;
        bl_panel_triangle_integrals (surface->points + 9 * p, outside, &unused, &solid);
        total_out += solid;
      }
    g_assert_cmpfloat_with_epsilon (total_in, 4 * G_PI, 1e-12);
    g_assert_cmpfloat_with_epsilon (total_out, 0.0, 1e-12);
    g_assert_cmpfloat_with_epsilon (bl_panel_surface_volume (surface), 6.0, 1e-12);
    g_assert_cmpfloat_with_epsilon (bl_panel_surface_area (surface), 2 * (2 + 6 + 3), 1e-12);
  }
}

/* Every primitive is closed and wound outward: its panels enclose nearly
 * the solid's volume, positively, and tighten on it as panels are added. */
static void
test_primitive_surfaces (void)
{
  const struct { BlPanelBody body; double volume; } cases[] = {
    { { .kind = BL_PANEL_BODY_ELLIPSOID, .size = { 1, 2, 3 } }, 4.0 / 3 * G_PI * 6 },
    { { .kind = BL_PANEL_BODY_CYLINDER, .size = { 0.5, 0, 2 } }, G_PI * 0.25 * 2 },
    { { .kind = BL_PANEL_BODY_CAPSULE, .size = { 0.5, 0, 2 } }, G_PI * 0.25 * 2 + 4.0 / 3 * G_PI * 0.125 },
    { { .kind = BL_PANEL_BODY_CONE, .size = { 0.5, 0, 2 } }, G_PI * 0.25 * 2 / 3 },
    { { .kind = BL_PANEL_BODY_BOX, .size = { 1, 2, 0.5 } }, 1.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      BlPanelBody body = cases[i].body;
      g_autoptr(BlPanelSurface) coarse = NULL, fine = NULL;
      double v_coarse, v_fine;

      body.pose = bl_pose_from_euler (0.3, -1, 2, 0.4, 0.5, 0.6);
      coarse = bl_panel_surface_new (&body, 1, 500);
      fine = bl_panel_surface_new (&body, 1, 2000);
      v_coarse = bl_panel_surface_volume (coarse);
      v_fine = bl_panel_surface_volume (fine);
      /* Inscribed polyhedra: from below, within 5 % at 500 panels. */
      g_assert_cmpfloat (v_coarse, <=, cases[i].volume * (1 + 1e-12));
      g_assert_cmpfloat (v_coarse, >, 0.95 * cases[i].volume);
      g_assert_cmpfloat (fabs (v_fine - cases[i].volume), <=, fabs (v_coarse - cases[i].volume) + 1e-12);
      g_assert_cmpuint (fine->n_panels, >, 1700);
      g_assert_cmpuint (fine->n_panels, <, 2300);
    }
}

/* Sphere: μ = ½ρV on the diagonal's translations, nothing else (φ_4..6 = 0:
 * r × n vanishes on a sphere about its centre). */
static void
test_sphere (void)
{
  BlPanelBody sphere = ellipsoid (0.5, 0.5, 0.5);
  double half_mass = 0.5 * 1000.0 * 4.0 / 3 * G_PI * 0.125;
  BlPanelSolution coarse = solve (&sphere, 1, 1000), fine = solve (&sphere, 1, 4000);

  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      {
        double expected = j == k && j < 3 ? half_mass : 0.0;
        double e_fine = fabs (fine.added_mass.m[j][k] - expected);
        double e_coarse = fabs (coarse.added_mass.m[j][k] - expected);

        g_assert_cmpfloat (e_fine, <, 0.005 * half_mass);
        if (expected != 0.0)
          /* Constant panels converge as 1/N: a quarter of the error, give or take. */
          g_assert_cmpfloat (e_fine, <, 0.4 * e_coarse);
      }
  bl_panel_solution_clear (&coarse);
  bl_panel_solution_clear (&fine);
}

/* Prolate spheroids 2:1, 5:1, 10:1 and two triaxial ellipsoids: every
 * nonzero term within 1 % of Lamb's at 4,000 panels, closer than at 1,000. */
static void
test_ellipsoids (void)
{
  const double shapes[][3] = {
    { 0.5, 0.5, 1.0 }, { 0.2, 0.2, 1.0 }, { 0.1, 0.1, 1.0 }, { 1.0, 2.0, 3.0 }, { 3.0, 1.0, 0.5 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      BlPanelBody body = ellipsoid (shapes[i][0], shapes[i][1], shapes[i][2]);
      BlAddedMassEstimate exact;
      BlPanelSolution coarse = solve (&body, 1, 1000), fine = solve (&body, 1, 4000);

      g_assert_true (bl_added_mass_estimate_ellipsoid (shapes[i][0], shapes[i][1], shapes[i][2], 1000.0, &exact));
      assert_terms_within (&fine.added_mass, &exact.matrix, 0.01);
      g_assert_cmpfloat (relative_difference (&fine.added_mass, &exact.matrix), <,
                         relative_difference (&coarse.added_mass, &exact.matrix));
      bl_panel_solution_clear (&coarse);
      bl_panel_solution_clear (&fine);
    }
}

/* The same ellipsoid moved and turned in the link: the panel result about
 * the link origin is the closed form carried there by §6.9's rotate-and-
 * shift, couplings included. */
static void
test_offset_rotated (void)
{
  BlPanelBody body = ellipsoid (0.3, 0.6, 1.0);
  BlAddedMassEstimate exact;
  BlMat6 expected;
  BlPanelSolution solution;

  body.pose = bl_pose_from_euler (1.5, -0.5, 0.8, 0.3, -0.7, 1.1);
  g_assert_true (bl_added_mass_estimate_ellipsoid (0.3, 0.6, 1.0, 1000.0, &exact));
  expected = bl_added_mass_estimate_to_link (&exact, body.pose);
  solution = solve (&body, 1, 4000);
  g_assert_cmpfloat (relative_difference (&solution.added_mass, &expected), <, 0.01);
  bl_panel_solution_clear (&solution);
}

/* Two spheres 20 radii apart barely interact (the interaction falls as
 * (a/d)³ = 1e-4): the sum of two single spheres, each carried to the link
 * origin, within 1 %. */
static void
test_two_spheres (void)
{
  BlPanelBody bodies[2] = { ellipsoid (0.5, 0.5, 0.5), ellipsoid (0.5, 0.5, 0.5) };
  BlAddedMassEstimate single;
  BlMat6 expected, b;
  BlPanelSolution solution;

  bodies[0].pose = bl_pose_from_euler (-5, 0, 0, 0, 0, 0);
  bodies[1].pose = bl_pose_from_euler (5, 1, 0, 0, 0, 0);
  g_assert_true (bl_added_mass_estimate_sphere (0.5, 1000.0, &single));
  expected = bl_added_mass_estimate_to_link (&single, bodies[0].pose);
  b = bl_added_mass_estimate_to_link (&single, bodies[1].pose);
  expected = bl_mat6_add (&expected, &b);
  solution = solve (bodies, 2, 4000);
  g_assert_cmpfloat (relative_difference (&solution.added_mass, &expected), <, 0.01);
  bl_panel_solution_clear (&solution);
}

/* The estimate's error from two resolutions holds, term by term: each
 * nonzero term's true error is within twice its estimate and the estimate
 * within three times the true error; what is shown keeps exactly the
 * terms a spheroid about its centre has (the diagonal but rr, 0 by
 * symmetry) and sets every other to 0. */
static void
test_error_estimate (void)
{
  BlPanelBody body = ellipsoid (0.2, 0.2, 1.0);
  BlAddedMassEstimate exact;
  BlPanelEstimate estimate;
  g_autoptr(GError) error = NULL;

  g_assert_true (bl_added_mass_estimate_ellipsoid (0.2, 0.2, 1.0, 1000.0, &exact));
  g_assert_true (bl_panel_estimate (&body, 1, 2000, 1000.0, NULL, NULL, NULL, &estimate, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (estimate.coarse_panels, <, estimate.fine.n_panels / 3);
  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      {
        double true_error = fabs (estimate.fine.added_mass.m[j][k] - exact.matrix.m[j][k]);

        if (j == k && j < 5)
          {
            g_assert_cmpfloat (true_error, <=, 2 * estimate.errors.m[j][k]);
            g_assert_cmpfloat (estimate.errors.m[j][k], <=, 3 * true_error);
            g_assert_cmpfloat (estimate.added_mass.m[j][k], ==, estimate.fine.added_mass.m[j][k]);
          }
        else
          g_assert_cmpfloat (estimate.added_mass.m[j][k], ==, 0.0);
      }
  g_assert_cmpfloat (estimate.relative_error, >, 0.0);
  g_assert_cmpfloat (estimate.relative_error, <, 0.02);
  bl_panel_estimate_clear (&estimate);
}

/* A mesh coarser than the budget is refined (flat faces stay flat), so the
 * two resolutions differ and give an estimate; the cube's panels enclose
 * exactly its volume. */
static void
test_mesh_refined (void)
{
  /* A unit cube, 12 triangles wound outward. */
  static const double points[] = { 0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1 };
  static const guint triangles[] = {
    0,2,1, 0,3,2, 4,5,6, 4,6,7, 0,1,5, 0,5,4, 1,2,6, 1,6,5, 2,3,7, 2,7,6, 3,0,4, 3,4,7,
  };
  BlPanelBody cube = { .kind = BL_PANEL_BODY_TRIANGLES, .pose = BL_POSE_IDENTITY,
                       .points = points, .n_points = 8, .triangles = triangles, .n_triangles = 12 };
  BlPanelBody box = { .kind = BL_PANEL_BODY_BOX, .size = { 1, 1, 1 } };
  g_autoptr(BlPanelSurface) surface = bl_panel_surface_new (&cube, 1, 800);
  BlPanelEstimate estimate;
  BlPanelSolution reference;
  g_autoptr(GError) error = NULL;

  /* 12·4³ = 768 panels of the 800 asked. */
  g_assert_cmpuint (surface->n_panels, ==, 768);
  g_assert_cmpfloat_with_epsilon (bl_panel_surface_volume (surface), 1.0, 1e-12);
  g_assert_true (bl_panel_estimate (&cube, 1, 800, 1000.0, NULL, NULL, NULL, &estimate, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (estimate.coarse_panels, ==, 192);
  g_assert_true (isfinite (estimate.relative_error));
  /* The same cube as a box primitive, at the origin's offset (½ ½ ½):
   * the same potential flow, so the same μ within the discretisation. */
  box.pose = bl_pose_from_euler (0.5, 0.5, 0.5, 0, 0, 0);
  reference = solve (&box, 1, 3000);
  g_assert_cmpfloat (relative_difference (&estimate.fine.added_mass, &reference.added_mass), <, 0.02);
  bl_panel_solution_clear (&reference);
  bl_panel_estimate_clear (&estimate);
}

/* A sphere inside another adds nothing: its panels are all inside the
 * big one, left out, and μ is the big sphere's ½ρV. */
static void
test_overlap (void)
{
  BlPanelBody bodies[2] = { ellipsoid (0.5, 0.5, 0.5), ellipsoid (0.2, 0.2, 0.2) };
  g_autoptr(BlPanelSurface) both = NULL;
  g_autoptr(GError) error = NULL;
  BlPanelSolution solution;
  double half_mass = 0.5 * 1000.0 * 4.0 / 3 * G_PI * 0.125;

  bodies[1].pose = bl_pose_from_euler (0.1, 0.05, 0, 0, 0, 0);
  both = bl_panel_surface_new (bodies, 2, 3000);
  g_assert_cmpuint (both->n_removed, >, 0);
  g_assert_cmpuint (both->body_end[0], ==, both->n_panels);
  g_assert_true (bl_panel_solve (both, 1000.0, NULL, NULL, NULL, &solution, &error));
  g_assert_no_error (error);
  for (int j = 0; j < 3; j++)
    g_assert_cmpfloat (fabs (solution.added_mass.m[j][j] - half_mass), <, 0.01 * half_mass);
  bl_panel_solution_clear (&solution);
  /* The estimate says so, once, as an overlap note. */
  {
    g_autoptr(GPtrArray) findings = bl_added_mass_findings_new ();
    BlPanelEstimate estimate;

    g_assert_true (bl_panel_estimate (bodies, 2, 1000, 1000.0, NULL, NULL, NULL, &estimate, &error));
    bl_panel_estimate_findings (&estimate, findings);
    g_assert_cmpuint (findings->len, ==, 1);
    g_assert_cmpstr (((BlAddedMassFinding *) g_ptr_array_index (findings, 0))->id, ==, "overlap");
    bl_panel_estimate_clear (&estimate);
  }

  /* Two unit spheres 1 m apart share a lens: panels are removed from both,
   * and along their line the added mass lies between one sphere's and two
   * separate spheres'. */
  {
    BlPanelBody pair[2] = { ellipsoid (1, 1, 1), ellipsoid (1, 1, 1) };
    g_autoptr(BlPanelSurface) surface = NULL;
    double single = 0.5 * 1000.0 * 4.0 / 3 * G_PI;

    pair[1].pose = bl_pose_from_euler (1, 0, 0, 0, 0, 0);
    surface = bl_panel_surface_new (pair, 2, 3000);
    g_assert_cmpuint (surface->body_end[0], <, surface->body_end[1]);
    g_assert_cmpuint (surface->n_removed, >, 0);
    g_assert_true (bl_panel_solve (surface, 1000.0, NULL, NULL, NULL, &solution, &error));
    g_assert_cmpfloat (solution.added_mass.m[0][0], >, single);
    g_assert_cmpfloat (solution.added_mass.m[0][0], <, 2 * single);
    g_assert_cmpfloat (solution.asymmetry, <, 0.01);
    bl_panel_solution_clear (&solution);
  }
}

typedef enum { CUBE_CLOSED, CUBE_OPEN, CUBE_INWARD } CubeKind;

/* Writes a binary STL of the unit cube [0,1]³ wound outward: without its
 * last two triangles (the x = 0 face) when CUBE_OPEN, every triangle
 * turned over when CUBE_INWARD. */
static void
write_cube_stl (const char *path,
                CubeKind    kind)
{
  static const float v[8][3] = { {0,0,0}, {1,0,0}, {1,1,0}, {0,1,0}, {0,0,1}, {1,0,1}, {1,1,1}, {0,1,1} };
  static const int t[12][3] = { {0,2,1}, {0,3,2}, {4,5,6}, {4,6,7}, {0,1,5}, {0,5,4},
                                {1,2,6}, {1,6,5}, {2,3,7}, {2,7,6}, {3,0,4}, {3,4,7} };
  guint32 count = kind == CUBE_OPEN ? 10 : 12;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  guint8 header[80] = { 0 };
  float zero[3] = { 0, 0, 0 };
  guint16 attribute = 0;

  g_byte_array_append (bytes, header, sizeof header);
  g_byte_array_append (bytes, (guint8 *) &count, 4);
  for (guint i = 0; i < count; i++)
    {
      g_byte_array_append (bytes, (guint8 *) zero, sizeof zero);
      for (int k = 0; k < 3; k++)
        g_byte_array_append (bytes, (guint8 *) v[t[i][kind == CUBE_INWARD ? 2 - k : k]], 12);
      g_byte_array_append (bytes, (guint8 *) &attribute, 2);
    }
  g_assert_true (g_file_set_contents (path, (char *) bytes->data, bytes->len, NULL));
}

/* A link's collisions through a real document: two spheres (a sphere and
 * an ellipsoid of equal axes) 10 m apart, a plane left out with a note:
 * the two spheres' closed forms carried to the link origin, within 1 %.
 * A mesh cube gives what the box primitive gives at the same place; a
 * cube with a face missing is refused. */
static void
test_link (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ballast-panel-XXXXXX", &error);
  g_autofree char *cube = g_build_filename (dir, "cube.stl", NULL);
  g_autofree char *open = g_build_filename (dir, "open.stl", NULL);
  g_autofree char *inward = g_build_filename (dir, "inward.stl", NULL);
  g_autofree char *path = g_build_filename (dir, "model.sdf", NULL);
  const char *sdf =
    "<sdf version='1.11'><model name='m'>"
    "<link name='spheres'><pose>0 0 1 0 0 0</pose>"
    "  <collision name='a'><pose>-5 0 0 0 0 0</pose><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>"
    "  <collision name='b'><pose>5 1 0 0.3 0.2 0.1</pose><geometry><ellipsoid><radii>0.5 0.5 0.5</radii></ellipsoid></geometry></collision>"
    "  <collision name='floor'><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>"
    "</link>"
    "<link name='cube'><collision name='c'><pose>1 2 3 0 0 0.5</pose><geometry><mesh><uri>cube.stl</uri></mesh></geometry></collision></link>"
    "<link name='open'><collision name='o'><geometry><mesh><uri>open.stl</uri></mesh></geometry></collision></link>"
    "<link name='inward'><collision name='i'><pose>1 2 3 0 0 0.5</pose><geometry><mesh><uri>inward.stl</uri></mesh></geometry></collision></link>"
    "</model></sdf>";
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlLinkPanel) spheres = NULL, cube_panel = NULL, open_panel = NULL, inward_panel = NULL;
  BlAddedMassEstimate single;
  BlMat6 expected, b;
  BlPanelEstimate estimate;
  BlPanelSolution reference;
  BlPanelBody box = { .kind = BL_PANEL_BODY_BOX, .size = { 1, 1, 1 } };

  g_assert_no_error (error);
  write_cube_stl (cube, CUBE_CLOSED);
  write_cube_stl (open, CUBE_OPEN);
  write_cube_stl (inward, CUBE_INWARD);
  g_assert_true (g_file_set_contents (path, sdf, -1, NULL));
  doc = bl_document_new_from_file (path, &error);
  g_assert_no_error (error);

  spheres = bl_link_panel_new (bl_document_find_link (doc, "m::spheres"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spheres->bodies->len, ==, 2);
  g_assert_cmpuint (spheres->notes->len, ==, 1);
  g_assert_true (strstr (g_ptr_array_index (spheres->notes, 0), "floor") != NULL);
  g_assert_true (bl_panel_estimate ((BlPanelBody *) spheres->bodies->data, 2, 3000, 1000.0,
                                    NULL, NULL, NULL, &estimate, &error));
  g_assert_no_error (error);
  g_assert_true (bl_added_mass_estimate_sphere (0.5, 1000.0, &single));
  expected = bl_added_mass_estimate_to_link (&single, bl_pose_from_euler (-5, 0, 0, 0, 0, 0));
  b = bl_added_mass_estimate_to_link (&single, bl_pose_from_euler (5, 1, 0, 0.3, 0.2, 0.1));
  expected = bl_mat6_add (&expected, &b);
  g_assert_cmpfloat (relative_difference (&estimate.fine.added_mass, &expected), <, 0.01);
  bl_panel_estimate_clear (&estimate);

  cube_panel = bl_link_panel_new (bl_document_find_link (doc, "m::cube"), &error);
  g_assert_no_error (error);
  g_assert_true (bl_panel_estimate ((BlPanelBody *) cube_panel->bodies->data, cube_panel->bodies->len,
                                    3000, 1000.0, NULL, NULL, NULL, &estimate, &error));
  g_assert_no_error (error);
  /* The cube's centre: the collision frame's (½ ½ ½) turned by 0.5 rad about z. */
  box.pose = bl_pose_mul (bl_pose_from_euler (1, 2, 3, 0, 0, 0.5), bl_pose_from_euler (0.5, 0.5, 0.5, 0, 0, 0));
  reference = solve (&box, 1, 3000);
  g_assert_cmpfloat (relative_difference (&estimate.fine.added_mass, &reference.added_mass), <, 0.01);
  bl_panel_estimate_clear (&estimate);

  /* The same cube wound inward: turned outward, said so, the same result. */
  inward_panel = bl_link_panel_new (bl_document_find_link (doc, "m::inward"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (inward_panel->notes->len, ==, 1);
  g_assert_true (strstr (g_ptr_array_index (inward_panel->notes, 0), "wound inward") != NULL);
  g_assert_true (bl_panel_estimate ((BlPanelBody *) inward_panel->bodies->data, inward_panel->bodies->len,
                                    3000, 1000.0, NULL, NULL, NULL, &estimate, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (relative_difference (&estimate.fine.added_mass, &reference.added_mass), <, 0.01);
  bl_panel_solution_clear (&reference);
  bl_panel_estimate_clear (&estimate);

  open_panel = bl_link_panel_new (bl_document_find_link (doc, "m::open"), &error);
  g_assert_null (open_panel);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_true (strstr (error->message, "“o”") != NULL);

  g_unlink (cube);
  g_unlink (open);
  g_unlink (inward);
  g_unlink (path);
  g_rmdir (dir);
}

/* A mesh much finer than the budget (a sphere of about 12,000 triangles,
 * given as a triangle mesh) is simplified to about the budget, with its
 * measured error, and still gives ½ρV; a cylinder meshed as full-length
 * strips has its slivers counted. */
static void
test_mesh_simplified (void)
{
  BlPanelBody sphere = ellipsoid (0.5, 0.5, 0.5);
  g_autoptr(BlPanelSurface) fine = bl_panel_surface_new (&sphere, 1, 12000);
  g_autofree guint *triangles = g_new (guint, 3 * fine->n_panels);
  BlPanelBody mesh = { .kind = BL_PANEL_BODY_TRIANGLES, .pose = BL_POSE_IDENTITY };
  g_autoptr(BlPanelSurface) reduced = NULL;
  g_autoptr(GError) error = NULL;
  BlPanelSolution solution;
  double half_mass = 0.5 * 1000.0 * 4.0 / 3 * G_PI * 0.125;

  for (guint i = 0; i < 3 * fine->n_panels; i++)
    triangles[i] = i;
  mesh.points = fine->points;
  mesh.n_points = 3 * fine->n_panels;
  mesh.triangles = triangles;
  mesh.n_triangles = fine->n_panels;
  reduced = bl_panel_surface_new (&mesh, 1, 2000);
  /* Levels are a quarter apart: the one nearest 2,000 is within 2×. */
  g_assert_cmpuint (reduced->n_panels, <, 4000);
  g_assert_cmpuint (reduced->n_panels, >, 1000);
  g_assert_cmpfloat (reduced->simplify_error, >, 0.0);
  g_assert_cmpfloat (reduced->simplify_error, <, 0.01);
  g_assert_cmpfloat (fabs (bl_panel_surface_volume (reduced) - 4.0 / 3 * G_PI * 0.125), <, 0.02 * 4.0 / 3 * G_PI * 0.125);
  g_assert_true (bl_panel_solve (reduced, 1000.0, NULL, NULL, NULL, &solution, &error));
  g_assert_no_error (error);
  for (int j = 0; j < 3; j++)
    g_assert_cmpfloat (fabs (solution.added_mass.m[j][j] - half_mass), <, 0.02 * half_mass);
  bl_panel_solution_clear (&solution);

  /* Slivers: 64 strips 2 m long and 0.1 m wide around a unit cylinder. */
  {
    GArray *points = g_array_new (FALSE, FALSE, sizeof (double));
    GArray *tris = g_array_new (FALSE, FALSE, sizeof (guint));
    BlPanelBody strips = { .kind = BL_PANEL_BODY_TRIANGLES, .pose = BL_POSE_IDENTITY };
    g_autoptr(BlPanelSurface) surface = NULL;
    const guint n = 64;

    for (guint i = 0; i < n; i++)
      for (int end = 0; end < 2; end++)
        {
          double p[3] = { cos (2 * G_PI * i / n), sin (2 * G_PI * i / n), end ? 1.0 : -1.0 };
          g_array_append_vals (points, p, 3);
        }
    for (int end = 0; end < 2; end++)
      {
        double p[3] = { 0, 0, end ? 1.0 : -1.0 };
        g_array_append_vals (points, p, 3);
      }
    for (guint i = 0; i < n; i++)
      {
        guint j = (i + 1) % n;
        guint side[6] = { 2 * i, 2 * j, 2 * j + 1, 2 * i, 2 * j + 1, 2 * i + 1 };
        guint caps[6] = { 2 * n, 2 * j, 2 * i, 2 * n + 1, 2 * i + 1, 2 * j + 1 };

        g_array_append_vals (tris, side, 6);
        g_array_append_vals (tris, caps, 6);
      }
    strips.points = (double *) points->data;
    strips.n_points = points->len / 3;
    strips.triangles = (guint *) tris->data;
    strips.n_triangles = tris->len / 3;
    surface = bl_panel_surface_new (&strips, 1, 200);
    /* 128 side panels 2 m by 0.1 m; the caps' fans are 1 m by 0.1 m:
     * slivers too (aspect 20 is the limit: 1/0.05 = 20, not more). */
    g_assert_cmpuint (surface->n_slivers, >=, 128);
    g_array_unref (points);
    g_array_unref (tris);
  }
}

/* One mesh holding two closed shells that overlap (a float and a mast
 * standing in it, as dave's wave glider): each shell is a body of its
 * own, the panels of one inside the other are left out, and the result
 * is that of the two shells given as two meshes (the wave glider's solve
 * did not converge when its shells were one body). */
static void
test_mesh_shells (void)
{
  static const double points[] = {
    0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1,
    0.5,0.25,0.5, 0.75,0.25,0.5, 0.75,0.75,0.5, 0.5,0.75,0.5, 0.5,0.25,2, 0.75,0.25,2, 0.75,0.75,2, 0.5,0.75,2,
  };
  static const guint cube[] = {
    0,2,1, 0,3,2, 4,5,6, 4,6,7, 0,1,5, 0,5,4, 1,2,6, 1,6,5, 2,3,7, 2,7,6, 3,0,4, 3,4,7,
  };
  guint both[72];
  BlPanelBody one = { .kind = BL_PANEL_BODY_TRIANGLES, .pose = BL_POSE_IDENTITY,
                      .points = points, .n_points = 16, .triangles = both, .n_triangles = 24 };
  BlPanelBody two[2] = {
    { .kind = BL_PANEL_BODY_TRIANGLES, .pose = BL_POSE_IDENTITY, .points = points, .n_points = 16,
      .triangles = both, .n_triangles = 12 },
    { .kind = BL_PANEL_BODY_TRIANGLES, .pose = BL_POSE_IDENTITY, .points = points, .n_points = 16,
      .triangles = both + 36, .n_triangles = 12 },
  };
  g_autoptr(BlPanelSurface) merged = NULL, apart = NULL;
  g_autoptr(GError) error = NULL;
  BlPanelSolution a, b;

  for (guint i = 0; i < 36; i++)
    {
      both[i] = cube[i];
      both[36 + i] = cube[i] + 8;
    }
  merged = bl_panel_surface_new (&one, 1, 1500);
  apart = bl_panel_surface_new (two, 2, 1500);
  g_assert_cmpuint (merged->n_bodies, ==, 2);
  g_assert_cmpuint (merged->n_removed, >, 0);
  g_assert_true (bl_panel_solve (merged, 1000.0, NULL, NULL, NULL, &a, &error));
  g_assert_no_error (error);
  g_assert_true (bl_panel_solve (apart, 1000.0, NULL, NULL, NULL, &b, &error));
  g_assert_no_error (error);
  /* The mesh is refined as a whole (the mast coarser), the two apart each
   * by its own share: the same flow at other resolutions, so the
   * translational terms agree within 10 %. */
  for (int j = 0; j < 3; j++)
    g_assert_cmpfloat (fabs (a.added_mass.m[j][j] - b.added_mass.m[j][j]), <, 0.1 * b.added_mass.m[j][j]);
  bl_panel_solution_clear (&a);
  bl_panel_solution_clear (&b);
}

static void
cancel_at_half (double   fraction,
                gpointer data)
{
  if (fraction > 0.3)
    g_cancellable_cancel (data);
}

static void
test_cancel_and_limits (void)
{
  BlPanelBody body = ellipsoid (1, 1, 1);
  g_autoptr(BlPanelSurface) surface = bl_panel_surface_new (&body, 1, 2000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  BlPanelSolution solution;
  BlPanelSurface empty = { NULL, 0 };
  BlPanelSurface huge = { surface->points, BL_PANEL_MAX_PANELS + 1 };

  g_assert_false (bl_panel_solve (surface, 1000.0, cancellable, cancel_at_half, cancellable, &solution, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  g_assert_false (bl_panel_solve (&empty, 1000.0, NULL, NULL, NULL, &solution, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (bl_panel_solve (&huge, 1000.0, NULL, NULL, NULL, &solution, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Panels wound inward enclose a negative volume: refused, not solved
   * into a negative added mass. */
  for (gsize p = 0; p < surface->n_panels; p++)
    for (int k = 0; k < 3; k++)
      {
        double t = surface->points[9 * p + 3 + k];
        surface->points[9 * p + 3 + k] = surface->points[9 * p + 6 + k];
        surface->points[9 * p + 6 + k] = t;
      }
  g_assert_false (bl_panel_solve (surface, 1000.0, NULL, NULL, NULL, &solution, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/panel/triangle-integrals", test_triangle_integrals);
  g_test_add_func ("/core/panel/primitive-surfaces", test_primitive_surfaces);
  g_test_add_func ("/core/panel/sphere", test_sphere);
  g_test_add_func ("/core/panel/ellipsoids", test_ellipsoids);
  g_test_add_func ("/core/panel/offset-rotated", test_offset_rotated);
  g_test_add_func ("/core/panel/two-spheres", test_two_spheres);
  g_test_add_func ("/core/panel/overlap", test_overlap);
  g_test_add_func ("/core/panel/link", test_link);
  g_test_add_func ("/core/panel/error-estimate", test_error_estimate);
  g_test_add_func ("/core/panel/mesh-refined", test_mesh_refined);
  g_test_add_func ("/core/panel/mesh-simplified", test_mesh_simplified);
  g_test_add_func ("/core/panel/mesh-shells", test_mesh_shells);
  g_test_add_func ("/core/panel/cancel-and-limits", test_cancel_and_limits);
  return g_test_run ();
}
