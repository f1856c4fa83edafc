/* bl-export.c: lossless saving, baking and atomic writes. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bl-export.h"
#include "bl-export-private.h"
#include "bl-resolve.h"
#include "bl-document-private.h"
#include "bl-edit-private.h"
#include "bl-xml-private.h"

G_DEFINE_QUARK (bl-export-error-quark, bl_export_error)

GBytes *
bl_export_to_bytes (BlDocument  *doc,
                    GError     **error)
{
  g_autoptr(GError) map_error = NULL;
  BlSourceMap *map;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);

  map = bl_document_get_source_map (doc, &map_error);
  if (map == NULL)
    {
      /* Edits need the map, so a document without one was never edited. */
      return g_bytes_ref (bl_document_get_source (doc));
    }

  return bl_source_map_serialize (map);
}

static gboolean
same_file (const char *a,
           const char *b)
{
  GStatBuf sa, sb;

  if (a == NULL || b == NULL)
    return FALSE;
  if (g_stat (a, &sa) != 0 || g_stat (b, &sb) != 0)
    return FALSE;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* What a save writes: BYTES, or the map's tree spliced into its source
 * with PATCH's nodes as it recorded them (bl_source_map_patch_write),
 * written out as it is made: the unchanged ranges of the source from the
 * source itself, the file never held whole.  A save may write it more
 * than once (a named temporary file after an unnamed one failed, a file
 * of several hard links rewritten in place): the same bytes each time. */
typedef struct
{
  GBytes           *bytes;
  BlSourceMap      *map;
  BlSourceMapPatch *patch;
} Content;

/* The document as it is saved, with PATCH's nodes (or none). */
static Content
export_content (BlDocument       *doc,
                BlSourceMapPatch *patch)
{
  BlSourceMap *map = bl_document_get_source_map (doc, NULL);

  if (map != NULL)
    return (Content) { NULL, map, patch };
  /* Edits need the map, so a document without one was never edited. */
  return (Content) { bl_document_get_source (doc), NULL, NULL };
}

static gboolean write_atomic (const char     *path,
                              const Content  *content,
                              GError        **error);

/* bl_export_save, with PATCH's nodes (or none) as it recorded them. */
static gboolean
save (BlDocument       *doc,
      BlSourceMapPatch *patch,
      const char       *path,
      BlExportFlags     flags,
      GError          **error)
{
  Content content;

  if (!(flags & BL_EXPORT_IN_PLACE) && same_file (path, bl_document_get_path (doc)))
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_SAME_FILE,
                   "“%s” is the file being edited; overwriting it must be asked for (in place)",
                   path);
      return FALSE;
    }

  content = export_content (doc, patch);
  return write_atomic (path, &content, error);
}

gboolean
bl_export_save (BlDocument     *doc,
                const char     *path,
                BlExportFlags   flags,
                GError        **error)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (doc), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return save (doc, NULL, path, flags, error);
}

static gboolean write_content (int            fd,
                               const Content *content,
                               gsize         *length,
                               int           *saved_errno);

/* bl_export_write_fd, with PATCH's nodes (or none) as it recorded them. */
static gboolean
write_fd (BlDocument        *doc,
          BlSourceMapPatch  *patch,
          int                fd,
          GError           **error)
{
  Content content = export_content (doc, patch);
  int saved_errno = 0;

  if (!write_content (fd, &content, NULL, &saved_errno))
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_WRITE,
                   "cannot write the file: %s", g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
bl_export_write_fd (BlDocument  *doc,
                    int          fd,
                    GError     **error)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (doc), FALSE);
  g_return_val_if_fail (fd >= 0, FALSE);

  return write_fd (doc, NULL, fd, error);
}

/* ------------------------------------------------------------------------ */
/* Atomic writes                                                             */

static gboolean
fail_errno (GError    **error,
            int         saved_errno,
            const char *path,
            const char *what)
{
  g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_WRITE,
               "cannot save “%s”: %s: %s", path, what, g_strerror (saved_errno));
  return FALSE;
}

