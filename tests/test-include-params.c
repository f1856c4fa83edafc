/* test-include-params.c: an <include>'s <experimental:params> edit the
 * included model before it is read, an <include> directly in <sdf> is a
 * top model, and a merge-include into a world honours its placement
 * frame, as libsdformat 15 reads them. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-document.h"
#include "test-common.h"

#define INERTIAL "<inertial><mass>3</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>"
#define CUBE "<density>1000</density><geometry><box><size>1 1 1</size></box></geometry>"

/* models/cart: base (2 kg, centre 0.5 m ahead), wheel (automatic: two
 * 1 m cubes of water, 2000 kg), tail and hull (3 kg). */
static char *
write_cart (void)
{
  char *dir = g_dir_make_tmp ("ballast-params-XXXXXX", NULL);

  write_tree_file (dir, "models/cart/model.config",
                   "<?xml version=\"1.0\"?><model><name>cart</name><sdf version=\"1.9\">model.sdf</sdf></model>");
  write_tree_file (dir, "models/cart/model.sdf",
                   "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<model name=\"cart\">\n"
                   "<link name=\"base\"><pose>1 0 0 0 0 0</pose>\n"
                   "<inertial><pose>0.5 0 0 0 0 0</pose><mass>2</mass>"
                   "<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>\n"
                   "<link name=\"wheel\"><pose>0 2 0 0 0 0</pose><inertial auto=\"true\"/>\n"
                   "<collision name=\"tyre\">" CUBE "</collision>\n"
                   "<collision name=\"hub\">" CUBE "</collision></link>\n"
                   "<link name=\"tail\"><pose>0 0 -1 0 0 0</pose>" INERTIAL "</link>\n"
                   "<link name=\"hull\">" INERTIAL "</link>\n"
                   "</model>\n</sdf>\n");
  return dir;
}

static BlDocument *
load_with_models_full (const char          *dir,
                       const char          *name,
                       const char          *contents,
                       BlDocumentLoadFlags  flags)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *models = g_build_filename (dir, "models", NULL);
  g_autoptr(GError) error = NULL;
  BlDocument *doc;

  write_tree_file (dir, name, contents);
  clear_model_path_variables ();
  g_setenv ("SDF_PATH", models, TRUE);
  doc = bl_document_new_from_file_full (path, flags, &error);
  clear_model_path_variables ();
  g_assert_no_error (error);
  return doc;
}

static BlDocument *
load_with_models (const char *dir,
                  const char *name,
                  const char *contents)
{
  return load_with_models_full (dir, name, contents, BL_DOCUMENT_LOAD_DEFAULT);
}

/* The diagnostics of that code and severity, their messages joined. */
static char *
messages_of (BlDocument *doc,
             const char *code,
             BlSeverity  severity,
             guint      *count)
{
  g_autoptr(GPtrArray) all = bl_document_collect_diagnostics (doc);
  GString *text = g_string_new (NULL);

  *count = 0;
  for (guint i = 0; i < all->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (all, i);

      if (d->severity != severity || g_strcmp0 (d->code, code) != 0)
        continue;
      g_string_append_printf (text, "%s:%d: %s\n", d->file, d->line, d->message);
      (*count)++;
    }
  return g_string_free (text, FALSE);
}

/* add, modify (a value, and an empty one: SDF's default), remove, replace,
 * children with their own actions, <fluid_added_mass>; a second include
 * of the same file without params keeps the file as it is. */
