/* test-ui-panel.c: the panel method on the Added Mass page, driven by real
 * clicks and keys: its panels drawn while it solves, its proposal with an
 * error estimate, the potential shown on the panels, cancel, apply, undo. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass-editor.h"
#include "bl-panel-job.h"
#include "bl-viewport.h"
#include "ui-common.h"
#include "ui-input.h"

/* BALL_SDF (ui-common.h) is a 0.5 m sphere: in sea water its added mass
 * is ½ρV = ½·1025·(4/3)π·0.125 along each axis and 0 elsewhere (Lamb). */

static GtkWidget *
editor_child (Fixture    *f,
              const char *name)
{
  return child (child (f->window, BL_TYPE_WINDOW, "added_mass_editor"), BL_TYPE_ADDED_MASS_EDITOR, name);
}

static gboolean
reads_on_screen (GtkWidget     *widget,
                 gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
         && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

/* The label reading `text` under `root` that is on screen (a list may
 * keep unmapped rows of the same text). */
static GtkWidget *
find_shown_label (GtkWidget  *root,
                  const char *text)
{
  return find_widget (root, reads_on_screen, text);
}

static BlViewport *
viewport_of (Fixture *f)
{
  GtkWidget *viewport = find_by_type (GTK_WIDGET (f->window), BL_TYPE_VIEWPORT);

  g_assert_nonnull (viewport);
  return BL_VIEWPORT (viewport);
}

/* Opens the Added Mass page by its tab and picks `method` in the Method
 * list, as a user would: a click on the list, a click on the item. */
static void
choose_method (Fixture    *f,
               const char *method)
{
  GtkWidget *dropdown = editor_child (f, "method_dropdown");
  GtkStack *stack = GTK_STACK (child (f->window, BL_TYPE_WINDOW, "side_stack"));
  GtkWidget *item;

  ui_input_click (find_label (find_by_type (GTK_WIDGET (f->window), GTK_TYPE_STACK_SWITCHER), "Added Mass"), 1);
  WAIT_UNTIL (!gtk_stack_get_transition_running (stack));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "added-mass");
  ui_input_click (dropdown, 1);
  WAIT_UNTIL ((item = find_shown_label (dropdown, method)) != NULL);
  g_assert_nonnull (item);
  ui_input_click (item, 1);
  /* The list closes: the next click goes where it is aimed. */
  WAIT_UNTIL (!gtk_widget_get_mapped (item));
  g_assert_false (gtk_widget_get_mapped (item));
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (dropdown))), ==, method);
}

static gboolean
solving (Fixture *f)
{
  return gtk_widget_get_visible (editor_child (f, "progress_box"));
}