static gboolean
write_all (int          fd,
           const char  *data,
           gsize        length,
           int         *saved_errno)
{
  while (length > 0)
    {
      gssize written = write (fd, data, MIN (length, (gsize) G_MAXSSIZE));

      if (written < 0)
        {
          if (errno == EINTR)
            continue;
          *saved_errno = errno;
          return FALSE;
        }
      data += written;
      length -= (gsize) written;
    }

  return TRUE;
}

/* The bytes a splicing save hands on (bl_source_map_patch_write), written
 * to FD in blocks of SINK_SIZE: the pieces are a few hundred bytes where
 * every link is written anew, the unchanged ranges between edits
 * megabytes, which go straight to the file. */
#define SINK_SIZE (256 * 1024)

typedef struct
{
  int    fd;
  char  *buffer;
  gsize  used;
  gsize  length;       /* every byte handed on */
  int    saved_errno;  /* the first write that failed, or 0 */
} Sink;

static void
sink_flush (Sink *sink)
{
  if (sink->used > 0 && sink->saved_errno == 0)
    write_all (sink->fd, sink->buffer, sink->used, &sink->saved_errno);
  sink->used = 0;
}

static void
sink_write (const char *data,
            gsize       length,
            gpointer    user_data)
{
  Sink *sink = user_data;

  sink->length += length;
  if (sink->saved_errno != 0)
    return;
  if (length > SINK_SIZE - sink->used)
    sink_flush (sink);
  if (length >= SINK_SIZE)
    write_all (sink->fd, data, length, &sink->saved_errno);
  else
    {
      memcpy (sink->buffer + sink->used, data, length);
      sink->used += length;
    }
}

/* Writes the content to FD; *LENGTH (nullable) gets its size. */
static gboolean
write_content (int            fd,
               const Content *content,
               gsize         *length,
               int           *saved_errno)
{
  Sink sink = { fd, NULL, 0, 0, 0 };

  if (content->map == NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (content->bytes, &size);

      if (length != NULL)
        *length = size;
      return write_all (fd, data, size, saved_errno);
    }

  sink.buffer = g_malloc (SINK_SIZE);
  bl_source_map_patch_write (content->map, content->patch, sink_write, &sink);
  sink_flush (&sink);
  g_free (sink.buffer);
  if (length != NULL)
    *length = sink.length;
  if (sink.saved_errno != 0)
    {
      *saved_errno = sink.saved_errno;
      return FALSE;
    }
  return TRUE;
}

/* The descriptor that "/dev/stdout", "/dev/stderr", "/dev/fd/N" or
 * "/proc/self/fd/N" (as written, or as a symbolic link's target) names,
 * or -1. Through such a name a shell's redirection (`>> log`) is the
 * target: it is written to, never renamed over nor reopened (which would
 * truncate or write from the start of an appended log). */
static int
descriptor_alias (const char *path)
{
  g_autofree char *link = g_file_read_link (path, NULL);
  const char *names[2] = { path, link };

  for (guint i = 0; i < G_N_ELEMENTS (names) && names[i] != NULL; i++)
    {
      const char *name = names[i];
      const char *number = NULL;
      guint64 fd;

      if (strcmp (name, "/dev/stdout") == 0)
        return STDOUT_FILENO;
      if (strcmp (name, "/dev/stderr") == 0)
        return STDERR_FILENO;
      if (g_str_has_prefix (name, "/dev/fd/"))
        number = name + strlen ("/dev/fd/");
      else if (g_str_has_prefix (name, "/proc/self/fd/"))
        number = name + strlen ("/proc/self/fd/");
      if (number != NULL && g_ascii_string_to_unsigned (number, 10, 0, G_MAXINT, &fd, NULL))
        return (int) fd;
    }

  return -1;
}

/* Writes contents to what is not a regular file (a character device such
 * as /dev/null, a FIFO with a reader, an inherited descriptor): there is
 * nothing to replace, so the bytes go straight to it. fd < 0: path is
 * opened (never created). */
