/* test-ui-failures.c: every failure is visible where the user looks (issue 13):
 * the document's own problems above the view, a notice after Export Baked, a
 * file changed on disk, the recent files menu.  The user's acts are real
 * events through the X server. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "bl-application.h"
#include "bl-edit.h"
#include "bl-inspector.h"
#include "bl-problems-bar.h"
#include "bl-resource.h"
#include "bl-toast.h"
#include "bl-window.h"
#include "ui-common.h"
#include "ui-input.h"

/* A world whose first model is included from a folder Ballast is not told
 * about: models/bl_thruster beside it is neither on the model path nor
 * NAME beside the file.  The <uri> is on line 5. */
#define MISSING_LINE 5
static const char missing_world[] =
  "<?xml version=\"1.0\"?>\n"
  "<sdf version=\"1.11\">\n"
  "  <world name=\"sea\">\n"
  "    <include>\n"
  "      <uri>model://bl_thruster</uri>\n"
  "      <pose>0 0 -2 0 0 0</pose>\n"
  "    </include>\n"
  "    <model name=\"buoy\">\n"
  "      <link name=\"float\">\n"
  "        <inertial auto=\"true\"/>\n"
  "        <collision name=\"c\">\n"
  "          <geometry><sphere><radius>0.3</radius></sphere></geometry>\n"
  "          <density>500</density>\n"
  "        </collision>\n"
  "      </link>\n"
  "    </model>\n"
  "  </world>\n"
  "</sdf>\n";

/* The included model: a 0.2 × 0.2 × 0.4 m box of 2000 kg/m³, 32 kg. */
static const char thruster_sdf[] =
  "<?xml version=\"1.0\"?>\n"
  "<sdf version=\"1.11\">\n"
  "  <model name=\"bl_thruster\">\n"
  "    <link name=\"rotor\">\n"
  "      <inertial auto=\"true\"/>\n"
  "      <collision name=\"c\">\n"
  "        <geometry><box><size>0.2 0.2 0.4</size></box></geometry>\n"
  "        <density>2000</density>\n"
  "      </collision>\n"
  "    </link>\n"
  "  </model>\n"
  "</sdf>\n";

static const char thruster_config[] =
  "<?xml version=\"1.0\"?>\n"
  "<model><name>bl_thruster</name><sdf version=\"1.11\">model.sdf</sdf></model>\n";

/* Writes f->dir/models/bl_thruster; returns the path of models/. */
static char *
write_thruster (Fixture *f)
{
  g_autofree char *models = g_build_filename (f->dir, "models", NULL);
  g_autofree char *folder = g_build_filename (models, "bl_thruster", NULL);
  g_autofree char *sdf = g_build_filename (folder, "model.sdf", NULL);
  g_autofree char *config = g_build_filename (folder, "model.config", NULL);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (sdf, thruster_sdf, -1, NULL));
  g_assert_true (g_file_set_contents (config, thruster_config, -1, NULL));
  return g_steal_pointer (&models);
}

