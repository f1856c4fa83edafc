/* bench-app.c: edits through the window, timed from the edit to the new
 * values in the inspector and to the next frame drawn (issue 13, "Live
 * means one frame").
 *
 * Usage: bench-app [N-LINKS…]   (default: the sample, 45, 1000, 10000)
 * "sample" stands for the built-in sample.  Needs a display (Xvfb).
 *
 * For each model the window (1400×900) selects a link with automatic
 * inertia and a collision with a density, then applies, BALLAST_BENCH_EDITS
 * times each (default 10): a collision density typed and activated (Enter
 * reaches the spin button's text), the auto switch turned off (the edit
 * being the answer "Use the File's Values" to the question it asks) and on (two
 * edits), an added-mass cell typed and activated (on the Added Mass page),
 * and undo.  For each it measures
 *  - values: from just before the edit to the inspector's label (or the
 *    mirrored added-mass cell) showing the new value, main loop included;
 *  - frame: to the end of the first frame (GdkFrameClock::after-paint) in
 *    which the viewport rendered (GtkGLArea::render) after the edit;
 * and prints the median and the worst, and the median CPU time of the
 * whole process (llvmpipe's threads included) from the edit to that frame,
 * which a machine shared with other work inflates less than wall time.  "No edit" is the viewport asked to
 * render again without any change: the cost of a frame alone.  Frames come from the frame clock
 * (60 Hz under Xvfb), so "frame" includes the wait for the next tick. */
#include "config.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bl-added-mass-editor.h"
#include "bl-inspector.h"
#include "bl-viewport.h"
#include "bl-window.h"
#include "generate-model.h"
#include "ui-common.h"

typedef struct
{
  gboolean rendered;      /* the viewport rendered since the edit */
  gint64   frame_end;     /* after-paint of that frame, µs; 0: not yet */
  double   frame_cpu;     /* the process's CPU time then, s */
  double   phase_cpu;     /* the process's CPU time at the last phase's end, s */
  double   layout_cpu;    /* CPU in the frame clock's layout phases since the edit, s */
  double   paint_cpu;     /* CPU in its paint phases (snapshot, render) since the edit, s */
} FrameWatch;