static void
test_estimate_apply_undo (Fixture       *f,
                          gconstpointer  data)
{
  double expected = 0.5 * 1025.0 * 4.0 / 3.0 * G_PI * 0.125;
  BlViewport *viewport;
  BlLink *link;
  g_autoptr(GdkTexture) along_x = NULL, along_z = NULL;
  g_autoptr(GBytes) bytes_x = NULL, bytes_z = NULL;

  open_copy (f, NULL, BALL_SDF);
  viewport = viewport_of (f);
  link = bl_document_find_link (bl_window_get_document (f->window), "ball::ball_link");
  choose_method (f, "Panel method, 1,000 panels");
  ui_input_click (editor_child (f, "estimate_button"), 1);
  g_assert_true (solving (f) || gtk_revealer_get_reveal_child (GTK_REVEALER (editor_child (f, "proposal_revealer"))));
  WAIT_UNTIL (!solving (f));
  g_assert_false (solving (f));

  /* The proposal, its notes, and the sphere's panels coloured in the view. */
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (editor_child (f, "proposal_revealer"))));
  g_assert_true (gtk_widget_get_visible (editor_child (f, "apply_button")));
  g_assert_true (gtk_widget_get_visible (editor_child (f, "potential_box")));
  g_assert_nonnull (find_label (editor_child (f, "proposal_title"), "Estimate from Geometry: Panel Method"));
  g_assert_cmpuint (bl_viewport_get_n_panels (viewport), >, 900);
  g_assert_cmpuint (bl_viewport_get_n_panels (viewport), <, 1100);
  g_assert_false (link->has_added_mass);

  /* Another mode's potential: another picture (once the proposal has
   * slid into place, so that the click lands where it is aimed). */
  WAIT_UNTIL (gtk_revealer_get_child_revealed (GTK_REVEALER (editor_child (f, "proposal_revealer"))));
  along_x = bl_viewport_render_texture (viewport, 200, 200, NULL);
  ui_input_click (editor_child (f, "potential_dropdown"), 1);
  {
    GtkWidget *item;
    WAIT_UNTIL ((item = find_shown_label (editor_child (f, "potential_dropdown"), "z (heave)")) != NULL);
    g_assert_nonnull (item);
    ui_input_click (item, 1);
    WAIT_UNTIL (!gtk_widget_get_mapped (item));
  }
  along_z = bl_viewport_render_texture (viewport, 200, 200, NULL);
  g_assert_nonnull (along_x);
  g_assert_nonnull (along_z);
  bytes_x = gdk_texture_save_to_png_bytes (along_x);
  bytes_z = gdk_texture_save_to_png_bytes (along_z);
  g_assert_false (g_bytes_equal (bytes_x, bytes_z));

  /* Apply: ½ρV along each axis within the 1,000 panels' accuracy, every
   * other term exactly 0 (it cannot be told from 0); the panels go. */
  ui_input_click (editor_child (f, "apply_button"), 1);
  g_assert_true (link->has_added_mass);
  for (guint k = 0; k < 21; k++)
    {
      guint r, c;

      bl_added_mass_index (k, &r, &c);
      if (r == c && r < 3)
        g_assert_cmpfloat (fabs (link->added_mass[k] - expected), <, 0.02 * expected);
      else
        g_assert_cmpfloat (link->added_mass[k], ==, 0.0);
    }
  g_assert_cmpuint (bl_viewport_get_n_panels (viewport), ==, 0);

  /* One undo step, by its key. */
  ui_input_key (GDK_KEY_z, GDK_CONTROL_MASK);
  g_assert_false (link->has_added_mass);
  g_assert_false (bl_window_get_modified (f->window));
}

/* Cancel while it solves: no proposal, no panels left in the view, and
 * Estimate works again.  (A result the thread has but the window has not
 * shown yet is dropped too: the job's task checks its cancellable.) */
static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  BlViewport *viewport;

  open_copy (f, NULL, BALL_SDF);
  viewport = viewport_of (f);
  /* The largest: seconds of work, so the click lands while it solves. */
  choose_method (f, "Panel method, 16,000 panels (1 GB)");
  ui_input_click (editor_child (f, "estimate_button"), 1);
  g_assert_true (solving (f));
  g_assert_false (gtk_widget_get_sensitive (editor_child (f, "estimate_button")));
  /* The panels are drawn while it solves. */
  WAIT_UNTIL (bl_viewport_get_n_panels (viewport) > 0);
  if (bl_viewport_get_n_panels (viewport) <= 15000)
    g_error ("%zu panels drawn; progress “%s”; method “%s”", bl_viewport_get_n_panels (viewport),
             gtk_progress_bar_get_text (GTK_PROGRESS_BAR (editor_child (f, "progress_bar"))),
             gtk_string_object_get_string (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (editor_child (f, "method_dropdown")))));
  ui_input_click (editor_child (f, "cancel_button"), 1);
  WAIT_UNTIL (!solving (f));
  g_assert_false (solving (f));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (editor_child (f, "proposal_revealer"))));
  g_assert_cmpuint (bl_viewport_get_n_panels (viewport), ==, 0);
  g_assert_true (gtk_widget_get_sensitive (editor_child (f, "estimate_button")));
}

/* A link the method cannot take says why, in the proposal's place. */
static void
test_no_volume (Fixture       *f,
                gconstpointer  data)
{
  open_copy (f, NULL,
             "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\"><model name=\"m\"><link name=\"flat\">"
             "<collision name=\"floor\"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>"
             "</link></model></sdf>\n");
  choose_method (f, "Panel method, 1,000 panels");
  ui_input_click (editor_child (f, "estimate_button"), 1);
  g_assert_false (solving (f));
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (editor_child (f, "proposal_revealer"))));
  g_assert_false (gtk_widget_get_visible (editor_child (f, "apply_button")));
  g_assert_nonnull (find_label (editor_child (f, "proposal_notes"), "Link “flat” has no collision with a volume"));
}

/* With BALLAST_UI_SCREENSHOTS set to a folder, the window is saved there
 * as NAME, for a person to look at (the README's picture). */
