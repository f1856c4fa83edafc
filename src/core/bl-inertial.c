/* bl-inertial.c: shape inertia, inertial algebra and MassMatrix3 tests, as gz-math 8. */
#include "config.h"

#include <float.h>
#include <math.h>

#include "bl-inertial.h"
#include "bl-number.h"

/* gz-math's GZ_PI is M_PI; spelled out so the file needs no _GNU_SOURCE. */
#define BL_PI 3.14159265358979323846

/* gz-math keeps a MassMatrix3 as diagonal + (Ixy, Ixz, Iyz); a BlMat3 that
 * came out of R I Rᵀ can differ between its halves by an ulp, so every
 * tensor is read the way gz-math's Inertial::operator+= reads Moi(): the
 * upper triangle. */
static void
sym_upper (BlMat3 *a)
{
  a->m[1][0] = a->m[0][1];
  a->m[2][0] = a->m[0][2];
  a->m[2][1] = a->m[1][2];
}

static BlMat3
mat_from_parts (double ixx, double iyy, double izz,
                double ixy, double ixz, double iyz)
{
  BlMat3 r = { { { ixx, ixy, ixz }, { ixy, iyy, iyz }, { ixz, iyz, izz } } };

  return r;
}

static void
set_diagonal (BlInertial *out,
              double      mass,
              double      ixx,
              double      iyy,
              double      izz)
{
  out->mass = mass;
  out->com = BL_VEC3_ZERO;
  out->inertia = bl_mat3_diag (ixx, iyy, izz);
}

BlMat3
bl_inertia_from_sdf (double ixx,
                     double iyy,
                     double izz,
                     double ixy,
                     double ixz,
                     double iyz)
{
  return mat_from_parts (ixx, iyy, izz, ixy, ixz, iyz);
}

/* Every shape below follows the operation order of gz-math's
 * MassMatrix3::SetFrom*() and the shape classes, so results agree to
 * the last bit where the compiler does not contract to FMA. */

gboolean
bl_inertial_box (double      x,
                 double      y,
                 double      z,
                 double      density,
                 BlInertial *out)
{
  double volume = x * y * z;
  double mass = density * volume;
  double x2 = x * x, y2 = y * y, z2 = z * z;

  g_return_val_if_fail (out != NULL, FALSE);

  if (mass <= 0.0 || MIN (x, MIN (y, z)) <= 0.0)
    return FALSE;

  set_diagonal (out, mass,
                mass / 12.0 * (y2 + z2),
                mass / 12.0 * (z2 + x2),
                mass / 12.0 * (x2 + y2));
  return TRUE;
}

gboolean
bl_inertial_sphere (double      radius,
                    double      density,
                    BlInertial *out)
{
  double mass, i;

  g_return_val_if_fail (out != NULL, FALSE);

  if (density <= 0.0 || radius <= 0.0)
    return FALSE;

  mass = density * ((4.0 / 3.0) * BL_PI * pow (radius, 3));
  if (mass <= 0.0)
    return FALSE;

  i = 0.4 * mass * (radius * radius);
  set_diagonal (out, mass, i, i, i);
  return TRUE;
}

/* gz-math SetFromCylinderZ(Material, length, radius). */
static gboolean
cylinder_z (double      radius,
            double      length,
            double      density,
            BlInertial *out)
{
  double mass, r2, ixx;

  if (density <= 0.0 || length <= 0.0 || radius <= 0.0)
    return FALSE;

  mass = density * (BL_PI * radius * radius * length);
  if (mass <= 0.0)
    return FALSE;

  r2 = radius * radius;
  ixx = mass / 12.0 * (3 * r2 + length * length);
  set_diagonal (out, mass, ixx, ixx, mass / 2.0 * r2);
  return TRUE;
}

gboolean
bl_inertial_cylinder (double      radius,
                      double      length,
                      double      density,
                      BlInertial *out)
{
  g_return_val_if_fail (out != NULL, FALSE);

  return cylinder_z (radius, length, density, out);
}

