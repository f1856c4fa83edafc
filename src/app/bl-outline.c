/* bl-outline.c: the searchable tree of models, links and collisions. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-field.h"
#include "bl-outline.h"
#include "bl-outline-item.h"

struct _BlOutline
{
  GtkWidget           parent_instance;

  GtkSearchEntry     *search_entry;
  GtkWidget          *scroller;
  GtkListView        *list_view;

  BlDocument         *document;
  GSignalGroup       *document_signals;   /* the document's ::link-changed */
  GListStore         *roots;
  GtkTreeListModel   *tree;
  GtkCustomFilter    *filter;        /* set on `filtered` while searching */
  GtkFilterListModel *filtered;
  GtkSingleSelection *selection;
  GHashTable         *link_items;    /* BlLink* → BlOutlineItem* (borrowed) */
  char               *needle;
  BlLink             *selected_link;
  BlModel            *selected_model;
  BlCollision        *selected_collision;
  gboolean            selecting;
};

G_DEFINE_FINAL_TYPE (BlOutline, bl_outline, GTK_TYPE_WIDGET)

enum {
  LINK_SELECTED,
  MODEL_SELECTED,
  COLLISION_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_SELECTED_LINK,
  PROP_SELECTED_MODEL,
  PROP_SELECTED_COLLISION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  GListModel *children = bl_outline_item_get_children (BL_OUTLINE_ITEM (item));

  if (children == NULL || g_list_model_get_n_items (children) == 0)
    return NULL;
  return g_object_ref (children);
}

static gboolean
filter_row (gpointer item,
            gpointer user_data)
{
  BlOutline *self = user_data;
  GtkTreeListRow *row = item;
  g_autoptr(BlOutlineItem) outline_item = gtk_tree_list_row_get_item (row);

  return bl_outline_item_matches (outline_item, self->needle);
}

/* Rows the outline opens by itself: a document's models are expanded
 * while the outline has at most this many rows, so a world of 100,000
 * models opens with its models folded (selecting a link unfolds its
 * models). */
#define EXPAND_ROWS_MAX 2000

/* Expands model rows (every row when ALL), walking the growing tree once,
 * up to EXPAND_ROWS_MAX rows unless ALL.  The filter is off meanwhile:
 * refiltering after each expansion would be quadratic. */
static void
expand_rows (BlOutline *self,
             gboolean   all)
{
  GListModel *tree = G_LIST_MODEL (self->tree);

  gtk_filter_list_model_set_filter (self->filtered, NULL);
  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (tree, i);
      g_autoptr(BlOutlineItem) item = gtk_tree_list_row_get_item (row);

      if (!all && g_list_model_get_n_items (tree) > EXPAND_ROWS_MAX)
        break;
      if (all || bl_outline_item_get_kind (item) == BL_OUTLINE_ITEM_MODEL)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  if (*self->needle != '\0')
    gtk_filter_list_model_set_filter (self->filtered, GTK_FILTER (self->filter));
}

/* The item of a selection's row (a GtkTreeListRow, or NULL): a new reference. */
static BlOutlineItem *
row_item (gpointer row)
{
  return row != NULL ? gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (row)) : NULL;
}

static BlLink *
row_link (gpointer row)
{
  g_autoptr(BlOutlineItem) item = row_item (row);

  return item != NULL ? bl_outline_item_get_link (item) : NULL;
}

static BlCollision *
row_collision (gpointer row)
{
  g_autoptr(BlOutlineItem) item = row_item (row);

  return item != NULL ? bl_outline_item_get_collision (item) : NULL;
}

static BlModel *
row_model (gpointer row)
{
  g_autoptr(BlOutlineItem) item = row_item (row);

  return item != NULL ? bl_outline_item_get_model (item) : NULL;
}

/* One part of the selection changed: its property, then its signal. */
static void
emit_selected (BlOutline *self,
               guint      signal,
               guint      prop_id,
               gpointer   selected)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
  g_signal_emit (self, signals[signal], 0, selected);
}

/* A link (or one of its collisions), a model or nothing is selected;
 * listeners (of the signals and of the properties alike) hear first of
 * the one that goes away, then of the one that comes, the collision
 * after its link. */
static void
set_selection (BlOutline   *self,
               BlLink      *link,
               BlModel     *model,
               BlCollision *collision)
{
  gboolean link_changed = self->selected_link != link;
  gboolean model_changed = self->selected_model != model;
  gboolean collision_changed = self->selected_collision != collision;

  self->selected_link = link;
  self->selected_model = model;
  self->selected_collision = collision;
  if (link_changed && link == NULL)
    emit_selected (self, LINK_SELECTED, PROP_SELECTED_LINK, NULL);
  if (model_changed && model == NULL)
    emit_selected (self, MODEL_SELECTED, PROP_SELECTED_MODEL, NULL);
  if (link_changed && link != NULL)
    emit_selected (self, LINK_SELECTED, PROP_SELECTED_LINK, link);
  if (model_changed && model != NULL)
    emit_selected (self, MODEL_SELECTED, PROP_SELECTED_MODEL, model);
  if (collision_changed)
    emit_selected (self, COLLISION_SELECTED, PROP_SELECTED_COLLISION, collision);
}

