/* bl-added-mass.c: the 6×6 added-mass algebra, checks, imports, estimates and buoyancy. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-number.h"

#define AXES "xyzpqr"

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
  if (key == NULL)
    return -1;
  for (int k = 0; k < 21; k++)
    if (strcmp (key, bl_added_mass_keys[k]) == 0)
      return k;
  return -1;
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
static void
sym_jacobi (int     n,
            double  a[6][6],
            double  values[6],
            double  v[6][6])
{
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
            for (int k = 0; k < n; k++)
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
        for (int k = 0; k < n; k++)
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
  double w[6][6], v[6][6];

  g_return_if_fail (a != NULL);

  for (int i = 0; i < 6; i++)
    for (int j = i; j < 6; j++)
      w[i][j] = w[j][i] = a->m[i][j];
  sym_jacobi (6, w, values, v);
  if (vectors)
    memcpy (vectors->m, v, sizeof v);
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

BlMat6
bl_mat6_shift (const BlMat6 *m,
               BlVec3        r)
{
  BlMat6 h = bl_mat6_identity ();
  BlMat6 ht, htm;

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

/* ---- Findings ------------------------------------------------------------- */

BlAddedMassFinding *
bl_added_mass_finding_new (const char *id,
                           BlSeverity  severity,
                           const char *format,
                           ...)
{
  BlAddedMassFinding *f = g_new0 (BlAddedMassFinding, 1);
  va_list args;

  f->id = id;
  f->severity = severity;
  va_start (args, format);
  f->message = g_strdup_vprintf (format, args);
  va_end (args);
  return f;
}

void
bl_added_mass_finding_free (BlAddedMassFinding *finding)
{
  if (finding == NULL)
    return;
  g_free (finding->message);
  g_free (finding);
}

GPtrArray *
bl_added_mass_findings_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) bl_added_mass_finding_free);
}

static void
add_finding (GPtrArray  *notes,
             const char *id,
             BlSeverity  severity,
             char       *message)  /* (transfer full) */
{
  BlAddedMassFinding *f;

  if (notes == NULL)
    {
      g_free (message);
      return;
    }
  f = g_new0 (BlAddedMassFinding, 1);
  f->id = id;
  f->severity = severity;
  f->message = message;
  g_ptr_array_add (notes, f);
}

/* ---- Checks --------------------------------------------------------------- */

static void
key_name (guint  row,
          guint  col,
          char   name[3])
{
  name[0] = AXES[MIN (row, col)];
  name[1] = AXES[MAX (row, col)];
  name[2] = '\0';
}

/* "0.707·x − 0.707·y": the components of a unit eigenvector that matter,
 * signed so that the largest one is positive. */
static char *
describe_direction (const BlMat6 *vectors,
                    int           column)
{
  GString *s = g_string_new (NULL);
  int largest = 0;
  double sign;

  for (int i = 1; i < 6; i++)
    if (fabs (vectors->m[i][column]) > fabs (vectors->m[largest][column]))
      largest = i;
  sign = vectors->m[largest][column] < 0.0 ? -1.0 : 1.0;

  for (int i = 0; i < 6; i++)
    {
      double c = sign * vectors->m[i][column];

      if (fabs (c) < 0.1)
        continue;
      if (s->len == 0)
        g_string_append_printf (s, "%s%.3g·%c", c < 0 ? "−" : "", fabs (c), AXES[i]);
      else
        g_string_append_printf (s, " %s %.3g·%c", c < 0 ? "−" : "+", fabs (c), AXES[i]);
    }
  return g_string_free (s, FALSE);
}

static void
fill_nan (double v[6])
{
  for (int i = 0; i < 6; i++)
    v[i] = NAN;
}

