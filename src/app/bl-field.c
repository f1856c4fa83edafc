/* bl-field.c: what every number field shares: strict parsing under a rule,
 * the document's undo on Ctrl+Z, the short display of a quantity. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "bl-field.h"
#include "bl-number.h"

GType
bl_field_rule_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { BL_FIELD_ANY, "BL_FIELD_ANY", "any" },
        { BL_FIELD_POSITIVE, "BL_FIELD_POSITIVE", "positive" },
        { 0, NULL, NULL },
      };
      g_once_init_leave (&type_id, g_enum_register_static (g_intern_static_string ("BlFieldRule"), values));
    }
  return type_id;
}

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
      /* "1,5" (a decimal comma, as many locales write numbers) or "1,500"
       * (a thousands separator): SDF and every field here take C's form. */
      if (reason != NULL)
        *reason = strchr (stripped, ',') != NULL
                  ? _("Write numbers with a decimal point and no separators, such as 1500.5")
                  : _("Not a finite number");
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

void
bl_field_set_tooltip (GtkWidget  *widget,
                      const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text != NULL && *text == '\0')
    text = NULL;  /* GTK keeps an empty tooltip as none */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

void
bl_field_set_note (GtkLabel   *label,
                   const char *text)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  if (text != NULL && strcmp (gtk_label_get_text (label), text) != 0)
    gtk_label_set_text (label, text);
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL);
}

void
bl_field_set_css_class (GtkWidget          *widget,
                        const char * const *classes,
                        const char         *active)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  for (guint i = 0; classes[i] != NULL; i++)
    if (g_strcmp0 (classes[i], active) != 0 && gtk_widget_has_css_class (widget, classes[i]))
      gtk_widget_remove_css_class (widget, classes[i]);
  if (active != NULL && !gtk_widget_has_css_class (widget, active))
    gtk_widget_add_css_class (widget, active);
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

char *
bl_field_dup_read_only_reason (BlDocument   *doc,
                               const BlLink *link)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);

  /* bl_edit_apply refuses an element whose tree is not the document's. */
  if (link->node->doc == bl_document_get_xml (doc))
    return NULL;
  /* Translators: %s is the file a link was included from */
  return g_strdup_printf (_("Part of an included file (%s): open it to edit"),
                          link->model->file != NULL ? link->model->file : "?");
}
