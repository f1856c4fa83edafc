/* bl-window-actions.c: the window's actions (open, recent files, save,
 * save as, export baked, model folders, undo, redo) and the viewport's
 * View menu; their state follows the session. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-application-settings.h"
#include "bl-legend.h"
#include "bl-model-folders.h"
#include "bl-resource.h"
#include "bl-window-private.h"

/* How long a notice ("Exported …") stays over the view. */
#define TOAST_TIMEOUT_MS 6000

/* Open ------------------------------------------------------------------- */

/* A modal file chooser over the window, in the shown file's folder. */
static GtkFileChooserNative *
file_chooser_new (BlWindow             *self,
                  const char           *title,
                  GtkFileChooserAction  action,
                  const char           *accept)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action,
                                                              accept, _("_Cancel"));
  GFile *shown = bl_session_get_file (self->session);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  if (shown != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (shown);
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), parent, NULL);
    }
  return dialog;
}

static GtkFileFilter *
sdf_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("SDFormat files"));
  gtk_file_filter_add_mime_type (filter, "application/x-sdformat+xml");
  gtk_file_filter_add_suffix (filter, "sdf");
  gtk_file_filter_add_suffix (filter, "world");
  return filter;
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  BlWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        bl_window_open (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = sdf_filter ();

  dialog = file_chooser_new (self, _("Open SDF File"), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  bl_window_open (BL_WINDOW (widget), file);
}

/* Most recently used first; files of the same second by address, so that
 * the menu does not reshuffle under the pointer when the list is re-read. */
static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GDateTime *ta = gtk_recent_info_get_modified ((GtkRecentInfo *) a);
  GDateTime *tb = gtk_recent_info_get_modified ((GtkRecentInfo *) b);
  int order;

  if (ta == NULL || tb == NULL)
    order = (ta == NULL) - (tb == NULL);
  else
    order = g_date_time_compare (tb, ta);
  if (order != 0)
    return order;
  return g_strcmp0 (gtk_recent_info_get_uri ((GtkRecentInfo *) a), gtk_recent_info_get_uri ((GtkRecentInfo *) b));
}

/* Whether the section holds these items, label and target alike. */
static gboolean
recent_section_equals (GMenu     *section,
                       GPtrArray *menu_items)
{
  if ((guint) g_menu_model_get_n_items (G_MENU_MODEL (section)) != menu_items->len)
    return FALSE;
  for (guint i = 0; i < menu_items->len; i++)
    {
      GMenuItem *item = g_ptr_array_index (menu_items, i);
      const char *attributes[] = { G_MENU_ATTRIBUTE_LABEL, G_MENU_ATTRIBUTE_TARGET };

      for (guint a = 0; a < G_N_ELEMENTS (attributes); a++)
        {
          g_autoptr(GVariant) now = g_menu_model_get_item_attribute_value (G_MENU_MODEL (section), i,
                                                                            attributes[a], NULL);
          g_autoptr(GVariant) wanted = g_menu_item_get_attribute_value (item, attributes[a], NULL);

          if (now == NULL || wanted == NULL || !g_variant_equal (now, wanted))
            return FALSE;
        }
    }
  return TRUE;
}

/* The recent menu follows the recent-files list.  Its items change in
 * place: a new menu model would replace the popover and close the menu
 * under the user's pointer whenever any program adds a recent file. */
