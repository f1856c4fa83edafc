/* bl-model-private.h: freeing the model tree, for the document that owns it. */
#pragma once

#include "bl-model.h"

G_BEGIN_DECLS

/* Each frees the element, its strings, its children and its diagnostics
 * (a link its collisions, a model its links and nested models). */
void bl_link_free      (BlLink      *link);
void bl_collision_free (BlCollision *collision);
void bl_model_free     (BlModel     *model);

G_END_DECLS
