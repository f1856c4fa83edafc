/* bl-collision-list.c: the inspector's list of a link's collisions, a row
 * (name, type, density field, what it uses) made only for what is on
 * screen (bl-collision-list.h). */
#include "config.h"

#include <glib/gi18n.h>

#include "bl-collision-list.h"
#include "bl-outline-item.h"

/* A row of the collisions' list: a density field and the labels beside
 * it, shown for COLLISION (NULL while the row is not bound).  The list
 * view makes only the rows on screen and reuses them as it scrolls, so
 * a link of 100,000 collisions costs a screenful of widgets. */
typedef struct
{
  BlCollision   *collision;
  GtkLabel      *name;
  GtkLabel      *type;
  BlNumberField *field;
  GtkLabel      *used;
} CollisionRow;

struct _BlCollisionList
{
  GObject            parent_instance;

  GtkListView       *list;       /* held: it moves between card and scroller */
  GtkBox            *card;
  GtkScrolledWindow *scroller;
  GtkWidget         *heading;
  GPtrArray         *rows;       /* CollisionRow*, one per row widget of the list */
  BlDocument        *document;   /* borrowed, from bl_collision_list_show */
  BlLink            *link;       /* borrowed, from bl_collision_list_show */
  gboolean           updating;   /* setting a field, not the user */
};

G_DEFINE_FINAL_TYPE (BlCollisionList, bl_collision_list, G_TYPE_OBJECT)

enum {
  DENSITY_EDIT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
on_density_edit (BlNumberField     *field,
                 BlNumberFieldEdit  how,
                 BlCollisionList   *self)
{
  BlCollision *collision = NULL;

  for (guint i = 0; i < self->rows->len; i++)
    {
      CollisionRow *entry = g_ptr_array_index (self->rows, i);

      if (entry->field == field)
        collision = entry->collision;
    }
  if (self->updating || collision == NULL)
    return;
  g_signal_emit (self, signals[DENSITY_EDIT], 0, collision, field, how);
}

static void
update_collision_row (BlCollisionList *self,
                      CollisionRow    *entry,
                      const char      *reason)
{
  BlCollision *collision = entry->collision;
  g_autofree char *text = NULL;
  gboolean was_updating = self->updating;

  /* Setting the field's value is not an edit by the user. */
  self->updating = TRUE;
  bl_number_field_show_optional (entry->field, collision->has_density, collision->density);
  /* Unset, a collision takes the link's density, else 1000 kg/m³. */
  if (self->link->has_density)
    bl_number_field_set_in_use (entry->field, self->link->density, BL_NUMBER_FIELD_IN_USE_LINK);
  else
    bl_number_field_set_in_use (entry->field, 1000.0, BL_NUMBER_FIELD_IN_USE_DEFAULT);
  gtk_widget_set_sensitive (GTK_WIDGET (entry->field), self->link->auto_inertia);
  bl_number_field_set_editable_hint (entry->field, reason == NULL, reason, _("Empty the field to unset the density"));

  if (!self->link->auto_inertia)
    text = g_strdup (_("used only by automatic inertia"));
  else if (collision->contributes)
    /* Translators: the density a collision used and the mass it gave */
    text = g_strdup_printf (_("uses %.6g kg/m³ · %.6g kg"),
                            collision->used_density, collision->inertial.mass);
  else
    text = g_strdup (_("contributes no mass"));
  gtk_label_set_text (entry->used, text);
  self->updating = was_updating;
}

static void
setup_collision_row (GtkSignalListItemFactory *factory,
                     GtkListItem              *item,
                     BlCollisionList          *self)
{
  CollisionRow *entry = g_new0 (CollisionRow, 1);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *type = gtk_label_new (NULL);
  GtkWidget *field = bl_number_field_new (BL_FIELD_POSITIVE);
  GtkWidget *unit = gtk_label_new ("kg/m³");
  GtkWidget *used = gtk_label_new (NULL);
  GtkWidget *error = gtk_label_new (NULL);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_top (grid, 3);
  gtk_widget_set_margin_bottom (grid, 3);
  gtk_label_set_xalign (GTK_LABEL (name), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_label_set_xalign (GTK_LABEL (type), 0.0);
  gtk_widget_add_css_class (type, "dim-label");
  gtk_widget_add_css_class (type, "caption");
  gtk_label_set_xalign (GTK_LABEL (unit), 0.0);
  gtk_label_set_width_chars (GTK_LABEL (unit), 5);
  gtk_widget_add_css_class (unit, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (used), 1.0);
  gtk_widget_add_css_class (used, "dim-label");
  gtk_widget_add_css_class (used, "caption");
  gtk_label_set_xalign (GTK_LABEL (error), 1.0);
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_widget_add_css_class (error, "error");
  gtk_widget_add_css_class (error, "caption");
  gtk_widget_set_visible (error, FALSE);

  gtk_editable_set_width_chars (GTK_EDITABLE (field), 10);
  bl_number_field_set_optional (BL_NUMBER_FIELD (field), TRUE);
  bl_number_field_set_error_label (BL_NUMBER_FIELD (field), GTK_LABEL (error));
  g_signal_connect_object (field, "edit", G_CALLBACK (on_density_edit), self, 0);

  gtk_grid_attach (GTK_GRID (grid), name, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), field, 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), unit, 2, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), type, 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), used, 1, 1, 2, 1);
  gtk_grid_attach (GTK_GRID (grid), error, 0, 2, 3, 1);

  entry->name = GTK_LABEL (name);
  entry->type = GTK_LABEL (type);
  entry->field = BL_NUMBER_FIELD (field);
  entry->used = GTK_LABEL (used);
  /* The array owns the entry; the list item points at it until teardown. */
  g_object_set_data (G_OBJECT (item), "bl-collision-row", entry);
  g_ptr_array_add (self->rows, entry);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_child (item, grid);
}

