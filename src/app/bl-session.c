/* bl-session.c: the file a window shows: document, history, disk, recovery. */
#include "config.h"

#include <glib/gi18n.h>

#include "bl-export.h"
#include "bl-recovery.h"
#include "bl-session-private.h"

struct _BlSession
{
  GObject         parent_instance;

  BlDocument     *document;
  GFile          *file;
  BlEditHistory  *history;
  guint           history_serial;  /* counts the history's changes */
  gboolean        modified;        /* as last notified */
  /* Restored from a recovery copy: unsaved edits that undo cannot reach. */
  gboolean        restored;

  GFileMonitor   *monitor;
  GBytes         *disk_bytes;      /* what we last read or wrote */
  GBytes         *writing_bytes;   /* what a running save writes to `file` */
  /* The user kept their version over a change on disk: a save asks first. */
  gboolean        disk_conflict;

  BlRecovery     *recovery;        /* the copy of the unsaved edits */
  guint           recovery_source;

  /* The file being read in a worker thread, if any. */
  GTask          *load_task;       /* the caller's task of the newest load */
  GCancellable   *load_cancellable;
  GFile          *loading_file;
  gboolean        edited_while_loading;

  guint           n_writing;       /* saves and exports in worker threads */
};

/* How long after an edit its recovery copy is written, at the latest. */
#define RECOVERY_DELAY_MS 1000

G_DEFINE_FINAL_TYPE (BlSession, bl_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_FILE,
  PROP_MODIFIED,
  PROP_LOADING_FILE,
  PROP_SAVING,
  N_PROPS
};

enum {
  CHANGED,
  FILE_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Set by the ui tests only (bl-session-private.h); read by workers. */
static BlSessionLoadHook load_hook;

void
bl_session_set_load_hook (BlSessionLoadHook hook)
{
  g_atomic_pointer_set (&load_hook, hook);
}

/* Modified ---------------------------------------------------------------- */

gboolean
bl_session_get_modified (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), FALSE);
  return self->restored || (self->history != NULL && bl_edit_history_is_modified (self->history));
}

static void
notify_modified (BlSession *self)
{
  gboolean modified = bl_session_get_modified (self);

  if (modified == self->modified)
    return;
  self->modified = modified;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

/* Recovery copies --------------------------------------------------------- */

void
bl_session_write_recovery (BlSession *self)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (BL_IS_SESSION (self));

  if (self->document == NULL || !bl_session_get_modified (self))
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
  BlSession *self = data;

  self->recovery_source = 0;
  bl_session_write_recovery (self);
  return G_SOURCE_REMOVE;
}

/* Unsaved edits get a recovery copy soon after they change (a run of
 * edits writes once per delay); without them the copy goes. */