/* The process's CPU time (all threads: llvmpipe's too), s. */
static double
process_cpu (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static FrameWatch watch;

static gboolean
on_render (GtkGLArea    *area,
           GdkGLContext *context,
           gpointer      data)
{
  watch.rendered = TRUE;
  return FALSE;
}

/* Handlers run after GTK's: the layout phase is from the end of update
 * to the end of layout, the paint phase from there to the end of paint. */
static void
on_update_end (GdkFrameClock *clock,
               gpointer       data)
{
  watch.phase_cpu = process_cpu ();
}

/* Adds the CPU time since the last phase's end to the phase's total
 * (DATA: &watch.layout_cpu or &watch.paint_cpu). */
static void
on_phase_end (GdkFrameClock *clock,
              gpointer       data)
{
  double now = process_cpu ();

  if (watch.frame_end == 0)
    *(double *) data += now - watch.phase_cpu;
  watch.phase_cpu = now;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  if (watch.rendered && watch.frame_end == 0)
    {
      watch.frame_end = g_get_monotonic_time ();
      watch.frame_cpu = process_cpu ();
    }
}

static gboolean
tick_continue (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static void
iterate_until (gboolean (*done) (gpointer),
               gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  /* Wakes the blocking iteration up once a second to check the deadline. */
  guint tick = g_timeout_add_seconds (1, tick_continue, NULL);

  while (!done (data) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  if (!done (data))
    g_error ("gave up waiting after 10 s");
}

static gboolean
frame_done (gpointer data)
{
  return watch.frame_end != 0;
}

static gboolean
idle_done (gpointer data)
{
  return !g_main_context_pending (NULL);
}

/* Lets GTK lay out and draw everything pending. */
static void
settle (void)
{
  for (int i = 0; i < 3; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (20000);
    }
}

/* Waits until WIDGET (a dialog, a question) is on screen and laid out, as
 * a user sees it. */
static gboolean
dialog_ready (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static void
respond_ready (GtkWidget *widget)
{
  iterate_until (dialog_ready, widget);
  settle ();
}

static GtkWidget *
template_child (gpointer    widget,
                GType       type,
                const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert (object != NULL);
  return GTK_WIDGET (object);
}

typedef struct
{
  GtkWidget *label;       /* whose text shows the edit's result */
  char      *before;
} LabelWatch;

static gboolean
label_changed (gpointer data)
{
  LabelWatch *w = data;
  const char *now = GTK_IS_LABEL (w->label) ? gtk_label_get_text (GTK_LABEL (w->label))
                                            : gtk_editable_get_text (GTK_EDITABLE (w->label));

  return g_strcmp0 (now, w->before) != 0;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef struct
{
  GArray *values;   /* ms */
  GArray *frames;   /* ms */
  GArray *cpu;      /* ms of CPU from the edit to the frame */
  GArray *layout;   /* ms of it in the frame clock's layout phase */
  GArray *paint;    /* ms of it in the paint phase */
} Samples;

#define SAMPLES_INIT { g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (double)), \
                       g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (double)), \
                       g_array_new (FALSE, FALSE, sizeof (double)) }

static void
samples_print (const char *what,
               Samples    *s)
{
  g_array_sort (s->values, compare_doubles);
  g_array_sort (s->frames, compare_doubles);
  g_array_sort (s->cpu, compare_doubles);
  g_array_sort (s->layout, compare_doubles);
  g_array_sort (s->paint, compare_doubles);
  g_print ("  %-22s values %7.2f ms (worst %7.2f)   frame %7.2f ms (worst %7.2f)   CPU %6.2f ms"
           " (layout %5.2f, paint %5.2f)\n", what,
           g_array_index (s->values, double, s->values->len / 2),
           g_array_index (s->values, double, s->values->len - 1),
           g_array_index (s->frames, double, s->frames->len / 2),
           g_array_index (s->frames, double, s->frames->len - 1),
           g_array_index (s->cpu, double, s->cpu->len / 2),
           g_array_index (s->layout, double, s->layout->len / 2),
           g_array_index (s->paint, double, s->paint->len / 2));
  g_array_unref (s->values);
  g_array_unref (s->layout);
  g_array_unref (s->paint);
  g_array_unref (s->frames);
  g_array_unref (s->cpu);
}

typedef void (*Action) (gpointer data, guint i);

/* Runs ACTION (DATA, i) and times it until LABEL changes and a frame with
 * the viewport in it is drawn. */
static void
measure (Samples   *s,
         GtkWidget *label,
         Action     action,
         gpointer   data,
         guint      i)
{
  LabelWatch w = { label, NULL };
  gint64 start;
  double values, cpu_start;

  settle ();
  if (label != NULL)
    w.before = g_strdup (GTK_IS_LABEL (label) ? gtk_label_get_text (GTK_LABEL (label))
                                              : gtk_editable_get_text (GTK_EDITABLE (label)));
  watch.rendered = FALSE;
  watch.frame_end = 0;
  watch.layout_cpu = 0.0;
  watch.paint_cpu = 0.0;
  start = g_get_monotonic_time ();
  cpu_start = process_cpu ();
  action (data, i);
  if (label != NULL)
    iterate_until (label_changed, &w);
  values = (g_get_monotonic_time () - start) / 1e3;
  iterate_until (frame_done, NULL);
  g_array_append_val (s->values, values);
  {
    double frame = (watch.frame_end - start) / 1e3;
    double cpu = (watch.frame_cpu - cpu_start) * 1e3;
    double layout = watch.layout_cpu * 1e3;
    double paint = watch.paint_cpu * 1e3;

    g_array_append_val (s->frames, frame);
    g_array_append_val (s->cpu, cpu);
    g_array_append_val (s->layout, layout);
    g_array_append_val (s->paint, paint);
  }
  g_free (w.before);
}

typedef struct
{
  BlWindow  *window;
  GtkWidget *inspector;
  GtkWidget *editor;
  char      *collision;
} Scene;

static void
do_redraw (gpointer data,
           guint    i)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (data));
}

static void
do_density (gpointer data,
            guint    i)
{
  Scene *scene = data;
  g_autofree char *name = g_strdup_printf ("collision-density-%s", scene->collision);
  GtkWidget *spin = find_named (scene->inspector, name);
  g_autofree char *text = g_strdup_printf ("%u", 2000 + 10 * i);

  g_assert (spin != NULL);
  type_text (spin, text);
}

static void
do_auto_on (gpointer data,
            guint    i)
{
  Scene *scene = data;
  GtkSwitch *sw = GTK_SWITCH (template_child (scene->inspector, BL_TYPE_INSPECTOR, "auto_switch"));

  gtk_switch_set_active (sw, TRUE);
}

/* Turning auto off asks whether to keep the computed values (turned off
 * before the timing starts); the edit is the answer "Use the File's
 * Values", which changes the mass shown. */
static void
do_auto_off (gpointer data,
             guint    i)
{
  Scene *scene = data;
  GtkWidget *file = find_named (scene->inspector, "auto-question-file");

  g_assert (file != NULL && gtk_widget_get_mapped (file));
  g_signal_emit_by_name (file, "clicked");
}

static void
ask_auto_off (Scene *scene)
{
  GtkSwitch *sw = GTK_SWITCH (template_child (scene->inspector, BL_TYPE_INSPECTOR, "auto_switch"));
  GtkWidget *file = find_named (scene->inspector, "auto-question-file");

  gtk_switch_set_active (sw, FALSE);
  while (!gtk_widget_get_mapped (file))
    g_main_context_iteration (NULL, FALSE);
  respond_ready (file);
}

static void
do_added_mass (gpointer data,
               guint    i)
{
  Scene *scene = data;
  GtkWidget *cell = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (scene->editor), 0, 1);
  g_autofree char *text = g_strdup_printf ("%u.5", 3 + i);

  type_text (cell, text);
}