static void
bind_collision_row (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    BlCollisionList          *self)
{
  CollisionRow *entry = g_object_get_data (G_OBJECT (item), "bl-collision-row");
  BlOutlineItem *collision_item = gtk_list_item_get_item (item);
  BlCollision *collision = bl_outline_item_get_collision (collision_item);
  const char *label = bl_outline_item_get_label (collision_item);
  g_autofree char *widget_name = g_strdup_printf ("collision-density-%s", label);
  g_autofree char *a11y = g_strdup_printf (_("Density of %s"), label);
  g_autofree char *reason = bl_field_dup_read_only_reason (self->document, self->link);

  entry->collision = collision;
  gtk_label_set_text (entry->name, label);
  gtk_label_set_text (entry->type, bl_geometry_type_to_string (collision->geometry.type));
  gtk_widget_set_name (GTK_WIDGET (entry->field), widget_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry->field), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  update_collision_row (self, entry, reason);
}

static void
unbind_collision_row (GtkSignalListItemFactory *factory,
                      GtkListItem              *item,
                      BlCollisionList          *self)
{
  CollisionRow *entry = g_object_get_data (G_OBJECT (item), "bl-collision-row");

  entry->collision = NULL;
}

static void
teardown_collision_row (GtkSignalListItemFactory *factory,
                        GtkListItem              *item,
                        BlCollisionList          *self)
{
  CollisionRow *entry = g_object_steal_data (G_OBJECT (item), "bl-collision-row");

  if (entry != NULL)
    g_ptr_array_remove (self->rows, entry);
}

/* Collisions a link may have for the list to show whole; with more, the
 * list is a box of its own 420 px tall (bl-inspector.ui). */
#define COLLISIONS_SHOWN_WHOLE 64

/* Puts the list of collisions into the card itself (WHOLE) or into its
 * scroller. */