void
_bl_window_update_recent_menu (BlWindow *self)
{
  GMenu *section = self->recent_section;
  GList *items = g_list_sort (gtk_recent_manager_get_items (gtk_recent_manager_get_default ()),
                              compare_recent);
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();   /* borrowed from items */
  g_autoptr(GPtrArray) menu_items = g_ptr_array_new_with_free_func (g_object_unref);
  guint n;

  if (section == NULL)
    {
      g_autoptr(GMenu) menu = g_menu_new ();

      section = self->recent_section = g_menu_new ();
      g_menu_append_section (menu, _("Recent Files"), G_MENU_MODEL (section));
      gtk_menu_button_set_menu_model (self->recent_button, G_MENU_MODEL (menu));
    }

  for (GList *l = items; l != NULL && shown->len < 10; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);

      if (!g_str_has_suffix (uri, ".sdf") && !g_str_has_suffix (uri, ".world"))
        continue;
      if (!gtk_recent_info_exists (info))
        continue;
      g_ptr_array_add (shown, info);
    }

  for (guint i = 0; i < shown->len; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (shown, i);
      const char *uri = gtk_recent_info_get_uri (info);
      const char *name = gtk_recent_info_get_display_name (info);
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *label = NULL;
      gboolean collides = FALSE;

      /* Two files of one name (every world.sdf) are told apart by folder. */
      for (guint j = 0; j < shown->len && !collides; j++)
        collides = j != i && g_strcmp0 (name, gtk_recent_info_get_display_name (g_ptr_array_index (shown, j))) == 0;
      if (collides)
        {
          g_autoptr(GFile) file = g_file_new_for_uri (uri);
          g_autofree char *dir = _bl_window_dup_folder_display (file);

          /* Translators: a file name and its folder, in the recent files menu */
          label = g_strdup_printf (_("%s — %s"), name, dir != NULL ? dir : "/");
        }
      else
        label = g_strdup (name);
      /* A menu reads "_" as a mnemonic: my_model.sdf must not show as mymodel.sdf. */
      {
        g_auto(GStrv) parts = g_strsplit (label, "_", -1);
        g_autofree char *escaped = g_strjoinv ("__", parts);

        item = g_menu_item_new (escaped, NULL);
      }
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", uri);
      g_ptr_array_add (menu_items, g_steal_pointer (&item));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  /* The same items again (the list was re-read, or changed where it is
   * not shown): the menu's rows stay, not made anew under the pointer. */
  n = menu_items->len;
  if (!recent_section_equals (section, menu_items))
    {
      g_menu_remove_all (section);
      for (guint i = 0; i < n; i++)
        g_menu_append_item (section, g_ptr_array_index (menu_items, i));
    }

  /* Nothing to offer: no empty menu. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->recent_button), n > 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->recent_button),
                               n > 0 ? _("Recent files") : _("No recent files"));
}



/* Model folders ----------------------------------------------------------- */

/* Keeps PATHS among the user's model folders (the application's model-paths
 * setting, which ballast-cli reads too; a window of its own, as in the
 * tests, for this run only) and reloads the file so that its includes
 * and meshes resolve: with unsaved edits, after asking whether to save
 * them. */
static void
add_model_paths (BlWindow           *self,
                 const char * const *paths)
{
  GActionGroup *application = G_ACTION_GROUP (gtk_window_get_application (GTK_WINDOW (self)));

  /* bl_application_add_model_path, through the application's action. */
  for (guint i = 0; paths[i] != NULL; i++)
    if (application != NULL && g_action_group_has_action (application, "add-model-path"))
      g_action_group_activate_action (application, "add-model-path", g_variant_new_string (paths[i]));
    else
      bl_resource_add_extra_path (paths[i]);

  if (bl_session_get_file (self->session) != NULL)
    {
      g_autofree char *name = _bl_window_dup_display_name (self);
      g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before reloading it?"), name);

      _bl_window_confirm_discard (self, question, bl_then_new (_bl_window_reload, NULL, NULL));
    }
}

/* The model path wants the folder that holds a model's folder; a user who
 * picks the model's own folder ("…/models/tethys" for model://tethys,
 * with no "tethys" inside) means its parent. */
static char *
dup_model_path_for (BlWindow   *self,
                    const char *chosen)
{
  g_autofree char *base = g_path_get_basename (chosen);
  GPtrArray *failures = bl_document_get_include_failures (bl_session_get_document (self->session));

  for (guint i = 0; i < failures->len; i++)
    {
      const BlIncludeFailure *failure = g_ptr_array_index (failures, i);
      g_autofree char *inside = NULL;

      if (failure->problem != BL_INCLUDE_NOT_FOUND || g_strcmp0 (failure->name, base) != 0)
        continue;
      inside = g_build_filename (chosen, failure->name, NULL);
      if (!g_file_test (inside, G_FILE_TEST_IS_DIR))
        return g_path_get_dirname (chosen);
    }
  return g_strdup (chosen);
}

static void
on_model_folder_response (GtkNativeDialog *dialog,
                          int              response,
                          BlWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *chosen = folder != NULL ? g_file_get_path (folder) : NULL;

      if (chosen != NULL && bl_session_get_document (self->session) != NULL)
        {
          g_autofree char *path = dup_model_path_for (self, chosen);
          const char *paths[] = { path, NULL };

          add_model_paths (self, paths);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

/* Asks for a folder that holds models, keeps it and reloads the file, so
 * that the includes it holds resolve. */
static void
add_model_path_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);
  GtkFileChooserNative *dialog;

  dialog = file_chooser_new (self, _("Add Model Folder"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Add"));
  g_signal_connect (dialog, "response", G_CALLBACK (on_model_folder_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Allows the folders of files the placement rule refused (the problems
 * bar's offer, docs/HARDENING.md): they become model folders, and the
 * file is reloaded. */
static void
allow_folders_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  g_autofree const char **folders = g_variant_get_strv (parameter, NULL);

  if (folders[0] != NULL)
    add_model_paths (BL_WINDOW (widget), folders);
}

/* Shows the user's model folders, to see and remove them (and add one). */
static void
model_folders_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  GActionGroup *application = G_ACTION_GROUP (gtk_window_get_application (GTK_WINDOW (widget)));
  g_autoptr(GSettings) settings = NULL;

  /* the setting when the application keeps it (as add_model_paths
   * decides), else the folders of this run */
  if (application != NULL && g_action_group_has_action (application, "add-model-path"))
    settings = bl_application_settings_new ();
  gtk_window_present (GTK_WINDOW (bl_model_folders_new (GTK_WINDOW (widget), settings)));
}

/* Undo and redo ----------------------------------------------------------- */

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);
  BlEditHistory *history = bl_session_get_history (self->session);

  if (history != NULL)
    bl_edit_history_undo (history);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);
  BlEditHistory *history = bl_session_get_history (self->session);
  g_autoptr(GError) error = NULL;

  if (history != NULL && bl_edit_history_can_redo (history) &&
      !bl_edit_history_redo (history, &error))
    _bl_window_show_error (self, _("Could not redo the edit"), error->message);
}

void
_bl_window_update_actions (BlWindow *self)
{
  BlEditHistory *history = bl_session_get_history (self->session);
  gboolean has_document = bl_session_get_document (self->session) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo",
                                 history != NULL && bl_edit_history_can_undo (history));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo",
                                 history != NULL && bl_edit_history_can_redo (history));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save", has_document);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as", has_document);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-baked", has_document);
}

