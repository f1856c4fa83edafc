/* bl-renderer-gpu-mesh.c: meshes in GL buffers, and big meshes' clusters and coarser levels made in a bounded thread pool. */
#include "config.h"

#include <math.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <epoxy/gl.h>

#include "bl-cluster.h"
#include "bl-renderer-private.h"
#include "bl-simplify-smooth.h"

/* One coarser level of a big mesh, as the thread makes it. */
typedef struct
{
  BlTessMesh *tess;          /* smooth normals; reordered and renumbered when it has clusters */
  GArray     *clusters;      /* BlCluster, or NULL for a small level */
  double      error;
} LevelData;

static void
level_data_free (gpointer data)
{
  LevelData *level = data;

  bl_tess_mesh_free (level->tess);
  g_clear_pointer (&level->clusters, g_array_unref);
  g_free (level);
}

/* Making a big mesh's clusters takes about 0.1 s per million triangles,
 * and its levels about a second, so a pool thread does both while the
 * first frames draw the mesh whole; each stage done is reported to the
 * renderer's main context (BlJobNotify), whose next draw takes it: the
 * first after the clusters uploads the reordered indices and starts
 * skipping clusters, the first after the levels uploads them.  The job is
 * shared by the thread and the mesh, which cancels it when it goes
 * first. */
typedef struct _BlMeshJob
{
  gint    ref_count;
  gint    clusters_done;     /* atomic: clusters and indices are ready */
  gint    levels_done;       /* atomic: levels are ready */
  GArray *vertices;          /* float, shared read-only with the tessellation */
  guint   stride;
  double  radius;            /* of the mesh about its origin */
  GArray *source;            /* guint32, shared read-only with the mesh (its edges) */
  GArray *indices;           /* guint32, the thread's own copy, reordered and renumbered */
  GArray *clusters;          /* BlCluster, the result */
  GArray *new_vertices;      /* float, renumbered in the order of first use */
  GPtrArray *levels;         /* LevelData*, finest first */
  GCancellable *cancellable;
  BlJobNotify *notify;       /* told after each stage */
} BlMeshJob;

BlJobNotify *
bl_job_notify_new (void)
{
  BlJobNotify *notify = g_new0 (BlJobNotify, 1);

  g_atomic_ref_count_init (&notify->ref_count);
  notify->context = g_main_context_ref_thread_default ();
  return notify;
}

static BlJobNotify *
job_notify_ref (BlJobNotify *notify)
{
  g_atomic_ref_count_inc (&notify->ref_count);
  return notify;
}

void
bl_job_notify_unref (BlJobNotify *notify)
{
  if (!g_atomic_ref_count_dec (&notify->ref_count))
    return;
  g_main_context_unref (notify->context);
  g_free (notify);
}

/* In the renderer's context: func and data are only touched there. */
static gboolean
job_notify_dispatch (gpointer data)
{
  BlJobNotify *notify = data;

  if (notify->func != NULL)
    notify->func (notify->data);
  return G_SOURCE_REMOVE;
}

/* From a pool thread: a stage is done. */
static void
job_notify_send (BlJobNotify *notify)
{
  g_main_context_invoke_full (notify->context, G_PRIORITY_DEFAULT, job_notify_dispatch,
                              job_notify_ref (notify), (GDestroyNotify) bl_job_notify_unref);
}

void
bl_gpu_mesh_job_unref (BlMeshJob *job)
{
  if (!g_atomic_int_dec_and_test (&job->ref_count))
    return;
  g_array_unref (job->vertices);
  g_array_unref (job->source);
  g_clear_pointer (&job->indices, g_array_unref);
  g_clear_pointer (&job->clusters, g_array_unref);
  g_clear_pointer (&job->new_vertices, g_array_unref);
  g_clear_pointer (&job->levels, g_ptr_array_unref);
  g_object_unref (job->cancellable);
  bl_job_notify_unref (job->notify);
  g_free (job);
}

/* Reorders the triangles of INDICES into clusters and renumbers the
 * vertices in the order of first use (VERTICES rewritten in that order). */
