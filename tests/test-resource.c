/* test-resource.c: resource URI resolution (relative, file://, model://, package://). */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "bl-resource.h"
#include "test-common.h"

static char *tmp_dir;

static char *
make_file (const char *relative)
{
  g_autofree char *path = g_build_filename (tmp_dir, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, "solid x\nendsolid x\n", -1, &error);
  g_assert_no_error (error);
  return g_canonicalize_filename (path, NULL);
}

static char *
resolve_ok (const char *uri,
            const char *base_dir)
{
  g_autoptr(GError) error = NULL;
  char *path = bl_resource_resolve_uri (uri, base_dir, &error);

  g_assert_no_error (error);
  g_assert_nonnull (path);
  g_assert_true (g_path_is_absolute (path));
  return path;
}

static void
test_relative_absolute_file (void)
{
  g_autofree char *want = make_file ("world/meshes/part.stl");
  g_autofree char *base = g_build_filename (tmp_dir, "world", NULL);
  g_autofree char *rel = resolve_ok ("meshes/part.stl", base);
  g_autofree char *dotted = resolve_ok ("./meshes/../meshes/part.stl", base);
  g_autofree char *abs = resolve_ok (want, base);
  g_autofree char *file_uri = g_filename_to_uri (want, NULL, NULL);
  g_autofree char *via_uri = resolve_ok (file_uri, base);
  g_autofree char *spaced_want = make_file ("world/meshes/with space.stl");
  g_autofree char *spaced_uri = g_filename_to_uri (spaced_want, NULL, NULL);
  g_autofree char *spaced = resolve_ok (spaced_uri, base);

  g_assert_cmpstr (rel, ==, want);
  g_assert_cmpstr (dotted, ==, want);
  g_assert_cmpstr (abs, ==, want);
  g_assert_cmpstr (via_uri, ==, want);
  g_assert_cmpstr (spaced, ==, spaced_want);
  g_assert_nonnull (strstr (spaced_uri, "%20"));
}

static void
test_search_path (void)
{
  g_autoptr(GPtrArray) path = NULL;

  clear_model_path_variables ();
  g_setenv ("GAZEBO_MODEL_PATH", "/d", TRUE);
  g_setenv ("SDF_PATH", "/c1:/c2", TRUE);
  g_setenv ("IGN_GAZEBO_RESOURCE_PATH", "", TRUE);
  g_setenv ("GZ_SIM_RESOURCE_PATH", "/a::/b", TRUE);

  path = bl_resource_model_search_path ();
  g_assert_cmpuint (path->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (path, 0), ==, "/a");
  g_assert_cmpstr (g_ptr_array_index (path, 1), ==, "/b");
  g_assert_cmpstr (g_ptr_array_index (path, 2), ==, "/c1");
  g_assert_cmpstr (g_ptr_array_index (path, 3), ==, "/c2");
  g_assert_cmpstr (g_ptr_array_index (path, 4), ==, "/d");
  clear_model_path_variables ();
}

static void
test_model_uri (void)
{
  g_autofree char *want = make_file ("models/boat/meshes/hull.dae");
  g_autofree char *models = g_build_filename (tmp_dir, "models", NULL);
  g_autofree char *search = g_strdup_printf ("/nonexistent-ballast:%s", models);
  g_autofree char *got = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *near = NULL;
  g_autofree char *sibling_base = g_build_filename (tmp_dir, "models", "harbour", NULL);
  g_autoptr(GError) error = NULL;

  clear_model_path_variables ();

  /* not on the search path and no base dir: an error naming the model */
  g_assert_null (bl_resource_resolve_uri ("model://boat/meshes/hull.dae", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "model://boat/meshes/hull.dae"));
  g_assert_nonnull (strstr (error->message, "GZ_SIM_RESOURCE_PATH"));
  g_clear_error (&error);

  g_setenv ("GZ_SIM_RESOURCE_PATH", search, TRUE);
  got = resolve_ok ("model://boat/meshes/hull.dae", NULL);
  g_assert_cmpstr (got, ==, want);

  dir = bl_resource_find_model ("boat", NULL);
  g_assert_nonnull (dir);
  g_assert_true (g_str_has_suffix (dir, "/models/boat"));
  g_assert_null (bl_resource_find_model ("no_such_model", NULL));

  /* the model exists but the file does not: names the URI and the path tried */
  g_assert_null (bl_resource_resolve_uri ("model://boat/meshes/missing.dae", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "model://boat/meshes/missing.dae"));
  g_assert_nonnull (strstr (error->message, "missing.dae"));
  g_clear_error (&error);

  /* found next to the including file (its parent folder) without the path */
  clear_model_path_variables ();
  g_assert_cmpint (g_mkdir_with_parents (sibling_base, 0755), ==, 0);
  near = resolve_ok ("model://boat/meshes/hull.dae", sibling_base);
  g_assert_cmpstr (near, ==, want);
}