static gboolean
write_through (const char     *path,
               int             fd,
               const Content  *content,
               GError        **error)
{
  int saved_errno = 0;
  gboolean opened = fd < 0;

  if (opened)
    {
      /* non-blocking: a FIFO without a reader is an error (ENXIO), not a hang */
      fd = open (path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0)
        return fail_errno (error, errno, path,
                           errno == ENXIO ? "nothing reads from it" : "it cannot be opened");
      if (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) != 0)
        saved_errno = errno;
    }

  if (saved_errno == 0)
    write_content (fd, content, NULL, &saved_errno);
  if (opened && close (fd) != 0 && saved_errno == 0)
    saved_errno = errno;
  if (saved_errno != 0)
    return fail_errno (error, saved_errno, path, "writing failed");
  return TRUE;
}

/* The target's extended attributes (user.*, a file capability, an ACL)
 * onto the new file, as a text editor keeps them; one the file system or
 * the user's rights refuse is left behind. */
static void
copy_extended_attributes (const char *dir,
                          const char *base,
                          int         fd)
{
  g_autofree char *path = g_build_filename (dir, base, NULL);
  g_autofree char *names = NULL;
  ssize_t size = listxattr (path, NULL, 0);

  if (size <= 0)
    return;
  names = g_malloc (size);
  size = listxattr (path, names, size);
  for (ssize_t at = 0; size > 0 && at < size; at += strlen (names + at) + 1)
    {
      g_autofree char *value = NULL;
      ssize_t length = getxattr (path, names + at, NULL, 0);

      if (length < 0)
        continue;
      value = g_malloc (MAX (length, 1));
      length = getxattr (path, names + at, value, length);
      if (length >= 0)
        fsetxattr (fd, names + at, value, length, 0);
    }
}

/* BASE as the temporary name holds it: ".BASE.XXXXXX" must stay a legal
 * name (255 bytes) when BASE itself is one of 248 to 255 bytes, so only
 * its first 200 bytes are kept. */
#define TEMP_BASE_MAX 200

/* Links the unnamed file FD (O_TMPFILE) into DIR as ".BASE.XXXXXX", a
 * name no other file has; *TEMP is that path. */
static gboolean
name_unnamed (int          fd,
              const char  *dir,
              const char  *base,
              char       **temp,
              int         *saved_errno)
{
  static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  g_autofree char *proc = g_strdup_printf ("/proc/self/fd/%d", fd);

  for (int attempt = 0; attempt < 100; attempt++)
    {
      char suffix[7];

      for (int i = 0; i < 6; i++)
        suffix[i] = letters[g_random_int_range (0, sizeof letters - 1)];
      suffix[6] = '\0';
      g_free (*temp);
      *temp = g_strdup_printf ("%s%s.%.*s.%s", dir, G_DIR_SEPARATOR_S, TEMP_BASE_MAX, base, suffix);
      if (linkat (AT_FDCWD, proc, AT_FDCWD, *temp, AT_SYMLINK_FOLLOW) == 0)
        return TRUE;
      if (errno != EEXIST)
        break;
    }

  *saved_errno = errno;
  g_clear_pointer (temp, g_free);
  return FALSE;
}

static gboolean use_unnamed_temp = TRUE;

void
bl_export_set_unnamed_temp (gboolean unnamed)
{
  use_unnamed_temp = unnamed;
}

typedef enum
{
  TEMP_OK,
  TEMP_CANNOT_CREATE,
  TEMP_WRITE_FAILED,
} TempResult;

/* Writes CONTENT (*LENGTH bytes) to a new file in DIR with the mode and
 * owner of ST (NULL for a new target), synced to disk, and names it
 * *TEMP, ".BASE.XXXXXX".  UNNAMED: the file is made with O_TMPFILE and
 * named only once complete, so that a process killed while it writes
 * leaves nothing behind. */
