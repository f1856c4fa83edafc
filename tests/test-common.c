/* test-common.c: helpers the core tests share. */
#include "config.h"

#include <math.h>

#include "bl-resource.h"
#include "test-common.h"

BlDocument *
load_fixture (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("BALLAST_FIXTURES"), name, NULL);
  BlDocument *doc = bl_document_new_from_file (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

BlLink *
link_of (BlDocument *doc,
         const char *name)
{
  BlLink *link = bl_document_find_link (doc, name);

  if (link == NULL)
    g_error ("no link %s", name);
  return link;
}

void
assert_close (double actual,
              double expected,
              double rel)
{
  double tol = rel * MAX (fabs (expected), 1.0);

  if (fabs (actual - expected) > tol)
    g_error ("expected %.17g, got %.17g (tolerance %.3g)", expected, actual, tol);
}

void
write_tree_file (const char *dir,
                 const char *name,
                 const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (parent, 0755);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

void
clear_model_path_variables (void)
{
  static const char * const variables[] = {
    "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "SDF_PATH", "GAZEBO_MODEL_PATH",
    "ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH", "GZ_FUEL_CACHE_PATH",
  };

  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_unsetenv (variables[i]);
  bl_resource_set_extra_paths (NULL);
}

gboolean
link_has_code (BlLink     *link,
               const char *code)
{
  for (guint i = 0; i < link->diagnostics->len; i++)
    {
      const BlDiagnostic *d = g_ptr_array_index (link->diagnostics, i);

      if (g_strcmp0 (d->code, code) == 0)
        return TRUE;
    }
  return FALSE;
}

void
assert_position (BlLink *link,
                 double  x,
                 double  y,
                 double  z)
{
  g_assert_cmpfloat (fabs (link->world_pose.p.x - x), <, 1e-12);
  g_assert_cmpfloat (fabs (link->world_pose.p.y - y), <, 1e-12);
  g_assert_cmpfloat (fabs (link->world_pose.p.z - z), <, 1e-12);
}
