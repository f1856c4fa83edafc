/* test-ui-qa.c: the window used as a demanding user would, on files
 * generated at test time, with real input (tests/ui-input.h): what a
 * look at the application turned up, one test each. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bl-added-mass-editor.h"
#include "bl-inspector.h"
#include "bl-number-field.h"
#include "bl-outline.h"
#include "bl-problems-bar.h"
#include "ui-common.h"
#include "ui-input.h"

#define SDF_HEAD "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n"

static GtkWidget *
inspector (Fixture *f)
{
  return child (f->window, BL_TYPE_WINDOW, "inspector");
}

/* WIDGET lies wholly within SCROLLER's visible part. */
static gboolean
in_view (GtkWidget *widget,
         GtkWidget *scroller)
{
  graphene_rect_t bounds;

  return gtk_widget_get_mapped (widget) && gtk_widget_compute_bounds (widget, scroller, &bounds) &&
         bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller);
}

/* The inspector's limit on the diagnostics it lists (HARDENING.md, "The
 * limits"), and the problems of the link made below. */
#define SHOWN_MAX 50
#define N_PROBLEMS 60
/* Line 1 is the XML declaration, 2 <sdf>, 3 <model>, 4 the clean link,
 * 5 <link name="many">, 6 its <inertial>: collision c<i> is on line 7 + i. */
#define FIRST_COLLISION_LINE 7

/* Model m: link "clean" (a 1 m box, automatic inertia: no problem), then
 * link "many", whose inertia is written out (1 kg, unit moments: valid)
 * and whose N_PROBLEMS collisions, one a line, each have an unknown
 * geometry <nope/>: one "geometry" warning each (DIAGNOSTICS.md), and
 * nothing else (no volume, so no overlap). */
static char *
many_problems_sdf (void)
{
  GString *text = g_string_new (SDF_HEAD "<model name=\"m\">\n"
                                "<link name=\"clean\"><inertial auto=\"true\"/><collision name=\"box\">"
                                "<geometry><box><size>1 1 1</size></box></geometry></collision></link>\n"
                                "<link name=\"many\">\n"
                                "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>"
                                "</inertia></inertial>\n");

  for (guint i = 0; i < N_PROBLEMS; i++)
    g_string_append_printf (text, "<collision name=\"c%u\"><geometry><nope/></geometry></collision>\n", i);
  g_string_append (text, "</link>\n</model>\n</sdf>\n");
  return g_string_free (text, FALSE);
}

/* A link of 60 problems, picked by a click in the outline: its
 * Diagnostics card lists the first 50, in the file's order, then one
 * row "and 10 more problems", which the wheel brings into view. */
static void
test_diagnostics_cut (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *sdf = many_problems_sdf ();
  g_autofree char *more_text = NULL;
  GtkWidget *box, *more, *scroller, *row;
  guint n_rows = 0;

  open_copy (f, NULL, sdf);
  ui_input_focus_window (GTK_WIDGET (f->window));
  /* The window opens on the first link, the clean one. */
  WAIT_UNTIL (bl_inspector_get_link (BL_INSPECTOR (inspector (f))) != NULL);
  g_assert_cmpstr (bl_inspector_get_link (BL_INSPECTOR (inspector (f)))->name, ==, "clean");
  box = child (inspector (f), BL_TYPE_INSPECTOR, "diagnostics_box");
  g_assert_null (find_named (box, "more-diagnostics"));

  click_row (f, "many");
  WAIT_UNTIL (bl_inspector_get_link (BL_INSPECTOR (inspector (f))) != NULL &&
              g_strcmp0 (bl_inspector_get_link (BL_INSPECTOR (inspector (f)))->name, "many") == 0);
  g_assert_cmpstr (bl_inspector_get_link (BL_INSPECTOR (inspector (f)))->name, ==, "many");
  drain ();

  /* The rows: SHOWN_MAX diagnostic rows, collisions c0 … c49 by their
   * lines, then the count of the rest, last. */
  for (row = gtk_widget_get_first_child (box); row != NULL && GTK_IS_GRID (row);
       row = gtk_widget_get_next_sibling (row), n_rows++)
    {
      GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (row), 1, 0);
      g_autofree char *line = g_strdup_printf ("(geometry, line %u)", FIRST_COLLISION_LINE + n_rows);

      g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "unknown geometry <nope>"));
      g_assert_true (g_str_has_suffix (gtk_label_get_text (GTK_LABEL (label)), line));
    }
  g_assert_cmpuint (n_rows, ==, SHOWN_MAX);
  more = find_named (box, "more-diagnostics");
  g_assert_nonnull (more);
  g_assert_true (row == more);
  g_assert_null (gtk_widget_get_next_sibling (more));
  more_text = g_strdup_printf ("and %u more problems (ballast-cli inspect lists them all)", N_PROBLEMS - SHOWN_MAX);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (more)), ==, more_text);

  /* The card is below the page's fold; wheel ticks over the page scroll
   * down to it. */
  scroller = gtk_widget_get_ancestor (box, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_false (in_view (more, scroller));
  for (int i = 0; i < 60 && !in_view (more, scroller); i++)
    {
      ui_input_scroll (scroller, 5);
      drain ();
    }
  g_assert_true (in_view (more, scroller));
}

/* The same link with, last, a collision whose density cannot be read (an
 * error): the card showed the first 50 diagnostics in check order, 50
 * warnings, and the error was among the 11 cut.  Errors come first now,
 * then the warnings in the link's order. */