/* The button of the info bar that closes it. */
static GtkWidget *
find_close_button (GtkWidget *root)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (root)), "window-close-symbolic") == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_close_button (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* ---- The document's own problems ----------------------------------------- */

/* A failed include says what failed, where, and how to fix it; Details
 * lists it in full. */
static void
test_include_banner (Fixture       *f,
                     gconstpointer  data)
{
  GPtrArray *diagnostics;
  const BlDiagnostic *d;
  g_autofree char *where = g_strdup_printf ("model.sdf, line %d: ", MISSING_LINE);
  GtkWidget *bar, *details, *add;
  GtkPopover *popover;

  open_copy (f, NULL, missing_world);
  g_free (write_thruster (f));
  bar = problems_bar (f);
  WAIT_UNTIL (bar_shown (f));
  g_assert_true (bar_shown (f));

  diagnostics = bl_document_get_diagnostics (bl_window_get_document (f->window));
  g_assert_cmpuint (diagnostics->len, ==, 1);
  d = g_ptr_array_index (diagnostics, 0);
  g_assert_cmpint (d->line, ==, MISSING_LINE);

  /* What, where and how to fix it. */
  g_assert_cmpstr (bar_text (f, "title_label"), ==, "A model could not be found");
  g_assert_true (g_str_has_prefix (bar_text (f, "message_label"), where));
  g_assert_nonnull (strstr (bar_text (f, "message_label"), "model://bl_thruster"));
  /* The folders searched: the file's own among them. */
  g_assert_nonnull (strstr (bar_text (f, "message_label"), f->dir));
  g_assert_cmpstr (bar_text (f, "hint_label"), ==,
                   "To fix it, add the folder that holds the “bl_thruster” folder (Ballast and ballast-cli "
                   "keep it), or set GZ_SIM_RESOURCE_PATH to it before starting Ballast.");
  g_assert_true (gtk_widget_get_visible (child (bar, BL_TYPE_PROBLEMS_BAR, "hint_label")));
  add = child (bar, BL_TYPE_PROBLEMS_BAR, "add_path_button");
  g_assert_true (gtk_widget_get_mapped (add));
  g_assert_true (gtk_widget_is_sensitive (add));

  /* Details: the whole message, which names the folders searched. */
  details = child (bar, BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), d->message));
  {
    g_autofree char *location = g_strdup_printf ("model.sdf, line %d", MISSING_LINE);
    g_assert_nonnull (find_label (GTK_WIDGET (popover), location));
  }
  g_assert_nonnull (strstr (d->message, f->dir));
  /* … and lists them, one a line: the file's own folder among them. */
  {
    GPtrArray *failures = bl_document_get_include_failures (bl_window_get_document (f->window));
    const BlIncludeFailure *failure;
    g_autofree char *folders = NULL;
    g_autofree char *searched = NULL;

    g_assert_cmpuint (failures->len, ==, 1);
    failure = g_ptr_array_index (failures, 0);
    g_assert_cmpstr (failure->uri, ==, "model://bl_thruster");
    g_assert_true (g_strv_contains ((const char * const *) failure->searched, f->dir));
    folders = g_strjoinv ("\n", failure->searched);
    searched = g_strdup_printf ("Searched:\n%s", folders);
    g_assert_nonnull (find_label (GTK_WIDGET (popover), searched));
  }
  gtk_popover_popdown (popover);
  drain ();
}

/* A world of one include that failed: no outline to pick from, and the
 * inspector does not ask for a pick but points at the bar. */
static void
test_include_only (Fixture       *f,
                   gconstpointer  data)
{
  static const char text[] =
    "<?xml version=\"1.0\"?>\n"
    "<sdf version=\"1.11\">\n"
    "  <world name=\"sea\">\n"
    "    <include><uri>model://bl_thruster</uri></include>\n"
    "  </world>\n"
    "</sdf>\n";
  GtkWidget *inspector;

  open_copy (f, NULL, text);
  WAIT_UNTIL (bar_shown (f));
  g_assert_true (bar_shown (f));
  /* The world left without a model is a warning that follows from it. */
  g_assert_cmpuint (bl_document_get_diagnostics (bl_window_get_document (f->window))->len, ==, 2);
  g_assert_cmpstr (bar_text (f, "title_label"), ==, "A model could not be found");
  g_assert_true (g_str_has_prefix (bar_text (f, "message_label"), "model.sdf, line 4: "));

  inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  g_assert_cmpuint (bl_document_get_links (bl_window_get_document (f->window))->len, ==, 0);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (inspector, BL_TYPE_INSPECTOR, "empty_title_label"))),
                   ==, "No Links");
  g_assert_true (gtk_widget_get_mapped (child (inspector, BL_TYPE_INSPECTOR, "empty_title_label")));
}

/* The program's own application, registered (not run) in main(): it keeps
 * the model-paths setting and hands it to the resolver. */
static BlApplication *application;

/* Add Model Folder… asks for a folder, keeps it in the model-paths
 * setting (which ballast-cli reads too) and reloads: the include resolves
 * and the bar goes.  The included rotor: 0.2 × 0.2 × 0.4 m × 2000 kg/m³.
 * `data` is the folder the user picks under the test's folder: models/,
 * or the model's own models/bl_thruster, which means models/. */
