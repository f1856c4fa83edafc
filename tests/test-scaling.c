/* test-scaling.c: a path whose cost grows faster than the model fails the
 * build (issue 16).
 *
 * Two worlds from generate_world, of 2,000 and 20,000 links, each one big
 * model (added mass on two links in three, a Hydrodynamics plugin, a
 * nested model, a chain of frames, an <include>, a shared mesh): the
 * larger takes at most 15 times as long to load, read-only (as `inspect`
 * does) and editable (with its map for edits, and written back as a save
 * does), and an edit costs at most
 * three times as much in it as in the smaller.  Times are CPU times (user
 * + system, so another process on a shared machine does not count), the
 * best of a few runs; a quadratic path makes the ratio 100.  The same
 * for one link of 2,000 and 20,000 added-mass elements.  A world of
 * 1,000 and of 10,000 missing models, each included twice, loads in
 * linear time too (its failures grouped by URI). */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <glib/gstdio.h>

#include "bl-added-mass.h"
#include "bl-document.h"
#include "bl-edit.h"
#include "bl-export.h"
#include "bl-model.h"
#include "bl-document-private.h"
#include "generate-model.h"

#define SMALL 2000
#define LARGE 20000
#define RUNS 3

static char *dir;
static char *small, *large;   /* the generated worlds */

/* The process's CPU time (all threads), s. */
static double
process_cpu (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

/* This thread's CPU time, s. */
static double
thread_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static BlDocument *
load (const char          *path,
      BlDocumentLoadFlags  flags)
{
  g_autoptr(GError) error = NULL;
  BlDocument *doc = bl_document_new_from_file_full (path, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* Best CPU time of loading PATH; an editable load counts its map and
 * writing the file back (as a save does). */
static double
time_load (const char          *path,
           BlDocumentLoadFlags  flags)
{
  double best = G_MAXDOUBLE;

  for (guint r = 0; r < RUNS; r++)
    {
      double start = process_cpu ();
      g_autoptr(BlDocument) doc = load (path, flags);

      if (!(flags & BL_DOCUMENT_LOAD_READ_ONLY))
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GBytes) saved = bl_export_to_bytes (doc, &error);

          /* unedited, what is written is the file */
          g_assert_no_error (error);
          g_assert_nonnull (saved);
          g_assert_true (g_bytes_equal (saved, bl_document_get_source (doc)));
        }
      best = MIN (best, process_cpu () - start);
    }

  return best;
}

/* Best CPU time of one density edit of m0::link_3's hull, over batches
 * of 50 edits (after a first one, which waits for the map). */
static double
time_edit (BlDocument *doc)
{
  BlLink *link = bl_document_find_link (doc, "m0::link_3");
  BlCollision *hull;
  double best = G_MAXDOUBLE;

  g_assert_nonnull (link);
  hull = g_ptr_array_index (link->collisions, 0);
  g_assert_cmpstr (hull->name, ==, "hull");

  for (guint batch = 0; batch <= 5; batch++)
    {
      double start = thread_cpu ();

      for (guint i = 0; i < 50; i++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(BlEdit) edit = bl_edit_new_collision_density (doc, hull, 1000 + 50 * batch + i);

          g_assert_true (bl_edit_apply (edit, &error));
          g_assert_no_error (error);
        }
      /* the box's mass is its density times 0.4 × 0.3 × 0.2 m³ */
      g_assert_cmpfloat_with_epsilon (hull->inertial.mass, (1000 + 50 * batch + 49) * 0.024, 1e-9);
      if (batch > 0)
        best = MIN (best, (thread_cpu () - start) / 50);
    }

  return best;
}

/* What the generator wrote: N links, and A7 exactly where a Hydrodynamics
 * plugin names a link with added mass (m0::link_0 and part0::link_0). */
static void
check_world (BlDocument *doc,
             guint       n)
{
  GPtrArray *links = bl_document_get_links (doc);
  guint a7 = 0;

  g_assert_cmpuint (links->len, ==, n);
  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);

      for (guint d = 0; d < link->diagnostics->len; d++)
        {
          BlDiagnostic *diagnostic = g_ptr_array_index (link->diagnostics, d);

          if (g_strcmp0 (diagnostic->code, "A7") == 0)
            {
              g_assert_true (strcmp (link->scoped_name, "m0::link_0") == 0 ||
                             strcmp (link->scoped_name, "part0::link_0") == 0);
              a7++;
            }
        }
    }
  g_assert_cmpuint (a7, ==, 2);
}

