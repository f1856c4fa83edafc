/* bench-inspect.c: `ballast-cli inspect --json`, `export`, an editable
 * load and one edit on generated worlds, against a bare libxml2 parse of
 * the same file.
 *
 * Usage: bench-inspect PATH-TO-BALLAST-CLI [N-LINKS…]
 * The ratios are to `xmllint --noout` (the parse as issue 16 measures it,
 * libxml2's own program, started as the CLI is), or without xmllint in
 * PATH to the parse in a process of this program's (Ballast's options).
 * The worlds come from generate_world (tests/generate-model.c): units of
 * BALLAST_BENCH_LINKS_PER_MODEL links (default 100; 0: one model), with
 * added mass on auto and explicit links, Hydrodynamics and Buoyancy
 * plugins, nested models, <include>s, chains of frames and a shared mesh.
 * Every step runs in a process started afresh (peak RSS from wait4) and is
 * timed in wall time and in CPU time (user + sys, all threads), each the
 * best of BALLAST_BENCH_REPEATS runs (default 5): on a shared machine the
 * CPU time is the steadier one.  With BALLAST_BENCH_KEEP set, the worlds
 * are kept and their paths printed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>

#include "bl-document.h"
#include "bl-edit.h"
#include "bl-file-private.h"
#include "bl-model.h"
#include "bl-document-private.h"
#include "generate-model.h"

static guint repeats = 5;

typedef struct
{
  double wall;   /* s */
  double cpu;    /* user + sys, s */
  double sys;    /* of the run of the best CPU: the kernel's share, which
                  * moves most from run to run (fresh pages) */
  long   rss_kb; /* peak */
} Timing;

static double
timeval_seconds (struct timeval t)
{
  return t.tv_sec + t.tv_usec / 1e6;
}

typedef void (*Step) (const char *path);

/* Runs STEP (PATH) in a child process REPEATS times: the best wall and CPU
 * times and the largest peak RSS. */
static Timing
time_step (Step        step,
           const char *path)
{
  Timing best = { G_MAXDOUBLE, G_MAXDOUBLE, 0, 0 };

  for (guint r = 0; r < repeats; r++)
    {
      gint64 start = g_get_monotonic_time ();
      struct rusage usage;
      int status;
      pid_t pid = fork ();

      if (pid == 0)
        {
          step (path);
          _exit (0);
        }
      g_assert (pid > 0);
      g_assert (wait4 (pid, &status, 0, &usage) == pid);
      g_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0);
      best.wall = MIN (best.wall, (g_get_monotonic_time () - start) / 1e6);
      if (timeval_seconds (usage.ru_utime) + timeval_seconds (usage.ru_stime) < best.cpu)
        {
          best.cpu = timeval_seconds (usage.ru_utime) + timeval_seconds (usage.ru_stime);
          best.sys = timeval_seconds (usage.ru_stime);
        }
      best.rss_kb = MAX (best.rss_kb, usage.ru_maxrss);
    }

  return best;
}

/* Reading the file is part of every measurement. */
static void
step_parse (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length;
  xmlDoc *doc;

  g_file_get_contents (path, &contents, &length, NULL);
  /* the options of Ballast's loads (and, but for NONET, xmllint's) */
  doc = xmlReadMemory (contents, (int) length, path, NULL,
                       XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_COMPACT);
  g_assert (doc != NULL);
  xmlFreeDoc (doc);
}

static const char *cli;
static char *export_path;

static void
exec_cli (const char *command,
          const char *path)
{
  int null = open ("/dev/null", O_WRONLY);

  dup2 (null, STDOUT_FILENO);
  dup2 (null, STDERR_FILENO);
  if (g_str_equal (command, "inspect"))
    execl (cli, cli, "inspect", "--json", path, (char *) NULL);
  else
    execl (cli, cli, "export", "--set", "m0::link_3/hull:density=1234", "-o", export_path, path, (char *) NULL);
  _exit (127);
}

static void
step_inspect (const char *path)
{
  exec_cli ("inspect", path);
}

static char *xmllint;   /* in PATH, or NULL */

/* The parse as issue 16 measures it: libxml2's own program, a process
 * started for it as the CLI is. */
