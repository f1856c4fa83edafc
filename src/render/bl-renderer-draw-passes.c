/* bl-renderer-draw-passes.c: one frame: grid, bodies, planes, translucent shells, panels, markers and the axes triad. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>

#include "bl-renderer-private.h"


/* ---- Drawing --------------------------------------------------------------- */

/* Translucency of the layers. */
#define PLANE_ALPHA 0.45f
#define OVERLAY_ALPHA 0.20f
#define OVERLAY_HIDDEN_ALPHA 0.12f

/* This frame's instances in view, by level of detail: the solid bodies
 * that may show, front to back, and the shells a part of the view still
 * needs (bl-renderer-occlusion.c).  Kept while the camera, the size, the
 * selection and the instances stay as they were (a frame redrawn for
 * hovering, or the same view again). */
static void
prepare_batches (BlRenderer        *self,
                 const BlFrameInfo *frame,
                 mat4               vp)
{
  GHashTableIter iter;
  gpointer value;
  GArray *bodies = frame->occlusion ? self->candidates : NULL;

  if (self->prepared && self->prepared_serial == self->instances_serial
      && memcmp (self->prepared_vp, vp, sizeof self->prepared_vp) == 0
      && self->prepared_frame.width == frame->width && self->prepared_frame.height == frame->height
      && self->prepared_frame.selected == frame->selected
      && self->prepared_frame.selected_part == frame->selected_part
      && self->prepared_frame.clusters == frame->clusters && self->prepared_frame.levels == frame->levels
      && self->prepared_frame.occlusion == frame->occlusion
      && self->prepared_frame.shell_layers == frame->shell_layers)
    return;

  g_array_set_size (self->candidates, 0);
  for (int p = 0; p < BL_PRIM_MESH; p++)
    bl_batch_prepare (self->prim_batches[p], frame, CULL_SOLID_PX, p != BL_PRIM_PLANE,
                      p != BL_PRIM_PLANE ? bodies : NULL);
  g_hash_table_iter_init (&iter, self->mesh_batches);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    bl_batch_prepare (value, frame, CULL_SOLID_PX, TRUE, bodies);
  if (bodies != NULL)
    bl_occlusion_keep_bodies (self, frame, bodies);
  for (int o = 0; o < N_OVERLAYS; o++)
    if (o == OVERLAY_ELLIPSOID || o == OVERLAY_ADDED_MASS)
      {
        g_array_set_size (self->candidates, 0);
        bl_batch_prepare (self->overlays[o], frame, CULL_OVERLAY_PX, FALSE,
                          frame->shell_layers ? self->candidates : NULL);
        bl_occlusion_keep_shells (self, frame, self->candidates);
      }
    else
      bl_batch_prepare (self->overlays[o], frame, CULL_OVERLAY_PX, FALSE, NULL);
  for (guint b = 0; b < self->batches->len; b++)
    bl_batch_send (g_ptr_array_index (self->batches, b));

  self->prepared = TRUE;
  self->n_prepares++;
  self->prepared_serial = self->instances_serial;
  self->prepared_frame = *frame;
  memcpy (self->prepared_vp, vp, sizeof self->prepared_vp);
}

/* The bodies, opaque, with the body programs (the general one for the
 * wireframe's edges); the general program is bound again on return. */
static void
draw_bodies (BlRenderer            *self,
             const BlRenderOptions *options,
             mat4                   vp,
             const float            eye[3])
{
  GHashTableIter iter;
  gpointer value;
  gboolean any_coarse = FALSE;

  if (options->wireframe)
    {
      glUniform1i (self->general.u_mode, 1);
      glUniform1f (self->general.u_alpha, 1.0f);
      for (int p = 0; p < BL_PRIM_MESH; p++)
        if (p != BL_PRIM_PLANE)
          bl_batch_draw (self, self->prim_batches[p], TRUE, TRUE);
      g_hash_table_iter_init (&iter, self->mesh_batches);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        bl_batch_draw (self, value, TRUE, TRUE);
      return;
    }

  for (int p = 0; p < BL_PRIM_MESH; p++)
    if (p != BL_PRIM_PLANE)
      {
        bl_program_use (&self->body[self->prim_batches[p]->faint_normals ? BODY_SMOOTH_FALLBACK : BODY_SMOOTH],
                        vp, eye, options);
        bl_batch_draw (self, self->prim_batches[p], FALSE, TRUE);
        bl_batch_draw_specks (self, self->prim_batches[p]);
      }
  /* Meshes at full detail flat, then those at a coarser level smooth. */
  bl_program_use (&self->body[BODY_FLAT], vp, eye, options);
  g_hash_table_iter_init (&iter, self->mesh_batches);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      any_coarse |= bl_renderer_draw_mesh_batch (self, value, FALSE);
      bl_batch_draw_specks (self, value);
    }
  if (any_coarse)
    {
      g_hash_table_iter_init (&iter, self->mesh_batches);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          BlBatch *batch = value;

          if (batch->mesh->levels == NULL)
            continue;
          bl_program_use (&self->body[batch->faint_normals ? BODY_SMOOTH_FALLBACK : BODY_SMOOTH], vp, eye, options);
          bl_renderer_draw_mesh_batch (self, batch, TRUE);
        }
    }
  glUseProgram (self->general.id);
}