BlAddedMassReport *
bl_added_mass_check_matrix (const BlMat6          *a,
                            const BlInertial      *body,
                            BlAddedMassCheckFlags  flags)
{
  BlAddedMassReport *rep;
  GPtrArray *out;
  GString *bad;
  double asym;
  guint ar, ac;
  BlMat6 vectors;

  g_return_val_if_fail (a != NULL, NULL);

  rep = g_new0 (BlAddedMassReport, 1);
  rep->findings = out = bl_added_mass_findings_new ();
  rep->has_body = body != NULL;
  rep->max_ratio_index = -1;
  fill_nan (rep->eigenvalues);
  fill_nan (rep->total_eigenvalues);
  fill_nan (rep->ratios);

  /* A1 */
  bad = g_string_new (NULL);
  for (guint i = 0; i < 6; i++)
    for (guint j = i; j < 6; j++)
      {
        char name[3];
        double x = isfinite (a->m[i][j]) ? a->m[j][i] : a->m[i][j];

        if (isfinite (x))
          continue;
        key_name (i, j, name);
        g_string_append_printf (bad, "%s%s = %g", bad->len ? ", " : "", name, x);
      }
  rep->finite = bad->len == 0;
  if (!rep->finite)
    add_finding (out, "A1", BL_SEVERITY_ERROR,
                 g_strdup_printf ("fluid_added_mass has non-finite values (%s); "
                                  "DART's dynamics cannot use them", bad->str));
  g_string_free (bad, TRUE);

  /* A2 */
  rep->added_mass = bl_mat6_symmetrize (a, &asym, &ar, &ac);
  if ((flags & BL_ADDED_MASS_CHECK_IMPORTED) && rep->finite
      && asym > 1e-9 * bl_mat6_max_abs (a))
    {
      char name[3], mirrored[3];

      key_name (ar, ac, name);
      mirrored[0] = name[1];
      mirrored[1] = name[0];
      mirrored[2] = '\0';
      add_finding (out, "A2", BL_SEVERITY_WARNING,
                   g_strdup_printf ("the imported matrix is not symmetric: largest difference "
                                    "%s = %.6g vs %s = %.6g (|Δ| = %.3g); replaced by ½(A + Aᵀ), "
                                    "%s = %.6g",
                                    name, a->m[ar][ac], mirrored, a->m[ac][ar], asym,
                                    name, rep->added_mass.m[ar][ac]));
    }

  if (rep->finite)
    {
      double lmax, tol;
      int neg = 0;

      /* A3 */
      bl_mat6_sym_eigen (&rep->added_mass, rep->eigenvalues, &vectors);
      lmax = rep->eigenvalues[5];
      tol = -1e-9 * MAX (lmax, 1.0);
      for (int i = 0; i < 6; i++)
        if (rep->eigenvalues[i] < tol)
          neg++;
      rep->semidefinite = neg == 0;
      if (neg > 0)
        {
          g_autofree char *dir = describe_direction (&vectors, 0);

          add_finding (out, "A3", BL_SEVERITY_WARNING,
                       g_strdup_printf ("fluid_added_mass is not positive semi-definite: "
                                        "%d negative eigenvalue%s, the smallest λ = %.6g along "
                                        "%s (largest λ = %.6g); added mass of an ideal fluid "
                                        "is never negative",
                                        neg, neg == 1 ? "" : "s", rep->eigenvalues[0],
                                        dir, lmax));
        }
    }

  if (body != NULL)
    {
      rep->spatial_inertia = bl_spatial_inertia_from_inertial (body);

      if (rep->finite)
        {
          BlMat6 total = bl_mat6_add (&rep->spatial_inertia, &rep->added_mass);
          BlMat6 tvec;
          int pivot;

          /* A4 */
          bl_mat6_sym_eigen (&total, rep->total_eigenvalues, &tvec);
          rep->total_positive_definite = bl_mat6_is_positive_definite (&total, &pivot);
          if (!rep->total_positive_definite)
            {
              g_autofree char *dir = describe_direction (&tvec, 0);

              add_finding (out, "A4", BL_SEVERITY_ERROR,
                           g_strdup_printf ("body plus added mass (M_RB + A) is not positive "
                                            "definite: smallest eigenvalue %.6g along %s "
                                            "(Cholesky fails at pivot %c); DART aborts on it "
                                            "(gz-sim issue #3246)",
                                            rep->total_eigenvalues[0], dir,
                                            AXES[MAX (pivot, 0)]));
            }
        }
    }

  /* A5 */
  if (body != NULL && !bl_mass_is_valid (body->mass, &body->inertia, BL_MASS_DEFAULT_TOLERANCE))
    add_finding (out, "A5", BL_SEVERITY_ERROR,
                 g_strdup_printf ("the rigid-body inertia (mass %.6g) is not valid "
                                  "(gz-math MassMatrix3::IsValid), so M_RB + A is meaningless",
                                  body->mass));

  /* A6 */
  if (body != NULL && rep->finite)
    {
      GString *others = g_string_new (NULL);

      for (int i = 0; i < 6; i++)
        {
          double d = rep->spatial_inertia.m[i][i];
          double ri;

          if (!(d > 0.0))
            continue;
          ri = rep->ratios[i] = rep->added_mass.m[i][i] / d;
          if (rep->max_ratio_index < 0 || ri > rep->max_ratio)
            {
              rep->max_ratio = ri;
              rep->max_ratio_index = i;
            }
        }
      if (rep->max_ratio_index >= 0 && rep->max_ratio >= 0.5)
        {
          int k = rep->max_ratio_index;

          for (int i = 0; i < 6; i++)
            {
              double d = rep->spatial_inertia.m[i][i];

              if (i != k && d > 0.0 && rep->added_mass.m[i][i] / d >= 0.5)
                g_string_append_printf (others, "%s%c%c %.3g", others->len ? ", " : "",
                                        AXES[i], AXES[i], rep->added_mass.m[i][i] / d);
            }
          add_finding (out, "A6",
                       rep->max_ratio >= 1.0 ? BL_SEVERITY_WARNING : BL_SEVERITY_INFO,
                       g_strdup_printf ("added mass along %c%c is %.3g× the body's own "
                                        "(%.6g vs M_RB %.6g)%s%s: a risk where a plugin applies "
                                        "added mass as an explicit force (gz-sim issue #1923), "
                                        "harmless for DART",
                                        AXES[k], AXES[k], rep->max_ratio,
                                        rep->added_mass.m[k][k], rep->spatial_inertia.m[k][k],
                                        others->len ? "; also " : "", others->str));
        }
      g_string_free (others, TRUE);
    }

  /* A9: all zeros is no added mass, nothing for libsdformat to drop. */
  if ((flags & BL_ADDED_MASS_CHECK_AUTO) && !(bl_mat6_max_abs (a) == 0.0))
    add_finding (out, "A9", BL_SEVERITY_WARNING,
                 g_strdup ("the link's inertial is auto=\"true\": libsdformat discards "
                           "fluid_added_mass there (Ballast keeps it)"));

  /* A10 */
  {
    GString *neg = g_string_new (NULL);

    for (int i = 0; i < 6; i++)
      if (rep->added_mass.m[i][i] < 0.0)
        g_string_append_printf (neg, "%s%c%c = %.6g", neg->len ? ", " : "",
                                AXES[i], AXES[i], rep->added_mass.m[i][i]);
    if (neg->len)
      add_finding (out, "A10", BL_SEVERITY_WARNING,
                   g_strdup_printf ("negative diagonal added mass (%s): Fossen sign "
                                    "convention? SDF values are positive", neg->str));
    g_string_free (neg, TRUE);
  }

  return rep;
}

