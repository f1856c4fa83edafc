/* ui-input.h: real input events for the ui tests.
 *
 * The events go through the X server (the XTEST extension of Xvfb), so GTK
 * receives them exactly as it receives a user's: picked by position, through
 * every event controller, with the pointer and keyboard focus they imply.
 * Widget coordinates are the widget's own (0,0 its top-left corner).
 * Each call returns once GTK has handled what the event caused. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Moves the pointer to (x, y) in `widget`; the widget must be mapped. */
void      ui_input_move          (GtkWidget       *widget,
                                  double           x,
                                  double           y);
/* Moves to the widget's centre. */
void      ui_input_move_center   (GtkWidget       *widget);
/* Wheel ticks over the widget's centre: positive scrolls down, negative up. */
void      ui_input_scroll        (GtkWidget       *widget,
                                  int              ticks);
/* A press and release of `button` (1 left, 3 right) at the widget's centre. */
void      ui_input_click         (GtkWidget       *widget,
                                  guint            button);
/* The same at (x, y) in the widget. */
void      ui_input_click_at      (GtkWidget       *widget,
                                  double           x,
                                  double           y,
                                  guint            button);
/* Presses and releases `keyval` with `modifiers` (shift, control, alt held
 * around it) on the focused window. */
void      ui_input_key           (guint            keyval,
                                  GdkModifierType  modifiers);
/* Types `text` (printable ASCII) key by key. */
void      ui_input_type          (const char      *text);
/* Gives the toplevel of `widget` the keyboard focus, as a click on its
 * title bar would (there is no window manager under Xvfb). */
void      ui_input_focus_window  (GtkWidget       *widget);
/* Resizes WIDGET's toplevel from outside, as a window manager or the
 * user's drag of its edge does (XResizeWindow). */
void      ui_input_resize        (GtkWidget       *widget,
                                  int              width,
                                  int              height);

G_END_DECLS