gboolean
bl_inertial_capsule (double      radius,
                     double      length,
                     double      density,
                     BlInertial *out)
{
  BlInertial cylinder = { 0.0, { 0.0, 0.0, 0.0 }, { { { 0.0 } } } };
  BlInertial upper, lower, sum;
  double r2, hmass, ixx, izz, dz;

  g_return_val_if_fail (out != NULL, FALSE);

  /* gz-math Capsule::MassMatrix(): a failed cylinder stays the all-zero
   * MassMatrix3 and the sum is still built; only an invalid total fails. */
  cylinder_z (radius, length, density, &cylinder);

  r2 = radius * radius;
  hmass = density * 2. / 3. * BL_PI * r2 * radius;
  ixx = 83. / 320. * hmass * r2;
  izz = 2. / 5. * hmass * r2;
  dz = length / 2. + radius * 3. / 8.;

  upper.mass = hmass;
  upper.com = bl_vec3 (0.0, 0.0, dz);
  upper.inertia = bl_mat3_diag (ixx, ixx, izz);
  lower = upper;
  lower.com.z = -dz;

  sum = bl_inertial_add (&cylinder, &upper);
  sum = bl_inertial_add (&sum, &lower);

  if (!bl_mass_is_valid (sum.mass, &sum.inertia, BL_MASS_DEFAULT_TOLERANCE))
    return FALSE;

  *out = sum;
  return TRUE;
}

gboolean
bl_inertial_ellipsoid (double      a,
                       double      b,
                       double      c,
                       double      density,
                       BlInertial *out)
{
  const double four_thirds_pi = 4. * BL_PI / 3.;
  double mass, a2, b2, c2;

  g_return_val_if_fail (out != NULL, FALSE);

  /* gz-math checks only the radii: a non-positive density gives a
   * non-positive mass, not a failure. */
  if (a <= 0.0 || b <= 0.0 || c <= 0.0)
    return FALSE;

  mass = density * (four_thirds_pi * a * b * c);
  a2 = a * a;
  b2 = b * b;
  c2 = c * c;
  set_diagonal (out, mass,
                (mass / 5.) * (b2 + c2),
                (mass / 5.) * (a2 + c2),
                (mass / 5.) * (a2 + b2));
  return TRUE;
}

gboolean
bl_inertial_cone (double      radius,
                  double      length,
                  double      density,
                  BlInertial *out)
{
  double mass, r2, ixx;

  g_return_val_if_fail (out != NULL, FALSE);

  if (density <= 0.0 || length <= 0.0 || radius <= 0.0)
    return FALSE;

  mass = density * (BL_PI * radius * radius * length / 3.0);
  if (mass <= 0.0)
    return FALSE;

  r2 = radius * radius;
  ixx = 3.0 * mass * (4.0 * r2 + length * length) / 80.0;
  set_diagonal (out, mass, ixx, ixx, 3.0 * mass * r2 / 10.0);
  /* The centroid lies a quarter of the length above the base. */
  out->com = bl_vec3 (0.0, 0.0, -length / 4.0);
  return TRUE;
}

BlInertial
bl_inertial_transform (const BlInertial *in,
                       BlPose            pose)
{
  BlInertial r;
  BlMat3 rot;

  g_return_val_if_fail (in != NULL, (BlInertial) { 0 });

  rot = bl_mat3_from_quat (pose.q);
  r.mass = in->mass;
  r.com = bl_pose_apply (pose, in->com);
  r.inertia = bl_mat3_rotate (&in->inertia, &rot);
  sym_upper (&r.inertia);

  return r;
}

