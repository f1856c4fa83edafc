/* bl-window.c: a Ballast document window: outline, viewport, inspector.
 * The file it shows is its BlSession's (load, save, disk, recovery); its
 * actions are in bl-window-actions.c. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-application-settings.h"
#include "bl-display-name.h"
#include "bl-legend.h"
#include "bl-mesh.h"
#include "bl-number.h"
#include "bl-window-private.h"

G_DEFINE_FINAL_TYPE (BlWindow, bl_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_FLUID_DENSITY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Continuations ----------------------------------------------------------- */

struct _BlThen
{
  BlContinuation  continuation;
  gpointer        data;
  GDestroyNotify  destroy;
};

BlThen *
bl_then_new (BlContinuation  continuation,
             gpointer        data,
             GDestroyNotify  destroy)
{
  BlThen *then = g_new0 (BlThen, 1);

  then->continuation = continuation;
  then->data = data;
  then->destroy = destroy;
  return then;
}

void
bl_then_free (BlThen *then)
{
  if (then == NULL)
    return;
  if (then->destroy != NULL)
    then->destroy (then->data);
  g_free (then);
}

void
bl_then_run (BlThen   *then,
             BlWindow *window)
{
  if (then == NULL)
    return;
  then->continuation (window, then->data);
  bl_then_free (then);
}

/* Messages ---------------------------------------------------------------- */

void
_bl_window_show_error (BlWindow   *self,
                       const char *primary,
                       const char *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                              "%s", primary);

  if (secondary != NULL)
    gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

char *
_bl_window_dup_display_name (BlWindow *self)
{
  GFile *file = bl_session_get_file (self->session);

  if (file == NULL)
    return g_strdup (_("Sample AUV"));
  return g_file_get_basename (file);
}

/* A modal question over the window, not yet shown; the caller adds the
 * answers as buttons. */
GtkWidget *
_bl_window_question_new (BlWindow       *self,
                         GtkMessageType  type,
                         const char     *primary,
                         const char     *secondary)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              type, GTK_BUTTONS_NONE, "%s", primary);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", secondary);
  return dialog;
}

/* The folder of FILE as the user reads it, the home folder as "~". */
char *
_bl_window_dup_folder_display (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *dir = parent != NULL ? g_file_get_parse_name (parent) : NULL;
  const char *home = g_get_home_dir ();
  gsize home_len = home != NULL ? strlen (home) : 0;

  if (dir != NULL && home_len > 1 && g_str_has_prefix (dir, home) &&
      (dir[home_len] == '\0' || dir[home_len] == G_DIR_SEPARATOR))
    return g_strconcat ("~", dir + home_len, NULL);
  return g_steal_pointer (&dir);
}

void
_bl_window_add_to_recent (BlWindow *self,
                          GFile    *file)
{
  g_autofree char *uri = NULL;

  if (!self->remember_recent)
    return;
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

/* Asking before losing edits --------------------------------------------- */

/* The dialog owns the BlThen until it is answered. */
static void
on_discard_response (GtkDialog *dialog,
                     int        response,
                     BlWindow  *self)
{
  BlThen *then = g_object_steal_data (G_OBJECT (dialog), "bl-then");

  if (self->dialog == GTK_WIDGET (dialog))
    self->dialog = NULL;
  /* The emission still holds the dialog; it must not outlive its parent
   * as a transient when the answer closes the window. */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));

  switch (response)
    {
    case BL_WINDOW_RESPONSE_DISCARD:
      bl_then_run (then, self);
      break;
    case BL_WINDOW_RESPONSE_SAVE:
      _bl_window_save (self, bl_session_get_file (self->session), FALSE, then);
      break;
    default:
      bl_then_free (then);
      break;
    }
}

void
_bl_window_confirm_discard (BlWindow   *self,
                            const char *question,
                            BlThen     *then)
{
  GtkWidget *dialog;
  GtkWidget *discard;

  if (!bl_window_get_modified (self))
    {
      bl_then_run (then, self);
      return;
    }

  dialog = _bl_window_question_new (self, GTK_MESSAGE_QUESTION, question,
                                    _("Your edits will be lost if you don’t save them."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), BL_WINDOW_RESPONSE_DISCARD);
  if (bl_session_get_file (self->session) != NULL)
    gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Save"), BL_WINDOW_RESPONSE_SAVE);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  discard = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), BL_WINDOW_RESPONSE_DISCARD);
  gtk_widget_add_css_class (discard, "destructive-action");
  g_object_set_data_full (G_OBJECT (dialog), "bl-then", then, (GDestroyNotify) bl_then_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_discard_response), self);
  self->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Document ---------------------------------------------------------------- */

/* The selection's one source is the outline (bound in bl_window_init):
 * Frame Selection frames its link, or its model. */
static void
on_selection_notify (BlOutline  *outline,
                     GParamSpec *pspec,
                     BlWindow   *self)
{
  g_simple_action_set_enabled (self->fit_selection,
                               bl_outline_get_selected_link (outline) != NULL ||
                               bl_outline_get_selected_model (outline) != NULL);
}

