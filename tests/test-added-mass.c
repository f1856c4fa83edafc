/* test-added-mass.c: the added-mass matrix, checks, frames, estimates, imports and buoyancy.
 *
 * Expected values come from docs/reference/added-mass.md (its derived
 * tables, quoted with their section) or from closed forms worked by hand in
 * the comments here. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-model.h"  /* checks that both declarations of the keys agree */

/* |actual − expected| within half a unit of the last of `sig` significant
 * digits of expected (the precision the reference quotes it to). */
#define assert_sig(actual, expected, sig) \
  assert_sig_impl (__FILE__, __LINE__, #actual, (actual), (expected), (sig))

static void
assert_sig_impl (const char *file,
                 int         line,
                 const char *expr,
                 double      actual,
                 double      expected,
                 int         sig)
{
  double tol;

  if (expected == 0.0)
    tol = 1e-9;
  else
    tol = 0.5 * pow (10.0, floor (log10 (fabs (expected))) - sig + 1);
  if (!(fabs (actual - expected) <= tol))
    {
      g_autofree char *msg = g_strdup_printf ("%s:%d: %s = %.12g, expected %.12g (±%.3g)",
                                              file, line, expr, actual, expected, tol);
      g_assertion_message (G_LOG_DOMAIN, file, line, G_STRFUNC, msg);
    }
}

/* |actual − expected| ≤ tol (GLib's own helper wants a strict bound). */
#define assert_near(actual, expected, tol) \
  assert_near_impl (__FILE__, __LINE__, #actual, (actual), (expected), (tol))

static void
assert_near_impl (const char *file,
                  int         line,
                  const char *expr,
                  double      actual,
                  double      expected,
                  double      tol)
{
  if (!(fabs (actual - expected) <= tol))
    {
      g_autofree char *msg = g_strdup_printf ("%s:%d: %s = %.15g, expected %.15g (±%.3g)",
                                              file, line, expr, actual, expected, tol);
      g_assertion_message (G_LOG_DOMAIN, file, line, G_STRFUNC, msg);
    }
}

static const BlAddedMassFinding *
find (const BlAddedMassReport *rep,
      const char              *id)
{
  for (guint i = 0; i < rep->findings->len; i++)
    {
      const BlAddedMassFinding *f = g_ptr_array_index (rep->findings, i);

      if (g_strcmp0 (f->id, id) == 0)
        return f;
    }
  return NULL;
}

/* IDs of the findings at warning or error, space-separated. */
static char *
flags_of (const BlAddedMassReport *rep)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < rep->findings->len; i++)
    {
      const BlAddedMassFinding *f = g_ptr_array_index (rep->findings, i);

      if (f->severity >= BL_SEVERITY_WARNING)
        g_string_append_printf (s, "%s%s", s->len ? " " : "", f->id);
    }
  return g_string_free (s, FALSE);
}

static BlInertial
body (double mass,
      BlVec3 com,
      double ixx, double iyy, double izz,
      double ixy, double ixz, double iyz)
{
  BlInertial b;

  b.mass = mass;
  b.com = com;
  b.inertia = bl_inertia_from_sdf (ixx, iyy, izz, ixy, ixz, iyz);
  return b;
}

static void
values_one (double values[21],
            const char *key,
            double v)
{
  int k = bl_added_mass_key_lookup (key);

  g_assert_cmpint (k, >=, 0);
  values[k] = v;
}

static BlMat3
rotation (double roll, double pitch, double yaw)
{
  return bl_mat3_from_quat (bl_quat_from_euler (roll, pitch, yaw));
}

static void
assert_mat6_near (const BlMat6 *a,
                  const BlMat6 *b,
                  double        tol)
{
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      assert_near (a->m[i][j], b->m[i][j], tol);
}

/* ---- keys ----------------------------------------------------------------- */

static void
test_keys (void)
{
  static const char *axes = "xyzpqr";

  for (guint k = 0; k < 21; k++)
    {
      guint r, c;
      char name[3];

      bl_added_mass_index (k, &r, &c);
      g_assert_cmpuint (r, <=, c);
      g_assert_cmpuint (c, <, 6);
      name[0] = axes[r];
      name[1] = axes[c];
      name[2] = '\0';
      g_assert_cmpstr (bl_added_mass_keys[k], ==, name);
      g_assert_cmpint (bl_added_mass_key_lookup (name), ==, (int) k);
    }
  g_assert_cmpint (bl_added_mass_key_lookup ("rr"), ==, 20);
  g_assert_cmpint (bl_added_mass_key_lookup ("yx"), ==, -1);
  g_assert_cmpint (bl_added_mass_key_lookup ("xxx"), ==, -1);
  g_assert_cmpint (bl_added_mass_key_lookup ("x"), ==, -1);
  g_assert_cmpint (bl_added_mass_key_lookup ("xa"), ==, -1);
  g_assert_cmpint (bl_added_mass_key_lookup (""), ==, -1);
  g_assert_cmpint (bl_added_mass_key_lookup (NULL), ==, -1);
  /* every string of two bytes: a key where one of the 21 is spelt so */
  for (guint a = 1; a < 256; a++)
    for (guint b = 1; b < 256; b++)
      {
        char name[3] = { (char) a, (char) b, '\0' };
        int expected = -1;

        for (int k = 0; k < 21; k++)
          if (strcmp (bl_added_mass_keys[k], name) == 0)
            expected = k;
        g_assert_cmpint (bl_added_mass_key_lookup (name), ==, expected);
      }
}

static void
test_values_roundtrip (void)
{
  double v[21], back[21];
  BlMat6 m;

  for (int k = 0; k < 21; k++)
    v[k] = k + 1;
  m = bl_mat6_from_values (v);
  g_assert_cmpfloat (m.m[0][1], ==, 2.0);
  g_assert_cmpfloat (m.m[1][0], ==, 2.0);
  g_assert_cmpfloat (m.m[3][0], ==, 4.0);  /* xp */
  g_assert_cmpfloat (m.m[5][5], ==, 21.0);
  g_assert_cmpfloat (m.m[4][3], ==, 17.0); /* pq */
  bl_mat6_to_values (&m, back);
  for (int k = 0; k < 21; k++)
    g_assert_cmpfloat (back[k], ==, v[k]);
}

/* ---- §2.1 ----------------------------------------------------------------- */

typedef struct
{
  const char *name;
  double      lmin;          /* λmin(A) */
  double      lmin_total;    /* λmin(M_RB + A) */
  double      max_ratio;
  int         ratio_index;   /* −1: no ratio checked */
  int         ratio_sig;
  const char *flags;         /* findings at warning or above */
} Expect;

static void
check_expect (const double      values[21],
              const BlInertial *b,
              const Expect     *e)
{
  g_autoptr(BlAddedMassReport) rep = bl_added_mass_check (values, b, BL_ADDED_MASS_CHECK_NONE);
  g_autofree char *flags = flags_of (rep);

  g_test_message ("%s: λmin(A) %.9g, λmin(M+A) %.9g, ratio %.6g, flags “%s”",
                  e->name, rep->eigenvalues[0], rep->total_eigenvalues[0],
                  rep->max_ratio, flags);
  g_assert_true (rep->finite);
  assert_sig (rep->eigenvalues[0], e->lmin, 6);
  if (!isnan (e->lmin_total))
    {
      assert_sig (rep->total_eigenvalues[0], e->lmin_total, 6);
      g_assert_cmpint (rep->total_positive_definite, ==, e->lmin_total > 0);
    }
  if (e->ratio_index >= 0)
    {
      assert_sig (rep->max_ratio, e->max_ratio, e->ratio_sig);
      if (e->max_ratio > 0)
        g_assert_cmpint (rep->max_ratio_index, ==, e->ratio_index);
    }
  g_assert_cmpstr (flags, ==, e->flags);
}

