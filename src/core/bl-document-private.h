/* bl-document-private.h: internals shared by the loader, edits, export and the fluid checks. */
#pragma once

#include "bl-document.h"
#include "bl-source-map.h"

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

/* The document's source map (bl-source-map.h): made on another thread
 * right after an editable load, or here on first use, then kept.  Every
 * edit must go through it before changing the tree.  NULL with an error
 * when the file cannot be mapped losslessly. */
BlSourceMap *bl_document_get_source_map (BlDocument  *self,
                                         GError     **error);

G_END_DECLS
