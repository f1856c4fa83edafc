/* test-include.c: <include> as libsdformat 15 and gz-sim read it: bare
 * names through the model path, merge="true", lights, and what a failed
 * include tells the user. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-document.h"
#include "bl-fluid.h"
#include "bl-resource.h"
#include "test-common.h"

#define SDF_HEAD "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n"

#define INERTIAL "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>"

static guint
count_errors (BlDocument *doc)
{
  g_autoptr(GPtrArray) all = bl_document_collect_diagnostics (doc);
  guint n = 0;

  for (guint i = 0; i < all->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (all, i);

      if (d->severity == BL_SEVERITY_ERROR)
        {
          g_test_message ("%s:%d: %s", d->file, d->line, d->message);
          n++;
        }
    }
  return n;
}

static void
assert_position (BlLink *link,
                 double  x,
                 double  y,
                 double  z)
{
  g_assert_cmpfloat (fabs (link->world_pose.p.x - x), <, 1e-12);
  g_assert_cmpfloat (fabs (link->world_pose.p.y - y), <, 1e-12);
  g_assert_cmpfloat (fabs (link->world_pose.p.z - z), <, 1e-12);
}

/* The layout of osrf/lrauv: worlds/ and models/ side by side; a world
 * includes <uri>tethys_equipped</uri>, which merge-includes <uri>tethys</uri>. */
static char *
write_lrauv_tree (void)
{
  char *dir = g_dir_make_tmp ("ballast-lrauv-XXXXXX", NULL);

  write_tree_file (dir, "models/tethys/model.config",
              "<?xml version=\"1.0\"?><model><name>tethys</name>"
              "<sdf version=\"1.9\">model.sdf</sdf></model>");
  write_tree_file (dir, "models/tethys/model.sdf", SDF_HEAD
              "<model name=\"tethys\">\n"
              "<link name=\"base_link\"><pose>1 0 0 0 0 0</pose>" INERTIAL "</link>\n"
              "<link name=\"propeller\"><pose relative_to=\"base_link\">0 0 1 0 0 0</pose>" INERTIAL "</link>\n"
              "<frame name=\"nose\" attached_to=\"__model__\"><pose>3 0 0 0 0 0</pose></frame>\n"
              "<link name=\"sensor\"><pose relative_to=\"nose\">0 1 0 0 0 0</pose>" INERTIAL "</link>\n"
              "<frame name=\"tail\"><pose relative_to=\"__model__\">-2 0 0 0 0 0</pose></frame>\n"
              "<link name=\"fin\"><pose relative_to=\"tail\">0 0 0 0 0 0</pose>" INERTIAL "</link>\n"
              "<plugin filename=\"gz-sim-hydrodynamics-system\" name=\"gz::sim::systems::Hydrodynamics\">"
              "<link_name>base_link</link_name><xDotU>-4.876161</xDotU></plugin>\n"
              "</model></sdf>");
  write_tree_file (dir, "models/tethys_equipped/model.config",
              "<?xml version=\"1.0\"?><model><name>tethys_equipped</name>"
              "<sdf version=\"1.9\">model.sdf</sdf></model>");
  write_tree_file (dir, "models/tethys_equipped/model.sdf", SDF_HEAD
              "<model name=\"tethys\">\n"
              "<include merge=\"true\"><pose>0 0 0 0 0 1.5707963267948966</pose><uri>tethys</uri></include>\n"
              "<link name=\"battery\"><pose relative_to=\"base_link\">0 0 -1 0 0 0</pose>" INERTIAL "</link>\n"
              "</model></sdf>");
  write_tree_file (dir, "worlds/buoyant_tethys.sdf", SDF_HEAD
              "<world name=\"w\">\n"
              "<include><uri>tethys_equipped</uri><name>my_lrauv</name><pose>10 0 0 0 0 0</pose></include>\n"
              "</world></sdf>");
  return dir;
}

/* Bare names are found through SDF_PATH or GZ_SIM_RESOURCE_PATH as
 * libsdformat's findFile and gz-sim find them; without either, the failure
 * says where it looked. */
static void
test_bare_name (void)
{
  g_autofree char *dir = write_lrauv_tree ();
  g_autofree char *world = g_build_filename (dir, "worlds", "buoyant_tethys.sdf", NULL);
  g_autofree char *models = g_build_filename (dir, "models", NULL);
  const char *variables[] = { "SDF_PATH", "GZ_SIM_RESOURCE_PATH" };

  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlDocument) doc = NULL;

      clear_model_path_variables ();
      g_setenv (variables[i], models, TRUE);
      doc = bl_document_new_from_file (world, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (count_errors (doc), ==, 0);
      g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 5);
      g_assert_cmpuint (bl_document_get_include_failures (doc)->len, ==, 0);
    }
  clear_model_path_variables ();
}