static void
test_add_model_folder (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *models = NULL;
  g_autofree char *chosen = NULL;
  g_auto(GStrv) paths = NULL;
  BlDocument *old;
  BlLink *rotor;

  open_copy (f, NULL, missing_world);
  gtk_window_set_application (GTK_WINDOW (f->window), GTK_APPLICATION (application));
  models = write_thruster (f);
  chosen = g_build_filename (f->dir, (const char *) data, NULL);
  WAIT_UNTIL (bar_shown (f));
  g_assert_null (bl_document_find_link (bl_window_get_document (f->window), "bl_thruster::rotor"));
  old = bl_window_get_document (f->window);

  ui_input_click (child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "add_path_button"), 1);
  WAIT_UNTIL (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG) != NULL);
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG))), ==,
                   GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
  answer_file_chooser (chosen, NULL);

  /* Kept where Ballast and ballast-cli read it. */
  settings = g_settings_new ("app.ballast.Ballast");
  paths = g_settings_get_strv (settings, "model-paths");
  g_assert_cmpuint (g_strv_length (paths), ==, 1);
  g_assert_cmpstr (paths[0], ==, models);

  /* Reloaded: the model is there and nothing is left to report. */
  WAIT_UNTIL (bl_window_get_document (f->window) != old && !bl_window_get_loading (f->window));
  wait_for_load (f->window);
  rotor = bl_document_find_link (bl_window_get_document (f->window), "bl_thruster::rotor");
  g_assert_nonnull (rotor);
  g_assert_cmpfloat_with_epsilon (rotor->props.mass, 0.2 * 0.2 * 0.4 * 2000.0, 1e-9);
  g_assert_cmpuint (bl_document_get_diagnostics (bl_window_get_document (f->window))->len, ==, 0);
  g_assert_false (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (problems_bar (f))));
  g_assert_false (bl_window_get_modified (f->window));

  /* The resolver follows the setting: reset, it searches no extra folder
   * (and the next test starts without it). */
  g_settings_reset (settings, "model-paths");
  WAIT_UNTIL (extra_path_count () == 0);
  g_assert_cmpuint (extra_path_count (), ==, 0);
}

