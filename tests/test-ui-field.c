/* test-ui-field.c: the number fields under real input (issue 13, "never
 * change a value the user did not ask for"): the wheel scrolls the page,
 * − / + step from the value shown, fields of included files are read-only
 * before the user tries, and turning automatic inertia off offers to keep
 * the computed values.  Most cases use the built-in sample, as the issue
 * does: its hull has automatic inertia, link density 600 kg/m³, no target
 * mass (141.508 kg computed), a battery of 2400 kg/m³ and a nose_sensor
 * without a density ("600 (link)"). */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>

#include "bl-added-mass-editor.h"
#include "bl-inspector.h"
#include "bl-number-field.h"
#include "bl-window.h"
#include "ui-common.h"
#include "ui-input.h"

static BlLink *
hull (Fixture *f)
{
  BlLink *link = bl_document_find_link (bl_window_get_document (f->window), "sample_auv::hull");

  g_assert_nonnull (link);
  return link;
}

static BlCollision *
collision (Fixture    *f,
           const char *name)
{
  BlCollision *c = bl_document_find_collision (bl_window_get_document (f->window), "sample_auv::hull", name);

  g_assert_nonnull (c);
  return c;
}

static GtkWidget *
inspector (Fixture *f)
{
  return child (f->window, BL_TYPE_WINDOW, "inspector");
}

static BlNumberField *
inspector_field (Fixture    *f,
                 const char *name)
{
  return BL_NUMBER_FIELD (child (inspector (f), BL_TYPE_INSPECTOR, name));
}

static BlNumberField *
density_of (Fixture    *f,
            const char *collision_name)
{
  g_autofree char *name = g_strdup_printf ("collision-density-%s", collision_name);
  GtkWidget *field = find_named (inspector (f), name);

  g_assert_nonnull (field);
  g_assert_true (BL_IS_NUMBER_FIELD (field));
  return BL_NUMBER_FIELD (field);
}

static const char *
placeholder_of (BlNumberField *field)
{
  return gtk_text_get_placeholder_text (GTK_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (field))));
}

static void
click_step (BlNumberField *field,
            int            direction)
{
  GtkWidget *button = direction > 0 ? bl_number_field_get_up_button (field)
                                    : bl_number_field_get_down_button (field);

  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  point_at (button);
  ui_input_click (button, 1);
  drain ();
}

/* One wheel tick over `field`: the value, the placeholder and the document
 * stay; the page around the field scrolls instead. */
static void
assert_wheel_scrolls (Fixture       *f,
                      BlNumberField *field)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (field), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  double value = bl_number_field_get_value (field);
  gboolean empty = bl_number_field_get_empty (field);
  g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (field)));
  g_autofree char *placeholder = g_strdup (placeholder_of (field));
  double before;
  int ticks;

  g_assert_nonnull (scrolled);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (field)) && gtk_adjustment_get_upper (adjustment) > 0.0);
  /* The page is taller than its window, or scrolling could not show. */
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment) + 20.0);

  point_at (GTK_WIDGET (field));
  before = gtk_adjustment_get_value (adjustment);
  ticks = before + gtk_adjustment_get_page_size (adjustment) < gtk_adjustment_get_upper (adjustment) - 1.0 ? 1 : -1;
  ui_input_scroll (GTK_WIDGET (field), ticks);
  WAIT_UNTIL (gtk_adjustment_get_value (adjustment) != before);
  drain ();

  if (ticks > 0)
    g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, before);
  else
    g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), <, before);
  g_assert_cmpfloat (bl_number_field_get_value (field), ==, value);
  g_assert_cmpint (bl_number_field_get_empty (field), ==, empty);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field)), ==, text);
  g_assert_cmpstr (placeholder_of (field), ==, placeholder);
  g_assert_false (bl_window_get_modified (f->window));
}

/* Issue 13: one wheel tick over the empty Target mass set the hull's mass
 * to 0.9 kg; one over a collision density moved 2400 → 2390. */
