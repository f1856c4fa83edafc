/* test-ui-window.c: the window and what it shows (issue 18): what the
 * window's session does to the shown document when it writes files, and
 * the one document, selection and fluid density the widgets follow. */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-added-mass-editor.h"
#include "bl-application-settings.h"
#include "bl-inspector.h"
#include "bl-outline.h"
#include "bl-problems-bar.h"
#include "bl-viewport.h"
#include "bl-window.h"
#include "ui-common.h"
#include "ui-input.h"

static void
count_signal (gpointer  instance,
              gpointer  link,
              guint    *count)
{
  (*count)++;
}

/* Export Baked (Ctrl+E, real keys) bakes a copy: the shown document is
 * never changed, not even for the length of the write (it used to apply
 * the bake to the open document and revert it, so that every widget saw
 * each automatic link change twice).  The baked file holds link_2 as the
 * explicit 6 kg with Ixx = 6·2/12 = 1 that auto inertia computes. */
static void
test_export_baked_leaves_document (Fixture       *f,
                                   gconstpointer  data)
{
  g_autofree char *baked_path = g_build_filename (f->dir, "baked.sdf", NULL);
  BlDocument *shown = bl_window_get_document (f->window);
  g_autoptr(BlDocument) baked = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  guint link_changes = 0;
  gulong id;
  BlLink *link;

  id = g_signal_connect (shown, "link-changed", G_CALLBACK (count_signal), &link_changes);
  ui_input_focus_window (GTK_WIDGET (f->window));
  ui_input_key (GDK_KEY_e, GDK_CONTROL_MASK);
  WAIT_UNTIL (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG) != NULL);
  answer_file_chooser (f->dir, "baked.sdf");
  WAIT_UNTIL (g_file_test (baked_path, G_FILE_TEST_EXISTS) && !bl_window_get_saving (f->window));
  drain ();
  g_signal_handler_disconnect (shown, id);

  g_assert_cmpuint (link_changes, ==, 0);
  g_assert_true (bl_window_get_document (f->window) == shown);
  g_assert_false (bl_window_get_modified (f->window));
  link = bl_document_find_link (shown, "test_model::link_2");
  g_assert_true (link->auto_inertia);
  g_assert_true (g_file_get_contents (f->path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, f->original);

  baked = bl_document_new_from_file (baked_path, &error);
  g_assert_no_error (error);
  link = bl_document_find_link (baked, "test_model::link_2");
  g_assert_false (link->auto_inertia);
  g_assert_cmpfloat_with_epsilon (link->mass, 6.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (link->inertia[0], 1.0, 1e-12);
}

/* A save is written in a worker thread: while it runs the window says so,
 * and once done the file holds the edit and the window is clean. */
static void
test_save_reports_writing (Fixture       *f,
                           gconstpointer  data)
{
  BlDocument *shown = bl_window_get_document (f->window);
  BlCollision *collision = bl_document_find_collision (shown, "test_model::link_2", "collision_2");
  g_autoptr(BlEdit) edit = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;

  g_assert_nonnull (collision);
  edit = bl_edit_new_collision_density (shown, collision, 2500);
  g_assert_true (bl_window_do_edit (f->window, edit, &error));
  g_assert_no_error (error);
  g_assert_true (bl_window_get_modified (f->window));

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.save", NULL);
  /* Nothing ran on the main loop yet: the worker's end is not known. */
  g_assert_true (bl_window_get_saving (f->window));
  g_assert_true (bl_window_get_modified (f->window));
  WAIT_UNTIL (!bl_window_get_saving (f->window));
  drain ();

  g_assert_false (bl_window_get_saving (f->window));
  g_assert_false (bl_window_get_modified (f->window));
  g_assert_true (g_file_get_contents (f->path, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "<density>2500</density>"));
}

/* Two 1 m boxes 100 m apart, one model each, in a world. */
#define TWO_MODELS_SDF \
  "<?xml version=\"1.0\"?>\n" \
  "<sdf version=\"1.11\">\n" \
  "  <world name=\"w\">\n" \
  "    <model name=\"near\">\n" \
  "      <link name=\"near_link\">\n" \
  "        <inertial auto=\"true\"/>\n" \
  "        <collision name=\"box\"><density>1000</density>\n" \
  "          <geometry><box><size>1 1 1</size></box></geometry></collision>\n" \
  "      </link>\n" \
  "    </model>\n" \
  "    <model name=\"far\">\n" \
  "      <pose>100 0 0 0 0 0</pose>\n" \
  "      <link name=\"far_link\">\n" \
  "        <inertial auto=\"true\"/>\n" \
  "        <collision name=\"box\"><density>1000</density>\n" \
  "          <geometry><box><size>1 1 1</size></box></geometry></collision>\n" \
  "      </link>\n" \
  "    </model>\n" \
  "  </world>\n" \
  "</sdf>\n"

static void
assert_camera_frames (BlViewport *viewport,
                      double      x)
{
  BlCamera camera;

  bl_viewport_get_camera (viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.target[0], x, 1e-9);
  g_assert_cmpfloat_with_epsilon (camera.target[1], 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (camera.target[2], 0.0, 1e-9);
  /* a box of 1 m and its ellipsoid, not the 100 m between the boxes */
  g_assert_cmpfloat (camera.distance, <, 20.0);
}

/* A row of the outline activated frames what it shows in the 3D view: a
 * double-click on a link's row frames that link, Enter on a model's row
 * the model's links, and so does F in the view.  Each box is symmetric
 * about its model's origin, so the view looks at x = 100 m, then at x = 0,
 * then at x = 100 m again. */
static void
test_outline_activate_frames (Fixture       *f,
                              gconstpointer  data)
{
  BlViewport *viewport;
  BlCamera camera;

  open_copy (f, NULL, TWO_MODELS_SDF);
  viewport = BL_VIEWPORT (find_by_type (GTK_WIDGET (f->window), BL_TYPE_VIEWPORT));
  WAIT_UNTIL (gtk_widget_get_width (GTK_WIDGET (viewport)) > 0);
  drain ();
  bl_viewport_get_camera (viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.target[0], 50.0, 1e-9);   /* both boxes */
  g_assert_cmpfloat (camera.distance, >, 50.0);

  click_row (f, "far_link");
  ui_input_click (find_label (child (f->window, BL_TYPE_WINDOW, "outline"), "far_link"), 1);
  drain ();
  assert_camera_frames (viewport, 100.0);

  click_row (f, "near");
  ui_input_key (GDK_KEY_Return, 0);
  drain ();
  assert_camera_frames (viewport, 0.0);

  /* F in the 3D view frames the selected model too (the focus is given,
   * as a click in the view would select what it hits). */
  click_row (f, "far");
  gtk_widget_grab_focus (GTK_WIDGET (viewport));
  ui_input_key (GDK_KEY_f, 0);
  drain ();
  assert_camera_frames (viewport, 100.0);
}

/* An SDF file of N one-box links in one model, including INCLUDE (a
 * model file) when given. */
static char *
write_links_file (const char *dir,
                  const char *name,
                  guint       n,
                  const char *include)
{
  g_autoptr(GString) text = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n<model name=\"m\">\n");
  char *path = g_build_filename (dir, name, NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<link name=\"l%u\"><collision name=\"c\"><geometry><box><size>1 1 1</size>"
                                  "</box></geometry></collision></link>\n", i);
  if (include != NULL)
    g_string_append_printf (text, "<include><uri>%s</uri><name>part</name></include>\n", include);
  g_string_append (text, "</model>\n</sdf>\n");
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
  return path;
}

/* The window's question about FILE_NAME, past a bound of 20 links (or
 * WHAT, when not NULL), once on screen. */
static GtkMessageDialog *
wait_for_too_many (const char *file_name,
                   const char *what)
{
  GtkMessageDialog *dialog = wait_for_message_dialog ();
  g_autofree char *expected = g_strdup_printf ("“%s” has more than %s", file_name,
                                               what != NULL ? what : "20 links");
  g_autofree char *text = NULL;

  g_object_get (dialog, "text", &text, NULL);
  g_assert_cmpstr (text, ==, expected);
  return dialog;
}

/* Cancel, clicked, keeps SHOWN. */
static void
cancel_keeps (Fixture          *f,
              GtkMessageDialog *dialog,
              BlDocument       *shown)
{
  answer_dialog (dialog, GTK_RESPONSE_CANCEL);
  WAIT_UNTIL (find_dialog (GTK_TYPE_MESSAGE_DIALOG) == NULL);
  drain ();
  g_assert_true (bl_window_get_document (f->window) == shown);
}

/* Open Anyway, clicked, opens the file of N_LINKS in SHOWN's place. */
static void
open_anyway (Fixture          *f,
             GtkMessageDialog *dialog,
             BlDocument       *shown,
             guint             n_links)
{
  answer_dialog (dialog, 1 /* Open Anyway */);
  WAIT_UNTIL (bl_window_get_document (f->window) != shown && !bl_window_get_loading (f->window));
  g_assert_cmpuint (bl_document_get_links (bl_window_get_document (f->window))->len, ==, n_links);
}

/* A file of more links than the setting "window-max-links" (here 20),
 * included files counted, or of more than 4 times as many models,
 * collisions, frames, joints and plugins, is a question, not a load: Cancel keeps
 * what the window showed, Open Anyway opens it (each answered by a real
 * click).  At the bound, it opens without a word; grown past it on disk,
 * its reload asks. */
static void
test_too_many_links_asks (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GSettings) settings = bl_application_settings_new ();
  g_autofree char *at = write_links_file (f->dir, "at.sdf", 20, NULL);
  g_autofree char *past = write_links_file (f->dir, "past.sdf", 21, NULL);
  g_autofree char *part = write_links_file (f->dir, "part.sdf", 11, NULL);
  g_autofree char *whole = write_links_file (f->dir, "whole.sdf", 10, "part.sdf");
  BlDocument *shown = bl_window_get_document (f->window);
  g_autoptr(GFile) past_file = g_file_new_for_path (past);
  g_autoptr(GFile) whole_file = g_file_new_for_path (whole);
  g_autoptr(GFile) at_file = g_file_new_for_path (at);
  g_autoptr(GError) error = NULL;

  g_settings_set_uint (settings, "window-max-links", 20);

  bl_window_open (f->window, past_file);
  cancel_keeps (f, wait_for_too_many ("past.sdf", NULL), shown);

  /* included files count: 10 + 11 */
  bl_window_open (f->window, whole_file);
  cancel_keeps (f, wait_for_too_many ("whole.sdf", NULL), shown);

  /* a model, a link and 80 collisions: 81 parts */
  {
    g_autoptr(GString) text = g_string_new ("<sdf version=\"1.11\"><model name=\"m\"><link name=\"l\">\n");
    g_autofree char *path = g_build_filename (f->dir, "parts.sdf", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);

    for (guint i = 0; i < 80; i++)
      g_string_append_printf (text, "<collision name=\"c%u\"/>\n", i);
    g_string_append (text, "</link></model></sdf>\n");
    g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
    bl_window_open (f->window, file);
    cancel_keeps (f, wait_for_too_many ("parts.sdf", "80 models, collisions, frames, joints and plugins"), shown);
    g_assert_false (bl_window_load_file (f->window, file, &error));
    g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_PARTS);
    g_clear_error (&error);
  }

  bl_window_open (f->window, past_file);
  open_anyway (f, wait_for_too_many ("past.sdf", NULL), shown, 21);
  g_assert_null (find_dialog (GTK_TYPE_MESSAGE_DIALOG));

  g_assert_true (bl_window_load_file (f->window, at_file, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bl_document_get_links (bl_window_get_document (f->window))->len, ==, 20);
  g_assert_false (bl_window_load_file (f->window, whole_file, &error));
  g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_LINKS);
  g_clear_error (&error);

  /* at.sdf, shown, grows past the bound on disk: its reload asks too */
  g_assert_true (bl_window_load_file (f->window, at_file, &error));
  shown = bl_window_get_document (f->window);
  g_free (write_links_file (f->dir, "at.sdf", 21, NULL));
  {
    GtkMessageDialog *dialog = wait_for_too_many ("at.sdf", NULL);

    g_assert_true (bl_window_get_document (f->window) == shown);
    open_anyway (f, dialog, shown, 21);
  }

  g_settings_reset (settings, "window-max-links");
  g_assert_cmpuint (g_settings_get_uint (settings, "window-max-links"), ==, 20000);
}

