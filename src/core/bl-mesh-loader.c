/* bl-mesh-loader.c: the mesh cache read off the caller's thread, one read per mesh at a time. */
#include "config.h"

#include "bl-mesh-loader.h"

/* One read in a worker thread and the requests waiting for it. */
typedef struct
{
  char      *key;        /* in `reading` */
  char      *path;
  BlVec3     scale;
  char      *submesh;
  gboolean   center;
  GPtrArray *waiters;    /* GTask*, owned */
} Read;

/* key → Read*.  Requests may come from any thread: the table is locked. */
static GHashTable *reading;
G_LOCK_DEFINE_STATIC (reading);

static void
read_free (Read *read)
{
  g_free (read->key);
  g_free (read->path);
  g_free (read->submesh);
  g_ptr_array_unref (read->waiters);
  g_free (read);
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Read *read = task_data;
  GError *error = NULL;
  BlMesh *mesh = bl_mesh_cache_lookup (read->path, read->scale, read->submesh, read->center, &error);

  if (mesh != NULL)
    {
      BlMeshProperties props;

      /* Its health too (what the viewport asks first: whether the surface
       * is closed), computed here once rather than on the caller's thread. */
      bl_mesh_get_mass_properties (mesh, FALSE, &props, NULL);
      g_task_return_pointer (task, mesh, (GDestroyNotify) bl_mesh_unref);
    }
  else
    g_task_return_error (task, error);
}

/* In the first requester's context: hands the result to every waiter. */
static void
read_done (GObject      *source_object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Read *read = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = g_task_propagate_pointer (G_TASK (result), &error);

  G_LOCK (reading);
  g_hash_table_remove (reading, read->key);
  G_UNLOCK (reading);

  for (guint i = 0; i < read->waiters->len; i++)
    {
      GTask *waiter = g_ptr_array_index (read->waiters, i);

      if (mesh != NULL)
        g_task_return_pointer (waiter, bl_mesh_ref (mesh), (GDestroyNotify) bl_mesh_unref);
      else
        g_task_return_error (waiter, g_error_copy (error));
    }
  read_free (read);
}

void
bl_mesh_cache_lookup_async (const char          *path,
                            BlVec3               scale,
                            const char          *submesh,
                            gboolean             center,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) waiter = NULL;
  g_autofree char *key = NULL;
  Read *read;
  gboolean start = FALSE;

  g_return_if_fail (path != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  waiter = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (waiter, bl_mesh_cache_lookup_async);
  /* %a keeps every bit of the scale. */
  key = g_strdup_printf ("%s\n%a %a %a\n%s\n%d", path, scale.x, scale.y, scale.z,
                         submesh != NULL ? submesh : "", !!center);

  G_LOCK (reading);
  if (reading == NULL)
    reading = g_hash_table_new (g_str_hash, g_str_equal);
  read = g_hash_table_lookup (reading, key);
  if (read == NULL)
    {
      read = g_new0 (Read, 1);
      read->key = g_steal_pointer (&key);
      read->path = g_strdup (path);
      read->scale = scale;
      read->submesh = g_strdup (submesh);
      read->center = center;
      read->waiters = g_ptr_array_new_with_free_func (g_object_unref);
      g_hash_table_insert (reading, read->key, read);
      start = TRUE;
    }
  g_ptr_array_add (read->waiters, g_steal_pointer (&waiter));
  G_UNLOCK (reading);

  if (start)
    {
      /* Not cancellable: other requests may wait for the same read. */
      g_autoptr(GTask) task = g_task_new (NULL, NULL, read_done, read);

      g_task_set_source_tag (task, bl_mesh_cache_lookup_async);
      g_task_set_task_data (task, read, NULL);
      g_task_run_in_thread (task, read_thread);
    }
}

BlMesh *
bl_mesh_cache_lookup_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, bl_mesh_cache_lookup_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
bl_mesh_cache_get_n_reading (void)
{
  guint n;

  G_LOCK (reading);
  n = reading != NULL ? g_hash_table_size (reading) : 0;
  G_UNLOCK (reading);
  return n;
}
