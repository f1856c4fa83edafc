/* bl-file.c: reading a model file without hanging on a FIFO or a device.
 *
 * g_file_get_contents() opens with a blocking open(2): a FIFO with no
 * writer in place of a model (or an included file, or a model.config)
 * would hang the loader forever.  This opens with O_NONBLOCK, checks with
 * fstat(2) on the open descriptor (no race with a rename) that it is a
 * regular file of sane size, and only then reads. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bl-file-private.h"

static gboolean
set_error_from_errno (GError    **error,
                      const char *path,
                      const char *doing,
                      int         saved_errno)
{
  g_autofree char *display = g_filename_display_name (path);

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               "Failed to %s file “%s”: %s", doing, display, g_strerror (saved_errno));
  return FALSE;
}

/* /proc and /sys: their "regular" files are the kernel's (/proc/kmsg
 * blocks, /proc/self/environ is the process's secrets) */
#define KERNEL_FILE "a file of the kernel (/proc or /sys)"

static gboolean
is_kernel_file_system (const struct statfs *fs)
{
  return fs->f_type == 0x9fa0 /* PROC_SUPER_MAGIC */ || fs->f_type == 0x62656572 /* SYSFS_MAGIC */;
}

static gboolean
in_kernel_file_system (int fd)
{
  struct statfs fs;

  return fstatfs (fd, &fs) == 0 && is_kernel_file_system (&fs);
}

/* What a file that is not a regular one is, as the messages name it. */
static const char *
describe_mode (mode_t mode)
{
  return S_ISDIR (mode) ? "a directory"
         : S_ISFIFO (mode) ? "a named pipe (FIFO)"
         : S_ISSOCK (mode) ? "a socket"
         : "a device";
}

const char *
bl_file_describe_special (const char *path)
{
  struct stat st;
  struct statfs fs;

  g_return_val_if_fail (path != NULL, NULL);

  if (stat (path, &st) != 0)
    return NULL;
  if (!S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode))
    return describe_mode (st.st_mode);
  if (statfs (path, &fs) == 0 && is_kernel_file_system (&fs))
    return KERNEL_FILE;
  return NULL;
}

int
bl_file_open (const char  *path,
              gsize        max_size,
              gsize       *size,
              GError     **error)
{
  g_autofree char *display = NULL;
  struct stat st;
  int fd, flags;

  g_return_val_if_fail (path != NULL, -1);

  display = g_filename_display_name (path);

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_error_from_errno (error, path, "open", errno);
      return -1;
    }

  if (fstat (fd, &st) != 0)
    {
      int saved_errno = errno;

      close (fd);
      set_error_from_errno (error, path, "read", saved_errno);
      return -1;
    }

  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, S_ISDIR (st.st_mode) ? G_FILE_ERROR_ISDIR : G_FILE_ERROR_INVAL,
                   "“%s” is %s, not a regular file", display, describe_mode (st.st_mode));
      return -1;
    }

  if (in_kernel_file_system (fd))
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ACCES,
                   "“%s” is " KERNEL_FILE ", not a model's file", display);
      return -1;
    }
  if (st.st_size < 0 || (guint64) st.st_size > max_size)
    {
      close (fd);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   "“%s” is too large (%" G_GUINT64_FORMAT " bytes; Ballast reads at most %"
                   G_GSIZE_FORMAT ")", display, (guint64) st.st_size, max_size);
      return -1;
    }

  /* A regular file never blocks; clear the flag for plain reads anyway. */
  flags = fcntl (fd, F_GETFL);
  if (flags >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);

  if (size != NULL)
    *size = (gsize) st.st_size;
  return fd;
}

gboolean
bl_file_read (const char  *path,
              gsize        max_size,
              char       **contents,
              gsize       *length,
              GError     **error)
{
  g_autofree char *buffer = NULL;
  gsize size, done = 0;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (length != NULL, FALSE);

  *contents = NULL;
  *length = 0;

  fd = bl_file_open (path, max_size, &size, error);
  if (fd < 0)
    return FALSE;

  buffer = g_malloc (size + 1);
  while (done < size)
    {
      ssize_t n = read (fd, buffer + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          return set_error_from_errno (error, path, "read", saved_errno);
        }
      if (n == 0)
        break;   /* the file shrank while we read: take what is there */
      done += (gsize) n;
    }
  close (fd);

  buffer[done] = '\0';
  *contents = g_steal_pointer (&buffer);
  *length = done;
  return TRUE;
}