static void
test_load (gconstpointer data)
{
  BlDocumentLoadFlags flags = GPOINTER_TO_UINT (data);
  double t_small, t_large;

  {
    g_autoptr(BlDocument) doc = load (large, flags);

    check_world (doc, LARGE);
  }

  t_small = time_load (small, flags);
  t_large = time_load (large, flags);
  g_test_message ("%s load: %u links %.1f ms, %u links %.1f ms CPU: ratio %.1f",
                  flags & BL_DOCUMENT_LOAD_READ_ONLY ? "read-only" : "editable",
                  SMALL, t_small * 1e3, LARGE, t_large * 1e3, t_large / t_small);
  g_assert_cmpfloat (t_large / t_small, <=, 15.0);
}

static void
test_edit (void)
{
  g_autoptr(BlDocument) small_doc = load (small, BL_DOCUMENT_LOAD_DEFAULT);
  g_autoptr(BlDocument) large_doc = load (large, BL_DOCUMENT_LOAD_DEFAULT);
  double t_small = time_edit (small_doc);
  double t_large = time_edit (large_doc);

  g_test_message ("edit: %u links %.2f us, %u links %.2f us CPU: ratio %.2f",
                  SMALL, t_small * 1e6, LARGE, t_large * 1e6, t_large / t_small);
  /* independent of the model's size, well under a millisecond */
  g_assert_cmpfloat (t_large / t_small, <=, 3.0);
  g_assert_cmpfloat (t_large, <, 1e-3);
}

/* A document closed right after its load does not wait for its map of
 * the file (made on a second thread for edits): loading and closing at
 * once costs at least half the map's CPU time less than loading, mapping
 * and closing (without the map stopped, they cost the same). */
static void
test_close_at_once (void)
{
  double with_map = G_MAXDOUBLE, map = G_MAXDOUBLE, at_once = G_MAXDOUBLE;

  for (guint r = 0; r < RUNS; r++)
    {
      double start = process_cpu (), loaded, mapped;
      BlDocument *doc = load (large, BL_DOCUMENT_LOAD_DEFAULT);

      loaded = process_cpu ();
      g_assert_nonnull (bl_document_get_source_map (doc, NULL));
      mapped = process_cpu ();
      g_object_unref (doc);
      map = MIN (map, mapped - loaded);
      with_map = MIN (with_map, process_cpu () - start);

      start = process_cpu ();
      doc = load (large, BL_DOCUMENT_LOAD_DEFAULT);
      g_object_unref (doc);
      at_once = MIN (at_once, process_cpu () - start);
    }

  g_test_message ("load and close: with the map %.1f ms (the map %.1f ms), at once %.1f ms CPU",
                  with_map * 1e3, map * 1e3, at_once * 1e3);
  g_assert_cmpfloat (at_once, <, with_map - 0.5 * map);
}

/* Best CPU time of loading one link whose <fluid_added_mass> holds n
 * comments and then n <yy> values (each read from its own element, not
 * found again from the first child: 2.9 s for 40,000 before). */
