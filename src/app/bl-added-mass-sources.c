/* bl-added-mass-sources.c: a link's added-mass proposals from the core's
 * estimates and plugin imports, with notes for the user (no GTK). */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-added-mass-sources.h"
#include "bl-fluid.h"

gboolean
bl_added_mass_propose_estimate (BlLink    *link,
                                double     rho,
                                double     out[21],
                                GPtrArray *notes)
{
  g_autoptr(GArray) estimates = g_array_new (FALSE, TRUE, sizeof (BlCollisionEstimate));
  guint used;

  g_return_val_if_fail (link != NULL, FALSE);

  used = bl_link_estimate_added_mass (link, rho, out, estimates);
  for (guint i = 0; notes != NULL && i < estimates->len; i++)
    {
      const BlCollisionEstimate *e = &g_array_index (estimates, BlCollisionEstimate, i);
      const char *type = bl_geometry_type_to_string (e->collision->geometry.type);

      if (!e->ok)
        g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_WARNING,
                                                           _("%s (%s): no estimate for this geometry"),
                                                           e->collision->name, type));
      else
        g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate",
                                                           e->estimate.translation_quality == BL_ESTIMATE_EXACT
                                                           && e->estimate.rotation_quality == BL_ESTIMATE_EXACT
                                                           ? BL_SEVERITY_INFO : BL_SEVERITY_WARNING,
                                                           _("%s (%s): %s; translation %s, rotation %s"),
                                                           e->collision->name, type, e->estimate.method,
                                                           bl_estimate_quality_to_string (e->estimate.translation_quality),
                                                           bl_estimate_quality_to_string (e->estimate.rotation_quality)));
    }
  if (used > 1 && notes != NULL)
    g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_INFO,
                                                       _("The collisions’ estimates are summed, ignoring how the parts shield each other.")));
  return used > 0;
}

static void
add_import_summary (const BlAddedMassImport *import,
                    GPtrArray               *notes)
{
  switch (import->source)
    {
    case BL_ADDED_MASS_SOURCE_HYDRODYNAMICS:
      /* The core's notes say how the values were converted, and A7. */
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                         _("Imported from the gz-sim Hydrodynamics plugin (line %d)."),
                                                         import->line));
      break;
    case BL_ADDED_MASS_SOURCE_DSROS:
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                         _("Imported from the dsros_hydro plugin’s <drag><added_mass> (line %d), which acts on the model’s canonical link."),
                                                         import->line));
      break;
    case BL_ADDED_MASS_SOURCE_UUV:
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                         _("Imported from the uuv_simulator plugin (line %d)."),
                                                         import->line));
      break;
    case BL_ADDED_MASS_SOURCE_LRAUV:
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                         _("Imported from the MBARI LRAUV HydrodynamicsPlugin (line %d)."),
                                                         import->line));
      break;
    default:
      break;
    }
}

gboolean
bl_added_mass_propose_import (BlDocument *document,
                              BlLink     *link,
                              double      out[21],
                              GPtrArray  *notes)
{
  g_autoptr(GPtrArray) imports = NULL;
  const BlAddedMassImport *chosen = NULL;
  const BlAddedMassImport *failed = NULL;
  guint others = 0;

  g_return_val_if_fail (BL_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (link != NULL, FALSE);
  g_return_val_if_fail (notes != NULL, FALSE);

  imports = bl_document_find_added_mass_imports (document);
  for (guint i = 0; i < imports->len; i++)
    {
      const BlAddedMassImport *import = g_ptr_array_index (imports, i);

      if (import->link != link)
        continue;
      if (!import->has_values)
        failed = failed != NULL ? failed : import;
      else if (chosen == NULL)
        chosen = import;
      else
        others++;
    }

  if (chosen == NULL)
    {
      if (failed != NULL)
        for (guint i = 0; i < failed->notes->len; i++)
          {
            const BlAddedMassFinding *f = g_ptr_array_index (failed->notes, i);
            g_ptr_array_add (notes, bl_added_mass_finding_new (f->id, f->severity, "%s", f->message));
          }
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                         _("No Hydrodynamics, dsros_hydro or uuv_simulator plugin gives added mass for this link.")));
      return FALSE;
    }

  memcpy (out, chosen->values, sizeof chosen->values);
  add_import_summary (chosen, notes);
  for (guint i = 0; i < chosen->notes->len; i++)
    {
      const BlAddedMassFinding *f = g_ptr_array_index (chosen->notes, i);
      g_ptr_array_add (notes, bl_added_mass_finding_new (f->id, f->severity, "%s", f->message));
    }
  if (others > 0)
    g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                       g_dngettext (GETTEXT_PACKAGE,
                                                                    "%u more plugin gives added mass for this link; only the first is shown.",
                                                                    "%u more plugins give added mass for this link; only the first is shown.",
                                                                    others),
                                                       others));
  return TRUE;
}
