/* test-readonly.c: the read-only (streaming) load gives exactly what the full load gives. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "bl-document.h"
#include "compare-documents.h"

static void
collect_sdf_files (const char *dir,
                   GPtrArray  *out)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (handle);
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_sdf_files (path, out);
      else if (g_str_has_suffix (name, ".sdf") || g_str_has_suffix (name, ".world"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

/* Read-only loads of well-formed files stay read-only. */
static void
assert_same_documents (BlDocument *full,
                       BlDocument *lean)
{
  g_assert_false (bl_document_is_read_only (full));
  g_assert_true (bl_document_is_read_only (lean));
  g_assert_null (bl_document_get_source (lean));
  bl_test_assert_same_documents (full, lean);
}

/* The read-only load of path, after checking that the full one (kept in
 * *full) gives the same. */
static BlDocument *
load_both_ways (const char  *path,
                BlDocument **full)
{
  g_autoptr(GError) error = NULL;
  BlDocument *lean;

  *full = bl_document_new_from_file (path, &error);
  g_assert_no_error (error);
  lean = bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_READ_ONLY, &error);
  g_assert_no_error (error);
  assert_same_documents (*full, lean);
  return lean;
}

static void
test_fixtures (void)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

  collect_sdf_files (g_getenv ("BALLAST_FIXTURES"), files);
  g_assert_cmpuint (files->len, >, 10);

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr(GError) error_a = NULL;
      g_autoptr(GError) error_b = NULL;
      g_autoptr(BlDocument) full = bl_document_new_from_file (path, &error_a);
      g_autoptr(BlDocument) lean = bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_READ_ONLY, &error_b);

      g_test_message ("%s", path);
      g_assert_cmpint (full != NULL, ==, lean != NULL);
      if (full == NULL)
        {
          g_assert_cmpstr (error_a->message, ==, error_b->message);
          continue;
        }
      assert_same_documents (full, lean);
    }
}

/* Everything the read-ahead must handle: nested models, a collision placed
 * relative to another frame (read the usual way), duplicate and missing
 * names, a link outside any model, broken values, added mass, and lines
 * beyond libxml2's 65535.  `pad` blank lines push the model down. */
static char *
write_model (const char *dir,
             guint       pad)
{
  g_autoptr(GString) sdf = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n");
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, "model.sdf", NULL);

  for (guint i = 0; i < pad; i++)
    g_string_append_c (sdf, '\n');
  g_string_append (sdf,
    "<world name=\"w\"><gravity>0 0 -9.81</gravity>\n"
    "<model name=\"outer\">\n"
    "  <frame name=\"f\"><pose>1 0 0 0 0 0</pose></frame>\n"
    "  <link name=\"a\"><pose relative_to=\"f\">0 1 0 0 0 0</pose>\n"
    "    <inertial auto=\"true\"><density>500</density></inertial>\n"
    "    <collision name=\"box\"><pose>0 0 1 0 0.3 0</pose>\n"
    "      <geometry><box><size>1 2 3</size></box></geometry></collision>\n"
    "    <collision name=\"off\"><pose relative_to=\"f\">0 0 1 0 0 0</pose>\n"
    "      <geometry><sphere><radius>0.5</radius></sphere></geometry></collision>\n"
    "  </link>\n"
    "  <link name=\"b\">\n"
    "    <inertial><mass>abc</mass><pose>0 0 0.1 0 0 0</pose>\n"
    "      <inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz></inertia>\n"
    "      <fluid_added_mass><xx>2</xx><yy>3</yy><zz>4</zz><pp>1</pp><qq>1</qq><rr>1</rr>"
    "<bogus>1</bogus></fluid_added_mass></inertial>\n"
    "    <collision name=\"c\"><density>-1</density>\n"
    "      <geometry><cylinder><radius>0.1</radius><length>0</length></cylinder></geometry></collision>\n"
    "    <collision name=\"c\"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision>\n"
    "  </link>\n"
    "  <link><inertial auto=\"true\"/></link>\n"
    "  <link name=\"b\"/>\n"
    "  <model name=\"inner\"><pose relative_to=\"a\">0 0 2 0 0 0</pose>\n"
    "    <link name=\"c\"><inertial auto=\"true\"/>\n"
    "      <collision name=\"k\"><geometry><capsule><radius>0.2</radius><length>1</length></capsule></geometry></collision>\n"
    "      <collision name=\"e\"><geometry><ellipsoid><radii>0.1 0.2 0.3</radii></ellipsoid></geometry></collision>\n"
    "    </link>\n"
    "  </model>\n"
    "  <joint name=\"j\" type=\"fixed\"><parent>a</parent><child>b</child></joint>\n"
    "</model>\n"
    "<link name=\"stray\"><inertial auto=\"true\"/></link>\n"
    "</world>\n</sdf>\n");

  g_file_set_contents (path, sdf->str, sdf->len, &error);
  g_assert_no_error (error);
  return path;
}

