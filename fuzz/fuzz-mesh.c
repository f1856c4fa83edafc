/* fuzz-mesh.c: libFuzzer target for mesh loading and integration.
 *
 * The first byte picks the file type assimp is told the data has; the rest
 * is written to a real file, as Ballast only loads meshes from disk.
 *
 * Selector 5 makes the rest a binary STL whatever it holds (its facet
 * count set from its length, a tail that is no whole facet cut off), so
 * that the in-process reader (bl-stl.c) sees inputs it takes; each is also
 * read through assimp in the child, and both must give the same mesh bit
 * for bit, or both an error. */
#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bl-mesh.h"
#include "bl-mesh-private.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static const char * const extensions[] = { "stl", "obj", "dae", "ply", "off", "stl" };
#define BINARY_STL 5

/* The input as a binary STL: 84 bytes at least, the count field at byte 80
 * saying how many whole 50-byte facets follow. */
static GBytes *
as_binary_stl (const guint8 *data,
               gsize         size)
{
  gsize count = size < 84 ? 0 : (size - 84) / 50;
  gsize length = 84 + 50 * count;
  guint8 *out = g_malloc0 (length);
  guint32 count_le = GUINT32_TO_LE ((guint32) count);

  memcpy (out, data, MIN (size, length));
  memcpy (out + 80, &count_le, 4);
  return g_bytes_new_take (out, length);
}

static gboolean
same_doubles (double a,
              double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* Both readers must agree on the mesh and on what it gives. */
static void
assert_same_mesh (BlMesh *a,
                  BlMesh *b)
{
  g_assert (bl_mesh_get_n_submeshes (a) == bl_mesh_get_n_submeshes (b));
  for (guint i = 0; i < bl_mesh_get_n_submeshes (a); i++)
    {
      guint nva, nvb, nta, ntb;
      const double *va = bl_mesh_get_submesh_vertices (a, i, &nva);
      const double *vb = bl_mesh_get_submesh_vertices (b, i, &nvb);
      const guint32 *ia = bl_mesh_get_submesh_indices (a, i, &nta);
      const guint32 *ib = bl_mesh_get_submesh_indices (b, i, &ntb);

      g_assert (g_strcmp0 (bl_mesh_get_submesh_name (a, i), bl_mesh_get_submesh_name (b, i)) == 0);
      g_assert (nva == nvb && memcmp (va, vb, 3 * sizeof (double) * nva) == 0);
      g_assert (nta == ntb && memcmp (ia, ib, 3 * sizeof (guint32) * nta) == 0);
    }

  for (int hull = 0; hull < 2; hull++)
    {
      g_autoptr(GError) ea = NULL;
      g_autoptr(GError) eb = NULL;
      BlMeshProperties pa, pb;
      gboolean oka = bl_mesh_get_mass_properties (a, hull, &pa, &ea);
      gboolean okb = bl_mesh_get_mass_properties (b, hull, &pb, &eb);

      g_assert (oka == okb);
      if (!oka)
        continue;
      g_assert (same_doubles (pa.volume, pb.volume) && same_doubles (pa.hole_volume, pb.hole_volume));
      g_assert (memcmp (&pa.inertia, &pb.inertia, sizeof pa.inertia) == 0);
      g_assert (pa.boundary_edges == pb.boundary_edges && pa.duplicate_triangles == pb.duplicate_triangles);
      g_assert (pa.warnings->len == pb.warnings->len);
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static char *dir;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint selector;
  BlMeshProperties props;

  if (size < 1)
    return 0;

  if (dir == NULL)
    dir = g_dir_make_tmp ("ballast-fuzz-mesh-XXXXXX", NULL);

  selector = data[0] % G_N_ELEMENTS (extensions);
  path = g_strdup_printf ("%s/input.%s", dir, extensions[selector]);
  if (selector == BINARY_STL)
    bytes = as_binary_stl (data + 1, size - 1);
  else
    bytes = g_bytes_new_static (data + 1, size - 1);
  g_assert (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));

  mesh = bl_mesh_new_from_file (path, bl_vec3 (1, -2, 0.5), NULL, FALSE, &error);

  if (selector == BINARY_STL)
    {
      g_autoptr(GError) child_error = NULL;
      g_autoptr(BlMesh) child = NULL;

      bl_mesh_set_native_stl (FALSE);
      child = bl_mesh_new_from_file (path, bl_vec3 (1, -2, 0.5), NULL, FALSE, &child_error);
      bl_mesh_set_native_stl (TRUE);
      g_assert ((mesh == NULL) == (child == NULL));
      if (mesh == NULL)
        g_assert (error->domain == child_error->domain && error->code == child_error->code);
      else
        assert_same_mesh (mesh, child);
    }

  g_unlink (path);
  if (mesh == NULL)
    {
      g_assert (error != NULL && error->message != NULL);
      return 0;
    }

  for (int hull = 0; hull < 2; hull++)
    {
      g_clear_error (&error);
      if (bl_mesh_get_mass_properties (mesh, hull, &props, &error))
        g_assert (isfinite (props.volume) && props.warnings != NULL);
      else
        g_assert (error != NULL);
    }

  return 0;
}
