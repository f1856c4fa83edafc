/* bl-renderer.h: the viewport's OpenGL side (no widgets): programs, shared buffers, instanced drawing.
 * Every function needs the GL context current. */
#pragma once

#include <glib.h>

#include "bl-camera.h"
#include "bl-scene.h"

G_BEGIN_DECLS

typedef struct _BlRenderer BlRenderer;

typedef struct
{
  gboolean show_inertia_ellipsoid;
  gboolean show_inertia_box;
  gboolean show_com;
  gboolean show_principal_axes;
  gboolean show_buoyancy_center;
  gboolean show_added_mass;
  gboolean wireframe;
  gboolean xray;
  int      selected;        /* link index, −1 for none */
  int      hovered;
} BlRenderOptions;

/* Colours, linear 0…1 RGB: what the pixel tests expect. */
extern const float bl_render_background_color[3];
extern const float bl_render_selection_color[3];
extern const float bl_render_warning_color[3];
extern const float bl_render_ellipsoid_color[3];
extern const float bl_render_added_mass_color[3];
extern const float bl_render_box_color[3];
extern const float bl_render_com_color[3];
extern const float bl_render_buoyancy_color[3];
/* A link's own colour (a soft blue-grey family by index). */
void        bl_render_link_color     (guint            index,
                                      float            rgb[3]);

/* Compiles the shaders (GLSL 330 core, or 300 es when USE_ES); a compile or
 * link failure sets GDK_GL_ERROR_COMPILATION_FAILED. */
BlRenderer *bl_renderer_new          (gboolean         use_es,
                                      GError         **error);
void        bl_renderer_free         (BlRenderer      *self);

/* The links to draw (BlSceneLink*, borrowed; index i must be link i).
 * Rebuilds every instance buffer on the next draw. */
void        bl_renderer_set_scene    (BlRenderer      *self,
                                      GPtrArray       *links);
/* LINK was updated (bl_scene_link_update): only its instances are
 * rewritten, with glBufferSubData, on the next draw. */
void        bl_renderer_link_changed (BlRenderer      *self,
                                      BlSceneLink     *link);
/* Number of whole-scene rebuilds so far (for tests of live updates). */
guint       bl_renderer_get_n_rebuilds (BlRenderer    *self);

/* Draws into the bound framebuffer (viewport WIDTH×HEIGHT). */
void        bl_renderer_draw         (BlRenderer            *self,
                                      const BlCamera        *camera,
                                      const BlRenderOptions *options,
                                      const double           scene_center[3],
                                      double                 scene_radius,
                                      int                    width,
                                      int                    height);

G_END_DECLS
