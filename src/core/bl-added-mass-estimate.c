/* bl-added-mass-estimate.c: added mass estimated from geometry (closed forms
 * for ellipsoids, spheroids, disks; DNV tables for cylinders, boxes and
 * plates; an equal-inertia ellipsoid for anything else), equivalent radii,
 * and buoyancy. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass-private.h"
#include "bl-number.h"

/* ---- Estimates ------------------------------------------------------------ */

const char *
bl_estimate_quality_to_string (BlEstimateQuality quality)
{
  switch (quality)
    {
    case BL_ESTIMATE_EXACT:
      return "exact";
    case BL_ESTIMATE_ESTIMATE:
      return "estimate";
    case BL_ESTIMATE_ROUGH:
      return "rough";
    default:
      return "unknown";
    }
}

double
bl_carlson_rd (double x,
               double y,
               double z)
{
  double s = 0.0, f = 1.0, mu = 0.0;

  if (!(x >= 0.0 && y >= 0.0 && z > 0.0 && x + y > 0.0)
      || !isfinite (x) || !isfinite (y) || !isfinite (z))
    return NAN;

  for (int i = 0; i < 200; i++)
    {
      double sx = sqrt (x), sy = sqrt (y), sz = sqrt (z);
      double l = sx * sy + sy * sz + sz * sx;

      s += f / (sz * (z + l));
      f /= 4.0;
      x = (x + l) / 4.0;
      y = (y + l) / 4.0;
      z = (z + l) / 4.0;
      mu = (x + y + 3.0 * z) / 5.0;
      if (MAX (fabs (x - mu), MAX (fabs (y - mu), fabs (z - mu))) < 1e-12 * mu)
        break;
    }
  return 3.0 * s + f * pow (mu, -1.5);
}

gboolean
bl_ellipsoid_shape_factors (double a,
                            double b,
                            double c,
                            double factors[3])
{
  double k;

  g_return_val_if_fail (factors != NULL, FALSE);
  if (!(a > 0.0 && b > 0.0 && c > 0.0) || !isfinite (a * b * c))
    return FALSE;

  k = 2.0 / 3.0 * a * b * c;
  factors[0] = k * bl_carlson_rd (b * b, c * c, a * a);
  factors[1] = k * bl_carlson_rd (c * c, a * a, b * b);
  factors[2] = k * bl_carlson_rd (a * a, b * b, c * c);
  return TRUE;
}

static const char ellipsoid_method[] =
  "ellipsoid: Lamb's shape integrals via Carlson's R_D (potential flow, exact)";
static const char spheroid_method[] =
  "spheroid: Lamb's shape integrals via Carlson's R_D (potential flow, exact)";
static const char disk_method[] =
  "thin circular disk: 8ρa³/3 normal, 16ρa⁵/45 tilting (potential flow, exact)";

static void
estimate_init (BlAddedMassEstimate *e,
               BlEstimateQuality    translation,
               BlEstimateQuality    rotation,
               const char          *method)
{
  e->matrix = bl_mat6_zero ();
  e->centroid = BL_VEC3_ZERO;
  e->volume = 0.0;
  e->translation_quality = translation;
  e->rotation_quality = rotation;
  e->method = method;
}

/* Lamb's rotational term about the axis normal to the (u, v) plane, u² = bu,
 * v² = cv, from the shape factors fu, fv (§6.2). */
static double
ellipsoid_rotational (double rho_v,
                      double u2,
                      double v2,
                      double fu,
                      double fv)
{
  double d = u2 - v2;

  if (fabs (d) <= 1e-12 * (u2 + v2))
    return 0.0;
  return rho_v / 5.0 * d * d * (fv - fu) / (2.0 * d + (u2 + v2) * (fu - fv));
}

/* The §6.2 diagonal of an ellipsoid with all semi-axes > 0. */
static void
ellipsoid_diagonal (const double s[3],
                    double       rho,
                    double       diag[6])
{
  double f[3];
  double rho_v = rho * 4.0 / 3.0 * G_PI * s[0] * s[1] * s[2];

  bl_ellipsoid_shape_factors (s[0], s[1], s[2], f);
  for (int i = 0; i < 3; i++)
    diag[i] = rho_v * f[i] / (2.0 - f[i]);
  /* pp from (b, c), qq from (c, a), rr from (a, b). */
  diag[3] = ellipsoid_rotational (rho_v, s[1] * s[1], s[2] * s[2], f[1], f[2]);
  diag[4] = ellipsoid_rotational (rho_v, s[2] * s[2], s[0] * s[0], f[2], f[0]);
  diag[5] = ellipsoid_rotational (rho_v, s[0] * s[0], s[1] * s[1], f[0], f[1]);
}

