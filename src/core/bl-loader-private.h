/* bl-loader-private.h: reading an SDF file into the model tree.
 *
 * A load is one BlLoader, on the stack of bl_document_load, which lives
 * only while the file is read: the document keeps what the load made (the
 * tree, the models, the diagnostics…) and none of the loader's state (the
 * include stack, the limits, the links read ahead by a streaming load).
 * The loader is four files, each of which calls only the ones below it:
 *
 *   bl-sdf-reader.c    <sdf>, <world>, <model>, <include> as a model: the
 *                      frames of each scope, placement, merge-includes
 *   bl-include.c       finding and reading an included file: the model
 *                      path, model.config, limits, cycles, failures
 *   bl-stream-load.c   libxml2: the parse, its faults and limits, and the
 *                      read-only load that reads each link as it ends
 *   bl-sdf-elements.c  the elements of a link: numbers, poses, <inertial>,
 *                      collisions and their geometry
 *
 * None of them knows the document; the document calls them. */
#pragma once

#include <libxml/tree.h>

#include "bl-arena-private.h"
#include "bl-model.h"
#include "bl-document-errors.h"
#include "bl-frame-graph-private.h"
#include "bl-include-params-private.h"
#include "bl-source-map.h"

G_BEGIN_DECLS

/* What the files of one document have made the reader keep so far,
 * against the reader's limits (bl-stream-load.c): every file of the
 * document counts, its includes too. */
typedef struct
{
  guint    comments;     /* comments and processing instructions */
  guint    links;        /* <link> elements */
  guint    parts;        /* <model>, <collision>, <frame> and <joint> elements */
  guint    nested;       /* elements inside what a lean load keeps whole */
  guint    max_links;    /* the caller's bound on links for this load (0:
                          * bl_stream_get_max_links, a refused include is a
                          * diagnostic), and BL_DOCUMENT_PARTS_PER_LINK times
                          * it on parts; a file past either fails the load */
  gboolean links_refused; /* a file was refused past max_links... */
  gboolean parts_refused; /* ...for its parts */
} BlReadCounts;

typedef struct
{
  /* Given by the caller (borrowed).  The five arrays are the document's:
   * the load appends to them. */
  const char    *path;             /* names the file; anchors relative URIs */
  GBytes        *source;           /* the bytes, or NULL: read the fd */
  gboolean       read_only;        /* BL_DOCUMENT_LOAD_READ_ONLY */
  GPtrArray     *models;           /* BlModel*, top level */
  GPtrArray     *diagnostics;      /* BlDiagnostic* not tied to a link */
  GPtrArray     *included_xml;     /* xmlDoc* of <include>d files */
  GPtrArray     *include_failures; /* BlIncludeFailure* */
  GPtrArray     *mesh_refusals;    /* BlMeshRefusal* */

  /* Made by the load, for the caller to take (steal); bl_loader_clear
   * frees what is left. */
  xmlDoc        *xml;
  xmlNode       *world;            /* the first <world>, or NULL */
  char          *sdf_version;      /* <sdf version> as written, or NULL */
  guint          sdf_minor;        /* 10 for "1.10"; 12 when absent or unknown */
  guint          reading_changes_at; /* the main file reads otherwise from SDF 1.this (0: never) */
  BlArena       *arena;            /* links, collisions and their names */
  GPtrArray     *mesh_collisions;  /* BlCollision* in the arena that hold heap memory */
  GArray        *left_out;         /* editable: BlSourceRange of what the tree holds as stand-ins */

  /* Only while loading. */
  char          *base_dir;         /* the folder of path */
  GPtrArray     *include_stack;    /* char* paths being included */
  guint          n_includes;       /* files included so far, every time counted */
  guint64        include_bytes;    /* their sizes, summed */
  gboolean       include_limit_reported;
  BlReadCounts   counts;           /* comments and links read so far, in every file */
  GHashTable    *included_files;   /* interned SDF path of an include → its BlIncludedFile */
  GHashTable    *included_lean;    /* the same, parsed lean (bl_stream_read_xml) */
  BlParamsBudget params_budget;    /* the work of <experimental:params> */
  GHashTable    *include_firsts;   /* "URI\nmessage" → the first BlIncludeFailure of it */
  GHashTable    *include_diagnostic; /* first BlIncludeFailure* → index of its diagnostic + 1 */
  GHashTable    *mesh_paths;       /* "length:base_dir" "uri" → the path it resolved to */
  GHashTable    *include_paths;    /* the same for <include>s: → the SDF file it names */
  const xmlChar *link_tag;         /* read-only: "link" in the parser's dictionary */
  GPtrArray     *preparsed;        /* read-only: links read ahead, each also in its node's _private */
  GPtrArray     *pose_found;       /* read-only: what reading a link's pose ahead found, emptied after */
  BlModel       *proto;            /* read-only: stands in (name, file) for the <model> whose links
                                    * are read ahead, made anew at each model's first link */
} BlLoader;