/* libsdformat 15's merge-include: the included model's children join the
 * parent model under their own names, placed through the proxy frame
 * _merged__tethys__model__ (the include's pose in the parent's frame). */
static void
test_merge (void)
{
  g_autofree char *dir = write_lrauv_tree ();
  g_autofree char *world = g_build_filename (dir, "worlds", "buoyant_tethys.sdf", NULL);
  g_autofree char *models = g_build_filename (dir, "models", NULL);
  g_autofree char *tethys_sdf = g_build_filename (models, "tethys", "model.sdf", NULL);
  const BlDocumentLoadFlags loads[] = { BL_DOCUMENT_LOAD_DEFAULT, BL_DOCUMENT_LOAD_READ_ONLY };

  for (guint i = 0; i < G_N_ELEMENTS (loads); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlDocument) doc = NULL;
      BlModel *model;
      BlLink *base;

      clear_model_path_variables ();
      g_setenv ("GZ_SIM_RESOURCE_PATH", models, TRUE);
      doc = bl_document_new_from_file_full (world, loads[i], &error);
      clear_model_path_variables ();
      g_assert_no_error (error);
      g_assert_cmpuint (count_errors (doc), ==, 0);

      g_assert_null (bl_document_find_link (doc, "my_lrauv::tethys::base_link"));
      base = link_of (doc, "my_lrauv::base_link");
      model = g_ptr_array_index (bl_document_get_models (doc), 0);
      g_assert_cmpuint (bl_document_get_models (doc)->len, ==, 1);
      g_assert_cmpstr (model->scoped_name, ==, "my_lrauv");
      g_assert_cmpuint (model->models->len, ==, 0);
      g_assert_true (base->model == model);
      g_assert_cmpstr (base->file, ==, tethys_sdf);
      g_assert_cmpuint (model->links->len, ==, 5);
      g_assert_cmpfloat (fabs (base->props.mass - 1), <, 1e-15);

      /* world ← my_lrauv (10 0 0) ← proxy (yaw 90°) ← base_link (1 0 0) */
      assert_position (base, 10, 1, 0);
      /* relative_to another merged link */
      assert_position (link_of (doc, "my_lrauv::propeller"), 10, 1, 1);
      /* a frame attached to __model__ (the proxy): nose at (0 3 0), then
       * (0 1 0) in the nose's yawed axes is (−1 0 0) */
      assert_position (link_of (doc, "my_lrauv::sensor"), 9, 3, 0);
      /* a frame without attached_to, pose relative_to __model__ */
      assert_position (link_of (doc, "my_lrauv::fin"), 10, -2, 0);
      /* the parent model's own link placed relative_to a merged one */
      assert_position (link_of (doc, "my_lrauv::battery"), 10, 1, -1);

      /* the merged model's plugins are the including model's */
      {
        g_autoptr(GPtrArray) imports = bl_fluid_find_added_mass_imports (doc);
        BlAddedMassImport *import;

        g_assert_cmpuint (imports->len, ==, 1);
        import = g_ptr_array_index (imports, 0);
        g_assert_true (import->link == base);
        g_assert_cmpstr (import->file, ==, tethys_sdf);
        g_assert_true (import->has_values);
        g_assert_cmpfloat (import->values[0], ==, 4.876161);  /* −xDotU */
      }
    }
}

/* Without an <include><pose>, the proxy frame takes the included model's
 * own <pose>; a second merge of the same model is a name clash. */