static void
do_undo (gpointer data,
         guint    i)
{
  Scene *scene = data;

  gtk_widget_activate_action (GTK_WIDGET (scene->window), "win.undo", NULL);
}

/* A link of the main file with automatic inertia and a collision with a
 * density: m0::link_3 in a generated world, else the first such link. */
static BlLink *
pick_link (BlDocument *doc)
{
  GPtrArray *links = bl_document_get_links (doc);
  BlLink *link = bl_document_find_link (doc, "m0::link_3");

  for (guint i = 0; link == NULL && i < links->len; i++)
    {
      BlLink *candidate = g_ptr_array_index (links, i);

      for (guint c = 0; c < candidate->collisions->len; c++)
        if (candidate->auto_inertia &&
            ((BlCollision *) g_ptr_array_index (candidate->collisions, c))->has_density)
          {
            link = candidate;
            break;
          }
    }
  g_assert (link != NULL);
  return link;
}

static void
run_scene (const char *title,
           const char *path,
           guint       n_edits)
{
  Scene scene = { 0 };
  GtkWidget *viewport, *side_stack, *mass_label, *mirror;
  BlDocument *doc;
  BlLink *link;
  GdkFrameClock *clock;
  gulong render_id, paint_id, phase_ids[3];
  gint64 start = g_get_monotonic_time ();
  Samples redraw = SAMPLES_INIT;
  Samples density = SAMPLES_INIT;
  Samples toggle_off = SAMPLES_INIT;
  Samples toggle_on = SAMPLES_INIT;
  Samples added = SAMPLES_INIT;
  Samples undo = SAMPLES_INIT;

  scene.window = bl_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (scene.window), 1400, 900);
  if (path == NULL)
    bl_window_load_sample (scene.window);
  else
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;

      if (!bl_window_load_file (scene.window, file, &error))
        g_error ("%s", error->message);
    }
  gtk_window_present (GTK_WINDOW (scene.window));
  settle ();

  doc = bl_window_get_document (scene.window);
  link = pick_link (doc);
  for (guint c = 0; c < link->collisions->len; c++)
    if (((BlCollision *) g_ptr_array_index (link->collisions, c))->has_density)
      {
        scene.collision = g_strdup (((BlCollision *) g_ptr_array_index (link->collisions, c))->name);
        break;
      }
  bl_window_select_link (scene.window, link);
  settle ();
  g_print ("%s: %u links, open and first frame %.0f ms; edits on %s/%s\n", title,
           bl_document_get_links (doc)->len, (g_get_monotonic_time () - start) / 1e3,
           link->scoped_name, scene.collision);

  scene.inspector = template_child (scene.window, BL_TYPE_WINDOW, "inspector");
  scene.editor = template_child (scene.window, BL_TYPE_WINDOW, "added_mass_editor");
  side_stack = template_child (scene.window, BL_TYPE_WINDOW, "side_stack");
  viewport = find_by_type (GTK_WIDGET (scene.window), BL_TYPE_VIEWPORT);
  g_assert (viewport != NULL);
  render_id = g_signal_connect (viewport, "render", G_CALLBACK (on_render), NULL);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (scene.window));
  paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  phase_ids[0] = g_signal_connect_after (clock, "update", G_CALLBACK (on_update_end), NULL);
  phase_ids[1] = g_signal_connect_after (clock, "layout", G_CALLBACK (on_phase_end), &watch.layout_cpu);
  phase_ids[2] = g_signal_connect_after (clock, "paint", G_CALLBACK (on_phase_end), &watch.paint_cpu);
  /* Row 0 of the properties: "Mass", its value in column 3. */
  mass_label = gtk_grid_get_child_at (GTK_GRID (template_child (scene.inspector, BL_TYPE_INSPECTOR, "props_grid")), 3, 0);

  for (guint i = 0; i < n_edits; i++)
    measure (&redraw, NULL, do_redraw, viewport, i);
  for (guint i = 0; i < n_edits; i++)
    measure (&density, mass_label, do_density, &scene, i);
  for (guint i = 0; i < n_edits; i++)
    {
      ask_auto_off (&scene);
      measure (&toggle_off, mass_label, do_auto_off, &scene, i);
      measure (&toggle_on, mass_label, do_auto_on, &scene, i);
    }
  for (guint i = 0; i < n_edits; i++)
    measure (&undo, mass_label, do_undo, &scene, i);

  gtk_stack_set_visible_child_name (GTK_STACK (side_stack), "added-mass");
  settle ();
  mirror = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (scene.editor), 1, 0);
  for (guint i = 0; i < n_edits; i++)
    measure (&added, mirror, do_added_mass, &scene, i);

  samples_print ("no edit: 3D view only", &redraw);
  samples_print ("collision density", &density);
  samples_print ("auto off (the answer)", &toggle_off);
  samples_print ("auto on", &toggle_on);
  samples_print ("undo", &undo);
  samples_print ("added-mass cell", &added);

  g_signal_handler_disconnect (clock, paint_id);
  for (guint i = 0; i < G_N_ELEMENTS (phase_ids); i++)
    g_signal_handler_disconnect (clock, phase_ids[i]);
  g_signal_handler_disconnect (viewport, render_id);
  gtk_window_destroy (GTK_WINDOW (scene.window));
  settle ();
  iterate_until (idle_done, NULL);
  g_free (scene.collision);
}

