/* test-ui.c: the desktop application driven through its real widgets under Xvfb. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "bl-added-mass-editor.h"
#include "bl-edit-history.h"
#include "bl-inspector.h"
#include "bl-outline.h"
#include "bl-outline-item.h"
#include "bl-window.h"

/* sdformat's inertial_stats_auto model: link_2 is a 1 m cube whose
 * collision_2 has <density>6</density>, so its mass is 6 kg and, with a
 * density ρ, ρ kg (V = 1 m³) with Ixx = Iyy = Izz = m·(1² + 1²)/12. */
#define FIXTURE "sdformat_test_sdf_inertial_stats_auto.sdf"

typedef struct
{
  char     *dir;
  char     *path;
  char     *original;
  BlWindow *window;
} Fixture;

static void
drain (void)
{
  /* Let GTK lay out, draw and run every idle until nothing is left. */
  for (int round = 0; round < 3; round++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (1000);
    }
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *source = g_build_filename (g_getenv ("BALLAST_FIXTURES"), FIXTURE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  gsize length;

  f->dir = g_dir_make_tmp ("ballast-ui-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (source, &f->original, &length, &error));
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "model.sdf", NULL);
  g_assert_true (g_file_set_contents (f->path, f->original, length, &error));
  g_assert_no_error (error);

  f->window = bl_window_new (NULL);
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  file = g_file_new_for_path (f->path);
  g_assert_true (bl_window_load_file (f->window, file, &error));
  g_assert_no_error (error);
  gtk_window_present (GTK_WINDOW (f->window));
  drain ();
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  /* Close dialogs first, then the window without asking. */
  while (g_list_model_get_n_items (toplevels) > 0)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, 0);
      gtk_window_destroy (w);
    }
  drain ();
  g_assert_null (f->window);

  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_free (f->original);
}

static GtkWidget *
child (gpointer    widget,
       GType       type,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Selects the link's row in the outline's own selection model, as a click would. */
static void
select_in_outline (Fixture    *f,
                   const char *link_name)
{
  GtkWidget *outline = child (f->window, BL_TYPE_WINDOW, "outline");
  GtkListView *list = GTK_LIST_VIEW (child (outline, BL_TYPE_OUTLINE, "list_view"));
  GtkSelectionModel *model = gtk_list_view_get_model (list);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);
      g_autoptr(BlOutlineItem) item = gtk_tree_list_row_get_item (row);

      if (bl_outline_item_get_kind (item) == BL_OUTLINE_ITEM_LINK &&
          g_strcmp0 (bl_outline_item_get_name (item), link_name) == 0)
        {
          gtk_selection_model_select_item (model, i, TRUE);
          drain ();
          return;
        }
    }
  g_error ("no outline row for link %s", link_name);
}

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
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  return spin;
}

static void
type_into (GtkWidget  *widget,
           const char *text)
{
  GtkWidget *target = widget;

  gtk_editable_set_text (GTK_EDITABLE (widget), text);
  /* GTK 4.8's spin button has no ::activate; Enter reaches its GtkText. */
  if (GTK_IS_SPIN_BUTTON (widget))
    target = GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (widget)));
  g_signal_emit_by_name (target, "activate");
  drain ();
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
  GtkSpinButton *spin;

  select_in_outline (f, "link_2");
  spin = GTK_SPIN_BUTTON (collision_spin (f, "collision_2"));

  /* What holding the + button does: several steps in a row. */
  for (int i = 0; i < 5; i++)
    gtk_spin_button_spin (spin, GTK_SPIN_STEP_FORWARD, 1.0);
  drain ();
  g_assert_cmpstr (inspector_mass_text (f), ==, "11");

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.undo", NULL);
  drain ();
  g_assert_cmpstr (inspector_mass_text (f), ==, "6");
  g_assert_false (bl_window_get_modified (f->window));
}

static char *
replace_after (const char *text,
               const char *anchor,
               const char *old,
               const char *replacement)
{
  const char *a = strstr (text, anchor);
  const char *o;
  GString *s;

  g_assert_nonnull (a);
  o = strstr (a, old);
  g_assert_nonnull (o);
  s = g_string_new_len (text, o - text);
  g_string_append (s, replacement);
  g_string_append (s, o + strlen (old));
  return g_string_free (s, FALSE);
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
      g_assert_nonnull (gtk_widget_get_tooltip_text (spin));
      g_assert_cmpfloat (((BlCollision *) g_ptr_array_index (link->collisions, 0))->density, ==, 6.0);
      g_assert_cmpstr (inspector_mass_text (f), ==, "6");
      g_assert_false (bl_window_get_modified (f->window));
    }

  /* A good value afterwards clears the message. */
  type_into (collision_spin (f, "collision_2"), "7");
  g_assert_false (gtk_widget_has_css_class (collision_spin (f, "collision_2"), "error"));
  g_assert_cmpstr (inspector_mass_text (f), ==, "7");
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
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
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
  gtk_dialog_response (GTK_DIALOG (dialog), 1 /* discard */);
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

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("LC_NUMERIC", "C", TRUE);
  gtk_test_init (&argc, &argv, NULL);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/ui/window/select-and-edit-density", test_select_and_edit_density);
  ADD ("/ui/window/added-mass-mirror", test_added_mass_mirror);
  ADD ("/ui/window/undo-redo", test_undo_redo);
  ADD ("/ui/window/spin-drag-is-one-step", test_spin_drag_is_one_step);
  ADD ("/ui/window/save-and-compare", test_save_and_compare);
  ADD ("/ui/window/refuse-invalid-density", test_refuse_invalid_density);
  ADD ("/ui/window/refuse-invalid-added-mass", test_refuse_invalid_added_mass);
  ADD ("/ui/window/ask-before-close", test_ask_before_close);
  ADD ("/ui/window/close-without-edits", test_close_without_edits);
  ADD ("/ui/window/reload-when-changed-on-disk", test_reload_when_changed_on_disk);
#undef ADD

  return g_test_run ();
}
