/* bl-lazy-list.h: a GListModel of a fixed number of items, each made on
 * first demand and kept: the outline's children and the inspector's
 * collisions, so that a link with 100,000 collisions costs nothing until
 * its rows are shown. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_TYPE_LAZY_LIST (bl_lazy_list_get_type ())
G_DECLARE_FINAL_TYPE (BlLazyList, bl_lazy_list, BL, LAZY_LIST, GObject)

/* Makes item POSITION (a new reference to an ITEM_TYPE instance). */
typedef gpointer (*BlLazyListMake) (guint    position,
                                    gpointer user_data);

/* N_ITEMS items of ITEM_TYPE, item i made by MAKE (i, USER_DATA) the first
 * time it is asked for; DESTROY frees USER_DATA with the list. */
BlLazyList *bl_lazy_list_new    (GType           item_type,
                                 guint           n_items,
                                 BlLazyListMake  make,
                                 gpointer        user_data,
                                 GDestroyNotify  destroy);
/* Item POSITION if it was made already (borrowed), else NULL: for updates
 * that need not touch what nobody has seen. */
gpointer    bl_lazy_list_peek   (BlLazyList     *self,
                                 guint           position);

G_END_DECLS
