/* bl-number-field.c: the one widget every number of Ballast is edited in.
 *
 * Not a GtkSpinButton: its value lives in a GtkAdjustment that cannot be
 * unset, its + / − step from that hidden value (not the placeholder the
 * user reads) by a fixed increment, and its wheel handler changes the value
 * under a pointer that only meant to scroll the page.  This is a GtkText
 * with two buttons, styled by the theme as a spin button (the same CSS
 * nodes: spinbutton > text, button.down, button.up). */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-number.h"
#include "bl-number-field.h"

struct _BlNumberField
{
  GtkWidget    parent_instance;

  GtkWidget   *text;
  GtkWidget   *down_button;
  GtkWidget   *up_button;
  GtkLabel    *error_label;       /* weak */

  double       value;
  gboolean     empty;
  gboolean     optional;
  BlFieldRule  rule;
  double       placeholder_value;
  char        *placeholder_text;
  double       step;
  gboolean     show_buttons;
  char        *error;
  char        *shown_text;        /* the text the field last showed: the user's edits differ */
};

static void bl_number_field_editable_init (GtkEditableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BlNumberField, bl_number_field, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_EDITABLE, bl_number_field_editable_init))

GType
bl_number_field_edit_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { BL_NUMBER_FIELD_TYPED, "BL_NUMBER_FIELD_TYPED", "typed" },
        { BL_NUMBER_FIELD_STEPPED, "BL_NUMBER_FIELD_STEPPED", "stepped" },
        { BL_NUMBER_FIELD_CLEARED, "BL_NUMBER_FIELD_CLEARED", "cleared" },
        { 0, NULL, NULL },
      };
      g_once_init_leave (&type_id, g_enum_register_static (g_intern_static_string ("BlNumberFieldEdit"), values));
    }
  return type_id;
}

enum {
  PROP_0,
  PROP_VALUE,
  PROP_EMPTY,
  PROP_OPTIONAL,
  PROP_RULE,
  PROP_PLACEHOLDER_VALUE,
  PROP_PLACEHOLDER_TEXT,
  PROP_STEP,
  PROP_SHOW_BUTTONS,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  EDIT,
  ACTIVATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Showing ----------------------------------------------------------------- */

static void
show_text (BlNumberField *self,
           const char    *text)
{
  g_free (self->shown_text);
  self->shown_text = g_strdup (text);
  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (self->text))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->text), text);
}

static void
show_current (BlNumberField *self)
{
  char buf[BL_DOUBLE_BUF_SIZE];
  const char *text = self->empty ? "" : bl_number_format (self->value, buf);

  show_text (self, text);
  /* What a screen reader says: the number, or the one in use. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT,
                                  self->empty && self->placeholder_text != NULL ? self->placeholder_text : text,
                                  -1);
}

static gboolean
has_base (BlNumberField *self,
          double        *base)
{
  if (!self->empty)
    *base = self->value;
  else if (self->placeholder_text != NULL)
    *base = self->placeholder_value;
  else
    return FALSE;
  return isfinite (*base);
}

/* The step from `base` to its neighbour: a power of ten, 10^exponent,
 * kept as the exponent so that the result is computed exactly. */
static int
auto_exponent (double base)
{
  double a = fabs (base);

  if (a == 0.0 || !isfinite (a))
    return 0;
  /* Between 0.2 % and 2 % of the value: 600 → 10, 141.5 → 1, 0.9 → 0.01. */
  return (int) floor (log10 (a / 50.0));
}

gboolean
bl_number_field_next_value (BlNumberField *self,
                            int            direction,
                            double        *next)
{
  double base, result;

  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), FALSE);
  g_return_val_if_fail (direction != 0, FALSE);

  if (!has_base (self, &base))
    return FALSE;

  if (self->step > 0.0)
    {
      double q = base / self->step;
      double k = round (q);

      if (fabs (q - k) > 1e-9 * MAX (1.0, fabs (q)))
        k = direction > 0 ? floor (q) + 1.0 : ceil (q) - 1.0;
      else
        k += direction > 0 ? 1.0 : -1.0;
      result = k * self->step;
    }
  else
    {
      int e = auto_exponent (base);
      double scale = pow (10.0, abs (e));   /* exact up to 10^22 */
      double q = e >= 0 ? base / scale : base * scale;
      double k = round (q);

      /* The next multiple of the step strictly beyond the value, counting
       * one the value is on up to rounding (0.29 · 100 = 28.999…). */
      if (fabs (q - k) > 1e-9 * MAX (1.0, fabs (q)))
        k = direction > 0 ? floor (q) + 1.0 : ceil (q) - 1.0;
      else
        k += direction > 0 ? 1.0 : -1.0;
      /* k / 10^n is the double nearest the decimal; k · 0.01 is not. */
      result = e >= 0 ? k * scale : k / scale;
    }

  if (result == 0.0)
    result = 0.0;  /* no -0 */
  if (!isfinite (result))
    return FALSE;
  if (self->rule == BL_FIELD_POSITIVE && !(result > 0.0))
    return FALSE;
  *next = result;
  return TRUE;
}

