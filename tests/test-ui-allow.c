/* test-ui-allow.c: a file refused because it lies outside the model's
 * folders (docs/HARDENING.md, "Files only where they belong") can be
 * allowed from the problems bar (issue 14): the folder becomes a model
 * folder, kept where ballast-cli reads it too, and the file reloads with
 * the mesh or include it refused; unsaved edits are asked about first;
 * a special file (/proc, a FIFO) is refused with nothing to allow.  The
 * user's acts are real events through the X server. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <sys/stat.h>

#include "bl-application.h"
#include "bl-inspector.h"
#include "bl-model-folders.h"
#include "bl-problems-bar.h"
#include "bl-resource.h"
#include "bl-window.h"
#include "ui-common.h"
#include "ui-input.h"

/* The program's own application, registered (not run) in main(): it keeps
 * the model-paths setting and hands it to the resolver. */
static BlApplication *application;

/* The box of the meshes: BOX_X × BOX_Y × BOX_Z m from the origin, V = 1 m³. */
#define BOX_X 2.0
#define BOX_Y 1.0
#define BOX_Z 0.5

/* Writes the box as an ASCII STL, DIR/NAME (DIR made), its 12 triangles
 * wound outwards (corner i is at x = bit 0, y = bit 1, z = bit 2 of i). */
static void
write_box_stl (const char *dir,
               const char *name)
{
  static const int triangles[12][3] = {
    { 0, 2, 3 }, { 0, 3, 1 }, { 4, 5, 7 }, { 4, 7, 6 }, { 0, 1, 5 }, { 0, 5, 4 },
    { 2, 6, 7 }, { 2, 7, 3 }, { 0, 4, 6 }, { 0, 6, 2 }, { 1, 3, 7 }, { 1, 7, 5 },
  };
  g_autoptr(GString) stl = g_string_new ("solid box\n");
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  for (guint t = 0; t < G_N_ELEMENTS (triangles); t++)
    {
      g_string_append (stl, "facet normal 0 0 0\nouter loop\n");
      for (guint k = 0; k < 3; k++)
        {
          int i = triangles[t][k];

          g_string_append_printf (stl, "vertex %g %g %g\n", (i & 1) * BOX_X, ((i >> 1) & 1) * BOX_Y,
                                  ((i >> 2) & 1) * BOX_Z);
        }
      g_string_append (stl, "endloop\nendfacet\n");
    }
  g_string_append (stl, "endsolid box\n");
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, stl->str, -1, &error));
  g_assert_no_error (error);
}

/* A link `name` whose one collision is the mesh at URI; its density on
 * the collision when DENSITY is given, else the link's (1000 by default). */
static char *
mesh_link (const char *name,
           const char *uri,
           const char *density)
{
  g_autofree char *own = density != NULL ? g_strdup_printf ("<density>%s</density>", density) : g_strdup ("");

  return g_strdup_printf ("    <link name=\"%s\">\n"
                          "      <inertial auto=\"true\"/>\n"
                          "      <collision name=\"c\">%s<geometry><mesh><uri>%s</uri></mesh></geometry></collision>\n"
                          "    </link>\n", name, own, uri);
}

/* The model "boat" holding INSIDE (its links, includes), from line 4 on. */
static char *
boat_sdf (const char *inside)
{
  return g_strdup_printf ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n"
                          "  <model name=\"boat\">\n%s  </model>\n</sdf>\n", inside);
}

/* A new folder of the test's own, outside the model's, canonical. */
static char *
make_outside_folder (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-ui-outside-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return realpath (dir, NULL);
}

/* The mass properties of the box of density RHO, from its closed form:
 * m = ρ·V, the centre at the box's middle, I = m·(sides² summed)/12. */
static void
assert_box_link (BlLink *link,
                 double  rho)
{
  double m = rho * BOX_X * BOX_Y * BOX_Z;

  g_assert_nonnull (link);
  g_assert_true (link->props.resolved);
  g_assert_cmpfloat_with_epsilon (link->props.mass, m, 1e-9 * m);
  g_assert_cmpfloat_with_epsilon (link->props.com.x, BOX_X / 2, 1e-12);
  g_assert_cmpfloat_with_epsilon (link->props.com.y, BOX_Y / 2, 1e-12);
  g_assert_cmpfloat_with_epsilon (link->props.com.z, BOX_Z / 2, 1e-12);
  g_assert_cmpfloat_with_epsilon (link->props.inertia.m[0][0], m * (BOX_Y * BOX_Y + BOX_Z * BOX_Z) / 12, 1e-9 * m);
  g_assert_cmpfloat_with_epsilon (link->props.inertia.m[1][1], m * (BOX_X * BOX_X + BOX_Z * BOX_Z) / 12, 1e-9 * m);
  g_assert_cmpfloat_with_epsilon (link->props.inertia.m[2][2], m * (BOX_X * BOX_X + BOX_Y * BOX_Y) / 12, 1e-9 * m);
  g_assert_cmpfloat_with_epsilon (link->props.inertia.m[0][1], 0.0, 1e-9 * m);
}