/* The Added Mass page's panel method draws its panels in the 3D view. */
static void
on_show_panels (BlAddedMassEditor *editor,
                BlLink            *link,
                const double      *corners,
                guint64            n_panels,
                const double      *values,
                BlWindow          *self)
{
  bl_viewport_set_panels (self->viewport, link, corners, n_panels, values);
}

static void
on_viewport_link_picked (BlViewport *viewport,
                         BlLink     *link,
                         BlWindow   *self)
{
  bl_outline_select_link (self->outline, link);
}

static void
on_edit_requested (GtkWidget *source,
                   BlEdit    *edit,
                   gboolean   mergeable,
                   BlWindow  *self)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;
  BlEditHistory *history = bl_session_get_history (self->session);

  if (history == NULL)
    return;
  /* Only repeated − / + steps of one field (BL_NUMBER_FIELD_STEPPED) share
   * an undo step; a typed value or any other edit is a step of its own. */
  if (!mergeable)
    bl_edit_history_break_merge (history);
  ok = bl_edit_history_do (history, edit, &error);
  if (!mergeable)
    bl_edit_history_break_merge (history);
  if (!ok)
    {
      BlLink *link = bl_edit_get_link (edit);

      _bl_window_show_error (self, _("The edit was not applied"), error->message);
      /* Put the widgets back to the document's values. */
      if (link != NULL)
        bl_document_reload_link (bl_session_get_document (self->session), link);
    }
}

static gboolean
link_is_static (const BlLink *link)
{
  for (const BlModel *m = link->model; m != NULL; m = m->parent)
    if (m->is_static)
      return TRUE;
  return FALSE;
}

/* What a new document opens on: the first link that is not static (a
 * ground plane tells the user nothing), else the first link. */
static BlLink *
first_moving_link (BlDocument *document)
{
  GPtrArray *links = bl_document_get_links (document);

  for (guint i = 0; i < links->len; i++)
    if (!link_is_static (g_ptr_array_index (links, i)))
      return g_ptr_array_index (links, i);
  return links->len > 0 ? g_ptr_array_index (links, 0) : NULL;
}


/* The fluid ------------------------------------------------------------- */

/* Whether the document's world names the one fluid gz-sim's buoyancy
 * uses: then the window takes it, and what the user types is for this
 * document only; otherwise the window takes the default, and what the
 * user types becomes the default (the setting). */
static gboolean
world_names_fluid (BlWindow *self)
{
  return self->world_fluid.kind != BL_WORLD_FLUID_NONE &&
         self->world_fluid.kind != BL_WORLD_FLUID_UNREADABLE;
}

static void
update_fluid_note (BlWindow *self)
{
  const BlWorldFluid *world = &self->world_fluid;
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;
  char b[BL_DOUBLE_BUF_SIZE];

  switch (world->kind)
    {
    case BL_WORLD_FLUID_NONE:
      break;
    case BL_WORLD_FLUID_UNIFORM:
    case BL_WORLD_FLUID_GZ_DEFAULT:
    case BL_WORLD_FLUID_GRADED:
      if (self->fluid_density != world->density)
        /* Translators: %d is a line number of the file, %s a density such as "1000" */
        note = g_strdup_printf (_("The world’s Buoyancy system (line %d) uses %s kg/m³"), world->line,
                                bl_number_format (world->density, b));
      else if (world->kind == BL_WORLD_FLUID_UNIFORM)
        /* Translators: where the fluid density comes from; %d is a line number of the file */
        note = g_strdup_printf (_("From the world’s Buoyancy system, line %d"), world->line);
      else if (world->kind == BL_WORLD_FLUID_GRADED)
        /* Translators: %d is a line number of the file; the system gives the density by depth, this
         * is the fluid at the bottom */
        note = g_strdup_printf (_("The deepest fluid of the world’s Buoyancy system (line %d), "
                                  "which grades the density by depth"), world->line);
      else
        /* Translators: %d is a line number of the file */
        note = g_strdup_printf (_("gz-sim’s default: the world’s Buoyancy system (line %d) names none"),
                                world->line);
      break;
    case BL_WORLD_FLUID_UNREADABLE:
      /* the text may be anything, of any length */
      text = bl_display_cut (world->text, 40);
      /* Translators: %d is a line number of the file, %s the text written as the density */
      note = g_strdup_printf (_("The world’s Buoyancy system (line %d) names no density Ballast can use: “%s”"),
                              world->line, text);
      break;
    default:
      g_assert_not_reached ();
    }
  bl_inspector_set_fluid_note (self->inspector, note);
  bl_added_mass_editor_set_fluid_note (self->added_mass_editor, note);
}

static void
set_fluid_density (BlWindow *self,
                   double    density)
{
  if (self->fluid_density != density)
    {
      self->fluid_density = density;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLUID_DENSITY]);
    }
  update_fluid_note (self);
}

static void
follow_world_fluid (BlWindow   *self,
                    BlDocument *document)
{
  bl_world_fluid_clear (&self->world_fluid);
  bl_fluid_get_world_fluid (document, &self->world_fluid);
  set_fluid_density (self, world_names_fluid (self) ? self->world_fluid.density
                                                    : self->default_fluid_density);
}