BlInertial
bl_inertial_add (const BlInertial *a,
                 const BlInertial *b)
{
  const BlInertial *ops[2] = { a, b };
  double m1, m2, mass;
  double ixx, iyy, izz, ixy, ixz, iyz;
  BlInertial r;
  BlVec3 com;

  g_return_val_if_fail (a != NULL && b != NULL, (BlInertial) { 0 });

  m1 = a->mass;
  m2 = b->mass;
  mass = m1 + m2;

  if (mass <= 0.0)
    return *a;

  /* A zero-mass operand (a failed collision) contributes nothing. */
  if (m2 == 0.0)
    return *a;
  if (m1 == 0.0)
    return *b;

  com = bl_vec3 ((m1 * a->com.x + m2 * b->com.x) / mass,
                 (m1 * a->com.y + m2 * b->com.y) / mass,
                 (m1 * a->com.z + m2 * b->com.z) / mass);

  ixx = a->inertia.m[0][0] + b->inertia.m[0][0];
  iyy = a->inertia.m[1][1] + b->inertia.m[1][1];
  izz = a->inertia.m[2][2] + b->inertia.m[2][2];
  ixy = a->inertia.m[0][1] + b->inertia.m[0][1];
  ixz = a->inertia.m[0][2] + b->inertia.m[0][2];
  iyz = a->inertia.m[1][2] + b->inertia.m[1][2];

  /* Parallel-axis shift of each operand to the common com. */
  for (int i = 0; i < 2; i++)
    {
      double mi = ops[i]->mass;
      BlVec3 d = bl_vec3_sub (ops[i]->com, com);

      ixx += mi * (d.y * d.y + d.z * d.z);
      iyy += mi * (d.z * d.z + d.x * d.x);
      izz += mi * (d.x * d.x + d.y * d.y);
      ixy -= mi * d.x * d.y;
      ixz -= mi * d.x * d.z;
      iyz -= mi * d.y * d.z;
    }

  r.mass = mass;
  r.com = com;
  r.inertia = mat_from_parts (ixx, iyy, izz, ixy, ixz, iyz);

  return r;
}

BlInertial
bl_inertial_scale (const BlInertial *in,
                   double            s)
{
  BlInertial r;

  g_return_val_if_fail (in != NULL, (BlInertial) { 0 });

  r.mass = in->mass * s;
  r.com = in->com;
  r.inertia = bl_mat3_scale (&in->inertia, s);

  return r;
}

double
bl_inertial_length_scale (double        mass,
                          const BlMat3 *inertia)
{
  double trace;

  g_return_val_if_fail (inertia != NULL, 0.0);

  trace = inertia->m[0][0] + inertia->m[1][1] + inertia->m[2][2];
  return mass > 0.0 && trace > 0.0 && isfinite (trace / mass) ? sqrt (trace / mass) : 0.0;
}

BlInertial
bl_inertial_clean_noise (const BlInertial *in)
{
  BlInertial r;
  double com[3];

  g_return_val_if_fail (in != NULL, (BlInertial) { 0 });

  r = *in;
  r.mass = bl_number_clean (in->mass, 0.0);
  com[0] = in->com.x;
  com[1] = in->com.y;
  com[2] = in->com.z;
  bl_number_clean_noise (com, 3, bl_inertial_length_scale (in->mass, &in->inertia));
  r.com = bl_vec3 (com[0], com[1], com[2]);
  bl_number_clean_noise (&r.inertia.m[0][0], 9, 0.0);
  return r;
}

/* gz-math MassMatrix3::Epsilon(moments, tol). */
static double
mass_epsilon (double sum,
              double tolerance)
{
  return tolerance * DBL_EPSILON * (0.5 * fabs (sum));
}

static double
diag_sum (const BlMat3 *i)
{
  return i->m[0][0] + i->m[1][1] + i->m[2][2];
}

static int scale_exponent (const BlMat3 *inertia);
static BlMat3 scaled (const BlMat3 *inertia, int exponent);

/* gz-math's leading-principal-minor test, each minor with the same eps.
 * A tensor beyond 2^±200 is tested scaled by 2^−k; the eps of the scaled
 * trace is then divided by 2^k against the second minor and by 2^2k
 * against the determinant, so each comparison is the unscaled one
 * divided by a power of two: the same answer, where the unscaled minors
 * would overflow to inf − inf = NaN. */
static gboolean
minors_positive (double        mass,
                 const BlMat3 *inertia,
                 double        tolerance,
                 gboolean      strict)
{
  BlMat3 i;
  double eps, m1, m2, m3;
  int k;

  i = *inertia;
  sym_upper (&i);
  k = scale_exponent (&i);
  if (k != 0)
    i = scaled (&i, k);
  eps = mass_epsilon (diag_sum (&i), tolerance);

  m1 = i.m[0][0] + eps;
  m2 = i.m[0][0] * i.m[1][1] - i.m[0][1] * i.m[0][1] + ldexp (eps, -k);
  m3 = bl_mat3_determinant (&i) + ldexp (eps, -2 * k);

  if (strict)
    return mass > 0.0 && m1 > 0.0 && m2 > 0.0 && m3 > 0.0;
  return mass >= 0.0 && m1 >= 0.0 && m2 >= 0.0 && m3 >= 0.0;
}

