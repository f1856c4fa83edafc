/* bl-fluid-world.c: the world and its plugins as gz-sim reads them, for
 * the fluid files: which plugin a <plugin> is, its numbers, and the
 * world's physics engine.  Plain XML: no document. */
#include "config.h"

#include <string.h>

#include "bl-added-mass.h"
#include "bl-fluid-world-private.h"
#include "bl-number.h"
#include "bl-xml-private.h"

/* The element's text, stripped; never NULL. */
char *
bl_fluid_node_text (xmlNode *node)
{
  return g_strstrip (bl_xml_dup_text (node));
}

gboolean
bl_fluid_child_true (xmlNode    *parent,
            const char *name)
{
  xmlNode *child = bl_xml_first_child (parent, name);
  g_autofree char *text = NULL;

  if (child == NULL)
    return FALSE;
  text = bl_fluid_node_text (child);
  return g_ascii_strcasecmp (text, "true") == 0 || strcmp (text, "1") == 0;
}

/* Lower-case "filename name" of a <plugin>, for matching. */
char *
bl_fluid_plugin_id (xmlNode *plugin)
{
  g_autofree char *filename = bl_xml_dup_attribute (plugin, "filename");
  g_autofree char *name = bl_xml_dup_attribute (plugin, "name");
  g_autofree char *joined = g_strconcat (filename != NULL ? filename : "", " ",
                                         name != NULL ? name : "", NULL);

  return g_ascii_strdown (joined, -1);
}

gboolean
bl_fluid_is_hydrodynamics (xmlNode *plugin)
{
  g_autofree char *id = bl_fluid_plugin_id (plugin);

  return strstr (id, "hydrodynamics") != NULL && strstr (id, "uuv") == NULL;
}

/* gz-sim's Buoyancy system (not BuoyancyEngine, a different one). */
gboolean
bl_fluid_is_buoyancy_system (xmlNode *plugin)
{
  g_autofree char *filename = bl_xml_dup_attribute (plugin, "filename");
  g_autofree char *name = bl_xml_dup_attribute (plugin, "name");
  g_autofree char *lower_file = g_ascii_strdown (filename != NULL ? filename : "", -1);
  g_autofree char *lower_name = g_ascii_strdown (name != NULL ? name : "", -1);

  return strstr (lower_file, "buoyancy-system") != NULL || g_str_has_suffix (lower_name, "systems::buoyancy");
}

static gboolean
is_physics_system (xmlNode *plugin)
{
  g_autofree char *id = bl_fluid_plugin_id (plugin);

  return strstr (id, "physics-system") != NULL || strstr (id, "systems::physics") != NULL;
}

char *
bl_fluid_world_dup_physics_engine (xmlNode *world,
                                   int     *line)
{
  xmlNode *physics;
  g_autofree char *type = NULL;

  if (line != NULL)
    *line = 0;
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
          g_autofree char *text = bl_fluid_node_text (filename);

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

/* OUT's density from ELEMENT, a density element; FALSE (UNREADABLE, the
 * text kept) when it is none. */
static gboolean
read_world_density (xmlNode          *element,
                    BlWorldFluidKind  kind,
                    BlWorldFluid     *out)
{
  g_autofree char *text = bl_fluid_node_text (element);
  double density;

  out->line = bl_xml_get_line (element);
  if (bl_number_parse (text, &density) &&
      density >= BL_FLUID_DENSITY_MIN && density <= BL_FLUID_DENSITY_MAX)
    {
      out->kind = kind;
      out->density = density;
      return TRUE;
    }
  out->kind = BL_WORLD_FLUID_UNREADABLE;
  out->text = g_steal_pointer (&text);
  return FALSE;
}

xmlNode *
bl_fluid_buoyancy_graded (xmlNode *system)
{
  if (bl_xml_first_child (system, "uniform_fluid_density") != NULL)
    return NULL;
  return bl_xml_first_child (system, "graded_buoyancy");
}

gboolean
bl_fluid_world_read_fluid (xmlNode      *world,
                           BlWorldFluid *out)
{
  xmlNode *system = NULL, *uniform, *graded, *deepest = NULL;

  *out = (BlWorldFluid) { BL_WORLD_FLUID_NONE, 0.0, 0, NULL };
  for (xmlNode *n = world != NULL ? world->children : NULL; n != NULL && system == NULL; n = n->next)
    if (bl_xml_is_element (n, "plugin") && bl_fluid_is_buoyancy_system (n))
      system = n;
  if (system == NULL)
    return FALSE;

  out->line = bl_xml_get_line (system);
  uniform = bl_xml_first_child (system, "uniform_fluid_density");
  if (uniform != NULL)
    return read_world_density (uniform, BL_WORLD_FLUID_UNIFORM, out);

  graded = bl_fluid_buoyancy_graded (system);
  if (graded != NULL)
    {
      /* gz-sim reads every <default_density>: the last one stays */
      for (xmlNode *n = graded->children; n != NULL; n = n->next)
        if (bl_xml_is_element (n, "default_density"))
          deepest = n;
      if (deepest != NULL)
        return read_world_density (deepest, BL_WORLD_FLUID_GRADED, out);
      out->kind = BL_WORLD_FLUID_GRADED;
    }
  else
    out->kind = BL_WORLD_FLUID_GZ_DEFAULT;
  out->density = BL_FLUID_DENSITY_FRESH_WATER; /* gz-sim's fluidDensity{1000} */
  return TRUE;
}

void
bl_world_fluid_clear (BlWorldFluid *fluid)
{
  g_clear_pointer (&fluid->text, g_free);
}

/* The first child element of each name whose text is one number, as
 * names and values. */
void
bl_fluid_collect_numbers (xmlNode   *parent,
                          GPtrArray *names,
                          GArray    *values)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (xmlNode *n = parent != NULL ? parent->children : NULL; n != NULL; n = n->next)
    {
      g_autofree char *text = NULL;
      double v;

      if (!bl_xml_is_element (n, NULL) || bl_xml_is_left_out (n) || !g_hash_table_add (seen, (gpointer) n->name))
        continue;
      text = bl_fluid_node_text (n);
      if (bl_number_parse (text, &v))
        {
          g_ptr_array_add (names, (gpointer) n->name);
          g_array_append_val (values, v);
        }
    }
}