static double
fluid_density (gpointer object)
{
  double value;

  g_object_get (object, "fluid-density", &value, NULL);
  return value;
}

static void
assert_fluid_range (GType type)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (type);
  GParamSpecDouble *pspec = G_PARAM_SPEC_DOUBLE (g_object_class_find_property (G_OBJECT_CLASS (klass),
                                                                               "fluid-density"));

  g_assert_cmpfloat (pspec->minimum, ==, BL_FLUID_DENSITY_MIN);
  g_assert_cmpfloat (pspec->maximum, ==, BL_FLUID_DENSITY_MAX);
}

/* One fluid density: the window's, of one range everywhere (the setting's
 * 0.001 to 100000 kg/m³); the viewport, the inspector and the Added Mass
 * page follow it, and what the user types on a page is the window's. */
static void
test_fluid_density_one_source (Fixture       *f,
                               gconstpointer  data)
{
  GtkWidget *viewport = find_by_type (GTK_WIDGET (f->window), BL_TYPE_VIEWPORT);
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  g_autoptr(GSettings) settings = bl_application_settings_new ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) key = NULL;
  g_autoptr(GVariant) range = NULL;
  g_autoptr(GVariant) bounds = NULL;
  const char *kind;
  double low, high;

  assert_fluid_range (BL_TYPE_WINDOW);
  assert_fluid_range (BL_TYPE_VIEWPORT);
  assert_fluid_range (BL_TYPE_INSPECTOR);
  assert_fluid_range (BL_TYPE_ADDED_MASS_EDITOR);
  g_assert_nonnull (settings);
  g_object_get (settings, "settings-schema", &schema, NULL);
  key = g_settings_schema_get_key (schema, "fluid-density");
  range = g_settings_schema_key_get_range (key);
  g_variant_get (range, "(&sv)", &kind, &bounds);
  g_assert_cmpstr (kind, ==, "range");
  g_variant_get (bounds, "(dd)", &low, &high);
  g_assert_cmpfloat (low, ==, BL_FLUID_DENSITY_MIN);
  g_assert_cmpfloat (high, ==, BL_FLUID_DENSITY_MAX);

  g_assert_nonnull (viewport);
  g_object_set (f->window, "fluid-density", BL_FLUID_DENSITY_FRESH_WATER, NULL);
  g_assert_cmpfloat (fluid_density (viewport), ==, 1000.0);
  g_assert_cmpfloat (fluid_density (inspector), ==, 1000.0);
  g_assert_cmpfloat (fluid_density (editor), ==, 1000.0);

  g_object_set (editor, "fluid-density", BL_FLUID_DENSITY_AIR, NULL);
  g_assert_cmpfloat (fluid_density (f->window), ==, 1.225);
  g_assert_cmpfloat (fluid_density (viewport), ==, 1.225);
  g_assert_cmpfloat (fluid_density (inspector), ==, 1.225);
  g_assert_cmpfloat (g_settings_get_double (settings, "fluid-density"), ==, 1.225);
}