static void
test_diagnostics_errors_first (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *many = many_problems_sdf ();
  g_autoptr(GString) sdf = g_string_new (many);
  GtkWidget *box, *row;
  guint n_rows = 0;

  g_string_replace (sdf, "</link>\n</model>",
                    "<collision name=\"bad\"><density>abc</density><geometry><box><size>1 1 1</size></box>"
                    "</geometry></collision>\n</link>\n</model>", 1);
  open_copy (f, NULL, sdf->str);
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (bl_inspector_get_link (BL_INSPECTOR (inspector (f))) != NULL);
  click_row (f, "many");
  WAIT_UNTIL (g_strcmp0 (bl_inspector_get_link (BL_INSPECTOR (inspector (f)))->name, "many") == 0);
  drain ();

  box = child (inspector (f), BL_TYPE_INSPECTOR, "diagnostics_box");
  for (row = gtk_widget_get_first_child (box); row != NULL && GTK_IS_GRID (row);
       row = gtk_widget_get_next_sibling (row), n_rows++)
    {
      const char *text = gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (row), 1, 0)));
      g_autofree char *line = g_strdup_printf ("(geometry, line %u)", FIRST_COLLISION_LINE + n_rows - 1);

      if (n_rows == 0)
        {
          g_autofree char *error_line = g_strdup_printf ("(number, line %u)", FIRST_COLLISION_LINE + N_PROBLEMS);

          g_assert_nonnull (strstr (text, "“abc”"));
          g_assert_true (g_str_has_suffix (text, error_line));
        }
      else
        g_assert_true (g_str_has_suffix (text, line));
    }
  g_assert_cmpuint (n_rows, ==, SHOWN_MAX);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_named (box, "more-diagnostics"))), ==,
                   "and 11 more problems (ballast-cli inspect lists them all)");
}

/* The validity line of the link clicked in the outline, once shown. */
static const char *
validity_of (Fixture    *f,
             const char *link_name)
{
  GtkWidget *label = child (inspector (f), BL_TYPE_INSPECTOR, "validity_label");

  click_row (f, link_name);
  WAIT_UNTIL (g_strcmp0 (bl_inspector_get_link (BL_INSPECTOR (inspector (f)))->name, link_name) == 0);
  g_assert_cmpstr (bl_inspector_get_link (BL_INSPECTOR (inspector (f)))->name, ==, link_name);
  drain ();
  return gtk_label_get_text (GTK_LABEL (label));
}

/* The outline row of link NAME shows SUBTITLE in place of its mass, and
 * its tooltip starts with TOOLTIP. */
static void
assert_outline_row (Fixture    *f,
                    const char *name,
                    const char *subtitle,
                    const char *tooltip)
{
  GtkWidget *label = find_label (child (f->window, BL_TYPE_WINDOW, "outline"), name);
  GtkWidget *row_box = label != NULL ? gtk_widget_get_parent (label) : NULL;

  g_assert_nonnull (row_box);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_next_sibling (label))), ==, subtitle);
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (row_box), tooltip));
}

/* lrauv's tethys model is a template: its base_link writes its inertia
 * out (no auto) with <mass>@calculated</mass>.  The inspector said "The
 * automatic inertia could not be computed from the collisions" of it, of
 * a link whose inertia is not automatic.  A value that cannot be read
 * makes a link's numbers untrustworthy, automatic or not, and the line
 * says so; a failed automatic inertia (no collision: D1) keeps its own
 * words. */
static void
test_unreadable_value_validity (Fixture       *f,
                                gconstpointer  data)
{
  const char *unreadable = "Invalid inertia: A value could not be read (see Diagnostics), "
                           "so these numbers cannot be trusted.";

  open_copy (f, NULL,
             SDF_HEAD "<model name=\"m\">\n"
             "<link name=\"clean\"><inertial auto=\"true\"/><collision name=\"box\">"
             "<geometry><box><size>1 1 1</size></box></geometry></collision></link>\n"
             "<link name=\"templated\"><inertial><pose>@calculated</pose><mass>@calculated</mass>"
             "<inertia><ixx>3</ixx><iyy>42</iyy><izz>42</izz></inertia></inertial></link>\n"
             "<link name=\"auto_nan\"><inertial auto=\"true\"/><collision name=\"box\"><density>nan</density>"
             "<geometry><box><size>1 1 1</size></box></geometry></collision></link>\n"
             "<link name=\"auto_empty\"><inertial auto=\"true\"/></link>\n"
             "</model>\n</sdf>\n");
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (bl_inspector_get_link (BL_INSPECTOR (inspector (f))) != NULL);

  g_assert_cmpstr (validity_of (f, "templated"), ==, unreadable);
  g_assert_cmpstr (validity_of (f, "auto_nan"), ==, unreadable);
  g_assert_cmpstr (validity_of (f, "auto_empty"), ==,
                   "Invalid inertia: The automatic inertia could not be computed from the collisions.");
  g_assert_cmpstr (validity_of (f, "clean"), ==, "Valid inertia");

  /* The outline's rows say the same in short (they said "unresolved", and
   * "The inertia could not be computed" of the templated link). */
  assert_outline_row (f, "templated", "unreadable value",
                      "A value could not be read, so the numbers cannot be trusted");
  assert_outline_row (f, "auto_nan", "unreadable value",
                      "A value could not be read, so the numbers cannot be trusted");
  assert_outline_row (f, "auto_empty", "not computed", "The automatic inertia could not be computed");

  /* The Mass field was empty and said nothing of them; it says the same,
   * and − / + have no number to step from. */
  {
    BlNumberField *mass = BL_NUMBER_FIELD (child (inspector (f), BL_TYPE_INSPECTOR, "mass_field"));
    const char *links[][2] = { { "templated", "unreadable value" }, { "auto_empty", "not computed" } };

    for (guint i = 0; i < G_N_ELEMENTS (links); i++)
      {
        validity_of (f, links[i][0]);
        g_assert_true (bl_number_field_get_empty (mass));
        g_assert_cmpstr (bl_number_field_get_placeholder_text (mass), ==, links[i][1]);
        g_assert_cmpstr (gtk_text_get_placeholder_text (GTK_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (mass)))),
                         ==, links[i][1]);
        g_assert_false (gtk_widget_get_sensitive (bl_number_field_get_up_button (mass)));
        g_assert_false (gtk_widget_get_sensitive (bl_number_field_get_down_button (mass)));
      }
  }
}

static BlLink *
shown_link (Fixture *f)
{
  return bl_inspector_get_link (BL_INSPECTOR (inspector (f)));
}

/* The built-in sample (data/sample.sdf) as a file of its own, edited as a
 * user would, all by real clicks and keys: the hull's collision hull_body
 * 940 → 1000 kg/m³, automatic inertia turned on for the thruster (its
 * inertial written out), the hull's added-mass coefficient xx 7.3 → 8.5
 * kg; Ctrl+Z takes back the xx, Ctrl+Shift+Z redoes it; Ctrl+S saves.
 * The file differs from the original in exactly those three places, and
 * reads back with those values. */
