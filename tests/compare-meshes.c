/* compare-meshes.c: two loads of one mesh file, compared (tests/test-mesh.c,
 * tests/test-mesh-ply.c and fuzz/fuzz-mesh.c: the in-process STL and PLY
 * readers against assimp). */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "bl-mesh-private.h"
#include "compare-meshes.h"

static void
assert_same_props (const BlMeshProperties *a, const BlMeshProperties *b)
{
  g_assert_cmpmem (&a->volume, sizeof a->volume, &b->volume, sizeof b->volume);
  g_assert_cmpmem (&a->centroid, sizeof a->centroid, &b->centroid, sizeof b->centroid);
  g_assert_cmpmem (&a->inertia, sizeof a->inertia, &b->inertia, sizeof b->inertia);
  g_assert_cmpmem (&a->gz_volume, sizeof a->gz_volume, &b->gz_volume, sizeof b->gz_volume);
  g_assert_cmpmem (&a->hole_volume, sizeof a->hole_volume, &b->hole_volume, sizeof b->hole_volume);
  g_assert_cmpuint (a->n_triangles, ==, b->n_triangles);
  g_assert_cmpuint (a->n_degenerate_triangles, ==, b->n_degenerate_triangles);
  g_assert_cmpint (a->watertight, ==, b->watertight);
  g_assert_cmpuint (a->boundary_edges, ==, b->boundary_edges);
  g_assert_cmpuint (a->n_holes, ==, b->n_holes);
  g_assert_cmpuint (a->non_manifold_edges, ==, b->non_manifold_edges);
  g_assert_cmpuint (a->inconsistent_edges, ==, b->inconsistent_edges);
  g_assert_cmpuint (a->duplicate_triangles, ==, b->duplicate_triangles);
  g_assert_cmpint (a->inside_out, ==, b->inside_out);
  g_assert_cmpint (a->mirrored, ==, b->mirrored);
  g_assert_cmpuint (a->warnings->len, ==, b->warnings->len);
  for (guint i = 0; i < a->warnings->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a->warnings, i), ==, g_ptr_array_index (b->warnings, i));
}

void
bl_test_assert_same_meshes (BlMesh *a,
                            BlMesh *b)
{
  g_assert_cmpuint (bl_mesh_get_n_submeshes (a), ==, bl_mesh_get_n_submeshes (b));
  g_assert_cmpuint (bl_mesh_get_n_triangles (a), ==, bl_mesh_get_n_triangles (b));
  for (guint i = 0; i < bl_mesh_get_n_submeshes (a); i++)
    {
      guint nva, nvb, nta, ntb;
      const double *va = bl_mesh_get_submesh_vertices (a, i, &nva);
      const double *vb = bl_mesh_get_submesh_vertices (b, i, &nvb);
      const guint32 *ia = bl_mesh_get_submesh_indices (a, i, &nta);
      const guint32 *ib = bl_mesh_get_submesh_indices (b, i, &ntb);

      g_assert_cmpstr (bl_mesh_get_submesh_name (a, i), ==, bl_mesh_get_submesh_name (b, i));
      g_assert_cmpmem (va, 3 * sizeof (double) * nva, vb, 3 * sizeof (double) * nvb);
      g_assert_cmpmem (ia, 3 * sizeof (guint32) * nta, ib, 3 * sizeof (guint32) * ntb);
    }

  for (int hull = 0; hull < 2; hull++)
    {
      g_autoptr(GError) ea = NULL;
      g_autoptr(GError) eb = NULL;
      BlMeshProperties pa, pb;
      gboolean oka = bl_mesh_get_mass_properties (a, hull, &pa, &ea);
      gboolean okb = bl_mesh_get_mass_properties (b, hull, &pb, &eb);

      g_assert_cmpint (oka, ==, okb);
      if (oka)
        assert_same_props (&pa, &pb);
      else
        g_assert_cmpstr (ea->message, ==, eb->message);
    }
  for (guint i = 0; i < bl_mesh_get_n_submeshes (a); i++)
    {
      BlMeshProperties pa, pb;

      g_assert_true (bl_mesh_get_submesh_mass_properties (a, i, &pa));
      g_assert_true (bl_mesh_get_submesh_mass_properties (b, i, &pb));
      assert_same_props (&pa, &pb);
    }
}

GError *
bl_test_compare_paths (const char *path,
                       BlVec3      scale,
                       gboolean    native)
{
  GError *native_error = NULL;
  g_autoptr(GError) child_error = NULL;
  g_autoptr(BlMesh) a = NULL;
  g_autoptr(BlMesh) b = NULL;
  BlMeshTimings timings;

  bl_mesh_set_native_readers (TRUE);
  a = bl_mesh_new_from_file (path, scale, NULL, FALSE, &native_error);
  bl_mesh_get_timings (&timings);
  bl_mesh_set_native_readers (FALSE);
  b = bl_mesh_new_from_file (path, scale, NULL, FALSE, &child_error);
  bl_mesh_set_native_readers (TRUE);

  if (a == NULL || b == NULL)
    {
      g_assert_null (a);
      g_assert_null (b);
      g_test_message ("%s: in process: %s; assimp: %s", path, native_error->message, child_error->message);
      g_assert_cmpuint (native_error->domain, ==, child_error->domain);
      g_assert_cmpint (native_error->code, ==, child_error->code);
      g_assert_nonnull (strstr (native_error->message, path));
      g_assert_nonnull (strstr (child_error->message, path));
      return native_error;
    }

  g_assert_cmpint (timings.native, ==, native);
  bl_test_assert_same_meshes (a, b);
  return NULL;
}

void
bl_test_assert_same_and_remove (char     *path,
                                gboolean  native)
{
  GError *error = bl_test_compare_paths (path, bl_vec3 (1.0, 1.0, 1.0), native);

  g_assert_no_error (error);
  /* a mirroring, non-uniform scale: winding reversed the same way */
  error = bl_test_compare_paths (path, bl_vec3 (-1.5, 2.0, 0.5), native);
  g_assert_no_error (error);
  g_unlink (path);
  g_free (path);
}
