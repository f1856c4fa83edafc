/* test-ui-added-mass.c: the Added Mass page through real input: its
 * diagnostics, an import moved out of a Hydrodynamics plugin in one undoable
 * step, and no false alarms where a zero is exact. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-added-mass-editor.h"
#include "bl-document.h"
#include "bl-export.h"
#include "bl-inspector.h"
#include "bl-window.h"
#include "test-common.h"
#include "ui-common.h"
#include "ui-input.h"

/* gz-sim's Migration.md example on a link of 100 kg: the plugin's xDotU…
 * (Fossen's sign) are the added mass xx 4.876161, yy = zz 126.324739,
 * qq = rr 33.46. */
#define HYDRO_SDF \
  "<?xml version=\"1.0\"?>\n" \
  "<sdf version=\"1.10\">\n" \
  "  <model name=\"auv\">\n" \
  "    <link name=\"base_link\">\n" \
  "      <inertial>\n" \
  "        <mass>100</mass>\n" \
  "        <inertia><ixx>10</ixx><iyy>40</iyy><izz>40</izz></inertia>\n" \
  "      </inertial>\n" \
  "      <collision name=\"hull\">\n" \
  "        <geometry><cylinder><radius>0.2</radius><length>2</length></cylinder></geometry>\n" \
  "      </collision>\n" \
  "    </link>\n" \
  "    <plugin filename=\"gz-sim-hydrodynamics-system\" name=\"gz::sim::systems::Hydrodynamics\">\n" \
  "      <link_name>base_link</link_name>\n" \
  "      <xDotU>-4.876161</xDotU>\n" \
  "      <yDotV>-126.324739</yDotV>\n" \
  "      <zDotW>-126.324739</zDotW>\n" \
  "      <mDotQ>-33.46</mDotQ>\n" \
  "      <nDotR>-33.46</nDotR>\n" \
  "      <xUabsU>-6.2282</xUabsU>\n" \
  "    </plugin>\n" \
  "  </model>\n" \
  "</sdf>\n"

static GtkWidget *
editor_of (Fixture *f)
{
  return child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
}

static GtkWidget *
editor_child (Fixture    *f,
              const char *name)
{
  return child (editor_of (f), BL_TYPE_ADDED_MASS_EDITOR, name);
}

static gboolean
label_contains (GtkWidget     *widget,
                gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

static gboolean
has_label_text (GtkWidget  *root,
                const char *text)
{
  return find_widget (root, label_contains, text) != NULL;
}

/* Opens TEXT and shows the Added Mass page by clicking its tab. */
static void
open_on_page (Fixture    *f,
              const char *text)
{
  open_copy (f, NULL, text);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  drain ();
  show_side_page (f, _("Added Mass"), "added-mass");
}

static void
click (Fixture    *f,
       const char *button)
{
  GtkWidget *widget = editor_child (f, button);
  GtkRevealer *proposal = GTK_REVEALER (editor_child (f, "proposal_revealer"));

  /* Buttons in the proposal slide down with it: click where they stop. */
  WAIT_UNTIL (gtk_revealer_get_reveal_child (proposal) == gtk_revealer_get_child_revealed (proposal));
  g_assert_true (gtk_widget_get_visible (widget));
  WAIT_UNTIL (gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0);
  ui_input_click (widget, 1);
  drain ();
}

/* With BALLAST_UI_SCREENSHOTS set to a folder, the window with the page
 * scrolled to its end (the proposal, the checks) is saved there as NAME,
 * for a person to look at. */
static void
screenshot (Fixture    *f,
            const char *name)
{
  const char *dir = g_getenv ("BALLAST_UI_SCREENSHOTS");
  GtkWidget *revealer = editor_child (f, "proposal_revealer");
  GtkWidget *scrolled = gtk_widget_get_ancestor (revealer, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  WAIT_UNTIL (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer))
              == gtk_revealer_get_child_revealed (GTK_REVEALER (revealer)));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  drain ();
  g_usleep (100000);
  drain ();
  path = g_build_filename (dir, name, NULL);
  g_assert_true (bl_window_save_screenshot (f->window, path, &error));
  g_assert_no_error (error);
}

