/* bl-mesh-private.h: what the mesh files share, and the mesh integrator,
 * convex hull and timings for tests and benchmarks.
 *
 * The mesh is one type (BlMesh, bl-mesh.h) in several files by concern;
 * each calls only the files listed after it, never one before it:
 *
 *   bl-mesh-cache.c      the shared cache of meshes by file and options
 *   bl-mesh.c            the object, its reading (in process or in the
 *                        child) and its mass properties
 *   bl-mesh-import.c     assimp in a child process, and its result mapped
 *   bl-mesh-stl.c        binary STL read in this process
 *   bl-mesh-ply.c        binary PLY read in this process
 *   bl-mesh-health.c     edges, holes, duplicates; reorientation
 *   bl-mesh-hull.c       the convex hull
 *   bl-mesh-integrate.c  Eberly's volume integrals, threaded
 *   bl-mesh-weld.c       points welded by exact position
 *   bl-mesh-common.c     the error domain, the submesh arrays, huge pages,
 *                        the timings
 *
 * (bl-mesh-loader.c, above the cache, reads it off the caller's thread.) */
#pragma once

#include "bl-mesh.h"

G_BEGIN_DECLS

/* ∫1, ∫x, ∫y, ∫z, ∫x², ∫y², ∫z², ∫xy, ∫yz, ∫zx */
#define BL_MESH_N_MOMENTS 10

/* No file over 1 GiB is read as a mesh (bl-mesh.c, bl-mesh-import.c). */
#define BL_MESH_MAX_FILE_SIZE ((gsize) 1 << 30)

/* Huge pages (bl_mesh_huge_alloc) are this large. */
#define BL_MESH_HUGE_PAGE ((gsize) 2 * 1024 * 1024)

/* An empty slot of the hash tables (welds, edges). */
#define BL_MESH_EMPTY32 G_MAXUINT32
#define BL_MESH_EMPTY64 G_MAXUINT64

/* Below this many triangles one thread integrates everything. */
#define BL_MESH_PARALLEL_THRESHOLD 65536

/* One submesh: welded points and triangles, on the heap or borrowed
 * from the mesh's mapping. */
typedef struct
{
  char    *name;           /* the node's name: gz-common's submesh name */
  char    *mesh_name;      /* the aiMesh's own name */
  double  *vertices;       /* xyz, welded by exact position */
  guint    n_vertices;
  guint32 *indices;        /* three per triangle */
  guint    n_triangles;
  gboolean node_mirrored;  /* the node transform mirrors: winding reversed */
  gboolean borrowed;       /* vertices and indices lie in the mesh's mapping */
} BlSubmesh;

/* Mass properties computed once, on first use (bl-mesh.c). */
typedef struct
{
  gboolean          computed;
  gboolean          ok;
  GError           *error;
  BlMeshProperties  props;
} BlMeshPropsSlot;

struct _BlMesh
{
  gint        ref_count;      /* atomic: a document may load in a thread */
  char       *path;
  gboolean    mirrored;       /* <scale> mirrors: winding reversed */
  GArray     *submeshes;      /* BlSubmesh */
  BlVec3      min;
  BlVec3      max;
  guint       n_triangles;
  BlMeshPropsSlot slots[2];   /* [0] the mesh, [1] its convex hull */
  BlMeshProperties *submesh_props;  /* filled with slots[0] */
  gpointer    mapping;        /* the mesh reader's result, mapped privately */
  gsize       mapping_size;
  char       *unscaled_key;   /* from the cache: the file as read, submesh and centring (no scale) */
  BlVec3      scale;          /* the <scale> it was made with (with unscaled_key) */
};

/* Mixes the bits of X (MurmurHash3's finaliser), for hash tables. */
static inline guint64
bl_mesh_mix64 (guint64 x)
{
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  x ^= x >> 33;
  return x;
}

/* A 3×4 affine transform in double, row-major. */
typedef struct
{
  double m[3][4];
} BlMeshAffine;

/* What the health check finds (bl-mesh-health.c). */
typedef struct
{
  guint  boundary_edges;
  guint  n_holes;
  guint  non_manifold_edges;
  guint  inconsistent_edges;
  guint  duplicate_triangles;
  guint  degenerate_triangles;
  gboolean is_cycle;   /* every edge crossed as often each way: the result is translation invariant */
  double cap_moments[BL_MESH_N_MOMENTS];   /* flat caps over the holes */
  double cap_area;                         /* of those caps, m² */
  double dup_volume;                       /* same-winding duplicates' share */
} BlMeshHealth;