static void
update_buttons (BlNumberField *self)
{
  gboolean editable = gtk_editable_get_editable (GTK_EDITABLE (self->text));
  double next;

  gtk_widget_set_visible (self->down_button, self->show_buttons && editable);
  gtk_widget_set_visible (self->up_button, self->show_buttons && editable);
  gtk_widget_set_sensitive (self->down_button, editable && bl_number_field_next_value (self, -1, &next));
  gtk_widget_set_sensitive (self->up_button, editable && bl_number_field_next_value (self, 1, &next));
  if (editable)
    gtk_widget_remove_css_class (GTK_WIDGET (self), "bl-read-only");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self), "bl-read-only");
}

static void
update_error_label (BlNumberField *self)
{
  if (self->error_label == NULL)
    return;
  gtk_label_set_text (self->error_label, self->error != NULL ? self->error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), self->error != NULL);
}

/* Changing state ----------------------------------------------------------- */

static void
take_value (BlNumberField *self,
            double         value,
            gboolean       empty)
{
  gboolean value_changed = self->value != value;
  gboolean empty_changed = self->empty != empty;

  self->value = value;
  self->empty = empty;
  show_current (self);
  update_buttons (self);
  if (value_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE]);
  if (empty_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMPTY]);
}

void
bl_number_field_set_error (BlNumberField *self,
                           const char    *error)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  if (g_strcmp0 (self->error, error) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (error);
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "error");
  /* On the text, so that the owner's own tooltip on the field stays. */
  bl_field_set_tooltip (self->text, error);
  update_error_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

static gboolean
text_is_users (BlNumberField *self)
{
  return g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->text)), self->shown_text) != 0;
}

/* Takes the text as typed.  `activated`: Enter, which emits even for the
 * value already there; leaving the field emits only when the text changed.
 * FALSE when the text was refused. */
static gboolean
commit (BlNumberField *self,
        gboolean       activated)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->text));
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  const char *reason = NULL;
  double value;

  if (!gtk_editable_get_editable (GTK_EDITABLE (self->text)))
    return FALSE;
  if (!activated && !text_is_users (self))
    return self->error == NULL;

  if (*stripped == '\0' && self->optional)
    {
      gboolean was_empty = self->empty;

      bl_number_field_set_error (self, NULL);
      take_value (self, self->value, TRUE);
      if (!was_empty)
        g_signal_emit (self, signals[EDIT], 0, BL_NUMBER_FIELD_CLEARED);
      return TRUE;
    }
  if (!bl_field_parse_text (stripped, self->rule, &value, &reason))
    {
      bl_number_field_set_error (self, reason);
      return FALSE;
    }
  bl_number_field_set_error (self, NULL);
  if (!activated && !self->empty && value == self->value)
    {
      show_current (self);   /* "6.0" left as it was: shown as "6" */
      return TRUE;
    }
  take_value (self, value, FALSE);
  g_signal_emit (self, signals[EDIT], 0, BL_NUMBER_FIELD_TYPED);
  return TRUE;
}

static void
step (BlNumberField *self,
      int            direction)
{
  double next;

  if (!gtk_editable_get_editable (GTK_EDITABLE (self->text)))
    return;
  /* Text typed but not yet taken is taken first, as Enter would. */
  if (text_is_users (self) && !commit (self, FALSE))
    return;
  if (!bl_number_field_next_value (self, direction, &next))
    return;
  bl_number_field_set_error (self, NULL);
  take_value (self, next, FALSE);
  g_signal_emit (self, signals[EDIT], 0, BL_NUMBER_FIELD_STEPPED);
}

/* Signal handlers ----------------------------------------------------------- */

static void
on_text_activate (GtkText       *text,
                  BlNumberField *self)
{
  commit (self, TRUE);
}