gboolean
bl_mass_is_near_positive (double        mass,
                          const BlMat3 *inertia,
                          double        tolerance)
{
  g_return_val_if_fail (inertia != NULL, FALSE);

  return minors_positive (mass, inertia, tolerance, FALSE);
}

gboolean
bl_mass_is_positive (double        mass,
                     const BlMat3 *inertia,
                     double        tolerance)
{
  g_return_val_if_fail (inertia != NULL, FALSE);

  return minors_positive (mass, inertia, tolerance, TRUE);
}

/* gz-math computes this eps from the sum of the moments passed in; pass
 * moments[0] + moments[1] + moments[2] as `trace` to reproduce it. */
gboolean
bl_mass_valid_moments (const double moments[3],
                       double       trace,
                       double       tolerance)
{
  double eps;

  g_return_val_if_fail (moments != NULL, FALSE);

  eps = mass_epsilon (trace, tolerance);

  return moments[0] + eps >= 0.0
         && moments[1] + eps >= 0.0
         && moments[2] + eps >= 0.0
         && moments[0] + moments[1] + eps >= moments[2]
         && moments[1] + moments[2] + eps >= moments[0]
         && moments[2] + moments[0] + eps >= moments[1];
}

static double
moments_sum (const double moments[3])
{
  return moments[0] + moments[1] + moments[2];
}

gboolean
bl_mass_is_valid (double        mass,
                  const BlMat3 *inertia,
                  double        tolerance)
{
  double moments[3];

  g_return_val_if_fail (inertia != NULL, FALSE);

  if (!bl_mass_is_near_positive (mass, inertia, tolerance))
    return FALSE;

  bl_mass_principal_moments (inertia, 1e-6, moments);
  return bl_mass_valid_moments (moments, moments_sum (moments), tolerance);
}

char *
bl_mass_describe_invalid (double        mass,
                          const BlMat3 *inertia,
                          double        tolerance)
{
  double moments[3];
  double eps;

  g_return_val_if_fail (inertia != NULL, NULL);

  if (!(mass > 0.0))
    return g_strdup_printf ("the mass, %g kg, is not positive", mass);

  bl_mass_principal_moments (inertia, 1e-6, moments);
  eps = mass_epsilon (moments_sum (moments), tolerance);
  if (!bl_mass_is_near_positive (mass, inertia, tolerance))
    {
      double lowest = MIN (moments[0], MIN (moments[1], moments[2]));

      return g_strdup_printf ("the tensor is not positive definite: its smallest principal moment is "
                              "%g kg·m²", lowest);
    }
  for (guint i = 0; i < 3; i++)
    {
      double a = moments[(i + 1) % 3], b = moments[(i + 2) % 3], c = moments[i];

      if (a + b + eps < c)
        return g_strdup_printf ("the principal moments break the triangle inequality: %g + %g is less "
                                "than %g kg·m², which no distribution of mass gives", a, b, c);
    }
  if (!bl_mass_valid_moments (moments, moments_sum (moments), tolerance))
    return g_strdup_printf ("a principal moment is negative (%g %g %g kg·m²)", moments[0], moments[1],
                            moments[2]);
  return NULL;
}

static void
sort2 (double *a,
       double *b)
{
  if (*b < *a)
    {
      double t = *a;

      *a = *b;
      *b = t;
    }
}

/* The power of two that brings a tensor whose largest entry lies beyond
 * 2^±200 back to about 1, or 0 when it needs none.  The cubic and the
 * Jacobi sweeps square and cube the entries, which overflows to inf for a
 * tensor of 1e308 (or underflows to 0 for 1e-308); scaling by a power of
 * two is exact, so the moments come back unchanged wherever they fit. */