/* bl-sdf-reader.c */

/* Reads loader->path (from loader->source, or from fd when it is NULL)
 * into the loader's arrays: the top-level models with every link parsed
 * (not yet computed), and the diagnostics of the file.  FALSE with an
 * error (BL_DOCUMENT_ERROR) only when the file cannot be read or is not
 * an SDF document. */
gboolean       bl_loader_read                (BlLoader     *loader,
                                              int           fd,
                                              GError      **error);
/* Frees the loader's own state and whatever the caller did not take. */
void           bl_loader_clear               (BlLoader     *loader);

/* bl-include.c */

/* The file an <include> names, read (into loader->included_xml): its path
 * (interned) and its top-level <model>, or NULL for a file holding only a
 * <light> or an <actor> (unless `merge`, where that is an error).  FALSE
 * after a failure is recorded. */
gboolean       bl_include_load               (BlLoader     *loader,
                                              xmlNode      *node,
                                              const char   *file,
                                              const char   *owner,
                                              gboolean      merge,
                                              const char  **sdf_path_out,
                                              xmlNode     **model_out);
/* Records an include that failed: its diagnostic and its BlIncludeFailure
 * (`uri` NULL: read from the include; `searched` NULL: none). */
void           bl_include_failed             (BlLoader     *loader,
                                              xmlNode      *include,
                                              const char   *code,
                                              const char   *file,
                                              int           line,
                                              const char   *owner,
                                              const char   *uri,
                                              GPtrArray    *searched,
                                              const char   *format,
                                              ...) G_GNUC_PRINTF (9, 10);
/* After loading: one diagnostic for each URI that failed more than once,
 * naming how many failed and where. */
void           bl_include_group_failures     (BlLoader     *loader);

/* bl-stream-load.c */

/* A link read ahead by a read-only load, before its subtree was freed. */
typedef struct
{
  BlLink        *link;             /* NULL once adopted */
  xmlNode       *node;             /* the <link>, whose _private points here until adopted */
  /* its <pose> as bl_sdf_parse_pose reads it, when that finds nothing to
   * say (its diagnostics would need the owner and the order parse_model
   * gives them): the element freed, pose_read TRUE */
  gboolean       pose_read;
  BlPose         pose;
  char          *relative_to;      /* owned until parse_model takes it */
} BlPreparsedLink;

/* Parses data (or, when fd ≥ 0, reads fd in pieces) into a tree.  With a
 * loader (the document's own file, not an included one), what no reader
 * looks at is left out: a read-only load keeps none of it and reads each
 * <link> as its end tag comes and frees its subtree; an editable one
 * keeps a stand-in for it, its range in loader->left_out.  Without one,
 * LEAN leaves it out as a read-only load does (an included file whose
 * <include> has no <experimental:params>, which may name any element).
 * The faults read past as Gazebo reads past them are warnings in
 * diagnostics (may be NULL); counts adds up comments, PIs and links
 * against the limits.  NULL with a BL_DOCUMENT_ERROR when the file cannot
 * be read or parsed. */
xmlDoc        *bl_stream_read_xml            (BlLoader     *loader,
                                              const char   *data,
                                              gsize         length,
                                              int           fd,
                                              const char   *path,
                                              GPtrArray    *diagnostics,
                                              BlReadCounts *counts,
                                              gboolean      lean,
                                              GError      **error);

/* Adds the counts of a file read before (MORE) to counts when the sums
 * are within the limits bl_stream_read_xml applies; FALSE (counts
 * unchanged) when they are not, and reading the file again would fail. */
