/* bl-cluster.h: clusters of a big mesh's triangles and conservative tests that skip a whole cluster
 * (back-facing, or outside the view frustum) before the GPU sees it.  No GL here. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A run of consecutive triangles of the (reordered) index list, in the
 * mesh's own frame. */
typedef struct
{
  guint32 first;          /* first triangle */
  guint32 count;          /* triangles */
  float   center[3];      /* bounding sphere */
  float   radius;
  float   axis[3];        /* unit axis of the normal cone; (0, 0, 0): no cone */
  float   cos_cone;       /* every unit normal n has n·axis ≥ cos_cone */
  float   sin_cone;
  float   plane_offset;   /* max over its triangles of n·(center − p), p on the triangle */
  float   inv_altitude;   /* 1 / the smallest altitude of its triangles */
} BlCluster;

/* Reorders the N_TRIANGLES triangles of INDICES (three each, into
 * POSITIONS, STRIDE floats apart) so that each run of at most TARGET
 * triangles is spatially coherent with similar normals: grouped by the
 * dominant axis of the normal (six groups, and degenerate triangles last),
 * then in Morton order of the centroid.  Returns the runs (BlCluster). */
GArray   *bl_cluster_build        (const float *positions,
                                   guint        stride,
                                   guint32     *indices,
                                   guint        n_triangles,
                                   guint        target);

/* Renumbers the vertices in the order the N_INDICES INDICES first use them
 * (rewriting INDICES), so that a draw reads its vertices nearly in
 * sequence; VERTICES_OUT (N_VERTICES × STRIDE floats) gets them in the new
 * order, those no index uses last. */
void      bl_cluster_renumber     (guint32     *indices,
                                   gsize        n_indices,
                                   const float *vertices,
                                   guint        stride,
                                   guint        n_vertices,
                                   float       *vertices_out);

/* What the tests need of one instance and one frame. */
typedef struct
{
  double   eye[3];          /* the eye in the mesh's frame */
  double   planes[6][4];    /* the frustum in the mesh's frame: p·x + d ≥ 0 inside, in world lengths */
  double   plane_norm[6];   /* |p| */
  double   world_error;     /* bound on the GPU's position rounding, world lengths */
  double   local_error;     /* the same in the mesh's frame */
  gboolean backfaces;       /* back faces are culled for this instance */
} BlClusterView;

/* MODEL: the instance's column-major 4×4 (affine); PLANES: the world
 * frustum as (a, b, c, d) with a unit normal, inside ≥ 0; MESH_RADIUS: the
 * mesh's extent about its origin.  BACKFACES: the batch culls back faces
 * (closed, wound outward); it is turned off for a mirroring MODEL.  FALSE
 * when MODEL is singular: then nothing may be skipped. */
gboolean  bl_cluster_view_init    (BlClusterView *view,
                                   const float    model[16],
                                   const float    planes[6][4],
                                   const double   eye[3],
                                   double         mesh_radius,
                                   gboolean       backfaces);

/* FALSE only when no triangle of CLUSTER can produce a pixel: wholly
 * behind one frustum plane, or (with view->backfaces) every triangle
 * facing away from the eye by a margin that the GPU's rounding cannot
 * cross. */
gboolean  bl_cluster_is_visible   (const BlCluster     *cluster,
                                   const BlClusterView *view);

G_END_DECLS