/* The model-paths setting, as ballast-cli reads it. */
static GStrv
model_paths (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("app.ballast.Ballast");

  return g_settings_get_strv (settings, "model-paths");
}

/* Empties the setting for the next test; the resolver follows it. */
static void
reset_model_paths (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("app.ballast.Ballast");

  g_settings_reset (settings, "model-paths");
  WAIT_UNTIL (extra_path_count () == 0);
  g_assert_cmpuint (extra_path_count (), ==, 0);
}

/* Opens TEXT as the fixture's model.sdf in a window of the application. */
static void
open_in_application (Fixture    *f,
                     const char *text)
{
  open_copy (f, NULL, text);
  gtk_window_set_application (GTK_WINDOW (f->window), GTK_APPLICATION (application));
  wait_for_load (f->window);
  WAIT_UNTIL (bar_shown (f));
  g_assert_true (bar_shown (f));
}

static GtkWidget *
allow_button (Fixture *f)
{
  return child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "allow_button");
}

/* Waits for the document that follows BEFORE (a reload), loaded. */
static void
wait_for_reload (Fixture    *f,
                 BlDocument *before)
{
  WAIT_UNTIL (bl_window_get_document (f->window) != before && !bl_window_get_loading (f->window));
  g_assert_true (bl_window_get_document (f->window) != before);
  wait_for_load (f->window);
  drain ();
}

/* Clicks the allow button and waits for the document that follows. */
static void
click_allow_and_wait (Fixture *f)
{
  BlDocument *before = bl_window_get_document (f->window);

  ui_input_click (allow_button (f), 1);
  wait_for_reload (f, before);
}

/* A mesh named by an absolute path outside the model's folder: refused,
 * the bar names the folder and offers to allow it; one click keeps it in
 * model-paths and reloads, and the link has the box's mass properties
 * (1000 kg/m³ on the collision). */
static void
test_mesh_outside (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *outside = make_outside_folder ();
  g_autofree char *meshes = g_build_filename (outside, "meshes", NULL);
  g_autofree char *uri = g_build_filename (meshes, "box.stl", NULL);
  g_autofree char *hull = mesh_link ("hull", uri, "1000");
  g_autofree char *text = boat_sdf (hull);
  g_autofree char *label = g_strdup_printf ("Allow Files in %s", meshes);
  g_autofree char *summary = g_strdup_printf ("model.sdf, line 6: “%s” lies outside the model’s folders; "
                                              "allowing %s loads it", uri, meshes);
  g_auto(GStrv) paths = NULL;
  GtkWidget *button;

  write_box_stl (meshes, "box.stl");
  open_in_application (f, text);
  g_assert_false (bl_document_find_link (bl_window_get_document (f->window), "boat::hull")->props.resolved);

  g_assert_cmpstr (bar_text (f, "title_label"), ==, "A file outside the model’s folders was refused");
  g_assert_cmpstr (bar_text (f, "message_label"), ==, summary);
  g_assert_nonnull (strstr (bar_text (f, "hint_label"), meshes));
  button = allow_button (f);
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button)))), ==, label);
  /* not a model to find */
  g_assert_false (gtk_widget_get_visible (child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "add_path_button")));

  click_allow_and_wait (f);

  /* kept where Ballast and ballast-cli read it */
  paths = model_paths ();
  g_assert_cmpuint (g_strv_length (paths), ==, 1);
  g_assert_cmpstr (paths[0], ==, meshes);

  /* reloaded with the mesh: nothing left to report */
  assert_box_link (bl_document_find_link (bl_window_get_document (f->window), "boat::hull"), 1000.0);
  g_assert_cmpuint (bl_document_get_mesh_refusals (bl_window_get_document (f->window))->len, ==, 0);
  g_assert_false (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (problems_bar (f))));
  g_assert_false (bl_window_get_modified (f->window));

  reset_model_paths ();
  remove_tree (outside);
}

/* With an unsaved edit (the link density typed, 800 kg/m³), allowing asks
 * first, as Add Model Folder does: Cancel keeps the edit and the document
 * (the folder is allowed all the same); Save writes the edit, then the
 * reload has both the mesh and the edit (800 kg). */
