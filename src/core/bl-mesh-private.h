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

/* Binary STL read in this process (bl-stl.c): what assimp reads as a
 * binary STL, welded as the assimp child welds it. */
typedef enum
{
  BL_STL_NOT_BINARY,  /* not a binary STL as assimp sees it: use assimp */
  BL_STL_OK,
  BL_STL_FAILED,      /* with an error naming the file */
} BlStlStatus;

typedef struct
{
  gpointer mapping;        /* holds both arrays: munmap (mapping, mapping_size) */
  gsize    mapping_size;
  double  *vertices;       /* xyz per distinct point, first-seen order */
  guint    n_vertices;
  guint32 *indices;        /* three per facet, in file order */
  guint    n_triangles;
  double   read_seconds;   /* in read(2) (the reading thread) */
  double   decode_seconds; /* decoding, finiteness, hashes (the reading thread) */
  double   weld_seconds;   /* welding (the calling thread) */
  double   wall_seconds;   /* the whole call */
} BlStlMesh;

BlStlStatus bl_stl_read_binary     (const char  *path,
                                    BlStlMesh   *out,
                                    GError     **error);
/* For an STL file assimp could not read: when it looks binary (a byte
 * that is not text among its first 134) but its size does not match the
 * facet count in its header, a sentence that says so; else NULL. */
char       *bl_stl_explain_failure (const char  *path);

/* Zeroed anonymous memory of *SIZE bytes (rounded up to a multiple of
 * 2 MiB, the size given back in *SIZE) on huge-page boundaries, asked for
 * huge pages, and filled at once when POPULATE: for large arrays written
 * all over, where 4 KiB pages would cost a fault each.  NULL when it
 * cannot be mapped.  Free with bl_mesh_huge_free (memory, *SIZE). */
gpointer bl_mesh_huge_alloc        (gsize       *size,
                                    gboolean     populate);
void     bl_mesh_huge_free         (gpointer     memory,
                                    gsize        size);

/* FALSE sends binary STL files to assimp in the child as every other
 * format (for tests and benchmarks that compare both paths; not
 * thread-safe).  TRUE by default. */
void     bl_mesh_set_native_stl    (gboolean     enabled);

/* Where the last mesh load and mass-properties computation in this process
 * spent their time, in seconds (for bench/bench-mesh.c; not thread-safe). */
typedef struct
{
  gboolean native;   /* the file was read in process (bl-stl.c) */
  double native_wall;/* native: the whole read, both threads */
  double decode;     /* native: decoding, finiteness, hashes (reading thread) */
  double import;     /* child: assimp reading the file; native: read(2) */
  double weld;       /* child: node transforms, weld, arrays written;
                      * native: the weld (calling thread) */
  double transfer;   /* the child's result reaching the parent, mapped */
  double checks;     /* parent: index range, finiteness, bounds */
  double reap;       /* parent: waiting for the child to exit */
  double health;     /* edge and triangle bookkeeping */
  double integrate;  /* the moment integrals */
} BlMeshTimings;

void     bl_mesh_get_timings       (BlMeshTimings *out);

G_END_DECLS