static void
test_check_gzsim_fluid_added_mass (void)
{
  /* Every box/sphere there: m 1, I = 0.1·E3, COM at the origin. */
  BlInertial b = body (1.0, BL_VEC3_ZERO, 0.1, 0.1, 0.1, 0, 0, 0);
  const double a = 0.261666;
  double v[21] = { 0 };

  {
    const Expect e = { "sphere_in_water", 0, 0.1, 261.666, 0, 6, "A6" };

    values_one (v, "xx", 261.666);
    values_one (v, "yy", 261.666);
    values_one (v, "zz", 261.666);
    check_expect (v, &b, &e);
  }
  {
    const Expect e = { "sphere_in_air / box_diagonal", 0, 0.1, 0.261666, 0, 6, "" };

    memset (v, 0, sizeof v);
    values_one (v, "xx", a);
    values_one (v, "yy", a);
    values_one (v, "zz", a);
    check_expect (v, &b, &e);
  }
  {
    const Expect e = { "box_xx_xy_xz", -0.261666, 0.1, 0.261666, 0, 6, "A3" };

    memset (v, 0, sizeof v);
    values_one (v, "xx", a);
    values_one (v, "xy", a);
    values_one (v, "xz", a);
    check_expect (v, &b, &e);
  }

  /* gzsim_test_worlds_fluid_added_mass: one coefficient per box. */
  for (int k = 0; k < 21; k++)
    {
      guint r, c;
      Expect e = { bl_added_mass_keys[k], 0, 0.1, 0, -1, 6, "" };

      bl_added_mass_index (k, &r, &c);
      memset (v, 0, sizeof v);
      v[k] = a;
      if (r == c)
        {
          e.max_ratio = r < 3 ? a : a / 0.1;
          e.ratio_index = r;
          e.ratio_sig = 6;
          e.flags = r < 3 ? "" : "A6";  /* 0.26 / 2.617 */
        }
      else
        {
          e.lmin = -a;
          e.max_ratio = 0;
          e.ratio_index = 0;
          if (r < 3 && c < 3)
            e.flags = "A3";
          else if (r < 3)
            {
              e.lmin_total = 0.0294531;  /* the 9 couplings */
              e.flags = "A3";
            }
          else
            {
              e.lmin_total = -0.161666;  /* pq, pr, qr */
              e.flags = "A3 A4";
            }
        }
      check_expect (v, &b, &e);
    }

  /* The box_pp ratio as quoted. */
  memset (v, 0, sizeof v);
  values_one (v, "pp", a);
  {
    g_autoptr(BlAddedMassReport) rep = bl_added_mass_check (v, &b, 0);

    assert_sig (rep->max_ratio, 2.617, 4);
    g_assert_cmpint (rep->max_ratio_index, ==, 3);
  }
}

static void
test_check_full_matrix (void)
{
  /* gzsim_test_worlds_added_mass_full_matrix · body, spec order. */
  static const double v[21] = {
    0.3949679265119419, 0.046356515552357314, 0.10350947385435993, 0.898797296303345,
    0.49882101032414017, 0.37538990588775467,
    0.7251406148851146, 0.6826397691305769, 0.7790258092356468, 0.3095523984784859,
    0.9762734675205801,
    0.7127177841503902, 0.968056899449243, 0.7054363474498657, 0.9327424023111127,
    0.7730463848840338, 0.5459481647643502, 0.8074138574151712,
    0.13432180787188996, 0.8255294272171281,
    0.2597705135260855,
  };
  BlInertial b = body (1.0, BL_VEC3_ZERO, 1, 1, 1, 0, 0, 0);
  const Expect e = { "full_matrix", -0.818367, 0.181633, 0.77, 3, 2, "A3" };
  g_autoptr(BlAddedMassReport) rep = NULL;
  const BlAddedMassFinding *a6;

  check_expect (v, &b, &e);

  /* 0.77 ≥ 0.5: a note, not a warning. */
  rep = bl_added_mass_check (v, &b, 0);
  a6 = find (rep, "A6");
  g_assert_nonnull (a6);
  g_assert_cmpint (a6->severity, ==, BL_SEVERITY_INFO);
  g_assert_nonnull (strstr (a6->message, "pp"));
  /* The A3 message names the eigenvalue. */
  g_assert_nonnull (strstr (find (rep, "A3")->message, "-0.818367"));
}

/* A6's text, worked by hand: a 2 kg body with unit moments about its
 * centre at the origin has M_RB = diag (2, 2, 2, 1, 1, 1); xx = 8/3 is
 * 1.333…× its own (%.3g: 1.33; %.6g of 8/3 and 2: 2.66667 and 2), yy = 1.25
 * 0.625×, rr = 0.5 exactly 0.5×, pp = 0.4 below the half that is named. */
static void
test_check_a6_text (void)
{
  BlInertial b = body (2.0, BL_VEC3_ZERO, 1, 1, 1, 0, 0, 0);
  double v[21] = { 0 };
  g_autoptr(BlAddedMassReport) rep = NULL;
  const BlAddedMassFinding *a6;

  values_one (v, "xx", 8.0 / 3.0);
  values_one (v, "yy", 1.25);
  values_one (v, "pp", 0.4);
  values_one (v, "rr", 0.5);
  rep = bl_added_mass_check (v, &b, 0);
  a6 = find (rep, "A6");
  g_assert_nonnull (a6);
  g_assert_cmpint (a6->severity, ==, BL_SEVERITY_WARNING);
  g_assert_cmpstr (a6->message, ==,
                   "added mass along xx is 1.33× the body's own (2.66667 vs M_RB 2); also yy 0.625, "
                   "rr 0.5: a risk where a plugin applies added mass as an explicit force (gz-sim "
                   "issue #1923), harmless for DART");
}

static void
test_check_ellipsoids (void)
{
  const double m = 1073.3774899765126;
  BlInertial b = body (m, BL_VEC3_ZERO, 107.33774899765126, 268.34437249412815,
                       268.34437249412815, 0, 0, 0);
  static const double scale[3] = { 1.0, 0.1, 10.0 };
  static const double ratio[3] = { 0.84, 0.084, 8.4 };
  static const char *flags[3] = { "", "", "A6" };

  for (int i = 0; i < 3; i++)
    {
      double v[21] = { 0 };
      Expect e = { "ellipsoids body", 0, 107.338, ratio[i], 1, 2, flags[i] };

      values_one (v, "xx", 236.14304779483277 * scale[i]);
      values_one (v, "yy", 901.6370915802705 * scale[i]);
      values_one (v, "zz", 901.6370915802705 * scale[i]);
      values_one (v, "qq", 64.40264939859075 * scale[i]);
      values_one (v, "rr", 64.40264939859075 * scale[i]);
      check_expect (v, &b, &e);
    }
}

static void
test_check_lighter_than_air (void)
{
  BlInertial b = body (5.815677050417254, BL_VEC3_ZERO, 0.0069861272, 0.1292433532,
                       0.1292433532, 0, 0, 0);
  double v[21] = { 0 };
  const Expect e = { "hull", 1.60094e-4, 7.14622e-3, 15.7, 4, 3, "A6" };

  values_one (v, "xx", 0.0256621271421697);
  values_one (v, "yy", 0.538639694339695);
  values_one (v, "yr", 0.189291512412098);
  values_one (v, "zz", 0.538639694339695);
  values_one (v, "zq", -0.189291512412098);
  values_one (v, "pp", 0.000160094457776136);
  values_one (v, "qq", 2.02957381640185);
  values_one (v, "rr", 2.02957381640185);
  check_expect (v, &b, &e);
}

static void
test_check_mbari (void)
{
  BlInertial b = body (1400, bl_vec3 (0, 0, 2.03), 7000, 7040, 670, 0, 0, 0);
  double v[21] = { 0 };
  const Expect e = { "SingleBuoy", 0, 670, 2.2, 2, 2, "A6" };

  values_one (v, "xx", 260);
  values_one (v, "xq", 370);
  values_one (v, "yy", 260);
  values_one (v, "yp", -370);
  values_one (v, "zz", 3080);
  values_one (v, "pp", 780);
  values_one (v, "qq", 780);
  check_expect (v, &b, &e);

  {
    g_autoptr(BlAddedMassReport) rep = bl_added_mass_check (v, &b, 0);

    /* zz 3080 / 1400; rr 0 / 670; pp 780 / (7000 + 1400·2.03²). */
    assert_near (rep->ratios[2], 2.2, 1e-12);
    assert_near (rep->ratios[5], 0, 0);
    assert_near (rep->ratios[3], 780 / (7000 + 1400 * 2.03 * 2.03), 1e-12);
  }
}

static void
test_check_inertial_complete (void)
{
  BlInertial b = body (17.982, bl_vec3 (0.01, 0, 0.02), 0.125569, 0.0972062, 0.117937,
                       0.0008, -0.000499757, -0.0005);
  double v[21];
  const Expect e = { "inertial_complete", 2.37876, 3.00233, 551, 5, 3, "A6" };

  /* xx 11, xy 12, … : row r, column c holds 10·(r+1) + (c+1). */
  for (guint k = 0; k < 21; k++)
    {
      guint r, c;

      bl_added_mass_index (k, &r, &c);
      v[k] = 10.0 * (r + 1) + (c + 1);
    }
  check_expect (v, &b, &e);
}

