/* bl-edit-history.c: undo and redo of BlEdit commands, with merging. */
#include "config.h"

#include <gio/gio.h>

#include "bl-edit-history.h"

struct _BlEditHistory
{
  GObject    parent_instance;

  GPtrArray *edits;        /* BlEdit*: applied [0, position), undone after */
  guint      position;
  int        clean;        /* position of the saved state; −1 when unreachable */
  gboolean   merge_break;
};

G_DEFINE_FINAL_TYPE (BlEditHistory, bl_edit_history, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_MODIFIED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  gboolean can_undo;
  gboolean can_redo;
  gboolean modified;
} State;

static State
get_state (BlEditHistory *self)
{
  return (State) {
    bl_edit_history_can_undo (self),
    bl_edit_history_can_redo (self),
    bl_edit_history_is_modified (self),
  };
}

/* Emits ::changed, and notifies the properties that changed since `before`. */
static void
changed (BlEditHistory *self,
         State          before)
{
  State after = get_state (self);

  g_object_freeze_notify (G_OBJECT (self));
  if (before.can_undo != after.can_undo)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  if (before.can_redo != after.can_redo)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
  if (before.modified != after.modified)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

BlEditHistory *
bl_edit_history_new (void)
{
  return g_object_new (BL_TYPE_EDIT_HISTORY, NULL);
}

gboolean
bl_edit_history_do (BlEditHistory  *self,
                    BlEdit         *edit,
                    GError        **error)
{
  State before;
  BlEdit *top;

  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), FALSE);
  g_return_val_if_fail (edit != NULL && !bl_edit_is_applied (edit), FALSE);

  before = get_state (self);
  if (!bl_edit_apply (edit, error))
    return FALSE;

  /* The undone steps are gone, and the saved state with them if it was there. */
  g_ptr_array_set_size (self->edits, self->position);
  if (self->clean > (int) self->position)
    self->clean = -1;

  top = self->position > 0 ? g_ptr_array_index (self->edits, self->position - 1) : NULL;
  if (top != NULL && !self->merge_break && self->clean != (int) self->position &&
      bl_edit_can_merge (top, edit))
    bl_edit_merge (top, edit);
  else
    {
      g_ptr_array_add (self->edits, bl_edit_ref (edit));
      self->position++;
    }
  self->merge_break = FALSE;

  changed (self, before);
  return TRUE;
}

void
bl_edit_history_break_merge (BlEditHistory *self)
{
  g_return_if_fail (BL_IS_EDIT_HISTORY (self));
  self->merge_break = TRUE;
}

gboolean
bl_edit_history_can_undo (BlEditHistory *self)
{
  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), FALSE);
  return self->position > 0;
}

gboolean
bl_edit_history_can_redo (BlEditHistory *self)
{
  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), FALSE);
  return self->position < self->edits->len;
}

const char *
bl_edit_history_get_undo_label (BlEditHistory *self)
{
  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), NULL);
  if (self->position == 0)
    return NULL;
  return bl_edit_get_label (g_ptr_array_index (self->edits, self->position - 1));
}

const char *
bl_edit_history_get_redo_label (BlEditHistory *self)
{
  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), NULL);
  if (self->position >= self->edits->len)
    return NULL;
  return bl_edit_get_label (g_ptr_array_index (self->edits, self->position));
}

gboolean
bl_edit_history_undo (BlEditHistory *self)
{
  State before;

  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), FALSE);

  if (self->position == 0)
    return FALSE;

  before = get_state (self);
  self->position--;
  bl_edit_revert (g_ptr_array_index (self->edits, self->position));
  self->merge_break = TRUE;
  changed (self, before);
  return TRUE;
}

gboolean
bl_edit_history_redo (BlEditHistory  *self,
                      GError        **error)
{
  State before;

  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), FALSE);

  if (self->position >= self->edits->len)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "there is nothing to redo");
      return FALSE;
    }

  before = get_state (self);
  if (!bl_edit_apply (g_ptr_array_index (self->edits, self->position), error))
    return FALSE;
  self->position++;
  self->merge_break = TRUE;
  changed (self, before);
  return TRUE;
}

void
bl_edit_history_set_clean (BlEditHistory *self)
{
  State before;

  g_return_if_fail (BL_IS_EDIT_HISTORY (self));

  before = get_state (self);
  self->clean = (int) self->position;
  changed (self, before);
}

gboolean
bl_edit_history_is_modified (BlEditHistory *self)
{
  g_return_val_if_fail (BL_IS_EDIT_HISTORY (self), FALSE);
  return self->clean != (int) self->position;
}

void
bl_edit_history_clear (BlEditHistory *self)
{
  State before;

  g_return_if_fail (BL_IS_EDIT_HISTORY (self));

  before = get_state (self);
  /* Applied edits keep the nodes they removed; dropping them frees those. */
  g_ptr_array_set_size (self->edits, 0);
  self->position = 0;
  self->clean = 0;
  self->merge_break = FALSE;
  changed (self, before);
}

static void
bl_edit_history_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlEditHistory *self = BL_EDIT_HISTORY (object);

  switch (prop_id)
    {
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, bl_edit_history_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, bl_edit_history_can_redo (self));
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, bl_edit_history_is_modified (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_edit_history_finalize (GObject *object)
{
  BlEditHistory *self = BL_EDIT_HISTORY (object);

  g_clear_pointer (&self->edits, g_ptr_array_unref);

  G_OBJECT_CLASS (bl_edit_history_parent_class)->finalize (object);
}

static void
bl_edit_history_class_init (BlEditHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = bl_edit_history_get_property;
  object_class->finalize = bl_edit_history_finalize;

  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlEditHistory::changed:
   *
   * After every do, undo, redo, clear or save mark.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
bl_edit_history_init (BlEditHistory *self)
{
  self->edits = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_edit_unref);
}
