/* test-ui-layout.c: the window's layout at 1024×700 and what the inspector
 * scrolls to, driven by real pointer and key events (tests/ui-input.h).
 * Run under a 1024×700 Xvfb screen (tests/meson.build). */
#include "config.h"

#include <math.h>

#include "bl-added-mass-editor.h"
#include "bl-application.h"
#include "bl-inspector.h"
#include "bl-number-field.h"
#include "bl-viewport.h"
#include "ui-common.h"
#include "ui-input.h"

/* The 3D view's least width at 1024×700 (it had about 250 px). */
#define MIN_VIEWPORT_WIDTH 400

static void
set_up_1024 (Fixture       *f,
             gconstpointer  data)
{
  open_sized (f, FIXTURE, NULL, 1024, 700);
}

/* The stack switcher's button of the page titled TITLE. */
static GtkWidget *
page_tab (Fixture    *f,
          const char *title)
{
  GtkWidget *switcher = find_by_type (GTK_WIDGET (f->window), GTK_TYPE_STACK_SWITCHER);

  g_assert_nonnull (switcher);
  for (GtkWidget *c = gtk_widget_get_first_child (switcher); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (find_label (c, title) != NULL)
      return c;
  g_error ("no page tab “%s”", title);
  return NULL;
}

/* A left click of its own on the widget's centre. */
static void
click (GtkWidget *widget)
{
  past_double_click ();
  ui_input_click (widget, 1);
}

typedef struct
{
  int outer, inner, viewport, side;
} Layout;

static Layout
layout_now (Fixture *f)
{
  Layout l;

  drain ();
  l.outer = gtk_paned_get_position (GTK_PANED (gtk_window_get_child (GTK_WINDOW (f->window))));
  l.inner = gtk_paned_get_position (GTK_PANED (child (f->window, BL_TYPE_WINDOW, "inner_paned")));
  l.viewport = gtk_widget_get_width (child (f->window, BL_TYPE_WINDOW, "viewport_box"));
  l.side = gtk_widget_get_width (gtk_widget_get_parent (child (f->window, BL_TYPE_WINDOW, "side_stack")));
  return l;
}

static void
assert_same_layout (const Layout *a,
                    const Layout *b,
                    const char   *after)
{
  if (a->outer != b->outer || a->inner != b->inner || a->viewport != b->viewport || a->side != b->side)
    g_error ("after %s the layout moved: dividers %d, %d → %d, %d; 3D view %d → %d px, inspector %d → %d px",
             after, a->outer, a->inner, b->outer, b->inner, a->viewport, b->viewport, a->side, b->side);
}

/* At 1024×700 the 3D view has a usable width, and the dividers stay where
 * they are through an edit, the auto switch and a page switch (they moved
 * with the inspector's content). */
static void
test_stable_dividers (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *spin;
  Layout before, after;
  BlLink *link;

  click_row (f, "link_2");
  link = bl_inspector_get_link (BL_INSPECTOR (inspector));
  g_assert_nonnull (link);
  g_assert_cmpstr (link->name, ==, "link_2");
  before = layout_now (f);
  if (before.viewport < MIN_VIEWPORT_WIDTH)
    g_error ("at 1024×700 the 3D view is %d px wide (expected at least %d)", before.viewport, MIN_VIEWPORT_WIDTH);
  g_assert_cmpint (before.side, >=, 300);


  /* An edit: the density typed with the keyboard, Enter. */
  spin = find_named (inspector, "collision-density-collision_2");
  g_assert_nonnull (spin);
  click (spin);
  ui_input_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_input_type ("123456.789");
  ui_input_key (GDK_KEY_Return, 0);
  {
    BlCollision *collision = g_ptr_array_index (link->collisions, 0);

    g_assert_true (collision->has_density);
    g_assert_cmpfloat (collision->density, ==, 123456.789);
  }
  after = layout_now (f);
  assert_same_layout (&before, &after, "an edit");

  /* The auto switch, and its question answered (keep the values). */
  click (child (inspector, BL_TYPE_INSPECTOR, "auto_switch"));
  past_double_click ();
  answer_auto_question (inspector, "auto-question-keep");
  g_assert_false (link->auto_inertia);
  after = layout_now (f);
  assert_same_layout (&before, &after, "the auto switch");

  /* The Added Mass page (a wide 6×6 matrix) and back. */
  click (page_tab (f, "Added Mass"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (child (f->window, BL_TYPE_WINDOW, "side_stack"))),
                   ==, "added-mass");
  after = layout_now (f);
  assert_same_layout (&before, &after, "the switch to the Added Mass page");
  click (page_tab (f, "Mass"));
  after = layout_now (f);
  assert_same_layout (&before, &after, "the switch back to the Mass page");
}

static double
scroll_value (GtkWidget *scroller)
{
  return gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)));
}

/* A newly selected link and a newly opened file show the inspector from
 * the top (the link's name), not where the previous one was scrolled to. */
