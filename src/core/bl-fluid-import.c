/* bl-fluid-import.c: added mass read from simulator plugins (gz-sim
 * Hydrodynamics, MBARI LRAUV, dsros_hydro, uuv_simulator) and applied as
 * one edit. */
#include "config.h"

#include <string.h>

#include "bl-document-private.h"
#include "bl-fluid-import.h"
#include "bl-fluid-world-private.h"
#include "bl-number.h"
#include "bl-xml-private.h"

static gboolean
child_number (xmlNode    *parent,
              const char *name,
              double     *value)
{
  xmlNode *child = bl_xml_first_child (parent, name);
  g_autofree char *text = NULL;

  if (child == NULL)
    return FALSE;
  text = bl_fluid_node_text (child);
  return bl_number_parse (text, value);
}

/* osrf/lrauv's own plugin: filename="HydrodynamicsPlugin"
 * name="tethys::HydrodynamicsPlugin" (gz-sim's is
 * gz-sim-hydrodynamics-system, gz::sim::systems::Hydrodynamics). */
static gboolean
is_lrauv_hydrodynamics (xmlNode *plugin)
{
  g_autofree char *id = bl_fluid_plugin_id (plugin);

  return strstr (id, "hydrodynamicsplugin") != NULL;
}

static gboolean
is_dsros (xmlNode *plugin)
{
  g_autofree char *id = bl_fluid_plugin_id (plugin);

  return strstr (id, "dsros_hydro") != NULL;
}

static gboolean
is_uuv (xmlNode *plugin)
{
  g_autofree char *id = bl_fluid_plugin_id (plugin);

  if (strstr (id, "uuv") != NULL)
    return TRUE;
  /* uuv_simulator's layout, whatever the plugin file is called. */
  for (xmlNode *n = plugin->children; n != NULL; n = n->next)
    if (bl_xml_is_element (n, "link") && bl_xml_first_child (n, "hydrodynamic_model") != NULL)
      return TRUE;
  return FALSE;
}

/* A link named relative to a scope: a model (scoped name `scope`) or the
 * world (scope NULL). */
static BlLink *
find_scoped_link (BlDocument *self,
                  const char *scope,
                  const char *name)
{
  g_autofree char *full = NULL;

  if (name == NULL || *name == '\0')
    return NULL;
  if (scope == NULL)
    return bl_document_find_link (self, name);
  full = g_strconcat (scope, "::", name, NULL);
  return bl_document_find_link (self, full);
}

static BlAddedMassImport *
import_new (BlAddedMassSource  source,
            xmlNode           *plugin,
            const char        *file)
{
  BlAddedMassImport *import = g_new0 (BlAddedMassImport, 1);

  import->source = source;
  import->node = plugin;
  import->file = g_strdup (file);
  import->line = bl_xml_get_line (plugin);
  import->notes = bl_added_mass_findings_new ();
  return import;
}

void
bl_added_mass_import_free (BlAddedMassImport *import)
{
  if (import == NULL)
    return;
  g_clear_pointer (&import->notes, g_ptr_array_unref);
  g_free (import->link_name);
  g_free (import->file);
  g_free (import);
}

const char *
bl_added_mass_source_to_string (BlAddedMassSource source)
{
  switch (source)
    {
    case BL_ADDED_MASS_SOURCE_HYDRODYNAMICS:
      return "gz-sim Hydrodynamics";
    case BL_ADDED_MASS_SOURCE_DSROS:
      return "dsros_hydro";
    case BL_ADDED_MASS_SOURCE_UUV:
      return "uuv_simulator";
    case BL_ADDED_MASS_SOURCE_LRAUV:
      return "MBARI LRAUV Hydrodynamics";
    default:
      return "unknown";
    }
}

