/* bench-inspect.c: `ballast-cli inspect --json` on generated models against
 * a bare libxml2 parse of the same file.
 *
 * Usage: bench-inspect PATH-TO-BALLAST-CLI [N-LINKS…]
 * Each model has N links with auto inertia and three primitive collisions
 * (box, cylinder, sphere) with their own densities.  Both are timed in wall
 * time and in CPU time (user + sys), each the best of BALLAST_BENCH_REPEATS
 * runs (default 5): on a shared machine the CPU time is the steadier one. */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>

static guint repeats = 5;

typedef struct
{
  double wall;   /* s */
  double cpu;    /* user + sys, s */
} Timing;

static double
rusage_seconds (const struct rusage *usage)
{
  return usage->ru_utime.tv_sec + usage->ru_utime.tv_usec / 1e6 +
         usage->ru_stime.tv_sec + usage->ru_stime.tv_usec / 1e6;
}

static char *
generate (const char *dir,
          guint       n_links)
{
  g_autoptr(GString) sdf = g_string_sized_new (n_links * 900);
  g_autoptr(GError) error = NULL;
  char *path = g_strdup_printf ("%s/model-%u.sdf", dir, n_links);

  g_string_append (sdf, "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n  <model name=\"generated\">\n");
  for (guint i = 0; i < n_links; i++)
    {
      g_string_append_printf (sdf,
        "    <link name=\"link_%u\">\n"
        "      <pose>%u %u 0 0 0 0.%u</pose>\n"
        "      <inertial auto=\"true\"/>\n"
        "      <collision name=\"box\">\n"
        "        <pose>0 0 0.1 0 0 0</pose>\n"
        "        <density>%u</density>\n"
        "        <geometry><box><size>0.4 0.3 0.2</size></box></geometry>\n"
        "      </collision>\n"
        "      <collision name=\"cylinder\">\n"
        "        <pose>0.2 0 -0.1 0 1.5707963267948966 0</pose>\n"
        "        <density>2700</density>\n"
        "        <geometry><cylinder><radius>0.05</radius><length>0.3</length></cylinder></geometry>\n"
        "      </collision>\n"
        "      <collision name=\"sphere\">\n"
        "        <pose>-0.2 0 0 0 0 0</pose>\n"
        "        <density>7800</density>\n"
        "        <geometry><sphere><radius>0.06</radius></sphere></geometry>\n"
        "      </collision>\n"
        "    </link>\n",
        i, i % 100, i / 100, i % 10, 500 + i % 1000);
    }
  g_string_append (sdf, "  </model>\n</sdf>\n");

  g_file_set_contents (path, sdf->str, sdf->len, &error);
  g_assert_no_error (error);
  return path;
}

static Timing
time_parse (const char *path)
{
  Timing best = { G_MAXDOUBLE, G_MAXDOUBLE };

  for (guint r = 0; r < repeats; r++)
    {
      g_autofree char *contents = NULL;
      gsize length;
      struct rusage before, after;
      gint64 start = g_get_monotonic_time ();
      xmlDoc *doc;

      getrusage (RUSAGE_SELF, &before);

      /* Reading the file is part of both measurements. */
      g_file_get_contents (path, &contents, &length, NULL);
      doc = xmlReadMemory (contents, (int) length, path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
      g_assert (doc != NULL);
      xmlFreeDoc (doc);
      getrusage (RUSAGE_SELF, &after);
      best.wall = MIN (best.wall, (g_get_monotonic_time () - start) / 1e6);
      best.cpu = MIN (best.cpu, rusage_seconds (&after) - rusage_seconds (&before));
    }

  return best;
}

static Timing
time_cli (const char *cli,
          const char *path,
          long       *max_rss_kb)
{
  Timing best = { G_MAXDOUBLE, G_MAXDOUBLE };

  *max_rss_kb = 0;
  for (guint r = 0; r < repeats; r++)
    {
      gint64 start = g_get_monotonic_time ();
      struct rusage usage;
      int status;
      pid_t pid = fork ();

      if (pid == 0)
        {
          int null = open ("/dev/null", O_WRONLY);

          dup2 (null, STDOUT_FILENO);
          execl (cli, cli, "inspect", "--json", path, (char *) NULL);
          _exit (127);
        }
      g_assert (pid > 0);
      g_assert (wait4 (pid, &status, 0, &usage) == pid);
      g_assert (WIFEXITED (status) && WEXITSTATUS (status) == 0);
      best.wall = MIN (best.wall, (g_get_monotonic_time () - start) / 1e6);
      best.cpu = MIN (best.cpu, rusage_seconds (&usage));
      *max_rss_kb = MAX (*max_rss_kb, usage.ru_maxrss);
    }

  return best;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = NULL;
  guint default_sizes[] = { 2500, 5000, 10000, 20000 };

  if (argc < 2)
    {
      g_printerr ("usage: %s BALLAST-CLI [N-LINKS…]\n", argv[0]);
      return 2;
    }

  if (g_getenv ("BALLAST_BENCH_REPEATS") != NULL)
    repeats = MAX (1, (guint) g_ascii_strtoull (g_getenv ("BALLAST_BENCH_REPEATS"), NULL, 10));

  dir = g_dir_make_tmp ("ballast-bench-XXXXXX", NULL);
  g_print ("best of %u; wall and CPU (user + sys) seconds\n", repeats);
  g_print ("%8s %8s %10s %10s %10s %10s %7s %7s %8s\n", "links", "file MB",
           "xml wall", "xml CPU", "cli wall", "cli CPU", "wall x", "CPU x", "peak MB");

  for (int i = 0; i < (argc > 2 ? argc - 2 : (int) G_N_ELEMENTS (default_sizes)); i++)
    {
      guint n = argc > 2 ? (guint) g_ascii_strtoull (argv[i + 2], NULL, 10) : default_sizes[i];
      g_autofree char *path = generate (dir, n);
      GStatBuf st;
      Timing parse, inspect;
      long rss;

      g_stat (path, &st);
      parse = time_parse (path);
      inspect = time_cli (argv[1], path, &rss);
      g_print ("%8u %8.1f %10.4f %10.4f %10.4f %10.4f %7.2f %7.2f %8.1f\n", n, st.st_size / 1e6,
               parse.wall, parse.cpu, inspect.wall, inspect.cpu, inspect.wall / parse.wall,
               inspect.cpu / parse.cpu, rss / 1024.0);
      if (g_getenv ("BALLAST_BENCH_KEEP") == NULL)
        g_unlink (path);
    }

  g_rmdir (dir);
  return 0;
}
