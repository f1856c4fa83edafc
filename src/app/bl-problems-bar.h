/* bl-problems-bar.h: the bar above the 3D view that shows the document's own
 * problems (a failed <include>, a frame that cannot be resolved, a parse
 * error): those that belong to no link, which no inspector page shows;
 * and the meshes refused as outside the model's folders, which are their
 * links' but which the user fixes for the whole file. */
#pragma once

#include <gtk/gtk.h>

#include "bl-document.h"

G_BEGIN_DECLS

#define BL_TYPE_PROBLEMS_BAR (bl_problems_bar_get_type ())
G_DECLARE_FINAL_TYPE (BlProblemsBar, bl_problems_bar, BL, PROBLEMS_BAR, GtkWidget)

GtkWidget  *bl_problems_bar_new          (void);
/* Shows the errors and warnings of bl_document_get_diagnostics(), worst
 * first, with the first 50 refused meshes (bl_document_get_mesh_refusals())
 * after the errors; hidden when there are none.  An <include> not found in
 * any folder searched (bl_document_get_include_failures()) lists those
 * folders and offers win.add-model-path.  Includes and meshes refused by
 * the placement rule (BL_INCLUDE_REFUSED, BlMeshRefusal) name the folders
 * whose allowing would load them and offer win.allow-folders with all of
 * them (a string array); those no setting allows (special files) are
 * shown without an offer.  A new document (a reload too) shows the bar
 * again after the user closed it. */
void        bl_problems_bar_set_document (BlProblemsBar *self,
                                          BlDocument    *document);
BlDocument *bl_problems_bar_get_document (BlProblemsBar *self);
/* Whether the bar is shown: it has problems and the user did not close it. */
gboolean    bl_problems_bar_get_revealed (BlProblemsBar *self);

G_END_DECLS