/* The line of the first line of text containing needle, counted by hand. */
static int
line_of (const char *path,
         const char *needle)
{
  g_autofree char *text = NULL;
  const char *at;
  int line = 1;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  at = strstr (text, needle);
  g_assert_nonnull (at);
  for (const char *p = text; p < at; p++)
    line += *p == '\n';
  return line;
}

static void
test_generated (void)
{
  const guint pads[] = { 0, 70000 };

  for (guint k = 0; k < G_N_ELEMENTS (pads); k++)
    {
      g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
      g_autofree char *path = write_model (dir, pads[k]);
      g_autoptr(GError) error = NULL;
      g_autoptr(BlDocument) full = bl_document_new_from_file (path, &error);
      g_autoptr(BlDocument) lean = NULL;
      BlLink *link;

      g_assert_no_error (error);
      lean = bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_READ_ONLY, &error);
      g_assert_no_error (error);
      assert_same_documents (full, lean);

      g_assert_cmpuint (bl_document_get_links (lean)->len, ==, 3);
      link = bl_document_find_link (lean, "outer::a");
      g_assert_nonnull (link);
      /* the line the element starts on, past 65535 as well */
      g_assert_cmpint (link->line, ==, line_of (path, "<link name=\"a\">"));
      g_assert_cmpint (bl_document_find_link (lean, "outer::inner::c")->line, ==,
                       line_of (path, "<link name=\"c\">"));
      /* box 1×2×3 at 500 kg/m³ plus a sphere of r 0.5 */
      g_assert_cmpfloat_with_epsilon (link->props.mass, 500.0 * (6.0 + 4.0 / 3.0 * G_PI * 0.125), 1e-9);

      g_unlink (path);
      g_rmdir (dir);
    }
}

/* What the read-ahead reads of attributes: only what the file writes,
 * not the defaults of the document's DTD (xmlGetNoNsProp would give them
 * for absent attributes), a name with an entity
 * in it, a link of more than 16 collisions (whose names are compared by
 * a hash table past the first 16), and a link placed by `degrees`. */
static void
test_attributes (void)
{
  static const char sdf[] =
    "<?xml version=\"1.0\"?>\n"
    "<!DOCTYPE sdf [\n"
    "  <!ATTLIST collision name CDATA \"dflt\">\n"
    "  <!ATTLIST pose degrees CDATA \"true\">\n"
    "]>\n"
    "<sdf version=\"1.11\">\n"
    "<model name=\"m\">\n"
    "  <link name=\"a&amp;b\"><inertial auto=\"true\"/>\n"
    "    <collision><pose>0 0 0 90 0 0</pose><geometry><box><size>1 2 3</size></box></geometry></collision>\n"
    "  </link>\n"
    "  <link name=\"many\"><inertial auto=\"true\"/>\n";
  g_autoptr(GString) text = g_string_new (sdf);
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "attributes.sdf", NULL);
  const char *names[20] = {
    "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12", "c13", "c14", "c15",
    "c3", "x", "x", "y",
  };
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  BlLink *link;
  BlCollision *collision;
  guint duplicates = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_string_append_printf (text, "    <collision name=\"%s\"><geometry><sphere><radius>0.1</radius>"
                            "</sphere></geometry></collision>\n", names[i]);
  g_string_append (text, "  </link>\n</model>\n</sdf>\n");
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));

  lean = load_both_ways (path, &full);

  link = bl_document_find_link (lean, "m::a&b");
  g_assert_nonnull (link);
  collision = g_ptr_array_index (link->collisions, 0);
  /* the DTD's defaults are not applied (libsdformat reads only what the
   * file writes): no name, and a roll of 90 rad, (cos 45, sin 45, 0, 0) */
  g_assert_cmpstr (collision->name, ==, "collision_0");
  g_assert_cmpfloat_with_epsilon (collision->pose.q.w, cos (45.0), 1e-14);
  g_assert_cmpfloat_with_epsilon (collision->pose.q.x, sin (45.0), 1e-14);

  /* "c3" again after the first 16, then "x" twice */
  link = bl_document_find_link (lean, "m::many");
  g_assert_cmpuint (link->collisions->len, ==, 20);
  for (guint i = 0; i < link->diagnostics->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (link->diagnostics, i);

      duplicates += g_str_has_prefix (d->message, "two collisions are named");
    }
  g_assert_cmpuint (duplicates, ==, 2);

  g_unlink (path);
  g_rmdir (dir);
}