/* Planes: a translucent ground (or their edges in wireframe). */
static void
draw_planes (BlRenderer            *self,
             const BlRenderOptions *options)
{
  gboolean edges = options->wireframe;

  glUniform1i (self->general.u_mode, edges ? 1 : 0);
  glUniform1f (self->general.u_alpha, edges ? 1.0f : PLANE_ALPHA);
  bl_batch_draw (self, self->prim_batches[BL_PRIM_PLANE], edges, FALSE);
}

/* The ellipsoids as glass shells (their own program) and the box as
 * edges, at ALPHA; the general program is bound on return. */
static void
draw_shells (BlRenderer            *self,
             const BlRenderOptions *options,
             mat4                   vp,
             const float            eye[3],
             float                  alpha)
{
  for (int o = OVERLAY_ELLIPSOID; o <= OVERLAY_ADDED_MASS; o++)
    if (o == OVERLAY_ELLIPSOID ? options->show_inertia_ellipsoid : options->show_added_mass)
      {
        /* The added-mass ellipsoid as dashed rings: it shows over an inertia
         * ellipsoid of the same shape (a sphere in a fluid of its density). */
        const BlProgram *shell = o == OVERLAY_ADDED_MASS ? &self->rings[self->overlays[o]->faint_normals ? 1 : 0]
                                                       : &self->shell[self->overlays[o]->faint_normals ? 1 : 0];

        bl_program_use (shell, vp, eye, options);
        glUniform1f (shell->u_alpha, alpha);
        bl_batch_draw (self, self->overlays[o], FALSE, TRUE);
        glUseProgram (self->general.id);
      }
  if (options->show_inertia_box)
    {
      glUniform1i (self->general.u_mode, 2);
      glUniform1f (self->general.u_alpha, MIN (1.0f, 3.0f * alpha));
      bl_batch_draw (self, self->overlays[OVERLAY_BOX], FALSE, FALSE);
    }
}

static void draw_panels (BlRenderer *self);

