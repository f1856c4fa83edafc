/* bl-viewport-private.h: hooks for the viewport's tests and benchmark. */
#pragma once

#include "bl-viewport.h"

G_BEGIN_DECLS

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
/* Whether big meshes skip their back-facing and off-screen clusters
 * (default TRUE; the picture must be the same either way). */
void     bl_viewport_set_cluster_culling (BlViewport *self,
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
