/* compare-meshes.h: two loads of one mesh file (in process and through the assimp child), compared. */
#pragma once

#include "bl-mesh.h"

G_BEGIN_DECLS

/* Aborts unless A and B have the same submeshes (names, vertices and
 * indices bit for bit) and give the same mass properties, bit for bit, for
 * the mesh, its convex hull and each submesh (or the same error). */
void bl_test_assert_same_meshes (BlMesh *a,
                                 BlMesh *b);

/* Loads PATH (scaled by SCALE) in process and through assimp in the child
 * and checks that both give the same mesh bit for bit, or the same error,
 * each naming the file.  NATIVE: whether the in-process reader must be
 * the one that read it.  Returns the in-process error, if any. */
GError *bl_test_compare_paths (const char *path,
                               BlVec3      scale,
                               gboolean    native);

/* bl_test_compare_paths at scale 1 and at a mirroring, non-uniform scale,
 * both loads succeeding; then PATH is removed and freed. */
void    bl_test_assert_same_and_remove (char     *path,
                                        gboolean  native);

G_END_DECLS