/* A file with several problems of its own counts them and lists each. */
static void
test_several_problems (Fixture       *f,
                       gconstpointer  data)
{
  /* No version (a warning), <static> unreadable and a model without a
   * name (two errors). */
  static const char text[] =
    "<?xml version=\"1.0\"?>\n"
    "<sdf>\n"
    "  <model name=\"m\">\n"
    "    <static>maybe</static>\n"
    "    <link name=\"l\"/>\n"
    "  </model>\n"
    "  <model>\n"
    "    <link name=\"k\"/>\n"
    "  </model>\n"
    "</sdf>\n";
  GtkWidget *bar, *details;
  GtkPopover *popover;
  GPtrArray *diagnostics;

  open_copy (f, NULL, text);
  bar = problems_bar (f);
  WAIT_UNTIL (bar_shown (f));
  g_assert_true (bar_shown (f));
  diagnostics = bl_document_get_diagnostics (bl_window_get_document (f->window));
  g_assert_cmpuint (diagnostics->len, ==, 3);
  g_assert_cmpstr (bar_text (f, "title_label"), ==, "The file has 2 errors and 1 warning");
  /* Errors first: the first error of the file, line 4. */
  g_assert_true (g_str_has_prefix (bar_text (f, "message_label"), "model.sdf, line 4: "));
  /* Nothing here that a model folder would fix. */
  g_assert_false (gtk_widget_get_visible (child (bar, BL_TYPE_PROBLEMS_BAR, "add_path_button")));
  g_assert_false (gtk_widget_get_visible (child (bar, BL_TYPE_PROBLEMS_BAR, "hint_label")));

  details = child (bar, BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  for (guint i = 0; i < diagnostics->len; i++)
    g_assert_nonnull (find_label (GTK_WIDGET (popover),
                                  ((BlDiagnostic *) g_ptr_array_index (diagnostics, i))->message));
  gtk_popover_popdown (popover);
  drain ();
}

/* 60 nameless models (120 errors) and a warning: Details lists the first
 * 50 problems, errors first, and counts the rest; the title counts them
 * all.  50,000 such models (a 450 kB file) took 10 s and 2 GB to show a
 * label each. */
static void
test_many_problems (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new ("<?xml version=\"1.0\"?>\n<sdf>\n  <world name=\"w\">\n");
  GtkWidget *bar, *details, *more;
  GtkPopover *popover;
  GPtrArray *diagnostics;
  guint rows = 0;

  for (guint i = 0; i < 60; i++)
    g_string_append (text, "    <model/>\n");
  g_string_append (text, "  </world>\n</sdf>\n");
  open_copy (f, NULL, text->str);
  bar = problems_bar (f);
  WAIT_UNTIL (bar_shown (f));
  g_assert_true (bar_shown (f));
  diagnostics = bl_document_get_diagnostics (bl_window_get_document (f->window));
  g_assert_cmpuint (diagnostics->len, ==, 121);
  g_assert_cmpstr (bar_text (f, "title_label"), ==, "The file has 120 errors and 1 warning");

  details = child (bar, BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  for (GtkWidget *row = gtk_widget_get_first_child (child (bar, BL_TYPE_PROBLEMS_BAR, "details_box"));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    rows += gtk_widget_has_css_class (row, "bl-problem");
  g_assert_cmpuint (rows, ==, 50);
  /* the warning (no version) is not among the first 50 */
  g_assert_null (find_label (GTK_WIDGET (popover), ((BlDiagnostic *) g_ptr_array_index (diagnostics, 0))->message));
  more = find_named (GTK_WIDGET (popover), "more-problems");
  g_assert_nonnull (more);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (more)), ==,
                   "and 71 more problems (ballast-cli check lists them all)");
  gtk_popover_popdown (popover);
  drain ();
}

/* A file without problems of its own shows no bar. */
static void
test_no_problems (Fixture       *f,
                  gconstpointer  data)
{
  g_assert_cmpuint (bl_document_get_diagnostics (bl_window_get_document (f->window))->len, ==, 0);
  g_assert_false (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (problems_bar (f))));
  g_assert_cmpint (gtk_widget_get_height (problems_bar (f)), ==, 0);
}

