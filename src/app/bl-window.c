/* bl-window.c: a Ballast document window: outline, viewport, inspector, files. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-added-mass-editor.h"
#include "bl-application.h"
#include "bl-edit-history.h"
#include "bl-export.h"
#include "bl-inspector.h"
#include "bl-legend.h"
#include "bl-mesh.h"
#include "bl-outline.h"
#include "bl-problems-bar.h"
#include "bl-recovery.h"
#include "bl-resource.h"
#include "bl-toast.h"
#include "bl-viewport.h"
#include "bl-window.h"

struct _BlWindow
{
  GtkApplicationWindow  parent_instance;

  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkMenuButton        *recent_button;
  GMenu                *recent_section;  /* the recent files, kept up to date */
  GtkPaned             *inner_paned;
  gboolean              panes_placed;  /* the dividers' first positions are set */
  GtkBox               *viewport_box;
  GtkStack             *side_stack;
  BlOutline            *outline;
  BlInspector          *inspector;
  BlAddedMassEditor    *added_mass_editor;
  BlViewport           *viewport;
  BlProblemsBar        *problems_bar;  /* the document's own problems, above the view */
  BlToast              *toast;         /* short notices over the view's bottom */

  GSettings            *settings;
  BlDocument           *document;
  GFile                *file;
  BlEditHistory        *history;
  GFileMonitor         *monitor;
  GBytes               *disk_bytes;    /* what we last read or wrote */
  /* The user kept their version over a change on disk: a save asks first. */
  gboolean              disk_conflict;
  gboolean              remember_recent;
  GtkWidget            *dialog;        /* the question being asked, if any */
  gboolean              close_confirmed;
  /* Restored from a recovery copy: unsaved edits that undo cannot reach. */
  gboolean              restored;
  BlRecovery           *recovery;      /* this window's copy of unsaved edits */
  guint                 recovery_source;

  /* The file being opened in a worker thread, if any. */
  GTask                *load_task;     /* the caller's task of the newest load */
  GCancellable         *load_cancellable;
  GFile                *loading_file;
  GtkWidget            *loading_box;   /* spinner and "Opening …" over the viewport */
  GtkSpinner           *loading_spinner;
  GtkLabel             *loading_label;
  /* Edits made to the shown document while the load ran. */
  gboolean              edited_while_loading;
};

/* How long after an edit its recovery copy is written, at the latest. */
#define RECOVERY_DELAY_MS 1000
/* How long a notice ("Exported …") stays over the view. */
#define TOAST_TIMEOUT_MS 6000

G_DEFINE_FINAL_TYPE (BlWindow, bl_window, GTK_TYPE_APPLICATION_WINDOW)

typedef void (*BlContinuation) (BlWindow *self,
                                gpointer  data);

static void update_title   (BlWindow *self);
static void cancel_load    (BlWindow *self);
static void update_actions (BlWindow *self);
static void save_to_file   (BlWindow *self,
                            GFile    *file,
                            gboolean  bake,
                            BlContinuation then,
                            gpointer  data);

/* Messages ---------------------------------------------------------------- */