static void
set_diagonal (BlMat6       *m,
              const double  diag[6])
{
  for (int i = 0; i < 6; i++)
    m->m[i][i] = diag[i];
}

gboolean
bl_added_mass_estimate_sphere (double               radius,
                               double               rho,
                               BlAddedMassEstimate *out)
{
  double v;

  g_return_val_if_fail (out != NULL, FALSE);
  if (!(radius > 0.0 && rho > 0.0))
    return FALSE;

  v = 4.0 / 3.0 * G_PI * radius * radius * radius;
  estimate_init (out, BL_ESTIMATE_EXACT, BL_ESTIMATE_EXACT,
                 "sphere: ½ρV on each translation, no rotational term (potential flow, exact)");
  out->volume = v;
  for (int i = 0; i < 3; i++)
    out->matrix.m[i][i] = 0.5 * rho * v;
  return TRUE;
}

/* Thin circular disk of radius r with its normal along axis n. */
static void
disk_diagonal (double r,
               double rho,
               int    n,
               double diag[6])
{
  for (int i = 0; i < 6; i++)
    diag[i] = 0.0;
  diag[n] = 8.0 / 3.0 * rho * r * r * r;
  for (int i = 0; i < 3; i++)
    if (i != n)
      diag[3 + i] = 16.0 / 45.0 * rho * pow (r, 5);
}

gboolean
bl_added_mass_estimate_ellipsoid (double               a,
                                  double               b,
                                  double               c,
                                  double               rho,
                                  BlAddedMassEstimate *out)
{
  double s[3] = { a, b, c };
  double diag[6];
  double mx;
  int flat = -1, n_flat = 0;

  g_return_val_if_fail (out != NULL, FALSE);
  if (!(a >= 0.0 && b >= 0.0 && c >= 0.0 && rho > 0.0) || !isfinite (a + b + c + rho))
    return FALSE;

  mx = MAX (a, MAX (b, c));
  for (int i = 0; i < 3; i++)
    if (s[i] <= 1e-7 * mx)
      {
        flat = i;
        n_flat++;
      }
  if (n_flat > 1 || mx == 0.0)
    return FALSE;

  estimate_init (out, BL_ESTIMATE_EXACT, BL_ESTIMATE_EXACT, ellipsoid_method);
  out->volume = 4.0 / 3.0 * G_PI * a * b * c;

  if (flat >= 0)
    {
      double u = s[(flat + 1) % 3], v = s[(flat + 2) % 3];

      if (fabs (u - v) <= 1e-12 * (u + v))
        {
          disk_diagonal (u, rho, flat, diag);
          out->method = disk_method;
        }
      else
        {
          /* Elliptic plate: the c → 0 limit, evaluated at a thickness whose
           * relative effect is ~1e-7. */
          s[flat] = 1e-7 * mx;
          ellipsoid_diagonal (s, rho, diag);
          out->method = "thin elliptic plate: flat limit of Lamb's ellipsoid (potential flow)";
        }
    }
  else
    ellipsoid_diagonal (s, rho, diag);

  set_diagonal (&out->matrix, diag);
  return TRUE;
}

gboolean
bl_added_mass_estimate_spheroid (double               axial,
                                 double               equatorial,
                                 double               rho,
                                 BlAddedMassEstimate *out)
{
  if (!bl_added_mass_estimate_ellipsoid (equatorial, equatorial, axial, rho, out))
    return FALSE;
  if (out->method == ellipsoid_method)
    out->method = spheroid_method;
  return TRUE;
}

gboolean
bl_added_mass_estimate_disk (double               radius,
                             double               rho,
                             BlAddedMassEstimate *out)
{
  double diag[6];

  g_return_val_if_fail (out != NULL, FALSE);
  if (!(radius > 0.0 && rho > 0.0))
    return FALSE;

  estimate_init (out, BL_ESTIMATE_EXACT, BL_ESTIMATE_EXACT, disk_method);
  disk_diagonal (radius, rho, 2, diag);
  set_diagonal (&out->matrix, diag);
  return TRUE;
}

/* Piecewise-linear interpolation in a table of increasing x, clamped. */
static double
interpolate (const double *x,
             const double *y,
             int           n,
             double        at)
{
  if (at <= x[0])
    return y[0];
  for (int i = 1; i < n; i++)
    if (at <= x[i])
      return y[i - 1] + (y[i] - y[i - 1]) * (at - x[i - 1]) / (x[i] - x[i - 1]);
  return y[n - 1];
}

