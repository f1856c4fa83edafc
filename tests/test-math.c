/* test-math.c: vector, matrix, quaternion, pose and eigen-solver algebra. */
#include "config.h"

#include <math.h>

#include "bl-math.h"

#define PI 3.14159265358979323846

/* Expected values below are closed forms worked by hand. */
static void
assert_near_at (const char *file,
                int         line,
                const char *expr,
                double      got,
                double      want,
                double      tol)
{
  g_autofree char *msg = NULL;

  if (fabs (got - want) <= tol)
    return;

  msg = g_strdup_printf ("%s: got %.17g, want %.17g, tolerance %g",
                         expr, got, want, tol);
  g_assertion_message (G_LOG_DOMAIN, file, line, G_STRFUNC, msg);
}

#define assert_near(got, want, tol) \
  assert_near_at (__FILE__, __LINE__, #got, (got), (want), (tol))

static void
assert_vec3 (BlVec3 got,
             BlVec3 want,
             double tol)
{
  assert_near (got.x, want.x, tol);
  assert_near (got.y, want.y, tol);
  assert_near (got.z, want.z, tol);
}

static void
assert_mat3 (const BlMat3 *got,
             const BlMat3 *want,
             double        tol)
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      assert_near (got->m[i][j], want->m[i][j], tol);
}

static BlMat3
rot_x (double a)
{
  BlMat3 r = { { { 1, 0, 0 }, { 0, cos (a), -sin (a) }, { 0, sin (a), cos (a) } } };

  return r;
}

static BlMat3
rot_y (double a)
{
  BlMat3 r = { { { cos (a), 0, sin (a) }, { 0, 1, 0 }, { -sin (a), 0, cos (a) } } };

  return r;
}

static BlMat3
rot_z (double a)
{
  BlMat3 r = { { { cos (a), -sin (a), 0 }, { sin (a), cos (a), 0 }, { 0, 0, 1 } } };

  return r;
}

/* Rz(yaw) Ry(pitch) Rx(roll) from elementary rotations. */
static BlMat3
rpy_matrix (double roll,
            double pitch,
            double yaw)
{
  BlMat3 z = rot_z (yaw), y = rot_y (pitch), x = rot_x (roll);
  BlMat3 zy = bl_mat3_mul (&z, &y);

  return bl_mat3_mul (&zy, &x);
}

static void
test_vec3 (void)
{
  BlVec3 a = bl_vec3 (1, 2, 3), b = bl_vec3 (-4, 5, 0.5);

  assert_vec3 (bl_vec3_add (a, b), bl_vec3 (-3, 7, 3.5), 0);
  assert_vec3 (bl_vec3_sub (a, b), bl_vec3 (5, -3, 2.5), 0);
  assert_vec3 (bl_vec3_scale (a, -2), bl_vec3 (-2, -4, -6), 0);
  g_assert_cmpfloat (bl_vec3_dot (a, b), ==, -4 + 10 + 1.5);
  /* x × y = z and the general form (a2b3 − a3b2, a3b1 − a1b3, a1b2 − a2b1) */
  assert_vec3 (bl_vec3_cross (bl_vec3 (1, 0, 0), bl_vec3 (0, 1, 0)), bl_vec3 (0, 0, 1), 0);
  assert_vec3 (bl_vec3_cross (a, b), bl_vec3 (2 * 0.5 - 3 * 5, 3 * -4 - 1 * 0.5, 1 * 5 - 2 * -4), 0);
  g_assert_cmpfloat (bl_vec3_length (bl_vec3 (3, 4, 12)), ==, 13);
  g_assert_cmpfloat (bl_vec3_get (a, 0), ==, 1);
  g_assert_cmpfloat (bl_vec3_get (a, 1), ==, 2);
  g_assert_cmpfloat (bl_vec3_get (a, 2), ==, 3);
}

