/* bl-overflow.c: no number Ballast shows may be silently infinite or NaN.
 *
 * A model file can hold 1e308 as a mass, a size or a density; the
 * arithmetic of the mass properties then overflows.  Rather than showing
 * inf (or a NaN that compares as "valid"), the link gets an error that
 * names the quantity, and its inertia counts as invalid. */
#include "config.h"

#include <math.h>

#include "bl-diagnostic.h"
#include "bl-xml-private.h"
#include "bl-overflow-private.h"

static gboolean
all_finite (const double *values,
            guint         n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (values[i]))
      return FALSE;
  return TRUE;
}

static gboolean
within (double value,
        double bound)
{
  return fabs (value) <= bound;
}

static gboolean
all_within (const double *values,
            guint         n,
            double        bound)
{
  for (guint i = 0; i < n; i++)
    if (!within (values[i], bound))
      return FALSE;
  return TRUE;
}

static gboolean
vec3_finite (BlVec3 v)
{
  return isfinite (v.x) && isfinite (v.y) && isfinite (v.z);
}

static gboolean
mat3_finite (const BlMat3 *m)
{
  return all_finite (&m->m[0][0], 9);
}

/* The first quantity of the link that is not finite, or NULL; *inertia
 * tells whether it is the inertia itself rather than a derived value. */
static const char *
first_non_finite (BlLink   *link,
                  gboolean *inertia)
{
  const BlMassProperties *p = &link->props;
  BlMat6 spatial_inertia;

  *inertia = TRUE;
  if (!isfinite (p->mass))
    return "mass";
  if (!vec3_finite (p->com))
    return "centre of mass";
  if (!mat3_finite (&p->inertia) || !mat3_finite (&p->inertia_c))
    return "inertia tensor";
  if (!all_finite (p->principal_moments, 3))
    return "principal moments";

  *inertia = FALSE;
  if (p->has_equivalent &&
      (!all_finite (p->equivalent_ellipsoid, 3) || !all_finite (p->equivalent_box, 3)))
    return "equivalent ellipsoid and box";
  if (!isfinite (p->volume))
    return "displaced volume";
  if (!vec3_finite (p->center_of_buoyancy))
    return "centre of buoyancy";
  /* M_RB = Hᵀ·diag (m, J)·H (bl_mat6_shift): each entry sums 36 products
   * of three factors at most, so with mass, centre and inertia all within
   * 1e100 it is finite (3.6e301 at most) and is not made to be checked. */
  if (!(within (p->mass, 1e100) && within (p->com.x, 1e100) && within (p->com.y, 1e100) &&
        within (p->com.z, 1e100) && all_within (&p->inertia.m[0][0], 9, 1e100)))
    {
      spatial_inertia = bl_link_spatial_inertia (link);
      if (!all_finite (&spatial_inertia.m[0][0], 36))
        return "spatial inertia (mass times the square of the centre's distance)";
    }
  if (p->has_added_mass_eigenvalues &&
      (!all_finite (p->added_mass_eigenvalues, 6) || !all_finite (p->total_eigenvalues, 6)))
    return "added-mass eigenvalues";
  return NULL;
}

/* The line of a message: read from the tree only when there is one. */
static int
message_line (BlLink *link)
{
  return link->inertial_node != NULL ? bl_xml_get_line (link->inertial_node) : link->line;
}

void
bl_link_check_overflow (BlLink *link)
{
  const BlMassProperties *p;
  const char *what;
  gboolean inertia;
  const char *file;

  g_return_if_fail (link != NULL);

  p = &link->props;
  file = link->model != NULL ? link->file : NULL;

  what = first_non_finite (link, &inertia);
  if (what != NULL)
    {
      bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "overflow", file, message_line (link),
                          link->scoped_name,
                          "the %s overflows: it is not a finite number%s (check the link's "
                          "sizes, densities, mass and poses for values like 1e308)", what,
                          inertia ? ", so the inertia is not valid" : "");
      /* gz-math would call an inertia of inf valid; Ballast never does. */
      if (inertia)
        link->props.valid = FALSE;
      return;
    }

  if (fabs (p->mass) > BL_MAGNITUDE_LIMIT || p->volume > BL_MAGNITUDE_LIMIT)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "overflow", file, message_line (link),
                        link->scoped_name,
                        "the %s %g is beyond %g: its weight and buoyancy overflow (they cannot be represented)",
                        fabs (p->mass) > BL_MAGNITUDE_LIMIT ? "mass" : "displaced volume",
                        fabs (p->mass) > BL_MAGNITUDE_LIMIT ? p->mass : p->volume,
                        BL_MAGNITUDE_LIMIT);
}