/* Moments about REF that the mass properties (bl-mesh.c) will need
 * anyway, integrated while the other thread looks at the edges. */
typedef struct
{
  const double *vertices;
  const double *ref;
  gboolean      done;
  double        moments[BL_MESH_N_MOMENTS];
} BlMeshSideMoments;

static inline gsize
bl_mesh_round_up (gsize n,
                  gsize to)
{
  return (n + to - 1) / to * to;
}

static inline double
bl_mesh_seconds_between (gint64 from,
                         gint64 to)
{
  return (to - from) / (double) G_USEC_PER_SEC;
}

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

/* Files read in this process (bl-mesh-stl.c, bl-mesh-ply.c): what assimp
 * reads from them, welded as the assimp child welds it, or DECLINED for
 * the child to read. */
typedef enum
{
  BL_NATIVE_DECLINED,  /* not a file this reader takes: use assimp */
  BL_NATIVE_OK,
  BL_NATIVE_FAILED,    /* with an error naming the file */
} BlNativeStatus;

typedef struct
{
  gpointer mapping;        /* holds both arrays: munmap (mapping, mapping_size) */
  gsize    mapping_size;
  double  *vertices;       /* xyz per distinct point, first-seen order */
  guint    n_vertices;
  guint32 *indices;        /* three per triangle, in file order */
  guint    n_triangles;
  double   read_seconds;   /* in read(2) */
  double   decode_seconds; /* decoding (STL: finiteness and hashes too) */
  double   weld_seconds;   /* welding */
  double   wall_seconds;   /* the whole call */
} BlNativeMesh;

/* Binary STL (bl-mesh-stl.c). */
BlNativeStatus bl_stl_read_binary  (const char  *path,
                                    BlNativeMesh *out,
                                    GError     **error);
/* For an STL file assimp could not read: when it looks binary (a byte
 * that is not text among its first 134) but its size does not match the
 * facet count in its header, a sentence that says so; else NULL. */
char       *bl_stl_explain_failure (const char  *path);

/* Binary PLY (bl-mesh-ply.c): a header of the plain form most writers
 * use (see there); every other PLY file is DECLINED.  Coordinates that
 * are not finite are left for the caller's check, as the child's are. */
BlNativeStatus bl_ply_read_binary  (const char  *path,
                                    BlNativeMesh *out,
                                    GError     **error);

/* bl-mesh-common.c: whether PATH's name ends in “.EXT” in any case (as
 * assimp picks its importers), reads of exactly SIZE bytes (fewer only at
 * the end of the file; -1 on an error, in errno), and a load error naming
 * PATH (“Cannot load mesh “PATH”: …”) that returns BL_NATIVE_FAILED. */
gboolean        bl_mesh_path_has_extension (const char *path,
                                            const char *ext);
gssize          bl_mesh_read_full  (int          fd,
                                    guint8      *buffer,
                                    gsize        size);
BlNativeStatus  bl_mesh_native_fail (GError    **error,
                                     const char *path,
                                     const char *format,
                                     ...) G_GNUC_PRINTF (3, 4);

/* The most triangles one mesh may give (the child's nodes instanced, or
 * faces read in process): 20 million, what the largest binary STL
 * (1 GiB) holds. */
#define BL_MESH_MAX_TRIANGLES G_GUINT64_CONSTANT (20000000)

/* Zeroed anonymous memory of *SIZE bytes (rounded up to a multiple of
 * 2 MiB, the size given back in *SIZE) on huge-page boundaries, asked for
 * huge pages, and filled at once when POPULATE: for large arrays written
 * all over, where 4 KiB pages would cost a fault each.  Under 2 MiB,
 * ordinary pages (the size rounded up to one).  NULL when it cannot be
 * mapped.  Free with bl_mesh_huge_free (memory, *SIZE). */
gpointer bl_mesh_huge_alloc        (gsize       *size,
                                    gboolean     populate);
void     bl_mesh_huge_free         (gpointer     memory,
                                    gsize        size);

