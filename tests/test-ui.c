/* test-ui.c: the desktop application driven through its real widgets under Xvfb. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "bl-added-mass-editor.h"
#include "bl-application.h"
#include "bl-edit-history.h"
#include "bl-inspector.h"
#include "bl-number-field.h"
#include "bl-outline.h"
#include "bl-outline-item.h"
#include "bl-recovery.h"
#include "bl-resource.h"
#include "bl-viewport.h"
#include "bl-window.h"
#include "ui-common.h"
#include "ui-hooks.h"
#include "ui-input.h"


static const char *
inspector_mass_text (Fixture *f)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *grid = child (inspector, BL_TYPE_INSPECTOR, "props_grid");

  /* Row 0: "Mass", its value in column 3. */
  return gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 3, 0)));
}

static GtkWidget *
collision_spin (Fixture    *f,
                const char *collision)
{
  g_autofree char *name = g_strdup_printf ("collision-density-%s", collision);
  GtkWidget *spin = find_named (child (f->window, BL_TYPE_WINDOW, "inspector"), name);

  g_assert_nonnull (spin);
  g_assert_true (BL_IS_NUMBER_FIELD (spin));
  return spin;
}


static void
test_select_and_edit_density (Fixture       *f,
                              gconstpointer  data)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  BlLink *link;

  select_in_outline (f, "link_2");
  link = bl_inspector_get_link (BL_INSPECTOR (inspector));
  g_assert_nonnull (link);
  g_assert_cmpstr (link->name, ==, "link_2");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (inspector, BL_TYPE_INSPECTOR, "title_label"))), ==, "link_2");
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");

  type_into (collision_spin (f, "collision_2"), "2500");

  /* m = ρ·V = 2500 kg; Ixx = 2500·2/12. */
  g_assert_cmpstr (inspector_mass_text (f), ==, "2500");
  g_assert_cmpfloat_with_epsilon (link->props.mass, 2500.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (link->props.inertia.m[0][0], 2500.0 * 2.0 / 12.0, 1e-9);
  g_assert_true (bl_window_get_modified (f->window));
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), "• model.sdf"));
}

static void
test_added_mass_mirror (Fixture       *f,
                        gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *upper, *lower;
  BlLink *link;

  select_in_outline (f, "link_2");
  link = bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2");
  g_assert_nonnull (link);
  g_assert_false (link->has_added_mass);

  /* xq: row x (0), column q (4); its mirror is qx. */
  upper = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 0, 4);
  lower = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 4, 0);
  g_assert_true (gtk_editable_get_editable (GTK_EDITABLE (upper)));
  g_assert_false (gtk_editable_get_editable (GTK_EDITABLE (lower)));

  type_into (upper, "3.5");

  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (lower)), ==, "3.5");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (upper)), ==, "3.5");
  g_assert_true (link->has_added_mass);
  g_assert_cmpfloat (link->added_mass[4], ==, 3.5);  /* spec order: xx xy xz xp xq */
}

static void
test_undo_redo (Fixture       *f,
                gconstpointer  data)
{
  GtkWidget *spin;
  BlLink *link;

  select_in_outline (f, "link_2");
  link = bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2");
  spin = collision_spin (f, "collision_2");

  type_into (spin, "100");
  type_into (collision_spin (f, "collision_2"), "200");
  g_assert_cmpstr (inspector_mass_text (f), ==, "200");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_cmpstr (inspector_mass_text (f), ==, "100");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (collision_spin (f, "collision_2"))), ==, "100");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");
  g_assert_cmpfloat (((BlCollision *) g_ptr_array_index (link->collisions, 0))->density, ==, 6.0);
  g_assert_false (bl_window_get_modified (f->window));

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.redo", NULL);
  drain ();
  g_assert_cmpstr (inspector_mass_text (f), ==, "100");
  g_assert_true (bl_window_get_modified (f->window));
}

static void
test_spin_drag_is_one_step (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *up;

  select_in_outline (f, "link_2");
  up = bl_number_field_get_up_button (BL_NUMBER_FIELD (collision_spin (f, "collision_2")));
  ui_input_focus_window (up);
  /* Scrolled into view and laid out there before the clicks. */
  for (int i = 0; i < 3; i++)
    {
      ui_input_move_center (up);
      g_usleep (20000);
      drain ();
    }

  /* A run of clicks on +: several steps in a row, 0.1 each from 6
   * (a power of ten between 0.2 % and 2 % of the value). */
  for (int i = 0; i < 5; i++)
    ui_input_click (up, 1);
  drain ();
  g_assert_cmpstr (inspector_mass_text (f), ==, "6.5");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");
  g_assert_false (bl_window_get_modified (f->window));
}

static void
test_save_and_compare (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *saved = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;

  select_in_outline (f, "link_2");
  type_into (collision_spin (f, "collision_2"), "2500");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.save", NULL);
  drain ();

  g_assert_true (g_file_get_contents (f->path, &saved, NULL, &error));
  g_assert_no_error (error);
  /* Only collision_2's density changed, byte for byte. */
  expected = replace_after (f->original, "<collision name=\"collision_2\">",
                            "<density>6</density>", "<density>2500</density>");
  g_assert_cmpstr (saved, ==, expected);
  g_assert_false (bl_window_get_modified (f->window));
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), "model.sdf"));
}

static void
test_refuse_invalid_density (Fixture       *f,
                             gconstpointer  data)
{
  static const char * const bad[] = { "-5", "0", "abc", "nan", "1e999" };
  BlLink *link;

  select_in_outline (f, "link_2");
  link = bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2");

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GtkWidget *spin = collision_spin (f, "collision_2");

      type_into (spin, bad[i]);
      g_assert_true (gtk_widget_has_css_class (spin, "error"));
      g_assert_nonnull (bl_number_field_get_error (BL_NUMBER_FIELD (spin)));
      g_assert_nonnull (gtk_widget_get_tooltip_text (GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (spin)))));
      g_assert_cmpfloat (((BlCollision *) g_ptr_array_index (link->collisions, 0))->density, ==, 6.0);
      g_assert_cmpstr (inspector_mass_text (f), ==, "6");
      g_assert_false (bl_window_get_modified (f->window));
    }

  /* A good value afterwards clears the message. */
  type_into (collision_spin (f, "collision_2"), "7");
  g_assert_false (gtk_widget_has_css_class (collision_spin (f, "collision_2"), "error"));
  g_assert_cmpstr (inspector_mass_text (f), ==, "7");
}

/* Clicking into a cell of a link without added mass and out again edits
 * nothing (it used to add <fluid_added_mass><xx>0</xx>). */
static void
test_added_mass_focus_leave (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *cell;
  BlLink *link;

  select_in_outline (f, "link_2");
  gtk_stack_set_visible_child_name (GTK_STACK (child (f->window, BL_TYPE_WINDOW, "side_stack")), "added-mass");
  drain ();
  link = bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2");
  cell = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 0, 0);
  g_assert_true (gtk_widget_grab_focus (cell));
  drain ();
  g_assert_true (gtk_widget_grab_focus (child (child (f->window, BL_TYPE_WINDOW, "outline"), BL_TYPE_OUTLINE, "list_view")));
  drain ();
  g_assert_false (link->has_added_mass);
  g_assert_false (bl_window_get_modified (f->window));

  /* Enter on the zero it shows does add the added mass. */
  type_into (cell, "0");
  g_assert_true (link->has_added_mass);
  g_assert_true (bl_window_get_modified (f->window));
}

static void
test_refuse_invalid_added_mass (Fixture       *f,
                                gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *cell;
  GtkWidget *message;

  select_in_outline (f, "link_2");
  cell = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 1, 1);
  message = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "cell_error");
  type_into (cell, "NaN");
  g_assert_true (gtk_widget_has_css_class (cell, "error"));
  g_assert_true (gtk_widget_get_visible (message));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (message)), !=, "");
  g_assert_false (bl_window_get_modified (f->window));
}

/* DEPTH models nested in one another, one link "l" innermost. */
static char *
nested_models (guint depth)
{
  GString *text = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n");

  for (guint i = 0; i < depth; i++)
    g_string_append_printf (text, "<model name=\"m%u\">", i);
  g_string_append (text, "<link name=\"l\"><inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy>"
                         "<izz>1</izz></inertia></inertial></link>");
  for (guint i = 0; i < depth; i++)
    g_string_append (text, "</model>");
  g_string_append (text, "\n</sdf>\n");
  return g_string_free (text, FALSE);
}

/* The loader reads models nested 65 deep and reports deeper ones;
 * libxml2 reads 256 elements deep (252 such models) and no more: the
 * window shows each file it read, down to its deepest link, and says why
 * it refused the deeper one (issue 16). */
static void
test_any_depth (Fixture       *f,
                gconstpointer  data)
{
  static const guint depths[] = { 65, 66, 252, 253 };
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");

  for (guint i = 0; i < G_N_ELEMENTS (depths); i++)
    {
      g_autofree char *name = g_strdup_printf ("nested-%u.sdf", depths[i]);
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_autofree char *text = nested_models (depths[i]);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      BlDocument *before = bl_window_get_document (f->window);
      BlDocument *doc;

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      bl_window_open (f->window, file);
      wait_for_load (f->window);
      doc = bl_window_get_document (f->window);

      if (depths[i] == 253)
        {
          g_autofree char *secondary = close_message_dialog ();

          g_assert_nonnull (strstr (secondary, path));
          g_assert_nonnull (strstr (secondary, "depth"));
          g_assert_true (doc == before);
          continue;
        }

      g_assert_true (doc != before);
      if (depths[i] == 65)
        {
          BlLink *link;

          g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 1);
          select_in_outline (f, "l");
          link = bl_inspector_get_link (BL_INSPECTOR (inspector));
          g_assert_nonnull (link);
          g_assert_cmpstr (link->name, ==, "l");
          g_assert_cmpstr (inspector_mass_text (f), ==, "2");
        }
      else
        {
          g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 0);
        }
    }
}

static void
count_notify (guint *count)
{
  (*count)++;
}

/* A cell's tooltip names its key and unit, is the same after an error
 * (the message is below the matrix), and an edit elsewhere leaves it as it is (setting it again made GTK ask
 * the X server for the pointer, 72 times per edit). */