/* Save, save as, export baked --------------------------------------------- */

/* A write running in the session, and what follows it. */
typedef struct
{
  BlWindow *window;    /* kept until the write ends */
  GFile    *file;
  BlThen   *then;
} Saving;

static Saving *
saving_new (BlWindow *self,
            GFile    *file,
            BlThen   *then)
{
  Saving *saving = g_new0 (Saving, 1);

  saving->window = g_object_ref (self);
  saving->file = g_object_ref (file);
  saving->then = then;
  return saving;
}

static void
saving_free (Saving *saving)
{
  bl_then_free (saving->then);
  g_clear_object (&saving->file);
  g_clear_object (&saving->window);
  g_free (saving);
}

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Saving *saving = user_data;
  BlWindow *self = saving->window;
  g_autoptr(GError) error = NULL;

  if (!bl_session_write_finish (BL_SESSION (source), result, &error))
    {
      g_autofree char *name = g_file_get_parse_name (saving->file);
      g_autofree char *primary = g_strdup_printf (_("Could not save “%s”"), name);

      _bl_window_show_error (self, primary, error->message);
    }
  else
    {
      _bl_window_add_to_recent (self, saving->file);
      bl_then_run (g_steal_pointer (&saving->then), self);
    }
  saving_free (saving);
}