static void
on_fluid_setting_changed (GSettings  *settings,
                          const char *key,
                          BlWindow   *self)
{
  self->default_fluid_density = g_settings_get_double (settings, key);
  if (!world_names_fluid (self))
    set_fluid_density (self, self->default_fluid_density);
}

/* Shows `document` (read from `file`, NULL for the sample) in the session
 * and in every widget; a reload of the same file keeps the selection. */
static void
set_document (BlWindow   *self,
              BlDocument *document,
              GFile      *file,
              GBytes     *bytes,
              gboolean    restored)
{
  GFile *shown = bl_session_get_file (self->session);
  BlLink *selected = NULL;
  g_autofree char *selected_name = NULL;

  if (bl_session_get_document (self->session) != NULL && file != NULL && shown != NULL &&
      g_file_equal (file, shown))
    {
      BlLink *old = bl_outline_get_selected_link (self->outline);
      if (old != NULL)
        selected_name = g_strdup (old->scoped_name);
    }

  /* The widgets follow the session's document (bl_window_init). */
  bl_session_set_document (self->session, document, file, bytes, restored);

  if (selected_name != NULL)
    selected = bl_document_find_link (document, selected_name);
  if (selected == NULL)
    selected = first_moving_link (document);
  bl_outline_select_link (self->outline, selected);
  follow_world_fluid (self, document);

  _bl_window_update_title (self);
  _bl_window_update_actions (self);
}

/* The most links FILE may hold to open here: the setting's bound, unless
 * the user said to open this file anyway (0: the core's bound alone). */
static guint
max_links_for (BlWindow *self,
               GFile    *file)
{
  if (self->open_anyway != NULL && g_file_equal (file, self->open_anyway))
    return 0;
  return g_settings_get_uint (self->settings, "window-max-links");
}

gboolean
bl_window_load_file (BlWindow  *self,
                     GFile     *file,
                     GError   **error)
{
  g_autofree char *path = NULL;
  g_autoptr(BlDocument) document = NULL;

  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Only local files can be opened"));
      return FALSE;
    }
  /* The core's messages name the file, and the line when there is one. */
  document = bl_document_new_from_file_limited (path, BL_DOCUMENT_LOAD_DEFAULT, max_links_for (self, file), error);
  /* Whatever was being opened in the background is superseded. */
  bl_session_cancel_load (self->session);
  if (document == NULL)
    return FALSE;

  set_document (self, document, file, bl_document_get_source (document), FALSE);
  _bl_window_add_to_recent (self, file);
  return TRUE;
}

void
bl_window_load_sample (BlWindow *self)
{
  g_autoptr(BlDocument) document = NULL;

  g_return_if_fail (BL_IS_WINDOW (self));

  bl_session_cancel_load (self->session);
  document = bl_document_new_sample ();
  set_document (self, document, NULL, NULL, FALSE);
}

/* Opening in a worker thread ---------------------------------------------- */

static void
on_loading_file_changed (BlSession  *session,
                         GParamSpec *pspec,
                         BlWindow   *self)
{
  GFile *loading = bl_session_get_loading_file (session);

  if (loading != NULL)
    {
      g_autofree char *name = g_file_get_basename (loading);
      g_autofree char *text = g_strdup_printf (_("Opening %s…"), name);

      gtk_label_set_text (self->loading_label, text);
    }
  gtk_widget_set_visible (self->loading_box, loading != NULL);
  gtk_spinner_set_spinning (self->loading_spinner, loading != NULL);
  _bl_window_update_title (self);
  _bl_window_update_actions (self);
}

/* A loaded document waiting to replace the shown one; owned by the BlThen
 * that swaps it in. */
typedef struct
{
  BlDocument *document;
  GTask      *task;      /* the caller's; NULL once answered */
} Swap;

static void
swap_free (gpointer data)
{
  Swap *swap = data;

  /* Not swapped in: the user kept the edits made while it loaded. */
  if (swap->task != NULL)
    g_task_return_new_error (swap->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("Opening was cancelled"));
  g_clear_object (&swap->task);
  g_clear_object (&swap->document);
  g_free (swap);
}

static void
swap_now (BlWindow *self,
          gpointer  data)
{
  Swap *swap = data;
  GFile *file = g_task_get_task_data (swap->task);

  set_document (self, swap->document, file, bl_document_get_source (swap->document), FALSE);
  _bl_window_add_to_recent (self, file);
  g_task_return_boolean (swap->task, TRUE);
  g_clear_object (&swap->task);
}

