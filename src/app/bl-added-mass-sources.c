/* bl-added-mass-sources.c: a link's added-mass proposals from the core's
 * estimates and plugin imports, with notes for the user (no GTK). */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-added-mass-sources.h"
#include "bl-number.h"

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
  /* Rotated collisions leave 1e-17 where the exact value is 0. */
  bl_number_clean_noise (out, BL_ADDED_MASS_N_VALUES, 0.0);
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

void
bl_added_mass_panel_findings (const BlPanelEstimate *estimate,
                              GPtrArray             *link_notes,
                              GPtrArray             *notes)
{
  if (isfinite (estimate->relative_error))
    g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_INFO,
                                                       _("Panel method, all collisions together: %zu panels; "
                                                         "error estimate %.2g %% (from a second solve at %zu panels). "
                                                         "Terms that cannot be told from 0 at this resolution are 0."),
                                                       estimate->fine.n_panels, 100 * estimate->relative_error,
                                                       estimate->coarse_panels));
  else
    g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_WARNING,
                                                       _("Panel method, all collisions together: %zu panels; no error "
                                                         "estimate, since the meshes are finer than a quarter of the "
                                                         "panel budget: choose more panels."),
                                                       estimate->fine.n_panels));
  bl_panel_estimate_findings (estimate, notes);
  for (guint i = 0; i < link_notes->len; i++)
    g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_INFO, "%s",
                                                       (const char *) g_ptr_array_index (link_notes, i)));
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

/* What applying can do about the plugin, for the proposal's notes. */
static void
add_plugin_note (BlDocument              *document,
                 const BlAddedMassImport *import,
                 GPtrArray               *notes)
{
  switch (bl_added_mass_import_get_plugin_state (document, import))
    {
    case BL_PLUGIN_ADDED_MASS_ACTIVE:
      /* gz-sim's Coriolis terms read the same values unless
       * <disable_coriolis>: <disable_added_mass> alone leaves them. */
      if (import->disable_added_mass)
        {
          g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                             _("The plugin’s <disable_added_mass> is true, but its Coriolis "
                                                               "terms still use these values. “Apply and Turn Off in Plugin” "
                                                               "also sets them to 0, in one step.")));
          break;
        }
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                         _("The plugin still applies this added mass. “Apply and Turn Off "
                                                           "in Plugin” also sets its added-mass terms to 0 and "
                                                           "<disable_added_mass> to true, in one step; “Apply” alone "
                                                           "counts the added mass twice (A7).")));
      break;
    case BL_PLUGIN_ADDED_MASS_INCLUDED:
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                         _("The plugin is in the included file %s, which Ballast does not "
                                                           "edit: until its added-mass terms are turned off there, applying "
                                                           "counts the added mass twice (A7)."),
                                                         import->file));
      break;
    case BL_PLUGIN_ADDED_MASS_CLASSIC:
      g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                         _("The plugin is left as it is: %s runs in Gazebo classic, which "
                                                           "ignores <fluid_added_mass>, so there its added mass is the only "
                                                           "one applied; gz-sim does not load it, so nothing is counted "
                                                           "twice. Remove the plugin when the model moves to gz-sim."),
                                                         bl_added_mass_source_to_string (import->source)));
      break;
    case BL_PLUGIN_ADDED_MASS_OFF:
    default:
      break;
    }
}

BlAddedMassImport *
bl_added_mass_propose_import (BlDocument *document,
                              BlLink     *link,
                              double      out[21],
                              GPtrArray  *notes)
{
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(BlAddedMassImport) chosen = NULL;
  const BlAddedMassImport *failed = NULL;
  const BlAddedMassImport *zero = NULL;
  guint others = 0;

  g_return_val_if_fail (BL_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (notes != NULL, NULL);

  imports = bl_fluid_find_added_mass_imports (document);
  for (guint i = 0; i < imports->len; i++)
    {
      BlAddedMassImport *import = g_ptr_array_index (imports, i);

      if (import->link != link)
        continue;
      if (!import->has_values)
        failed = failed != NULL ? failed : import;
      else if (bl_added_mass_import_get_plugin_state (document, import) == BL_PLUGIN_ADDED_MASS_OFF)
        zero = zero != NULL ? zero : import;
      else if (chosen == NULL)
        chosen = g_ptr_array_steal_index (imports, i--);
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
      if (zero != NULL)
        g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                           _("The Hydrodynamics plugin (line %d) has all its added-mass "
                                                             "terms at 0: there is nothing to import (its added mass was "
                                                             "moved or never set)."),
                                                           zero->line));
      else
        g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                           _("No Hydrodynamics, dsros_hydro or uuv_simulator plugin gives added mass for this link.")));
      return NULL;
    }

  memcpy (out, chosen->values, sizeof chosen->values);
  bl_number_clean_noise (out, BL_ADDED_MASS_N_VALUES, 0.0);
  add_import_summary (chosen, notes);
  for (guint i = 0; i < chosen->notes->len; i++)
    {
      const BlAddedMassFinding *f = g_ptr_array_index (chosen->notes, i);
      g_ptr_array_add (notes, bl_added_mass_finding_new (f->id, f->severity, "%s", f->message));
    }
  add_plugin_note (document, chosen, notes);
  if (others > 0)
    g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                       g_dngettext (GETTEXT_PACKAGE,
                                                                    "%u more plugin gives added mass for this link; only the first is shown.",
                                                                    "%u more plugins give added mass for this link; only the first is shown.",
                                                                    others),
                                                       others));
  return g_steal_pointer (&chosen);
}
