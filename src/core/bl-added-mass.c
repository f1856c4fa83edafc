/* bl-added-mass.c: the 6×6 added-mass algebra: index keys, products,
 * symmetrisation, eigen decomposition, frame changes and rigid-body inertia.
 * Checks and imports are in bl-added-mass-check.c, estimates from geometry
 * and buoyancy in bl-added-mass-estimate.c. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass-private.h"

const char * const bl_added_mass_keys[21] = {
  "xx", "xy", "xz", "xp", "xq", "xr",
  "yy", "yz", "yp", "yq", "yr",
  "zz", "zp", "zq", "zr",
  "pp", "pq", "pr",
  "qq", "qr",
  "rr",
};

void
bl_added_mass_index (guint  key,
                     guint *row,
                     guint *col)
{
  guint r = 0;
  guint k = key;

  g_return_if_fail (key < 21);

  /* Row r holds 6 − r keys. */
  while (k >= 6 - r)
    {
      k -= 6 - r;
      r++;
    }
  if (row)
    *row = r;
  if (col)
    *col = r + k;
}

int
bl_added_mass_key_lookup (const char *key)
{
  /* every key is two axes, the row's first: their places in "xyzpqr",
   * counted from 1 (0 for any other byte) */
  static const guint8 axis[256] = { ['x'] = 1, ['y'] = 2, ['z'] = 3, ['p'] = 4, ['q'] = 5, ['r'] = 6 };
  int row, col;

  if (key == NULL || key[0] == '\0' || key[1] == '\0' || key[2] != '\0')
    return -1;
  row = axis[(guchar) key[0]] - 1;
  col = axis[(guchar) key[1]] - 1;
  if (row < 0 || col < row)
    return -1;
  /* the rows before hold 6, 5, … keys: row · (13 − row) / 2 of them */
  return row * (13 - row) / 2 + (col - row);
}

/* ---- 6×6 algebra ---------------------------------------------------------- */

BlMat6
bl_mat6_zero (void)
{
  BlMat6 z;

  memset (&z, 0, sizeof z);
  return z;
}

BlMat6
bl_mat6_identity (void)
{
  BlMat6 e = bl_mat6_zero ();

  for (int i = 0; i < 6; i++)
    e.m[i][i] = 1.0;
  return e;
}

BlMat6
bl_mat6_from_values (const double values[21])
{
  BlMat6 m;

  for (guint k = 0; k < 21; k++)
    {
      guint r, c;

      bl_added_mass_index (k, &r, &c);
      m.m[r][c] = values[k];
      m.m[c][r] = values[k];
    }
  return m;
}

void
bl_mat6_to_values (const BlMat6 *m,
                   double        values[21])
{
  g_return_if_fail (m != NULL);

  for (guint k = 0; k < 21; k++)
    {
      guint r, c;

      bl_added_mass_index (k, &r, &c);
      values[k] = r == c ? m->m[r][r] : 0.5 * (m->m[r][c] + m->m[c][r]);
    }
}

BlMat6
bl_mat6_add (const BlMat6 *a,
             const BlMat6 *b)
{
  BlMat6 s;

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      s.m[i][j] = a->m[i][j] + b->m[i][j];
  return s;
}

BlMat6
bl_mat6_scale (const BlMat6 *a,
               double        s)
{
  BlMat6 r;

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      r.m[i][j] = a->m[i][j] * s;
  return r;
}

BlMat6
bl_mat6_mul (const BlMat6 *a,
             const BlMat6 *b)
{
  BlMat6 p;

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      {
        double s = 0.0;

        for (int k = 0; k < 6; k++)
          s += a->m[i][k] * b->m[k][j];
        p.m[i][j] = s;
      }
  return p;
}

BlMat6
bl_mat6_transpose (const BlMat6 *a)
{
  BlMat6 t;

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      t.m[i][j] = a->m[j][i];
  return t;
}