static TempResult
write_temp (const char      *dir,
            const char      *base,
            const Content   *content,
            const GStatBuf  *st,
            gboolean         unnamed,
            char           **temp,
            gsize           *length,
            int             *saved_errno)
{
  int fd;

  if (unnamed)
    fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  else
    {
      *temp = g_strdup_printf ("%s%s.%.*s.XXXXXX", dir, G_DIR_SEPARATOR_S, TEMP_BASE_MAX, base);
      fd = g_mkstemp_full (*temp, O_WRONLY | O_CLOEXEC, 0666);
      if (fd < 0)
        g_clear_pointer (temp, g_free);
    }
  if (fd < 0)
    {
      *saved_errno = errno;
      return TEMP_CANNOT_CREATE;
    }

  if (!write_content (fd, content, length, saved_errno))
    goto fail;

  if (st != NULL)
    {
      /* Only root may give a file away; an ordinary user keeps ownership.
       * First: a change of owner clears the setuid and setgid bits. */
      if ((st->st_uid != getuid () || st->st_gid != getgid ()) &&
          fchown (fd, st->st_uid, st->st_gid) != 0)
        { /* not fatal: the file stays the user's */ }
      /* The file was made 0666 & ~umask; give it the target's mode. */
      if (fchmod (fd, st->st_mode & 07777) != 0)
        {
          *saved_errno = errno;
          goto fail;
        }
      copy_extended_attributes (dir, base, fd);
    }

  if (fsync (fd) != 0)
    {
      *saved_errno = errno;
      goto fail;
    }
  /* Complete and on disk: now it gets a name, for the rename. */
  if (unnamed && !name_unnamed (fd, dir, base, temp, saved_errno))
    goto fail;
  if (close (fd) != 0)
    {
      *saved_errno = errno;
      fd = -1;
      goto fail;
    }

  return TEMP_OK;

fail:
  if (fd >= 0)
    close (fd);
  if (*temp != NULL)
    g_unlink (*temp);
  g_clear_pointer (temp, g_free);
  return TEMP_WRITE_FAILED;
}

/* Makes the rename of the folder's entries durable; failing loses nothing. */
static void
sync_folder (const char *dir)
{
  int dir_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (dir_fd >= 0)
    {
      (void) fsync (dir_fd);
      close (dir_fd);
    }
}

/* A file with other hard links: a rename would give PATH a new inode and
 * leave the other names with the old content, so TARGET is rewritten in
 * place, as a careful text editor does.  TEMP, beside it, already holds
 * the whole new content, synced: until TARGET is rewritten and synced,
 * the new content is there in full.  Then TEMP goes.  If the rewrite
 * fails part way, TEMP is renamed over TARGET (the other names keep the
 * old content, and the error says so); if TARGET cannot be opened for
 * writing at all, the save replaces it as any other file (*SPLIT set). */
static gboolean
rewrite_in_place (const char     *path,
                  const char     *target,
                  const char     *temp,
                  const char     *dir,
                  const Content  *content,
                  gsize           length,
                  gboolean       *split,
                  GError        **error)
{
  int saved_errno = 0;
  int fd = open (target, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

  *split = fd < 0;
  if (fd < 0)
    return TRUE;

  if (write_content (fd, content, NULL, &saved_errno) &&
      (ftruncate (fd, (off_t) length) == 0 || (saved_errno = errno, FALSE)) &&
      (fsync (fd) == 0 || (saved_errno = errno, FALSE)))
    {
      close (fd);
      g_unlink (temp);
      sync_folder (dir);
      return TRUE;
    }
  close (fd);

  /* half rewritten: the complete copy takes its place */
  if (g_rename (temp, target) == 0)
    {
      sync_folder (dir);
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_WRITE,
                   "cannot save “%s” in place (its other hard links share it): %s; the new content "
                   "replaced it as a file of its own, and its other names keep the old content",
                   path, g_strerror (saved_errno));
      return FALSE;
    }
  g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_WRITE,
               "cannot save “%s” in place (its other hard links share it): %s; the whole new "
               "content is in “%s”", path, g_strerror (saved_errno), temp);
  return FALSE;
}

gboolean
bl_export_write_atomic (const char  *path,
                        GBytes      *contents,
                        GError     **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL, FALSE);

  return write_atomic (path, &(Content) { contents, NULL, NULL }, error);
}

