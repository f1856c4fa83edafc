/* bl-inertial.h: rigid-body mass properties as gz-math 8 computes them, in double. */
#pragma once

#include "bl-math.h"

G_BEGIN_DECLS

/* gz-math GZ_MASSMATRIX3_DEFAULT_TOLERANCE */
#define BL_MASS_DEFAULT_TOLERANCE 10.0

/* A mass, its centre of mass `com` in some frame F and its inertia tensor
 * about the centre of mass in F's axes (the physical tensor, so the SDF
 * products: I.m[0][1] = ixy = −∫xy dm).  This is gz-math's Inertial with the
 * rotation of the inertial pose already absorbed into the tensor (Moi()). */
typedef struct
{
  double mass;
  BlVec3 com;
  BlMat3 inertia;
} BlInertial;

/* The SDF sextuple ↔ tensor. */
BlMat3   bl_inertia_from_sdf       (double ixx, double iyy, double izz,
                                    double ixy, double ixz, double iyz);

/* Shapes of uniform density, in the shape frame G (axis z for cylinder,
 * capsule and cone).  Each returns FALSE, leaving *out untouched, where
 * gz-math returns nothing (non-positive density or size). The cone's com is
 * (0, 0, −length/4); every other com is the origin. */
gboolean bl_inertial_box           (double x, double y, double z, double density, BlInertial *out);
gboolean bl_inertial_sphere        (double radius, double density, BlInertial *out);
gboolean bl_inertial_cylinder      (double radius, double length, double density, BlInertial *out);
gboolean bl_inertial_capsule       (double radius, double length, double density, BlInertial *out);
gboolean bl_inertial_ellipsoid     (double a, double b, double c, double density, BlInertial *out);
gboolean bl_inertial_cone          (double radius, double length, double density, BlInertial *out);

/* The same bodies expressed in an outer frame, given X_outer_inner. */
BlInertial bl_inertial_transform   (const BlInertial *in, BlPose pose);

/* gz-math Inertial::operator+: masses add, com is the mass-weighted mean,
 * tensors shifted with the parallel-axis theorem.  If the summed mass is
 * ≤ 0 the left operand is returned unchanged. */
BlInertial bl_inertial_add         (const BlInertial *a, const BlInertial *b);

/* Multiplies mass and tensor by s; the com stays. */
BlInertial bl_inertial_scale       (const BlInertial *in, double s);

/* The body's length: its radius of gyration √(trace/m), 0 when that is not
 * a finite positive number. */
double     bl_inertial_length_scale (double mass, const BlMat3 *inertia);
/* The inertial as a user reads it or a file receives it (bl_number_clean):
 * the mass against itself, the centre of mass against the body's length
 * (bl_inertial_length_scale, or its largest coordinate), the tensor against
 * its largest entry. */
BlInertial bl_inertial_clean_noise (const BlInertial *in);

/* gz-math MassMatrix3 tests; `inertia` is the full symmetric tensor. */
gboolean bl_mass_is_near_positive  (double mass, const BlMat3 *inertia, double tolerance);
gboolean bl_mass_is_positive       (double mass, const BlMat3 *inertia, double tolerance);
gboolean bl_mass_valid_moments     (const double moments[3], double trace, double tolerance);
gboolean bl_mass_is_valid          (double mass, const BlMat3 *inertia, double tolerance);
/* Which of bl_mass_is_valid's conditions fails, in words (newly
 * allocated), or NULL when the inertia is valid. */
char    *bl_mass_describe_invalid  (double mass, const BlMat3 *inertia, double tolerance);

/* gz-math PrincipalMoments(tol) (Kronenburg's closed-form cubic).  With a
 * diagonal tensor (|offdiag| ≤ tol·max(diag)) and tol ≥ 0 the diagonal comes
 * back in its own order; otherwise ascending. Default tol is 1e-6. */
void     bl_mass_principal_moments (const BlMat3 *inertia, double tolerance, double moments[3]);

/* Principal moments ascending and the matching axes: column i of *axes is
 * the unit axis of moments[i], det(*axes) = +1, and
 * inertia = axes · diag(moments) · axesᵀ. */
void     bl_mass_principal_axes    (const BlMat3 *inertia, double moments[3], BlMat3 *axes);

/* Equivalent uniform box (gz-math EquivalentBox) and solid ellipsoid on the
 * principal axes, both centred at the com.  FALSE when the tensor is not
 * positive (tol 0) or its moments break the triangle inequality. */
gboolean bl_mass_equivalent_box       (double mass, const BlMat3 *inertia,
                                       double size[3], BlMat3 *axes);
gboolean bl_mass_equivalent_ellipsoid (double mass, const BlMat3 *inertia,
                                       double semi_axes[3], BlMat3 *axes);
/* The same ellipsoid's semi-axes from the principal MOMENTS (any order):
 * semi_axes[i] = √(5(λj + λk − λi) / 2m) lies along moment i's axis, and is
 * 0 where the moments leave no slack (what the viewport's principal-axis
 * lines measure, even for a tensor with no equivalent ellipsoid). */
void     bl_mass_principal_semi_axes  (double mass, const double moments[3],
                                       double semi_axes[3]);

G_END_DECLS