static void
on_focus_leave (GtkEventControllerFocus *controller,
                BlNumberField           *self)
{
  commit (self, FALSE);
}

static void
on_down_clicked (GtkButton     *button,
                 BlNumberField *self)
{
  step (self, -1);
}

static void
on_up_clicked (GtkButton     *button,
               BlNumberField *self)
{
  step (self, 1);
}

static gboolean
on_step_key (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  step (BL_NUMBER_FIELD (widget), g_variant_get_int32 (args));
  return TRUE;
}

static void
on_text_editable (GObject       *text,
                  GParamSpec    *pspec,
                  BlNumberField *self)
{
  update_buttons (self);
}

static void
real_activate (BlNumberField *self)
{
  commit (self, TRUE);
}

/* GtkEditable ---------------------------------------------------------------- */

static GtkEditable *
bl_number_field_get_delegate (GtkEditable *editable)
{
  return GTK_EDITABLE (BL_NUMBER_FIELD (editable)->text);
}

static void
bl_number_field_editable_init (GtkEditableInterface *iface)
{
  iface->get_delegate = bl_number_field_get_delegate;
}

/* GObject ------------------------------------------------------------------- */

static void
bl_number_field_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlNumberField *self = BL_NUMBER_FIELD (object);

  if (gtk_editable_delegate_get_property (object, prop_id, value, pspec))
    return;
  switch (prop_id)
    {
    case PROP_VALUE:
      g_value_set_double (value, self->value);
      break;
    case PROP_EMPTY:
      g_value_set_boolean (value, self->empty);
      break;
    case PROP_OPTIONAL:
      g_value_set_boolean (value, self->optional);
      break;
    case PROP_RULE:
      g_value_set_enum (value, self->rule);
      break;
    case PROP_PLACEHOLDER_VALUE:
      g_value_set_double (value, self->placeholder_value);
      break;
    case PROP_PLACEHOLDER_TEXT:
      g_value_set_string (value, self->placeholder_text);
      break;
    case PROP_STEP:
      g_value_set_double (value, self->step);
      break;
    case PROP_SHOW_BUTTONS:
      g_value_set_boolean (value, self->show_buttons);
      break;
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_number_field_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  BlNumberField *self = BL_NUMBER_FIELD (object);

  if (gtk_editable_delegate_set_property (object, prop_id, value, pspec))
    return;
  switch (prop_id)
    {
    case PROP_VALUE:
      bl_number_field_set_value (self, g_value_get_double (value));
      break;
    case PROP_EMPTY:
      bl_number_field_set_empty (self, g_value_get_boolean (value));
      break;
    case PROP_OPTIONAL:
      bl_number_field_set_optional (self, g_value_get_boolean (value));
      break;
    case PROP_RULE:
      bl_number_field_set_rule (self, g_value_get_enum (value));
      break;
    case PROP_PLACEHOLDER_VALUE:
      bl_number_field_set_placeholder (self, g_value_get_double (value), self->placeholder_text);
      break;
    case PROP_PLACEHOLDER_TEXT:
      bl_number_field_set_placeholder (self, self->placeholder_value, g_value_get_string (value));
      break;
    case PROP_STEP:
      bl_number_field_set_step (self, g_value_get_double (value));
      break;
    case PROP_SHOW_BUTTONS:
      bl_number_field_set_show_buttons (self, g_value_get_boolean (value));
      break;
    case PROP_ERROR:
      bl_number_field_set_error (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
bl_number_field_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (BL_NUMBER_FIELD (widget)->text);
}

static void
bl_number_field_dispose (GObject *object)
{
  BlNumberField *self = BL_NUMBER_FIELD (object);
  GtkWidget *child;

  if (self->text != NULL)
    gtk_editable_finish_delegate (GTK_EDITABLE (self));
  g_clear_weak_pointer (&self->error_label);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->text = NULL;
  self->down_button = NULL;
  self->up_button = NULL;

  G_OBJECT_CLASS (bl_number_field_parent_class)->dispose (object);
}

static void
bl_number_field_finalize (GObject *object)
{
  BlNumberField *self = BL_NUMBER_FIELD (object);

  g_free (self->placeholder_text);
  g_free (self->error);
  g_free (self->shown_text);

  G_OBJECT_CLASS (bl_number_field_parent_class)->finalize (object);
}

static void
add_step_key (GtkWidgetClass *widget_class,
              guint           keyval,
              int             direction)
{
  gtk_widget_class_add_binding (widget_class, keyval, 0, on_step_key, "i", direction);
}

static void
bl_number_field_class_init (BlNumberFieldClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_number_field_dispose;
  object_class->finalize = bl_number_field_finalize;
  object_class->get_property = bl_number_field_get_property;
  object_class->set_property = bl_number_field_set_property;
  widget_class->grab_focus = bl_number_field_grab_focus;

  properties[PROP_VALUE] =
    g_param_spec_double ("value", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_EMPTY] =
    g_param_spec_boolean ("empty", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_OPTIONAL] =
    g_param_spec_boolean ("optional", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_RULE] =
    g_param_spec_enum ("rule", NULL, NULL, BL_TYPE_FIELD_RULE, BL_FIELD_ANY,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PLACEHOLDER_VALUE] =
    g_param_spec_double ("placeholder-value", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PLACEHOLDER_TEXT] =
    g_param_spec_string ("placeholder-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_STEP] =
    g_param_spec_double ("step", NULL, NULL, 0.0, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SHOW_BUTTONS] =
    g_param_spec_boolean ("show-buttons", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_editable_install_properties (object_class, N_PROPS);

  /**
   * BlNumberField::edit:
   * @how: what the user did (BlNumberFieldEdit); the field already shows
   *   the result (its value, or empty)
   */
  signals[EDIT] =
    g_signal_new ("edit",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, BL_TYPE_NUMBER_FIELD_EDIT);

  /* Enter, as gtk_widget_activate() sends it. */
  signals[ACTIVATE] =
    g_signal_new_class_handler ("activate",
                                G_TYPE_FROM_CLASS (klass),
                                G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                                G_CALLBACK (real_activate),
                                NULL, NULL, NULL,
                                G_TYPE_NONE, 0);
  gtk_widget_class_set_activate_signal (widget_class, signals[ACTIVATE]);

  add_step_key (widget_class, GDK_KEY_Up, 1);
  add_step_key (widget_class, GDK_KEY_KP_Up, 1);
  add_step_key (widget_class, GDK_KEY_Down, -1);
  add_step_key (widget_class, GDK_KEY_KP_Down, -1);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  /* The theme's spin button look, without GtkSpinButton. */
  gtk_widget_class_set_css_name (widget_class, "spinbutton");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_SPIN_BUTTON);
}

static GtkWidget *
make_button (BlNumberField *self,
             const char    *icon,
             const char    *css_class,
             const char    *label,
             GCallback      callback)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_focusable (button, FALSE);
  gtk_widget_add_css_class (button, css_class);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  g_signal_connect (button, "clicked", callback, self);
  gtk_widget_set_parent (button, GTK_WIDGET (self));
  return button;
}

static void
bl_number_field_init (BlNumberField *self)
{
  GtkEventController *focus;

  self->show_buttons = TRUE;
  self->shown_text = g_strdup ("");

  gtk_widget_add_css_class (GTK_WIDGET (self), "horizontal");
  gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");

  self->text = gtk_text_new ();
  gtk_widget_set_hexpand (self->text, TRUE);
  gtk_widget_set_parent (self->text, GTK_WIDGET (self));
  gtk_editable_init_delegate (GTK_EDITABLE (self));
  g_signal_connect (self->text, "activate", G_CALLBACK (on_text_activate), self);
  g_signal_connect (self->text, "notify::editable", G_CALLBACK (on_text_editable), self);

  self->down_button = make_button (self, "value-decrease-symbolic", "down", _("Decrease"),
                                   G_CALLBACK (on_down_clicked));
  self->up_button = make_button (self, "value-increase-symbolic", "up", _("Increase"),
                                 G_CALLBACK (on_up_clicked));

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);
  bl_field_route_undo (GTK_WIDGET (self));

  show_current (self);
  update_buttons (self);
}

GtkWidget *
bl_number_field_new (BlFieldRule rule)
{
  return g_object_new (BL_TYPE_NUMBER_FIELD, "rule", rule, NULL);
}

/* Accessors ------------------------------------------------------------------ */

double
bl_number_field_get_value (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), 0.0);
  return self->value;
}

