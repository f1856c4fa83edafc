/* bl-diagnostic-row.c: a row that shows one diagnostic or finding. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-diagnostic-row.h"
#include "bl-field.h"

#define MIN_WIDTH_CHARS 20

/* A grid, not a box: GtkViewport asks the page for its width at the
 * page's height, a box hands that height to the wrapping label, and the
 * label answers by a binary search over widths, a Pango layout a step,
 * whenever its text changed (milliseconds of every edit for a long
 * message with numbers in it).  A grid measures its children's widths at
 * no height. */
GtkWidget *
bl_diagnostic_row_new (void)
{
  GtkWidget *row = gtk_grid_new ();
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* The narrowest the label asks for.  Without it GTK finds a wrapping
   * label's least width by laying it out at width 0, a character a line:
   * hundreds of lines for a long message, whenever its text changes (3 ms
   * of CPU of each edit at 1,000 links with one such message). */
  gtk_label_set_width_chars (GTK_LABEL (label), MIN_WIDTH_CHARS);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_grid_set_column_spacing (GTK_GRID (row), 6);
  gtk_grid_attach (GTK_GRID (row), icon, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (row), label, 1, 0, 1, 1);
  return row;
}

void
bl_diagnostic_row_set (GtkWidget  *row,
                       BlSeverity  severity,
                       const char *markup,
                       const char *tooltip)
{
  static const char * const css_classes[] = { "error", "warning", "dim-label", NULL };
  GtkWidget *icon, *label;
  const char *icon_name, *css_class;

  g_return_if_fail (GTK_IS_GRID (row));

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
    gtk_image_set_from_icon_name (GTK_IMAGE (icon), icon_name);
  bl_field_set_css_class (icon, css_classes, css_class);
  if (g_strcmp0 (gtk_label_get_label (GTK_LABEL (label)), markup) != 0)
    gtk_label_set_markup (GTK_LABEL (label), markup);
  bl_field_set_tooltip (label, tooltip);
}

GtkWidget *
bl_diagnostic_box_sync (GtkBox     *box,
                        guint       n,
                        const char *empty_text,
                        const char *empty_class)
{
  static const char * const empty_classes[] = { "dim-label", "success", "warning", "error", NULL };
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (box));
  GtkWidget *next, *first = NULL;
  guint kept = 0;

  g_return_val_if_fail (GTK_IS_BOX (box), NULL);

  if (n == 0)
    {
      GtkWidget *label = child;

      if (label == NULL || !GTK_IS_LABEL (label) || gtk_widget_get_next_sibling (label) != NULL)
        {
          while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
            gtk_box_remove (box, child);
          label = gtk_label_new (NULL);
          gtk_label_set_xalign (GTK_LABEL (label), 0.0);
          gtk_box_append (box, label);
        }
      gtk_label_set_text (GTK_LABEL (label), empty_text);
      bl_field_set_css_class (label, empty_classes, empty_class);
      return NULL;
    }

  for (; child != NULL; child = next)
    {
      next = gtk_widget_get_next_sibling (child);
      if (GTK_IS_LABEL (child) || kept == n)
        gtk_box_remove (box, child);
      else
        {
          if (first == NULL)
            first = child;
          kept++;
        }
    }
  for (; kept < n; kept++)
    {
      GtkWidget *row = bl_diagnostic_row_new ();

      gtk_box_append (box, row);
      if (first == NULL)
        first = row;
    }
  return first;
}

char *
bl_diagnostic_row_dup_message (const BlDiagnostic *d,
                               const char         *link_name)
{
  static const char collision[] = "/collision[";
  gsize n = strlen (link_name);
  const char *name, *end;
  g_autofree char *collision_name = NULL;
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (d != NULL && link_name != NULL, NULL);

  /* "model::link/collision[NAME]", maybe "/density" and so on after it */
  if (d->element == NULL || strncmp (d->element, link_name, n) != 0 ||
      strncmp (d->element + n, collision, strlen (collision)) != 0)
    return g_strdup (d->message);
  name = d->element + n + strlen (collision);
  end = strstr (name, "]/");
  if (end == NULL)
    end = g_str_has_suffix (name, "]") ? name + strlen (name) - 1 : NULL;
  if (end == NULL)
    return g_strdup (d->message);
  collision_name = g_strndup (name, end - name);
  quoted = g_strdup_printf ("“%s”", collision_name);
  if (strstr (d->message, quoted) != NULL)
    return g_strdup (d->message);
  /* Translators: a collision's name, then a message about it */
  return g_strdup_printf (_("collision “%s”: %s"), collision_name, d->message);
}
