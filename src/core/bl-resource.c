/* bl-resource.c: resolve SDF resource URIs (meshes, <include>) to local files. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bl-file-private.h"
#include "bl-resource.h"

/* What a refusal of the placement rule carries besides its message. */
typedef struct
{
  char *folder;  /* BL_RESOURCE_ERROR_OUTSIDE: the folder to allow, or NULL */
} BlResourceErrorPrivate;

static void
bl_resource_error_private_init (BlResourceErrorPrivate *priv)
{
  priv->folder = NULL;
}

static void
bl_resource_error_private_copy (const BlResourceErrorPrivate *src,
                                BlResourceErrorPrivate       *dest)
{
  dest->folder = g_strdup (src->folder);
}

static void
bl_resource_error_private_clear (BlResourceErrorPrivate *priv)
{
  g_clear_pointer (&priv->folder, g_free);
}

G_DEFINE_EXTENDED_ERROR (BlResourceError, bl_resource_error)

const char *
bl_resource_error_get_folder (const GError *error)
{
  if (error == NULL || error->domain != BL_RESOURCE_ERROR || error->code != BL_RESOURCE_ERROR_OUTSIDE)
    return NULL;
  return bl_resource_error_get_private (error)->folder;
}

/* What a user sets so that a model is found, as every message says it. */
#define HOW_TO_ADD_A_PATH \
  "set GZ_SIM_RESOURCE_PATH (or SDF_PATH) to the folder that holds the model, as " \
  "Gazebo needs too, or add that folder to Ballast's model paths: " \
  "ballast-cli --model-path, or the model-paths setting"

static const char * const model_path_variables[] = {
  "GZ_SIM_RESOURCE_PATH",
  "IGN_GAZEBO_RESOURCE_PATH",
  "SDF_PATH",
  "GAZEBO_MODEL_PATH",
};

static void
append_path_list (GPtrArray  *out,
                  const char *variable)
{
  const char *value = g_getenv (variable);
  g_auto(GStrv) parts = NULL;

  if (value == NULL || *value == '\0')
    return;

  parts = g_strsplit (value, G_SEARCHPATH_SEPARATOR_S, -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (*parts[i] != '\0')
        g_ptr_array_add (out, g_strdup (parts[i]));
    }
}

/* The user's extra model folders; see bl_resource_set_extra_paths(). */
static GMutex extra_lock;
static GStrv extra_paths;

void
bl_resource_set_extra_paths (const char * const *paths)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      if (*paths[i] != '\0')
        g_strv_builder_add (builder, paths[i]);
    }

  g_mutex_lock (&extra_lock);
  g_strfreev (extra_paths);
  extra_paths = g_strv_builder_end (builder);
  g_mutex_unlock (&extra_lock);
}

gboolean
bl_resource_add_extra_path (const char *path)
{
  gboolean added = FALSE;

  g_return_val_if_fail (path != NULL && *path != '\0', FALSE);

  g_mutex_lock (&extra_lock);
  if (extra_paths == NULL || !g_strv_contains ((const char * const *) extra_paths, path))
    {
      guint n = extra_paths != NULL ? g_strv_length (extra_paths) : 0;

      extra_paths = g_renew (char *, extra_paths, n + 2);
      extra_paths[n] = g_strdup (path);
      extra_paths[n + 1] = NULL;
      added = TRUE;
    }
  g_mutex_unlock (&extra_lock);

  return added;
}

gboolean
bl_resource_remove_extra_path (const char *path)
{
  gboolean removed = FALSE;
  guint kept = 0;

  g_return_val_if_fail (path != NULL, FALSE);

  g_mutex_lock (&extra_lock);
  for (guint i = 0; extra_paths != NULL && extra_paths[i] != NULL; i++)
    {
      if (strcmp (extra_paths[i], path) == 0)
        {
          g_free (extra_paths[i]);
          removed = TRUE;
        }
      else
        {
          extra_paths[kept++] = extra_paths[i];
        }
    }
  if (extra_paths != NULL)
    extra_paths[kept] = NULL;
  g_mutex_unlock (&extra_lock);

  return removed;
}

