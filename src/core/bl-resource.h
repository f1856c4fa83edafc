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
  BL_RESOURCE_ERROR_OUTSIDE,            /* outside the model's folder and the resource paths */
  BL_RESOURCE_ERROR_SPECIAL,            /* outside them, and a device, FIFO, socket or a file
                                         * of /proc or /sys: no setting allows it */
} BlResourceError;

GQuark     bl_resource_error_quark        (void);
/* For a BL_RESOURCE_ERROR_OUTSIDE refusal: the folder (canonical) that,
 * added to the model paths, lets models name the refused file: the
 * refused folder itself, or the folder holding the refused file.  NULL
 * for any other error, and when that folder is the root folder (allowing
 * it would allow every file: the allow-outside-files setting does that). */
const char *bl_resource_error_get_folder  (const GError *error);

/* The user's own model folders (the app's and ballast-cli's model-paths
 * setting, ballast-cli --model-path), searched after the environment's.
 * Process-wide and thread-safe; the core never reads a setting itself.
 * set replaces the list (NULL clears it); add appends PATH unless it is
 * already there and returns whether it added it; remove takes PATH out
 * and returns whether it was there; dup returns a copy. */
void       bl_resource_set_extra_paths    (const char * const *paths);
gboolean   bl_resource_add_extra_path     (const char  *path);
gboolean   bl_resource_remove_extra_path  (const char  *path);
char     **bl_resource_dup_extra_paths    (void);

/* Where a model may make Ballast open files (docs/HARDENING.md, "Files
 * only where they belong"): a file that a model names, after every
 * symbolic link on the way is followed, must lie in the folder of the
 * file that names it (a model's own folder), in the folder of the model a
 * model:// URI names, or under a resource path: an entry of the model
 * search path below, the Fuel cache, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH's
 * share folders.  Process-wide and thread-safe; the user's opt-out
 * (ballast-cli --allow-outside-files, the allow-outside-files setting)
 * lets any regular file be named.  Special files stay refused by
 * bl_file_open whatever this says. */
void       bl_resource_set_allow_outside  (gboolean     allowed);
gboolean   bl_resource_get_allow_outside  (void);

/* TRUE when PATH, named by URI (may be NULL) in a file of BASE_DIR, lies
 * where the rule above allows (or the user lifted it), or does not exist;
 * otherwise FALSE with BL_RESOURCE_ERROR_OUTSIDE naming URI, where it
 * leads and the two ways out (bl_resource_error_get_folder gives the
 * folder to add), or BL_RESOURCE_ERROR_SPECIAL when it is a special file
 * (bl_file_describe_special), which no setting lets a model name. */
gboolean   bl_resource_check_place        (const char  *uri,
                                           const char  *path,
                                           const char  *base_dir,
                                           GError     **error);

/* The model search path, in Gazebo's order of precedence: the entries of
 * GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH, SDF_PATH and
 * GAZEBO_MODEL_PATH (each colon-separated), then the extra paths above;
 * empty entries and repeats dropped.
 * Returns a new array of newly allocated strings (free func set). */
GPtrArray *bl_resource_model_search_path  (void);

/* gz-fuel-tools' local cache: $GZ_FUEL_CACHE_PATH, else ~/.gz/fuel. */
char      *bl_resource_fuel_cache_dir     (void);

/* The directory of model NAME: the first existing directory NAME under a
 * search path entry, then under BASE_DIR (the folder of the including file)
 * and BASE_DIR's parent. BASE_DIR may be NULL. Returns NULL if none. */
char      *bl_resource_find_model         (const char  *name,
                                           const char  *base_dir);

/* The absolute, canonical path of an existing file named by URI, where
 * bl_resource_check_place allows it:
 * a path relative to BASE_DIR (the SDF file's folder; the current directory
 * when NULL), file://, an absolute path, model://NAME/rest,
 * package://PKG/rest (ROS_PACKAGE_PATH entries holding PKG, then
 * AMENT_PREFIX_PATH entries' share/PKG) or a Fuel file URL
 * (https://SERVER/1.0/OWNER/models/NAME/VERSION/files/rest), read from the
 * local Fuel cache. A relative file://rest not beside the file is looked
 * for under each model search path entry, as gz-common does.
 * Other http:// and https:// URIs fail with BL_RESOURCE_ERROR_OFFLINE; a
 * missing file fails with BL_RESOURCE_ERROR_NOT_FOUND naming the URI and
 * the places searched. */
char      *bl_resource_resolve_uri        (const char  *uri,
                                           const char  *base_dir,
                                           GError     **error);

/* What an <include><uri> names: a model folder or an SDF file, canonical,
 * where bl_resource_check_place allows it.
 * model://NAME[/rest]; a Fuel model URL (https://SERVER/1.0/OWNER/models/
 * NAME[/VERSION]: the cached VERSION, the newest cached one without it or
 * with "tip"); a path, absolute or relative (file:// or bare, as
 * <uri>tethys</uri>): beside BASE_DIR, then in the current directory, then
 * under each model search path entry, as libsdformat's findFile does with
 * SDF_PATH. On failure the error names the URI, where it looked and what
 * to set, and SEARCHED (when not NULL) receives the folders searched, in
 * order (newly allocated strings; the caller sets the free func). */
char      *bl_resource_resolve_include    (const char  *uri,
                                           const char  *base_dir,
                                           GPtrArray   *searched,
                                           GError     **error);

/* The name an include URI looks for, to tell the user which folder to add:
 * "tethys" of "tethys", "model://tethys/model.sdf" or "file://tethys";
 * the (lowercased) model name of a Fuel URL; the last component of other
 * paths. */
char      *bl_resource_dup_include_name   (const char  *uri);

G_END_DECLS
