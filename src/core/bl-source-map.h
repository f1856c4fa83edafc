/* bl-source-map.h: where every node of a document's XML tree sits in the
 * source bytes, so that saving copies untouched regions byte for byte.
 *
 * libxml2 cannot reproduce a file's bytes (quote style, white space inside
 * tags, the XML declaration, character references and line ends all come
 * back normalised), so Ballast splices instead: a node whose subtree is as
 * it was read is copied from the source; only changed elements, attributes
 * and text are written anew.  Internal to the core: edits and export use it. */
#pragma once

#include <libxml/tree.h>

#include "bl-document.h"

G_BEGIN_DECLS

typedef struct _BlSourceMap BlSourceMap;

/* Maps xml (just parsed from source, not yet edited) onto source.  Fails
 * when the file cannot be mapped losslessly (a UTF-16 file, or a layout
 * the tokenizer does not understand); the check serialises the tree and
 * compares it with the source. */
BlSourceMap *bl_source_map_new             (xmlDoc       *xml,
                                            GBytes       *source,
                                            GError      **error);
void         bl_source_map_free            (BlSourceMap  *map);

/* The current tree, spliced into the source. */
GBytes      *bl_source_map_serialize       (BlSourceMap  *map);

/* The document's map, kept with the document: built on first use, or
 * waited for when bl_source_map_prepare started it.  Every edit must go
 * through it before changing the tree. */
BlSourceMap *bl_source_map_for_document    (BlDocument   *doc,
                                            GError      **error);

/* Starts building the document's map on another thread, right after an
 * editable load: mapping reads the whole file, which an edit should not
 * wait for.  Until bl_source_map_for_document returns, that thread reads
 * the tree (and writes its nodes' _private): nothing may change the tree
 * meanwhile, and only edits do, through bl_source_map_for_document. */
void         bl_source_map_prepare         (BlDocument   *doc);

/* Stops the document's map being made (a document closed at once does not
 * wait for it), waits for its thread and frees it: the document calls it
 * before it frees its tree. */
void         bl_source_map_forget          (BlDocument   *doc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlSourceMap, bl_source_map_free)

G_END_DECLS