static void
test_mat3 (void)
{
  BlMat3 a = { { { 2, -3, 1 }, { 2, 0, -1 }, { 1, 4, 5 } } };
  BlMat3 b = { { { 1, 0, 2 }, { 0, 1, 0 }, { -1, 0, 1 } } };
  BlMat3 ab_want = { { { 1, -3, 5 }, { 3, 0, 3 }, { -4, 4, 7 } } };
  BlMat3 at_want = { { { 2, 2, 1 }, { -3, 0, 4 }, { 1, -1, 5 } } };
  BlMat3 sum_want = { { { 3, -3, 3 }, { 2, 1, -1 }, { 0, 4, 6 } } };
  BlMat3 half_want = { { { 1, -1.5, 0.5 }, { 1, 0, -0.5 }, { 0.5, 2, 2.5 } } };
  BlMat3 id = bl_mat3_identity (), zero = bl_mat3_zero (), d = bl_mat3_diag (1, 2, 3);
  BlMat3 r;

  r = bl_mat3_mul (&a, &b);
  assert_mat3 (&r, &ab_want, 0);
  r = bl_mat3_mul (&a, &id);
  assert_mat3 (&r, &a, 0);
  r = bl_mat3_transpose (&a);
  assert_mat3 (&r, &at_want, 0);
  r = bl_mat3_add (&a, &b);
  assert_mat3 (&r, &sum_want, 0);
  r = bl_mat3_scale (&a, 0.5);
  assert_mat3 (&r, &half_want, 0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        g_assert_cmpfloat (zero.m[i][j], ==, 0);
        g_assert_cmpfloat (d.m[i][j], ==, i == j ? i + 1 : 0);
      }

  /* 2(0·5 + 4) + 3(2·5 + 1) + 1(2·4 − 0) = 49 */
  g_assert_cmpfloat (bl_mat3_determinant (&a), ==, 49);
  g_assert_cmpfloat (bl_mat3_determinant (&b), ==, 3);
  assert_vec3 (bl_mat3_mul_vec3 (&a, bl_vec3 (1, 1, 1)), bl_vec3 (0, 1, 10), 0);
}

static void
test_mat3_rotate (void)
{
  BlMat3 d = bl_mat3_diag (2, 3, 4);
  BlMat3 rz = rot_z (PI / 2);
  BlMat3 r = bl_mat3_rotate (&d, &rz);
  BlMat3 want = bl_mat3_diag (3, 2, 4);
  BlMat3 rz45 = rot_z (PI / 4);
  BlMat3 want45 = { { { 2.5, -0.5, 0 }, { -0.5, 2.5, 0 }, { 0, 0, 4 } } };

  /* R diag(2,3,4) Rᵀ swaps the x and y moments for a quarter turn. */
  assert_mat3 (&r, &want, 1e-15);
  r = bl_mat3_rotate (&d, &rz45);
  assert_mat3 (&r, &want45, 1e-15);
}

static void
test_quat_euler (void)
{
  const double angles[][3] = {
    { 0.1, 0.2, 0.3 },
    { -1.2, 0.7, 2.9 },
    { 3.0, -1.5, -3.0 },
    { PI / 2, 0, 0 },
    { 0, 0, -PI / 2 },
    { 0.4, -0.3, 0 },
  };
  BlQuat q;
  BlMat3 r;
  double roll, pitch, yaw;

  /* Half-angle form: roll π/2 is (cos π/4, sin π/4, 0, 0). */
  q = bl_quat_from_euler (PI / 2, 0, 0);
  assert_near (q.w, sqrt (0.5), 1e-15);
  assert_near (q.x, sqrt (0.5), 1e-15);
  assert_near (q.y, 0, 1e-15);
  assert_near (q.z, 0, 1e-15);
  q = bl_quat_from_euler (0, 0, PI);
  assert_near (fabs (q.z), 1, 1e-15);

  for (guint i = 0; i < G_N_ELEMENTS (angles); i++)
    {
      BlMat3 want = rpy_matrix (angles[i][0], angles[i][1], angles[i][2]);

      q = bl_quat_from_euler (angles[i][0], angles[i][1], angles[i][2]);
      assert_near (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z, 1, 1e-15);
      r = bl_mat3_from_quat (q);
      assert_mat3 (&r, &want, 1e-15);

      bl_quat_to_euler (q, &roll, &pitch, &yaw);
      assert_near (roll, angles[i][0], 1e-12);
      assert_near (pitch, angles[i][1], 1e-12);
      assert_near (yaw, angles[i][2], 1e-12);
    }
}