static void
test_added_mass_cell_tooltips (Fixture       *f,
                               gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *xy, *qq, *zr;

  select_in_outline (f, "link_2");
  xy = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 0, 1);
  qq = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 4, 4);
  zr = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 2, 5);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (xy), ==, "xy (kg)");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (qq), ==, "qq (kg·m²)");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (zr), ==, "zr (kg·m)");

  type_into (xy, "NaN");
  g_assert_true (gtk_widget_has_css_class (xy, "error"));

  type_into (qq, "2.5");
  g_assert_false (gtk_widget_has_css_class (xy, "error"));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (xy), ==, "xy (kg)");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (qq), ==, "qq (kg·m²)");

  {
    guint notified = 0;
    gulong id = g_signal_connect_swapped (zr, "notify::tooltip-text", G_CALLBACK (count_notify), &notified);

    type_into (qq, "3.5");
    g_assert_cmpuint (notified, ==, 0);
    g_signal_handler_disconnect (zr, id);
  }
}

/* Under Xvfb GL is Mesa's llvmpipe: the window draws with GTK's cairo
 * renderer there (its GL renderer took ten times as long a frame). */
static void
test_software_gl_draws_with_cairo (Fixture       *f,
                                   gconstpointer  data)
{
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (f->window));

  g_assert_true (bl_viewport_display_gl_is_software (gtk_widget_get_display (GTK_WIDGET (f->window))));
  g_assert_nonnull (renderer);
  g_assert_cmpstr (G_OBJECT_TYPE_NAME (renderer), ==, "GskCairoRenderer");
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
}

static void
test_ask_before_close (Fixture       *f,
                       gconstpointer  data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkMessageDialog *dialog = NULL;

  select_in_outline (f, "link_2");
  type_into (collision_spin (f, "collision_2"), "9");
  g_assert_true (bl_window_get_modified (f->window));

  gtk_window_close (GTK_WINDOW (f->window));
  drain ();

  g_assert_nonnull (f->window);  /* still open */
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_MESSAGE_DIALOG (w) && gtk_window_get_transient_for (w) == GTK_WINDOW (f->window))
        dialog = GTK_MESSAGE_DIALOG (w);
    }
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  /* Cancel keeps the window and the edits. */
  respond (dialog, GTK_RESPONSE_CANCEL);
  drain ();
  g_assert_nonnull (f->window);
  g_assert_true (bl_window_get_modified (f->window));

  /* Asking again, then discarding, closes it; the file is untouched. */
  gtk_window_close (GTK_WINDOW (f->window));
  drain ();
  dialog = NULL;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_MESSAGE_DIALOG (w))
        dialog = GTK_MESSAGE_DIALOG (w);
    }
  g_assert_nonnull (dialog);
  respond (dialog, 1 /* discard */);
  drain ();
  g_assert_null (f->window);
  {
    g_autofree char *contents = NULL;
    g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, f->original);
  }
}

static gboolean
wait_for_document_change (Fixture    *f,
                          BlDocument *old)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      if (bl_window_get_document (f->window) != old)
        return TRUE;
      g_usleep (10000);
    }
  return FALSE;
}

static void
test_reload_when_changed_on_disk (Fixture       *f,
                                  gconstpointer  data)
{
  BlDocument *old = bl_window_get_document (f->window);
  g_autofree char *changed = replace_after (f->original, "<collision name=\"collision_2\">",
                                            "<density>6</density>", "<density>12</density>");
  BlLink *link;

  select_in_outline (f, "link_2");
  g_assert_true (g_file_set_contents (f->path, changed, -1, NULL));
  g_assert_true (wait_for_document_change (f, old));
  drain ();

  /* No edits: reloaded without asking, the selection kept. */
  link = bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2");
  g_assert_cmpfloat_with_epsilon (link->props.mass, 12.0, 1e-12);
  g_assert_cmpstr (inspector_mass_text (f), ==, "12");
  g_assert_false (bl_window_get_modified (f->window));
}

static void
test_close_without_edits (Fixture       *f,
                          gconstpointer  data)
{
  gtk_window_close (GTK_WINDOW (f->window));
  drain ();
  g_assert_null (f->window);
}


/* ---- Issue 6, 4, 8 follow-ups ------------------------------------------- */


/* The shapes world starts with a static ground plane: the window opens on
 * the first link that moves, the box. */
static void
test_initial_selection (Fixture       *f,
                        gconstpointer  data)
{
  GtkWidget *inspector;
  BlLink *link;

  open_copy (f, "gzsim_examples_worlds_shapes.sdf", NULL);
  inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  link = bl_inspector_get_link (BL_INSPECTOR (inspector));
  g_assert_nonnull (link);
  g_assert_cmpstr (link->scoped_name, ==, "box::box_link");
}

static BlNumberField *
inspector_spin (Fixture    *f,
                const char *name)
{
  return BL_NUMBER_FIELD (child (child (f->window, BL_TYPE_WINDOW, "inspector"), BL_TYPE_INSPECTOR, name));
}

/* The dimmed text the user reads in the empty field. */
static const char *
placeholder_of (BlNumberField *field)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (field));

  return gtk_text_get_placeholder_text (GTK_TEXT (text));
}

/* Emptying the link density, a collision density or the target mass
 * unsets it (one undo step each); the empty field shows the value in use. */
static void
test_unset_fields (Fixture       *f,
                   gconstpointer  data)
{
  BlDocument *doc;
  BlLink *link_1, *link_2;
  BlCollision *collision_2;

  open_copy (f, "sdformat_test_sdf_inertial_stats_auto_mass.sdf", NULL);
  doc = bl_window_get_document (f->window);
  link_1 = bl_document_find_link (doc, "test_model::link_1");
  link_2 = bl_document_find_link (doc, "test_model::link_2");
  collision_2 = g_ptr_array_index (link_2->collisions, 0);

  /* link_1: <density>6</density> on a 1 m cube; unset, the default 1000. */
  select_in_outline (f, "link_1");
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");
  type_into (GTK_WIDGET (inspector_spin (f, "density_field")), "");
  g_assert_false (link_1->has_density);
  g_assert_cmpfloat_with_epsilon (link_1->props.mass, 1000.0, 1e-9);
  g_assert_cmpstr (inspector_mass_text (f), ==, "1000");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (inspector_spin (f, "density_field"))), ==, "");
  g_assert_cmpstr (placeholder_of (inspector_spin (f, "density_field")), ==, "1000 (default)");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (inspector_spin (f, "density_field")), "error"));
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_true (link_1->has_density);
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");
  g_assert_false (bl_window_get_modified (f->window));

  /* link_2: <mass>6</mass> scales the 1000 kg/m³ cube; unset, 1000 kg. */
  select_in_outline (f, "link_2");
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");
  type_into (GTK_WIDGET (inspector_spin (f, "mass_field")), "");
  g_assert_false (link_2->has_mass);
  g_assert_cmpfloat_with_epsilon (link_2->props.mass, 1000.0, 1e-9);
  g_assert_cmpstr (placeholder_of (inspector_spin (f, "mass_field")), ==, "1000 (computed)");

  /* …then its collision density: the default 1000 again, so still 1000 kg. */
  type_into (collision_spin (f, "collision_2"), "");
  g_assert_false (collision_2->has_density);
  g_assert_cmpfloat_with_epsilon (link_2->props.mass, 1000.0, 1e-9);
  g_assert_cmpstr (placeholder_of (BL_NUMBER_FIELD (collision_spin (f, "collision_2"))), ==, "1000 (default)");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_true (collision_2->has_density);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_true (link_2->has_mass);
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");
  g_assert_false (bl_window_get_modified (f->window));
}

/* link_2 is a 1 m cube of 6 kg at its link origin, in a file without a
 * world: standard gravity.  Fully submerged in ρ: net (ρ·1 − 6)·g. */
static void
test_link_buoyancy (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *grid = child (inspector, BL_TYPE_INSPECTOR, "buoyancy_grid");
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  const double g = 9.80665;

  bl_inspector_set_fluid_density (BL_INSPECTOR (inspector), 1025.0);
  select_in_outline (f, "link_2");
  assert_label_near (grid_cell (grid, 3, 0), 1.0);
  for (int i = 1; i <= 3; i++)
    assert_label_near (grid_cell (grid, i, 1), 0.0);
  assert_label_near (grid_cell (grid, 3, 4), (1025.0 - 6.0) * g);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5))), "Rises"));
  assert_label_near (grid_cell (grid, 3, 6), 0.0);

  /* The fluid density is one setting: changed on the Added Mass page. */
  type_into (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "fluid_field"), "1000");
  g_assert_cmpfloat (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector)), ==, 1000.0);
  assert_label_near (grid_cell (grid, 3, 4), (1000.0 - 6.0) * g);

  /* …and in air (1.225 kg/m³) the cube sinks. */
  type_into (grid_cell (grid, 1, 2), "1.225");
  g_assert_cmpfloat (bl_added_mass_editor_get_fluid_density (BL_ADDED_MASS_EDITOR (editor)), ==, 1.225);
  assert_label_near (grid_cell (grid, 3, 4), (1.225 - 6.0) * g);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5))), "Sinks"));
  /* GSettings (in memory) outlives the window. */
  bl_inspector_set_fluid_density (BL_INSPECTOR (inspector), 1025.0);
}

/* The rows of the link's diagnostics follow an edit in place: a 1 m cube
 * of density 1000 has M_RB,qq = 1000/6 kg·m², so an added qq of 5000 is
 * 30 times the body's own (A6), 15 times at density 2000; A9 (automatic
 * inertia with added mass) stays.  The rows are the same widgets, with the
 * new text. */
static void
test_diagnostic_rows_in_place (Fixture       *f,
                               gconstpointer  data)
{
  GtkWidget *inspector, *box, *first_row;
  BlLink *link;

  open_copy (f, NULL,
             "<?xml version=\"1.0\"?><sdf version=\"1.11\"><model name=\"m\">"
             "<link name=\"l\"><inertial auto=\"true\"><fluid_added_mass><qq>5000</qq></fluid_added_mass>"
             "</inertial><collision name=\"c\"><density>1000</density>"
             "<geometry><box><size>1 1 1</size></box></geometry></collision></link>"
             "</model></sdf>");
  inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  box = child (inspector, BL_TYPE_INSPECTOR, "diagnostics_box");
  select_in_outline (f, "l");
  link = bl_inspector_get_link (BL_INSPECTOR (inspector));

  for (guint step = 0; step < 2; step++)
    {
      const char *ratio = step == 0 ? "qq is 30×" : "qq is 15×";
      guint rows = 0;
      gboolean found = FALSE;

      if (step == 1)
        {
          first_row = gtk_widget_get_first_child (box);
          type_into (collision_spin (f, "c"), "2000");
          g_assert_true (gtk_widget_get_first_child (box) == first_row);
        }
      for (GtkWidget *row = gtk_widget_get_first_child (box); row != NULL; row = gtk_widget_get_next_sibling (row))
        {
          GtkWidget *label = gtk_widget_get_next_sibling (gtk_widget_get_first_child (row));
          const BlDiagnostic *d = g_ptr_array_index (link->diagnostics, rows);

          g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (label)), d->message));
          found |= strstr (gtk_label_get_text (GTK_LABEL (label)), ratio) != NULL;
          rows++;
        }
      g_assert_cmpuint (rows, ==, link->diagnostics->len);
      g_assert_true (found);
    }
}

