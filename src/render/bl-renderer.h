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
  int      selected_collision; /* its collision (position in link->collisions), −1 for none */
  int      hovered;
  /* Draw big meshes whole instead of skipping their back-facing and
   * off-screen clusters (the picture is the same; for tests and benchmarks). */
  gboolean no_clusters;
  /* Draw big meshes at full detail only, never at a coarser level (whose
   * measured distance from the mesh stays within half a pixel on screen;
   * for tests and benchmarks). */
  gboolean no_levels;
  /* Draw every body, shell and marker in view: also bodies certainly
   * hidden behind or inside nearer ones and markers drawn over by later
   * ones (the picture is the same), and shells under 32 others (for tests
   * and benchmarks). */
  gboolean no_occlusion;
} BlRenderOptions;

/* Colours, 0…1 RGB as written to the framebuffer: what the pixel tests
 * expect and the viewport's legend shows.  Bodies (collisions) are opaque
 * in a near-neutral tint per link; the selected link's bodies are mixed
 * BL_RENDER_SELECTION_MIX of the way to the selection colour, its selected
 * collision BL_RENDER_COLLISION_MIX, and while a link is selected every
 * other link's bodies, edges and markers are dimmed BL_RENDER_DIM_MIX of
 * the way to the background (their shells fainter too); overlays are
 * translucent shells in saturated hues; the centre-of-mass marker is the
 * usual black-and-white sphere, the centre of buoyancy a blue one. */
#define BL_RENDER_SELECTION_MIX 0.5f
#define BL_RENDER_COLLISION_MIX 0.9f
#define BL_RENDER_DIM_MIX 0.55f
extern const float bl_render_background_color[3];
extern const float bl_render_selection_color[3];
extern const float bl_render_warning_color[3];
extern const float bl_render_ellipsoid_color[3];
extern const float bl_render_added_mass_color[3];
extern const float bl_render_box_color[3];
extern const float bl_render_com_color[3];
extern const float bl_render_com_dark_color[3];
extern const float bl_render_buoyancy_color[3];
extern const float bl_render_grid_color[3];
/* A link's own colour (near-neutral, a different faint tint by index). */
void        bl_render_link_color     (guint            index,
                                      float            rgb[3]);

/* Whether the current GL context rasterises in software (Mesa's llvmpipe
 * or softpipe). */
gboolean    bl_renderer_gl_is_software (void);

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

/* Draws into the bound framebuffer (viewport WIDTH×HEIGHT).  The grid
 * follows SCENE_CENTER and SCENE_RADIUS (what fit-all frames); the clip
 * planes reach EXTENT_RADIUS (everything drawn, planes included). */
void        bl_renderer_draw         (BlRenderer            *self,
                                      const BlCamera        *camera,
                                      const BlRenderOptions *options,
                                      const double           scene_center[3],
                                      double                 scene_radius,
                                      double                 extent_radius,
                                      int                    width,
                                      int                    height);
/* The panel method's surface, drawn over the bodies: CORNERS in world
 * coordinates, 9 per panel; COLORS (nullable) 3 per panel fill each
 * panel, else only the panels' edges are drawn.  n_panels 0 removes it.
 * The arrays are copied. */
void        bl_renderer_set_panels   (BlRenderer      *self,
                                      const float     *corners,
                                      const float     *colors,
                                      gsize            n_panels);
/* TRUE while a big mesh's clusters or coarser levels are being made (in a
 * thread of one bounded pool) or are made but not yet taken by a draw: until then it is drawn
 * whole, at full detail. */
gboolean    bl_renderer_get_mesh_jobs_pending (BlRenderer *self);
/* FUNC (DATA) is called in the renderer's main context each time such a
 * thread has finished something the next draw will take (queue a draw):
 * the renderer is told, nothing polls.  NULL: nobody is told. */
void        bl_renderer_set_mesh_jobs_func (BlRenderer *self,
                                            void      (*func) (gpointer data),
                                            gpointer    data);
/* Meshes whose buffers the renderer holds: those the scene's shapes use
 * (a mesh no shape uses any more goes at the next rebuild). */
guint       bl_renderer_get_n_meshes (BlRenderer *self);
/* Triangles drawn by the last frame (after culling and level of detail). */
guint       bl_renderer_get_n_drawn_triangles (BlRenderer *self);
/* Bytes of instance buffers the GL holds for all of a batch's instances
 * (batches drawn whole; a batch of many is sent per frame, visible ones
 * only, and holds none). */
gsize       bl_renderer_get_gl_instance_bytes (BlRenderer *self);
/* Bytes the renderer keeps in memory for instances between frames, as
 * allocated: each batch's bodies, and each shown overlay's for the links
 * that have it (this frame's copies of the visible ones not counted). */
gsize       bl_renderer_get_kept_instance_bytes (BlRenderer *self);
/* Frames that chose the instances in view anew (the others kept the last
 * frame's: the same camera, size, selection and instances). */
guint       bl_renderer_get_n_prepares (BlRenderer *self);

G_END_DECLS