static void
test_check_issue_3246 (void)
{
  double v[21];
  g_autoptr(BlAddedMassReport) rep = NULL;

  for (int k = 0; k < 21; k++)
    v[k] = k + 1;
  rep = bl_added_mass_check (v, NULL, 0);
  assert_sig (rep->eigenvalues[0], -1.29387, 6);
  g_assert_nonnull (find (rep, "A3"));
  g_assert_false (rep->has_body);
  g_assert_true (isnan (rep->total_eigenvalues[0]));
  g_assert_true (isnan (rep->ratios[0]));
  g_assert_cmpint (rep->max_ratio_index, ==, -1);
}

static void
test_check_other_ids (void)
{
  BlInertial b = body (1.0, BL_VEC3_ZERO, 0.1, 0.1, 0.1, 0, 0, 0);
  double v[21] = { 0 };
  g_autoptr(BlAddedMassReport) nan_rep = NULL;
  g_autoptr(BlAddedMassReport) auto_rep = NULL;
  g_autoptr(BlAddedMassReport) neg_rep = NULL;
  g_autoptr(BlAddedMassReport) bad_body = NULL;
  g_autoptr(BlAddedMassReport) asym = NULL;
  BlInertial invalid = body (1.0, BL_VEC3_ZERO, 1, 1, 3, 0, 0, 0);  /* 1 + 1 < 3 */
  BlMat6 m = bl_mat6_zero ();

  /* A1 */
  values_one (v, "xy", NAN);
  nan_rep = bl_added_mass_check (v, &b, 0);
  g_assert_false (nan_rep->finite);
  g_assert_cmpint (find (nan_rep, "A1")->severity, ==, BL_SEVERITY_ERROR);
  g_assert_nonnull (strstr (find (nan_rep, "A1")->message, "xy"));
  g_assert_null (find (nan_rep, "A3"));

  /* A9 */
  memset (v, 0, sizeof v);
  values_one (v, "xx", 1);
  auto_rep = bl_added_mass_check (v, &b, BL_ADDED_MASS_CHECK_AUTO);
  g_assert_cmpint (find (auto_rep, "A9")->severity, ==, BL_SEVERITY_WARNING);
  {
    /* No added mass (all 21 zero) on an automatic link: nothing to drop,
     * no A9; and μ = 0 is positive semi-definite (A3 passes). */
    const double zeros[21] = { 0 };
    g_autoptr(BlAddedMassReport) none = bl_added_mass_check (zeros, &b, BL_ADDED_MASS_CHECK_AUTO);

    g_assert_null (find (none, "A9"));
    g_assert_cmpuint (none->findings->len, ==, 0);
    g_assert_true (none->semidefinite);
    g_assert_false (bl_mat6_is_positive_definite (&none->added_mass, NULL));
  }

  /* A10 (and A3: a negative diagonal is a negative eigenvalue) */
  values_one (v, "xx", -4.876161);
  neg_rep = bl_added_mass_check (v, &b, 0);
  g_assert_nonnull (strstr (find (neg_rep, "A10")->message, "xx = -4.87616"));
  g_assert_nonnull (find (neg_rep, "A3"));

  /* A5 */
  values_one (v, "xx", 1);
  bad_body = bl_added_mass_check (v, &invalid, 0);
  g_assert_cmpint (find (bad_body, "A5")->severity, ==, BL_SEVERITY_ERROR);

  /* A2 on an asymmetric import (the RexROV kind: 10.774 vs 10.775) */
  m.m[0][0] = 100;
  m.m[1][1] = 100;
  m.m[0][1] = 10.774;
  m.m[1][0] = 10.775;
  asym = bl_added_mass_check_matrix (&m, &b, BL_ADDED_MASS_CHECK_IMPORTED);
  g_assert_cmpint (find (asym, "A2")->severity, ==, BL_SEVERITY_WARNING);
  assert_near (asym->added_mass.m[0][1], 10.7745, 1e-12);
  assert_near (asym->added_mass.m[1][0], 10.7745, 1e-12);
  {
    g_autoptr(BlAddedMassReport) plain = bl_added_mass_check_matrix (&m, &b, 0);

    g_assert_null (find (plain, "A2"));
  }
}

static void
test_check_plugin (void)
{
  const char *names[] = { "link_name", "xDotU", "xUabsU", "mDotQ" };
  double values[] = { 0, -4.876161, -6.2282, -33.46 };
  const char *tiny_names[] = { "xDotU" };
  double tiny[] = { 1e-9 };
  const char *damping_names[] = { "xUabsU", "xU" };
  double damping[] = { -6, -2 };
  g_autoptr(BlAddedMassFinding) f = NULL;

  f = bl_added_mass_check_plugin (names, values, 4, FALSE, TRUE);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->id, ==, "A7");
  g_assert_cmpint (f->severity, ==, BL_SEVERITY_ERROR);
  g_assert_nonnull (strstr (f->message, "mDotQ"));
  g_assert_null (strstr (f->message, "xUabsU"));

  g_assert_null (bl_added_mass_check_plugin (names, values, 4, TRUE, TRUE));
  g_assert_null (bl_added_mass_check_plugin (names, values, 4, FALSE, FALSE));
  g_assert_null (bl_added_mass_check_plugin (tiny_names, tiny, 1, FALSE, TRUE));
  g_assert_null (bl_added_mass_check_plugin (damping_names, damping, 2, FALSE, TRUE));
}

/* ---- §3.3 ----------------------------------------------------------------- */

static void
test_spatial_inertia (void)
{
  /* m 100, I_C diag (2,3,4) off (0.2,0.3,0.4) turned by yaw 90°: J is the
   * upstream test's BodyMatrix lower-right block. */
  BlMat3 j = bl_inertia_from_sdf (3, 2, 4, -0.2, -0.4, 0.3);
  BlMat3 ic = bl_inertia_from_sdf (2, 3, 4, 0.2, 0.3, 0.4);
  BlMat3 rz = rotation (0, 0, G_PI / 2);
  BlMat3 turned = bl_mat3_rotate (&ic, &rz);
  BlMat6 m = bl_spatial_inertia (100, bl_vec3 (7, 8, 9), &j);
  static const double lower_right[3][3] = {
    { 14503, -5600.2, -6300.4 },
    { -5600.2, 13002, -7199.7 },
    { -6300.4, -7199.7, 11304 },
  };
  static const double eig[6] = { 0.01126, 0.01852, 2.936, 100, 19502.29, 19503.75 };
  static const int eig_sig[6] = { 4, 4, 4, 6, 7, 7 };
  double values[6];

  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      {
        assert_near (turned.m[r][c], j.m[r][c], 1e-12);
        assert_near (m.m[r + 3][c + 3], lower_right[r][c], 1e-9);
      }
  /* Row x: [m 0 0 0 m·cz −m·cy] (§3.1). */
  assert_near (m.m[0][0], 100, 0);
  assert_near (m.m[0][4], 900, 1e-12);
  assert_near (m.m[0][5], -800, 1e-12);
  assert_near (m.m[1][3], -900, 1e-12);
  assert_near (m.m[1][5], 700, 1e-12);
  assert_near (m.m[2][3], 800, 1e-12);
  assert_near (m.m[2][4], -700, 1e-12);
  for (int r = 0; r < 6; r++)
    for (int c = 0; c < 6; c++)
      g_assert_cmpfloat (m.m[r][c], ==, m.m[c][r]);

  bl_mat6_sym_eigen (&m, values, NULL);
  for (int i = 0; i < 6; i++)
    assert_sig (values[i], eig[i], eig_sig[i]);
  g_assert_true (bl_mat6_is_positive_definite (&m, NULL));

  /* Unit cube m 1, J = E3/6 with the COM at (0.5, 0, 0): still PD. */
  {
    BlMat3 cube = bl_mat3_diag (1.0 / 6, 1.0 / 6, 1.0 / 6);
    BlMat6 mc = bl_spatial_inertia (1, bl_vec3 (0.5, 0, 0), &cube);

    g_assert_true (bl_mat6_is_positive_definite (&mc, NULL));
  }
}

static void
test_cholesky (void)
{
  BlMat6 m = bl_mat6_identity ();
  int pivot;

  g_assert_true (bl_mat6_is_positive_definite (&m, &pivot));
  g_assert_cmpint (pivot, ==, -1);
  m.m[2][2] = 1e-13;  /* below 1e-12·trace */
  g_assert_false (bl_mat6_is_positive_definite (&m, &pivot));
  g_assert_cmpint (pivot, ==, 2);
  m.m[2][2] = 1e-10;
  g_assert_true (bl_mat6_is_positive_definite (&m, NULL));
  m = bl_mat6_zero ();
  g_assert_false (bl_mat6_is_positive_definite (&m, &pivot));
  g_assert_cmpint (pivot, ==, 0);
}