/* FALSE sends binary STL and PLY files to assimp in the child as every
 * other format (for tests and benchmarks that compare both paths; not
 * thread-safe).  TRUE by default. */
void     bl_mesh_set_native_readers (gboolean    enabled);

/* Where the last mesh load and mass-properties computation in this process
 * spent their time, in seconds (for bench/bench-mesh.c; not thread-safe). */
typedef struct
{
  gboolean native;   /* the file was read in process (bl-mesh-stl.c, bl-mesh-ply.c) */
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

/* The timings of the last load and computation (bl-mesh-common.c). */
extern BlMeshTimings bl_mesh_timings;

/* bl-mesh-common.c: a BlSubmesh's arrays freed (not those it borrows from
 * the mesh's mapping), and a triangle array's winding reversed. */
void      bl_mesh_submesh_clear     (gpointer       data);
void      bl_mesh_reverse_winding   (guint32       *indices,
                                     guint          n_triangles);

/* bl-mesh-weld.c: a power of two at least 2 N and 16, for open addressing.
 * bl_mesh_weld_positions welds IN (N_IN xyz points) by exact position: the
 * distinct points in OUT (room for N_IN) in first-seen order, REMAP[i] the
 * new index of point i; returns the number of distinct points.
 * bl_mesh_weld_points does the same for assimp's float points placed by
 * T, its table sized for EXPECTED distinct points. */
struct aiVector3D;
gsize     bl_mesh_table_size_for    (gsize          n);
guint     bl_mesh_weld_positions    (const double  *in,
                                     guint          n_in,
                                     double        *out,
                                     guint32       *remap);
guint     bl_mesh_weld_points       (const struct aiVector3D *in,
                                     guint          n_in,
                                     gsize          expected,
                                     const BlMeshAffine *t,
                                     double        *out,
                                     guint32       *remap);

/* bl-mesh-integrate.c: one triangle's unscaled terms added to ACC (in the
 * order of BL_MESH_N_MOMENTS), the terms scaled into moments, the moments
 * of many triangles summed piece by piece as bl_mesh_integrate_moments
 * does (the pieces in threads when THREADED: bit for bit the same sums),
 * and volume, centroid and central tensor (unit density) from moments
 * about REF (FALSE when the volume is zero). */
void      bl_mesh_integrate_triangle (const double  a[3],
                                      const double  b[3],
                                      const double  c[3],
                                      double        acc[BL_MESH_N_MOMENTS]);
void      bl_mesh_scale_moments     (double         acc[BL_MESH_N_MOMENTS]);
void      bl_mesh_integrate_moments_threaded (const double  *vertices,
                                              const guint32 *indices,
                                              gsize          n_triangles,
                                              const double   ref[3],
                                              gboolean       threaded,
                                              double         moments[BL_MESH_N_MOMENTS]);
gboolean  bl_mesh_moments_to_props  (const double   m[BL_MESH_N_MOMENTS],
                                     const double   ref[3],
                                     double        *volume,
                                     BlVec3        *centroid,
                                     BlMat3        *inertia);

/* bl-mesh-health.c: the health of a triangle surface (welded indices),
 * with caps over its holes as moments about REF; the health of a mesh's
 * submeshes together (welded across submeshes, their triangles WORK[i]),
 * integrating SIDE's moments meanwhile when given (one submesh); and a new
 * index array where mixed winding is turned to match each edge-connected
 * piece, and each piece outward about REF. */
void      bl_mesh_analyse_health    (const double  *vertices,
                                     const guint32 *indices,
                                     gsize          n_triangles,
                                     const double   ref[3],
                                     BlMeshHealth  *h);
void      bl_mesh_union_health      (BlMesh        *mesh,
                                     const guint32 **work,
                                     const double   ref[3],
                                     BlMeshHealth  *h,
                                     BlMeshSideMoments *side);
guint32  *bl_mesh_reorient          (const double  *vertices,
                                     const guint32 *indices,
                                     gsize          n_triangles,
                                     const double   ref[3]);

/* bl-mesh-import.c: MESH's file read by assimp in a child process with a
 * time and memory limit; its submeshes lie in MESH's mapping.  FALSE with
 * ERROR naming the file on any failure (a hang, a crash, a malformed
 * result). */
gboolean  bl_mesh_import            (BlMesh        *mesh,
                                     GError       **error);

G_END_DECLS