static void
show_error (BlWindow   *self,
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

static char *
display_name (BlWindow *self)
{
  if (self->file == NULL)
    return g_strdup (_("Sample AUV"));
  return g_file_get_basename (self->file);
}

/* A modal question over the window, not yet shown; the caller adds the
 * answers as buttons. */
static GtkWidget *
question_new (BlWindow       *self,
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
static char *
dup_folder_display (GFile *file)
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

static void
add_to_recent (BlWindow *self,
               GFile    *file)
{
  g_autofree char *uri = NULL;

  if (!self->remember_recent)
    return;
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

/* Asking before losing edits --------------------------------------------- */

enum {
  RESPONSE_DISCARD = 1,
  RESPONSE_SAVE = 2,
  RESPONSE_KEEP_MINE = 3,   /* the file changed on disk: keep the edits */
  RESPONSE_RELOAD = 4,      /* … or reload it and lose them */
  RESPONSE_REPLACE = 5,     /* save over a file changed on disk */
};

typedef struct
{
  BlContinuation  then;
  gpointer        data;
  GDestroyNotify  destroy;
} Pending;

static void
pending_free (Pending *pending)
{
  if (pending->destroy != NULL)
    pending->destroy (pending->data);
  g_free (pending);
}

static void
run_pending (BlWindow *self,
             gpointer  data)
{
  Pending *pending = data;

  pending->then (self, pending->data);
  pending_free (pending);
}

static void
on_discard_response (GtkDialog *dialog,
                     int        response,
                     BlWindow  *self)
{
  Pending *pending = g_object_steal_data (G_OBJECT (dialog), "bl-pending");

  if (self->dialog == GTK_WIDGET (dialog))
    self->dialog = NULL;
  /* The emission still holds the dialog; it must not outlive its parent
   * as a transient when the answer closes the window. */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));

  switch (response)
    {
    case RESPONSE_DISCARD:
      run_pending (self, pending);
      break;
    case RESPONSE_SAVE:
      save_to_file (self, self->file, FALSE, run_pending, pending);
      break;
    default:
      pending_free (pending);
      break;
    }
}

/* Runs `then` now when there is nothing to lose, or after the user chose
 * to save or discard the edits.  `question` is the dialog's full text. */
static void
confirm_discard (BlWindow       *self,
                 const char     *question,
                 BlContinuation  then,
                 gpointer        data,
                 GDestroyNotify  destroy)
{
  Pending *pending;
  GtkWidget *dialog;

  if (!bl_window_get_modified (self))
    {
      then (self, data);
      if (destroy != NULL)
        destroy (data);
      return;
    }

  pending = g_new0 (Pending, 1);
  pending->then = then;
  pending->data = data;
  pending->destroy = destroy;

  dialog = question_new (self, GTK_MESSAGE_QUESTION, question,
                         _("Your edits will be lost if you don’t save them."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), RESPONSE_DISCARD);
  if (self->file != NULL)
    gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Save"), RESPONSE_SAVE);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  {
    GtkWidget *discard = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), RESPONSE_DISCARD);
    gtk_widget_add_css_class (discard, "destructive-action");
  }
  g_object_set_data_full (G_OBJECT (dialog), "bl-pending", pending, NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (on_discard_response), self);
  self->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Recovery copies -------------------------------------------------------- */

static void
recovery_write (BlWindow *self)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  if (self->document == NULL || !bl_window_get_modified (self))
    return;
  if (self->recovery == NULL)
    self->recovery = bl_recovery_new ();
  bytes = bl_export_to_bytes (self->document, &error);
  if (bytes == NULL || !bl_recovery_save (self->recovery, bytes, self->file, &error))
    g_warning ("Could not write the recovery copy of the unsaved edits: %s", error->message);
}

static gboolean
on_recovery_timeout (gpointer data)
{
  BlWindow *self = data;

  self->recovery_source = 0;
  recovery_write (self);
  return G_SOURCE_REMOVE;
}

/* Unsaved edits get a recovery copy soon after they change (a run of
 * edits writes once per delay); without them the copy goes. */
static void
recovery_update (BlWindow *self)
{
  if (bl_window_get_modified (self))
    {
      if (self->recovery_source == 0)
        self->recovery_source = g_timeout_add (RECOVERY_DELAY_MS, on_recovery_timeout, self);
    }
  else
    {
      g_clear_handle_id (&self->recovery_source, g_source_remove);
      if (self->recovery != NULL)
        bl_recovery_discard (self->recovery);
    }
}

static void
recovery_drop (BlWindow *self)
{
  g_clear_handle_id (&self->recovery_source, g_source_remove);
  if (self->recovery != NULL)
    bl_recovery_discard (self->recovery);
  g_clear_pointer (&self->recovery, bl_recovery_free);
}

/* Document ---------------------------------------------------------------- */

static void
on_history_changed (BlEditHistory *history,
                    BlWindow      *self)
{
  if (self->loading_file != NULL)
    self->edited_while_loading = TRUE;
  update_title (self);
  update_actions (self);
  recovery_update (self);
}

static void
on_outline_link_selected (BlOutline *outline,
                          BlLink    *link,
                          BlWindow  *self)
{
  bl_inspector_set_link (self->inspector, link);
  bl_added_mass_editor_set_link (self->added_mass_editor, link);
  bl_viewport_set_selected_link (self->viewport, link);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.fit-selection", link != NULL);
}

static void
on_outline_model_selected (BlOutline *outline,
                           BlModel   *model,
                           BlWindow  *self)
{
  bl_inspector_set_model (self->inspector, model);
}