/* bl_export_write_atomic of the content. */
static gboolean
write_atomic (const char     *path,
              const Content  *content,
              GError        **error)
{
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *temp = NULL;
  GStatBuf st;
  gboolean exists;
  gsize length = 0;
  TempResult result;
  int saved_errno = 0;
  int alias;

  alias = descriptor_alias (path);
  if (alias >= 0)
    {
      if (fstat (alias, &st) != 0)
        return fail_errno (error, errno, path, "the descriptor is not open");
      return write_through (path, alias, content, error);
    }

  /* Replace what a symbolic link points to, not the link. */
  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      char *resolved = realpath (path, NULL);

      if (resolved == NULL)
        return fail_errno (error, errno, path, "the symbolic link cannot be followed");
      target = g_strdup (resolved);
      free (resolved);
    }
  else
    target = g_strdup (path);

  exists = g_stat (target, &st) == 0;
  if (exists && S_ISDIR (st.st_mode))
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_WRITE,
                   "cannot save “%s”: it is a folder", path);
      return FALSE;
    }
  if (exists && (S_ISCHR (st.st_mode) || S_ISFIFO (st.st_mode)))
    return write_through (target, -1, content, error);
  if (exists && !S_ISREG (st.st_mode))
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_WRITE,
                   "cannot save “%s”: it is not a regular file (a block device or a socket)", path);
      return FALSE;
    }

  dir = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_WRITE,
                   "cannot save “%s”: the folder “%s” does not exist", path, dir);
      return FALSE;
    }

  /* An unnamed file first; where the file system has no O_TMPFILE (or
   * there is no /proc to name it by), a named one, which a kill at the
   * wrong moment leaves beside the target, never in its place. */
  result = TEMP_CANNOT_CREATE;
  if (use_unnamed_temp)
    result = write_temp (dir, base, content, exists ? &st : NULL, TRUE, &temp, &length, &saved_errno);
  if (result != TEMP_OK)
    result = write_temp (dir, base, content, exists ? &st : NULL, FALSE, &temp, &length, &saved_errno);
  if (result != TEMP_OK)
    return fail_errno (error, saved_errno, path,
                       result == TEMP_CANNOT_CREATE ? "cannot create a file in its folder" : "writing failed");

  if (exists && st.st_nlink > 1)
    {
      gboolean split;

      if (!rewrite_in_place (path, target, temp, dir, content, length, &split, error))
        return FALSE;
      if (!split)
        return TRUE;
    }

  if (g_rename (temp, target) != 0)
    {
      saved_errno = errno;
      g_unlink (temp);
      return fail_errno (error, saved_errno, path, "cannot replace it");
    }

  sync_folder (dir);
  return TRUE;
}

/* ------------------------------------------------------------------------ */

gboolean
bl_export_get_version_change (BlDocument  *doc,
                              char       **original,
                              char       **written)
{
  xmlNode *root;
  g_autofree char *now = NULL;
  const char *before;
  gboolean changed;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), FALSE);

  root = xmlDocGetRootElement (bl_document_get_xml (doc));
  now = root != NULL ? bl_xml_dup_attribute (root, "version") : NULL;
  before = bl_document_get_loaded_sdf_version (doc);
  changed = g_strcmp0 (before, now) != 0;

  if (original != NULL)
    *original = g_strdup (before);
  if (written != NULL)
    *written = g_steal_pointer (&now);

  return changed;
}

/* ------------------------------------------------------------------------ */
/* Bake                                                                      */

/* The computed values as the file receives them: rounding noise
 * (bl_inertial_clean_noise) written as 0 and 0.8064000000000002 as 0.8064. */
static void
add_inertial_edits (BlEdit           *group,
                    BlDocument       *doc,
                    BlLink           *link,
                    const BlInertial *computed)
{
  BlInertial clean = bl_inertial_clean_noise (computed);
  const double six[6] = {
    clean.inertia.m[0][0], clean.inertia.m[1][1], clean.inertia.m[2][2],
    clean.inertia.m[0][1], clean.inertia.m[0][2], clean.inertia.m[1][2],
  };
  BlPose pose = { clean.com, BL_QUAT_IDENTITY };
  g_autoptr(BlEdit) mass_edit = bl_edit_new_mass (doc, link, clean.mass);
  g_autoptr(BlEdit) inertial_edit = bl_edit_new_inertial (doc, link, pose, six);

  bl_edit_group_add (group, mass_edit);
  bl_edit_group_add (group, inertial_edit);
}