/* The read-only load reads a link's <pose> at the link's end tag and frees
 * it when it reads without a word to say; a pose with something to say is
 * read where the full load reads it, its diagnostics in their place and
 * under the link's name (renamed before SDF 1.7). */
static BlDiagnostic *
find_diagnostic (GPtrArray  *diagnostics,
                 const char *element,
                 const char *message_start)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (g_strcmp0 (d->element, element) == 0 && g_str_has_prefix (d->message, message_start))
        return d;
    }
  return NULL;
}

static void
test_link_poses (void)
{
  static const char sdf[] =
    "<?xml version=\"1.0\"?>\n"
    "<sdf version=\"1.6\">\n"
    "<model name=\"m\">\n"
    "  <model name=\"dup\"><link name=\"x\"/></model>\n"
    "  <frame name=\"f\"><pose>1 2 3 0 0 0</pose></frame>\n"
    "  <link name=\"a\"><pose relative_to=\" f \">0.5 0 0 0 0 0</pose></link>\n"
    "  <link name=\"b\"><pose degrees=\"true\">0 0 0 0 0 90</pose></link>\n"
    "  <link name=\"q\"><pose rotation_format=\"quat_xyzw\">0 0 0 0 0 0 2</pose></link>\n"
    "  <link name=\"c\"><pose>1 2 x 0 0 0</pose></link>\n"
    "  <link name=\"dup\"><pose>1 2 3</pose></link>\n"
    "  <link name=\"e\"/>\n"
    "</model>\n"
    "</sdf>\n";
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "poses.sdf", NULL);
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  BlDiagnostic *d;
  BlLink *link;

  g_assert_true (g_file_set_contents (path, sdf, -1, NULL));
  lean = load_both_ways (path, &full);

  /* relative_to " f " (stripped): f's (1, 2, 3) and 0.5 along its x */
  link = bl_document_find_link (lean, "m::a");
  g_assert_cmpfloat (link->pose.p.x, ==, 1.5);
  g_assert_cmpfloat (link->pose.p.y, ==, 2.0);
  g_assert_cmpfloat (link->pose.p.z, ==, 3.0);
  /* a yaw of 90 degrees: (cos 45°, 0, 0, sin 45°) */
  link = bl_document_find_link (lean, "m::b");
  g_assert_cmpfloat_with_epsilon (link->pose.q.w, G_SQRT2 / 2, 1e-15);
  g_assert_cmpfloat_with_epsilon (link->pose.q.z, G_SQRT2 / 2, 1e-15);
  /* a quaternion of length 2, normalised with a warning */
  link = bl_document_find_link (lean, "m::q");
  g_assert_cmpfloat (link->pose.q.w, ==, 1.0);
  diagnostics = bl_document_collect_diagnostics (lean);
  d = find_diagnostic (diagnostics, "m::q/pose", "quaternion length is 2");
  g_assert_nonnull (d);
  g_assert_cmpint (d->line, ==, 8);
  /* not numbers: the identity and an error */
  link = bl_document_find_link (lean, "m::c");
  g_assert_cmpfloat (link->pose.p.x, ==, 0.0);
  d = find_diagnostic (diagnostics, "m::c/pose", "pose “1 2 x 0 0 0” is not 6 finite numbers");
  g_assert_nonnull (d);
  g_assert_cmpint (d->line, ==, 9);
  /* named like the model before it: renamed dup_link, its pose's error
   * under that name */
  link = bl_document_find_link (lean, "m::dup_link");
  g_assert_nonnull (link);
  d = find_diagnostic (diagnostics, "m::dup_link/pose", "pose “1 2 3” is not 6 finite numbers");
  g_assert_nonnull (d);
  g_assert_cmpint (d->line, ==, 10);
  /* no pose */
  link = bl_document_find_link (lean, "m::e");
  g_assert_cmpfloat (link->pose.q.w, ==, 1.0);
  g_assert_cmpfloat (link->pose.p.x, ==, 0.0);

  g_unlink (path);
  g_rmdir (dir);
}