static void
test_merge_model_pose (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-merge-XXXXXX", NULL);
  g_autofree char *main_path = g_build_filename (dir, "robot.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;

  write_tree_file (dir, "arm.sdf", SDF_HEAD
              "<model name=\"arm\"><pose>0 0 5 0 0 0</pose>"
              "<link name=\"upper\"><pose>1 0 0 0 0 0</pose>" INERTIAL "</link></model></sdf>");
  write_tree_file (dir, "robot.sdf", SDF_HEAD
              "<model name=\"robot\"><pose>0 2 0 0 0 0</pose>\n"
              "<link name=\"chassis\">" INERTIAL "</link>\n"
              "<include merge=\"true\"><uri>arm.sdf</uri></include>\n"
              "</model></sdf>");

  clear_model_path_variables ();
  doc = bl_document_new_from_file (main_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  assert_position (link_of (doc, "robot::upper"), 1, 2, 5);
  assert_position (link_of (doc, "robot::chassis"), 0, 2, 0);
}

/* Merged into a world, the included model's models become the world's,
 * placed by the include's pose; its links cannot be (an error each). */
static void
test_merge_into_world (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-merge-world-XXXXXX", NULL);
  g_autofree char *main_path = g_build_filename (dir, "world.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;

  write_tree_file (dir, "boat.sdf", SDF_HEAD
                   "<model name=\"boat\"><link name=\"hull\">" INERTIAL "</link></model></sdf>");
  write_tree_file (dir, "fleet.sdf", SDF_HEAD
                   "<model name=\"fleet\">\n"
                   "<model name=\"a\"><pose>1 0 0 0 0 0</pose><link name=\"l\">" INERTIAL "</link></model>\n"
                   "<include><uri>boat.sdf</uri><name>b</name><pose>0 1 0 0 0 0</pose></include>\n"
                   "<link name=\"stray\">" INERTIAL "</link>\n"
                   "</model></sdf>");
  write_tree_file (dir, "world.sdf", SDF_HEAD
                   "<world name=\"w\">\n"
                   "<include merge=\"true\"><uri>fleet.sdf</uri><pose>0 0 10 0 0 0</pose></include>\n"
                   "</world></sdf>");

  clear_model_path_variables ();
  doc = bl_document_new_from_file (main_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 1);
  g_assert_cmpuint (bl_document_get_models (doc)->len, ==, 2);
  g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 2);
  assert_position (link_of (doc, "a::l"), 1, 0, 10);
  assert_position (link_of (doc, "b::hull"), 0, 1, 10);
  g_assert_null (bl_document_find_link (doc, "fleet::a::l"));
}

/* A Fuel model gz-sim downloaded: read from the cache, newest version;
 * its meshes as gz-fuel-tools rewrote their model:// URIs (Fuel file
 * URLs of that version). */
static void
test_fuel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-fuel-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (dir, "fuel", NULL);
  g_autofree char *main_path = g_build_filename (dir, "world.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  BlLink *link;
  /* a unit right tetrahedron, ASCII STL: volume 1/6 */
  static const char tetrahedron[] =
    "solid t\n"
    "facet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 1 0 0\nendloop\nendfacet\n"
    "facet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0 1\nendloop\nendfacet\n"
    "facet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 1\nvertex 0 1 0\nendloop\nendfacet\n"
    "facet normal 1 1 1\nouter loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\n"
    "endsolid t\n";

  write_tree_file (cache, "fuel.gazebosim.org/openrobotics/models/buoy/1/model.sdf", SDF_HEAD
                   "<model name=\"old_buoy\"><link name=\"l\">" INERTIAL "</link></model></sdf>");
  write_tree_file (cache, "fuel.gazebosim.org/openrobotics/models/buoy/2/model.config",
                   "<?xml version=\"1.0\"?><model><name>Buoy</name><sdf version=\"1.9\">model.sdf</sdf></model>");
  write_tree_file (cache, "fuel.gazebosim.org/openrobotics/models/buoy/2/model.sdf", SDF_HEAD
                   "<model name=\"buoy\"><link name=\"float\"><inertial auto=\"true\"><density>600</density></inertial>"
                   "<collision name=\"c\"><geometry><mesh><uri>"
                   "https://fuel.gazebosim.org/1.0/openrobotics/models/buoy/2/files/meshes/t.stl"
                   "</uri></mesh></geometry></collision></link></model></sdf>");
  write_tree_file (cache, "fuel.gazebosim.org/openrobotics/models/buoy/2/meshes/t.stl", tetrahedron);
  write_tree_file (dir, "world.sdf", SDF_HEAD
                   "<world name=\"w\">\n"
                   "<include><uri>https://fuel.gazebosim.org/1.0/OpenRobotics/models/Buoy</uri></include>\n"
                   "</world></sdf>");

  clear_model_path_variables ();
  g_setenv ("GZ_FUEL_CACHE_PATH", cache, TRUE);
  doc = bl_document_new_from_file (main_path, &error);
  clear_model_path_variables ();
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  link = link_of (doc, "buoy::float");
  assert_close (link->props.mass, 600.0 / 6.0, 1e-12);

  /* not cached: what is missing, and where it was looked for */
  {
    g_autoptr(BlDocument) missing = NULL;
    g_autofree char *folder = g_build_filename (cache, "fuel.gazebosim.org", "openrobotics", "models",
                                                "sun", NULL);
    BlIncludeFailure *failure;

    write_tree_file (dir, "sunny.sdf", SDF_HEAD
                     "<world name=\"w\">\n"
                     "<include><uri>https://fuel.gazebosim.org/1.0/OpenRobotics/models/Sun</uri></include>\n"
                     "<include><uri>model.sdf</uri></include>\n"
                     "</world></sdf>");
    write_tree_file (dir, "model.sdf", "<?xml version=\"1.0\"?><robot name=\"urdf\"/>");
    g_free (main_path);
    main_path = g_build_filename (dir, "sunny.sdf", NULL);
    g_setenv ("GZ_FUEL_CACHE_PATH", cache, TRUE);
    missing = bl_document_new_from_file (main_path, &error);
    clear_model_path_variables ();
    g_assert_no_error (error);
    g_assert_cmpuint (bl_document_get_include_failures (missing)->len, ==, 2);

    failure = g_ptr_array_index (bl_document_get_include_failures (missing), 0);
    g_assert_cmpint (failure->problem, ==, BL_INCLUDE_NOT_IN_FUEL_CACHE);
    g_assert_cmpstr (failure->name, ==, "sun");
    g_assert_cmpint (failure->line, ==, 4);
    g_assert_true (g_strv_contains ((const char * const *) failure->searched, folder));
    g_assert_nonnull (strstr (failure->message, "gz fuel download"));

    /* found, but not an SDF model: the file needs fixing, not the path */
    failure = g_ptr_array_index (bl_document_get_include_failures (missing), 1);
    g_assert_cmpint (failure->problem, ==, BL_INCLUDE_UNUSABLE);
    g_assert_null (failure->name);
    g_assert_cmpuint (g_strv_length (failure->searched), ==, 0);
  }
}

/* <include><plugin> is the included model's, as libsdformat moves it
 * there: added-mass import finds it, for the included model's link. */
static void
test_include_plugin (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-include-plugin-XXXXXX", NULL);
  g_autofree char *main_path = g_build_filename (dir, "world.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  BlAddedMassImport *import;

  write_tree_file (dir, "boat.sdf", SDF_HEAD
                   "<model name=\"boat\"><link name=\"hull\">" INERTIAL "</link></model></sdf>");
  write_tree_file (dir, "world.sdf", SDF_HEAD
                   "<world name=\"w\">\n"
                   "<include><uri>boat.sdf</uri><name>b</name>\n"
                   "<plugin filename=\"gz-sim-hydrodynamics-system\" name=\"gz::sim::systems::Hydrodynamics\">"
                   "<link_name>hull</link_name><yDotV>-3</yDotV></plugin>\n"
                   "</include>\n"
                   "</world></sdf>");

  clear_model_path_variables ();
  doc = bl_document_new_from_file (main_path, &error);
  g_assert_no_error (error);
  imports = bl_fluid_find_added_mass_imports (doc);
  g_assert_cmpuint (imports->len, ==, 1);
  import = g_ptr_array_index (imports, 0);
  g_assert_true (import->link == link_of (doc, "b::hull"));
  g_assert_cmpstr (import->file, ==, main_path);
  g_assert_cmpint (import->line, >=, 4);
  g_assert_cmpfloat (import->values[6], ==, 3);  /* yy = −yDotV */
}

/* model://sun: a model folder whose SDF holds only a <light>. libsdformat
 * includes it; it has no mass, so it adds nothing and is no error. Merging
 * it is an error, as in libsdformat. */
static void
test_light (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-sun-XXXXXX", NULL);
  g_autofree char *main_path = g_build_filename (dir, "world.sdf", NULL);
  g_autofree char *models = g_build_filename (dir, "models", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlDocument) merged = NULL;

  write_tree_file (dir, "models/sun/model.config",
              "<?xml version=\"1.0\"?><model><name>Sun</name><sdf version=\"1.6\">model.sdf</sdf></model>");
  write_tree_file (dir, "models/sun/model.sdf",
              "<?xml version=\"1.0\"?><sdf version=\"1.6\"><light type=\"directional\" name=\"sun\">"
              "<cast_shadows>true</cast_shadows><direction>-0.5 0.1 -0.9</direction></light></sdf>");
  write_tree_file (dir, "models/box/model.sdf", SDF_HEAD
              "<model name=\"box\"><link name=\"l\">" INERTIAL "</link></model></sdf>");
  write_tree_file (dir, "world.sdf", SDF_HEAD
              "<world name=\"w\">\n"
              "<include><uri>model://sun</uri></include>\n"
              "<include><uri>model://box</uri></include>\n"
              "</world></sdf>");
  write_tree_file (dir, "merged.sdf", SDF_HEAD
              "<model name=\"m\"><link name=\"l\">" INERTIAL "</link>\n"
              "<include merge=\"true\"><uri>model://sun</uri></include></model></sdf>");

  clear_model_path_variables ();
  g_setenv ("GZ_SIM_RESOURCE_PATH", models, TRUE);
  doc = bl_document_new_from_file (main_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  g_assert_cmpuint (bl_document_get_include_failures (doc)->len, ==, 0);
  g_assert_cmpuint (bl_document_get_models (doc)->len, ==, 1);
  link_of (doc, "box::l");

  g_free (main_path);
  main_path = g_build_filename (dir, "merged.sdf", NULL);
  merged = bl_document_new_from_file (main_path, &error);
  clear_model_path_variables ();
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (merged), ==, 1);
  g_assert_cmpuint (bl_document_get_include_failures (merged)->len, ==, 1);
  link_of (merged, "m::l");
}

/* A failed include names the URI, the file and line of its <uri>, every
 * folder searched and what to set, as text and as a BlIncludeFailure. */
static void
test_failure (void)
{
  g_autofree char *dir = write_lrauv_tree ();
  g_autofree char *world = g_build_filename (dir, "worlds", "buoyant_tethys.sdf", NULL);
  g_autofree char *worlds = g_build_filename (dir, "worlds", NULL);
  g_autofree char *elsewhere = g_build_filename (dir, "elsewhere", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlDocument) fixed = NULL;
  BlIncludeFailure *failure;
  GPtrArray *diagnostics;
  gboolean diagnosed = FALSE;

  clear_model_path_variables ();
  g_setenv ("GZ_SIM_RESOURCE_PATH", elsewhere, TRUE);
  doc = bl_document_new_from_file (world, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 0);

  g_assert_cmpuint (bl_document_get_include_failures (doc)->len, ==, 1);
  failure = g_ptr_array_index (bl_document_get_include_failures (doc), 0);
  g_assert_cmpint (failure->problem, ==, BL_INCLUDE_NOT_FOUND);
  g_assert_cmpstr (failure->uri, ==, "tethys_equipped");
  g_assert_cmpstr (failure->name, ==, "tethys_equipped");
  g_assert_cmpstr (failure->file, ==, world);
  g_assert_cmpint (failure->line, ==, 4);
  g_assert_cmpstr ((const char *) failure->include->name, ==, "include");
  g_assert_cmpint (xmlGetLineNo (failure->include), ==, 4);
  g_assert_true (g_strv_contains ((const char * const *) failure->searched, worlds));
  g_assert_true (g_strv_contains ((const char * const *) failure->searched, elsewhere));
  g_assert_nonnull (strstr (failure->message, "GZ_SIM_RESOURCE_PATH"));
  g_assert_nonnull (strstr (failure->message, "--model-path"));
  g_assert_nonnull (strstr (failure->message, elsewhere));

  diagnostics = bl_document_get_diagnostics (doc);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (diagnostics, i);

      diagnosed |= d->severity == BL_SEVERITY_ERROR && d->line == 4 &&
                   g_strcmp0 (d->file, world) == 0 && strcmp (d->message, failure->message) == 0;
    }
  g_assert_true (diagnosed);

  /* the fix the window offers: add the folder that holds the model */
  {
    g_autofree char *models = g_build_filename (dir, "models", NULL);

    g_assert_true (bl_resource_add_extra_path (models));
  }
  fixed = bl_document_new_from_file (world, &error);
  clear_model_path_variables ();
  g_assert_no_error (error);
  g_assert_cmpuint (bl_document_get_include_failures (fixed)->len, ==, 0);
  link_of (fixed, "my_lrauv::base_link");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/include/bare-name", test_bare_name);
  g_test_add_func ("/core/include/merge", test_merge);
  g_test_add_func ("/core/include/merge-model-pose", test_merge_model_pose);
  g_test_add_func ("/core/include/merge-into-world", test_merge_into_world);
  g_test_add_func ("/core/include/fuel", test_fuel);
  g_test_add_func ("/core/include/plugin", test_include_plugin);
  g_test_add_func ("/core/include/light", test_light);
  g_test_add_func ("/core/include/failure", test_failure);

  return g_test_run ();
}