static void
test_package_uri (void)
{
  g_autofree char *ros_want = make_file ("ros/src/my_robot/meshes/base.stl");
  g_autofree char *ament_want = make_file ("install/share/other_robot/meshes/arm.stl");
  g_autofree char *ros = g_build_filename (tmp_dir, "ros", "src", NULL);
  g_autofree char *ament = g_build_filename (tmp_dir, "install", NULL);
  g_autofree char *ros_path = g_strdup_printf ("/nonexistent-ballast:%s", ros);
  g_autofree char *pkg_itself = g_build_filename (tmp_dir, "ros", "src", "my_robot", NULL);
  g_autofree char *got = NULL;
  g_autofree char *got2 = NULL;
  g_autofree char *got3 = NULL;
  g_autoptr(GError) error = NULL;

  clear_model_path_variables ();
  g_assert_null (bl_resource_resolve_uri ("package://my_robot/meshes/base.stl", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "package://my_robot/meshes/base.stl"));
  g_assert_nonnull (strstr (error->message, "ROS_PACKAGE_PATH"));
  g_clear_error (&error);

  g_setenv ("ROS_PACKAGE_PATH", ros_path, TRUE);
  g_setenv ("AMENT_PREFIX_PATH", ament, TRUE);
  got = resolve_ok ("package://my_robot/meshes/base.stl", NULL);
  g_assert_cmpstr (got, ==, ros_want);
  got2 = resolve_ok ("package://other_robot/meshes/arm.stl", NULL);
  g_assert_cmpstr (got2, ==, ament_want);

  /* an entry may be the package folder itself */
  g_setenv ("ROS_PACKAGE_PATH", pkg_itself, TRUE);
  got3 = resolve_ok ("package://my_robot/meshes/base.stl", NULL);
  g_assert_cmpstr (got3, ==, ros_want);

  g_assert_null (bl_resource_resolve_uri ("package://my_robot/meshes/nope.stl", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "nope.stl"));
  clear_model_path_variables ();
}

