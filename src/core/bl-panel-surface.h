/* bl-panel-surface.h: the surface the panel method (bl-panel.h) solves on:
 * bodies in link coordinates cut into flat triangles wound outward, and the
 * exact integrals over one such triangle.  Display- and document-free. */
#pragma once

#include <glib.h>

#include "bl-math.h"

G_BEGIN_DECLS

/* A closed surface to be panelled, in its own frame; the pose places that
 * frame in the link.  Primitives are cut to a requested number of panels;
 * a mesh is taken as it is (its triangles wound outward). */
typedef enum
{
  BL_PANEL_BODY_ELLIPSOID,   /* semi-axes size.x, size.y, size.z (a sphere: all equal) */
  BL_PANEL_BODY_BOX,         /* edge lengths size.x, size.y, size.z, centred */
  BL_PANEL_BODY_CYLINDER,    /* radius size.x, length size.z, axis z, centred */
  BL_PANEL_BODY_CAPSULE,     /* radius size.x, cylinder length size.z, axis z */
  BL_PANEL_BODY_CONE,        /* base radius size.x, length size.z, axis z, mid-height at 0 */
  BL_PANEL_BODY_TRIANGLES,   /* points (xyz), triangles (index triples) */
} BlPanelBodyKind;

typedef struct
{
  BlPanelBodyKind  kind;
  BlPose           pose;       /* the body frame in the link */
  BlVec3           size;
  /* BL_PANEL_BODY_TRIANGLES only; borrowed, valid while the body is used. */
  const double    *points;
  gsize            n_points;
  const guint     *triangles;
  gsize            n_triangles;
} BlPanelBody;

/* Flat triangles in link coordinates, wound outward, ready to solve. */
typedef struct
{
  double *points;       /* 9 per panel: its three corners */
  gsize   n_panels;
  gsize  *body_end;     /* shell i's panels are [body_end[i − 1], body_end[i]):
                         * one per primitive, one per closed shell of a mesh */
  gsize   n_bodies;     /* shells */
  gsize   n_removed;    /* panels left out: inside another body */
  double  simplify_error; /* meshes made coarser: the largest distance of a
                           * mesh vertex from its panels; 0 when none was */
  gsize   n_slivers;    /* panels whose longest edge is more than
                         * BL_PANEL_SLIVER_ASPECT times their height on it */
} BlPanelSurface;

/* Constant panels lose accuracy on long thin triangles (a cylinder meshed
 * as one ring of full-length strips), and both resolutions of an estimate
 * share them, so its error estimate does not see it: such panels are
 * counted, for a warning. */
#define BL_PANEL_SLIVER_ASPECT 20.0

/* Cuts the bodies into about `budget` panels in all (shared by area): a
 * mesh much finer than its share is simplified to a coarser level of
 * detail (bl-simplify.h) with its measured error, one coarser is refined.
 * The surface's panels are in body order, a mesh's shell by shell (panels
 * joined through corners at one position), each shell turned outward on
 * its own.  Where shells overlap, their shared volume is solid: the panels
 * of one inside another (by centroid) are left out, and counted in
 * n_removed. */
BlPanelSurface *bl_panel_surface_new   (const BlPanelBody *bodies,
                                        gsize              n_bodies,
                                        gsize              budget);
void            bl_panel_surface_free  (BlPanelSurface    *surface);
/* The area of the panels and the volume they enclose (divergence
 * theorem), for checks. */
double          bl_panel_surface_area   (const BlPanelSurface *surface);
double          bl_panel_surface_volume (const BlPanelSurface *surface);

/* The panel integrals of one flat triangle (corners a, b, c, wound so that
 * (b − a) × (c − a) is its normal), seen from x: ∫ 1/|x − y| dS and the
 * signed solid angle (positive when the normal points away from x). */
void            bl_panel_triangle_integrals (const double  corners[9],
                                             const double  x[3],
                                             double       *one_over_r,
                                             double       *solid_angle);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlPanelSurface, bl_panel_surface_free)

G_END_DECLS