static gpointer
document_of (gpointer object)
{
  g_autoptr(BlDocument) document = NULL;

  g_object_get (object, "document", &document, NULL);
  return document;   /* the window still holds it */
}

/* Every widget that shows the document has it as a property bound to the
 * window's one source: a new document reaches all of them. */
static void
test_document_one_source (Fixture       *f,
                          gconstpointer  data)
{
  const char *names[] = { "inspector", "added_mass_editor", "outline" };
  GtkWidget *followers[5];
  BlDocument *sample;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    followers[i] = child (f->window, BL_TYPE_WINDOW, names[i]);
  followers[3] = find_by_type (GTK_WIDGET (f->window), BL_TYPE_VIEWPORT);
  followers[4] = find_by_type (GTK_WIDGET (f->window), BL_TYPE_PROBLEMS_BAR);

  for (guint i = 0; i < G_N_ELEMENTS (followers); i++)
    {
      g_assert_nonnull (followers[i]);
      g_assert_true (document_of (followers[i]) == bl_window_get_document (f->window));
    }
  bl_window_load_sample (f->window);
  sample = bl_window_get_document (f->window);
  g_assert_nonnull (bl_document_find_link (sample, "sample_auv::hull"));
  for (guint i = 0; i < G_N_ELEMENTS (followers); i++)
    g_assert_true (document_of (followers[i]) == sample);
}

