/* bl-fluid.c: a document's fluid side — gravity, engine, plugins, estimates, buoyancy. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-document-private.h"
#include "bl-fluid.h"
#include "bl-xml-private.h"
#include "bl-number.h"

/* ------------------------------------------------------------------------ */
/* XML helpers                                                               */

/* The element's text, stripped; never NULL. */
static char *
node_text (xmlNode *node)
{
  return g_strstrip (bl_xml_dup_text (node));
}

static gboolean
child_number (xmlNode    *parent,
              const char *name,
              double     *value)
{
  xmlNode *child = bl_xml_first_child (parent, name);
  g_autofree char *text = NULL;

  if (child == NULL)
    return FALSE;
  text = node_text (child);
  return bl_number_parse (text, value);
}

static gboolean
child_true (xmlNode    *parent,
            const char *name)
{
  xmlNode *child = bl_xml_first_child (parent, name);
  g_autofree char *text = NULL;

  if (child == NULL)
    return FALSE;
  text = node_text (child);
  return g_ascii_strcasecmp (text, "true") == 0 || strcmp (text, "1") == 0;
}

static xmlNode *
world_node (BlDocument *self)
{
  return bl_document_get_world (self);
}

/* Lower-case "filename name" of a <plugin>, for matching. */
static char *
plugin_id (xmlNode *plugin)
{
  g_autofree char *filename = bl_xml_dup_attribute (plugin, "filename");
  g_autofree char *name = bl_xml_dup_attribute (plugin, "name");
  g_autofree char *joined = g_strconcat (filename != NULL ? filename : "", " ",
                                         name != NULL ? name : "", NULL);

  return g_ascii_strdown (joined, -1);
}

/* ------------------------------------------------------------------------ */
/* World                                                                     */

BlVec3
bl_document_get_gravity (BlDocument *self,
                         int        *line)
{
  xmlNode *world, *gravity;
  double v[3];

  if (line != NULL)
    *line = 0;
  g_return_val_if_fail (BL_IS_DOCUMENT (self), bl_vec3 (0.0, 0.0, -BL_STANDARD_GRAVITY));

  world = world_node (self);
  if (world == NULL)
    return bl_vec3 (0.0, 0.0, -BL_STANDARD_GRAVITY);

  gravity = bl_xml_first_child (world, "gravity");
  if (gravity != NULL)
    {
      g_autofree char *text = node_text (gravity);

      if (bl_number_parse_vector (text, v, 3))
        {
          if (line != NULL)
            *line = bl_xml_get_line (gravity);
          return bl_vec3 (v[0], v[1], v[2]);
        }
    }

  return bl_vec3 (0.0, 0.0, -9.8); /* the SDF default of //world/gravity */
}

static gboolean
is_physics_system (xmlNode *plugin)
{
  g_autofree char *id = plugin_id (plugin);

  return strstr (id, "physics-system") != NULL || strstr (id, "systems::physics") != NULL;
}

char *
bl_document_dup_physics_engine (BlDocument *self,
                                int        *line)
{
  xmlNode *world, *physics;
  g_autofree char *type = NULL;

  if (line != NULL)
    *line = 0;
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);

  world = world_node (self);
  if (world == NULL)
    return NULL;

  for (xmlNode *plugin = world->children; plugin != NULL; plugin = plugin->next)
    {
      xmlNode *engine, *filename;

      if (!bl_xml_is_element (plugin, "plugin") || !is_physics_system (plugin))
        continue;

      engine = bl_xml_first_child (plugin, "engine");
      filename = bl_xml_first_child (engine, "filename");
      if (line != NULL)
        *line = bl_xml_get_line (filename != NULL ? filename : plugin);
      if (filename != NULL)
        {
          g_autofree char *text = node_text (filename);

          if (*text != '\0')
            return g_steal_pointer (&text);
        }
      return g_strdup ("dartsim"); /* gz-sim's default engine */
    }

  physics = bl_xml_first_child (world, "physics");
  type = physics != NULL ? bl_xml_dup_attribute (physics, "type") : NULL;
  /* "ignored" is what gz-sim worlds write; it names no engine. */
  if (type == NULL || *type == '\0' || strcmp (type, "ignored") == 0)
    return NULL;
  if (line != NULL)
    *line = bl_xml_get_line (physics);
  return g_steal_pointer (&type);
}

static gboolean
engine_is_dart (const char *engine)
{
  g_autofree char *lower = g_ascii_strdown (engine, -1);

  return strstr (lower, "dart") != NULL;
}