/* After ::link-selected for its link. */
static void
on_outline_collision_selected (BlOutline   *outline,
                               BlCollision *collision,
                               BlWindow    *self)
{
  bl_viewport_set_selected_collision (self->viewport, collision);
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

  if (self->history == NULL)
    return;
  /* Only repeated − / + steps of one field (BL_NUMBER_FIELD_STEPPED) share
   * an undo step; a typed value or any other edit is a step of its own. */
  if (!mergeable)
    bl_edit_history_break_merge (self->history);
  ok = bl_edit_history_do (self->history, edit, &error);
  if (!mergeable)
    bl_edit_history_break_merge (self->history);
  if (!ok)
    {
      BlLink *link = bl_edit_get_link (edit);

      show_error (self, _("The edit was not applied"), error->message);
      /* Put the widgets back to the document's values. */
      if (link != NULL)
        bl_document_reload_link (self->document, link);
    }
}

static void file_monitor_start (BlWindow *self);

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

static void
set_document (BlWindow   *self,
              BlDocument *document,
              GFile      *file,
              GBytes     *bytes)
{
  BlLink *selected = NULL;
  g_autofree char *selected_name = NULL;

  /* Keep the selection across reloads of the same file. */
  if (self->document != NULL && file != NULL && self->file != NULL && g_file_equal (file, self->file))
    {
      BlLink *old = bl_outline_get_selected_link (self->outline);
      if (old != NULL)
        selected_name = g_strdup (old->scoped_name);
    }

  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  g_clear_object (&self->history);
  /* The old document's edits were saved or given up. */
  recovery_drop (self);
  self->restored = FALSE;
  g_set_object (&self->document, document);
  g_set_object (&self->file, file);
  g_clear_pointer (&self->disk_bytes, g_bytes_unref);
  self->disk_bytes = bytes != NULL ? g_bytes_ref (bytes) : NULL;
  self->disk_conflict = FALSE;

  self->history = bl_edit_history_new ();
  g_signal_connect (self->history, "changed", G_CALLBACK (on_history_changed), self);

  bl_inspector_set_document (self->inspector, document);
  bl_added_mass_editor_set_document (self->added_mass_editor, document);
  bl_viewport_set_document (self->viewport, document);
  bl_outline_set_document (self->outline, document);
  bl_problems_bar_set_document (self->problems_bar, document);

  if (selected_name != NULL)
    selected = bl_document_find_link (document, selected_name);
  if (selected == NULL)
    selected = first_moving_link (document);
  bl_outline_select_link (self->outline, selected);

  file_monitor_start (self);
  update_title (self);
  update_actions (self);
}

gboolean
bl_window_load_file (BlWindow  *self,
                     GFile     *file,
                     GError   **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
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
  document = bl_document_new_from_file (path, error);
  /* Whatever was being opened in the background is superseded. */
  cancel_load (self);
  if (document == NULL)
    return FALSE;
  bytes = g_bytes_ref (bl_document_get_source (document));

  set_document (self, document, file, bytes);
  add_to_recent (self, file);
  return TRUE;
}

void
bl_window_load_sample (BlWindow *self)
{
  g_autoptr(BlDocument) document = NULL;

  g_return_if_fail (BL_IS_WINDOW (self));

  cancel_load (self);
  document = bl_document_new_sample ();
  set_document (self, document, NULL, NULL);
}

/* Opening in a worker thread ---------------------------------------------- */

static void
loading_changed (BlWindow *self)
{
  gboolean loading = self->loading_file != NULL;

  if (loading)
    {
      g_autofree char *name = g_file_get_basename (self->loading_file);
      g_autofree char *text = g_strdup_printf (_("Opening %s…"), name);

      gtk_label_set_text (self->loading_label, text);
    }
  gtk_widget_set_visible (self->loading_box, loading);
  gtk_spinner_set_spinning (self->loading_spinner, loading);
  update_title (self);
  update_actions (self);
}

/* The running load, if any, will not replace the document. */
static void
cancel_load (BlWindow *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->load_task);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->loading_file != NULL)
    {
      g_clear_object (&self->loading_file);
      loading_changed (self);
    }
  if (task != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("Opening was superseded"));
}

typedef struct
{
  char   *path;
  gint64  delay_us;   /* test hook, see bl_window_load_file_async */
} LoadJob;

static void
load_job_free (gpointer data)
{
  LoadJob *job = data;

  g_free (job->path);
  g_free (job);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  g_autoptr(BlDocument) document = NULL;
  GError *error = NULL;
  gint64 end = g_get_monotonic_time () + job->delay_us;

  while (g_get_monotonic_time () < end && !g_cancellable_is_cancelled (cancellable))
    g_usleep (2000);
  if (g_task_return_error_if_cancelled (task))
    return;
  document = bl_document_new_from_file (job->path, &error);
  if (document == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* The source is read once, here, not on the main thread. */
  bl_document_get_source (document);
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_pointer (task, g_steal_pointer (&document), g_object_unref);
}

/* A loaded document waiting to replace the shown one. */
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

  set_document (self, swap->document, file, bl_document_get_source (swap->document));
  add_to_recent (self, file);
  g_task_return_boolean (swap->task, TRUE);
  g_clear_object (&swap->task);
}