static void
import_hydrodynamics (BlDocument *self,
                      xmlNode    *plugin,
                      BlModel    *scope,
                      const char *file,
                      GPtrArray  *out)
{
  gboolean lrauv = is_lrauv_hydrodynamics (plugin);
  g_autoptr(BlAddedMassImport) import = import_new (lrauv ? BL_ADDED_MASS_SOURCE_LRAUV
                                                          : BL_ADDED_MASS_SOURCE_HYDRODYNAMICS, plugin, file);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  xmlNode *link_name = bl_xml_first_child (plugin, "link_name");

  if (link_name != NULL)
    import->link_name = bl_fluid_node_text (link_name);
  import->link = find_scoped_link (self, scope != NULL ? scope->scoped_name : NULL, import->link_name);
  import->disable_added_mass = !lrauv && bl_fluid_child_true (plugin, "disable_added_mass");

  bl_fluid_collect_numbers (plugin, names, values);
  if (lrauv)
    import->has_values = bl_added_mass_import_lrauv ((const char * const *) names->pdata,
                                                     (const double *) values->data, values->len,
                                                     import->values, import->notes);
  else
    import->has_values = bl_added_mass_import_hydrodynamics ((const char * const *) names->pdata,
                                                             (const double *) values->data, values->len,
                                                             import->values, import->notes);
  if (import->has_values)
    g_ptr_array_add (out, g_steal_pointer (&import));
}

static void
import_dsros (xmlNode    *plugin,
              BlModel    *scope,
              const char *file,
              GPtrArray  *out)
{
  g_autoptr(BlAddedMassImport) import = import_new (BL_ADDED_MASS_SOURCE_DSROS, plugin, file);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  xmlNode *added = bl_xml_first_child (bl_xml_first_child (plugin, "drag"), "added_mass");
  BlVec3 com = BL_VEC3_ZERO;

  if (added == NULL)
    added = bl_xml_first_child (plugin, "added_mass");
  if (added == NULL)
    return;
  import->line = bl_xml_get_line (added);

  /* The plugin acts on its model's canonical link (Gazebo classic's
   * Model::GetLink ()): @canonical_link, else the first link. */
  if (scope != NULL)
    {
      g_autofree char *canonical = bl_xml_dup_attribute (scope->node, "canonical_link");

      for (guint i = 0; i < scope->links->len && import->link == NULL; i++)
        {
          BlLink *link = g_ptr_array_index (scope->links, i);

          if (canonical == NULL || strcmp (link->name, canonical) == 0)
            import->link = link;
        }
    }
  if (import->link != NULL)
    {
      import->link_name = g_strdup (import->link->name);
      com = import->link->props.com;
    }
  else
    g_ptr_array_add (import->notes,
                     bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                "the plugin's model has no link: the values "
                                                "stay about the centre of mass"));

  bl_fluid_collect_numbers (added, names, values);
  import->has_values = bl_added_mass_import_dsros ((const char * const *) names->pdata,
                                                   (const double *) values->data, values->len,
                                                   com, import->values, import->notes);
  if (import->has_values)
    g_ptr_array_add (out, g_steal_pointer (&import));
}

static void
import_uuv (BlDocument *self,
            xmlNode    *plugin,
            BlModel    *scope,
            const char *file,
            GPtrArray  *out)
{
  for (xmlNode *n = plugin->children; n != NULL; n = n->next)
    {
      g_autoptr(BlAddedMassImport) import = NULL;
      xmlNode *model, *added;
      g_autofree char *text = NULL;
      double matrix[36];
      double scaling = 1.0, offset = 0.0;

      if (!bl_xml_is_element (n, "link"))
        continue;
      model = bl_xml_first_child (n, "hydrodynamic_model");
      added = bl_xml_first_child (model, "added_mass");
      if (added == NULL)
        continue;

      import = import_new (BL_ADDED_MASS_SOURCE_UUV, plugin, file);
      import->line = bl_xml_get_line (added);
      import->link_name = bl_xml_dup_attribute (n, "name");
      import->link = find_scoped_link (self, scope != NULL ? scope->scoped_name : NULL, import->link_name);

      text = bl_fluid_node_text (added);
      if (!bl_number_parse_vector (text, matrix, 36))
        {
          g_ptr_array_add (import->notes,
                           bl_added_mass_finding_new ("import", BL_SEVERITY_ERROR,
                                                      "the uuv_simulator <added_mass> is not 36 "
                                                      "numbers (%u found)", bl_number_count_tokens (text)));
          g_ptr_array_add (out, g_steal_pointer (&import));
          continue;
        }
      /* The plugin reads both from <hydrodynamic_model>; accept them on <link> too. */
      if (!child_number (model, "scaling_added_mass", &scaling))
        child_number (n, "scaling_added_mass", &scaling);
      if (!child_number (model, "offset_added_mass", &offset))
        child_number (n, "offset_added_mass", &offset);

      bl_added_mass_import_uuv (matrix, scaling, offset, import->values, import->notes);
      import->has_values = TRUE;
      g_ptr_array_add (out, g_steal_pointer (&import));
    }
}