static void
on_session_loaded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;   /* the caller's */
  BlWindow *self = g_task_get_source_object (task);
  g_autoptr(BlDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  gboolean edited = FALSE;
  Swap *swap;

  document = bl_session_load_finish (BL_SESSION (source), result, &edited, &error);
  if (document == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  swap = g_new0 (Swap, 1);
  swap->document = g_steal_pointer (&document);
  swap->task = g_steal_pointer (&task);
  if (edited)
    {
      /* The earlier question (if any) did not cover these edits. */
      g_autofree char *name = _bl_window_dup_display_name (self);
      g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before opening another file?"), name);

      _bl_window_confirm_discard (self, question, bl_then_new (swap_now, swap, swap_free));
    }
  else
    bl_then_run (bl_then_new (swap_now, swap, swap_free), self);
}

void
bl_window_load_file_async (BlWindow            *self,
                           GFile               *file,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (BL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, bl_window_load_file_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  bl_session_load_async (self->session, file, max_links_for (self, file), on_session_loaded, task);
}

gboolean
bl_window_load_file_finish (BlWindow      *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == bl_window_load_file_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
bl_window_get_loading (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  return bl_session_get_loading_file (self->session) != NULL;
}

GFile *
bl_window_get_loading_file (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  return bl_session_get_loading_file (self->session);
}

static void
on_open_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  BlWindow *self = BL_WINDOW (source);
  g_autoptr(GFile) file = user_data;
  g_autoptr(GError) error = NULL;

  if (bl_window_load_file_finish (self, result, &error))
    return;
  /* A newer file is being opened, or the window closed. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  bl_window_show_open_error (self, file, error);
}

enum
{
  RESPONSE_OPEN_ANYWAY = 1,
};

static void
on_too_many_links_response (GtkDialog *dialog,
                            int        response,
                            BlWindow  *self)
{
  GFile *file = g_object_get_data (G_OBJECT (dialog), "bl-file");

  if (self->dialog == GTK_WIDGET (dialog))
    self->dialog = NULL;
  if (response == RESPONSE_OPEN_ANYWAY)
    {
      g_set_object (&self->open_anyway, file);
      bl_window_open (self, file);
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* A file of more links, or of more other parts, than the window opens
 * (ERROR says which): the user decides. */
static void
ask_open_anyway (BlWindow     *self,
                 GFile        *file,
                 const GError *error)
{
  g_autofree char *name = g_file_get_basename (file);
  guint limit = g_settings_get_uint (self->settings, "window-max-links");
  gboolean parts = g_error_matches (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_PARTS);
  g_autofree char *primary = parts
                             ? g_strdup_printf (_("“%s” has more than %'u models, collisions, frames, joints and plugins"),
                                                name, limit * BL_DOCUMENT_PARTS_PER_LINK)
                             : g_strdup_printf (_("“%s” has more than %'u links"), name, limit);
  g_autofree char *secondary = g_strdup_printf (_("The window opens models of up to %'u links and %'u models, "
                                                  "collisions, frames, joints and plugins, their included files "
                                                  "counted: each link takes 10–20 kB of memory here. "
                                                  "Open it anyway if this computer has the memory to spare; "
                                                  "ballast-cli reads it too."), limit,
                                                limit * BL_DOCUMENT_PARTS_PER_LINK);
  GtkWidget *dialog = _bl_window_question_new (self, GTK_MESSAGE_QUESTION, primary, secondary);

  gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                          _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Open Anyway"), RESPONSE_OPEN_ANYWAY,
                          NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (dialog), "bl-file", g_object_ref (file), g_object_unref);
  g_signal_connect (dialog, "response", G_CALLBACK (on_too_many_links_response), self);
  /* a change of the file on disk meanwhile waits for the answer */
  if (self->dialog == NULL)
    self->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

void
bl_window_show_open_error (BlWindow     *self,
                           GFile        *file,
                           const GError *error)
{
  g_autofree char *name = NULL;
  g_autofree char *primary = NULL;

  g_return_if_fail (BL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (error != NULL);

  if (bl_document_error_is_past_bound (error))
    {
      ask_open_anyway (self, file, error);
      return;
    }
  name = g_file_get_parse_name (file);
  primary = g_strdup_printf (_("Could not open “%s”"), name);
  _bl_window_show_error (self, primary, error->message);
}

static void
open_now (BlWindow *self,
          gpointer  data)
{
  GFile *file = data;

  bl_window_load_file_async (self, file, on_open_done, g_object_ref (file));
}

void
bl_window_open (BlWindow *self,
                GFile    *file)
{
  g_return_if_fail (BL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_autofree char *name = _bl_window_dup_display_name (self);
  g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before opening another file?"), name);

  _bl_window_confirm_discard (self, question, bl_then_new (open_now, g_object_ref (file), g_object_unref));
}

BlDocument *
bl_window_get_document (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  return bl_session_get_document (self->session);
}

GFile *
bl_window_get_file (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  return bl_session_get_file (self->session);
}

gboolean
bl_window_get_modified (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  return bl_session_get_modified (self->session);
}

gboolean
bl_window_get_saving (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  return bl_session_get_saving (self->session);
}

gboolean
bl_window_do_edit (BlWindow  *self,
                   BlEdit    *edit,
                   GError   **error)
{
  BlEditHistory *history;
  gboolean ok;

  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (bl_edit_get_document (edit) == bl_window_get_document (self), FALSE);

  history = bl_session_get_history (self->session);
  bl_edit_history_break_merge (history);
  ok = bl_edit_history_do (history, edit, error);
  bl_edit_history_break_merge (history);
  return ok;
}

gboolean
bl_window_restore (BlWindow    *self,
                   BlRecovery  *recovery,
                   GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) disk = NULL;
  g_autoptr(BlDocument) document = NULL;
  g_autofree char *path = NULL;
  GFile *original;
  const char *data;
  gsize length;

  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (recovery != NULL, FALSE);

  bytes = bl_recovery_load (recovery, error);
  if (bytes == NULL)
    return FALSE;
  original = bl_recovery_get_original (recovery);
  /* The copy stands in for the original: relative URIs resolve beside it. */
  path = original != NULL ? g_file_get_path (original) : g_strdup ("sample.sdf");
  data = g_bytes_get_data (bytes, &length);
  document = bl_document_new_from_data (data, length, path, error);
  if (document == NULL)
    return FALSE;
  if (original != NULL)
    disk = g_file_load_bytes (original, NULL, NULL, NULL);

  bl_session_cancel_load (self->session);
  set_document (self, document, original, disk, TRUE);
  /* A copy of our own before the old one goes. */
  bl_session_write_recovery (self->session);
  bl_recovery_discard (recovery);
  return TRUE;
}

void
bl_window_select_link (BlWindow *self,
                       BlLink   *link)
{
  g_return_if_fail (BL_IS_WINDOW (self));
  bl_outline_select_link (self->outline, link);
}

/* The file changed on disk ------------------------------------------------ */

static void
on_reload_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  BlWindow *self = BL_WINDOW (source);
  g_autoptr(GError) error = NULL;

  if (bl_window_load_file_finish (self, result, &error) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* grown past the window's bound: the user decides */
  if (bl_document_error_is_past_bound (error))
    ask_open_anyway (self, bl_session_get_file (self->session), error);
  else
    _bl_window_show_error (self, _("Could not reload the file"), error->message);
}

void
_bl_window_reload (BlWindow *self,
                   gpointer  unused)
{
  GFile *file = bl_session_get_file (self->session);

  if (file == NULL)
    return;
  /* The user asked for the file again: a mesh that failed (timed out on a
   * busy machine, say) is read again, not answered from the cache. */
  bl_mesh_cache_forget_failures ();
  bl_window_load_file_async (self, file, on_reload_done, NULL);
}

static void
on_disk_changed_response (GtkDialog *dialog,
                          int        response,
                          BlWindow  *self)
{
  if (self->dialog == GTK_WIDGET (dialog))
    self->dialog = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response == BL_WINDOW_RESPONSE_RELOAD)
    _bl_window_reload (self, NULL);
  else
    /* Kept (or closed, which keeps): nothing is written until the user
     * saves, and that save asks before it replaces the file on disk. */
    bl_session_keep_edits (self->session);
}

/* The file changed on disk under unsaved edits: each choice says what it
 * does, and neither writes the file. */
static void
ask_disk_changed (BlWindow *self)
{
  g_autofree char *name = _bl_window_dup_display_name (self);
  g_autofree char *primary = g_strdup_printf (_("“%s” changed on disk"), name);
  GtkWidget *dialog;
  GtkWidget *reload;

  dialog = _bl_window_question_new (self, GTK_MESSAGE_WARNING, primary,
                                    _("Another program changed the file while you have unsaved edits "
                                      "in Ballast. Reloading shows its version and loses your edits. "
                                      "Keeping your version writes nothing now; saving it later "
                                      "replaces the other program’s changes, and Ballast asks first."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Keep My Version"), BL_WINDOW_RESPONSE_KEEP_MINE);
  reload = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Reload from Disk (Lose My Edits)"), BL_WINDOW_RESPONSE_RELOAD);
  gtk_widget_add_css_class (reload, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), BL_WINDOW_RESPONSE_KEEP_MINE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_disk_changed_response), self);
  self->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

/* While the window asks something else, the change is not taken note of. */
static gboolean
on_file_changed (BlSession *session,
                 BlWindow  *self)
{
  if (self->dialog != NULL)
    return FALSE;
  /* Nothing to lose: show what is on disk. */
  if (!bl_window_get_modified (self))
    _bl_window_reload (self, NULL);
  else
    ask_disk_changed (self);
  return TRUE;
}

static void
on_session_changed (BlSession *session,
                    BlWindow  *self)
{
  _bl_window_update_title (self);
  _bl_window_update_actions (self);
}

/* Title ------------------------------------------------------------------- */

void
_bl_window_update_title (BlWindow *self)
{
  GFile *file = bl_session_get_file (self->session);
  GFile *loading = bl_session_get_loading_file (self->session);
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *window_title = NULL;

  /* Starting up on a file: nothing to show but its name yet. */
  if (bl_session_get_document (self->session) == NULL && loading != NULL)
    {
      g_autofree char *base = g_file_get_basename (loading);

      window_title = g_strdup_printf ("%s — Ballast", base);
      gtk_label_set_text (self->title_label, base);
      gtk_label_set_text (self->subtitle_label, _("Opening…"));
      gtk_window_set_title (GTK_WINDOW (self), window_title);
      return;
    }
  name = _bl_window_dup_display_name (self);
  title = bl_window_get_modified (self) ? g_strdup_printf ("• %s", name) : g_strdup (name);
  window_title = g_strdup_printf ("%s — Ballast", title);

  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), window_title);

  if (file != NULL)
    {
      g_autofree char *dir = _bl_window_dup_folder_display (file);

      gtk_label_set_text (self->subtitle_label, dir != NULL ? dir : "");
    }
  else
    gtk_label_set_text (self->subtitle_label, _("Built-in sample model"));
}

static void
on_recent_changed (GtkRecentManager *manager,
                   BlWindow         *self)
{
  _bl_window_update_recent_menu (self);
}

/* Drag and drop ----------------------------------------------------------- */

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         BlWindow      *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  if (files == NULL)
    return FALSE;
  bl_window_open (self, G_FILE (files->data));
  return TRUE;
}

/* Closing ---------------------------------------------------------------- */

static void
close_now (BlWindow *self,
           gpointer  data)
{
  self->close_confirmed = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
bl_window_close_request (GtkWindow *window)
{
  BlWindow *self = BL_WINDOW (window);

  if (!self->close_confirmed && bl_window_get_modified (self))
    {
      if (self->dialog == NULL)
        {
          g_autofree char *name = _bl_window_dup_display_name (self);
          g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before closing?"), name);

          _bl_window_confirm_discard (self, question, bl_then_new (close_now, NULL, NULL));
        }
      else
        gtk_window_present (GTK_WINDOW (self->dialog));
      return TRUE;
    }

  if (self->settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set (self->settings, "window-size", "(ii)", width, height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }

  return GTK_WINDOW_CLASS (bl_window_parent_class)->close_request (window);
}

/* Screenshot -------------------------------------------------------------- */

void
bl_window_set_remember_recent (BlWindow *self,
                               gboolean  remember)
{
  g_return_if_fail (BL_IS_WINDOW (self));
  self->remember_recent = remember;
}

gboolean
bl_window_get_view_settling (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);

  return bl_viewport_get_mesh_jobs_pending (self->viewport);
}

gboolean
bl_window_save_screenshot (BlWindow    *self,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer;
  int width, height;

  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (renderer == NULL || width <= 0 || height <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The window is not shown yet"));
      return FALSE;
    }

  paintable = gtk_widget_paintable_new (GTK_WIDGET (self));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The window drew nothing"));
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Could not write “%s”"), path);
      return FALSE;
    }
  return TRUE;
}


/* GObject ----------------------------------------------------------------- */

static void
bl_window_dispose (GObject *object)
{
  BlWindow *self = BL_WINDOW (object);

  g_signal_handlers_disconnect_by_data (gtk_recent_manager_get_default (), self);
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      /* A file still being read is not shown: its caller hears so. */
      bl_session_cancel_load (self->session);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_WINDOW);
  /* Closed: the edits were saved or given up (the session drops its
   * recovery copy); a save still running holds the window until done. */
  g_clear_object (&self->session);
  /* the settings' bindings may keep them alive past the window */
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->open_anyway);
  g_clear_object (&self->recent_section);
  bl_world_fluid_clear (&self->world_fluid);

  G_OBJECT_CLASS (bl_window_parent_class)->dispose (object);
}

