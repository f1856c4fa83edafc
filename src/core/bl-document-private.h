/* bl-document-private.h: internals shared by the loader and the fluid checks. */
#pragma once

#include "bl-document.h"

G_BEGIN_DECLS

/* The fluid checks that need the document (bl-fluid.c): A7, a gz-sim
 * Hydrodynamics plugin with active added-mass terms on the same link, and
 * A8, a world engine other than dartsim.  Run after the computation.
 * They find the world's plugins and engine, and which link each
 * Hydrodynamics plugin names, once per document (the first time they run),
 * and read a plugin's terms each time they run: edits may change what a
 * plugin says, but not add, remove or rename plugins, nor the engine. */
void bl_document_check_link_fluid (BlDocument *self,
                                   BlLink     *link);

/* The document's first <world> element, or NULL (found once, as it loads:
 * a file may hold a great many other elements at the top). */
xmlNode *bl_document_get_world (BlDocument *self);

void bl_link_free      (BlLink      *link);
void bl_collision_free (BlCollision *collision);
void bl_model_free     (BlModel     *model);

G_END_DECLS