static int
scale_exponent (const BlMat3 *inertia)
{
  double largest = 0.0;
  int exponent;

  for (guint r = 0; r < 3; r++)
    for (guint c = r; c < 3; c++)
      largest = MAX (largest, fabs (inertia->m[r][c]));

  if (!isfinite (largest) || largest == 0.0 || (largest < 0x1p200 && largest > 0x1p-200))
    return 0;
  frexp (largest, &exponent);
  return exponent;
}

static BlMat3
scaled (const BlMat3 *inertia,
        int           exponent)
{
  BlMat3 out;

  for (guint r = 0; r < 3; r++)
    for (guint c = 0; c < 3; c++)
      out.m[r][c] = ldexp (inertia->m[r][c], -exponent);
  return out;
}

static gboolean principal_moments_in_range (const BlMat3 *inertia,
                                            double        tolerance,
                                            double        moments[3]);

/* Returns TRUE when the tensor counted as diagonal and `moments` holds its
 * diagonal in place (gz-math's early return). */
static gboolean
principal_moments (const BlMat3 *inertia,
                   double        tolerance,
                   double        moments[3])
{
  int exponent = scale_exponent (inertia);
  BlMat3 s;
  gboolean diagonal;

  if (exponent == 0)
    return principal_moments_in_range (inertia, tolerance, moments);

  s = scaled (inertia, exponent);
  diagonal = principal_moments_in_range (&s, tolerance, moments);
  for (guint k = 0; k < 3; k++)
    moments[k] = ldexp (moments[k], exponent);
  return diagonal;
}

/* Jacobi eigen-decomposition of a symmetric tensor, scaled as above. */
static void
sym_eigen (const BlMat3 *inertia,
           double        moments[3],
           BlMat3       *axes)
{
  int exponent = scale_exponent (inertia);
  BlMat3 s;

  if (exponent == 0)
    {
      bl_mat3_sym_eigen (inertia, moments, axes);
      return;
    }

  s = scaled (inertia, exponent);
  bl_mat3_sym_eigen (&s, moments, axes);
  for (guint k = 0; k < 3; k++)
    moments[k] = ldexp (moments[k], exponent);
}

static gboolean
principal_moments_in_range (const BlMat3 *inertia,
                            double        tolerance,
                            double        moments[3])
{
  double ixx = inertia->m[0][0], iyy = inertia->m[1][1], izz = inertia->m[2][2];
  double ixy = inertia->m[0][1], ixz = inertia->m[0][2], iyz = inertia->m[1][2];
  double tol, b, c, d, p, q, delta, sp;

  tol = tolerance * MAX (ixx, MAX (iyy, izz));

  /* A negative tol can never pass, which forces the sorted branch. */
  if (fabs (ixy) <= tol && fabs (ixz) <= tol && fabs (iyz) <= tol)
    {
      moments[0] = ixx;
      moments[1] = iyy;
      moments[2] = izz;
      return TRUE;
    }

  /* Kronenburg, arXiv:1306.6291v4, with gz-math's grouping. */
  b = ixx + iyy + izz;
  c = ixx * iyy - ixy * ixy
      + ixx * izz - ixz * ixz
      + iyy * izz - iyz * iyz;
  d = ixx * (iyz * iyz)
      + iyy * (ixz * ixz)
      + izz * (ixy * ixy)
      - ixx * iyy * izz
      - 2 * ixy * ixz * iyz;
  p = b * b - 3 * c;

  if (p < tol * tol)
    {
      moments[0] = moments[1] = moments[2] = b / 3.0;
      return FALSE;
    }

  q = 2 * pow (b, 3) - 9 * b * c - 27 * d;
  delta = acos (CLAMP (0.5 * q / pow (p, 1.5), -1.0, 1.0));
  sp = sqrt (p);

  moments[0] = (b + 2 * sp * cos (delta / 3.0)) / 3.0;
  moments[1] = (b + 2 * sp * cos ((delta + 2 * BL_PI) / 3.0)) / 3.0;
  moments[2] = (b + 2 * sp * cos ((delta - 2 * BL_PI) / 3.0)) / 3.0;
  sort2 (&moments[0], &moments[1]);
  sort2 (&moments[1], &moments[2]);
  sort2 (&moments[0], &moments[1]);

  return FALSE;
}

