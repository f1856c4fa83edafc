/* bench-simplify.c: the levels of detail of a big mesh (bl_simplify_levels), per level.
 *
 * Usage: bench-simplify [TRIANGLES…] (default 1,000,000 and 200,000).
 * For each count, a closed welded torus grid (R 1, r 0.35) of about that
 * many triangles is simplified into all its levels (min_triangles 64, no
 * error limit); the best wall and CPU time of three full runs is printed,
 * then each level's triangles, measured error and the CPU milliseconds it
 * took: the time to make levels 1 … k is that of a run whose
 * MIN_TRIANGLES (a quarter of level k's, plus one) stops it right after
 * level k (the best of three), and a level's time is the difference of two
 * such.  The peak resident size grown during the first run is printed per
 * input triangle (transient memory).  One core: the simplifier is single
 * threaded. */
#include "config.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <sys/resource.h>

#include "bl-simplify.h"
#include "torus.h"

#define MIN_TRIANGLES 64
#define RUNS 3

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
wall_seconds (void)
{
  return g_get_monotonic_time () * 1e-6;
}

static long
max_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

/* Runs the simplifier with MIN; the wall and CPU seconds it took. */
static GPtrArray *
timed_levels (GArray *positions,
              GArray *indices,
              guint   min,
              double *wall,
              double *cpu)
{
  double w0 = wall_seconds (), c0 = cpu_seconds ();
  GPtrArray *levels = bl_simplify_levels ((const float *) positions->data, 3, positions->len / 3,
                                          (const guint32 *) indices->data, indices->len / 3,
                                          min, DBL_MAX, NULL);

  *wall = wall_seconds () - w0;
  *cpu = cpu_seconds () - c0;
  return levels;
}

static void
run (guint n_requested)
{
  guint nu, nv, n;
  g_autoptr(GArray) positions = NULL;
  g_autoptr(GArray) indices = NULL;
  g_autoptr(GPtrArray) levels = NULL;
  double best_wall = G_MAXDOUBLE, best_cpu = G_MAXDOUBLE, previous = 0.0;
  long rss0;

  torus_grid_for (1.0, 0.35, n_requested, &nu, &nv);
  torus_mesh (1.0, 0.35, nu, nv, &positions, &indices);
  n = indices->len / 3;
  printf ("torus %u × %u: %u triangles, %u vertices\n", nu, nv, n, positions->len / 3);

  rss0 = max_rss_kib ();
  for (int i = 0; i < RUNS; i++)
    {
      double wall, cpu;
      g_autoptr(GPtrArray) run_levels = timed_levels (positions, indices, MIN_TRIANGLES, &wall, &cpu);

      if (i == 0)
        printf ("  peak resident size grew by %.1f MiB (%.0f bytes per input triangle)\n",
                (max_rss_kib () - rss0) / 1024.0, (max_rss_kib () - rss0) * 1024.0 / n);
      best_wall = MIN (best_wall, wall);
      best_cpu = MIN (best_cpu, cpu);
      if (levels == NULL)
        levels = g_steal_pointer (&run_levels);
    }
  printf ("  all %u levels: %.0f ms wall, %.0f ms CPU (best of %d)\n", levels->len, best_wall * 1e3, best_cpu * 1e3, RUNS);
  printf ("  %5s %10s %8s %12s %9s %9s\n", "level", "triangles", "share", "error", "ms", "cumul. ms");
  for (guint k = 0; k < levels->len; k++)
    {
      BlSimplifyLevel *level = g_ptr_array_index (levels, k);
      guint triangles = level->indices->len / 3;
      guint before = k == 0 ? n : ((BlSimplifyLevel *) g_ptr_array_index (levels, k - 1))->indices->len / 3;
      double cpu = G_MAXDOUBLE;

      for (int i = 0; i < RUNS; i++)
        {
          double run_wall, run_cpu;
          g_autoptr(GPtrArray) partial = timed_levels (positions, indices, triangles / 4 + 1, &run_wall, &run_cpu);

          if (partial->len != k + 1)
            g_error ("a run stopped after level %u made %u levels", k + 1, partial->len);
          cpu = MIN (cpu, run_cpu);
        }
      printf ("  %5u %10u %7.1f%% %12.3e %9.0f %9.0f\n", k + 1, triangles, 100.0 * triangles / before,
              level->error, (cpu - previous) * 1e3, cpu * 1e3);
      previous = cpu;
    }
}

int
main (int    argc,
      char **argv)
{
  double load[3];

  setvbuf (stdout, NULL, _IOLBF, 0);
  if (getloadavg (load, 3) == 3)
    printf ("load average: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  if (argc < 2)
    {
      run (1000000);
      run (200000);
    }
  for (int i = 1; i < argc; i++)
    run ((guint) strtoul (argv[i], NULL, 10));
  if (getloadavg (load, 3) == 3)
    printf ("load average: %.2f %.2f %.2f\n", load[0], load[1], load[2]);
  return 0;
}