static void
test_wheel_scrolls_the_page (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *buoyancy = child (inspector (f), BL_TYPE_INSPECTOR, "buoyancy_grid");
  BlLink *link = hull (f);

  g_assert_cmpstr (placeholder_of (inspector_field (f, "mass_field")), ==, "141.508 (computed)");
  assert_wheel_scrolls (f, inspector_field (f, "mass_field"));
  g_assert_false (link->has_mass);
  g_assert_cmpfloat_with_epsilon (link->props.mass, 141.508, 1e-3);

  assert_wheel_scrolls (f, inspector_field (f, "density_field"));
  g_assert_cmpfloat (link->density, ==, 600.0);

  assert_wheel_scrolls (f, density_of (f, "battery"));
  g_assert_cmpfloat (collision (f, "battery")->density, ==, 2400.0);

  assert_wheel_scrolls (f, density_of (f, "nose_sensor"));
  g_assert_false (collision (f, "nose_sensor")->has_density);

  /* The fluid density, a setting rather than the document's. */
  assert_wheel_scrolls (f, BL_NUMBER_FIELD (grid_cell (buoyancy, 1, 2)));
  g_assert_cmpfloat (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector (f))), ==, 1025.0);

  /* The Added Mass page: its fluid density and a cell. */
  gtk_stack_set_visible_child_name (GTK_STACK (child (f->window, BL_TYPE_WINDOW, "side_stack")), "added-mass");
  drain ();
  assert_wheel_scrolls (f, BL_NUMBER_FIELD (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "fluid_field")));
  assert_wheel_scrolls (f, BL_NUMBER_FIELD (bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 1, 1)));
  g_assert_cmpfloat (link->added_mass[6], ==, 120.0);  /* yy */
}

/* Issue 13: + on "600 (link)" gave 10.001 kg/m³, not 610; + on the empty
 * Target mass gave 1.1 kg, not ~141.6.  The step is a power of ten between
 * 0.2 % and 2 % of the value shown: 10 for 600 and 2400, 1 for 141.508. */
static void
test_step_from_the_value_shown (Fixture       *f,
                                gconstpointer  data)
{
  BlLink *link = hull (f);
  BlNumberField *mass = inspector_field (f, "mass_field");

  g_assert_cmpstr (placeholder_of (density_of (f, "nose_sensor")), ==, "600 (link)");
  click_step (density_of (f, "nose_sensor"), 1);
  g_assert_true (collision (f, "nose_sensor")->has_density);
  g_assert_cmpfloat (collision (f, "nose_sensor")->density, ==, 610.0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (density_of (f, "nose_sensor"))), ==, "610");

  click_step (density_of (f, "battery"), -1);
  g_assert_cmpfloat (collision (f, "battery")->density, ==, 2390.0);

  /* Target mass: empty, showing the 141.508 kg computed; + gives 142. */
  g_assert_true (bl_number_field_get_empty (mass));
  click_step (mass, 1);
  g_assert_true (link->has_mass);
  g_assert_cmpfloat (link->mass, ==, 142.0);
  g_assert_cmpfloat_with_epsilon (link->props.mass, 142.0, 1e-9);
  /* …and − from 142 gives 141; a positive field never reaches 0. */
  click_step (mass, -1);
  g_assert_cmpfloat (link->mass, ==, 141.0);
  g_assert_true (gtk_widget_is_sensitive (bl_number_field_get_down_button (mass)));

  /* The run of steps of one field is one undo step. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_false (link->has_mass);
  g_assert_true (bl_number_field_get_empty (mass));
}

/* Issue 13: after typing 3000 into the battery's density and undoing, +
 * on "600 (link)" gave 3020.  + steps from what the field shows now. */
static void
test_step_after_undo (Fixture       *f,
                      gconstpointer  data)
{
  type_for_real (density_of (f, "battery"), "3000");
  g_assert_cmpfloat (collision (f, "battery")->density, ==, 3000.0);
  g_assert_true (bl_window_get_modified (f->window));

  ui_input_key (GDK_KEY_z, GDK_CONTROL_MASK);
  drain ();
  g_assert_cmpfloat (collision (f, "battery")->density, ==, 2400.0);
  g_assert_false (bl_window_get_modified (f->window));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (density_of (f, "battery"))), ==, "2400");

  click_step (density_of (f, "nose_sensor"), 1);
  g_assert_cmpfloat (collision (f, "nose_sensor")->density, ==, 610.0);
  click_step (density_of (f, "battery"), 1);
  g_assert_cmpfloat (collision (f, "battery")->density, ==, 2410.0);

  /* Down in the focused field is − (2410 → 2400), Up is +. */
  type_for_real (density_of (f, "battery"), "2410");
  ui_input_key (GDK_KEY_Down, 0);
  drain ();
  g_assert_cmpfloat (collision (f, "battery")->density, ==, 2400.0);
  ui_input_key (GDK_KEY_Up, 0);
  ui_input_key (GDK_KEY_Up, 0);
  drain ();
  g_assert_cmpfloat (collision (f, "battery")->density, ==, 2420.0);
}