static void
on_exported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Saving *saving = user_data;
  BlWindow *self = saving->window;
  g_autoptr(GError) error = NULL;

  if (!bl_session_write_finish (BL_SESSION (source), result, &error))
    _bl_window_show_error (self, _("Could not export the baked file"), error->message);
  else
    {
      g_autofree char *name = g_file_get_basename (saving->file);
      g_autofree char *dir = _bl_window_dup_folder_display (saving->file);
      g_autoptr(GFile) folder = g_file_get_parent (saving->file);
      /* Translators: the file name, then its folder ("~/robots") */
      g_autofree char *notice = g_strdup_printf (_("Exported “%s” to %s"), name, dir != NULL ? dir : "/");

      bl_toast_show (self->toast, notice, folder, TOAST_TIMEOUT_MS);
      _bl_window_add_to_recent (self, saving->file);
      bl_then_run (g_steal_pointer (&saving->then), self);
    }
  saving_free (saving);
}

/* The dialog owns a Saving without its window until it is answered. */
static void
on_replace_response (GtkDialog *dialog,
                     int        response,
                     BlWindow  *self)
{
  Saving *saving = g_object_steal_data (G_OBJECT (dialog), "bl-saving");

  if (self->dialog == GTK_WIDGET (dialog))
    self->dialog = NULL;
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response == BL_WINDOW_RESPONSE_REPLACE)
    {
      /* Asked and answered: this version is the one written over. */
      bl_session_accept_disk (self->session);
      bl_session_write_async (self->session, saving->file, BL_SESSION_SAVE, on_saved, saving);
    }
  else
    saving_free (saving);
}

/* Saving would write over another program's changes: ask first. */
static void
ask_replace (BlWindow *self,
             Saving   *saving)
{
  g_autofree char *name = _bl_window_dup_display_name (self);
  g_autofree char *primary = g_strdup_printf (_("Replace the changed “%s” on disk?"), name);
  GtkWidget *dialog;
  GtkWidget *button;

  dialog = _bl_window_question_new (self, GTK_MESSAGE_WARNING, primary,
                                    _("Another program changed the file after Ballast read it. "
                                      "Saving writes your version over it, and its changes are lost."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Replace the File on Disk"), BL_WINDOW_RESPONSE_REPLACE);
  gtk_widget_add_css_class (button, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (dialog), "bl-saving", saving, (GDestroyNotify) saving_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_replace_response), self);
  self->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

/* What a Save As (or Export) dialog does once answered. */
typedef struct
{
  gboolean  bake;
  BlThen   *then;
} SaveAs;

static void
save_as_free (SaveAs *save_as)
{
  bl_then_free (save_as->then);
  g_free (save_as);
}

static void
on_save_as_response (GtkNativeDialog *dialog,
                     int              response,
                     BlWindow        *self)
{
  SaveAs *save_as = g_object_get_data (G_OBJECT (dialog), "bl-save-as");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        _bl_window_save (self, file, save_as->bake, g_steal_pointer (&save_as->then));
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
ask_save_as (BlWindow *self,
             gboolean  bake,
             BlThen   *then)
{
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = sdf_filter ();
  g_autofree char *name = _bl_window_dup_display_name (self);
  GFile *current = bl_session_get_file (self->session);
  SaveAs *save_as = g_new0 (SaveAs, 1);

  save_as->bake = bake;
  save_as->then = then;
  dialog = file_chooser_new (self, bake ? _("Export Baked SDF") : _("Save SDF File As"),
                             GTK_FILE_CHOOSER_ACTION_SAVE, bake ? _("_Export") : _("_Save"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (bake)
    {
      g_autofree char *stem = g_str_has_suffix (name, ".sdf") ? g_strndup (name, strlen (name) - 4) : g_strdup (name);
      g_autofree char *baked = g_strdup_printf ("%s-baked.sdf", stem);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), baked);
    }
  else if (current != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "sample.sdf");
  g_object_set_data_full (G_OBJECT (dialog), "bl-save-as", save_as, (GDestroyNotify) save_as_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_as_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
_bl_window_save (BlWindow *self,
                 GFile    *file,
                 gboolean  bake,
                 BlThen   *then)
{
  if (file == NULL)
    ask_save_as (self, bake, then);
  else if (bake)
    bl_session_write_async (self->session, file, BL_SESSION_EXPORT_BAKED, on_exported,
                            saving_new (self, file, then));
  else if (bl_session_disk_changed (self->session, file))
    ask_replace (self, saving_new (self, file, then));
  else
    bl_session_write_async (self->session, file, BL_SESSION_SAVE, on_saved, saving_new (self, file, then));
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);

  _bl_window_save (self, bl_session_get_file (self->session), FALSE, NULL);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  ask_save_as (BL_WINDOW (widget), FALSE, NULL);
}

static void
export_baked_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ask_save_as (BL_WINDOW (widget), TRUE, NULL);
}

/* The View menu ----------------------------------------------------------- */

static const char * const overlay_toggles[] = {
  "show-inertia-ellipsoid",
  "show-inertia-box",
  "show-com",
  "show-principal-axes",
  "show-buoyancy-center",
  "show-added-mass",
  "wireframe",
  "xray",
};

static void
view_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  BlWindow *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));

  if (g_str_equal (name, "fit-all"))
    bl_viewport_fit_all (self->viewport);
  else if (g_str_equal (name, "fit-selection"))
    bl_viewport_fit_selection (self->viewport);
  else if (g_str_equal (name, "front"))
    bl_viewport_set_view (self->viewport, BL_VIEW_FRONT);
  else if (g_str_equal (name, "top"))
    bl_viewport_set_view (self->viewport, BL_VIEW_TOP);
  else if (g_str_equal (name, "side"))
    bl_viewport_set_view (self->viewport, BL_VIEW_SIDE);
  else if (g_str_equal (name, "iso"))
    bl_viewport_set_view (self->viewport, BL_VIEW_ISO);
}