void
bl_mass_principal_moments (const BlMat3 *inertia,
                           double        tolerance,
                           double        moments[3])
{
  g_return_if_fail (inertia != NULL);
  g_return_if_fail (moments != NULL);

  principal_moments (inertia, tolerance, moments);
}

void
bl_mass_principal_axes (const BlMat3 *inertia,
                        double        moments[3],
                        BlMat3       *axes)
{
  BlMat3 i;

  g_return_if_fail (inertia != NULL);
  g_return_if_fail (moments != NULL);

  i = *inertia;
  sym_upper (&i);
  sym_eigen (&i, moments, axes);
}

/* gz-math EquivalentBox's preconditions and moments; `axes` from the
 * Jacobi solver when the moments came back sorted (the only case where
 * gz-math's PrincipalAxesOffset is not the identity or a free choice). */
static gboolean
equivalent_moments (double        mass,
                    const BlMat3 *inertia,
                    double        moments[3],
                    BlMat3       *axes)
{
  BlMat3 i;
  gboolean diagonal;

  i = *inertia;
  sym_upper (&i);

  if (!bl_mass_is_positive (mass, &i, 0.0))
    return FALSE;

  diagonal = principal_moments (&i, 1e-6, moments);
  if (!bl_mass_valid_moments (moments, moments_sum (moments),
                              BL_MASS_DEFAULT_TOLERANCE))
    return FALSE;

  if (axes != NULL)
    {
      double jacobi[3];

      if (diagonal)
        *axes = bl_mat3_identity ();
      else
        sym_eigen (&i, jacobi, axes);
    }
  return TRUE;
}

/* √ of a triangle-inequality slack that ValidMoments let through within
 * eps; gz-math would return NaN for a slack of −eps, Ballast returns 0. */
static double
clamped_sqrt (double x)
{
  return x > 0.0 ? sqrt (x) : 0.0;
}

gboolean
bl_mass_equivalent_box (double        mass,
                        const BlMat3 *inertia,
                        double        size[3],
                        BlMat3       *axes)
{
  double l[3];

  g_return_val_if_fail (inertia != NULL, FALSE);
  g_return_val_if_fail (size != NULL, FALSE);

  if (!equivalent_moments (mass, inertia, l, axes))
    return FALSE;

  /* Differences first and the mass divided before the factor, so that a
   * mass or moments near DBL_MAX do not overflow to inf (nor 2·m to a 0). */
  size[0] = clamped_sqrt (6 * (((l[1] - l[0]) + l[2]) / mass));
  size[1] = clamped_sqrt (6 * (((l[2] - l[1]) + l[0]) / mass));
  size[2] = clamped_sqrt (6 * (((l[0] - l[2]) + l[1]) / mass));
  return TRUE;
}

gboolean
bl_mass_equivalent_ellipsoid (double        mass,
                              const BlMat3 *inertia,
                              double        semi_axes[3],
                              BlMat3       *axes)
{
  double l[3];

  g_return_val_if_fail (inertia != NULL, FALSE);
  g_return_val_if_fail (semi_axes != NULL, FALSE);

  if (!equivalent_moments (mass, inertia, l, axes))
    return FALSE;

  /* λ2 + λ3 − λ1 = 2 m a² / 5 for a solid ellipsoid, and cyclic. */
  semi_axes[0] = clamped_sqrt (2.5 * (((l[1] - l[0]) + l[2]) / mass));
  semi_axes[1] = clamped_sqrt (2.5 * (((l[2] - l[1]) + l[0]) / mass));
  semi_axes[2] = clamped_sqrt (2.5 * (((l[0] - l[2]) + l[1]) / mass));
  return TRUE;
}

void
bl_mass_principal_semi_axes (double        mass,
                             const double  moments[3],
                             double        semi_axes[3])
{
  g_return_if_fail (moments != NULL);
  g_return_if_fail (semi_axes != NULL);

  for (int i = 0; i < 3; i++)
    {
      double slack = moments[(i + 1) % 3] + moments[(i + 2) % 3] - moments[i];

      semi_axes[i] = slack > 0.0 ? sqrt (5.0 * slack / (2.0 * mass)) : 0.0;
    }
}
