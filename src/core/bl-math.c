/* bl-math.c: double-precision vector, matrix, quaternion and pose algebra. */
#include "config.h"

#include <math.h>

#include "bl-math.h"

double
bl_vec3_length (BlVec3 a)
{
  return sqrt (bl_vec3_dot (a, a));
}

double
bl_vec3_get (BlVec3 a,
             int    i)
{
  g_return_val_if_fail (i >= 0 && i < 3, 0.0);

  switch (i)
    {
    case 0:
      return a.x;
    case 1:
      return a.y;
    default:
      return a.z;
    }
}

BlMat3
bl_mat3_identity (void)
{
  return bl_mat3_diag (1.0, 1.0, 1.0);
}

BlMat3
bl_mat3_zero (void)
{
  return bl_mat3_diag (0.0, 0.0, 0.0);
}

BlMat3
bl_mat3_diag (double a,
              double b,
              double c)
{
  BlMat3 r = { { { a, 0.0, 0.0 }, { 0.0, b, 0.0 }, { 0.0, 0.0, c } } };

  return r;
}

BlMat3
bl_mat3_mul (const BlMat3 *a,
             const BlMat3 *b)
{
  BlMat3 r;

  g_return_val_if_fail (a != NULL && b != NULL, bl_mat3_zero ());

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r.m[i][j] = a->m[i][0] * b->m[0][j]
                + a->m[i][1] * b->m[1][j]
                + a->m[i][2] * b->m[2][j];

  return r;
}

BlMat3
bl_mat3_transpose (const BlMat3 *a)
{
  BlMat3 r;

  g_return_val_if_fail (a != NULL, bl_mat3_zero ());

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r.m[i][j] = a->m[j][i];

  return r;
}

BlMat3
bl_mat3_add (const BlMat3 *a,
             const BlMat3 *b)
{
  BlMat3 r;

  g_return_val_if_fail (a != NULL && b != NULL, bl_mat3_zero ());

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r.m[i][j] = a->m[i][j] + b->m[i][j];

  return r;
}

BlMat3
bl_mat3_scale (const BlMat3 *a,
               double        s)
{
  BlMat3 r;

  g_return_val_if_fail (a != NULL, bl_mat3_zero ());

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r.m[i][j] = a->m[i][j] * s;

  return r;
}