/* Closed, the bar stays closed for that document; a reload shows it again. */
static void
test_close_banner (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *close;

  open_copy (f, NULL, missing_world);
  WAIT_UNTIL (bar_shown (f));
  close = find_close_button (problems_bar (f));
  g_assert_nonnull (close);
  ui_input_click (close, 1);
  drain ();
  g_assert_false (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (problems_bar (f))));

  file = g_file_new_for_path (f->path);
  g_assert_true (bl_window_load_file (f->window, file, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (bar_shown (f));
  g_assert_true (bar_shown (f));
}

/* ---- Export Baked says where it wrote ------------------------------------ */

static BlToast *
toast (Fixture *f)
{
  GtkWidget *found = find_by_type (GTK_WIDGET (f->window), BL_TYPE_TOAST);

  g_assert_nonnull (found);
  return BL_TOAST (found);
}

static void
test_export_toast (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *expected = g_strdup_printf ("Exported “baked.sdf” to %s", f->dir);
  g_autofree char *baked = g_build_filename (f->dir, "baked.sdf", NULL);
  GtkWidget *label, *close;

  g_assert_null (bl_toast_get_text (toast (f)));

  /* Ctrl+E, as the menu says. */
  ui_input_focus_window (GTK_WIDGET (f->window));
  ui_input_key (GDK_KEY_e, GDK_CONTROL_MASK);
  answer_file_chooser (f->dir, "baked.sdf");
  g_assert_true (g_file_test (baked, G_FILE_TEST_IS_REGULAR));

  g_assert_cmpstr (bl_toast_get_text (toast (f)), ==, expected);
  label = find_label (GTK_WIDGET (toast (f)), expected);
  g_assert_nonnull (label);
  WAIT_UNTIL (gtk_widget_get_mapped (label) && gtk_widget_get_height (label) > 0);
  g_assert_true (gtk_widget_get_mapped (label));
  g_assert_true (gtk_widget_get_visible (child (toast (f), BL_TYPE_TOAST, "open_button")));

  /* Its close button takes it away. */
  close = child (toast (f), BL_TYPE_TOAST, "close_button");
  WAIT_UNTIL (gtk_widget_get_height (close) > 0);
  ui_input_click (close, 1);
  drain ();
  g_assert_null (bl_toast_get_text (toast (f)));
  WAIT_UNTIL (!gtk_widget_get_visible (GTK_WIDGET (toast (f))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (toast (f))));

  /* Left alone, it goes by itself after a few seconds. */
  ui_input_focus_window (GTK_WIDGET (f->window));
  ui_input_key (GDK_KEY_e, GDK_CONTROL_MASK);
  answer_file_chooser (f->dir, "again.sdf");
  g_free (expected);
  expected = g_strdup_printf ("Exported “again.sdf” to %s", f->dir);
  g_assert_cmpstr (bl_toast_get_text (toast (f)), ==, expected);
  WAIT_UNTIL (!gtk_widget_get_visible (GTK_WIDGET (toast (f))));
  g_assert_null (bl_toast_get_text (toast (f)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (toast (f))));
}

/* ---- A file changed on disk ---------------------------------------------- */

/* The fixture with collision_2's density 6 → `density`, as another
 * program would write it. */
static char *
with_density (Fixture    *f,
              const char *density)
{
  const char *collision = strstr (f->original, "<collision name=\"collision_2\">");
  const char *old = strstr (collision, "<density>6</density>");
  g_autofree char *head = g_strndup (f->original, old - f->original);

  return g_strdup_printf ("%s<density>%s</density>%s", head, density, old + strlen ("<density>6</density>"));
}

static BlCollision *
collision_2 (Fixture *f)
{
  return bl_document_find_collision (bl_window_get_document (f->window), "test_model::link_2", "collision_2");
}

/* An unsaved edit (2500), then another program writes 12. */
static GtkDialog *
edit_then_change_on_disk (Fixture    *f,
                          const char *external)
{
  g_autoptr(BlEdit) edit = bl_edit_new_collision_density (bl_window_get_document (f->window), collision_2 (f), 2500);
  g_autoptr(GError) error = NULL;
  GtkWindow *dialog;

  g_assert_true (bl_window_do_edit (f->window, edit, &error));
  g_assert_no_error (error);
  g_assert_true (bl_window_get_modified (f->window));
  g_assert_true (g_file_set_contents (f->path, external, -1, NULL));
  WAIT_UNTIL (find_dialog (GTK_TYPE_MESSAGE_DIALOG) != NULL);
  dialog = find_dialog (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (dialog);
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (dialog)) && gtk_widget_get_width (GTK_WIDGET (dialog)) > 0);
  return GTK_DIALOG (dialog);
}

/* The dialog's button whose label reads `label`. */
static GtkWidget *
dialog_button (GtkDialog  *dialog,
               const char *label)
{
  GtkWidget *found = find_menu_item (GTK_WIDGET (dialog), label);

  g_assert_nonnull (found);
  g_assert_true (GTK_IS_BUTTON (found));
  WAIT_UNTIL (gtk_widget_get_mapped (found) && gtk_widget_get_width (found) > 0);
  return found;
}

static void
assert_disk (Fixture    *f,
             const char *expected)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);
}

static void
test_disk_changed_reload (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *external = with_density (f, "12");
  GtkDialog *dialog = edit_then_change_on_disk (f, external);
  BlDocument *old = bl_window_get_document (f->window);

  /* Each choice is named for what it does. */
  dialog_button (dialog, "Keep My Version");
  ui_input_click (dialog_button (dialog, "Reload from Disk (Lose My Edits)"), 1);
  WAIT_UNTIL (bl_window_get_document (f->window) != old && !bl_window_get_loading (f->window));
  wait_for_load (f->window);
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));

  /* The other program's version, the edit gone, the file untouched. */
  g_assert_cmpfloat (collision_2 (f)->density, ==, 12.0);
  g_assert_false (bl_window_get_modified (f->window));
  assert_disk (f, external);
}

