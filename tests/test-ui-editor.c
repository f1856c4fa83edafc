/* test-ui-editor.c: what was left of issue 13, through real input: Ctrl+Z
 * in the outline's search field undoes the document's last edit; the
 * Added Mass page's Estimate and Import say up front that a link of an
 * included file cannot take them; a reload of the file reads a mesh that
 * failed before. */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bl-added-mass-editor.h"
#include "bl-inspector.h"
#include "bl-number-field.h"
#include "bl-outline.h"
#include "bl-window.h"
#include "test-common.h"
#include "bl-resource.h"
#include "ui-common.h"
#include "ui-input.h"

static GtkWidget *
inspector (Fixture *f)
{
  return child (f->window, BL_TYPE_WINDOW, "inspector");
}

static void
wait_for_frames (void)
{
  for (int k = 0; k < 5; k++)
    {
      drain ();
      g_usleep (5000);
    }
}

/* The sample's hull: link density 600 kg/m³.  Typed 700 into its density
 * field, then Ctrl+Z typed into the outline's search field undoes that
 * edit (back to 600) and leaves the search text alone; Ctrl+Shift+Z there
 * redoes it.  The search field's own text undo used to take both keys. */
static void
test_search_field_undo (Fixture       *f,
                        gconstpointer  data)
{
  BlDocument *doc;
  BlLink *hull;
  GtkWidget *density, *search;

  doc = bl_window_get_document (f->window);
  hull = bl_document_find_link (doc, "sample_auv::hull");
  g_assert_nonnull (hull);
  g_assert_cmpfloat (hull->density, ==, 600.0);

  density = child (inspector (f), BL_TYPE_INSPECTOR, "density_field");
  type_for_real (density, "700");
  hull = bl_document_find_link (doc, "sample_auv::hull");
  g_assert_cmpfloat (hull->density, ==, 700.0);

  search = find_by_type (GTK_WIDGET (f->window), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (search);
  ui_input_click (search, 1);
  ui_input_type ("hull");
  drain ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "hull");

  ui_input_key (GDK_KEY_z, GDK_CONTROL_MASK);
  drain ();
  hull = bl_document_find_link (doc, "sample_auv::hull");
  g_assert_cmpfloat (hull->density, ==, 600.0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "hull");
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (search)))));

  ui_input_key (GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  drain ();
  hull = bl_document_find_link (doc, "sample_auv::hull");
  g_assert_cmpfloat (hull->density, ==, 700.0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "hull");
}

#define SEARCH_LINK(name) \
  "<link name='" name "'><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>" \
  "</inertia></inertial></link>"

/* The outline's names, top to bottom, as its list shows them now. */
static char *
outline_names (Fixture *f)
{
  GtkWidget *outline = child (f->window, BL_TYPE_WINDOW, "outline");
  GtkListView *list = GTK_LIST_VIEW (child (outline, BL_TYPE_OUTLINE, "list_view"));
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (list));
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autoptr(BlOutlineItem) item = gtk_tree_list_row_get_item (row);

      g_string_append_printf (names, "%s%s", i > 0 ? " " : "", bl_outline_item_get_name (item));
    }
  return g_string_free (names, FALSE);
}

/* Typed into the outline's search field, "hull" keeps the rows whose
 * name holds it in any case (HullB, deep_HULL) and the models they are
 * in, unfolded; a model without one (Alpha) and a link beside a match
 * (other) go.  Backspacing the text away brings every row back.  (The
 * names are folded for the search only once a search starts.) */