char **
bl_resource_dup_extra_paths (void)
{
  char **copy;

  g_mutex_lock (&extra_lock);
  copy = extra_paths != NULL ? g_strdupv (extra_paths) : g_new0 (char *, 1);
  g_mutex_unlock (&extra_lock);

  return copy;
}

static void
add_unique (GPtrArray  *out,
            const char *path)
{
  for (guint i = 0; i < out->len; i++)
    {
      if (strcmp (g_ptr_array_index (out, i), path) == 0)
        return;
    }
  g_ptr_array_add (out, g_strdup (path));
}

GPtrArray *
bl_resource_model_search_path (void)
{
  g_autoptr(GPtrArray) listed = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) extra = bl_resource_dup_extra_paths ();
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (model_path_variables); i++)
    append_path_list (listed, model_path_variables[i]);
  for (guint i = 0; extra[i] != NULL; i++)
    g_ptr_array_add (listed, g_strdup (extra[i]));

  for (guint i = 0; i < listed->len; i++)
    add_unique (out, g_ptr_array_index (listed, i));

  return out;
}

char *
bl_resource_fuel_cache_dir (void)
{
  const char *value = g_getenv ("GZ_FUEL_CACHE_PATH");

  if (value != NULL && *value != '\0')
    return g_strdup (value);
  return g_build_filename (g_get_home_dir (), ".gz", "fuel", NULL);
}

/* Every directory bl_resource_find_model() tries, in order. */
static GPtrArray *
model_directories (const char *base_dir)
{
  GPtrArray *dirs = bl_resource_model_search_path ();

  if (base_dir != NULL && *base_dir != '\0')
    {
      g_ptr_array_add (dirs, g_strdup (base_dir));
      g_ptr_array_add (dirs, g_path_get_dirname (base_dir));
    }

  return dirs;
}

static char *
join_places (GPtrArray *places)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (places->len == 0)
    return g_strdup ("nowhere (the search path is empty)");

  for (guint i = 0; i < places->len; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, g_ptr_array_index (places, i));
    }

  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
bl_resource_find_model (const char *name,
                        const char *base_dir)
{
  g_autoptr(GPtrArray) dirs = NULL;

  g_return_val_if_fail (name != NULL, NULL);

  if (*name == '\0' || strchr (name, G_DIR_SEPARATOR) != NULL)
    return NULL;

  dirs = model_directories (base_dir);
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *candidate = g_build_filename (g_ptr_array_index (dirs, i), name, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_DIR))
        return g_canonicalize_filename (candidate, NULL);
    }

  return NULL;
}

/* Checks that PATH is an existing regular file; on success returns it canonical. */
static char *
existing_file (const char  *uri,
               const char  *path,
               GError     **error)
{
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_canonicalize_filename (path, NULL);

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                 "Resource “%s” resolves to “%s”, which is not a regular file",
                 uri, path);
  else if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    /* there, but following it fails: not "no file" */
    g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                 "Resource “%s” resolves to “%s”, a symbolic link that leads nowhere "
                 "(a loop of links, or a missing target)", uri, path);
  else
    g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                 "Cannot find resource “%s”: no file “%s”", uri, path);
  return NULL;
}

/* Splits "NAME/rest" at its first slash; rest may be empty. */
static gboolean
split_first_component (const char  *uri,
                       const char  *spec,
                       char       **first,
                       char       **rest,
                       GError     **error)
{
  const char *slash;

  while (*spec == '/')
    spec++;

  slash = strchr (spec, '/');
  if (slash == NULL)
    {
      *first = g_strdup (spec);
      *rest = g_strdup ("");
    }
  else
    {
      *first = g_strndup (spec, slash - spec);
      while (*slash == '/')
        slash++;
      *rest = g_strdup (slash);
    }

  if (**first == '\0')
    {
      g_clear_pointer (first, g_free);
      g_clear_pointer (rest, g_free);
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_INVALID_URI,
                   "Resource URI “%s” names no model or package", uri);
      return FALSE;
    }

  return TRUE;
}