double
bl_dnv_plate_coefficient (double b_over_a)
{
  static const double ratio[] = { 1.0, 1.25, 1.5, 1.59, 2.0, 2.5, 3.0, 3.17,
                                  4.0, 5.0, 6.25, 8.0, 10.0 };
  static const double ca[] = { 0.579, 0.642, 0.690, 0.704, 0.757, 0.801, 0.830, 0.840,
                               0.872, 0.897, 0.917, 0.934, 0.947 };
  const int n = G_N_ELEMENTS (ratio);

  if (!(b_over_a > 0.0))
    return NAN;
  if (b_over_a < 1.0)
    b_over_a = 1.0 / b_over_a;
  if (b_over_a <= 10.0)
    return interpolate (ratio, ca, n, b_over_a);
  /* From b/a = 10 to ∞ (C_A 1.0), linear in a/b. */
  return 1.0 + (ca[n - 1] - 1.0) * (10.0 / b_over_a);
}

double
bl_dnv_square_prism_coefficient (double b_over_a)
{
  static const double ratio[] = { 1, 2, 3, 4, 5, 6, 7, 10 };
  static const double ca[] = { 0.68, 0.36, 0.24, 0.19, 0.15, 0.13, 0.11, 0.08 };

  return interpolate (ratio, ca, G_N_ELEMENTS (ratio), b_over_a);
}

double
bl_dnv_height_factor (double projected_area,
                      double height)
{
  double sa, lambda;

  if (!(projected_area > 0.0) || !(height >= 0.0))
    return 1.0;
  sa = sqrt (projected_area);
  lambda = sa / (height + sa);
  return 1.0 + sqrt ((1.0 - lambda * lambda) / (2.0 * (1.0 + lambda * lambda)));
}

double
bl_dnv_cylinder_length_factor (double length_over_diameter)
{
  /* Tabulated against D/L = 1/(L/2r), where ∞ is 0. */
  static const double d_over_l[] = { 0.0, 1.0 / 9.0, 1.0 / 5.0, 1.0 / 2.5, 1.0 / 1.2 };
  static const double factor[] = { 1.00, 0.96, 0.90, 0.78, 0.62 };

  if (!(length_over_diameter > 0.0))
    return factor[4];
  return interpolate (d_over_l, factor, G_N_ELEMENTS (factor), 1.0 / length_over_diameter);
}

gboolean
bl_added_mass_estimate_cylinder (double               radius,
                                 double               length,
                                 double               rho,
                                 BlAddedMassEstimate *out)
{
  double area, transverse, tilt, plate;

  g_return_val_if_fail (out != NULL, FALSE);
  if (!(radius > 0.0 && length > 0.0 && rho > 0.0))
    return FALSE;

  estimate_init (out, BL_ESTIMATE_ESTIMATE, BL_ESTIMATE_ESTIMATE,
                 "cylinder: strip theory (2-D C_A = 1 × DNV-RP-H103 finite-length factor; "
                 "pitch/yaw ρπr²L³/12), axial from DNV's height rule over the end disk");
  area = G_PI * radius * radius;
  out->volume = area * length;
  transverse = bl_dnv_cylinder_length_factor (length / (2.0 * radius)) * rho * area * length;
  tilt = rho * area * length * length * length / 12.0;
  plate = 8.0 / 3.0 * rho * radius * radius * radius;

  out->matrix.m[0][0] = out->matrix.m[1][1] = transverse;
  out->matrix.m[2][2] = bl_dnv_height_factor (area, length) * plate;
  out->matrix.m[3][3] = out->matrix.m[4][4] = tilt;
  return TRUE;
}

/* A spheroid along z of half-length `half_length` with the given volume. */
static void
equal_volume_spheroid (double               volume,
                       double               half_length,
                       double               rho,
                       BlAddedMassEstimate *out)
{
  double equatorial = sqrt (3.0 * volume / (4.0 * G_PI * half_length));
  double s[3] = { equatorial, equatorial, half_length };
  double diag[6];

  ellipsoid_diagonal (s, rho, diag);
  set_diagonal (&out->matrix, diag);
}

