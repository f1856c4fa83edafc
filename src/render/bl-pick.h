/* bl-pick.h: ray casting against the viewport's unit primitives, boxes and triangles (double precision). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The unit shapes of bl-tessellate.h: box [−½, ½]³, sphere of radius 1,
 * cylinder and cone of radius 1 and height 1 along z centred at the
 * origin (cone apex at z = ½), plane square [−½, ½]² at z = 0. */
typedef enum
{
  BL_PICK_BOX,
  BL_PICK_SPHERE,
  BL_PICK_CYLINDER,
  BL_PICK_CONE,
  BL_PICK_PLANE,
} BlPickShape;

/* Each returns TRUE and the smallest t ≥ 0 with origin + t·direction on the
 * surface (direction need not be unit: t is in its units). */
gboolean bl_pick_unit_shape (BlPickShape    shape,
                             const double   origin[3],
                             const double   direction[3],
                             double        *t);
gboolean bl_pick_aabb       (const double   min[3],
                             const double   max[3],
                             const double   origin[3],
                             const double   direction[3],
                             double        *t);
/* Möller–Trumbore over a triangle list (xyz doubles, three indices per
 * triangle), both faces. */
gboolean bl_pick_triangles  (const double  *vertices,
                             const guint32 *indices,
                             guint          n_triangles,
                             const double   origin[3],
                             const double   direction[3],
                             double        *t);

/* Column-major affine 4×4 in double (as cglm's layout): m[col * 4 + row]. */
void     bl_pick_transform_ray (const double  inverse[16],
                                const double  origin[3],
                                const double  direction[3],
                                double        local_origin[3],
                                double        local_direction[3]);
/* Inverse of an affine 4×4; FALSE when singular. */
gboolean bl_pick_affine_inverse (const double m[16],
                                 double       inverse[16]);

G_END_DECLS