/* An auto link made explicit with what it computes now: the rescaled
 * mass and moments and the density-based centre (sdf-inertia.md §7.2),
 * the rotation always identity, auto="true" removed.  The link's inertia
 * must have been computed (link_bake_check). */
static void
add_link_bake (BlEdit     *group,
               BlDocument *doc,
               BlLink     *link)
{
  BlInertial computed = { link->props.mass, link->props.com, link->props.inertia };
  g_autoptr(BlEdit) explicit = NULL;

  add_inertial_edits (group, doc, link, &computed);
  explicit = bl_edit_new_auto (doc, link, FALSE);
  bl_edit_group_add (group, explicit);
}

/* FALSE when the auto link's inertia could not be computed. */
static gboolean
link_bake_check (BlLink  *link,
                 GError **error)
{
  if (!link->props.resolved)
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_BAKE,
                   "cannot bake %s: its automatic inertia could not be computed "
                   "(run “ballast-cli check” for the reason)", link->scoped_name);
      return FALSE;
    }
  return TRUE;
}

BlEdit *
bl_export_create_link_bake_edit (BlDocument  *doc,
                                 BlLink      *link,
                                 GError     **error)
{
  g_autoptr(BlEdit) group = NULL;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL && link->auto_inertia, NULL);

  if (!link_bake_check (link, error))
    return NULL;
  group = bl_edit_new_group (doc, "Keep the computed inertia");
  add_link_bake (group, doc, link);
  return g_steal_pointer (&group);
}

/* A link a bake changes: an auto link (made explicit from its own values)
 * or an invalid explicit one (given the inertia computed from its
 * collisions, fixes[fix - 1]). */
typedef struct
{
  BlLink *link;
  guint   fix;
  guint   order;   /* among the links of the document, in the reader's order */
} BakeStep;

/* Which links a bake with FLAGS changes, in document order, into STEPS
 * (BakeStep) and FIXES (BlInertial); CHANGED and NOTES as
 * bl_export_create_bake_edit gives them.  FALSE when an auto link's
 * inertia could not be computed. */
static gboolean
plan_bake (BlDocument   *doc,
           BlBakeFlags   flags,
           GArray       *steps,
           GArray       *fixes,
           GPtrArray    *changed,
           GPtrArray    *notes,
           GError      **error)
{
  xmlDoc *xml = bl_document_get_xml (doc);
  GPtrArray *links = bl_document_get_links (doc);

  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);
      gboolean is_auto = link->inertial_node != NULL && link->auto_inertia;
      gboolean wanted = ((flags & BL_BAKE_AUTO) && is_auto) ||
                        ((flags & BL_BAKE_FIX_INVALID) && !is_auto && !link->props.valid);
      BakeStep step = { link, 0, i };

      if (!wanted)
        continue;

      if (link->node->doc != xml)
        {
          if (notes != NULL)
            g_ptr_array_add (notes, g_strdup_printf ("%s is in the included file %s; left as it is",
                                                     link->scoped_name, link->file));
          continue;
        }

      if (is_auto)
        {
          if (!link_bake_check (link, error))
            return FALSE;
        }
      else
        {
          g_autoptr(GError) local_error = NULL;
          BlInertial computed;

          if (!bl_link_compute_auto_inertial (link, &computed, &local_error))
            {
              if (notes != NULL)
                g_ptr_array_add (notes, g_strdup_printf ("%s has an invalid inertia that cannot be "
                                                         "replaced: %s", link->scoped_name,
                                                         local_error->message));
              continue;
            }
          g_array_append_val (fixes, computed);
          step.fix = fixes->len;
        }

      g_array_append_val (steps, step);
      if (changed != NULL)
        g_ptr_array_add (changed, link);
    }

  return TRUE;
}

