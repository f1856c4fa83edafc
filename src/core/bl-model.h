/* bl-model.h: the parsed SDF model tree that a BlDocument owns.
 *
 * Every element keeps the libxml2 node it came from, so edits and export work
 * on the original tree.  Poses are already resolved through the frame graph:
 * a link's pose is in its model's frame, a collision's pose in its link's
 * frame.  The structures are plain data, owned and freed by the document. */
#pragma once

#include <libxml/tree.h>

#include "bl-added-mass.h"
#include "bl-diagnostic.h"
#include "bl-inertial.h"
#include "bl-mesh.h"

G_BEGIN_DECLS

typedef struct _BlModel     BlModel;
typedef struct _BlLink      BlLink;
typedef struct _BlCollision BlCollision;

typedef enum
{
  BL_GEOMETRY_EMPTY,
  BL_GEOMETRY_BOX,
  BL_GEOMETRY_SPHERE,
  BL_GEOMETRY_CYLINDER,
  BL_GEOMETRY_CAPSULE,
  BL_GEOMETRY_ELLIPSOID,
  BL_GEOMETRY_CONE,
  BL_GEOMETRY_MESH,
  BL_GEOMETRY_PLANE,
  BL_GEOMETRY_HEIGHTMAP,
  BL_GEOMETRY_POLYLINE,
  BL_GEOMETRY_IMAGE,
} BlGeometryType;

const char *bl_geometry_type_to_string (BlGeometryType type);

typedef struct
{
  BlGeometryType type;
  /* box: x y z; sphere: r; cylinder, capsule, cone: r, length;
   * ellipsoid: a b c; plane: normal x y z (size in plane_size). */
  double         size[3];
  double         plane_size[2];
  /* mesh */
  char          *uri;
  char          *resolved_path;  /* NULL when it could not be found */
  BlVec3         scale;
  char          *submesh;        /* //mesh/submesh/name, or NULL */
  gboolean       center;         /* //mesh/submesh/center */
  char          *optimization;   /* //mesh/@optimization, or NULL */
  xmlNode       *node;           /* the <geometry> element */
} BlGeometry;

struct _BlCollision
{
  char           *name;
  char           *path;          /* "model::link/collision[name]", for messages */
  BlLink         *link;
  xmlNode        *node;
  int             line;
  gboolean        has_density;
  BlPose          pose;          /* X_LK: collision frame in the link frame */
  double          density;       /* //collision/density when has_density */
  BlGeometry      geometry;

  /* Computed by the resolver (auto links). */
  gboolean        contributes;   /* gave a valid shape inertial */
  gboolean        has_mesh_properties; /* (below) */
  double          used_density;  /* after the precedence rules */
  BlInertial      inertial;      /* in the link frame, before any mass rescale */
  /* Computed by the resolver for every link, whatever the density. */
  double          volume;        /* displaced (geometric) volume, 0 when none */
  BlVec3          centroid;      /* volume centroid in the link frame */
  BlMesh         *mesh;          /* loaded mesh, or NULL */
  /* unit density, when has_mesh_properties; warnings owned by mesh.  Only
   * a mesh collision has it, made when its mesh is first read (168 bytes
   * that 100,000 boxes do without) and freed with the collision. */
  BlMeshProperties *mesh_properties;
};

typedef struct
{
  double      mass;
  BlVec3      com;               /* in the link frame */
  BlMat3      inertia;           /* about com, link axes (SDF products) */
  /* gz-math's MassMatrix3 in the inertial frame C, for IsValid parity. */
  BlMat3      inertia_c;
  double      principal_moments[3];   /* ascending */
  BlMat3      principal_axes;         /* columns are unit axes in link axes */
  gboolean    valid;                  /* gz-math IsValid(10) */
  gboolean    has_equivalent;         /* box/ellipsoid exist */
  double      equivalent_ellipsoid[3];
  double      equivalent_box[3];
  gboolean    resolved;               /* FALSE: auto resolution failed */

  /* Fluid side (added-mass.md §3, §7), every link. */
  gboolean    has_added_mass_eigenvalues; /* the link has a finite fluid_added_mass */
  double      volume;                 /* displaced volume of the solid collisions, m³ */
  BlVec3      center_of_buoyancy;     /* their volume centroid in L; origin when volume is 0 */
  double      added_mass_eigenvalues[6];  /* of μ, ascending */
  double      total_eigenvalues[6];       /* of M_RB + μ, ascending */
} BlMassProperties;