static void
test_search_filters_outline (Fixture       *f,
                             gconstpointer  data)
{
  static const char sdf[] =
    "<?xml version='1.0'?>\n<sdf version='1.11'><world name='w'>\n"
    "<model name='Alpha'>" SEARCH_LINK ("a_link") "</model>\n"
    "<model name='beta'>" SEARCH_LINK ("HullB") "</model>\n"
    "<model name='gamma'>" SEARCH_LINK ("other") "<model name='inner'>" SEARCH_LINK ("deep_HULL")
    "</model></model>\n</world></sdf>\n";
  g_autofree char *before = NULL;
  GtkWidget *search;

  open_copy (f, NULL, sdf);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  ui_input_focus_window (GTK_WIDGET (f->window));
  drain ();
  before = outline_names (f);
  g_assert_nonnull (strstr (before, "Alpha"));

  search = find_by_type (GTK_WIDGET (f->window), GTK_TYPE_SEARCH_ENTRY);
  ui_input_click (search, 1);
  ui_input_type ("hull");
  WAIT_UNTIL (g_strcmp0 (outline_names (f), "beta HullB gamma inner deep_HULL") == 0);
  {
    g_autofree char *names = outline_names (f);

    g_assert_cmpstr (names, ==, "beta HullB gamma inner deep_HULL");
  }
  g_assert_nonnull (find_label (child (f->window, BL_TYPE_WINDOW, "outline"), "deep_HULL"));

  for (int i = 0; i < 4; i++)
    ui_input_key (GDK_KEY_BackSpace, 0);
  WAIT_UNTIL (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (search)), "") == 0);
  drain ();
  {
    g_autofree char *names = outline_names (f);

    g_assert_nonnull (strstr (names, "Alpha"));
    g_assert_nonnull (strstr (names, "other"));
  }
}

/* A model with a link of its own and one from an included file: on the
 * included link's Added Mass page, Estimate from Geometry and Import from
 * Plugin are unavailable, say why (the included file's path) below them,
 * and a click on either opens no proposal (whose Apply the document would
 * refuse with a dialog) and no dialog.  On the model's own link they work. */
static void
test_included_sources_unavailable (Fixture       *f,
                                   gconstpointer  data)
{
  g_autofree char *part = NULL;
  g_autofree char *part_dir = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWidget *editor, *estimate, *import, *reason;
  GtkRevealer *proposal;
  BlDocument *doc;

  part = open_with_included_part (f);
  part_dir = g_path_get_dirname (part);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  ui_input_focus_window (GTK_WIDGET (f->window));
  doc = bl_window_get_document (f->window);

  bl_window_select_link (f->window, bl_document_find_link (doc, "m::part::inc"));
  drain ();
  show_side_page (f, _("Added Mass"), "added-mass");

  editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  estimate = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "estimate_button");
  import = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "import_button");
  proposal = GTK_REVEALER (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "proposal_revealer"));

  WAIT_UNTIL (gtk_widget_get_mapped (estimate) && gtk_widget_get_width (estimate) > 0);
  ui_input_click (estimate, 1);
  ui_input_click (import, 1);
  wait_for_frames ();
  g_assert_false (gtk_revealer_get_reveal_child (proposal));
  g_assert_cmpuint (g_list_model_get_n_items (toplevels), ==, 1);
  g_assert_false (bl_window_get_modified (f->window));

  g_assert_false (gtk_widget_is_sensitive (estimate));
  g_assert_false (gtk_widget_is_sensitive (import));
  reason = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "sources_read_only_label");
  g_assert_true (gtk_widget_get_visible (reason));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (reason)), part));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (estimate), part));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (import), part));

  /* The model's own link: Estimate opens its proposal. */
  bl_window_select_link (f->window, bl_document_find_link (doc, "m::own"));
  drain ();
  g_assert_true (gtk_widget_is_sensitive (estimate));
  g_assert_true (gtk_widget_is_sensitive (import));
  g_assert_false (gtk_widget_get_visible (reason));
  g_assert_null (gtk_widget_get_tooltip_text (estimate));
  WAIT_UNTIL (gtk_widget_get_mapped (estimate) && gtk_widget_get_width (estimate) > 0);
  ui_input_click (estimate, 1);
  WAIT_UNTIL (gtk_revealer_get_reveal_child (proposal));
  g_assert_true (gtk_revealer_get_reveal_child (proposal));
  remove_tree (part_dir);
}

static const char tetrahedron[] = TEST_TETRAHEDRON_STL;