gboolean
bl_added_mass_estimate_capsule (double               radius,
                                double               length,
                                double               rho,
                                BlAddedMassEstimate *out)
{
  g_return_val_if_fail (out != NULL, FALSE);
  if (!(radius > 0.0 && length >= 0.0 && rho > 0.0))
    return FALSE;

  estimate_init (out, BL_ESTIMATE_ROUGH, BL_ESTIMATE_ROUGH,
                 "capsule: equal-volume spheroid of the same overall length (rough)");
  out->volume = G_PI * radius * radius * (length + 4.0 / 3.0 * radius);
  equal_volume_spheroid (out->volume, 0.5 * length + radius, rho, out);
  return TRUE;
}

gboolean
bl_added_mass_estimate_cone (double               radius,
                             double               length,
                             double               rho,
                             BlAddedMassEstimate *out)
{
  g_return_val_if_fail (out != NULL, FALSE);
  if (!(radius > 0.0 && length > 0.0 && rho > 0.0))
    return FALSE;

  estimate_init (out, BL_ESTIMATE_ROUGH, BL_ESTIMATE_ROUGH,
                 "cone: equal-volume spheroid of the same length about the centroid (rough)");
  out->volume = G_PI * radius * radius * length / 3.0;
  out->centroid = bl_vec3 (0.0, 0.0, -0.25 * length);
  equal_volume_spheroid (out->volume, 0.5 * length, rho, out);
  return TRUE;
}

gboolean
bl_added_mass_estimate_box (double               x,
                            double               y,
                            double               z,
                            double               rho,
                            BlAddedMassEstimate *out)
{
  const double size[3] = { x, y, z };
  const double k = cbrt (6.0 / G_PI);
  double semi[3], diag[6];

  g_return_val_if_fail (out != NULL, FALSE);
  if (!(x > 0.0 && y > 0.0 && z > 0.0 && rho > 0.0))
    return FALSE;

  estimate_init (out, BL_ESTIMATE_ESTIMATE, BL_ESTIMATE_ROUGH,
                 "box: translation by DNV-RP-H103 (plate table × height rule), rotation from "
                 "the equal-volume ellipsoid (rough)");
  out->volume = x * y * z;

  for (int i = 0; i < 3; i++)
    semi[i] = 0.5 * size[i] * k;
  ellipsoid_diagonal (semi, rho, diag);

  for (int i = 0; i < 3; i++)
    {
      double s1 = size[(i + 1) % 3], s2 = size[(i + 2) % 3];
      double a = MIN (s1, s2), b = MAX (s1, s2);
      double plate = bl_dnv_plate_coefficient (b / a) * rho * G_PI / 4.0 * a * a * b;

      diag[i] = bl_dnv_height_factor (a * b, size[i]) * plate;
    }
  set_diagonal (&out->matrix, diag);
  return TRUE;
}

gboolean
bl_added_mass_estimate_from_volume_inertial (const BlInertial    *unit_density,
                                             double               rho,
                                             BlAddedMassEstimate *out)
{
  double w[6][6] = { { 0 } }, v[6][6], moments[6];
  double semi[3], diag[6], scale;
  double volume;
  BlMat6 principal = bl_mat6_zero ();
  BlMat3 axes;

  g_return_val_if_fail (unit_density != NULL && out != NULL, FALSE);
  volume = unit_density->mass;
  if (!(volume > 0.0 && rho > 0.0))
    return FALSE;

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      w[i][j] = unit_density->inertia.m[i][j];
  bl_mat6_sym_jacobi (3, w, moments, v);

  /* A solid ellipsoid has I₁ = m(b² + c²)/5, … */
  for (int i = 0; i < 3; i++)
    {
      double s2 = 5.0 / (2.0 * volume)
                  * (moments[(i + 1) % 3] + moments[(i + 2) % 3] - moments[i]);

      if (!(s2 > 0.0))
        return FALSE;
      semi[i] = sqrt (s2);
    }
  /* …then scaled to the solid's own volume. */
  scale = cbrt (3.0 * volume / (4.0 * G_PI * semi[0] * semi[1] * semi[2]));
  for (int i = 0; i < 3; i++)
    semi[i] *= scale;

  estimate_init (out, BL_ESTIMATE_ROUGH, BL_ESTIMATE_ROUGH,
                 "solid: ellipsoid with the same principal axes, inertia proportions and "
                 "volume (rough)");
  out->volume = volume;
  out->centroid = unit_density->com;
  ellipsoid_diagonal (semi, rho, diag);
  set_diagonal (&principal, diag);

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      axes.m[i][j] = v[i][j];
  out->matrix = bl_mat6_rotate (&principal, &axes);
  return TRUE;
}

