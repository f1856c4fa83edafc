/* bl-recovery.c: recovery copies of a window's unsaved edits, offered
 * again after the application was killed or crashed. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "bl-export.h"
#include "bl-file-private.h"
#include "bl-recovery.h"

#define GROUP "Recovery"

struct _BlRecovery
{
  char      *id;
  char      *data_path;   /* <id>.sdf */
  char      *info_path;   /* <id>.ini */
  char      *lock_path;   /* <id>.lock */
  int        lock_fd;     /* −1 until locked */
  GFile     *original;
  gboolean   info_written;
  GDateTime *modified;
};

char *
bl_recovery_dup_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "ballast", "recovery", NULL);
}

static BlRecovery *
recovery_new_with_id (const char *id)
{
  BlRecovery *self = g_new0 (BlRecovery, 1);
  g_autofree char *dir = bl_recovery_dup_dir ();
  g_autofree char *data = g_strconcat (id, ".sdf", NULL);
  g_autofree char *info = g_strconcat (id, ".ini", NULL);
  g_autofree char *lock = g_strconcat (id, ".lock", NULL);

  self->id = g_strdup (id);
  self->data_path = g_build_filename (dir, data, NULL);
  self->info_path = g_build_filename (dir, info, NULL);
  self->lock_path = g_build_filename (dir, lock, NULL);
  self->lock_fd = -1;
  return self;
}

BlRecovery *
bl_recovery_new (void)
{
  g_autofree char *id = g_uuid_string_random ();

  return recovery_new_with_id (id);
}

/* Opens and locks <id>.lock without waiting: FALSE when a live process
 * holds it.  The lock goes with the process, however it ends. */
static gboolean
take_lock (BlRecovery  *self,
           GError     **error)
{
  int fd;

  if (self->lock_fd >= 0)
    return TRUE;
  fd = g_open (self->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: %s", self->lock_path, g_strerror (saved));
      return FALSE;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_IO_ERROR, saved == EWOULDBLOCK ? G_IO_ERROR_BUSY : g_io_error_from_errno (saved),
                   "%s: %s", self->lock_path, g_strerror (saved));
      return FALSE;
    }
  self->lock_fd = fd;
  return TRUE;
}

static void
release_lock (BlRecovery *self)
{
  if (self->lock_fd >= 0)
    close (self->lock_fd);
  self->lock_fd = -1;
}

gboolean
bl_recovery_save (BlRecovery  *self,
                  GBytes      *contents,
                  GFile       *original,
                  GError     **error)
{
  g_autofree char *dir = bl_recovery_dup_dir ();

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  if (!take_lock (self, error))
    return FALSE;

  /* The record first: a copy without one is never offered. */
  if (!self->info_written ||
      (original == NULL) != (self->original == NULL) ||
      (original != NULL && !g_file_equal (original, self->original)))
    {
      g_autoptr(GKeyFile) info = g_key_file_new ();
      g_autoptr(GBytes) info_bytes = NULL;
      g_autofree char *path = original != NULL ? g_file_get_path (original) : NULL;
      char *text;
      gsize length;

      g_key_file_set_integer (info, GROUP, "Version", 1);
      if (path != NULL)
        g_key_file_set_string (info, GROUP, "Original", path);
      text = g_key_file_to_data (info, &length, NULL);
      info_bytes = g_bytes_new_take (text, length);
      if (!bl_export_write_atomic (self->info_path, info_bytes, error))
        return FALSE;
      g_set_object (&self->original, original);
      self->info_written = TRUE;
    }

  if (!bl_export_write_atomic (self->data_path, contents, error))
    return FALSE;
  g_clear_pointer (&self->modified, g_date_time_unref);
  self->modified = g_date_time_new_now_local ();
  return TRUE;
}

void
bl_recovery_discard (BlRecovery *self)
{
  g_return_if_fail (self != NULL);

  if (self->lock_fd < 0 && !self->info_written)
    return;
  g_unlink (self->info_path);
  g_unlink (self->data_path);
  g_unlink (self->lock_path);
  release_lock (self);
  self->info_written = FALSE;
  g_clear_object (&self->original);
}

void
bl_recovery_free (BlRecovery *self)
{
  if (self == NULL)
    return;
  release_lock (self);
  g_free (self->id);
  g_free (self->data_path);
  g_free (self->info_path);
  g_free (self->lock_path);
  g_clear_object (&self->original);
  g_clear_pointer (&self->modified, g_date_time_unref);
  g_free (self);
}

