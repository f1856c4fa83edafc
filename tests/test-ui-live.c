/* test-ui-live.c: what an edit through the window does besides showing
 * its values (issue 13, "Live means one frame").  An edit updates the
 * inspector; it must not set again what did not change (a tooltip set
 * again, even to the same text, costs a round trip to the display server).
 * The built-in sample's hull: automatic inertia, its collision hull_body
 * of 600 kg/m³ most of its mass. */
#include "config.h"

#include <gtk/gtk.h>

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

/* Tooltips set to the text they already had. */
static guint n_tooltips_set_again;

static void
count_set_again (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    data)
{
  const char *now = gtk_widget_get_tooltip_text (GTK_WIDGET (object));

  if (g_strcmp0 (now, g_object_get_data (object, "test-tooltip")) == 0)
    n_tooltips_set_again++;
  g_object_set_data_full (object, "test-tooltip", g_strdup (now), g_free);
}

static void
watch_tooltips (GtkWidget *widget)
{
  g_object_set_data_full (G_OBJECT (widget), "test-tooltip", g_strdup (gtk_widget_get_tooltip_text (widget)), g_free);
  g_signal_connect (widget, "notify::tooltip-text", G_CALLBACK (count_set_again), NULL);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    watch_tooltips (c);
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

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, sample_hull_set_up, fn, fixture_tear_down)
  ADD ("/ui/live/edit-keeps-tooltips", test_edit_keeps_tooltips);
#undef ADD

  return ui_test_run ();
}