/* A link whose inertia is valid but whose file has errors (an automatic
 * link whose mesh cannot be found: only its box counts) does not show a
 * plain green tick; a valid link without errors does. */
static void
test_validity_with_errors (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *inspector;
  GtkLabel *label;

  open_copy (f, NULL,
             "<?xml version=\"1.0\"?><sdf version=\"1.11\"><model name=\"m\">"
             "<link name=\"partial\"><inertial auto=\"true\"><density>1000</density></inertial>"
             "<collision name=\"mesh\"><geometry><mesh><uri>nowhere.stl</uri></mesh></geometry></collision>"
             "<collision name=\"box\"><geometry><box><size>0.5 0.5 0.5</size></box></geometry></collision></link>"
             "<link name=\"whole\"><pose>2 0 0 0 0 0</pose><inertial auto=\"true\"><density>1000</density></inertial>"
             "<collision name=\"box\"><geometry><box><size>0.5 0.5 0.5</size></box></geometry></collision></link>"
             "</model></sdf>");
  inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  label = GTK_LABEL (child (inspector, BL_TYPE_INSPECTOR, "validity_label"));
  select_in_outline (f, "partial");
  g_assert_cmpstr (inspector_mass_text (f), ==, "125");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (label), "Valid inertia, but the link has 2 errors"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "warning"));
  select_in_outline (f, "whole");
  g_assert_cmpstr (gtk_label_get_text (label), ==, "Valid inertia");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "success"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (label), "warning"));
}

/* gz-sim's fluid-added-mass test world sets <gravity>0 0 0</gravity>: the
 * 1 kg unit box displaces 1025 kg of sea water, 1024 kg more than its own
 * mass, yet weighs nothing and feels no buoyancy: net force 0 N, no
 * "rises", and no "above" for the centre of buoyancy. */
static void
test_weightless_buoyancy (Fixture       *f,
                          gconstpointer  data)
{
  GtkWidget *inspector, *grid;
  const char *verdict;

  open_copy (f, "gzsim_test_worlds_fluid_added_mass.sdf", NULL);
  inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  grid = child (inspector, BL_TYPE_INSPECTOR, "buoyancy_grid");
  bl_inspector_set_fluid_density (BL_INSPECTOR (inspector), 1025.0);
  select_in_outline (f, "link");
  assert_label_near (grid_cell (grid, 3, 0), 1.0);
  assert_label_near (grid_cell (grid, 3, 4), 0.0);
  verdict = gtk_label_get_text (GTK_LABEL (grid_cell (grid, 0, 5)));
  g_assert_true (g_str_has_prefix (verdict, "The world has no gravity"));
  g_assert_nonnull (strstr (verdict, "1024 kg"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (grid_cell (grid, 3, 6))), ==, "—");
}

/* Four 6 kg unit cubes at (±5, 0, 0) and (0, ±5, 0): 24 kg at the origin,
 * Ixx = Iyy = 4·1 + 2·6·25 = 304, Izz = 4·1 + 4·6·25 = 604 kg·m², 4 m³. */
static void
test_model_totals (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *props = child (inspector, BL_TYPE_INSPECTOR, "model_props_grid");
  GtkWidget *buoyancy = child (inspector, BL_TYPE_INSPECTOR, "model_buoyancy_grid");
  GtkStack *stack = GTK_STACK (child (inspector, BL_TYPE_INSPECTOR, "stack"));
  BlDocument *doc = bl_window_get_document (f->window);
  g_autoptr(BlEdit) edit = NULL;
  g_autoptr(GError) error = NULL;
  const double g = 9.80665;

  select_row (f, BL_OUTLINE_ITEM_MODEL, "test_model");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "model");
  g_assert_null (bl_inspector_get_link (BL_INSPECTOR (inspector)));
  assert_label_near (grid_cell (props, 3, 0), 24.0);
  for (int i = 1; i <= 3; i++)
    assert_label_near (grid_cell (props, i, 1), 0.0);
  assert_label_near (grid_cell (props, 1, 2), 304.0);
  assert_label_near (grid_cell (props, 2, 3), 304.0);
  assert_label_near (grid_cell (props, 3, 4), 604.0);
  assert_label_near (grid_cell (buoyancy, 3, 0), 4.0);
  assert_label_near (grid_cell (buoyancy, 3, 4),
                     (bl_inspector_get_fluid_density (BL_INSPECTOR (inspector)) * 4.0 - 24.0) * g);

  /* An edit of one link updates the totals: link_2 at 12 kg puts the
   * COM at x = −5·6/30 = −1. */
  edit = bl_edit_new_collision_density (doc, bl_document_find_collision (doc, "test_model::link_2", "collision_2"), 12.0);
  g_assert_true (bl_window_do_edit (f->window, edit, &error));
  g_assert_no_error (error);
  drain ();
  assert_label_near (grid_cell (props, 3, 0), 30.0);
  assert_label_near (grid_cell (props, 1, 1), -1.0);

  /* A link row brings the link back. */
  select_in_outline (f, "link_3");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "link");
}

/* A 0.5 m sphere at the link origin: ½ρV on the diagonal, nothing else
 * (docs/reference/added-mass.md §6.1); the Hydrodynamics plugin's xDotU… negated. */
#define BALL_PLUGIN_SDF \
  BALL_LINK_SDF \
  "    <plugin filename=\"gz-sim-hydrodynamics-system\" name=\"gz::sim::systems::Hydrodynamics\">\n" \
  "      <link_name>ball_link</link_name>\n" \
  "      <xDotU>-10</xDotU>\n" \
  "      <yDotV>-20</yDotV>\n" \
  "      <zDotW>-30</zDotW>\n" \
  "      <kDotP>-1</kDotP>\n" \
  "      <mDotQ>-2</mDotQ>\n" \
  "      <nDotR>-3</nDotR>\n" \
  "      <xUabsU>-5</xUabsU>\n" \
  "    </plugin>\n" \
  "  </model>\n" \
  "</sdf>\n"

static void
press (GtkWidget *editor,
       const char *button)
{
  GtkWidget *b = child (editor, BL_TYPE_ADDED_MASS_EDITOR, button);

  g_assert_true (gtk_widget_get_visible (b));
  g_signal_emit_by_name (b, "clicked");
  drain ();
}

static void
test_estimate_apply (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *editor;
  BlLink *link;
  double expected = 0.5 * 1025.0 * 4.0 / 3.0 * G_PI * 0.125;

  open_copy (f, NULL, BALL_PLUGIN_SDF);
  editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  link = bl_document_find_link (bl_window_get_document (f->window), "ball::ball_link");
  g_assert_true (bl_inspector_get_link (BL_INSPECTOR (child (f->window, BL_TYPE_WINDOW, "inspector"))) == link);
  g_assert_false (link->has_added_mass);

  press (editor, "estimate_button");
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "proposal_revealer"))));
  g_assert_false (link->has_added_mass);  /* shown, not applied */
  press (editor, "apply_button");

  g_assert_true (link->has_added_mass);
  for (guint k = 0; k < 21; k++)
    {
      guint r, c;

      bl_added_mass_index (k, &r, &c);
      if (r == c && r < 3)
        g_assert_cmpfloat_with_epsilon (link->added_mass[k], expected, 1e-9 * expected);
      else
        g_assert_cmpfloat (fabs (link->added_mass[k]), <=, 1e-12 * expected);
    }
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (gtk_editable_get_text (GTK_EDITABLE (bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 1, 1))), NULL),
                                  expected, 1e-9 * expected);

  /* One undo step takes all 21 values back. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_false (link->has_added_mass);
  g_assert_false (bl_window_get_modified (f->window));
}

static void
test_import_apply (Fixture       *f,
                   gconstpointer  data)
{
  /* xx yy zz pp qq rr in spec order: 0, 6, 11, 15, 18, 20. */
  static const guint diagonal[6] = { 0, 6, 11, 15, 18, 20 };
  static const double expected[6] = { 10, 20, 30, 1, 2, 3 };
  GtkWidget *editor;
  BlLink *link;

  open_copy (f, NULL, BALL_PLUGIN_SDF);
  editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  link = bl_document_find_link (bl_window_get_document (f->window), "ball::ball_link");

  press (editor, "import_button");
  g_assert_true (gtk_widget_get_visible (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "apply_button")));
  press (editor, "apply_button");

  g_assert_true (link->has_added_mass);
  for (guint k = 0; k < 21; k++)
    {
      double want = 0.0;

      for (guint i = 0; i < 6; i++)
        if (diagonal[i] == k)
          want = expected[i];
      g_assert_cmpfloat (link->added_mass[k], ==, want);
    }

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_false (link->has_added_mass);
  g_assert_false (bl_window_get_modified (f->window));
}

/* Export Baked writes link_2 as explicit 6 kg with Ixx = 6·2/12 = 1 and
 * leaves the open document (auto, unmodified) alone. */
static void
test_export_baked (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *baked_path = g_build_filename (f->dir, "baked.sdf", NULL);
  g_autoptr(BlDocument) baked = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = g_strdup (gtk_window_get_title (GTK_WINDOW (f->window)));
  g_autofree char *contents = NULL;
  BlLink *link;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.export-baked", NULL);
  answer_file_chooser (f->dir, "baked.sdf");

  baked = bl_document_new_from_file (baked_path, &error);
  g_assert_no_error (error);
  link = bl_document_find_link (baked, "test_model::link_2");
  g_assert_false (link->auto_inertia);
  g_assert_true (link->has_mass);
  g_assert_cmpfloat_with_epsilon (link->mass, 6.0, 1e-12);
  g_assert_true (link->has_inertia);
  g_assert_cmpfloat_with_epsilon (link->inertia[0], 1.0, 1e-12);

  link = bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2");
  g_assert_true (link->auto_inertia);
  g_assert_false (bl_window_get_modified (f->window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, title);
  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, f->original);
}