struct _BlLink
{
  char           *name;          /* local name */
  char           *scoped_name;   /* model::nested::link */
  BlModel        *model;
  const char     *file;          /* the file the <link> is in: its model's, or the
                                  * file an <include merge="true"> brought it from */
  xmlNode        *node;
  int             line;
  guint           n_load_diagnostics;  /* the first n of diagnostics (below) are from loading */
  BlPose          pose;          /* X_ML: link frame in its model's frame */
  BlPose          world_pose;    /* link frame in the top model's (or world's) frame */

  /* //inertial as written */
  xmlNode        *inertial_node;       /* NULL: no <inertial> */
  gboolean        auto_inertia;
  gboolean        has_mass;
  gboolean        has_density;
  gboolean        has_inertial_pose;
  gboolean        has_inertia;
  gboolean        has_added_mass;
  double          mass;
  double          density;
  BlPose          inertial_pose;       /* X_LC */
  double          inertia[6];          /* ixx iyy izz ixy ixz iyz as written */
  xmlNode        *added_mass_node;     /* <fluid_added_mass>, or NULL */
  /* The 21 values in spec order xx xy xz xp xq xr yy … rr: the link's own
   * when has_added_mass, else a shared array of zeros (168 bytes that most
   * links do without); read-only, set by the reader. */
  const double   *added_mass;

  GPtrArray      *collisions;          /* BlCollision*, document order */
  gboolean        input_errors;        /* a value of the inertial could not be read */

  /* Computed */
  BlMassProperties props;
  GPtrArray      *diagnostics;         /* BlDiagnostic*: load-time and computed */
};

/* An element other than a model's own whose <plugin>s are the model's, as
 * libsdformat moves them there: the <include> that brought the model in,
 * or, for <include merge="true">, that include and the merged <model>. */
typedef struct
{
  xmlNode        *node;
  const char     *file;          /* the file it is in (interned) */
} BlPluginSource;

struct _BlModel
{
  char           *name;
  char           *scoped_name;
  BlModel        *parent;        /* NULL for a top-level model */
  xmlNode        *node;
  const char     *file;          /* the file this model's element is in (interned: one
                                  * copy for all the models of a file) */
  int             line;
  gboolean        is_static;
  BlPose          pose;          /* in the parent model (or world) frame */
  BlPose          world_pose;
  GPtrArray      *links;         /* BlLink* */
  GPtrArray      *models;        /* BlModel*, nested */
  GArray         *plugin_sources; /* BlPluginSource, in document order; NULL
                                   * when there is none */
  GPtrArray      *plugins;       /* xmlNode*: the <plugin> elements of its own
                                  * element (node), in document order; NULL
                                  * when there is none */
};

/* Whether LINK belongs to MODEL or to a model nested in it. */
gboolean      bl_model_contains_link    (BlModel *model,
                                         BlLink  *link);

/* M_RB, the link's rigid-body spatial inertia about its origin in its
 * axes (added-mass.md §3), from props' mass, centre and inertia: made when
 * asked, not kept (288 bytes a link). */
BlMat6        bl_link_spatial_inertia   (const BlLink *link);

/* The 21 added-mass keys in spec order, and their (row, col) in the 6×6. */
extern const char * const bl_added_mass_keys[21];
void          bl_added_mass_index       (guint key, guint *row, guint *col);
int           bl_added_mass_key_lookup  (const char *key);

G_END_DECLS