static void
test_new_selection_scrolls_to_top (Fixture       *f,
                                   gconstpointer  data)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *title = child (inspector, BL_TYPE_INSPECTOR, "title_label");
  GtkWidget *scroller = gtk_widget_get_ancestor (title, GTK_TYPE_SCROLLED_WINDOW);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;

  click_row (f, "link_1");
  /* The wheel over the mass properties (labels only, no fields). */
  ui_input_scroll (child (inspector, BL_TYPE_INSPECTOR, "props_grid"), 2);
  g_assert_cmpfloat (scroll_value (scroller), >, 50.0);

  click_row (f, "link_2");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, "link_2");
  g_assert_cmpfloat (scroll_value (scroller), ==, 0.0);

  ui_input_scroll (child (inspector, BL_TYPE_INSPECTOR, "props_grid"), 2);
  g_assert_cmpfloat (scroll_value (scroller), >, 50.0);
  file = g_file_new_for_path (f->path);
  g_assert_true (bl_window_load_file (f->window, file, &error));
  g_assert_no_error (error);
  drain ();
  click_row (f, "link_2");
  g_assert_cmpfloat (scroll_value (scroller), ==, 0.0);
}

/* WIDGET lies wholly within SCROLLER's visible part. */
static gboolean
in_view (GtkWidget *widget,
         GtkWidget *scroller)
{
  graphene_rect_t bounds;

  return gtk_widget_compute_bounds (widget, scroller, &bounds) && bounds.origin.y >= 0
         && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller);
}

/* The estimate's proposal panel opens in view: the Apply button it ends
 * with is within the visible part of the Added Mass page. */
static void
test_proposal_in_view (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *editor = child (f->window, BL_TYPE_WINDOW, "added_mass_editor");
  GtkWidget *apply = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "apply_button");
  GtkWidget *scroller = gtk_widget_get_ancestor (apply, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *revealer = child (editor, BL_TYPE_ADDED_MASS_EDITOR, "proposal_revealer");
  graphene_rect_t bounds;

  click_row (f, "link_2");
  click (page_tab (f, "Added Mass"));
  click (child (editor, BL_TYPE_ADDED_MASS_EDITOR, "estimate_button"));
  /* The panel slides open (an animation): wait until it is open and still. */
  WAIT_UNTIL (gtk_revealer_get_child_revealed (GTK_REVEALER (revealer)) && in_view (apply, scroller));
  g_assert_true (gtk_revealer_get_child_revealed (GTK_REVEALER (revealer)));
  g_assert_true (gtk_widget_get_visible (apply));
  g_assert_true (gtk_widget_compute_bounds (apply, scroller, &bounds));
  if (!in_view (apply, scroller))
    g_error ("the proposal's Apply button is at y %g…%g, outside the page's view (0…%d)",
             bounds.origin.y, bounds.origin.y + bounds.size.height, gtk_widget_get_height (scroller));
  /* Its top too. */
  g_assert_true (gtk_widget_compute_bounds (revealer, scroller, &bounds));
  g_assert_cmpfloat (bounds.origin.y, >=, 0.0);
}

/* A collision picked in the outline is the one highlighted in the 3D view
 * (the viewport's drawing of it: /ui/viewport/selection-unmistakable). */
static void
test_collision_selected_in_3d (Fixture       *f,
                               gconstpointer  data)
{
  BlViewport *viewport = BL_VIEWPORT (find_by_type (child (f->window, BL_TYPE_WINDOW, "viewport_box"),
                                                 BL_TYPE_VIEWPORT));
  BlCollision *collision = bl_document_find_collision (bl_window_get_document (f->window),
                                                       "test_model::link_2", "collision_2");

  g_assert_nonnull (collision);
  click_row (f, "link_2");
  g_assert_true (bl_viewport_get_selected_link (viewport) == collision->link);
  g_assert_null (bl_viewport_get_selected_collision (viewport));
  click (row_arrow (f, "link_2"));
  click_row (f, "collision_2");
  g_assert_true (bl_viewport_get_selected_link (viewport) == collision->link);
  g_assert_true (bl_viewport_get_selected_collision (viewport) == collision);
  /* Back to the link's own row: the link alone. */
  click_row (f, "link_2");
  g_assert_true (bl_viewport_get_selected_link (viewport) == collision->link);
  g_assert_null (bl_viewport_get_selected_collision (viewport));
}

static GtkWidget *
view_menu_button (Fixture *f)
{
  /* By name: the problems bar above the view has a menu button too. */
  GtkWidget *button = find_named (GTK_WIDGET (f->window), "view-menu-button");

  g_assert_nonnull (button);
  return button;
}

/* The legend in the 3D view's corner lists what is drawn: a row per
 * overlay that is on, following the ⋮ menu's toggles, and hides with its
 * own toggle. */