static char *
saved_bytes (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = bl_export_to_bytes (bl_window_get_document (f->window), &error);

  g_assert_no_error (error);
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

/* Apply alone writes <fluid_added_mass> beside the plugin's own terms: A7,
 * and the page says so (it used to be on the Mass page only). */
static void
test_import_shows_a7 (Fixture       *f,
                      gconstpointer  data)
{
  BlLink *link;
  GtkWidget *checks;

  open_on_page (f, HYDRO_SDF);
  link = bl_document_find_link (bl_window_get_document (f->window), "auv::base_link");
  checks = editor_child (f, "checks_box");

  click (f, "import_button");
  g_assert_true (gtk_widget_get_visible (editor_child (f, "migrate_button")));
  g_assert_true (has_label_text (editor_child (f, "proposal_notes"), "counts the added mass twice (A7)"));
  click (f, "apply_button");

  g_assert_true (link->has_added_mass);
  g_assert_cmpfloat (link->added_mass[0], ==, 4.876161);
  g_assert_true (link_has_code (link, "A7"));
  g_assert_true (has_label_text (checks, "A7: added mass is counted twice"));
  g_assert_false (has_label_text (checks, "All checks pass"));
}

/* "Apply and Turn Off in Plugin": <fluid_added_mass> written and the
 * plugin's terms 0 with <disable_added_mass>, no A7, one Ctrl+Z back to the
 * file's bytes. */
static void
test_import_migrate_undo (Fixture       *f,
                          gconstpointer  data)
{
  BlLink *link;
  g_autofree char *after = NULL;
  g_autofree char *undone = NULL;

  open_on_page (f, HYDRO_SDF);
  link = bl_document_find_link (bl_window_get_document (f->window), "auv::base_link");

  click (f, "import_button");
  screenshot (f, "added-mass-import.png");
  click (f, "migrate_button");

  g_assert_true (link->has_added_mass);
  g_assert_cmpfloat (link->added_mass[6], ==, 126.324739);   /* yy */
  g_assert_cmpfloat (link->added_mass[20], ==, 33.46);       /* rr */
  g_assert_false (link_has_code (link, "A7"));
  g_assert_false (has_label_text (editor_child (f, "checks_box"), "A7"));
  after = saved_bytes (f);
  g_assert_nonnull (strstr (after, "      <xDotU>0</xDotU>\n"));
  g_assert_nonnull (strstr (after, "      <nDotR>0</nDotR>\n"));
  g_assert_nonnull (strstr (after, "      <xUabsU>-6.2282</xUabsU>\n"
                                   "      <disable_added_mass>true</disable_added_mass>\n"
                                   "    </plugin>\n"));
  g_assert_true (bl_window_get_modified (f->window));
  screenshot (f, "added-mass-migrated.png");

  /* One undo step takes the whole move back. */
  ui_input_focus_window (GTK_WIDGET (f->window));
  ui_input_key (GDK_KEY_z, GDK_CONTROL_MASK);
  WAIT_UNTIL (!link->has_added_mass);
  g_assert_false (link->has_added_mass);
  undone = saved_bytes (f);
  g_assert_cmpstr (undone, ==, HYDRO_SDF);
  g_assert_false (bl_window_get_modified (f->window));
}

/* dsros_hydro runs in Gazebo classic: no migration offered, and the
 * proposal says why the plugin is left alone. */
static void
test_import_classic_explained (Fixture       *f,
                               gconstpointer  data)
{
  BlLink *link;

  open_on_page (f, "<?xml version=\"1.0\"?>\n" TEST_DSROS_ROV_SDF);
  link = bl_document_find_link (bl_window_get_document (f->window), "rov::base");

  click (f, "import_button");
  g_assert_false (gtk_widget_get_visible (editor_child (f, "migrate_button")));
  g_assert_true (has_label_text (editor_child (f, "proposal_notes"),
                                 "dsros_hydro runs in Gazebo classic, which ignores <fluid_added_mass>"));
  click (f, "apply_button");
  g_assert_cmpfloat (link->added_mass[0], ==, 12.0);
  g_assert_false (link_has_code (link, "A7"));
}

static gboolean
is_red (Fixture    *f,
        const char *name)
{
  GtkWidget *widget = find_named (editor_of (f), name);

  g_assert_nonnull (widget);
  return gtk_widget_has_css_class (widget, "error");
}

/* A link without added mass: μ = 0 is "no added mass", not a red "not
 * positive definite", and no A9 (nothing for libsdformat to drop); after
 * applying the sphere's estimate, its zero rotational terms are exact. */
static void
test_no_false_alarms (Fixture       *f,
                      gconstpointer  data)
{
  BlLink *link;
  GtkWidget *checks;
  GtkLabel *status;

  open_on_page (f, BALL_SDF);
  link = bl_document_find_link (bl_window_get_document (f->window), "ball::ball_link");
  checks = editor_child (f, "checks_box");
  status = GTK_LABEL (find_named (editor_of (f), "eigen-status-added"));

  g_assert_false (link->has_added_mass);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "no added mass");
  g_assert_false (is_red (f, "eigen-status-added"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (status), "success"));
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("eigenvalue-0-%u", i);

      g_assert_false (is_red (f, name));
    }
  g_assert_false (has_label_text (checks, "A9"));
  g_assert_true (has_label_text (checks, "No added mass on this link"));

  /* ½ρV = ½ · 1025 · (4/3)π · 0.125 = 268.30 kg on x y z, 0 on p q r. */
  click (f, "estimate_button");
  click (f, "apply_button");
  g_assert_true (link->has_added_mass);
  g_assert_cmpfloat (link->added_mass[15], ==, 0.0);
  {
    /* Only what is not 0 is written: an absent value is 0. */
    g_autofree char *bytes = saved_bytes (f);

    g_assert_nonnull (strstr (bytes, "<xx>"));
    g_assert_nonnull (strstr (bytes, "<zz>"));
    g_assert_null (strstr (bytes, "<xy>"));
    g_assert_null (strstr (bytes, "<pp>"));
  }
  g_assert_cmpstr (gtk_label_get_text (status), ==,
                   "positive semi-definite: rotational terms zero, exact for a sphere");
  g_assert_false (is_red (f, "eigen-status-added"));
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("eigenvalue-0-%u", i);

      g_assert_false (is_red (f, name));
    }
  /* The automatic link's real added mass does get A9, on this page too. */
  g_assert_true (has_label_text (checks, "A9"));
}

