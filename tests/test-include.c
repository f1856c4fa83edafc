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

/* PATH loaded with FLAGS; aborts unless it loads without an error. */
static BlDocument *
load_without_errors (const char          *path,
                     BlDocumentLoadFlags  flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = bl_document_new_from_file_full (path, flags, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  return g_steal_pointer (&doc);
}

static void
assert_pose (BlLink *link,
             double  x,
             double  y,
             double  z,
             double  yaw)
{
  assert_position (link, x, y, z);
  /* a turn about z alone: q = (cos yaw/2, 0, 0, sin yaw/2), up to sign */
  g_assert_cmpfloat (fabs (fabs (link->world_pose.q.w) - fabs (cos (yaw / 2))), <, 1e-12);
  g_assert_cmpfloat (fabs (link->world_pose.q.x), <, 1e-12);
  g_assert_cmpfloat (fabs (link->world_pose.q.y), <, 1e-12);
  g_assert_cmpfloat (fabs (link->world_pose.q.w * link->world_pose.q.z -
                           cos (yaw / 2) * sin (yaw / 2)), <, 1e-12);
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

/* A merge-include with a placement frame: the include's pose places that
 * frame of the merged model (the proxy frame goes where that puts it).
 * arm: upper at (1 0 0) turned 90° about z, lower (1 0 0) from upper in
 * upper's axes. */
static void
test_merge_placement_frame (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-merge-place-XXXXXX", NULL);
  g_autofree char *main_path = g_build_filename (dir, "robot.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;

  write_tree_file (dir, "arm.sdf", SDF_HEAD
                   "<model name=\"arm\">"
                   "<link name=\"upper\"><pose>1 0 0 0 0 1.5707963267948966</pose>" INERTIAL "</link>"
                   "<link name=\"lower\"><pose relative_to=\"upper\">1 0 0 0 0 0</pose>" INERTIAL "</link>"
                   "</model></sdf>");
  write_tree_file (dir, "hand.sdf", SDF_HEAD
                   "<model name=\"hand\" placement_frame=\"palm\">"
                   "<link name=\"palm\"><pose>0 0 2 0 0 0</pose>" INERTIAL "</link>"
                   "<link name=\"wrist\">" INERTIAL "</link>"
                   "</model></sdf>");
  write_tree_file (dir, "robot.sdf", SDF_HEAD
                   "<model name=\"robot\">\n"
                   "<link name=\"chassis\">" INERTIAL "</link>\n"
                   "<include merge=\"true\"><uri>arm.sdf</uri><pose>0 0 5 0 0 0</pose>"
                   "<placement_frame>upper</placement_frame></include>\n"
                   "<include merge=\"true\"><uri>hand.sdf</uri><pose>7 0 0 0 0 0</pose></include>\n"
                   "</model></sdf>");

  clear_model_path_variables ();
  doc = bl_document_new_from_file (main_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  /* upper lands on (0 0 5), unturned; lower is (1 0 0) along it */
  assert_pose (link_of (doc, "robot::upper"), 0, 0, 5, 0);
  assert_pose (link_of (doc, "robot::lower"), 1, 0, 5, 0);
  /* the included model's own attribute: palm on (7 0 0), wrist 2 below */
  assert_pose (link_of (doc, "robot::palm"), 7, 0, 0, 0);
  assert_pose (link_of (doc, "robot::wrist"), 7, 0, -2, 0);
  assert_pose (link_of (doc, "robot::chassis"), 0, 0, 0, 0);
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

/* A unit right tetrahedron, ASCII STL: volume 1/6. */
static const char tetrahedron[] =
  "solid t\n"
  "facet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 1 0 0\nendloop\nendfacet\n"
  "facet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0 1\nendloop\nendfacet\n"
  "facet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 1\nvertex 0 1 0\nendloop\nendfacet\n"
  "facet normal 1 1 1\nouter loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\n"
  "endsolid t\n";

/* The same mesh URI names the file beside the file that writes it: two
 * links of robot.sdf share t.stl beside it (a unit right tetrahedron,
 * volume 1/6), the link merged from parts/arm.sdf reads parts/t.stl (the
 * same twice as large, volume 8/6); at density 600, 100 kg and 800 kg. */
static void
test_shared_mesh_uri (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-shared-mesh-XXXXXX", NULL);
  g_autofree char *parts = g_build_filename (dir, "parts", NULL);
  g_autofree char *main_path = g_build_filename (dir, "robot.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  static const char twice[] =
    "solid t\n"
    "facet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 2 0\nvertex 2 0 0\nendloop\nendfacet\n"
    "facet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 2 0 0\nvertex 0 0 2\nendloop\nendfacet\n"
    "facet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 2\nvertex 0 2 0\nendloop\nendfacet\n"
    "facet normal 1 1 1\nouter loop\nvertex 2 0 0\nvertex 0 2 0\nvertex 0 0 2\nendloop\nendfacet\n"
    "endsolid t\n";
#define MESH_LINK(name) \
  "<link name=\"" name "\"><inertial auto=\"true\"><density>600</density></inertial>" \
  "<collision name=\"c\"><geometry><mesh><uri>t.stl</uri></mesh></geometry></collision></link>"

  write_tree_file (dir, "t.stl", tetrahedron);
  write_tree_file (parts, "t.stl", twice);
  write_tree_file (parts, "arm.sdf", SDF_HEAD "<model name=\"arm\">" MESH_LINK ("arm_link") "</model></sdf>");
  write_tree_file (dir, "robot.sdf", SDF_HEAD
                   "<model name=\"robot\">\n" MESH_LINK ("a") MESH_LINK ("b")
                   "<include merge=\"true\"><uri>parts/arm.sdf</uri></include>\n"
                   "</model></sdf>");
#undef MESH_LINK

  clear_model_path_variables ();
  doc = bl_document_new_from_file (main_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  assert_close (link_of (doc, "robot::a")->props.mass, 100.0, 1e-12);
  assert_close (link_of (doc, "robot::b")->props.mass, 100.0, 1e-12);
  assert_close (link_of (doc, "robot::arm_link")->props.mass, 800.0, 1e-12);
}

/* An include's URI names what it names from the folder of the file that
 * writes it, however often it was found before: part.sdf twice from the
 * world's folder (links of 2 kg), and from sub/holder.sdf the other
 * sub/part.sdf (5 kg), in a read-only and in an editable load. */
static void
test_shared_include_uri (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-shared-include-XXXXXX", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *main_path = g_build_filename (dir, "world.sdf", NULL);
#define MASS_LINK(mass) \
  "<link name=\"l\"><inertial><mass>" mass "</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>" \
  "</inertia></inertial></link>"

  write_tree_file (dir, "part.sdf", SDF_HEAD "<model name=\"part\">" MASS_LINK ("2") "</model></sdf>");
  write_tree_file (sub, "part.sdf", SDF_HEAD "<model name=\"part\">" MASS_LINK ("5") "</model></sdf>");
  write_tree_file (sub, "holder.sdf", SDF_HEAD "<model name=\"holder\">"
                   "<include><uri>part.sdf</uri><name>inner</name></include></model></sdf>");
  write_tree_file (dir, "world.sdf", SDF_HEAD "<world name=\"w\">\n"
                   "<include><uri>part.sdf</uri><name>p1</name></include>\n"
                   "<include><uri>sub/holder.sdf</uri><name>h</name></include>\n"
                   "<include><uri>part.sdf</uri><name>p2</name></include>\n"
                   "</world></sdf>");
#undef MASS_LINK

  clear_model_path_variables ();
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(BlDocument) doc = load_without_errors (main_path, i == 0 ? BL_DOCUMENT_LOAD_READ_ONLY
                                                       : BL_DOCUMENT_LOAD_DEFAULT);

      g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 3);
      assert_close (link_of (doc, "p1::l")->props.mass, 2.0, 0.0);
      assert_close (link_of (doc, "p2::l")->props.mass, 2.0, 0.0);
      assert_close (link_of (doc, "h::inner::l")->props.mass, 5.0, 0.0);
    }
}

/* The number of warnings of the parse ("xml") in FILE at LINE. */
static guint
count_parse_warnings (BlDocument *doc,
                      const char *file,
                      int         line)
{
  g_autoptr(GPtrArray) all = bl_document_collect_diagnostics (doc);
  guint n = 0;

  for (guint i = 0; i < all->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (all, i);

      if (g_strcmp0 (d->code, "xml") == 0 && g_strcmp0 (d->file, file) == 0 && d->line == line)
        n++;
    }
  return n;
}

/* One file included four times: the load parses it for the first two and
 * copies the second's tree for the later ones.  Each include still has a
 * tree of its own (the second's <experimental:params> change none of the
 * later copies), its own <name> and <pose>, the file's true lines past
 * libxml2's 65535, the parse's warning once per include, and its links
 * counted against the bound on links. */
static void
test_included_copies (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-included-copies-XXXXXX", NULL);
  g_autofree char *main_path = g_build_filename (dir, "world.sdf", NULL);
  g_autofree char *part_path = g_build_filename (dir, "part.sdf", NULL);
  g_autofree char *blank = g_strnfill (70000, '\n');
  g_autofree char *part = NULL;
  const char *names[] = { "a", "b", "c", "d" };
  const double mass_body[] = { 1, 7, 1, 3 };
  const double x[] = { 0, 1, 2, -1 };

  /* line 3 holds <model>, 70,000 line breaks later <link name="body"> is
   * on line 70003, <link name="tail"> on 70004, the stray text on 70005 */
  part = g_strconcat (SDF_HEAD "<model name=\"part\">", blank,
                      "<link name=\"body\">" INERTIAL "</link>\n"
                      "<link name=\"tail\">" INERTIAL "</link></model></sdf>\n"
                      "stray text\n", NULL);
  write_tree_file (dir, "part.sdf", part);
  write_tree_file (dir, "world.sdf",
                   "<?xml version=\"1.0\"?>\n"
                   "<sdf version=\"1.11\" xmlns:experimental=\"http://sdformat.org/schemas/experimental\">\n"
                   "<world name=\"w\">\n"
                   "<include><uri>part.sdf</uri><name>a</name></include>\n"
                   "<include><uri>part.sdf</uri><name>b</name><pose>1 0 0 0 0 0</pose>\n"
                   "<experimental:params><link element_id=\"body\" action=\"modify\">"
                   "<inertial><mass>7</mass></inertial></link>"
                   "<link element_id=\"tail\" action=\"remove\"/></experimental:params></include>\n"
                   "<include><uri>part.sdf</uri><name>c</name><pose>2 0 0 0 0 0</pose></include>\n"
                   "<include><uri>part.sdf</uri><name>d</name><pose>-1 0 0 0 0 0</pose>\n"
                   "<experimental:params><link element_id=\"body\" action=\"modify\">"
                   "<inertial><mass>3</mass></inertial></link></experimental:params></include>\n"
                   "</world></sdf>\n");

  clear_model_path_variables ();
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(BlDocument) doc = load_without_errors (main_path, i == 0 ? BL_DOCUMENT_LOAD_READ_ONLY
                                                       : BL_DOCUMENT_LOAD_DEFAULT);

      /* b's <link name="tail"> removed */
      g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 7);
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          g_autofree char *body = g_strconcat (names[k], "::body", NULL);
          g_autofree char *tail = g_strconcat (names[k], "::tail", NULL);
          BlLink *link = link_of (doc, body);

          assert_close (link->props.mass, mass_body[k], 0.0);
          assert_position (link, x[k], 0, 0);
          g_assert_cmpstr (link->file, ==, part_path);
          g_assert_cmpint (link->line, ==, 70003);
          if (k != 1)
            {
              g_assert_cmpint (link_of (doc, tail)->line, ==, 70004);
              assert_close (link_of (doc, tail)->props.mass, 1.0, 0.0);
            }
        }
      g_assert_cmpuint (count_parse_warnings (doc, part_path, 70005), ==, 4);
    }

  /* 11 <link> elements read: 3 in world.sdf's <experimental:params>, 2 in
   * each include (b's removed after they were counted): a bound of 10
   * refuses the load at the fourth include, a copy */
  for (guint bound = 10; bound <= 11; bound++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(BlDocument) doc = bl_document_new_from_file_limited (main_path, BL_DOCUMENT_LOAD_READ_ONLY,
                                                                     bound, &error);

      if (bound == 10)
        {
          g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_LINKS);
          g_assert_null (doc);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 7);
        }
    }
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

/* A model that includes one missing Fuel model eight times, and another
 * missing model once: two diagnostics, the first at its first include,
 * naming the count and the other lines; every include is still among the
 * failures (the repeats point at the first), and a plugin inside a
 * repeated include is still "model not loaded". */
static void
test_failure_repeated (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-repeat-XXXXXX", NULL);
  g_autofree char *world = g_build_filename (dir, "world.sdf", NULL);
  g_autofree char *cache = g_build_filename (dir, "fuel", NULL);
  g_autoptr(GString) text = g_string_new (SDF_HEAD "<world name=\"w\"><model name=\"fleet\">"
                                          "<link name=\"base\">" INERTIAL "</link>\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  GPtrArray *failures, *diagnostics;
  const BlIncludeFailure *first;
  const BlDiagnostic *d;

  /* lines 4 to 11: <include><uri>…buoy</uri><name>buoy_N</name></include> */
  for (guint i = 0; i < 8; i++)
    g_string_append_printf (text, "<include><uri>https://fuel.gazebosim.org/1.0/OpenRobotics/models/buoy"
                            "</uri><name>buoy_%u</name>%s</include>\n", i,
                            i == 7 ? "<plugin filename=\"gz-sim-hydrodynamics-system\" "
                                     "name=\"gz::sim::systems::Hydrodynamics\"><link_name>base</link_name>"
                                     "<xDotU>-1</xDotU></plugin>" : "");
  g_string_append (text, "<include><uri>model://nowhere</uri></include>\n</model></world></sdf>\n");
  write_tree_file (dir, "world.sdf", text->str);

  clear_model_path_variables ();
  g_setenv ("GZ_FUEL_CACHE_PATH", cache, TRUE);
  doc = bl_document_new_from_file (world, &error);
  clear_model_path_variables ();
  g_assert_no_error (error);

  diagnostics = bl_document_get_diagnostics (doc);
  g_assert_cmpuint (count_errors (doc), ==, 2);
  d = g_ptr_array_index (diagnostics, 0);
  g_assert_cmpint (d->line, ==, 4);
  g_assert_nonnull (strstr (d->message, "buoy"));
  g_assert_nonnull (strstr (d->message, "8 includes of “https://fuel.gazebosim.org/1.0/OpenRobotics/models/buoy”"
                                        " failed alike: the first here, line 4; then line 5, line 6, line 7, "
                                        "line 8, line 9 and 2 more)"));
  d = g_ptr_array_index (diagnostics, 1);
  g_assert_cmpint (d->line, ==, 12);
  g_assert_null (strstr (d->message, "failed alike"));

  failures = bl_document_get_include_failures (doc);
  g_assert_cmpuint (failures->len, ==, 9);
  first = g_ptr_array_index (failures, 0);
  g_assert_cmpuint (first->count, ==, 8);
  g_assert_null (first->same_as);
  g_assert_cmpstr (first->message, ==, ((BlDiagnostic *) g_ptr_array_index (diagnostics, 0))->message);
  for (guint i = 1; i < 8; i++)
    {
      const BlIncludeFailure *repeat = g_ptr_array_index (failures, i);

      g_assert_true (repeat->same_as == first);
      g_assert_cmpuint (repeat->count, ==, 0);
      g_assert_cmpint (repeat->line, ==, 4 + i);
      g_assert_cmpint (repeat->problem, ==, BL_INCLUDE_NOT_IN_FUEL_CACHE);
    }
  g_assert_cmpuint (((BlIncludeFailure *) g_ptr_array_index (failures, 8))->count, ==, 1);

  imports = bl_fluid_find_added_mass_imports (doc);
  g_assert_cmpuint (imports->len, ==, 1);
  g_assert_true (((BlAddedMassImport *) g_ptr_array_index (imports, 0))->model_not_loaded);
}

/* SDF 1.8's placement frame (//include/placement_frame,
 * //model/@placement_frame): the <pose> places the named frame, and the
 * model frame goes where that puts it, X_RM = X_RPf · X_MPf⁻¹, as in
 * libsdformat's test/sdf/placement_frame.sdf.  The included model: L1 at
 * its origin, L4 at (1 0 0) turned 90° about z, F2 (0 0 2) above L4, J2
 * (0 0 3) above its child L1, a nested model N at (0 5 0). */
static void
test_placement_frame (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-placement-XXXXXX", NULL);
  g_autofree char *world = g_build_filename (dir, "world.sdf", NULL);
  g_autofree char *top = g_build_filename (dir, "top.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlDocument) top_doc = NULL;
  GPtrArray *failures;

  write_tree_file (dir, "frames.sdf", "<?xml version=\"1.0\"?>\n<sdf version=\"1.8\">\n"
                   "<model name=\"m\">\n"
                   "<link name=\"L1\">" INERTIAL "</link>\n"
                   "<link name=\"L4\"><pose>1 0 0 0 0 1.5707963267948966</pose>" INERTIAL "</link>\n"
                   "<frame name=\"F2\" attached_to=\"L4\"><pose relative_to=\"L4\">0 0 2 0 0 0</pose></frame>\n"
                   "<joint name=\"J2\" type=\"fixed\"><parent>L4</parent><child>L1</child>"
                   "<pose>0 0 3 0 0 0</pose></joint>\n"
                   "<model name=\"N\"><pose>0 5 0 0 0 0</pose><link name=\"l\">" INERTIAL "</link></model>\n"
                   "</model></sdf>");
  write_tree_file (dir, "world.sdf", "<?xml version=\"1.0\"?>\n<sdf version=\"1.8\">\n"
                   "<world name=\"w\">\n"
                   "<include><name>a</name><uri>frames.sdf</uri><pose>0 10 0 0 0 0</pose>"
                   "<placement_frame>L4</placement_frame></include>\n"
                   "<include><name>b</name><uri>frames.sdf</uri><pose>0 0 0 0 0 0</pose>"
                   "<placement_frame>F2</placement_frame></include>\n"
                   "<model name=\"holder\"><pose>100 0 0 0 0 0</pose>\n"
                   "  <link name=\"base\">" INERTIAL "</link>\n"
                   "  <include><name>c</name><uri>frames.sdf</uri><pose>0 0 0 0 0 0</pose>"
                   "<placement_frame>J2</placement_frame></include>\n"
                   "</model>\n"
                   "<model name=\"d\" placement_frame=\"N\"><pose>5 0 0 0 0 0</pose>\n"
                   "  <link name=\"base\">" INERTIAL "</link>\n"
                   "  <model name=\"N\"><pose>0 5 0 0 0 0</pose><link name=\"l\">" INERTIAL "</link></model>\n"
                   "</model>\n"
                   "<include><name>e</name><uri>frames.sdf</uri><pose>0 0 7 0 0 0</pose>"
                   "<placement_frame>nowhere</placement_frame></include>\n"
                   "<include><name>f</name><uri>frames.sdf</uri>"
                   "<placement_frame>L4</placement_frame></include>\n"
                   "</world></sdf>");

  clear_model_path_variables ();
  doc = bl_document_new_from_file (world, &error);
  g_assert_no_error (error);

  /* a: L4 lands on (0 10 0) unturned; L1 is (1 0 0) from L4 back along
   * L4's x, which points along the model's y: (0 11 0), turned −90° */
  assert_pose (link_of (doc, "a::L4"), 0, 10, 0, 0);
  assert_pose (link_of (doc, "a::L1"), 0, 11, 0, -G_PI / 2);
  assert_pose (link_of (doc, "a::N::l"), 5, 11, 0, -G_PI / 2);
  /* b: F2 at the origin, so L4 is 2 below it; L1 = −Rz(−90°)·(1 0 2) */
  assert_pose (link_of (doc, "b::L4"), 0, 0, -2, 0);
  assert_pose (link_of (doc, "b::L1"), 0, 1, -2, -G_PI / 2);
  /* c, inside a model: J2 at holder's origin, so L1 is 3 below it */
  assert_pose (link_of (doc, "holder::c::L1"), 100, 0, -3, 0);
  assert_pose (link_of (doc, "holder::base"), 100, 0, 0, 0);
  /* d: the attribute; N lands on (5 0 0), the model frame at (5 −5 0) */
  assert_pose (link_of (doc, "d::N::l"), 5, 0, 0, 0);
  assert_pose (link_of (doc, "d::base"), 5, -5, 0, 0);
  /* e: an unknown placement frame is an error; the pose places the model */
  assert_pose (link_of (doc, "e::L1"), 0, 0, 7, 0);
  g_assert_cmpuint (count_errors (doc), ==, 2);
  /* f: a placement frame without a <pose> is refused, as libsdformat does */
  g_assert_null (bl_document_find_link (doc, "f::L1"));
  failures = bl_document_get_include_failures (doc);
  g_assert_cmpuint (failures->len, ==, 1);

  /* the top model of a file: libsdformat's model_with_placement_frame_attribute.sdf */
  write_tree_file (dir, "top.sdf", "<?xml version=\"1.0\"?>\n<sdf version=\"1.8\">\n"
                   "<model name=\"model_placement_frame\" placement_frame=\"link2\">\n"
                   "<pose>0 0 10 0 0 0</pose>\n"
                   "<link name=\"link1\"><pose>1 0 0 0 0 0</pose></link>\n"
                   "<link name=\"link2\"><pose>0 2 0 0 0 0</pose></link>\n"
                   "</model></sdf>");
  top_doc = bl_document_new_from_file (top, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (top_doc), ==, 0);
  assert_pose (link_of (top_doc, "model_placement_frame::link2"), 0, 0, 10, 0);
  assert_pose (link_of (top_doc, "model_placement_frame::link1"), 1, -2, 10, 0);
}

/* A world's own frames (libsdformat's world pose graph): a <frame> of the
 * world, a model or an include placed relative_to it, to another model or
 * to a link of another model; "world" is the world frame. */
static void
test_world_frames (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-world-frames-XXXXXX", NULL);
  g_autofree char *world = g_build_filename (dir, "world.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;

  write_tree_file (dir, "boat.sdf", SDF_HEAD
                   "<model name=\"boat\"><link name=\"hull\"><pose>0 0 1 0 0 0</pose>" INERTIAL "</link>"
                   "</model></sdf>");
  write_tree_file (dir, "world.sdf", SDF_HEAD
                   "<world name=\"w\">\n"
                   "<model name=\"c\"><pose relative_to=\"b\">0 2 0 0 0 0</pose>"
                   "<link name=\"l\">" INERTIAL "</link></model>\n"
                   "<frame name=\"dock\"><pose>1 0 0 0 0 1.5707963267948966</pose></frame>\n"
                   "<frame name=\"berth\" attached_to=\"dock\"><pose>0 3 0 0 0 0</pose></frame>\n"
                   "<model name=\"b\"><pose relative_to=\"dock\">1 0 0 0 0 0</pose>"
                   "<link name=\"l\">" INERTIAL "</link></model>\n"
                   "<include><uri>boat.sdf</uri><name>d</name><pose relative_to=\"berth\">0 0 0 0 0 0</pose></include>\n"
                   "<include><uri>boat.sdf</uri><name>e</name><pose relative_to=\"d::hull\">0 0 0 0 0 0</pose></include>\n"
                   "<model name=\"f\"><pose relative_to=\"world\">0 0 9 0 0 0</pose>"
                   "<link name=\"l\">" INERTIAL "</link></model>\n"
                   "</world></sdf>");

  clear_model_path_variables ();
  doc = bl_document_new_from_file (world, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  /* dock at (1 0 0) turned 90°: (1 0 0) in its axes is (0 1 0) */
  assert_pose (link_of (doc, "b::l"), 1, 1, 0, G_PI / 2);
  /* relative_to a model read after it: (0 2 0) in b's axes is (−2 0 0) */
  assert_pose (link_of (doc, "c::l"), -1, 1, 0, G_PI / 2);
  /* berth: attached to the dock, (0 3 0) in its axes is (−3 0 0) */
  assert_pose (link_of (doc, "d::hull"), -2, 0, 1, G_PI / 2);
  /* relative_to a link of another model: e's frame on d's hull */
  assert_pose (link_of (doc, "e::hull"), -2, 0, 2, G_PI / 2);
  assert_pose (link_of (doc, "f::l"), 0, 0, 9, 0);
}

/* model.config as libsdformat reads it: of its <sdf> files, the newest
 * version it reads, compared as versions (1.7 is after 1.6 and before
 * 1.12; 1.13 is too new), and its XML read as TinyXML2 reads it (a blank
 * line before <?xml, "--" in a comment). libsdformat's
 * test/integration/model/nested_include names base.sdf so, and no
 * model.sdf is beside it. */
static void
test_model_config (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-model-config-XXXXXX", NULL);
  g_autofree char *world = g_build_filename (dir, "world.sdf", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;

  write_tree_file (dir, "models/arm/model.config",
                   "\n<?xml version=\"1.0\"?>\n<!-- see -- the notes -->\n<model><name>arm</name>"
                   "<sdf version=\"1.6\">old.sdf</sdf><sdf version=\"1.13\">future.sdf</sdf>"
                   "<sdf version=\"1.7\">arm.sdf</sdf><sdf version=\"1.5\">older.sdf</sdf></model>");
  write_tree_file (dir, "models/arm/arm.sdf", SDF_HEAD
                   "<model name=\"arm\"><link name=\"seven\">" INERTIAL "</link></model></sdf>");
  write_tree_file (dir, "models/arm/old.sdf", SDF_HEAD
                   "<model name=\"arm\"><link name=\"six\">" INERTIAL "</link></model></sdf>");
  write_tree_file (dir, "models/arm/future.sdf", SDF_HEAD
                   "<model name=\"arm\"><link name=\"thirteen\">" INERTIAL "</link></model></sdf>");
  write_tree_file (dir, "world.sdf", SDF_HEAD
                   "<world name=\"w\"><include><uri>models/arm</uri></include></world></sdf>");

  clear_model_path_variables ();
  doc = bl_document_new_from_file (world, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_errors (doc), ==, 0);
  g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 1);
  link_of (doc, "arm::seven");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/include/bare-name", test_bare_name);
  g_test_add_func ("/core/include/merge", test_merge);
  g_test_add_func ("/core/include/merge-model-pose", test_merge_model_pose);
  g_test_add_func ("/core/include/merge-into-world", test_merge_into_world);
  g_test_add_func ("/core/include/merge-placement-frame", test_merge_placement_frame);
  g_test_add_func ("/core/include/shared-mesh-uri", test_shared_mesh_uri);
  g_test_add_func ("/core/include/shared-include-uri", test_shared_include_uri);
  g_test_add_func ("/core/include/included-copies", test_included_copies);
  g_test_add_func ("/core/include/fuel", test_fuel);
  g_test_add_func ("/core/include/plugin", test_include_plugin);
  g_test_add_func ("/core/include/light", test_light);
  g_test_add_func ("/core/include/failure", test_failure);
  g_test_add_func ("/core/include/failure-repeated", test_failure_repeated);
  g_test_add_func ("/core/include/placement-frame", test_placement_frame);
  g_test_add_func ("/core/include/world-frames", test_world_frames);
  g_test_add_func ("/core/include/model-config", test_model_config);

  return g_test_run ();
}