static void
set_selected_link (BlOutline *self,
                   BlLink    *link)
{
  set_selection (self, link, NULL, NULL);
}

static void
on_selection_changed (GtkSingleSelection *selection,
                      guint               position,
                      guint               n_items,
                      BlOutline          *self)
{
  gpointer row;

  if (self->selecting)
    return;
  row = gtk_single_selection_get_selected_item (selection);
  set_selection (self, row_link (row), row_model (row), row_collision (row));
}

/* A row activated (double-click, Enter) is selected and framed in the
 * 3D view: the window's view.fit-selection frames a link or a model. */
static void
on_activate (GtkListView *list_view,
             guint        position,
             BlOutline   *self)
{
  gtk_single_selection_set_selected (self->selection, position);
  gtk_widget_activate_action (GTK_WIDGET (self), "view.fit-selection", NULL);
}

static void
on_link_changed (BlDocument *document,
                 BlLink     *link,
                 BlOutline  *self)
{
  BlOutlineItem *item = g_hash_table_lookup (self->link_items, link);

  if (item != NULL)
    bl_outline_item_update (item);
}

static void
on_search_changed (GtkSearchEntry *entry,
                   BlOutline      *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_free (self->needle);
  self->needle = g_utf8_casefold (text, -1);
  /* No search, no filter: a filter asks every row, and the rows of a
   * large document come and go by thousands. */
  if (*self->needle != '\0')
    {
      expand_rows (self, TRUE);
      gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
    }
  else
    gtk_filter_list_model_set_filter (self->filtered, NULL);
}

static void
on_stop_search (GtkSearchEntry *entry,
                BlOutline      *self)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

static void
bl_outline_dispose (GObject *object)
{
  BlOutline *self = BL_OUTLINE (object);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_OUTLINE);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter);
  g_clear_object (&self->roots);
  g_clear_pointer (&self->link_items, g_hash_table_unref);
  g_clear_pointer (&self->needle, g_free);

  G_OBJECT_CLASS (bl_outline_parent_class)->dispose (object);
}

