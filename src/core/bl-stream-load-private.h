/* bl-stream-load-private.h: what the two files of the XML parse share:
 * bl-stream-load.c (libxml2, its faults and limits, the read-only load)
 * and bl-stream-load-lean.c (what a parse of the document's file leaves
 * out). */
#pragma once

#include <string.h>

#include <libxml/parser.h>

#include "bl-loader-private.h"
#include "bl-tinyxml-filter-private.h"

G_BEGIN_DECLS

/* libxml2 refuses these; TinyXML2, and so Gazebo, reads them.  "--"
 * inside a comment (gz-sim's own example worlds have it) and text
 * outside the root element never reach libxml2: bl-tinyxml-filter.c
 * rewrites them.  An XML declaration after blank lines: TinyXML2 keeps no
 * node for the blanks.  A declaration after a comment or an element stays
 * an error, as in TinyXML2. */
typedef enum
{
  FAULT_HYPHENS = BL_TINYXML_FAULT_HYPHENS,
  FAULT_OUTSIDE_ROOT = BL_TINYXML_FAULT_OUTSIDE_ROOT,
  FAULT_LATE_DECLARATION = BL_TINYXML_N_FAULTS,
  N_FAULTS
} XmlFault;

/* What one parse met: the first error that makes the file unreadable,
 * and the faults read past as TinyXML2 (libsdformat's reader) reads past
 * them. */
typedef struct
{
  BlLoader   *loader;        /* read-only loads: links are read as they end */
  gboolean    lean;          /* without a loader: leave out as a read-only load */
  const char *path;
  GPtrArray  *diagnostics;   /* where the faults read past go; may be NULL */
  gboolean    failed;
  gboolean    refused;       /* error_message is ours, not libxml2's */
  int         error_code;
  int         error_line;
  char       *error_message;
  int         fault_line[N_FAULTS];  /* the first of each fault read past */
  guint       fault_count[N_FAULTS];
  BlReadCounts *counts;      /* comments, PIs and links of the document so far */
  gboolean    over_limit;    /* refused for MAX_COMMENTS or the most links */
  /* libxml2's converter from the declared encoding failed (its errors
   * have no parser context): the first, and the encoding declared */
  xmlParserCtxt *ctxt;
  char       *encoding_error;
  char       *declared_encoding;
  /* Leaving out what no reader looks at (lean_start_element): the kind
   * of each open element kept, the depth inside a subtree left out, and
   * a run of blanks held back until what follows it is known. */
  guint8     *kinds;         /* NULL when the parse keeps every element */
  guint64    *seen;          /* for each of kinds: the children read once
                              * it has kept (bits by their index in its
                              * table: kept_children, a plugin's names and
                              * terms, <ixx>…, the coefficients, 0 for a
                              * geometry's shape) */
  guint       depth;         /* of kinds and seen, the open elements' */
  guint       levels;        /* the room of both */
  guint       unknown_kept;  /* the open <inertia>, <fluid_added_mass> or
                              * <geometry>'s unknown children kept */
  guint       skip_depth;
  gboolean    in_text;       /* the last event was text passed on */
  GString    *blanks;
  /* An editable load: the ranges of its stand-ins, in the bytes parsed */
  GArray     *left_out;      /* BlSourceRange */
  const char *data;
  gsize       length;
  const xmlChar *run_name;   /* the last stand-in's name when edits place
                              * by it, else NULL */
  guint32     last_open;     /* where the last element left out begins */
  gboolean    joinable;      /* a stand-in ended and only blanks (held
                              * back) came since */
  gboolean    leave_out_failed; /* a range not found in the bytes */
} ParseState;

gboolean bl_stream_count_named                (xmlParserCtxt  *ctxt,
                                               const xmlChar  *localname);
/* Counts an element inside one a lean load keeps whole; FALSE past the
 * most (the parse stopped). */
gboolean bl_stream_count_nested               (xmlParserCtxt  *ctxt);

/* Counts an element the parser starts against the most links and parts
 * (bl_stream_count_named); FALSE past them (the parse stopped).  Asked
 * of every element: the first byte decides for nearly all of them. */
static inline gboolean
bl_stream_count_element (xmlParserCtxt *ctxt,
                         const xmlChar *localname)
{
  switch (localname[0])
    {
    case 'l': case 'm': case 'c': case 'f': case 'j': case 'p':
      return bl_stream_count_named (ctxt, localname);
    default:
      return TRUE;
    }
}
gboolean bl_stream_count_comment              (xmlParserCtxt  *ctxt);
void     bl_stream_sax_start_element          (void           *ctx,
                                               const xmlChar  *localname,
                                               const xmlChar  *prefix,
                                               const xmlChar  *uri,
                                               int             nb_namespaces,
                                               const xmlChar **namespaces,
                                               int             nb_attributes,
                                               int             nb_defaulted,
                                               const xmlChar **attributes);
void     bl_stream_sax_end_element            (void           *ctx,
                                               const xmlChar  *localname,
                                               const xmlChar  *prefix,
                                               const xmlChar  *uri);
void     bl_stream_sax_comment                (void           *ctx,
                                               const xmlChar  *value);
void     bl_stream_sax_processing_instruction (void           *ctx,
                                               const xmlChar  *target,
                                               const xmlChar  *data);

/* Sets the handlers that leave out what no reader looks at on a parse of
 * the document's own file (STATE's left_out set for an editable one,
 * with data and length), and frees what they kept once it is done. */
void     bl_stream_use_lean_handlers          (xmlParserCtxt  *ctxt,
                                               ParseState     *state);
void     bl_stream_clear_lean_state           (ParseState     *state);

G_END_DECLS