static void
test_keeps_edits (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *outside = make_outside_folder ();
  g_autofree char *uri = g_build_filename (outside, "box.stl", NULL);
  g_autofree char *hull = mesh_link ("hull", uri, NULL);
  g_autofree char *text = boat_sdf (hull);
  GtkWidget *inspector, *save;
  GtkMessageDialog *dialog;
  BlDocument *before;
  g_auto(GStrv) paths = NULL;
  g_autofree char *question = NULL;

  write_box_stl (outside, "box.stl");
  open_in_application (f, text);
  ui_input_focus_window (GTK_WIDGET (f->window));
  bl_window_select_link (f->window, bl_document_find_link (bl_window_get_document (f->window), "boat::hull"));
  drain ();
  inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  type_for_real (child (inspector, BL_TYPE_INSPECTOR, "density_field"), "800");
  g_assert_true (bl_window_get_modified (f->window));
  before = bl_window_get_document (f->window);

  ui_input_click (allow_button (f), 1);
  dialog = wait_for_message_dialog ();
  g_object_get (dialog, "text", &question, NULL);
  g_assert_cmpstr (question, ==, "Save the edits to “model.sdf” before reloading it?");
  answer_dialog (dialog, GTK_RESPONSE_CANCEL);
  drain ();
  g_assert_true (bl_window_get_document (f->window) == before);
  g_assert_true (bl_window_get_modified (f->window));
  paths = model_paths ();
  g_assert_cmpstr (paths[0], ==, outside);

  ui_input_click (allow_button (f), 1);
  dialog = wait_for_message_dialog ();
  save = find_menu_item (GTK_WIDGET (dialog), "Save");
  g_assert_nonnull (save);
  answer_dialog (dialog, gtk_dialog_get_response_for_widget (GTK_DIALOG (dialog), save));
  wait_for_reload (f, before);

  assert_box_link (bl_document_find_link (bl_window_get_document (f->window), "boat::hull"), 800.0);
  g_assert_false (bl_window_get_modified (f->window));
  g_assert_false (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (problems_bar (f))));

  reset_model_paths ();
  remove_tree (outside);
}

/* Refused files in two folders, a mesh and an included model: one button
 * for both, which the bar names; the click allows both and the reload
 * has the mesh and the included model's link. */
static void
test_two_folders (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *outside = make_outside_folder ();
  g_autofree char *meshes = g_build_filename (outside, "meshes", NULL);
  g_autofree char *part = g_build_filename (outside, "models", "part", NULL);
  g_autofree char *part_sdf = g_build_filename (part, "model.sdf", NULL);
  g_autofree char *uri = g_build_filename (meshes, "box.stl", NULL);
  g_autofree char *hull = mesh_link ("hull", uri, "500");
  g_autofree char *inside = g_strdup_printf ("    <include><uri>%s</uri></include>\n%s", part, hull);
  g_autofree char *text = boat_sdf (inside);
  g_autofree char *named = g_strdup_printf ("%s, %s", part, meshes);
  g_auto(GStrv) paths = NULL;
  GtkWidget *details, *list;
  GtkPopover *popover;

  write_box_stl (meshes, "box.stl");
  g_assert_cmpint (g_mkdir_with_parents (part, 0755), ==, 0);
  g_assert_true (g_file_set_contents (part_sdf, "<sdf version=\"1.11\"><model name=\"part\"><link name=\"l\">"
                                      "<inertial><mass>3</mass></inertial></link></model></sdf>\n", -1, NULL));
  open_in_application (f, text);

  g_assert_cmpstr (bar_text (f, "title_label"), ==, "2 files outside the model’s folders were refused");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (allow_button (f))))), ==,
                   "Allow Files in 2 Folders");
  g_assert_nonnull (strstr (bar_text (f, "hint_label"), named));
  /* Details lists the folders, one a line */
  details = child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  list = find_named (GTK_WIDGET (popover), "allow-folders-list");
  g_assert_nonnull (list);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (list)), part));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (list)), meshes));
  gtk_popover_popdown (popover);
  drain ();

  click_allow_and_wait (f);

  paths = model_paths ();
  g_assert_cmpuint (g_strv_length (paths), ==, 2);
  g_assert_cmpstr (paths[0], ==, part);
  g_assert_cmpstr (paths[1], ==, meshes);
  assert_box_link (bl_document_find_link (bl_window_get_document (f->window), "boat::hull"), 500.0);
  g_assert_cmpfloat (bl_document_find_link (bl_window_get_document (f->window), "boat::part::l")->props.mass, ==,
                     3.0);
  g_assert_false (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (problems_bar (f))));

  reset_model_paths ();
  remove_tree (outside);
}