/* ------------------------------------------------------------------------ */
/* Plugins                                                                   */

static gboolean
is_hydrodynamics (xmlNode *plugin)
{
  g_autofree char *id = plugin_id (plugin);

  return strstr (id, "hydrodynamics") != NULL && strstr (id, "uuv") == NULL;
}

/* osrf/lrauv's own plugin: filename="HydrodynamicsPlugin"
 * name="tethys::HydrodynamicsPlugin" (gz-sim's is
 * gz-sim-hydrodynamics-system, gz::sim::systems::Hydrodynamics). */
static gboolean
is_lrauv_hydrodynamics (xmlNode *plugin)
{
  g_autofree char *id = plugin_id (plugin);

  return strstr (id, "hydrodynamicsplugin") != NULL;
}

static gboolean
is_dsros (xmlNode *plugin)
{
  g_autofree char *id = plugin_id (plugin);

  return strstr (id, "dsros_hydro") != NULL;
}

static gboolean
is_uuv (xmlNode *plugin)
{
  g_autofree char *id = plugin_id (plugin);

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

/* Every child element whose text is one number, as names and values. */
static void
collect_numbers (xmlNode   *parent,
                 GPtrArray *names,
                 GArray    *values)
{
  for (xmlNode *n = parent != NULL ? parent->children : NULL; n != NULL; n = n->next)
    {
      g_autofree char *text = NULL;
      double v;

      if (!bl_xml_is_element (n, NULL))
        continue;
      text = node_text (n);
      if (bl_number_parse (text, &v))
        {
          g_ptr_array_add (names, (gpointer) n->name);
          g_array_append_val (values, v);
        }
    }
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
    import->link_name = node_text (link_name);
  import->link = find_scoped_link (self, scope != NULL ? scope->scoped_name : NULL, import->link_name);
  import->disable_added_mass = !lrauv && child_true (plugin, "disable_added_mass");

  collect_numbers (plugin, names, values);
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

  collect_numbers (added, names, values);
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

      text = node_text (added);
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
      else if (is_hydrodynamics (plugin))
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
bl_document_find_added_mass_imports (BlDocument *self)
{
  GPtrArray *out;
  GPtrArray *models;
  xmlNode *world;

  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);

  out = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_added_mass_import_free);
  models = bl_document_get_models (self);
  for (guint i = 0; i < models->len; i++)
    scan_model (self, g_ptr_array_index (models, i), out);

  world = world_node (self);
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

  collect_numbers (import->node, names, values);
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

/* ------------------------------------------------------------------------ */
/* A7 and A8 on one link (called by the document after each computation)    */

/* A7 for one Hydrodynamics plugin that names `link`. */
static void
check_plugin (BlLink     *link,
              xmlNode    *plugin,
              const char *element,
              int         line)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(BlAddedMassFinding) finding = NULL;

  collect_numbers (plugin, names, values);
  finding = bl_added_mass_check_plugin ((const char * const *) names->pdata,
                                        (const double *) values->data, values->len,
                                        child_true (plugin, "disable_added_mass"),
                                        link->has_added_mass);
  if (finding != NULL)
    bl_diagnostics_add (link->diagnostics, finding->severity, finding->id, link->file,
                        line, element, "%s (plugin on line %d)", finding->message,
                        bl_xml_get_line (plugin));
}

/* gz-sim's Buoyancy system (not BuoyancyEngine, a different one). */
static gboolean
is_buoyancy_system (xmlNode *plugin)
{
  g_autofree char *filename = bl_xml_dup_attribute (plugin, "filename");
  g_autofree char *name = bl_xml_dup_attribute (plugin, "name");
  g_autofree char *lower_file = g_ascii_strdown (filename != NULL ? filename : "", -1);
  g_autofree char *lower_name = g_ascii_strdown (name != NULL ? name : "", -1);

  return strstr (lower_file, "buoyancy-system") != NULL || g_str_has_suffix (lower_name, "systems::buoyancy");
}

/* ------------------------------------------------------------------------ */
/* What every link's checks ask of the plugins, found once per document      */

/* A Hydrodynamics plugin and the scope (a model's element, or the world)
 * it sits in. */
typedef struct
{
  xmlNode *scope;
  xmlNode *plugin;
} ScopedPlugin;

typedef struct
{
  /* the full scoped name of the link a Hydrodynamics plugin's <link_name>
   * names → GArray of ScopedPlugin, in document order within each scope */
  GHashTable *hydrodynamics;
  xmlNode    *buoyancy_system;  /* the world's, or NULL */
  char       *engine;           /* bl_document_dup_physics_engine */
  int         engine_line;
} FluidIndex;

