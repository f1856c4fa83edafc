/* bl-mesh-private.h: the mesh integrator and convex hull, for tests and benchmarks. */
#pragma once

#include "bl-mesh.h"

G_BEGIN_DECLS

/* ∫1, ∫x, ∫y, ∫z, ∫x², ∫y², ∫z², ∫xy, ∫yz, ∫zx */
#define BL_MESH_N_MOMENTS 10

/* Eberly's volume integrals of a closed triangle surface, coordinates taken
 * relative to REF, in the order above.  Splits large inputs over threads. */
void     bl_mesh_integrate_moments (const double  *vertices,
                                    const guint32 *indices,
                                    gsize          n_triangles,
                                    const double   ref[3],
                                    double         moments[BL_MESH_N_MOMENTS]);

/* The convex hull of N_POINTS xyz points: a newly allocated array of
 * 3 × *n_triangles indices into POINTS, wound outward.  NULL with
 * BL_MESH_ERROR_DEGENERATE when the points are coincident, collinear or
 * coplanar. */
guint32 *bl_mesh_convex_hull       (const double  *points,
                                    gsize          n_points,
                                    gsize         *n_triangles,
                                    GError       **error);

/* Where the last mesh load and mass-properties computation in this process
 * spent their time, in seconds (for bench/bench-mesh.c; not thread-safe). */
typedef struct
{
  double import;     /* child: assimp reading the file */
  double weld;       /* child: node transforms, weld, arrays written */
  double transfer;   /* the child's result reaching the parent, mapped */
  double checks;     /* parent: index range, finiteness, bounds */
  double reap;       /* parent: waiting for the child to exit */
  double health;     /* edge and triangle bookkeeping */
  double integrate;  /* the moment integrals */
} BlMeshTimings;

void     bl_mesh_get_timings       (BlMeshTimings *out);

G_END_DECLS
