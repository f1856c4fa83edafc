/* bl-diagnostic-row.c: a row that shows one diagnostic or finding. */
#include "config.h"

#include "bl-diagnostic-row.h"
#include "bl-field.h"

GtkWidget *
bl_diagnostic_row_new (void)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (row), icon);
  gtk_box_append (GTK_BOX (row), label);
  return row;
}

void
bl_diagnostic_row_set (GtkWidget  *row,
                       BlSeverity  severity,
                       const char *markup,
                       const char *tooltip)
{
  static const char * const css_classes[] = { "error", "warning", "dim-label" };
  GtkWidget *icon, *label;
  const char *icon_name, *css_class;

  g_return_if_fail (GTK_IS_BOX (row));

  switch (severity)
    {
    case BL_SEVERITY_ERROR:
      icon_name = "dialog-error-symbolic";
      css_class = "error";
      break;
    case BL_SEVERITY_WARNING:
      icon_name = "dialog-warning-symbolic";
      css_class = "warning";
      break;
    case BL_SEVERITY_INFO:
    default:
      icon_name = "dialog-information-symbolic";
      css_class = "dim-label";
      break;
    }

  icon = gtk_widget_get_first_child (row);
  label = gtk_widget_get_next_sibling (icon);
  if (g_strcmp0 (gtk_image_get_icon_name (GTK_IMAGE (icon)), icon_name) != 0)
    {
      gtk_image_set_from_icon_name (GTK_IMAGE (icon), icon_name);
      for (guint i = 0; i < G_N_ELEMENTS (css_classes); i++)
        gtk_widget_remove_css_class (icon, css_classes[i]);
      gtk_widget_add_css_class (icon, css_class);
    }
  if (g_strcmp0 (gtk_label_get_label (GTK_LABEL (label)), markup) != 0)
    gtk_label_set_markup (GTK_LABEL (label), markup);
  bl_field_set_tooltip (label, tooltip);
}
