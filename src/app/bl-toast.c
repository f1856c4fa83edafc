/* bl-toast.c: a short notice over the bottom of the view that goes by itself. */
#include "config.h"

#include <glib/gi18n.h>

#include "bl-toast.h"

struct _BlToast
{
  GtkWidget    parent_instance;

  GtkRevealer *revealer;
  GtkLabel    *label;
  GtkButton   *open_button;
  GtkButton   *close_button;

  GFile       *folder;
  guint        timeout_id;
};

G_DEFINE_FINAL_TYPE (BlToast, bl_toast, GTK_TYPE_WIDGET)

static void
on_child_revealed (GtkRevealer *revealer,
                   GParamSpec  *pspec,
                   BlToast     *self)
{
  /* Hidden, it must not take clicks meant for the view under it. */
  if (!gtk_revealer_get_child_revealed (revealer) && !gtk_revealer_get_reveal_child (revealer))
    gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

void
bl_toast_dismiss (BlToast *self)
{
  g_return_if_fail (BL_IS_TOAST (self));

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_object (&self->folder);
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

static gboolean
on_timeout (gpointer data)
{
  BlToast *self = data;

  self->timeout_id = 0;
  bl_toast_dismiss (self);
  return G_SOURCE_REMOVE;
}

void
bl_toast_show (BlToast    *self,
               const char *text,
               GFile      *folder,
               guint       timeout_ms)
{
  g_return_if_fail (BL_IS_TOAST (self));
  g_return_if_fail (text != NULL);
  g_return_if_fail (folder == NULL || G_IS_FILE (folder));

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_set_object (&self->folder, folder);
  gtk_label_set_text (self->label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->open_button), folder != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
  if (timeout_ms > 0)
    self->timeout_id = g_timeout_add (timeout_ms, on_timeout, self);
}

const char *
bl_toast_get_text (BlToast *self)
{
  g_return_val_if_fail (BL_IS_TOAST (self), NULL);

  if (!gtk_revealer_get_reveal_child (self->revealer))
    return NULL;
  return gtk_label_get_text (self->label);
}

static void
on_open_clicked (GtkButton *button,
                 BlToast   *self)
{
  g_autofree char *uri = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->folder == NULL)
    return;
  uri = g_file_get_uri (self->folder);
  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
  bl_toast_dismiss (self);
}

static void
on_close_clicked (GtkButton *button,
                  BlToast   *self)
{
  bl_toast_dismiss (self);
}

GtkWidget *
bl_toast_new (void)
{
  return g_object_new (BL_TYPE_TOAST, NULL);
}

static void
bl_toast_dispose (GObject *object)
{
  BlToast *self = BL_TOAST (object);

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_object (&self->folder);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_TOAST);

  G_OBJECT_CLASS (bl_toast_parent_class)->dispose (object);
}

static void
bl_toast_class_init (BlToastClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_toast_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-toast.ui");
  gtk_widget_class_bind_template_child (widget_class, BlToast, revealer);
  gtk_widget_class_bind_template_child (widget_class, BlToast, label);
  gtk_widget_class_bind_template_child (widget_class, BlToast, open_button);
  gtk_widget_class_bind_template_child (widget_class, BlToast, close_button);
  gtk_widget_class_bind_template_callback (widget_class, on_child_revealed);
  gtk_widget_class_bind_template_callback (widget_class, on_open_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_close_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-toast");
}

static void
bl_toast_init (BlToast *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}
