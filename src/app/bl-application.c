/* bl-application.c: the Ballast GtkApplication: windows, settings, app actions. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-application.h"
#include "bl-recovery.h"
#include "bl-resource.h"
#include "bl-window.h"

struct _BlApplication
{
  GtkApplication  parent_instance;

  char           *screenshot_path;
  int             window_width;     /* --window-size, or 0 */
  int             window_height;
  gboolean        failed;
  GDBusConnection *portal_bus;
  guint           portal_signal_id;
  gboolean        recovery_checked;
  GPtrArray      *orphans;          /* BlRecovery* not yet answered */
  GSettings      *settings;         /* NULL without the installed schema */
};

G_DEFINE_FINAL_TYPE (BlApplication, bl_application, GTK_TYPE_APPLICATION)

/* Dark style ---------------------------------------------------------------
 * GTK 4.8 without libadwaita does not follow the desktop's colour scheme by
 * itself: read org.freedesktop.appearance color-scheme from the settings
 * portal and keep following it.  Without a portal (or with "no
 * preference") GTK's own gtk-application-prefer-dark-theme stays as the
 * user set it: settings.ini, XSETTINGS, or GTK_THEME=Adwaita:dark. */

static gboolean user_prefers_dark;
static gboolean user_preference_known;

void
bl_application_apply_color_scheme (guint32 scheme)
{
  GtkSettings *settings = gtk_settings_get_default ();
  gboolean dark;

  if (settings == NULL)
    return;
  if (!user_preference_known)
    {
      g_object_get (settings, "gtk-application-prefer-dark-theme", &user_prefers_dark, NULL);
      user_preference_known = TRUE;
    }
  switch (scheme)
    {
    case 1:  /* prefer dark */
      dark = TRUE;
      break;
    case 2:  /* prefer light */
      dark = FALSE;
      break;
    case 0:  /* no preference */
    default:
      dark = user_prefers_dark;
      break;
    }
  g_object_set (settings, "gtk-application-prefer-dark-theme", dark, NULL);
}

static void
apply_color_scheme (GVariant *value)
{
  g_autoptr(GVariant) inner = NULL;
  guint32 scheme = 0;

  while (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *next = g_variant_get_variant (value);
      g_clear_pointer (&inner, g_variant_unref);
      inner = next;
      value = next;
    }
  if (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
    scheme = g_variant_get_uint32 (value);
  bl_application_apply_color_scheme (scheme);
}

static void
on_portal_read (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, NULL);
  g_autoptr(GVariant) value = NULL;

  if (reply == NULL)
    return;  /* no portal: keep the theme's own setting */
  g_variant_get (reply, "(v)", &value);
  apply_color_scheme (value);
}

static void
on_portal_setting_changed (GDBusConnection *connection,
                           const char      *sender,
                           const char      *path,
                           const char      *interface,
                           const char      *signal,
                           GVariant        *parameters,
                           gpointer         user_data)
{
  const char *ns, *key;
  g_autoptr(GVariant) value = NULL;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(ssv)")))
    return;
  g_variant_get (parameters, "(&s&sv)", &ns, &key, &value);
  if (g_strcmp0 (ns, "org.freedesktop.appearance") == 0 && g_strcmp0 (key, "color-scheme") == 0)
    apply_color_scheme (value);
}

static void
follow_color_scheme (BlApplication *self)
{
  self->portal_bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (self->portal_bus == NULL)
    return;
  self->portal_signal_id =
    g_dbus_connection_signal_subscribe (self->portal_bus, "org.freedesktop.portal.Desktop",
                                        "org.freedesktop.portal.Settings", "SettingChanged",
                                        "/org/freedesktop/portal/desktop", NULL,
                                        G_DBUS_SIGNAL_FLAGS_NONE,
                                        on_portal_setting_changed, NULL, NULL);
  g_dbus_connection_call (self->portal_bus, "org.freedesktop.portal.Desktop",
                          "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                          "Read", g_variant_new ("(ss)", "org.freedesktop.appearance", "color-scheme"),
                          G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000,
                          NULL, on_portal_read, NULL);
}

/* Recovery after a crash ------------------------------------------------ */

static void offer_next_recovery (BlApplication *self,
                                 GtkWindow     *parent);