/* The added-mass cell xx. */
static GtkWidget *
am_cell (Fixture *f)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");

  return bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 0, 0);
}

/* A link of an included file: its fields show its values, cannot be
 * edited and say why, before the user tries; typing into one edits
 * nothing and raises no dialog. */
static void
test_included_is_read_only (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *part = NULL;
  g_autofree char *part_dir = NULL;
  BlDocument *doc;
  BlLink *own, *included;
  BlNumberField *density;
  GListModel *toplevels = gtk_window_get_toplevels ();

  /* The included file, in a folder of its own (named by its full path). */
  part = open_with_included_part (f);
  part_dir = g_path_get_dirname (part);
  ui_input_focus_window (GTK_WIDGET (f->window));

  doc = bl_window_get_document (f->window);
  own = bl_document_find_link (doc, "m::own");
  included = bl_document_find_link (doc, "m::part::inc");
  g_assert_nonnull (own);
  g_assert_nonnull (included);

  bl_window_select_link (f->window, included);
  drain ();
  density = inspector_field (f, "density_field");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (density)), ==, "500");
  g_assert_false (gtk_editable_get_editable (GTK_EDITABLE (density)));
  g_assert_false (gtk_editable_get_editable (GTK_EDITABLE (inspector_field (f, "mass_field"))));
  g_assert_false (gtk_editable_get_editable (GTK_EDITABLE (find_named (inspector (f), "collision-density-box"))));
  g_assert_false (gtk_widget_get_visible (bl_number_field_get_up_button (density)));
  g_assert_false (gtk_widget_is_sensitive (child (inspector (f), BL_TYPE_INSPECTOR, "auto_switch")));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (density)), "included file"));
  g_assert_true (gtk_widget_get_visible (child (inspector (f), BL_TYPE_INSPECTOR, "read_only_label")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (child (inspector (f), BL_TYPE_INSPECTOR, "read_only_label"))),
                            "part.sdf"));

  g_assert_false (gtk_editable_get_editable (GTK_EDITABLE (am_cell (f))));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (am_cell (f)), "included file"));

  type_for_real (density, "9");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (density)), ==, "500");
  g_assert_cmpfloat (included->density, ==, 500.0);
  g_assert_false (bl_window_get_modified (f->window));
  g_assert_cmpuint (g_list_model_get_n_items (toplevels), ==, 1);  /* no refusal dialog */

  /* The model's own link is editable as ever. */
  bl_window_select_link (f->window, own);
  drain ();
  g_assert_true (gtk_editable_get_editable (GTK_EDITABLE (density)));
  g_assert_false (gtk_widget_get_visible (child (inspector (f), BL_TYPE_INSPECTOR, "read_only_label")));
  g_assert_true (gtk_editable_get_editable (GTK_EDITABLE (am_cell (f))));
  type_for_real (density, "800");
  g_assert_cmpfloat (own->density, ==, 800.0);
  remove_tree (part_dir);
}

/* Issue 13: turning auto off dropped the hull to the 1 kg default.  The
 * switch now asks: keep the computed values (one undoable edit), use the
 * file's (the defaults here: the hull writes no <mass>), or cancel. */
static void
test_auto_off_offers_computed (Fixture       *f,
                               gconstpointer  data)
{
  GtkWidget *sw = child (inspector (f), BL_TYPE_INSPECTOR, "auto_switch");
  BlLink *link = hull (f);
  BlMassProperties before = link->props;

  /* Cancel: nothing changes, the switch is back on. */
  point_at (sw);
  ui_input_click (sw, 1);
  answer_auto_question (inspector (f), "auto-question-cancel");
  g_assert_true (link->auto_inertia);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (sw)));
  g_assert_false (bl_window_get_modified (f->window));

  /* Keep: explicit, with the very mass, centre and inertia it had. */
  ui_input_focus_window (GTK_WIDGET (f->window));
  point_at (sw);
  ui_input_click (sw, 1);
  answer_auto_question (inspector (f), "auto-question-keep");
  link = hull (f);
  g_assert_false (link->auto_inertia);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (sw)));
  g_assert_true (link->has_mass);
  g_assert_cmpfloat_with_epsilon (link->props.mass, before.mass, 1e-9 * before.mass);
  g_assert_cmpfloat_with_epsilon (link->props.com.x, before.com.x, 1e-12);
  g_assert_cmpfloat_with_epsilon (link->props.com.z, before.com.z, 1e-12);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      g_assert_cmpfloat_with_epsilon (link->props.inertia.m[i][j], before.inertia.m[i][j], 1e-9);

  /* One undo step puts automatic inertia back. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  link = hull (f);
  g_assert_true (link->auto_inertia);
  g_assert_false (link->has_mass);
  g_assert_false (bl_window_get_modified (f->window));

  /* The file's values: the hull writes none, so the 1 kg default. */
  ui_input_focus_window (GTK_WIDGET (f->window));
  point_at (sw);
  ui_input_click (sw, 1);
  answer_auto_question (inspector (f), "auto-question-file");
  link = hull (f);
  g_assert_false (link->auto_inertia);
  g_assert_cmpfloat (link->props.mass, ==, 1.0);
}