static void
test_save_as (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *copy_path = g_build_filename (f->dir, "copy.sdf", NULL);
  g_autofree char *saved = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *window_path = NULL;

  select_in_outline (f, "link_2");
  type_into (collision_spin (f, "collision_2"), "2500");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.save-as", NULL);
  answer_file_chooser (f->dir, "copy.sdf");

  g_assert_true (g_file_get_contents (copy_path, &saved, NULL, NULL));
  expected = replace_after (f->original, "<collision name=\"collision_2\">",
                            "<density>6</density>", "<density>2500</density>");
  g_assert_cmpstr (saved, ==, expected);
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), "copy.sdf"));
  g_assert_false (bl_window_get_modified (f->window));
  window_path = g_file_get_path (bl_window_get_file (f->window));
  g_assert_cmpstr (window_path, ==, copy_path);
  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, f->original);
}

/* Issue 8: a broken file is refused with its name (and line) and the
 * document that was open stays, edits and all. */
static void
test_open_broken_keeps_document (Fixture       *f,
                                 gconstpointer  data)
{
  static const struct { const char *name; const char *text; const char *where; } cases[] = {
    { "empty.sdf", "", NULL },
    { "truncated.sdf", "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n  <model name=\"m\">\n    <link name=\"l\">", ":4:" },
    { "robot.sdf", "<?xml version=\"1.0\"?>\n<robot name=\"r\"/>\n", ":2:" },
    { "directory.sdf", NULL, NULL },
    { "entity.sdf", "<?xml version=\"1.0\"?>\n<!DOCTYPE sdf [ <!ENTITY secret SYSTEM \"file:///etc/passwd\"> ]>\n"
                    "<sdf version=\"1.11\"><model name=\"m\"><link name=\"l\">&secret;</link></model></sdf>\n", NULL },
  };
  BlDocument *before = bl_window_get_document (f->window);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (f->dir, cases[i].name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      GtkMessageDialog *dialog;
      g_autofree char *secondary = NULL;

      if (cases[i].text != NULL)
        g_assert_true (g_file_set_contents (path, cases[i].text, -1, NULL));
      else
        g_assert_cmpint (g_mkdir (path, 0700), ==, 0);

      bl_window_open (f->window, file);
      wait_for_load (f->window);
      dialog = GTK_MESSAGE_DIALOG (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
      g_assert_nonnull (dialog);
      g_object_get (dialog, "secondary-text", &secondary, NULL);
      g_test_message ("%s: %s", cases[i].name, secondary);
      g_assert_nonnull (strstr (secondary, path));
      if (cases[i].where != NULL)
        g_assert_nonnull (strstr (secondary, cases[i].where));
      g_assert_null (strstr (secondary, "root:"));  /* nothing of /etc/passwd */
      gtk_window_destroy (GTK_WINDOW (dialog));
      drain ();

      g_assert_true (bl_window_get_document (f->window) == before);
      g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), "model.sdf"));
    }

  /* With unsaved edits it asks first; the document and the edits stay. */
  select_in_outline (f, "link_2");
  type_into (collision_spin (f, "collision_2"), "9");
  {
    g_autofree char *path = g_build_filename (f->dir, "robot.sdf", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    GtkWindow *question;

    bl_window_open (f->window, file);
    drain ();
    question = find_dialog (GTK_TYPE_MESSAGE_DIALOG);
    g_assert_nonnull (question);
    respond (question, 1 /* discard */);
    wait_for_load (f->window);
    g_assert_nonnull (find_dialog (GTK_TYPE_MESSAGE_DIALOG));  /* the error */
    gtk_window_destroy (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
    drain ();
  }
  g_assert_true (bl_window_get_document (f->window) == before);
  g_assert_true (bl_window_get_modified (f->window));
  g_assert_cmpstr (inspector_mass_text (f), ==, "9");
}


#define STATUS_SDF \
  "<?xml version=\"1.0\"?>\n" \
  "<sdf version=\"1.11\">\n" \
  "  <model name=\"m\">\n" \
  "    <link name=\"bad\">\n" \
  "      <inertial>\n" \
  "        <mass>1</mass>\n" \
  "        <inertia><ixx>1</ixx><iyy>1</iyy><izz>5</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>\n" \
  "      </inertial>\n" \
  "    </link>\n" \
  "    <link name=\"heavy_fluid\">\n" \
  "      <inertial>\n" \
  "        <mass>1</mass>\n" \
  "        <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>\n" \
  "        <fluid_added_mass><xx>5</xx></fluid_added_mass>\n" \
  "      </inertial>\n" \
  "    </link>\n" \
  "    <link name=\"fine\">\n" \
  "      <inertial>\n" \
  "        <mass>1</mass>\n" \
  "        <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>\n" \
  "      </inertial>\n" \
  "    </link>\n" \
  "  </model>\n" \
  "</sdf>\n"

/* The status image in the outline row whose name label reads `name`. */
static GtkWidget *
status_icon_of_row (GtkWidget  *root,
                    const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *first = gtk_widget_get_first_child (c);
      GtkWidget *found;

      if (GTK_IS_BOX (c) && GTK_IS_LABEL (first) &&
          g_strcmp0 (gtk_label_get_text (GTK_LABEL (first)), name) == 0 &&
          GTK_IS_IMAGE (gtk_widget_get_last_child (c)))
        return gtk_widget_get_last_child (c);
      found = status_icon_of_row (c, name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GdkRGBA
color_of (GtkWidget *widget)
{
  GdkRGBA rgba;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &rgba);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return rgba;
}

/* An invalid inertia (izz > ixx + iyy) is an error, a large added mass
 * (A6) a warning: red and amber icons. */
static void
test_outline_status_colours (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *list;
  GtkWidget *bad, *heavy, *fine;
  GdkRGBA c;

  open_copy (f, NULL, STATUS_SDF);
  list = child (child (f->window, BL_TYPE_WINDOW, "outline"), BL_TYPE_OUTLINE, "list_view");
  bad = status_icon_of_row (list, "bad");
  heavy = status_icon_of_row (list, "heavy_fluid");
  fine = status_icon_of_row (list, "fine");
  g_assert_nonnull (bad);
  g_assert_nonnull (heavy);
  g_assert_nonnull (fine);

  g_assert_true (gtk_widget_has_css_class (bad, "error"));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (bad)), ==, "dialog-error-symbolic");
  c = color_of (bad);
  g_assert_cmpfloat (c.red, >, 0.7);
  g_assert_cmpfloat (c.green, <, 0.3);

  g_assert_true (gtk_widget_has_css_class (heavy, "warning"));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (heavy)), ==, "dialog-warning-symbolic");
  c = color_of (heavy);
  g_assert_cmpfloat (c.red, >, 0.8);
  g_assert_cmpfloat (c.green, >, 0.5);
  g_assert_cmpfloat (c.blue, <, 0.2);

  g_assert_false (gtk_widget_has_css_class (fine, "error"));
  g_assert_false (gtk_widget_has_css_class (fine, "warning"));
}

static double
luminance (GdkRGBA c)
{
  return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue;
}

/* Dark style: the desktop's colour scheme wins when the settings portal
 * names one; with "no preference" (or no portal at all, when nothing
 * calls this) GTK's own gtk-application-prefer-dark-theme from
 * settings.ini stays, and the window's text turns light in the dark. */
static void
test_dark_style (Fixture       *f,
                 gconstpointer  data)
{
  GtkSettings *settings = gtk_settings_get_default ();
  GtkWidget *title = child (f->window, BL_TYPE_WINDOW, "title_label");
  gboolean dark;

  /* As ~/.config/gtk-4.0/settings.ini would set it. */
  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  drain ();
  g_assert_cmpfloat (luminance (color_of (title)), >, 0.6);

  bl_application_apply_color_scheme (0);
  g_object_get (settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_true (dark);

  bl_application_apply_color_scheme (2);
  g_object_get (settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_false (dark);
  drain ();
  g_assert_cmpfloat (luminance (color_of (title)), <, 0.4);

  bl_application_apply_color_scheme (0);
  g_object_get (settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_true (dark);

  bl_application_apply_color_scheme (1);
  g_object_get (settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_true (dark);

  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
}

/* ---- Recovery after a kill (issue 8) ------------------------------------ */

static guint
count_recovery_files (const char *suffix)
{
  g_autofree char *dir_path = bl_recovery_dup_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, suffix))
      n++;
  return n;
}

typedef struct
{
  const char *path;
  gint64      deadline;
  gboolean    answered;
  gboolean    checked;
} RestoreRun;

/* Drives the second start: answers the offer, then looks at the window. */
static gboolean
drive_restore (gpointer data)
{
  RestoreRun *run = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  if (g_get_monotonic_time () > run->deadline)
    {
      g_test_message ("gave up waiting for the recovery offer");
      goto quit;
    }
  if (!run->answered)
    {
      GtkWindow *dialog = find_dialog (GTK_TYPE_MESSAGE_DIALOG);
      g_autofree char *text = NULL;

      if (dialog == NULL)
        return G_SOURCE_CONTINUE;
      g_object_get (dialog, "text", &text, NULL);
      g_assert_nonnull (strstr (text, "model.sdf"));
      /* The copy was made moments ago: "today" (or, past midnight, "yesterday"). */
      {
        g_autofree char *secondary = NULL;

        g_object_get (dialog, "secondary-text", &secondary, NULL);
        g_test_message ("%s", secondary);
        g_assert_true (strstr (secondary, "a copy from today at ") != NULL ||
                       strstr (secondary, "a copy from yesterday at ") != NULL);
      }
      respond (dialog, BL_RECOVERY_RESPONSE_RESTORE);
      run->answered = TRUE;
      return G_SOURCE_CONTINUE;
    }

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);
      BlLink *link;
      g_autofree char *path = NULL;

      if (!BL_IS_WINDOW (w) || bl_window_get_file (BL_WINDOW (w)) == NULL)
        continue;
      path = g_file_get_path (bl_window_get_file (BL_WINDOW (w)));
      g_assert_cmpstr (path, ==, run->path);
      link = bl_document_find_link (bl_window_get_document (BL_WINDOW (w)), "test_model::link_2");
      g_assert_cmpfloat (((BlCollision *) g_ptr_array_index (link->collisions, 0))->density, ==, 2500.0);
      g_assert_cmpfloat_with_epsilon (link->props.mass, 2500.0, 1e-9);
      g_assert_true (bl_window_get_modified (BL_WINDOW (w)));
      g_assert_true (g_str_has_prefix (gtk_window_get_title (w), "• model.sdf"));
      /* The restored window keeps a copy of its own. */
      g_assert_cmpuint (count_recovery_files (".sdf"), ==, 1);
      run->checked = TRUE;
      goto quit;
    }
  return G_SOURCE_CONTINUE;

quit:
  /* Close without asking: the windows go, and the application ends. */
  while (g_list_model_get_n_items (toplevels) > 0)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, 0);
      gtk_window_destroy (w);
    }
  return G_SOURCE_REMOVE;
}

