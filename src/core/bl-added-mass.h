/* bl-added-mass.h: fluid added mass (SDF 1.10 //inertial/fluid_added_mass) and buoyancy:
 * the 6×6 matrix, its checks, frame changes, estimates from geometry and imports.
 *
 * Conventions (docs/reference/added-mass.md): index order x y z p q r,
 * matrices about the link origin Lo in link axes L unless a function says
 * otherwise, positive (physical) sign, SI units.  Display- and document-free:
 * callers pass plain numbers and get plain numbers back. */
#pragma once

#include "bl-diagnostic.h"
#include "bl-inertial.h"

G_BEGIN_DECLS

#define BL_ADDED_MASS_N_VALUES 21

/* Fluid density presets, kg/m³.  Always distinct from a collision's material
 * density. */
#define BL_FLUID_DENSITY_SEA_WATER   1025.0
#define BL_FLUID_DENSITY_FRESH_WATER 1000.0
#define BL_FLUID_DENSITY_AIR         1.225
#define BL_FLUID_DENSITY_DEFAULT     BL_FLUID_DENSITY_SEA_WATER
/* The fluid densities the app offers (its fields, its setting's range in
 * data/app.ballast.Ballast.gschema.xml, the viewport), from below air's
 * to above any liquid's. */
#define BL_FLUID_DENSITY_MIN         0.001
#define BL_FLUID_DENSITY_MAX         100000.0

/* Row-major 6×6, m[row][col], order x y z p q r. */
typedef struct
{
  double m[6][6];
} BlMat6;

/* ---- The 21 SDF values ---------------------------------------------------- */

/* Spec order: xx xy xz xp xq xr yy yz yp yq yr zz zp zq zr pp pq pr qq qr rr
 * (the upper triangle, row by row).  Also declared in bl-model.h. */
extern const char * const bl_added_mass_keys[21];
/* (row, col) of key index 0…20 in the 6×6, row ≤ col. */
void          bl_added_mass_index       (guint        key,
                                         guint       *row,
                                         guint       *col);
/* Index 0…20 of the SDF element name "xx"…"rr"; −1 for anything else
 * (mirrored names like "yx" are not SDF). */
int           bl_added_mass_key_lookup  (const char  *key);

BlMat6        bl_mat6_zero              (void);
BlMat6        bl_mat6_identity          (void);
/* Fills both triangles from the 21 spec-order values. */
BlMat6        bl_mat6_from_values       (const double values[21]);
/* The 21 spec-order values of ½(M + Mᵀ). */
void          bl_mat6_to_values         (const BlMat6 *m,
                                         double        values[21]);
BlMat6        bl_mat6_add               (const BlMat6 *a,
                                         const BlMat6 *b);
BlMat6        bl_mat6_scale             (const BlMat6 *a,
                                         double        s);
BlMat6        bl_mat6_mul               (const BlMat6 *a,
                                         const BlMat6 *b);
BlMat6        bl_mat6_transpose         (const BlMat6 *a);
double        bl_mat6_max_abs           (const BlMat6 *a);
/* ½(A + Aᵀ).  max_asymmetry (nullable) receives max |Aij − Aji| and
 * row/col (nullable) where it occurs, row < col. */
BlMat6        bl_mat6_symmetrize        (const BlMat6 *a,
                                         double       *max_asymmetry,
                                         guint        *row,
                                         guint        *col);

/* Symmetric eigen-decomposition by cyclic Jacobi (only the upper triangle
 * is read).  values ascending; vectors (nullable): column i is the unit
 * eigenvector of values[i].  The values are the same with or without
 * vectors, which cost a third of the work. */
void          bl_mat6_sym_eigen         (const BlMat6 *a,
                                         double        values[6],
                                         BlMat6       *vectors);
/* Cholesky LLᵀ succeeds with every pivot > 1e-12·trace (a non-positive
 * trace fails).  failed_pivot (nullable) receives the first failing
 * index, or −1. */