double
bl_mat6_max_abs (const BlMat6 *a)
{
  double mx = 0.0;

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      mx = MAX (mx, fabs (a->m[i][j]));
  return mx;
}

BlMat6
bl_mat6_symmetrize (const BlMat6 *a,
                    double       *max_asymmetry,
                    guint        *row,
                    guint        *col)
{
  BlMat6 s;
  double worst = 0.0;
  guint wr = 0, wc = 1;

  for (guint i = 0; i < 6; i++)
    {
      s.m[i][i] = a->m[i][i];
      for (guint j = i + 1; j < 6; j++)
        {
          double d = fabs (a->m[i][j] - a->m[j][i]);

          if (d > worst)
            {
              worst = d;
              wr = i;
              wc = j;
            }
          s.m[i][j] = s.m[j][i] = 0.5 * (a->m[i][j] + a->m[j][i]);
        }
    }
  if (max_asymmetry)
    *max_asymmetry = worst;
  if (row)
    *row = wr;
  if (col)
    *col = wc;
  return s;
}

/* Cyclic Jacobi on the n×n (n ≤ 6) symmetric upper-left block of a, which it
 * destroys.  Ascending values; v's columns are the eigenvectors. */
void
bl_mat6_sym_jacobi (int     n,
                    double  a[6][6],
                    double  values[6],
                    double  v[6][6])
{
  if (v != NULL)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        v[i][j] = i == j ? 1.0 : 0.0;

  for (int sweep = 0; sweep < 100; sweep++)
    {
      double off = 0.0, diag = 0.0;

      for (int p = 0; p < n; p++)
        {
          diag += a[p][p] * a[p][p];
          for (int q = p + 1; q < n; q++)
            off += a[p][q] * a[p][q];
        }
      if (off == 0.0 || off <= 1e-32 * diag)
        break;

      for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n; q++)
          {
            double theta, t, c, s;

            if (a[p][q] == 0.0)
              continue;
            theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs (theta) + sqrt (theta * theta + 1.0));
            if (!isfinite (t))
              t = 0.0;  /* |theta| overflowed: a[p][q] is negligible */
            c = 1.0 / sqrt (t * t + 1.0);
            s = t * c;

            /* A ← Pᵀ A P with P_pp = P_qq = c, P_pq = s, P_qp = −s. */
            for (int k = 0; k < n; k++)
              {
                double akp = a[k][p], akq = a[k][q];

                a[k][p] = c * akp - s * akq;
                a[k][q] = s * akp + c * akq;
              }
            for (int k = 0; k < n; k++)
              {
                double apk = a[p][k], aqk = a[q][k];

                a[p][k] = c * apk - s * aqk;
                a[q][k] = s * apk + c * aqk;
              }
            a[p][q] = a[q][p] = 0.0;
            for (int k = 0; k < n && v != NULL; k++)
              {
                double vkp = v[k][p], vkq = v[k][q];

                v[k][p] = c * vkp - s * vkq;
                v[k][q] = s * vkp + c * vkq;
              }
          }
    }

  for (int i = 0; i < n; i++)
    values[i] = a[i][i];

  /* Insertion sort, ascending, carrying the columns along. */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && values[j] < values[j - 1]; j--)
      {
        double tmp = values[j];

        values[j] = values[j - 1];
        values[j - 1] = tmp;
        for (int k = 0; k < n && v != NULL; k++)
          {
            tmp = v[k][j];
            v[k][j] = v[k][j - 1];
            v[k][j - 1] = tmp;
          }
      }
}

void
bl_mat6_sym_eigen (const BlMat6 *a,
                   double        values[6],
                   BlMat6       *vectors)
{
  double w[6][6];

  g_return_if_fail (a != NULL);

  for (int i = 0; i < 6; i++)
    for (int j = i; j < 6; j++)
      w[i][j] = w[j][i] = a->m[i][j];
  /* the rotations of the vectors do not touch A: the same values */
  bl_mat6_sym_jacobi (6, w, values, vectors != NULL ? vectors->m : NULL);
}

