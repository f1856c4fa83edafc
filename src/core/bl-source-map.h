/* bl-source-map.h: where every node of a document's XML tree sits in the
 * source bytes, so that saving copies untouched regions byte for byte.
 *
 * libxml2 cannot reproduce a file's bytes (quote style, white space inside
 * tags, the XML declaration, character references and line ends all come
 * back normalised), so Ballast splices instead: a node whose subtree is as
 * it was read is copied from the source; only changed elements, attributes
 * and text are written anew.  Internal to the core: the document keeps its
 * map (bl_document_get_source_map), edits and export use it.  Knows
 * nothing of the document: it maps a tree onto bytes. */
#pragma once

#include <libxml/tree.h>

#include <glib.h>

G_BEGIN_DECLS

#define BL_SOURCE_MAP_ERROR (bl_source_map_error_quark ())

typedef enum
{
  BL_SOURCE_MAP_ERROR_NOT_LOSSLESS, /* the file cannot be edited without rewriting it */
} BlSourceMapError;

GQuark bl_source_map_error_quark (void);

typedef struct _BlSourceMap BlSourceMap;

/* A range of the source that the tree holds as one element without
 * children or attributes, in its place: what an editable load left out
 * (bl-stream-load.c), never read nor edited, mapped whole and written
 * back byte for byte. */
typedef struct
{
  guint32 start, end;
} BlSourceRange;

/* Maps xml (just parsed from source, not yet edited) onto source.
 * left_out (BlSourceRange in the source's order, or NULL) is borrowed
 * and must outlive the map.  Fails when the file cannot be mapped
 * losslessly (a UTF-16 file, or a layout the tokenizer does not
 * understand); the check serialises the tree and compares it with the
 * source. */
BlSourceMap *bl_source_map_new             (xmlDoc       *xml,
                                            GBytes       *source,
                                            GArray       *left_out,
                                            GError      **error);
void         bl_source_map_free            (BlSourceMap  *map);

/* The current tree, spliced into the source; the source itself (a new
 * reference) when no node differs from it. */
GBytes      *bl_source_map_serialize       (BlSourceMap  *map);

/* Takes the bytes of the file in order, LENGTH of them at DATA (valid
 * only during the call, never empty). */
/* An editable load leaves blanks between elements out of the tree (the
 * map keeps and writes them).  These make them text nodes of the tree
 * again, as a full parse has them, where an edit reads or places by
 * them: all among ELEMENT's children, or the one just before NODE.  The
 * tree reads and writes as before. */
void         bl_source_map_keep_layout        (BlSourceMap  *map,
                                               xmlNode      *element);
void         bl_source_map_keep_layout_before (BlSourceMap  *map,
                                               xmlNode      *node);

typedef void (*BlSourceMapWriteFunc) (const char *data,
                                      gsize       length,
                                      gpointer    user_data);

/* The same bytes handed to WRITE in pieces as they are made, never held
 * whole: the source's unchanged ranges as they lie in it (contiguous
 * ones in one piece), between the text written anew; the whole source in
 * one piece when no node differs from it. */
void         bl_source_map_write           (BlSourceMap          *map,
                                            BlSourceMapWriteFunc  write,
                                            gpointer              user_data);

/* How some nodes are written at one moment, to be written so later in
 * their place whatever the tree holds there then: an edit applied,
 * recorded and reverted at once costs the bytes it writes, not the
 * nodes it made (a bake written and not kept, bl-export.c).  A patch
 * keeps what a node copies of the source as ranges of it and the rest
 * as text of its own.  Nodes are recorded in document order, none
 * within another, each an element's child that stays in the tree. */
typedef struct _BlSourceMapPatch BlSourceMapPatch;

BlSourceMapPatch *bl_source_map_patch_new    (BlSourceMap      *map);
void              bl_source_map_patch_free   (BlSourceMapPatch *patch);
/* Records node's subtree as the map would write it now. */
void              bl_source_map_patch_record (BlSourceMapPatch *patch,
                                              xmlNode          *node);
/* bl_source_map_serialize and bl_source_map_write with the patch's
 * nodes written as it recorded them (patch may be NULL); map is the
 * patch's. */
GBytes           *bl_source_map_patch_serialize (BlSourceMap          *map,
                                                 BlSourceMapPatch     *patch);
void              bl_source_map_patch_write     (BlSourceMap          *map,
                                                 BlSourceMapPatch     *patch,
                                                 BlSourceMapWriteFunc  write,
                                                 gpointer              user_data);

/* A map made on another thread, right after an editable load: mapping
 * reads the whole file, which an edit should not wait for.  Until
 * bl_source_map_job_get returns, that thread reads the tree (and writes its
 * nodes' _private): nothing may change the tree meanwhile.  Without
 * `in_thread` (or when no thread can be made), bl_source_map_job_get maps
 * it.  `xml` and `left_out` are borrowed and must outlive the job. */
typedef struct _BlSourceMapJob BlSourceMapJob;

BlSourceMapJob *bl_source_map_job_new      (xmlDoc          *xml,
                                            GBytes          *source,
                                            GArray          *left_out,
                                            gboolean         in_thread);
/* Waits for the map (or makes it); the job keeps it.  NULL with an error
 * (the same each time) when the tree cannot be mapped. */
BlSourceMap    *bl_source_map_job_get      (BlSourceMapJob  *job,
                                            GError         **error);
/* Stops the mapping (a tree closed at once does not wait for its map),
 * waits for the thread and frees the job and its map; NULL is allowed. */
void            bl_source_map_job_free     (BlSourceMapJob  *job);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlSourceMap, bl_source_map_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlSourceMapPatch, bl_source_map_patch_free)

G_END_DECLS