static void
test_recovery_after_kill (void)
{
  g_autofree char *source = g_build_filename (g_getenv ("BALLAST_FIXTURES"), FIXTURE, NULL);
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *recovery_dir = bl_recovery_dup_dir ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autoptr(BlApplication) app = NULL;
  /* ballast with one unsaved edit (tests/ballast-edited.c) */
  const char *binary = g_getenv ("BALLAST_EDITED_BINARY");
  char *argv[] = { (char *) binary, (char *) "test_model::link_2/collision_2:density=2500", NULL, NULL };
  char *app_argv[] = { (char *) "ballast", NULL };
  RestoreRun run = { 0 };
  GPid pid;
  gint64 deadline;
  gsize length;
  int status;

  g_assert_nonnull (binary);
  g_assert_cmpuint (count_recovery_files (".ini"), ==, 0);
  dir = g_dir_make_tmp ("ballast-ui-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "model.sdf", NULL);
  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length, NULL));

  /* A ballast with one unsaved edit, in this test's state directory. */
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", g_get_user_state_dir (), TRUE);
  argv[2] = path;
  g_assert_true (g_spawn_async (NULL, argv, envp, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error));
  g_assert_no_error (error);

  /* Its recovery copy appears about a second after the edit. */
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (count_recovery_files (".sdf") == 0 && g_get_monotonic_time () < deadline)
    g_usleep (50000);
  g_assert_cmpuint (count_recovery_files (".sdf"), ==, 1);
  g_assert_cmpuint (count_recovery_files (".ini"), ==, 1);
  g_usleep (200000);

  /* While it runs, its copy is not an orphan. */
  {
    g_autoptr(GPtrArray) orphans = bl_recovery_find_orphans ();
    g_assert_cmpuint (orphans->len, ==, 0);
  }

  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_spawn_close_pid (pid);
  g_assert_cmpuint (count_recovery_files (".sdf"), ==, 1);

  /* The file itself was never written. */
  {
    g_autofree char *now = NULL;
    g_assert_true (g_file_get_contents (path, &now, NULL, NULL));
    g_assert_cmpstr (now, ==, contents);
  }

  /* Started again: it offers the copy; restored, the edit is back. */
  app = bl_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  run.path = path;
  run.deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  g_timeout_add (50, drive_restore, &run);
  g_application_run (G_APPLICATION (app), 1, app_argv);
  g_assert_true (run.answered);
  g_assert_true (run.checked);

  /* Closed (here without asking): no copy is left behind. */
  g_assert_cmpuint (count_recovery_files (".sdf"), ==, 0);
  g_assert_cmpuint (count_recovery_files (".ini"), ==, 0);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- Opening files: drop, Open dialog, recent files (issue 6) ----------- */

/* Copies a fixture into the test's directory as `name`; returns its path. */
static char *
copy_fixture (Fixture    *f,
              const char *fixture,
              const char *name)
{
  g_autofree char *source = g_build_filename (g_getenv ("BALLAST_FIXTURES"), fixture, NULL);
  g_autofree char *contents = NULL;
  char *path = g_build_filename (f->dir, name, NULL);
  gsize length;

  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length, NULL));
  return path;
}

/* The window shows `path`: its file, a document with the shapes world's
 * box link, and the name in the title. */
static void
assert_shows_shapes (Fixture    *f,
                     const char *path)
{
  g_autofree char *window_path = NULL;
  g_autofree char *base = g_path_get_basename (path);

  wait_for_load (f->window);
  g_assert_nonnull (bl_window_get_file (f->window));
  window_path = g_file_get_path (bl_window_get_file (f->window));
  g_assert_cmpstr (window_path, ==, path);
  g_assert_nonnull (bl_document_find_link (bl_window_get_document (f->window), "box::box_link"));
  g_assert_null (bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2"));
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), base));
  g_assert_false (bl_window_get_modified (f->window));
}

static GtkDropTarget *
drop_target_of (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);  /* the widget keeps it */
    }
  return NULL;
}

/* What GTK does when files are dropped on the window: the drop target's
 * ::drop with a GdkFileList. */
static gboolean
drop_file (Fixture    *f,
           const char *path)
{
  GtkDropTarget *drop = drop_target_of (GTK_WIDGET (f->window));
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GValue value = G_VALUE_INIT;
  GSList *files;
  gboolean accepted = FALSE;

  g_assert_nonnull (drop);
  g_assert_true (gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (drop), GDK_TYPE_FILE_LIST));
  g_assert_true (gtk_drop_target_get_actions (drop) & GDK_ACTION_COPY);

  files = g_slist_prepend (NULL, file);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_set_boxed (&value, files);
  g_slist_free (files);
  g_signal_emit_by_name (drop, "drop", &value, 200.0, 200.0, &accepted);
  g_value_unset (&value);
  wait_for_load (f->window);
  return accepted;
}

static void
test_drop_opens_file (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *shapes = copy_fixture (f, "gzsim_examples_worlds_shapes.sdf", "shapes.sdf");
  GtkWindow *question;

  g_assert_true (drop_file (f, shapes));
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
  assert_shows_shapes (f, shapes);

  /* With unsaved edits a drop asks first; discarding opens the file. */
  {
    BlDocument *doc = bl_window_get_document (f->window);
    BlCollision *box = g_ptr_array_index (bl_document_find_link (doc, "box::box_link")->collisions, 0);
    g_autoptr(BlEdit) edit = bl_edit_new_collision_density (doc, box, 50.0);
    g_autoptr(GError) error = NULL;

    g_assert_true (bl_window_do_edit (f->window, edit, &error));
    g_assert_no_error (error);
  }
  g_assert_true (drop_file (f, f->path));
  question = find_dialog (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (question);
  g_assert_true (bl_document_find_link (bl_window_get_document (f->window), "box::box_link") != NULL);
  respond (question, 1 /* discard */);
  wait_for_load (f->window);
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
  g_assert_nonnull (bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2"));
  g_assert_false (bl_window_get_modified (f->window));
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), "model.sdf"));
}

static gboolean
chooser_has_file (GtkFileChooser *chooser,
                  GFile          *file)
{
  g_autoptr(GFile) chosen = gtk_file_chooser_get_file (chooser);

  return chosen != NULL && g_file_equal (chosen, file);
}

static void
test_open_dialog (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *shapes = copy_fixture (f, "gzsim_examples_worlds_shapes.sdf", "shapes.sdf");
  g_autoptr(GFile) file = g_file_new_for_path (shapes);
  g_autoptr(GFile) dir = g_file_new_for_path (f->dir);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GError) error = NULL;
  GtkWindow *dialog;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open", NULL);
  drain ();
  /* Without a portal GtkFileChooserNative shows GTK's own chooser. */
  dialog = find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (gtk_window_get_title (dialog), ==, "Open SDF File");
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)), ==, GTK_FILE_CHOOSER_ACTION_OPEN);
  /* It starts in the folder of the open file. */
  folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (dialog));
  g_assert_nonnull (folder);
  g_assert_true (g_file_equal (folder, dir));

  /* The chooser selects it once the folder is listed; a late notice that
   * the folder changed (the file was just written into it) lists the
   * folder again and drops a selection still pending, so ask again. */
  for (int attempt = 0; attempt < 5 && !chooser_has_file (GTK_FILE_CHOOSER (dialog), file); attempt++)
    {
      gint64 deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

      g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), file, &error));
      g_assert_no_error (error);
      while (!chooser_has_file (GTK_FILE_CHOOSER (dialog), file) && g_get_monotonic_time () < deadline)
        {
          g_main_context_iteration (NULL, FALSE);
          g_usleep (1000);
        }
    }
  g_assert_true (chooser_has_file (GTK_FILE_CHOOSER (dialog), file));
  respond (dialog, GTK_RESPONSE_ACCEPT);
  WAIT_UNTIL (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG) == NULL);
  g_assert_null (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG));
  drain ();

  assert_shows_shapes (f, shapes);

  /* Cancelling opens nothing. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open", NULL);
  drain ();
  dialog = find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (dialog);
  respond (dialog, GTK_RESPONSE_CANCEL);
  drain ();
  g_assert_null (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG));
  assert_shows_shapes (f, shapes);
}

/* The item of `menu` (sections included) whose target is `uri`. */
static gboolean
menu_has_target (GMenuModel *menu,
                 const char *uri,
                 char      **label)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
      g_autoptr(GVariant) target = NULL;

      if (section != NULL && menu_has_target (section, uri, label))
        return TRUE;
      target = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);
      if (target != NULL && g_strcmp0 (g_variant_get_string (target, NULL), uri) == 0)
        {
          g_autofree char *action = NULL;

          g_assert_true (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &action));
          g_assert_cmpstr (action, ==, "win.open-recent");
          if (label != NULL)
            g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", label);
          return TRUE;
        }
    }
  return FALSE;
}

/* Opening in the background ---------------------------------------------- */

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} LoadResult;

static void
on_test_load_done (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  LoadResult *r = user_data;

  r->ok = bl_window_load_file_finish (BL_WINDOW (source), result, &r->error);
  r->done = TRUE;
}

