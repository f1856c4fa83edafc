/* bl-tessellate.h: triangle meshes for the viewport, in single precision, from unit primitives and BlMesh. */
#pragma once

#include <glib.h>

#include "bl-mesh.h"

G_BEGIN_DECLS

/* Interleaved float vertices: position xyz then normal xyz (stride 6) when
 * has_normals, position only (stride 3) otherwise; three indices per
 * triangle, wound counter-clockwise seen from outside. */
typedef struct
{
  GArray   *vertices;    /* float */
  GArray   *indices;     /* guint32 */
  gboolean  has_normals;
} BlTessMesh;

BlTessMesh *bl_tess_mesh_new        (gboolean     has_normals);
void        bl_tess_mesh_free       (BlTessMesh  *mesh);
guint       bl_tess_mesh_get_stride (BlTessMesh  *mesh);
guint       bl_tess_mesh_get_n_vertices  (BlTessMesh *mesh);
guint       bl_tess_mesh_get_n_triangles (BlTessMesh *mesh);
/* Axis-aligned bounds of the positions. */
void        bl_tess_mesh_get_bounds (BlTessMesh  *mesh,
                                     float        min[3],
                                     float        max[3]);

/* The least distance of the plane of any of its (non-degenerate)
 * triangles from the origin: for a closed convex mesh about the origin,
 * the radius of the largest ball about the origin inside it. */
double      bl_tess_mesh_get_inradius (BlTessMesh *mesh);

/* Unit primitives, scaled per instance by the renderer:
 * box: the cube [−½, ½]³, flat faces;
 * sphere: radius 1 (stacks ≥ 2, slices ≥ 3), also every ellipsoid;
 * cylinder: radius 1, z from −½ to ½, capped;
 * cone: base of radius 1 at z = −½, apex at z = ½ (SDF's cone);
 * plane: the square [−½, ½]² at z = 0, normal +z. */
BlTessMesh *bl_tess_box             (void);
BlTessMesh *bl_tess_sphere          (guint        slices,
                                     guint        stacks);
BlTessMesh *bl_tess_cylinder        (guint        slices);
BlTessMesh *bl_tess_cone            (guint        slices);
BlTessMesh *bl_tess_plane           (void);

/* Every submesh of MESH concatenated, positions only (flat shading is done
 * per fragment), converted from double to float. */
BlTessMesh *bl_tess_from_mesh       (BlMesh      *mesh);

/* The unique edges of a triangle index list as line index pairs, each edge
 * once whatever its winding. */
GArray     *bl_tess_edges           (const guint32 *indices,
                                     guint          n_triangles);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlTessMesh, bl_tess_mesh_free)

G_END_DECLS