static void
on_load_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  BlWindow *self = BL_WINDOW (source);
  g_autoptr(GTask) task = user_data;   /* the caller's */
  g_autoptr(BlDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  gboolean edited;

  document = g_task_propagate_pointer (G_TASK (result), &error);
  if (self->load_task != task)
    {
      /* Superseded, or the window went: cancel_load answered the caller. */
      return;
    }
  g_clear_object (&self->load_task);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->loading_file);
  edited = self->edited_while_loading;
  self->edited_while_loading = FALSE;
  loading_changed (self);

  if (document == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  {
    Swap *swap = g_new0 (Swap, 1);

    swap->document = g_steal_pointer (&document);
    swap->task = g_steal_pointer (&task);
    if (edited)
      {
        /* The earlier question (if any) did not cover these edits. */
        g_autofree char *name = display_name (self);
        g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before opening another file?"), name);

        confirm_discard (self, question, swap_now, swap, swap_free);
      }
    else
      {
        swap_now (self, swap);
        swap_free (swap);
      }
  }
}

void
bl_window_load_file_async (BlWindow            *self,
                           GFile               *file,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) worker = NULL;
  g_autofree char *path = NULL;
  const char *delay = NULL;
  LoadJob *job;

  g_return_if_fail (BL_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  cancel_load (self);
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, bl_window_load_file_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("Only local files can be opened"));
      return;
    }

  self->load_task = g_object_ref (task);
  self->edited_while_loading = FALSE;
  self->load_cancellable = g_cancellable_new ();
  self->loading_file = g_object_ref (file);
  loading_changed (self);

  /* Test hook: BALLAST_TEST_LOAD_DELAY_MS holds the worker back that long
   * before it reads the file, so the ui suite can act while a load runs.
   * Read here: the environment is not for threads to read. */
  job = g_new0 (LoadJob, 1);
  job->path = g_steal_pointer (&path);
  delay = g_getenv ("BALLAST_TEST_LOAD_DELAY_MS");
  if (delay != NULL)
    job->delay_us = CLAMP (g_ascii_strtoll (delay, NULL, 10), 0, 60000) * 1000;

  worker = g_task_new (self, self->load_cancellable, on_load_done, g_steal_pointer (&task));
  g_task_set_source_tag (worker, load_worker);
  g_task_set_task_data (worker, job, load_job_free);
  g_task_run_in_thread (worker, load_worker);
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
  return self->loading_file != NULL;
}

GFile *
bl_window_get_loading_file (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  return self->loading_file;
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
  {
    g_autofree char *name = g_file_get_parse_name (file);
    g_autofree char *primary = g_strdup_printf (_("Could not open “%s”"), name);

    show_error (self, primary, error->message);
  }
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

  g_autofree char *name = display_name (self);
  g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before opening another file?"), name);

  confirm_discard (self, question, open_now, g_object_ref (file), g_object_unref);
}

BlDocument *
bl_window_get_document (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  return self->document;
}

GFile *
bl_window_get_file (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), NULL);
  return self->file;
}

gboolean
bl_window_get_modified (BlWindow *self)
{
  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  return self->restored || (self->history != NULL && bl_edit_history_is_modified (self->history));
}