/* model://NAME/rest: with TEST G_FILE_TEST_EXISTS rest may be empty or a
 * folder (an include), with G_FILE_TEST_IS_REGULAR it names a file. */
static char *
resolve_model_uri (const char  *uri,
                   const char  *spec,
                   const char  *base_dir,
                   GFileTest    test,
                   GPtrArray   *searched,
                   GError     **error)
{
  g_autofree char *name = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *model_dir = NULL;
  g_autofree char *path = NULL;

  if (!split_first_component (uri, spec, &name, &rest, error))
    return NULL;

  model_dir = bl_resource_find_model (name, base_dir);
  if (model_dir == NULL)
    {
      g_autoptr(GPtrArray) dirs = model_directories (base_dir);
      g_autofree char *places = join_places (dirs);

      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                   "Cannot find model “%s” of resource “%s”: looked in %s "
                   "(%s)", name, uri, places, HOW_TO_ADD_A_PATH);
      for (guint i = 0; searched != NULL && i < dirs->len; i++)
        g_ptr_array_add (searched, g_strdup (g_ptr_array_index (dirs, i)));
      return NULL;
    }

  path = g_build_filename (model_dir, rest, NULL);
  if (test != G_FILE_TEST_IS_REGULAR && g_file_test (path, test))
    return g_canonicalize_filename (path, NULL);
  return existing_file (uri, path, error);
}

static char *
resolve_package_uri (const char  *uri,
                     const char  *spec,
                     GError     **error)
{
  g_autofree char *package = NULL;
  g_autofree char *rest = NULL;
  g_autoptr(GPtrArray) places = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) ros = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) ament = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *listed = NULL;

  if (!split_first_component (uri, spec, &package, &rest, error))
    return NULL;

  /* A ROS_PACKAGE_PATH entry is either a folder of packages or a package. */
  append_path_list (ros, "ROS_PACKAGE_PATH");
  for (guint i = 0; i < ros->len; i++)
    {
      const char *entry = g_ptr_array_index (ros, i);
      g_autofree char *base = g_path_get_basename (entry);

      g_ptr_array_add (candidates, g_build_filename (entry, package, NULL));
      if (g_strcmp0 (base, package) == 0)
        g_ptr_array_add (candidates, g_strdup (entry));
    }

  append_path_list (ament, "AMENT_PREFIX_PATH");
  for (guint i = 0; i < ament->len; i++)
    g_ptr_array_add (candidates,
                     g_build_filename (g_ptr_array_index (ament, i), "share", package, NULL));

  for (guint i = 0; i < candidates->len; i++)
    {
      const char *dir = g_ptr_array_index (candidates, i);
      g_autofree char *path = NULL;

      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        continue;

      path = g_build_filename (dir, rest, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return g_canonicalize_filename (path, NULL);
      g_ptr_array_add (places, g_steal_pointer (&path));
    }

  if (places->len > 0)
    {
      listed = join_places (places);
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                   "Cannot find resource “%s”: package “%s” has no such file (tried %s)",
                   uri, package, listed);
    }
  else
    {
      listed = join_places (candidates);
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                   "Cannot find package “%s” of resource “%s”: looked in %s "
                   "(set ROS_PACKAGE_PATH or AMENT_PREFIX_PATH)",
                   package, uri, listed);
    }
  return NULL;
}

static gboolean
has_scheme (const char *uri,
            const char *scheme)
{
  return g_ascii_strncasecmp (uri, scheme, strlen (scheme)) == 0;
}

/* A Fuel model URL as gz-fuel-tools reads it:
 * SCHEME://SERVER[/API]/OWNER/models/NAME[/VERSION][/files/PATH], API as
 * "1.0", VERSION digits or "tip", extra slashes allowed. */
typedef struct
{
  char *server;
  char *owner;    /* lowercased, as the cache keeps it */
  char *name;     /* unescaped and lowercased */
  char *version;  /* digits, or NULL for the newest ("tip" or none) */
  char *file;     /* PATH of a file URL, or NULL for the model itself */
  char *model_url; /* the model's URL, as `gz fuel download -u` takes it */
} FuelUrl;