BlMat6
bl_added_mass_estimate_to_link (const BlAddedMassEstimate *estimate,
                                BlPose                     x_lk)
{
  g_return_val_if_fail (estimate != NULL, bl_mat6_zero ());

  return bl_mat6_transform (&estimate->matrix, x_lk, estimate->centroid);
}

gboolean
bl_added_mass_equivalent_radii (const double values[21],
                                double       fluid_density,
                                double       radii[3],
                                double       axes[3][3])
{
  BlMat3 block = bl_mat3_zero (), vectors;
  double mu[3];
  gboolean any = FALSE;

  g_return_val_if_fail (values != NULL, FALSE);

  for (guint key = 0; key < 21; key++)
    {
      guint row, col;

      bl_added_mass_index (key, &row, &col);
      if (row < 3 && col < 3)
        {
          block.m[row][col] = values[key];
          block.m[col][row] = values[key];
        }
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (!isfinite (block.m[i][j]))
        return FALSE;
  if (!(fluid_density > 0.0))
    return FALSE;

  bl_mat3_sym_eigen (&block, mu, &vectors);
  for (int i = 0; i < 3; i++)
    {
      radii[i] = mu[i] > 0.0 ? cbrt (3.0 * mu[i] / (2.0 * G_PI * fluid_density)) : 0.0;
      any = any || radii[i] > 0.0;
      for (int r = 0; r < 3; r++)
        axes[r][i] = vectors.m[r][i];
    }
  return any;
}

/* ---- Buoyancy ------------------------------------------------------------- */

void
bl_buoyancy_compute (const double *volumes,
                     const BlVec3 *centroids,
                     gsize         n_parts,
                     double        mass,
                     BlVec3        com,
                     double        fluid_density,
                     BlVec3        gravity,
                     BlBuoyancy   *out)
{
  double v = 0.0, g;
  BlVec3 moment = BL_VEC3_ZERO, d;

  g_return_if_fail (out != NULL);
  g_return_if_fail (n_parts == 0 || (volumes != NULL && centroids != NULL));

  for (gsize i = 0; i < n_parts; i++)
    {
      v += volumes[i];
      moment.x += volumes[i] * centroids[i].x;
      moment.y += volumes[i] * centroids[i].y;
      moment.z += volumes[i] * centroids[i].z;
    }

  memset (out, 0, sizeof *out);
  out->volume = v;
  if (v > 0.0)
    out->center = bl_vec3 (moment.x / v, moment.y / v, moment.z / v);
  out->displaced_mass = fluid_density * v;
  out->net_mass = out->displaced_mass - mass;
  g = sqrt (gravity.x * gravity.x + gravity.y * gravity.y + gravity.z * gravity.z);
  out->net_force = out->net_mass * g;

  d = bl_vec3 (out->center.x - com.x, out->center.y - com.y, out->center.z - com.z);
  out->offset = sqrt (d.x * d.x + d.y * d.y + d.z * d.z);
  if (g > 0.0)
    out->vertical_offset = -(d.x * gravity.x + d.y * gravity.y + d.z * gravity.z) / g;
}

void
bl_buoyancy_clean_noise (BlBuoyancy *b)
{
  double center[3];
  double length, mass_scale, net_mass;

  g_return_if_fail (b != NULL);

  center[0] = b->center.x;
  center[1] = b->center.y;
  center[2] = b->center.z;
  length = b->volume > 0.0 ? cbrt (b->volume) : 0.0;
  bl_number_clean_noise (center, 3, length);
  length = MAX (length, MAX (fabs (b->center.x), MAX (fabs (b->center.y), fabs (b->center.z))));
  b->center = bl_vec3 (center[0], center[1], center[2]);
  b->volume = bl_number_clean (b->volume, 0.0);
  b->offset = bl_number_clean (b->offset, length);
  b->vertical_offset = bl_number_clean (b->vertical_offset, length);

  /* m = ρV − net: the two masses whose difference the net is. */
  mass_scale = MAX (fabs (b->displaced_mass), fabs (b->displaced_mass - b->net_mass));
  net_mass = bl_number_clean (b->net_mass, mass_scale);
  if (net_mass == 0.0)
    b->net_force = 0.0;
  else if (b->net_mass != 0.0)
    b->net_force = bl_number_clean (b->net_force, fabs (b->net_force / b->net_mass) * mass_scale);
  b->net_mass = net_mass;
  b->displaced_mass = bl_number_clean (b->displaced_mass, 0.0);
}