static GArray *
make_clusters (GArray  *vertices,
               guint    stride,
               GArray  *indices)
{
  GArray *clusters = bl_cluster_build ((const float *) vertices->data, stride, (guint32 *) indices->data,
                                       indices->len / 3, CLUSTER_TRIANGLES);
  g_autoptr(GArray) old = g_array_copy (vertices);

  /* The triangles are in a new order: vertices in the same order keep
   * llvmpipe's vertex fetch sequential instead of scattered. */
  bl_cluster_renumber ((guint32 *) indices->data, indices->len, (const float *) old->data, stride,
                       old->len / stride, (float *) vertices->data);
  return clusters;
}

/* POOL_DATA is non-NULL in the pool's threads (NULL: run by the caller). */
static void
job_run (gpointer data,
         gpointer pool_data)
{
  BlMeshJob *job = data;
  g_autoptr(GPtrArray) simplified = NULL;

#ifdef __linux__
  /* Behind the frames being drawn meanwhile: llvmpipe's threads first. */
  if (pool_data != NULL)
    (void) setpriority (PRIO_PROCESS, (id_t) gettid (), 10);
#endif
  job->indices = g_array_copy (job->source);
  job->new_vertices = g_array_copy (job->vertices);
  job->clusters = make_clusters (job->new_vertices, job->stride, job->indices);
  g_atomic_int_set (&job->clusters_done, 1);
  job_notify_send (job->notify);

  simplified = bl_simplify_levels ((const float *) job->vertices->data, job->stride,
                                   job->vertices->len / job->stride, (const guint32 *) job->source->data,
                                   job->source->len / 3, LEVEL_MIN_TRIANGLES, LEVEL_MAX_ERROR * job->radius,
                                   job->cancellable);
  job->levels = g_ptr_array_new_with_free_func (level_data_free);
  for (guint l = 0; simplified != NULL && l < MIN (simplified->len, MAX_LEVELS); l++)
    {
      BlSimplifyLevel *level = g_ptr_array_index (simplified, l);
      LevelData *out = g_new0 (LevelData, 1);

      out->error = level->error;
      out->tess = bl_simplify_smooth_mesh ((const float *) job->vertices->data, job->stride, level->indices,
                                           LEVEL_CREASE_DEGREES);
      if (bl_tess_mesh_get_n_triangles (out->tess) >= CLUSTER_MIN_TRIANGLES)
        out->clusters = make_clusters (out->tess->vertices, bl_tess_mesh_get_stride (out->tess),
                                       out->tess->indices);
      g_ptr_array_add (job->levels, out);
    }
  g_atomic_int_set (&job->levels_done, 1);
  job_notify_send (job->notify);
  bl_gpu_mesh_job_unref (job);
}

/* The threads of every renderer's mesh jobs: at most half the processors
 * (at least one), the rest left to the frames being drawn meanwhile (on
 * llvmpipe, its own threads); more jobs wait in the queue.  Exclusive:
 * its threads run at nice 10 (job_run) and never serve another pool.
 * NULL when no thread could be made.  Only draws (the main thread) start
 * jobs. */
static GThreadPool *
job_pool (void)
{
  static GThreadPool *pool;
  static gboolean tried;

  if (!tried)
    {
      tried = TRUE;
      pool = g_thread_pool_new (job_run, GINT_TO_POINTER (TRUE), MAX (1, (int) g_get_num_processors () / 2),
                                TRUE, NULL);
    }
  return pool;
}

void
bl_renderer_start_mesh_jobs (BlRenderer *self)
{
  for (guint j = 0; j < self->unstarted_jobs->len; j++)
    {
      BlMeshJob *job = g_ptr_array_index (self->unstarted_jobs, j);
      GThreadPool *pool = job_pool ();

      if (pool == NULL || !g_thread_pool_push (pool, job, NULL))
        job_run (job, NULL);   /* no thread to be had: here, now */
    }
  /* The pool now owns the references the array held. */
  g_ptr_array_set_free_func (self->unstarted_jobs, NULL);
  g_ptr_array_set_size (self->unstarted_jobs, 0);
  g_ptr_array_set_free_func (self->unstarted_jobs, (GDestroyNotify) bl_gpu_mesh_job_unref);
}

/* ---- GL buffers ------------------------------------------------------------ */

