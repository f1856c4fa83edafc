/* bl-viewport.h: the 3D view of a BlDocument: collisions, inertia and added-mass overlays, picking. */
#pragma once

#include <gtk/gtk.h>

#include "bl-camera.h"
#include "bl-document.h"

G_BEGIN_DECLS

#define BL_TYPE_VIEWPORT (bl_viewport_get_type ())
G_DECLARE_FINAL_TYPE (BlViewport, bl_viewport, BL, VIEWPORT, GtkGLArea)

/* Widget actions (for menus and shortcuts):
 *   viewport.fit-all (Home), viewport.fit-selection (F),
 *   viewport.view-front (1), viewport.view-side (3), viewport.view-top (7),
 *   viewport.view-iso (9),
 * and a stateful action per boolean property, same name:
 *   viewport.show-inertia-ellipsoid, viewport.show-inertia-box,
 *   viewport.show-com, viewport.show-principal-axes,
 *   viewport.show-buoyancy-center, viewport.show-added-mass,
 *   viewport.wireframe, viewport.xray.
 *
 * Signal ::link-picked (BlLink* as G_TYPE_POINTER, may be NULL) when the
 * user clicks in the view; the selection has already changed to it. */

GtkWidget  *bl_viewport_new                 (void);

/* Property "document".  Listens to ::link-changed and re-uploads only that
 * link.  The camera fits the whole model when the first document is set. */
void        bl_viewport_set_document        (BlViewport      *self,
                                             BlDocument      *document);
BlDocument *bl_viewport_get_document        (BlViewport      *self);

/* Properties "selected-link" and "selected-collision" (pointers, notified
 * when they change; the window binds them to the outline's selection).
 * NULL: none.  Emits no signal.  The selected link is drawn tinted towards
 * the selection colour and every other link dimmed (bl-renderer.h). */
void        bl_viewport_set_selected_link   (BlViewport      *self,
                                             BlLink          *link);
BlLink     *bl_viewport_get_selected_link   (BlViewport      *self);
/* Selects the collision's link and the collision in it, drawn nearly in
 * the selection colour, apart from the link's other collisions; NULL
 * leaves the link selected alone.  Selecting a link clears it. */
void        bl_viewport_set_selected_collision (BlViewport   *self,
                                                BlCollision  *collision);
BlCollision *bl_viewport_get_selected_collision (BlViewport  *self);
/* Property "selected-model" (a pointer, notified when it changes; the
 * window binds it to the outline's selected model): what fit-selection
 * frames when no link is selected.  Drawn no differently. */
void        bl_viewport_set_selected_model  (BlViewport      *self,
                                             BlModel         *model);
BlModel    *bl_viewport_get_selected_model  (BlViewport      *self);

void        bl_viewport_fit_all             (BlViewport      *self);
/* Frames the selected link, else the links of the selected model and of
 * the models nested in it; all when neither is drawn. */
void        bl_viewport_fit_selection       (BlViewport      *self);
void        bl_viewport_set_view            (BlViewport      *self,
                                             BlViewDirection  direction);

/* The link under widget point (x, y), or NULL.  No side effect. */
BlLink     *bl_viewport_pick                (BlViewport      *self,
                                             double           x,
                                             double           y);

/* Property "fluid-density" (kg/m³, default sea water 1025): sizes the
 * added-mass ellipsoid (see bl-scene.h). */
void        bl_viewport_set_fluid_density   (BlViewport      *self,
                                             double           density);
double      bl_viewport_get_fluid_density   (BlViewport      *self);

/* The camera, for tools and tests: a copy, and a setter that redraws. */
void        bl_viewport_get_camera          (BlViewport      *self,
                                             BlCamera        *camera);
void        bl_viewport_set_camera          (BlViewport      *self,
                                             const BlCamera  *camera);

/* The panel method's surface over the view: `n_panels` triangles of
 * `link`, their corners in link coordinates (9 doubles each), drawn as
 * edges, and filled blue–white–red by `values` (nullable, one per panel,
 * scaled by the largest magnitude: a potential's sign and size) when
 * given.  A NULL link or no panels removes it; so does a new document.
 * The arrays are copied. */
void        bl_viewport_set_panels          (BlViewport      *self,
                                             BlLink          *link,
                                             const double    *corners,
                                             gsize            n_panels,
                                             const double    *values);
gsize       bl_viewport_get_n_panels        (BlViewport      *self);

/* Renders one frame offscreen at WIDTH×HEIGHT (≤ 0: the widget's size) and
 * returns it.  The widget must be realized.  The PNG variant writes it. */
GdkTexture *bl_viewport_render_texture      (BlViewport      *self,
                                             int              width,
                                             int              height,
                                             GError         **error);
gboolean    bl_viewport_save_png            (BlViewport      *self,
                                             const char      *path,
                                             GError         **error);
/* TRUE while big meshes' clusters or coarser levels are still being made
 * (in a thread, after the mesh is first drawn) or not yet drawn with:
 * until then they are drawn whole.  The viewport redraws once they are
 * ready; a screenshot of the settled view waits for this to be FALSE. */
gboolean    bl_viewport_get_mesh_jobs_pending (BlViewport     *self);

/* Whether GL on DISPLAY rasterises in software (Mesa's llvmpipe or
 * softpipe, as in a virtual machine or under Xvfb); FALSE when it has no
 * GL.  Creates and drops a context of its own. */
gboolean    bl_viewport_display_gl_is_software (GdkDisplay *display);

G_END_DECLS