static void
scan_plugins (BlDocument *self,
              xmlNode    *scope_node,
              BlModel    *scope,
              const char *file,
              GPtrArray  *out)
{
  for (xmlNode *plugin = scope_node->children; plugin != NULL; plugin = plugin->next)
    {
      if (!bl_xml_is_element (plugin, "plugin"))
        continue;
      if (is_uuv (plugin))
        import_uuv (self, plugin, scope, file, out);
      else if (is_dsros (plugin))
        import_dsros (plugin, scope, file, out);
      else if (bl_fluid_is_hydrodynamics (plugin))
        import_hydrodynamics (self, plugin, scope, file, out);
    }
}

/* Whether the document reports that the <include> could not be loaded:
 * among its include failures (a repeat of an earlier one has no
 * diagnostic of its own), or an include, include-cycle or depth error in
 * its file, on its lines. */
static gboolean
include_failed (BlDocument *self,
                xmlNode    *include,
                const char *file)
{
  GPtrArray *failures = bl_document_get_include_failures (self);
  g_autoptr(GPtrArray) all = NULL;
  int first = bl_xml_get_line (include);
  int last = first;

  for (guint i = 0; i < failures->len; i++)
    if (((BlIncludeFailure *) g_ptr_array_index (failures, i))->include == include)
      return TRUE;
  all = bl_document_collect_diagnostics (self);

  for (xmlNode *n = include->children; n != NULL; n = n->next)
    if (bl_xml_is_element (n, NULL))
      last = MAX (last, bl_xml_get_line (n));
  for (guint i = 0; i < all->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (all, i);

      if (d->severity == BL_SEVERITY_ERROR && d->line >= first && d->line <= last &&
          g_strcmp0 (d->file, file) == 0 &&
          (g_strcmp0 (d->code, "include") == 0 || g_strcmp0 (d->code, "include-cycle") == 0 ||
           g_strcmp0 (d->code, "depth") == 0))
        return TRUE;
    }
  return FALSE;
}

/* The plugins an <include> adds to the model it loads (lrauv's
 * tethys_equipped holds all of them so).  When that model could not be
 * loaded they are still read, marked model_not_loaded: "no plugin" would
 * send the user looking in the wrong place. */
static void
scan_includes (BlDocument *self,
               BlModel    *model,
               GPtrArray  *out)
{
  for (xmlNode *include = model->node->children; include != NULL; include = include->next)
    {
      guint before = out->len;

      /* A loaded include's plugins are its model's (plugin_sources). */
      if (!bl_xml_is_element (include, "include") || bl_xml_first_child (include, "plugin") == NULL ||
          !include_failed (self, include, model->file))
        continue;
      scan_plugins (self, include, NULL, model->file, out);
      for (guint i = before; i < out->len; i++)
        {
          BlAddedMassImport *import = g_ptr_array_index (out, i);

          import->model_not_loaded = TRUE;
          import->link = NULL;
        }
    }
}

static void
scan_model (BlDocument *self,
            BlModel    *model,
            GPtrArray  *out)
{
  scan_plugins (self, model->node, model, model->file, out);
  for (guint i = 0; model->plugin_sources != NULL && i < model->plugin_sources->len; i++)
    {
      BlPluginSource *source = &g_array_index (model->plugin_sources, BlPluginSource, i);

      scan_plugins (self, source->node, model, source->file, out);
    }
  scan_includes (self, model, out);
  for (guint i = 0; i < model->models->len; i++)
    scan_model (self, g_ptr_array_index (model->models, i), out);
}

GPtrArray *
bl_fluid_find_added_mass_imports (BlDocument *self)
{
  GPtrArray *out;
  GPtrArray *models;
  xmlNode *world;

  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_added_mass_import_free);
  models = bl_document_get_models (self);
  for (guint i = 0; i < models->len; i++)
    scan_model (self, g_ptr_array_index (models, i), out);

  world = bl_document_get_world (self);
  if (world != NULL)
    scan_plugins (self, world, NULL, bl_document_get_path (self), out);

  return out;
}