static BlGpuMesh *
gpu_mesh_new (const float   *vertices,
              gsize          n_floats,
              gboolean       has_normals,
              GArray        *indices,
              GLenum         primitive)
{
  BlGpuMesh *mesh = g_new0 (BlGpuMesh, 1);

  mesh->ref_count = 1;
  mesh->scale = bl_vec3 (1, 1, 1);
  mesh->has_normals = has_normals;
  mesh->primitive = primitive;
  mesh->n_indices = indices->len;
  glGenBuffers (1, &mesh->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->vbo);
  glBufferData (GL_ARRAY_BUFFER, n_floats * sizeof (float), vertices, GL_STATIC_DRAW);
  glGenBuffers (1, &mesh->ibo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, indices->len * sizeof (guint32), indices->data, GL_STATIC_DRAW);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, 0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
  if (primitive == GL_TRIANGLES)
    mesh->indices = g_array_ref (indices);
  return mesh;
}

static BlGpuMesh *
gpu_mesh_from_tess (BlTessMesh *tess)
{
  return gpu_mesh_new ((const float *) tess->vertices->data, tess->vertices->len,
                       tess->has_normals, tess->indices, GL_TRIANGLES);
}

/* Lines with a colour per vertex (in the normal slot). */
static BlGpuMesh *
gpu_lines_new (const float *xyz_rgb,
               guint        n_vertices)
{
  g_autoptr(GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = 0; i < n_vertices; i++)
    g_array_append_val (indices, i);
  return gpu_mesh_new (xyz_rgb, 6 * n_vertices, TRUE, indices, GL_LINES);
}

void
bl_gpu_mesh_free (gpointer data)
{
  BlGpuMesh *mesh = data;

  glDeleteBuffers (1, &mesh->vbo);
  glDeleteBuffers (1, &mesh->ibo);
  if (mesh->edge_ibo != 0)
    glDeleteBuffers (1, &mesh->edge_ibo);
  g_clear_pointer (&mesh->indices, g_array_unref);
  g_clear_pointer (&mesh->clusters, g_array_unref);
  g_clear_pointer (&mesh->levels, g_ptr_array_unref);
  if (mesh->job != NULL)
    g_cancellable_cancel (mesh->job->cancellable);
  g_clear_pointer (&mesh->job, bl_gpu_mesh_job_unref);
  g_free (mesh->unscaled_key);
  g_free (mesh);
}

void
bl_gpu_mesh_unref (gpointer data)
{
  BlGpuMesh *mesh = data;

  if (--mesh->ref_count == 0)
    bl_gpu_mesh_free (mesh);
}

/* The wireframe's unique edges, made on first use. */
void
bl_gpu_mesh_ensure_edges (BlGpuMesh *mesh)
{
  g_autoptr(GArray) edges = NULL;

  if (mesh->edge_ibo != 0 || mesh->indices == NULL)
    return;
  edges = bl_tess_edges ((const guint32 *) mesh->indices->data, mesh->indices->len / 3);
  mesh->n_edge_indices = edges->len;
  glGenBuffers (1, &mesh->edge_ibo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->edge_ibo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, edges->len * sizeof (guint32), edges->data, GL_STATIC_DRAW);
  g_clear_pointer (&mesh->indices, g_array_unref);
}

/* Uploads a finished thread's reordered indices and renumbered vertices
 * (the same triangles) into MESH's buffers, and takes its clusters; the
 * wireframe's edges are made again from them when next needed. */
static void
gpu_mesh_adopt_clusters (BlGpuMesh *mesh,
                         GArray    *vertices,
                         GArray    *indices,
                         GArray    *clusters)
{
  glBindVertexArray (0);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
  glBufferSubData (GL_ELEMENT_ARRAY_BUFFER, 0, indices->len * sizeof (guint32), indices->data);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, 0);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->vbo);
  glBufferSubData (GL_ARRAY_BUFFER, 0, vertices->len * sizeof (float), vertices->data);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
  if (mesh->edge_ibo != 0)
    {
      glDeleteBuffers (1, &mesh->edge_ibo);
      mesh->edge_ibo = 0;
    }
  g_clear_pointer (&mesh->indices, g_array_unref);
  mesh->indices = g_array_ref (indices);
  mesh->clusters = g_array_ref (clusters);
}

/* What MESH's thread has finished and no draw has taken yet. */
static gboolean
clusters_ready (const BlGpuMesh *mesh)
{
  return mesh->job != NULL && mesh->clusters == NULL && g_atomic_int_get (&mesh->job->clusters_done);
}

static gboolean
levels_ready (const BlGpuMesh *mesh)
{
  return mesh->job != NULL && g_atomic_int_get (&mesh->job->levels_done);
}

static gboolean
job_pending (const BlGpuMesh *mesh)
{
  return mesh->job != NULL;
}