/* The edits of one step of a bake into GROUP. */
static void
add_bake_step (BlEdit         *group,
               BlDocument     *doc,
               const BakeStep *step,
               GArray         *fixes)
{
  if (step->fix == 0)
    add_link_bake (group, doc, step->link);
  else
    add_inertial_edits (group, doc, step->link, &g_array_index (fixes, BlInertial, step->fix - 1));
}

BlEdit *
bl_export_create_bake_edit (BlDocument   *doc,
                            BlBakeFlags   flags,
                            GPtrArray    *changed,
                            GPtrArray    *notes,
                            GError      **error)
{
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (BakeStep));
  g_autoptr(GArray) fixes = g_array_new (FALSE, FALSE, sizeof (BlInertial));
  g_autoptr(BlEdit) group = NULL;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);

  if (!plan_bake (doc, flags, steps, fixes, changed, notes, error))
    return NULL;
  group = bl_edit_new_group (doc, "Bake the inertia");
  for (guint i = 0; i < steps->len; i++)
    add_bake_step (group, doc, &g_array_index (steps, BakeStep, i), fixes);
  return g_steal_pointer (&group);
}

/* ------------------------------------------------------------------------ */
/* Bake written, not applied                                                 */

struct _BlExportBake
{
  BlDocument       *doc;
  GArray           *steps;     /* BakeStep */
  GArray           *fixes;     /* BlInertial */
  BlSourceMapPatch *patch;     /* once recorded */
};

BlExportBake *
bl_export_bake_new (BlDocument   *doc,
                    BlBakeFlags   flags,
                    GPtrArray    *changed,
                    GPtrArray    *notes,
                    GError      **error)
{
  BlExportBake *bake;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);

  bake = g_new0 (BlExportBake, 1);
  bake->doc = g_object_ref (doc);
  bake->steps = g_array_new (FALSE, FALSE, sizeof (BakeStep));
  bake->fixes = g_array_new (FALSE, FALSE, sizeof (BlInertial));
  if (!plan_bake (doc, flags, bake->steps, bake->fixes, changed, notes, error))
    {
      bl_export_bake_free (bake);
      return NULL;
    }
  return bake;
}

void
bl_export_bake_free (BlExportBake *bake)
{
  if (bake == NULL)
    return;
  g_array_unref (bake->steps);
  g_array_unref (bake->fixes);
  bl_source_map_patch_free (bake->patch);
  g_object_unref (bake->doc);
  g_free (bake);
}

/* Puts the bake's steps in the order of the file, which the patch
 * records them in (the links come in the reader's: a model's own before
 * those of the models nested in it), and returns how many are in the
 * document's tree: any other (none is known) is put after them, baked
 * and put back to be refused as the bake edit would refuse it, but not
 * written, as the bake edit's change of it would not be. */
static guint
order_steps_as_file (BlExportBake *bake)
{
  g_autoptr(GHashTable) by_node = g_hash_table_new (NULL, NULL);
  GArray *ordered = g_array_sized_new (FALSE, FALSE, sizeof (BakeStep), bake->steps->len);
  xmlNode *node = xmlDocGetRootElement (bl_document_get_xml (bake->doc));
  guint n_in_tree;

  for (guint i = 0; i < bake->steps->len; i++)
    g_hash_table_insert (by_node, g_array_index (bake->steps, BakeStep, i).link->node, GUINT_TO_POINTER (i + 1));

  /* depth first, without descending into a link (none holds another) */
  while (node != NULL)
    {
      guint index = GPOINTER_TO_UINT (g_hash_table_lookup (by_node, node));

      if (index > 0)
        {
          g_array_append_val (ordered, g_array_index (bake->steps, BakeStep, index - 1));
          g_hash_table_remove (by_node, node);
        }
      if (index == 0 && node->type == XML_ELEMENT_NODE && node->children != NULL)
        {
          node = node->children;
          continue;
        }
      while (node != NULL && node->next == NULL)
        node = node->parent != NULL && node->parent->type == XML_ELEMENT_NODE ? node->parent : NULL;
      if (node != NULL)
        node = node->next;
    }

  n_in_tree = ordered->len;
  for (guint i = 0; i < bake->steps->len; i++)
    if (g_hash_table_contains (by_node, g_array_index (bake->steps, BakeStep, i).link->node))
      g_array_append_val (ordered, g_array_index (bake->steps, BakeStep, i));
  g_array_unref (bake->steps);
  bake->steps = ordered;
  return n_in_tree;
}

