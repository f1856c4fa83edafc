/* bl-outline-item.c: one row of the model outline: a model, a link or a collision. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-diagnostic-row.h"
#include "bl-display-name.h"
#include "bl-lazy-list.h"
#include "bl-outline-item.h"

struct _BlOutlineItem
{
  GObject            parent_instance;

  BlOutlineItemKind  kind;
  gpointer           object;       /* BlModel*, BlLink* or BlCollision*, owned by the document */
  char              *name;
  char              *label;        /* the name cut for a label; NULL: the name */
  char              *folded_name;  /* made at the first search */
  char              *subtitle;
  const char        *icon_name;
  char              *tooltip;
  BlLazyList        *children;   /* made on demand */
};

G_DEFINE_FINAL_TYPE (BlOutlineItem, bl_outline_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_LABEL,
  PROP_SUBTITLE,
  PROP_ICON_NAME,
  PROP_TOOLTIP,
  PROP_STATUS_CLASSES,
  N_PROPS
};

/* CSS classes of a status icon, by the worst problem of the link. */
static const char * const no_status_classes[] = { "bl-status-icon", NULL };
static const char * const warning_classes[] = { "bl-status-icon", "warning", NULL };
static const char * const error_classes[] = { "bl-status-icon", "error", NULL };

static GParamSpec *properties[N_PROPS];

#define ERROR_ICON "dialog-error-symbolic"
#define WARNING_ICON "dialog-warning-symbolic"

static void
bl_outline_item_finalize (GObject *object)
{
  BlOutlineItem *self = BL_OUTLINE_ITEM (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->folded_name, g_free);
  g_clear_pointer (&self->subtitle, g_free);
  g_clear_pointer (&self->tooltip, g_free);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (bl_outline_item_parent_class)->finalize (object);
}

