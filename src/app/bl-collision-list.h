/* bl-collision-list.h: the inspector's list of a link's collisions: for
 * each, its name, geometry type, density field and the density and mass it
 * uses.  It drives a GtkListView and the card around it (both the
 * inspector's, from its template); the list view makes only the rows on
 * screen and reuses them as it scrolls, so a link of 100,000 collisions
 * costs a screenful of widgets. */
#pragma once

#include <gtk/gtk.h>

#include "bl-document.h"
#include "bl-number-field.h"

G_BEGIN_DECLS

#define BL_TYPE_COLLISION_LIST (bl_collision_list_get_type ())
G_DECLARE_FINAL_TYPE (BlCollisionList, bl_collision_list, BL, COLLISION_LIST, GObject)

/* Drives LIST (held, and given its factory), which it moves between CARD
 * (a short list shows whole) and SCROLLER (a long one scrolls on its
 * own); HEADING and CARD are hidden for a link without collisions.
 * CARD, SCROLLER and HEADING are borrowed: the owner drops the list
 * before them (the inspector in its dispose, before its template's).
 * ::density-edit (BlCollision *collision, BlNumberField *field,
 * BlNumberFieldEdit how) says the user edited a collision's density; the
 * list's own updates of its fields are not edits. */
BlCollisionList *bl_collision_list_new    (GtkListView       *list,
                                           GtkBox            *card,
                                           GtkScrolledWindow *scroller,
                                           GtkWidget         *heading);
/* Shows LINK's collisions, from the top.  DOCUMENT (whose read-only
 * reason the fields give) and LINK are borrowed: they must outlive the
 * list's use of them, until bl_collision_list_clear or the next show. */
void             bl_collision_list_show   (BlCollisionList   *self,
                                           BlDocument        *document,
                                           BlLink            *link);
/* Sets the rows on screen again from their collisions and the link (after
 * an edit of the link). */
void             bl_collision_list_update (BlCollisionList   *self);
/* Forgets the collisions of the link shown last (their document may go):
 * rows still bound to them are bound again when the list view next lays
 * them out, not necessarily now. */
void             bl_collision_list_clear  (BlCollisionList   *self);

G_END_DECLS
