/* bl-viewport.c: the GtkGLArea that shows a BlDocument: the scene kept in
 * step with the document, the GL life cycle and frames, properties.  What
 * the user does to it (camera, picking, gestures, actions) is in
 * bl-viewport-actions.c. */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <epoxy/gl.h>

#include "bl-added-mass.h"
#include "bl-viewport-private.h"

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_FLUID_DENSITY,
  PROP_SELECTED_LINK,
  PROP_SELECTED_COLLISION,
  PROP_SELECTED_MODEL,
  PROP_SHOW_INERTIA_ELLIPSOID,
  PROP_SHOW_INERTIA_BOX,
  PROP_SHOW_COM,
  PROP_SHOW_PRINCIPAL_AXES,
  PROP_SHOW_BUOYANCY_CENTER,
  PROP_SHOW_ADDED_MASS,
  PROP_WIREFRAME,
  PROP_XRAY,
  N_PROPS
};

enum
{
  LINK_PICKED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (BlViewport, bl_viewport, GTK_TYPE_GL_AREA)

static gboolean *
option_for_prop (BlViewport *self,
                 guint       prop_id)
{
  switch (prop_id)
    {
    case PROP_SHOW_INERTIA_ELLIPSOID: return &self->options.show_inertia_ellipsoid;
    case PROP_SHOW_INERTIA_BOX: return &self->options.show_inertia_box;
    case PROP_SHOW_COM: return &self->options.show_com;
    case PROP_SHOW_PRINCIPAL_AXES: return &self->options.show_principal_axes;
    case PROP_SHOW_BUOYANCY_CENTER: return &self->options.show_buoyancy_center;
    case PROP_SHOW_ADDED_MASS: return &self->options.show_added_mass;
    case PROP_WIREFRAME: return &self->options.wireframe;
    case PROP_XRAY: return &self->options.xray;
    default: return NULL;
    }
}

static void
set_option (BlViewport *self,
            guint       prop_id,
            gboolean    value)
{
  gboolean *option = option_for_prop (self, prop_id);

  value = !!value;
  if (*option == value)
    return;
  *option = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* ---- Scene ----------------------------------------------------------------- */

void
bl_viewport_bounds_sphere (GPtrArray *links,
                           BlModel   *model,
                           gboolean   frame,
                           double     center[3],
                           double    *radius)
{
  double lo[3] = { 0 }, hi[3] = { 0 };
  gboolean any = FALSE;

  for (guint i = 0; links != NULL && i < links->len; i++)
    {
      BlSceneLink *link = g_ptr_array_index (links, i);
      const double *min = frame ? link->frame_min : link->min;
      const double *max = frame ? link->frame_max : link->max;

      if (!(frame ? link->has_frame_bounds : link->has_bounds))
        continue;
      if (model != NULL && !bl_model_contains_link (model, link->link))
        continue;
      for (int k = 0; k < 3; k++)
        {
          lo[k] = any ? MIN (lo[k], min[k]) : min[k];
          hi[k] = any ? MAX (hi[k], max[k]) : max[k];
        }
      any = TRUE;
    }
  *radius = 0.0;
  for (int k = 0; k < 3; k++)
    {
      center[k] = 0.5 * (lo[k] + hi[k]);
      *radius += 0.25 * (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
  *radius = any ? sqrt (*radius) : -1.0;
}

/* What fit-all frames: the sphere around the union of the links' framing
 * bounds (solid shapes and overlays, no planes), or of everything drawn
 * when nothing else is there (a world of only a ground plane).
 * EXTENT_RADIUS covers everything drawn, planes included, for the clip
 * planes. */
static void
update_scene_bounds (BlViewport *self)
{
  double center[3];

  self->n_bounds_walks++;
  bl_viewport_bounds_sphere (self->links, NULL, TRUE, self->scene_center, &self->scene_radius);
  bl_viewport_bounds_sphere (self->links, NULL, FALSE, center, &self->extent_radius);
  if (self->scene_radius < 0.0)
    {
      memcpy (self->scene_center, center, sizeof center);
      self->scene_radius = self->extent_radius;
    }
  if (!(self->scene_radius > 1e-6))
    self->scene_radius = 1.0;
  /* The far clip plane must reach everything from anywhere near the model. */
  if (self->extent_radius > 0.0)
    {
      double d = 0.0;

      for (int k = 0; k < 3; k++)
        d += (center[k] - self->scene_center[k]) * (center[k] - self->scene_center[k]);
      self->extent_radius += sqrt (d);
    }
  self->extent_radius = MAX (self->extent_radius, self->scene_radius);
}

int
bl_viewport_link_index (BlViewport *self,
                        BlLink     *link)
{
  BlSceneLink *scene_link;

  if (link == NULL || self->by_link == NULL)
    return -1;
  scene_link = g_hash_table_lookup (self->by_link, link);
  return scene_link != NULL ? (int) scene_link->index : -1;
}

static BlVec3
world_gravity (BlViewport *self)
{
  return bl_fluid_get_gravity (self->document, NULL);
}

/* Redraws SCENE_LINK from its link (an edit, or a mesh read). */
static void
refresh_link (BlViewport  *self,
              BlSceneLink *scene_link)
{
  BlSceneBounds before, after;

  bl_scene_link_get_bounds (scene_link, &before);
  bl_scene_link_update (scene_link, self->fluid_density, world_gravity (self));
  bl_scene_link_get_bounds (scene_link, &after);
  if (self->renderer != NULL)
    bl_renderer_link_changed (self->renderer, scene_link);
  /* The scene's bounds walk every link: only when this one's moved (a
   * density edit changes no shape, an ellipsoid seldom the union; a mesh
   * read in a worker does). */
  if (memcmp (&before, &after, sizeof before) != 0)
    update_scene_bounds (self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
on_link_changed (BlDocument *document,
                 gpointer    link,
                 gpointer    user_data)
{
  BlViewport *self = user_data;
  BlSceneLink *scene_link = g_hash_table_lookup (self->by_link, link);

  if (scene_link != NULL)
    refresh_link (self, scene_link);
}

/* The core's cache has read a mesh SCENE_LINK waits for. */
static void
on_mesh_ready (BlSceneLink *scene_link,
               gpointer     user_data)
{
  refresh_link (user_data, scene_link);
}

static void
rebuild_scene (BlViewport *self)
{
  g_clear_pointer (&self->links, g_ptr_array_unref);
  g_clear_pointer (&self->by_link, g_hash_table_unref);

  if (self->document != NULL)
    {
      GPtrArray *links = bl_document_get_links (self->document);
      BlVec3 gravity = world_gravity (self);

      self->links = g_ptr_array_new_full (links->len, (GDestroyNotify) bl_scene_link_free);
      self->by_link = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < links->len; i++)
        {
          BlLink *link = g_ptr_array_index (links, i);
          BlSceneLink *scene_link = bl_scene_link_new (link, i, self->fluid_density, gravity);

          bl_scene_link_set_mesh_ready_func (scene_link, on_mesh_ready, self);

          g_ptr_array_add (self->links, scene_link);
          g_hash_table_insert (self->by_link, link, scene_link);
        }
    }
  update_scene_bounds (self);
  if (self->renderer != NULL)
    bl_renderer_set_scene (self->renderer, self->links);
  self->panels_dirty = TRUE;
}

/* ---- Picking --------------------------------------------------------------- */

BlLink *
bl_viewport_click (BlViewport *self,
                   double      x,
                   double      y)
{
  BlLink *link = bl_viewport_pick (self, x, y);

  bl_viewport_set_selected_link (self, link);
  g_signal_emit (self, signals[LINK_PICKED], 0, link);
  return link;
}

/* ---- GL life cycle --------------------------------------------------------- */

static GdkGLContext *
bl_viewport_create_context (GtkGLArea *area)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (area));
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkGLContext) context = NULL;

  context = gdk_surface_create_gl_context (gtk_native_get_surface (native), &error);
  if (context == NULL)
    {
      gtk_gl_area_set_error (area, error);
      return NULL;
    }
  /* Desktop GL 3.3 core, or GLES 3 where desktop GL is missing. */
  gdk_gl_context_set_allowed_apis (context, GDK_GL_API_GL | GDK_GL_API_GLES);
  if (!gdk_gl_context_realize (context, &error))
    {
      gtk_gl_area_set_error (area, error);
      return NULL;
    }
  return g_steal_pointer (&context);
}

/* A big mesh's thread has made its clusters or levels: the next frame
 * takes them (later frames are cheaper; the picture stays the same within
 * half a pixel). */
static void
on_mesh_jobs (gpointer data)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (data));
}