static void
test_legend_follows_toggles (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *legend = find_named (GTK_WIDGET (f->window), "legend");
  GtkWidget *box_row, *popover;

  g_assert_nonnull (legend);
  g_assert_true (gtk_widget_get_mapped (legend));
  g_assert_true (gtk_widget_get_mapped (find_named (legend, "legend-selection")));
  g_assert_true (gtk_widget_get_mapped (find_named (legend, "legend-warning")));
  g_assert_true (gtk_widget_get_mapped (find_named (legend, "legend-show-inertia-ellipsoid")));
  g_assert_true (gtk_widget_get_mapped (find_named (legend, "legend-show-com")));
  g_assert_true (gtk_widget_get_mapped (find_named (legend, "legend-show-added-mass")));
  box_row = find_named (legend, "legend-show-inertia-box");
  g_assert_nonnull (box_row);
  g_assert_false (gtk_widget_get_visible (box_row));

  popover = open_menu (view_menu_button (f));
  click (find_menu_item (popover, "Inertia Box"));
  drain ();
  g_assert_true (gtk_widget_get_mapped (box_row));

  popover = open_menu (view_menu_button (f));
  click (find_menu_item (popover, "Colour Legend"));
  drain ();
  g_assert_false (gtk_widget_get_visible (legend));
}

/* The label colour of the menu item TEXT in POPOVER. */
static void
item_color (GtkWidget  *popover,
            const char *text,
            GdkRGBA    *color)
{
  GtkWidget *label = find_label (popover, text);

  g_assert_nonnull (label);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (label), color);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

/* The ⋮ menu's items read as the main menu's do (they looked disabled
 * until hovered: the on-screen-display style of the button reached its
 * popover). */
static void
test_view_menu_items_look_enabled (Fixture       *f,
                                   gconstpointer  data)
{
  GtkWidget *popover;
  GdkRGBA view, main_menu;

  popover = open_menu (view_menu_button (f));
  /* Not the first item: the menu opens with that one highlighted. */
  g_assert_true (gtk_widget_get_sensitive (find_menu_item (popover, "Isometric")));
  item_color (popover, "Isometric", &view);
  gtk_popover_popdown (GTK_POPOVER (popover));
  drain ();

  popover = open_menu (main_menu_button (f));
  g_assert_true (gtk_widget_get_sensitive (find_menu_item (popover, "Export Baked…")));
  item_color (popover, "Export Baked…", &main_menu);
  gtk_popover_popdown (GTK_POPOVER (popover));
  drain ();

  if (!gdk_rgba_equal (&view, &main_menu))
    g_error ("the view menu's items are drawn in %s, the main menu's in %s",
             gdk_rgba_to_string (&view), gdk_rgba_to_string (&main_menu));
}

static void
assert_inspector_fits (Fixture    *f,
                       const char *when)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");

  assert_page_fits (child (inspector, BL_TYPE_INSPECTOR, "link_scroller"), when);
}

/* At 1024×700 every title, value and unit of the Mass page is in view
 * without scrolling sideways (the unit column was cut off), with the 3D
 * view still at its usable width: for a link picked in the outline, with
 * long numbers after an edit, and with automatic inertia off. */
static void
test_mass_page_fits (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *inspector = child (f->window, BL_TYPE_WINDOW, "inspector");
  GtkWidget *spin;

  click_row (f, "link_2");
  g_assert_cmpint (layout_now (f).viewport, >=, MIN_VIEWPORT_WIDTH);
  assert_inspector_fits (f, "a link selected");

  spin = find_named (inspector, "collision-density-collision_2");
  g_assert_nonnull (spin);
  click (spin);
  ui_input_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_input_type ("0.00123456789");
  ui_input_key (GDK_KEY_Return, 0);
  WAIT_UNTIL (((BlCollision *) g_ptr_array_index (bl_inspector_get_link (BL_INSPECTOR (inspector))->collisions,
                                                  0))->density == 0.00123456789);
  assert_inspector_fits (f, "a density of 0.00123456789");

  click (child (inspector, BL_TYPE_INSPECTOR, "auto_switch"));
  WAIT_UNTIL (gtk_widget_get_mapped (find_named (inspector, "auto-question-keep")));
  drain ();
  assert_inspector_fits (f, "the question of turning automatic inertia off");
  past_double_click ();
  answer_auto_question (inspector, "auto-question-keep");
  assert_inspector_fits (f, "automatic inertia turned off");
  g_assert_cmpint (layout_now (f).viewport, >=, MIN_VIEWPORT_WIDTH);
}

int
main (int   argc,
      char *argv[])
{
  ui_test_init (&argc, &argv);
  /* GTK 4.8's cursor blink warns "GtkText - did not receive a focus-out
   * event" when its timer runs after focus moved under real clicks on
   * Xvfb (no window manager); the blink is no part of these tests. */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, set_up_1024, fn, fixture_tear_down)
  ADD ("/ui/layout/stable-dividers", test_stable_dividers);
  ADD ("/ui/layout/mass-page-fits", test_mass_page_fits);
  ADD ("/ui/layout/new-selection-scrolls-to-top", test_new_selection_scrolls_to_top);
  ADD ("/ui/layout/proposal-in-view", test_proposal_in_view);
  ADD ("/ui/layout/collision-selected-in-3d", test_collision_selected_in_3d);
  ADD ("/ui/layout/legend-follows-toggles", test_legend_follows_toggles);
  ADD ("/ui/layout/view-menu-items-look-enabled", test_view_menu_items_look_enabled);
#undef ADD

  return ui_test_run ();
}
