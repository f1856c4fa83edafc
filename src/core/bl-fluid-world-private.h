/* bl-fluid-world-private.h: the world and its plugins as the fluid files
 * read them (bl-fluid-world.c).  Plain XML: no document. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

#include "bl-fluid-world.h"

G_BEGIN_DECLS

/* The element's text, stripped; never NULL. */
char     *bl_fluid_node_text                 (xmlNode    *node);
/* Whether PARENT's first NAME child says true ("true" in any case, or 1). */
gboolean  bl_fluid_child_true                (xmlNode    *parent,
                                              const char *name);
/* Lower-case "filename name" of a <plugin>, for matching. */
char     *bl_fluid_plugin_id                 (xmlNode    *plugin);
/* gz-sim's Hydrodynamics system (or MBARI LRAUV's HydrodynamicsPlugin),
 * not uuv_simulator's. */
gboolean  bl_fluid_is_hydrodynamics          (xmlNode    *plugin);
/* gz-sim's Buoyancy system (not BuoyancyEngine, a different one). */
gboolean  bl_fluid_is_buoyancy_system        (xmlNode    *plugin);
/* The first child element of each name of PARENT (nullable), when its
 * text is one number: its name (borrowed from the tree) into NAMES, the
 * number into VALUES.  A plugin reads a repeated parameter's first
 * (sdf::Element::Get), as the loads keep only the first. */
void      bl_fluid_collect_numbers           (xmlNode    *parent,
                                              GPtrArray  *names,
                                              GArray     *values);
/* The <graded_buoyancy> of gz-sim's Buoyancy system SYSTEM when gz-sim
 * runs it graded (it takes a <uniform_fluid_density> first), else NULL. */
xmlNode  *bl_fluid_buoyancy_graded           (xmlNode      *system);
/* The fluid of WORLD's (a <world>, nullable) Buoyancy system: see
 * bl_fluid_get_world_fluid (bl-fluid.h). */
gboolean  bl_fluid_world_read_fluid          (xmlNode      *world,
                                              BlWorldFluid *out);
/* The physics engine gz-sim would run WORLD (a <world>, nullable) with:
 * see bl_fluid_dup_physics_engine (bl-fluid.h). */
char     *bl_fluid_world_dup_physics_engine  (xmlNode    *world,
                                              int        *line);

G_END_DECLS
