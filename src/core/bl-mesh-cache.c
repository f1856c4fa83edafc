/* bl-mesh-cache.c: the shared cache of meshes (and of failures) by file,
 * modification time, size, scale and submesh. */
#include "config.h"

#include <errno.h>

#include <glib/gstdio.h>

#include "bl-mesh-private.h"

static GHashTable *mesh_cache;   /* key string → BlMesh (a reference) */
/* key string → GError: a file that failed fails the same way until it
 * changes (a mesh that times out is not read again, the limit again) */
static GHashTable *failure_cache;
/* The application loads documents in a worker thread while the main thread
 * may reload a link of the open one: both reach the cache.  The lock is not
 * held while a mesh is read, so two threads may read the same new file at
 * once; the second insert replaces the first. */
static GMutex      cache_lock;

static char *
cache_key (const char *path,
           gint64      mtime_ns,
           gint64      size,
           BlVec3      scale,
           const char *submesh,
           gboolean    center)
{
  /* %a keeps every bit of the scale. */
  return g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT "\n%a %a %a\n%s\n%d",
                          path, mtime_ns, size, scale.x, scale.y, scale.z,
                          submesh != NULL ? submesh : "",
                          submesh != NULL && *submesh != '\0' ? !!center : 0);
}

/* prefixes[0] is "PATH\n", prefixes[1] "PATH\nMTIME\nSIZE\n" of the file now. */
static gboolean
is_stale_entry (gpointer key,
                gpointer value,
                gpointer user_data)
{
  char **prefixes = user_data;

  return g_str_has_prefix (key, prefixes[0]) && !g_str_has_prefix (key, prefixes[1]);
}

/* The file's modification time in ns; FALSE (and ERROR) when it cannot
 * be read. */
static gboolean
stat_file (const char *path,
           GStatBuf   *st,
           gint64     *mtime_ns,
           GError    **error)
{
  if (g_stat (path, st) != 0)
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: %s", path, g_strerror (errno));
      return FALSE;
    }

  *mtime_ns = (gint64) st->st_mtime * G_GINT64_CONSTANT (1000000000);
#ifdef __linux__
  *mtime_ns += st->st_mtim.tv_nsec;
#endif
  return TRUE;
}

gboolean
bl_mesh_cache_peek (const char  *path,
                    BlVec3       scale,
                    const char  *submesh,
                    gboolean     center,
                    BlMesh     **mesh,
                    GError     **error)
{
  GStatBuf st;
  gint64 mtime_ns;
  g_autofree char *key = NULL;
  const GError *failure;
  gboolean known = FALSE;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (mesh != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *mesh = NULL;
  if (!stat_file (path, &st, &mtime_ns, error))
    return TRUE;   /* what a lookup answers at once */
  key = cache_key (path, mtime_ns, st.st_size, scale, submesh, center);

  g_mutex_lock (&cache_lock);
  if (mesh_cache != NULL && (*mesh = g_hash_table_lookup (mesh_cache, key)) != NULL)
    {
      bl_mesh_ref (*mesh);
      known = TRUE;
    }
  else if (failure_cache != NULL && (failure = g_hash_table_lookup (failure_cache, key)) != NULL)
    {
      g_set_error_literal (error, failure->domain, failure->code, failure->message);
      known = TRUE;
    }
  g_mutex_unlock (&cache_lock);
  return known;
}

BlMesh *
bl_mesh_cache_lookup (const char  *path,
                      BlVec3       scale,
                      const char  *submesh,
                      gboolean     center,
                      GError     **error)
{
  GStatBuf st;
  gint64 mtime_ns;
  g_autofree char *key = NULL;
  char *prefixes[2];
  BlMesh *mesh;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!stat_file (path, &st, &mtime_ns, error))
    return NULL;

  key = cache_key (path, mtime_ns, st.st_size, scale, submesh, center);

  g_mutex_lock (&cache_lock);
  if (mesh_cache == NULL)
    mesh_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) bl_mesh_unref);
  if (failure_cache == NULL)
    failure_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) g_error_free);
  mesh = g_hash_table_lookup (mesh_cache, key);
  if (mesh != NULL)
    {
      bl_mesh_ref (mesh);
      g_mutex_unlock (&cache_lock);
      return mesh;
    }
  {
    const GError *failure = g_hash_table_lookup (failure_cache, key);

    if (failure != NULL)
      {
        g_set_error_literal (error, failure->domain, failure->code, failure->message);
        g_mutex_unlock (&cache_lock);
        return NULL;
      }
  }

  /* Whatever was cached for an older version of this file is stale. */
  prefixes[0] = g_strdup_printf ("%s\n", path);
  prefixes[1] = g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT "\n",
                                 path, mtime_ns, (gint64) st.st_size);
  g_hash_table_foreach_remove (mesh_cache, is_stale_entry, prefixes);
  g_hash_table_foreach_remove (failure_cache, is_stale_entry, prefixes);
  g_mutex_unlock (&cache_lock);
  g_free (prefixes[0]);
  g_free (prefixes[1]);

  {
    g_autoptr(GError) local_error = NULL;

    mesh = bl_mesh_new_from_file (path, scale, submesh, center, &local_error);
    if (mesh == NULL)
      {
        g_mutex_lock (&cache_lock);
        g_hash_table_replace (failure_cache, g_steal_pointer (&key), g_error_copy (local_error));
        g_mutex_unlock (&cache_lock);
        g_propagate_error (error, g_steal_pointer (&local_error));
        return NULL;
      }
  }
  mesh->unscaled_key = cache_key (path, mtime_ns, st.st_size, bl_vec3 (1, 1, 1), submesh, center);
  mesh->scale = scale;

  g_mutex_lock (&cache_lock);
  g_hash_table_insert (mesh_cache, g_steal_pointer (&key), bl_mesh_ref (mesh));
  g_mutex_unlock (&cache_lock);
  return mesh;
}

void
bl_mesh_cache_clear (void)
{
  g_mutex_lock (&cache_lock);
  if (mesh_cache != NULL)
    g_hash_table_remove_all (mesh_cache);
  if (failure_cache != NULL)
    g_hash_table_remove_all (failure_cache);
  g_mutex_unlock (&cache_lock);
}

void
bl_mesh_cache_forget_failures (void)
{
  g_mutex_lock (&cache_lock);
  if (failure_cache != NULL)
    g_hash_table_remove_all (failure_cache);
  g_mutex_unlock (&cache_lock);
}

guint
bl_mesh_cache_size (void)
{
  guint size;

  g_mutex_lock (&cache_lock);
  size = mesh_cache != NULL ? g_hash_table_size (mesh_cache) : 0;
  g_mutex_unlock (&cache_lock);
  return size;
}
