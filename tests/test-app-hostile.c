/* test-app-hostile.c: the application's own files against hostile input
 * (issue 14), without a display.
 *
 * The recovery folder is read at start: a FIFO named like a recovery copy
 * (`*.ini` or `*.sdf`) hung the application before its first window, as
 * g_key_file_load_from_file and g_file_get_contents open it blocking. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bl-recovery.h"

static char *state_dir;

static char *
recovery_file (const char *name)
{
  g_autofree char *dir = bl_recovery_dup_dir ();

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return g_build_filename (dir, name, NULL);
}

static void
remove_recovery_files (void)
{
  g_autofree char *dir_path = bl_recovery_dup_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);

      g_unlink (path);
    }
}

/* A FIFO as the .ini: not offered, found at once (a blocking open waited
 * for a writer forever). */
static void
test_recovery_fifo_info (void)
{
  g_autofree char *info = recovery_file ("evil.ini");
  g_autofree char *data = recovery_file ("evil.sdf");
  g_autoptr(GPtrArray) orphans = NULL;

  g_assert_cmpint (mkfifo (info, 0600), ==, 0);
  g_assert_true (g_file_set_contents (data, "<sdf version=\"1.11\"/>\n", -1, NULL));

  alarm (10);
  orphans = bl_recovery_find_orphans ();
  alarm (0);
  g_assert_cmpuint (orphans->len, ==, 0);
  remove_recovery_files ();
}

/* A FIFO as the copy itself, its .ini in order: offered (its date is
 * known), but loading it is an error at once, not a hang. */
static void
test_recovery_fifo_data (void)
{
  g_autofree char *info = recovery_file ("pipe.ini");
  g_autofree char *data = recovery_file ("pipe.sdf");
  g_autoptr(GPtrArray) orphans = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_assert_true (g_file_set_contents (info, "[Recovery]\nVersion=1\nOriginal=/nowhere/m.sdf\n", -1, NULL));
  g_assert_cmpint (mkfifo (data, 0600), ==, 0);

  alarm (10);
  orphans = bl_recovery_find_orphans ();
  g_assert_cmpuint (orphans->len, ==, 1);
  bytes = bl_recovery_load (g_ptr_array_index (orphans, 0), &error);
  alarm (0);
  g_assert_null (bytes);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, data));
  remove_recovery_files ();
}

int
main (int    argc,
      char **argv)
{
  int status;

  /* before GLib reads XDG_STATE_HOME */
  state_dir = g_dir_make_tmp ("ballast-app-hostile-XXXXXX", NULL);
  g_setenv ("XDG_STATE_HOME", state_dir, TRUE);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/hostile/recovery-fifo-info", test_recovery_fifo_info);
  g_test_add_func ("/app/hostile/recovery-fifo-data", test_recovery_fifo_data);
  status = g_test_run ();

  {
    g_autofree char *dir = bl_recovery_dup_dir ();
    g_autofree char *ballast = g_path_get_dirname (dir);

    g_rmdir (dir);
    g_rmdir (ballast);
    g_rmdir (state_dir);
  }
  g_free (state_dir);
  return status;
}