gboolean      bl_mat6_is_positive_definite (const BlMat6 *a,
                                            int          *failed_pivot);

/* ---- Frames (§4) ---------------------------------------------------------- */

/* Q·M·Qᵀ with Q = diag(R, R): M given in source axes with v_L = R·v_src. */
BlMat6        bl_mat6_rotate            (const BlMat6 *m,
                                         const BlMat3 *r);
/* H(r)ᵀ·M·H(r): M about the point at r (from Lo, in L axes) → about Lo.
 * The inverse shift is bl_mat6_shift (M, −r). */
BlMat6        bl_mat6_shift             (const BlMat6 *m,
                                         BlVec3        r);
/* §4.3: M given in axes K about the point `point_k` (in K), with X_LK the
 * pose of K in L → about Lo in L axes (rotate, then shift by
 * p_LK + R_LK·point_k). */
BlMat6        bl_mat6_transform         (const BlMat6 *m,
                                         BlPose        x_lk,
                                         BlVec3        point_k);
/* F·M·F, F = diag(1, −1, −1, 1, −1, −1): FRD ↔ FLU body axes. */
BlMat6        bl_mat6_flip_frd          (const BlMat6 *m);

/* ---- Rigid-body spatial inertia (§3) ------------------------------------- */

/* M_RB about the link origin in link axes from the mass, the COM `com` in L
 * and the tensor `inertia` about the COM in L axes (SDF products).  Not
 * gz-math's BodyMatrix: the rotational block is about Lo. */
BlMat6        bl_spatial_inertia        (double        mass,
                                         BlVec3        com,
                                         const BlMat3 *inertia);
BlMat6        bl_spatial_inertia_from_inertial (const BlInertial *body);

/* ---- Checks (§2) ---------------------------------------------------------- */

/* One result of a check or a note from an import or estimate.  `id` is a
 * static string: "A1"…"A10" for the checks of §2, "import" for what an
 * import did. */
typedef struct
{
  const char *id;
  BlSeverity  severity;
  char       *message;
} BlAddedMassFinding;

BlAddedMassFinding *bl_added_mass_finding_new  (const char *id,
                                                BlSeverity  severity,
                                                const char *format,
                                                ...) G_GNUC_PRINTF (3, 4);
void                bl_added_mass_finding_free (BlAddedMassFinding *finding);
/* An empty GPtrArray that frees its BlAddedMassFinding elements. */
GPtrArray          *bl_added_mass_findings_new (void);

typedef enum
{
  BL_ADDED_MASS_CHECK_NONE     = 0,
  /* The matrix comes from an import: run A2 (symmetry). */
  BL_ADDED_MASS_CHECK_IMPORTED = 1 << 0,
  /* The link's <inertial auto="true">: A9 (libsdformat drops the values),
   * unless every value is 0. */
  BL_ADDED_MASS_CHECK_AUTO     = 1 << 1,
} BlAddedMassCheckFlags;

typedef struct
{
  BlMat6     added_mass;           /* A as checked (symmetrised) */
  BlMat6     spatial_inertia;      /* M_RB about Lo; zero without a body */
  gboolean   finite;               /* A1 passed */
  gboolean   has_body;
  gboolean   semidefinite;         /* A3 passed: no eigenvalue below −1e-9·max(λmax, 1) */
  double     eigenvalues[6];       /* of A, ascending; NAN if !finite */
  double     total_eigenvalues[6]; /* of M_RB + A, ascending; NAN if !finite or no body */
  gboolean   total_positive_definite;  /* A4 passed */
  double     ratios[6];            /* Aii / M_RB,ii (A6); NAN without a body or where M_RB,ii ≤ 0 */
  double     max_ratio;            /* the largest of them; 0 without a body */
  int        max_ratio_index;      /* 0…5 (x y z p q r), −1 when none */
  GPtrArray *findings;             /* BlAddedMassFinding*, failed checks only, in ID order */
} BlAddedMassReport;

