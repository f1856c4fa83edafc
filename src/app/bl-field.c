/* bl-field.c: number fields that refuse invalid input with an inline message. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-field.h"
#include "bl-number.h"

gboolean
bl_field_parse_text (const char   *text,
                     BlFieldRule   rule,
                     double       *value,
                     const char  **reason)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_autofree char *folded = g_ascii_strdown (stripped, -1);
  double v;

  if (*stripped == '\0')
    {
      if (reason != NULL)
        *reason = _("Enter a number");
      return FALSE;
    }
  if (g_str_has_prefix (folded, "nan") || g_str_has_prefix (folded, "-nan") || g_str_has_prefix (folded, "+nan"))
    {
      if (reason != NULL)
        *reason = _("Not a number (NaN) is not allowed");
      return FALSE;
    }
  if (!bl_number_parse (stripped, &v))
    {
      if (reason != NULL)
        *reason = _("Not a finite number");
      return FALSE;
    }
  if (rule == BL_FIELD_POSITIVE && !(v > 0.0))
    {
      if (reason != NULL)
        *reason = _("Must be greater than zero");
      return FALSE;
    }
  *value = v;
  return TRUE;
}

void
bl_field_show_error (GtkWidget  *widget,
                     GtkLabel   *message,
                     const char *reason)
{
  gtk_widget_add_css_class (widget, "error");
  gtk_widget_set_tooltip_text (widget, reason);
  if (message != NULL)
    {
      gtk_label_set_text (message, reason);
      gtk_widget_set_visible (GTK_WIDGET (message), TRUE);
    }
}

void
bl_field_clear_error (GtkWidget *widget,
                      GtkLabel  *message)
{
  gtk_widget_remove_css_class (widget, "error");
  gtk_widget_set_tooltip_text (widget, NULL);
  if (message != NULL)
    {
      gtk_label_set_text (message, "");
      gtk_widget_set_visible (GTK_WIDGET (message), FALSE);
    }
}

gboolean
bl_field_parse (GtkWidget   *widget,
                GtkLabel    *message,
                BlFieldRule  rule,
                double      *value)
{
  const char *reason = NULL;

  g_return_val_if_fail (GTK_IS_EDITABLE (widget), FALSE);

  if (!bl_field_parse_text (gtk_editable_get_text (GTK_EDITABLE (widget)), rule, value, &reason))
    {
      bl_field_show_error (widget, message, reason);
      return FALSE;
    }
  bl_field_clear_error (widget, message);
  return TRUE;
}

void
bl_field_set_value (GtkEditable *editable,
                    double       value)
{
  char buf[BL_DOUBLE_BUF_SIZE];

  gtk_editable_set_text (editable, bl_number_format (value, buf));
}

static int
on_spin_input (GtkSpinButton *spin,
               double        *new_value,
               gpointer       user_data)
{
  GtkLabel *message = g_object_get_data (G_OBJECT (spin), "bl-field-message");
  BlFieldRule rule = GPOINTER_TO_INT (user_data);

  if (g_object_get_data (G_OBJECT (spin), "bl-field-optional") != NULL)
    {
      g_autofree char *stripped = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin))));

      if (*stripped == '\0')
        {
          /* Emptied: "unset", whatever the hidden value is. */
          bl_field_clear_error (GTK_WIDGET (spin), message);
          *new_value = gtk_spin_button_get_value (spin);
          g_object_set_data (G_OBJECT (spin), "bl-field-typed", NULL);
          g_object_set_data (G_OBJECT (spin), "bl-field-empty", GINT_TO_POINTER (1));
          g_object_set_data (G_OBJECT (spin), "bl-field-cleared", GINT_TO_POINTER (1));
          g_signal_emit_by_name (spin, "value-changed");
          g_object_set_data (G_OBJECT (spin), "bl-field-cleared", NULL);
          /* The handler may have moved the hidden value (the document
           * reloaded): keep it, so that GTK sees no second change. */
          *new_value = gtk_spin_button_get_value (spin);
          return TRUE;
        }
    }

  if (!bl_field_parse (GTK_WIDGET (spin), message, rule, new_value))
    return GTK_INPUT_ERROR;
  {
    double *typed = g_new (double, 1);
    *typed = *new_value;
    g_object_set_data_full (G_OBJECT (spin), "bl-field-typed", typed, g_free);
  }
  if (g_object_get_data (G_OBJECT (spin), "bl-field-empty") != NULL)
    {
      /* A first value typed into an empty field is news even when it
       * equals the adjustment's hidden value. */
      g_object_set_data (G_OBJECT (spin), "bl-field-empty", NULL);
      if (*new_value == gtk_spin_button_get_value (spin))
        g_signal_emit_by_name (spin, "value-changed");
    }
  return TRUE;
}

