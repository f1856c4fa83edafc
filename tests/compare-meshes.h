/* compare-meshes.h: two loads of one mesh file (in process and through the assimp child), compared. */
#pragma once

#include "bl-mesh.h"

G_BEGIN_DECLS

/* Aborts unless A and B have the same submeshes (names, vertices and
 * indices bit for bit) and give the same mass properties, bit for bit, for
 * the mesh, its convex hull and each submesh (or the same error). */
void bl_test_assert_same_meshes (BlMesh *a,
                                 BlMesh *b);

G_END_DECLS