static void
bl_viewport_realize (GtkWidget *widget)
{
  BlViewport *self = BL_VIEWPORT (widget);
  GtkGLArea *area = GTK_GL_AREA (widget);
  GdkGLContext *context;
  g_autoptr(GError) error = NULL;
  gboolean use_es;
  int major = 0, minor = 0;

  GTK_WIDGET_CLASS (bl_viewport_parent_class)->realize (widget);

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) != NULL)
    return;

  context = gtk_gl_area_get_context (area);
  use_es = gdk_gl_context_get_api (context) == GDK_GL_API_GLES;
  gdk_gl_context_get_version (context, &major, &minor);
  if ((use_es && major < 3) || (!use_es && (major < 3 || (major == 3 && minor < 3))))
    {
      g_set_error (&error, GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                   "The 3D view needs OpenGL 3.3 or OpenGL ES 3.0; this system has %s %d.%d",
                   use_es ? "OpenGL ES" : "OpenGL", major, minor);
      gtk_gl_area_set_error (area, error);
      return;
    }

  self->renderer = bl_renderer_new (use_es, &error);
  if (self->renderer == NULL)
    {
      gtk_gl_area_set_error (area, error);
      return;
    }
  bl_renderer_set_mesh_jobs_func (self->renderer, on_mesh_jobs, self);
  bl_renderer_set_scene (self->renderer, self->links);
}

