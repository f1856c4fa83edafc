/* bench-viewport.c: BlViewport frame times at 1280×800 and time to first frame.
 *
 * Usage (needs a display; on a headless machine run it under xvfb-run):
 *   xvfb-run -a -s '-screen 0 1280x1024x24' bench-viewport [N-LINKS] [MESH-TRIANGLES…]
 * Scenes: a generated model of N-LINKS links (default 10,000) with automatic
 * inertia and a box, a cylinder and a sphere each (as bench-inspect), and one
 * link with a torus mesh of each MESH-TRIANGLES count (default 200,000 and
 * 1,000,000).  Each scene is shown in a fresh 1280×800 window: the time from
 * starting to load it to the first frame on screen and to the frame that
 * first draws a big mesh with its clusters and coarser levels (made in a
 * thread meanwhile), then the median
 * milliseconds of single offscreen frames finished with glFinish (the camera
 * orbits a little every frame), with the default overlays (inertia
 * ellipsoids, added mass, centres of mass, x-ray); BENCH_PLAIN=1 turns them
 * off, BENCH_HIDE=xray,show-com (any boolean viewport properties, comma
 * separated) turns off only those, BENCH_NO_CLUSTERS=1 draws big meshes whole
 * (no skipping of back-facing or off-screen clusters), BENCH_NO_LEVELS=1 at
 * full detail only, BENCH_ZOOM=F brings the camera F times closer than
 * fit-all (F > 1: only part of the model in view), BENCH_NO_OCCLUSION=1
 * draws every body and shell in view (none left out as hidden).
 * BENCH_FILES=A.sdf:B.sdf… shows those files too, after the generated scenes
 * (bench/make-scale-cases.py writes the overlapping ones). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include <sys/resource.h>

#include <glib/gstdio.h>

#include "bl-viewport-private.h"
#include "torus.h"

#define WIDTH 1280
#define HEIGHT 800
#define FRAMES 20

/* CPU time of the whole process (every llvmpipe thread), ms. */
static double
process_cpu_ms (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3
         + usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3;
}

static char *
write_links_model (const char *dir,
                   guint       n_links)
{
  g_autoptr(GString) sdf = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n<model name=\"generated\">\n");
  g_autoptr(GError) error = NULL;
  char *path = g_strdup_printf ("%s/links-%u.sdf", dir, n_links);

  for (guint i = 0; i < n_links; i++)
    g_string_append_printf (sdf,
      "<link name=\"link_%u\"><pose>%u %u 0 0 0 0.%u</pose><inertial auto=\"true\"/>\n"
      "<collision name=\"box\"><pose>0 0 0.1 0 0 0</pose><density>%u</density>"
      "<geometry><box><size>0.4 0.3 0.2</size></box></geometry></collision>\n"
      "<collision name=\"cylinder\"><pose>0.2 0 -0.1 0 1.5707963267948966 0</pose><density>2700</density>"
      "<geometry><cylinder><radius>0.05</radius><length>0.3</length></cylinder></geometry></collision>\n"
      "<collision name=\"sphere\"><pose>-0.2 0 0 0 0 0</pose><density>7800</density>"
      "<geometry><sphere><radius>0.06</radius></sphere></geometry></collision></link>\n",
      i, i % 100, i / 100, i % 10, 500 + i % 1000);
  g_string_append (sdf, "</model>\n</sdf>\n");
  g_file_set_contents (path, sdf->str, sdf->len, &error);
  g_assert_no_error (error);
  return path;
}

/* A closed torus (R 1, r 0.4) of about N_TRIANGLES triangles as binary STL,
 * and an SDF with one link colliding with it. */
