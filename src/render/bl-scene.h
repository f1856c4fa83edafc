/* bl-scene.h: what the viewport draws for each link, computed from the document without GL:
 * collision instances (unit primitive or mesh + model matrix) and overlay transforms. */
#pragma once

#include <gio/gio.h>

#include "bl-document.h"
#include "bl-fluid.h"
#include "bl-pick.h"

G_BEGIN_DECLS

typedef enum
{
  BL_PRIM_BOX,
  BL_PRIM_SPHERE,     /* also ellipsoids and capsule ends */
  BL_PRIM_CYLINDER,
  BL_PRIM_CONE,
  BL_PRIM_PLANE,
  BL_PRIM_MESH,
  BL_N_PRIMS
} BlPrim;

/* One drawn piece: the unit primitive (or MESH, in metres) placed by
 * `model`, a column-major affine 4×4 in world coordinates. */
typedef struct
{
  BlPrim  prim;
  BlMesh *mesh;          /* owned reference when prim is MESH */
  double  model[16];     /* its inverse is made when picking: a link of
                          * 100,000 pieces would keep 12.8 MB of them */
  guint   collision;     /* its collision's position in link->collisions */
} BlSceneShape;

typedef struct _BlSceneLink BlSceneLink;

/* Called in the main context when a mesh the link waits for has been read
 * (or failed): bl_scene_link_update draws it (or says why not). */
typedef void (*BlSceneMeshReadyFunc) (BlSceneLink *link,
                                      gpointer     user_data);

/* A link's drawing.  World coordinates are the top model's (or world's)
 * frame, as BlLink.world_pose.  Everything physical (volume, centre of
 * buoyancy, inertia, meshes) is the core's result, placed for drawing:
 * nothing here computes a mass property. */
struct _BlSceneLink
{
  BlLink   *link;
  guint     index;               /* position in bl_document_get_links () */
  BlSceneShape *shapes;          /* every collision's pieces, n_shapes */
  guint     n_shapes;
  guint     shapes_alloc;        /* private: room for this many */
  GPtrArray *missing;            /* char *: collisions not drawn and why */
  gboolean  valid;               /* link->props.valid */

  gboolean  has_ellipsoid;       /* equivalent inertia ellipsoid */
  BlMat3    ellipsoid_axes;      /* its axes in world (columns), unit; its matrix:
                                  * bl_scene_link_get_ellipsoid */
  double    semi_axes[3];
  gboolean  has_box;             /* equivalent box */
  BlMat3    box_axes;            /* its axes in world (columns); bl_scene_link_get_box */
  double    box_size[3];
  double    com[3];              /* world; defined when the link resolved */
  gboolean  has_com;
  double    axes[3][3];          /* principal axes in world, unit, ascending moments */
  double    axis_length[3];      /* half-length of each principal-axis line */
  gboolean  has_buoyancy;
  double    buoyancy[3];         /* bl_link_compute_buoyancy's centre, world */
  double    volume;              /* its displaced volume (props.volume), m³ */
  gboolean  has_added_mass;
  double   *added_mass;          /* unit sphere → added-mass ellipsoid, world, 16
                                  * (allocated for the first one: few links have one) */
  /* The link's fluid_added_mass is not physical: not positive
   * semi-definite (check A3), or the body plus it not positive definite
   * (A4).  It has no ellipsoid then (has_added_mass is FALSE): the
   * renderer draws the link in the warning colour instead. */
  gboolean  added_mass_invalid;
  double    added_mass_radii[3];

  /* The largest radius of the point markers (m), from the link's own size
   * (its solid collisions, else its ellipsoid), never from planes: the
   * renderer draws markers at a constant size on screen up to this. */
  double    marker_size;
  gboolean  is_static;           /* in a static model: its inertia is never used */
  gboolean  has_bounds;
  double    min[3], max[3];      /* world bounds of everything drawn (picking) */
  /* What framing looks at: the solid shapes and the overlays, without
   * planes (an unbounded ground would swamp the model). */
  gboolean  has_frame_bounds;
  double    frame_min[3], frame_max[3];

  /* Meshes not in the core's cache yet are read by the cache in a worker
   * thread (bl_mesh_cache_lookup_async), never by the caller: until then
   * they are left out of shapes (listed in missing) and counted here. */
  guint                 n_loading;
  GHashTable           *loading;          /* private: meshes asked for (NULL until the first) */
  GCancellable         *cancellable;      /* private: cancelled when freed (NULL until then too) */
  BlSceneMeshReadyFunc  mesh_ready;
  gpointer              mesh_ready_data;
};

/* A link's bounds as bl_scene_link_update leaves them, to tell whether an
 * update moved them (compared with memcmp: every field is set). */
typedef struct
{
  gboolean has_bounds;
  gboolean has_frame_bounds;
  double   min[3], max[3];
  double   frame_min[3], frame_max[3];
} BlSceneBounds;

/* The drawing of LINK, the INDEX-th, with the added-mass ellipsoid for
 * FLUID_DENSITY (bl_added_mass_equivalent_radii, centred at the centre of
 * buoyancy when the link displaces a volume, else at the link origin) and
 * the buoyancy for the world's GRAVITY (bl_fluid_get_gravity). */
BlSceneLink  *bl_scene_link_new         (BlLink       *link,
                                         guint         index,
                                         double        fluid_density,
                                         BlVec3        gravity);
/* Recomputes everything from the link (after ::link-changed, or when
 * FUNC reports a mesh read). */
void          bl_scene_link_update      (BlSceneLink  *self,
                                         double        fluid_density,
                                         BlVec3        gravity);
void          bl_scene_link_set_mesh_ready_func (BlSceneLink          *self,
                                                 BlSceneMeshReadyFunc  func,
                                                 gpointer              user_data);
void          bl_scene_link_free        (BlSceneLink  *self);
/* The matrices taking the unit sphere to the link's equivalent ellipsoid
 * and the unit cube to its equivalent box, in world coordinates (made
 * when asked: kept, they were 256 bytes a link); defined when it has
 * them. */
void          bl_scene_link_get_ellipsoid (const BlSceneLink *self,
                                           double             m[16]);
void          bl_scene_link_get_box     (const BlSceneLink *self,
                                         double             m[16]);
void          bl_scene_link_get_bounds  (const BlSceneLink *self,
                                         BlSceneBounds     *bounds);

/* The nearest hit along the ray among the link's collision shapes (and its
 * inertia ellipsoid when it has no collision).  t in the direction's units. */
gboolean      bl_scene_link_pick        (BlSceneLink  *self,
                                         const double  origin[3],
                                         const double  direction[3],
                                         double       *t);

/* Column-major helpers in double. */
void          bl_scene_matrix_from_pose (BlPose        pose,
                                         double        m[16]);
void          bl_scene_matrix_mul       (const double  a[16],
                                         const double  b[16],
                                         double        out[16]);
void          bl_scene_matrix_apply     (const double  m[16],
                                         const double  p[3],
                                         double        out[3]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlSceneLink, bl_scene_link_free)

G_END_DECLS