static gboolean
count_tick (gpointer data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

/* Iterates the main context for `ms` milliseconds. */
static void
spin_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static GtkSpinner *
find_spinning (GtkWidget *widget)
{
  if (GTK_IS_SPINNER (widget) && gtk_widget_get_visible (widget) &&
      gtk_spinner_get_spinning (GTK_SPINNER (widget)))
    return GTK_SPINNER (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkSpinner *found = find_spinning (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_is_drawable (widget) &&
      g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_label (c, text))
      return TRUE;
  return FALSE;
}

/* A slow load (the worker held back 4 s) leaves the window shown and
 * responsive, the old model in place, and says what it is opening. */
static void
test_open_async_responsive (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *shapes = copy_fixture (f, "gzsim_examples_worlds_shapes.sdf", "shapes.sdf");
  g_autoptr(GFile) file = g_file_new_for_path (shapes);
  BlDocument *before = bl_window_get_document (f->window);
  guint ticks = 0;
  guint source;
  gint64 start;

  ui_hooks_set_load_delay (4000);
  start = g_get_monotonic_time ();
  bl_window_open (f->window, file);
  g_assert_true (bl_window_get_loading (f->window));
  g_assert_true (g_file_equal (bl_window_get_loading_file (f->window), file));
  /* bl_window_open returned at once, far inside the worker's delay. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 500 * 1000);

  /* The previous model stays, and can still be browsed. */
  g_assert_true (bl_window_get_document (f->window) == before);
  /* (drain () would not return while the spinner animates.) */
  bl_window_select_link (f->window, bl_document_find_link (before, "test_model::link_2"));
  spin_for (100);
  g_assert_cmpstr (bl_inspector_get_link (BL_INSPECTOR (child (f->window, BL_TYPE_WINDOW, "inspector")))->name,
                   ==, "link_2");
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");

  /* A 50 ms timer keeps firing while the file loads: the loop is free
   * (each iteration also lays out and draws the window under Xvfb). */
  source = g_timeout_add (50, count_tick, &ticks);
  spin_for (500);
  g_source_remove (source);
  g_assert_cmpuint (ticks, >=, 3);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  g_assert_nonnull (find_spinning (GTK_WIDGET (f->window)));
  g_assert_true (has_label (GTK_WIDGET (f->window), "Opening shapes.sdf…"));
  /* Still the worker's delay: the load has not ended yet. */
  g_assert_true (bl_window_get_loading (f->window));
  g_assert_true (bl_window_get_document (f->window) == before);

  wait_for_load (f->window);
  ui_hooks_set_load_delay (0);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 4000 * 1000);
  g_assert_null (find_spinning (GTK_WIDGET (f->window)));
  g_assert_false (has_label (GTK_WIDGET (f->window), "Opening shapes.sdf…"));
  assert_shows_shapes (f, shapes);
}

/* On start-up the window shows before its first document, with the name of
 * the file it is opening, then the model. */
static void
test_open_async_startup (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *shapes = copy_fixture (f, "gzsim_examples_worlds_shapes.sdf", "shapes.sdf");
  g_autoptr(GFile) file = g_file_new_for_path (shapes);
  LoadResult r = { 0 };

  /* The fixture's window is replaced by an empty one. */
  gtk_window_destroy (GTK_WINDOW (f->window));
  drain ();
  g_assert_null (f->window);
  f->window = bl_window_new (NULL);
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);

  ui_hooks_set_load_delay (800);
  bl_window_load_file_async (f->window, file, on_test_load_done, &r);
  gtk_window_present (GTK_WINDOW (f->window));
  spin_for (200);
  g_assert_false (r.done);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  g_assert_null (bl_window_get_document (f->window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (f->window)), ==, "shapes.sdf — Ballast");
  g_assert_true (has_label (GTK_WIDGET (f->window), "Opening…"));
  g_assert_nonnull (find_spinning (GTK_WIDGET (f->window)));

  wait_for_load (f->window);
  ui_hooks_set_load_delay (0);
  g_assert_true (r.done);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  assert_shows_shapes (f, shapes);
}

/* A load started later wins: the earlier one reports G_IO_ERROR_CANCELLED and
 * never replaces the newer document, even once its worker has ended. */
static void
test_open_async_superseded (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *first = copy_fixture (f, FIXTURE, "first.sdf");
  g_autofree char *shapes = copy_fixture (f, "gzsim_examples_worlds_shapes.sdf", "shapes.sdf");
  g_autoptr(GFile) first_file = g_file_new_for_path (first);
  g_autoptr(GFile) shapes_file = g_file_new_for_path (shapes);
  LoadResult a = { 0 }, b = { 0 }, c = { 0 };
  BlDocument *newer;

  ui_hooks_set_load_delay (300);
  bl_window_load_file_async (f->window, first_file, on_test_load_done, &a);
  spin_for (50);
  bl_window_load_file_async (f->window, shapes_file, on_test_load_done, &b);
  wait_for_load (f->window);
  /* Long enough for any worker of the first load to have finished. */
  spin_for (600);
  ui_hooks_set_load_delay (0);

  g_assert_true (a.done);
  g_assert_false (a.ok);
  g_assert_error (a.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (b.done);
  g_assert_no_error (b.error);
  g_assert_true (b.ok);
  assert_shows_shapes (f, shapes);
  newer = bl_window_get_document (f->window);

  /* A synchronous open supersedes a running one too. */
  ui_hooks_set_load_delay (300);
  bl_window_load_file_async (f->window, first_file, on_test_load_done, &c);
  g_assert_true (bl_window_get_loading (f->window));
  {
    g_autoptr(GFile) model = g_file_new_for_path (f->path);
    g_autoptr(GError) error = NULL;

    g_assert_true (bl_window_load_file (f->window, model, &error));
    g_assert_no_error (error);
  }
  g_assert_false (bl_window_get_loading (f->window));
  spin_for (600);
  ui_hooks_set_load_delay (0);
  g_assert_true (c.done);
  g_assert_error (c.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (bl_window_get_document (f->window) != newer);
  g_assert_nonnull (bl_document_find_link (bl_window_get_document (f->window), "test_model::link_2"));
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), "model.sdf"));

  g_clear_error (&a.error);
  g_clear_error (&c.error);
}

/* A file that fails to load in the worker leaves the document as it was. */
static void
test_open_async_error_keeps_document (Fixture       *f,
                                      gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "robot.sdf", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  BlDocument *before = bl_window_get_document (f->window);
  LoadResult r = { 0 };

  g_assert_true (g_file_set_contents (path, "<?xml version=\"1.0\"?>\n<robot name=\"r\"/>\n", -1, NULL));
  ui_hooks_set_load_delay (200);
  bl_window_load_file_async (f->window, file, on_test_load_done, &r);
  g_assert_true (bl_window_get_loading (f->window));
  wait_for_load (f->window);
  ui_hooks_set_load_delay (0);

  g_assert_true (r.done);
  g_assert_false (r.ok);
  g_assert_nonnull (r.error);
  g_assert_false (g_error_matches (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_assert_nonnull (strstr (r.error->message, path));
  g_assert_true (bl_window_get_document (f->window) == before);
  g_assert_true (g_str_has_prefix (gtk_window_get_title (GTK_WINDOW (f->window)), "model.sdf"));
  g_assert_null (find_spinning (GTK_WIDGET (f->window)));
  g_clear_error (&r.error);
}

/* Edits made to the shown model while a file loads are not dropped
 * silently: the window asks, and Cancel keeps them (and the model). */
static void
test_open_async_edit_while_loading (Fixture       *f,
                                    gconstpointer  data)
{
  g_autofree char *shapes = copy_fixture (f, "gzsim_examples_worlds_shapes.sdf", "shapes.sdf");
  g_autoptr(GFile) file = g_file_new_for_path (shapes);
  BlDocument *before = bl_window_get_document (f->window);
  LoadResult r = { 0 }, s = { 0 };
  GtkWindow *question;

  for (int round = 0; round < 2; round++)
    {
      LoadResult *res = round == 0 ? &r : &s;

      ui_hooks_set_load_delay (1500);
      bl_window_load_file_async (f->window, file, on_test_load_done, res);
      spin_for (50);
      g_assert_true (bl_window_get_loading (f->window));
      {
        BlCollision *c = bl_document_find_collision (before, "test_model::link_2", "collision_2");
        g_autoptr(BlEdit) edit = NULL;
        g_autoptr(GError) error = NULL;

        g_assert_nonnull (c);
        edit = bl_edit_new_collision_density (before, c, round == 0 ? 9.0 : 10.0);
        g_assert_true (bl_window_do_edit (f->window, edit, &error));
        g_assert_no_error (error);
      }
      wait_for_load (f->window);
      ui_hooks_set_load_delay (0);

      question = find_dialog (GTK_TYPE_MESSAGE_DIALOG);
      g_assert_nonnull (question);
      g_assert_false (res->done);
      g_assert_true (bl_window_get_document (f->window) == before);
      respond (question, round == 0 ? GTK_RESPONSE_CANCEL : 1 /* discard */);
      drain ();
      g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
      g_assert_true (res->done);
    }

  /* Cancelled: the edit and the model stayed. */
  g_assert_false (r.ok);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* Discarded: the new file is shown. */
  g_assert_true (s.ok);
  g_assert_no_error (s.error);
  assert_shows_shapes (f, shapes);
  g_clear_error (&r.error);
}

static void
test_open_recent (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *recent = copy_fixture (f, "gzsim_examples_worlds_shapes.sdf", "recent.sdf");
  g_autofree char *uri = g_filename_to_uri (recent, NULL, NULL);
  g_autofree char *store = NULL;
  g_autofree char *label = NULL;
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GtkMenuButton *button = GTK_MENU_BUTTON (child (f->window, BL_TYPE_WINDOW, "recent_button"));
  GtkPopover *popover;
  GtkWidget *item;

  /* The list lives in this run's XDG_DATA_HOME, never the user's. */
  g_object_get (manager, "filename", &store, NULL);
  g_assert_true (g_str_has_prefix (store, g_get_user_data_dir ()));

  /* As another program (or an earlier run) would have left it. */
  g_assert_true (gtk_recent_manager_add_item (manager, uri));
  WAIT_UNTIL (menu_has_target (gtk_menu_button_get_menu_model (button), uri, NULL));
  g_assert_true (menu_has_target (gtk_menu_button_get_menu_model (button), uri, &label));
  g_assert_cmpstr (label, ==, "recent.sdf");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  /* Newest first: before model.sdf, which the window opened earlier. */
  {
    g_autoptr(GMenuModel) section = g_menu_model_get_item_link (gtk_menu_button_get_menu_model (button), 0,
                                                                G_MENU_LINK_SECTION);
    g_autofree char *model_uri = g_filename_to_uri (f->path, NULL, NULL);
    g_autofree char *first = NULL;
    g_autofree char *second = NULL;

    g_assert_nonnull (section);
    g_assert_cmpint (g_menu_model_get_n_items (section), >=, 2);
    g_assert_true (g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_TARGET, "s", &first));
    g_assert_true (g_menu_model_get_item_attribute (section, 1, G_MENU_ATTRIBUTE_TARGET, "s", &second));
    g_assert_cmpstr (first, ==, uri);
    g_assert_cmpstr (second, ==, model_uri);
  }

  /* Open the menu and click the file. */
  gtk_menu_button_popup (button);
  popover = gtk_menu_button_get_popover (button);
  drain ();
  /* Still the same, open popover: the list's changes do not close it. */
  g_assert_true (gtk_menu_button_get_popover (button) == popover);
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  item = find_menu_item (GTK_WIDGET (popover), "recent.sdf");
  g_assert_nonnull (item);
  g_signal_emit_by_name (item, "clicked");
  drain ();

  assert_shows_shapes (f, recent);
}

/* ---- Keyboard shortcuts (issue 6) ----------------------------------------- */

static gboolean
trigger_matches (GtkShortcutTrigger *trigger,
                 guint               keyval,
                 GdkModifierType     mods)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return trigger_matches (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval, mods) ||
           trigger_matches (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval, mods);
  if (GTK_IS_KEYVAL_TRIGGER (trigger))
    return gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == gdk_keyval_to_lower (keyval) &&
           gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == mods;
  return FALSE;
}

