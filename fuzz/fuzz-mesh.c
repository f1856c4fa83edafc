/* fuzz-mesh.c: libFuzzer target for mesh loading and integration.
 *
 * The first byte picks the file type assimp is told the data has; the rest
 * is written to a real file, as Ballast only loads meshes from disk. */
#include "config.h"

#include <math.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bl-mesh.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static const char * const extensions[] = { "stl", "obj", "dae", "ply", "off" };

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static char *dir;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties props;

  if (size < 1)
    return 0;

  if (dir == NULL)
    dir = g_dir_make_tmp ("ballast-fuzz-mesh-XXXXXX", NULL);

  path = g_strdup_printf ("%s/input.%s", dir, extensions[data[0] % G_N_ELEMENTS (extensions)]);
  g_assert (g_file_set_contents (path, (const char *) data + 1, size - 1, NULL));

  mesh = bl_mesh_new_from_file (path, bl_vec3 (1, -2, 0.5), NULL, FALSE, &error);
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
