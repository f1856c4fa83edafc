/* bl-model-private.h: freeing the model tree, for the document that owns it. */
#pragma once

#include "bl-model.h"

G_BEGIN_DECLS

/* Frees the model, its strings and its nested models, and its links by
 * the free function its links array was made with (bl-sdf-elements.c:
 * what the document's arena does not hold of them). */
void bl_model_free     (BlModel     *model);

G_END_DECLS