static void
bl_viewport_unrealize (GtkWidget *widget)
{
  BlViewport *self = BL_VIEWPORT (widget);
  GtkGLArea *area = GTK_GL_AREA (widget);

  gtk_gl_area_make_current (area);
  if (gtk_gl_area_get_error (area) == NULL)
    g_clear_pointer (&self->renderer, bl_renderer_free);
  else
    self->renderer = NULL;   /* never created */

  GTK_WIDGET_CLASS (bl_viewport_parent_class)->unrealize (widget);
}

static void
apply_pending_fit (BlViewport *self)
{
  if (self->pending_fit && gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    {
      self->pending_fit = FALSE;
      bl_viewport_fit_sphere (self, self->scene_center, self->scene_radius);
    }
}

static void
draw_frame (BlViewport *self,
            int         width,
            int         height)
{
  self->options.selected = bl_viewport_link_index (self, self->selected);
  self->options.hovered = bl_viewport_link_index (self, self->hovered);
  self->options.selected_collision = -1;
  for (guint i = 0; self->selected != NULL && self->selected_collision != NULL
                    && i < self->selected->collisions->len; i++)
    if (g_ptr_array_index (self->selected->collisions, i) == self->selected_collision)
      self->options.selected_collision = (int) i;
  if (self->panels_dirty)
    {
      bl_renderer_set_panels (self->renderer,
                              self->panel_corners != NULL ? (float *) self->panel_corners->data : NULL,
                              self->panel_colors != NULL ? (float *) self->panel_colors->data : NULL,
                              self->panel_corners != NULL ? self->panel_corners->len / 9 : 0);
      self->panels_dirty = FALSE;
    }
  bl_renderer_draw (self->renderer, &self->camera, &self->options,
                    self->scene_center, self->scene_radius, self->extent_radius, width, height);
}

static gboolean
bl_viewport_render (GtkGLArea    *area,
                    GdkGLContext *context)
{
  BlViewport *self = BL_VIEWPORT (area);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));

  if (gtk_gl_area_get_error (area) != NULL || self->renderer == NULL)
    return FALSE;
  apply_pending_fit (self);
  draw_frame (self, gtk_widget_get_width (GTK_WIDGET (area)) * scale,
              gtk_widget_get_height (GTK_WIDGET (area)) * scale);
  self->n_frames++;
  return TRUE;
}