static void
check_actions (BlDocumentLoadFlags flags)
{
  g_autofree char *dir = write_cart ();
  g_autoptr(BlDocument) doc = load_with_models_full (dir, "world.sdf",
    "<?xml version=\"1.0\"?>\n"
    "<sdf version=\"1.9\" xmlns:experimental=\"http://sdformat.org/schemas/experimental\">\n"
    "<world name=\"w\">\n"
    "<include><uri>cart</uri><name>edited</name><pose>10 0 0 0 0 0</pose>\n"
    "<experimental:params>\n"
    "<link element_id=\"\" name=\"added\" action=\"add\"><pose>0 0 5 0 0 0</pose>"
    "<inertial><mass>4</mass><inertia><ixx>0.5</ixx><iyy>0.5</iyy><izz>0.5</izz></inertia></inertial></link>\n"
    "<link element_id=\"base\" action=\"modify\"><pose>0 0 3 0 0 0</pose>"
    "<inertial><mass>6</mass><pose/></inertial></link>\n"
    "<link element_id=\"tail\" action=\"remove\"/>\n"
    "<collision element_id=\"wheel::tyre\" name=\"tyre\" action=\"replace\"><density>500</density>"
    "<geometry><sphere><radius>0.5</radius></sphere></geometry></collision>\n"
    "<link element_id=\"wheel\"><collision name=\"hub\" action=\"remove\"/></link>\n"
    "<link element_id=\"hull\"><inertial action=\"replace\"><mass>5</mass>"
    "<inertia><ixx>2</ixx><iyy>2</iyy><izz>2</izz></inertia>"
    "<fluid_added_mass><xx>2</xx><zz>7</zz></fluid_added_mass></inertial></link>\n"
    "<link element_id=\"nowhere\" action=\"remove\"/>\n"
    "</experimental:params></include>\n"
    "<include><uri>cart</uri><name>plain</name></include>\n"
    "</world></sdf>\n", flags);
  double sphere = 500 * 4.0 / 3 * G_PI * 0.125;  /* ρ · 4/3 π r³ */
  g_autofree char *errors = NULL;
  BlLink *link;
  guint n;

  g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 4 + 4);

  /* added at the included model's frame (10 0 0), 5 m up */
  link = link_of (doc, "edited::added");
  assert_position (link, 10, 0, 5);
  assert_close (link->props.mass, 4, 1e-15);
  assert_close (link->props.inertia.m[0][0], 0.5, 1e-15);

  /* the link's pose set, the mass changed, the inertial pose reset to 0 */
  link = link_of (doc, "edited::base");
  assert_position (link, 10, 0, 3);
  assert_close (link->props.mass, 6, 1e-15);
  g_assert_cmpfloat (fabs (link->props.com.x), <, 1e-15);
  link = link_of (doc, "plain::base");
  assert_position (link, 1, 0, 0);
  assert_close (link->props.mass, 2, 1e-15);
  assert_close (link->props.com.x, 0.5, 1e-15);

  g_assert_null (bl_document_find_link (doc, "edited::tail"));
  link_of (doc, "plain::tail");

  /* one sphere of r 0.5 at 500 kg/m³: m = 500 π/6, ixx = 2/5 m r² */
  link = link_of (doc, "edited::wheel");
  g_assert_cmpuint (link->collisions->len, ==, 1);
  assert_close (link->props.mass, sphere, 1e-12);
  assert_close (link->props.inertia.m[0][0], 0.4 * sphere * 0.25, 1e-12);
  link = link_of (doc, "plain::wheel");
  g_assert_cmpuint (link->collisions->len, ==, 2);
  assert_close (link->props.mass, 2000, 1e-12);

  link = link_of (doc, "edited::hull");
  assert_close (link->props.mass, 5, 1e-15);
  g_assert_true (link->has_added_mass);
  g_assert_cmpfloat (link->added_mass[0], ==, 2);   /* xx */
  g_assert_cmpfloat (link->added_mass[11], ==, 7);  /* zz */
  g_assert_cmpfloat (link->added_mass[6], ==, 0);   /* yy */
  g_assert_false (link_of (doc, "plain::hull")->has_added_mass);

  /* what libsdformat skips is an error, named */
  errors = messages_of (doc, "params", BL_SEVERITY_ERROR, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_nonnull (strstr (errors, "world.sdf:12:"));
  g_assert_nonnull (strstr (errors, "element_id=\"nowhere\""));
}