gboolean       bl_stream_counts_add          (BlReadCounts       *counts,
                                              const BlReadCounts *more);

/* The most <link> elements one document (with its included files) may
 * hold: bl_document_set_max_links; and BL_DOCUMENT_PARTS_PER_LINK times
 * as many models, collisions, frames, joints and plugins. */
void           bl_stream_set_max_links       (guint         max_links);
guint          bl_stream_get_max_links       (void);
/* The read-ahead link for the <link> `node` of `model`, now the model's,
 * or NULL when there is none. */
BlLink        *bl_stream_adopt_link          (BlLoader     *loader,
                                              BlModel      *model,
                                              xmlNode      *node);
/* A read-ahead link renamed by bl_frame_scope_add (before SDF 1.7): its
 * name and its diagnostics' element, as bl_sdf_parse_link would give them. */
void           bl_stream_rename_link         (BlLoader     *loader,
                                              BlLink       *link,
                                              const char   *name);
/* Frees the links read ahead and never adopted. */
void           bl_stream_clear_preparsed     (BlLoader     *loader);

/* bl-sdf-elements.c */

typedef xmlChar *BlXmlString;
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (BlXmlString, xmlFree, NULL)

/* The element's value (bl_xml_value_node: as libsdformat reads it), not
 * copied; "" when it has none. */
const char    *bl_sdf_text_peek              (xmlNode      *node);
/* The attribute as written (never a DTD's default), not copied when
 * libxml2 holds it as one text node, else copied into *owned (xmlFree).
 * NULL when absent. */
const char    *bl_sdf_attribute_peek         (xmlNode      *node,
                                              const char   *name,
                                              xmlChar     **owned);
/* "true", "false", "1", "0" (any case, trimmed); FALSE for anything else. */
gboolean       bl_sdf_parse_bool             (const char   *text,
                                              gboolean     *value);
/* <pose> with @degrees and @rotation_format; *relative_to gets
 * @relative_to (or NULL).  A broken pose is a diagnostic and the identity. */
BlPose         bl_sdf_parse_pose             (xmlNode      *pose_node,
                                              const char   *owner,
                                              const char   *file,
                                              GPtrArray    *diagnostics,
                                              char        **relative_to);
/* "1.10" → 10; an absent or unknown version reads as the newest, 12. */
guint          bl_sdf_minor_version          (const char   *version);

/* Memory for a link or a collision, from the loader's arena. */
gpointer       bl_sdf_alloc0                 (BlLoader     *loader,
                                              gsize         size);
/* The strings up to NULL joined, in the same memory as bl_sdf_alloc0. */
char          *bl_sdf_strjoin                (BlLoader     *loader,
                                              const char   *first,
                                              ...) G_GNUC_NULL_TERMINATED;
/* The path `uri`, named in a file of `base_dir`, was found to name earlier
 * in this load (bl_sdf_remember_path recorded it in *table), or NULL. */
const char    *bl_sdf_known_path             (GHashTable   *table,
                                              const char   *base_dir,
                                              const char   *uri);
void           bl_sdf_remember_path          (GHashTable  **table,
                                              const char   *base_dir,
                                              const char   *uri,
                                              const char   *path);
/* What the arena does not hold of a mesh collision and of a link. */
void           bl_sdf_arena_collision_free   (BlCollision  *collision);
void           bl_sdf_arena_link_free        (BlLink       *link);

/* A new link `name` of `model` for the <link> `node`, with nothing read yet. */
BlLink        *bl_sdf_parse_link             (BlLoader     *loader,
                                              BlModel      *model,
                                              xmlNode      *node,
                                              const char   *name);
/* Reads the link's <collision>s (names, poses through `scope`, which may
 * be NULL for a link read ahead, and geometry; mesh URIs from base_dir). */
void           bl_sdf_parse_link_collisions  (BlLoader     *loader,
                                              BlLink       *link,
                                              BlFrameScope *scope,
                                              const char   *base_dir);
/* (Re-)reads the link's <inertial> and its collisions' <density>, after
 * dropping every diagnostic but the first n_load_diagnostics. */
void           bl_sdf_parse_link_inertial    (BlLink       *link);

G_END_DECLS