/* What TinyXML2 reads past, both loads read past alike: blank lines
 * before the XML declaration, "--" in comments, split over the push
 * parser's chunks by a long comment; a comment ending in "--->" ends
 * there, as in TinyXML2 (libxml2 alone would read on to the next "-->"
 * and take the link for part of the comment). */
static void
test_tinyxml_faults (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "faults.sdf", NULL);
  g_autoptr(GString) text = g_string_new ("\n\n<?xml version=\"1.0\"?>\n<sdf version=\"1.6\">\n<!--\n");
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  guint xml_warnings = 0;

  for (guint i = 0; i < 20000; i++)
    g_string_append (text, "gz service --reqtype gz.msgs.EntityFactory --timeout 300\n");
  g_string_append (text, "-->\n<model name=\"m\"><link name=\"l\"><inertial><mass>2</mass></inertial></link>"
                   "<!-- a --->\n<link name=\"k\"/>\n<!-- b -->\n</model>\n</sdf>\n");
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));

  lean = load_both_ways (path, &full);
  g_assert_nonnull (bl_document_find_link (lean, "m::l"));
  g_assert_nonnull (bl_document_find_link (lean, "m::k"));

  /* one warning per kind of fault, at its first line */
  diagnostics = bl_document_collect_diagnostics (lean);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (g_strcmp0 (d->code, "xml") != 0)
        continue;
      xml_warnings++;
      g_assert_cmpint (d->severity, ==, BL_SEVERITY_WARNING);
      g_assert_cmpstr (d->file, ==, path);
      g_assert_true (d->line == 3 || d->line == 5);
      if (d->line == 5)
        g_assert_nonnull (strstr (d->message, "(2 of them, the first here)"));
    }
  g_assert_cmpuint (xml_warnings, ==, 2);
  g_clear_object (&full);
  g_clear_object (&lean);
  g_clear_pointer (&diagnostics, g_ptr_array_unref);

  /* gz-sim's reset_detachable_joint.sdf starts "?xml version…": text
   * beside the root element, which TinyXML2 keeps as a text node */
  g_assert_true (g_file_set_contents (path, "?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n"
                                      "<model name=\"m\"><link name=\"l\"/></model>\n</sdf>\n", -1, NULL));
  lean = load_both_ways (path, &full);
  g_assert_nonnull (bl_document_find_link (lean, "m::l"));
  diagnostics = bl_document_collect_diagnostics (lean);
  g_assert_cmpuint (diagnostics->len, ==, 1);
  {
    BlDiagnostic *d = g_ptr_array_index (diagnostics, 0);

    g_assert_cmpstr (d->code, ==, "xml");
    g_assert_cmpint (d->line, ==, 1);
    g_assert_nonnull (strstr (d->message, "text outside the root element"));
  }

  g_unlink (path);
  g_rmdir (dir);
}

/* A read-only load filters and parses each read in pieces, handing
 * libxml2 the file's own bytes where the filter changes none: comments
 * with "--" inside one piece, and across each boundary between two
 * pieces (32 KiB) and two reads (256 KiB), are read as the full load
 * reads them, and counted once each. */