/* The menu's "view" actions drive the viewport's camera and overlay
 * properties, and the legend's visibility. */
void
_bl_window_install_view_actions (BlWindow  *self,
                                 GtkWidget *legend)
{
  static const GActionEntry entries[] = {
    { "fit-all", view_activated, NULL, NULL, NULL, { 0 } },
    { "fit-selection", view_activated, NULL, NULL, NULL, { 0 } },
    { "front", view_activated, NULL, NULL, NULL, { 0 } },
    { "top", view_activated, NULL, NULL, NULL, { 0 } },
    { "side", view_activated, NULL, NULL, NULL, { 0 } },
    { "iso", view_activated, NULL, NULL, NULL, { 0 } },
  };
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
  self->fit_selection = G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (group), "fit-selection"));
  g_simple_action_set_enabled (self->fit_selection, FALSE);
  {
    g_autoptr(GPropertyAction) action = g_property_action_new ("show-legend", legend, "visible");

    g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  }
  for (guint i = 0; i < G_N_ELEMENTS (overlay_toggles); i++)
    {
      g_autoptr(GPropertyAction) action = g_property_action_new (overlay_toggles[i], self->viewport,
                                                                 overlay_toggles[i]);
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
    }
  gtk_widget_insert_action_group (GTK_WIDGET (self), "view", G_ACTION_GROUP (group));
}

/* The overlays shown are kept in the settings. */
void
_bl_window_bind_view_settings (BlWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (overlay_toggles); i++)
    g_settings_bind (self->settings, overlay_toggles[i], self->viewport, overlay_toggles[i],
                     G_SETTINGS_BIND_DEFAULT);
}

/* Installing -------------------------------------------------------------- */

void
_bl_window_class_actions_init (BlWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.export-baked", NULL, export_baked_action);
  gtk_widget_class_install_action (widget_class, "win.add-model-path", NULL, add_model_path_action);
  gtk_widget_class_install_action (widget_class, "win.allow-folders", "as", allow_folders_action);
  gtk_widget_class_install_action (widget_class, "win.model-folders", NULL, model_folders_action);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "win.redo", NULL, redo_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.save-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-baked", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "win.undo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.redo", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.redo", NULL);
}