static void
test_eigen_vectors (void)
{
  double v[21];
  BlMat6 a, vec;
  double values[6];

  for (int k = 0; k < 21; k++)
    v[k] = sin (k + 1.0);
  a = bl_mat6_from_values (v);
  bl_mat6_sym_eigen (&a, values, &vec);
  for (int i = 1; i < 6; i++)
    g_assert_cmpfloat (values[i - 1], <=, values[i]);
  /* A·v_i = λ_i·v_i and orthonormal columns. */
  for (int i = 0; i < 6; i++)
    {
      for (int r = 0; r < 6; r++)
        {
          double s = 0;

          for (int c = 0; c < 6; c++)
            s += a.m[r][c] * vec.m[c][i];
          assert_near (s, values[i] * vec.m[r][i], 1e-12);
        }
      for (int j = 0; j < 6; j++)
        {
          double d = 0;

          for (int r = 0; r < 6; r++)
            d += vec.m[r][i] * vec.m[r][j];
          assert_near (d, i == j ? 1.0 : 0.0, 1e-12);
        }
    }

  /* Without the vectors, the same values bit for bit (the checks ask
   * for them only for a message): matrices of every sign and scale. */
  for (int trial = 0; trial < 2000; trial++)
    {
      double alone[6];

      for (int k = 0; k < 21; k++)
        v[k] = sin (trial * 21.0 + k) * pow (10, (trial + k) % 7 - 3);
      a = bl_mat6_from_values (v);
      bl_mat6_sym_eigen (&a, values, &vec);
      bl_mat6_sym_eigen (&a, alone, NULL);
      g_assert_cmpmem (alone, sizeof alone, values, sizeof values);
    }
}

/* ---- §4 ------------------------------------------------------------------- */

static void
test_rotation_keeps_eigenvalues (void)
{
  double v[21], before[6], after[6];
  BlMat6 a, rotated;
  BlMat3 r = rotation (0.3, -1.1, 2.4);

  for (int k = 0; k < 21; k++)
    v[k] = cos (3.0 * k) + (k == 0 || k == 6 || k == 11 || k == 15 || k == 18 || k == 20 ? 4 : 0);
  a = bl_mat6_from_values (v);
  rotated = bl_mat6_rotate (&a, &r);
  bl_mat6_sym_eigen (&a, before, NULL);
  bl_mat6_sym_eigen (&rotated, after, NULL);
  for (int i = 0; i < 6; i++)
    assert_near (after[i], before[i], 1e-12 * fabs (before[5]));
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      assert_near (rotated.m[i][j], rotated.m[j][i], 1e-13);

  /* And back with Rᵀ. */
  {
    BlMat3 rt = bl_mat3_transpose (&r);
    BlMat6 back = bl_mat6_rotate (&rotated, &rt);

    assert_mat6_near (&back, &a, 1e-13);
  }
}

static void
test_shift_sphere (void)
{
  BlAddedMassEstimate sphere;
  const double h = 0.7, d = -1.3;
  double a;
  BlMat6 up, along_x, expect;
  BlPose pose = BL_POSE_IDENTITY;

  g_assert_true (bl_added_mass_estimate_sphere (0.5, 1000, &sphere));
  a = sphere.matrix.m[0][0];

  /* Centre at (0, 0, h): xq = +a·h, yp = −a·h, pp, qq += a·h² (§4.1). */
  pose.p = bl_vec3 (0, 0, h);
  up = bl_added_mass_estimate_to_link (&sphere, pose);
  expect = sphere.matrix;
  expect.m[0][4] = expect.m[4][0] = a * h;
  expect.m[1][3] = expect.m[3][1] = -a * h;
  expect.m[3][3] += a * h * h;
  expect.m[4][4] += a * h * h;
  assert_mat6_near (&up, &expect, 1e-10);

  /* Along x at d: yr = +a·d, zq = −a·d, qq, rr += a·d². */
  along_x = bl_mat6_shift (&sphere.matrix, bl_vec3 (d, 0, 0));
  expect = sphere.matrix;
  expect.m[1][5] = expect.m[5][1] = a * d;
  expect.m[2][4] = expect.m[4][2] = -a * d;
  expect.m[4][4] += a * d * d;
  expect.m[5][5] += a * d * d;
  assert_mat6_near (&along_x, &expect, 1e-10);

  /* The shift back undoes it. */
  {
    BlMat6 back = bl_mat6_shift (&along_x, bl_vec3 (-d, 0, 0));

    assert_mat6_near (&back, &sphere.matrix, 1e-10);
  }

  /* The shift of diag(m·E3, J) from the COM is M_RB (§3.1). */
  {
    BlMat3 j = bl_inertia_from_sdf (2, 3, 4, 0.2, 0.3, 0.4);
    BlVec3 c = bl_vec3 (0.3, -0.2, 0.9);
    BlMat6 at_com = bl_spatial_inertia (5, BL_VEC3_ZERO, &j);
    BlMat6 shifted = bl_mat6_shift (&at_com, c);
    BlMat6 direct = bl_spatial_inertia (5, c, &j);

    assert_mat6_near (&shifted, &direct, 1e-12);
  }
}

/* H(r)ᵀ·M·H(r) by the definition: H = (E3, S(r)ᵀ; 0, E3), every
 * product of the two 6×6 products summed from +0 in order. */
static BlMat6
shift_by_definition (const BlMat6 *m,
                     BlVec3        r)
{
  double h[6][6] = { { 0 } }, ht_m[6][6];
  BlMat6 out;

  for (int i = 0; i < 6; i++)
    h[i][i] = 1.0;
  h[0][4] = r.z;
  h[0][5] = -r.y;
  h[1][3] = -r.z;
  h[1][5] = r.x;
  h[2][3] = r.y;
  h[2][4] = -r.x;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      {
        double sum = 0.0;

        for (int k = 0; k < 6; k++)
          sum += h[k][i] * m->m[k][j];
        ht_m[i][j] = sum;
      }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      {
        double sum = 0.0;

        for (int k = 0; k < 6; k++)
          sum += ht_m[i][k] * h[k][j];
        out.m[i][j] = sum;
      }
  return out;
}

/* bl_mat6_shift gives the definition's doubles bit for bit (the sign of
 * a zero, a NaN where an Inf meets a 0 of H): matrices with zeros of
 * both signs, large and tiny entries, Inf and NaN, and shifts with zero
 * components. */
static void
test_shift_exact (void)
{
  GRand *rand = g_rand_new_with_seed (20261126);
  const double specials[] = { 0.0, -0.0, 1.0, -1.0, 1e300, -1e-300, INFINITY, -INFINITY, NAN, 5e-324 };

  for (guint trial = 0; trial < 20000; trial++)
    {
      BlMat6 m, got, expected;
      double rv[3];
      BlVec3 r;

      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
          {
            guint pick = g_rand_int_range (rand, 0, 8);

            if (pick == 0 && trial % 4 == 0)
              m.m[i][j] = specials[g_rand_int_range (rand, 0, G_N_ELEMENTS (specials))];
            else if (pick <= 2)
              m.m[i][j] = g_rand_boolean (rand) ? 0.0 : -0.0;
            else
              m.m[i][j] = g_rand_double_range (rand, -10, 10) * pow (10, g_rand_int_range (rand, -5, 6));
          }
      for (int k = 0; k < 3; k++)
        {
          guint pick = g_rand_int_range (rand, 0, 6);

          rv[k] = pick == 0 ? (g_rand_boolean (rand) ? 0.0 : -0.0)
                            : pick == 1 && trial % 8 == 0 ? specials[g_rand_int_range (rand, 0, G_N_ELEMENTS (specials))]
                                                          : g_rand_double_range (rand, -3, 3);
        }
      r = bl_vec3 (rv[0], rv[1], rv[2]);
      if (trial % 16 == 1)
        {
          /* products that overflow to Inf on the way: H's zeros then
           * make NaNs */
          m.m[0][0] = 1e308;
          r = bl_vec3 (1e10, -1e10, 0.0);
        }
      got = bl_mat6_shift (&m, r);
      expected = shift_by_definition (&m, r);
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
          if (isnan (expected.m[i][j]) ? !isnan (got.m[i][j])
                                       : memcmp (&got.m[i][j], &expected.m[i][j], sizeof (double)) != 0)
            g_error ("trial %u, entry %d %d: %a, by the definition %a", trial, i, j, got.m[i][j],
                     expected.m[i][j]);
    }
  g_rand_free (rand);
}

