/* bl-viewport-actions.c: what the user does to the viewport: the camera
 * (fit, views), picking and hover, the pointer and touch gestures, the
 * tooltip, and the viewport.* actions with their keys. */
#include "config.h"

#include <math.h>

#include "bl-display-name.h"
#include "bl-viewport-private.h"

/* A click that travels further than this (pixels) is a drag. */
#define CLICK_SLOP 4.0

/* ---- Camera ---------------------------------------------------------------- */

void
bl_viewport_fit_sphere (BlViewport   *self,
                        const double  center[3],
                        double        radius)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));

  bl_camera_fit_sphere (&self->camera, center, radius, w > 0 ? w : 1, h > 0 ? h : 1);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
bl_viewport_fit_all (BlViewport *self)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));

  if (gtk_widget_get_width (GTK_WIDGET (self)) <= 0)
    self->pending_fit = TRUE;
  bl_viewport_fit_sphere (self, self->scene_center, self->scene_radius);
}

void
bl_viewport_fit_selection (BlViewport *self)
{
  BlSceneLink *link;
  double center[3], radius = 0.0;

  g_return_if_fail (BL_IS_VIEWPORT (self));

  if (self->selected == NULL && self->selected_model != NULL)
    {
      bl_viewport_bounds_sphere (self->links, self->selected_model, TRUE, center, &radius);
      if (radius < 0.0)   /* a model of planes alone (a ground) is framed whole */
        bl_viewport_bounds_sphere (self->links, self->selected_model, FALSE, center, &radius);
      if (radius < 0.0)
        bl_viewport_fit_all (self);
      else
        bl_viewport_fit_sphere (self, center, MAX (radius, 1e-3));
      return;
    }
  link = self->selected != NULL && self->by_link != NULL
         ? g_hash_table_lookup (self->by_link, self->selected) : NULL;
  if (link == NULL || !link->has_bounds)
    {
      bl_viewport_fit_all (self);
      return;
    }
  for (int k = 0; k < 3; k++)
    {
      /* A plane-only link (a ground) is framed whole. */
      const double *min = link->has_frame_bounds ? link->frame_min : link->min;
      const double *max = link->has_frame_bounds ? link->frame_max : link->max;

      center[k] = 0.5 * (min[k] + max[k]);
      radius += 0.25 * (max[k] - min[k]) * (max[k] - min[k]);
    }
  bl_viewport_fit_sphere (self, center, MAX (sqrt (radius), 1e-3));
}

void
bl_viewport_set_view (BlViewport      *self,
                      BlViewDirection  direction)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));

  bl_camera_set_view (&self->camera, direction);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
bl_viewport_get_camera (BlViewport *self,
                        BlCamera   *camera)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));
  g_return_if_fail (camera != NULL);

  *camera = self->camera;
}

void
bl_viewport_set_camera (BlViewport     *self,
                        const BlCamera *camera)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));
  g_return_if_fail (camera != NULL);

  self->camera = *camera;
  self->pending_fit = FALSE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* ---- Picking --------------------------------------------------------------- */

BlLink *
bl_viewport_pick (BlViewport *self,
                  double      x,
                  double      y)
{
  double origin[3], direction[3], best = 0.0;
  BlLink *found = NULL;
  int w, h;

  g_return_val_if_fail (BL_IS_VIEWPORT (self), NULL);

  if (self->links == NULL)
    return NULL;
  w = gtk_widget_get_width (GTK_WIDGET (self));
  h = gtk_widget_get_height (GTK_WIDGET (self));
  if (w <= 0 || h <= 0)
    return NULL;
  bl_camera_ray (&self->camera, x, y, w, h, origin, direction);

  for (guint i = 0; i < self->links->len; i++)
    {
      BlSceneLink *link = g_ptr_array_index (self->links, i);
      double t;

      /* Cheap rejection by the link's world bounds first. */
      if (!link->has_bounds || !bl_pick_aabb (link->min, link->max, origin, direction, &t))
        continue;
      if (found != NULL && t > best)
        continue;
      if (bl_scene_link_pick (link, origin, direction, &t) && (found == NULL || t < best))
        {
          best = t;
          found = link->link;
        }
    }
  return found;
}

