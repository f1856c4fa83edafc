/* bl-simplify.h: coarser versions of a big mesh, each with a measured geometric error, for the viewport's level of detail.  No GL here. */
#pragma once

#include <gio/gio.h>

#include "bl-tessellate.h"

G_BEGIN_DECLS

/* One coarser version of a mesh.  Half-edge collapses move no vertex, so
 * its triangles index the input's own vertices (a subset of them). */
typedef struct
{
  GArray *indices;   /* guint32, three per triangle, same winding as the input */
  double  error;     /* measured: the largest distance from a vertex of the input to this level's surface (see below), in the input's units */
} BlSimplifyLevel;

void bl_simplify_level_free (BlSimplifyLevel *level);

/* Successively coarser levels of the mesh (POSITIONS: N_VERTICES × STRIDE floats, xyz first;
 * INDICES: N_TRIANGLES × 3), each with about a quarter of the triangles of the one before
 * (the first from the input), finest first, the input itself not included.  Stops before a
 * level with fewer than MIN_TRIANGLES triangles, one whose error exceeds MAX_ERROR, or when
 * simplification stalls (a level that would keep more than ~60 % of the triangles of the one
 * before is not made).  Returns a GPtrArray of BlSimplifyLevel* (free func set), possibly empty;
 * NULL only when CANCELLABLE (may be NULL) was cancelled (checked at least once per pass).
 *
 * Vertices with bit-identical positions are one vertex (a level indexes
 * one of them); triangles with a repeated vertex or zero area are dropped.
 * Vertices merely close (a seam computed as sin 2π ≠ 0) are not welded:
 * such a seam is a boundary, kept as it is.
 * Garland–Heckbert quadrics (area-weighted planes, in double) rank
 * half-edge collapses u → v (u removed, v kept where it is).  A collapse
 * never flips or degenerates a triangle (no normal turns by more than 75°),
 * keeps the surface a manifold (link condition, every valence ≥ 3, so a
 * closed piece never becomes a sheet) and never removes a vertex on a
 * boundary edge (one triangle), a non-manifold edge (three or more), an
 * inconsistently wound edge or a pinched fan: boundaries and holes stay
 * exactly as they are.  A collapse whose quadric error per unit area
 * exceeds MAX_ERROR² is not made, nor one that removes or lands on a hub
 * (a vertex with more than 256 triangles around it, as a cone's apex: the
 * checks would walk its whole ring each time), until its ring has thinned.
 *
 * The error is measured, not estimated: every vertex o of a non-degenerate
 * input triangle was collapsed (along a chain) into a kept vertex r (a
 * vertex never removed is its own r: distance 0); its distance to the
 * level's triangles around r, and when that is larger than the maximum so
 * far also to those around r's neighbours, is computed exactly
 * (point–triangle distance in double; skipped where |o − r| is already
 * within the maximum), and the level's error is the maximum over o.  Since a subset of the level's triangles is searched,
 * this is an upper bound of the largest distance from the input's vertices
 * to the level's surface (not of the distance the other way, nor between
 * the surfaces' interiors, though on a finely sampled input these are
 * close to it). */
GPtrArray *bl_simplify_levels (const float   *positions,
                               guint          stride,
                               guint          n_vertices,
                               const guint32 *indices,
                               guint          n_triangles,
                               guint          min_triangles,
                               double         max_error,
                               GCancellable  *cancellable);

/* A level ready to draw smooth: vertices compacted to those INDICES use, each with a unit
 * normal (stride 6, has_normals TRUE), the area-weighted average of the normals of the
 * triangles around it whose normal is within CREASE_DEGREES of the corner's own triangle;
 * a vertex is split where its corners' normals differ (so sharp edges stay sharp).
 * Vertices are told apart by index (as a level indexes them), not by position.
 * A corner of a zero-area triangle takes its vertex's average over all
 * its triangles ((0, 0, 1) if that is zero too).  A hub's corners (more
 * than 256 triangles around it) take their own triangle's normal, each
 * its own vertex. */
BlTessMesh *bl_simplify_smooth_mesh (const float  *positions,
                                     guint         stride,
                                     const GArray *indices,
                                     double        crease_degrees);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlSimplifyLevel, bl_simplify_level_free)

G_END_DECLS