static void
place (BlCollisionList *self,
       gboolean         whole)
{
  GtkWidget *list = GTK_WIDGET (self->list);
  GtkWidget *parent = gtk_widget_get_parent (list);

  if (whole && parent != GTK_WIDGET (self->card))
    {
      gtk_scrolled_window_set_child (self->scroller, NULL);
      gtk_box_append (self->card, list);
    }
  else if (!whole && parent != GTK_WIDGET (self->scroller))
    {
      gtk_box_remove (self->card, list);
      gtk_scrolled_window_set_child (self->scroller, list);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->scroller), !whole);
}

void
bl_collision_list_clear (BlCollisionList *self)
{
  g_return_if_fail (BL_IS_COLLISION_LIST (self));

  for (guint i = 0; i < self->rows->len; i++)
    ((CollisionRow *) g_ptr_array_index (self->rows, i))->collision = NULL;
  gtk_list_view_set_model (self->list, NULL);
}

void
bl_collision_list_show (BlCollisionList *self,
                        BlDocument      *document,
                        BlLink          *link)
{
  guint n;
  g_autoptr(GListModel) items = NULL;

  g_return_if_fail (BL_IS_COLLISION_LIST (self));
  g_return_if_fail (link != NULL);

  n = link->collisions->len;
  items = bl_outline_item_new_collisions (link);
  bl_collision_list_clear (self);
  self->document = document;
  self->link = link;
  /* A short list shows whole, in the page, as the inspector's other cards
   * (a scroller would keep the wheel from the page); a long one scrolls
   * in a box of its own. */
  place (self, n <= COLLISIONS_SHOWN_WHOLE);
  gtk_list_view_set_model (self->list, GTK_SELECTION_MODEL (gtk_no_selection_new (g_steal_pointer (&items))));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0.0);
  gtk_widget_set_visible (self->heading, n > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->card), n > 0);
}

void
bl_collision_list_update (BlCollisionList *self)
{
  g_autofree char *reason = NULL;

  g_return_if_fail (BL_IS_COLLISION_LIST (self));

  reason = bl_field_dup_read_only_reason (self->document, self->link);

  for (guint i = 0; i < self->rows->len; i++)
    {
      CollisionRow *entry = g_ptr_array_index (self->rows, i);

      if (entry->collision != NULL)
        update_collision_row (self, entry, reason);
    }
}

static void
bl_collision_list_finalize (GObject *object)
{
  BlCollisionList *self = BL_COLLISION_LIST (object);

  g_clear_object (&self->list);
  g_clear_pointer (&self->rows, g_ptr_array_unref);

  G_OBJECT_CLASS (bl_collision_list_parent_class)->finalize (object);
}

static void
bl_collision_list_class_init (BlCollisionListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_collision_list_finalize;

  /**
   * BlCollisionList::density-edit:
   * @collision: (type gpointer): the BlCollision whose field it is
   * @field: the field
   * @how: how the user changed it
   */
  signals[DENSITY_EDIT] =
    g_signal_new ("density-edit",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_POINTER, BL_TYPE_NUMBER_FIELD, BL_TYPE_NUMBER_FIELD_EDIT);
}

static void
bl_collision_list_init (BlCollisionList *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_free);
}

BlCollisionList *
bl_collision_list_new (GtkListView       *list,
                       GtkBox            *card,
                       GtkScrolledWindow *scroller,
                       GtkWidget         *heading)
{
  BlCollisionList *self;
  g_autoptr(GtkListItemFactory) factory = NULL;

  g_return_val_if_fail (GTK_IS_LIST_VIEW (list), NULL);
  g_return_val_if_fail (GTK_IS_BOX (card), NULL);
  g_return_val_if_fail (GTK_IS_SCROLLED_WINDOW (scroller), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (heading), NULL);

  self = g_object_new (BL_TYPE_COLLISION_LIST, NULL);
  self->list = g_object_ref (list);
  self->card = card;
  self->scroller = scroller;
  self->heading = heading;

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_collision_row), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_collision_row), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_collision_row), self, 0);
  g_signal_connect_object (factory, "teardown", G_CALLBACK (teardown_collision_row), self, 0);
  gtk_list_view_set_factory (list, factory);
  return self;
}
