/* bl-resource.h: resolve SDF resource URIs (meshes, <include>) to local files. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define BL_RESOURCE_ERROR (bl_resource_error_quark ())

typedef enum
{
  BL_RESOURCE_ERROR_INVALID_URI,        /* empty or malformed */
  BL_RESOURCE_ERROR_UNSUPPORTED_SCHEME, /* a scheme Ballast does not know */
  BL_RESOURCE_ERROR_OFFLINE,            /* http(s)://: Ballast never downloads */
  BL_RESOURCE_ERROR_NOT_FOUND,          /* no such file, model or package */
} BlResourceError;

GQuark     bl_resource_error_quark        (void);

/* The model search path, in Gazebo's order of precedence: the entries of
 * GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH, SDF_PATH and
 * GAZEBO_MODEL_PATH (each colon-separated), empty entries dropped.
 * Returns a new array of newly allocated strings (free func set). */
GPtrArray *bl_resource_model_search_path  (void);

/* The directory of model NAME: the first existing directory NAME under a
 * search path entry, then under BASE_DIR (the folder of the including file)
 * and BASE_DIR's parent. BASE_DIR may be NULL. Returns NULL if none. */
char      *bl_resource_find_model         (const char  *name,
                                           const char  *base_dir);

/* The absolute, canonical path of an existing file named by URI:
 * a path relative to BASE_DIR (the SDF file's folder; the current directory
 * when NULL), file://, an absolute path, model://NAME/rest or
 * package://PKG/rest (ROS_PACKAGE_PATH entries holding PKG, then
 * AMENT_PREFIX_PATH entries' share/PKG). http:// and https:// fail with
 * BL_RESOURCE_ERROR_OFFLINE; a missing file fails with
 * BL_RESOURCE_ERROR_NOT_FOUND naming the URI and the places searched. */
char      *bl_resource_resolve_uri        (const char  *uri,
                                           const char  *base_dir,
                                           GError     **error);

G_END_DECLS