static void
test_transform_recipe (void)
{
  BlAddedMassEstimate cone;
  BlPose pose = bl_pose_from_euler (0.4, -0.2, 1.2, 0.5, 0.1, -0.7);
  BlMat3 r = bl_mat3_from_quat (pose.q);
  BlMat6 rotated, expect, got;
  BlVec3 c, p;

  g_assert_true (bl_added_mass_estimate_cone (0.3, 1.2, 1025, &cone));
  c = cone.centroid;
  assert_near (c.z, -0.3, 1e-15);

  /* §4.3: rotate, then shift by p_LK + R_LK·centroid. */
  rotated = bl_mat6_rotate (&cone.matrix, &r);
  p = bl_vec3_add (pose.p, bl_mat3_mul_vec3 (&r, c));
  expect = bl_mat6_shift (&rotated, p);
  got = bl_added_mass_estimate_to_link (&cone, pose);
  assert_mat6_near (&got, &expect, 1e-10);

  /* FRD flip is its own inverse and a rotation by π about x. */
  {
    BlMat3 rx = rotation (G_PI, 0, 0);
    BlMat6 flipped = bl_mat6_flip_frd (&got);
    BlMat6 by_rotation = bl_mat6_rotate (&got, &rx);
    BlMat6 twice = bl_mat6_flip_frd (&flipped);

    assert_mat6_near (&flipped, &by_rotation, 1e-10);
    assert_mat6_near (&twice, &got, 0);
  }
}

/* ---- §6 ------------------------------------------------------------------- */

static void
test_carlson (void)
{
  assert_near (bl_carlson_rd (1, 1, 1), 1.0, 1e-14);
  assert_sig (bl_carlson_rd (0, 2, 1), 1.7972103521, 11);
  g_assert_true (isnan (bl_carlson_rd (0, 0, 1)));
  g_assert_true (isnan (bl_carlson_rd (1, 1, 0)));
}

/* The diagonal to the 7 decimals §6.10 quotes, couplings exactly 0. */
static void
assert_diag (const BlAddedMassEstimate *e,
             const double               expect[6])
{
  for (int i = 0; i < 6; i++)
    assert_near (e->matrix.m[i][i], expect[i], 0.5e-7);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      if (i != j)
        g_assert_cmpfloat (e->matrix.m[i][j], ==, 0.0);
}

static void
test_estimate_table (void)
{
  BlAddedMassEstimate e;
  double f[3];

  /* §6.10 row 1: sphere r 0.5, ρ 1000. */
  g_assert_true (bl_ellipsoid_shape_factors (0.5, 0.5, 0.5, f));
  for (int i = 0; i < 3; i++)
    assert_near (f[i], 2.0 / 3.0, 1e-14);
  g_assert_true (bl_added_mass_estimate_sphere (0.5, 1000, &e));
  assert_diag (&e, (const double[6]) { 261.7993878, 261.7993878, 261.7993878, 0, 0, 0 });
  g_assert_cmpint (e.translation_quality, ==, BL_ESTIMATE_EXACT);
  g_assert_true (bl_added_mass_estimate_ellipsoid (0.5, 0.5, 0.5, 1000, &e));
  assert_diag (&e, (const double[6]) { 261.7993878, 261.7993878, 261.7993878, 0, 0, 0 });

  /* Prolate a 1, b = c 0.5, ρ 1025. */
  g_assert_true (bl_ellipsoid_shape_factors (1, 0.5, 0.5, f));
  assert_sig (f[0], 0.347127995, 9);
  assert_sig (f[1], 0.826436002, 9);
  assert_sig (f[2], 0.826436002, 9);
  g_assert_true (bl_added_mass_estimate_ellipsoid (1, 0.5, 0.5, 1025, &e));
  assert_sig (1025 * e.volume, 1073.3774900, 11);
  assert_diag (&e, (const double[6]) { 225.4254261, 755.8836193, 755.8836193,
                                       0, 64.2480544, 64.2480544 });

  /* Prolate a 5, b = c 1, ρ 1. */
  g_assert_true (bl_ellipsoid_shape_factors (5, 1, 1, f));
  assert_sig (f[0], 0.111641940, 9);
  assert_sig (f[1], 0.944179030, 9);
  g_assert_true (bl_added_mass_estimate_ellipsoid (5, 1, 1, 1, &e));
  assert_sig (e.volume, 20.9439510, 9);
  assert_diag (&e, (const double[6]) { 1.2382309, 18.7293489, 18.7293489,
                                       0, 76.2197561, 76.2197561 });

  /* Oblate a = b 1, c 0.5, ρ 1, through the spheroid entry (axis z). */
  g_assert_true (bl_ellipsoid_shape_factors (1, 1, 0.5, f));
  assert_sig (f[0], 0.472799717, 9);
  assert_sig (f[1], 0.472799717, 9);
  assert_sig (f[2], 1.054400565, 10);
  g_assert_true (bl_added_mass_estimate_spheroid (0.5, 1, 1, &e));
  assert_diag (&e, (const double[6]) { 0.6483953, 0.6483953, 2.3353772,
                                       0.1772790, 0.1772790, 0 });

  /* Ellipsoid 3, 2, 1, ρ 1000. */
  g_assert_true (bl_ellipsoid_shape_factors (3, 2, 1, f));
  assert_sig (f[0], 0.312601398, 9);
  assert_sig (f[1], 0.534308081, 9);
  assert_sig (f[2], 1.153090522, 10);
  assert_near (f[0] + f[1] + f[2], 2.0, 1e-13);
  g_assert_true (bl_added_mass_estimate_ellipsoid (3, 2, 1, 1000, &e));
  assert_sig (1000 * e.volume, 25132.7412287, 12);
  assert_diag (&e, (const double[6]) { 4656.0012698, 9161.9709066, 34218.9176585,
                                       9632.5576314, 35599.8305077, 3914.1914750 });

  /* Disk, c/a = 1e-5, against 8ρa³/3 and 16ρa⁵/45. */
  g_assert_true (bl_added_mass_estimate_ellipsoid (2, 2, 2e-5, 1000, &e));
  assert_sig (e.matrix.m[2][2] / (8.0 / 3.0 * 1000 * 8), 0.999997, 6);
  assert_sig (e.matrix.m[3][3] / (16.0 / 45.0 * 1000 * 32), 0.999998, 6);
  assert_sig (e.matrix.m[4][4] / (16.0 / 45.0 * 1000 * 32), 0.999998, 6);
  g_assert_cmpfloat (e.matrix.m[5][5], ==, 0.0);
}

static void
test_estimate_flat (void)
{
  BlAddedMassEstimate e, disk;
  double thin_zz;

  /* c = 0 exactly: the disk limits, here with the normal along y. */
  g_assert_true (bl_added_mass_estimate_ellipsoid (1.5, 0, 1.5, 1, &e));
  g_assert_true (bl_added_mass_estimate_disk (1.5, 1, &disk));
  assert_near (e.matrix.m[1][1], 8.0 / 3.0 * 1.5 * 1.5 * 1.5, 1e-12);
  assert_near (e.matrix.m[3][3], 16.0 / 45.0 * pow (1.5, 5), 1e-12);
  assert_near (e.matrix.m[5][5], 16.0 / 45.0 * pow (1.5, 5), 1e-12);
  assert_near (disk.matrix.m[2][2], e.matrix.m[1][1], 1e-12);
  g_assert_cmpfloat (e.matrix.m[0][0], ==, 0);
  g_assert_cmpfloat (e.matrix.m[4][4], ==, 0);
  g_assert_cmpfloat (e.volume, ==, 0);

  /* An elliptic plate: finite and continuous with a thin ellipsoid. */
  g_assert_true (bl_added_mass_estimate_ellipsoid (2, 1, 0, 1, &e));
  thin_zz = e.matrix.m[2][2];
  g_assert_true (bl_added_mass_estimate_ellipsoid (2, 1, 1e-6, 1, &e));
  assert_near (thin_zz / e.matrix.m[2][2], 1.0, 1e-5);
  g_assert_true (isfinite (e.matrix.m[3][3]) && isfinite (e.matrix.m[4][4]));

  g_assert_false (bl_added_mass_estimate_ellipsoid (1, 0, 0, 1, &e));
  g_assert_false (bl_added_mass_estimate_ellipsoid (1, 1, 1, 0, &e));
  g_assert_false (bl_added_mass_estimate_sphere (-1, 1000, &e));
}