static void
test_disk_changed_keep (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *external = with_density (f, "12");
  GtkDialog *dialog = edit_then_change_on_disk (f, external);
  GtkWindow *replace;
  g_autofree char *saved = NULL;

  ui_input_click (dialog_button (dialog, "Keep My Version"), 1);
  drain ();
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));

  /* Kept: the edit stays unsaved, and nothing was written. */
  g_assert_cmpfloat (collision_2 (f)->density, ==, 2500.0);
  g_assert_true (bl_window_get_modified (f->window));
  assert_disk (f, external);

  /* Saving asks before it writes over the other program's version;
   * Cancel writes nothing. */
  ui_input_focus_window (GTK_WIDGET (f->window));
  ui_input_key (GDK_KEY_s, GDK_CONTROL_MASK);
  WAIT_UNTIL (find_dialog (GTK_TYPE_MESSAGE_DIALOG) != NULL);
  replace = find_dialog (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (replace);
  ui_input_click (dialog_button (GTK_DIALOG (replace), "Cancel"), 1);
  drain ();
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
  assert_disk (f, external);
  g_assert_true (bl_window_get_modified (f->window));

  /* Asked again, Replace writes the user's version. */
  ui_input_focus_window (GTK_WIDGET (f->window));
  ui_input_key (GDK_KEY_s, GDK_CONTROL_MASK);
  WAIT_UNTIL (find_dialog (GTK_TYPE_MESSAGE_DIALOG) != NULL);
  replace = find_dialog (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (replace);
  ui_input_click (dialog_button (GTK_DIALOG (replace), "Replace the File on Disk"), 1);
  drain ();
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
  g_assert_false (bl_window_get_modified (f->window));
  saved = with_density (f, "2500");
  assert_disk (f, saved);

  /* Once replaced, a save is a save again: no question. */
  {
    g_autoptr(BlEdit) edit = bl_edit_new_collision_density (bl_window_get_document (f->window), collision_2 (f), 3000);
    g_autofree char *again = with_density (f, "3000");

    g_assert_true (bl_window_do_edit (f->window, edit, NULL));
    ui_input_focus_window (GTK_WIDGET (f->window));
    ui_input_key (GDK_KEY_s, GDK_CONTROL_MASK);
    drain ();
    g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));
    assert_disk (f, again);
  }
}

/* ---- Recent files --------------------------------------------------------- */

static char *
write_copy (Fixture    *f,
            const char *relative)
{
  g_autofree char *path = g_build_filename (f->dir, relative, NULL);
  g_autofree char *folder = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, f->original, -1, NULL));
  return g_steal_pointer (&path);
}

/* A popover settles its size, and so its place beside its button, over a
 * few frames: wait until the widget's place in it and the popover's size
 * stay the same, so that a click lands on the widget. */
static void
wait_until_still (GtkWidget *widget)
{
  GtkWidget *native = GTK_WIDGET (gtk_widget_get_native (widget));
  graphene_rect_t before = GRAPHENE_RECT_INIT (-1, -1, -1, -1);
  int width = -1, height = -1;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  int still = 0;

  while (still < 3 && g_get_monotonic_time () < deadline)
    {
      graphene_rect_t now;
      gboolean same;

      drain ();
      g_assert_true (gtk_widget_compute_bounds (widget, native, &now));
      same = graphene_rect_equal (&now, &before) && width == gtk_widget_get_width (native) &&
             height == gtk_widget_get_height (native);
      still = same ? still + 1 : 0;
      before = now;
      width = gtk_widget_get_width (native);
      height = gtk_widget_get_height (native);
      g_usleep (20000);
    }
  g_assert_cmpint (still, ==, 3);
}

static guint
recent_count (GtkMenuButton *button)
{
  GMenuModel *menu = gtk_menu_button_get_menu_model (button);
  g_autoptr(GMenuModel) section = menu != NULL ? g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION) : NULL;

  return section != NULL ? g_menu_model_get_n_items (section) : 0;
}

/* Underscores show; files of one name are told apart by their folders
 * (the home folder as ~: main() makes HOME a folder of this run); a click
 * opens the one clicked. */