BlAddedMassReport *
bl_added_mass_check (const double           values[21],
                     const BlInertial      *body,
                     BlAddedMassCheckFlags  flags)
{
  BlMat6 a;

  g_return_val_if_fail (values != NULL, NULL);

  a = bl_mat6_from_values (values);
  return bl_added_mass_check_matrix (&a, body, flags);
}

void
bl_added_mass_report_free (BlAddedMassReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->findings, g_ptr_array_unref);
  g_free (report);
}

gboolean
bl_added_mass_parse_hydrodynamics_name (const char *name,
                                        guint      *row,
                                        guint      *col)
{
  static const char rows[] = "xyzkmn";
  static const char cols[] = "UVWPQR";
  const char *r, *c;

  if (name == NULL || strlen (name) != 5 || strncmp (name + 1, "Dot", 3) != 0)
    return FALSE;
  r = strchr (rows, name[0]);
  c = strchr (cols, name[4]);
  if (r == NULL || c == NULL)
    return FALSE;
  *row = (guint) (r - rows);
  *col = (guint) (c - cols);
  return TRUE;
}

BlAddedMassFinding *
bl_added_mass_check_plugin (const char * const *names,
                            const double       *values,
                            gsize               n_terms,
                            gboolean            disable_added_mass,
                            gboolean            has_fluid_added_mass)
{
  g_autoptr(GString) active = NULL;
  guint n_active = 0;

  g_return_val_if_fail (n_terms == 0 || (names != NULL && values != NULL), NULL);

  if (disable_added_mass || !has_fluid_added_mass)
    return NULL;

  active = g_string_new (NULL);
  for (gsize i = 0; i < n_terms; i++)
    {
      guint r, c;

      if (!bl_added_mass_parse_hydrodynamics_name (names[i], &r, &c) || !(fabs (values[i]) > 1e-6))
        continue;
      if (n_active < 4)
        g_string_append_printf (active, "%s%s = %g", n_active ? ", " : "",
                                names[i], values[i]);
      n_active++;
    }
  if (n_active == 0)
    return NULL;
  if (n_active > 4)
    g_string_append_printf (active, " and %u more", n_active - 4);

  return bl_added_mass_finding_new ("A7", BL_SEVERITY_ERROR,
                                    "added mass is counted twice: the link has "
                                    "fluid_added_mass and its Hydrodynamics plugin has "
                                    "active added-mass terms (%s); set them to 0 and "
                                    "<disable_added_mass> to true (ballast-cli added-mass "
                                    "import --migrate does both, the Added Mass page's "
                                    "import too)",
                                    active->str);
}