static void
test_quat_gimbal (void)
{
  BlQuat q, q2;
  BlMat3 r, r2;
  double roll, pitch, yaw;

  /* Pitch +90°: R = Rz(y) Ry(π/2) Rx(r) depends only on y − r. */
  q = bl_quat_from_euler (0.3, PI / 2, 0.5);
  bl_quat_to_euler (q, &roll, &pitch, &yaw);
  assert_near (pitch, PI / 2, 1e-7);
  q2 = bl_quat_from_euler (roll, pitch, yaw);
  r = bl_mat3_from_quat (q);
  r2 = bl_mat3_from_quat (q2);
  assert_mat3 (&r2, &r, 1e-12);
  assert_near (yaw - roll, 0.2, 1e-7);

  /* Pitch −90°: only y + r is defined. */
  q = bl_quat_from_euler (0.3, -PI / 2, 0.5);
  bl_quat_to_euler (q, &roll, &pitch, &yaw);
  assert_near (pitch, -PI / 2, 1e-7);
  assert_near (yaw + roll, 0.8, 1e-7);
  q2 = bl_quat_from_euler (roll, pitch, yaw);
  r = bl_mat3_from_quat (q);
  r2 = bl_mat3_from_quat (q2);
  assert_mat3 (&r2, &r, 1e-12);
}