static void
test_recent_labels (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *underscored = write_copy (f, "my_model.sdf");
  g_autofree char *world_a = write_copy (f, "a/world.sdf");
  g_autofree char *world_b = write_copy (f, "b/world.sdf");
  g_autofree char *home_folder = g_build_filename (g_get_home_dir (), "bl-recent", NULL);
  g_autofree char *world_home = g_build_filename (home_folder, "world.sdf", NULL);
  const char *paths[] = { underscored, world_a, world_b, world_home };
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GtkMenuButton *button = GTK_MENU_BUTTON (child (f->window, BL_TYPE_WINDOW, "recent_button"));
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;
  GtkPopover *popover;
  GtkWidget *item;

  g_assert_cmpint (g_mkdir_with_parents (home_folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (world_home, f->original, -1, NULL));
  gtk_recent_manager_purge_items (manager, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *uri = g_filename_to_uri (paths[i], NULL, NULL);
      g_assert_true (gtk_recent_manager_add_item (manager, uri));
    }
  WAIT_UNTIL (recent_count (button) == 4);
  g_assert_cmpuint (recent_count (button), ==, 4);

  ui_input_click (GTK_WIDGET (button), 1);
  popover = gtk_menu_button_get_popover (button);
  WAIT_UNTIL (popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));

  g_assert_nonnull (find_label (GTK_WIDGET (popover), "my_model.sdf"));
  g_assert_null (find_label (GTK_WIDGET (popover), "mymodel.sdf"));
  label_a = g_strdup_printf ("world.sdf — %s%sa", f->dir, G_DIR_SEPARATOR_S);
  label_b = g_strdup_printf ("world.sdf — %s%sb", f->dir, G_DIR_SEPARATOR_S);
  g_assert_nonnull (find_label (GTK_WIDGET (popover), label_a));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), label_b));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "world.sdf — ~/bl-recent"));

  item = find_menu_item (GTK_WIDGET (popover), label_b);
  g_assert_nonnull (item);
  wait_until_still (item);
  ui_input_click (item, 1);
  WAIT_UNTIL (!bl_window_get_loading (f->window) && bl_window_get_file (f->window) != NULL &&
              g_str_has_suffix (g_file_peek_path (bl_window_get_file (f->window)), "b/world.sdf"));
  wait_for_load (f->window);
  g_assert_cmpstr (g_file_peek_path (bl_window_get_file (f->window)), ==, world_b);
  remove_tree (home_folder);
}

/* A picture taken with --screenshot is no file the user opened. */
static void
test_screenshot_not_recent (void)
{
  const char *binary = g_getenv ("BALLAST_BINARY");
  g_autofree char *dir = g_dir_make_tmp ("ballast-ui-XXXXXX", NULL);
  g_autofree char *data_home = g_build_filename (dir, "data", NULL);
  g_autofree char *model = g_build_filename (dir, "shot_model.sdf", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *store = g_build_filename (data_home, "recently-used.xbel", NULL);
  g_autofree char *source = g_build_filename (g_getenv ("BALLAST_FIXTURES"), FIXTURE, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *recent = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  char *argv[] = { (char *) binary, (char *) "--screenshot", png, model, NULL };
  int status;

  g_assert_nonnull (binary);
  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir (data_home, 0700), ==, 0);
  g_assert_true (g_file_get_contents (source, &contents, NULL, NULL));
  g_assert_true (g_file_set_contents (model, contents, -1, NULL));
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", data_home, TRUE);

  g_assert_true (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));

  /* The list may not exist at all; if it does, the file is not in it. */
  if (g_file_get_contents (store, &recent, NULL, NULL))
    g_assert_null (strstr (recent, "shot_model.sdf"));
  remove_tree (dir);
}

/* ballast --screenshot on a file past the window's bound of links fails,
 * saying which bound and how to lift it (here 20, from the settings of
 * the run's own: a keyfile). */
