/* bl-math.h: small double-precision vector, matrix, quaternion and pose algebra. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double x, y, z;
} BlVec3;

/* Row-major: m[row][col]. */
typedef struct
{
  double m[3][3];
} BlMat3;

/* Unit quaternion, scalar first. */
typedef struct
{
  double w, x, y, z;
} BlQuat;

/* A rigid transform X_AB: position p of B's origin in A, rotation q of B in A.
 * Composition X_AC = X_AB * X_BC: p_AC = p_AB + R_AB p_BC, R_AC = R_AB R_BC. */
typedef struct
{
  BlVec3 p;
  BlQuat q;
} BlPose;

#define BL_VEC3_ZERO ((BlVec3) { 0.0, 0.0, 0.0 })
#define BL_QUAT_IDENTITY ((BlQuat) { 1.0, 0.0, 0.0, 0.0 })
#define BL_POSE_IDENTITY ((BlPose) { { 0.0, 0.0, 0.0 }, { 1.0, 0.0, 0.0, 0.0 } })

static inline BlVec3
bl_vec3 (double x, double y, double z)
{
  return (BlVec3) { x, y, z };
}

/* The vector operations every pose and inertia goes through many times,
 * inline (the same doubles as calls: ISO C's -std=c11 contracts no
 * product and sum into one). */
static inline BlVec3
bl_vec3_add (BlVec3 a,
             BlVec3 b)
{
  return bl_vec3 (a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline BlVec3
bl_vec3_sub (BlVec3 a,
             BlVec3 b)
{
  return bl_vec3 (a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline BlVec3
bl_vec3_scale (BlVec3 a,
               double s)
{
  return bl_vec3 (a.x * s, a.y * s, a.z * s);
}

static inline double
bl_vec3_dot (BlVec3 a,
             BlVec3 b)
{
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline BlVec3
bl_vec3_cross (BlVec3 a,
               BlVec3 b)
{
  return bl_vec3 (a.y * b.z - a.z * b.y,
                  a.z * b.x - a.x * b.z,
                  a.x * b.y - a.y * b.x);
}

double   bl_vec3_length       (BlVec3 a);
double   bl_vec3_get          (BlVec3 a, int i);

BlMat3   bl_mat3_identity     (void);
BlMat3   bl_mat3_zero         (void);
BlMat3   bl_mat3_diag         (double a, double b, double c);
BlMat3   bl_mat3_mul          (const BlMat3 *a, const BlMat3 *b);
BlMat3   bl_mat3_transpose    (const BlMat3 *a);
BlMat3   bl_mat3_add          (const BlMat3 *a, const BlMat3 *b);
BlMat3   bl_mat3_scale        (const BlMat3 *a, double s);
BlVec3   bl_mat3_mul_vec3     (const BlMat3 *a, BlVec3 v);
double   bl_mat3_determinant  (const BlMat3 *a);
/* R A Rᵀ */
BlMat3   bl_mat3_rotate       (const BlMat3 *a, const BlMat3 *r);
BlMat3   bl_mat3_from_quat    (BlQuat q);

/* Fixed-axis roll about x, then pitch about y, then yaw about z:
 * R = Rz(yaw) Ry(pitch) Rx(roll), as gz-math Quaternion(r, p, y). */
BlQuat   bl_quat_from_euler   (double roll, double pitch, double yaw);
void     bl_quat_to_euler     (BlQuat q, double *roll, double *pitch, double *yaw);
BlQuat   bl_quat_mul          (BlQuat a, BlQuat b);
BlQuat   bl_quat_conjugate    (BlQuat q);
BlQuat   bl_quat_normalize    (BlQuat q);
BlQuat   bl_quat_from_mat3    (const BlMat3 *r);
BlVec3   bl_quat_rotate       (BlQuat q, BlVec3 v);
gboolean bl_quat_is_identity  (BlQuat q);

BlPose   bl_pose_mul          (BlPose a, BlPose b);
BlPose   bl_pose_inverse      (BlPose a);
BlVec3   bl_pose_apply        (BlPose a, BlVec3 v);
BlPose   bl_pose_from_euler   (double x, double y, double z,
                               double roll, double pitch, double yaw);

/* Symmetric 3×3 eigen-decomposition by cyclic Jacobi rotations.
 * Eigenvalues ascending; column i of *vectors is the unit eigenvector of
 * values[i], and the columns form a right-handed rotation. */
void     bl_mat3_sym_eigen    (const BlMat3 *a, double values[3], BlMat3 *vectors);

G_END_DECLS