void
bl_number_field_set_value (BlNumberField *self,
                           double         value)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  bl_number_field_set_error (self, NULL);
  take_value (self, value, FALSE);
}

gboolean
bl_number_field_get_empty (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), FALSE);
  return self->empty;
}

void
bl_number_field_set_empty (BlNumberField *self,
                           gboolean       empty)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));
  g_return_if_fail (!empty || self->optional);

  bl_number_field_set_error (self, NULL);
  take_value (self, self->value, !!empty);
}

gboolean
bl_number_field_get_optional (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), FALSE);
  return self->optional;
}

void
bl_number_field_set_optional (BlNumberField *self,
                              gboolean       optional)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  optional = !!optional;
  if (self->optional == optional)
    return;
  self->optional = optional;
  if (!optional && self->empty)
    take_value (self, self->value, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPTIONAL]);
}

BlFieldRule
bl_number_field_get_rule (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), BL_FIELD_ANY);
  return self->rule;
}

void
bl_number_field_set_rule (BlNumberField *self,
                          BlFieldRule    rule)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  if (self->rule == rule)
    return;
  self->rule = rule;
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RULE]);
}

void
bl_number_field_set_placeholder (BlNumberField *self,
                                 double         value,
                                 const char    *text)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  if (self->placeholder_value != value)
    {
      self->placeholder_value = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLACEHOLDER_VALUE]);
    }
  if (g_strcmp0 (self->placeholder_text, text) != 0)
    {
      g_free (self->placeholder_text);
      self->placeholder_text = g_strdup (text);
      gtk_text_set_placeholder_text (GTK_TEXT (self->text), text);
      if (self->empty)
        show_current (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLACEHOLDER_TEXT]);
    }
  update_buttons (self);
}