BlVec3
bl_mat3_mul_vec3 (const BlMat3 *a,
                  BlVec3        v)
{
  g_return_val_if_fail (a != NULL, BL_VEC3_ZERO);

  return bl_vec3 (a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
                  a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
                  a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}

double
bl_mat3_determinant (const BlMat3 *a)
{
  double c0, c1, c2;

  g_return_val_if_fail (a != NULL, 0.0);

  /* Cofactor expansion along row 0, in gz-math's Matrix3::Determinant
   * order, so validity checks round the same way. */
  c0 = a->m[1][1] * a->m[2][2] - a->m[1][2] * a->m[2][1];
  c1 = a->m[1][2] * a->m[2][0] - a->m[1][0] * a->m[2][2];
  c2 = a->m[1][0] * a->m[2][1] - a->m[1][1] * a->m[2][0];

  return a->m[0][0] * c0 + a->m[0][1] * c1 + a->m[0][2] * c2;
}

BlMat3
bl_mat3_rotate (const BlMat3 *a,
                const BlMat3 *r)
{
  BlMat3 ra, rt;

  g_return_val_if_fail (a != NULL && r != NULL, bl_mat3_zero ());

  ra = bl_mat3_mul (r, a);
  rt = bl_mat3_transpose (r);

  return bl_mat3_mul (&ra, &rt);
}

BlMat3
bl_mat3_from_quat (BlQuat q)
{
  BlMat3 r;
  double xx, yy, zz, xy, xz, yz, wx, wy, wz;

  q = bl_quat_normalize (q);

  xx = q.x * q.x;
  yy = q.y * q.y;
  zz = q.z * q.z;
  xy = q.x * q.y;
  xz = q.x * q.z;
  yz = q.y * q.z;
  wx = q.w * q.x;
  wy = q.w * q.y;
  wz = q.w * q.z;

  r.m[0][0] = 1.0 - 2.0 * (yy + zz);
  r.m[0][1] = 2.0 * (xy - wz);
  r.m[0][2] = 2.0 * (xz + wy);
  r.m[1][0] = 2.0 * (xy + wz);
  r.m[1][1] = 1.0 - 2.0 * (xx + zz);
  r.m[1][2] = 2.0 * (yz - wx);
  r.m[2][0] = 2.0 * (xz - wy);
  r.m[2][1] = 2.0 * (yz + wx);
  r.m[2][2] = 1.0 - 2.0 * (xx + yy);

  return r;
}

BlQuat
bl_quat_from_euler (double roll,
                    double pitch,
                    double yaw)
{
  double cr = cos (roll * 0.5), sr = sin (roll * 0.5);
  double cp = cos (pitch * 0.5), sp = sin (pitch * 0.5);
  double cy = cos (yaw * 0.5), sy = sin (yaw * 0.5);
  BlQuat q;

  /* q = qz(yaw) * qy(pitch) * qx(roll) */
  q.w = cr * cp * cy + sr * sp * sy;
  q.x = sr * cp * cy - cr * sp * sy;
  q.y = cr * sp * cy + sr * cp * sy;
  q.z = cr * cp * sy - sr * sp * cy;

  return bl_quat_normalize (q);
}

void
bl_quat_to_euler (BlQuat  q,
                  double *roll,
                  double *pitch,
                  double *yaw)
{
  BlMat3 r = bl_mat3_from_quat (q);
  double cp = hypot (r.m[2][1], r.m[2][2]);
  double rr, pp, yy;

  /* R = Rz(y) Ry(p) Rx(r): R20 = −sin p, R21 = cos p sin r,
   * R22 = cos p cos r, R10 = cos p sin y, R00 = cos p cos y. */
  pp = atan2 (-r.m[2][0], cp);
  if (cp > 1e-12)
    {
      rr = atan2 (r.m[2][1], r.m[2][2]);
      yy = atan2 (r.m[1][0], r.m[0][0]);
    }
  else
    {
      /* Gimbal lock: only yaw − roll (pitch +90°) or yaw + roll (−90°)
       * is defined; put it all in yaw. */
      rr = 0.0;
      yy = atan2 (-r.m[0][1], r.m[1][1]);
    }

  if (roll != NULL)
    *roll = rr;
  if (pitch != NULL)
    *pitch = pp;
  if (yaw != NULL)
    *yaw = yy;
}

BlQuat
bl_quat_mul (BlQuat a,
             BlQuat b)
{
  BlQuat r;

  r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;

  return r;
}

BlQuat
bl_quat_conjugate (BlQuat q)
{
  return (BlQuat) { q.w, -q.x, -q.y, -q.z };
}

BlQuat
bl_quat_normalize (BlQuat q)
{
  double norm2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  double len;

  /* Already of length one (most are, the identity always): divided by 1,
   * each part is itself.  The square root is 1 for a norm² of exactly 1
   * and of 1 + 2^-52, the next double, only. */
  if (norm2 == 1.0)
    return q;
  len = sqrt (norm2);
  /* As gz-math: a (near) zero quaternion becomes the identity. */
  if (len < 1e-6)
    return BL_QUAT_IDENTITY;
  if (len == 1.0)
    return q;

  return (BlQuat) { q.w / len, q.x / len, q.y / len, q.z / len };
}

BlQuat
bl_quat_from_mat3 (const BlMat3 *r)
{
  const double (*m)[3];
  double tr, s;
  BlQuat q;

  g_return_val_if_fail (r != NULL, BL_QUAT_IDENTITY);

  m = r->m;
  tr = m[0][0] + m[1][1] + m[2][2];

  /* Shepperd: divide by the largest of the four candidate components. */
  if (tr > 0.0)
    {
      s = 2.0 * sqrt (1.0 + tr);
      q.w = 0.25 * s;
      q.x = (m[2][1] - m[1][2]) / s;
      q.y = (m[0][2] - m[2][0]) / s;
      q.z = (m[1][0] - m[0][1]) / s;
    }
  else if (m[0][0] > m[1][1] && m[0][0] > m[2][2])
    {
      s = 2.0 * sqrt (1.0 + m[0][0] - m[1][1] - m[2][2]);
      q.w = (m[2][1] - m[1][2]) / s;
      q.x = 0.25 * s;
      q.y = (m[0][1] + m[1][0]) / s;
      q.z = (m[0][2] + m[2][0]) / s;
    }
  else if (m[1][1] > m[2][2])
    {
      s = 2.0 * sqrt (1.0 + m[1][1] - m[0][0] - m[2][2]);
      q.w = (m[0][2] - m[2][0]) / s;
      q.x = (m[0][1] + m[1][0]) / s;
      q.y = 0.25 * s;
      q.z = (m[1][2] + m[2][1]) / s;
    }
  else
    {
      s = 2.0 * sqrt (1.0 + m[2][2] - m[0][0] - m[1][1]);
      q.w = (m[1][0] - m[0][1]) / s;
      q.x = (m[0][2] + m[2][0]) / s;
      q.y = (m[1][2] + m[2][1]) / s;
      q.z = 0.25 * s;
    }

  /* Pick the hemisphere with w ≥ 0 so equal rotations compare equal. */
  if (q.w < 0.0)
    q = (BlQuat) { -q.w, -q.x, -q.y, -q.z };

  return bl_quat_normalize (q);
}

BlVec3
bl_quat_rotate (BlQuat q,
                BlVec3 v)
{
  BlVec3 u, t;

  q = bl_quat_normalize (q);
  u = bl_vec3 (q.x, q.y, q.z);

  /* v' = v + w t + u × t with t = 2 u × v */
  t = bl_vec3_scale (bl_vec3_cross (u, v), 2.0);

  return bl_vec3_add (bl_vec3_add (v, bl_vec3_scale (t, q.w)),
                      bl_vec3_cross (u, t));
}

gboolean
bl_quat_is_identity (BlQuat q)
{
  double tol = 1e-12 * fabs (q.w);

  /* q and −q are the same rotation. */
  return q.w != 0.0
         && fabs (q.x) <= tol && fabs (q.y) <= tol && fabs (q.z) <= tol;
}

BlPose
bl_pose_mul (BlPose a,
             BlPose b)
{
  BlPose r;

  r.p = bl_vec3_add (a.p, bl_quat_rotate (a.q, b.p));
  r.q = bl_quat_normalize (bl_quat_mul (a.q, b.q));

  return r;
}

BlPose
bl_pose_inverse (BlPose a)
{
  BlPose r;

  r.q = bl_quat_conjugate (bl_quat_normalize (a.q));
  r.p = bl_vec3_scale (bl_quat_rotate (r.q, a.p), -1.0);

  return r;
}

BlVec3
bl_pose_apply (BlPose a,
               BlVec3 v)
{
  return bl_vec3_add (a.p, bl_quat_rotate (a.q, v));
}

BlPose
bl_pose_from_euler (double x,
                    double y,
                    double z,
                    double roll,
                    double pitch,
                    double yaw)
{
  BlPose r;

  r.p = bl_vec3 (x, y, z);
  r.q = bl_quat_from_euler (roll, pitch, yaw);

  return r;
}

/* One Jacobi rotation in the (p, q) plane that zeroes a[p][q]. */
static void
jacobi_rotate (double a[3][3],
               double v[3][3],
               int    p,
               int    q)
{
  double theta, t, c, s;

  theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
  if (fabs (theta) > 1e150)
    t = 0.5 / theta;
  else
    t = copysign (1.0, theta) / (fabs (theta) + sqrt (theta * theta + 1.0));
  c = 1.0 / sqrt (t * t + 1.0);
  s = t * c;

  /* A ← Jᵀ A J and V ← V J with J the plane rotation [[c, s], [−s, c]]. */
  for (int k = 0; k < 3; k++)
    {
      double akp = a[k][p], akq = a[k][q];

      a[k][p] = c * akp - s * akq;
      a[k][q] = s * akp + c * akq;
    }
  for (int k = 0; k < 3; k++)
    {
      double apk = a[p][k], aqk = a[q][k];

      a[p][k] = c * apk - s * aqk;
      a[q][k] = s * apk + c * aqk;
    }
  a[p][q] = a[q][p] = 0.0;

  for (int k = 0; k < 3; k++)
    {
      double vkp = v[k][p], vkq = v[k][q];

      v[k][p] = c * vkp - s * vkq;
      v[k][q] = s * vkp + c * vkq;
    }
}

void
bl_mat3_sym_eigen (const BlMat3 *a,
                   double        values[3],
                   BlMat3       *vectors)
{
  static const int pairs[3][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
  double w[3][3], v[3][3], d[3];
  int order[3] = { 0, 1, 2 };
  BlMat3 out;
  int flip;

  g_return_if_fail (a != NULL);
  g_return_if_fail (values != NULL);

  /* Work on the symmetric part. */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        w[i][j] = 0.5 * (a->m[i][j] + a->m[j][i]);
        v[i][j] = i == j ? 1.0 : 0.0;
      }

  for (int sweep = 0; sweep < 64; sweep++)
    {
      gboolean rotated = FALSE;

      for (int k = 0; k < 3; k++)
        {
          int p = pairs[k][0], q = pairs[k][1];
          double g = 100.0 * fabs (w[p][q]);

          if (w[p][q] == 0.0)
            continue;

          /* Negligible against both diagonal entries: drop it. */
          if (fabs (w[p][p]) + g == fabs (w[p][p])
              && fabs (w[q][q]) + g == fabs (w[q][q]))
            {
              w[p][q] = w[q][p] = 0.0;
              continue;
            }

          jacobi_rotate (w, v, p, q);
          rotated = TRUE;
        }

      if (!rotated)
        break;
    }

  for (int i = 0; i < 3; i++)
    d[i] = w[i][i];

  /* Ascending, stable. */
  for (int i = 1; i < 3; i++)
    for (int j = i; j > 0 && d[order[j]] < d[order[j - 1]]; j--)
      {
        int tmp = order[j];

        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }

  for (int c = 0; c < 3; c++)
    {
      values[c] = d[order[c]];
      for (int r = 0; r < 3; r++)
        out.m[r][c] = v[r][order[c]];
    }

  /* Signs are free: keep the rotation closest to the identity (each
   * column's diagonal entry ≥ 0), then make it right-handed by flipping
   * the column that costs the least trace. */
  for (int c = 0; c < 3; c++)
    if (out.m[c][c] < 0.0)
      for (int r = 0; r < 3; r++)
        out.m[r][c] = -out.m[r][c];

  if (bl_mat3_determinant (&out) < 0.0)
    {
      flip = 0;
      for (int c = 1; c < 3; c++)
        if (out.m[c][c] < out.m[flip][flip])
          flip = c;
      for (int r = 0; r < 3; r++)
        out.m[r][flip] = -out.m[r][flip];
    }

  if (vectors != NULL)
    *vectors = out;
}