static void
test_edit_save_round_trip (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GBytes) sample = g_resources_lookup_data ("/app/ballast/Ballast/models/sample.sdf", 0, NULL);
  g_autofree char *text = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *step1 = NULL, *step2 = NULL, *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) reread = NULL;
  GtkWidget *editor, *cell, *density, *auto_switch;
  BlLink *hull, *thruster;

  g_assert_nonnull (sample);
  text = g_strndup (g_bytes_get_data (sample, NULL), g_bytes_get_size (sample));
  open_copy (f, NULL, text);
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (shown_link (f) != NULL);
  g_assert_cmpstr (shown_link (f)->name, ==, "hull");
  hull = shown_link (f);

  /* The collision density, typed. */
  density = find_named (inspector (f), "collision-density-hull_body");
  g_assert_nonnull (density);
  type_for_real (density, "1000");
  WAIT_UNTIL (((BlCollision *) g_ptr_array_index (hull->collisions, 0))->density == 1000.0);
  g_assert_cmpfloat (((BlCollision *) g_ptr_array_index (hull->collisions, 0))->density, ==, 1000.0);

  /* Automatic inertia on for the thruster, by a click on the switch. */
  click_row (f, "thruster");
  WAIT_UNTIL (g_strcmp0 (shown_link (f)->name, "thruster") == 0);
  thruster = shown_link (f);
  g_assert_false (thruster->auto_inertia);
  auto_switch = child (inspector (f), BL_TYPE_INSPECTOR, "auto_switch");
  point_at (auto_switch);
  past_double_click ();
  ui_input_click (auto_switch, 1);
  WAIT_UNTIL (thruster->auto_inertia);
  g_assert_true (thruster->auto_inertia);

  /* The hull's xx on the Added Mass page, typed. */
  click_row (f, "hull");
  WAIT_UNTIL (shown_link (f) == hull);
  show_side_page (f, "Added Mass", "added-mass");
  editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  cell = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 0, 0);
  g_assert_cmpfloat (hull->added_mass[0], ==, 7.3);
  type_for_real (cell, "8.5");
  WAIT_UNTIL (hull->added_mass[0] == 8.5);
  g_assert_cmpfloat (hull->added_mass[0], ==, 8.5);

  /* Undo takes back the last edit alone, redo makes it again. */
  ui_input_key (GDK_KEY_z, GDK_CONTROL_MASK);
  WAIT_UNTIL (hull->added_mass[0] == 7.3);
  g_assert_cmpfloat (hull->added_mass[0], ==, 7.3);
  g_assert_true (thruster->auto_inertia);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (cell)), ==, "7.3");
  ui_input_key (GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  WAIT_UNTIL (hull->added_mass[0] == 8.5);
  g_assert_cmpfloat (hull->added_mass[0], ==, 8.5);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (cell)), ==, "8.5");

  ui_input_key (GDK_KEY_s, GDK_CONTROL_MASK);
  WAIT_UNTIL (!bl_window_get_modified (f->window));
  g_assert_false (bl_window_get_modified (f->window));

  /* The three edits, nothing else. */
  g_assert_true (g_file_get_contents (f->path, &saved, NULL, &error));
  g_assert_no_error (error);
  step1 = replace_after (f->original, "<collision name=\"hull_body\">", "<density>940</density>",
                         "<density>1000</density>");
  step2 = replace_after (step1, "<link name=\"thruster\">", "<inertial>", "<inertial auto=\"true\">");
  expected = replace_after (step2, "<fluid_added_mass>", "<xx>7.3</xx>", "<xx>8.5</xx>");
  g_assert_cmpstr (saved, ==, expected);

  /* Read back as a new document: the values edited. */
  reread = bl_document_new_from_file (f->path, &error);
  g_assert_no_error (error);
  hull = bl_document_find_link (reread, "sample_auv::hull");
  thruster = bl_document_find_link (reread, "sample_auv::thruster");
  g_assert_cmpfloat (((BlCollision *) g_ptr_array_index (hull->collisions, 0))->density, ==, 1000.0);
  g_assert_cmpfloat (hull->added_mass[0], ==, 8.5);
  g_assert_true (thruster->auto_inertia);
}

/* WIDGET lies wholly within the width of OUTER. */
static gboolean
within_width (GtkWidget *widget,
              GtkWidget *outer)
{
  graphene_rect_t bounds;

  return gtk_widget_compute_bounds (widget, outer, &bounds) && bounds.origin.x >= 0 &&
         bounds.origin.x + bounds.size.width <= gtk_widget_get_width (outer) + 0.5;
}

/* A window of 800×600 (a small laptop screen, a VM's default): it could
 * not be narrower than 842 px (the 3D view asked for 360 of them), and
 * the Mass page did not fit.  Now the window is 800 px wide, a link
 * clicked in the outline shows its whole Mass page without scrolling
 * sideways, and the 3D view's legend stays within the view (it was cut
 * at its left, swatches first). */
static void
test_small_window (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *viewport_box, *legend;

  open_sized (f, FIXTURE, NULL, 800, 600);
  click_row (f, "link_2");
  WAIT_UNTIL (g_strcmp0 (shown_link (f)->name, "link_2") == 0);
  g_assert_cmpstr (shown_link (f)->name, ==, "link_2");
  assert_page_fits (child (inspector (f), BL_TYPE_INSPECTOR, "link_scroller"), "link_2 at 800×600");

  viewport_box = child (f->window, BL_TYPE_WINDOW, "viewport_box");
  g_assert_cmpint (gtk_widget_get_width (viewport_box), >=, 150);
  legend = find_named (GTK_WIDGET (f->window), "legend");
  g_assert_nonnull (legend);
  g_assert_true (gtk_widget_get_mapped (legend));
  g_assert_true (within_width (legend, viewport_box));
}