gboolean
bl_window_do_edit (BlWindow  *self,
                   BlEdit    *edit,
                   GError   **error)
{
  gboolean ok;

  g_return_val_if_fail (BL_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (bl_edit_get_document (edit) == self->document, FALSE);

  bl_edit_history_break_merge (self->history);
  ok = bl_edit_history_do (self->history, edit, error);
  bl_edit_history_break_merge (self->history);
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

  cancel_load (self);
  set_document (self, document, original, disk);
  self->restored = TRUE;
  update_title (self);
  update_actions (self);
  /* A copy of our own before the old one goes. */
  recovery_write (self);
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

/* File monitoring --------------------------------------------------------- */

static void
on_reload_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  BlWindow *self = BL_WINDOW (source);
  g_autoptr(GError) error = NULL;

  if (!bl_window_load_file_finish (self, result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, _("Could not reload the file"), error->message);
}

static void
reload_now (BlWindow *self,
            gpointer  data)
{
  if (self->file == NULL)
    return;
  /* The user asked for the file again: a mesh that failed (timed out on a
   * busy machine, say) is read again, not answered from the cache. */
  bl_mesh_cache_forget_failures ();
  bl_window_load_file_async (self, self->file, on_reload_done, NULL);
}

static void
on_disk_changed_response (GtkDialog *dialog,
                          int        response,
                          BlWindow  *self)
{
  if (self->dialog == GTK_WIDGET (dialog))
    self->dialog = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response == RESPONSE_RELOAD)
    reload_now (self, NULL);
  else
    /* Kept (or closed, which keeps): nothing is written until the user
     * saves, and that save asks before it replaces the file on disk. */
    self->disk_conflict = TRUE;
}

/* The file changed on disk under unsaved edits: each choice says what it
 * does, and neither writes the file. */
static void
ask_disk_changed (BlWindow *self)
{
  g_autofree char *name = display_name (self);
  g_autofree char *primary = g_strdup_printf (_("“%s” changed on disk"), name);
  GtkWidget *dialog;
  GtkWidget *reload;

  dialog = question_new (self, GTK_MESSAGE_WARNING, primary,
                         _("Another program changed the file while you have unsaved edits "
                           "in Ballast. Reloading shows its version and loses your edits. "
                           "Keeping your version writes nothing now; saving it later "
                           "replaces the other program’s changes, and Ballast asks first."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Keep My Version"), RESPONSE_KEEP_MINE);
  reload = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Reload from Disk (Lose My Edits)"), RESPONSE_RELOAD);
  gtk_widget_add_css_class (reload, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), RESPONSE_KEEP_MINE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_disk_changed_response), self);
  self->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_file_changed (GFileMonitor      *monitor,
                 GFile             *file,
                 GFile             *other,
                 GFileMonitorEvent  event,
                 BlWindow          *self)
{
  g_autoptr(GBytes) bytes = NULL;

  if (event != G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT &&
      event != G_FILE_MONITOR_EVENT_CREATED &&
      event != G_FILE_MONITOR_EVENT_RENAMED &&
      event != G_FILE_MONITOR_EVENT_MOVED_IN)
    return;
  if (self->file == NULL || self->dialog != NULL)
    return;

  /* Our own saves, and touches that change nothing, are not news. */
  bytes = g_file_load_bytes (self->file, NULL, NULL, NULL);
  if (bytes == NULL || (self->disk_bytes != NULL && g_bytes_equal (bytes, self->disk_bytes)))
    return;
  g_clear_pointer (&self->disk_bytes, g_bytes_unref);
  self->disk_bytes = g_steal_pointer (&bytes);

  /* Nothing to lose: show what is on disk. */
  if (!bl_window_get_modified (self))
    {
      reload_now (self, NULL);
      return;
    }
  ask_disk_changed (self);
}

static void
file_monitor_start (BlWindow *self)
{
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  if (self->file == NULL)
    return;
  self->monitor = g_file_monitor_file (self->file, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
  if (self->monitor != NULL)
    g_signal_connect (self->monitor, "changed", G_CALLBACK (on_file_changed), self);
}

/* Title and actions ------------------------------------------------------- */

/* Starting up on a file: nothing to show but its name yet. */
static void
update_title_opening (BlWindow *self)
{
  g_autofree char *base = g_file_get_basename (self->loading_file);
  g_autofree char *window_title = g_strdup_printf ("%s — Ballast", base);

  gtk_label_set_text (self->title_label, base);
  gtk_label_set_text (self->subtitle_label, _("Opening…"));
  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

static void
update_title (BlWindow *self)
{
  g_autofree char *name = NULL;
  gboolean modified;
  g_autofree char *title = NULL;
  g_autofree char *window_title = NULL;

  if (self->document == NULL && self->loading_file != NULL)
    {
      update_title_opening (self);
      return;
    }
  name = display_name (self);
  modified = bl_window_get_modified (self);
  title = modified ? g_strdup_printf ("• %s", name) : g_strdup (name);
  window_title = g_strdup_printf ("%s — Ballast", title);

  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), window_title);

  if (self->file != NULL)
    {
      g_autofree char *dir = dup_folder_display (self->file);

      gtk_label_set_text (self->subtitle_label, dir != NULL ? dir : "");
    }
  else
    gtk_label_set_text (self->subtitle_label, _("Built-in sample model"));
}

static void
update_actions (BlWindow *self)
{
  gboolean has_history = self->history != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo",
                                 has_history && bl_edit_history_can_undo (self->history));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.redo",
                                 has_history && bl_edit_history_can_redo (self->history));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save", self->document != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as", self->document != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-baked", self->document != NULL);
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);

  if (self->history != NULL)
    bl_edit_history_undo (self->history);
}