static void
fluid_index_free (FluidIndex *index)
{
  g_hash_table_unref (index->hydrodynamics);
  g_free (index->engine);
  g_free (index);
}

static G_DEFINE_QUARK (bl-fluid-index, bl_fluid_index)

static void
index_hydrodynamics (FluidIndex *index,
                     xmlNode    *scope_node,
                     const char *scope)
{
  for (xmlNode *plugin = scope_node->children; plugin != NULL; plugin = plugin->next)
    {
      g_autofree char *link_name = NULL;
      ScopedPlugin entry = { scope_node, plugin };
      xmlNode *link_name_node;
      char *full;
      GArray *plugins;

      if (!bl_xml_is_element (plugin, "plugin") || !is_hydrodynamics (plugin))
        continue;
      link_name_node = bl_xml_first_child (plugin, "link_name");
      if (link_name_node == NULL)
        continue;
      link_name = node_text (link_name_node);
      full = scope != NULL ? g_strconcat (scope, "::", link_name, NULL) : g_steal_pointer (&link_name);
      plugins = g_hash_table_lookup (index->hydrodynamics, full);
      if (plugins == NULL)
        {
          plugins = g_array_new (FALSE, FALSE, sizeof (ScopedPlugin));
          g_hash_table_insert (index->hydrodynamics, full, plugins);
        }
      else
        {
          g_free (full);
        }
      g_array_append_val (plugins, entry);
    }
}

static void
index_model (FluidIndex *index,
             BlModel    *model)
{
  index_hydrodynamics (index, model->node, model->scoped_name);
  for (guint i = 0; i < model->models->len; i++)
    index_model (index, g_ptr_array_index (model->models, i));
}

/* The document's index, built on first use: one walk of every scope's
 * children instead of one per link (a world may hold a great many models,
 * a model a great many links).  It holds plugin elements, not what they
 * say: a check reads a plugin's terms when it runs. */
static FluidIndex *
fluid_index (BlDocument *self)
{
  GQuark quark = bl_fluid_index_quark ();
  FluidIndex *index = g_object_get_qdata (G_OBJECT (self), quark);
  GPtrArray *models;
  xmlNode *world;

  if (index != NULL)
    return index;

  index = g_new0 (FluidIndex, 1);
  index->hydrodynamics = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify) g_array_unref);
  models = bl_document_get_models (self);
  for (guint i = 0; i < models->len; i++)
    index_model (index, g_ptr_array_index (models, i));

  world = world_node (self);
  if (world != NULL)
    {
      index_hydrodynamics (index, world, NULL);
      for (xmlNode *n = world->children; n != NULL && index->buoyancy_system == NULL; n = n->next)
        if (bl_xml_is_element (n, "plugin") && is_buoyancy_system (n))
          index->buoyancy_system = n;
    }
  index->engine = bl_document_dup_physics_engine (self, &index->engine_line);

  g_object_set_qdata_full (G_OBJECT (self), quark, index, (GDestroyNotify) fluid_index_free);
  return index;
}

/* Whether the system's <enable> entries (none: every model) take LINK. */
static gboolean
buoyancy_enabled_for (xmlNode *plugin,
                      BlLink  *link)
{
  gboolean any = FALSE;

  for (xmlNode *n = plugin->children; n != NULL; n = n->next)
    {
      g_autofree char *text = NULL;

      if (!bl_xml_is_element (n, "enable"))
        continue;
      any = TRUE;
      text = g_strstrip (node_text (n));
      if (strcmp (text, link->scoped_name) == 0)
        return TRUE;
      for (BlModel *model = link->model; model != NULL; model = model->parent)
        if (strcmp (text, model->scoped_name) == 0)
          return TRUE;
    }
  return !any;
}

/* added-mass.md §7.4: gz-sim's Buoyancy system, in its uniform mode, sums
 * the same volumes but places each at its collision's origin, and takes a
 * mesh's volume without its <scale>.  Where that gives another displaced
 * volume or centre than Ballast's, an info note says what gz-sim will use. */