static void
test_tinyxml_pieces (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "pieces.sdf", NULL);
  g_autoptr(GString) text = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n<model name=\"m\">\n");
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  g_autofree char *count = NULL;
  const guint n_comments = 25;
  guint n_links = 0, n_found = 0;
  int last_line = 1;

  for (guint k = 1; k <= n_comments; k++)
    {
      gsize boundary = k * 32 * 1024;

      while (text->len + 200 < boundary)
        {
          g_string_append_printf (text, "<link name=\"l%u\"><inertial><mass>%u</mass></inertial></link>\n",
                                  n_links, n_links + 1);
          n_links++;
        }
      /* "<!-- x--y -->": the first of its two hyphens the last byte of a
       * piece (k even, each read's last among them), or both well inside
       * one (k odd) */
      while (text->len < boundary - (k % 2 == 0 ? 7 : 100))
        g_string_append_c (text, ' ');
      g_string_append (text, "<!-- x--y -->\n");
    }
  /* its line: the newlines before it, counted here byte by byte */
  for (const char *c = text->str; *c != '\0'; c++)
    last_line += *c == '\n';
  g_string_append (text, "<link name=\"last\"><inertial><mass>7</mass></inertial></link>\n</model>\n</sdf>\n");
  g_assert_cmpuint (text->len, >, 3 * 256 * 1024);
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));

  lean = load_both_ways (path, &full);
  g_assert_cmpuint (bl_document_get_links (lean)->len, ==, n_links + 1);
  g_assert_cmpfloat (bl_document_find_link (lean, "m::last")->props.mass, ==, 7);
  /* the lines the filter counts across its pieces and reads */
  g_assert_cmpint (bl_document_find_link (lean, "m::last")->line, ==, last_line);
  g_assert_cmpint (bl_document_find_link (full, "m::last")->line, ==, last_line);
  count = g_strdup_printf ("(%u of them, the first here)", n_comments);
  diagnostics = bl_document_collect_diagnostics (lean);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (diagnostics, i);

      if (g_strcmp0 (d->code, "xml") == 0 && strstr (d->message, count) != NULL)
        n_found++;
    }
  g_assert_cmpuint (n_found, ==, 1);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.sdf", NULL);
  g_autofree char *broken = g_build_filename (dir, "broken.sdf", NULL);
  g_autofree char *unquoted = g_build_filename (dir, "unquoted.sdf", NULL);
  g_autofree char *entity = g_build_filename (dir, "entity.sdf", NULL);
  const char *paths[] = { empty, broken, unquoted, entity, dir, "/nonexistent/model.sdf" };

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_true (g_file_set_contents (broken, "<sdf version=\"1.11\">\n<model name=\"m\">\n</sdf>\n", -1, NULL));
  g_assert_true (g_file_set_contents (unquoted, "<sdf version=\"1.11\">\n<model name=m>\n<link name=\"l\"/>\n"
                                      "</model>\n</sdf>\n", -1, NULL));
  g_assert_true (g_file_set_contents (entity, "<!DOCTYPE sdf [\n<!ENTITY e \"1\">\n]>\n<sdf version=\"1.11\"/>\n",
                                      -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GError) error_a = NULL;
      g_autoptr(GError) error_b = NULL;
      g_autoptr(BlDocument) full = bl_document_new_from_file (paths[i], &error_a);
      g_autoptr(BlDocument) lean = bl_document_new_from_file_full (paths[i], BL_DOCUMENT_LOAD_READ_ONLY,
                                                                     &error_b);

      g_assert_null (full);
      g_assert_null (lean);
      g_assert_error (error_b, BL_DOCUMENT_ERROR, error_a->code);
      g_assert_cmpstr (error_a->message, ==, error_b->message);
    }

  g_unlink (empty);
  g_unlink (broken);
  g_unlink (unquoted);
  g_unlink (entity);
  g_rmdir (dir);
}

/* The size limits of each load (docs/HARDENING.md): an editable load
 * reads at most 256 MiB, the streaming read-only load 1 GiB.  A valid
 * model followed by 300 MB of blanks is read read-only (its one link, the
 * same as from the short file) and refused by the editable load; a broken
 * file that large keeps the streaming load's own error, not the other
 * load's "too large"; a sparse file just over 1 GiB is refused by both,
 * naming the limit, before anything is read. */
