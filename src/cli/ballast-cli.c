/* ballast-cli.c: the command-line front end to Ballast's core. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "bl-cli.h"

typedef struct
{
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "inspect", bl_cli_inspect, "print every link's mass properties (table or --json)" },
  { "check", bl_cli_check, "exit 1 when any link's inertia is invalid or an error was found" },
  { "export", bl_cli_export, "save a corrected copy: --set edits, --bake, --fix-invalid" },
  { "added-mass", bl_cli_added_mass, "estimate fluid_added_mass from geometry, or import it from plugins" },
};

static void
usage (FILE *stream)
{
  fprintf (stream,
           "Usage: ballast-cli COMMAND [OPTION…] [FILE]\n"
           "\n"
           "Inspect and check the mass properties of SDFormat models.\n"
           "\n"
           "Commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (stream,
           "\n"
           "Run “ballast-cli COMMAND --help” for a command's options.\n");
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *prgname = NULL;

  /* Numbers are read and written in the C locale whatever the user's. */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");

  if (argc < 2)
    {
      usage (stderr);
      return BL_EXIT_USAGE;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return BL_EXIT_OK;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("ballast-cli %s\n", PACKAGE_VERSION);
      return BL_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (strcmp (argv[1], commands[i].name) != 0)
        continue;

      prgname = g_strdup_printf ("ballast-cli %s", commands[i].name);
      g_set_prgname (prgname);
      return commands[i].run (argc - 1, argv + 1);
    }

  fprintf (stderr, "ballast-cli: unknown command “%s”\n\n", argv[1]);
  usage (stderr);
  return BL_EXIT_USAGE;
}