/* The same window with the problems bar above the 3D view (an include
 * whose model is in no folder): the bar asked for 434 px at least (its
 * buttons beside the text, a long model name unbroken in the hint), and
 * the window came out 916–931 px wide.  Now the buttons go under the text
 * when the bar is narrow, the hint breaks inside a long name, and the
 * window keeps its 800 px with the bar and both buttons shown. */
static void
test_small_window_problems (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *bar, *add, *details;

  open_sized (f, NULL,
              SDF_HEAD "<world name=\"w\">\n"
              "<include><uri>model://a_model_whose_name_is_rather_long_for_one_line</uri></include>\n"
              "<model name=\"m\"><link name=\"l\"><inertial auto=\"true\"/><collision name=\"c\"><geometry>"
              "<box><size>1 1 1</size></box></geometry></collision></link></model>\n</world>\n</sdf>\n",
              800, 600);
  bar = find_by_type (GTK_WIDGET (f->window), BL_TYPE_PROBLEMS_BAR);
  WAIT_UNTIL (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (bar)) && gtk_widget_get_mapped (bar));
  drain ();
  g_assert_true (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (bar)));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 800);
  add = child (bar, BL_TYPE_PROBLEMS_BAR, "add_path_button");
  details = child (bar, BL_TYPE_PROBLEMS_BAR, "details_button");
  g_assert_true (gtk_widget_get_mapped (add));
  g_assert_true (gtk_widget_get_mapped (details));
  g_assert_true (within_width (add, bar));
  g_assert_true (within_width (details, bar));
}

/* A window opened wide (1380 px: the outline 276 px, the inspector
 * 480) and then made narrow (820 px) by its edge: the 3D view went to
 * its minimum, then the inspector was squeezed (its Mass page scrolled
 * sideways, the units cut) while the outline kept 280 px with room to
 * spare.  Now the outline gives first, down to its own minimum: the Mass
 * page of the hull fits again. */
static void
test_narrowed_window (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *outline;
  int outline_min;

  open_sized (f, FIXTURE, NULL, 1380, 860);
  click_row (f, "link_2");
  WAIT_UNTIL (g_strcmp0 (shown_link (f)->name, "link_2") == 0);
  outline = child (f->window, BL_TYPE_WINDOW, "outline");
  g_assert_cmpint (gtk_widget_get_width (outline), >=, 250);

  ui_input_resize (GTK_WIDGET (f->window), 820, 700);
  WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (f->window)) <= 820);
  drain ();
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 820);
  gtk_widget_measure (outline, GTK_ORIENTATION_HORIZONTAL, -1, &outline_min, NULL, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_width (outline), >=, outline_min);
  g_assert_cmpint (gtk_widget_get_width (outline), <, 250);
  assert_page_fits (child (inspector (f), BL_TYPE_INSPECTOR, "link_scroller"), "link_2 narrowed to 820 px");
}

/* Fails unless the number field CELL shows its whole text: a number cut
 * at the cell's edge reads as another number. */
static void
assert_text_whole (GtkWidget  *cell,
                   const char *when)
{
  GtkWidget *text = GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (cell)));
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (text, gtk_editable_get_text (GTK_EDITABLE (cell)));
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  if (width > gtk_widget_get_width (text))
    g_error ("%s: the cell “%s” shows %d px of its %d px", when, gtk_editable_get_text (GTK_EDITABLE (cell)),
             gtk_widget_get_width (text), width);
}

/* Link "body::hull" with written inertia (the gz-sim test world's Tethys:
 * 147.8671 kg, moments 3, 41.980233, 41.980233) and the added mass its
 * Hydrodynamics plugin gives (xx 4.876161, yy = zz 126.324739, qq = rr
 * 33.46, pp 0: "zero about p"), or the built-in sample's hull's values
 * when SHORT. */
static char *
added_mass_sdf (gboolean short_values)
{
  return g_strdup_printf (SDF_HEAD "<model name=\"body\">\n"
                          "<link name=\"hull\"><inertial><mass>147.8671</mass><inertia><ixx>3</ixx>"
                          "<iyy>41.980233</iyy><izz>41.980233</izz></inertia>\n"
                          "<fluid_added_mass><xx>%s</xx><yy>%s</yy><zz>%s</zz><pp>%s</pp><qq>%s</qq><rr>%s</rr>"
                          "</fluid_added_mass></inertial>\n"
                          "<collision name=\"c\"><geometry><cylinder><radius>0.12</radius><length>2.6</length>"
                          "</cylinder></geometry></collision></link>\n</model>\n</sdf>\n",
                          short_values ? "7.3" : "4.876161", short_values ? "120" : "126.324739",
                          short_values ? "120" : "126.324739", short_values ? "0.1" : "0",
                          short_values ? "14.2" : "33.46", short_values ? "14.2" : "33.46");
}

/* Opens the Added Mass page of the link clicked in the outline, and
 * checks that the page fits its pane and every cell shows its whole
 * number. */
static void
assert_added_mass_page_whole (Fixture    *f,
                              const char *when)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");

  click_row (f, "hull");
  WAIT_UNTIL (g_strcmp0 (shown_link (f)->name, "hull") == 0);
  show_side_page (f, "Added Mass", "added-mass");
  drain ();
  assert_page_fits (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "scroller"), when);
  for (guint r = 0; r < 6; r++)
    for (guint c = 0; c < 6; c++)
      assert_text_whole (bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), r, c), when);
}

typedef struct
{
  gboolean    short_values;
  int         width, height;
  const char *when;
} AddedMassPageCase;

/* The Added Mass page, its link clicked in the outline:
 *  - at the window's default size, 1280×800, with the added mass of
 *    gz-sim's Tethys: the cells showed "126.32473" for 126.324739 (8
 *    characters wide), and the eigenvalues' verdict ("positive
 *    semi-definite: zero about p, exact about the axis of a body of
 *    revolution") did not wrap, so the page scrolled sideways with the
 *    matrix's last column out of view;
 *  - at 1024×700, the smallest layout Ballast is made for (README), with
 *    short values (the sample's hull): its last column was cut off. */
static void
test_added_mass_page (Fixture       *f,
                      gconstpointer  data)
{
  const AddedMassPageCase *c = data;
  g_autofree char *sdf = added_mass_sdf (c->short_values);

  open_sized (f, NULL, sdf, c->width, c->height);
  assert_added_mass_page_whole (f, c->when);
}