gboolean
bl_mat6_is_positive_definite (const BlMat6 *a,
                              int          *failed_pivot)
{
  double l[6][6] = { { 0 } };
  double trace = 0.0, tol;

  g_return_val_if_fail (a != NULL, FALSE);

  if (failed_pivot)
    *failed_pivot = -1;
  for (int i = 0; i < 6; i++)
    trace += a->m[i][i];
  if (!(trace > 0.0))
    {
      if (failed_pivot)
        *failed_pivot = 0;
      return FALSE;
    }
  tol = 1e-12 * trace;

  for (int j = 0; j < 6; j++)
    {
      double d = a->m[j][j];

      for (int k = 0; k < j; k++)
        d -= l[j][k] * l[j][k];
      if (!(d > tol))
        {
          if (failed_pivot)
            *failed_pivot = j;
          return FALSE;
        }
      l[j][j] = sqrt (d);
      for (int i = j + 1; i < 6; i++)
        {
          double s = a->m[i][j];

          for (int k = 0; k < j; k++)
            s -= l[i][k] * l[j][k];
          l[i][j] = s / l[j][j];
        }
    }
  return TRUE;
}

/* ---- Frames --------------------------------------------------------------- */

BlMat6
bl_mat6_rotate (const BlMat6 *m,
                const BlMat3 *r)
{
  BlMat6 q = bl_mat6_zero ();
  BlMat6 qm, qt;

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      q.m[i][j] = q.m[i + 3][j + 3] = r->m[i][j];
  qm = bl_mat6_mul (&q, m);
  qt = bl_mat6_transpose (&q);
  return bl_mat6_mul (&qm, &qt);
}

/* Whether all 36 entries are finite: x − x is NaN for an Inf or a NaN,
 * 0 otherwise, summed in four independent lanes. */
static inline gboolean
mat6_finite (const BlMat6 *m)
{
  const double *x = &m->m[0][0];
  double lane[4] = { 0.0, 0.0, 0.0, 0.0 };

  for (int i = 0; i < 36; i += 4)
    for (int l = 0; l < 4; l++)
      lane[l] += x[i + l] - x[i + l];
  return !isnan (lane[0] + lane[1] + lane[2] + lane[3]);
}

/* H(r)ᵀ·M·H(r) by bl_mat6_mul's sums, each with only the products of
 * entries of H that are not 0 by its form, in the same order: H = (E3,
 * S(r)ᵀ; 0, E3), S(r)ᵀ = −S(r).  A product with such a 0 is ±0 when the
 * other factor is finite, and a sum that starts at +0 is never −0 in
 * round-to-nearest, so adding ±0 leaves it as it is: the same doubles,
 * the sign of a zero included, while M, r and Hᵀ·M are finite (checked
 * here: FALSE otherwise, where an Inf or NaN times 0 is a NaN that only
 * the full products give). */