/* the same read for editing and read-only (as ballast-cli reads) */
static void
test_actions (void)
{
  check_actions (BL_DOCUMENT_LOAD_DEFAULT);
  check_actions (BL_DOCUMENT_LOAD_READ_ONLY);
}

/* A scoped element_id reaches into nested models, and into nested
 * <include>s (named by their <name>, else by the included model's own
 * name), which libsdformat has read when it applies the params and
 * Ballast reads after: they are applied then, after the nested include's
 * own params; what is not found there is an error naming the outer file.
 * Without the namespace declared, <experimental:params> is read all the
 * same. */
static void
test_nested (void)
{
  g_autofree char *dir = write_cart ();
  g_autoptr(BlDocument) doc = NULL;
  g_autofree char *errors = NULL;
  g_autofree char *warnings = NULL;
  guint n;

  write_tree_file (dir, "models/train/model.config",
                   "<?xml version=\"1.0\"?><model><name>train</name><sdf version=\"1.9\">model.sdf</sdf></model>");
  write_tree_file (dir, "models/train/model.sdf",
                   "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<model name=\"train\">\n"
                   "<model name=\"car\"><pose>0 5 0 0 0 0</pose>"
                   "<link name=\"body\"><pose>0 0 0 0 0 0</pose>" INERTIAL "</link></model>\n"
                   "<include><uri>cart</uri><name>trailer</name><pose>0 -5 0 0 0 0</pose>\n"
                   "<experimental:params><link element_id=\"base\" action=\"modify\">"
                   "<pose>0 0 7 0 0 0</pose></link></experimental:params></include>\n"
                   "<include><uri>cart</uri></include>\n"
                   "</model>\n</sdf>\n");
  doc = load_with_models (dir, "world.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
    "<include><uri>train</uri>\n<experimental:params>\n"
    "<link element_id=\"car::body\" action=\"modify\"><pose>0 0 2 0 0 0</pose><inertial><mass>8</mass></inertial></link>\n"
    "<link element_id=\"trailer::tail\" action=\"remove\"/>\n"
    "<link element_id=\"trailer::base\" action=\"modify\"><inertial><mass>9</mass></inertial></link>\n"
    "<link element_id=\"cart::hull\" action=\"remove\"/>\n"
    "<link element_id=\"trailer::nothing\" action=\"remove\"/>\n"
    "<link element_id=\"wagon::base\" action=\"remove\"/>\n"
    "</experimental:params></include>\n</world></sdf>\n");

  /* car at (0 5 0), the body 2 m up in it */
  assert_position (link_of (doc, "train::car::body"), 0, 5, 2);
  assert_close (link_of (doc, "train::car::body")->props.mass, 8, 1e-15);

  /* the trailer's own params (base 7 m up), then the outer ones (9 kg) */
  g_assert_null (bl_document_find_link (doc, "train::trailer::tail"));
  assert_position (link_of (doc, "train::trailer::base"), 0, -5, 7);
  assert_close (link_of (doc, "train::trailer::base")->props.mass, 9, 1e-15);
  link_of (doc, "train::trailer::hull");

  /* the unnamed include is the model "cart" */
  g_assert_null (bl_document_find_link (doc, "train::cart::hull"));
  link_of (doc, "train::cart::tail");

  errors = messages_of (doc, "params", BL_SEVERITY_ERROR, &n);
  g_test_message ("%s", errors);
  g_assert_cmpuint (n, ==, 2);
  g_assert_nonnull (strstr (errors, "world.sdf:10:"));
  g_assert_nonnull (strstr (errors, "element_id=\"nothing\""));
  /* the path could only go on in the unnamed include, whose model is "cart" */
  g_assert_nonnull (strstr (errors, "world.sdf:11:"));
  g_assert_nonnull (strstr (errors, "element_id=\"wagon::base\""));
  warnings = messages_of (doc, "params", BL_SEVERITY_WARNING, &n);
  g_assert_cmpuint (n, ==, 0);
}

