/* bl-viewport-private.h: the viewport's instance, shared by bl-viewport.c
 * (scene, GL, properties) and bl-viewport-actions.c (camera, picking,
 * gestures, actions), and hooks for its tests and benchmark. */
#pragma once

#include "bl-renderer.h"
#include "bl-scene.h"
#include "bl-viewport.h"

G_BEGIN_DECLS

struct _BlViewport
{
  GtkGLArea        parent_instance;

  BlDocument      *document;
  GSignalGroup    *document_signals;   /* the document's ::link-changed */
  GPtrArray       *links;            /* BlSceneLink*, owned, document order */
  GHashTable      *by_link;          /* BlLink* → BlSceneLink* */
  double           scene_center[3];
  double           scene_radius;     /* what fit-all frames */
  double           extent_radius;    /* everything drawn, about scene_center */
  double           fluid_density;

  BlRenderer      *renderer;
  BlRenderOptions  options;
  BlCamera         camera;
  BlLink          *selected;
  BlCollision     *selected_collision;  /* one of the selected link's, or NULL */
  BlModel         *selected_model;      /* framed by fit-selection when no link is */
  BlLink          *hovered;
  gboolean         pending_fit;
  guint            n_frames;

  /* Pointer and gesture state. */
  double           pointer_x, pointer_y;
  guint            drag_button;
  gboolean         drag_pan;
  double           drag_last_x, drag_last_y;
  double           drag_travel;
  double           zoom_distance;

  /* The panel method's surface (bl_viewport_set_panels), in world
   * coordinates, until the renderer takes it. */
  GArray          *panel_corners;    /* float, 9 per panel */
  GArray          *panel_colors;     /* float, 3 per panel, or NULL */
  gboolean         panels_dirty;
  guint            n_bounds_walks;
};

/* Between bl-viewport.c and bl-viewport-actions.c. */

/* LINK's index in the scene, or −1 (NULL, or not drawn). */
int      bl_viewport_link_index        (BlViewport   *self,
                                        BlLink       *link);
/* The sphere around the union of LINKS' bounds (BlSceneLink*; the
 * framing bounds when FRAME, else those of everything drawn), of the links
 * of MODEL and the models nested in it alone unless MODEL is NULL; RADIUS
 * is −1 when none of them has such bounds. */
void     bl_viewport_bounds_sphere     (GPtrArray    *links,
                                        BlModel      *model,
                                        gboolean      frame,
                                        double        center[3],
                                        double       *radius);
/* Frames the sphere (CENTER, RADIUS) and queues a frame. */
void     bl_viewport_fit_sphere        (BlViewport   *self,
                                        const double  center[3],
                                        double        radius);
/* Installs the tooltip, the viewport.* actions and their keys on the
 * class, and the gestures on an instance. */
void     bl_viewport_actions_class_init (GtkWidgetClass *widget_class);
void     bl_viewport_actions_init      (BlViewport     *self);

/* Hooks for tests and the benchmark. */

/* Frames drawn on screen so far. */
guint    bl_viewport_get_n_frames      (BlViewport *self);
/* Whole-scene rebuilds of the GPU instance buffers so far (a link edit
 * must not cause one). */
guint    bl_viewport_get_n_rebuilds    (BlViewport *self);
/* Times the scene's bounds were computed over every link so far (a
 * rebuild; a link edit only when it moved that link's bounds). */
guint    bl_viewport_get_n_bounds_walks (BlViewport *self);
/* Meshes whose GPU buffers the viewport holds (see bl_renderer_get_n_meshes). */
guint    bl_viewport_get_n_meshes      (BlViewport *self);
/* Meshes the scene waits for while the core's cache reads them in a
 * worker thread (BlSceneLink.n_loading, summed). */
guint    bl_viewport_get_n_meshes_reading (BlViewport *self);
/* Triangles drawn by the last frame, after culling and level of detail. */
guint    bl_viewport_get_n_drawn_triangles (BlViewport *self);
/* bl_renderer_get_gl_instance_bytes */
gsize    bl_viewport_get_gl_instance_bytes (BlViewport *self);
/* bl_renderer_get_kept_instance_bytes */
gsize    bl_viewport_get_kept_instance_bytes (BlViewport *self);
/* Frames that chose the instances in view anew (bl_renderer_get_n_prepares). */
guint    bl_viewport_get_n_prepares    (BlViewport *self);
/* Whether big meshes skip their back-facing and off-screen clusters
 * (default TRUE; the picture must be the same either way). */
void     bl_viewport_set_cluster_culling (BlViewport *self,
                                          gboolean    enabled);
/* Whether bodies certainly hidden by nearer ones, and shells under many
 * others, are left out (default TRUE; the bodies' picture is the same). */
void     bl_viewport_set_occlusion_culling (BlViewport *self,
                                            gboolean    enabled);
/* Whether big meshes may be drawn at a coarser level of detail (default
 * TRUE; within half a pixel of the full mesh on screen). */
void     bl_viewport_set_levels_of_detail (BlViewport *self,
                                           gboolean    enabled);
/* What a primary click at (x, y) does: pick, select, emit ::link-picked. */
BlLink  *bl_viewport_click             (BlViewport *self,
                                        double      x,
                                        double      y);
/* One offscreen frame's cost: wall-clock time, CPU time of the whole
 * process (llvmpipe's threads included) and of the calling thread alone. */
typedef struct
{
  double wall_ms;
  double cpu_ms;
  double thread_cpu_ms;
} BlFrameTime;

/* Draws N_FRAMES offscreen frames at WIDTH×HEIGHT, each finished with
 * glFinish, the camera orbiting a little before each, after one untimed
 * frame; fills TIMES[0…N_FRAMES−1].  FALSE with an error. */
gboolean bl_viewport_time_frames       (BlViewport  *self,
                                        int          width,
                                        int          height,
                                        guint        n_frames,
                                        BlFrameTime *times,
                                        GError     **error);

G_END_DECLS