/* Runs A1–A6, A9, A10 on the 21 spec-order values.  body (nullable) is the
 * link's mass, COM in L and tensor about the COM in L axes; without it
 * A4–A6 are skipped. */
BlAddedMassReport *bl_added_mass_check        (const double           values[21],
                                               const BlInertial      *body,
                                               BlAddedMassCheckFlags  flags);
/* The same on a full (possibly asymmetric) 6×6, e.g. an import's raw
 * matrix; A2 runs when flags has IMPORTED. */
BlAddedMassReport *bl_added_mass_check_matrix (const BlMat6          *a,
                                               const BlInertial      *body,
                                               BlAddedMassCheckFlags  flags);
void               bl_added_mass_report_free  (BlAddedMassReport     *report);

/* A gz-sim Hydrodynamics added-mass parameter `[xyzkmn]Dot[UVWPQR]` (SNAME:
 * force or moment x y z k m n, acceleration u v w p q r): TRUE with its
 * (row, col) in the 6×6 (order x y z p q r). */
gboolean            bl_added_mass_parse_hydrodynamics_name (const char *name,
                                                            guint      *row,
                                                            guint      *col);

/* A7: a gz-sim Hydrodynamics plugin on the same link.  names/values are its
 * parameters (any; only `[xyzkmn]Dot[UVWPQR]` names count; a term counts when
 * |value| > 1e-6, gz-sim's guard).  Returns an error finding when those terms
 * are active (disable_added_mass FALSE) while the link also has
 * fluid_added_mass, else NULL. */
BlAddedMassFinding *bl_added_mass_check_plugin (const char * const *names,
                                                const double       *values,
                                                gsize               n_terms,
                                                gboolean            disable_added_mass,
                                                gboolean            has_fluid_added_mass);

/* ---- Imports (§5) --------------------------------------------------------- */
/* Each writes the 21 spec-order values (about Lo, L axes, positive) and
 * appends to notes (nullable; see bl_added_mass_findings_new) what it did;
 * asymmetries are "A2" warnings.  Run bl_added_mass_check on the result. */

/* gz-sim Hydrodynamics `<xDotU>`… parameters (§5.1): negate, k/m/n → p/q/r,
 * lower-triangle duplicates averaged.  Other names (damping terms, link_name…)
 * are ignored.  FALSE when no added-mass term was found. */
gboolean bl_added_mass_import_hydrodynamics (const char * const *names,
                                             const double       *values,
                                             gsize               n_terms,
                                             double              out[21],
                                             GPtrArray          *notes);
/* The MBARI LRAUV's own HydrodynamicsPlugin (osrf/lrauv): the six
 * diagonal terms xDotU… with gz-sim's meaning; an absent one is the
 * plugin's default (5, 5, 0.1, 0.1, 0.1, 1), off-diagonal terms are not
 * read by it and are left out.  FALSE when none of the six is given. */
gboolean bl_added_mass_import_lrauv         (const char * const *names,
                                             const double       *values,
                                             gsize               n_terms,
                                             double              out[21],
                                             GPtrArray          *notes);
/* dsros_hydro `<added_mass>` children (§5.4): two letters of x y z r p h
 * (r roll → p, p pitch → q, h yaw → r), given about the COM `com` (in L):
 * shifted to Lo.  FALSE when no term was recognised. */
gboolean bl_added_mass_import_dsros         (const char * const *names,
                                             const double       *values,
                                             gsize               n_terms,
                                             BlVec3              com,
                                             double              out[21],
                                             GPtrArray          *notes);
/* uuv_simulator `<added_mass>` (§5.3): 36 values row-major, effective
 * scaling·(Ma + offset·E6) (defaults 1 and 0), FRD flip F·M·F, symmetrised. */
void     bl_added_mass_import_uuv           (const double        values[36],
                                             double              scaling,
                                             double              offset,
                                             double              out[21],
                                             GPtrArray          *notes);

