/* bl-simplify.h: coarser versions of a big mesh, each with a measured geometric error: the viewport's levels of detail and the panel method's panel budget. */
#pragma once

#include <gio/gio.h>


G_BEGIN_DECLS

/* A vertex with more triangles around it than this is a hub (a cone's
 * apex): see bl_simplify_levels. */
#define BL_SIMPLIFY_HUB_RING 256

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

/* The triangles around each vertex: vertex v's are RING[START[v]] …
 * RING[START[v + 1] − 1] (START: N_VERTICES + 1 entries, RING: 3 N_TRIS). */
void       bl_simplify_vertex_rings (const guint32 *tris,
                                     gsize          n_tris,
                                     guint32        n_vertices,
                                     guint32       *start,
                                     guint32       *ring);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlSimplifyLevel, bl_simplify_level_free)

G_END_DECLS