BlPluginAddedMass
bl_added_mass_import_get_plugin_state (BlDocument              *self,
                                       const BlAddedMassImport *import)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));

  g_return_val_if_fail (BL_IS_DOCUMENT (self), BL_PLUGIN_ADDED_MASS_CLASSIC);
  g_return_val_if_fail (import != NULL, BL_PLUGIN_ADDED_MASS_CLASSIC);

  if (import->source != BL_ADDED_MASS_SOURCE_HYDRODYNAMICS)
    return BL_PLUGIN_ADDED_MASS_CLASSIC;

  bl_fluid_collect_numbers (import->node, names, values);
  for (guint i = 0; i < values->len; i++)
    {
      guint row, col;

      if (bl_added_mass_parse_hydrodynamics_name (g_ptr_array_index (names, i), &row, &col)
          && g_array_index (values, double, i) != 0.0)
        return import->node->doc == bl_document_get_xml (self) ? BL_PLUGIN_ADDED_MASS_ACTIVE
                                                               : BL_PLUGIN_ADDED_MASS_INCLUDED;
    }
  return BL_PLUGIN_ADDED_MASS_OFF;
}

BlEdit *
bl_added_mass_import_create_edit (BlDocument              *self,
                                  const BlAddedMassImport *import,
                                  gboolean                 migrate,
                                  GError                 **error)
{
  g_autoptr(BlEdit) group = NULL;
  g_autofree char *label = NULL;
  double values[BL_ADDED_MASS_N_VALUES];

  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (import != NULL, NULL);

  if (import->link == NULL || !import->has_values)
    {
      g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_INVALID_VALUE,
                   "the %s plugin on line %d gives no added mass for a link of the document",
                   bl_added_mass_source_to_string (import->source), import->line);
      return NULL;
    }

  if (migrate)
    switch (bl_added_mass_import_get_plugin_state (self, import))
      {
      case BL_PLUGIN_ADDED_MASS_ACTIVE:
        break;
      case BL_PLUGIN_ADDED_MASS_OFF:
        g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_INVALID_VALUE,
                     "the Hydrodynamics plugin on line %d has no added-mass term to turn off",
                     import->line);
        return NULL;
      case BL_PLUGIN_ADDED_MASS_INCLUDED:
        g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_NOT_EDITABLE,
                     "the Hydrodynamics plugin is in the included file %s; turn its added mass "
                     "off there", import->file);
        return NULL;
      case BL_PLUGIN_ADDED_MASS_CLASSIC:
      default:
        g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_INVALID_VALUE,
                     "%s is a Gazebo classic plugin: Gazebo classic ignores <fluid_added_mass>, "
                     "so the plugin's added mass is the only one applied there, and gz-sim does "
                     "not load it; there is nothing to turn off and nothing is counted twice",
                     bl_added_mass_source_to_string (import->source));
        return NULL;
      }

  memcpy (values, import->values, sizeof values);
  bl_number_clean_noise (values, BL_ADDED_MASS_N_VALUES, 0.0);

  label = g_strdup_printf (migrate ? "Move the added mass of %s from the %s plugin"
                                   : "Import the added mass of %s from the %s plugin",
                           import->link->scoped_name, bl_added_mass_source_to_string (import->source));
  group = bl_edit_new_group (self, label);
  /* An absent value is 0: only the non-zero ones are written, and the
   * link's own non-zero ones set to 0. */
  for (guint k = 0; k < BL_ADDED_MASS_N_VALUES; k++)
    {
      g_autoptr(BlEdit) one = NULL;

      if (values[k] == 0.0 && !(import->link->has_added_mass && import->link->added_mass[k] != 0.0))
        continue;
      one = bl_edit_new_added_mass (self, import->link, k, values[k]);
      bl_edit_group_add (group, one);
    }
  if (migrate)
    {
      g_autoptr(BlEdit) off = bl_edit_new_plugin_added_mass_off (self, import->link, import->node);

      bl_edit_group_add (group, off);
    }
  return g_steal_pointer (&group);
}