/* Whether TEST holds for any of the renderer's meshes. */
static gboolean
any_mesh (BlRenderer *self,
          gboolean  (*test) (const BlGpuMesh *mesh))
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->mesh_gpu);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (test (value))
      return TRUE;
  return FALSE;
}

/* Takes what the threads of big meshes have finished: clusters first,
 * then the coarser levels (uploaded as meshes of their own). */
void
bl_renderer_adopt_mesh_jobs (BlRenderer *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->mesh_gpu);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      BlGpuMesh *mesh = value;
      BlMeshJob *job = mesh->job;

      if (clusters_ready (mesh))
        {
          gpu_mesh_adopt_clusters (mesh, job->new_vertices, job->indices, job->clusters);
          self->instances_serial++;
        }
      if (!levels_ready (mesh))
        continue;
      self->instances_serial++;
      mesh->levels = g_ptr_array_new_with_free_func (bl_gpu_mesh_free);
      for (guint l = 0; l < job->levels->len; l++)
        {
          LevelData *data = g_ptr_array_index (job->levels, l);
          BlGpuMesh *level = gpu_mesh_from_tess (data->tess);

          level->error = data->error;
          if (data->clusters != NULL)
            level->clusters = g_array_ref (data->clusters);
          g_ptr_array_add (mesh->levels, level);
        }
      g_clear_pointer (&mesh->job, bl_gpu_mesh_job_unref);
    }
}

gboolean
bl_renderer_get_mesh_jobs_pending (BlRenderer *self)
{
  return any_mesh (self, job_pending);
}

/* ---- The fixed meshes: primitives, markers, lines, grid, triad ------------- */

void
bl_renderer_make_fixed_meshes (BlRenderer *self)
{
  for (int level = 0; level < N_LODS; level++)
    {
      static const guint level_slices[N_LODS] = { 40, 14, 6, 4 };
      guint slices = level_slices[level], stacks = slices / 2;
      g_autoptr(BlTessMesh) box = bl_tess_box ();
      g_autoptr(BlTessMesh) sphere = bl_tess_sphere (slices, stacks);
      g_autoptr(BlTessMesh) cylinder = bl_tess_cylinder (slices);
      g_autoptr(BlTessMesh) cone = bl_tess_cone (slices);
      g_autoptr(BlTessMesh) plane = bl_tess_plane ();

      /* What certainly lies inside each level (bl-renderer-occlusion.c):
       * the cylinder's sides are planes cos (π / slices) from its axis. */
      self->sphere_inradius[level] = bl_tess_mesh_get_inradius (sphere);
      self->cylinder_inradius[level] = cos (G_PI / slices);
      self->prims[level][BL_PRIM_BOX] = gpu_mesh_from_tess (box);
      self->prims[level][BL_PRIM_SPHERE] = gpu_mesh_from_tess (sphere);
      self->prims[level][BL_PRIM_CYLINDER] = gpu_mesh_from_tess (cylinder);
      self->prims[level][BL_PRIM_CONE] = gpu_mesh_from_tess (cone);
      self->prims[level][BL_PRIM_PLANE] = gpu_mesh_from_tess (plane);
    }
  {
    g_autoptr(BlTessMesh) marker = bl_tess_sphere (16, 8);

    self->marker = gpu_mesh_from_tess (marker);
  }

  {
    /* The unit cube's 12 edges. */
    float v[24 * 6];
    guint n = 0;

    for (int axis = 0; axis < 3; axis++)
      for (int a = -1; a <= 1; a += 2)
        for (int b = -1; b <= 1; b += 2)
          for (int end = -1; end <= 1; end += 2)
            {
              float p[3];

              p[axis] = 0.5f * end;
              p[(axis + 1) % 3] = 0.5f * a;
              p[(axis + 2) % 3] = 0.5f * b;
              memcpy (&v[6 * n], p, sizeof p);
              memcpy (&v[6 * n + 3], bl_render_box_color, 3 * sizeof (float));
              n++;
            }
    self->cube_edges = gpu_lines_new (v, n);
  }

  {
    /* Principal axes: ±1 along x, y, z in red, green, blue. */
    float v[6 * 6] = { 0 };

    for (int axis = 0; axis < 3; axis++)
      for (int end = 0; end < 2; end++)
        {
          float *p = &v[6 * (2 * axis + end)];

          p[axis] = end ? 1.0f : -1.0f;
          p[3 + axis] = 1.0f;
        }
    self->axes_lines = gpu_lines_new (v, 6);
  }

  {
    /* Triad: the world axes from the origin, red x, green y, blue z. */
    float v[6 * 6] = { 0 };

    for (int axis = 0; axis < 3; axis++)
      {
        float *p = &v[6 * (2 * axis)];

        p[3 + axis] = 1.0f;
        p[6 + axis] = 1.0f;
        p[6 + 3 + axis] = 1.0f;
      }
    self->triad = gpu_lines_new (v, 6);
  }

  {
    /* Grid: 21 lines each way over [−1, 1]², in the grid colour. */
    float v[84 * 6];
    guint n = 0;

    for (int dir = 0; dir < 2; dir++)
      for (int i = -10; i <= 10; i++)
        for (int end = -1; end <= 1; end += 2)
          {
            float *p = &v[6 * n++];

            p[dir] = i / 10.0f;
            p[1 - dir] = (float) end;
            p[2] = 0.0f;
            memcpy (p + 3, bl_render_grid_color, sizeof bl_render_grid_color);
          }
    self->grid = gpu_lines_new (v, n);
  }
}

