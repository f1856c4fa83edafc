/* bl-document-private.h: internals shared by the loader and the fluid side. */
#pragma once

#include "bl-document.h"

G_BEGIN_DECLS

/* The document's first <world> element, or NULL (found once, as it loads:
 * a file may hold a great many other elements at the top). */
xmlNode *bl_document_get_world (BlDocument *self);

void bl_link_free      (BlLink      *link);
void bl_collision_free (BlCollision *collision);
void bl_model_free     (BlModel     *model);

G_END_DECLS
