/* bl-document-private.h: internals shared by the loader, edits, export and the fluid checks. */
#pragma once

#include "bl-document.h"
#include "bl-source-map.h"

G_BEGIN_DECLS

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