static void
bl_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  BlWindow *self = BL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FLUID_DENSITY:
      g_value_set_double (value, self->fluid_density);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  BlWindow *self = BL_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FLUID_DENSITY:
      set_fluid_density (self, g_value_get_double (value));
      if (!world_names_fluid (self))
        {
          self->default_fluid_density = self->fluid_density;
          if (self->settings != NULL)
            g_settings_set_double (self->settings, "fluid-density", self->fluid_density);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Layout ------------------------------------------------------------------ */

/* The window is narrower than at its last allocation (WIDTH, not yet
 * given to the children): past what the 3D view can give (down to its
 * minimum), the outline gives, down to its own, and only then the
 * inspector, whose pages would otherwise scroll sideways beside an
 * outline with room to spare. */
static void
yield_outline (BlWindow *self,
               int       width)
{
  GtkPaned *outer = GTK_PANED (gtk_window_get_child (GTK_WINDOW (self)));
  GtkWidget *outline = gtk_paned_get_start_child (outer);
  GtkWidget *view = gtk_paned_get_start_child (self->inner_paned);
  GtkWidget *side = gtk_paned_get_end_child (self->inner_paned);
  int outline_width = gtk_paned_get_position (outer);
  int side_width = gtk_widget_get_width (side);
  /* the dividers: what the last allocation gave none of the three */
  int dividers = self->last_width - gtk_widget_get_width (outline) - gtk_widget_get_width (view) - side_width;
  int outline_min, view_min, side_room, give;

  gtk_widget_measure (outline, GTK_ORIENTATION_HORIZONTAL, -1, &outline_min, NULL, NULL, NULL);
  gtk_widget_measure (view, GTK_ORIENTATION_HORIZONTAL, -1, &view_min, NULL, NULL, NULL);
  side_room = width - MAX (dividers, 0) - outline_width - view_min;
  if (side_room >= side_width || outline_width <= outline_min)
    return;

  give = MIN (side_width - side_room, outline_width - outline_min);
  gtk_paned_set_position (outer, outline_width - give);
  gtk_paned_set_position (self->inner_paned, view_min);
}

/* The dividers' first positions, from the width of the window's first
 * allocation: the outline a fifth of it (200–280 px), the inspector two
 * fifths (400–480 px), the 3D view the rest (at 1024 px about 400 px).
 * From then on a divider moves when the user drags it, or when the window
 * narrows past what the 3D view can give (yield_outline): a paned whose
 * position is set keeps it whatever its children ask for (the inspector's
 * pages scroll sideways rather than push it), and a change of the
 * window's width goes to the 3D view (the inner paned's start child
 * resizes, its end child does not). */
static void
bl_window_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  BlWindow *self = BL_WINDOW (widget);

  if (!self->panes_placed && width > 0)
    {
      int outline = CLAMP (width / 5, 200, 280);
      int side = CLAMP (width * 2 / 5, 400, 480);

      self->panes_placed = TRUE;
      /* The outer paned (outline | the rest) is the window's child. */
      gtk_paned_set_position (GTK_PANED (gtk_window_get_child (GTK_WINDOW (self))), outline);
      gtk_paned_set_position (self->inner_paned, MAX (0, width - outline - side));
    }
  else if (self->panes_placed && width < self->last_width)
    yield_outline (self, width);
  self->last_width = width;
  GTK_WIDGET_CLASS (bl_window_parent_class)->size_allocate (widget, width, height, baseline);
}