static void
test_quat_algebra (void)
{
  BlQuat a = bl_quat_from_euler (0.3, 0, 0);
  BlQuat b = bl_quat_from_euler (0.4, 0, 0);
  BlQuat ab, qi, q;
  BlMat3 ra, rb, rab, want;
  BlVec3 v;

  /* Rotations about one axis add. */
  ab = bl_quat_mul (a, b);
  q = bl_quat_from_euler (0.7, 0, 0);
  assert_near (ab.w, q.w, 1e-15);
  assert_near (ab.x, q.x, 1e-15);

  /* Product of quaternions ↔ product of matrices. */
  a = bl_quat_from_euler (0.1, -0.5, 1.2);
  b = bl_quat_from_euler (-0.8, 0.3, 0.2);
  ra = bl_mat3_from_quat (a);
  rb = bl_mat3_from_quat (b);
  want = bl_mat3_mul (&ra, &rb);
  rab = bl_mat3_from_quat (bl_quat_mul (a, b));
  assert_mat3 (&rab, &want, 1e-15);

  /* q q* = 1 */
  qi = bl_quat_mul (a, bl_quat_conjugate (a));
  assert_near (qi.w, 1, 1e-15);
  g_assert_true (bl_quat_is_identity (qi));
  g_assert_true (bl_quat_is_identity (BL_QUAT_IDENTITY));
  g_assert_true (bl_quat_is_identity ((BlQuat) { -1, 0, 0, 0 }));
  g_assert_false (bl_quat_is_identity (a));
  g_assert_false (bl_quat_is_identity (bl_quat_from_euler (0, 0, 1e-6)));

  q = bl_quat_normalize ((BlQuat) { 2, 0, 0, 2 });
  assert_near (q.w, sqrt (0.5), 1e-15);
  assert_near (q.z, sqrt (0.5), 1e-15);
  q = bl_quat_normalize ((BlQuat) { 0, 0, 0, 0 });
  g_assert_true (bl_quat_is_identity (q));
  /* of length one exactly (½² × 4 = 1): the same parts, −0 kept */
  q = bl_quat_normalize ((BlQuat) { 0.5, -0.5, 0.5, -0.5 });
  g_assert_true (q.w == 0.5 && q.x == -0.5 && q.y == 0.5 && q.z == -0.5);
  q = bl_quat_normalize ((BlQuat) { 1, -0.0, 0, 0 });
  g_assert_true (q.w == 1 && q.x == 0 && signbit (q.x) && !signbit (q.y));
  /* norm² 1 + 2^-52, whose square root rounds to 1 */
  q = bl_quat_normalize ((BlQuat) { 1, 0x1p-26 + 0x1p-53, 0, 0 });
  g_assert_cmpfloat (sqrt (1 + (0x1p-26 + 0x1p-53) * (0x1p-26 + 0x1p-53)), ==, 1);
  g_assert_true (q.w == 1 && q.x == 0x1p-26 + 0x1p-53);
  /* (cos 0.15, 0, 0, sin 0.15) is 1 − 2^-53 long in doubles: each part
   * divided by that */
  q = bl_quat_normalize ((BlQuat) { cos (0.15), 0, 0, sin (0.15) });
  g_assert_cmpfloat (sqrt (cos (0.15) * cos (0.15) + sin (0.15) * sin (0.15)), ==, 1 - 0x1p-53);
  g_assert_cmpfloat (q.w, ==, cos (0.15) / (1 - 0x1p-53));
  g_assert_cmpfloat (q.z, ==, sin (0.15) / (1 - 0x1p-53));
  g_assert_cmpfloat (q.w, !=, cos (0.15));

  /* Yaw 90° takes x to y, roll 90° takes y to z. */
  v = bl_quat_rotate (bl_quat_from_euler (0, 0, PI / 2), bl_vec3 (1, 0, 0));
  assert_vec3 (v, bl_vec3 (0, 1, 0), 1e-15);
  v = bl_quat_rotate (bl_quat_from_euler (PI / 2, 0, 0), bl_vec3 (0, 1, 0));
  assert_vec3 (v, bl_vec3 (0, 0, 1), 1e-15);
  v = bl_quat_rotate (a, bl_vec3 (0.3, -2, 5));
  assert_vec3 (v, bl_mat3_mul_vec3 (&ra, bl_vec3 (0.3, -2, 5)), 1e-14);
}

