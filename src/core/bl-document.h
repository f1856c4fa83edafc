/* bl-document.h: an SDF document, its libxml2 tree and its computed model. */
#pragma once

#include <glib-object.h>
#include <libxml/tree.h>

#include "bl-model.h"

G_BEGIN_DECLS

#define BL_DOCUMENT_ERROR (bl_document_error_quark ())

typedef enum
{
  BL_DOCUMENT_ERROR_READ,      /* the file could not be read */
  BL_DOCUMENT_ERROR_PARSE,     /* not well-formed XML */
  BL_DOCUMENT_ERROR_NOT_SDF,   /* well-formed, but not an <sdf> document */
  BL_DOCUMENT_ERROR_LIMIT,     /* past a limit on what a file may hold (comments) */
} BlDocumentError;

GQuark bl_document_error_quark (void);

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
/* `path` names the document in diagnostics and anchors relative URIs; it
 * need not exist. */
BlDocument   *bl_document_new_from_data      (const char  *data,
                                              gsize        length,
                                              const char  *path,
                                              GError     **error);
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
/* The original bytes, as read (NULL for a read-only load). */
GBytes       *bl_document_get_source         (BlDocument  *self);
xmlDoc       *bl_document_get_xml            (BlDocument  *self);

/* Top-level models (in a world or directly under <sdf>). */
GPtrArray    *bl_document_get_models         (BlDocument  *self);
/* Every link of every model, nested ones included, in document order. */
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

/* An <include> that was not loaded, for a window that offers the fix: each
 * also has its "include" (or "include-cycle") diagnostic, with the same
 * message, among bl_document_get_diagnostics(), except the repeats of a
 * URI that failed alike before (same_as): a world that includes one
 * missing model ten times has one diagnostic, at the first, naming the
 * count and the other places. */
typedef enum
{
  BL_INCLUDE_NOT_FOUND,        /* not in any folder searched: adding the folder
                                * that holds it to the model path fixes it */
  BL_INCLUDE_NOT_IN_FUEL_CACHE, /* a Fuel URL whose model is not in the local
                                 * Fuel cache (gz fuel download, GZ_FUEL_CACHE_PATH) */
  BL_INCLUDE_UNUSABLE,         /* found, but unreadable, not a model, a cycle,
                                * or no <uri>: the file itself needs fixing */
} BlIncludeProblem;

typedef struct _BlIncludeFailure
{
  BlIncludeProblem problem;
  char  *uri;       /* as written in <uri> ("" when there is none) */
  char  *name;      /* what was looked for: "tethys" of <uri>tethys</uri> or
                     * model://tethys/…, the Fuel model's name; NULL for
                     * BL_INCLUDE_UNUSABLE */
  xmlNode *include; /* the <include> element (its <name>, <plugin>s…) */
  char  *file;      /* the file holding the <include> */
  int    line;      /* of its <uri> (or of the <include> without one) */
  char  *message;   /* what failed, where it looked and what to set */
  GStrv  searched;  /* the folders searched, in order (for a Fuel URL, the
                     * cache folder of the model); empty for BL_INCLUDE_UNUSABLE */
  guint  count;     /* the includes of this URI that failed alike (the same
                     * message), this first one among them; 0 on the others */
  const struct _BlIncludeFailure *same_as;
                    /* on a repeat, the first failure of its URI: only that
                     * one has a diagnostic, which gives the count and the
                     * repeats' places; NULL on a first failure */
} BlIncludeFailure;

/* The includes that failed, in document order (BlIncludeFailure*, owned
 * by the document). Resolving uses the environment and the extra model
 * paths (bl_resource_set_extra_paths()) as they were when it loaded. */
GPtrArray    *bl_document_get_include_failures (BlDocument *self);

/* Re-reads the link's <inertial> and its collisions' <density> from the XML
 * tree, recomputes that link alone and emits ::link-changed.  Edits change
 * the tree, then call this. */
void          bl_document_reload_link        (BlDocument  *self,
                                              BlLink      *link);

G_END_DECLS
