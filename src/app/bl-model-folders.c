/* bl-model-folders.c: the user's model folders, shown, added and removed. */
#include "config.h"

#include <glib/gi18n.h>

#include "bl-application-settings.h"
#include "bl-model-folders.h"
#include "bl-resource.h"

struct _BlModelFolders
{
  GtkWindow    parent_instance;

  GtkListBox  *list;

  GSettings   *settings;   /* the model-paths key's, or NULL: the resolver's */
};

G_DEFINE_FINAL_TYPE (BlModelFolders, bl_model_folders, GTK_TYPE_WINDOW)

static GStrv
dup_folders (BlModelFolders *self)
{
  if (self->settings != NULL)
    return g_settings_get_strv (self->settings, "model-paths");
  return bl_resource_dup_extra_paths ();
}

static void update (BlModelFolders *self);

static void
remove_folder (BlModelFolders *self,
               const char     *folder)
{
  if (self->settings != NULL)
    bl_application_settings_remove_model_path (self->settings, folder);
  else
    bl_resource_remove_extra_path (folder);
  update (self);
}

static void
on_remove_clicked (GtkButton      *button,
                   BlModelFolders *self)
{
  remove_folder (self, g_object_get_data (G_OBJECT (button), "bl-folder"));
}

/* One folder: its path (selectable, to copy) and a button that removes it. */
static GtkWidget *
folder_row_new (BlModelFolders *self,
                const char     *folder)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (folder);
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  /* Translators: a folder, as “/data/meshes” */
  g_autofree char *tooltip = g_strdup_printf (_("Remove %s from the model folders"), folder);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  gtk_widget_set_tooltip_text (label, folder);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_set_tooltip_text (remove, tooltip);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_name (remove, "remove-button");
  g_object_set_data_full (G_OBJECT (remove), "bl-folder", g_strdup (folder), g_free);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_clicked), self);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 2);
  gtk_widget_set_margin_top (box, 2);
  gtk_widget_set_margin_bottom (box, 2);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), remove);
  return box;
}

static void
update (BlModelFolders *self)
{
  g_auto(GStrv) folders = dup_folders (self);
  GtkWidget *row;

  /* the rows, not the placeholder (also a child) */
  while ((row = (GtkWidget *) gtk_list_box_get_row_at_index (self->list, 0)) != NULL)
    gtk_list_box_remove (self->list, row);
  for (guint i = 0; folders[i] != NULL; i++)
    gtk_list_box_append (self->list, folder_row_new (self, folders[i]));
}

static void
on_model_paths_changed (GSettings      *settings,
                        const char     *key,
                        BlModelFolders *self)
{
  update (self);
}

static void
on_folder_chosen (GtkNativeDialog *dialog,
                  int              response,
                  BlModelFolders  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = folder != NULL ? g_file_get_path (folder) : NULL;

      if (path != NULL && self->settings != NULL)
        bl_application_settings_add_model_path (self->settings, path);
      else if (path != NULL)
        bl_resource_add_extra_path (path);
      update (self);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/* Asks for a folder and adds it. */
static void
on_add_clicked (GtkButton      *button,
                BlModelFolders *self)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Add Model Folder"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                              _("_Add"), _("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

GtkWidget *
bl_model_folders_new (GtkWindow *parent,
                      GSettings *settings)
{
  BlModelFolders *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);

  self = g_object_new (BL_TYPE_MODEL_FOLDERS, "transient-for", parent, NULL);
  if (settings != NULL)
    {
      self->settings = g_object_ref (settings);
      g_signal_connect_object (settings, "changed::model-paths", G_CALLBACK (on_model_paths_changed), self,
                               G_CONNECT_DEFAULT);
    }
  update (self);
  return GTK_WIDGET (self);
}

static void
bl_model_folders_dispose (GObject *object)
{
  BlModelFolders *self = BL_MODEL_FOLDERS (object);

  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_MODEL_FOLDERS);

  G_OBJECT_CLASS (bl_model_folders_parent_class)->dispose (object);
}

static void
bl_model_folders_class_init (BlModelFoldersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_model_folders_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-model-folders.ui");
  gtk_widget_class_bind_template_child (widget_class, BlModelFolders, list);
  gtk_widget_class_bind_template_callback (widget_class, on_add_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
bl_model_folders_init (BlModelFolders *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