/* The Mass page's "Buoyancy above COM" of the row titled TITLE. */
static GtkLabel *
buoyancy_value (Fixture    *f,
                const char *title)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *grid = child (inspector, BL_TYPE_INSPECTOR, "buoyancy_grid");

  for (int row = 0; row < 64; row++)
    {
      GtkWidget *head = gtk_grid_get_child_at (GTK_GRID (grid), 0, row);

      if (head != NULL && GTK_IS_LABEL (head) && strcmp (gtk_label_get_text (GTK_LABEL (head)), title) == 0)
        return GTK_LABEL (grid_cell (grid, 3, row));
    }
  g_error ("no buoyancy row %s", title);
  return NULL;
}

/* gz-sim's shapes world: the capsule's centre of buoyancy is its COM (both
 * at the collision's origin), so it is 0 m above it; the doubles left
 * −7.96e-18 m, which the page showed. */
static void
test_buoyancy_offset_noise (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *outline, *row;
  GtkLabel *offset;

  open_copy (f, "gzsim_examples_worlds_shapes.sdf", NULL);
  gtk_window_present (GTK_WINDOW (f->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (f->window)));
  drain ();
  outline = child (f->window, BL_TYPE_WINDOW, "outline");
  row = find_widget (outline, label_contains, "capsule_link");
  g_assert_nonnull (row);
  ui_input_click (row, 1);
  WAIT_UNTIL (bl_inspector_get_link (BL_INSPECTOR (child (f->window, BL_TYPE_WINDOW, "inspector")))
              == bl_document_find_link (bl_window_get_document (f->window), "capsule::capsule_link"));

  offset = buoyancy_value (f, _("Buoyancy above COM"));
  g_assert_cmpstr (gtk_label_get_text (offset), ==, "0");
}

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, NULL, fn, fixture_tear_down)
  ADD ("/ui/added-mass/import-shows-a7", test_import_shows_a7);
  ADD ("/ui/added-mass/import-migrate-undo", test_import_migrate_undo);
  ADD ("/ui/added-mass/import-classic-explained", test_import_classic_explained);
  ADD ("/ui/added-mass/no-false-alarms", test_no_false_alarms);
  ADD ("/ui/noise/buoyancy-offset", test_buoyancy_offset_noise);
#undef ADD

  return ui_test_run ();
}