/* A mesh naming a file of /proc and an include naming a FIFO: refused,
 * shown in the bar, and nothing offered, since no setting allows them. */
static void
test_special_files (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *outside = make_outside_folder ();
  g_autofree char *fifo = g_build_filename (outside, "pipe.sdf", NULL);
  g_autofree char *proc = mesh_link ("proc", "/proc/self/status", "1000");
  g_autofree char *inside = NULL;
  g_autofree char *text = NULL;
  GtkWidget *details;
  GtkPopover *popover;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  inside = g_strdup_printf ("    <include><uri>%s</uri></include>\n%s", fifo, proc);
  text = boat_sdf (inside);
  open_in_application (f, text);

  g_assert_cmpstr (bar_text (f, "title_label"), ==, "2 files outside the model’s folders were refused");
  g_assert_nonnull (strstr (bar_text (f, "message_label"), "a named pipe (FIFO): a model may never name one"));
  g_assert_false (gtk_widget_get_visible (allow_button (f)));
  g_assert_false (gtk_widget_get_visible (child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "add_path_button")));
  g_assert_false (gtk_widget_get_visible (child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "hint_label")));

  /* each says why, the kernel's file among them */
  details = child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "No setting lets a model name this file"));
  g_assert_nonnull (find_label (GTK_WIDGET (popover),
                                ((BlMeshRefusal *) g_ptr_array_index (bl_document_get_mesh_refusals (
                                  bl_window_get_document (f->window)), 0))->message));
  gtk_popover_popdown (popover);
  drain ();

  remove_tree (outside);
}

/* A world can name a refused mesh in every link: the bar counts them
 * all, lists the first 50 and says how many more; one folder, one
 * button, and the click loads every one (60 boxes at 200 kg/m³). */
static void
test_many_meshes (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *outside = make_outside_folder ();
  g_autofree char *uri = g_build_filename (outside, "box.stl", NULL);
  g_autofree char *label = g_strdup_printf ("Allow Files in %s", outside);
  g_autoptr(GString) links = g_string_new (NULL);
  g_autofree char *text = NULL;
  GtkWidget *details;
  GtkPopover *popover;
  BlDocument *doc;

  write_box_stl (outside, "box.stl");
  for (guint i = 0; i < 60; i++)
    {
      g_autofree char *name = g_strdup_printf ("l%u", i);
      g_autofree char *link = mesh_link (name, uri, "200");

      g_string_append (links, link);
    }
  text = boat_sdf (links->str);
  open_in_application (f, text);

  g_assert_cmpstr (bar_text (f, "title_label"), ==, "60 files outside the model’s folders were refused");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (allow_button (f))))), ==,
                   label);
  details = child (problems_bar (f), BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_cmpuint (count_css_class (GTK_WIDGET (popover), "bl-problem"), ==, 50);
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "and 10 more refused meshes (each link lists its own)"));
  gtk_popover_popdown (popover);
  drain ();

  click_allow_and_wait (f);
  doc = bl_window_get_document (f->window);
  for (guint i = 0; i < 60; i++)
    {
      g_autofree char *name = g_strdup_printf ("boat::l%u", i);

      assert_box_link (bl_document_find_link (doc, name), 200.0);
    }
  g_assert_false (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (problems_bar (f))));

  reset_model_paths ();
  remove_tree (outside);
}

/* The folders the dialog lists, in order. */
static GStrv
dup_listed (GtkWindow *dialog)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GtkWidget *list = child (dialog, BL_TYPE_MODEL_FOLDERS, "list");

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (GTK_IS_LIST_BOX_ROW (row))
      {
        GtkWidget *box = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));

        g_strv_builder_add (builder, gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (box))));
      }
  return g_strv_builder_end (builder);
}

/* Opens Model Folders from the main menu, by real clicks. */
static GtkWindow *
open_model_folders (Fixture *f)
{
  GtkWidget *popover = open_menu (main_menu_button (f));
  GtkWindow *dialog = NULL;

  ui_input_click (find_menu_item (popover, "Model Folders"), 1);
  WAIT_UNTIL ((dialog = find_dialog (BL_TYPE_MODEL_FOLDERS)) != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog)));
  g_assert_nonnull (dialog);
  drain ();
  return dialog;
}

/* The folder the problems bar allowed shows in Model Folders (main menu),
 * where the user removes it (the setting and the resolver follow) and
 * adds it back with Add Folder…. */
