/* main.c: the ballast desktop application's entry point. */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "bl-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(BlApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = bl_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  return status != 0 ? status : bl_application_get_failed (app) ? 1 : 0;
}