static void
screenshot (Fixture    *f,
            const char *name)
{
  const char *dir = g_getenv ("BALLAST_UI_SCREENSHOTS");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  drain ();
  path = g_build_filename (dir, name, NULL);
  g_assert_true (bl_window_save_screenshot (f->window, path, &error));
  g_assert_no_error (error);
}

/* The built-in sample's hull (a capsule with a battery inside it and a
 * mast on top), solved together: the surge term is far below the sway
 * and heave terms of a slender body (Lamb's 7:1 spheroid: 0.08 of them),
 * and sway and heave nearly equal (the mast breaks the symmetry a little). */
static void
test_sample_hull (Fixture       *f,
                  gconstpointer  data)
{
  GBytes *sample = bl_document_get_sample_bytes ();
  g_autofree char *text = g_strndup (g_bytes_get_data (sample, NULL), g_bytes_get_size (sample));
  BlViewport *viewport;
  BlLink *hull;
  GtkWidget *item;

  open_copy (f, NULL, text);
  viewport = viewport_of (f);
  hull = bl_document_find_link (bl_window_get_document (f->window), "sample_auv::hull");
  select_in_outline (f, "hull");
  choose_method (f, "Panel method, 4,000 panels");
  ui_input_click (editor_child (f, "estimate_button"), 1);
  WAIT_UNTIL (!solving (f));
  g_assert_false (solving (f));
  g_assert_cmpuint (bl_viewport_get_n_panels (viewport), >, 3000);
  WAIT_UNTIL (gtk_revealer_get_child_revealed (GTK_REVEALER (editor_child (f, "proposal_revealer"))));
  ui_input_click (editor_child (f, "potential_dropdown"), 1);
  WAIT_UNTIL ((item = find_shown_label (editor_child (f, "potential_dropdown"), "y (sway)")) != NULL);
  g_assert_nonnull (item);
  ui_input_click (item, 1);
  WAIT_UNTIL (!gtk_widget_get_mapped (item));
  screenshot (f, "panel-method-hull.png");

  ui_input_click (editor_child (f, "apply_button"), 1);
  g_assert_true (hull->has_added_mass);
  /* xx yy zz in spec order: 0, 6, 11. */
  g_assert_cmpfloat (hull->added_mass[0], >, 0.0);
  g_assert_cmpfloat (hull->added_mass[0], <, 0.2 * hull->added_mass[6]);
  g_assert_cmpfloat (fabs (hull->added_mass[6] - hull->added_mass[11]), <, 0.05 * hull->added_mass[6]);
}

static void
note_thread (BlPanelJob *job,
             GThread   **thread)
{
  *thread = g_thread_self ();
}

/* The job tells the window only on the thread that runs the window's main
 * loop, even when that thread is busy or asleep at the moment the solving
 * thread has news (g_main_context_invoke would run the handler in the
 * solving thread then). */
static void
test_job_reports_on_main_thread (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = bl_document_new_from_data (BALL_SDF, strlen (BALL_SDF), "ball.sdf", &error);
  g_autoptr(BlPanelJob) job = NULL;
  GThread *surface_thread = NULL, *finished_thread = NULL;
  gint64 deadline;

  g_assert_no_error (error);
  job = bl_panel_job_new (bl_document_find_link (doc, "ball::ball_link"), 1000, 1025.0, &error);
  g_assert_no_error (error);
  g_signal_connect (job, "surface-ready", G_CALLBACK (note_thread), &surface_thread);
  g_signal_connect (job, "finished", G_CALLBACK (note_thread), &finished_thread);
  /* Asleep, owning nothing, while the job cuts and solves. */
  g_usleep (G_USEC_PER_SEC);
  g_assert_null (surface_thread);
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (finished_thread == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (surface_thread == g_thread_self ());
  g_assert_true (finished_thread == g_thread_self ());
  g_assert_nonnull (bl_panel_job_get_estimate (job, NULL));
}

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, NULL, fn, fixture_tear_down)
  ADD ("/ui/panel/estimate-apply-undo", test_estimate_apply_undo);
  ADD ("/ui/panel/cancel", test_cancel);
  ADD ("/ui/panel/no-volume", test_no_volume);
  ADD ("/ui/panel/sample-hull", test_sample_hull);
  g_test_add_func ("/ui/panel/job-reports-on-main-thread", test_job_reports_on_main_thread);
#undef ADD
  return ui_test_run ();
}
