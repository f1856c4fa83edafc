/* test-ui-live.c: what an edit through the window does besides showing
 * its values (issue 13, "Live means one frame").  An edit updates the
 * inspector; it must not set again what did not change (a tooltip set
 * again, even to the same text, costs a round trip to the display server).
 * The built-in sample's hull: automatic inertia, its collision hull_body
 * of 600 kg/m³ most of its mass. */
#include "config.h"

#include <gtk/gtk.h>

#include "bl-added-mass-editor.h"
#include "bl-diagnostic-row.h"
#include "bl-inspector.h"
#include "bl-window.h"
#include "ui-common.h"
#include "ui-input.h"

static void
sample_hull_set_up (Fixture       *f,
                    gconstpointer  data)
{
  open_sample (f, "sample_auv::hull");
  ui_input_focus_window (GTK_WIDGET (f->window));
}

static GtkWidget *
inspector (Fixture *f)
{
  return child (f->window, BL_TYPE_WINDOW, "inspector");
}

/* Types `text` into the density field of the hull's collision hull_body
 * with real keys and presses Enter; returns once the mass shown has
 * changed. */
static void
type_hull_density (Fixture    *f,
                   const char *text)
{
  GtkWidget *field = find_named (inspector (f), "collision-density-hull_body");
  GtkWidget *grid = child (inspector (f), BL_TYPE_INSPECTOR, "props_grid");
  GtkWidget *mass = gtk_grid_get_child_at (GTK_GRID (grid), 3, 0);
  g_autofree char *before = g_strdup (gtk_label_get_text (GTK_LABEL (mass)));

  g_assert_nonnull (field);
  ui_input_click (GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (field))), 1);
  ui_input_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_input_type (text);
  ui_input_key (GDK_KEY_Return, 0);
  WAIT_UNTIL (g_strcmp0 (gtk_label_get_text (GTK_LABEL (mass)), before) != 0);
  drain ();
}

/* Whether NOW (taken) is what OBJECT had under KEY; keeps NOW there. */
static gboolean
same_as_before (GObject    *object,
                const char *key,
                char       *now)
{
  gboolean same = g_strcmp0 (now, g_object_get_data (object, key)) == 0;

  g_object_set_data_full (object, key, now, g_free);
  return same;
}

/* Tooltips set to the text they already had. */
static guint n_tooltips_set_again;

static void
count_set_again (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    data)
{
  if (same_as_before (object, "test-tooltip", g_strdup (gtk_widget_get_tooltip_text (GTK_WIDGET (object)))))
    n_tooltips_set_again++;
}

static char *
tooltip_of (GtkWidget *widget)
{
  return g_strdup (gtk_widget_get_tooltip_text (widget));
}

/* Connects CALLBACK to SIGNAL of WIDGET and every widget inside it of
 * TYPE, and keeps what CURRENT says of each under KEY. */
static void
watch_tree (GtkWidget   *widget,
            GType        type,
            const char  *signal,
            GCallback    callback,
            const char  *key,
            char      *(*current) (GtkWidget *widget))
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    {
      g_object_set_data_full (G_OBJECT (widget), key, current (widget), g_free);
      g_signal_connect (widget, signal, callback, NULL);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    watch_tree (c, type, signal, callback, key, current);
}

static void
watch_tooltips (GtkWidget *widget)
{
  watch_tree (widget, GTK_TYPE_WIDGET, "notify::tooltip-text", G_CALLBACK (count_set_again), "test-tooltip",
              tooltip_of);
}

/* A density edit sets no tooltip of the inspector to the text it already
 * has (the fields' hints, the auto switch's; a diagnostic whose numbers
 * changed gets its new text). */
static void
test_edit_keeps_tooltips (Fixture       *f,
                          gconstpointer  data)
{
  GtkWidget *field = child (inspector (f), BL_TYPE_INSPECTOR, "density_field");
  g_autofree char *hint = g_strdup (gtk_widget_get_tooltip_text (field));

  g_assert_nonnull (hint);
  watch_tooltips (inspector (f));
  n_tooltips_set_again = 0;
  type_hull_density (f, "700");
  type_hull_density (f, "800");
  g_assert_cmpuint (n_tooltips_set_again, ==, 0);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (field), ==, hint);
}

/* Changes of style classes and icons (a class taken away and given back
 * restyles the widget twice; an image given its own icon is measured
 * again).  GTK notifies css-classes also when nothing changed: a change
 * is a notification with other classes than the last one seen. */
static guint n_restyled;

static char *
classes_of (GtkWidget *widget)
{
  g_auto(GStrv) classes = gtk_widget_get_css_classes (widget);

  return g_strjoinv (" ", classes);
}