/* lrauv's buoyant_tethys world includes tethys_equipped, whose model.sdf
 * includes a model that is not there (a template's output): the bar said
 * "model.sdf, line 13", a line of another file than the world opened, by
 * the name every Gazebo model has.  A problem of an included file is
 * placed by its folder's name too, in the bar and in Details (opened by
 * a click); one of the open file by its name alone. */
static void
test_included_file_location (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *outer_dir = NULL, *outer = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *details;
  GtkPopover *popover;

  open_copy (f, NULL, "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\"><world name=\"w\"><model name=\"buoy\">"
                      "<link name=\"l\"/></model></world></sdf>\n");
  outer_dir = g_build_filename (f->dir, "equipped", NULL);
  g_assert_cmpint (g_mkdir (outer_dir, 0700), ==, 0);
  outer = g_build_filename (outer_dir, "model.sdf", NULL);
  /* line 3: the include of a model that is nowhere */
  g_assert_true (g_file_set_contents (outer, "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\"><model name=\"equipped\">\n"
                                             "<include><uri>model://ghost</uri></include>\n"
                                             "<link name=\"part\"/></model></sdf>\n", -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (f->path, "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n<world name=\"w\">\n"
                                               "<include><uri>model://equipped</uri></include>\n"
                                               "<model name=\"buoy\"><link name=\"l\"/></model>\n"
                                               "</world>\n</sdf>\n", -1, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GFile) file = g_file_new_for_path (f->path);

    g_assert_true (bl_window_load_file (f->window, file, &error));
    g_assert_no_error (error);
  }
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (bar_shown (f));
  g_assert_true (bar_shown (f));
  g_test_message ("%s", bar_text (f, "message_label"));
  g_assert_true (g_str_has_prefix (bar_text (f, "message_label"), "equipped/model.sdf, line 3: "));

  details = child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "equipped/model.sdf, line 3"));
  gtk_popover_popdown (popover);
  drain ();
}

/* Opens model "m": link "first" (a 1 m sphere of 500 kg/m³, on which the
 * window opens), then the links LINKS (SDF text, line 5 on), and picks
 * link NAME by a click in the outline. */
static void
open_and_pick (Fixture    *f,
               const char *links,
               const char *name)
{
  g_autofree char *sdf = g_strconcat (SDF_HEAD "<model name=\"m\">\n"
                                      "<link name=\"first\"><inertial auto=\"true\"/><collision name=\"c\">"
                                      "<density>500</density><geometry><sphere><radius>1</radius></sphere>"
                                      "</geometry></collision></link>\n",
                                      links, "</model>\n</sdf>\n", NULL);

  open_copy (f, NULL, sdf);
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (shown_link (f) != NULL);
  click_row (f, name);
  WAIT_UNTIL (g_strcmp0 (shown_link (f)->name, name) == 0);
  g_assert_cmpstr (shown_link (f)->name, ==, name);
  drain ();
}

/* The text of the diagnostics card's rows, top to bottom, in ROWS. */
static void
diagnostic_texts (Fixture   *f,
                  GPtrArray *rows)
{
  GtkWidget *box = child (inspector (f), BL_TYPE_INSPECTOR, "diagnostics_box");

  for (GtkWidget *row = gtk_widget_get_first_child (box); row != NULL && GTK_IS_GRID (row);
       row = gtk_widget_get_next_sibling (row))
    g_ptr_array_add (rows, g_strdup (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (row), 1, 0)))));
}

/* The built-in sample's hull lists "overlaps “hull_body” (by bounding
 * boxes): …": which collision overlaps it only its line said (battery's).
 * Link "hull" (500 kg/m³): boxes "shell" (1 m at the origin, line 5) and
 * "battery" (0.2 m inside it, line 6: an overlap warning on battery,
 * naming shell, its only diagnostic); link "other" (inertia written out):
 * collision "bare" without <geometry> (line 8: a warning whose message
 * names it).  The card, after a click on the link in the outline, and the
 * outline row's tooltip name the collision that overlaps; a message that
 * names its collision already is as it was. */
static void
test_diagnostic_names_collision (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) other_rows = g_ptr_array_new_with_free_func (g_free);
  const char *overlap = "collision “battery”: overlaps “shell” (by bounding boxes): the shared volume counts "
                        "twice in the buoyancy and, as in libsdformat, in the automatic inertia";
  g_autofree char *overlap_row = g_strdup_printf ("%s (overlap, line 6)", overlap);
  GtkWidget *row_box;

  open_and_pick (f,
                 "<link name=\"hull\"><inertial auto=\"true\"><density>500</density></inertial>"
                 "<collision name=\"shell\"><geometry><box><size>1 1 1</size></box></geometry></collision>\n"
                 "<collision name=\"battery\"><geometry><box><size>0.2 0.2 0.2</size></box></geometry></collision>\n"
                 "</link>\n"
                 "<link name=\"other\"><collision name=\"bare\"/>\n"
                 "</link>\n", "hull");
  diagnostic_texts (f, rows);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (rows, 0), ==, overlap_row);
  /* The outline row's tooltip: its worst problem. */
  row_box = gtk_widget_get_parent (find_label (child (f->window, BL_TYPE_WINDOW, "outline"), "hull"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (row_box), ==, overlap);

  click_row (f, "other");
  WAIT_UNTIL (g_strcmp0 (shown_link (f)->name, "other") == 0);
  drain ();
  diagnostic_texts (f, other_rows);
  g_assert_cmpuint (other_rows->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (other_rows, 0), ==,
                   "collision “bare” has no <geometry>: read as an empty one, as libsdformat reads it "
                   "(geometry, line 8)");
}

/* `ballast broken.sdf` (gazebo_models' submarine_buoyant has an attribute
 * without quotes, line 77), as a file manager's "Open With" runs it: the
 * window showed the built-in sample and said nothing (the reason went to
 * a terminal nobody reads).  It says why in a dialog over the window,
 * closed by a click, and shows the sample. */