/* ---- Imports -------------------------------------------------------------- */

/* Collects (row, col) terms, either triangle, into a symmetric matrix:
 * a pair given in both triangles is averaged, with an A2 warning when the two
 * differ. */
typedef struct
{
  double      value[6][6];
  const char *name[6][6];
  gboolean    given[6][6];
  guint       n_terms;
  double      source_sign;  /* value as written = source_sign × value here */
} TermTable;

static void
term_table_add (TermTable  *t,
                guint       row,
                guint       col,
                double      value,
                const char *name)
{
  t->value[row][col] = value;
  t->name[row][col] = name;
  t->given[row][col] = TRUE;
  t->n_terms++;
}

static void
term_table_finish (const TermTable *t,
                   double           out[21],
                   GPtrArray       *notes)
{
  double mx = 0.0;

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      if (t->given[i][j] && isfinite (t->value[i][j]))
        mx = MAX (mx, fabs (t->value[i][j]));

  for (guint k = 0; k < 21; k++)
    {
      guint r, c;
      gboolean up, low;

      bl_added_mass_index (k, &r, &c);
      up = t->given[r][c];
      low = r != c && t->given[c][r];
      if (up && low)
        {
          double a = t->value[r][c], b = t->value[c][r];

          out[k] = 0.5 * (a + b);
          if (fabs (a - b) > 1e-9 * mx)
            add_finding (notes, "A2", BL_SEVERITY_WARNING,
                         g_strdup_printf ("%s = %.6g and %s = %.6g disagree; %s set to "
                                          "%.6g from their mean",
                                          t->name[r][c], t->source_sign * a,
                                          t->name[c][r], t->source_sign * b,
                                          bl_added_mass_keys[k], out[k]));
        }
      else if (up)
        out[k] = t->value[r][c];
      else if (low)
        out[k] = t->value[c][r];
      else
        out[k] = 0.0;
    }
}