static gpointer
pointer_of (gpointer    object,
            const char *property)
{
  gpointer value = NULL;

  g_object_get (object, property, &value, NULL);
  return value;
}

/* What each widget shows of the selection: the inspector's link and
 * model, the Added Mass page's link, the 3D view's link and collision. */
static void
assert_selection_shown (GtkWidget   *inspector,
                        GtkWidget   *editor,
                        GtkWidget   *viewport,
                        BlLink      *link,
                        BlModel     *model,
                        BlCollision *collision)
{
  g_assert_true (pointer_of (inspector, "link") == link);
  g_assert_true (pointer_of (inspector, "model") == model);
  g_assert_true (pointer_of (editor, "link") == link);
  g_assert_true (pointer_of (viewport, "selected-link") == link);
  g_assert_true (pointer_of (viewport, "selected-collision") == collision);
}

/* The selection has one source, the outline's properties, which the
 * inspector, the Added Mass page and the 3D view are bound to: a real
 * click on a row, and the outline's property set alone, reach every one;
 * the outline notifies only on a change. */
static void
test_selection_one_source (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *outline = child (f->window, BL_TYPE_WINDOW, "outline");
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *viewport = find_by_type (GTK_WIDGET (f->window), BL_TYPE_VIEWPORT);
  BlDocument *document = bl_window_get_document (f->window);
  BlLink *link_2 = bl_document_find_link (document, "test_model::link_2");
  BlLink *link_3 = bl_document_find_link (document, "test_model::link_3");
  BlCollision *collision_2 = bl_document_find_collision (document, "test_model::link_2", "collision_2");
  BlModel *model = g_ptr_array_index (bl_document_get_models (document), 0);
  guint link_notifies = 0;
  gulong id;

  g_assert_nonnull (link_2);
  g_assert_nonnull (link_3);
  g_assert_nonnull (collision_2);
  g_assert_cmpstr (model->name, ==, "test_model");
  /* A file opens with its first moving link selected, in every widget. */
  g_assert_nonnull (pointer_of (outline, "selected-link"));
  g_assert_true (pointer_of (outline, "selected-link") != link_2);
  assert_selection_shown (inspector, editor, viewport, pointer_of (outline, "selected-link"), NULL, NULL);

  click_row (f, "link_2");
  WAIT_UNTIL (pointer_of (outline, "selected-link") == link_2);
  assert_selection_shown (inspector, editor, viewport, link_2, NULL, NULL);

  click_row (f, "test_model");
  WAIT_UNTIL (pointer_of (outline, "selected-model") == model);
  g_assert_null (pointer_of (outline, "selected-link"));
  assert_selection_shown (inspector, editor, viewport, NULL, model, NULL);

  past_double_click ();
  ui_input_click (row_arrow (f, "link_2"), 1);
  WAIT_UNTIL (find_label (outline, "collision_2") != NULL);
  drain ();
  click_row (f, "collision_2");
  WAIT_UNTIL (pointer_of (outline, "selected-collision") == collision_2);
  g_assert_true (pointer_of (outline, "selected-link") == link_2);
  assert_selection_shown (inspector, editor, viewport, link_2, NULL, collision_2);

  /* The outline's property alone; the same value again is no change. */
  id = g_signal_connect (outline, "notify::selected-link", G_CALLBACK (count_signal), &link_notifies);
  g_object_set (outline, "selected-link", link_3, NULL);
  g_object_set (outline, "selected-link", link_3, NULL);
  g_assert_cmpuint (link_notifies, ==, 1);
  g_assert_true (bl_outline_get_selected_link (BL_OUTLINE (outline)) == link_3);
  assert_selection_shown (inspector, editor, viewport, link_3, NULL, NULL);

  g_object_set (outline, "selected-link", NULL, NULL);
  g_assert_cmpuint (link_notifies, ==, 2);
  g_signal_handler_disconnect (outline, id);
  assert_selection_shown (inspector, editor, viewport, NULL, NULL, NULL);
}