/* A mesh that failed (here: bytes no reader takes) is remembered by the
 * core while the file's time and size stay; a mesh that timed out on a
 * busy machine is the case that matters.  The user types a link density,
 * the mesh gets good bytes of the same size and time (only a retry can see
 * them), the model file changes on disk and the user clicks *Reload from
 * Disk*: the link's mass is now the tetrahedron's, 1200 kg/m³ · 1/6 m³ =
 * 200 kg. */
static void
test_reload_retries_failed_mesh (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *mesh_dir = g_dir_make_tmp ("ballast-ui-mesh-XXXXXX", NULL);
  g_autofree char *mesh = g_build_filename (mesh_dir, "tet.stl", NULL);
  g_autofree char *broken = g_strnfill (sizeof tetrahedron - 1, 'x');
  g_autofree char *model = NULL;
  g_autofree char *changed = NULL;
  BlDocument *before;
  BlLink *link;
  GtkMessageDialog *dialog;
  GtkWidget *reload;
  struct timespec times[2];
  GStatBuf st;

  g_assert_true (g_file_set_contents (mesh, broken, sizeof tetrahedron - 1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (mesh, &st), ==, 0);
  model = g_strdup_printf ("<?xml version=\"1.0\"?><sdf version=\"1.11\"><model name=\"m\">"
                           "<link name=\"l\"><inertial auto=\"true\"/>"
                           "<collision name=\"c\"><density>1200</density>"
                           "<geometry><mesh><uri>%s</uri></mesh></geometry></collision></link>"
                           "</model></sdf>\n", mesh);
  /* the mesh lies outside the model's folder: the user's opt-out lets the
   * model name it (fixture_tear_down ends it) */
  bl_resource_set_allow_outside (TRUE);
  open_copy (f, NULL, model);
  wait_for_load (f->window);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  ui_input_focus_window (GTK_WIDGET (f->window));
  before = bl_window_get_document (f->window);
  link = bl_document_find_link (before, "m::l");
  g_assert_nonnull (link);
  g_assert_false (link->props.resolved && link->props.mass > 0.0);
  bl_window_select_link (f->window, link);
  drain ();
  type_for_real (child (inspector (f), BL_TYPE_INSPECTOR, "density_field"), "900");
  g_assert_true (bl_window_get_modified (f->window));

  /* The same size and modification time, other bytes. */
  g_assert_true (g_file_set_contents (mesh, tetrahedron, sizeof tetrahedron - 1, &error));
  g_assert_no_error (error);
  times[0] = st.st_atim;
  times[1] = st.st_mtim;
  g_assert_cmpint (utimensat (AT_FDCWD, mesh, times, 0), ==, 0);

  changed = g_strconcat (model, "<!-- changed by another program -->\n", NULL);
  g_assert_true (g_file_set_contents (f->path, changed, -1, &error));
  g_assert_no_error (error);
  dialog = wait_for_message_dialog ();
  reload = find_menu_item (GTK_WIDGET (dialog), "Reload from Disk (Lose My Edits)");
  g_assert_nonnull (reload);
  answer_dialog (dialog, gtk_dialog_get_response_for_widget (GTK_DIALOG (dialog), reload));
  WAIT_UNTIL (bl_window_get_document (f->window) != before && !bl_window_get_loading (f->window));
  g_assert_true (bl_window_get_document (f->window) != before);
  drain ();

  link = bl_document_find_link (bl_window_get_document (f->window), "m::l");
  g_assert_nonnull (link);
  g_assert_true (link->props.resolved);
  g_assert_cmpfloat_with_epsilon (link->props.mass, 200.0, 1e-9);
  remove_tree (mesh_dir);
}

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);

  g_test_add ("/ui/editor/search-field-undo", Fixture, NULL, sample_set_up, test_search_field_undo, fixture_tear_down);
  g_test_add ("/ui/editor/search-filters-outline", Fixture, NULL, NULL, test_search_filters_outline,
              fixture_tear_down);
  g_test_add ("/ui/editor/included-sources-unavailable", Fixture, NULL, NULL,
              test_included_sources_unavailable, fixture_tear_down);
  g_test_add ("/ui/editor/reload-retries-failed-mesh", Fixture, NULL, NULL,
              test_reload_retries_failed_mesh, fixture_tear_down);

  return ui_test_run ();
}
