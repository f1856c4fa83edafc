/* ui-common.h: what every ui test of the application shares. */
#pragma once

#include <gtk/gtk.h>

#include "bl-application.h"
#include "bl-outline-item.h"
#include "bl-window.h"

G_BEGIN_DECLS

/* sdformat's inertial_stats_auto model: link_2 is a 1 m cube whose
 * collision_2 has <density>6</density>, so its mass is 6 kg and, with a
 * density ρ, ρ kg (V = 1 m³) with Ixx = Iyy = Izz = m·(1² + 1²)/12. */
#define FIXTURE "sdformat_test_sdf_inertial_stats_auto.sdf"

/* A 0.5 m sphere of 500 kg/m³ (link ball::ball_link, collision "sphere",
 * automatic inertia) without added mass; BALL_LINK_SDF leaves the model
 * open for more (a plugin). */
#define BALL_LINK_SDF \
  "<?xml version=\"1.0\"?>\n" \
  "<sdf version=\"1.11\">\n" \
  "  <model name=\"ball\">\n" \
  "    <link name=\"ball_link\">\n" \
  "      <inertial auto=\"true\"/>\n" \
  "      <collision name=\"sphere\">\n" \
  "        <density>500</density>\n" \
  "        <geometry><sphere><radius>0.5</radius></sphere></geometry>\n" \
  "      </collision>\n" \
  "    </link>\n"
#define BALL_SDF BALL_LINK_SDF "  </model>\n</sdf>\n"

typedef struct
{
  char     *dir;
  char     *path;
  char     *original;
  BlWindow *window;
} Fixture;

/* Waits until `done` holds or ten seconds pass, running the main loop. */
#define WAIT_UNTIL(done) \
  G_STMT_START { \
    gint64 wait_deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC; \
    while (!(done) && g_get_monotonic_time () < wait_deadline) \
      { \
        g_main_context_iteration (NULL, FALSE); \
        g_usleep (1000); \
      } \
  } G_STMT_END

void        drain (void);

/* Files open in a worker thread: iterate until the window's load ended. */
void        wait_for_load (BlWindow *window);

/* Copies a fixture (or, when `text` is given, writes it) to model.sdf in a
 * new directory and opens it in a new window. */
void        open_copy (Fixture *f, const char *fixture, const char *text);

void        fixture_set_up (Fixture *f, gconstpointer data);
/* The built-in sample in a new window, its hull (sample_auv::hull)
 * selected, the window focused for keys. */
void        sample_set_up (Fixture *f, gconstpointer data);

/* A new window on the built-in sample, with a directory of its own for
 * the test, its link `link_name` selected. */
void        open_sample (Fixture *f, const char *link_name);

/* Removes the directory of a test and everything in it. */
void        remove_tree (const char *path);

void        fixture_tear_down (Fixture *f, gconstpointer data);

GtkWidget * child (gpointer widget, GType type, const char *name);

/* The first widget under `root` (itself included, depth first) that
 * passes `test`, or NULL. */
typedef gboolean (*WidgetTest) (GtkWidget *widget, gconstpointer data);
GtkWidget * find_widget (GtkWidget *root, WidgetTest test, gconstpointer data);

GtkWidget * find_named (GtkWidget *root, const char *name);
/* The first widget under `root` (itself included) of `type`, or NULL. */
GtkWidget * find_by_type (GtkWidget *root, GType type);

/* Answers the file chooser that GtkFileChooserNative shows (without a
 * portal it is an in-process GtkFileChooserDialog) with dir/name; a
 * folder chooser with dir alone when name is NULL. */
void        answer_file_chooser (const char *dir, const char *name);

/* The label under `root` that reads `text` (as shown: a mnemonic's
 * underscore is not part of it). */
GtkWidget * find_label (GtkWidget *root, const char *text);

/* The menu item that shows `text`: the label's nearest clickable ancestor. */
GtkWidget * find_menu_item (GtkWidget *popover, const char *text);

/* Moves the pointer onto `widget`, scrolling it into view first and
 * waiting for the page to be laid out there (ui-input computes where to
 * click from the allocation, which a scroll changes only at the next
 * frame). */
void        point_at (GtkWidget *widget);
/* Clicks into the editable (a BlNumberField, an entry), selects its text,
 * types `text` and presses Enter, all as real key events. */