/* How many of `widget`'s handlers of ::link-changed `document` holds. */
static guint
link_handlers (BlDocument *document,
               gpointer    widget)
{
  guint signal_id = g_signal_lookup ("link-changed", BL_TYPE_DOCUMENT);
  guint n = g_signal_handlers_block_matched (document, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                             signal_id, 0, NULL, NULL, widget);

  g_signal_handlers_unblock_matched (document, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                     signal_id, 0, NULL, NULL, widget);
  return n;
}

/* Each widget that shows the document hears the shown document's
 * ::link-changed once (through a signal group bound to its document) and
 * nothing of a document no longer shown. */
static void
test_document_signals_follow (Fixture       *f,
                              gconstpointer  data)
{
  const char *names[] = { "inspector", "added_mass_editor", "outline" };
  GtkWidget *followers[4];
  g_autoptr(BlDocument) old = g_object_ref (bl_window_get_document (f->window));
  BlDocument *sample;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    followers[i] = child (f->window, BL_TYPE_WINDOW, names[i]);
  followers[3] = find_by_type (GTK_WIDGET (f->window), BL_TYPE_VIEWPORT);
  for (guint i = 0; i < G_N_ELEMENTS (followers); i++)
    g_assert_cmpuint (link_handlers (old, followers[i]), ==, 1);

  bl_window_load_sample (f->window);
  sample = bl_window_get_document (f->window);
  g_assert_true (sample != old);
  for (guint i = 0; i < G_N_ELEMENTS (followers); i++)
    {
      g_assert_cmpuint (link_handlers (old, followers[i]), ==, 0);
      g_assert_cmpuint (link_handlers (sample, followers[i]), ==, 1);
    }
}

