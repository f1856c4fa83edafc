/* widget-tree.c: finding widgets and typing into them. */
#include "config.h"

#include "widget-tree.h"

GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
find_by_type (GtkWidget *root,
              GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_by_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

void
type_text (GtkWidget  *widget,
           const char *text)
{
  GtkWidget *target = widget;

  gtk_editable_set_text (GTK_EDITABLE (widget), text);
  if (GTK_IS_SPIN_BUTTON (widget))
    target = GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (widget)));
  g_signal_emit_by_name (target, "activate");
}
