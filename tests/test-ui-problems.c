/* test-ui-problems.c: the problems bar says a repeated failure once (issue
 * 17): a world that includes one missing model many times shows one
 * error, at the first include, with the count.  The user's acts are real
 * events through the X server. */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "bl-problems-bar.h"
#include "bl-window.h"
#include "ui-common.h"
#include "ui-input.h"

/* model://ghost included five times, on lines 4 to 8, and nowhere to be
 * found; a buoy of its own so that the window has a link to show. */
static const char fleet_world[] =
  "<?xml version=\"1.0\"?>\n"
  "<sdf version=\"1.11\">\n"
  "  <world name=\"sea\">\n"
  "    <include><uri>model://ghost</uri><name>g0</name></include>\n"
  "    <include><uri>model://ghost</uri><name>g1</name></include>\n"
  "    <include><uri>model://ghost</uri><name>g2</name></include>\n"
  "    <include><uri>model://ghost</uri><name>g3</name></include>\n"
  "    <include><uri>model://ghost</uri><name>g4</name></include>\n"
  "    <model name=\"buoy\">\n"
  "      <link name=\"float\">\n"
  "        <inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>\n"
  "      </link>\n"
  "    </model>\n"
  "  </world>\n"
  "</sdf>\n";

static void
test_repeated_include (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *bar, *details;
  GtkPopover *popover;
  const char *message;

  open_copy (f, NULL, fleet_world);
  bar = find_by_type (GTK_WIDGET (f->window), BL_TYPE_PROBLEMS_BAR);
  g_assert_nonnull (bar);
  WAIT_UNTIL (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (bar)) && gtk_widget_get_mapped (bar));
  g_assert_true (bl_problems_bar_get_revealed (BL_PROBLEMS_BAR (bar)));

  /* one model missing, not five; the first include, and how many */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child (bar, BL_TYPE_PROBLEMS_BAR, "title_label"))), ==,
                   "A model could not be found");
  message = gtk_label_get_text (GTK_LABEL (child (bar, BL_TYPE_PROBLEMS_BAR, "message_label")));
  g_assert_true (g_str_has_prefix (message, "model.sdf, line 4: “model://ghost” (included 5 times) is in "
                                            "none of the folders searched: "));

  /* Details lists it once, the core's message naming the other lines */
  details = child (bar, BL_TYPE_PROBLEMS_BAR, "details_button");
  ui_input_click (details, 1);
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (details));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "model.sdf, line 4"));
  g_assert_null (find_label (GTK_WIDGET (popover), "model.sdf, line 5"));
  /* the rows of Details: one per problem (class bl-problem) */
  g_assert_cmpuint (count_css_class (GTK_WIDGET (popover), "bl-problem"), ==, 1);
  message = ((BlDiagnostic *) g_ptr_array_index (bl_document_get_diagnostics (bl_window_get_document (f->window)),
                                                 0))->message;
  g_assert_nonnull (strstr (message, "(5 includes of “model://ghost” failed alike: the first here, line 4; "
                                     "then line 5, line 6, line 7, line 8)"));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), message));
  gtk_popover_popdown (popover);
  drain ();
}

int
main (int   argc,
      char *argv[])
{
  /* The model path comes from the test alone. */
  g_unsetenv ("GZ_SIM_RESOURCE_PATH");
  g_unsetenv ("IGN_GAZEBO_RESOURCE_PATH");
  g_unsetenv ("SDF_PATH");
  g_unsetenv ("GAZEBO_MODEL_PATH");
  ui_test_init (&argc, &argv);

  g_test_add ("/ui/problems/repeated-include", Fixture, NULL, NULL, test_repeated_include, fixture_tear_down);

  return ui_test_run ();
}