/* ---- Meshes of the scene --------------------------------------------------- */

/* A mesh's batch culls back faces only when the surface is closed and
 * consistently wound outward. */
gboolean
bl_render_mesh_is_closed (BlMesh *mesh)
{
  BlMeshProperties props;

  return bl_mesh_get_mass_properties (mesh, FALSE, &props, NULL)
         && props.watertight && props.inconsistent_edges == 0 && !props.inside_out;
}

static double
mesh_bound_radius (BlMesh *mesh)
{
  BlVec3 a, b;
  double r = 0.0;

  bl_mesh_get_bounds (mesh, &a, &b);
  r = MAX (r, bl_vec3_length (a));
  r = MAX (r, bl_vec3_length (b));
  r = MAX (r, bl_vec3_length (bl_vec3 (a.x, a.y, b.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (a.x, b.y, a.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (b.x, a.y, a.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (a.x, b.y, b.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (b.x, a.y, b.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (b.x, b.y, a.z)));
  return r;
}

/* The buffers of MESH: those of another <scale> of the same file when
 * there are (bl_mesh_get_unscaled_key), else made now. */
BlGpuMesh *
bl_renderer_gpu_mesh_for (BlRenderer *self,
                          BlMesh     *mesh)
{
  BlGpuMesh *gpu = g_hash_table_lookup (self->mesh_gpu, mesh);
  BlVec3 scale;
  const char *key;

  if (gpu != NULL)
    return gpu;
  key = bl_mesh_get_unscaled_key (mesh, &scale);
  /* A flattened scale has lost a dimension: no other scale can be made from it. */
  if (scale.x == 0.0 || scale.y == 0.0 || scale.z == 0.0)
    key = NULL;
  if (key != NULL)
    gpu = g_hash_table_lookup (self->unscaled_gpu, key);
  if (gpu != NULL)
    gpu->ref_count++;
  else
    {
      g_autoptr(BlTessMesh) tess = bl_tess_from_mesh (mesh);

      gpu = gpu_mesh_from_tess (tess);
      gpu->bound_radius = mesh_bound_radius (mesh);
      if (key != NULL)
        {
          gpu->unscaled_key = g_strdup (key);
          gpu->scale = scale;
          gpu->ref_count++;
          g_hash_table_insert (self->unscaled_gpu, g_strdup (key), gpu);
        }
      if (bl_tess_mesh_get_n_triangles (tess) >= CLUSTER_MIN_TRIANGLES)
        {
          BlMeshJob *job = g_new0 (BlMeshJob, 1);

          job->ref_count = 2;   /* the mesh's and the thread's */
          job->vertices = g_array_ref (tess->vertices);
          job->stride = bl_tess_mesh_get_stride (tess);
          job->radius = gpu->bound_radius;
          job->source = g_array_ref (tess->indices);
          job->cancellable = g_cancellable_new ();
          job->notify = job_notify_ref (self->notify);
          gpu->job = job;
          /* Started once this frame is handed to GL, not to compete with it. */
          g_ptr_array_add (self->unstarted_jobs, job);
        }
    }
  g_hash_table_insert (self->mesh_gpu, bl_mesh_ref (mesh), gpu);
  return gpu;
}