static void
test_quat_from_mat3 (void)
{
  const double angles[][3] = {
    { 0.1, 0.2, 0.3 },
    { PI, 0, 0 },         /* trace −1: x branch */
    { 0, PI, 0 },         /* y branch */
    { 0, 0, PI },         /* z branch */
    { 2.5, -1.0, 3.0 },
    { 0, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (angles); i++)
    {
      BlQuat q = bl_quat_from_euler (angles[i][0], angles[i][1], angles[i][2]);
      BlMat3 r = bl_mat3_from_quat (q);
      BlQuat back = bl_quat_from_mat3 (&r);
      double sign = q.w * back.w + q.x * back.x + q.y * back.y + q.z * back.z < 0 ? -1 : 1;

      /* q and −q are the same rotation. */
      assert_near (back.w * sign, q.w, 1e-15);
      assert_near (back.x * sign, q.x, 1e-15);
      assert_near (back.y * sign, q.y, 1e-15);
      assert_near (back.z * sign, q.z, 1e-15);
      g_assert_cmpfloat (back.w, >=, 0);
    }
}

static void
test_pose (void)
{
  BlPose ab = bl_pose_from_euler (1, 2, 3, 0, 0, PI / 2);
  BlPose bc = bl_pose_from_euler (1, 0, 0, PI / 2, 0, 0);
  BlPose ac, inv, id;
  BlMat3 r, rz = rot_z (PI / 2), rx = rot_x (PI / 2), want;

  /* p_AC = p_AB + R_AB p_BC = (1,2,3) + (0,1,0); R_AC = Rz(90°) Rx(90°). */
  ac = bl_pose_mul (ab, bc);
  assert_vec3 (ac.p, bl_vec3 (1, 3, 3), 1e-15);
  r = bl_mat3_from_quat (ac.q);
  want = bl_mat3_mul (&rz, &rx);
  assert_mat3 (&r, &want, 1e-15);

  /* A point: X_AB (0, 0, 1) = (1, 2, 4); (2, 0, 0) → (1, 4, 3). */
  assert_vec3 (bl_pose_apply (ab, bl_vec3 (0, 0, 1)), bl_vec3 (1, 2, 4), 1e-15);
  assert_vec3 (bl_pose_apply (ab, bl_vec3 (2, 0, 0)), bl_vec3 (1, 4, 3), 1e-15);

  /* X⁻¹ = (−Rᵀ p, Rᵀ): Rz(−90°)(1,2,3) = (2,−1,3). */
  inv = bl_pose_inverse (ab);
  assert_vec3 (inv.p, bl_vec3 (-2, 1, -3), 1e-15);
  id = bl_pose_mul (ab, inv);
  assert_vec3 (id.p, BL_VEC3_ZERO, 1e-15);
  g_assert_true (bl_quat_is_identity (id.q) || fabs (id.q.w - 1) < 1e-15);
  id = bl_pose_mul (inv, ab);
  assert_vec3 (id.p, BL_VEC3_ZERO, 1e-15);

  /* Composition is associative and the identity is neutral. */
  ac = bl_pose_mul (BL_POSE_IDENTITY, ab);
  assert_vec3 (ac.p, ab.p, 0);
  {
    BlPose cd = bl_pose_from_euler (-0.5, 0.25, 2, 0.3, -0.2, 0.1);
    BlPose l = bl_pose_mul (bl_pose_mul (ab, bc), cd);
    BlPose rr = bl_pose_mul (ab, bl_pose_mul (bc, cd));
    BlMat3 ml = bl_mat3_from_quat (l.q), mr = bl_mat3_from_quat (rr.q);

    assert_vec3 (l.p, rr.p, 1e-14);
    assert_mat3 (&ml, &mr, 1e-15);
  }
}

/* A v = λ v for each column, orthonormal columns, det +1, ascending. */
static void
check_eigen (const BlMat3 *a,
             const double  values[3],
             const BlMat3 *v,
             double        tol)
{
  BlMat3 vt = bl_mat3_transpose (v);
  BlMat3 vtv = bl_mat3_mul (&vt, v);
  BlMat3 id = bl_mat3_identity ();
  BlMat3 d = bl_mat3_diag (values[0], values[1], values[2]);
  BlMat3 back = bl_mat3_rotate (&d, v);

  assert_mat3 (&vtv, &id, 1e-14);
  assert_near (bl_mat3_determinant (v), 1, 1e-14);
  assert_mat3 (&back, a, tol);
  g_assert_cmpfloat (values[0], <=, values[1]);
  g_assert_cmpfloat (values[1], <=, values[2]);
}

static void
test_sym_eigen (void)
{
  BlMat3 a, v;
  double w[3];

  /* Diagonal, unsorted: columns become a permutation, right-handed. */
  a = bl_mat3_diag (3, 1, 2);
  bl_mat3_sym_eigen (&a, w, &v);
  g_assert_cmpfloat (w[0], ==, 1);
  g_assert_cmpfloat (w[1], ==, 2);
  g_assert_cmpfloat (w[2], ==, 3);
  assert_near (fabs (v.m[1][0]), 1, 0);
  assert_near (fabs (v.m[2][1]), 1, 0);
  assert_near (fabs (v.m[0][2]), 1, 0);
  check_eigen (&a, w, &v, 0);

  /* [[2,1,0],[1,2,0],[0,0,5]]: 1 on (1,−1,0)/√2, 3 on (1,1,0)/√2, 5 on z. */
  a = (BlMat3) { { { 2, 1, 0 }, { 1, 2, 0 }, { 0, 0, 5 } } };
  bl_mat3_sym_eigen (&a, w, &v);
  assert_near (w[0], 1, 1e-14);
  assert_near (w[1], 3, 1e-14);
  assert_near (w[2], 5, 1e-14);
  assert_near (fabs (v.m[0][0] - v.m[1][0]), sqrt (2), 1e-14);
  assert_near (fabs (v.m[0][1] + v.m[1][1]), sqrt (2), 1e-14);
  assert_near (fabs (v.m[2][2]), 1, 1e-14);
  check_eigen (&a, w, &v, 1e-14);

  /* Second-difference matrix: 2 − √2, 2, 2 + √2 on (1, ∓√2, 1)/2 and (1,0,−1)/√2. */
  a = (BlMat3) { { { 2, -1, 0 }, { -1, 2, -1 }, { 0, -1, 2 } } };
  bl_mat3_sym_eigen (&a, w, &v);
  assert_near (w[0], 2 - sqrt (2), 1e-14);
  assert_near (w[1], 2, 1e-14);
  assert_near (w[2], 2 + sqrt (2), 1e-14);
  assert_near (fabs (v.m[1][0]), sqrt (0.5), 1e-14);
  assert_near (fabs (v.m[0][0]), 0.5, 1e-14);
  assert_near (fabs (v.m[1][1]), 0, 1e-14);
  check_eigen (&a, w, &v, 1e-14);

  /* A rotated diagonal comes back: R diag(1, 4, 9) Rᵀ. */
  {
    BlMat3 r = rpy_matrix (0.3, -0.7, 1.1);
    BlMat3 d = bl_mat3_diag (4, 9, 1);

    a = bl_mat3_rotate (&d, &r);
    bl_mat3_sym_eigen (&a, w, &v);
    assert_near (w[0], 1, 1e-13);
    assert_near (w[1], 4, 1e-13);
    assert_near (w[2], 9, 1e-13);
    /* eigenvector of 1 is R's third column, up to sign */
    assert_near (fabs (v.m[0][0] * r.m[0][2] + v.m[1][0] * r.m[1][2] + v.m[2][0] * r.m[2][2]), 1, 1e-13);
    check_eigen (&a, w, &v, 1e-13);
  }

  /* Repeated and zero spectra. */
  a = bl_mat3_diag (4, 4, 4);
  bl_mat3_sym_eigen (&a, w, &v);
  g_assert_cmpfloat (w[0], ==, 4);
  g_assert_cmpfloat (w[2], ==, 4);
  check_eigen (&a, w, &v, 0);
  a = bl_mat3_zero ();
  bl_mat3_sym_eigen (&a, w, &v);
  g_assert_cmpfloat (w[0], ==, 0);
  g_assert_cmpfloat (w[2], ==, 0);
  check_eigen (&a, w, &v, 0);
  a = (BlMat3) { { { 4, -1, 0 }, { -1, 4, 0 }, { 0, 0, 3 } } };
  bl_mat3_sym_eigen (&a, w, &v);
  assert_near (w[0], 3, 1e-14);
  assert_near (w[1], 3, 1e-14);
  assert_near (w[2], 5, 1e-14);
  check_eigen (&a, w, &v, 1e-14);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/math/vec3", test_vec3);
  g_test_add_func ("/core/math/mat3", test_mat3);
  g_test_add_func ("/core/math/mat3-rotate", test_mat3_rotate);
  g_test_add_func ("/core/math/quat-euler", test_quat_euler);
  g_test_add_func ("/core/math/quat-gimbal", test_quat_gimbal);
  g_test_add_func ("/core/math/quat-algebra", test_quat_algebra);
  g_test_add_func ("/core/math/quat-from-mat3", test_quat_from_mat3);
  g_test_add_func ("/core/math/pose", test_pose);
  g_test_add_func ("/core/math/sym-eigen", test_sym_eigen);

  return g_test_run ();
}