static void
on_recovery_response (GtkDialog     *dialog,
                      int            response,
                      BlApplication *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (dialog));
  g_autoptr(BlRecovery) entry = g_ptr_array_steal_index (self->orphans, 0);

  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response == BL_RECOVERY_RESPONSE_RESTORE)
    {
      BlWindow *target = BL_IS_WINDOW (parent) ? BL_WINDOW (parent) : NULL;
      g_autoptr(GError) error = NULL;

      /* Into the window that opened on the untouched sample, else a new one. */
      if (target == NULL || bl_window_get_modified (target) || bl_window_get_file (target) != NULL)
        {
          target = bl_window_new (GTK_APPLICATION (self));
          bl_window_load_sample (target);
          gtk_window_present (GTK_WINDOW (target));
        }
      if (!bl_window_restore (target, entry, &error))
        {
          GtkWidget *message = gtk_message_dialog_new (GTK_WINDOW (target),
                                                       GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                       GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                       "%s", _("Could not restore the unsaved edits"));
          gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (message), "%s", error->message);
          g_signal_connect (message, "response", G_CALLBACK (gtk_window_destroy), NULL);
          gtk_window_present (GTK_WINDOW (message));
        }
      parent = GTK_WINDOW (target);
    }
  else if (response == BL_RECOVERY_RESPONSE_DISCARD)
    bl_recovery_discard (entry);
  /* Otherwise (closed): asked again next time. */

  offer_next_recovery (self, parent);
}

static void
offer_next_recovery (BlApplication *self,
                     GtkWindow     *parent)
{
  BlRecovery *entry;
  GFile *original;
  GtkWidget *dialog;
  g_autofree char *name = NULL;
  g_autofree char *where = NULL;
  g_autofree char *when = NULL;

  if (self->orphans == NULL || self->orphans->len == 0)
    return;
  entry = g_ptr_array_index (self->orphans, 0);
  original = bl_recovery_get_original (entry);
  name = original != NULL ? g_file_get_basename (original) : g_strdup (_("Sample AUV"));
  where = original != NULL ? g_file_get_parse_name (original) : g_strdup (_("the built-in sample"));
  if (bl_recovery_get_modified (entry) != NULL)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      when = bl_recovery_format_time (bl_recovery_get_modified (entry), now);
    }

  dialog = gtk_message_dialog_new (parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   _("Restore the unsaved edits to “%s”?"), name);
  if (when != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                              /* Translators: the time of the copy as “today at %H:%M” or “%-d %B %Y at %H:%M” give it
                                                 (a preposition that depends on it belongs there), then the file's full path */
                                              _("Ballast ended without saving them; a copy from %s was kept. Restoring opens them as unsaved edits to %s. Discarding deletes the copy."),
                                              when, where);
  else
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                              /* Translators: the file's full path */
                                              _("Ballast ended without saving them; a copy was kept. Restoring opens them as unsaved edits to %s. Discarding deletes the copy."),
                                              where);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), BL_RECOVERY_RESPONSE_DISCARD);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Restore"), BL_RECOVERY_RESPONSE_RESTORE);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), BL_RECOVERY_RESPONSE_RESTORE);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), BL_RECOVERY_RESPONSE_DISCARD),
                            "destructive-action");
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), BL_RECOVERY_RESPONSE_RESTORE),
                            "suggested-action");
  g_signal_connect (dialog, "response", G_CALLBACK (on_recovery_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Once per run: copies left by an instance that was killed or crashed. */
static void
offer_recovery (BlApplication *self,
                BlWindow      *window)
{
  if (self->recovery_checked || self->screenshot_path != NULL)
    return;
  self->recovery_checked = TRUE;
  self->orphans = bl_recovery_find_orphans ();
  offer_next_recovery (self, GTK_WINDOW (window));
}

/* Screenshot mode ------------------------------------------------------- */

static gboolean
take_screenshot (gpointer data)
{
  BlWindow *window = data;
  BlApplication *self = BL_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));
  g_autoptr(GError) error = NULL;

  if (!bl_window_save_screenshot (window, self->screenshot_path, &error))
    {
      g_printerr ("ballast: %s\n", error->message);
      self->failed = TRUE;
    }
  g_application_quit (G_APPLICATION (self));
  return G_SOURCE_REMOVE;
}

static guint screenshot_frames;

static gboolean
on_screenshot_tick (GtkWidget     *widget,
                    GdkFrameClock *clock,
                    gpointer       user_data)
{
  /* Wait a few frames: the layout settles and the viewport draws once,
   * with big meshes' levels of detail once they are made. */
  if (++screenshot_frames < 4 || bl_window_get_view_settling (BL_WINDOW (widget)))
    return G_SOURCE_CONTINUE;
  g_idle_add_full (G_PRIORITY_LOW, take_screenshot, widget, NULL);
  return G_SOURCE_REMOVE;
}