static gboolean
activate_in (GtkWidget          *widget,
             GtkPropagationPhase phase,
             guint               keyval,
             GdkModifierType     mods)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != phase)
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);

          if (trigger_matches (gtk_shortcut_get_trigger (shortcut), keyval, mods) &&
              gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                            widget, gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return FALSE;
}

/* Presses an accelerator as GTK dispatches it: the shortcut controllers of
 * the capture phase from the window down to the focus widget, then those of
 * the bubble phase from the focus widget up; the first shortcut whose
 * action runs (an enabled action) takes the key. */
static gboolean
press_accelerator (GtkWindow  *window,
                   const char *accelerator)
{
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  GdkModifierType mods;
  guint keyval;
  gboolean done = FALSE;

  g_assert_true (gtk_accelerator_parse (accelerator, &keyval, &mods));
  for (GtkWidget *w = focus != NULL ? focus : GTK_WIDGET (window); w != NULL; w = gtk_widget_get_parent (w))
    g_ptr_array_add (chain, w);
  for (guint i = chain->len; i > 0 && !done; i--)
    done = activate_in (g_ptr_array_index (chain, i - 1), GTK_PHASE_CAPTURE, keyval, mods);
  for (guint i = 0; i < chain->len && !done; i++)
    done = activate_in (g_ptr_array_index (chain, i), GTK_PHASE_BUBBLE, keyval, mods);
  drain ();
  return done;
}

/* The accelerators the Keyboard Shortcuts window lists, one per entry
 * ("1 3" lists two). */
static void
collect_accelerators (GtkWidget *root,
                      GPtrArray *out)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (root))
    {
      g_autofree char *accelerator = NULL;
      g_auto(GStrv) keys = NULL;

      g_object_get (root, "accelerator", &accelerator, NULL);
      keys = g_strsplit (accelerator, " ", -1);
      for (guint i = 0; keys[i] != NULL; i++)
        if (keys[i][0] != '\0')
          g_ptr_array_add (out, g_strdup (keys[i]));
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_accelerators (c, out);
}

typedef struct
{
  BlApplication *app;
  BlWindow      *window;
  char          *path;
  char          *original;
  gboolean       done;
} ShortcutRun;

static void
assert_file_chooser (const char           *title,
                     GtkFileChooserAction  action)
{
  GtkWindow *dialog = find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG);

  g_assert_nonnull (dialog);
  g_assert_cmpstr (gtk_window_get_title (dialog), ==, title);
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)), ==, action);
  respond (dialog, GTK_RESPONSE_CANCEL);
  drain ();
  g_assert_null (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG));
}

static double
collision_2_density (ShortcutRun *run)
{
  BlLink *link = bl_document_find_link (bl_window_get_document (run->window), "test_model::link_2");

  return ((BlCollision *) g_ptr_array_index (link->collisions, 0))->density;
}

static void
assert_forward (BlViewport *viewport,
                double      x,
                double      y,
                double      z)
{
  BlCamera camera;
  double forward[3], right[3], up[3];

  bl_viewport_get_camera (viewport, &camera);
  bl_camera_get_basis (&camera, forward, right, up);
  g_assert_cmpfloat_with_epsilon (forward[0], x, 1e-6);
  g_assert_cmpfloat_with_epsilon (forward[1], y, 1e-6);
  g_assert_cmpfloat_with_epsilon (forward[2], z, 1e-6);
}

/* Moves the camera far away, looking the same way. */
static void
lose_camera (BlViewport *viewport)
{
  BlCamera camera;

  bl_viewport_get_camera (viewport, &camera);
  camera.target[0] = camera.target[1] = camera.target[2] = 100.0;
  camera.distance = 1000.0;
  bl_viewport_set_camera (viewport, &camera);
}

static void
assert_target (BlViewport *viewport,
               double      x,
               double      y,
               double      z)
{
  BlCamera camera;

  bl_viewport_get_camera (viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.target[0], x, 1e-6);
  g_assert_cmpfloat_with_epsilon (camera.target[1], y, 1e-6);
  g_assert_cmpfloat_with_epsilon (camera.target[2], z, 1e-6);
  g_assert_cmpfloat (camera.distance, <, 1000.0);
  g_assert_cmpfloat (camera.distance, >, 0.0);
}

static void
check_shortcuts (GApplication *application,
                 ShortcutRun  *run)
{
  static const char * const expected[] = {
    "<Control>z", "<Control><Shift>z", "<Control>s", "<Control><Shift>s", "<Control>e",
    "<Control>o", "Home", "f", "1", "3", "7", "9", "<Control>n", "<Control>question",
    "<Control>q",
  };
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));
  g_autoptr(GPtrArray) listed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GFile) file = g_file_new_for_path (run->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlEdit) edit = NULL;
  GtkShortcutsWindow *overlay;
  GtkWidget *list, *spin;
  BlViewport *viewport;
  BlDocument *doc;

  g_assert_true (BL_IS_WINDOW (window));
  run->window = BL_WINDOW (window);
  g_assert_true (bl_window_load_file (run->window, file, &error));
  g_assert_no_error (error);
  drain ();
  doc = bl_window_get_document (run->window);

  /* Every shortcut the window lists is one this test checks, and back. */
  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  collect_accelerators (GTK_WIDGET (overlay), listed);
  for (guint i = 0; i < listed->len; i++)
    {
      gboolean known = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
        known = known || g_str_equal (expected[k], g_ptr_array_index (listed, i));
      if (!known)
        g_error ("the shortcuts window lists %s, which this test does not check",
                 (char *) g_ptr_array_index (listed, i));
    }
  for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
    {
      gboolean shown = FALSE;

      for (guint i = 0; i < listed->len; i++)
        shown = shown || g_str_equal (expected[k], g_ptr_array_index (listed, i));
      if (!shown)
        g_error ("the shortcuts window does not list %s", expected[k]);
    }

  /* Editing and files, with the focus in the outline. */
  list = child (child (window, BL_TYPE_WINDOW, "outline"), BL_TYPE_OUTLINE, "list_view");
  g_assert_true (gtk_widget_grab_focus (list));
  edit = bl_edit_new_collision_density (doc, bl_document_find_collision (doc, "test_model::link_2", "collision_2"), 2500.0);
  g_assert_true (bl_window_do_edit (run->window, edit, &error));
  g_assert_no_error (error);

  g_assert_true (press_accelerator (window, "<Control>z"));
  g_assert_cmpfloat (collision_2_density (run), ==, 6.0);
  g_assert_false (bl_window_get_modified (run->window));
  g_assert_true (press_accelerator (window, "<Control><Shift>z"));
  g_assert_cmpfloat (collision_2_density (run), ==, 2500.0);
  g_assert_true (bl_window_get_modified (run->window));

  /* Undo also reaches the document from a density field just typed into
   * (the field's own text undo must not take the key). */
  bl_window_select_link (run->window, bl_document_find_link (doc, "test_model::link_2"));
  drain ();
  spin = find_named (child (window, BL_TYPE_WINDOW, "inspector"), "collision-density-collision_2");
  g_assert_nonnull (spin);
  type_into (spin, "300");
  g_assert_cmpfloat (collision_2_density (run), ==, 300.0);
  g_assert_true (gtk_widget_grab_focus (spin));
  g_assert_true (press_accelerator (window, "<Control>z"));
  g_assert_cmpfloat (collision_2_density (run), ==, 2500.0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "2500");
  /* …and from an added-mass cell. */
  {
    GtkWidget *editor = child (window, BL_TYPE_WINDOW, "added_mass_editor");
    GtkWidget *cell = bl_added_mass_editor_get_cell (BL_ADDED_MASS_EDITOR (editor), 0, 0);
    BlLink *link_2 = bl_document_find_link (doc, "test_model::link_2");

    type_into (cell, "7");
    g_assert_true (link_2->has_added_mass);
    g_assert_true (gtk_widget_grab_focus (cell));
    g_assert_true (press_accelerator (window, "<Control>z"));
    g_assert_false (link_2->has_added_mass);
  }
  g_assert_true (gtk_widget_grab_focus (list));

  g_assert_true (press_accelerator (window, "<Control>s"));
  g_assert_false (bl_window_get_modified (run->window));
  {
    g_autofree char *saved = NULL;
    g_autofree char *expect = replace_after (run->original, "<collision name=\"collision_2\">",
                                             "<density>6</density>", "<density>2500</density>");

    g_assert_true (g_file_get_contents (run->path, &saved, NULL, NULL));
    g_assert_cmpstr (saved, ==, expect);
  }

  g_assert_true (press_accelerator (window, "<Control><Shift>s"));
  assert_file_chooser ("Save SDF File As", GTK_FILE_CHOOSER_ACTION_SAVE);
  g_assert_true (press_accelerator (window, "<Control>e"));
  assert_file_chooser ("Export Baked SDF", GTK_FILE_CHOOSER_ACTION_SAVE);
  g_assert_true (press_accelerator (window, "<Control>o"));
  assert_file_chooser ("Open SDF File", GTK_FILE_CHOOSER_ACTION_OPEN);

  /* The 3D view's keys, with the focus in the view (a click gives it). */
  viewport = BL_VIEWPORT (find_by_type (GTK_WIDGET (window), BL_TYPE_VIEWPORT));
  g_assert_nonnull (viewport);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (viewport)));
  /* Four unit cubes at (±5, 0, 0), (0, ±5, 0): centred on the origin. */
  lose_camera (viewport);
  g_assert_true (press_accelerator (window, "Home"));
  assert_target (viewport, 0.0, 0.0, 0.0);
  /* link_2 (selected) is the cube at (−5, 0, 0). */
  lose_camera (viewport);
  g_assert_true (press_accelerator (window, "f"));
  assert_target (viewport, -5.0, 0.0, 0.0);
  /* bl-camera.h: front looks along −x, side along +y, top along −z,
   * isometric from (1, 1, 1). */
  bl_viewport_set_view (viewport, BL_VIEW_ISO);
  g_assert_true (press_accelerator (window, "1"));
  assert_forward (viewport, -1.0, 0.0, 0.0);
  g_assert_true (press_accelerator (window, "3"));
  assert_forward (viewport, 0.0, 1.0, 0.0);
  g_assert_true (press_accelerator (window, "7"));
  assert_forward (viewport, 0.0, 0.0, -1.0);
  g_assert_true (press_accelerator (window, "9"));
  assert_forward (viewport, -1.0 / sqrt (3.0), -1.0 / sqrt (3.0), -1.0 / sqrt (3.0));

  /* Application keys. */
  g_assert_true (press_accelerator (window, "<Control>n"));
  {
    GList *windows = gtk_application_get_windows (GTK_APPLICATION (application));
    BlWindow *second;

    g_assert_cmpuint (g_list_length (windows), ==, 2);
    second = BL_WINDOW (windows->data != window ? windows->data : windows->next->data);
    g_assert_null (bl_window_get_file (second));  /* the sample */
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (second)));
    gtk_window_destroy (GTK_WINDOW (second));
    drain ();
  }
  g_assert_true (press_accelerator (window, "<Control>question"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));
  gtk_window_close (GTK_WINDOW (overlay));
  drain ();
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overlay)));

  /* Last: quit closes the window (nothing unsaved) and so ends the run. */
  g_assert_true (press_accelerator (window, "<Control>q"));
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (application)));
  run->done = TRUE;
}