static void
fuel_url_clear (FuelUrl *url)
{
  g_clear_pointer (&url->server, g_free);
  g_clear_pointer (&url->owner, g_free);
  g_clear_pointer (&url->name, g_free);
  g_clear_pointer (&url->version, g_free);
  g_clear_pointer (&url->file, g_free);
  g_clear_pointer (&url->model_url, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FuelUrl, fuel_url_clear)

static gboolean
all_digits (const char *text)
{
  if (*text == '\0')
    return FALSE;
  for (; *text != '\0'; text++)
    {
      if (!g_ascii_isdigit (*text))
        return FALSE;
    }
  return TRUE;
}

static gboolean
is_api_version (const char *text)
{
  const char *dot = strchr (text, '.');

  if (dot == NULL || dot == text || dot[1] == '\0')
    return FALSE;
  for (const char *c = text; *c != '\0'; c++)
    {
      if (c != dot && !g_ascii_isdigit (*c))
        return FALSE;
    }
  return TRUE;
}

/* Whether PATH (unescaped) stays below the folder it is joined to. */
static gboolean
stays_inside (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (strcmp (parts[i], "..") == 0)
        return FALSE;
    }
  return TRUE;
}

static gboolean
parse_fuel_url (const char *uri,
                FuelUrl    *url)
{
  const char *rest = strstr (uri, "://");
  g_auto(GStrv) parts = NULL;
  g_autoptr(GPtrArray) segments = g_ptr_array_new ();
  g_autofree char *name = NULL;
  guint k = 0;

  memset (url, 0, sizeof *url);
  if (rest == NULL)
    return FALSE;

  parts = g_strsplit (rest + 3, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      /* names, never a way out of the cache */
      if (strcmp (parts[i], ".") == 0 || strcmp (parts[i], "..") == 0)
        return FALSE;
      if (*parts[i] != '\0')
        g_ptr_array_add (segments, parts[i]);
    }

  /* server, [api], owner, "models", name */
  if (segments->len < 4)
    return FALSE;
  url->server = g_strdup (g_ptr_array_index (segments, k++));
  if (is_api_version (g_ptr_array_index (segments, k)))
    k++;
  if (k + 3 > segments->len || strcmp (g_ptr_array_index (segments, k + 1), "models") != 0)
    {
      fuel_url_clear (url);
      return FALSE;
    }
  url->owner = g_ascii_strdown (g_ptr_array_index (segments, k), -1);
  name = g_uri_unescape_string (g_ptr_array_index (segments, k + 2), NULL);
  url->name = g_ascii_strdown (name != NULL ? name : g_ptr_array_index (segments, k + 2), -1);
  if (strchr (url->name, '/') != NULL || strcmp (url->name, ".") == 0 || !stays_inside (url->name))
    {
      fuel_url_clear (url);
      return FALSE;
    }
  url->model_url = g_strdup_printf ("https://%s/1.0/%s/models/%s", url->server,
                                    (const char *) g_ptr_array_index (segments, k),
                                    (const char *) g_ptr_array_index (segments, k + 2));
  k += 3;

  if (k < segments->len)
    {
      const char *version = g_ptr_array_index (segments, k);

      if (all_digits (version))
        url->version = g_strdup (version);
      else if (strcmp (version, "tip") != 0)
        {
          fuel_url_clear (url);
          return FALSE;
        }
      k++;
    }

  if (k < segments->len)
    {
      g_autofree char *joined = NULL;

      if (strcmp (g_ptr_array_index (segments, k), "files") != 0 || k + 1 >= segments->len)
        {
          fuel_url_clear (url);
          return FALSE;
        }
      g_ptr_array_add (segments, NULL);
      joined = g_strjoinv ("/", (char **) segments->pdata + k + 1);
      url->file = g_uri_unescape_string (joined, NULL);
      if (url->file == NULL)
        url->file = g_steal_pointer (&joined);
      if (!stays_inside (url->file))
        {
          fuel_url_clear (url);
          return FALSE;
        }
    }

  return TRUE;
}