static void
test_size_limits (void)
{
  static const char model[] = "<sdf version=\"1.11\">\n<model name=\"m\">\n<link name=\"l\">\n"
                              "<inertial><mass>2</mass></inertial>\n</link>\n</model>\n</sdf>\n";
  const gsize blanks = 300 * 1000 * 1000;
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *large = g_build_filename (dir, "large.sdf", NULL);
  g_autofree char *broken = g_build_filename (dir, "broken.sdf", NULL);
  g_autofree char *huge = g_build_filename (dir, "huge.sdf", NULL);
  g_autofree char *spaces = g_malloc (1 << 20);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) lean = NULL;
  g_autoptr(BlDocument) full = NULL;
  FILE *f;

  memset (spaces, ' ', 1 << 20);
  f = fopen (large, "w");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (model, 1, strlen (model), f), ==, strlen (model));
  for (gsize done = 0; done < blanks; done += 1 << 20)
    g_assert_cmpuint (fwrite (spaces, 1, MIN (1 << 20, blanks - done), f), ==, MIN (1 << 20, blanks - done));
  fclose (f);

  lean = bl_document_new_from_file_full (large, BL_DOCUMENT_LOAD_READ_ONLY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_document_get_links (lean)->len, ==, 1);
  g_assert_cmpfloat (((BlLink *) g_ptr_array_index (bl_document_get_links (lean), 0))->props.mass, ==, 2);
  full = bl_document_new_from_file (large, &error);
  g_assert_null (full);
  g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ);
  g_assert_nonnull (strstr (error->message, "Ballast reads at most 268435456"));
  g_clear_error (&error);
  g_clear_object (&lean);

  /* the same bytes with the model's end tags gone: the streaming error */
  g_assert_cmpint (g_rename (large, broken), ==, 0);
  f = fopen (broken, "r+");
  g_assert_nonnull (f);
  g_assert_cmpint (fseek (f, (long) (strlen (model) - strlen ("</model>\n</sdf>\n")), SEEK_SET), ==, 0);
  g_assert_cmpuint (fwrite (spaces, 1, strlen ("</model>\n</sdf>\n"), f), ==, strlen ("</model>\n</sdf>\n"));
  fclose (f);
  lean = bl_document_new_from_file_full (broken, BL_DOCUMENT_LOAD_READ_ONLY, &error);
  g_assert_null (lean);
  g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, broken));
  g_clear_error (&error);

  /* sparse: 1 GiB and one byte of nothing */
  f = fopen (huge, "w");
  g_assert_nonnull (f);
  g_assert_cmpint (ftruncate (fileno (f), (off_t) (1 << 30) + 1), ==, 0);
  fclose (f);
  lean = bl_document_new_from_file_full (huge, BL_DOCUMENT_LOAD_READ_ONLY, &error);
  g_assert_null (lean);
  g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ);
  g_assert_nonnull (strstr (error->message, "is too large (1073741825 bytes; Ballast reads at most 1073741824)"));

  g_unlink (broken);
  g_unlink (huge);
  g_rmdir (dir);
}

/* Counts the nodes of a tree (elements, attributes, text, comments) and
 * finds any called NAME or of blanks only. */
