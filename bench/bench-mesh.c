/* bench-mesh.c: mesh inertia integration speed and assimp load time on a
 * generated closed binary STL (a torus of about one million triangles).
 *
 * Usage: bench-mesh [N-TRIANGLES] */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "bl-mesh.h"
#include "bl-mesh-private.h"

#define REPEATS 7

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

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

int
main (int argc, char *argv[])
{
  guint target = argc > 1 ? (guint) atoi (argv[1]) : 1000000;
  guint nv = (guint) sqrt (target / 4.0);
  guint nu = target / (2 * nv);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ballast-bench-mesh-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree guint32 *flat = NULL;
  double best_assimp = G_MAXDOUBLE, best_assimp_jiv = G_MAXDOUBLE, best_load = G_MAXDOUBLE;
  double best_integrate = G_MAXDOUBLE, best_props = G_MAXDOUBLE;
  const double *vertices;
  const guint32 *indices;
  guint n_vertices, n_triangles;
  double ref[3] = { 0, 0, 0 };
  double m[BL_MESH_N_MOMENTS];
  BlMeshProperties props;
  double volume = 0.0;
  gboolean watertight = FALSE;
  guint n_warnings = 0;

  g_assert_no_error (error);
  path = write_torus (dir, nu, nv);

  for (int r = 0; r < REPEATS; r++)
    {
      double t0 = now ();
      const struct aiScene *scene = aiImportFile (path, aiProcess_Triangulate);

      best_assimp = MIN (best_assimp, now () - t0);
      g_assert_nonnull (scene);
      aiReleaseImport (scene);

      t0 = now ();
      scene = aiImportFile (path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
      best_assimp_jiv = MIN (best_assimp_jiv, now () - t0);
      g_assert_nonnull (scene);
      aiReleaseImport (scene);
    }

  for (int r = 0; r < REPEATS; r++)
    {
      double t0 = now ();
      g_autoptr(BlMesh) mesh = bl_mesh_new_from_file (path, bl_vec3 (1, 1, 1), NULL, FALSE, &error);

      best_load = MIN (best_load, now () - t0);
      g_assert_no_error (error);

      t0 = now ();
      g_assert_true (bl_mesh_get_mass_properties (mesh, FALSE, &props, &error));
      best_props = MIN (best_props, now () - t0);
      g_assert_no_error (error);

      if (r == 0)
        {
          volume = props.volume;
          watertight = props.watertight;
          n_warnings = props.warnings->len;
          vertices = bl_mesh_get_submesh_vertices (mesh, 0, &n_vertices);
          indices = bl_mesh_get_submesh_indices (mesh, 0, &n_triangles);
          flat = g_memdup2 (indices, 3 * sizeof (guint32) * n_triangles);
          ref[0] = ref[1] = ref[2] = 0.0;

          /* integration alone: the mesh's own arrays */
          for (int k = 0; k < 5 * REPEATS; k++)
            {
              double t1 = now ();

              bl_mesh_integrate_moments (vertices, flat, n_triangles, ref, m);
              best_integrate = MIN (best_integrate, now () - t1);
            }
        }
    }

  printf ("mesh: generated torus, %u triangles, %u vertices, binary STL %.1f MB\n",
          n_triangles, n_vertices, (84 + 50.0 * n_triangles) / 1e6);
  printf ("volume %.9f (ideal torus %.9f), watertight %s, %u warnings\n",
          volume, 2 * G_PI * G_PI * 1.0 * 0.4 * 0.4, watertight ? "yes" : "no", n_warnings);
  printf ("integration alone:           %8.2f ms  %7.1f M triangles/s (%u threads)\n",
          1e3 * best_integrate, n_triangles / best_integrate / 1e6, g_get_num_processors ());
  printf ("mass properties + health:    %8.2f ms  %7.1f M triangles/s\n",
          1e3 * best_props, n_triangles / best_props / 1e6);
  printf ("assimp load (Triangulate):   %8.2f ms\n", 1e3 * best_assimp);
  printf ("assimp load (+JoinIdentical):%8.2f ms\n", 1e3 * best_assimp_jiv);
  printf ("bl_mesh_new_from_file:       %8.2f ms  (%.2f x assimp alone)\n",
          1e3 * best_load, best_load / best_assimp);
  printf ("load + mass properties:      %8.2f ms  (%.2f x assimp alone)\n",
          1e3 * (best_load + best_props), (best_load + best_props) / best_assimp);

  g_unlink (path);
  g_rmdir (dir);
  (void) m;
  return 0;
}