double
bl_number_field_get_placeholder_value (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), 0.0);
  return self->placeholder_value;
}

const char *
bl_number_field_get_placeholder_text (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), NULL);
  return self->placeholder_text;
}

double
bl_number_field_get_step (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), 0.0);
  return self->step;
}

void
bl_number_field_set_step (BlNumberField *self,
                          double         step_size)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));
  g_return_if_fail (step_size >= 0.0 && isfinite (step_size));

  if (self->step == step_size)
    return;
  self->step = step_size;
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
}

gboolean
bl_number_field_get_show_buttons (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), FALSE);
  return self->show_buttons;
}

void
bl_number_field_set_show_buttons (BlNumberField *self,
                                  gboolean       show_buttons)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  show_buttons = !!show_buttons;
  if (self->show_buttons == show_buttons)
    return;
  self->show_buttons = show_buttons;
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_BUTTONS]);
}

const char *
bl_number_field_get_error (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), NULL);
  return self->error;
}

void
bl_number_field_set_error_label (BlNumberField *self,
                                 GtkLabel      *label)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));
  g_return_if_fail (label == NULL || GTK_IS_LABEL (label));

  g_set_weak_pointer (&self->error_label, label);
  update_error_label (self);
}

GtkWidget *
bl_number_field_get_down_button (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), NULL);
  return self->down_button;
}

GtkWidget *
bl_number_field_get_up_button (BlNumberField *self)
{
  g_return_val_if_fail (BL_IS_NUMBER_FIELD (self), NULL);
  return self->up_button;
}

void
bl_number_field_set_in_use (BlNumberField      *self,
                            double              value,
                            BlNumberFieldInUse  source)
{
  g_autofree char *number = bl_field_format_quantity (value, NULL);
  g_autofree char *text = NULL;

  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  switch (source)
    {
    case BL_NUMBER_FIELD_IN_USE_COMPUTED:
      /* Translators: an unset target mass shows the mass computed from the collisions */
      text = g_strdup_printf (_("%s (computed)"), number);
      break;
    case BL_NUMBER_FIELD_IN_USE_LINK:
      /* Translators: an unset collision density shows the link density it uses */
      text = g_strdup_printf (_("%s (link)"), number);
      break;
    case BL_NUMBER_FIELD_IN_USE_DEFAULT:
    default:
      /* Translators: an unset field shows the default value in use */
      text = g_strdup_printf (_("%s (default)"), number);
      break;
    }
  bl_number_field_set_placeholder (self, value, text);
}

void
bl_number_field_show_optional (BlNumberField *self,
                               gboolean       is_set,
                               double         value)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  if (is_set)
    bl_number_field_set_value (self, value);
  else
    bl_number_field_set_empty (self, TRUE);
}

void
bl_number_field_set_editable_hint (BlNumberField *self,
                                   gboolean       editable,
                                   const char    *reason,
                                   const char    *hint)
{
  g_return_if_fail (BL_IS_NUMBER_FIELD (self));

  gtk_editable_set_editable (GTK_EDITABLE (self), editable);
  bl_field_set_tooltip (GTK_WIDGET (self), editable ? hint : reason);
}