static void
set_hovered (BlViewport *self,
             BlLink     *link)
{
  if (self->hovered == link)
    return;
  self->hovered = link;
  self->options.hovered = bl_viewport_link_index (self, link);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* ---- Gestures -------------------------------------------------------------- */

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               BlViewport     *self)
{
  GdkModifierType state;

  self->drag_button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  self->drag_pan = self->drag_button == GDK_BUTTON_MIDDLE || self->drag_button == GDK_BUTTON_SECONDARY
                   || (state & GDK_SHIFT_MASK) != 0;
  self->drag_last_x = self->drag_last_y = 0.0;
  self->drag_travel = 0.0;
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          offset_x,
                double          offset_y,
                BlViewport     *self)
{
  double dx = offset_x - self->drag_last_x, dy = offset_y - self->drag_last_y;

  self->drag_last_x = offset_x;
  self->drag_last_y = offset_y;
  self->drag_travel = MAX (self->drag_travel, hypot (offset_x, offset_y));
  if (self->drag_travel < CLICK_SLOP)
    return;

  if (self->drag_pan)
    bl_camera_pan (&self->camera, dx, dy, gtk_widget_get_height (GTK_WIDGET (self)));
  else
    bl_camera_orbit (&self->camera, -dx * 0.01, dy * 0.01);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  BlViewport      *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
on_click_released (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   BlViewport      *self)
{
  if (self->drag_travel >= CLICK_SLOP)
    return;
  bl_viewport_click (self, x, y);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           BlViewport               *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  set_hovered (self, bl_viewport_pick (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *controller,
          BlViewport               *self)
{
  set_hovered (self, NULL);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           BlViewport               *self)
{
  if (dy == 0.0)
    return FALSE;
  bl_camera_zoom_at (&self->camera, pow (1.15, dy), self->pointer_x, self->pointer_y,
                     gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)));
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  return TRUE;
}

static void
on_zoom_begin (GtkGesture       *gesture,
               GdkEventSequence *sequence,
               BlViewport       *self)
{
  self->zoom_distance = self->camera.distance;
}

static void
on_zoom_scale_changed (GtkGestureZoom *gesture,
                       double          scale,
                       BlViewport     *self)
{
  double cx, cy;

  if (!(scale > 0.0) || !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;
  bl_camera_zoom_at (&self->camera, self->zoom_distance / scale / self->camera.distance, cx, cy,
                     gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)));
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static gboolean
bl_viewport_query_tooltip (GtkWidget  *widget,
                           int         x,
                           int         y,
                           gboolean    keyboard,
                           GtkTooltip *tooltip)
{
  BlViewport *self = BL_VIEWPORT (widget);
  BlLink *link = keyboard ? self->selected : bl_viewport_pick (self, x, y);
  BlSceneLink *scene_link;
  g_autoptr(GString) text = NULL;

  if (link == NULL)
    return FALSE;
  scene_link = g_hash_table_lookup (self->by_link, link);
  {
    g_autofree char *name = bl_display_name (link->scoped_name);

    text = g_string_new (name);
  }
  if (link->props.valid)
    g_string_append_printf (text, "\nmass %g kg", link->props.mass);
  else
    {
      gboolean said = FALSE;

      g_string_append (text, "\nno inertia ellipsoid:");
      for (guint i = 0; link->diagnostics != NULL && i < link->diagnostics->len; i++)
        {
          BlDiagnostic *d = g_ptr_array_index (link->diagnostics, i);

          if (d->severity == BL_SEVERITY_ERROR)
            {
              g_autofree char *message = bl_display_cut (d->message, BL_DISPLAY_TEXT_MAX);

              g_string_append_printf (text, "\n%s", message);
              said = TRUE;
            }
        }
      if (!said)
        g_string_append (text, " the inertia is not valid");
    }
  for (guint i = 0; scene_link != NULL && i < scene_link->missing->len; i++)
    g_string_append_printf (text, "\nnot drawn: %s", (const char *) g_ptr_array_index (scene_link->missing, i));
  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
}

/* ---- Actions --------------------------------------------------------------- */

static void
action_fit_all (GtkWidget  *widget,
                const char *name,
                GVariant   *parameter)
{
  bl_viewport_fit_all (BL_VIEWPORT (widget));
}

static void
action_fit_selection (GtkWidget  *widget,
                      const char *name,
                      GVariant   *parameter)
{
  bl_viewport_fit_selection (BL_VIEWPORT (widget));
}

static void
action_view (GtkWidget  *widget,
             const char *name,
             GVariant   *parameter)
{
  BlViewDirection direction = BL_VIEW_ISO;

  if (g_str_equal (name, "viewport.view-front"))
    direction = BL_VIEW_FRONT;
  else if (g_str_equal (name, "viewport.view-top"))
    direction = BL_VIEW_TOP;
  else if (g_str_equal (name, "viewport.view-side"))
    direction = BL_VIEW_SIDE;
  bl_viewport_set_view (BL_VIEWPORT (widget), direction);
}

/* ---- Set-up --------------------------------------------------------------- */

static void
add_view_binding (GtkWidgetClass *widget_class,
                  guint           key,
                  guint           keypad_key,
                  const char     *action)
{
  gtk_widget_class_add_binding_action (widget_class, key, 0, action, NULL);
  gtk_widget_class_add_binding_action (widget_class, keypad_key, 0, action, NULL);
}

void
bl_viewport_actions_class_init (GtkWidgetClass *widget_class)
{
  widget_class->query_tooltip = bl_viewport_query_tooltip;

  gtk_widget_class_install_action (widget_class, "viewport.fit-all", NULL, action_fit_all);
  gtk_widget_class_install_action (widget_class, "viewport.fit-selection", NULL, action_fit_selection);
  gtk_widget_class_install_action (widget_class, "viewport.view-front", NULL, action_view);
  gtk_widget_class_install_action (widget_class, "viewport.view-top", NULL, action_view);
  gtk_widget_class_install_action (widget_class, "viewport.view-side", NULL, action_view);
  gtk_widget_class_install_action (widget_class, "viewport.view-iso", NULL, action_view);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "viewport.fit-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "viewport.fit-all", NULL);
  add_view_binding (widget_class, GDK_KEY_1, GDK_KEY_KP_1, "viewport.view-front");
  add_view_binding (widget_class, GDK_KEY_3, GDK_KEY_KP_3, "viewport.view-side");
  add_view_binding (widget_class, GDK_KEY_7, GDK_KEY_KP_7, "viewport.view-top");
  add_view_binding (widget_class, GDK_KEY_9, GDK_KEY_KP_9, "viewport.view-iso");
}

void
bl_viewport_actions_init (BlViewport *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkGesture *drag, *click, *zoom;
  GtkEventController *motion, *scroll;

  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));

  zoom = gtk_gesture_zoom_new ();
  g_signal_connect (zoom, "begin", G_CALLBACK (on_zoom_begin), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (on_zoom_scale_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (zoom));

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, motion);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, scroll);
}