static void
test_model_folders_dialog (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *outside = make_outside_folder ();
  g_autofree char *uri = g_build_filename (outside, "box.stl", NULL);
  g_autofree char *hull = mesh_link ("hull", uri, "1000");
  g_autofree char *text = boat_sdf (hull);
  g_auto(GStrv) listed = NULL;
  g_auto(GStrv) paths = NULL;
  GtkWindow *dialog;

  write_box_stl (outside, "box.stl");
  open_in_application (f, text);
  click_allow_and_wait (f);
  assert_box_link (bl_document_find_link (bl_window_get_document (f->window), "boat::hull"), 1000.0);

  dialog = open_model_folders (f);
  listed = dup_listed (dialog);
  g_assert_cmpuint (g_strv_length (listed), ==, 1);
  g_assert_cmpstr (listed[0], ==, outside);

  /* removed: from the setting, the resolver and the list */
  ui_input_click (find_named (GTK_WIDGET (dialog), "remove-button"), 1);
  drain ();
  paths = model_paths ();
  g_assert_cmpuint (g_strv_length (paths), ==, 0);
  WAIT_UNTIL (extra_path_count () == 0);
  g_assert_cmpuint (extra_path_count (), ==, 0);
  g_clear_pointer (&listed, g_strfreev);
  listed = dup_listed (dialog);
  g_assert_cmpuint (g_strv_length (listed), ==, 0);
  g_assert_true (gtk_widget_get_mapped (find_label (GTK_WIDGET (dialog), "No model folders")));

  /* added back through its own chooser */
  ui_input_click (find_menu_item (GTK_WIDGET (dialog), "Add Folder…"), 1);
  WAIT_UNTIL (find_dialog (GTK_TYPE_FILE_CHOOSER_DIALOG) != NULL);
  answer_file_chooser (outside, NULL);
  drain ();
  g_clear_pointer (&paths, g_strfreev);
  paths = model_paths ();
  g_assert_cmpuint (g_strv_length (paths), ==, 1);
  g_assert_cmpstr (paths[0], ==, outside);
  g_clear_pointer (&listed, g_strfreev);
  listed = dup_listed (dialog);
  g_assert_cmpuint (g_strv_length (listed), ==, 1);
  g_assert_cmpstr (listed[0], ==, outside);

  gtk_window_close (dialog);
  drain ();
  reset_model_paths ();
  remove_tree (outside);
}

/* A window without the application (no setting kept) shows and changes
 * the model folders of this run: the resolver's. */
static void
test_model_folders_of_the_run (Fixture       *f,
                               gconstpointer  data)
{
  g_auto(GStrv) listed = NULL;
  GtkWindow *dialog;

  bl_resource_add_extra_path ("/srv/models");
  open_copy (f, NULL, BALL_SDF);
  wait_for_load (f->window);
  dialog = open_model_folders (f);
  listed = dup_listed (dialog);
  g_assert_cmpuint (g_strv_length (listed), ==, 1);
  g_assert_cmpstr (listed[0], ==, "/srv/models");

  ui_input_click (find_named (GTK_WIDGET (dialog), "remove-button"), 1);
  drain ();
  g_assert_cmpuint (extra_path_count (), ==, 0);
  g_assert_true (gtk_widget_get_mapped (find_label (GTK_WIDGET (dialog), "No model folders")));

  gtk_window_close (dialog);
  drain ();
}

int
main (int    argc,
      char **argv)
{
  int status;

  /* The model path comes from the test alone. */
  g_unsetenv ("GZ_SIM_RESOURCE_PATH");
  g_unsetenv ("IGN_GAZEBO_RESOURCE_PATH");
  g_unsetenv ("SDF_PATH");
  g_unsetenv ("GAZEBO_MODEL_PATH");
  ui_test_init (&argc, &argv);
  application = register_application ();

  g_test_add ("/ui/allow/mesh-outside", Fixture, NULL, NULL, test_mesh_outside, fixture_tear_down);
  g_test_add ("/ui/allow/keeps-edits", Fixture, NULL, NULL, test_keeps_edits, fixture_tear_down);
  g_test_add ("/ui/allow/two-folders", Fixture, NULL, NULL, test_two_folders, fixture_tear_down);
  g_test_add ("/ui/allow/many-meshes", Fixture, NULL, NULL, test_many_meshes, fixture_tear_down);
  g_test_add ("/ui/allow/special-files", Fixture, NULL, NULL, test_special_files, fixture_tear_down);
  g_test_add ("/ui/allow/model-folders-dialog", Fixture, NULL, NULL, test_model_folders_dialog, fixture_tear_down);
  g_test_add ("/ui/allow/model-folders-of-the-run", Fixture, NULL, NULL, test_model_folders_of_the_run,
              fixture_tear_down);

  status = ui_test_run ();
  g_clear_object (&application);
  return status;
}