static void
bl_viewport_resize (GtkGLArea *area,
                    int        width,
                    int        height)
{
  apply_pending_fit (BL_VIEWPORT (area));
}

/* Binds a WIDTH×HEIGHT offscreen framebuffer; *fbo and rb[2] to delete. */
static gboolean
bind_offscreen (BlViewport  *self,
                int          width,
                int          height,
                GLuint      *fbo,
                GLuint       rb[2],
                GError     **error)
{
  if (!gtk_widget_get_realized (GTK_WIDGET (self)) || self->renderer == NULL)
    {
      const GError *gl_error = gtk_gl_area_get_error (GTK_GL_AREA (self));

      if (gl_error != NULL)
        g_set_error_literal (error, gl_error->domain, gl_error->code, gl_error->message);
      else
        g_set_error_literal (error, GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                             "The 3D view is not realized; show it in a window first");
      return FALSE;
    }
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  apply_pending_fit (self);

  glGenFramebuffers (1, fbo);
  glBindFramebuffer (GL_FRAMEBUFFER, *fbo);
  glGenRenderbuffers (2, rb);
  glBindRenderbuffer (GL_RENDERBUFFER, rb[0]);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, width, height);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
  glBindRenderbuffer (GL_RENDERBUFFER, rb[1]);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
  if (glCheckFramebufferStatus (GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    {
      glBindFramebuffer (GL_FRAMEBUFFER, 0);
      glDeleteFramebuffers (1, fbo);
      glDeleteRenderbuffers (2, rb);
      g_set_error_literal (error, GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                           "Could not create an offscreen framebuffer");
      return FALSE;
    }
  return TRUE;
}

static void
unbind_offscreen (GLuint  fbo,
                  GLuint  rb[2])
{
  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers (1, &fbo);
  glDeleteRenderbuffers (2, rb);
}

GdkTexture *
bl_viewport_render_texture (BlViewport  *self,
                            int          width,
                            int          height,
                            GError     **error)
{
  GLuint fbo, rb[2];
  guchar *pixels;
  gsize stride;
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (BL_IS_VIEWPORT (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (width <= 0 || height <= 0)
    {
      int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

      width = gtk_widget_get_width (GTK_WIDGET (self)) * scale;
      height = gtk_widget_get_height (GTK_WIDGET (self)) * scale;
    }
  if (width <= 0 || height <= 0)
    {
      g_set_error_literal (error, GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                           "The 3D view has no size yet");
      return NULL;
    }
  if (!bind_offscreen (self, width, height, &fbo, rb, error))
    return NULL;

  draw_frame (self, width, height);

  stride = (gsize) width * 4;
  pixels = g_malloc (stride * height);
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadPixels (0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  unbind_offscreen (fbo, rb);

  /* GL rows go bottom-up. */
  for (int row = 0; row < height / 2; row++)
    {
      guchar *a = pixels + row * stride, *b = pixels + (height - 1 - row) * stride;

      for (gsize i = 0; i < stride; i++)
        {
          guchar t = a[i];

          a[i] = b[i];
          b[i] = t;
        }
    }
  bytes = g_bytes_new_take (pixels, stride * height);
  return gdk_memory_texture_new (width, height, GDK_MEMORY_R8G8B8A8, bytes, stride);
}

gboolean
bl_viewport_save_png (BlViewport  *self,
                      const char  *path,
                      GError     **error)
{
  g_autoptr(GdkTexture) texture = NULL;

  g_return_val_if_fail (BL_IS_VIEWPORT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  texture = bl_viewport_render_texture (self, 0, 0, error);
  if (texture == NULL)
    return FALSE;
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not write “%s”", path);
      return FALSE;
    }
  return TRUE;
}

static double
process_cpu_ms (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3
         + usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3;
}

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

gboolean
bl_viewport_time_frames (BlViewport  *self,
                         int          width,
                         int          height,
                         guint        n_frames,
                         BlFrameTime *times,
                         GError     **error)
{
  GLuint fbo, rb[2];

  if (!bind_offscreen (self, width, height, &fbo, rb, error))
    return FALSE;
  /* One frame outside the timing: uploads and lazy buffers. */
  draw_frame (self, width, height);
  glFinish ();
  for (guint i = 0; i < n_frames; i++)
    {
      gint64 start = g_get_monotonic_time ();
      double cpu = process_cpu_ms (), thread = thread_cpu_ms ();

      bl_camera_orbit (&self->camera, 0.01, 0.0);
      draw_frame (self, width, height);
      glFinish ();
      times[i].wall_ms = (g_get_monotonic_time () - start) / 1000.0;
      times[i].cpu_ms = process_cpu_ms () - cpu;
      times[i].thread_cpu_ms = thread_cpu_ms () - thread;
    }
  unbind_offscreen (fbo, rb);
  return TRUE;
}

guint
bl_viewport_get_n_frames (BlViewport *self)
{
  return self->n_frames;
}

void
bl_viewport_set_cluster_culling (BlViewport *self,
                                 gboolean    enabled)
{
  self->options.no_clusters = !enabled;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
bl_viewport_set_occlusion_culling (BlViewport *self,
                                   gboolean    enabled)
{
  self->options.no_occlusion = !enabled;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
bl_viewport_set_levels_of_detail (BlViewport *self,
                                  gboolean    enabled)
{
  self->options.no_levels = !enabled;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

gboolean
bl_viewport_get_mesh_jobs_pending (BlViewport *self)
{
  return self->renderer != NULL && bl_renderer_get_mesh_jobs_pending (self->renderer);
}

guint
bl_viewport_get_n_meshes (BlViewport *self)
{
  return self->renderer != NULL ? bl_renderer_get_n_meshes (self->renderer) : 0;
}

guint
bl_viewport_get_n_meshes_reading (BlViewport *self)
{
  guint n = 0;

  for (guint i = 0; self->links != NULL && i < self->links->len; i++)
    n += ((BlSceneLink *) g_ptr_array_index (self->links, i))->n_loading;
  return n;
}

guint
bl_viewport_get_n_prepares (BlViewport *self)
{
  return self->renderer != NULL ? bl_renderer_get_n_prepares (self->renderer) : 0;
}

guint
bl_viewport_get_n_drawn_triangles (BlViewport *self)
{
  return self->renderer != NULL ? bl_renderer_get_n_drawn_triangles (self->renderer) : 0;
}

gsize
bl_viewport_get_kept_instance_bytes (BlViewport *self)
{
  return self->renderer != NULL ? bl_renderer_get_kept_instance_bytes (self->renderer) : 0;
}

gsize
bl_viewport_get_gl_instance_bytes (BlViewport *self)
{
  return self->renderer != NULL ? bl_renderer_get_gl_instance_bytes (self->renderer) : 0;
}

guint
bl_viewport_get_n_bounds_walks (BlViewport *self)
{
  return self->n_bounds_walks;
}

guint
bl_viewport_get_n_rebuilds (BlViewport *self)
{
  return self->renderer != NULL ? bl_renderer_get_n_rebuilds (self->renderer) : 0;
}

/* ---- Public API ---------------------------------------------------------- */

GtkWidget *
bl_viewport_new (void)
{
  return g_object_new (BL_TYPE_VIEWPORT, NULL);
}

/* The selected link and collision (of that link, or NULL); notifies
 * "selected-link" and "selected-collision" when they change. */
static void
set_selection (BlViewport  *self,
               BlLink      *link,
               BlCollision *collision)
{
  gboolean link_changed = self->selected != link;
  gboolean collision_changed = self->selected_collision != collision;

  self->selected = link;
  self->selected_collision = collision;
  if (link_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_LINK]);
  if (collision_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_COLLISION]);
}

void
bl_viewport_set_document (BlViewport *self,
                          BlDocument *document)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));
  g_return_if_fail (document == NULL || BL_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);

  set_selection (self, NULL, NULL);
  bl_viewport_set_selected_model (self, NULL);
  self->hovered = NULL;
  /* Panels belong to a link of the document that was. */
  bl_viewport_set_panels (self, NULL, NULL, 0, NULL);
  rebuild_scene (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "viewport.fit-selection", FALSE);
  bl_viewport_fit_all (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/* Blue through white to red for −1 … 1. */
static void
diverging_color (double t,
                 float  rgb[3])
{
  static const float negative[3] = { 0.23f, 0.30f, 0.75f }, middle[3] = { 0.95f, 0.95f, 0.95f },
                     positive[3] = { 0.71f, 0.02f, 0.15f };
  const float *end = t < 0.0 ? negative : positive;
  float s = (float) CLAMP (fabs (t), 0.0, 1.0);

  for (int k = 0; k < 3; k++)
    rgb[k] = middle[k] + s * (end[k] - middle[k]);
}

void
bl_viewport_set_panels (BlViewport   *self,
                        BlLink       *link,
                        const double *corners,
                        gsize         n_panels,
                        const double *values)
{
  double largest = 0.0;

  g_return_if_fail (BL_IS_VIEWPORT (self));

  g_clear_pointer (&self->panel_corners, g_array_unref);
  g_clear_pointer (&self->panel_colors, g_array_unref);
  self->panels_dirty = TRUE;
  if (link != NULL && n_panels > 0)
    {
      self->panel_corners = g_array_sized_new (FALSE, FALSE, sizeof (float), 9 * n_panels);
      for (gsize i = 0; i < 3 * n_panels; i++)
        {
          BlVec3 p = bl_pose_apply (link->world_pose, bl_vec3 (corners[3 * i], corners[3 * i + 1], corners[3 * i + 2]));
          float xyz[3] = { (float) p.x, (float) p.y, (float) p.z };

          g_array_append_vals (self->panel_corners, xyz, 3);
        }
      for (gsize i = 0; values != NULL && i < n_panels; i++)
        largest = MAX (largest, fabs (values[i]));
      if (values != NULL)
        {
          self->panel_colors = g_array_sized_new (FALSE, FALSE, sizeof (float), 3 * n_panels);
          for (gsize i = 0; i < n_panels; i++)
            {
              float rgb[3];

              diverging_color (largest > 0.0 ? values[i] / largest : 0.0, rgb);
              g_array_append_vals (self->panel_colors, rgb, 3);
            }
        }
    }
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

gsize
bl_viewport_get_n_panels (BlViewport *self)
{
  g_return_val_if_fail (BL_IS_VIEWPORT (self), 0);
  return self->panel_corners != NULL ? self->panel_corners->len / 9 : 0;
}

BlDocument *
bl_viewport_get_document (BlViewport *self)
{
  g_return_val_if_fail (BL_IS_VIEWPORT (self), NULL);
  return self->document;
}

/* Frame Selection (F) frames the selected link, else the selected model. */
static void
update_fit_selection (BlViewport *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "viewport.fit-selection",
                                 self->selected != NULL || self->selected_model != NULL);
}

void
bl_viewport_set_selected_link (BlViewport *self,
                               BlLink     *link)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));

  if (link != NULL && bl_viewport_link_index (self, link) < 0)
    link = NULL;
  if (self->selected == link && self->selected_collision == NULL)
    return;
  set_selection (self, link, NULL);
  update_fit_selection (self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

BlLink *
bl_viewport_get_selected_link (BlViewport *self)
{
  g_return_val_if_fail (BL_IS_VIEWPORT (self), NULL);
  return self->selected;
}

void
bl_viewport_set_selected_collision (BlViewport  *self,
                                    BlCollision *collision)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));

  if (collision == NULL)
    {
      if (self->selected_collision == NULL)
        return;
      set_selection (self, self->selected, NULL);
      gtk_gl_area_queue_render (GTK_GL_AREA (self));
      return;
    }
  bl_viewport_set_selected_link (self, collision->link);
  if (self->selected != collision->link)
    return;
  set_selection (self, self->selected, collision);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

BlCollision *
bl_viewport_get_selected_collision (BlViewport *self)
{
  g_return_val_if_fail (BL_IS_VIEWPORT (self), NULL);
  return self->selected_collision;
}

void
bl_viewport_set_selected_model (BlViewport *self,
                                BlModel    *model)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));

  if (self->selected_model == model)
    return;
  self->selected_model = model;
  update_fit_selection (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_MODEL]);
}

