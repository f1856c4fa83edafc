/* ballast-edited.c: the ballast program with one unsaved edit, for the ui
 * test that kills a running ballast (test-ui's /ui/recovery/after-kill):
 *   ballast-edited MODEL::LINK/COLLISION:density=VALUE FILE
 * opens FILE as ballast does and, once it is shown, sets that density
 * through the window's undo history. */
#include "config.h"

#include <locale.h>
#include <stdlib.h>

#include "bl-application.h"
#include "ui-hooks.h"

static gboolean
apply_when_shown (gpointer data)
{
  GtkApplication *app = data;
  const char *spec = g_object_get_data (G_OBJECT (app), "spec");
  GtkWindow *window = gtk_application_get_active_window (app);
  g_autoptr(GError) error = NULL;

  if (!BL_IS_WINDOW (window) || bl_window_get_loading (BL_WINDOW (window)) ||
      bl_window_get_document (BL_WINDOW (window)) == NULL)
    return G_SOURCE_CONTINUE;
  if (!ui_hooks_apply_density_edit (BL_WINDOW (window), spec, &error))
    {
      g_printerr ("ballast-edited: %s\n", error->message);
      exit (1);
    }
  return G_SOURCE_REMOVE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(BlApplication) app = NULL;
  char *app_argv[3];

  setlocale (LC_ALL, "");
  if (argc != 3)
    {
      g_printerr ("usage: ballast-edited LINK/COLLISION:density=VALUE FILE\n");
      return 2;
    }
  app_argv[0] = argv[0];
  app_argv[1] = argv[2];
  app_argv[2] = NULL;

  app = bl_application_new ();
  g_object_set_data (G_OBJECT (app), "spec", argv[1]);
  g_timeout_add (20, apply_when_shown, app);
  return g_application_run (G_APPLICATION (app), 2, app_argv);
}