static void
test_screenshot_too_many_links (void)
{
  const char *binary = g_getenv ("BALLAST_BINARY");
  g_autofree char *dir = g_dir_make_tmp ("ballast-ui-XXXXXX", NULL);
  g_autofree char *settings_dir = g_build_filename (dir, "config", "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *config = g_build_filename (dir, "config", NULL);
  g_autofree char *model = g_build_filename (dir, "many.sdf", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  g_auto(GStrv) envp = g_get_environ ();
  char *argv[] = { (char *) binary, (char *) "--screenshot", png, model, NULL };
  /* 21 links; a model and 80 collisions, 81 parts (4 for each of the 20
   * links the window opens) */
  static const struct { guint n; guint line; const char *what; } cases[] = {
    { 21, 22, "20 links" },
    { 81, 82, "80 models, collisions, frames, joints and plugins" },
  };

  g_assert_nonnull (binary);
  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (keyfile, "[app/ballast/Ballast]\nwindow-max-links=uint32 20\n", -1, NULL));
  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "keyfile", TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GString) text = g_string_new ("<sdf version=\"1.11\"><model name=\"m\">\n");
      g_autofree char *expected = NULL;
      g_autofree char *err = NULL;
      g_autoptr(GError) error = NULL;
      int status;

      if (c == 0)
        for (guint i = 0; i < cases[c].n; i++)
          g_string_append_printf (text, "<link name=\"l%u\"/>\n", i);
      else
        {
          g_string_append (text, "<link name=\"l\">\n");
          for (guint i = 0; i < cases[c].n - 1; i++)
            g_string_append_printf (text, "<collision name=\"c%u\"/>\n", i);
          g_string_append (text, "</link>\n");
        }
      g_string_append (text, "</model></sdf>\n");
      g_assert_true (g_file_set_contents (model, text->str, -1, NULL));

      g_assert_true (g_spawn_sync (NULL, argv, envp, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                                   &status, &error));
      g_assert_no_error (error);
      g_assert_false (g_spawn_check_wait_status (status, NULL));
      g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
      expected = g_strdup_printf ("ballast: %s is larger than the window opens (the setting window-max-links; "
                                  "0 lifts it): %s:%u: more than %s (with the included files), the most this "
                                  "load allows; the file is not read\n", model, model, cases[c].line,
                                  cases[c].what);
      g_assert_nonnull (strstr (err, expected));
    }
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *home = g_dir_make_tmp ("ballast-ui-home-XXXXXX", NULL);
  int status;

  /* The model path comes from the test alone. */
  g_unsetenv ("GZ_SIM_RESOURCE_PATH");
  g_unsetenv ("IGN_GAZEBO_RESOURCE_PATH");
  g_unsetenv ("SDF_PATH");
  g_unsetenv ("GAZEBO_MODEL_PATH");
  /* Before anything asks GLib for it: recent files under ~ show as such. */
  g_assert_nonnull (home);
  g_setenv ("HOME", home, TRUE);
  ui_test_init (&argc, &argv);
  g_assert_cmpstr (g_get_home_dir (), ==, home);
  application = register_application ();

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
#define ADD_OWN(path, fn) g_test_add (path, Fixture, NULL, NULL, fn, fixture_tear_down)
  ADD_OWN ("/ui/failures/include/banner", test_include_banner);
  ADD_OWN ("/ui/failures/include/only-include", test_include_only);
  g_test_add ("/ui/failures/include/add-model-folder", Fixture, "models", NULL, test_add_model_folder,
              fixture_tear_down);
  g_test_add ("/ui/failures/include/add-model-folder/the-model-itself", Fixture, "models/bl_thruster", NULL,
              test_add_model_folder, fixture_tear_down);
  ADD_OWN ("/ui/failures/problems/several", test_several_problems);
  ADD_OWN ("/ui/failures/problems/many", test_many_problems);
  ADD ("/ui/failures/problems/none", test_no_problems);
  ADD_OWN ("/ui/failures/problems/close", test_close_banner);
  ADD ("/ui/failures/export-baked/toast", test_export_toast);
  ADD ("/ui/failures/disk-changed/reload", test_disk_changed_reload);
  ADD ("/ui/failures/disk-changed/keep-then-save", test_disk_changed_keep);
  ADD ("/ui/failures/recent/labels", test_recent_labels);
  g_test_add_func ("/ui/failures/recent/not-from-screenshot", test_screenshot_not_recent);
  g_test_add_func ("/ui/failures/screenshot/too-many-links", test_screenshot_too_many_links);

  status = ui_test_run ();
  g_clear_object (&application);
  remove_tree (home);
  return status;
}