static void
bl_window_class_init (BlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);
  GdkDisplay *display = gdk_display_get_default ();

  /* GTK 4.8 draws the whole window with GL on every frame: on a software
   * rasteriser that takes ten times as long as its cairo renderer (≈ 200
   * against 21 ms a frame under Xvfb, bench-app), so that every edit
   * showed late.  There, unless the user chose a renderer, the window
   * draws with cairo (the 3D view keeps GL).  GTK reads the variable when
   * it realizes its first window, which no Ballast window precedes. */
  if (g_getenv ("GSK_RENDERER") == NULL && display != NULL && bl_viewport_display_gl_is_software (display))
    g_setenv ("GSK_RENDERER", "cairo", TRUE);

  object_class->dispose = bl_window_dispose;
  object_class->get_property = bl_window_get_property;
  object_class->set_property = bl_window_set_property;
  widget_class->size_allocate = bl_window_size_allocate;
  window_class->close_request = bl_window_close_request;

  /* The fluid around the model (kg/m³), for buoyancy and added mass:
   * the one value the viewport, the inspector and the Added Mass page
   * are bound to. */
  properties[PROP_FLUID_DENSITY] =
    g_param_spec_double ("fluid-density", NULL, NULL,
                         BL_FLUID_DENSITY_MIN, BL_FLUID_DENSITY_MAX, BL_FLUID_DENSITY_DEFAULT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (BL_TYPE_OUTLINE);
  g_type_ensure (BL_TYPE_INSPECTOR);
  g_type_ensure (BL_TYPE_ADDED_MASS_EDITOR);

  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, BlWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, inner_paned);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, viewport_box);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, side_stack);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, outline);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, inspector);
  gtk_widget_class_bind_template_child (widget_class, BlWindow, added_mass_editor);
  gtk_widget_class_bind_template_callback (widget_class, on_edit_requested);

  _bl_window_class_actions_init (klass);
}

