/* bench-panel.c: the panel method's time and memory against its panel count.
 *
 * Solves a 5:1 prolate spheroid (semi-axes 0.2, 0.2, 1) at each panel count
 * given (default 1000 2000 4000 8000 10000), one solve each, and prints
 * the wall time, the CPU time, the growth of the peak resident memory and
 * the error of the axial term against Lamb's closed form. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bl-panel.h"

static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static double
peak_mb (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

int
main (int   argc,
      char *argv[])
{
  static const gsize defaults[] = { 1000, 2000, 4000, 8000, 10000 };
  BlPanelBody body = { .kind = BL_PANEL_BODY_ELLIPSOID, .pose = BL_POSE_IDENTITY, .size = { 0.2, 0.2, 1.0 } };
  BlAddedMassEstimate exact;
  guint n = argc > 1 ? (guint) argc - 1 : G_N_ELEMENTS (defaults);

  bl_added_mass_estimate_ellipsoid (0.2, 0.2, 1.0, 1000.0, &exact);
  printf ("%zu threads\n%8s %8s %8s %8s %10s %6s %10s\n", (gsize) CLAMP (g_get_num_processors (), 1, 8),
          "budget", "panels", "wall s", "cpu s", "peak MB", "iter", "zz error");
  for (guint i = 0; i < n; i++)
    {
      gsize budget = argc > 1 ? (gsize) atol (argv[i + 1]) : defaults[i];
      g_autoptr(BlPanelSurface) surface = bl_panel_surface_new (&body, 1, budget);
      g_autoptr(GError) error = NULL;
      BlPanelSolution solution;
      gint64 start = g_get_monotonic_time ();
      double cpu = cpu_seconds ();

      if (!bl_panel_solve (surface, 1000.0, NULL, NULL, NULL, &solution, &error))
        {
          fprintf (stderr, "bench-panel: %s\n", error->message);
          return 1;
        }
      printf ("%8zu %8zu %8.2f %8.2f %10.0f %6u %9.2f%%\n", budget, surface->n_panels,
              (g_get_monotonic_time () - start) / 1e6, cpu_seconds () - cpu, peak_mb (), solution.iterations,
              100 * (solution.added_mass.m[2][2] / exact.matrix.m[2][2] - 1));
      bl_panel_solution_clear (&solution);
    }
  return 0;
}