static double
time_added_mass_elements (guint n)
{
  g_autoptr(GString) sdf = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">"
                                         "<model name=\"m\"><link name=\"l\"><inertial><mass>1</mass>"
                                         "<fluid_added_mass><xx>1</xx>\n");
  double best = G_MAXDOUBLE;

  for (guint i = 0; i < n; i++)
    g_string_append (sdf, "<!-- c -->");
  for (guint i = 0; i < n; i++)
    g_string_append (sdf, "<yy>2</yy>");
  g_string_append (sdf, "</fluid_added_mass></inertial></link></model></sdf>\n");

  for (guint r = 0; r < RUNS; r++)
    {
      g_autoptr(GError) error = NULL;
      double start = process_cpu ();
      g_autoptr(BlDocument) doc = bl_document_new_from_data (sdf->str, sdf->len, "/nonexistent/am.sdf", &error);
      BlLink *link;

      g_assert_no_error (error);
      link = bl_document_find_link (doc, "m::l");
      g_assert_cmpfloat (link->added_mass[bl_added_mass_key_lookup ("yy")], ==, 2);
      best = MIN (best, process_cpu () - start);
    }
  return best;
}

static void
test_added_mass_elements (void)
{
  double t_small = time_added_mass_elements (SMALL);
  double t_large = time_added_mass_elements (LARGE);

  g_test_message ("added-mass elements: %u %.1f ms, %u %.1f ms CPU: ratio %.1f",
                  SMALL, t_small * 1e3, LARGE, t_large * 1e3, t_large / t_small);
  g_assert_cmpfloat (t_large / t_small, <=, 15.0);
}

/* A world of N missing models, each included twice: N errors (each
 * naming its repeat), in time linear in N. */
static char *
write_failed_includes (guint n)
{
  g_autoptr(GString) text = g_string_new ("<?xml version=\"1.0\"?>\n<sdf version=\"1.11\"><world name=\"w\">\n");
  g_autofree char *name = g_strdup_printf ("failed-%u.sdf", n);
  char *path = g_build_filename (dir, name, NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<include><uri>model://missing_%u</uri></include>\n"
                            "<include><uri>model://missing_%u</uri><name>again_%u</name></include>\n", i, i, i);
  g_string_append (text, "</world></sdf>\n");
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));
  return path;
}

/* Grouping repeated include failures is linear: every failure once. */
static void
test_failed_includes (void)
{
  g_autofree char *small_world = write_failed_includes (SMALL / 2);
  g_autofree char *large_world = write_failed_includes (LARGE / 2);
  double t_small, t_large;

  {
    g_autoptr(BlDocument) doc = load (large_world, BL_DOCUMENT_LOAD_READ_ONLY);

    g_assert_cmpuint (bl_document_get_include_failures (doc)->len, ==, LARGE);
    /* one error a URI, and the warning that the world has no model */
    g_assert_cmpuint (bl_document_get_diagnostics (doc)->len, ==, LARGE / 2 + 1);
  }
  t_small = time_load (small_world, BL_DOCUMENT_LOAD_READ_ONLY);
  t_large = time_load (large_world, BL_DOCUMENT_LOAD_READ_ONLY);

  g_test_message ("failed includes: %u %.1f ms, %u %.1f ms CPU: ratio %.1f",
                  SMALL, t_small * 1e3, LARGE, t_large * 1e3, t_large / t_small);
  g_assert_cmpfloat (t_large / t_small, <=, 15.0);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  dir = g_dir_make_tmp ("ballast-scaling-XXXXXX", NULL);
  g_assert_nonnull (dir);
  small = generate_world (dir, SMALL, SMALL);
  large = generate_world (dir, LARGE, LARGE);

  g_test_add_data_func ("/core/scaling/load-read-only", GUINT_TO_POINTER (BL_DOCUMENT_LOAD_READ_ONLY), test_load);
  g_test_add_data_func ("/core/scaling/load-editable", GUINT_TO_POINTER (BL_DOCUMENT_LOAD_DEFAULT), test_load);
  g_test_add_func ("/core/scaling/edit", test_edit);
  g_test_add_func ("/core/scaling/close-at-once", test_close_at_once);
  g_test_add_func ("/core/scaling/added-mass-elements", test_added_mass_elements);
  g_test_add_func ("/core/scaling/failed-includes", test_failed_includes);
  status = g_test_run ();

  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_unlink (path);
      }
    g_rmdir (dir);
  }
  g_free (small);
  g_free (large);
  g_free (dir);
  return status;
}