/* ---- Estimates from geometry (§6) ---------------------------------------- */

typedef enum
{
  BL_ESTIMATE_EXACT,     /* potential-flow closed form */
  BL_ESTIMATE_ESTIMATE,  /* strip theory / engineering tables */
  BL_ESTIMATE_ROUGH,     /* shape substitution (equivalent spheroid/ellipsoid) */
} BlEstimateQuality;

const char *bl_estimate_quality_to_string (BlEstimateQuality quality);

/* One shape's added mass in the shape's own axes about its centroid.  The
 * centroid is given in the shape frame (the cone's is (0, 0, −length/4), the
 * mesh's its volume centroid); volume is the displaced volume. */
typedef struct
{
  BlMat6             matrix;
  BlVec3             centroid;
  double             volume;
  BlEstimateQuality  translation_quality;  /* of the xx, yy, zz terms */
  BlEstimateQuality  rotation_quality;     /* of the pp, qq, rr terms */
  const char        *method;               /* static, one line, names the method */
} BlAddedMassEstimate;

/* Carlson's symmetric elliptic integral R_D(x, y, z) by duplication
 * (x, y ≥ 0 not both 0, z > 0; NAN otherwise). */
double   bl_carlson_rd                      (double x, double y, double z);
/* Lamb's shape integrals α₀, β₀, γ₀ of the ellipsoid with semi-axes a, b, c
 * (all > 0); they sum to 2. */
gboolean bl_ellipsoid_shape_factors         (double a, double b, double c,
                                             double factors[3]);

/* DNV-RP-H103 Table A-2 (a): flat rectangular plate C_A for side ratio b/a ≥ 1,
 * interpolated (m = C_A·ρ·(π/4)·a²·b). */
double   bl_dnv_plate_coefficient           (double b_over_a);
/* DNV-RP-H103 (b): square prism a×a of length b moving along b,
 * m = C_A·ρ·a²·b, for 1 ≤ b/a ≤ 10 (clamped). */
double   bl_dnv_square_prism_coefficient    (double b_over_a);
/* DNV (c): m ≈ factor·m_plate for a body of height h along the motion with
 * projected area A_p; factor from 1 (h → 0) to 1.707 (h → ∞). */
double   bl_dnv_height_factor               (double projected_area,
                                             double height);
/* DNV finite-length factor on the 2-D C_A = 1 of a circular cylinder moving
 * transversely, for L/(2r) (clamped below 1.2). */
double   bl_dnv_cylinder_length_factor      (double length_over_diameter);

/* Each returns FALSE (leaving *out alone) for non-positive sizes or density. */
gboolean bl_added_mass_estimate_sphere      (double radius, double rho,
                                             BlAddedMassEstimate *out);
/* General ellipsoid, semi-axes along x, y, z.  One semi-axis may be 0 (flat
 * limit: elliptic plate; the circular disk exactly). */
gboolean bl_added_mass_estimate_ellipsoid   (double a, double b, double c, double rho,
                                             BlAddedMassEstimate *out);
/* Spheroid with its axis along z: semi-axis `axial` along z, `equatorial`
 * along x and y. */
gboolean bl_added_mass_estimate_spheroid    (double axial, double equatorial, double rho,
                                             BlAddedMassEstimate *out);
/* Thin circular disk, normal z: zz = 8ρa³/3, pp = qq = 16ρa⁵/45. */
gboolean bl_added_mass_estimate_disk        (double radius, double rho,
                                             BlAddedMassEstimate *out);
/* Circular cylinder, axis z (strip theory with DNV's finite-length factor;
 * axial from DNV's height rule with the end disk as plate). */
gboolean bl_added_mass_estimate_cylinder    (double radius, double length, double rho,
                                             BlAddedMassEstimate *out);
/* Capsule (cylinder length `length` plus two hemispheres), axis z: the
 * equal-volume spheroid of the same overall length (rough). */
