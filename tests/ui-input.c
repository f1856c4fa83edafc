/* ui-input.c: real input events for the ui tests, through XTEST. */
#include "config.h"

#include <gdk/x11/gdkx.h>
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>

#include "ui-input.h"

static Display *
x_display (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  Display *xdpy;
  int event_base, error_base, major, minor;

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  xdpy = gdk_x11_display_get_xdisplay (display);
  g_assert_true (XTestQueryExtension (xdpy, &event_base, &error_base, &major, &minor));
  return xdpy;
}

/* Lets the server deliver what the fake events caused (GDK reads this same
 * connection, so after XSync the events are queued for it), then lets GTK
 * handle them and whatever they queued: layout, idles, a frame. */
static void
drain_events (void)
{
  for (int round = 0; round < 3; round++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (2000);
    }
}

static void
settle (Display *xdpy)
{
  XSync (xdpy, False);
  drain_events ();
}

/* The scrolled window around `widget` scrolled (as by its scroll bar) so
 * that the widget is wholly in view. */
static void
reveal (GtkWidget *widget)
{
  for (GtkWidget *w = gtk_widget_get_parent (widget); w != NULL; w = gtk_widget_get_parent (w))
    {
      graphene_rect_t bounds;
      GtkAdjustment *adjustment;
      double top, value, page;

      if (!GTK_IS_SCROLLED_WINDOW (w))
        continue;
      g_assert_true (gtk_widget_compute_bounds (widget, w, &bounds));
      adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (w));
      value = gtk_adjustment_get_value (adjustment);
      page = gtk_adjustment_get_page_size (adjustment);
      top = value + bounds.origin.y;
      if (bounds.origin.y < 0 || bounds.origin.y + bounds.size.height > page)
        {
          gint64 deadline = g_get_monotonic_time () + G_USEC_PER_SEC;

          gtk_adjustment_set_value (adjustment, top - (page - bounds.size.height) / 2);
          /* The child moves at the next layout, a frame later: until then
           * the widget's bounds are where it was. */
          do
            {
              drain_events ();
              g_assert_true (gtk_widget_compute_bounds (widget, w, &bounds));
            }
          while ((bounds.origin.y < 0 || bounds.origin.y + bounds.size.height > page)
                 && g_get_monotonic_time () < deadline);
        }
      drain_events ();
    }
}

/* Whether a pointer at `picked` reaches `widget`: the widget itself, a
 * part of it, or a near ancestor that takes its events (a list row, a
 * button around its label). */
static gboolean
reaches (GtkWidget *picked,
         GtkWidget *widget)
{
  if (picked == NULL)
    return FALSE;
  if (picked == widget || gtk_widget_is_ancestor (picked, widget))
    return TRUE;
  for (GtkWidget *w = gtk_widget_get_parent (widget), *limit = NULL; w != NULL && limit == NULL; w = gtk_widget_get_parent (w))
    {
      if (GTK_IS_NATIVE (w))
        break;
      if (w == picked)
        return TRUE;
    }
  return FALSE;
}

/* The root-window point of (x, y) in `widget`, once GTK would deliver a
 * pointer there to the widget: a page still sliding or being laid out
 * after the last event is waited for (up to ten seconds). */
static GtkWidget *
root_point (GtkWidget *widget,
            double     x,
            double     y,
            int       *root_x,
            int       *root_y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GtkWidget *picked;
  double sx, sy;
  Window child;

  g_assert_true (gtk_widget_get_mapped (widget));
  reveal (widget);
  for (;;)
    {
      g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &out));
      picked = gtk_widget_pick (GTK_WIDGET (native), out.x, out.y, GTK_PICK_DEFAULT);
      if (reaches (picked, widget) || g_get_monotonic_time () > deadline)
        break;
      drain_events ();
    }
  if (!reaches (picked, widget))
    g_error ("ui-input: a pointer at (%g, %g) of %s reaches %s, not it", x, y,
             G_OBJECT_TYPE_NAME (widget), picked != NULL ? G_OBJECT_TYPE_NAME (picked) : "nothing");
  gtk_native_get_surface_transform (native, &sx, &sy);
  XTranslateCoordinates (x_display (),
                         gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                         DefaultRootWindow (x_display ()),
                         (int) (out.x + sx), (int) (out.y + sy),
                         root_x, root_y, &child);
  return picked;
}