static void
test_open_broken_from_command_line (Fixture       *f,
                                    gconstpointer  data)
{
  g_autoptr(BlApplication) application = register_application ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *primary = NULL, *secondary = NULL, *expected = NULL;
  GtkMessageDialog *dialog;
  GFile *files[1];

  f->dir = g_dir_make_tmp ("ballast-ui-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "broken.sdf", NULL);
  g_assert_true (g_file_set_contents (f->path, "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n"
                                               "<model name=\"m\"><link name=l></link></model>\n</sdf>\n", -1, &error));
  g_assert_no_error (error);
  file = g_file_new_for_path (f->path);
  files[0] = file;
  g_application_open (G_APPLICATION (application), files, 1, "");

  dialog = wait_for_message_dialog ();
  f->window = BL_WINDOW (gtk_window_get_transient_for (GTK_WINDOW (dialog)));
  g_assert_true (BL_IS_WINDOW (f->window));
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  g_object_get (dialog, "text", &primary, "secondary-text", &secondary, NULL);
  expected = g_strdup_printf ("Could not open “%s”", f->path);
  g_assert_cmpstr (primary, ==, expected);
  g_test_message ("%s", secondary);
  g_assert_nonnull (strstr (secondary, "broken.sdf:3: not well-formed XML"));

  answer_dialog (dialog, GTK_RESPONSE_CLOSE);
  WAIT_UNTIL (find_dialog (GTK_TYPE_MESSAGE_DIALOG) == NULL);
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "Sample AUV — Ballast");
  g_assert_cmpstr (shown_link (f)->name, ==, "hull");
}

/* A user of a locale that writes 1,5 types "1,5" into the link density
 * (real keys): refused with "Not a finite number", as if the text were
 * nonsense.  The message says what to write; nothing is applied; then
 * "1.5" is. */
static void
test_decimal_comma (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GBytes) sample = g_resources_lookup_data ("/app/ballast/Ballast/models/sample.sdf", 0, NULL);
  g_autofree char *text = g_strndup (g_bytes_get_data (sample, NULL), g_bytes_get_size (sample));
  GtkWidget *field;
  BlLink *hull;

  open_copy (f, NULL, text);
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (shown_link (f) != NULL);
  hull = shown_link (f);
  g_assert_cmpstr (hull->name, ==, "hull");
  field = child (inspector (f), BL_TYPE_INSPECTOR, "density_field");

  for (guint i = 0; i < 2; i++)
    {
      type_for_real (field, i == 0 ? "1,5" : "1,500");
      g_assert_cmpstr (bl_number_field_get_error (BL_NUMBER_FIELD (field)), ==,
                       "Write numbers with a decimal point and no separators, such as 1500.5");
      g_assert_cmpfloat (hull->density, ==, 600.0);
      g_assert_false (bl_window_get_modified (f->window));
    }
  type_for_real (field, "abc");
  g_assert_cmpstr (bl_number_field_get_error (BL_NUMBER_FIELD (field)), ==, "Not a finite number");

  type_for_real (field, "1.5");
  WAIT_UNTIL (hull->density == 1.5);
  g_assert_cmpfloat (hull->density, ==, 1.5);
  g_assert_null (bl_number_field_get_error (BL_NUMBER_FIELD (field)));
}

/* sdformat's inertial_invalid.sdf: a link of mass -1 kg.  The Buoyancy
 * card said "Net buoyancy 9.80665 N" (−(−1 kg)·g, up) of it; with a 1 m
 * box it said "Rises: it displaces 1026 kg of fluid more than its own
 * mass".  A mass that is not positive has no weight to set the buoyancy
 * against: no net force, and the verdict says why.  Link "negative"
 * (picked by a click in the outline): mass -1, the box; displaced volume
 * still 1 m³. */
static void
test_negative_mass_buoyancy (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *grid;

  open_and_pick (f,
                 "<link name=\"negative\"><inertial><mass>-1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>"
                 "</inertia></inertial>\n"
                 "<collision name=\"box\"><geometry><box><size>1 1 1</size></box></geometry></collision></link>\n",
                 "negative");
  grid = child (inspector (f), BL_TYPE_INSPECTOR, "buoyancy_grid");
  assert_label_near (grid_cell (grid, 3, 0), 1.0);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 3, 4))), ==, "—");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5))), ==,
                   "The mass is not positive: there is no weight to set the buoyancy against.");
}

/* The 3D view's menu listed Fit All, Front… without their keys (Home, F,
 * 1, 3, 7, 9: the Keyboard Shortcuts window lists them); the main menu
 * shows its own.  Opened by a click, each item shows its key; and the
 * keys stay the view's: "1379" typed into a number field afterwards goes
 * into the field. */
static void
test_view_menu_keys (Fixture       *f,
                     gconstpointer  data)
{
  static const char * const items[][2] = {
    { "Fit All", "Home" }, { "Fit Selection", "F" }, { "Front", "1" },
    { "Side", "3" }, { "Top", "7" }, { "Isometric", "9" },
  };
  GtkWidget *popover, *field;
  BlLink *link;

  open_and_pick (f, "<link name=\"l\"><inertial auto=\"true\"><density>500</density></inertial>"
                    "<collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link>\n",
                 "l");
  link = shown_link (f);
  popover = open_menu (find_named (GTK_WIDGET (f->window), "view-menu-button"));
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      GtkWidget *item = find_menu_item (popover, items[i][0]);

      g_assert_nonnull (item);
      if (find_label (item, items[i][1]) == NULL)
        g_error ("the view menu's “%s” shows no “%s”", items[i][0], items[i][1]);
    }
  ui_input_key (GDK_KEY_Escape, 0);
  WAIT_UNTIL (!gtk_widget_get_mapped (popover));
  g_assert_false (gtk_widget_get_mapped (popover));

  field = child (inspector (f), BL_TYPE_INSPECTOR, "density_field");
  type_for_real (field, "1379");
  WAIT_UNTIL (link->density == 1379.0);
  g_assert_cmpfloat (link->density, ==, 1379.0);
}