/* The newest numbered version folder under MODEL_DIR, or NULL. */
static char *
newest_version (const char *model_dir)
{
  g_autoptr(GDir) dir = g_dir_open (model_dir, 0, NULL);
  const char *entry;
  guint64 best = 0;
  char *found = NULL;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      guint64 value;

      if (!all_digits (entry) || strlen (entry) > 18)
        continue;
      value = g_ascii_strtoull (entry, NULL, 10);
      path = g_build_filename (model_dir, entry, NULL);
      if ((found == NULL || value > best) && g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_free (found);
          found = g_steal_pointer (&path);
          best = value;
        }
    }

  return found;
}

/* The cached folder of the model URL names (its version folder). */
static char *
fuel_model_dir (const char  *uri,
                FuelUrl     *url,
                GPtrArray   *searched,
                GError     **error)
{
  g_autofree char *cache = bl_resource_fuel_cache_dir ();
  g_autofree char *model_dir = g_build_filename (cache, url->server, url->owner, "models", url->name, NULL);
  char *version_dir;

  if (searched != NULL)
    g_ptr_array_add (searched, g_strdup (model_dir));

  if (url->version != NULL)
    {
      version_dir = g_build_filename (model_dir, url->version, NULL);
      if (g_file_test (version_dir, G_FILE_TEST_IS_DIR))
        return version_dir;
      g_free (version_dir);
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                   "version %s of Fuel model “%s” (%s) is not in the local Fuel cache: "
                   "no folder %s%s%s. Ballast reads Fuel models from the cache gz-sim "
                   "downloads them to and never downloads: run `gz fuel download -u %s/%s`, "
                   "or set GZ_FUEL_CACHE_PATH to the cache that holds it",
                   url->version, url->name, uri, model_dir, G_DIR_SEPARATOR_S, url->version,
                   url->model_url, url->version);
      return NULL;
    }

  version_dir = newest_version (model_dir);
  if (version_dir != NULL)
    return version_dir;

  g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
               "Fuel model “%s” (%s) is not in the local Fuel cache: no version folder "
               "under %s. Ballast reads Fuel models from the cache gz-sim downloads them "
               "to and never downloads: run `gz fuel download -u %s`, or set "
               "GZ_FUEL_CACHE_PATH to the cache that holds it",
               url->name, uri, model_dir, url->model_url);
  return NULL;
}

/* A Fuel URL: the cached model folder, or with want_file the cached file
 * (a model URL then names nothing). Other web addresses are offline. */
static char *
resolve_web_uri (const char  *uri,
                 gboolean     want_file,
                 GPtrArray   *searched,
                 GError     **error)
{
  g_auto(FuelUrl) url = { 0 };
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  if (!parse_fuel_url (uri, &url) || (want_file && url.file == NULL))
    {
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OFFLINE,
                   "Resource “%s” is a web address and is not available offline: "
                   "download it (e.g. with `gz fuel download`) and refer to the local copy",
                   uri);
      return NULL;
    }

  dir = fuel_model_dir (uri, &url, searched, error);
  if (dir == NULL)
    return NULL;
  if (url.file == NULL)
    return g_canonicalize_filename (dir, NULL);

  path = g_build_filename (dir, url.file, NULL);
  return existing_file (uri, path, error);
}

/* REL beside BASE_DIR, in the current directory, then under each model
 * search path entry; the first that passes TEST (G_FILE_TEST_EXISTS for an
 * include, G_FILE_TEST_IS_REGULAR for a mesh). */