static void
present (BlApplication *self,
         BlWindow      *window)
{
  if (self->window_width > 0)
    {
      gtk_window_unmaximize (GTK_WINDOW (window));
      gtk_window_set_default_size (GTK_WINDOW (window), self->window_width, self->window_height);
    }
  else if (self->screenshot_path != NULL)
    {
      gtk_window_unmaximize (GTK_WINDOW (window));
      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
    }
  if (self->screenshot_path != NULL)
    {
      /* A file still opening is waited for (see on_file_opened). */
      if (!bl_window_get_loading (window))
        gtk_widget_add_tick_callback (GTK_WIDGET (window), on_screenshot_tick, NULL, NULL);
    }
  gtk_window_present (GTK_WINDOW (window));
}

/* Actions ---------------------------------------------------------------- */

static void
new_window_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  BlApplication *self = user_data;
  BlWindow *window = bl_window_new (GTK_APPLICATION (self));

  bl_window_load_sample (window);
  present (self, window);
}

/* A window's Add Model Folder: the folder as a string. */
static void
add_model_path_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  bl_application_add_model_path (BL_APPLICATION (user_data), g_variant_get_string (parameter, NULL));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = user_data;
  static const char *developers[] = { "The Ballast developers", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", "Ballast",
                         "logo-icon-name", BL_APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Mass properties and fluid added mass of SDFormat robot and marine-vehicle models"),
                         "license-type", GTK_LICENSE_APACHE_2_0,
                         "authors", developers,
                         /* Translators: put your names here, one per line */
                         "translator-credits", _("translator-credits"),
                         /* No "website": the project has no public home yet. */
                         NULL);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  /* Each window asks about its own unsaved edits. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free (windows);
}

static const GActionEntry app_actions[] = {
  { "new-window", new_window_activated, NULL, NULL, NULL, { 0 } },
  { "about", about_activated, NULL, NULL, NULL, { 0 } },
  { "add-model-path", add_model_path_activated, "s", NULL, NULL, { 0 } },
  { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
};

/* GApplication ----------------------------------------------------------- */

static int
bl_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  BlApplication *self = BL_APPLICATION (app);
  const char *path = NULL;
  const char *size = NULL;

  if (g_variant_dict_lookup (options, "version", "b", NULL))
    {
      g_print ("ballast %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_variant_dict_lookup (options, "window-size", "&s", &size))
    {
      char *end = NULL;
      gint64 width = g_ascii_strtoll (size, &end, 10), height = 0;

      if (end != NULL && *end == 'x')
        height = g_ascii_strtoll (end + 1, &end, 10);
      if (end == NULL || *end != '\0' || width < 200 || height < 200 || width > 16384 || height > 16384)
        {
          g_printerr (_("ballast: --window-size “%s”: expected WIDTHxHEIGHT in pixels, e.g. 1024x700\n"), size);
          return 1;
        }
      self->window_width = (int) width;
      self->window_height = (int) height;
    }
  if (g_variant_dict_lookup (options, "screenshot", "^&ay", &path))
    {
      self->screenshot_path = g_strdup (path);
      /* A one-shot render must not hand its files to a running instance. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  return -1;
}

/* Model paths ------------------------------------------------------------
 * The model-paths setting is the core's list of extra model folders, for
 * every window (ballast-cli reads the same key). */

static void
apply_model_paths (BlApplication *self)
{
  g_auto(GStrv) paths = g_settings_get_strv (self->settings, "model-paths");

  bl_resource_set_extra_paths ((const char * const *) paths);
}

static void
on_model_paths_changed (GSettings  *settings,
                        const char *key,
                        gpointer    user_data)
{
  apply_model_paths (BL_APPLICATION (user_data));
}

/* The user's opt-out of "files only where they belong" (docs/HARDENING.md). */
static void
on_allow_outside_changed (GSettings  *settings,
                          const char *key,
                          gpointer    user_data)
{
  bl_resource_set_allow_outside (g_settings_get_boolean (settings, "allow-outside-files"));
}

static void
follow_model_paths (BlApplication *self)
{
  self->settings = bl_application_settings_new ();
  if (self->settings == NULL)
    return;
  g_signal_connect_object (self->settings, "changed::model-paths",
                           G_CALLBACK (on_model_paths_changed), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->settings, "changed::allow-outside-files",
                           G_CALLBACK (on_allow_outside_changed), self, G_CONNECT_DEFAULT);
  apply_model_paths (self);
  on_allow_outside_changed (self->settings, "allow-outside-files", self);
}

gboolean
bl_application_add_model_path (BlApplication *self,
                               const char    *folder)
{
  g_return_val_if_fail (BL_IS_APPLICATION (self), FALSE);
  g_return_val_if_fail (folder != NULL && *folder != '\0', FALSE);

  if (self->settings == NULL)
    return bl_resource_add_extra_path (folder);
  if (!bl_application_settings_add_model_path (self->settings, folder))
    return FALSE;
  apply_model_paths (self);
  return TRUE;
}

static void
bl_application_startup (GApplication *app)
{
  BlApplication *self = BL_APPLICATION (app);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *new_window_accels[] = { "<Control>n", NULL };

  G_APPLICATION_CLASS (bl_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.new-window", new_window_accels);
  gtk_window_set_default_icon_name (BL_APPLICATION_ID);
  if (self->screenshot_path == NULL)
    follow_color_scheme (self);
  follow_model_paths (self);
}

static void
bl_application_activate (GApplication *app)
{
  BlApplication *self = BL_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window != NULL)
    {
      gtk_window_present (window);
      return;
    }
  window = GTK_WINDOW (bl_window_new (GTK_APPLICATION (app)));
  bl_window_load_sample (BL_WINDOW (window));
  present (self, BL_WINDOW (window));
  offer_recovery (self, BL_WINDOW (window));
}

/* A file given on the command line has been read (or could not be). */
static void
on_file_opened (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  BlWindow *window = BL_WINDOW (source);
  g_autoptr(BlApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean first = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (window), "bl-first"));

  if (!bl_window_load_file_finish (window, result, &error))
    {
      /* Superseded by another file, or the window was closed. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      {
        g_autofree char *name = g_file_get_parse_name (g_object_get_data (G_OBJECT (window), "bl-file"));

        if (bl_document_error_is_past_bound (error))
          /* the window's bound, which the window asks to lift */
          g_printerr (_("ballast: %s is larger than the window opens (the setting "
                        "window-max-links; 0 lifts it): %s\n"), name, error->message);
        else
          g_printerr (_("ballast: could not open %s: %s\n"), name, error->message);
      }
      if (self->screenshot_path != NULL)
        {
          self->failed = TRUE;
          gtk_window_destroy (GTK_WINDOW (window));
          g_application_quit (G_APPLICATION (self));
          return;
        }
      bl_window_load_sample (window);
      /* Opened from a file manager there is no terminal to read: the
       * window says why it shows the sample instead. */
      bl_window_show_open_error (window, g_object_get_data (G_OBJECT (window), "bl-file"), error);
    }
  if (self->screenshot_path != NULL)
    gtk_widget_add_tick_callback (GTK_WIDGET (window), on_screenshot_tick, NULL, NULL);
  if (first)
    offer_recovery (self, window);
}

static void
bl_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  BlApplication *self = BL_APPLICATION (app);

  for (int i = 0; i < n_files; i++)
    {
      BlWindow *window = bl_window_new (GTK_APPLICATION (app));

      /* A picture taken for a script is not a file the user opened. */
      bl_window_set_remember_recent (window, self->screenshot_path == NULL);
      /* The window shows at once, "Opening …"; the file is read in a thread. */
      g_object_set_data_full (G_OBJECT (window), "bl-file", g_object_ref (files[i]), g_object_unref);
      g_object_set_data (G_OBJECT (window), "bl-first", GINT_TO_POINTER (i == 0));
      bl_window_load_file_async (window, files[i], on_file_opened, g_object_ref (self));
      present (self, window);
      if (self->screenshot_path != NULL)
        break;  /* one window, one picture */
    }
}