/* An import from gz-sim's Hydrodynamics plugin (the gz-sim test world's
 * Tethys terms) showed its proposal as 36 bare numbers, the matrix with
 * its axes scrolled away above: which was xx, which qq, the user had to
 * count.  The proposal, opened by clicks (the link in the outline, the
 * page's tab, Import from Plugin), has the axes above and beside it, and
 * the proposed xx (4.876161, the plugin's -xDotU) under x, beside x. */
static void
test_proposal_axes (Fixture       *f,
                    gconstpointer  data)
{
  static const char * const axes[] = { "x", "y", "z", "p", "q", "r" };
  GtkWidget *editor, *grid, *xx;

  open_and_pick (f,
                 "<link name=\"hull\"><inertial><mass>147.8671</mass><inertia><ixx>3</ixx><iyy>41.980233</iyy>"
                 "<izz>41.980233</izz></inertia></inertial>\n"
                 "<collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link>\n"
                 "<plugin filename=\"gz-sim-hydrodynamics-system\" name=\"gz::sim::systems::Hydrodynamics\">"
                 "<link_name>hull</link_name><xDotU>-4.876161</xDotU><yDotV>-126.324739</yDotV>"
                 "<zDotW>-126.324739</zDotW><kDotP>0</kDotP><mDotQ>-33.46</mDotQ><nDotR>-33.46</nDotR></plugin>\n",
                 "hull");
  show_side_page (f, "Added Mass", "added-mass");
  editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  point_at (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "import_button"));
  ui_input_click (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "import_button"), 1);
  WAIT_UNTIL (gtk_revealer_get_child_revealed (GTK_REVEALER (child (editor, BL_TYPE_ADDED_MASS_EDITOR,
                                                                     "proposal_revealer"))));
  drain ();

  grid = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "proposal_grid");
  g_assert_true (gtk_widget_get_mapped (grid));
  for (guint i = 0; i < 6; i++)
    {
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 1 + i, 0))), ==, axes[i]);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 0, 1 + i))), ==, axes[i]);
    }
  xx = gtk_grid_get_child_at (GTK_GRID (grid), 1, 1);
  g_test_message ("%s", gtk_label_get_text (GTK_LABEL (xx)));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (xx)), "4.876"));
}

/* dave's eROV is a static model of a 7.8 m³ box: its Buoyancy card said
 * "Rises: it displaces 7969.4 kg of fluid more than its own mass"; a
 * static model never moves (DIAGNOSTICS.md gives it no volume or overlap
 * warnings for that reason).  World: model "free" (a 1 m box of 500
 * kg/m³), then static model "rov" whose link "frame" (1 kg) has a 1 m
 * box; "frame" picked by a click in the outline: the verdict says it
 * stays put; the net force (1025 − 1 kg)·9.8 m/s² stays shown. */
static void
test_static_buoyancy (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *grid;

  open_copy (f, NULL,
             SDF_HEAD "<world name=\"w\">\n"
             "<model name=\"free\"><link name=\"l\"><inertial auto=\"true\"><density>500</density></inertial>"
             "<collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>\n"
             "<model name=\"rov\"><static>true</static><link name=\"frame\"><inertial><mass>1</mass><inertia>"
             "<ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>"
             "<collision name=\"c\"><geometry><box><size>1 1 1</size></box></geometry></collision></link></model>\n"
             "</world>\n</sdf>\n");
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (shown_link (f) != NULL);
  g_assert_cmpstr (shown_link (f)->name, ==, "l");
  grid = child (inspector (f), BL_TYPE_INSPECTOR, "buoyancy_grid");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5))), "Rises"));

  click_row (f, "frame");
  WAIT_UNTIL (g_strcmp0 (shown_link (f)->name, "frame") == 0);
  drain ();
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5))), ==,
                   "The model is static: it stays where it is placed, whatever its buoyancy.");
  /* a world without <gravity> has SDF's default, 0 0 -9.8 */
  assert_label_near (grid_cell (grid, 3, 4), (1025.0 - 1.0) * 9.8);
}

/* The text under the fluid density of the link's Buoyancy card. */
static const char *
fluid_note (Fixture *f)
{
  GtkWidget *grid = child (inspector (f), BL_TYPE_INSPECTOR, "buoyancy_grid");
  GtkWidget *label = gtk_widget_get_last_child (grid_cell (grid, 0, 3));

  return gtk_widget_get_visible (label) ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}

/* A world of PLUGINS (on line 4) and a sphere r 0.5 of automatic
 * inertia, of DENSITY kg/m³ (NULL: the default); valid until the next
 * call. */
static const char *
ball_world (const char *plugins,
            const char *density)
{
  static char *text;

  g_free (text);
  text = g_strdup_printf (SDF_HEAD "<world name=\"w\">\n%s"
                          "<model name=\"ball\"><link name=\"l\"><inertial auto=\"true\">%s%s%s</inertial>"
                          "<collision name=\"c\"><geometry><sphere><radius>0.5</radius></sphere></geometry>"
                          "</collision></link></model>\n</world>\n</sdf>\n", plugins,
                          density != NULL ? "<density>" : "", density != NULL ? density : "",
                          density != NULL ? "</density>" : "");
  return text;
}

/* TEXT written to another file of the fixture's folder and opened in its
 * window; back once that file's first link is shown. */
