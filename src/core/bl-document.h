/* bl-document.h: an SDF document, its libxml2 tree and its computed model. */
#pragma once

#include <glib-object.h>
#include <libxml/tree.h>

#include "bl-model.h"
#include "bl-document-errors.h"

G_BEGIN_DECLS


#define BL_TYPE_DOCUMENT (bl_document_get_type ())
G_DECLARE_FINAL_TYPE (BlDocument, bl_document, BL, DOCUMENT, GObject)

/* NULL with an error only when the file cannot be read or is not an SDF
 * document; anything wrong inside the model is a diagnostic instead. */
BlDocument   *bl_document_new_from_file      (const char  *path,
                                              GError     **error);
typedef enum
{
  BL_DOCUMENT_LOAD_DEFAULT   = 0,
  /* For reading only (ballast-cli inspect and check): each link is read as
   * the parser reaches its end tag and its subtree is freed at once, so a
   * large model never holds libxml2's whole tree nor the file's bytes.
   * Every link, value and diagnostic is the same as with the default load,
   * but the document cannot be edited or saved: bl_document_get_source
   * returns NULL, bl_document_get_xml a tree whose links keep only their
   * <pose> and an empty <inertial> (and <fluid_added_mass>), and no
   * attributes, the collisions' node pointers are NULL, and
   * bl_document_reload_link must not be called. */
  BL_DOCUMENT_LOAD_READ_ONLY = 1 << 0,
} BlDocumentLoadFlags;

BlDocument   *bl_document_new_from_file_full (const char           *path,
                                              BlDocumentLoadFlags   flags,
                                              GError              **error);
/* As bl_document_new_from_file_full, within a bound of the caller's: a
 * document of more than MAX_LINKS links with its included files (0: no
 * bound but bl_document_get_max_links) is refused as it is read, with
 * BL_DOCUMENT_ERROR_TOO_MANY_LINKS, one of more than 4 × MAX_LINKS
 * models, collisions, frames, joints and plugins with
 * BL_DOCUMENT_ERROR_TOO_MANY_PARTS, an included file past them too (which
 * the process's bound makes an include diagnostic instead). */
BlDocument   *bl_document_new_from_file_limited (const char          *path,
                                                 BlDocumentLoadFlags  flags,
                                                 guint                max_links,
                                                 GError             **error);
/* `path` names the document in diagnostics and anchors relative URIs; it
 * need not exist. */
BlDocument   *bl_document_new_from_data      (const char  *data,
                                              gsize        length,
                                              const char  *path,
                                              GError     **error);
/* The most <link> elements a document and its included files may hold,
 * for every load after the call (0: the default, 1,048,576), and 4 times
 * as many models, collisions, frames, joints and plugins.  A link costs 2–5 kB
 * while loaded, a collision about 1 kB, so the default bounds a load to a
 * few GB; a file of more is refused as it is read
 * (BL_DOCUMENT_ERROR_LIMIT, naming the limit and the line). */
void          bl_document_set_max_links      (guint        max_links);
guint         bl_document_get_max_links      (void);

/* The built-in sample model (data/sample.sdf, bundled as a GResource). */
BlDocument   *bl_document_new_sample         (void);
GBytes       *bl_document_get_sample_bytes   (void);

gboolean      bl_document_is_read_only       (BlDocument  *self);
const char   *bl_document_get_path           (BlDocument  *self);
/* The <sdf version> as it reads now: an edit that needs a newer element
 * raises it (see bl-edit.h), and its undo lowers it back. */
const char   *bl_document_get_sdf_version    (BlDocument  *self);
/* The version the file declared when it was read. */
const char   *bl_document_get_loaded_sdf_version (BlDocument *self);
/* The lowest SDF minor version from which the file would read otherwise
 * than it reads now (it names a link “M1::L1”, as 1.7 allows and 1.8
 * refuses: 8), or 0 when raising its version changes nothing else. */
guint         bl_document_get_reading_changes_at (BlDocument *self);
/* The original bytes, as read (NULL for a read-only load). */
GBytes       *bl_document_get_source         (BlDocument  *self);
xmlDoc       *bl_document_get_xml            (BlDocument  *self);

/* Top-level models (in a world or directly under <sdf>). */
GPtrArray    *bl_document_get_models         (BlDocument  *self);
/* Every link of every model, nested ones included, in the reader's
 * order: a model's own links, then those of the models nested in it (so
 * not the file's order where a nested model comes between two links). */
GPtrArray    *bl_document_get_links          (BlDocument  *self);
BlLink       *bl_document_find_link          (BlDocument  *self,
                                              const char  *scoped_name);
BlCollision  *bl_document_find_collision     (BlDocument  *self,
                                              const char  *link_scoped_name,
                                              const char  *collision_name);

/* Diagnostics that belong to no link (parse, frames, includes). */
GPtrArray    *bl_document_get_diagnostics    (BlDocument  *self);
/* Every diagnostic: the document's, then each link's, in document order.
 * Free the container with g_ptr_array_unref; the items are borrowed. */
GPtrArray    *bl_document_collect_diagnostics (BlDocument *self);
gboolean      bl_document_has_errors         (BlDocument  *self);


/* The includes that failed, in document order (BlIncludeFailure*, owned
 * by the document). Resolving uses the environment and the extra model
 * paths (bl_resource_set_extra_paths()) as they were when it loaded. */
GPtrArray    *bl_document_get_include_failures (BlDocument *self);
/* The mesh URIs the placement rule refused, in document order
 * (BlMeshRefusal*, owned by the document): what the load saw, as for the
 * include failures. */
GPtrArray    *bl_document_get_mesh_refusals  (BlDocument *self);

/* Re-reads the link's <inertial> and its collisions' <density> from the XML
 * tree, recomputes that link alone and emits ::link-changed.  Edits change
 * the tree, then call this. */
void          bl_document_reload_link        (BlDocument  *self,
                                              BlLink      *link);

G_END_DECLS
