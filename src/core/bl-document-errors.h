/* bl-document-errors.h: what loading a document reports besides the model:
 * the errors that stop a load, and the includes that were not loaded.
 * Below the document and its loader, which both use them (bl-document.h
 * includes this header). */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

#define BL_DOCUMENT_ERROR (bl_document_error_quark ())

/* The models, collisions, frames, joints and plugins a document may hold for each
 * link the bound on links allows (bl_document_set_max_links,
 * bl_document_new_from_file_limited). */
#define BL_DOCUMENT_PARTS_PER_LINK 4

typedef enum
{
  BL_DOCUMENT_ERROR_READ,      /* the file could not be read */
  BL_DOCUMENT_ERROR_PARSE,     /* not well-formed XML */
  BL_DOCUMENT_ERROR_NOT_SDF,   /* well-formed, but not an <sdf> document */
  BL_DOCUMENT_ERROR_LIMIT,     /* past a limit on what a file may hold (comments, links) */
  BL_DOCUMENT_ERROR_TOO_MANY_LINKS, /* past the links the caller allowed this load
                                     * (bl_document_new_from_file_limited) */
  BL_DOCUMENT_ERROR_TOO_MANY_PARTS, /* past the models, collisions, frames, joints and
                                     * plugins it allowed (BL_DOCUMENT_PARTS_PER_LINK
                                     * for each link) */
} BlDocumentError;

GQuark bl_document_error_quark (void);

/* Whether ERROR refused a file past the bound of the caller's
 * (BL_DOCUMENT_ERROR_TOO_MANY_LINKS or _TOO_MANY_PARTS), which the caller
 * may lift. */
gboolean bl_document_error_is_past_bound (const GError *error);

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
  BL_INCLUDE_REFUSED,          /* found outside the model's folder and the resource
                                * paths (docs/HARDENING.md, "Files only where they
                                * belong"): allowing `folder` fixes it, if there is one */
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
                     * cache folder of the model); empty for BL_INCLUDE_UNUSABLE
                     * and BL_INCLUDE_REFUSED */
  char  *folder;    /* BL_INCLUDE_REFUSED: the folder that, added to the model
                     * paths, allows it (bl_resource_error_get_folder); NULL
                     * otherwise and when no setting can (a device, a FIFO,
                     * /proc, /sys: BL_RESOURCE_ERROR_SPECIAL) */
  guint  count;     /* the includes of this URI that failed alike (the same
                     * message), this first one among them; 0 on the others */
  const struct _BlIncludeFailure *same_as;
                    /* on a repeat, the first failure of its URI: only that
                     * one has a diagnostic, which gives the count and the
                     * repeats' places; NULL on a first failure */
} BlIncludeFailure;

/* Frees a failure and everything it holds. */
void bl_include_failure_free (BlIncludeFailure *failure);

/* A mesh <uri> that the placement rule refused (BL_RESOURCE_ERROR_OUTSIDE
 * or BL_RESOURCE_ERROR_SPECIAL), for a window that offers the fix: each
 * is also its link's "mesh" diagnostic, with the same place and message. */
typedef struct
{
  char  *file;      /* the file holding the <uri> */
  int    line;      /* of the <uri> */
  char  *element;   /* the collision, as its diagnostic names it */
  char  *uri;       /* as written */
  char  *message;   /* the diagnostic's */
  char  *folder;    /* the folder that, added to the model paths, allows it;
                     * NULL when no setting can (a special file, the root folder) */
} BlMeshRefusal;

BlMeshRefusal *bl_mesh_refusal_new  (const char   *file,
                                     int           line,
                                     const char   *element,
                                     const char   *uri,
                                     const GError *error);
void           bl_mesh_refusal_free (BlMeshRefusal *refusal);

G_END_DECLS