static void
recovery_update (BlSession *self)
{
  if (bl_session_get_modified (self))
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
recovery_drop (BlSession *self)
{
  g_clear_handle_id (&self->recovery_source, g_source_remove);
  if (self->recovery != NULL)
    bl_recovery_discard (self->recovery);
  g_clear_pointer (&self->recovery, bl_recovery_free);
}

/* Watching the file ------------------------------------------------------- */

static void
on_file_changed (GFileMonitor      *monitor,
                 GFile             *file,
                 GFile             *other,
                 GFileMonitorEvent  event,
                 BlSession         *self)
{
  g_autoptr(GBytes) bytes = NULL;
  gboolean handled = FALSE;

  if (event != G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT &&
      event != G_FILE_MONITOR_EVENT_CREATED &&
      event != G_FILE_MONITOR_EVENT_RENAMED &&
      event != G_FILE_MONITOR_EVENT_MOVED_IN)
    return;
  if (self->file == NULL)
    return;

  /* Our own saves (done or running), and touches that change nothing,
   * are not news. */
  bytes = g_file_load_bytes (self->file, NULL, NULL, NULL);
  if (bytes == NULL ||
      (self->disk_bytes != NULL && g_bytes_equal (bytes, self->disk_bytes)) ||
      (self->writing_bytes != NULL && g_bytes_equal (bytes, self->writing_bytes)))
    return;

  g_signal_emit (self, signals[FILE_CHANGED], 0, &handled);
  /* Not taken note of (the window was asking something else): a save
   * still finds the file changed since it was read. */
  if (!handled)
    return;
  g_clear_pointer (&self->disk_bytes, g_bytes_unref);
  self->disk_bytes = g_steal_pointer (&bytes);
}

static void
file_monitor_stop (BlSession *self)
{
  if (self->monitor == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->monitor, self);
  g_file_monitor_cancel (self->monitor);
  g_clear_object (&self->monitor);
}

static void
file_monitor_start (BlSession *self)
{
  file_monitor_stop (self);
  if (self->file == NULL)
    return;
  self->monitor = g_file_monitor_file (self->file, G_FILE_MONITOR_WATCH_MOVES, NULL, NULL);
  if (self->monitor != NULL)
    g_signal_connect (self->monitor, "changed", G_CALLBACK (on_file_changed), self);
}

gboolean
bl_session_disk_changed (BlSession *self,
                         GFile     *file)
{
  g_autoptr(GBytes) now = NULL;

  g_return_val_if_fail (BL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->file == NULL || !g_file_equal (file, self->file))
    return FALSE;
  if (self->disk_conflict)
    return TRUE;
  if (self->disk_bytes == NULL)
    return FALSE;
  now = g_file_load_bytes (self->file, NULL, NULL, NULL);
  return now != NULL && !g_bytes_equal (now, self->disk_bytes);
}

void
bl_session_keep_edits (BlSession *self)
{
  g_return_if_fail (BL_IS_SESSION (self));
  self->disk_conflict = TRUE;
}

void
bl_session_accept_disk (BlSession *self)
{
  g_return_if_fail (BL_IS_SESSION (self));

  self->disk_conflict = FALSE;
  g_clear_pointer (&self->disk_bytes, g_bytes_unref);
  if (self->file != NULL)
    self->disk_bytes = g_file_load_bytes (self->file, NULL, NULL, NULL);
}

/* The document ------------------------------------------------------------ */

static void
on_history_changed (BlEditHistory *history,
                    BlSession     *self)
{
  self->history_serial++;
  if (self->loading_file != NULL)
    self->edited_while_loading = TRUE;
  recovery_update (self);
  notify_modified (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
history_clear (BlSession *self)
{
  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  g_clear_object (&self->history);
}

void
bl_session_set_document (BlSession  *self,
                         BlDocument *document,
                         GFile      *file,
                         GBytes     *disk_bytes,
                         gboolean    restored)
{
  gboolean file_changed;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (BL_IS_DOCUMENT (document));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  file_changed = (file == NULL) != (self->file == NULL) ||
                 (file != NULL && !g_file_equal (file, self->file));
  history_clear (self);
  /* The old document's edits were saved or given up. */
  recovery_drop (self);
  self->restored = restored;
  g_set_object (&self->document, document);
  g_set_object (&self->file, file);
  g_clear_pointer (&self->disk_bytes, g_bytes_unref);
  self->disk_bytes = disk_bytes != NULL ? g_bytes_ref (disk_bytes) : NULL;
  self->disk_conflict = FALSE;

  self->history = bl_edit_history_new ();
  g_signal_connect (self->history, "changed", G_CALLBACK (on_history_changed), self);
  file_monitor_start (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  if (file_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  notify_modified (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

BlDocument *
bl_session_get_document (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  return self->document;
}

GFile *
bl_session_get_file (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  return self->file;
}

BlEditHistory *
bl_session_get_history (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  return self->history;
}

/* Loading in a worker thread ---------------------------------------------- */

GFile *
bl_session_get_loading_file (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  return self->loading_file;
}

static void
loading_done (BlSession *self)
{
  g_clear_object (&self->load_cancellable);
  if (self->loading_file != NULL)
    {
      g_clear_object (&self->loading_file);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING_FILE]);
    }
}

static void
cancel_load (BlSession  *self,
             const char *why)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->load_task);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  loading_done (self);
  if (task != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", why);
}

void
bl_session_cancel_load (BlSession *self)
{
  g_return_if_fail (BL_IS_SESSION (self));
  cancel_load (self, _("Opening was superseded"));
}

/* What a finished load hands its caller. */
typedef struct
{
  BlDocument *document;
  gboolean    edited_while_loading;
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_clear_object (&loaded->document);
  g_free (loaded);
}

/* What the worker reads. */
typedef struct
{
  GFile *file;
  guint  max_links;
} LoadJob;

static void
load_job_free (gpointer data)
{
  LoadJob *job = data;

  g_object_unref (job->file);
  g_free (job);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  GFile *file = job->file;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(BlDocument) document = NULL;
  BlSessionLoadHook hook = g_atomic_pointer_get (&load_hook);
  GError *error = NULL;

  if (hook != NULL)
    hook (file, cancellable);
  if (g_task_return_error_if_cancelled (task))
    return;
  document = bl_document_new_from_file_limited (path, BL_DOCUMENT_LOAD_DEFAULT, job->max_links, &error);
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

static void
on_load_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  BlSession *self = BL_SESSION (source);
  g_autoptr(GTask) task = user_data;   /* the caller's */
  g_autoptr(BlDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  Loaded *loaded;

  document = g_task_propagate_pointer (G_TASK (result), &error);
  /* Superseded, or the session went: cancel_load answered the caller. */
  if (self->load_task != task)
    return;
  g_clear_object (&self->load_task);
  loading_done (self);

  if (document == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  loaded = g_new0 (Loaded, 1);
  loaded->document = g_steal_pointer (&document);
  loaded->edited_while_loading = self->edited_while_loading;
  self->edited_while_loading = FALSE;
  g_task_return_pointer (task, loaded, loaded_free);
}

void
bl_session_load_async (BlSession           *self,
                       GFile               *file,
                       guint                max_links,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) worker = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (G_IS_FILE (file));

  bl_session_cancel_load (self);
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, bl_session_load_async);

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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING_FILE]);

  worker = g_task_new (self, self->load_cancellable, on_load_done, g_steal_pointer (&task));
  g_task_set_source_tag (worker, load_worker);
  {
    LoadJob *job = g_new0 (LoadJob, 1);

    job->file = g_object_ref (file);
    job->max_links = max_links;
    g_task_set_task_data (worker, job, load_job_free);
  }
  g_task_run_in_thread (worker, load_worker);
}

BlDocument *
bl_session_load_finish (BlSession     *self,
                        GAsyncResult  *result,
                        gboolean      *edited_while_loading,
                        GError       **error)
{
  Loaded *loaded;
  BlDocument *document;

  g_return_val_if_fail (BL_IS_SESSION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == bl_session_load_async, NULL);

  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return NULL;
  if (edited_while_loading != NULL)
    *edited_while_loading = loaded->edited_while_loading;
  document = g_steal_pointer (&loaded->document);
  loaded_free (loaded);
  return document;
}

/* Saving and exporting in a worker thread --------------------------------- */

gboolean
bl_session_get_saving (BlSession *self)
{
  g_return_val_if_fail (BL_IS_SESSION (self), FALSE);
  return self->n_writing > 0;
}

/* One write: the bytes are made on the main thread (the document's tree
 * is the main thread's), the file written and flushed in the worker. */
typedef struct
{
  GFile      *file;
  char       *path;
  GBytes     *bytes;      /* the document as it is saved */
  BlDocument *document;   /* the document saved */
  guint       serial;     /* the history's when the bytes were made */
  gboolean    bake;       /* bytes are the document to bake, not to write */
  char       *source;     /* bake: the path the copy is read as */
} Write;

static void
write_free (gpointer data)
{
  Write *write = data;

  g_clear_object (&write->file);
  g_free (write->path);
  g_clear_pointer (&write->bytes, g_bytes_unref);
  g_clear_object (&write->document);
  g_free (write->source);
  g_free (write);
}

/* Bakes a copy read from the bytes: the shown document is not touched. */
static GBytes *
bake_copy (Write   *write,
           GError **error)
{
  g_autoptr(BlDocument) copy = NULL;
  g_autoptr(BlExportBake) bake = NULL;
  gsize length;
  const char *data = g_bytes_get_data (write->bytes, &length);

  copy = bl_document_new_from_data (data, length, write->source, error);
  if (copy == NULL)
    return NULL;
  /* written, not applied: the copy is not shown */
  bake = bl_export_bake_new (copy, BL_BAKE_AUTO, NULL, NULL, error);
  if (bake == NULL || !bl_export_bake_record (bake, error))
    return NULL;
  return bl_export_bake_to_bytes (bake, error);
}

static void
write_worker (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Write *write = task_data;
  g_autoptr(GBytes) baked = NULL;
  GError *error = NULL;

  if (write->bake && (baked = bake_copy (write, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (!bl_export_write_atomic (write->path, baked != NULL ? baked : write->bytes, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
writing_changed (BlSession *self,
                 int        delta)
{
  gboolean before = self->n_writing > 0;

  self->n_writing += delta;
  if (before != (self->n_writing > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAVING]);
}

/* The write ended: a save of the shown document makes its file the one
 * written, and the document clean unless it was edited meanwhile. */
static void
on_write_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  BlSession *self = BL_SESSION (source);
  g_autoptr(GTask) task = user_data;   /* the caller's */
  Write *write = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (self->writing_bytes == write->bytes)
    g_clear_pointer (&self->writing_bytes, g_bytes_unref);
  writing_changed (self, -1);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!write->bake && write->document == self->document)
    {
      if (self->file == NULL || !g_file_equal (write->file, self->file))
        {
          g_set_object (&self->file, write->file);
          file_monitor_start (self);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
        }
      g_clear_pointer (&self->disk_bytes, g_bytes_unref);
      self->disk_bytes = g_bytes_ref (write->bytes);
      if (write->serial == self->history_serial)
        {
          self->restored = FALSE;
          bl_edit_history_set_clean (self->history);
        }
      recovery_update (self);
      notify_modified (self);
      g_signal_emit (self, signals[CHANGED], 0);
    }
  g_task_return_boolean (task, TRUE);
}

static void
write_async (BlSession           *self,
             GFile               *file,
             gboolean             bake,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) worker = NULL;
  g_autoptr(GError) error = NULL;
  Write *write;

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, bl_session_write_async);

  write = g_new0 (Write, 1);
  write->file = g_object_ref (file);
  write->path = g_file_get_path (file);
  write->document = g_object_ref (self->document);
  write->serial = self->history_serial;
  write->bake = bake;
  write->source = g_strdup (bl_document_get_path (self->document));
  if (write->path == NULL)
    {
      write_free (write);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("Only local files can be written"));
      return;
    }
  write->bytes = bl_export_to_bytes (self->document, &error);
  if (write->bytes == NULL)
    {
      write_free (write);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* The monitor may tell of the write before the worker has ended. */
  if (!bake && self->file != NULL && g_file_equal (file, self->file))
    {
      g_clear_pointer (&self->writing_bytes, g_bytes_unref);
      self->writing_bytes = g_bytes_ref (write->bytes);
    }
  writing_changed (self, +1);

  worker = g_task_new (self, NULL, on_write_done, g_steal_pointer (&task));
  g_task_set_source_tag (worker, write_worker);
  g_task_set_task_data (worker, write, write_free);
  g_task_run_in_thread (worker, write_worker);
}

void
bl_session_write_async (BlSession           *self,
                        GFile               *file,
                        BlSessionWrite       what,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_return_if_fail (BL_IS_SESSION (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (self->document != NULL);

  write_async (self, file, what == BL_SESSION_EXPORT_BAKED, callback, user_data);
}

gboolean
bl_session_write_finish (BlSession     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (BL_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == bl_session_write_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* GObject ----------------------------------------------------------------- */

static void
bl_session_dispose (GObject *object)
{
  BlSession *self = BL_SESSION (object);

  /* A running worker keeps running to its end; its document is dropped. */
  cancel_load (self, _("The window was closed"));
  file_monitor_stop (self);
  history_clear (self);
  /* Closed: the edits were saved or given up. */
  recovery_drop (self);
  g_clear_object (&self->document);
  g_clear_object (&self->file);
  g_clear_pointer (&self->disk_bytes, g_bytes_unref);
  g_clear_pointer (&self->writing_bytes, g_bytes_unref);

  G_OBJECT_CLASS (bl_session_parent_class)->dispose (object);
}

static void
bl_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  BlSession *self = BL_SESSION (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, bl_session_get_modified (self));
      break;
    case PROP_LOADING_FILE:
      g_value_set_object (value, self->loading_file);
      break;
    case PROP_SAVING:
      g_value_set_boolean (value, bl_session_get_saving (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_session_class_init (BlSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = bl_session_dispose;
  object_class->get_property = bl_session_get_property;

  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, BL_TYPE_DOCUMENT, flags);
  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_MODIFIED] = g_param_spec_boolean ("modified", NULL, NULL, FALSE, flags);
  properties[PROP_LOADING_FILE] = g_param_spec_object ("loading-file", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_SAVING] = g_param_spec_boolean ("saving", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Returns TRUE when a handler took note of the change (reloaded, or
   * asked the user); otherwise the session keeps what it last read. */
  signals[FILE_CHANGED] = g_signal_new ("file-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, g_signal_accumulator_true_handled, NULL, NULL,
                                        G_TYPE_BOOLEAN, 0);
}

static void
bl_session_init (BlSession *self)
{
}

BlSession *
bl_session_new (void)
{
  return g_object_new (BL_TYPE_SESSION, NULL);
}