static void
check_gz_buoyancy (BlDocument *self,
                   BlLink     *link)
{
  const BlMassProperties *props = &link->props;
  xmlNode *system = NULL;
  BlVec3 moment = BL_VEC3_ZERO, center = BL_VEC3_ZERO;
  double volume = 0.0, scale;
  gboolean scaled_mesh = FALSE;

  /* a static model never floats: nothing to compare */
  if (!(props->volume > 0.0) || link->model->is_static)
    return;
  system = fluid_index (self)->buoyancy_system;
  /* the graded mode slices shapes by fluid layers: another computation */
  if (system == NULL || bl_xml_first_child (system, "graded_buoyancy") != NULL ||
      !buoyancy_enabled_for (system, link))
    return;

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);
      double v = collision->volume;

      if (!(v > 0.0))
        continue;
      if (collision->geometry.type == BL_GEOMETRY_MESH)
        {
          BlVec3 k = collision->geometry.scale;

          scale = fabs (k.x * k.y * k.z);
          if (scale != 1.0 && scale > 0.0)
            {
              v /= scale;
              scaled_mesh = TRUE;
            }
        }
      volume += v;
      moment = bl_vec3_add (moment, bl_vec3_scale (collision->pose.p, v));
    }
  if (!(volume > 0.0) || !isfinite (volume))
    return;
  center = bl_vec3_scale (moment, 1.0 / volume);

  {
    double length = MAX (cbrt (props->volume), bl_vec3_length (props->center_of_buoyancy));
    gboolean other_volume = fabs (volume - props->volume) > 1e-9 * props->volume;
    gboolean other_center =
      bl_vec3_length (bl_vec3_sub (center, props->center_of_buoyancy)) > 1e-9 * length;
    double c[3] = { center.x, center.y, center.z };
    double b[3] = { props->center_of_buoyancy.x, props->center_of_buoyancy.y, props->center_of_buoyancy.z };

    if (!other_volume && !other_center)
      return;

    bl_number_clean_noise (c, 3, length);
    bl_number_clean_noise (b, 3, length);
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "gz-buoyancy", link->file, link->line,
                        link->scoped_name,
                        "gz-sim's Buoyancy system (line %d) displaces %g m³ centred at (%g, %g, %g) "
                        "for this link, where Ballast finds %g m³ at (%g, %g, %g): it %s%s%s",
                        bl_xml_get_line (system), volume, c[0], c[1], c[2],
                        props->volume, b[0], b[1], b[2],
                        other_center ? "centres each collision's volume on the collision's origin" : "",
                        other_center && other_volume ? " and " : "",
                        other_volume && scaled_mesh ? "leaves a mesh's <scale> out of its volume" : "");
  }
}

void
bl_document_check_link_fluid (BlDocument *self,
                              BlLink     *link)
{
  g_autofree char *element = NULL;
  FluidIndex *index;
  GArray *plugins;
  int line;

  check_gz_buoyancy (self, link);
  if (!link->has_added_mass)
    return;

  index = fluid_index (self);
  element = g_strdup_printf ("%s/inertial/fluid_added_mass", link->scoped_name);
  line = bl_xml_get_line (link->added_mass_node != NULL ? link->added_mass_node : link->node);

  /* A7: the plugin sits in the link's model, an enclosing one or the
   * world; reported in that order. */
  plugins = g_hash_table_lookup (index->hydrodynamics, link->scoped_name);
  if (plugins != NULL)
    {
      xmlNode *world = world_node (self);

      for (BlModel *model = link->model; model != NULL; model = model->parent)
        for (guint i = 0; i < plugins->len; i++)
          if (g_array_index (plugins, ScopedPlugin, i).scope == model->node)
            check_plugin (link, g_array_index (plugins, ScopedPlugin, i).plugin, element, line);
      for (guint i = 0; world != NULL && i < plugins->len; i++)
        if (g_array_index (plugins, ScopedPlugin, i).scope == world)
          check_plugin (link, g_array_index (plugins, ScopedPlugin, i).plugin, element, line);
    }

  /* A8 */
  if (index->engine != NULL && !engine_is_dart (index->engine))
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "A8", link->file, line, element,
                        "the world's physics engine is “%s” (line %d): only gz-physics dartsim "
                        "applies fluid_added_mass; other engines ignore it",
                        index->engine, index->engine_line);
}

/* ------------------------------------------------------------------------ */
/* Estimates                                                                 */