static void
test_offline_and_errors (void)
{
  const char *uri = "https://example.com/models/boat/hull.dae";
  g_autoptr(GError) error = NULL;

  /* a web address that is not a Fuel model's */
  g_assert_null (bl_resource_resolve_uri (uri, NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OFFLINE);
  g_assert_nonnull (strstr (error->message, "not available offline"));
  g_assert_nonnull (strstr (error->message, uri));
  g_clear_error (&error);

  g_assert_null (bl_resource_resolve_uri ("http://example.com/a.stl", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OFFLINE);
  g_clear_error (&error);

  g_assert_null (bl_resource_resolve_uri ("meshes/absent.stl", tmp_dir, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "meshes/absent.stl"));
  g_assert_nonnull (strstr (error->message, tmp_dir));
  g_clear_error (&error);

  g_assert_null (bl_resource_resolve_uri ("", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_INVALID_URI);
  g_clear_error (&error);

  g_assert_null (bl_resource_resolve_uri ("model://", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_INVALID_URI);
  g_clear_error (&error);

  g_assert_null (bl_resource_resolve_uri ("ftp://example.com/a.stl", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_UNSUPPORTED_SCHEME);
  g_clear_error (&error);

  /* a folder is not a mesh */
  g_assert_null (bl_resource_resolve_uri (tmp_dir, NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
}

static gboolean
searched_has (GPtrArray  *searched,
              const char *folder)
{
  for (guint i = 0; i < searched->len; i++)
    {
      if (strcmp (g_ptr_array_index (searched, i), folder) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
test_extra_paths (void)
{
  const char * const two[] = { "/extra/one", "", "/extra/two", NULL };
  g_autoptr(GPtrArray) path = NULL;
  g_auto(GStrv) copy = NULL;

  clear_model_path_variables ();
  bl_resource_set_extra_paths (two);
  g_assert_false (bl_resource_add_extra_path ("/extra/two"));
  g_assert_true (bl_resource_add_extra_path ("/extra/three"));
  copy = bl_resource_dup_extra_paths ();
  g_assert_cmpuint (g_strv_length (copy), ==, 3);
  g_assert_cmpstr (copy[2], ==, "/extra/three");
  /* removed from the middle, the order kept; once only */
  g_assert_true (bl_resource_remove_extra_path ("/extra/two"));
  g_assert_false (bl_resource_remove_extra_path ("/extra/two"));
  g_clear_pointer (&copy, g_strfreev);
  copy = bl_resource_dup_extra_paths ();
  g_assert_cmpuint (g_strv_length (copy), ==, 2);
  g_assert_cmpstr (copy[0], ==, "/extra/one");
  g_assert_cmpstr (copy[1], ==, "/extra/three");
  bl_resource_set_extra_paths (two);
  bl_resource_add_extra_path ("/extra/three");

  /* after the environment's, each folder once */
  g_setenv ("SDF_PATH", "/env:/extra/one", TRUE);
  path = bl_resource_model_search_path ();
  g_assert_cmpuint (path->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (path, 0), ==, "/env");
  g_assert_cmpstr (g_ptr_array_index (path, 1), ==, "/extra/one");
  g_assert_cmpstr (g_ptr_array_index (path, 2), ==, "/extra/two");
  g_assert_cmpstr (g_ptr_array_index (path, 3), ==, "/extra/three");

  bl_resource_set_extra_paths (NULL);
  g_clear_pointer (&copy, g_strfreev);
  copy = bl_resource_dup_extra_paths ();
  g_assert_cmpuint (g_strv_length (copy), ==, 0);
  clear_model_path_variables ();
}

/* <uri>tethys</uri>: libsdformat's findFile tries the name under each
 * SDF_PATH entry, which gz-sim extends with GZ_SIM_RESOURCE_PATH. */
static void
test_bare_include (void)
{
  g_autofree char *config = make_file ("lrauv/models/tethys/model.config");
  g_autofree char *file = make_file ("lrauv/models/tethys/model.sdf");
  g_autofree char *models = g_build_filename (tmp_dir, "lrauv", "models", NULL);
  g_autofree char *want = g_build_filename (models, "tethys", NULL);
  g_autofree char *world_dir = g_build_filename (tmp_dir, "lrauv", "worlds", NULL);
  g_autofree char *elsewhere = g_build_filename (tmp_dir, "elsewhere", NULL);
  g_autoptr(GPtrArray) searched = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  char *got;

  clear_model_path_variables ();
  g_assert_cmpint (g_mkdir_with_parents (world_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (elsewhere, 0755), ==, 0);

  /* not beside the world, no path set: every folder searched is listed */
  g_setenv ("GZ_SIM_RESOURCE_PATH", elsewhere, TRUE);
  g_assert_null (bl_resource_resolve_include ("tethys", world_dir, searched, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "“tethys”"));
  g_assert_nonnull (strstr (error->message, "GZ_SIM_RESOURCE_PATH"));
  g_assert_nonnull (strstr (error->message, "--model-path"));
  g_assert_nonnull (strstr (error->message, elsewhere));
  g_assert_true (searched_has (searched, world_dir));
  g_assert_true (searched_has (searched, elsewhere));
  g_clear_error (&error);

  /* through each variable, and through the user's extra paths */
  g_setenv ("SDF_PATH", models, TRUE);
  got = bl_resource_resolve_include ("tethys", world_dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, want);
  g_free (got);
  clear_model_path_variables ();

  g_setenv ("GZ_SIM_RESOURCE_PATH", models, TRUE);
  got = bl_resource_resolve_include ("tethys/model.sdf", world_dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, file);
  g_free (got);
  clear_model_path_variables ();

  bl_resource_add_extra_path (models);
  got = bl_resource_resolve_include ("  tethys ", world_dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, want);
  g_free (got);
  got = bl_resource_resolve_include ("model://tethys", world_dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, want);
  g_free (got);
  bl_resource_set_extra_paths (NULL);

  /* beside the including file first; a folder beside the world's own is
   * outside its folder (docs/HARDENING.md) until it is a model path */
  got = bl_resource_resolve_include ("../models/tethys", world_dir, NULL, &error);
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OUTSIDE);
  g_assert_null (got);
  g_clear_error (&error);
  bl_resource_add_extra_path (models);
  got = bl_resource_resolve_include ("../models/tethys", world_dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, want);
  g_free (got);
  bl_resource_set_extra_paths (NULL);
  (void) config;
}

/* gz-common resolves file://hardhat_ribbed/meshes/x.dae through its file
 * paths, which gz-sim extends with GZ_SIM_RESOURCE_PATH. */
static void
test_relative_file_uri (void)
{
  g_autofree char *want = make_file ("dave/models/hardhat_ribbed/meshes/hat.dae");
  g_autofree char *beside = make_file ("dave/worlds/hardhat_ribbed/meshes/hat.dae");
  g_autofree char *models = g_build_filename (tmp_dir, "dave", "models", NULL);
  g_autofree char *worlds = g_build_filename (tmp_dir, "dave", "worlds", NULL);
  g_autofree char *other = g_build_filename (tmp_dir, "dave", "other", NULL);
  g_autoptr(GError) error = NULL;
  char *got;

  clear_model_path_variables ();
  g_assert_cmpint (g_mkdir_with_parents (other, 0755), ==, 0);
  g_assert_null (bl_resource_resolve_uri ("file://hardhat_ribbed/meshes/hat.dae", other, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_setenv ("GZ_SIM_RESOURCE_PATH", models, TRUE);
  got = bl_resource_resolve_uri ("file://hardhat_ribbed/meshes/hat.dae", other, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, want);
  g_free (got);

  /* beside the file wins */
  got = bl_resource_resolve_uri ("file://hardhat_ribbed/meshes/hat.dae", worlds, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, beside);
  g_free (got);

  /* a plain relative path stays relative to the file, as gz-sim's asFullPath */
  g_assert_null (bl_resource_resolve_uri ("hardhat_ribbed/meshes/hat.dae", other, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  clear_model_path_variables ();
}

/* gz-fuel-tools' cache: CACHE/SERVER/owner/models/name/VERSION, owner and
 * name lowercased; no version (or "tip") means the highest number. */
static void
test_fuel_cache (void)
{
  g_autofree char *cache = g_build_filename (tmp_dir, "fuel", NULL);
  g_autofree char *v2 = make_file ("fuel/fuel.gazebosim.org/openrobotics/models/construction cone/2/model.config");
  g_autofree char *v10 = make_file ("fuel/fuel.gazebosim.org/openrobotics/models/construction cone/10/model.config");
  g_autofree char *mesh = make_file ("fuel/fuel.gazebosim.org/openrobotics/models/construction cone/2/meshes/cone.dae");
  g_autofree char *dir2 = g_path_get_dirname (v2);
  g_autofree char *dir10 = g_path_get_dirname (v10);
  g_autofree char *missing = g_build_filename (cache, "fuel.gazebosim.org", "openrobotics", "models", "sun", NULL);
  g_autoptr(GPtrArray) searched = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  char *got;

  clear_model_path_variables ();
  g_setenv ("GZ_FUEL_CACHE_PATH", cache, TRUE);

  got = bl_resource_resolve_include ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/Construction Cone",
                                     NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, dir10);    /* 10 > 2, not as text */
  g_free (got);
  got = bl_resource_resolve_include ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/Construction%20Cone/tip/",
                                     NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, dir10);
  g_free (got);
  got = bl_resource_resolve_include ("https://fuel.gazebosim.org/openrobotics/models/construction cone/2",
                                     NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, dir2);
  g_free (got);
  got = bl_resource_resolve_uri ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/Construction Cone/2/"
                                 "files/meshes/cone.dae", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (got, ==, mesh);
  g_free (got);

  /* absent: says what is missing and where it looked */
  g_assert_null (bl_resource_resolve_include ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/Sun",
                                              NULL, searched, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "not in the local Fuel cache"));
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_nonnull (strstr (error->message, "GZ_FUEL_CACHE_PATH"));
  g_assert_true (searched_has (searched, missing));
  g_clear_error (&error);

  g_assert_null (bl_resource_resolve_include ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/Construction Cone/3",
                                              NULL, NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "version 3"));
  g_clear_error (&error);

  /* a URL that would climb out of the cache is no Fuel URL */
  g_assert_null (bl_resource_resolve_uri ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/"
                                          "Construction Cone/2/files/../../2/meshes/cone.dae", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OFFLINE);
  g_clear_error (&error);
  g_assert_null (bl_resource_resolve_uri ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/"
                                          "Construction Cone/2/files/%2e%2e/2/meshes/cone.dae", NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OFFLINE);
  g_clear_error (&error);
  g_assert_null (bl_resource_resolve_include ("https://fuel.gazebosim.org/1.0/OpenRobotics/models/%2E%2E",
                                              NULL, NULL, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OFFLINE);
  g_clear_error (&error);

  /* the default cache is ~/.gz/fuel */
  g_unsetenv ("GZ_FUEL_CACHE_PATH");
  got = bl_resource_fuel_cache_dir ();
  g_assert_true (g_str_has_prefix (got, g_get_home_dir ()));
  g_assert_true (g_str_has_suffix (got, "/.gz/fuel"));
  g_free (got);
}

/* The name a window asks the user to find a folder for. */
static void
test_include_name (void)
{
  static const struct { const char *uri, *name; } cases[] = {
    { "tethys", "tethys" },
    { " tethys_equipped ", "tethys_equipped" },
    { "tethys/model.sdf", "tethys" },
    { "model://sun", "sun" },
    { "model://boat/meshes/hull.dae", "boat" },
    { "file://hardhat_ribbed", "hardhat_ribbed" },
    { "../models/tethys", "tethys" },
    { "/opt/models/dock/model.sdf", "model.sdf" },
    { "https://fuel.gazebosim.org/1.0/OpenRobotics/models/Construction%20Cone/2", "construction cone" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = bl_resource_dup_include_name (cases[i].uri);

      g_assert_cmpstr (name, ==, cases[i].name);
    }
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    {
      g_unlink (path);
    }
}

/* What the assimp child asks before opening a file a mesh names (an
 * OBJ's mtllib, a glTF's buffer): under the mesh's folder or a resource
 * path, links followed; the user's opt-out lets anything through. */
static void
test_check_place (void)
{
  g_autofree char *mtl = make_file ("place/meshes/hull.mtl");
  g_autofree char *deeper = make_file ("place/meshes/textures/hull.mtl");
  g_autofree char *sibling = make_file ("place/other/hull.mtl");
  g_autofree char *mesh_dir = g_build_filename (tmp_dir, "place", "meshes", NULL);
  g_autofree char *link = g_build_filename (mesh_dir, "escape.mtl", NULL);
  g_autofree char *place = g_build_filename (tmp_dir, "place", NULL);
  g_autofree char *other = g_build_filename (tmp_dir, "place", "other", NULL);
  g_autofree char *other_real = realpath (other, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (symlink ("/etc/passwd", link), ==, 0);
  g_assert_true (bl_resource_check_place (NULL, mtl, mesh_dir, &error));
  g_assert_true (bl_resource_check_place (NULL, deeper, mesh_dir, &error));
  g_assert_no_error (error);

  g_assert_false (bl_resource_check_place (NULL, "/etc/passwd", mesh_dir, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OUTSIDE);
  g_clear_error (&error);
  g_assert_false (bl_resource_check_place (NULL, sibling, mesh_dir, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OUTSIDE);
  /* what to allow: the folder that holds it, as the refusal names it */
  g_assert_cmpstr (bl_resource_error_get_folder (error), ==, other_real);
  g_clear_error (&error);
  g_assert_false (bl_resource_check_place (NULL, link, mesh_dir, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OUTSIDE);
  g_assert_nonnull (strstr (error->message, "which leads to /etc/passwd"));
  /* links followed: the folder the file is in, not the link's */
  g_assert_cmpstr (bl_resource_error_get_folder (error), ==, "/etc");
  g_clear_error (&error);
  /* a file of the kernel: refused as such, nothing to allow */
  g_assert_false (bl_resource_check_place (NULL, "/proc/self/status", mesh_dir, &error));
  g_assert_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_SPECIAL);
  g_assert_null (bl_resource_error_get_folder (error));
  g_assert_null (strstr (error->message, "model paths"));
  g_clear_error (&error);

  /* a model path makes the sibling a resource */
  bl_resource_add_extra_path (place);
  g_assert_true (bl_resource_check_place (NULL, sibling, mesh_dir, &error));
  bl_resource_set_extra_paths (NULL);
  g_assert_no_error (error);

  bl_resource_set_allow_outside (TRUE);
  g_assert_true (bl_resource_check_place (NULL, link, mesh_dir, &error));
  bl_resource_set_allow_outside (FALSE);
  g_assert_no_error (error);
  g_unlink (link);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("ballast-test-resource-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/core/resource/relative-absolute-file", test_relative_absolute_file);
  g_test_add_func ("/core/resource/search-path", test_search_path);
  g_test_add_func ("/core/resource/model", test_model_uri);
  g_test_add_func ("/core/resource/package", test_package_uri);
  g_test_add_func ("/core/resource/offline-and-errors", test_offline_and_errors);
  g_test_add_func ("/core/resource/extra-paths", test_extra_paths);
  g_test_add_func ("/core/resource/bare-include", test_bare_include);
  g_test_add_func ("/core/resource/relative-file-uri", test_relative_file_uri);
  g_test_add_func ("/core/resource/fuel-cache", test_fuel_cache);
  g_test_add_func ("/core/resource/include-name", test_include_name);
  g_test_add_func ("/core/resource/check-place", test_check_place);

  ret = g_test_run ();

  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