BlModel *
bl_viewport_get_selected_model (BlViewport *self)
{
  g_return_val_if_fail (BL_IS_VIEWPORT (self), NULL);
  return self->selected_model;
}

void
bl_viewport_set_fluid_density (BlViewport *self,
                               double      density)
{
  g_return_if_fail (BL_IS_VIEWPORT (self));
  g_return_if_fail (density > 0.0);

  if (self->fluid_density == density)
    return;
  self->fluid_density = density;
  for (guint i = 0; self->links != NULL && i < self->links->len; i++)
    {
      BlSceneLink *link = g_ptr_array_index (self->links, i);

      if (link->link->has_added_mass)
        {
          bl_scene_link_update (link, density, world_gravity (self));
          if (self->renderer != NULL)
            bl_renderer_link_changed (self->renderer, link);
        }
    }
  update_scene_bounds (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLUID_DENSITY]);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

double
bl_viewport_get_fluid_density (BlViewport *self)
{
  g_return_val_if_fail (BL_IS_VIEWPORT (self), 0.0);
  return self->fluid_density;
}

/* ---- GObject --------------------------------------------------------------- */

static void
bl_viewport_dispose (GObject *object)
{
  BlViewport *self = BL_VIEWPORT (object);

  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_pointer (&self->links, g_ptr_array_unref);
  g_clear_pointer (&self->by_link, g_hash_table_unref);
  g_clear_pointer (&self->panel_corners, g_array_unref);
  g_clear_pointer (&self->panel_colors, g_array_unref);

  G_OBJECT_CLASS (bl_viewport_parent_class)->dispose (object);
}

