/* fuzz-mesh.c: libFuzzer target for mesh loading and integration.
 *
 * The first byte picks the file type assimp is told the data has; the rest
 * is written to a real file, as Ballast only loads meshes from disk.
 *
 * Selector 5 makes the rest a binary STL whatever it holds (its facet
 * count set from its length, a tail that is no whole facet cut off), so
 * that the in-process reader (bl-mesh-stl.c) sees inputs it takes; each is also
 * read through assimp in the child, and both must give the same mesh bit
 * for bit, or both an error.  Selector 3 (PLY) does the same for the
 * in-process PLY reader (bl-mesh-ply.c; the seeds' binary PLY files lead
 * there), except where it refuses a file that ends before its data: assimp
 * reads on into stale bytes of its buffer and may load garbage. */
#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bl-mesh.h"
#include "bl-mesh-private.h"
#include "compare-meshes.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static const char * const extensions[] = { "stl", "obj", "dae", "ply", "off", "stl" };
#define PLY        3
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

  if (selector == BINARY_STL || selector == PLY)
    {
      g_autoptr(GError) child_error = NULL;
      g_autoptr(BlMesh) child = NULL;
      gboolean cut_short = error != NULL && strstr (error->message, "the file is cut short") != NULL;

      bl_mesh_set_native_readers (FALSE);
      child = bl_mesh_new_from_file (path, bl_vec3 (1, -2, 0.5), NULL, FALSE, &child_error);
      bl_mesh_set_native_readers (TRUE);
      if (selector == PLY && cut_short)
        ;   /* refused in process; assimp's reading of it is its own */
      else if (mesh == NULL || child == NULL)
        g_assert (mesh == NULL && child == NULL &&
                  error->domain == child_error->domain && error->code == child_error->code);
      else
        bl_test_assert_same_meshes (mesh, child);
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
