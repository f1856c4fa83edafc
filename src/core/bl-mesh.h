/* bl-mesh.h: triangle meshes loaded with assimp, their health and exact mass properties. */
#pragma once

#include <glib.h>

#include "bl-math.h"

G_BEGIN_DECLS

#define BL_MESH_ERROR (bl_mesh_error_quark ())

typedef enum
{
  BL_MESH_ERROR_LOAD,        /* unreadable or corrupt file (assimp's message) */
  BL_MESH_ERROR_EMPTY,       /* the file (or the chosen submesh) has no triangles */
  BL_MESH_ERROR_NO_SUBMESH,  /* <submesh><name> not found */
  BL_MESH_ERROR_DEGENERATE,  /* encloses no volume: flat, collinear or empty */
} BlMeshError;

GQuark bl_mesh_error_quark (void);

typedef struct _BlMesh BlMesh;

/* Mass properties at unit density, in the mesh frame (metres, after node
 * transforms, <submesh>/<center> and <scale>).  Multiply volume and
 * inertia by the density to get mass and tensor. */
typedef struct
{
  double      volume;              /* > 0 after any flip; see gz_volume */
  BlVec3      centroid;            /* volume centroid */
  BlMat3      inertia;             /* about the centroid, mesh axes, SDF products (ixy = −∫xy) */

  /* What gz-sim's MeshInertiaCalculator integrates for the same geometry:
   * the signed volume before any inside-out flip or mirror correction.
   * When ≤ 0, gz-sim fails for this collision. */
  double      gz_volume;

  guint       n_triangles;
  guint       n_degenerate_triangles; /* zero area: contribute nothing */

  /* Health of the whole surface (vertices welded by exact position). */
  gboolean    watertight;          /* no boundary and no non-manifold edges */
  guint       boundary_edges;      /* used by one triangle: holes */
  guint       n_holes;             /* connected boundary loops */
  guint       non_manifold_edges;  /* used by three or more triangles */
  guint       inconsistent_edges;  /* two triangles traverse it the same way */
  guint       duplicate_triangles; /* same three vertices as an earlier triangle */
  gboolean    inside_out;          /* negative volume, flipped (whole mesh or a closed submesh) */
  gboolean    mirrored;            /* negative <scale> determinant: winding reversed */
  /* Signed volume of the flat caps that would close the holes: how far
   * the volume of an open mesh may be off.  0 when closed. */
  double      hole_volume;

  /* Human-readable warnings (char *), each saying what is wrong and how
   * far off the result may be; owned by the mesh, never NULL. */
  GPtrArray  *warnings;
} BlMeshProperties;

/* A loaded mesh.  All vertices are doubles in metres in the mesh frame,
 * welded per submesh by exact position; triangles wound outward as stored
 * in the file (reversed for a mirroring scale or node transform). */
BlMesh        *bl_mesh_new_from_file          (const char     *path,
                                               BlVec3          scale,
                                               const char     *submesh,
                                               gboolean        center,
                                               GError        **error);
/* One submesh from arrays (xyz per vertex, three indices per triangle),
 * copied. */
BlMesh        *bl_mesh_new_from_triangles     (const double   *vertices,
                                               guint           n_vertices,
                                               const guint32  *indices,
                                               guint           n_triangles,
                                               GError        **error);
BlMesh        *bl_mesh_ref                    (BlMesh         *mesh);
void           bl_mesh_unref                  (BlMesh         *mesh);

/* The shared cache (bl-mesh-cache.c): a new reference to the mesh loaded
 * from PATH (already resolved) with these options, loading it only if
 * PATH's modification time or size changed or the options were never
 * used.  Mass properties
 * are computed once per cached mesh, so a density edit costs nothing.  A
 * failure is remembered the same way: the same file fails again at once
 * (a mesh that timed out is not read a second time) until it changes. */
BlMesh        *bl_mesh_cache_lookup           (const char     *path,
                                               BlVec3          scale,
                                               const char     *submesh,
                                               gboolean        center,
                                               GError        **error);
/* What the cache already knows, without reading the file: TRUE with a new
 * reference in *MESH when the mesh is loaded, TRUE with ERROR set when its
 * failure is remembered (or the file cannot be stat'ed), FALSE when a
 * lookup would have to read it.  Never blocks on the file's contents:
 * for a caller that must not wait (the viewport), with
 * bl_mesh_cache_lookup_async (bl-mesh-loader.h) for the FALSE case. */
gboolean       bl_mesh_cache_peek             (const char     *path,
                                               BlVec3          scale,
                                               const char     *submesh,
                                               gboolean        center,
                                               BlMesh        **mesh,
                                               GError        **error);
/* Drops every cached mesh (references held elsewhere stay valid). */
void           bl_mesh_cache_clear            (void);
/* Forgets the remembered failures only, keeping the meshes: the next
 * lookup of a file that failed reads it again.  For an explicit reload,
 * where a mesh that timed out on a busy machine deserves another try. */
void           bl_mesh_cache_forget_failures  (void);
guint          bl_mesh_cache_size             (void);

const char    *bl_mesh_get_path               (BlMesh         *mesh);
/* For a mesh from bl_mesh_cache_lookup: a key that is the same for every
 * <scale> of one file (as it was on disk), submesh and centring, and in
 * *SCALE the scale this one was made with; the meshes of one key are the
 * same geometry, scaled.  NULL for other meshes. */
const char    *bl_mesh_get_unscaled_key       (BlMesh         *mesh,
                                               BlVec3         *scale);
void           bl_mesh_get_bounds             (BlMesh         *mesh,
                                               BlVec3         *min,
                                               BlVec3         *max);
guint          bl_mesh_get_n_triangles        (BlMesh         *mesh);
guint          bl_mesh_get_n_submeshes        (BlMesh         *mesh);
/* The submesh name as gz-common names it (its node's name), for <submesh>. */
const char    *bl_mesh_get_submesh_name       (BlMesh         *mesh,
                                               guint           submesh);
const double  *bl_mesh_get_submesh_vertices   (BlMesh         *mesh,
                                               guint           submesh,
                                               guint          *n_vertices);
const guint32 *bl_mesh_get_submesh_indices    (BlMesh         *mesh,
                                               guint           submesh,
                                               guint          *n_triangles);

/* Unit-density mass properties of the mesh (or of its convex hull),
 * computed on first use and kept in MESH.  Fills *OUT (its warnings stay
 * owned by MESH) and returns TRUE when the surface encloses a volume;
 * otherwise sets BL_MESH_ERROR_DEGENERATE.  An open or broken mesh still
 * gives a result, with warnings. */
gboolean       bl_mesh_get_mass_properties    (BlMesh            *mesh,
                                               gboolean           convex_hull,
                                               BlMeshProperties  *out,
                                               GError           **error);

/* One submesh integrated alone, as gz-sim does before summing: signed
 * volume, centroid and tensor in Ballast's winding (gz_volume is gz-sim's
 * sign) and that submesh's own health; warnings is empty.  FALSE if
 * SUBMESH is out of range. */
gboolean       bl_mesh_get_submesh_mass_properties (BlMesh           *mesh,
                                                    guint             submesh,
                                                    BlMeshProperties *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlMesh, bl_mesh_unref)

G_END_DECLS