static void
test_shortcuts (void)
{
  g_autofree char *source = g_build_filename (g_getenv ("BALLAST_FIXTURES"), FIXTURE, NULL);
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlApplication) app = NULL;
  char *app_argv[] = { (char *) "ballast", NULL };
  ShortcutRun run = { 0 };
  gsize length;

  dir = g_dir_make_tmp ("ballast-ui-XXXXXX", &error);
  g_assert_no_error (error);
  run.path = g_build_filename (dir, "model.sdf", NULL);
  g_assert_true (g_file_get_contents (source, &run.original, &length, NULL));
  g_assert_true (g_file_set_contents (run.path, run.original, length, NULL));

  app = bl_application_new ();
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  /* After the application opened its window on the sample. */
  g_signal_connect_after (app, "activate", G_CALLBACK (check_shortcuts), &run);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, app_argv), ==, 0);
  g_assert_true (run.done);

  remove_tree (dir);
  g_free (run.path);
  g_free (run.original);
}

/* ---- Model paths (issue 13) --------------------------------------------- */

typedef struct
{
  gboolean done;
} ModelPathsRun;

/* The model-paths setting is the core's extra model paths while the app
 * runs, whoever changes it; adding a folder stores it once. */
static void
check_model_paths (GApplication  *application,
                   ModelPathsRun *run)
{
  g_autoptr(GSettings) settings = bl_application_settings_new ();
  const char * const other[] = { "/models/other", NULL };
  g_auto(GStrv) core = bl_resource_dup_extra_paths ();
  g_auto(GStrv) stored = NULL;
  g_auto(GStrv) after = NULL;

  /* read at startup */
  g_assert_cmpuint (g_strv_length (core), ==, 1);
  g_assert_cmpstr (core[0], ==, "/models/first");

  /* changed elsewhere (another window, gsettings set) */
  g_settings_set_strv (settings, "model-paths", other);
  drain ();
  g_clear_pointer (&core, g_strfreev);
  core = bl_resource_dup_extra_paths ();
  g_assert_cmpuint (g_strv_length (core), ==, 1);
  g_assert_cmpstr (core[0], ==, "/models/other");

  /* the window's offer to add the folder of a missing model */
  g_assert_true (bl_application_add_model_path (BL_APPLICATION (application), "/models/lrauv"));
  g_assert_false (bl_application_add_model_path (BL_APPLICATION (application), "/models/lrauv"));
  stored = g_settings_get_strv (settings, "model-paths");
  g_assert_cmpuint (g_strv_length (stored), ==, 2);
  g_assert_cmpstr (stored[1], ==, "/models/lrauv");
  after = bl_resource_dup_extra_paths ();
  g_assert_cmpuint (g_strv_length (after), ==, 2);
  g_assert_cmpstr (after[1], ==, "/models/lrauv");

  g_settings_reset (settings, "model-paths");
  drain ();
  run->done = TRUE;
  g_application_quit (application);
}

static void
test_model_paths (void)
{
  g_autoptr(BlApplication) app = bl_application_new ();
  g_autoptr(GSettings) settings = bl_application_settings_new ();
  const char * const first[] = { "/models/first", NULL };
  char *app_argv[] = { (char *) "ballast", NULL };
  ModelPathsRun run = { 0 };

  g_assert_nonnull (settings);
  g_settings_set_strv (settings, "model-paths", first);
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "activate", G_CALLBACK (check_model_paths), &run);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, app_argv), ==, 0);
  g_assert_true (run.done);
  bl_resource_set_extra_paths (NULL);
}

/* ---- The recovery offer's time (issue 6) -------------------------------- */

static void
assert_time_text (int         year,
                  int         month,
                  int         day,
                  int         hour,
                  int         minute,
                  GDateTime  *now,
                  const char *expected)
{
  g_autoptr(GDateTime) time = g_date_time_new_local (year, month, day, hour, minute, 12.0);
  g_autofree char *text = bl_recovery_format_time (time, now);

  g_assert_cmpstr (text, ==, expected);
}

/* Untranslated (LC_ALL=C.UTF-8): English month names, 24-hour times. */
static void
test_recovery_time_format (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_local (2026, 11, 22, 14, 5, 30.0);
  g_autoptr(GDateTime) new_year = g_date_time_new_local (2027, 1, 1, 0, 30, 0.0);

  assert_time_text (2026, 11, 22, 14, 5, now, "today at 14:05");
  assert_time_text (2026, 11, 22, 0, 1, now, "today at 00:01");
  assert_time_text (2026, 11, 21, 23, 59, now, "yesterday at 23:59");
  assert_time_text (2026, 11, 20, 9, 7, now, "20 November 2026 at 09:07");
  assert_time_text (2025, 3, 5, 9, 7, now, "5 March 2025 at 09:07");
  /* Across the new year: 31 December is still yesterday. */
  assert_time_text (2026, 12, 31, 22, 0, new_year, "yesterday at 22:00");
  assert_time_text (2026, 12, 30, 22, 0, new_year, "30 December 2026 at 22:00");
}



int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/ui/window/select-and-edit-density", test_select_and_edit_density);
  ADD ("/ui/window/added-mass-mirror", test_added_mass_mirror);
  ADD ("/ui/window/undo-redo", test_undo_redo);
  ADD ("/ui/window/spin-drag-is-one-step", test_spin_drag_is_one_step);
  ADD ("/ui/window/save-and-compare", test_save_and_compare);
  ADD ("/ui/window/refuse-invalid-density", test_refuse_invalid_density);
  ADD ("/ui/window/refuse-invalid-added-mass", test_refuse_invalid_added_mass);
  ADD ("/ui/window/added-mass-cell-tooltips", test_added_mass_cell_tooltips);
  ADD ("/ui/window/software-gl-draws-with-cairo", test_software_gl_draws_with_cairo);
  ADD ("/ui/window/any-depth", test_any_depth);
  ADD ("/ui/added-mass/focus-leave-edits-nothing", test_added_mass_focus_leave);
  ADD ("/ui/window/ask-before-close", test_ask_before_close);
  ADD ("/ui/window/close-without-edits", test_close_without_edits);
  ADD ("/ui/window/reload-when-changed-on-disk", test_reload_when_changed_on_disk);
  ADD ("/ui/inspector/link-buoyancy", test_link_buoyancy);
  ADD ("/ui/inspector/weightless-buoyancy", test_weightless_buoyancy);
  ADD ("/ui/inspector/validity-with-errors", test_validity_with_errors);
  ADD ("/ui/inspector/model-totals", test_model_totals);
  ADD ("/ui/window/export-baked", test_export_baked);
  ADD ("/ui/window/save-as", test_save_as);
  ADD ("/ui/window/open-broken-keeps-document", test_open_broken_keeps_document);
  ADD ("/ui/files/drop-opens-file", test_drop_opens_file);
  ADD ("/ui/files/open-dialog", test_open_dialog);
  ADD ("/ui/files/open-recent", test_open_recent);
  ADD ("/ui/files/open-async-responsive", test_open_async_responsive);
  ADD ("/ui/files/open-async-startup", test_open_async_startup);
  ADD ("/ui/files/open-async-superseded", test_open_async_superseded);
  ADD ("/ui/files/open-async-error-keeps-document", test_open_async_error_keeps_document);
  ADD ("/ui/files/open-async-edit-while-loading", test_open_async_edit_while_loading);
#undef ADD
#define ADD_OWN(path, fn) g_test_add (path, Fixture, NULL, NULL, fn, fixture_tear_down)
  ADD_OWN ("/ui/window/initial-selection-skips-static", test_initial_selection);
  ADD_OWN ("/ui/inspector/unset-fields", test_unset_fields);
  ADD_OWN ("/ui/inspector/diagnostic-rows-in-place", test_diagnostic_rows_in_place);
  ADD_OWN ("/ui/added-mass/estimate-apply", test_estimate_apply);
  ADD_OWN ("/ui/added-mass/import-apply", test_import_apply);
  ADD_OWN ("/ui/outline/status-colours", test_outline_status_colours);
#undef ADD_OWN
  g_test_add ("/ui/style/dark-follows-settings", Fixture, NULL, fixture_set_up, test_dark_style, fixture_tear_down);
  g_test_add_func ("/ui/shortcuts/each-listed-key-works", test_shortcuts);
  g_test_add_func ("/ui/model-paths/setting", test_model_paths);
  g_test_add_func ("/ui/recovery/time-format", test_recovery_time_format);
  g_test_add_func ("/ui/recovery/after-kill", test_recovery_after_kill);

  return ui_test_run ();
}