void
bl_renderer_draw (BlRenderer            *self,
                  const BlCamera        *camera,
                  const BlRenderOptions *options,
                  const double           scene_center[3],
                  double                 scene_radius,
                  double                 extent_radius,
                  int                    width,
                  int                    height)
{
  mat4 view, projection, vp;
  double eye[3];
  float eyef[3];
  BlFrameInfo frame;
  gboolean any_shell = options->show_inertia_ellipsoid || options->show_added_mass || options->show_inertia_box;

  if (self->shown_added_mass != options->show_added_mass)
    {
      /* The bodies' colours depend on it (bl_renderer_link_shape_color). */
      self->shown_added_mass = options->show_added_mass;
      self->need_rebuild = TRUE;
    }
  bl_renderer_sync_instances (self, options);
  bl_renderer_adopt_mesh_jobs (self);
  self->n_drawn_triangles = 0;

  bl_camera_get_view (camera, view);
  bl_camera_get_projection (camera, width, height, MAX (scene_radius, extent_radius), projection);
  glm_mat4_mul (projection, view, vp);
  bl_camera_get_eye (camera, eye);
  for (int k = 0; k < 3; k++)
    eyef[k] = (float) eye[k];
  bl_frame_info_init (&frame, vp, camera, width, height, options->selected, options->selected_collision);
  frame.clusters = !options->no_clusters;
  /* The wireframe shows the file's own triangles. */
  frame.levels = !options->no_levels && !options->wireframe;
  /* In the wireframe a body inside another shows. */
  frame.occlusion = !options->wireframe && !options->no_occlusion;
  frame.shell_layers = !options->no_occlusion;
  self->frame = frame;
  prepare_batches (self, &frame, vp);

  glViewport (0, 0, width, height);
  glClearColor (bl_render_background_color[0], bl_render_background_color[1],
                bl_render_background_color[2], 1.0f);
  glClearDepthf (1.0f);
  glClearStencil (0);
  glDepthMask (GL_TRUE);
  glStencilMask (0xff);
  /* Depth and stencil together: llvmpipe then fills the packed
   * depth-stencil words instead of masking each one. */
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_CULL_FACE);
  glFrontFace (GL_CCW);
  glCullFace (GL_BACK);
  glDisable (GL_BLEND);
  glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  bl_program_use (&self->general, vp, eyef, options);
  glUniform3fv (self->general.u_com_dark, 1, bl_render_com_dark_color);
  glUniform1f (self->general.u_marker_scale, 0.0f);

  /* Bodies opaque, the grid, then planes as a translucent ground over it. */
  draw_bodies (self, options, vp, eyef);
  /* Ground grid under the scene: spacing a power of ten near its size;
   * after the bodies, where it is strictly nearer (as if drawn first and
   * the bodies over it) and not over a speck, the one pixel of a body
   * (the stencil's bit 1, bl_batch_draw_specks): a body on the grid's
   * axis too far to be more than a speck is not hidden by the line. */
  {
    double r = MAX (scene_radius, 1e-3);
    double step = pow (10.0, floor (log10 (r)));
    double half = 10.0 * step;
    double m[16] = { half, 0, 0, 0, 0, half, 0, 0, 0, 0, 1, 0,
                     floor (scene_center[0] / step) * step, floor (scene_center[1] / step) * step, 0, 1 };
    float *dst = self->grid_batch->instances;

    bl_instance_write (dst, m, bl_render_grid_color, 1.0f, -1.0f, 0.0f, 0.0f);
    self->grid_batch->full_dirty = TRUE;
    bl_batch_upload (self->grid_batch);
    glUniform1i (self->general.u_mode, 2);
    glUniform1f (self->general.u_alpha, 1.0f);
    glDepthFunc (GL_LESS);
    glEnable (GL_STENCIL_TEST);
    glStencilFunc (GL_EQUAL, 0, 1);
    glStencilOp (GL_KEEP, GL_KEEP, GL_KEEP);
    bl_batch_draw (self, self->grid_batch, FALSE, FALSE);
    glDisable (GL_STENCIL_TEST);
    glDepthFunc (GL_LEQUAL);
  }

  /* The bodies are rasterised while the overlays are prepared. */
  if (self->flush_triangles > 0)
    glFlush ();
  glEnable (GL_BLEND);
  glDepthMask (GL_FALSE);
  draw_planes (self, options);

  /* Overlays: translucent shells that never hide the bodies.  X-ray: where
   * a body is in front, a fainter ghost of the shell still shows. */
  if (any_shell)
    {
      if (options->xray && !options->wireframe)
        {
          glDepthFunc (GL_GREATER);
          draw_shells (self, options, vp, eyef, OVERLAY_HIDDEN_ALPHA);
          glDepthFunc (GL_LEQUAL);
        }
      draw_shells (self, options, vp, eyef, OVERLAY_ALPHA);
    }
  glDepthMask (GL_TRUE);
  glDisable (GL_BLEND);
  draw_panels (self);

  /* Point markers and axes on top of everything, markers at a constant
   * size on screen (up to their link's own size). */
  glDisable (GL_DEPTH_TEST);
  glUniform1f (self->general.u_alpha, 1.0f);
  if (options->show_principal_axes)
    {
      glUniform1i (self->general.u_mode, 2);
      bl_batch_draw (self, self->overlays[OVERLAY_AXES], FALSE, FALSE);
    }
  glUniform1f (self->general.u_marker_scale, (float) (MARKER_PX / frame.px_per_radian));
  if (options->show_buoyancy_center)
    {
      glUniform1i (self->general.u_mode, 5);
      bl_batch_draw (self, self->overlays[OVERLAY_BUOYANCY], FALSE, TRUE);
    }
  if (options->show_com)
    {
      glUniform1i (self->general.u_mode, 4);
      bl_batch_draw (self, self->overlays[OVERLAY_COM], FALSE, TRUE);
    }
  glUniform1f (self->general.u_marker_scale, 0.0f);

  /* Axes triad in the lower-left corner: the camera's rotation only. */
  {
    int size = MIN (96, MIN (width, height) / 4);
    mat4 rot, ortho, tvp;

    glm_mat4_copy (view, rot);
    rot[3][0] = rot[3][1] = rot[3][2] = 0.0f;
    rot[3][2] = -2.0f;
    glm_ortho (-1.3f, 1.3f, -1.3f, 1.3f, 0.1f, 4.0f, ortho);
    glm_mat4_mul (ortho, rot, tvp);
    glViewport (0, 0, size, size);
    glUniformMatrix4fv (self->general.u_view_projection, 1, GL_FALSE, (const float *) tvp);
    glUniform1i (self->general.u_mode, 2);
    bl_batch_draw (self, self->triad_batch, FALSE, FALSE);
    glViewport (0, 0, width, height);
  }

  glEnable (GL_DEPTH_TEST);
  glUseProgram (0);

  /* The clusters of meshes first drawn in this frame. */
  bl_renderer_start_mesh_jobs (self);
}