static int
compare_modified (gconstpointer a,
                  gconstpointer b)
{
  const BlRecovery *ra = *(BlRecovery * const *) a;
  const BlRecovery *rb = *(BlRecovery * const *) b;

  return g_date_time_compare (ra->modified, rb->modified);
}

/* The .ini read without blocking: a FIFO (or anything but a regular file
 * of at most 64 KiB) put in its place is not read, and so does not hang
 * the application at start. */
static gboolean
load_info (GKeyFile   *info,
           const char *path)
{
  g_autofree char *text = NULL;
  gsize length;

  return bl_file_read (path, 64 * 1024, &text, &length, NULL) &&
         g_key_file_load_from_data (info, text, length, G_KEY_FILE_NONE, NULL);
}

GPtrArray *
bl_recovery_find_orphans (void)
{
  GPtrArray *orphans = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_recovery_free);
  g_autofree char *dir_path = bl_recovery_dup_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return orphans;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autoptr(BlRecovery) entry = NULL;
      g_autoptr(GKeyFile) info = NULL;
      g_autoptr(GFile) data = NULL;
      g_autoptr(GFileInfo) data_info = NULL;
      g_autofree char *id = NULL;
      g_autofree char *original = NULL;

      if (!g_str_has_suffix (name, ".ini"))
        continue;
      id = g_strndup (name, strlen (name) - strlen (".ini"));
      entry = recovery_new_with_id (id);
      if (!take_lock (entry, NULL))
        continue;  /* its owner is alive */

      info = g_key_file_new ();
      data = g_file_new_for_path (entry->data_path);
      data_info = g_file_query_info (data, G_FILE_ATTRIBUTE_TIME_MODIFIED, G_FILE_QUERY_INFO_NONE, NULL, NULL);
      if (!load_info (info, entry->info_path) || data_info == NULL)
        {
          /* Killed before the first copy was complete: nothing to offer. */
          entry->info_written = TRUE;
          bl_recovery_discard (entry);
          continue;
        }
      entry->info_written = TRUE;
      original = g_key_file_get_string (info, GROUP, "Original", NULL);
      if (original != NULL && *original != '\0')
        entry->original = g_file_new_for_path (original);
      {
        g_autoptr(GDateTime) utc = g_file_info_get_modification_date_time (data_info);
        entry->modified = g_date_time_to_local (utc);
      }
      g_ptr_array_add (orphans, g_steal_pointer (&entry));
    }

  g_ptr_array_sort (orphans, compare_modified);
  return orphans;
}

GFile *
bl_recovery_get_original (BlRecovery *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->original;
}

GBytes *
bl_recovery_load (BlRecovery  *self,
                  GError     **error)
{
  char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (self != NULL, NULL);

  /* without blocking on a FIFO, like every file Ballast reads as a model */
  if (!bl_file_read (self->data_path, BL_FILE_MAX_SIZE, &contents, &length, error))
    return NULL;
  return g_bytes_new_take (contents, length);
}

GDateTime *
bl_recovery_get_modified (BlRecovery *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->modified;
}

static gboolean
same_day (GDateTime *a,
          GDateTime *b)
{
  return g_date_time_get_year (a) == g_date_time_get_year (b) &&
         g_date_time_get_day_of_year (a) == g_date_time_get_day_of_year (b);
}

char *
bl_recovery_format_time (GDateTime *time,
                         GDateTime *now)
{
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) today = NULL;
  g_autoptr(GDateTime) yesterday = NULL;
  const char *format;
  char *text;

  g_return_val_if_fail (time != NULL, NULL);
  g_return_val_if_fail (now != NULL, NULL);

  local = g_date_time_to_local (time);
  today = g_date_time_to_local (now);
  yesterday = g_date_time_add_days (today, -1);
  if (same_day (local, today))
    /* Translators: when the recovery copy was written, as in “a copy from
     * today at 14:05 was kept”; the codes are those of g_date_time_format() */
    format = _("today at %H:%M");
  else if (same_day (local, yesterday))
    /* Translators: as “today at %H:%M”, for a copy from yesterday */
    format = _("yesterday at %H:%M");
  else
    /* Translators: an older copy, as in “a copy from 5 March 2025 at 09:07
     * was kept”; %-d is the day without padding, %B the month's name */
    format = _("%-d %B %Y at %H:%M");
  text = g_date_time_format (local, format);
  /* A broken translation must not lose the date. */
  return text != NULL ? text : g_date_time_format (local, "%Y-%m-%d %H:%M");
}
