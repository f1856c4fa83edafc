/* bl-edit-history.h: the undo and redo stacks of one document's edits. */
#pragma once

#include <glib-object.h>

#include "bl-edit.h"

G_BEGIN_DECLS

#define BL_TYPE_EDIT_HISTORY (bl_edit_history_get_type ())
G_DECLARE_FINAL_TYPE (BlEditHistory, bl_edit_history, BL, EDIT_HISTORY, GObject)

BlEditHistory *bl_edit_history_new            (void);

/* Applies `edit` and pushes it.  When it sets the same field as the edit
 * on top (bl_edit_can_merge) and no merge break or save came between, the
 * two become one undo step.  Pushing drops the redo stack. */
gboolean       bl_edit_history_do             (BlEditHistory  *self,
                                               BlEdit         *edit,
                                               GError        **error);
/* Ends the current run of merging edits (a spin button lost focus). */
void           bl_edit_history_break_merge    (BlEditHistory  *self);

gboolean       bl_edit_history_can_undo       (BlEditHistory  *self);
gboolean       bl_edit_history_can_redo       (BlEditHistory  *self);
/* Labels of the step undo or redo would take, or NULL. */
const char    *bl_edit_history_get_undo_label (BlEditHistory  *self);
const char    *bl_edit_history_get_redo_label (BlEditHistory  *self);
/* FALSE when there is nothing to undo. */
gboolean       bl_edit_history_undo           (BlEditHistory  *self);
/* FALSE with an error when there is nothing to redo or it failed. */
gboolean       bl_edit_history_redo           (BlEditHistory  *self,
                                               GError        **error);

/* Marks the current state as saved. */
void           bl_edit_history_set_clean      (BlEditHistory  *self);
/* TRUE when the state differs from the last one marked clean (initially
 * the unedited document). */
gboolean       bl_edit_history_is_modified    (BlEditHistory  *self);
/* Forgets every step, keeping the current state; it becomes clean. */
void           bl_edit_history_clear          (BlEditHistory  *self);

G_END_DECLS