static char *
write_mesh_model (const char *dir,
                  guint       n_triangles)
{
  guint nv = (guint) MAX (8, sqrt (n_triangles / 8.0));
  guint nu = MAX (8, n_triangles / (2 * nv));
  g_autoptr(GArray) tris = torus_triangles (1.0, 0.4, nu, nv);
  guint32 n = tris->len / 9;
  g_autofree char *stl_name = g_strdup_printf ("torus-%u.stl", n);
  g_autofree char *stl_path = g_build_filename (dir, stl_name, NULL);
  g_autofree char *sdf = NULL;
  g_autoptr(GError) error = NULL;
  char *path = g_strdup_printf ("%s/mesh-%u.sdf", dir, n);

  write_stl (stl_path, (const float *) tris->data, n);

  sdf = g_strdup_printf ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\"><model name=\"mesh\">"
                         "<link name=\"hull\"><inertial auto=\"true\"/><collision name=\"c\">"
                         "<density>500</density><geometry><mesh><uri>%s</uri></mesh></geometry>"
                         "</collision></link></model></sdf>\n", stl_name);
  g_file_set_contents (path, sdf, -1, &error);
  g_assert_no_error (error);
  return path;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
run_scene (const char *label,
           const char *path,
           guint       n_triangles_hint)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) document = NULL;
  GtkWidget *window;
  BlViewport *viewport;
  gint64 start = g_get_monotonic_time ();
  double start_cpu = process_cpu_ms ();
  gboolean timed_out = FALSE;
  guint id;
  double first_ms, load_ms, ready_ms, frame_ms, first_cpu_ms, frame_cpu_ms, frame_main_ms;
  double min_cpu_ms, min_main_ms;

  document = bl_document_new_from_file (path, &error);
  g_assert_no_error (error);
  load_ms = (g_get_monotonic_time () - start) / 1000.0;

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  viewport = BL_VIEWPORT (bl_viewport_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (viewport));
  bl_viewport_set_document (viewport, document);
  if (g_getenv ("BENCH_PLAIN") != NULL)
    g_object_set (viewport, "xray", FALSE, "show-com", FALSE, "show-inertia-ellipsoid", FALSE,
                  "show-added-mass", FALSE, NULL);
  if (g_getenv ("BENCH_NO_CLUSTERS") != NULL)
    bl_viewport_set_cluster_culling (viewport, FALSE);
  if (g_getenv ("BENCH_NO_LEVELS") != NULL)
    bl_viewport_set_levels_of_detail (viewport, FALSE);
  if (g_getenv ("BENCH_NO_OCCLUSION") != NULL)
    bl_viewport_set_occlusion_culling (viewport, FALSE);
  if (g_getenv ("BENCH_HIDE") != NULL)
    {
      /* A comma-separated list of boolean viewport properties to turn off,
       * e.g. xray,show-com: what each overlay costs. */
      g_auto(GStrv) names = g_strsplit (g_getenv ("BENCH_HIDE"), ",", -1);

      for (guint i = 0; names[i] != NULL; i++)
        if (names[i][0] != '\0')
          g_object_set (viewport, names[i], FALSE, NULL);
    }
  gtk_window_present (GTK_WINDOW (window));
  id = g_timeout_add_seconds (120, timeout_cb, &timed_out);
  while (!timed_out && bl_viewport_get_n_frames (viewport) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (id);
  if (timed_out)
    g_error ("no frame within 120 s");
  first_ms = (g_get_monotonic_time () - start) / 1000.0;
  first_cpu_ms = process_cpu_ms () - start_cpu;

  if (g_getenv ("BENCH_ZOOM") != NULL)
    {
      BlCamera camera;

      bl_viewport_get_camera (viewport, &camera);
      camera.distance /= g_ascii_strtod (g_getenv ("BENCH_ZOOM"), NULL);
      bl_viewport_set_camera (viewport, &camera);
    }

  /* A big mesh's clusters and levels are made in a thread while it is
   * drawn whole: frames on screen until they are in use, as when the view
   * is turned. */
  while (bl_viewport_get_mesh_jobs_pending (viewport))
    {
      guint n = bl_viewport_get_n_frames (viewport);

      gtk_gl_area_queue_render (GTK_GL_AREA (viewport));
      while (bl_viewport_get_n_frames (viewport) == n)
        g_main_context_iteration (NULL, TRUE);
    }
  ready_ms = (g_get_monotonic_time () - start) / 1000.0;

  /* The median of single frames: other work on the machine inflates some
   * frames, rarely the middle one.  CPU time (all threads, and the main
   * thread alone, where llvmpipe shades vertices and sets up triangles)
   * is what a loaded machine disturbs least. */
  {
    guint n_frames = g_getenv ("BENCH_FRAMES") != NULL ? (guint) atoi (g_getenv ("BENCH_FRAMES")) : FRAMES;
    g_autofree double *times = g_new (double, MAX (n_frames, 1));
    g_autofree double *cpu = g_new (double, MAX (n_frames, 1));
    g_autofree double *main_cpu = g_new (double, MAX (n_frames, 1));

    g_autofree BlFrameTime *frames = g_new (BlFrameTime, MAX (n_frames, 1));

    n_frames = MAX (n_frames, 1);
    bl_viewport_time_frames (viewport, WIDTH, HEIGHT, n_frames, frames, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < n_frames; i++)
      {
        times[i] = frames[i].wall_ms;
        cpu[i] = frames[i].cpu_ms;
        main_cpu[i] = frames[i].thread_cpu_ms;
      }
    qsort (times, n_frames, sizeof (double), compare_double);
    qsort (cpu, n_frames, sizeof (double), compare_double);
    qsort (main_cpu, n_frames, sizeof (double), compare_double);
    frame_ms = times[n_frames / 2];
    frame_cpu_ms = cpu[n_frames / 2];
    frame_main_ms = main_cpu[n_frames / 2];
    min_cpu_ms = cpu[0];
    min_main_ms = main_cpu[0];
  }

  printf ("%-26s %9u %9u %8.1f %8.1f %8.1f %8.1f %8.2f %7.1f %8.2f %8.2f %8.2f %8.2f   (%d×%d)\n", label, n_triangles_hint,
          bl_viewport_get_n_drawn_triangles (viewport), load_ms, first_ms, first_cpu_ms, ready_ms, frame_ms,
          1000.0 / frame_ms, frame_cpu_ms, frame_main_ms, min_cpu_ms, min_main_ms,
          gtk_widget_get_width (GTK_WIDGET (viewport)), gtk_widget_get_height (GTK_WIDGET (viewport)));
  fflush (stdout);
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ballast-bench-viewport-XXXXXX", &error);
  guint n_links = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 10000;
  guint default_meshes[] = { 200000, 1000000 };
  gint64 start = g_get_monotonic_time ();

  g_assert_no_error (error);
  gtk_init ();
  printf ("GTK init %.1f ms\n", (g_get_monotonic_time () - start) / 1000.0);
  printf ("%-26s %9s %9s %8s %8s %8s %8s %8s %7s %8s %8s %8s %8s\n", "scene", "triangles", "drawn", "load ms",
          "first ms", "1st cpu", "ready ms", "ms/frame", "fps", "cpu ms", "main ms", "min cpu", "min main");

  {
    g_autofree char *path = write_links_model (dir, n_links);
    g_autofree char *label = g_strdup_printf ("%u links (3 primitives)", n_links);

    /* The model's own triangles at the finest level (box 12, cylinder
     * 160, sphere 1,560); "drawn" is what the last frame drew after
     * culling and the level of detail, overlays included. */
    run_scene (label, path, n_links * (12 + 160 + 1560));
    g_unlink (path);
  }
  for (int i = 0; i < (argc > 2 ? argc - 2 : (int) G_N_ELEMENTS (default_meshes)); i++)
    {
      guint n = argc > 2 ? (guint) g_ascii_strtoull (argv[i + 2], NULL, 10) : default_meshes[i];
      g_autofree char *path = write_mesh_model (dir, n);

      run_scene ("torus mesh", path, n);
    }
  if (g_getenv ("BENCH_FILES") != NULL)
    {
      g_auto(GStrv) files = g_strsplit (g_getenv ("BENCH_FILES"), ":", -1);

      for (guint i = 0; files[i] != NULL; i++)
        if (files[i][0] != '\0')
          {
            g_autofree char *label = g_path_get_basename (files[i]);

            run_scene (label, files[i], 0);
          }
    }
  {
    /* Leave nothing behind. */
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);

        g_unlink (p);
      }
    g_rmdir (dir);
  }
  return 0;
}
