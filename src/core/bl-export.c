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

/* The document's bytes in pieces (bl_source_map_serialize_pieces): the
 * unchanged ranges of its source are written from the source itself, not
 * from a copy of the whole file. */
static GPtrArray *
export_pieces (BlDocument *doc)
{
  BlSourceMap *map = bl_document_get_source_map (doc, NULL);
  GPtrArray *pieces;

  if (map != NULL)
    return bl_source_map_serialize_pieces (map);
  /* Edits need the map, so a document without one was never edited. */
  pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_ptr_array_add (pieces, g_bytes_ref (bl_document_get_source (doc)));
  return pieces;
}

static gboolean write_atomic (const char     *path,
                              GBytes * const *pieces,
                              guint           n_pieces,
                              GError        **error);

gboolean
bl_export_save (BlDocument     *doc,
                const char     *path,
                BlExportFlags   flags,
                GError        **error)
{
  g_autoptr(GPtrArray) pieces = NULL;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(flags & BL_EXPORT_IN_PLACE) && same_file (path, bl_document_get_path (doc)))
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_SAME_FILE,
                   "“%s” is the file being edited; overwriting it must be asked for (in place)",
                   path);
      return FALSE;
    }

  pieces = export_pieces (doc);
  return write_atomic (path, (GBytes * const *) pieces->pdata, pieces->len, error);
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

/* Writes the pieces one after the other. */
static gboolean
write_pieces (int             fd,
              GBytes * const *pieces,
              guint           n_pieces,
              int            *saved_errno)
{
  for (guint i = 0; i < n_pieces; i++)
    {
      gsize length;
      const char *data = g_bytes_get_data (pieces[i], &length);

      if (!write_all (fd, data, length, saved_errno))
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
               GBytes * const *pieces,
               guint           n_pieces,
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
    write_pieces (fd, pieces, n_pieces, &saved_errno);
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

/* Writes DATA to a new file in DIR with the mode and owner of ST (NULL for
 * a new target), synced to disk, and names it *TEMP, ".BASE.XXXXXX".
 * UNNAMED: the file is made with O_TMPFILE and named only once complete,
 * so that a process killed while it writes leaves nothing behind. */
static TempResult
write_temp (const char      *dir,
            const char      *base,
            GBytes * const  *pieces,
            guint            n_pieces,
            const GStatBuf  *st,
            gboolean         unnamed,
            char           **temp,
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

  if (!write_pieces (fd, pieces, n_pieces, saved_errno))
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
                  GBytes * const *pieces,
                  guint           n_pieces,
                  gsize           length,
                  gboolean       *split,
                  GError        **error)
{
  int saved_errno = 0;
  int fd = open (target, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

  *split = fd < 0;
  if (fd < 0)
    return TRUE;

  if (write_pieces (fd, pieces, n_pieces, &saved_errno) &&
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

  return write_atomic (path, &contents, 1, error);
}

/* bl_export_write_atomic of the pieces written one after the other. */
static gboolean
write_atomic (const char     *path,
              GBytes * const *pieces,
              guint           n_pieces,
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
      return write_through (path, alias, pieces, n_pieces, error);
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
    return write_through (target, -1, pieces, n_pieces, error);
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
  for (guint i = 0; i < n_pieces; i++)
    length += g_bytes_get_size (pieces[i]);
  result = TEMP_CANNOT_CREATE;
  if (use_unnamed_temp)
    result = write_temp (dir, base, pieces, n_pieces, exists ? &st : NULL, TRUE, &temp, &saved_errno);
  if (result != TEMP_OK)
    result = write_temp (dir, base, pieces, n_pieces, exists ? &st : NULL, FALSE, &temp, &saved_errno);
  if (result != TEMP_OK)
    return fail_errno (error, saved_errno, path,
                       result == TEMP_CANNOT_CREATE ? "cannot create a file in its folder" : "writing failed");

  if (exists && st.st_nlink > 1)
    {
      gboolean split;

      if (!rewrite_in_place (path, target, temp, dir, pieces, n_pieces, length, &split, error))
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

/* An auto link made explicit with what it computes now: the rescaled mass
 * and moments and the density-based centre (sdf-inertia.md §7.2), the
 * rotation always identity, auto="true" removed.  FALSE when its inertia
 * could not be computed. */
static gboolean
add_link_bake (BlEdit      *group,
               BlDocument  *doc,
               BlLink      *link,
               GError     **error)
{
  g_autoptr(BlEdit) explicit = NULL;

  if (!link->props.resolved)
    {
      g_set_error (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_BAKE,
                   "cannot bake %s: its automatic inertia could not be computed "
                   "(run “ballast-cli check” for the reason)", link->scoped_name);
      return FALSE;
    }
  {
    BlInertial computed = { link->props.mass, link->props.com, link->props.inertia };

    /* The rescaled mass and moments and the density-based centre
     * (sdf-inertia.md §7.2); the rotation is always identity. */
    add_inertial_edits (group, doc, link, &computed);
  }
  explicit = bl_edit_new_auto (doc, link, FALSE);
  bl_edit_group_add (group, explicit);
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

  group = bl_edit_new_group (doc, "Keep the computed inertia");
  if (!add_link_bake (group, doc, link, error))
    return NULL;
  return g_steal_pointer (&group);
}

BlEdit *
bl_export_create_bake_edit (BlDocument   *doc,
                            BlBakeFlags   flags,
                            GPtrArray    *changed,
                            GPtrArray    *notes,
                            GError      **error)
{
  g_autoptr(BlEdit) group = NULL;
  xmlDoc *xml;
  GPtrArray *links;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);

  group = bl_edit_new_group (doc, "Bake the inertia");
  xml = bl_document_get_xml (doc);
  links = bl_document_get_links (doc);

  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);
      gboolean is_auto = link->inertial_node != NULL && link->auto_inertia;
      gboolean wanted = ((flags & BL_BAKE_AUTO) && is_auto) ||
                        ((flags & BL_BAKE_FIX_INVALID) && !is_auto && !link->props.valid);

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
          if (!add_link_bake (group, doc, link, error))
            return NULL;
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
          add_inertial_edits (group, doc, link, &computed);
        }

      if (changed != NULL)
        g_ptr_array_add (changed, link);
    }

  return g_steal_pointer (&group);
}