static void
step_xmllint (const char *path)
{
  int null = open ("/dev/null", O_WRONLY);

  dup2 (null, STDOUT_FILENO);
  dup2 (null, STDERR_FILENO);
  execl (xmllint, xmllint, "--noout", path, (char *) NULL);
  _exit (127);
}

static void
step_export (const char *path)
{
  exec_cli ("export", path);
}

static BlDocument *
load_editable (const char *path)
{
  g_autoptr(GError) error = NULL;
  BlDocument *doc = bl_document_new_from_file (path, &error);

  g_assert_no_error (error);
  /* the map for edits, which the load starts on a second thread */
  g_assert (bl_document_get_source_map (doc, &error) != NULL);
  return doc;
}

/* The load and the map, not the document's freeing: a program keeps its
 * document until it exits, as ballast-cli does (bl_cli_keep_until_exit)
 * and the window while it shows the file.  (Freed here, the tree's nodes
 * and glibc's consolidation of them cost a fifth more at 100,000 links.) */
static void
step_editable_load (const char *path)
{
  BlDocument *doc = load_editable (path);

  g_assert (doc != NULL);
}

static double
thread_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One density edit of m0::link_3's hull, the best of 20 batches of 50,
 * in us of CPU time, written to the pipe in BALLAST_BENCH_EDIT_FD. */
static void
step_edit (const char *path)
{
  g_autoptr(BlDocument) doc = load_editable (path);
  BlLink *link = bl_document_find_link (doc, "m0::link_3");
  BlCollision *hull = g_ptr_array_index (link->collisions, 0);
  double best = G_MAXDOUBLE;
  FILE *out = fdopen (atoi (g_getenv ("BALLAST_BENCH_EDIT_FD")), "w");

  for (guint batch = 0; batch < 20; batch++)
    {
      double start = thread_cpu ();

      for (guint i = 0; i < 50; i++)
        {
          g_autoptr(BlEdit) edit = bl_edit_new_collision_density (doc, hull, 1000 + i + batch);

          g_assert (bl_edit_apply (edit, NULL));
        }
      best = MIN (best, (thread_cpu () - start) / 50);
    }
  fprintf (out, "%.3f\n", best * 1e6);
  fclose (out);
}

/* The steps that run in this program, each in a process started afresh
 * (`bench-inspect --step NAME PATH`), as the CLI's are: a forked copy of
 * the bench pays for the parent's pages as it writes them (a 10,000-link
 * parse took 103 ms so, 71 ms in a process of its own). */
static const struct
{
  const char *name;
  Step        step;
} own_steps[] = {
  { "parse", step_parse },
  { "editable-load", step_editable_load },
  { "edit", step_edit },
};

static void
exec_own_step (const char *name,
               const char *path)
{
  execl ("/proc/self/exe", "bench-inspect", "--step", name, path, (char *) NULL);
  _exit (127);
}

static void
fresh_parse (const char *path)
{
  exec_own_step ("parse", path);
}

static void
fresh_editable_load (const char *path)
{
  exec_own_step ("editable-load", path);
}

static void
fresh_edit (const char *path)
{
  exec_own_step ("edit", path);
}

static double
time_edit (const char *path)
{
  int fds[2];
  char buffer[64] = "";
  g_autofree char *fd = NULL;
  guint saved = repeats;
  ssize_t n;

  g_assert (pipe (fds) == 0);
  fd = g_strdup_printf ("%d", fds[1]);
  g_setenv ("BALLAST_BENCH_EDIT_FD", fd, TRUE);
  repeats = 1;
  time_step (fresh_edit, path);
  repeats = saved;
  close (fds[1]);
  n = read (fds[0], buffer, sizeof buffer - 1);
  close (fds[0]);
  g_assert (n > 0);
  return g_ascii_strtod (buffer, NULL);
}