static guint
count_nodes (xmlNode    *node,
             const char *name,
             guint      *named,
             guint      *blank)
{
  guint n = 0;

  for (; node != NULL; node = node->next)
    {
      n++;
      if (node->type == XML_ELEMENT_NODE && strcmp ((const char *) node->name, name) == 0)
        (*named)++;
      if (node->type == XML_TEXT_NODE && strspn ((const char *) node->content, " \t\r\n") == strlen ((const char *) node->content))
        (*blank)++;
      if (node->type == XML_ELEMENT_NODE)
        for (xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
          n += 1 + count_nodes (attr->children, name, named, blank);
      n += count_nodes (node->children, name, named, blank);
    }
  return n;
}

/* A <plugin>'s children written as empty-element tags that no reader
 * names are not kept (10 MB of <a/> in a plugin took check 261 MB); the
 * named ones (<enable/> and <graded_buoyancy/> count by being there) and
 * those with content are, and the loads agree: the plugin's terms still
 * make the link's added mass count twice (A7). */
static void
test_left_out_plugin (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "left-out-plugin.sdf", NULL);
  g_autoptr(GString) text = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n<world name=\"w\">\n"
                                          "  <plugin filename=\"gz-sim-buoyancy-system\" "
                                          "name=\"gz::sim::systems::Buoyancy\">\n    <enable/>\n");
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  guint named = 0, blank = 0, kept = 0, a7 = 0;

  for (guint i = 0; i < 20000; i++)
    g_string_append (text, "    <a/>\n");
  g_string_append (text, "  </plugin>\n  <model name=\"m\">\n    <link name=\"l\">\n"
                         "      <inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia>"
                         "<fluid_added_mass><xx>1</xx></fluid_added_mass></inertial>\n    </link>\n"
                         "    <plugin filename=\"gz-sim-hydrodynamics-system\" "
                         "name=\"gz::sim::systems::Hydrodynamics\">\n"
                         "      <link_name>l</link_name>\n      <xDotU>-5</xDotU>\n");
  for (guint i = 0; i < 20000; i++)
    g_string_append (text, "      <a x=\"1\"/>\n");
  for (guint i = 0; i < 20000; i++)
    g_string_append (text, "      <a>1</a>\n");
  g_string_append (text, "      <graded_buoyancy/>\n      <c><a/></c>\n    </plugin>\n  </model>\n</world>\n</sdf>\n");
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));

  lean = load_both_ways (path, &full);
  diagnostics = bl_document_collect_diagnostics (lean);
  for (guint i = 0; i < diagnostics->len; i++)
    a7 += g_strcmp0 (((BlDiagnostic *) g_ptr_array_index (diagnostics, i))->code, "A7") == 0;
  g_assert_cmpuint (a7, ==, 1);

  /* none of the 60,001 <a>, nor the <c> no reader names */
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "a", &named, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "c", &named, &blank);
  g_assert_cmpuint (named, ==, 0);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "enable", &kept, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "graded_buoyancy", &kept, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "xDotU", &kept, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "link_name", &kept, &blank);
  g_assert_cmpuint (kept, ==, 4);

  g_unlink (path);
  g_rmdir (dir);
}

/* The read-only load keeps no node it never reads: children of <sdf>,
 * <world>, <model>, <link>, <collision>, <inertial>, <joint> and <frame>
 * that nothing reads (a flood of unknown elements, visuals, sensors, a
 * world's state, a joint's axis, elements in a namespace) and blank text
 * are left out as they are parsed, with the
 * same links, values and diagnostics as the full load; a value's text is
 * kept byte for byte, however libxml2 hands it over; links left out still
 * count against the most links. */
