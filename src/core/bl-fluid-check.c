/* bl-fluid-check.c: the fluid checks of one link after its computation:
 * A7 (a gz-sim Hydrodynamics plugin that applies added mass too), A8 (a
 * physics engine other than dartsim) and what gz-sim's Buoyancy system
 * would compute instead (gz-buoyancy). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-diagnostic.h"
#include "bl-fluid-check-private.h"
#include "bl-fluid-world-private.h"
#include "bl-number.h"
#include "bl-xml-private.h"

static gboolean
engine_is_dart (const char *engine)
{
  g_autofree char *lower = g_ascii_strdown (engine, -1);

  return strstr (lower, "dart") != NULL;
}

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

  bl_fluid_collect_numbers (plugin, names, values);
  finding = bl_added_mass_check_plugin ((const char * const *) names->pdata,
                                        (const double *) values->data, values->len,
                                        bl_fluid_child_true (plugin, "disable_added_mass"),
                                        link->has_added_mass);
  if (finding != NULL)
    bl_diagnostics_add (link->diagnostics, finding->severity, finding->id, link->file,
                        line, element, "%s (plugin on line %d)", finding->message,
                        bl_xml_get_line (plugin));
}

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
  char       *engine;           /* bl_fluid_world_dup_physics_engine */
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

/* PLUGIN, a <plugin> child of SCOPE_NODE, when it is a Hydrodynamics
 * plugin naming a link. */
static void
index_hydrodynamics (FluidIndex *index,
                     xmlNode    *scope_node,
                     const char *scope,
                     xmlNode    *plugin)
{
  g_autofree char *link_name = NULL;
  ScopedPlugin entry = { scope_node, plugin };
  xmlNode *link_name_node;
  char *full;
  GArray *plugins;

  if (!bl_fluid_is_hydrodynamics (plugin))
    return;
  link_name_node = bl_xml_first_child (plugin, "link_name");
  if (link_name_node == NULL)
    return;
  link_name = bl_fluid_node_text (link_name_node);
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

/* A model's plugins as the reader found them (BlModel.plugins): its
 * element's children are not walked again (a model may have a great many
 * links among them). */
static void
index_model (FluidIndex *index,
             BlModel    *model)
{
  for (guint i = 0; model->plugins != NULL && i < model->plugins->len; i++)
    index_hydrodynamics (index, model->node, model->scoped_name, g_ptr_array_index (model->plugins, i));
  for (guint i = 0; i < model->models->len; i++)
    index_model (index, g_ptr_array_index (model->models, i));
}

/* The index kept on OWNER (the document), built on first use from its
 * MODELS and WORLD: one walk of every scope's children instead of one per
 * link (a world may hold a great many models, a model a great many
 * links).  It holds plugin elements, not what they say: a check reads a
 * plugin's terms when it runs. */
static FluidIndex *
fluid_index (GObject   *owner,
             GPtrArray *models,
             xmlNode   *world)
{
  GQuark quark = bl_fluid_index_quark ();
  FluidIndex *index = g_object_get_qdata (owner, quark);

  if (index != NULL)
    return index;

  index = g_new0 (FluidIndex, 1);
  index->hydrodynamics = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify) g_array_unref);
  for (guint i = 0; i < models->len; i++)
    index_model (index, g_ptr_array_index (models, i));

  if (world != NULL)
    {
      for (xmlNode *n = world->children; n != NULL; n = n->next)
        {
          if (!bl_xml_is_element (n, "plugin"))
            continue;
          index_hydrodynamics (index, world, NULL, n);
          if (index->buoyancy_system == NULL && bl_fluid_is_buoyancy_system (n))
            index->buoyancy_system = n;
        }
    }
  index->engine = bl_fluid_world_dup_physics_engine (world, &index->engine_line);

  g_object_set_qdata_full (owner, quark, index, (GDestroyNotify) fluid_index_free);
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
      text = g_strstrip (bl_fluid_node_text (n));
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
check_gz_buoyancy (GObject   *owner,
                   GPtrArray *models,
                   xmlNode   *world,
                   BlLink    *link)
{
  const BlMassProperties *props = &link->props;
  xmlNode *system = NULL;
  BlVec3 moment = BL_VEC3_ZERO, center = BL_VEC3_ZERO;
  double volume = 0.0, scale;
  gboolean scaled_mesh = FALSE;

  /* a static model never floats: nothing to compare */
  if (!(props->volume > 0.0) || link->model->is_static)
    return;
  system = fluid_index (owner, models, world)->buoyancy_system;
  /* the graded mode slices shapes by fluid layers: another computation */
  if (system == NULL || bl_fluid_buoyancy_graded (system) != NULL || !buoyancy_enabled_for (system, link))
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
bl_fluid_check_link (GObject   *owner,
                     GPtrArray *models,
                     xmlNode   *world,
                     BlLink    *link)
{
  g_autofree char *element = NULL;
  FluidIndex *index;
  GArray *plugins;
  int line;

  g_return_if_fail (G_IS_OBJECT (owner));
  g_return_if_fail (models != NULL);
  g_return_if_fail (link != NULL);

  check_gz_buoyancy (owner, models, world, link);
  if (!link->has_added_mass)
    return;

  index = fluid_index (owner, models, world);
  line = bl_xml_get_line (link->added_mass_node != NULL ? link->added_mass_node : link->node);

  /* A7: the plugin sits in the link's model, an enclosing one or the
   * world; reported in that order. */
  plugins = g_hash_table_lookup (index->hydrodynamics, link->scoped_name);
  if (plugins != NULL)
    {
      element = g_strconcat (link->scoped_name, "/inertial/fluid_added_mass", NULL);
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
    {
      if (element == NULL)
        element = g_strconcat (link->scoped_name, "/inertial/fluid_added_mass", NULL);
      bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "A8", link->file, line, element,
                          "the world's physics engine is “%s” (line %d): only gz-physics dartsim "
                          "applies fluid_added_mass; other engines ignore it",
                          index->engine, index->engine_line);
    }
}

void
bl_fluid_check_world (xmlNode    *world,
                      const char *path,
                      GPtrArray  *diagnostics)
{
  BlWorldFluid fluid;

  if (!bl_fluid_world_read_fluid (world, &fluid) && fluid.kind == BL_WORLD_FLUID_UNREADABLE)
    bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "number", path, fluid.line, "world/plugin",
                        "the fluid density of gz-sim's Buoyancy system holds “%s”, which is no density "
                        "from %g to %g kg/m³: the buoyancy report takes the default fluid instead",
                        fluid.text, BL_FLUID_DENSITY_MIN, BL_FLUID_DENSITY_MAX);
  bl_world_fluid_clear (&fluid);
}
