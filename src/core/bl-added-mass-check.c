/* bl-added-mass-check.c: what a given added-mass matrix is worth: findings,
 * the checks A1–A10 of a 6×6 matrix (docs/DIAGNOSTICS.md), the plugin
 * check, and the imports of Gazebo's, LRAUV's, DSROS's and uuv_simulator's
 * plugin values into SDF's order, sign and reference point. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-number.h"

#define AXES "xyzpqr"

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

/* Copies s to p; returns its end (not terminated). */
static inline char *
put (char       *p,
     const char *s)
{
  gsize n = strlen (s);

  memcpy (p, s, n);
  return p + n;
}

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
  g_autoptr(GString) bad = NULL;
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

  /* A1 (the list made only when there is one) */
  for (guint i = 0; i < 6; i++)
    for (guint j = i; j < 6; j++)
      {
        char name[3];
        double x = isfinite (a->m[i][j]) ? a->m[j][i] : a->m[i][j];

        if (isfinite (x))
          continue;
        if (bad == NULL)
          bad = g_string_new (NULL);
        key_name (i, j, name);
        g_string_append_printf (bad, "%s%s = %g", bad->len ? ", " : "", name, x);
      }
  rep->finite = bad == NULL;
  if (!rep->finite)
    add_finding (out, "A1", BL_SEVERITY_ERROR,
                 g_strdup_printf ("fluid_added_mass has non-finite values (%s); "
                                  "DART's dynamics cannot use them", bad->str));

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
      bl_mat6_sym_eigen (&rep->added_mass, rep->eigenvalues, NULL);
      lmax = rep->eigenvalues[5];
      tol = -1e-9 * MAX (lmax, 1.0);
      for (int i = 0; i < 6; i++)
        if (rep->eigenvalues[i] < tol)
          neg++;
      rep->semidefinite = neg == 0;
      if (neg > 0)
        {
          g_autofree char *dir = NULL;

          /* the vectors only for the message (the same values) */
          bl_mat6_sym_eigen (&rep->added_mass, rep->eigenvalues, &vectors);
          dir = describe_direction (&vectors, 0);
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
          bl_mat6_sym_eigen (&total, rep->total_eigenvalues, NULL);
          rep->total_positive_definite = bl_mat6_is_positive_definite (&total, &pivot);
          if (!rep->total_positive_definite)
            {
              g_autofree char *dir = NULL;

              bl_mat6_sym_eigen (&total, rep->total_eigenvalues, &tvec);
              dir = describe_direction (&tvec, 0);

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

  /* A6 (its numbers formatted as %.3g and %.6g would, without printf's
   * cost: a large model has a great many links with added mass) */
  if (body != NULL && rep->finite)
    {
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
          /* at most 445 bytes: the words, two letters for each axis,
           * and the room bl_number_write_g takes for each of the eight
           * numbers (BL_DOUBLE_BUF_SIZE) */
          char message[512], *p = message;

          G_STATIC_ASSERT (BL_DOUBLE_BUF_SIZE <= 32);
          p = put (p, "added mass along ");
          *p++ = AXES[k];
          *p++ = AXES[k];
          p = put (p, " is ");
          p += bl_number_write_g (rep->max_ratio, 3, p);
          p = put (p, "× the body's own (");
          p += bl_number_write_g (rep->added_mass.m[k][k], 6, p);
          p = put (p, " vs M_RB ");
          p += bl_number_write_g (rep->spatial_inertia.m[k][k], 6, p);
          *p++ = ')';
          for (int i = 0, others = 0; i < 6; i++)
            {
              double d = rep->spatial_inertia.m[i][i];

              if (i == k || !(d > 0.0) || !(rep->added_mass.m[i][i] / d >= 0.5))
                continue;
              p = put (p, others++ == 0 ? "; also " : ", ");
              *p++ = AXES[i];
              *p++ = AXES[i];
              *p++ = ' ';
              p += bl_number_write_g (rep->added_mass.m[i][i] / d, 3, p);
            }
          p = put (p, ": a risk where a plugin applies added mass as an explicit force "
                      "(gz-sim issue #1923), harmless for DART");
          add_finding (out, "A6", rep->max_ratio >= 1.0 ? BL_SEVERITY_WARNING : BL_SEVERITY_INFO,
                       g_strndup (message, (gsize) (p - message)));
        }
    }

  /* A9: all zeros is no added mass, nothing for libsdformat to drop. */
  if ((flags & BL_ADDED_MASS_CHECK_AUTO) && !(bl_mat6_max_abs (a) == 0.0))
    add_finding (out, "A9", BL_SEVERITY_WARNING,
                 g_strdup ("the link's inertial is auto=\"true\": libsdformat discards "
                           "fluid_added_mass there (Ballast keeps it)"));

  /* A10 (the list made only when there is one) */
  {
    g_autoptr(GString) neg = NULL;

    for (int i = 0; i < 6; i++)
      if (rep->added_mass.m[i][i] < 0.0)
        {
          if (neg == NULL)
            neg = g_string_new (NULL);
          g_string_append_printf (neg, "%s%c%c = %.6g", neg->len ? ", " : "",
                                  AXES[i], AXES[i], rep->added_mass.m[i][i]);
        }
    if (neg != NULL)
      add_finding (out, "A10", BL_SEVERITY_WARNING,
                   g_strdup_printf ("negative diagonal added mass (%s): Fossen sign "
                                    "convention? SDF values are positive", neg->str));
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