static void
test_left_out (void)
{
  const guint flood = 20000;
  g_autofree char *dir = g_dir_make_tmp ("ballast-readonly-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "left-out.sdf", NULL);
  g_autoptr(GString) text = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\" xmlns:gz=\"urn:gz\">\n");
  g_autofree char *blanks = g_strnfill (1000, ' ');
  g_autofree char *pose_value = g_strconcat (blanks, "1 2 3 0 0 0", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  xmlNode *model, *child;
  guint named = 0, blank = 0, nodes;
  BlLink *link;

  g_string_append (text, "<gz:extra/><a/>\n<world name=\"w\">\n  <scene><ambient>1 1 1 1</ambient></scene>\n"
                         "  <state world_name=\"w\"><model name=\"m\"><link name=\"s1\"/><link name=\"s2\"/>"
                         "</model></state>\n  <light name=\"sun\" type=\"directional\"/>\n");
  /* past the push parser's first chunk of 256 KiB before the model */
  while (text->len < 256 * 1024 - 600)
    g_string_append (text, "  <a/>\n");
  g_string_append_printf (text, "  <model name=\"m\">\n    <pose>%s</pose>\n"
                          "    <static>&#32;false&#32;</static>\n    <gz:b><link name=\"hidden\"/></gz:b>\n"
                          "    <link name=\"l\">\n      <visual name=\"v\"><geometry><box><size>9 9 9</size>"
                          "</box></geometry></visual>\n      <sensor name=\"s\" type=\"imu\"/>\n"
                          "      <inertial><mass> 2 <!-- kg --> </mass><auto_inertia_params/></inertial>\n"
                          "      <collision name=\"c\">\n        <surface><friction/></surface>\n"
                          "        <geometry><sphere><radius>0.5</radius></sphere></geometry>\n      </collision>\n",
                          pose_value);
  for (guint i = 0; i < flood; i++)
    g_string_append (text, "      <a/>\n");
  g_string_append (text, "    </link>\n    <joint name=\"j\" type=\"fixed\"><parent>world</parent><child>l</child>"
                         "<axis><xyz>0 0 1</xyz></axis></joint>\n    <frame name=\"f\"><pose>0 0 1 0 0 0</pose><a/>"
                         "</frame>\n");
  for (guint i = 0; i < flood; i++)
    g_string_append (text, "    <a><b/></a>\n");
  g_string_append (text, "  </model>\n</world>\n</sdf>\n");
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));

  lean = load_both_ways (path, &full);
  link = bl_document_find_link (lean, "m::l");
  g_assert_nonnull (link);
  g_assert_cmpfloat (link->props.mass, ==, 2);
  g_assert_cmpuint (bl_document_get_links (lean)->len, ==, 1);

  /* The tree kept: the model, its pose and static, the link's shell, the
   * joint's child, the frame's pose; no left-out element and no blank text.  The file has over
   * 60,000 elements. */
  nodes = count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "a", &named, &blank);
  g_assert_cmpuint (named, ==, 0);
  g_assert_cmpuint (blank, ==, 0);
  g_assert_cmpuint (nodes, <, 60);
  named = 0;
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "visual", &named, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "state", &named, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "scene", &named, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "b", &named, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "axis", &named, &blank);
  count_nodes (xmlDocGetRootElement (bl_document_get_xml (lean)), "parent", &named, &blank);
  g_assert_cmpuint (named, ==, 0);

  /* values byte for byte: blanks handed over in pieces before the text,
   * blanks from character references */
  model = bl_document_get_models (lean)->len > 0
          ? ((BlModel *) g_ptr_array_index (bl_document_get_models (lean), 0))->node : NULL;
  g_assert_nonnull (model);
  child = model->children;
  g_assert_cmpstr ((const char *) child->name, ==, "pose");
  g_assert_cmpstr ((const char *) child->children->content, ==, pose_value);
  g_assert_null (child->children->next);
  child = child->next;
  g_assert_cmpstr ((const char *) child->name, ==, "static");
  g_assert_cmpstr ((const char *) child->children->content, ==, " false ");

  /* the two links of <state> and the one in gz:b count as the full load counts them */
  g_clear_object (&full);
  g_clear_object (&lean);
  bl_document_set_max_links (3);
  full = bl_document_new_from_file (path, &error);
  g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_LIMIT);
  g_clear_error (&error);
  lean = bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_READ_ONLY, &error);
  g_assert_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_LIMIT);
  {
    /* refused at the fourth, "l" */
    const char *at = strstr (text->str, "<link name=\"l\">");
    guint line = 1;
    g_autofree char *expected = NULL;

    for (const char *c = text->str; c < at; c++)
      line += *c == '\n';
    expected = g_strdup_printf ("%s:%u: more than 3 links", path, line);
    g_assert_nonnull (strstr (error->message, expected));
  }
  bl_document_set_max_links (0);

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/document/read-only/fixtures", test_fixtures);
  g_test_add_func ("/core/document/read-only/generated", test_generated);
  g_test_add_func ("/core/document/read-only/attributes", test_attributes);
  g_test_add_func ("/core/document/read-only/link-poses", test_link_poses);
  g_test_add_func ("/core/document/read-only/errors", test_errors);
  g_test_add_func ("/core/document/read-only/tinyxml-faults", test_tinyxml_faults);
  g_test_add_func ("/core/document/read-only/tinyxml-pieces", test_tinyxml_pieces);
  g_test_add_func ("/core/document/read-only/size-limits", test_size_limits);
  g_test_add_func ("/core/document/read-only/left-out", test_left_out);
  g_test_add_func ("/core/document/read-only/left-out-plugin", test_left_out_plugin);

  return g_test_run ();
}
