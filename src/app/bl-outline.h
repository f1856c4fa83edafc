/* bl-outline.h: the searchable tree of models, links and collisions. */
#pragma once

#include <gtk/gtk.h>

#include "bl-document.h"

G_BEGIN_DECLS

#define BL_TYPE_OUTLINE (bl_outline_get_type ())
G_DECLARE_FINAL_TYPE (BlOutline, bl_outline, BL, OUTLINE, GtkWidget)

GtkWidget  *bl_outline_new               (void);
void        bl_outline_set_document      (BlOutline  *self,
                                          BlDocument *document);
BlDocument *bl_outline_get_document      (BlOutline  *self);
/* The selection is the properties "selected-link" (read-write),
 * "selected-model" and "selected-collision" (read-only), each a pointer
 * notified only when it changes, and the matching signals ::link-selected,
 * ::model-selected and ::collision-selected, emitted after the notify.
 * Widgets that show the selection bind to the properties.  A row
 * activated (double-click, Enter) is selected and framed in the 3D view
 * (the action view.fit-selection of the window). */

/* The link of the selected row (a collision row gives its link), or NULL. */
BlLink     *bl_outline_get_selected_link (BlOutline  *self);
/* The collision of the selected row when it is a collision row, or NULL
 * (::collision-selected tells of a change). */
BlCollision *bl_outline_get_selected_collision (BlOutline *self);
/* The model of the selected row when it is a model row, or NULL. */
BlModel    *bl_outline_get_selected_model (BlOutline *self);
/* Selects the link's row, expanding its models; NULL clears the selection.
 * Notifies "selected-link" and emits ::link-selected only when the
 * selected link changes. */
void        bl_outline_select_link       (BlOutline  *self,
                                          BlLink     *link);

G_END_DECLS