static void
bl_outline_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  BlOutline *self = BL_OUTLINE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_SELECTED_LINK:
      g_value_set_pointer (value, self->selected_link);
      break;
    case PROP_SELECTED_MODEL:
      g_value_set_pointer (value, self->selected_model);
      break;
    case PROP_SELECTED_COLLISION:
      g_value_set_pointer (value, self->selected_collision);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_outline_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  BlOutline *self = BL_OUTLINE (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      bl_outline_set_document (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_LINK:
      bl_outline_select_link (self, g_value_get_pointer (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_outline_class_init (BlOutlineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_outline_dispose;
  object_class->get_property = bl_outline_get_property;
  object_class->set_property = bl_outline_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, BL_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * BlOutline:selected-link: (type gpointer)
   *
   * The BlLink of the selected row (a collision row gives its link), or
   * NULL; setting it selects the link's row (bl_outline_select_link()).
   * Notified only when it changes, like ::link-selected.
   */
  properties[PROP_SELECTED_LINK] =
    g_param_spec_pointer ("selected-link", NULL, NULL,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * BlOutline:selected-model: (type gpointer)
   *
   * The BlModel of the selected row when it is a model row, or NULL.
   */
  properties[PROP_SELECTED_MODEL] =
    g_param_spec_pointer ("selected-model", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * BlOutline:selected-collision: (type gpointer)
   *
   * The BlCollision of the selected row when it is a collision row, or
   * NULL; notified after :selected-link for the collision's link.
   */
  properties[PROP_SELECTED_COLLISION] =
    g_param_spec_pointer ("selected-collision", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlOutline::link-selected:
   * @link: (type gpointer) (nullable): the selected BlLink
   */
  signals[LINK_SELECTED] =
    g_signal_new ("link-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);

  /**
   * BlOutline::model-selected:
   * @model: (type gpointer) (nullable): the selected BlModel, or NULL
   *   when a model row is no longer selected
   */
  signals[MODEL_SELECTED] =
    g_signal_new ("model-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);

  /**
   * BlOutline::collision-selected:
   * @collision: (type gpointer) (nullable): the BlCollision of the
   *   selected row, or NULL when a collision row is no longer selected
   *
   * Emitted after ::link-selected for the collision's link.
   */
  signals[COLLISION_SELECTED] =
    g_signal_new ("collision-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);

  g_type_ensure (BL_TYPE_OUTLINE_ITEM);
  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-outline.ui");
  gtk_widget_class_bind_template_child (widget_class, BlOutline, search_entry);
  gtk_widget_class_bind_template_child (widget_class, BlOutline, scroller);
  gtk_widget_class_bind_template_child (widget_class, BlOutline, list_view);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-outline");
}

static void
bl_outline_init (BlOutline *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  /* The document's signals, connected while it is the document shown. */
  self->document_signals = g_signal_group_new (BL_TYPE_DOCUMENT);
  g_signal_group_connect (self->document_signals, "link-changed", G_CALLBACK (on_link_changed), self);
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->needle = g_strdup ("");
  self->link_items = g_hash_table_new (NULL, NULL);
  self->roots = g_list_store_new (BL_TYPE_OUTLINE_ITEM);
  self->tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->roots)),
                                        FALSE, FALSE, create_children, NULL, NULL);
  self->filter = gtk_custom_filter_new (filter_row, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (self->tree), NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->filtered));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);

  factory = gtk_builder_list_item_factory_new_from_resource (NULL, "/app/ballast/Ballast/ui/bl-outline-row.ui");
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->list_view, "activate", G_CALLBACK (on_activate), self);
  /* Ctrl+Z in the search field undoes the last edit of the document, as
   * everywhere in the window, not the search text. */
  bl_field_route_undo (GTK_WIDGET (self->search_entry));
}

GtkWidget *
bl_outline_new (void)
{
  return g_object_new (BL_TYPE_OUTLINE, NULL);
}

void
bl_outline_set_document (BlOutline  *self,
                         BlDocument *document)
{
  g_return_if_fail (BL_IS_OUTLINE (self));
  g_return_if_fail (document == NULL || BL_IS_DOCUMENT (document));

  if (self->document == document)
    return;

  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);

  self->selecting = TRUE;
  g_hash_table_remove_all (self->link_items);
  g_list_store_remove_all (self->roots);
  if (document != NULL)
    {
      GPtrArray *models = bl_document_get_models (document);
      g_autoptr(GPtrArray) items = g_ptr_array_new_full (models->len, g_object_unref);

      for (guint i = 0; i < models->len; i++)
        g_ptr_array_add (items, bl_outline_item_new_model (g_ptr_array_index (models, i), self->link_items));
      /* At once: one items-changed, not one per model. */
      g_list_store_splice (self->roots, 0, 0, items->pdata, items->len);
    }
  expand_rows (self, FALSE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->selecting = FALSE;
  set_selected_link (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

BlDocument *
bl_outline_get_document (BlOutline *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE (self), NULL);
  return self->document;
}

BlLink *
bl_outline_get_selected_link (BlOutline *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE (self), NULL);
  return self->selected_link;
}

BlCollision *
bl_outline_get_selected_collision (BlOutline *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE (self), NULL);

  return self->selected_collision;
}

BlModel *
bl_outline_get_selected_model (BlOutline *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE (self), NULL);
  return self->selected_model;
}

void
bl_outline_select_link (BlOutline *self,
                        BlLink    *link)
{
  GListModel *rows = G_LIST_MODEL (self->filtered);
  guint found = GTK_INVALID_LIST_POSITION;

  g_return_if_fail (BL_IS_OUTLINE (self));

  if (link != NULL && row_link (gtk_single_selection_get_selected_item (self->selection)) == link)
    {
      set_selected_link (self, link);
      return;
    }

  if (link != NULL)
    {
      /* A search that hides the link would make it unselectable. */
      g_autofree char *folded = g_utf8_casefold (link->name, -1);

      if (*self->needle != '\0' && strstr (folded, self->needle) == NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");

      for (guint i = 0; i < g_list_model_get_n_items (rows) && found == GTK_INVALID_LIST_POSITION; i++)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
          g_autoptr(BlOutlineItem) item = gtk_tree_list_row_get_item (row);

          switch (bl_outline_item_get_kind (item))
            {
            case BL_OUTLINE_ITEM_MODEL:
              if (bl_model_contains_link (bl_outline_item_get_model (item), link))
                gtk_tree_list_row_set_expanded (row, TRUE);
              break;
            case BL_OUTLINE_ITEM_LINK:
              if (bl_outline_item_get_link (item) == link)
                found = i;
              break;
            case BL_OUTLINE_ITEM_COLLISION:
            default:
              break;
            }
        }
    }

  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->selection, found);
  self->selecting = FALSE;
  if (found != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", found);
  set_selected_link (self, found != GTK_INVALID_LIST_POSITION ? link : NULL);
}