static void
open_another (Fixture    *f,
              const char *text)
{
  g_autofree char *path = g_build_filename (f->dir, "another.sdf", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  BlDocument *before = bl_window_get_document (f->window);

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (bl_window_load_file (f->window, file, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (bl_window_get_document (f->window) != before && shown_link (f) != NULL);
  drain ();
}

/* gz-sim's buoyancy.sdf says <uniform_fluid_density>1000 in its world's
 * Buoyancy system; the Buoyancy card took the default, 1025, and called
 * bodies built neutral in that water "Rises" (lighter_than_air_blimp.sdf's
 * air of 1.097 kg/m³ made its blimp sink).  The world's fluid is now the
 * window's, and the card says where it comes from: a sphere r 0.5 of
 * 1000 kg/m³ is neutral.  A density typed into the card (real clicks and
 * keys) is for this file only, the card then saying what the world uses;
 * the default (here air) is left alone.  A file whose world names no
 * fluid takes the default, and there a typed density is the new default. */
static void
test_world_fluid (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSettings) settings = bl_application_settings_new ();
  GtkWidget *grid, *field;
  GtkLabel *editor_note;

  g_settings_set_double (settings, "fluid-density", BL_FLUID_DENSITY_AIR);
  open_copy (f, NULL, ball_world ("<plugin filename=\"gz-sim-buoyancy-system\" name=\"gz::sim::systems::Buoyancy\">"
                                  "<uniform_fluid_density>1000</uniform_fluid_density></plugin>\n", "1000"));
  ui_input_focus_window (GTK_WIDGET (f->window));
  WAIT_UNTIL (shown_link (f) != NULL);
  drain ();
  grid = child (inspector (f), BL_TYPE_INSPECTOR, "buoyancy_grid");
  field = grid_cell (grid, 1, 2);
  g_assert_true (BL_IS_NUMBER_FIELD (field));
  g_assert_cmpfloat (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector (f))), ==, 1000.0);
  g_assert_cmpstr (fluid_note (f), ==, "From the world’s Buoyancy system, line 4");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5))), ==, "Neutrally buoyant.");
  /* the Added Mass page says the same under its field */
  editor_note = GTK_LABEL (child (child (f->window, BL_TYPE_WINDOW, "added_mass_editor"),
                                  BL_TYPE_ADDED_MASS_EDITOR, "fluid_note"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor_note)));
  g_assert_cmpstr (gtk_label_get_text (editor_note), ==, "From the world’s Buoyancy system, line 4");

  type_for_real (field, "1025");
  WAIT_UNTIL (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector (f))) == 1025.0);
  g_assert_cmpfloat (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector (f))), ==, 1025.0);
  g_assert_cmpstr (fluid_note (f), ==, "The world’s Buoyancy system (line 4) uses 1000 kg/m³");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5))), "Rises"));
  g_assert_cmpfloat (g_settings_get_double (settings, "fluid-density"), ==, BL_FLUID_DENSITY_AIR);
  g_assert_false (bl_window_get_modified (f->window));

  /* a file whose world has no Buoyancy system */
  open_another (f, ball_world ("", NULL));
  g_assert_cmpfloat (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector (f))), ==, BL_FLUID_DENSITY_AIR);
  g_assert_null (fluid_note (f));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (editor_note)));
  type_for_real (field, "1000");
  WAIT_UNTIL (g_settings_get_double (settings, "fluid-density") == 1000.0);
  g_assert_cmpfloat (g_settings_get_double (settings, "fluid-density"), ==, 1000.0);

  /* a density gz-sim cannot read: the default, and the start of the text */
  open_another (f, ball_world ("<plugin filename=\"gz-sim-buoyancy-system\" name=\"gz::sim::systems::Buoyancy\">"
                               "<uniform_fluid_density>fresh water from the lake behind the old mill, "
                               "cold</uniform_fluid_density></plugin>\n", NULL));
  g_assert_cmpfloat (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector (f))), ==, 1000.0);
  g_assert_cmpstr (fluid_note (f), ==, "The world’s Buoyancy system (line 4) names no density Ballast can use: "
                                       "“fresh water from the lake behin…ll, cold”");
  g_settings_reset (settings, "fluid-density");
}

int
main (int   argc,
      char *argv[])
{
  static const AddedMassPageCase long_values = { FALSE, 1280, 800, "the Tethys's added mass at 1280×800" };
  static const AddedMassPageCase small = { TRUE, 1024, 700, "the sample hull's added mass at 1024×700" };

  ui_test_init (&argc, &argv);
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  g_test_add ("/ui/qa/diagnostics-cut", Fixture, NULL, NULL, test_diagnostics_cut, fixture_tear_down);
  g_test_add ("/ui/qa/diagnostics-errors-first", Fixture, NULL, NULL, test_diagnostics_errors_first,
              fixture_tear_down);
  g_test_add ("/ui/qa/edit-save-round-trip", Fixture, NULL, NULL, test_edit_save_round_trip, fixture_tear_down);
  g_test_add ("/ui/qa/small-window", Fixture, NULL, NULL, test_small_window, fixture_tear_down);
  g_test_add ("/ui/qa/narrowed-window", Fixture, NULL, NULL, test_narrowed_window, fixture_tear_down);
  g_test_add ("/ui/qa/small-window-problems", Fixture, NULL, NULL, test_small_window_problems, fixture_tear_down);
  g_test_add ("/ui/qa/added-mass-page-long-values", Fixture, &long_values, NULL, test_added_mass_page,
              fixture_tear_down);
  g_test_add ("/ui/qa/added-mass-page-small", Fixture, &small, NULL, test_added_mass_page, fixture_tear_down);
  g_test_add ("/ui/qa/included-file-location", Fixture, NULL, NULL, test_included_file_location, fixture_tear_down);
  g_test_add ("/ui/qa/diagnostic-names-collision", Fixture, NULL, NULL, test_diagnostic_names_collision,
              fixture_tear_down);
  g_test_add ("/ui/qa/open-broken-from-command-line", Fixture, NULL, NULL, test_open_broken_from_command_line,
              fixture_tear_down);
  g_test_add ("/ui/qa/decimal-comma", Fixture, NULL, NULL, test_decimal_comma, fixture_tear_down);
  g_test_add ("/ui/qa/negative-mass-buoyancy", Fixture, NULL, NULL, test_negative_mass_buoyancy, fixture_tear_down);
  g_test_add ("/ui/qa/view-menu-keys", Fixture, NULL, NULL, test_view_menu_keys, fixture_tear_down);
  g_test_add ("/ui/qa/proposal-axes", Fixture, NULL, NULL, test_proposal_axes, fixture_tear_down);
  g_test_add ("/ui/qa/static-buoyancy", Fixture, NULL, NULL, test_static_buoyancy, fixture_tear_down);
  g_test_add ("/ui/qa/world-fluid", Fixture, NULL, NULL, test_world_fluid, fixture_tear_down);
  g_test_add ("/ui/qa/unreadable-value-validity", Fixture, NULL, NULL, test_unreadable_value_validity,
              fixture_tear_down);

  return ui_test_run ();
}