/* The recent-files list re-read with nothing new (another program touched
 * it; the list notices its own writes too) leaves the open menu's rows as
 * they are: they used to be made anew under the user's pointer, so that a
 * click could land on a row that was gone. */
static void
test_recent_menu_stays (Fixture       *f,
                        gconstpointer  data)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GtkMenuButton *button = GTK_MENU_BUTTON (child (f->window, BL_TYPE_WINDOW, "recent_button"));
  g_autofree char *uri = g_filename_to_uri (f->path, NULL, NULL);
  GtkPopover *popover;
  GtkWidget *item;

  gtk_recent_manager_purge_items (manager, NULL);
  g_assert_true (gtk_recent_manager_add_item (manager, uri));
  WAIT_UNTIL (gtk_widget_get_sensitive (GTK_WIDGET (button)) &&
              gtk_recent_manager_has_item (manager, uri));
  drain ();

  ui_input_click (GTK_WIDGET (button), 1);
  popover = gtk_menu_button_get_popover (button);
  WAIT_UNTIL (popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover)));
  item = find_menu_item (GTK_WIDGET (popover), "model.sdf");
  g_assert_nonnull (item);
  g_object_add_weak_pointer (G_OBJECT (item), (gpointer *) &item);

  g_signal_emit_by_name (manager, "changed");
  drain ();
  g_assert_nonnull (item);
  g_assert_true (gtk_widget_get_mapped (item));
  g_object_remove_weak_pointer (G_OBJECT (item), (gpointer *) &item);
  gtk_popover_popdown (popover);
}

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/ui/session/export-baked-leaves-document", test_export_baked_leaves_document);
  ADD ("/ui/session/save-reports-writing", test_save_reports_writing);
  ADD ("/ui/window/fluid-density-one-source", test_fluid_density_one_source);
  ADD ("/ui/window/document-one-source", test_document_one_source);
  ADD ("/ui/window/selection-one-source", test_selection_one_source);
  ADD ("/ui/window/document-signals-follow", test_document_signals_follow);
  ADD ("/ui/window/recent-menu-stays", test_recent_menu_stays);
  ADD ("/ui/window/too-many-links-asks", test_too_many_links_asks);
  g_test_add ("/ui/window/outline-activate-frames", Fixture, NULL, NULL, test_outline_activate_frames, fixture_tear_down);
#undef ADD

  return ui_test_run ();
}
