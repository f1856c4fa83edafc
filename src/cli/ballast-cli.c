/* ballast-cli.c: the command-line front end to Ballast's core. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bl-cli.h"
#include "bl-cli-heap.h"

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

/* A standard descriptor that the caller closed gets /dev/null opened
 * read-only in its place: a file opened later cannot take the number
 * (and receive what was meant for stdout), and writing to it fails, as
 * writing to a closed stdout must. */
static void
occupy_closed_descriptors (void)
{
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
    {
      int null_fd;

      if (fcntl (fd, F_GETFD) != -1 || errno != EBADF)
        continue;
      /* the lowest free number: fd itself */
      null_fd = open ("/dev/null", O_RDONLY);
      if (null_fd >= 0 && null_fd != fd)
        close (null_fd);
    }
}

/* What was printed must have arrived: a full disk (`> /dev/full`), a
 * closed stdout or a write error makes the command fail, never exit 0
 * with its output lost. */
static int
finish_output (int status)
{
  int failed = ferror (stdout);
  int saved_errno = 0;

  if (fclose (stdout) != 0)
    {
      failed = TRUE;
      saved_errno = errno;
    }
  if (!failed)
    return status;

  if (saved_errno != 0)
    fprintf (stderr, "ballast-cli: cannot write to standard output: %s\n", g_strerror (saved_errno));
  else
    fprintf (stderr, "ballast-cli: cannot write to standard output\n");
  return status == BL_EXIT_OK ? BL_EXIT_FAILURE : status;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *prgname = NULL;

  occupy_closed_descriptors ();

  bl_cli_heap_init ();

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
      return finish_output (BL_EXIT_OK);
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("ballast-cli %s\n", PACKAGE_VERSION);
      return finish_output (BL_EXIT_OK);
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (strcmp (argv[1], commands[i].name) != 0)
        continue;

      prgname = g_strdup_printf ("ballast-cli %s", commands[i].name);
      g_set_prgname (prgname);
      return finish_output (commands[i].run (argc - 1, argv + 1));
    }

  fprintf (stderr, "ballast-cli: unknown command “%s”\n\n", argv[1]);
  usage (stderr);
  return BL_EXIT_USAGE;
}
