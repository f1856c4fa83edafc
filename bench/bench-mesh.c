/* bench-mesh.c: `ballast-cli inspect` on a model using a generated binary STL
 * (a closed torus of about one million triangles) against assimp alone
 * loading that file, and the parts of a mesh load.
 *
 * Usage: bench-mesh [PATH-TO-BALLAST-CLI] [N-TRIANGLES] [OTHER-BALLAST-CLI]
 *
 * With OTHER-BALLAST-CLI (another build, say the one before a change) its
 * `inspect` is timed too, in turns with the first.
 *
 * Every figure is the best of BALLAST_BENCH_REPEATS runs (default 7), wall
 * time and CPU time (user + sys) apart: on a shared machine the best wall
 * time is the one least disturbed by other work. */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "bl-mesh.h"
#include "bl-mesh-private.h"

extern char **environ;

static guint repeats = 7;

typedef struct
{
  double wall;   /* s */
  double cpu;    /* user + sys, s */
} Timing;

static const Timing no_timing = { G_MAXDOUBLE, G_MAXDOUBLE };

static void
keep_best (Timing *best,
           double  wall,
           double  cpu)
{
  best->wall = MIN (best->wall, wall);
  best->cpu = MIN (best->cpu, cpu);
}

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

static double
rusage_seconds (const struct rusage *usage)
{
  return usage->ru_utime.tv_sec + usage->ru_utime.tv_usec / 1e6 +
         usage->ru_stime.tv_sec + usage->ru_stime.tv_usec / 1e6;
}

static double
cpu_self (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return rusage_seconds (&usage);
}

/* The same torus as binary PLY or OBJ (format "ply" or "obj"): its
 * nu·nv points once each and the triangles indexing them, which assimp
 * reads through the child. */