void
bl_renderer_set_panels (BlRenderer  *self,
                        const float *corners,
                        const float *colors,
                        gsize        n_panels)
{
  static const float edge_color[3] = { 0.12f, 0.14f, 0.18f };

  g_clear_pointer (&self->panel_vertices, g_array_unref);
  self->panel_dirty = TRUE;
  self->panel_fill_vertices = 0;
  if (n_panels == 0)
    return;
  self->panel_vertices = g_array_sized_new (FALSE, FALSE, sizeof (float), 6 * (colors != NULL ? 9 : 6) * n_panels);
  if (colors != NULL)
    for (gsize p = 0; p < n_panels; p++)
      for (int k = 0; k < 3; k++)
        {
          g_array_append_vals (self->panel_vertices, corners + 9 * p + 3 * k, 3);
          g_array_append_vals (self->panel_vertices, colors + 3 * p, 3);
        }
  self->panel_fill_vertices = self->panel_vertices->len / 6;
  for (gsize p = 0; p < n_panels; p++)
    for (int k = 0; k < 3; k++)
      {
        g_array_append_vals (self->panel_vertices, corners + 9 * p + 3 * k, 3);
        g_array_append_vals (self->panel_vertices, edge_color, 3);
        g_array_append_vals (self->panel_vertices, corners + 9 * p + 3 * ((k + 1) % 3), 3);
        g_array_append_vals (self->panel_vertices, edge_color, 3);
      }
}

/* The panel surface over everything but the markers: it lies just inside
 * the bodies it approximates, so it is drawn against a cleared depth
 * buffer (its own panels hide each other), filled in its colours with its
 * edges on top.  The general program's vertex-colour mode, with the
 * per-instance attributes held at an identity instance. */
static void
draw_panels (BlRenderer *self)
{
  static const float identity[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
  guint n_vertices;

  if (self->panel_vertices == NULL)
    return;
  if (self->panel_vao == 0)
    {
      glGenVertexArrays (1, &self->panel_vao);
      glGenBuffers (1, &self->panel_vbo);
      glBindVertexArray (self->panel_vao);
      glBindBuffer (GL_ARRAY_BUFFER, self->panel_vbo);
      glEnableVertexAttribArray (ATTR_POSITION);
      glVertexAttribPointer (ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 6 * sizeof (float), (void *) 0);
      glEnableVertexAttribArray (ATTR_NORMAL);
      glVertexAttribPointer (ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 6 * sizeof (float), (void *) (3 * sizeof (float)));
    }
  glBindVertexArray (self->panel_vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->panel_vbo);
  if (self->panel_dirty)
    {
      glBufferData (GL_ARRAY_BUFFER, self->panel_vertices->len * sizeof (float), self->panel_vertices->data,
                    GL_STATIC_DRAW);
      self->panel_dirty = FALSE;
    }
  glVertexAttrib4fv (ATTR_MODEL0, identity[0]);
  glVertexAttrib4fv (ATTR_MODEL1, identity[1]);
  glVertexAttrib4fv (ATTR_MODEL2, identity[2]);
  glVertexAttrib4fv (ATTR_MODEL3, identity[3]);
  glVertexAttrib3fv (ATTR_NORMAL0, identity[0]);
  glVertexAttrib3fv (ATTR_NORMAL1, identity[1]);
  glVertexAttrib3fv (ATTR_NORMAL2, identity[2]);
  glVertexAttrib4f (ATTR_COLOR, 1.0f, 1.0f, 1.0f, 1.0f);
  glVertexAttrib1f (ATTR_LINK, -1.0f);
  glVertexAttrib1f (ATTR_FLAGS, 0.0f);

  glUniform1i (self->general.u_mode, 2);
  glUniform1f (self->general.u_alpha, 1.0f);
  glDisable (GL_CULL_FACE);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glClear (GL_DEPTH_BUFFER_BIT);
  n_vertices = self->panel_vertices->len / 6;
  if (self->panel_fill_vertices > 0)
    {
      /* The fill pushed back a little, so that its own edges win. */
      glEnable (GL_POLYGON_OFFSET_FILL);
      glPolygonOffset (1.0f, 1.0f);
      glDrawArrays (GL_TRIANGLES, 0, (GLsizei) self->panel_fill_vertices);
      glDisable (GL_POLYGON_OFFSET_FILL);
    }
  glDrawArrays (GL_LINES, (GLint) self->panel_fill_vertices, (GLsizei) (n_vertices - self->panel_fill_vertices));
  glBindVertexArray (0);
}