static gboolean
on_spin_output (GtkSpinButton *spin,
                gpointer       user_data)
{
  char buf[BL_DOUBLE_BUF_SIZE];
  const char *text = g_object_get_data (G_OBJECT (spin), "bl-field-empty") != NULL
                     ? "" : bl_number_format (gtk_spin_button_get_value (spin), buf);

  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (spin))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

void
bl_field_setup_spin (GtkSpinButton *spin,
                     GtkLabel      *message,
                     BlFieldRule    rule)
{
  g_return_if_fail (GTK_IS_SPIN_BUTTON (spin));

  g_object_set_data (G_OBJECT (spin), "bl-field-message", message);
  gtk_spin_button_set_update_policy (spin, GTK_UPDATE_IF_VALID);
  gtk_spin_button_set_numeric (spin, FALSE);
  g_signal_connect (spin, "input", G_CALLBACK (on_spin_input), GINT_TO_POINTER (rule));
  g_signal_connect (spin, "output", G_CALLBACK (on_spin_output), NULL);
  gtk_widget_add_css_class (GTK_WIDGET (spin), "numeric");
  bl_field_route_undo (GTK_WIDGET (spin));
}

void
bl_field_route_undo (GtkWidget *field)
{
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_EDITABLE (field));

  /* GtkText's text.undo is always enabled and would swallow the keys in
   * the bubble phase; a capture-phase controller on the field comes
   * first.  With nothing to undo the window's action is disabled and the
   * key goes on; the field keeps no text history of its own. */
  gtk_editable_set_enable_undo (GTK_EDITABLE (field), FALSE);
  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_z, GDK_CONTROL_MASK),
                                                          gtk_named_action_new ("win.undo")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK),
                                                          gtk_named_action_new ("win.redo")));
  gtk_widget_add_controller (field, controller);
}

char *
bl_field_format_quantity (double      value,
                          const char *unit)
{
  if (!isfinite (value))
    return g_strdup ("—");
  if (value == 0.0)
    value = 0.0;  /* no "-0" on screen */
  if (unit == NULL || *unit == '\0')
    return g_strdup_printf ("%.6g", value);
  return g_strdup_printf ("%.6g %s", value, unit);
}

void
bl_field_set_spin_empty (GtkSpinButton *spin,
                         gboolean       empty)
{
  g_return_if_fail (GTK_IS_SPIN_BUTTON (spin));

  g_object_set_data (G_OBJECT (spin), "bl-field-empty", empty ? GINT_TO_POINTER (1) : NULL);
  if (empty)
    gtk_editable_set_text (GTK_EDITABLE (spin), "");
}

gboolean
bl_field_spin_take_typed (GtkSpinButton *spin)
{
  double *typed;
  gboolean result;

  g_return_val_if_fail (GTK_IS_SPIN_BUTTON (spin), FALSE);

  /* The input handler saw the text it parsed; a button or scroll step
   * parses the old text first and then moves away from it. */
  typed = g_object_get_data (G_OBJECT (spin), "bl-field-typed");
  result = typed != NULL && *typed == gtk_spin_button_get_value (spin);
  g_object_set_data (G_OBJECT (spin), "bl-field-typed", NULL);
  return result;
}

void
bl_field_set_spin_optional (GtkSpinButton *spin,
                            gboolean       optional)
{
  g_return_if_fail (GTK_IS_SPIN_BUTTON (spin));

  g_object_set_data (G_OBJECT (spin), "bl-field-optional", optional ? GINT_TO_POINTER (1) : NULL);
}

gboolean
bl_field_spin_take_cleared (GtkSpinButton *spin)
{
  gboolean cleared;

  g_return_val_if_fail (GTK_IS_SPIN_BUTTON (spin), FALSE);

  cleared = g_object_get_data (G_OBJECT (spin), "bl-field-cleared") != NULL;
  g_object_set_data (G_OBJECT (spin), "bl-field-cleared", NULL);
  return cleared;
}

void
bl_field_set_spin_placeholder (GtkSpinButton *spin,
                               const char    *text)
{
  GtkEditable *delegate;

  g_return_if_fail (GTK_IS_SPIN_BUTTON (spin));

  /* The spin button's text is a GtkText, which has the placeholder. */
  delegate = gtk_editable_get_delegate (GTK_EDITABLE (spin));
  if (GTK_IS_TEXT (delegate))
    gtk_text_set_placeholder_text (GTK_TEXT (delegate), text);
}