static void
count_restyle (GObject    *object,
               GParamSpec *pspec,
               gpointer    data)
{
  if (!same_as_before (object, "test-classes", classes_of (GTK_WIDGET (object))))
    n_restyled++;
}

static char *
icon_of (GtkWidget *widget)
{
  return g_strdup (gtk_image_get_icon_name (GTK_IMAGE (widget)));
}

static void
count_icon (GObject    *object,
            GParamSpec *pspec,
            gpointer    data)
{
  n_restyled++;
}

static void
watch_restyles (GtkWidget *widget)
{
  watch_tree (widget, GTK_TYPE_WIDGET, "notify::css-classes", G_CALLBACK (count_restyle), "test-classes",
              classes_of);
  watch_tree (widget, GTK_TYPE_IMAGE, "notify::icon-name", G_CALLBACK (count_icon), "test-icon", icon_of);
}

/* A density edit that leaves the inertia valid and the link's checks of
 * the same severity (from 800 kg/m³ on, A6 is a note: the added mass
 * along yy is 1.09 times the body's own at 800) changes no style class
 * and no icon, in the inspector or on the Added Mass page (hidden,
 * updated too). */
static void
test_edit_keeps_styles (Fixture       *f,
                        gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");

  type_hull_density (f, "800");
  watch_restyles (inspector (f));
  watch_restyles (editor);
  n_restyled = 0;
  type_hull_density (f, "900");
  type_hull_density (f, "1000");
  g_assert_cmpuint (n_restyled, ==, 0);
}

/* The rows of the Added Mass page's checks are kept across an edit: new
 * rows are new labels to measure and draw. */
static void
test_edit_keeps_check_rows (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *checks = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "checks_box");
  /* Held: a new row could take the freed one's address. */
  g_autoptr(GtkWidget) first = g_object_ref (gtk_widget_get_first_child (checks));

  type_hull_density (f, "700");
  g_assert_true (gtk_widget_get_parent (first) == checks);
  g_assert_true (gtk_widget_get_first_child (checks) == first);
  type_hull_density (f, "800");
  g_assert_true (gtk_widget_get_parent (first) == checks);
  g_assert_true (gtk_widget_get_first_child (checks) == first);
}

/* A diagnostic row's width does not trade with the height it is offered.
 * GTK asks every widget of the inspector for its width at the height of
 * the page (GtkViewport, for the horizontal scrollbar): a wrapping label
 * in a box answers by laying its text out again and again (a binary
 * search over widths), a few milliseconds of every edit's frame for one
 * long message whose numbers changed. */
static void
test_diagnostic_width_ignores_height (Fixture       *f,
                                      gconstpointer  data)
{
  g_autoptr(GtkWidget) row = g_object_ref_sink (bl_diagnostic_row_new ());
  GtkWidget *window = gtk_window_new ();
  int min_free, nat_free, min_tall, nat_tall, min_short, nat_short;

  bl_diagnostic_row_set (row, BL_SEVERITY_WARNING,
                         "added mass along qq is 30× the body's own (43.498 vs M_RB 1.44932); also yy 2.97, "
                         "zz 2.97, pp 1.22, rr 26.4: a risk where a plugin applies added mass as an explicit "
                         "force (gz-sim issue #1923), harmless for DART (A6, line 76)", NULL);
  gtk_window_set_child (GTK_WINDOW (window), row);
  gtk_widget_measure (row, GTK_ORIENTATION_HORIZONTAL, -1, &min_free, &nat_free, NULL, NULL);
  gtk_widget_measure (row, GTK_ORIENTATION_HORIZONTAL, 2000, &min_tall, &nat_tall, NULL, NULL);
  gtk_widget_measure (row, GTK_ORIENTATION_HORIZONTAL, 60, &min_short, &nat_short, NULL, NULL);
  g_assert_cmpint (min_tall, ==, min_free);
  g_assert_cmpint (nat_tall, ==, nat_free);
  g_assert_cmpint (min_short, ==, min_free);
  g_assert_cmpint (nat_short, ==, nat_free);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, sample_hull_set_up, fn, fixture_tear_down)
  ADD ("/ui/live/edit-keeps-tooltips", test_edit_keeps_tooltips);
  ADD ("/ui/live/edit-keeps-styles", test_edit_keeps_styles);
  ADD ("/ui/live/edit-keeps-check-rows", test_edit_keeps_check_rows);
  ADD ("/ui/live/diagnostic-width-ignores-height", test_diagnostic_width_ignores_height);
#undef ADD

  return ui_test_run ();
}
