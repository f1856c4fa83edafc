/* bl-fluid-check-private.h: the fluid checks the document runs on each
 * link after its computation (bl-fluid-check.c). */
#pragma once

#include <glib-object.h>
#include <libxml/tree.h>

#include "bl-model.h"

G_BEGIN_DECLS

/* A7, a gz-sim Hydrodynamics plugin with active added-mass terms on the
 * same link; A8, a world engine other than dartsim; and gz-buoyancy, where
 * gz-sim's Buoyancy system would displace another volume or centre.  Run
 * after the link's computation; diagnostics go to the link's list.
 *
 * The world's plugins and engine, and which link each Hydrodynamics
 * plugin of MODELS (the document's models, BlModel*) and of WORLD (the
 * document's <world>, nullable) names, are found once: the first time the
 * checks run for OWNER (the document), kept on it until it is finalized.
 * A plugin's terms are read each time they run: edits may change what a
 * plugin says, but not add, remove or rename plugins, nor the engine. */
void bl_fluid_check_link (GObject   *owner,
                          GPtrArray *models,
                          xmlNode   *world,
                          BlLink    *link);

/* A density of WORLD's (nullable) Buoyancy system that is none Ballast
 * can take (bl_fluid_get_world_fluid: BL_WORLD_FLUID_UNREADABLE): a
 * warning on its line in DIAGNOSTICS, PATH the world's file.  Run once
 * after the load. */
void bl_fluid_check_world (xmlNode    *world,
                           const char *path,
                           GPtrArray  *diagnostics);

G_END_DECLS