/* §6.4: prolate closed forms in e, against the R_D route. */
static void
test_prolate_closed_form (void)
{
  for (double ratio = 1.5; ratio <= 12; ratio += 0.5)
    {
      double ecc = sqrt (1 - 1 / (ratio * ratio));
      double l = log ((1 + ecc) / (1 - ecc));
      double alpha = 2 * (1 - ecc * ecc) / (ecc * ecc * ecc) * (0.5 * l - ecc);
      double beta = 1 / (ecc * ecc) - (1 - ecc * ecc) / (2 * ecc * ecc * ecc) * l;
      double f[3];

      g_assert_true (bl_ellipsoid_shape_factors (ratio, 1, 1, f));
      assert_near (f[0], alpha, 1e-11);
      assert_near (f[1], beta, 1e-11);
      assert_near (f[2], beta, 1e-11);
    }
}

static void
test_lamb_coefficients (void)
{
  /* §6.4 table, a/b = 1 … 10: k₁, k₂, k′. */
  static const double ratio[] = { 1, 2, 3, 4, 5, 6, 8, 10 };
  static const double k1[] = { .500, .210, .122, .082, .059, .045, .029, .021 };
  static const double k2[] = { .500, .704, .804, .860, .894, .917, .945, .960 };
  static const double kp[] = { 0, .239, .466, .608, .700, .762, .839, .884 };

  for (guint i = 0; i < G_N_ELEMENTS (ratio); i++)
    {
      BlAddedMassEstimate e;
      double a = ratio[i], b = 1, rho = 1.3;
      double rv;

      g_assert_true (bl_added_mass_estimate_ellipsoid (a, b, b, rho, &e));
      rv = rho * e.volume;
      assert_near (e.matrix.m[0][0] / rv, k1[i], 0.0005);
      assert_near (e.matrix.m[1][1] / rv, k2[i], 0.0005);
      assert_near (e.matrix.m[4][4] / (rv * (a * a + b * b) / 5), kp[i], 0.0005);
    }
}

static void
test_dnv_tables (void)
{
  /* Table (a) points are returned as tabulated. */
  assert_near (bl_dnv_plate_coefficient (1.0), 0.579, 1e-12);
  assert_near (bl_dnv_plate_coefficient (3.17), 0.840, 1e-12);
  assert_near (bl_dnv_plate_coefficient (10.0), 0.947, 1e-12);
  assert_near (bl_dnv_plate_coefficient (0.5), 0.757, 1e-12);  /* a/b given the other way */
  assert_near (bl_dnv_plate_coefficient (1.125), 0.5 * (0.579 + 0.642), 1e-12);
  g_assert_cmpfloat (bl_dnv_plate_coefficient (1e9), >, 0.99999);
  assert_near (bl_dnv_square_prism_coefficient (4), 0.19, 1e-12);
  assert_near (bl_dnv_square_prism_coefficient (8.5), 0.095, 1e-12);
  /* Height factor: 1 at h → 0, 1.707 at h → ∞. */
  assert_near (bl_dnv_height_factor (1, 0), 1.0, 1e-12);
  assert_near (bl_dnv_height_factor (1, 1e12), 1 + sqrt (0.5), 1e-9);
  /* Cylinder finite-length factor points. */
  assert_near (bl_dnv_cylinder_length_factor (1.2), 0.62, 1e-12);
  assert_near (bl_dnv_cylinder_length_factor (2.5), 0.78, 1e-12);
  assert_near (bl_dnv_cylinder_length_factor (5), 0.90, 1e-12);
  assert_near (bl_dnv_cylinder_length_factor (9), 0.96, 1e-12);
  assert_near (bl_dnv_cylinder_length_factor (1e12), 1.00, 1e-9);
  assert_near (bl_dnv_cylinder_length_factor (0.5), 0.62, 1e-12);
}

static void
test_estimate_box (void)
{
  const double rho = 1000, a = 0.4;
  BlAddedMassEstimate e;

  /* A square prism moving along its length: the height rule over the plate
   * table stays within 6 % of table (b)'s two-digit points (worst: b/a 3,
   * 0.252 against 0.24). */
  static const int points[] = { 1, 2, 3, 4, 5, 6, 7, 10 };

  for (guint i = 0; i < G_N_ELEMENTS (points); i++)
    {
      int n = points[i];
      double ca;

      g_assert_true (bl_added_mass_estimate_box (a, a, n * a, rho, &e));
      ca = e.matrix.m[2][2] / (rho * a * a * n * a);
      g_assert_cmpfloat (fabs (ca / bl_dnv_square_prism_coefficient (n) - 1), <, 0.06);
    }
  /* A thin plate moving normally: table (a), m = C_A·ρ·(π/4)·a²·b. */
  g_assert_true (bl_added_mass_estimate_box (1, 2, 1e-9, rho, &e));
  assert_near (e.matrix.m[2][2] / (0.757 * rho * G_PI / 4 * 2), 1.0, 1e-4);  /* factor 1 + O(√h) */
  g_assert_cmpint (e.translation_quality, ==, BL_ESTIMATE_ESTIMATE);
  g_assert_cmpint (e.rotation_quality, ==, BL_ESTIMATE_ROUGH);
  /* Rotation from the equal-volume ellipsoid. */
  {
    BlAddedMassEstimate ell;
    double k = cbrt (6 / G_PI);

    g_assert_true (bl_added_mass_estimate_box (3, 2, 1, rho, &e));
    g_assert_true (bl_added_mass_estimate_ellipsoid (1.5 * k, k, 0.5 * k, rho, &ell));
    for (int i = 3; i < 6; i++)
      assert_near (e.matrix.m[i][i], ell.matrix.m[i][i], 1e-9 * ell.matrix.m[i][i]);
    assert_near (e.volume, 6, 1e-12);
  }
}

static void
test_estimate_cylinder_capsule_cone (void)
{
  const double rho = 1025, r = 0.2, l = 2.0;  /* L/2r = 5 */
  BlAddedMassEstimate e;
  double area = G_PI * r * r;

  g_assert_true (bl_added_mass_estimate_cylinder (r, l, rho, &e));
  assert_near (e.matrix.m[0][0], 0.90 * rho * area * l, 1e-9);
  assert_near (e.matrix.m[1][1], 0.90 * rho * area * l, 1e-9);
  assert_near (e.matrix.m[3][3], rho * area * l * l * l / 12, 1e-9);
  assert_near (e.matrix.m[4][4], rho * area * l * l * l / 12, 1e-9);
  g_assert_cmpfloat (e.matrix.m[5][5], ==, 0);
  /* Axial: between the end disk alone and 1.707 of it. */
  g_assert_cmpfloat (e.matrix.m[2][2], >, 8.0 / 3 * rho * r * r * r);
  g_assert_cmpfloat (e.matrix.m[2][2], <, 1.7072 * 8.0 / 3 * rho * r * r * r);
  assert_near (e.volume, area * l, 1e-15);
  g_assert_cmpint (e.translation_quality, ==, BL_ESTIMATE_ESTIMATE);

  g_assert_true (bl_added_mass_estimate_capsule (r, l, rho, &e));
  assert_near (e.volume, area * (l + 4 * r / 3), 1e-15);
  g_assert_cmpint (e.translation_quality, ==, BL_ESTIMATE_ROUGH);
  {
    /* Equal-volume spheroid of half-length l/2 + r. */
    BlAddedMassEstimate s;
    double c = l / 2 + r;
    double b = sqrt (3 * e.volume / (4 * G_PI * c));

    g_assert_true (bl_added_mass_estimate_spheroid (c, b, rho, &s));
    assert_mat6_near (&e.matrix, &s.matrix, 1e-9);
    assert_near (s.volume, e.volume, 1e-12);
  }

  g_assert_true (bl_added_mass_estimate_cone (r, l, rho, &e));
  assert_near (e.volume, area * l / 3, 1e-15);
  assert_near (e.centroid.z, -l / 4, 1e-15);
  {
    BlAddedMassEstimate s;

    /* Same length, equal volume: equatorial r/√2. */
    g_assert_true (bl_added_mass_estimate_spheroid (l / 2, r / sqrt (2), rho, &s));
    assert_mat6_near (&e.matrix, &s.matrix, 1e-9);
  }
  g_assert_cmpstr (bl_estimate_quality_to_string (e.rotation_quality), ==, "rough");
}

