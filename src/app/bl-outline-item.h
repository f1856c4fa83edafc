/* bl-outline-item.h: one row of the model outline: a model, a link or a collision. */
#pragma once

#include <gio/gio.h>

#include "bl-model.h"

G_BEGIN_DECLS

typedef enum
{
  BL_OUTLINE_ITEM_MODEL,
  BL_OUTLINE_ITEM_LINK,
  BL_OUTLINE_ITEM_COLLISION,
} BlOutlineItemKind;

#define BL_TYPE_OUTLINE_ITEM (bl_outline_item_get_type ())
G_DECLARE_FINAL_TYPE (BlOutlineItem, bl_outline_item, BL, OUTLINE_ITEM, GObject)

/* Builds the item; the children of models and links are made when first
 * asked for (bl_outline_item_get_children).  Every link item made under
 * it enters LINK_INDEX (BlLink* → BlOutlineItem*, borrowed; may be NULL),
 * which must be emptied before the item is dropped. */
BlOutlineItem     *bl_outline_item_new_model     (BlModel       *model,
                                                  GHashTable    *link_index);
BlOutlineItem     *bl_outline_item_new_link      (BlLink        *link,
                                                  GHashTable    *link_index);
BlOutlineItem     *bl_outline_item_new_collision (BlCollision   *collision);
/* The collision items of LINK, each made when first asked for. */
GListModel        *bl_outline_item_new_collisions (BlLink       *link);

BlOutlineItemKind  bl_outline_item_get_kind      (BlOutlineItem *self);
const char        *bl_outline_item_get_name      (BlOutlineItem *self);
/* The name cut to BL_DISPLAY_NAME_MAX characters, for labels. */
const char        *bl_outline_item_get_label     (BlOutlineItem *self);
const char        *bl_outline_item_get_subtitle  (BlOutlineItem *self);
const char        *bl_outline_item_get_icon_name (BlOutlineItem *self);
const char        *bl_outline_item_get_tooltip   (BlOutlineItem *self);
/* CSS classes for the status icon: "bl-status-icon", plus "error" or
 * "warning" by the worst problem of the link (the status-classes property). */
const char * const *bl_outline_item_get_status_classes (BlOutlineItem *self);
/* The link of a link row, or the link that owns a collision; NULL for models. */
BlLink            *bl_outline_item_get_link      (BlOutlineItem *self);
/* The model of a model row, else NULL. */
BlModel           *bl_outline_item_get_model     (BlOutlineItem *self);
/* The collision of a collision row, else NULL. */
BlCollision       *bl_outline_item_get_collision (BlOutlineItem *self);
/* Children (a GListModel of BlOutlineItem, each made on first demand);
 * NULL for collisions. */
GListModel        *bl_outline_item_get_children  (BlOutlineItem *self);
/* TRUE when the name of this item or of any descendant contains `needle`
 * (already case-folded); an empty needle matches everything. */
gboolean           bl_outline_item_matches       (BlOutlineItem *self,
                                                  const char    *needle);
/* Re-reads the link's state (validity, diagnostics) after ::link-changed;
 * notifies icon-name and tooltip when they change. */
void               bl_outline_item_update        (BlOutlineItem *self);

G_END_DECLS