static char *
find_relative (const char *rel,
               const char *base_dir,
               GFileTest   test,
               GPtrArray  *searched)
{
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) path = bl_resource_model_search_path ();
  g_autofree char *cwd = g_get_current_dir ();

  if (base_dir != NULL && *base_dir != '\0')
    g_ptr_array_add (roots, g_strdup (base_dir));
  add_unique (roots, cwd);
  for (guint i = 0; i < path->len; i++)
    add_unique (roots, g_ptr_array_index (path, i));

  for (guint i = 0; i < roots->len; i++)
    {
      const char *root = g_ptr_array_index (roots, i);
      g_autofree char *candidate = g_build_filename (root, rel, NULL);

      if (g_file_test (candidate, test))
        return g_canonicalize_filename (candidate, NULL);
      if (searched != NULL)
        g_ptr_array_add (searched, g_strdup (root));
    }

  return NULL;
}

static char *
resolve_uri (const char  *uri,
             const char  *base_dir,
             GError     **error)
{
  g_autofree char *scheme = NULL;
  g_autofree char *path = NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (uri != NULL)
    {
      while (g_ascii_isspace (*uri))
        uri++;
    }

  if (uri == NULL || *uri == '\0')
    {
      g_set_error_literal (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_INVALID_URI,
                           "Empty resource URI");
      return NULL;
    }

  if (has_scheme (uri, "http://") || has_scheme (uri, "https://"))
    return resolve_web_uri (uri, TRUE, NULL, error);

  if (has_scheme (uri, "model://"))
    return resolve_model_uri (uri, uri + strlen ("model://"), base_dir, G_FILE_TEST_IS_REGULAR, NULL, error);

  if (has_scheme (uri, "package://"))
    return resolve_package_uri (uri, uri + strlen ("package://"), error);

  if (has_scheme (uri, "file://"))
    {
      const char *rest = uri + strlen ("file://");

      if (*rest == '/')
        {
          path = g_filename_from_uri (uri, NULL, NULL);
          if (path == NULL)   /* not a well-formed URI: take the text as a path */
            path = g_strdup (rest);
        }
      else
        {
          /* file://relative/path, as some exporters write it and gz-common
           * resolves through its file paths (gz-sim's resource path) */
          g_autofree char *beside = g_build_filename (base_dir != NULL ? base_dir : ".", rest, NULL);
          char *found;

          if (!g_file_test (beside, G_FILE_TEST_IS_REGULAR) &&
              (found = find_relative (rest, base_dir, G_FILE_TEST_IS_REGULAR, NULL)) != NULL)
            return found;
          path = g_strdup (rest);
        }
    }
  else
    {
      scheme = g_uri_parse_scheme (uri);
      if (scheme != NULL && strlen (scheme) > 1)
        {
          g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_UNSUPPORTED_SCHEME,
                       "Resource “%s” uses the unsupported scheme “%s://”", uri, scheme);
          return NULL;
        }
      path = g_strdup (uri);
    }

  if (!g_path_is_absolute (path))
    {
      g_autofree char *cwd = g_get_current_dir ();
      g_autofree char *joined = g_build_filename (base_dir != NULL ? base_dir : cwd, path, NULL);

      g_free (path);
      path = g_steal_pointer (&joined);
    }

  return existing_file (uri, path, error);
}