/* libsdformat's own refusals: no element_id, an unknown action, adding
 * what exists, a child without an action; each skipped, the rest applied. */
static void
test_refusals (void)
{
  g_autofree char *dir = write_cart ();
  g_autoptr(BlDocument) doc = load_with_models (dir, "world.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
    "<include><uri>cart</uri><experimental:params>\n"
    "<link name=\"x\" action=\"add\"/>\n"
    "<link element_id=\"tail\" action=\"delete\"/>\n"
    "<collision element_id=\"wheel\" name=\"tyre\" action=\"add\"/>\n"
    "<link element_id=\"wheel\"><collision name=\"hub\"/></link>\n"
    "<link element_id=\"base::\" action=\"remove\"/>\n"
    "<link element_id=\"hull\" action=\"remove\"/>\n"
    "</experimental:params></include>\n</world></sdf>\n");
  g_autofree char *errors = NULL;
  guint n;

  errors = messages_of (doc, "params", BL_SEVERITY_ERROR, &n);
  g_test_message ("%s", errors);
  g_assert_cmpuint (n, ==, 5);
  for (int line = 5; line <= 9; line++)
    {
      g_autofree char *where = g_strdup_printf ("world.sdf:%d:", line);

      g_assert_nonnull (strstr (errors, where));
    }
  link_of (doc, "cart::tail");
  g_assert_cmpuint (link_of (doc, "cart::wheel")->collisions->len, ==, 2);
  g_assert_null (bl_document_find_link (doc, "cart::hull"));
  g_assert_null (bl_document_find_link (doc, "cart::x"));
}

/* libsdformat's getElementById keeps a name prefix only when it ends past
 * the id's first character: a link of one character is never found, as
 * Gazebo never finds it (its mass stays 1 kg, an error says so), and a
 * longer name beside it is (7 kg). */