static void
test_estimate_from_volume_inertial (void)
{
  /* A solid ellipsoid given as a "mesh": the equivalent ellipsoid is itself. */
  BlInertial ell, posed;
  BlAddedMassEstimate got, exact;
  BlPose pose = bl_pose_from_euler (0.1, 0.2, -0.3, 0.7, -0.4, 1.9);
  BlMat6 a, b;

  g_assert_true (bl_inertial_ellipsoid (3, 2, 1, 1.0, &ell));
  posed = bl_inertial_transform (&ell, pose);
  g_assert_true (bl_added_mass_estimate_from_volume_inertial (&posed, 1000, &got));
  assert_near (got.volume, 8 * G_PI, 1e-9);
  assert_near (got.centroid.x, 0.1, 1e-12);

  g_assert_true (bl_added_mass_estimate_ellipsoid (3, 2, 1, 1000, &exact));
  a = bl_added_mass_estimate_to_link (&got, BL_POSE_IDENTITY);
  b = bl_added_mass_estimate_to_link (&exact, pose);
  assert_mat6_near (&a, &b, 1e-6);
}

static void
test_estimate_sum (void)
{
  /* Two spheres at ±d on x: couplings cancel, qq and rr gain 2·a·d². */
  BlAddedMassEstimate s;
  BlPose left = BL_POSE_IDENTITY, right = BL_POSE_IDENTITY;
  BlMat6 ml, mr, sum;
  double a;

  g_assert_true (bl_added_mass_estimate_sphere (0.1, 1025, &s));
  a = s.matrix.m[0][0];
  left.p = bl_vec3 (-0.5, 0, 0);
  right.p = bl_vec3 (0.5, 0, 0);
  ml = bl_added_mass_estimate_to_link (&s, left);
  mr = bl_added_mass_estimate_to_link (&s, right);
  sum = bl_mat6_add (&ml, &mr);
  assert_near (sum.m[0][0], 2 * a, 1e-12);
  assert_near (sum.m[1][5], 0, 1e-12);
  assert_near (sum.m[2][4], 0, 1e-12);
  assert_near (sum.m[4][4], 2 * a * 0.25, 1e-12);
  assert_near (sum.m[5][5], 2 * a * 0.25, 1e-12);
  assert_near (sum.m[3][3], 0, 1e-12);
}

/* ---- §5 ------------------------------------------------------------------- */

static double
value_of (const double v[21],
          const char  *key)
{
  return v[bl_added_mass_key_lookup (key)];
}

static gboolean
has_note (GPtrArray  *notes,
          const char *id,
          BlSeverity  severity)
{
  for (guint i = 0; i < notes->len; i++)
    {
      BlAddedMassFinding *f = g_ptr_array_index (notes, i);

      if (g_strcmp0 (f->id, id) == 0 && f->severity == severity)
        return TRUE;
    }
  return FALSE;
}

static void
test_import_hydrodynamics (void)
{
  /* gz-sim Migration.md: xDotU −4.876161 → xx 4.876161, mDotQ −33.46 → qq
   * 33.46; by hand: kDotP −1 → pp 1, nDotR −2 → rr 2, zDotW −10 → zz 10,
   * yDotR −0.4 → yr 0.4, xDotQ −2.0 and mDotU −2.2 → xq 2.1 (averaged). */
  const char *names[] = { "link_name", "xDotU", "mDotQ", "kDotP", "nDotR", "zDotW",
                          "yDotR", "xDotQ", "mDotU", "xUabsU", "xU" };
  const double values[] = { 0, -4.876161, -33.46, -1, -2, -10, -0.4, -2.0, -2.2, -6, -3 };
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  double out[21];

  g_assert_true (bl_added_mass_import_hydrodynamics (names, values, G_N_ELEMENTS (names),
                                                     out, notes));
  assert_near (value_of (out, "xx"), 4.876161, 0);
  assert_near (value_of (out, "qq"), 33.46, 0);
  assert_near (value_of (out, "pp"), 1, 0);
  assert_near (value_of (out, "rr"), 2, 0);
  assert_near (value_of (out, "zz"), 10, 0);
  assert_near (value_of (out, "yr"), 0.4, 0);
  assert_near (value_of (out, "xq"), 2.1, 1e-15);
  for (int k = 0; k < 21; k++)
    if (!g_strv_contains ((const char *[]) { "xx", "qq", "pp", "rr", "zz", "yr", "xq", NULL },
                          bl_added_mass_keys[k]))
      g_assert_cmpfloat (out[k], ==, 0);
  g_assert_true (has_note (notes, "A2", BL_SEVERITY_WARNING));
  g_assert_true (has_note (notes, "import", BL_SEVERITY_INFO));

  /* Nothing to import. */
  {
    g_autoptr(GPtrArray) none = bl_added_mass_findings_new ();

    g_assert_false (bl_added_mass_import_hydrodynamics (names, values, 1, out, none));
    g_assert_true (has_note (none, "import", BL_SEVERITY_WARNING));
    g_assert_cmpfloat (out[0], ==, 0);
  }
}

static void
test_import_dsros (void)
{
  /* At the COM (0, 0, 0.5): xx 10, yy 20, zz 30, rr (roll) 1, pp (pitch) 2,
   * hh (yaw) 3, xp (x/pitch) 0.5, rh (roll/yaw) 0.25.  Renamed: pp 1, qq 2,
   * rr 3, xq 0.5, pr 0.25.  Shifted by hand with h = 0.5 (§4.1 blocks):
   * xq = 10h + 0.5 = 5.5, yp = −20h = −10, pp = 1 + 20h² = 6,
   * qq = 2 + 10h² + 2·0.5·h = 5, pr unchanged. */
  const char *names[] = { "xx", "yy", "zz", "rr", "pp", "hh", "xp", "rh", "xq" };
  const double values[] = { 10, 20, 30, 1, 2, 3, 0.5, 0.25, 99 };
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  double out[21];

  g_assert_true (bl_added_mass_import_dsros (names, values, G_N_ELEMENTS (names),
                                             bl_vec3 (0, 0, 0.5), out, notes));
  assert_near (value_of (out, "xx"), 10, 1e-12);
  assert_near (value_of (out, "yy"), 20, 1e-12);
  assert_near (value_of (out, "zz"), 30, 1e-12);
  assert_near (value_of (out, "xq"), 5.5, 1e-12);
  assert_near (value_of (out, "yp"), -10, 1e-12);
  assert_near (value_of (out, "pp"), 6, 1e-12);
  assert_near (value_of (out, "qq"), 5, 1e-12);
  assert_near (value_of (out, "rr"), 3, 1e-12);
  assert_near (value_of (out, "pr"), 0.25, 1e-12);
  for (int k = 0; k < 21; k++)
    if (!g_strv_contains ((const char *[]) { "xx", "yy", "zz", "xq", "yp", "pp", "qq", "rr",
                                             "pr", NULL },
                          bl_added_mass_keys[k]))
      assert_near (out[k], 0, 1e-12);
  /* "xq" is not dsros: q is no letter there. */
  g_assert_true (has_note (notes, "import", BL_SEVERITY_WARNING));
}

/* The LRAUV plugin's six diagonal terms, negated as gz-sim's; tethys's
 * xDotU −4.876161 is xx 4.876161.  An absent term is the plugin's own
 * default (nDotR: 1, so rr −1), an off-diagonal one is not read. */
static void
test_import_lrauv (void)
{
  const char *names[] = { "xDotU", "yDotV", "zDotW", "kDotP", "mDotQ", "xDotV", "xUU" };
  const double values[] = { -4.876161, -126.324739, -126.324739, 0, -33.46, -7, -6.2282 };
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  g_autoptr(GPtrArray) none = bl_added_mass_findings_new ();
  double out[21];

  g_assert_true (bl_added_mass_import_lrauv (names, values, G_N_ELEMENTS (names), out, notes));
  assert_near (value_of (out, "xx"), 4.876161, 1e-15);
  assert_near (value_of (out, "yy"), 126.324739, 1e-15);
  assert_near (value_of (out, "zz"), 126.324739, 1e-15);
  assert_near (value_of (out, "pp"), 0, 0);
  assert_near (value_of (out, "qq"), 33.46, 1e-15);
  assert_near (value_of (out, "rr"), -1, 0);
  assert_near (value_of (out, "xy"), 0, 0);
  g_assert_true (has_note (notes, "import", BL_SEVERITY_WARNING));

  g_assert_false (bl_added_mass_import_lrauv (names + 5, values + 5, 2, out, none));
  g_assert_true (has_note (none, "import", BL_SEVERITY_WARNING));
}