static char *
resolve_include (const char  *uri,
                 const char  *base_dir,
                 GPtrArray   *searched,
                 GError     **error)
{
  g_autofree char *scheme = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) tried = g_ptr_array_new_with_free_func (g_free);
  const char *rel;
  char *found;

  g_autofree char *trimmed = uri != NULL ? g_strstrip (g_strdup (uri)) : NULL;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = trimmed;
  if (uri == NULL || *uri == '\0')
    {
      g_set_error_literal (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_INVALID_URI,
                           "Empty resource URI");
      return NULL;
    }

  if (has_scheme (uri, "http://") || has_scheme (uri, "https://"))
    return resolve_web_uri (uri, FALSE, searched, error);

  if (has_scheme (uri, "model://"))
    return resolve_model_uri (uri, uri + strlen ("model://"), base_dir, G_FILE_TEST_EXISTS, searched, error);

  if (has_scheme (uri, "file://"))
    {
      rel = uri + strlen ("file://");
      if (*rel == '/')
        {
          path = g_filename_from_uri (uri, NULL, NULL);
          if (path == NULL)
            path = g_strdup (rel);
        }
    }
  else
    {
      scheme = g_uri_parse_scheme (uri);
      if (scheme != NULL && strlen (scheme) > 1)
        return resolve_uri (uri, base_dir, error);  /* package://, or unsupported */
      rel = uri;
      if (g_path_is_absolute (uri))
        path = g_strdup (uri);
    }

  if (path != NULL)
    {
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        return g_canonicalize_filename (path, NULL);
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                   "Cannot find “%s”: no file or folder %s", uri, path);
      return NULL;
    }

  /* A bare name (<uri>tethys</uri>) or a relative path, as libsdformat's
   * findFile looks for it (the current directory, then SDF_PATH, which
   * gz-sim extends with GZ_SIM_RESOURCE_PATH), beside the file first. */
  found = find_relative (rel, base_dir, G_FILE_TEST_EXISTS, tried);
  if (found != NULL)
    return found;

  {
    g_autofree char *beside = g_build_filename (base_dir, rel, NULL);

    /* there, but following it fails: not "no file" */
    if (g_file_test (beside, G_FILE_TEST_IS_SYMLINK))
      {
        g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                     "Cannot find “%s”: %s is a symbolic link that leads nowhere (a loop of links, "
                     "or a missing target)", uri, beside);
        return NULL;
      }
  }

  {
    g_autofree char *places = join_places (tried);

    g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND,
                 "no model or file “%s” in %s (beside the file, the current folder, then "
                 "the model path); %s", rel, places, HOW_TO_ADD_A_PATH);
  }
  for (guint i = 0; searched != NULL && i < tried->len; i++)
    g_ptr_array_add (searched, g_strdup (g_ptr_array_index (tried, i)));
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Files only where they belong                                            */

static gint allow_outside;

void
bl_resource_set_allow_outside (gboolean allowed)
{
  g_atomic_int_set (&allow_outside, allowed != FALSE);
}

gboolean
bl_resource_get_allow_outside (void)
{
  return g_atomic_int_get (&allow_outside);
}

/* The folders a file named in BASE_DIR by URI may lie in, as written. */
static GPtrArray *
allowed_places (const char *uri,
                const char *base_dir)
{
  GPtrArray *places = bl_resource_model_search_path ();
  g_autoptr(GPtrArray) ros = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) ament = g_ptr_array_new_with_free_func (g_free);

  if (base_dir != NULL && *base_dir != '\0')
    g_ptr_array_insert (places, 0, g_strdup (base_dir));
  if (uri != NULL && has_scheme (uri, "model://"))
    {
      const char *spec = uri + strlen ("model://");
      const char *slash = strchr (spec, '/');
      g_autofree char *name = slash != NULL ? g_strndup (spec, slash - spec) : g_strdup (spec);
      char *dir = bl_resource_find_model (name, base_dir);

      if (dir != NULL)
        g_ptr_array_add (places, dir);
    }
  g_ptr_array_add (places, bl_resource_fuel_cache_dir ());
  append_path_list (ros, "ROS_PACKAGE_PATH");
  for (guint i = 0; i < ros->len; i++)
    g_ptr_array_add (places, g_strdup (g_ptr_array_index (ros, i)));
  append_path_list (ament, "AMENT_PREFIX_PATH");
  for (guint i = 0; i < ament->len; i++)
    g_ptr_array_add (places, g_build_filename (g_ptr_array_index (ament, i), "share", NULL));
  return places;
}