static void
test_one_character_id (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-params-XXXXXX", NULL);
  g_autoptr(BlDocument) doc = NULL;
  g_autofree char *errors = NULL;
  guint n;

  write_tree_file (dir, "models/pair/model.config",
                   "<?xml version=\"1.0\"?><model><name>pair</name><sdf version=\"1.9\">model.sdf</sdf></model>");
  write_tree_file (dir, "models/pair/model.sdf",
                   "<sdf version=\"1.9\"><model name=\"pair\">"
                   "<link name=\"l\"><inertial><mass>1</mass></inertial></link>"
                   "<link name=\"ab\"><inertial><mass>1</mass></inertial></link></model></sdf>\n");
  doc = load_with_models (dir, "world.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
    "<include><uri>pair</uri><experimental:params>\n"
    "<link element_id=\"l\" action=\"modify\"><inertial><mass>5</mass></inertial></link>\n"
    "<link element_id=\"ab\" action=\"modify\"><inertial><mass>7</mass></inertial></link>\n"
    "</experimental:params></include>\n</world></sdf>\n");
  errors = messages_of (doc, "params", BL_SEVERITY_ERROR, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_nonnull (strstr (errors, "world.sdf:5:"));
  g_assert_nonnull (strstr (errors, "no <link element_id=\"l\">"));
  g_assert_cmpfloat (link_of (doc, "pair::l")->mass, ==, 1.0);
  g_assert_cmpfloat (link_of (doc, "pair::ab")->mass, ==, 7.0);
}

/* <sdf><include> with no model or world around it: the included model is
 * the file's top model, named and placed by the include; merge="true"
 * there is refused. */
static void
test_root_include (void)
{
  g_autofree char *dir = write_cart ();
  g_autoptr(BlDocument) doc = load_with_models (dir, "solo.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.8\">\n"
    "<include><uri>cart</uri><name>solo</name><pose>1 2 3 0 0 0</pose></include>\n"
    "</sdf>\n");
  g_autoptr(BlDocument) merged = NULL;
  g_autofree char *errors = NULL;
  guint n;

  g_assert_cmpuint (bl_document_get_models (doc)->len, ==, 1);
  g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 4);
  assert_position (link_of (doc, "solo::base"), 2, 2, 3);
  assert_position (link_of (doc, "solo::tail"), 1, 2, 2);

  merged = load_with_models (dir, "merged.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.8\">\n"
    "<include merge=\"true\"><uri>cart</uri></include>\n"
    "</sdf>\n");
  g_assert_cmpuint (bl_document_get_links (merged)->len, ==, 0);
  errors = messages_of (merged, "include", BL_SEVERITY_ERROR, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_nonnull (strstr (errors, "merged.sdf:3:"));
}

/* The placement frame of a merge-include into a world lands where the
 * include's pose puts it, every merged model moving with it:
 * proxy (0 0 10) · a (1 0 0, yaw 90°) · l (0 0 2) puts l at (1 0 12),
 * turned; the correction proxy · X_l⁻¹ is (yaw −90°, (0 1 −2)), so l
 * lands on (0 0 10) and b's hull, at (0 1 10) before, on (1 1 8). */
static void
test_merge_world_placement (void)
{
  g_autofree char *dir = write_cart ();
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlDocument) unknown = NULL;
  g_autofree char *errors = NULL;
  BlLink *l;
  guint n;

  write_tree_file (dir, "fleet.sdf",
                   "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<model name=\"fleet\">\n"
                   "<model name=\"a\"><pose>1 0 0 0 0 1.5707963267948966</pose>"
                   "<link name=\"l\"><pose>0 0 2 0 0 0</pose>" INERTIAL "</link></model>\n"
                   "<model name=\"b\"><pose>0 1 0 0 0 0</pose><link name=\"hull\">" INERTIAL "</link></model>\n"
                   "</model>\n</sdf>\n");
  doc = load_with_models (dir, "world.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
    "<include merge=\"true\"><uri>fleet.sdf</uri><pose>0 0 10 0 0 0</pose>"
    "<placement_frame>a::l</placement_frame></include>\n"
    "</world></sdf>\n");
  l = link_of (doc, "a::l");
  assert_position (l, 0, 0, 10);
  g_assert_cmpfloat (fabs (fabs (l->world_pose.q.w) - 1), <, 1e-12);
  assert_position (link_of (doc, "b::hull"), 1, 1, 8);
  errors = messages_of (doc, "frame", BL_SEVERITY_ERROR, &n);
  g_assert_cmpuint (n, ==, 0);

  /* a frame that is not among them: an error, placed by the pose alone */
  unknown = load_with_models (dir, "unknown.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
    "<include merge=\"true\"><uri>fleet.sdf</uri><pose>0 0 10 0 0 0</pose>"
    "<placement_frame>a::nowhere</placement_frame></include>\n"
    "</world></sdf>\n");
  assert_position (link_of (unknown, "b::hull"), 0, 1, 10);
  g_clear_pointer (&errors, g_free);
  errors = messages_of (unknown, "frame", BL_SEVERITY_ERROR, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_nonnull (strstr (errors, "unknown.sdf:4:"));
  g_assert_nonnull (strstr (errors, "a::nowhere"));
}

/* models/leaf0…leafN-1 (a link x each) and models/fanN including each
 * without a <name>, so that each nested model is named by its file. */
static void
write_fan (const char *dir,
           guint       n)
{
  g_autoptr(GString) fan = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n");
  g_autofree char *fan_name = g_strdup_printf ("fan%u", n);
  g_autofree char *fan_sdf = g_strdup_printf ("models/fan%u/model.sdf", n);

  g_string_append_printf (fan, "<model name=\"%s\">\n", fan_name);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *leaf_sdf = g_strdup_printf ("models/leaf%u/model.sdf", i);
      g_autofree char *leaf = g_strdup_printf ("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n"
                                               "<model name=\"leaf%u\"><link name=\"x\">" INERTIAL
                                               "</link></model>\n</sdf>\n", i);

      write_tree_file (dir, leaf_sdf, leaf);
      g_string_append_printf (fan, "<include><uri>leaf%u</uri></include>\n", i);
    }
  g_string_append (fan, "</model>\n</sdf>\n");
  write_tree_file (dir, fan_sdf, fan->str);
}