void        type_for_real (gpointer editable, const char *text);
/* The message dialog on screen, once mapped (ten seconds at most). */
GtkMessageDialog *wait_for_message_dialog (void);
/* Clicks DIALOG's button of `response`, as a user would. */
void        answer_dialog (GtkMessageDialog *dialog, int response);
/* Once the inspector asks whether to keep the computed inertia (its
 * question in the Inertial card, after the auto switch is turned off),
 * clicks the answer `button` ("auto-question-cancel", "-file" or
 * "-keep"), as a user would. */
void        answer_auto_question (GtkWidget *inspector, const char *button);

/* Shows the side page titled `title` (its name in the window's side
 * stack: `name`) by a real click on its tab, and waits until it is shown. */
void        show_side_page (Fixture *f, const char *title, const char *name);

/* Opens model "m": its own link m::own (a 1 m box, 700 kg/m³, automatic
 * inertia) and m::part::inc (the same box at 500 kg/m³) included from
 * part.sdf in a new folder of its own.  Returns part.sdf's path; the
 * caller removes its folder. */
char *      open_with_included_part (Fixture *f);

/* Lets the double-click time pass, so that the next click is a click of
 * its own (not the second of a double click). */
void        past_double_click (void);
/* Selects the outline row that shows NAME by a real click on its label
 * (the row must be on screen: its model, or link, expanded). */
void        click_row (Fixture *f, const char *name);
/* The expander arrow of the outline row that shows NAME. */
GtkWidget * row_arrow (Fixture *f, const char *name);

/* Selects the link's row in the outline's own selection model, as a click would. */
void        select_in_outline (Fixture *f, const char *link_name);

/* Sets an editable's text and activates it as Enter would; type_into
 * then lets GTK handle what that caused. */
void        type_text (GtkWidget *widget, const char *text);
void        type_into (GtkWidget *widget, const char *text);

/* Answers DIALOG as a user would: once it is on screen, mapped and laid
 * out (answering a dialog GTK has not allocated yet lets it snapshot
 * buttons without an allocation, a GTK warning, when the machine is busy). */
void        respond (gpointer dialog, int response);

double      label_number (GtkWidget *label);

/* The displayed numbers have six significant digits. */
void        assert_label_near (GtkWidget *label, double expected);

GtkWidget * grid_cell (GtkWidget *grid, int column, int row);

GtkWindow * find_dialog (GType type);
/* The shown message dialog's secondary text (newly allocated); the
 * dialog closed. */
char *      close_message_dialog (void);

void        select_row (Fixture *f, BlOutlineItemKind kind, const char *name);

/* Opens the menu of BUTTON (a GtkMenuButton) with a click of its own and
 * returns its popover, shown. */
GtkWidget * open_menu (GtkWidget *button);
/* The window's main menu button (the primary one, in the title bar). */
GtkWidget * main_menu_button (Fixture *f);

/* A new BlApplication of the test program's own, registered (not run,
 * not unique): it keeps the settings (model-paths) and hands them to the
 * core; a window given it with gtk_window_set_application uses them. */
BlApplication *register_application (void);

/* How many widgets under ROOT (itself included) have CSS_CLASS. */
guint       count_css_class (GtkWidget *root, const char *css_class);

/* How many extra model paths the resolver has (bl_resource_dup_extra_paths). */
guint       extra_path_count (void);

/* The window's problems bar; the text of its label NAME ("title_label",
 * "message_label", "hint_label"); whether it is on screen: revealed,
 * mapped and laid out. */
GtkWidget * problems_bar (Fixture *f);
const char *bar_text     (Fixture *f, const char *name);
gboolean    bar_shown    (Fixture *f);

/* Sets up a ui test program (GSettings in memory, its own state and data
 * folders, GTK, warnings fatal but GTK 4.8's file-chooser snapshot one) and
 * runs its tests, removing those folders afterwards. */
void        ui_test_init (int *argc, char ***argv);
int         ui_test_run (void);

/* Opens the fixture (or TEXT, as open_copy) in a window of WIDTH×HEIGHT
 * (the size the window takes from its settings; the window widget is that
 * less its client-side shadow, 10 px under Xvfb), waits until it is
 * shown and focuses it. */
void        open_sized (Fixture    *f,
                        const char *fixture,
                        const char *text,
                        int         width,
                        int         height);

/* Fails unless every label and number field shown on the page of the
 * scrolled window SCROLLER lies within its width, and the page needs no
 * horizontal scrolling.  WHEN says after what. */
void        assert_page_fits (GtkWidget  *scroller,
                              const char *when);

/* TEXT with the first OLD after ANCHOR replaced by REPLACEMENT (both
 * must be there; newly allocated). */
char *      replace_after (const char *text,
                           const char *anchor,
                           const char *old,
                           const char *replacement);

G_END_DECLS