/* Whether REAL (a real path) lies in the folder PLACE, links followed. */
static gboolean
lies_in (const char *real,
         const char *place)
{
  g_autofree char *real_place = realpath (place, NULL);
  gsize n;

  if (real_place == NULL)
    return FALSE;
  n = strlen (real_place);
  if (n == 1 && real_place[0] == '/')
    return TRUE;
  return strncmp (real, real_place, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

/* The folder whose files REAL (a real path, allowed nowhere) becomes
 * allowed with: a folder itself (an included model's), else the folder
 * that holds it; NULL for the root folder, which would allow every file
 * (that is the allow-outside-files setting). */
static char *
dup_folder_to_allow (const char *real)
{
  g_autofree char *folder = g_file_test (real, G_FILE_TEST_IS_DIR) ? g_strdup (real) : g_path_get_dirname (real);

  if (strcmp (folder, "/") == 0)
    return NULL;
  return g_steal_pointer (&folder);
}

gboolean
bl_resource_check_place (const char  *uri,
                         const char  *path,
                         const char  *base_dir,
                         GError     **error)
{
  g_autoptr(GPtrArray) places = NULL;
  g_autofree char *real = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *cwd = NULL;
  const char *special;

  g_return_val_if_fail (path != NULL, FALSE);

  /* no file of its own: as resolved, from the current folder */
  if (base_dir == NULL)
    base_dir = cwd = g_get_current_dir ();

  if (bl_resource_get_allow_outside ())
    return TRUE;
  real = realpath (path, NULL);
  if (real == NULL)
    return TRUE;  /* nothing there to open: the caller says it is missing */

  places = allowed_places (uri, base_dir);
  for (guint i = 0; i < places->len; i++)
    if (lies_in (real, g_ptr_array_index (places, i)))
      return TRUE;

  shown = strcmp (real, path) != 0 ? g_strdup_printf ("%s, which leads to %s,", path, real) : g_strdup (path);
  special = bl_file_describe_special (real);
  if (special != NULL)
    {
      /* no setting lets a model name it: say so, and offer nothing */
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_SPECIAL,
                   "“%s” names %s, %s: a model may never name one, whatever the settings",
                   uri != NULL ? uri : path, real, special);
      return FALSE;
    }
  g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OUTSIDE,
               "“%s” names %s outside the model's folder (%s) and the resource paths; a model may "
               "name only files there: add the folder to the model paths (ballast-cli --model-path, "
               "the model-paths setting) or, trusting the model, lift this (ballast-cli "
               "--allow-outside-files, the allow-outside-files setting)", uri != NULL ? uri : path,
               shown, base_dir);
  if (error != NULL)
    bl_resource_error_get_private (*error)->folder = dup_folder_to_allow (real);
  return FALSE;
}

char *
bl_resource_resolve_uri (const char  *uri,
                         const char  *base_dir,
                         GError     **error)
{
  g_autofree char *path = resolve_uri (uri, base_dir, error);

  if (path == NULL || !bl_resource_check_place (uri, path, base_dir, error))
    return NULL;
  return g_steal_pointer (&path);
}

char *
bl_resource_resolve_include (const char  *uri,
                             const char  *base_dir,
                             GPtrArray   *searched,
                             GError     **error)
{
  g_autofree char *path = resolve_include (uri, base_dir, searched, error);
  g_autofree char *trimmed = NULL;

  if (path == NULL)
    return NULL;
  trimmed = g_strstrip (g_strdup (uri));
  if (!bl_resource_check_place (trimmed, path, base_dir, error))
    return NULL;
  return g_steal_pointer (&path);
}

char *
bl_resource_dup_include_name (const char *uri)
{
  g_autofree char *trimmed = NULL;
  g_auto(FuelUrl) url = { 0 };
  const char *rest;

  g_return_val_if_fail (uri != NULL, NULL);

  trimmed = g_strstrip (g_strdup (uri));
  if ((has_scheme (trimmed, "http://") || has_scheme (trimmed, "https://")) &&
      parse_fuel_url (trimmed, &url))
    return g_steal_pointer (&url.name);

  rest = strstr (trimmed, "://");
  rest = rest != NULL ? rest + 3 : trimmed;
  if (has_scheme (trimmed, "model://") || !g_path_is_absolute (rest))
    {
      /* the first component: the model folder (not a "." or "..") */
      g_autofree char *first = NULL;

      while (*rest == '/')
        rest++;
      first = g_strndup (rest, strcspn (rest, "/"));
      if (strcmp (first, ".") != 0 && strcmp (first, "..") != 0)
        return g_steal_pointer (&first);
    }
  return g_path_get_basename (rest);
}