static int
compare_reader_order (gconstpointer a,
                      gconstpointer b)
{
  const BakeStep *sa = a, *sb = b;

  return sa->order < sb->order ? -1 : sa->order > sb->order;
}

/* Bakes STEP's link in the tree, for bl_edit_revert_tree to put back
 * (the returned edit); NULL with the edit's error. */
static BlEdit *
apply_step (BlExportBake    *bake,
            const BakeStep  *step,
            GError         **error)
{
  g_autoptr(BlEdit) group = bl_edit_new_group (bake->doc, NULL);

  add_bake_step (group, bake->doc, step, bake->fixes);
  if (!bl_edit_apply_tree (group, error))
    return NULL;
  return g_steal_pointer (&group);
}

gboolean
bl_export_bake_record (BlExportBake  *bake,
                       GError       **error)
{
  g_autoptr(BlSourceMapPatch) patch = NULL;
  BlSourceMap *map;
  guint n_in_tree;

  g_return_val_if_fail (bake != NULL && bake->patch == NULL, FALSE);

  if (bake->steps->len == 0)
    return TRUE;
  /* as bl_edit_apply refuses a document it cannot map */
  map = bl_document_get_source_map (bake->doc, NULL);
  patch = map != NULL ? bl_source_map_patch_new (map) : NULL;
  n_in_tree = order_steps_as_file (bake);

  for (guint i = 0; i < bake->steps->len; i++)
    {
      const BakeStep *step = &g_array_index (bake->steps, BakeStep, i);
      g_autoptr(GError) refusal = NULL;
      g_autoptr(BlEdit) applied = apply_step (bake, step, &refusal);

      if (applied == NULL)
        {
          /* the error of the first link that fails in the bake edit's
           * order, as bl_edit_apply of it gives (each link's refusal
           * depends on that link alone) */
          g_array_sort (bake->steps, compare_reader_order);
          for (guint j = 0; j < bake->steps->len; j++)
            {
              g_autoptr(BlEdit) checked = apply_step (bake, &g_array_index (bake->steps, BakeStep, j), error);

              if (checked == NULL)
                return FALSE;
              bl_edit_revert_tree (checked);
            }
          g_propagate_error (error, g_steal_pointer (&refusal));
          return FALSE;
        }
      if (i < n_in_tree)
        bl_source_map_patch_record (patch, step->link->node);
      bl_edit_revert_tree (applied);
    }

  bake->patch = g_steal_pointer (&patch);
  return TRUE;
}

GBytes *
bl_export_bake_to_bytes (BlExportBake  *bake,
                         GError       **error)
{
  BlSourceMap *map;

  g_return_val_if_fail (bake != NULL, NULL);

  map = bl_document_get_source_map (bake->doc, NULL);
  if (map == NULL || bake->patch == NULL)
    return bl_export_to_bytes (bake->doc, error);
  return bl_source_map_patch_serialize (map, bake->patch);
}

gboolean
bl_export_bake_write_fd (BlExportBake  *bake,
                         int            fd,
                         GError       **error)
{
  g_return_val_if_fail (bake != NULL, FALSE);
  g_return_val_if_fail (fd >= 0, FALSE);

  return write_fd (bake->doc, bake->patch, fd, error);
}

gboolean
bl_export_bake_save (BlExportBake   *bake,
                     const char     *path,
                     BlExportFlags   flags,
                     GError        **error)
{
  g_return_val_if_fail (bake != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return save (bake->doc, bake->patch, path, flags, error);
}