static void
redo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (self->history != NULL && bl_edit_history_can_redo (self->history) &&
      !bl_edit_history_redo (self->history, &error))
    show_error (self, _("Could not redo the edit"), error->message);
}

/* Open ------------------------------------------------------------------- */

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

  dialog = gtk_file_chooser_native_new (_("Open SDF File"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (self->file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (self->file);
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), parent, NULL);
    }
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

/* The recent menu follows the recent-files list.  Its items change in
 * place: a new menu model would replace the popover and close the menu
 * under the user's pointer whenever any program adds a recent file. */
static void
update_recent_menu (BlWindow *self)
{
  GMenu *section = self->recent_section;
  GList *items = g_list_sort (gtk_recent_manager_get_items (gtk_recent_manager_get_default ()),
                              compare_recent);
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();   /* borrowed from items */
  guint n = 0;

  if (section == NULL)
    {
      g_autoptr(GMenu) menu = g_menu_new ();

      section = self->recent_section = g_menu_new ();
      g_menu_append_section (menu, _("Recent Files"), G_MENU_MODEL (section));
      gtk_menu_button_set_menu_model (self->recent_button, G_MENU_MODEL (menu));
    }
  g_menu_remove_all (section);

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
          g_autofree char *dir = dup_folder_display (file);

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
      g_menu_append_item (section, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  /* Nothing to offer: no empty menu. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->recent_button), n > 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->recent_button),
                               n > 0 ? _("Recent files") : _("No recent files"));
}

static void
on_recent_changed (GtkRecentManager *manager,
                   BlWindow         *self)
{
  update_recent_menu (self);
}

/* Save ------------------------------------------------------------------- */

typedef struct
{
  gboolean       bake;
  BlContinuation then;
  gpointer       data;
} SaveAsData;

static void
on_save_as_response (GtkNativeDialog *dialog,
                     int              response,
                     BlWindow        *self)
{
  SaveAsData *sa = g_object_get_data (G_OBJECT (dialog), "bl-save-as");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        save_to_file (self, file, sa->bake, sa->then, sa->data);
    }
  else if (sa->then == run_pending)
    pending_free (sa->data);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
ask_save_as (BlWindow       *self,
             gboolean        bake,
             BlContinuation  then,
             gpointer        data)
{
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = sdf_filter ();
  g_autofree char *name = display_name (self);
  SaveAsData *sa = g_new0 (SaveAsData, 1);

  sa->bake = bake;
  sa->then = then;
  sa->data = data;
  dialog = gtk_file_chooser_native_new (bake ? _("Export Baked SDF") : _("Save SDF File As"),
                                        GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        bake ? _("_Export") : _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (bake)
    {
      g_autofree char *stem = g_str_has_suffix (name, ".sdf") ? g_strndup (name, strlen (name) - 4) : g_strdup (name);
      g_autofree char *baked = g_strdup_printf ("%s-baked.sdf", stem);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), baked);
    }
  else if (self->file != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "sample.sdf");
  if (self->file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (self->file);
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), parent, NULL);
    }
  g_object_set_data_full (G_OBJECT (dialog), "bl-save-as", sa, g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_as_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  BlWindow *self = BL_WINDOW (widget);

  if (self->file == NULL)
    ask_save_as (self, FALSE, NULL, NULL);
  else
    save_to_file (self, self->file, FALSE, NULL, NULL);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  ask_save_as (BL_WINDOW (widget), FALSE, NULL, NULL);
}

static void
export_baked_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ask_save_as (BL_WINDOW (widget), TRUE, NULL, NULL);
}

/* Model folders ----------------------------------------------------------- */

/* Keeps PATH among the user's model folders (the application's model-paths
 * setting, which ballast-cli reads too; a window of its own, as in the
 * tests, for this run only) and reloads the file so that its includes
 * resolve. */