int
main (int    argc,
      char **argv)
{
  const char *defaults[] = { "sample", "45", "1000", "10000" };
  const char **sizes = argc > 1 ? (const char **) argv + 1 : defaults;
  int n_sizes = argc > 1 ? argc - 1 : (int) G_N_ELEMENTS (defaults);
  guint n_edits = 10;
  g_autofree char *dir = g_dir_make_tmp ("ballast-bench-app-XXXXXX", NULL);

  if (g_getenv ("BALLAST_BENCH_EDITS") != NULL)
    n_edits = MAX (1, (guint) g_ascii_strtoull (g_getenv ("BALLAST_BENCH_EDITS"), NULL, 10));

  gtk_init ();
  g_print ("median and worst of %u edits each, ms from the edit\n", n_edits);

  for (int i = 0; i < n_sizes; i++)
    {
      if (g_str_equal (sizes[i], "sample"))
        run_scene ("sample", NULL, n_edits);
      else
        {
          guint n = (guint) g_ascii_strtoull (sizes[i], NULL, 10);
          g_autofree char *path = generate_world (dir, n, 100);
          g_autofree char *title = g_strdup_printf ("generated %u", n);

          run_scene (title, path, n_edits);
          g_unlink (path);
        }
    }

  {
    g_autofree char *part = g_build_filename (dir, "part.sdf", NULL);
    g_autofree char *mesh = g_build_filename (dir, "mesh.stl", NULL);

    g_unlink (part);
    g_unlink (mesh);
    g_rmdir (dir);
  }
  return 0;
}
