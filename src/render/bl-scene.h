/* bl-scene.h: what the viewport draws for each link, computed from the document without GL:
 * collision instances (unit primitive or mesh + model matrix) and overlay transforms. */
#pragma once

#include "bl-document.h"
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
  double  model[16];
  double  inverse[16];   /* for picking; invertible is FALSE when singular */
  gboolean invertible;
  guint   collision;     /* its collision's position in link->collisions */
} BlSceneShape;

/* A link's drawing.  World coordinates are the top model's (or world's)
 * frame, as BlLink.world_pose. */
typedef struct
{
  BlLink   *link;
  guint     index;               /* position in bl_document_get_links () */
  GArray   *shapes;              /* BlSceneShape, every collision's pieces */
  GPtrArray *missing;            /* char *: collisions not drawn and why */
  gboolean  valid;               /* link->props.valid */

  gboolean  has_ellipsoid;       /* equivalent inertia ellipsoid */
  double    ellipsoid[16];       /* unit sphere → ellipsoid, world */
  double    semi_axes[3];
  gboolean  has_box;             /* equivalent box */
  double    box[16];             /* unit cube → box, world */
  double    box_size[3];
  double    com[3];              /* world; defined when the link resolved */
  gboolean  has_com;
  double    axes[3][3];          /* principal axes in world, unit, ascending moments */
  double    axis_length[3];      /* half-length of each principal-axis line */
  gboolean  has_buoyancy;
  double    buoyancy[3];         /* centre of buoyancy, world */
  double    volume;              /* displaced volume of the collisions, m³ */
  gboolean  has_added_mass;
  double    added_mass[16];      /* unit sphere → added-mass ellipsoid, world */
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
} BlSceneLink;

/* A link's bounds as bl_scene_link_update leaves them, to tell whether an
 * update moved them (compared with memcmp: every field is set). */
typedef struct
{
  gboolean has_bounds;
  gboolean has_frame_bounds;
  double   min[3], max[3];
  double   frame_min[3], frame_max[3];
} BlSceneBounds;

/* The added-mass ellipsoid: with A the symmetric translational block (kg)
 * and A = V diag(μ) Vᵀ, a sphere of radius R in a fluid of density ρ has
 * μ = ½ρ·(4/3)πR³ in every direction, so each axis gets the radius of the
 * sphere with that added mass: rᵢ = (3μᵢ / (2πρ))^⅓ (0 for μᵢ ≤ 0). It is
 * the body itself for a sphere in that fluid.  Centred at the centre of
 * buoyancy when the link displaces a volume, else at the link origin (the
 * translational block does not depend on the reference point). */
gboolean      bl_scene_added_mass_radii (const double  values[21],
                                         double        fluid_density,
                                         double        radii[3],
                                         double        axes[3][3]);

/* Volume and centroid (in the link frame) of one collision: the resolver's
 * values when it computed them, otherwise the closed forms (box xyz, sphere
 * 4πr³/3, cylinder πr²l, capsule πr²(l + 4r/3), cone πr²l/3 with its
 * centroid at −l/4 on its axis, ellipsoid 4πabc/3, mesh from its
 * integrator).  FALSE for shapes with no volume. */
gboolean      bl_scene_collision_volume (BlCollision  *collision,
                                         double       *volume,
                                         BlVec3       *centroid);

BlSceneLink  *bl_scene_link_new         (BlLink       *link,
                                         guint         index,
                                         double        fluid_density);
/* Recomputes everything from the link (after ::link-changed). */
void          bl_scene_link_update      (BlSceneLink  *self,
                                         double        fluid_density);
void          bl_scene_link_free        (BlSceneLink  *self);
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