gboolean
bl_added_mass_import_hydrodynamics (const char * const *names,
                                    const double       *values,
                                    gsize               n_terms,
                                    double              out[21],
                                    GPtrArray          *notes)
{
  TermTable t;
  g_autoptr(GString) map = g_string_new (NULL);

  g_return_val_if_fail (n_terms == 0 || (names != NULL && values != NULL), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (&t, 0, sizeof t);
  t.source_sign = -1.0;
  for (gsize i = 0; i < n_terms; i++)
    {
      guint r, c;
      char key[3];

      if (!bl_added_mass_parse_hydrodynamics_name (names[i], &r, &c))
        continue;
      /* Fossen's sign: Ma(i, j) = −∂F/∂ν̇, the SDF value is its negation. */
      term_table_add (&t, r, c, -values[i], names[i]);
      key_name (r, c, key);
      g_string_append_printf (map, "%s%s → %s", map->len ? ", " : "", names[i], key);
    }

  if (t.n_terms == 0)
    {
      memset (out, 0, 21 * sizeof (double));
      add_finding (notes, "import", BL_SEVERITY_WARNING,
                   g_strdup ("no Hydrodynamics added-mass term ([xyzkmn]Dot[UVWPQR]) found"));
      return FALSE;
    }

  term_table_finish (&t, out, notes);
  add_finding (notes, "import", BL_SEVERITY_INFO,
               g_strdup_printf ("converted %u gz-sim Hydrodynamics term%s (%s): negated "
                                "(Fossen's sign), k m n read as p q r; the plugin's frame is "
                                "the link origin in link axes, so nothing was moved",
                                t.n_terms, t.n_terms == 1 ? "" : "s", map->str));
  return TRUE;
}

gboolean
bl_added_mass_import_lrauv (const char * const *names,
                            const double       *values,
                            gsize               n_terms,
                            double              out[21],
                            GPtrArray          *notes)
{
  /* HydrodynamicsPlugin.cc (osrf/lrauv): SdfParamDouble (_sdf, "xDotU", 5)…
   * into the diagonal of Ma, as gz-sim's Hydrodynamics reads them. */
  static const struct { const char *name; double fallback; } diagonal[6] = {
    { "xDotU", 5 }, { "yDotV", 5 }, { "zDotW", 0.1 }, { "kDotP", 0.1 }, { "mDotQ", 0.1 }, { "nDotR", 1 },
  };
  const char *used_names[6];
  double used_values[6];
  g_autoptr(GString) defaulted = g_string_new (NULL);
  g_autoptr(GString) ignored = g_string_new (NULL);
  guint n_given = 0;

  g_return_val_if_fail (n_terms == 0 || (names != NULL && values != NULL), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  for (guint k = 0; k < 6; k++)
    {
      used_names[k] = diagonal[k].name;
      used_values[k] = diagonal[k].fallback;
    }
  for (gsize i = 0; i < n_terms; i++)
    {
      guint r, c;
      gboolean found = FALSE;

      if (!bl_added_mass_parse_hydrodynamics_name (names[i], &r, &c))
        continue;
      for (guint k = 0; k < 6; k++)
        if (strcmp (names[i], diagonal[k].name) == 0)
          {
            used_values[k] = values[i];
            found = TRUE;
          }
      if (found)
        n_given++;
      else
        g_string_append_printf (ignored, "%s%s", ignored->len ? ", " : "", names[i]);
    }
  if (n_given == 0)
    {
      memset (out, 0, 21 * sizeof (double));
      add_finding (notes, "import", BL_SEVERITY_WARNING,
                   g_strdup ("no added-mass term (xDotU yDotV zDotW kDotP mDotQ nDotR) found; the "
                             "LRAUV plugin then uses its defaults 5, 5, 0.1, 0.1, 0.1, 1"));
      return FALSE;
    }
  for (guint k = 0; k < 6; k++)
    {
      gboolean given = FALSE;

      for (gsize i = 0; i < n_terms; i++)
        given |= strcmp (names[i], diagonal[k].name) == 0;
      if (!given)
        g_string_append_printf (defaulted, "%s%s = %g", defaulted->len ? ", " : "", diagonal[k].name,
                                diagonal[k].fallback);
    }

  bl_added_mass_import_hydrodynamics (used_names, used_values, 6, out, NULL);
  add_finding (notes, "import", BL_SEVERITY_INFO,
               g_strdup ("converted the MBARI LRAUV HydrodynamicsPlugin's six diagonal terms "
                         "(xDotU → xx, yDotV → yy, zDotW → zz, kDotP → pp, mDotQ → qq, nDotR → rr): "
                         "negated as gz-sim's Hydrodynamics terms are; the plugin's frame is the link "
                         "origin in link axes, so nothing was moved"));
  if (defaulted->len > 0)
    add_finding (notes, "import", BL_SEVERITY_WARNING,
                 g_strdup_printf ("absent from the plugin, so its defaults were taken: %s", defaulted->str));
  if (ignored->len > 0)
    add_finding (notes, "import", BL_SEVERITY_WARNING,
                 g_strdup_printf ("ignored, as the LRAUV plugin reads only the diagonal: %s", ignored->str));
  add_finding (notes, "import", BL_SEVERITY_INFO,
               g_strdup ("set the plugin's six *Dot* terms to 0 (removing them is not enough: it then "
                         "uses 5, 5, 0.1, 0.1, 0.1, 1), else the added mass counts twice (A7)"));
  return TRUE;
}

gboolean
bl_added_mass_import_dsros (const char * const *names,
                            const double       *values,
                            gsize               n_terms,
                            BlVec3              com,
                            double              out[21],
                            GPtrArray          *notes)
{
  /* dsros letters in SDF index order: r = roll, p = pitch, h = heading. */
  static const char letters[] = "xyzrph";
  TermTable t;
  double at_com[21];
  BlMat6 m, shifted;

  g_return_val_if_fail (n_terms == 0 || (names != NULL && values != NULL), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (&t, 0, sizeof t);
  t.source_sign = 1.0;
  for (gsize i = 0; i < n_terms; i++)
    {
      const char *r, *c;

      if (names[i] == NULL || strlen (names[i]) != 2
          || (r = strchr (letters, names[i][0])) == NULL
          || (c = strchr (letters, names[i][1])) == NULL)
        {
          add_finding (notes, "import", BL_SEVERITY_WARNING,
                       g_strdup_printf ("ignored unknown dsros_hydro added-mass term “%s”",
                                        names[i] ? names[i] : "(null)"));
          continue;
        }
      term_table_add (&t, (guint) (r - letters), (guint) (c - letters), values[i], names[i]);
    }

  if (t.n_terms == 0)
    {
      memset (out, 0, 21 * sizeof (double));
      add_finding (notes, "import", BL_SEVERITY_WARNING,
                   g_strdup ("no dsros_hydro added-mass term found"));
      return FALSE;
    }

  term_table_finish (&t, at_com, notes);
  m = bl_mat6_from_values (at_com);
  shifted = bl_mat6_shift (&m, com);
  bl_mat6_to_values (&shifted, out);

  add_finding (notes, "import", BL_SEVERITY_INFO,
               g_strdup_printf ("converted %u dsros_hydro term%s: letters r p h (roll, pitch, "
                                "heading) renamed p q r, sign kept",
                                t.n_terms, t.n_terms == 1 ? "" : "s"));
  if (com.x != 0.0 || com.y != 0.0 || com.z != 0.0)
    add_finding (notes, "import", BL_SEVERITY_INFO,
                 g_strdup_printf ("moved from the centre of mass (%g, %g, %g) to the link "
                                  "origin: coupling and rotational terms changed",
                                  com.x, com.y, com.z));
  return TRUE;
}

void
bl_added_mass_import_uuv (const double  values[36],
                          double        scaling,
                          double        offset,
                          double        out[21],
                          GPtrArray    *notes)
{
  BlMat6 m, flu, sym;
  double asym;
  guint ar, ac;

  g_return_if_fail (values != NULL && out != NULL);

  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      m.m[i][j] = scaling * (values[6 * i + j] + (i == j ? offset : 0.0));
  if (scaling != 1.0 || offset != 0.0)
    add_finding (notes, "import", BL_SEVERITY_INFO,
                 g_strdup_printf ("applied scaling_added_mass %g and offset_added_mass %g: "
                                  "%g·(Ma + %g·E6)", scaling, offset, scaling, offset));

  flu = bl_mat6_flip_frd (&m);
  add_finding (notes, "import", BL_SEVERITY_INFO,
               g_strdup ("flipped uuv_simulator's FRD axes to the link's FLU axes (F·M·F): "
                         "xy, xz, xq, xr, yp, zp, pq, pr change sign"));

  sym = bl_mat6_symmetrize (&flu, &asym, &ar, &ac);
  if (asym > 1e-9 * bl_mat6_max_abs (&flu))
    {
      char name[3];

      key_name (ar, ac, name);
      add_finding (notes, "A2", BL_SEVERITY_WARNING,
                   g_strdup_printf ("the 36 values are not symmetric: largest difference at "
                                    "%s, %.6g vs %.6g (|Δ| = %.3g); averaged to %.6g",
                                    name, flu.m[ar][ac], flu.m[ac][ar], asym,
                                    sym.m[ar][ac]));
    }
  bl_mat6_to_values (&sym, out);
  add_finding (notes, "import", BL_SEVERITY_INFO,
               g_strdup ("taken about the link origin (uuv_simulator's velocity reference); "
                         "its force application point under Gazebo classic is unverified"));
}

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
  sym_jacobi (3, w, moments, v);

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