void
ui_input_move (GtkWidget *widget,
               double     x,
               double     y)
{
  Display *xdpy = x_display ();
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  int rx, ry, again_x, again_y;

  /* Until the point holds still: a page may still scroll (to the focused
   * widget, say) after the event before, moving the widget away from
   * where the pointer was sent; and until the widget under the pointer
   * shows as hovered, that is until GTK has taken the pointer to be
   * there (a press sooner goes where it was before). */
  for (;;)
    {
      GtkWidget *picked = root_point (widget, x, y, &rx, &ry);

      XTestFakeMotionEvent (xdpy, -1, rx, ry, CurrentTime);
      settle (xdpy);
      while (!(gtk_widget_get_state_flags (picked) & GTK_STATE_FLAG_PRELIGHT) &&
             g_get_monotonic_time () < deadline)
        {
          XTestFakeMotionEvent (xdpy, -1, rx, ry, CurrentTime);
          settle (xdpy);
        }
      drain_events ();
      root_point (widget, x, y, &again_x, &again_y);
      if ((again_x == rx && again_y == ry) || g_get_monotonic_time () > deadline)
        break;
    }
}

/* A widget just shown may be mapped before its first allocation. */
static void
wait_for_size (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while ((gtk_widget_get_width (widget) <= 0 || gtk_widget_get_height (widget) <= 0) &&
         g_get_monotonic_time () < deadline)
    drain_events ();
  g_assert_cmpint (gtk_widget_get_width (widget), >, 0);
  g_assert_cmpint (gtk_widget_get_height (widget), >, 0);
}

void
ui_input_move_center (GtkWidget *widget)
{
  wait_for_size (widget);
  ui_input_move (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0);
}

static void
press_release (guint button)
{
  Display *xdpy = x_display ();

  XTestFakeButtonEvent (xdpy, button, True, CurrentTime);
  settle (xdpy);
  XTestFakeButtonEvent (xdpy, button, False, CurrentTime);
  settle (xdpy);
}

void
ui_input_scroll (GtkWidget *widget,
                 int        ticks)
{
  ui_input_move_center (widget);
  /* X11's wheel is buttons 4 (up) and 5 (down), one press per tick. */
  for (int i = 0; i < ABS (ticks); i++)
    press_release (ticks > 0 ? 5 : 4);
}

void
ui_input_click_at (GtkWidget *widget,
                   double     x,
                   double     y,
                   guint      button)
{
  ui_input_move (widget, x, y);
  press_release (button);
}

void
ui_input_click (GtkWidget *widget,
                guint      button)
{
  wait_for_size (widget);
  ui_input_click_at (widget, gtk_widget_get_width (widget) / 2.0, gtk_widget_get_height (widget) / 2.0, button);
}

static void
fake_key (KeySym   keysym,
          gboolean press)
{
  Display *xdpy = x_display ();
  KeyCode code = XKeysymToKeycode (xdpy, keysym);

  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (xdpy, code, press, CurrentTime);
}

void
ui_input_key (guint           keyval,
              GdkModifierType modifiers)
{
  static const struct { GdkModifierType mask; KeySym key; } mods[] = {
    { GDK_SHIFT_MASK, XK_Shift_L },
    { GDK_CONTROL_MASK, XK_Control_L },
    { GDK_ALT_MASK, XK_Alt_L },
  };
  Display *xdpy = x_display ();

  for (guint i = 0; i < G_N_ELEMENTS (mods); i++)
    if (modifiers & mods[i].mask)
      fake_key (mods[i].key, TRUE);
  /* GDK's key values are X keysyms. */
  fake_key (keyval, TRUE);
  fake_key (keyval, FALSE);
  for (guint i = G_N_ELEMENTS (mods); i-- > 0;)
    if (modifiers & mods[i].mask)
      fake_key (mods[i].key, FALSE);
  settle (xdpy);
}

void
ui_input_type (const char *text)
{
  Display *xdpy = x_display ();

  for (const char *p = text; *p != '\0'; p++)
    {
      /* Printable ASCII keysyms are the characters themselves; a character
       * in the keycode's second column needs Shift. */
      KeySym keysym = (KeySym) (guchar) *p;
      KeyCode code = XKeysymToKeycode (xdpy, keysym);

      g_assert_true (g_ascii_isprint (*p));
      g_assert_cmpuint (code, !=, 0);
      ui_input_key (keysym, XkbKeycodeToKeysym (xdpy, code, 0, 0) == keysym ? 0 : GDK_SHIFT_MASK);
    }
}

void
ui_input_focus_window (GtkWidget *widget)
{
  Display *xdpy = x_display ();
  GtkNative *native = gtk_widget_get_native (widget);

  g_assert_true (gtk_widget_get_mapped (widget));
  XSetInputFocus (xdpy, gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                  RevertToParent, CurrentTime);
  settle (xdpy);
}

void
ui_input_resize (GtkWidget *widget,
                 int        width,
                 int        height)
{
  Display *xdpy = x_display ();
  GtkNative *native = gtk_widget_get_native (widget);

  g_assert_true (gtk_widget_get_mapped (widget));
  XResizeWindow (xdpy, gdk_x11_surface_get_xid (gtk_native_get_surface (native)), width, height);
  settle (xdpy);
}