static void
print_row (const char *what,
           Timing      t,
           Timing      parse)
{
  g_print ("  %-16s %9.4f %9.4f %9.4f %7.2f %7.2f %9.1f\n", what, t.wall, t.cpu, t.sys,
           t.wall / parse.wall, t.cpu / parse.cpu, t.rss_kb / 1024.0);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = NULL;
  guint default_sizes[] = { 1000, 10000, 100000 };
  guint per_model = 100;

  if (argc == 4 && g_str_equal (argv[1], "--step"))
    {
      for (guint i = 0; i < G_N_ELEMENTS (own_steps); i++)
        if (g_str_equal (argv[2], own_steps[i].name))
          {
            own_steps[i].step (argv[3]);
            /* no exit handlers: GLib's static resources, freed at exit,
             * made malloc consolidate the whole freed tree (a quarter of
             * a 10,000-link parse), which the CLI never pays */
            _exit (0);
          }
      return 2;
    }
  if (argc < 2)
    {
      g_printerr ("usage: %s BALLAST-CLI [N-LINKS…]\n", argv[0]);
      return 2;
    }
  cli = argv[1];

  if (g_getenv ("BALLAST_BENCH_REPEATS") != NULL)
    repeats = MAX (1, (guint) g_ascii_strtoull (g_getenv ("BALLAST_BENCH_REPEATS"), NULL, 10));
  if (g_getenv ("BALLAST_BENCH_LINKS_PER_MODEL") != NULL)
    per_model = (guint) g_ascii_strtoull (g_getenv ("BALLAST_BENCH_LINKS_PER_MODEL"), NULL, 10);

  xmllint = g_find_program_in_path ("xmllint");
  dir = g_dir_make_tmp ("ballast-bench-XXXXXX", NULL);
  export_path = g_build_filename (dir, "export.sdf", NULL);
  g_print ("best of %u; wall and CPU (user + sys, all threads) seconds, the system time of the best CPU; "
           "ratios to %s\n", repeats,
           xmllint != NULL ? "xmllint --noout" : "the parse");

  for (int i = 0; i < (argc > 2 ? argc - 2 : (int) G_N_ELEMENTS (default_sizes)); i++)
    {
      guint n = argc > 2 ? (guint) g_ascii_strtoull (argv[i + 2], NULL, 10) : default_sizes[i];
      g_autofree char *path = generate_world (dir, n, per_model != 0 ? per_model : n);
      GStatBuf st;
      Timing parse;

      g_stat (path, &st);
      g_print ("%u links, %u per model, %.1f MB\n", n, per_model != 0 ? per_model : n, st.st_size / 1e6);
      if (g_getenv ("BALLAST_BENCH_KEEP") != NULL)
        g_print ("  kept: %s\n", path);
      g_print ("  %-16s %9s %9s %9s %7s %7s %9s\n", "", "wall", "CPU", "of it sys", "wall x", "CPU x", "peak MB");
      /* the reference: xmllint --noout, the parse as issue 16 measures
       * it; without xmllint, the parse in a process of this program's */
      parse = time_step (fresh_parse, path);
      if (xmllint != NULL)
        {
          Timing own = parse;

          parse = time_step (step_xmllint, path);
          print_row ("xmllint --noout", parse, parse);
          print_row ("libxml2 parse", own, parse);
        }
      else
        print_row ("libxml2 parse", parse, parse);
      print_row ("inspect --json", time_step (step_inspect, path), parse);
      if ((gsize) st.st_size > BL_FILE_MAX_SIZE)
        {
          /* refused by the editable load (docs/HARDENING.md) */
          g_print ("  editable load, export and edits: the file is larger than the editable load's %zu MiB\n",
                   BL_FILE_MAX_SIZE >> 20);
        }
      else
        {
          print_row ("editable load", time_step (fresh_editable_load, path), parse);
          print_row ("export --set", time_step (step_export, path), parse);
          g_print ("  %-16s %9.2f us CPU\n", "one edit", time_edit (path));
        }
      if (g_getenv ("BALLAST_BENCH_KEEP") == NULL)
        g_unlink (path);
    }

  if (g_getenv ("BALLAST_BENCH_KEEP") == NULL)
    {
      g_autofree char *part = g_build_filename (dir, "part.sdf", NULL);
      g_autofree char *mesh = g_build_filename (dir, "mesh.stl", NULL);

      g_unlink (part);
      g_unlink (mesh);
      g_unlink (export_path);
      g_rmdir (dir);
    }
  g_free (export_path);
  g_free (xmllint);
  return 0;
}