/* An alteration that may go on into any of several unnamed includes is
 * handed on to each (16 at most: past that a warning), and applied where
 * the model has the name; what is handed on is bounded (1,000,000
 * elements a document), so that a fan of includes cannot multiply a
 * large alteration without end. */
static void
test_unnamed_fan (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-params-fan-XXXXXX", NULL);
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlDocument) wide = NULL;
  g_autoptr(BlDocument) big = NULL;
  g_autoptr(GString) world = g_string_new (NULL);
  g_autofree char *warnings = NULL;
  guint n;

  write_fan (dir, 16);
  write_fan (dir, 17);
  doc = load_with_models (dir, "world.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
    "<include><uri>fan16</uri><experimental:params>\n"
    "<link element_id=\"leaf3\" name=\"extra\" action=\"add\"><pose>0 0 4 0 0 0</pose>" INERTIAL "</link>\n"
    "</experimental:params></include>\n</world></sdf>\n");
  assert_position (link_of (doc, "fan16::leaf3::extra"), 0, 0, 4);
  g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 17);
  warnings = messages_of (doc, "params", BL_SEVERITY_WARNING, &n);
  g_assert_cmpuint (n, ==, 0);

  wide = load_with_models (dir, "wide.sdf",
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
    "<include><uri>fan17</uri><experimental:params>\n"
    "<link element_id=\"leaf3\" name=\"extra\" action=\"add\">" INERTIAL "</link>\n"
    "</experimental:params></include>\n</world></sdf>\n");
  g_assert_null (bl_document_find_link (wide, "fan17::leaf3::extra"));
  g_clear_pointer (&warnings, g_free);
  warnings = messages_of (wide, "params", BL_SEVERITY_WARNING, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_nonnull (strstr (warnings, "wide.sdf:5:"));
  g_assert_nonnull (strstr (warnings, "any of 17"));

  /* 16 stubs of a 70,002-element alteration: each application counts
   * it, the 15th passes the bound; leaf3's (the 4th) is applied */
  g_string_append (world, "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<world name=\"w\">\n"
                   "<include><uri>fan16</uri><experimental:params>\n"
                   "<link element_id=\"leaf3\" name=\"big\" action=\"add\">" INERTIAL);
  for (guint i = 0; i < 70000; i++)
    g_string_append (world, "<x/>");
  g_string_append (world, "</link>\n</experimental:params></include>\n</world></sdf>\n");
  big = load_with_models (dir, "big.sdf", world->str);
  link_of (big, "fan16::leaf3::big");
  g_clear_pointer (&warnings, g_free);
  warnings = messages_of (big, "params", BL_SEVERITY_WARNING, &n);
  g_assert_cmpuint (n, >=, 1);
  g_assert_nonnull (strstr (warnings, "exceed 1000000 elements"));
}

/* libsdformat's search scans the model's children for each alteration:
 * 7,000 alterations of the last of 8,000 links look at 56 million
 * children, past the bound of 50 million: the first ones are applied,
 * then a warning, once. */