static char *
write_torus_indexed (const char *dir,
                     const char *format,
                     guint       nu,
                     guint       nv)
{
  g_autofree char *name = g_strdup_printf ("torus.%s", format);
  char *path = g_build_filename (dir, name, NULL);
  gboolean ply = g_str_equal (format, "ply");
  GString *out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  if (ply)
    g_string_append_printf (out, "ply\nformat binary_little_endian 1.0\nelement vertex %u\n"
                            "property float x\nproperty float y\nproperty float z\n"
                            "element face %u\nproperty list uchar int vertex_indices\nend_header\n",
                            nu * nv, 2 * nu * nv);
  for (guint i = 0; i < nu; i++)
    for (guint j = 0; j < nv; j++)
      {
        double u = 2 * G_PI * i / nu, v = 2 * G_PI * j / nv;
        float p[3] = { (1.0 + 0.4 * cos (v)) * cos (u), (1.0 + 0.4 * cos (v)) * sin (u), 0.4 * sin (v) };

        if (ply)
          g_string_append_len (out, (const char *) p, sizeof p);
        else
          g_string_append_printf (out, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
      }
  for (guint i = 0; i < nu; i++)
    for (guint j = 0; j < nv; j++)
      {
        gint32 a = i * nv + j, b = ((i + 1) % nu) * nv + j;
        gint32 c = ((i + 1) % nu) * nv + (j + 1) % nv, d = i * nv + (j + 1) % nv;
        gint32 tris[2][3] = { { a, b, c }, { a, c, d } };

        for (int t = 0; t < 2; t++)
          if (ply)
            {
              g_string_append_c (out, 3);
              g_string_append_len (out, (const char *) tris[t], sizeof tris[t]);
            }
          else
            g_string_append_printf (out, "f %d %d %d\n", tris[t][0] + 1, tris[t][1] + 1, tris[t][2] + 1);
      }

  g_file_set_contents (path, out->str, out->len, &error);
  g_assert_no_error (error);
  g_string_free (out, TRUE);
  return path;
}

/* A torus (R 1, r 0.4) of 2·nu·nv triangles, wound outward. */
static char *
write_torus (const char *dir,
             guint       nu,
             guint       nv)
{
  char *path = g_build_filename (dir, "torus.stl", NULL);
  guint32 n = 2 * nu * nv;
  gsize size = 84 + 50 * (gsize) n;
  g_autofree guint8 *data = g_malloc0 (size);
  g_autofree float *grid = g_new (float, 3 * (gsize) nu * nv);
  g_autoptr(GError) error = NULL;
  guint8 *rec = data + 84;

  memcpy (data, "ballast bench torus", 19);
  memcpy (data + 80, &n, 4);

  for (guint i = 0; i < nu; i++)
    for (guint j = 0; j < nv; j++)
      {
        double u = 2 * G_PI * i / nu, v = 2 * G_PI * j / nv;
        float *p = &grid[3 * ((gsize) i * nv + j)];

        p[0] = (1.0 + 0.4 * cos (v)) * cos (u);
        p[1] = (1.0 + 0.4 * cos (v)) * sin (u);
        p[2] = 0.4 * sin (v);
      }

  for (guint i = 0; i < nu; i++)
    for (guint j = 0; j < nv; j++)
      {
        const float *a = &grid[3 * ((gsize) i * nv + j)];
        const float *b = &grid[3 * ((gsize) ((i + 1) % nu) * nv + j)];
        const float *c = &grid[3 * ((gsize) ((i + 1) % nu) * nv + (j + 1) % nv)];
        const float *d = &grid[3 * ((gsize) i * nv + (j + 1) % nv)];
        const float *tris[2][3] = { { a, b, c }, { a, c, d } };

        for (int t = 0; t < 2; t++)
          {
            /* normal left zero: readers recompute or ignore it */
            for (int k = 0; k < 3; k++)
              memcpy (rec + 12 + 12 * k, tris[t][k], 12);
            rec += 50;
          }
      }

  g_file_set_contents (path, (const char *) data, size, &error);
  g_assert_no_error (error);
  return path;
}

/* A one-link model whose only collision is GEOMETRY, with auto inertia. */
static char *
write_model (const char *dir,
             const char *name,
             const char *geometry)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *sdf = g_strdup_printf (
    "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n  <model name=\"bench\">\n"
    "    <link name=\"hull\">\n      <inertial auto=\"true\"/>\n"
    "      <collision name=\"body\">\n        <density>1000</density>\n"
    "        <geometry>%s</geometry>\n      </collision>\n    </link>\n"
    "  </model>\n</sdf>\n", geometry);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, sdf, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* assimp alone, in this process, with the flags and properties Ballast's
 * mesh reader uses. */
static Timing
time_assimp (const char   *path,
             unsigned int  flags,
             guint         n)
{
  Timing best = no_timing;

  for (guint r = 0; r < n; r++)
    {
      struct aiPropertyStore *store = aiCreatePropertyStore ();
      const struct aiScene *scene;
      double t0, c0;

      aiSetImportPropertyInteger (store, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
      c0 = cpu_self ();
      t0 = now ();
      scene = aiImportFileExWithProperties (path, flags, NULL, store);
      keep_best (&best, now () - t0, cpu_self () - c0);
      g_assert_nonnull (scene);
      g_assert_cmpuint (scene->mNumMeshes, ==, 1);
      aiReleaseImport (scene);
      aiReleasePropertyStore (store);
    }

  return best;
}

/* One run of `ballast-cli inspect --json MODEL` as a process; its output
 * is checked for NEEDLE. */
static void
run_cli (const char *cli,
         const char *model,
         const char *out_path,
         const char *needle,
         Timing     *best)
{
  const char *argv[] = { cli, "inspect", "--json", model, NULL };
  posix_spawn_file_actions_t actions;
  struct rusage usage;
  g_autofree char *output = NULL;
  int status;
  pid_t pid;
  double t0;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, out_path,
                                    O_WRONLY | O_CREAT | O_TRUNC, 0644);
  t0 = now ();
  g_assert_cmpint (posix_spawn (&pid, cli, &actions, NULL, (char **) argv, environ), ==, 0);
  g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
  keep_best (best, now () - t0, rusage_seconds (&usage));
  posix_spawn_file_actions_destroy (&actions);

  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_true (g_file_get_contents (out_path, &output, NULL, NULL));
  if (strstr (output, needle) == NULL)
    g_error ("%s inspect printed no %s:\n%.2000s", cli, needle, output);
}

/* The best of REPEATS runs of CLI; with OTHER, the best of as many runs of
 * OTHER (another build, say the one before a change), taken in turns so
 * that both see the same load. */
static Timing
time_cli (const char *cli,
          const char *other,
          Timing     *other_best,
          const char *model,
          const char *out_path,
          const char *needle)
{
  Timing best = no_timing;

  for (guint r = 0; r < repeats; r++)
    {
      run_cli (cli, model, out_path, needle, &best);
      if (other != NULL)
        run_cli (other, model, out_path, needle, other_best);
    }

  return best;
}

static void
print_row (const char *what,
           Timing      t,
           double      reference)
{
  printf ("%-46s %8.1f ms wall %8.1f ms cpu", what, 1e3 * t.wall, 1e3 * t.cpu);
  if (reference > 0.0)
    printf ("   %.2f x assimp", t.wall / reference);
  printf ("\n");
}

int
main (int    argc,
      char **argv)
{
  const char *cli = argc > 1 && argv[1][0] != '\0' ? argv[1] : NULL;
  guint target = argc > 2 && atoi (argv[2]) > 0 ? (guint) atoi (argv[2]) : 1000000;
  const char *other = argc > 3 && argv[3][0] != '\0' ? argv[3] : NULL;
  guint nv = (guint) sqrt (target / 4.0);
  guint nu = target / (2 * nv);
  const char *env = g_getenv ("BALLAST_BENCH_REPEATS");
  /* "ply" or "obj": the torus in that format instead of binary STL */
  const char *format = g_getenv ("BALLAST_BENCH_MESH_FORMAT");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ballast-bench-mesh-XXXXXX", &error);
  g_autofree char *stl = NULL;
  g_autofree char *model = NULL;
  g_autofree char *box_model = NULL;
  g_autofree char *out = NULL;
  g_autofree char *needle = NULL;
  g_autofree guint32 *flat = NULL;
  Timing assimp, assimp_jiv, inspect = no_timing, inspect_box = no_timing;
  Timing inspect_other = no_timing, inspect_box_other = no_timing;
  Timing load = no_timing, props_time = no_timing, integrate = no_timing;
  BlMeshTimings parts_best = { .native_wall = G_MAXDOUBLE, .decode = G_MAXDOUBLE,
                               .import = G_MAXDOUBLE, .weld = G_MAXDOUBLE,
                               .transfer = G_MAXDOUBLE, .checks = G_MAXDOUBLE,
                               .reap = G_MAXDOUBLE, .health = G_MAXDOUBLE,
                               .integrate = G_MAXDOUBLE };
  const double *vertices = NULL;
  guint n_vertices = 0, n_triangles = 0;
  double ref[3] = { 0, 0, 0 };
  double m[BL_MESH_N_MOMENTS];
  double volume = 0.0;
  gboolean watertight = FALSE;
  guint n_warnings = 0;

  if (env != NULL && atoi (env) > 0)
    repeats = atoi (env);

  g_assert_no_error (error);
  if (format != NULL)
    {
      g_autofree char *geometry = g_strdup_printf ("<mesh><uri>torus.%s</uri></mesh>", format);

      stl = write_torus_indexed (dir, format, nu, nv);
      model = write_model (dir, "torus.sdf", geometry);
    }
  else
    {
      stl = write_torus (dir, nu, nv);
      model = write_model (dir, "torus.sdf", "<mesh><uri>torus.stl</uri></mesh>");
    }
  box_model = write_model (dir, "box.sdf", "<box><size>1 2 3</size></box>");
  out = g_build_filename (dir, "inspect.json", NULL);
  needle = g_strdup_printf ("\"mesh\":{\"triangles\":%u,", 2 * nu * nv);

  assimp = time_assimp (stl, aiProcess_Triangulate, repeats);
  assimp_jiv = time_assimp (stl, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices,
                            MIN (repeats, 3));

  if (cli != NULL)
    {
      inspect = time_cli (cli, other, &inspect_other, model, out, needle);
      inspect_box = time_cli (cli, other, &inspect_box_other, box_model, out, "\"geometry\":\"box\"");
    }

  for (guint r = 0; r < repeats; r++)
    {
      g_autoptr(BlMesh) mesh = NULL;
      BlMeshProperties props;
      BlMeshTimings parts;
      double t0 = now (), c0 = cpu_self ();

      mesh = bl_mesh_new_from_file (stl, bl_vec3 (1, 1, 1), NULL, FALSE, &error);
      keep_best (&load, now () - t0, cpu_self () - c0);
      g_assert_no_error (error);

      t0 = now ();
      c0 = cpu_self ();
      g_assert_true (bl_mesh_get_mass_properties (mesh, FALSE, &props, &error));
      keep_best (&props_time, now () - t0, cpu_self () - c0);
      g_assert_no_error (error);

      bl_mesh_get_timings (&parts);
      parts_best.native = parts.native;
      parts_best.native_wall = MIN (parts_best.native_wall, parts.native_wall);
      parts_best.decode = MIN (parts_best.decode, parts.decode);
      parts_best.import = MIN (parts_best.import, parts.import);
      parts_best.weld = MIN (parts_best.weld, parts.weld);
      parts_best.transfer = MIN (parts_best.transfer, parts.transfer);
      parts_best.checks = MIN (parts_best.checks, parts.checks);
      parts_best.health = MIN (parts_best.health, parts.health);
      parts_best.integrate = MIN (parts_best.integrate, parts.integrate);
      parts_best.reap = MIN (parts_best.reap, parts.reap);

      if (r == 0)
        {
          const guint32 *indices;

          volume = props.volume;
          watertight = props.watertight;
          n_warnings = props.warnings->len;
          vertices = bl_mesh_get_submesh_vertices (mesh, 0, &n_vertices);
          indices = bl_mesh_get_submesh_indices (mesh, 0, &n_triangles);
          flat = g_memdup2 (indices, 3 * sizeof (guint32) * n_triangles);

          /* integration alone: the mesh's own arrays */
          for (guint k = 0; k < 5 * repeats; k++)
            {
              double t1 = now (), c1 = cpu_self ();

              bl_mesh_integrate_moments (vertices, flat, n_triangles, ref, m);
              keep_best (&integrate, now () - t1, cpu_self () - c1);
            }
        }
    }

  {
    GStatBuf st;

    g_stat (stl, &st);
    printf ("mesh: generated torus, %u triangles, %u vertices, %s %.1f MB; best of %u\n",
            n_triangles, n_vertices, format != NULL ? format : "binary STL", st.st_size / 1e6, repeats);
  }
  printf ("volume %.9f (ideal torus %.9f), watertight %s, %u warnings\n",
          volume, 2 * G_PI * G_PI * 1.0 * 0.4 * 0.4, watertight ? "yes" : "no", n_warnings);
  print_row ("assimp alone (Triangulate, Ballast's flags)", assimp, 0.0);
  print_row ("assimp (+JoinIdenticalVertices, gz-common)", assimp_jiv, assimp.wall);
  if (cli != NULL)
    {
      print_row ("ballast-cli inspect --json, torus model", inspect, assimp.wall);
      print_row ("ballast-cli inspect --json, box model", inspect_box, 0.0);
      if (other != NULL)
        {
          printf ("other: %s (in turns with the above)\n", other);
          print_row ("other inspect --json, torus model", inspect_other, assimp.wall);
          print_row ("other inspect --json, box model", inspect_box_other, 0.0);
        }
    }
  print_row ("bl_mesh_new_from_file", load, assimp.wall);
  if (parts_best.native && format != NULL && g_str_equal (format, "ply"))
    {
      printf ("  in-process PLY reader, both threads        %8.1f ms wall\n", 1e3 * parts_best.native_wall);
      printf ("    calling thread: read(2)                  %8.1f ms\n", 1e3 * parts_best.import);
      printf ("    calling thread: decode, index remap      %8.1f ms\n", 1e3 * parts_best.decode);
      printf ("    second thread: weld (during the faces)   %8.1f ms\n", 1e3 * parts_best.weld);
      printf ("  bounds, finiteness                         %8.1f ms\n", 1e3 * parts_best.checks);
    }
  else if (parts_best.native)
    {
      printf ("  in-process STL reader, both threads        %8.1f ms wall\n", 1e3 * parts_best.native_wall);
      printf ("    reading thread: read(2)                  %8.1f ms\n", 1e3 * parts_best.import);
      printf ("    reading thread: decode, finiteness, hash %8.1f ms\n", 1e3 * parts_best.decode);
      printf ("    calling thread: weld                     %8.1f ms\n", 1e3 * parts_best.weld);
      printf ("  bounds                                     %8.1f ms\n", 1e3 * parts_best.checks);
    }
  else
    {
      printf ("  child: assimp import                       %8.1f ms\n", 1e3 * parts_best.import);
      printf ("  child: node transforms + weld              %8.1f ms\n", 1e3 * parts_best.weld);
      printf ("  transfer to the parent                     %8.1f ms\n", 1e3 * parts_best.transfer);
      printf ("  parent: index and finiteness checks        %8.1f ms\n", 1e3 * parts_best.checks);
      printf ("  parent: waiting for the child to exit      %8.1f ms\n", 1e3 * parts_best.reap);
    }
  print_row ("bl_mesh_get_mass_properties", props_time, 0.0);
  printf ("  health checks (2 threads)                  %8.1f ms\n", 1e3 * parts_best.health);
  printf ("  integration (of which some during health)  %8.1f ms\n", 1e3 * parts_best.integrate);
  print_row ("load + mass properties", (Timing) { load.wall + props_time.wall, load.cpu + props_time.cpu },
             assimp.wall);
  printf ("integration alone: %.2f ms, %.1f M triangles/s (%u threads)\n",
          1e3 * integrate.wall, n_triangles / integrate.wall / 1e6, g_get_num_processors ());
  {
    double avg[3];

    if (getloadavg (avg, 3) == 3)
      printf ("load average at the end: %.2f %.2f %.2f\n", avg[0], avg[1], avg[2]);
  }

  g_unlink (stl);
  g_unlink (model);
  g_unlink (box_model);
  g_unlink (out);
  g_rmdir (dir);
  (void) m;
  return 0;
}