static void
bl_application_shutdown (GApplication *app)
{
  BlApplication *self = BL_APPLICATION (app);

  if (self->portal_bus != NULL && self->portal_signal_id != 0)
    g_dbus_connection_signal_unsubscribe (self->portal_bus, self->portal_signal_id);
  self->portal_signal_id = 0;
  g_clear_object (&self->portal_bus);

  G_APPLICATION_CLASS (bl_application_parent_class)->shutdown (app);
}

static void
bl_application_finalize (GObject *object)
{
  BlApplication *self = BL_APPLICATION (object);

  g_clear_pointer (&self->screenshot_path, g_free);
  g_clear_pointer (&self->orphans, g_ptr_array_unref);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (bl_application_parent_class)->finalize (object);
}

static void
bl_application_class_init (BlApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = bl_application_finalize;
  app_class->handle_local_options = bl_application_handle_local_options;
  app_class->startup = bl_application_startup;
  app_class->activate = bl_application_activate;
  app_class->open = bl_application_open;
  app_class->shutdown = bl_application_shutdown;
}

static void
bl_application_init (BlApplication *self)
{
  static const GOptionEntry entries[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Open the file, save the window as a PNG image at PATH and quit"), N_("PATH") },
    { "window-size", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Open the window at this size (default: as last closed; 1280x800 for --screenshot)"),
      N_("WIDTHxHEIGHT") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and quit"), NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
}

gboolean
bl_application_get_failed (BlApplication *self)
{
  g_return_val_if_fail (BL_IS_APPLICATION (self), TRUE);
  return self->failed;
}

BlApplication *
bl_application_new (void)
{
  return g_object_new (BL_TYPE_APPLICATION,
                       "application-id", BL_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