static void
test_import_uuv (void)
{
  /* Ma diag (100, 200, 300, 10, 20, 30), Ma(0,1) 1.0 / Ma(1,0) 1.002,
   * Ma(0,4) = Ma(4,0) = 5, Ma(1,2) = Ma(2,1) = 2; scaling 2, offset 1:
   * 2·(Ma + E6) → diag (202, 402, 602, 22, 42, 62); F·M·F flips xy and xq,
   * keeps yz: xy −(2.0 + 2.004)/2 = −2.002, xq −10, yz 4. */
  double ma[36] = { 0 };
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  double out[21];
  static const double diag[6] = { 100, 200, 300, 10, 20, 30 };

  for (int i = 0; i < 6; i++)
    ma[6 * i + i] = diag[i];
  ma[0 * 6 + 1] = 1.0;
  ma[1 * 6 + 0] = 1.002;
  ma[0 * 6 + 4] = ma[4 * 6 + 0] = 5;
  ma[1 * 6 + 2] = ma[2 * 6 + 1] = 2;

  bl_added_mass_import_uuv (ma, 2, 1, out, notes);
  assert_near (value_of (out, "xx"), 202, 1e-12);
  assert_near (value_of (out, "yy"), 402, 1e-12);
  assert_near (value_of (out, "zz"), 602, 1e-12);
  assert_near (value_of (out, "pp"), 22, 1e-12);
  assert_near (value_of (out, "qq"), 42, 1e-12);
  assert_near (value_of (out, "rr"), 62, 1e-12);
  assert_near (value_of (out, "xy"), -2.002, 1e-12);
  assert_near (value_of (out, "xq"), -10, 1e-12);
  assert_near (value_of (out, "yz"), 4, 1e-12);
  g_assert_true (has_note (notes, "A2", BL_SEVERITY_WARNING));

  /* Symmetric input, defaults: no A2. */
  {
    g_autoptr(GPtrArray) quiet = bl_added_mass_findings_new ();

    ma[1 * 6 + 0] = 1.0;
    bl_added_mass_import_uuv (ma, 1, 0, out, quiet);
    g_assert_false (has_note (quiet, "A2", BL_SEVERITY_WARNING));
    assert_near (value_of (out, "xy"), -1, 0);
    assert_near (value_of (out, "xx"), 100, 0);
  }
}

/* ---- §7 ------------------------------------------------------------------- */

static void
test_buoyancy_sphere (void)
{
  const double v = 4.0 / 3.0 * G_PI * 0.125;
  BlVec3 c = bl_vec3 (0.1, -0.2, 0.3);
  BlBuoyancy b;

  /* Neutral: m = ρ_f·V. */
  bl_buoyancy_compute (&v, &c, 1, 1000 * v, c, 1000, bl_vec3 (0, 0, -9.8), &b);
  assert_sig (b.volume, 0.5235988, 7);
  assert_near (b.net_mass, 0, 1e-12);
  assert_near (b.net_force, 0, 1e-9);
  assert_near (b.offset, 0, 0);
  /* F_B = 5131.268 N at ρ_f 1000, g 9.8. */
  assert_sig (b.displaced_mass * 9.8, 5131.268, 7);

  /* No parts: nothing displaced, all weight. */
  bl_buoyancy_compute (NULL, NULL, 0, 2, BL_VEC3_ZERO, 1000, bl_vec3 (0, 0, -9.8), &b);
  assert_near (b.volume, 0, 0);
  assert_near (b.net_force, -19.6, 1e-12);
}

static void
test_buoyancy_pendulum (void)
{
  /* auto_inertia_pendulum upper_link: three cylinders r 0.1 (lengths 0.3,
   * 0.3, 0.9) centred at (−0.05, 0, 0), (0, 0, 1), (0, 0, 0.5). */
  const double a = G_PI * 0.01;
  const double volumes[3] = { a * 0.3, a * 0.3, a * 0.9 };
  const BlVec3 centroids[3] = { { -0.05, 0, 0 }, { 0, 0, 1 }, { 0, 0, 0.5 } };
  BlVec3 com = bl_vec3 (-0.0333333333333, 0, 0.2083333333333);
  BlBuoyancy b;

  bl_buoyancy_compute (volumes, centroids, 3, 113.0973355, com, 1000,
                       bl_vec3 (0, 0, -9.8), &b);
  assert_sig (b.volume, 0.0471238898, 9);
  assert_near (b.center.x, -0.01, 1e-15);
  assert_near (b.center.y, 0, 0);
  assert_near (b.center.z, 0.5, 1e-15);
  assert_sig (b.displaced_mass, 47.1238898, 9);
  assert_sig (b.net_mass, -65.97, 4);
  assert_near (b.net_force, b.net_mass * 9.8, 1e-12);
  /* B above G by 0.5 − 0.2083333. */
  assert_near (b.vertical_offset, 0.2916666666667, 1e-12);
  /* Gravity along +x in these axes: "up" is −x, and B (x −0.01) lies
   * 0.0233 below G (x −0.0333). */
  bl_buoyancy_compute (volumes, centroids, 3, 113.0973355, com, 1000,
                       bl_vec3 (9.8, 0, 0), &b);
  assert_near (b.vertical_offset, -(0.0333333333333 - 0.01), 1e-12);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/added-mass/keys", test_keys);
  g_test_add_func ("/core/added-mass/values-roundtrip", test_values_roundtrip);
  g_test_add_func ("/core/added-mass/check/gzsim-fluid-added-mass", test_check_gzsim_fluid_added_mass);
  g_test_add_func ("/core/added-mass/check/full-matrix", test_check_full_matrix);
  g_test_add_func ("/core/added-mass/check/a6-text", test_check_a6_text);
  g_test_add_func ("/core/added-mass/check/ellipsoids", test_check_ellipsoids);
  g_test_add_func ("/core/added-mass/check/lighter-than-air", test_check_lighter_than_air);
  g_test_add_func ("/core/added-mass/check/mbari", test_check_mbari);
  g_test_add_func ("/core/added-mass/check/inertial-complete", test_check_inertial_complete);
  g_test_add_func ("/core/added-mass/check/issue-3246", test_check_issue_3246);
  g_test_add_func ("/core/added-mass/check/other-ids", test_check_other_ids);
  g_test_add_func ("/core/added-mass/check/plugin", test_check_plugin);
  g_test_add_func ("/core/added-mass/spatial-inertia", test_spatial_inertia);
  g_test_add_func ("/core/added-mass/cholesky", test_cholesky);
  g_test_add_func ("/core/added-mass/eigen-vectors", test_eigen_vectors);
  g_test_add_func ("/core/added-mass/rotation-keeps-eigenvalues", test_rotation_keeps_eigenvalues);
  g_test_add_func ("/core/added-mass/shift-sphere", test_shift_sphere);
  g_test_add_func ("/core/added-mass/shift-exact", test_shift_exact);
  g_test_add_func ("/core/added-mass/transform-recipe", test_transform_recipe);
  g_test_add_func ("/core/added-mass/estimate/carlson", test_carlson);
  g_test_add_func ("/core/added-mass/estimate/table", test_estimate_table);
  g_test_add_func ("/core/added-mass/estimate/flat", test_estimate_flat);
  g_test_add_func ("/core/added-mass/estimate/prolate-closed-form", test_prolate_closed_form);
  g_test_add_func ("/core/added-mass/estimate/lamb", test_lamb_coefficients);
  g_test_add_func ("/core/added-mass/estimate/dnv-tables", test_dnv_tables);
  g_test_add_func ("/core/added-mass/estimate/box", test_estimate_box);
  g_test_add_func ("/core/added-mass/estimate/cylinder-capsule-cone", test_estimate_cylinder_capsule_cone);
  g_test_add_func ("/core/added-mass/estimate/volume-inertial", test_estimate_from_volume_inertial);
  g_test_add_func ("/core/added-mass/estimate/sum", test_estimate_sum);
  g_test_add_func ("/core/added-mass/import/hydrodynamics", test_import_hydrodynamics);
  g_test_add_func ("/core/added-mass/import/dsros", test_import_dsros);
  g_test_add_func ("/core/added-mass/import/uuv", test_import_uuv);
  g_test_add_func ("/core/added-mass/import/lrauv", test_import_lrauv);
  g_test_add_func ("/core/added-mass/buoyancy/sphere", test_buoyancy_sphere);
  g_test_add_func ("/core/added-mass/buoyancy/pendulum", test_buoyancy_pendulum);

  return g_test_run ();
}
