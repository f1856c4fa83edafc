/* fuzz-driver.c: replays a fuzz target on every file of a folder, so the
 * inputs that once crashed stay tested in every build (no libFuzzer). */
#include "config.h"

#include <glib.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
main (int    argc,
      char **argv)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  guint n = 0;

  if (argc != 2)
    {
      g_printerr ("usage: %s FOLDER\n", argv[0]);
      return 2;
    }

  dir = g_dir_open (argv[1], 0, &error);
  if (dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (argv[1], name, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (!g_file_get_contents (path, &contents, &length, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      LLVMFuzzerTestOneInput ((const guint8 *) contents, length);
      g_print ("ok %u %s\n", ++n, name);
    }

  /* An empty folder would test nothing. */
  if (n == 0)
    {
      g_printerr ("no inputs in %s\n", argv[1]);
      return 1;
    }

  return 0;
}