static void
bl_viewport_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  BlViewport *self = BL_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_FLUID_DENSITY:
      g_value_set_double (value, self->fluid_density);
      break;
    case PROP_SELECTED_LINK:
      g_value_set_pointer (value, self->selected);
      break;
    case PROP_SELECTED_COLLISION:
      g_value_set_pointer (value, self->selected_collision);
      break;
    case PROP_SELECTED_MODEL:
      g_value_set_pointer (value, self->selected_model);
      break;
    case PROP_SHOW_INERTIA_ELLIPSOID:
    case PROP_SHOW_INERTIA_BOX:
    case PROP_SHOW_COM:
    case PROP_SHOW_PRINCIPAL_AXES:
    case PROP_SHOW_BUOYANCY_CENTER:
    case PROP_SHOW_ADDED_MASS:
    case PROP_WIREFRAME:
    case PROP_XRAY:
      g_value_set_boolean (value, *option_for_prop (self, prop_id));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_viewport_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  BlViewport *self = BL_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      bl_viewport_set_document (self, g_value_get_object (value));
      break;
    case PROP_FLUID_DENSITY:
      bl_viewport_set_fluid_density (self, g_value_get_double (value));
      break;
    case PROP_SELECTED_LINK:
      bl_viewport_set_selected_link (self, g_value_get_pointer (value));
      break;
    case PROP_SELECTED_COLLISION:
      bl_viewport_set_selected_collision (self, g_value_get_pointer (value));
      break;
    case PROP_SELECTED_MODEL:
      bl_viewport_set_selected_model (self, g_value_get_pointer (value));
      break;
    case PROP_SHOW_INERTIA_ELLIPSOID:
    case PROP_SHOW_INERTIA_BOX:
    case PROP_SHOW_COM:
    case PROP_SHOW_PRINCIPAL_AXES:
    case PROP_SHOW_BUOYANCY_CENTER:
    case PROP_SHOW_ADDED_MASS:
    case PROP_WIREFRAME:
    case PROP_XRAY:
      set_option (self, prop_id, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_viewport_class_init (BlViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkGLAreaClass *area_class = GTK_GL_AREA_CLASS (klass);
  static const struct
  {
    guint       prop_id;
    const char *name;
    const char *nick;
    gboolean    default_value;
  } toggles[] = {
    { PROP_SHOW_INERTIA_ELLIPSOID, "show-inertia-ellipsoid", "Inertia ellipsoid", TRUE },
    { PROP_SHOW_INERTIA_BOX, "show-inertia-box", "Inertia box", FALSE },
    { PROP_SHOW_COM, "show-com", "Centre of mass", TRUE },
    { PROP_SHOW_PRINCIPAL_AXES, "show-principal-axes", "Principal axes", FALSE },
    { PROP_SHOW_BUOYANCY_CENTER, "show-buoyancy-center", "Centre of buoyancy", FALSE },
    { PROP_SHOW_ADDED_MASS, "show-added-mass", "Added mass", TRUE },
    { PROP_WIREFRAME, "wireframe", "Wireframe", FALSE },
    { PROP_XRAY, "xray", "X-ray", TRUE },
  };

  object_class->dispose = bl_viewport_dispose;
  object_class->get_property = bl_viewport_get_property;
  object_class->set_property = bl_viewport_set_property;

  widget_class->realize = bl_viewport_realize;
  widget_class->unrealize = bl_viewport_unrealize;

  area_class->render = bl_viewport_render;
  area_class->resize = bl_viewport_resize;
  area_class->create_context = bl_viewport_create_context;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", "Document", "The document shown",
                         BL_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FLUID_DENSITY] =
    g_param_spec_double ("fluid-density", "Fluid density",
                         "Density (kg/m³) that sizes the added-mass ellipsoid",
                         BL_FLUID_DENSITY_MIN, BL_FLUID_DENSITY_MAX, BL_FLUID_DENSITY_DEFAULT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_LINK] =
    g_param_spec_pointer ("selected-link", "Selected link", "The BlLink drawn selected, or NULL",
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_COLLISION] =
    g_param_spec_pointer ("selected-collision", "Selected collision",
                          "The BlCollision of the selected link drawn selected, or NULL",
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SELECTED_MODEL] =
    g_param_spec_pointer ("selected-model", "Selected model",
                          "The BlModel that Frame Selection frames when no link is selected, or NULL",
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  for (guint i = 0; i < G_N_ELEMENTS (toggles); i++)
    properties[toggles[i].prop_id] =
      g_param_spec_boolean (toggles[i].name, toggles[i].nick, toggles[i].nick, toggles[i].default_value,
                            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlViewport::link-picked:
   * @link: (type gpointer) (nullable): the BlLink clicked, or NULL for empty space
   */
  signals[LINK_PICKED] =
    g_signal_new ("link-picked",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);

  bl_viewport_actions_class_init (widget_class);
  for (guint i = 0; i < G_N_ELEMENTS (toggles); i++)
    {
      g_autofree char *action = g_strconcat ("viewport.", toggles[i].name, NULL);

      gtk_widget_class_install_property_action (widget_class, action, toggles[i].name);
    }

  gtk_widget_class_set_css_name (widget_class, "viewport3d");
}

static void
bl_viewport_init (BlViewport *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  /* The document's signals, connected while it is the document shown. */
  self->document_signals = g_signal_group_new (BL_TYPE_DOCUMENT);
  g_signal_group_connect (self->document_signals, "link-changed", G_CALLBACK (on_link_changed), self);
  self->fluid_density = BL_FLUID_DENSITY_DEFAULT;
  self->options.show_inertia_ellipsoid = TRUE;
  self->options.show_com = TRUE;
  self->options.show_added_mass = TRUE;
  self->options.xray = TRUE;
  self->options.selected = self->options.hovered = -1;
  bl_camera_init (&self->camera);
  self->scene_radius = self->extent_radius = 1.0;

  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self), TRUE);
  /* the grid leaves the specks alone through it (bl-renderer-draw-passes.c) */
  gtk_gl_area_set_has_stencil_buffer (GTK_GL_AREA (self), TRUE);
  gtk_gl_area_set_auto_render (GTK_GL_AREA (self), TRUE);
  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);
  gtk_widget_action_set_enabled (widget, "viewport.fit-selection", FALSE);

  bl_viewport_actions_init (self);
}

gboolean
bl_viewport_display_gl_is_software (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  gboolean software;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), FALSE);

  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return FALSE;
  gdk_gl_context_make_current (context);
  software = bl_renderer_gl_is_software ();
  gdk_gl_context_clear_current ();
  return software;
}