static gboolean
mat6_shift_sparse (const BlMat6 *m,
                   BlVec3        r,
                   BlMat6       *out)
{
  /* Hᵀ's lower-left block S(r), row by row; its diagonal is 0 */
  const double s[3][3] = {
    { 0.0, -r.z, r.y },
    { r.z, 0.0, -r.x },
    { -r.y, r.x, 0.0 },
  };
  BlMat6 htm;

  if (!(isfinite (r.x) && isfinite (r.y) && isfinite (r.z)) || !mat6_finite (m))
    return FALSE;

  /* Hᵀ·M: rows 0–2 are M's; row 3 + a is S(r)'s row a times M's rows
   * 0–2 (but for its 0 at a), then M's row 3 + a */
  for (int j = 0; j < 6; j++)
    {
      htm.m[0][j] = 0.0 + m->m[0][j];
      htm.m[1][j] = 0.0 + m->m[1][j];
      htm.m[2][j] = 0.0 + m->m[2][j];
      htm.m[3][j] = ((0.0 + s[0][1] * m->m[1][j]) + s[0][2] * m->m[2][j]) + m->m[3][j];
      htm.m[4][j] = ((0.0 + s[1][0] * m->m[0][j]) + s[1][2] * m->m[2][j]) + m->m[4][j];
      htm.m[5][j] = ((0.0 + s[2][0] * m->m[0][j]) + s[2][1] * m->m[1][j]) + m->m[5][j];
    }
  if (!mat6_finite (&htm))
    return FALSE;

  /* (Hᵀ·M)·H: columns 0–2 are Hᵀ·M's; column 3 + b is Hᵀ·M's columns 0–2
   * times S(r)ᵀ's column b (S(r)'s row b, but for its 0 at b), then Hᵀ·M's
   * column 3 + b */
  for (int i = 0; i < 6; i++)
    {
      const double *row = htm.m[i];

      out->m[i][0] = 0.0 + row[0];
      out->m[i][1] = 0.0 + row[1];
      out->m[i][2] = 0.0 + row[2];
      out->m[i][3] = ((0.0 + row[1] * s[0][1]) + row[2] * s[0][2]) + row[3];
      out->m[i][4] = ((0.0 + row[0] * s[1][0]) + row[2] * s[1][2]) + row[4];
      out->m[i][5] = ((0.0 + row[0] * s[2][0]) + row[1] * s[2][1]) + row[5];
    }
  return TRUE;
}

BlMat6
bl_mat6_shift (const BlMat6 *m,
               BlVec3        r)
{
  BlMat6 h, ht, htm, out;

  if (mat6_shift_sparse (m, r, &out))
    return out;

  h = bl_mat6_identity ();

  /* Upper-right block S(r)ᵀ = −S(r). */
  h.m[0][4] = r.z;
  h.m[0][5] = -r.y;
  h.m[1][3] = -r.z;
  h.m[1][5] = r.x;
  h.m[2][3] = r.y;
  h.m[2][4] = -r.x;

  ht = bl_mat6_transpose (&h);
  htm = bl_mat6_mul (&ht, m);
  return bl_mat6_mul (&htm, &h);
}

BlMat6
bl_mat6_transform (const BlMat6 *m,
                   BlPose        x_lk,
                   BlVec3        point_k)
{
  BlMat3 r = bl_mat3_from_quat (x_lk.q);
  BlVec3 rp = bl_mat3_mul_vec3 (&r, point_k);
  BlVec3 p = { x_lk.p.x + rp.x, x_lk.p.y + rp.y, x_lk.p.z + rp.z };
  BlMat6 rotated = bl_mat6_rotate (m, &r);

  return bl_mat6_shift (&rotated, p);
}

BlMat6
bl_mat6_flip_frd (const BlMat6 *m)
{
  static const double f[6] = { 1, -1, -1, 1, -1, -1 };
  BlMat6 out;

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      out.m[i][j] = f[i] * f[j] * m->m[i][j];
  return out;
}

/* ---- Rigid body ----------------------------------------------------------- */

BlMat6
bl_spatial_inertia (double        mass,
                    BlVec3        com,
                    const BlMat3 *inertia)
{
  BlMat6 d = bl_mat6_zero ();

  g_return_val_if_fail (inertia != NULL, d);

  /* diag(m·E3, J) about the COM, shifted to Lo (§3.1). */
  for (int i = 0; i < 3; i++)
    {
      d.m[i][i] = mass;
      for (int j = 0; j < 3; j++)
        d.m[i + 3][j + 3] = inertia->m[i][j];
    }
  return bl_mat6_shift (&d, com);
}

BlMat6
bl_spatial_inertia_from_inertial (const BlInertial *body)
{
  g_return_val_if_fail (body != NULL, bl_mat6_zero ());

  return bl_spatial_inertia (body->mass, body->com, &body->inertia);
}
