/* bl-resource.c: resolve SDF resource URIs (meshes, <include>) to local files. */
#include "config.h"

#include <string.h>

#include "bl-resource.h"

G_DEFINE_QUARK (bl-resource-error-quark, bl_resource_error)

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

GPtrArray *
bl_resource_model_search_path (void)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (model_path_variables); i++)
    append_path_list (out, model_path_variables[i]);

  return out;
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

static char *
resolve_model_uri (const char  *uri,
                   const char  *spec,
                   const char  *base_dir,
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
                   "(set GZ_SIM_RESOURCE_PATH to the folder that holds the model)",
                   name, uri, places);
      return NULL;
    }

  path = g_build_filename (model_dir, rest, NULL);
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

char *
bl_resource_resolve_uri (const char  *uri,
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
    {
      g_set_error (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OFFLINE,
                   "Resource “%s” is a web address and is not available offline: "
                   "download it (e.g. with `gz fuel download`) and refer to the local copy",
                   uri);
      return NULL;
    }

  if (has_scheme (uri, "model://"))
    return resolve_model_uri (uri, uri + strlen ("model://"), base_dir, error);

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
          /* file://relative/path, as some exporters write it */
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
