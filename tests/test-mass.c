/* test-mass.c: shape inertia, inertial algebra and MassMatrix3 tests against docs/reference/inertia.md §5 and §8. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "bl-inertial.h"

#define PI 3.14159265358979323846
#define REL 1e-9

static void
fail_at (const char *file,
         int         line,
         const char *expr,
         double      got,
         double      want,
         double      tol)
{
  g_autofree char *msg = g_strdup_printf ("%s: got %.17g, want %.17g, tolerance %g",
                                          expr, got, want, tol);

  g_assertion_message (G_LOG_DOMAIN, file, line, G_STRFUNC, msg);
}

static void
near_at (const char *file,
         int         line,
         const char *expr,
         double      got,
         double      want,
         double      tol)
{
  if (!(fabs (got - want) <= tol))
    fail_at (file, line, expr, got, want, tol);
}

/* Half a unit in the last of `sig` printed significant digits. */
static void
sig_at (const char *file,
        int         line,
        const char *expr,
        double      got,
        double      want,
        int         sig)
{
  double tol = 0.5 * pow (10, floor (log10 (fabs (want))) - sig + 1) * (1 + 1e-9);

  near_at (file, line, expr, got, want, tol);
}

/* Absolute tolerance. */
#define assert_near(got, want, tol) \
  near_at (__FILE__, __LINE__, #got, (got), (want), (tol))
/* Full-precision reference: relative 1e-9. */
#define assert_rel(got, want) \
  near_at (__FILE__, __LINE__, #got, (got), (want), REL * fabs ((double) (want)))
/* Reference printed to `sig` significant digits. */
#define assert_sig(got, want, sig) \
  sig_at (__FILE__, __LINE__, #got, (got), (want), (sig))

static void
assert_mat3_near (const BlMat3 *got,
                  const BlMat3 *want,
                  double        tol)
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      assert_near (got->m[i][j], want->m[i][j], tol);
}

static void
assert_diag_rel (const BlInertial *in,
                 double            ixx,
                 double            iyy,
                 double            izz)
{
  assert_rel (in->inertia.m[0][0], ixx);
  assert_rel (in->inertia.m[1][1], iyy);
  assert_rel (in->inertia.m[2][2], izz);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (i != j)
        g_assert_cmpfloat (in->inertia.m[i][j], ==, 0);
}

static void
assert_com_zero (const BlInertial *in)
{
  g_assert_cmpfloat (in->com.x, ==, 0);
  g_assert_cmpfloat (in->com.y, ==, 0);
  g_assert_cmpfloat (in->com.z, ==, 0);
}

/* Shape volumes from §5.1, to turn the gz-math "mass m" rows into densities. */
static double
capsule_volume (double r, double l)
{
  return PI * r * r * (l + 4 * r / 3);
}

static double
cylinder_volume (double r, double l)
{
  return PI * r * r * l;
}

static double
cone_volume (double r, double l)
{
  return PI * r * r * l / 3;
}

static double
sphere_volume (double r)
{
  return 4 * PI * r * r * r / 3;
}

static double
ellipsoid_volume (double a, double b, double c)
{
  return 4 * PI * a * b * c / 3;
}

/* ---- §8.1 shapes ---- */

static void
test_box (void)
{
  BlInertial o;

  g_assert_true (bl_inertial_box (2, 2, 2, 2710, &o));
  assert_rel (o.mass, 21680);
  assert_sig (o.inertia.m[0][0], 14453.33333, 10);
  assert_sig (o.inertia.m[1][1], 14453.33333, 10);
  assert_sig (o.inertia.m[2][2], 14453.33333, 10);

  g_assert_true (bl_inertial_box (2, 2, 2, 1240, &o));
  assert_rel (o.mass, 9920);
  assert_sig (o.inertia.m[0][0], 6613.333333, 10);
  assert_sig (o.inertia.m[1][1], 6613.333333, 10);
  assert_sig (o.inertia.m[2][2], 6613.333333, 10);
  assert_com_zero (&o);

  /* gz-math: box 2×0.1×34.12, mass 2 */
  g_assert_true (bl_inertial_box (2, 0.1, 34.12, 2 / (2 * 0.1 * 34.12), &o));
  assert_rel (o.mass, 2);
  assert_sig (o.inertia.m[0][0], 194.0307333, 10);
  assert_sig (o.inertia.m[1][1], 194.6957333, 10);
  assert_sig (o.inertia.m[2][2], 0.6683333333, 10);
  g_assert_cmpfloat (o.inertia.m[0][1], ==, 0);
}

static void
test_sphere (void)
{
  BlInertial o;

  g_assert_true (bl_inertial_sphere (0.1, 2170, &o));
  assert_sig (o.mass, 9.089674744, 10);
  for (int i = 0; i < 3; i++)
    assert_sig (o.inertia.m[i][i], 0.03635869898, 10);
  assert_com_zero (&o);

  /* §8.11 auto_inertia_rolling_shapes: ρ 1000, r 0.5 */
  g_assert_true (bl_inertial_sphere (0.5, 1000, &o));
  assert_sig (o.mass, 523.5987756, 10);
  assert_sig (o.inertia.m[0][0], 52.35987756, 10);

  g_assert_true (bl_inertial_sphere (0.1, 2 / sphere_volume (0.1), &o));
  assert_rel (o.mass, 2);
  assert_diag_rel (&o, 0.008, 0.008, 0.008);
}

static void
test_cylinder (void)
{
  BlInertial o, o2;

  g_assert_true (bl_inertial_cylinder (0.1, 2, 2170, &o));
  assert_sig (o.mass, 136.3451212, 10);
  assert_sig (o.inertia.m[0][0], 45.78923652, 10);
  assert_sig (o.inertia.m[1][1], 45.78923652, 10);
  assert_sig (o.inertia.m[2][2], 0.6817256058, 10);
  assert_com_zero (&o);

  /* §8.11 auto_inertia_rolling_shapes: ρ 7810, r 0.5, l 1 */
  g_assert_true (bl_inertial_cylinder (0.5, 1, 7810, &o));
  assert_sig (o.mass, 6133.959656, 10);
  assert_sig (o.inertia.m[0][0], 894.5357832, 10);
  assert_sig (o.inertia.m[1][1], 894.5357832, 10);
  assert_sig (o.inertia.m[2][2], 766.744957, 9);

  g_assert_true (bl_inertial_cylinder (0.1, 2, 2 / cylinder_volume (0.1, 2), &o));
  assert_rel (o.mass, 2);
  assert_sig (o.inertia.m[0][0], 0.6716666667, 10);
  assert_sig (o.inertia.m[1][1], 0.6716666667, 10);
  assert_rel (o.inertia.m[2][2], 0.01);

  /* mass 1, l 1, r 0.5; doubling l and r at the same mass gives ×4 */
  g_assert_true (bl_inertial_cylinder (0.5, 1, 1 / cylinder_volume (0.5, 1), &o));
  assert_sig (o.inertia.m[0][0], 0.1458333, 7);
  assert_sig (o.inertia.m[1][1], 0.1458333, 7);
  assert_rel (o.inertia.m[2][2], 0.125);
  g_assert_true (bl_inertial_cylinder (1, 2, 1 / cylinder_volume (1, 2), &o2));
  assert_rel (o2.mass, 1);
  assert_rel (o2.inertia.m[0][0], 4 * o.inertia.m[0][0]);
  assert_rel (o2.inertia.m[2][2], 4 * o.inertia.m[2][2]);
}

static void
test_capsule (void)
{
  BlInertial o;
  double r = 0.5, rho = 3, m;

  g_assert_true (bl_inertial_capsule (0.1, 2, 2710, &o));
  assert_sig (o.mass, 181.6259433, 10);
  assert_sig (o.inertia.m[0][0], 69.43219263, 10);
  assert_sig (o.inertia.m[1][1], 69.43219263, 10);
  assert_sig (o.inertia.m[2][2], 0.8967780949, 10);
  g_assert_cmpfloat (o.inertia.m[0][1], ==, 0);
  g_assert_cmpfloat (o.inertia.m[0][2], ==, 0);
  g_assert_cmpfloat (o.inertia.m[1][2], ==, 0);
  assert_near (o.com.x, 0, 0);
  assert_near (o.com.y, 0, 0);
  assert_near (o.com.z, 0, 1e-15);

  /* gz-math Capsule_TEST: l 2, r 0.1, mass 2.  By §5.2's closed form
   * m_c = 1.875, m_s = 0.125: Ixx = 1.875·4.03/12 + 0.125·1.079. */
  g_assert_true (bl_inertial_capsule (0.1, 2, 2 / capsule_volume (0.1, 2), &o));
  assert_rel (o.mass, 2);
  assert_rel (o.inertia.m[0][0], 0.7645625);
  assert_rel (o.inertia.m[1][1], 0.7645625);
  assert_rel (o.inertia.m[2][2], 0.009875);

  /* §5.2 closed form, m_c = ρπr²l, m_s = 2·(2/3)πρr³, to 1e-12 */
  {
    const double cases[][3] = { { 0.1, 2, 2710 }, { 0.5, 0.7, 2710 }, { 2, 0.01, 0.3 } };

    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        double cr = cases[c][0], cl = cases[c][1], crho = cases[c][2];
        double mc = crho * PI * cr * cr * cl, ms = 2 * (2.0 / 3.0) * PI * crho * cr * cr * cr;
        double ixx = mc * (3 * cr * cr + cl * cl) / 12 + ms * (0.4 * cr * cr + 0.375 * cr * cl + 0.25 * cl * cl);
        double izz = cr * cr * (0.5 * mc + 0.4 * ms);

        g_assert_true (bl_inertial_capsule (cr, cl, crho, &o));
        near_at (__FILE__, __LINE__, "mass", o.mass, mc + ms, 1e-12 * (mc + ms));
        near_at (__FILE__, __LINE__, "ixx", o.inertia.m[0][0], ixx, 1e-12 * ixx);
        near_at (__FILE__, __LINE__, "iyy", o.inertia.m[1][1], ixx, 1e-12 * ixx);
        near_at (__FILE__, __LINE__, "izz", o.inertia.m[2][2], izz, 1e-12 * izz);
      }
  }

  /* §8.11 auto_inertia_rolling_shapes capsule: ρ 2710, r 0.5, l 0.7 */
  g_assert_true (bl_inertial_capsule (0.5, 0.7, 2710, &o));
  assert_sig (o.mass, 2908.852998, 10);
  assert_sig (o.inertia.m[0][0], 655.9108772, 10);
  assert_sig (o.inertia.m[2][2], 328.1328077, 10);

  /* gz-math builds the capsule even when the cylinder part fails: with
   * length 0 the two hemispheres make a sphere (2/5 m r²). */
  g_assert_true (bl_inertial_capsule (r, 0, rho, &o));
  m = rho * sphere_volume (r);
  assert_rel (o.mass, m);
  assert_rel (o.inertia.m[0][0], 0.4 * m * r * r);
  assert_rel (o.inertia.m[2][2], 0.4 * m * r * r);

  /* Density 0: every part has mass 0; the all-zero MassMatrix3 is valid,
   * so gz-math returns a massless capsule rather than nothing. */
  g_assert_true (bl_inertial_capsule (0.1, 2, 0, &o));
  g_assert_cmpfloat (o.mass, ==, 0);
}

static void
test_ellipsoid (void)
{
  BlInertial o;

  g_assert_true (bl_inertial_ellipsoid (1, 10, 100, 2170, &o));
  assert_sig (o.mass, 9089674.744, 10);
  assert_sig (o.inertia.m[0][0], 1.836114298e10, 10);
  assert_sig (o.inertia.m[1][1], 1.818116742e10, 10);
  assert_sig (o.inertia.m[2][2], 1.836114298e8, 10);
  assert_com_zero (&o);

  g_assert_true (bl_inertial_ellipsoid (1, 10, 100, 2 / ellipsoid_volume (1, 10, 100), &o));
  assert_rel (o.mass, 2);
  assert_diag_rel (&o, 4040, 4000.4, 40.4);
}

static void
test_cone (void)
{
  BlInertial o;

  g_assert_true (bl_inertial_cone (0.1, 2, 2170, &o));
  assert_sig (o.mass, 45.44837372, 10);
  assert_sig (o.inertia.m[0][0], 6.885428619, 10);
  assert_sig (o.inertia.m[1][1], 6.885428619, 10);
  assert_sig (o.inertia.m[2][2], 0.1363451212, 10);
  g_assert_cmpfloat (o.com.x, ==, 0);
  g_assert_cmpfloat (o.com.y, ==, 0);
  assert_rel (o.com.z, -0.5);

  g_assert_true (bl_inertial_cone (0.1, 2, 2 / cone_volume (0.1, 2), &o));
  assert_rel (o.mass, 2);
  assert_diag_rel (&o, 0.303, 0.303, 0.006);

  g_assert_true (bl_inertial_cone (0.5, 1, 1 / cone_volume (0.5, 1), &o));
  assert_diag_rel (&o, 0.075, 0.075, 0.075);
  assert_rel (o.com.z, -0.25);

  /* gz-sim shapes.sdf cone: density 1, r 0.5, l 1 → m π/12, I 0.0196350 */
  g_assert_true (bl_inertial_cone (0.5, 1, 1, &o));
  assert_rel (o.mass, PI / 12);
  assert_sig (o.inertia.m[0][0], 0.0196350, 6);
  assert_sig (o.inertia.m[2][2], 0.0196350, 6);
}

static void
test_shape_failures (void)
{
  const BlInertial sentinel = { 42, { 1, 2, 3 }, { { { 7 } } } };
  BlInertial o = sentinel;

  /* §4.12 API-set sizes */
  g_assert_false (bl_inertial_box (-1, 1, 0, 1000, &o));
  g_assert_false (bl_inertial_cylinder (0, -1, 1000, &o));
  g_assert_false (bl_inertial_sphere (-2, 1000, &o));
  g_assert_false (bl_inertial_ellipsoid (-1, 2, 0, 1000, &o));
  /* §5.1 "fails if" */
  g_assert_false (bl_inertial_box (-1, -1, 1, 1000, &o));   /* mass > 0, min size < 0 */
  g_assert_false (bl_inertial_box (1, 1, 1, 0, &o));
  g_assert_false (bl_inertial_box (1, 1, 1, -2, &o));
  g_assert_false (bl_inertial_sphere (1, 0, &o));
  g_assert_false (bl_inertial_sphere (0, 1000, &o));
  g_assert_false (bl_inertial_cylinder (1, 1, 0, &o));
  g_assert_false (bl_inertial_cylinder (0, 1, 1000, &o));
  g_assert_false (bl_inertial_cylinder (1, 0, 1000, &o));
  g_assert_false (bl_inertial_cone (1, 1, 0, &o));
  g_assert_false (bl_inertial_cone (0, 1, 1000, &o));
  g_assert_false (bl_inertial_cone (1, -1, 1000, &o));
  g_assert_false (bl_inertial_ellipsoid (0, 1, 1, 1000, &o));
  g_assert_false (bl_inertial_ellipsoid (1, 1, -1, 1000, &o));

  g_assert_cmpfloat (o.mass, ==, sentinel.mass);
  g_assert_cmpfloat (o.com.z, ==, sentinel.com.z);
  g_assert_cmpfloat (o.inertia.m[0][0], ==, sentinel.inertia.m[0][0]);

  /* gz-math checks only the ellipsoid's radii, not its density. */
  g_assert_true (bl_inertial_ellipsoid (1, 1, 1, 0, &o));
  g_assert_cmpfloat (o.mass, ==, 0);
}

/* ---- §5.7, §8.2, §8.3 transform ---- */

static void
test_moi_rotation (void)
{
  BlInertial in = { 12, { 0, 0, 0 }, { { { 2, 0, 0 }, { 0, 3, 0 }, { 0, 0, 4 } } } };
  BlInertial out;
  BlMat3 want;

  out = bl_inertial_transform (&in, bl_pose_from_euler (0, 0, 0, PI / 2, 0, 0));
  want = bl_mat3_diag (2, 4, 3);
  assert_mat3_near (&out.inertia, &want, 1e-14);
  g_assert_cmpfloat (out.mass, ==, 12);

  out = bl_inertial_transform (&in, bl_pose_from_euler (0, 0, 0, 0, PI / 2, 0));
  want = bl_mat3_diag (4, 3, 2);
  assert_mat3_near (&out.inertia, &want, 1e-14);

  out = bl_inertial_transform (&in, bl_pose_from_euler (0, 0, 0, 0, 0, PI / 2));
  want = bl_mat3_diag (3, 2, 4);
  assert_mat3_near (&out.inertia, &want, 1e-14);

  out = bl_inertial_transform (&in, bl_pose_from_euler (0, 0, 0, 0, 0, PI / 4));
  want = (BlMat3) { { { 2.5, -0.5, 0 }, { -0.5, 2.5, 0 }, { 0, 0, 4 } } };
  assert_mat3_near (&out.inertia, &want, 1e-14);
  /* symmetric to the bit */
  g_assert_cmpfloat (out.inertia.m[0][1], ==, out.inertia.m[1][0]);

  /* com' = X com: (1,2,3) + Rz(90°)(1,0,0) */
  in.com = bl_vec3 (1, 0, 0);
  out = bl_inertial_transform (&in, bl_pose_from_euler (1, 2, 3, 0, 0, PI / 2));
  assert_near (out.com.x, 1, 1e-15);
  assert_near (out.com.y, 3, 1e-15);
  assert_near (out.com.z, 3, 1e-15);
}

static void
test_rotated_box (void)
{
  BlInertial box, out;

  /* §8.2: box 1×2×3 ρ 1 at collision pose (1 2 3 0 0 π/4) */
  g_assert_true (bl_inertial_box (1, 2, 3, 1, &box));
  out = bl_inertial_transform (&box, bl_pose_from_euler (1, 2, 3, 0, 0, PI / 4));
  assert_rel (out.mass, 6);
  assert_rel (out.com.x, 1);
  assert_rel (out.com.y, 2);
  assert_rel (out.com.z, 3);
  assert_rel (out.inertia.m[0][0], 5.75);
  assert_rel (out.inertia.m[1][1], 5.75);
  assert_rel (out.inertia.m[2][2], 2.5);
  assert_rel (out.inertia.m[0][1], 0.75);
  assert_rel (out.inertia.m[1][0], 0.75);
  assert_near (out.inertia.m[0][2], 0, 1e-15);
  assert_near (out.inertia.m[1][2], 0, 1e-15);
}

static void
test_density_links (void)
{
  BlInertial box, out;
  BlPose at = bl_pose_from_euler (1, 0, 0, 0, 0, 0);

  /* §8.3: box 1³ at collision pose (1 0 0) */
  g_assert_true (bl_inertial_box (1, 1, 1, 12, &box));
  out = bl_inertial_transform (&box, at);
  assert_rel (out.mass, 12);
  assert_diag_rel (&out, 2, 2, 2);
  assert_rel (out.com.x, 1);

  g_assert_true (bl_inertial_box (1, 1, 1, 24, &box));
  assert_diag_rel (&box, 4, 4, 4);

  g_assert_true (bl_inertial_box (1, 1, 1, 1000, &box));
  assert_rel (box.mass, 1000);
  assert_sig (box.inertia.m[0][0], 166.6667, 7);
}

/* ---- §5.8, §8.2, §8.7 addition ---- */

static void
test_add_box_cylinder (void)
{
  BlInertial box, cyl, sum;

  /* §8.2: box 1³ ρ 2 at z −0.5, cylinder r 0.5 l 1 ρ 4 at z +0.5 */
  g_assert_true (bl_inertial_box (1, 1, 1, 2, &box));
  g_assert_true (bl_inertial_cylinder (0.5, 1, 4, &cyl));
  box = bl_inertial_transform (&box, bl_pose_from_euler (0, 0, -0.5, 0, 0, 0));
  cyl = bl_inertial_transform (&cyl, bl_pose_from_euler (0, 0, 0.5, 0, 0, 0));
  sum = bl_inertial_add (&box, &cyl);

  assert_rel (sum.mass, 2 + PI);
  assert_sig (sum.mass, 5.141592654, 10);
  g_assert_cmpfloat (sum.com.x, ==, 0);
  g_assert_cmpfloat (sum.com.y, ==, 0);
  assert_sig (sum.com.z, 0.1110154704, 10);
  assert_sig (sum.inertia.m[0][0], 2.013513203, 10);
  assert_sig (sum.inertia.m[1][1], 2.013513203, 10);
  assert_sig (sum.inertia.m[2][2], 0.726032415, 9);
}

static void
test_add_two_cubes (void)
{
  BlInertial a = { 6, { -0.5, -0.5, -0.5 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
  BlInertial b = { 6, { 0.5, 0.5, 0.5 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
  BlInertial sum = bl_inertial_add (&a, &b);
  BlMat3 want = { { { 8, -3, -3 }, { -3, 8, -3 }, { -3, -3, 8 } } };

  assert_rel (sum.mass, 12);
  g_assert_cmpfloat (sum.com.x, ==, 0);
  g_assert_cmpfloat (sum.com.y, ==, 0);
  g_assert_cmpfloat (sum.com.z, ==, 0);
  assert_mat3_near (&sum.inertia, &want, 1e-14);
}

static void
test_add_halves (void)
{
  BlInertial half, cube, left, right, sum;
  double size[3];
  BlMat3 axes, id = bl_mat3_identity ();
  BlPose rot = bl_pose_from_euler (0, 0, 0, PI / 4, 0, 0);

  /* cube m 12, 1³ as two halves 0.5×1×1 of m 6 at x ±0.25 */
  g_assert_true (bl_inertial_box (0.5, 1, 1, 12, &half));
  g_assert_true (bl_inertial_box (1, 1, 1, 12, &cube));
  assert_rel (half.mass, 6);
  left = bl_inertial_transform (&half, bl_pose_from_euler (-0.25, 0, 0, 0, 0, 0));
  right = bl_inertial_transform (&half, bl_pose_from_euler (0.25, 0, 0, 0, 0, 0));
  sum = bl_inertial_add (&left, &right);
  assert_rel (sum.mass, 12);
  assert_near (sum.com.x, 0, 1e-15);
  assert_mat3_near (&sum.inertia, &cube.inertia, 1e-14);
  g_assert_true (bl_mass_equivalent_box (sum.mass, &sum.inertia, size, &axes));
  assert_rel (size[0], 1);
  assert_rel (size[1], 1);
  assert_rel (size[2], 1);
  assert_mat3_near (&axes, &id, 0);

  /* halves rotated roll 45° about their own centres */
  left = bl_inertial_transform (&half, bl_pose_from_euler (-0.25, 0, 0, PI / 4, 0, 0));
  right = bl_inertial_transform (&half, bl_pose_from_euler (0.25, 0, 0, PI / 4, 0, 0));
  sum = bl_inertial_add (&left, &right);
  cube = bl_inertial_transform (&cube, rot);
  assert_rel (sum.mass, cube.mass);
  assert_near (sum.com.x, cube.com.x, 1e-15);
  assert_near (sum.com.y, cube.com.y, 1e-15);
  assert_near (sum.com.z, cube.com.z, 1e-15);
  assert_mat3_near (&sum.inertia, &cube.inertia, 1e-14);
}

static void
test_add_eight_cubes (void)
{
  const double rpy[8][3] = {
    { 0, 0, 0 }, { PI / 2, 0, 0 }, { 0, PI / 2, 0 }, { 0, 0, PI / 2 },
    { PI, 0, 0 }, { 0, PI, PI / 2 }, { PI / 2, -PI / 2, 0 }, { -PI / 2, 0, PI },
  };
  BlInertial cube, big, sum = { 0, { 0, 0, 0 }, { { { 0 } } } };
  int k = 0;

  g_assert_true (bl_inertial_box (1, 1, 1, 12, &cube));
  for (int sx = -1; sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2)
      for (int sz = -1; sz <= 1; sz += 2)
        {
          BlPose at = bl_pose_from_euler (0.5 * sx, 0.5 * sy, 0.5 * sz,
                                          rpy[k][0], rpy[k][1], rpy[k][2]);
          BlInertial part = bl_inertial_transform (&cube, at);

          sum = bl_inertial_add (&sum, &part);
          k++;
        }

  /* equals box 2³ of mass 96 at pose 0: I = 96·8/12 = 64 */
  g_assert_true (bl_inertial_box (2, 2, 2, 12, &big));
  assert_rel (big.mass, 96);
  assert_rel (sum.mass, 96);
  assert_near (sum.com.x, 0, 1e-15);
  assert_near (sum.com.y, 0, 1e-15);
  assert_near (sum.com.z, 0, 1e-15);
  assert_mat3_near (&sum.inertia, &big.inertia, 1e-13);
  assert_rel (sum.inertia.m[0][0], 64);
}

static void
test_add_zero_mass (void)
{
  BlInertial a = { 3, { 1, 2, 3 }, { { { 1, 0.1, 0 }, { 0.1, 2, 0 }, { 0, 0, 3 } } } };
  BlInertial z1 = { 0, { 9, 9, 9 }, { { { 0 } } } };
  BlInertial z2 = { 0, { -7, -7, -7 }, { { { 0 } } } };
  BlInertial neg = { -5, { 0, 0, 0 }, { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } } };
  BlInertial r;

  r = bl_inertial_add (&a, &z1);
  g_assert_true (memcmp (&r, &a, sizeof r) == 0);
  r = bl_inertial_add (&z1, &a);
  g_assert_true (memcmp (&r, &a, sizeof r) == 0);
  /* both zero: the left operand */
  r = bl_inertial_add (&z1, &z2);
  g_assert_true (memcmp (&r, &z1, sizeof r) == 0);
  /* summed mass ≤ 0: the left operand unchanged */
  r = bl_inertial_add (&a, &neg);
  g_assert_true (memcmp (&r, &a, sizeof r) == 0);
}

static void
test_scale_and_sdf (void)
{
  BlMat3 i = bl_inertia_from_sdf (1, 2, 3, 0.4, 0.5, 0.6);
  BlMat3 want = { { { 1, 0.4, 0.5 }, { 0.4, 2, 0.6 }, { 0.5, 0.6, 3 } } };
  BlInertial in = { 2, { 1, 2, 3 }, i };
  BlInertial s;

  /* SDF products are the tensor's off-diagonals, unchanged. */
  assert_mat3_near (&i, &want, 0);

  s = bl_inertial_scale (&in, 2.5);
  g_assert_cmpfloat (s.mass, ==, 5);
  g_assert_cmpfloat (s.com.z, ==, 3);
  g_assert_cmpfloat (s.inertia.m[0][1], ==, 1);
  g_assert_cmpfloat (s.inertia.m[2][2], ==, 7.5);
}

/* ---- §5.3, §8.5 validity and principal moments ---- */

static void
moments_of (double ixx, double iyy, double izz,
            double ixy, double ixz, double iyz,
            double tol, double out[3])
{
  BlMat3 i = bl_inertia_from_sdf (ixx, iyy, izz, ixy, ixz, iyz);

  bl_mass_principal_moments (&i, tol, out);
}

static void
check_axes (const BlMat3 *inertia,
            const double  want[3],
            double        tol)
{
  double m[3];
  BlMat3 axes, d, back;

  bl_mass_principal_axes (inertia, m, &axes);
  for (int k = 0; k < 3; k++)
    assert_near (m[k], want[k], tol);
  assert_near (bl_mat3_determinant (&axes), 1, 1e-12);
  d = bl_mat3_diag (m[0], m[1], m[2]);
  back = bl_mat3_rotate (&d, &axes);
  assert_mat3_near (&back, inertia, 1e-12 * MAX (1.0, fabs (want[2])));
}

typedef struct
{
  double diag[3], off[3];
  double want[3];
  double tol;     /* absolute, for the comparison */
} MomentsCase;

static void
test_principal_moments (void)
{
  const double s2 = sqrt (2), s3 = sqrt (3);
  const MomentsCase cases[] = {
    /* repeated moments (upstream compares with 1e-6) */
    { { 4, 4, 3 }, { -1, 0, 0 }, { 3, 3, 5 }, 1e-6 },
    { { 4, 3, 4 }, { 0, -1, 0 }, { 3, 3, 5 }, 1e-6 },
    { { 4, 4, 5 }, { -1, 0, 0 }, { 3, 5, 5 }, 1e-6 },
    { { 4.5, 4.75, 4.75 }, { -0.25 * s2, 0.25 * s2, 0.25 }, { 4, 5, 5 }, 1e-6 },
    { { 4.5, 4.25, 4.25 }, { -0.25 * s2, 0.25 * s2, -0.25 }, { 4, 4, 5 }, 1e-6 },
    { { 5.5, 4.125, 4.375 }, { -0.25 * s3, 0.75, -0.125 * s3 }, { 4, 4, 6 }, 1e-6 },
    /* distinct */
    { { 3, 5, 5 }, { 0, 0, 1 }, { 3, 4, 6 }, 0 },
    { { 3000, 5000, 5000 }, { 0, 0, 1 }, { 3000, 4999, 5001 }, 0 },
    { { 5, 4, 4 }, { -1, 1, 0 }, { 3, 4, 6 }, 0 },
    { { 4, 4, 5 }, { 0, 1, 1 }, { 3, 4, 6 }, 0 },
    { { 4, 3, 3 }, { 0, 0, -0.5 }, { 2.5, 3.5, 4 }, 0 },
    { { 4, 5, 6 }, { -1, 0, -1 }, { 5 - s3, 5, 5 + s3 }, 0 },
    { { 13, 11.75, 11.25 }, { -s3 / 2, 1.5, s3 / 4 }, { 10, 12, 14 }, 0 },
    { { 2, 2, 2 }, { -1, 0, -1 }, { 2 - s2, 2, 2 + s2 }, 0 },
    { { 4, 4, 4 }, { -1, 0, -1 }, { 4 - s2, 4, 4 + s2 }, 0 },
  };
  double m[3];

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const MomentsCase *k = &cases[c];
      BlMat3 i = bl_inertia_from_sdf (k->diag[0], k->diag[1], k->diag[2],
                                      k->off[0], k->off[1], k->off[2]);

      g_test_message ("case %u", c);
      bl_mass_principal_moments (&i, 1e-6, m);
      for (int j = 0; j < 3; j++)
        {
          if (k->tol > 0)
            assert_near (m[j], k->want[j], k->tol);
          else
            assert_rel (m[j], k->want[j]);
        }
      /* the Jacobi solver agrees, and its axes rebuild the tensor */
      check_axes (&i, k->want, 1e-12 * k->want[2]);
    }

  /* already diagonal (within tol·max): the diagonal, in place */
  moments_of (1, 1, 1, 1e-10, 2e-10, 3e-10, 1e-6, m);
  g_assert_cmpfloat (m[0], ==, 1);
  g_assert_cmpfloat (m[1], ==, 1);
  g_assert_cmpfloat (m[2], ==, 1);
  moments_of (2, 3, 4, 1e-10, 2e-10, 3e-10, 1e-6, m);
  g_assert_cmpfloat (m[0], ==, 2);
  g_assert_cmpfloat (m[1], ==, 3);
  g_assert_cmpfloat (m[2], ==, 4);
  moments_of (3, 1, 2, 0, 0, 0, 1e-6, m);
  g_assert_cmpfloat (m[0], ==, 3);
  g_assert_cmpfloat (m[1], ==, 1);
  g_assert_cmpfloat (m[2], ==, 2);
  /* a negative tol forces sorting */
  moments_of (3, 1, 2, 0, 0, 0, -1e-6, m);
  assert_rel (m[0], 1);
  assert_rel (m[1], 2);
  assert_rel (m[2], 3);
  /* a large tol treats the products as zero */
  moments_of (2, 2, 2, -1, 0, -1, 0.51, m);
  g_assert_cmpfloat (m[0], ==, 2);
  g_assert_cmpfloat (m[2], ==, 2);
  moments_of (4, 4, 4, -1, 0, -1, 0.26, m);
  g_assert_cmpfloat (m[0], ==, 4);
  g_assert_cmpfloat (m[2], ==, 4);

  /* (1,1,1),(1,0,0) → (0,1,2) */
  moments_of (1, 1, 1, 1, 0, 0, 1e-6, m);
  assert_near (m[0], 0, 1e-14);
  assert_rel (m[1], 1);
  assert_rel (m[2], 2);

  /* (1,1.00001,1),(1,0,0) → (5e-6, 1, 2+5e-6): 1.000005 ∓ √(1 + 0.000005²) */
  moments_of (1, 1.00001, 1, 1, 0, 0, 1e-6, m);
  assert_sig (m[0], 5e-6, 1);
  assert_near (m[0], 1.000005 - sqrt (1 + 0.000005 * 0.000005), 1e-12);
  assert_rel (m[1], 1);
  assert_rel (m[2], 1.000005 + sqrt (1 + 0.000005 * 0.000005));

  /* (1e8,1e8,1),(1e3,1e3,1e3) → ≈ (0.98, 1e8−1e3, 1e8+1e3) "to ~2e-2".
   * The exact largest moment is 1e8 + 1e3 + 0.0199998 and the closed-form
   * cubic loses a few more 1e-5 at this scale (0.02002 here), so "~2e-2"
   * is taken as 2.5e-2. */
  moments_of (1e8, 1e8, 1, 1e3, 1e3, 1e3, 1e-6, m);
  assert_near (m[0], 0.98, 2.5e-2);
  assert_near (m[1], 1e8 - 1e3, 2.5e-2);
  assert_near (m[2], 1e8 + 1e3, 2.5e-2);

  /* (11.6116, 8.6116, 8.6116), (2,2,2) */
  moments_of (11.6116, 8.6116, 8.6116, 2, 2, 2, 1e-6, m);
  assert_sig (m[0], 6.6116, 5);
  assert_sig (m[1], 8.2393186767, 11);
  assert_sig (m[2], 13.983881323, 11);
}

static void
test_validity (void)
{
  const double tols[] = { 10, 1, 0 };
  BlMat3 zero = bl_mat3_zero ();
  BlMat3 i;
  double m[3];

  /* §8.5 validity column, default tolerance */
  i = bl_inertia_from_sdf (1, 1, 1, 1e-10, 2e-10, 3e-10);
  g_assert_true (bl_mass_is_positive (1, &i, BL_MASS_DEFAULT_TOLERANCE));
  g_assert_true (bl_mass_is_valid (1, &i, BL_MASS_DEFAULT_TOLERANCE));

  i = bl_inertia_from_sdf (2, 2, 2, -1, 0, -1);
  g_assert_true (bl_mass_is_positive (1, &i, BL_MASS_DEFAULT_TOLERANCE));
  g_assert_false (bl_mass_is_valid (1, &i, BL_MASS_DEFAULT_TOLERANCE));

  i = bl_inertia_from_sdf (4, 4, 4, -1, 0, -1);
  g_assert_true (bl_mass_is_valid (1, &i, BL_MASS_DEFAULT_TOLERANCE));

  i = bl_inertia_from_sdf (1, 1, 1, 1, 0, 0);
  g_assert_false (bl_mass_is_valid (1, &i, BL_MASS_DEFAULT_TOLERANCE));
  i = bl_inertia_from_sdf (1, 1.00001, 1, 1, 0, 0);
  g_assert_false (bl_mass_is_valid (1, &i, BL_MASS_DEFAULT_TOLERANCE));
  i = bl_inertia_from_sdf (1e8, 1e8, 1, 1e3, 1e3, 1e3);
  g_assert_false (bl_mass_is_valid (1, &i, BL_MASS_DEFAULT_TOLERANCE));

  /* default MassMatrix3(): valid for any tol, even −1, never positive */
  for (guint k = 0; k < G_N_ELEMENTS (tols); k++)
    {
      g_assert_true (bl_mass_is_valid (0, &zero, tols[k]));
      g_assert_false (bl_mass_is_positive (0, &zero, tols[k]));
    }
  g_assert_true (bl_mass_is_valid (0, &zero, -1));
  g_assert_false (bl_mass_is_positive (0, &zero, -1));

  /* Ixx = Iyy = 0.1, Izz = 0: valid for tol ≥ 0, invalid for tol −1
   * (det 0 + eps < 0 once eps is negative) */
  i = bl_mat3_diag (0.1, 0.1, 0);
  for (guint k = 0; k < G_N_ELEMENTS (tols); k++)
    g_assert_true (bl_mass_is_valid (0, &i, tols[k]));
  g_assert_false (bl_mass_is_valid (0, &i, -1));

  /* negative mass is never near-positive */
  i = bl_mat3_diag (1, 1, 1);
  g_assert_false (bl_mass_is_near_positive (-1, &i, 10));
  g_assert_true (bl_mass_is_near_positive (0, &i, 10));
  g_assert_false (bl_mass_is_positive (0, &i, 10));

  /* eps = tol·ε·½|tr|.  diag (−1e-15, 1, 1): tr ≈ 2, eps(10) = 10ε ≈
   * 2.2e-15 covers Ixx, the 2×2 minor (−1e-15) and det (−1e-15). */
  i = bl_mat3_diag (-1e-15, 1, 1);
  g_assert_true (bl_mass_is_near_positive (1, &i, 10));
  g_assert_true (bl_mass_is_positive (1, &i, 10));
  g_assert_false (bl_mass_is_near_positive (1, &i, 0));
  g_assert_false (bl_mass_is_positive (1, &i, 0));
  /* 1e-14 is beyond 10ε but within 100ε */
  i = bl_mat3_diag (-1e-14, 1, 1);
  g_assert_false (bl_mass_is_near_positive (1, &i, 10));
  g_assert_true (bl_mass_is_near_positive (1, &i, 100));
  /* the minor gets the same eps: Ixx·Iyy − Ixy² = −1e-15 with Ixx = 1 */
  i = bl_inertia_from_sdf (1, 1, 2, sqrt (1 + 1e-15), 0, 0);
  g_assert_cmpfloat (i.m[0][0] * i.m[1][1] - i.m[0][1] * i.m[0][1], <, 0);
  g_assert_false (bl_mass_is_near_positive (1, &i, 0));
  /* eps(10) = 10ε·½·4 ≈ 4.4e-15 lifts both the minor and det = 2 − 2Ixy² */
  g_assert_true (bl_mass_is_near_positive (1, &i, 10));

  /* ValidMoments: triangle slack against eps = tol·ε·½|sum| */
  m[0] = 1; m[1] = 1; m[2] = 2;
  g_assert_true (bl_mass_valid_moments (m, 4, 0));
  m[2] = 2 + 4e-15;   /* slack −4e-15, eps(10) = 10ε·2 ≈ 4.44e-15 */
  g_assert_true (bl_mass_valid_moments (m, m[0] + m[1] + m[2], 10));
  g_assert_false (bl_mass_valid_moments (m, m[0] + m[1] + m[2], 0));
  m[2] = 2 + 1e-14;
  g_assert_false (bl_mass_valid_moments (m, m[0] + m[1] + m[2], 10));
  m[0] = -1e-16; m[1] = 1; m[2] = 1;
  g_assert_true (bl_mass_valid_moments (m, 2, 10));
  g_assert_false (bl_mass_valid_moments (m, 2, 0));
}

/* ---- §5.6, §8.6 equivalent box and ellipsoid ---- */

/* axes · diag(λ) · axesᵀ rebuilds the tensor, with λ from the box sides */
static void
check_box_rebuilds (double        mass,
                    const BlMat3 *inertia,
                    const double  size[3],
                    const BlMat3 *axes)
{
  double x2 = size[0] * size[0], y2 = size[1] * size[1], z2 = size[2] * size[2];
  BlMat3 d = bl_mat3_diag (mass * (y2 + z2) / 12, mass * (z2 + x2) / 12,
                           mass * (x2 + y2) / 12);
  BlMat3 back = bl_mat3_rotate (&d, axes);

  assert_near (bl_mat3_determinant (axes), 1, 1e-12);
  assert_mat3_near (&back, inertia, 1e-9 * fabs (inertia->m[2][2]));
}

static void
check_ellipsoid_rebuilds (double        mass,
                          const BlMat3 *inertia,
                          const double  s[3],
                          const BlMat3 *axes)
{
  double a2 = s[0] * s[0], b2 = s[1] * s[1], c2 = s[2] * s[2];
  BlMat3 d = bl_mat3_diag (mass * (b2 + c2) / 5, mass * (c2 + a2) / 5,
                           mass * (a2 + b2) / 5);
  BlMat3 back = bl_mat3_rotate (&d, axes);

  assert_mat3_near (&back, inertia, 1e-9 * fabs (inertia->m[2][2]));
}

static void
test_equivalent_box (void)
{
  const double k = sqrt (5.0 / 12.0);   /* ellipsoid semi-axis per box side */
  BlMat3 id = bl_mat3_identity ();
  BlMat3 i, axes;
  double s[3], e[3];

  i = bl_mat3_diag (1, 1, 1);
  g_assert_true (bl_mass_equivalent_box (1, &i, s, &axes));
  for (int j = 0; j < 3; j++)
    {
      assert_rel (s[j], sqrt (6));
      assert_sig (s[j], 2.449490, 7);
    }
  assert_mat3_near (&axes, &id, 0);
  g_assert_true (bl_mass_equivalent_ellipsoid (1, &i, e, &axes));
  for (int j = 0; j < 3; j++)
    {
      assert_rel (e[j], sqrt (2.5));
      assert_sig (e[j], 1.581139, 7);
    }

  i = bl_mat3_diag (97, 82, 17);
  g_assert_true (bl_mass_equivalent_box (12, &i, s, &axes));
  assert_rel (s[0], 1);
  assert_rel (s[1], 4);
  assert_rel (s[2], 9);
  assert_mat3_near (&axes, &id, 0);
  g_assert_true (bl_mass_equivalent_ellipsoid (12, &i, e, &axes));
  assert_rel (e[0], k);
  assert_rel (e[1], 4 * k);
  assert_rel (e[2], 9 * k);
  assert_sig (e[0], 0.645497, 6);
  assert_sig (e[1], 2.581989, 7);
  assert_sig (e[2], 5.809475, 7);

  /* (82,17,97): gz-math's default tol keeps the diagonal order, so the
   * box is (4,9,1) on the identity; with tol −1e-6 it is the same box
   * sorted, (9,4,1) turned by a quarter yaw. */
  i = bl_mat3_diag (82, 17, 97);
  g_assert_true (bl_mass_equivalent_box (12, &i, s, &axes));
  assert_rel (s[0], 4);
  assert_rel (s[1], 9);
  assert_rel (s[2], 1);
  assert_mat3_near (&axes, &id, 0);
  {
    double l[3];

    bl_mass_principal_moments (&i, -1e-6, l);
    assert_rel (l[0], 17);
    assert_rel (l[1], 82);
    assert_rel (l[2], 97);
    /* the sorted box sides √(6(λ2+λ3−λ1)/m)… = (9, 4, 1) */
    assert_rel (sqrt (6 * (l[1] + l[2] - l[0]) / 12), 9);
    bl_mass_principal_axes (&i, l, &axes);
    /* yaw ±π/2: first axis along ±y, second along ±x, third along z */
    assert_near (fabs (axes.m[1][0]), 1, 0);
    assert_near (fabs (axes.m[0][1]), 1, 0);
    assert_near (axes.m[2][2], 1, 0);
    s[0] = 9; s[1] = 4; s[2] = 1;
    check_box_rebuilds (12, &i, s, &axes);
  }

  /* (49.5,49.5,97),(−32.5,0,0): (9,4,1) at yaw π/4 */
  i = bl_inertia_from_sdf (49.5, 49.5, 97, -32.5, 0, 0);
  g_assert_true (bl_mass_equivalent_box (12, &i, s, &axes));
  assert_rel (s[0], 9);
  assert_rel (s[1], 4);
  assert_rel (s[2], 1);
  check_box_rebuilds (12, &i, s, &axes);
  /* first axis ±(1,1,0)/√2, third ±z */
  assert_near (fabs (axes.m[0][0]), sqrt (0.5), 1e-12);
  assert_near (axes.m[0][0], axes.m[1][0], 1e-12);
  assert_near (fabs (axes.m[2][2]), 1, 1e-12);
  g_assert_true (bl_mass_equivalent_ellipsoid (12, &i, e, &axes));
  assert_rel (e[0], 9 * k);
  assert_rel (e[1], 4 * k);
  assert_rel (e[2], k);
  assert_sig (e[0], 5.809475, 7);
  check_ellipsoid_rebuilds (12, &i, e, &axes);

  /* (1,1,2e-6) m 12: (1e-3, 1e-3, √(1−1e-6) ≈ 1) */
  i = bl_mat3_diag (1, 1, 2e-6);
  g_assert_true (bl_mass_equivalent_box (12, &i, s, &axes));
  assert_rel (s[0], 1e-3);
  assert_rel (s[1], 1e-3);
  assert_rel (s[2], sqrt (1 - 1e-6));
  assert_sig (s[2], 1, 1);
  g_assert_true (bl_mass_equivalent_ellipsoid (12, &i, e, &axes));
  assert_rel (e[0], 1e-3 * k);
  assert_sig (e[0], 6.455e-4, 4);
  assert_rel (e[2], k * sqrt (1 - 1e-6));
  assert_sig (e[2], 0.645497, 6);

  /* (2,2,2),(−1,0,−1): positive, but the moments break the triangle */
  i = bl_inertia_from_sdf (2, 2, 2, -1, 0, -1);
  s[0] = e[0] = -1;
  g_assert_false (bl_mass_equivalent_box (1, &i, s, &axes));
  g_assert_false (bl_mass_equivalent_ellipsoid (1, &i, e, &axes));
  g_assert_cmpfloat (s[0], ==, -1);
  g_assert_cmpfloat (e[0], ==, -1);

  /* not positive (IsPositive(0)): zero mass, zero tensor */
  i = bl_mat3_diag (1, 1, 1);
  g_assert_false (bl_mass_equivalent_box (0, &i, s, NULL));
  i = bl_mat3_zero ();
  g_assert_false (bl_mass_equivalent_ellipsoid (1, &i, e, NULL));

  /* unit sphere: 2/5 m r² = 0.4 → semi-axes (1,1,1) */
  i = bl_mat3_diag (0.4, 0.4, 0.4);
  g_assert_true (bl_mass_equivalent_ellipsoid (1, &i, e, &axes));
  assert_rel (e[0], 1);
  assert_rel (e[1], 1);
  assert_rel (e[2], 1);
}

static void
test_equivalent_rotated (void)
{
  BlInertial box, turned;
  double s[3], e[3];
  BlMat3 axes;

  /* a box 1×2×3 turned arbitrarily comes back as itself, sorted by moment */
  g_assert_true (bl_inertial_box (1, 2, 3, 1, &box));
  turned = bl_inertial_transform (&box, bl_pose_from_euler (0, 0, 0, 0.3, -1.1, 2.0));
  g_assert_true (bl_mass_equivalent_box (turned.mass, &turned.inertia, s, &axes));
  /* ascending moments ↔ descending sides */
  assert_rel (s[0], 3);
  assert_rel (s[1], 2);
  assert_rel (s[2], 1);
  check_box_rebuilds (turned.mass, &turned.inertia, s, &axes);

  g_assert_true (bl_mass_equivalent_ellipsoid (turned.mass, &turned.inertia, e, &axes));
  assert_rel (e[0], 3 * sqrt (5.0 / 12.0));
  check_ellipsoid_rebuilds (turned.mass, &turned.inertia, e, &axes);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/mass/box", test_box);
  g_test_add_func ("/core/mass/sphere", test_sphere);
  g_test_add_func ("/core/mass/cylinder", test_cylinder);
  g_test_add_func ("/core/mass/capsule", test_capsule);
  g_test_add_func ("/core/mass/ellipsoid", test_ellipsoid);
  g_test_add_func ("/core/mass/cone", test_cone);
  g_test_add_func ("/core/mass/shape-failures", test_shape_failures);
  g_test_add_func ("/core/mass/moi-rotation", test_moi_rotation);
  g_test_add_func ("/core/mass/rotated-box", test_rotated_box);
  g_test_add_func ("/core/mass/density", test_density_links);
  g_test_add_func ("/core/mass/add/box-cylinder", test_add_box_cylinder);
  g_test_add_func ("/core/mass/add/two-cubes", test_add_two_cubes);
  g_test_add_func ("/core/mass/add/halves", test_add_halves);
  g_test_add_func ("/core/mass/add/eight-cubes", test_add_eight_cubes);
  g_test_add_func ("/core/mass/add/zero-mass", test_add_zero_mass);
  g_test_add_func ("/core/mass/scale-and-sdf", test_scale_and_sdf);
  g_test_add_func ("/core/mass/principal-moments", test_principal_moments);
  g_test_add_func ("/core/mass/validity", test_validity);
  g_test_add_func ("/core/mass/equivalent-box", test_equivalent_box);
  g_test_add_func ("/core/mass/equivalent-rotated", test_equivalent_rotated);

  return g_test_run ();
}