static void
bl_outline_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlOutlineItem *self = BL_OUTLINE_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_LABEL:
      g_value_set_string (value, bl_outline_item_get_label (self));
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;
    case PROP_ICON_NAME:
      g_value_set_string (value, self->icon_name);
      break;
    case PROP_TOOLTIP:
      g_value_set_string (value, self->tooltip);
      break;
    case PROP_STATUS_CLASSES:
      g_value_set_boxed (value, bl_outline_item_get_status_classes (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_outline_item_class_init (BlOutlineItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_outline_item_finalize;
  object_class->get_property = bl_outline_item_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The name cut to BL_DISPLAY_NAME_MAX characters, for labels. */
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TOOLTIP] =
    g_param_spec_string ("tooltip", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* For binding a GtkWidget's css-classes: red errors, amber warnings. */
  properties[PROP_STATUS_CLASSES] =
    g_param_spec_boxed ("status-classes", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
bl_outline_item_init (BlOutlineItem *self)
{
}

static BlOutlineItem *
item_new (BlOutlineItemKind  kind,
          gpointer           object,
          const char        *name)
{
  BlOutlineItem *self = g_object_new (BL_TYPE_OUTLINE_ITEM, NULL);

  self->kind = kind;
  self->object = object;
  self->name = g_strdup (name != NULL ? name : "");
  /* the cut name only when the name is long; the folded one when first
   * searched for: a world of 100,000 models makes as many items */
  if (strlen (self->name) > BL_DISPLAY_NAME_MAX)
    {
      self->label = bl_display_name (self->name);
      if (strcmp (self->label, self->name) == 0)
        g_clear_pointer (&self->label, g_free);
    }
  return self;
}

/* What a model's list of children makes its items of (the list may
 * outlive the item in a GtkTreeListModel, so it keeps its own). */
typedef struct
{
  BlModel    *model;
  GHashTable *link_index;
} ModelChildren;

/* A model's children: its links, then its nested models. */
static gpointer
make_model_child (guint    position,
                  gpointer user_data)
{
  ModelChildren *source = user_data;
  BlModel *model = source->model;

  if (position < model->links->len)
    return bl_outline_item_new_link (g_ptr_array_index (model->links, position), source->link_index);
  return bl_outline_item_new_model (g_ptr_array_index (model->models, position - model->links->len),
                                    source->link_index);
}

static gpointer
make_collision_child (guint    position,
                      gpointer user_data)
{
  BlLink *link = user_data;

  return bl_outline_item_new_collision (g_ptr_array_index (link->collisions, position));
}

BlOutlineItem *
bl_outline_item_new_model (BlModel    *model,
                           GHashTable *link_index)
{
  BlOutlineItem *self;
  ModelChildren *source;

  g_return_val_if_fail (model != NULL, NULL);

  self = item_new (BL_OUTLINE_ITEM_MODEL, model, model->name);
  self->subtitle = g_strdup (model->is_static ? _("static model") : _("model"));
  source = g_new (ModelChildren, 1);
  source->model = model;
  source->link_index = link_index;
  self->children = bl_lazy_list_new (BL_TYPE_OUTLINE_ITEM, model->links->len + model->models->len,
                                     make_model_child, source, g_free);
  return self;
}

BlOutlineItem *
bl_outline_item_new_link (BlLink     *link,
                          GHashTable *link_index)
{
  BlOutlineItem *self;

  g_return_val_if_fail (link != NULL, NULL);

  self = item_new (BL_OUTLINE_ITEM_LINK, link, link->name);
  self->children = BL_LAZY_LIST (bl_outline_item_new_collisions (link));
  if (link_index != NULL)
    g_hash_table_insert (link_index, link, self);
  bl_outline_item_update (self);
  return self;
}

GListModel *
bl_outline_item_new_collisions (BlLink *link)
{
  g_return_val_if_fail (link != NULL, NULL);

  return G_LIST_MODEL (bl_lazy_list_new (BL_TYPE_OUTLINE_ITEM, link->collisions->len,
                                         make_collision_child, link, NULL));
}

BlOutlineItem *
bl_outline_item_new_collision (BlCollision *collision)
{
  BlOutlineItem *self;

  g_return_val_if_fail (collision != NULL, NULL);

  self = item_new (BL_OUTLINE_ITEM_COLLISION, collision, collision->name);
  bl_outline_item_update (self);
  return self;
}

static gboolean
set_string (char       **field,
            char        *value)
{
  if (g_strcmp0 (*field, value) == 0)
    {
      g_free (value);
      return FALSE;
    }
  g_free (*field);
  *field = value;
  return TRUE;
}

static void
update_link (BlOutlineItem *self)
{
  BlLink *link = self->object;
  const char *icon_name = NULL;
  const BlDiagnostic *worst = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *subtitle = NULL;

  for (guint i = 0; i < link->diagnostics->len; i++)
    {
      const BlDiagnostic *d = g_ptr_array_index (link->diagnostics, i);

      if (d->severity >= BL_SEVERITY_WARNING && (worst == NULL || d->severity > worst->severity))
        worst = d;
    }

  if (!link->props.resolved || !link->props.valid || (worst != NULL && worst->severity == BL_SEVERITY_ERROR))
    icon_name = ERROR_ICON;
  else if (worst != NULL)
    icon_name = WARNING_ICON;

  if (!link->props.resolved && link->input_errors)
    tooltip = g_strdup (_("A value could not be read, so the numbers cannot be trusted"));
  else if (!link->props.resolved)
    tooltip = g_strdup (_("The automatic inertia could not be computed"));
  else if (!link->props.valid)
    tooltip = g_strdup (_("The inertia is not physically valid"));
  if (worst != NULL)
    {
      g_autofree char *whole = bl_diagnostic_row_dup_message (worst, link->scoped_name);
      /* The message may quote a name of any length. */
      g_autofree char *message = bl_display_cut (whole, BL_DISPLAY_TEXT_MAX);
      char *joined = tooltip != NULL ? g_strconcat (tooltip, "\n", message, NULL)
                                     : g_strdup (message);
      g_free (tooltip);
      tooltip = joined;
    }

  if (link->props.resolved)
    /* Translators: a link's mass in the outline, e.g. "12.5 kg" */
    subtitle = g_strdup_printf (_("%.4g kg"), link->props.mass);
  else if (link->input_errors)
    /* Translators: in the outline, instead of the mass of a link whose
     * <mass> (or another value) could not be read */
    subtitle = g_strdup (_("unreadable value"));
  else
    /* Translators: in the outline, instead of the mass of a link whose
     * automatic inertia could not be computed */
    subtitle = g_strdup (_("not computed"));

  if (set_string (&self->subtitle, g_steal_pointer (&subtitle)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
  if (set_string (&self->tooltip, g_steal_pointer (&tooltip)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOLTIP]);
  if (g_strcmp0 (self->icon_name, icon_name) != 0)
    {
      self->icon_name = icon_name;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICON_NAME]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS_CLASSES]);
    }
}

static void
update_collision (BlOutlineItem *self)
{
  BlCollision *collision = self->object;
  g_autofree char *subtitle = NULL;

  if (collision->has_density)
    /* Translators: geometry type and density, e.g. "box · 2700 kg/m³" */
    subtitle = g_strdup_printf (_("%s · %.6g kg/m³"),
                                bl_geometry_type_to_string (collision->geometry.type),
                                collision->density);
  else
    subtitle = g_strdup (bl_geometry_type_to_string (collision->geometry.type));

  if (set_string (&self->subtitle, g_steal_pointer (&subtitle)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
}

void
bl_outline_item_update (BlOutlineItem *self)
{
  g_return_if_fail (BL_IS_OUTLINE_ITEM (self));

  if (self->kind == BL_OUTLINE_ITEM_LINK)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

      update_link (self);
      /* Rows not made yet read the collision when they are. */
      for (guint i = 0; i < n; i++)
        {
          BlOutlineItem *child = bl_lazy_list_peek (self->children, i);

          if (child != NULL)
            bl_outline_item_update (child);
        }
    }
  else if (self->kind == BL_OUTLINE_ITEM_COLLISION)
    update_collision (self);
}

BlOutlineItemKind
bl_outline_item_get_kind (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), BL_OUTLINE_ITEM_MODEL);
  return self->kind;
}

const char *
bl_outline_item_get_name (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->name;
}

const char *
bl_outline_item_get_label (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->label != NULL ? self->label : self->name;
}

const char *
bl_outline_item_get_subtitle (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->subtitle;
}

const char *
bl_outline_item_get_icon_name (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->icon_name;
}

const char *
bl_outline_item_get_tooltip (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->tooltip;
}

const char * const *
bl_outline_item_get_status_classes (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);

  if (g_strcmp0 (self->icon_name, ERROR_ICON) == 0)
    return error_classes;
  if (g_strcmp0 (self->icon_name, WARNING_ICON) == 0)
    return warning_classes;
  return no_status_classes;
}

BlLink *
bl_outline_item_get_link (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);

  switch (self->kind)
    {
    case BL_OUTLINE_ITEM_LINK:
      return self->object;
    case BL_OUTLINE_ITEM_COLLISION:
      return ((BlCollision *) self->object)->link;
    case BL_OUTLINE_ITEM_MODEL:
    default:
      return NULL;
    }
}

BlModel *
bl_outline_item_get_model (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->kind == BL_OUTLINE_ITEM_MODEL ? self->object : NULL;
}

BlCollision *
bl_outline_item_get_collision (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->kind == BL_OUTLINE_ITEM_COLLISION ? self->object : NULL;
}

GListModel *
bl_outline_item_get_children (BlOutlineItem *self)
{
  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), NULL);
  return self->children != NULL ? G_LIST_MODEL (self->children) : NULL;
}

gboolean
bl_outline_item_matches (BlOutlineItem *self,
                         const char    *needle)
{
  guint n;

  g_return_val_if_fail (BL_IS_OUTLINE_ITEM (self), FALSE);

  if (needle == NULL || *needle == '\0')
    return TRUE;
  if (self->folded_name == NULL)
    self->folded_name = g_utf8_casefold (self->name, -1);
  if (strstr (self->folded_name, needle) != NULL)
    return TRUE;
  if (self->children == NULL)
    return FALSE;

  n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(BlOutlineItem) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);
      if (bl_outline_item_matches (child, needle))
        return TRUE;
    }
  return FALSE;
}