static void
load_css (void)
{
  static gboolean loaded;
  g_autoptr(GtkCssProvider) provider = NULL;

  if (loaded)
    return;
  loaded = TRUE;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/app/ballast/Ballast/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

/* The viewport with a View menu over its top-right corner; the menu's
 * actions are in bl-window-actions.c. */
static void
build_viewport (BlWindow *self)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/app/ballast/Ballast/ui/bl-view-menu.ui");
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *legend;

  gtk_widget_set_name (button, "view-menu-button");
  self->viewport = BL_VIEWPORT (bl_viewport_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->viewport), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->viewport), TRUE);
  g_signal_connect (self->viewport, "link-picked", G_CALLBACK (on_viewport_link_picked), self);
  /* The key to the colours, in the lower right corner. */
  legend = bl_legend_new (self->viewport);
  gtk_widget_set_name (legend, "legend");
  gtk_widget_set_halign (legend, GTK_ALIGN_END);
  gtk_widget_set_valign (legend, GTK_ALIGN_END);
  gtk_widget_set_margin_end (legend, 8);
  gtk_widget_set_margin_bottom (legend, 8);

  _bl_window_install_view_actions (self, legend);

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button),
                                  G_MENU_MODEL (gtk_builder_get_object (builder, "view_menu")));
  gtk_widget_set_tooltip_text (button, _("View and overlays"));
  gtk_widget_set_halign (button, GTK_ALIGN_END);
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_set_margin_top (button, 8);
  gtk_widget_set_margin_end (button, 8);
  /* The dark on-screen look on the button alone: on the menu button it
   * would pass the light text of .osd down to its popover, whose items
   * then looked disabled on the popover's light background. */
  gtk_widget_add_css_class (gtk_widget_get_first_child (button), "osd");

  gtk_overlay_set_child (GTK_OVERLAY (overlay), GTK_WIDGET (self->viewport));
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), button);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), legend);

  /* Shown while a file opens in the background; the previous model stays
   * in view (and usable) until the new one is ready. */
  self->loading_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  self->loading_spinner = GTK_SPINNER (gtk_spinner_new ());
  self->loading_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->loading_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (self->loading_box), GTK_WIDGET (self->loading_spinner));
  gtk_box_append (GTK_BOX (self->loading_box), GTK_WIDGET (self->loading_label));
  gtk_widget_set_halign (self->loading_box, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (self->loading_box, GTK_ALIGN_START);
  gtk_widget_set_margin_top (self->loading_box, 8);
  gtk_widget_add_css_class (self->loading_box, "osd");
  gtk_widget_add_css_class (self->loading_box, "toolbar");
  gtk_widget_set_visible (self->loading_box, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->loading_box);

  self->toast = BL_TOAST (bl_toast_new ());
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), GTK_WIDGET (self->toast));
  gtk_widget_set_vexpand (overlay, TRUE);

  /* The document's own problems (a failed <include>…) above the view. */
  self->problems_bar = BL_PROBLEMS_BAR (bl_problems_bar_new ());
  gtk_box_append (self->viewport_box, GTK_WIDGET (self->problems_bar));
  gtk_box_append (self->viewport_box, overlay);

  g_signal_connect (self->added_mass_editor, "show-panels", G_CALLBACK (on_show_panels), self);
  /* One fluid density for buoyancy and added mass: the window's (the
   * world's or the default, world_names_fluid); the fields edit it. */
  g_object_bind_property (self, "fluid-density", self->viewport, "fluid-density",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (self, "fluid-density", self->added_mass_editor, "fluid-density",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self, "fluid-density", self->inspector, "fluid-density",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
}


static void
bl_window_init (BlWindow *self)
{
  GtkDropTarget *drop;

  load_css ();
  self->remember_recent = TRUE;
  self->fluid_density = BL_FLUID_DENSITY_DEFAULT;
  self->default_fluid_density = BL_FLUID_DENSITY_DEFAULT;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->session = bl_session_new ();
  g_signal_connect (self->session, "changed", G_CALLBACK (on_session_changed), self);
  g_signal_connect (self->session, "notify::loading-file", G_CALLBACK (on_loading_file_changed), self);
  g_signal_connect (self->session, "file-changed", G_CALLBACK (on_file_changed), self);
  build_viewport (self);
  /* The document has one source, the session; every widget that shows
   * it is bound to it (in this order: the outline's new rows select last). */
  {
    GObject *followers[] = {
      G_OBJECT (self->inspector), G_OBJECT (self->added_mass_editor), G_OBJECT (self->viewport),
      G_OBJECT (self->outline), G_OBJECT (self->problems_bar),
    };

    for (guint i = 0; i < G_N_ELEMENTS (followers); i++)
      g_object_bind_property (self->session, "document", followers[i], "document", G_BINDING_SYNC_CREATE);
  }
  /* The selection has one source too, the outline; a pick in the 3D view
   * selects in the outline (on_viewport_link_picked). */
  {
    const struct
    {
      GObject    *target;
      const char *source_property;
      const char *target_property;
    } selection[] = {
      { G_OBJECT (self->inspector), "selected-link", "link" },
      { G_OBJECT (self->inspector), "selected-model", "model" },
      { G_OBJECT (self->added_mass_editor), "selected-link", "link" },
      { G_OBJECT (self->viewport), "selected-link", "selected-link" },
      { G_OBJECT (self->viewport), "selected-collision", "selected-collision" },
      { G_OBJECT (self->viewport), "selected-model", "selected-model" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (selection); i++)
      g_object_bind_property (self->outline, selection[i].source_property,
                              selection[i].target, selection[i].target_property,
                              G_BINDING_SYNC_CREATE);
    g_signal_connect (self->outline, "notify::selected-link", G_CALLBACK (on_selection_notify), self);
    g_signal_connect (self->outline, "notify::selected-model", G_CALLBACK (on_selection_notify), self);
  }

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect (gtk_recent_manager_get_default (), "changed", G_CALLBACK (on_recent_changed), self);
  _bl_window_update_recent_menu (self);
  _bl_window_update_title (self);
  _bl_window_update_actions (self);
}

static void
apply_settings (BlWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;
  g_settings_get (self->settings, "window-size", "(ii)", &width, &height);
  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_signal_connect (self->settings, "changed::fluid-density", G_CALLBACK (on_fluid_setting_changed), self);
  on_fluid_setting_changed (self->settings, "fluid-density", self);
  _bl_window_bind_view_settings (self);
}

BlWindow *
bl_window_new (GtkApplication *application)
{
  BlWindow *self;

  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);

  self = g_object_new (BL_TYPE_WINDOW, "application", application, NULL);
  self->settings = bl_application_settings_new ();
  apply_settings (self);
  return self;
}