static void
test_work_bound (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-params-work-XXXXXX", NULL);
  g_autoptr(GString) model = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"><model name=\"big\">\n");
  g_autoptr(GString) world = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.9\"><world name=\"w\">\n"
                                           "<include><uri>big</uri><experimental:params>\n");
  g_autoptr(BlDocument) doc = NULL;
  g_autofree char *warnings = NULL;
  guint n;

  for (guint i = 0; i < 8000; i++)
    g_string_append_printf (model, "<link name=\"l%u\"><pose>0 0 0 0 0 0</pose></link>\n", i);
  g_string_append (model, "</model></sdf>\n");
  write_tree_file (dir, "models/big/model.sdf", model->str);
  for (guint i = 0; i < 7000; i++)
    g_string_append (world, "<link element_id=\"l7999\" action=\"modify\"><pose>0 0 1 0 0 0</pose></link>\n");
  g_string_append (world, "</experimental:params></include></world></sdf>\n");
  doc = load_with_models (dir, "world.sdf", world->str);

  assert_position (link_of (doc, "big::l7999"), 0, 0, 1);
  warnings = messages_of (doc, "params", BL_SEVERITY_WARNING, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_nonnull (strstr (warnings, "more than 50000000 steps"));
}

/* libsdformat's own test (tests/fixtures/public, Apache-2.0): the values
 * worked from its robot model.  The model is at (0 0 0.325); right_wheel
 * at (0.554282 −0.625029 −0.025) in it, rolled by φ = −1.5707. */
static void
test_libsdformat_file (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("BALLAST_FIXTURES"),
                                            "sdformat_test_integration_include_custom_model.sdf", NULL);
  g_autofree char *models = g_build_filename (g_getenv ("BALLAST_FIXTURES"), "models", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autofree char *errors = NULL;
  double c = cos (-1.5707), s = sin (-1.5707);
  BlLink *link;
  guint n;

  clear_model_path_variables ();
  g_setenv ("SDF_PATH", models, TRUE);
  doc = bl_document_new_from_file (path, &error);
  clear_model_path_variables ();
  g_assert_no_error (error);

  g_assert_cmpuint (bl_document_get_links (doc)->len, ==, 8);
  /* caster: 0.5 kg, 0.05 kg·m², its pose reset to 0 relative to right_wheel */
  link = link_of (doc, "robot::vehicle::caster");
  assert_close (link->props.mass, 0.5, 1e-15);
  assert_close (link->props.inertia.m[0][0], 0.05, 1e-15);
  assert_position (link, 0.554282, -0.625029, 0.3);
  /* top: its box replaced by a sphere of 0.65 m, the camera box removed */
  link = link_of (doc, "robot::vehicle::top");
  g_assert_cmpuint (link->collisions->len, ==, 1);
  assert_close (link->props.volume, 4.0 / 3 * G_PI * pow (0.65, 3), 1e-12);
  /* added links: default inertia at the model frame */
  assert_position (link_of (doc, "robot::vehicle::new_link"), 0, 0, 0.325);
  assert_close (link_of (doc, "robot::vehicle::link_custom1")->props.mass, 1, 1e-15);
  /* nested_models at (1 1 1) in the caster's frame: (1, c − s, s + c) */
  assert_position (link_of (doc, "robot::vehicle::nested_models::model1::link1"),
                   0.554282 + 1, -0.625029 + c - s, 0.3 + s + c);

  errors = messages_of (doc, "params", BL_SEVERITY_ERROR, &n);
  g_assert_cmpuint (n, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/include-params/actions", test_actions);
  g_test_add_func ("/core/include-params/nested", test_nested);
  g_test_add_func ("/core/include-params/refusals", test_refusals);
  g_test_add_func ("/core/include-params/one-character-id", test_one_character_id);
  g_test_add_func ("/core/include-params/root-include", test_root_include);
  g_test_add_func ("/core/include-params/merge-world-placement", test_merge_world_placement);
  g_test_add_func ("/core/include-params/libsdformat-file", test_libsdformat_file);
  g_test_add_func ("/core/include-params/unnamed-fan", test_unnamed_fan);
  g_test_add_func ("/core/include-params/work-bound", test_work_bound);
  return g_test_run ();
}