static gboolean
estimate_collision (BlCollision         *collision,
                    double               rho,
                    BlAddedMassEstimate *est)
{
  const BlGeometry *g = &collision->geometry;

  switch (g->type)
    {
    case BL_GEOMETRY_BOX:
      return bl_added_mass_estimate_box (g->size[0], g->size[1], g->size[2], rho, est);
    case BL_GEOMETRY_SPHERE:
      return bl_added_mass_estimate_sphere (g->size[0], rho, est);
    case BL_GEOMETRY_CYLINDER:
      return bl_added_mass_estimate_cylinder (g->size[0], g->size[1], rho, est);
    case BL_GEOMETRY_CAPSULE:
      return bl_added_mass_estimate_capsule (g->size[0], g->size[1], rho, est);
    case BL_GEOMETRY_ELLIPSOID:
      return bl_added_mass_estimate_ellipsoid (g->size[0], g->size[1], g->size[2], rho, est);
    case BL_GEOMETRY_CONE:
      return bl_added_mass_estimate_cone (g->size[0], g->size[1], rho, est);
    case BL_GEOMETRY_MESH:
      if (collision->has_mesh_properties && collision->mesh_properties.volume > 0.0)
        {
          BlInertial unit = {
            collision->mesh_properties.volume,
            collision->mesh_properties.centroid,
            collision->mesh_properties.inertia,
          };

          return bl_added_mass_estimate_from_volume_inertial (&unit, rho, est);
        }
      return FALSE;
    case BL_GEOMETRY_EMPTY:
    case BL_GEOMETRY_PLANE:
    case BL_GEOMETRY_HEIGHTMAP:
    case BL_GEOMETRY_POLYLINE:
    case BL_GEOMETRY_IMAGE:
    default:
      return FALSE;
    }
}

guint
bl_link_estimate_added_mass (BlLink *link,
                             double  rho,
                             double  out[21],
                             GArray *estimates)
{
  BlMat6 sum = bl_mat6_zero ();
  guint used = 0;

  g_return_val_if_fail (link != NULL, 0);
  g_return_val_if_fail (out != NULL, 0);

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollisionEstimate item;

      memset (&item, 0, sizeof item);
      item.collision = g_ptr_array_index (link->collisions, i);
      item.ok = estimate_collision (item.collision, rho, &item.estimate);
      if (item.ok)
        {
          item.at_link = bl_added_mass_estimate_to_link (&item.estimate, item.collision->pose);
          sum = bl_mat6_add (&sum, &item.at_link);
          used++;
        }
      if (estimates != NULL)
        g_array_append_val (estimates, item);
    }

  bl_mat6_to_values (&sum, out);
  return used;
}

/* ------------------------------------------------------------------------ */
/* Buoyancy                                                                  */

void
bl_link_compute_buoyancy (BlLink     *link,
                          double      rho,
                          BlVec3      gravity_world,
                          BlBuoyancy *out)
{
  BlVec3 gravity;

  g_return_if_fail (link != NULL);
  g_return_if_fail (out != NULL);

  gravity = bl_quat_rotate (bl_quat_conjugate (link->world_pose.q), gravity_world);
  bl_buoyancy_compute (&link->props.volume, &link->props.center_of_buoyancy, 1,
                       link->props.mass, link->props.com, rho, gravity, out);
}

/* Volumes and centroids of every link of `model`, nested ones included,
 * in the model's frame.  A static model nested in one that is not (a
 * seabed terrain beside the vehicles) never floats: its volume is not the
 * model's. */
static void
collect_volumes (BlModel *model,
                 BlPose   pose,
                 GArray  *volumes,
                 GArray  *centroids)
{
  for (guint i = 0; i < model->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (model->links, i);
      BlVec3 c = bl_pose_apply (bl_pose_mul (pose, link->pose), link->props.center_of_buoyancy);

      if (!(link->props.volume > 0.0))
        continue;
      g_array_append_val (volumes, link->props.volume);
      g_array_append_val (centroids, c);
    }
  for (guint i = 0; i < model->models->len; i++)
    {
      BlModel *nested = g_ptr_array_index (model->models, i);

      if (nested->is_static && !model->is_static)
        continue;
      collect_volumes (nested, bl_pose_mul (pose, nested->pose), volumes, centroids);
    }
}

void
bl_model_compute_buoyancy (BlModel          *model,
                           const BlInertial *total,
                           double            rho,
                           BlVec3            gravity_world,
                           BlBuoyancy       *out)
{
  g_autoptr(GArray) volumes = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) centroids = g_array_new (FALSE, FALSE, sizeof (BlVec3));
  BlVec3 gravity;

  g_return_if_fail (model != NULL);
  g_return_if_fail (total != NULL);
  g_return_if_fail (out != NULL);

  collect_volumes (model, BL_POSE_IDENTITY, volumes, centroids);
  gravity = bl_quat_rotate (bl_quat_conjugate (model->world_pose.q), gravity_world);
  bl_buoyancy_compute ((const double *) volumes->data, (const BlVec3 *) centroids->data,
                       volumes->len, total->mass, total->com, rho, gravity, out);
}