gboolean bl_added_mass_estimate_capsule     (double radius, double length, double rho,
                                             BlAddedMassEstimate *out);
/* Cone, axis z, SDF frame at its mid-height: the equal-volume spheroid of
 * the same length about its centroid (0, 0, −length/4) (rough). */
gboolean bl_added_mass_estimate_cone        (double radius, double length, double rho,
                                             BlAddedMassEstimate *out);
/* Box of sizes x, y, z: translation per axis by DNV's height rule over the
 * plate table; rotation from the equal-volume ellipsoid (rough). */
gboolean bl_added_mass_estimate_box         (double x, double y, double z, double rho,
                                             BlAddedMassEstimate *out);
/* Any solid (a mesh) from its uniform-density inertial of density 1, so that
 * `mass` is the volume, in the shape frame: the equivalent ellipsoid of its
 * inertia, scaled to the same volume, about the volume centroid (rough). */
gboolean bl_added_mass_estimate_from_volume_inertial (const BlInertial *unit_density,
                                                      double            rho,
                                                      BlAddedMassEstimate *out);

/* The estimate about Lo in L axes, for a collision at X_LK (§6.9: rotate,
 * then shift by the collision position plus its centroid offset).  Sum the
 * collisions' results with bl_mat6_add. */
BlMat6   bl_added_mass_estimate_to_link     (const BlAddedMassEstimate *estimate,
                                             BlPose                     x_lk);

/* The added-mass ellipsoid the viewport draws: with A the symmetric
 * translational block of the 21 VALUES (kg) and A = V diag(μ) Vᵀ, a sphere
 * of radius R in a fluid of density ρ has μ = ½ρ·(4/3)πR³ in every
 * direction, so each axis gets the radius of the sphere with that added
 * mass: rᵢ = (3μᵢ / (2πρ))^⅓ (0 for μᵢ ≤ 0); column i of AXES is its unit
 * axis.  It is the body itself for a sphere in that fluid.  FALSE when no
 * radius is positive, a value is not finite or ρ ≤ 0. */
gboolean bl_added_mass_equivalent_radii     (const double  values[21],
                                             double        fluid_density,
                                             double        radii[3],
                                             double        axes[3][3]);

/* ---- Buoyancy (§7) -------------------------------------------------------- */

typedef struct
{
  double volume;          /* displaced volume, m³ */
  BlVec3 center;          /* centre of buoyancy; the frame's origin when volume is 0 */
  double displaced_mass;  /* ρ_f·V, kg */
  double net_mass;        /* ρ_f·V − m, kg; > 0 rises */
  double net_force;       /* (ρ_f·V − m)·|g|, N; > 0 rises */
  double vertical_offset; /* (r_B − r_COM)·up, m, up = −g/|g|; > 0: buoyancy above COM (stable) */
  double offset;          /* |r_B − r_COM| (BG), m */
} BlBuoyancy;

/* Fully submerged body from its parts' volumes and centroids, the body's
 * mass and COM, all in one frame F; gravity is the gravity vector in F's
 * axes (SDF default (0, 0, −9.8) for an unrotated frame). */
void     bl_buoyancy_compute                (const double *volumes,
                                             const BlVec3 *centroids,
                                             gsize         n_parts,
                                             double        mass,
                                             BlVec3        com,
                                             double        fluid_density,
                                             BlVec3        gravity,
                                             BlBuoyancy   *out);

/* The buoyancy as a user reads it (bl_number_clean): the volume against
 * itself, positions and offsets against the body's length (the cube root
 * of the volume, or the centre's largest coordinate), the net mass and
 * force against the larger of the two masses. */
void     bl_buoyancy_clean_noise            (BlBuoyancy   *buoyancy);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlAddedMassFinding, bl_added_mass_finding_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlAddedMassReport, bl_added_mass_report_free)

G_END_DECLS
