/* bl-edit-private.h: edits of the tree alone, for the core's own use.
 *
 * bl_edit_apply_tree and bl_edit_revert_tree are bl_edit_apply and
 * bl_edit_revert without reading the edited links again: the tree
 * changes, and changes back exactly, while the document's links, their
 * values and diagnostics stay as they were and no ::link-changed is
 * emitted.  Between the two nothing may read the links from the tree:
 * for an edit that is written down and undone at once (a bake recorded
 * into the bytes it saves, bl-export.c), never one the document keeps. */
#pragma once

#include "bl-edit.h"

G_BEGIN_DECLS

gboolean bl_edit_apply_tree  (BlEdit  *edit,
                              GError **error);
void     bl_edit_revert_tree (BlEdit  *edit);

G_END_DECLS