static void
add_model_path (BlWindow   *self,
                const char *path)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (BL_IS_APPLICATION (application))
    bl_application_add_model_path (BL_APPLICATION (application), path);
  else
    bl_resource_add_extra_path (path);

  if (self->file != NULL)
    {
      g_autofree char *name = display_name (self);
      g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before reloading it?"), name);

      confirm_discard (self, question, reload_now, NULL, NULL);
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
  GPtrArray *failures = bl_document_get_include_failures (self->document);

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

      if (chosen != NULL && self->document != NULL)
        {
          g_autofree char *path = dup_model_path_for (self, chosen);

          add_model_path (self, path);
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

  dialog = gtk_file_chooser_native_new (_("Add Model Folder"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Add"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  if (self->file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (self->file);
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), parent, NULL);
    }
  g_signal_connect (dialog, "response", G_CALLBACK (on_model_folder_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
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
          g_autofree char *name = display_name (self);
          g_autofree char *question = g_strdup_printf (_("Save the edits to “%s” before closing?"), name);

          confirm_discard (self, question, close_now, NULL, NULL);
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
  /* The worker keeps running to its end; its document is dropped. */
  {
    g_autoptr(GTask) task = g_steal_pointer (&self->load_task);

    if (self->load_cancellable != NULL)
      g_cancellable_cancel (self->load_cancellable);
    g_clear_object (&self->load_cancellable);
    g_clear_object (&self->loading_file);
    if (task != NULL)
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The window was closed"));
  }
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  g_clear_object (&self->history);
  /* Closed: the edits were saved or given up. */
  recovery_drop (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_WINDOW);
  g_clear_object (&self->document);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);
  g_clear_object (&self->recent_section);
  g_clear_pointer (&self->disk_bytes, g_bytes_unref);

  G_OBJECT_CLASS (bl_window_parent_class)->dispose (object);
}

/* Layout ------------------------------------------------------------------ */

/* The dividers' first positions, from the width of the window's first
 * allocation: the outline a fifth of it (200–280 px), the inspector two
 * fifths (400–480 px), the 3D view the rest (at 1024 px about 400 px).
 * From then on a divider moves only when the user drags it: a paned whose
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
  widget_class->size_allocate = bl_window_size_allocate;
  window_class->close_request = bl_window_close_request;

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
  gtk_widget_class_bind_template_callback (widget_class, on_outline_link_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_outline_model_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_outline_collision_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_edit_requested);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, save_as_action);
  gtk_widget_class_install_action (widget_class, "win.export-baked", NULL, export_baked_action);
  gtk_widget_class_install_action (widget_class, "win.add-model-path", NULL, add_model_path_action);
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

/* The viewport with a View menu over its top-right corner; the menu's
 * "view" actions drive the viewport's camera and overlay properties. */
static void
build_viewport (BlWindow *self)
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

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
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
  g_object_bind_property (self->added_mass_editor, "fluid-density",
                          self->viewport, "fluid-density", G_BINDING_SYNC_CREATE);
  /* One fluid density for buoyancy and added mass (GSettings binds the editor's). */
  g_object_bind_property (self->added_mass_editor, "fluid-density",
                          self->inspector, "fluid-density",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
}

static void
bl_window_init (BlWindow *self)
{
  GtkDropTarget *drop;

  load_css ();
  self->remember_recent = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  build_viewport (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect (gtk_recent_manager_get_default (), "changed", G_CALLBACK (on_recent_changed), self);
  update_recent_menu (self);
  update_title (self);
  update_actions (self);
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
  g_settings_bind (self->settings, "fluid-density", self->added_mass_editor, "fluid-density",
                   G_SETTINGS_BIND_DEFAULT);
  for (guint i = 0; i < G_N_ELEMENTS (overlay_toggles); i++)
    g_settings_bind (self->settings, overlay_toggles[i], self->viewport, overlay_toggles[i],
                     G_SETTINGS_BIND_DEFAULT);
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

/* Saving ------------------------------------------------------------------ */

static gboolean
write_document (BlWindow  *self,
                GFile     *file,
                GBytes   **written,
                GError   **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GBytes) bytes = NULL;

  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local files can be written"));
      return FALSE;
    }
  bytes = bl_export_to_bytes (self->document, error);
  if (bytes == NULL || !bl_export_write_atomic (path, bytes, error))
    return FALSE;
  if (written != NULL)
    *written = g_steal_pointer (&bytes);
  return TRUE;
}

/* Bakes a copy: the bake is applied to the tree only while writing. */
static gboolean
write_baked (BlWindow  *self,
             GFile     *file,
             GError   **error)
{
  g_autoptr(BlEdit) bake = NULL;
  gboolean ok;

  bake = bl_export_create_bake_edit (self->document, BL_BAKE_AUTO, NULL, NULL, error);
  if (bake == NULL || !bl_edit_apply (bake, error))
    return FALSE;
  ok = write_document (self, file, NULL, error);
  bl_edit_revert (bake);
  return ok;
}

/* Whether the file on disk is another version than the one the edits
 * were made to: the user kept theirs over a change, or it changed since
 * (before the monitor told). */
static gboolean
disk_changed_since_read (BlWindow *self)
{
  g_autoptr(GBytes) now = NULL;

  if (self->disk_conflict)
    return TRUE;
  if (self->disk_bytes == NULL)
    return FALSE;
  now = g_file_load_bytes (self->file, NULL, NULL, NULL);
  return now != NULL && !g_bytes_equal (now, self->disk_bytes);
}

typedef struct
{
  GFile          *file;
  BlContinuation  then;
  gpointer        data;
} Replace;

static void
on_replace_response (GtkDialog *dialog,
                     int        response,
                     BlWindow  *self)
{
  Replace *replace = g_object_steal_data (G_OBJECT (dialog), "bl-replace");
  g_autoptr(GFile) file = replace->file;

  if (self->dialog == GTK_WIDGET (dialog))
    self->dialog = NULL;
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response == RESPONSE_REPLACE)
    {
      /* Asked and answered: this version is the one written over. */
      self->disk_conflict = FALSE;
      g_clear_pointer (&self->disk_bytes, g_bytes_unref);
      self->disk_bytes = g_file_load_bytes (file, NULL, NULL, NULL);
      save_to_file (self, file, FALSE, replace->then, replace->data);
    }
  else if (replace->then == run_pending)
    pending_free (replace->data);
  g_free (replace);
}

