/* bl-lazy-list.c: a GListModel of a fixed number of items, each made on
 * first demand and kept. */
#include "config.h"

#include "bl-lazy-list.h"

struct _BlLazyList
{
  GObject         parent_instance;

  GType           item_type;
  guint           n_items;
  gpointer       *items;        /* n_items slots, NULL until made */
  BlLazyListMake  make;
  gpointer        user_data;
  GDestroyNotify  destroy;
};

static void bl_lazy_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BlLazyList, bl_lazy_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, bl_lazy_list_model_init))

static GType
bl_lazy_list_get_item_type (GListModel *list)
{
  return BL_LAZY_LIST (list)->item_type;
}

static guint
bl_lazy_list_get_n_items (GListModel *list)
{
  return BL_LAZY_LIST (list)->n_items;
}

static gpointer
bl_lazy_list_get_item (GListModel *list,
                       guint       position)
{
  BlLazyList *self = BL_LAZY_LIST (list);

  if (position >= self->n_items)
    return NULL;
  if (self->items[position] == NULL)
    {
      self->items[position] = self->make (position, self->user_data);
      g_assert (G_TYPE_CHECK_INSTANCE_TYPE (self->items[position], self->item_type));
    }
  return g_object_ref (self->items[position]);
}

static void
bl_lazy_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = bl_lazy_list_get_item_type;
  iface->get_n_items = bl_lazy_list_get_n_items;
  iface->get_item = bl_lazy_list_get_item;
}

static void
bl_lazy_list_finalize (GObject *object)
{
  BlLazyList *self = BL_LAZY_LIST (object);

  for (guint i = 0; i < self->n_items; i++)
    g_clear_object (&self->items[i]);
  g_free (self->items);
  if (self->destroy != NULL)
    self->destroy (self->user_data);

  G_OBJECT_CLASS (bl_lazy_list_parent_class)->finalize (object);
}

static void
bl_lazy_list_class_init (BlLazyListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = bl_lazy_list_finalize;
}

static void
bl_lazy_list_init (BlLazyList *self)
{
}

BlLazyList *
bl_lazy_list_new (GType           item_type,
                  guint           n_items,
                  BlLazyListMake  make,
                  gpointer        user_data,
                  GDestroyNotify  destroy)
{
  BlLazyList *self;

  g_return_val_if_fail (g_type_is_a (item_type, G_TYPE_OBJECT), NULL);
  g_return_val_if_fail (make != NULL, NULL);

  self = g_object_new (BL_TYPE_LAZY_LIST, NULL);
  self->item_type = item_type;
  self->n_items = n_items;
  self->items = g_new0 (gpointer, n_items);
  self->make = make;
  self->user_data = user_data;
  self->destroy = destroy;
  return self;
}

gpointer
bl_lazy_list_peek (BlLazyList *self,
                   guint       position)
{
  g_return_val_if_fail (BL_IS_LAZY_LIST (self), NULL);

  return position < self->n_items ? self->items[position] : NULL;
}