/* The steps of − / +, worked by hand: a power of ten 10^⌊log10(|v|/50)⌋
 * (between 0.2 % and 2 % of |v|), to the next multiple of it beyond v. */
static void
test_step_sizes (void)
{
  static const struct { double value, up, down; } cases[] = {
    { 600.0, 610.0, 590.0 },          /* 12 → 10 */
    { 141.508, 142.0, 141.0 },        /* 2.83 → 1, to the multiples of 1 */
    { 0.9, 0.91, 0.89 },              /* 0.018 → 0.01 */
    { 0.29, 0.291, 0.289 },           /* 0.0058 → 0.001; 0.29·1000 is 289.99… */
    { 49.99, 50.0, 49.9 },            /* 0.9998 → 0.1 */
    { 50.0, 51.0, 49.0 },             /* 1 → 1 */
    { 1e6, 1.01e6, 0.99e6 },          /* 20000 → 10000 */
    { -600.0, -590.0, -610.0 },
    { 0.0, 1.0, -1.0 },               /* no magnitude: 1 */
  };
  g_autoptr(GtkWidget) field = g_object_ref_sink (bl_number_field_new (BL_FIELD_ANY));
  BlNumberField *nf = BL_NUMBER_FIELD (field);
  double next;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      bl_number_field_set_value (nf, cases[i].value);
      g_assert_true (bl_number_field_next_value (nf, 1, &next));
      g_assert_cmpfloat (next, ==, cases[i].up);
      g_assert_true (bl_number_field_next_value (nf, -1, &next));
      g_assert_cmpfloat (next, ==, cases[i].down);
    }

  /* Empty: from the value in use; with none, no step and no buttons. */
  bl_number_field_set_rule (nf, BL_FIELD_POSITIVE);
  bl_number_field_set_optional (nf, TRUE);
  bl_number_field_set_empty (nf, TRUE);
  g_assert_false (bl_number_field_next_value (nf, 1, &next));
  g_assert_false (gtk_widget_get_sensitive (bl_number_field_get_up_button (nf)));
  g_assert_false (gtk_widget_get_sensitive (bl_number_field_get_down_button (nf)));
  bl_number_field_set_placeholder (nf, 1000.0, "1000 (default)");
  g_assert_true (bl_number_field_next_value (nf, 1, &next));
  g_assert_cmpfloat (next, ==, 1010.0);
  g_assert_true (gtk_widget_get_sensitive (bl_number_field_get_down_button (nf)));

  /* A fixed step: a positive field does not step to 0 or below. */
  bl_number_field_set_step (nf, 0.25);
  bl_number_field_set_value (nf, 0.25);
  g_assert_false (bl_number_field_next_value (nf, -1, &next));
  g_assert_false (gtk_widget_get_sensitive (bl_number_field_get_down_button (nf)));
  g_assert_true (bl_number_field_next_value (nf, 1, &next));
  g_assert_cmpfloat (next, ==, 0.5);
  bl_number_field_set_value (nf, 0.3);
  g_assert_true (bl_number_field_next_value (nf, -1, &next));
  g_assert_cmpfloat (next, ==, 0.25);
  g_assert_true (gtk_widget_get_sensitive (bl_number_field_get_down_button (nf)));
}

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, sample_set_up, fn, fixture_tear_down)
  ADD ("/ui/field/wheel-scrolls-the-page", test_wheel_scrolls_the_page);
  ADD ("/ui/field/step-from-the-value-shown", test_step_from_the_value_shown);
  ADD ("/ui/field/step-after-undo", test_step_after_undo);
  ADD ("/ui/field/auto-off-offers-computed", test_auto_off_offers_computed);
#undef ADD
  g_test_add_func ("/ui/field/step-sizes", test_step_sizes);
  g_test_add ("/ui/field/included-is-read-only", Fixture, NULL, NULL, test_included_is_read_only, fixture_tear_down);

  return ui_test_run ();
}