/* Saving would write over another program's changes: ask first. */
static void
ask_replace (BlWindow       *self,
             GFile          *file,
             BlContinuation  then,
             gpointer        data)
{
  g_autofree char *name = display_name (self);
  g_autofree char *primary = g_strdup_printf (_("Replace the changed “%s” on disk?"), name);
  Replace *replace = g_new0 (Replace, 1);
  GtkWidget *dialog;
  GtkWidget *button;

  replace->file = g_object_ref (file);
  replace->then = then;
  replace->data = data;
  dialog = question_new (self, GTK_MESSAGE_WARNING, primary,
                         _("Another program changed the file after Ballast read it. "
                           "Saving writes your version over it, and its changes are lost."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Replace the File on Disk"), RESPONSE_REPLACE);
  gtk_widget_add_css_class (button, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data (G_OBJECT (dialog), "bl-replace", replace);
  g_signal_connect (dialog, "response", G_CALLBACK (on_replace_response), self);
  self->dialog = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
save_to_file (BlWindow       *self,
              GFile          *file,
              gboolean        bake,
              BlContinuation  then,
              gpointer        data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;

  if (file == NULL)
    {
      ask_save_as (self, bake, then, data);
      return;
    }

  if (bake)
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *dir = dup_folder_display (file);
      g_autoptr(GFile) folder = g_file_get_parent (file);
      g_autofree char *notice = NULL;

      if (!write_baked (self, file, &error))
        {
          show_error (self, _("Could not export the baked file"), error->message);
          return;
        }
      /* Translators: the file name, then its folder ("~/robots") */
      notice = g_strdup_printf (_("Exported “%s” to %s"), name, dir != NULL ? dir : "/");
      bl_toast_show (self->toast, notice, folder, TOAST_TIMEOUT_MS);
    }
  else
    {
      if (self->file != NULL && g_file_equal (file, self->file) && disk_changed_since_read (self))
        {
          ask_replace (self, file, then, data);
          return;
        }
      if (!write_document (self, file, &written, &error))
        {
          g_autofree char *name = g_file_get_parse_name (file);
          g_autofree char *primary = g_strdup_printf (_("Could not save “%s”"), name);

          show_error (self, primary, error->message);
          if (then == run_pending)
            pending_free (data);
          return;
        }
      if (self->file == NULL || !g_file_equal (file, self->file))
        {
          g_set_object (&self->file, file);
          file_monitor_start (self);
        }
      g_clear_pointer (&self->disk_bytes, g_bytes_unref);
      self->disk_bytes = g_steal_pointer (&written);
      self->restored = FALSE;
      bl_edit_history_set_clean (self->history);
      update_title (self);
      recovery_update (self);
    }

  add_to_recent (self, file);
  if (then != NULL)
    then (self, data);
}
