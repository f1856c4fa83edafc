/* bl-source-map-private.h: what the two files of the source map share:
 * bl-source-map.c (the spans of the source and matching the tree to them)
 * and bl-source-map-write.c (the tree spliced back into the bytes). */
#pragma once

#include "bl-source-map.h"

G_BEGIN_DECLS

typedef enum
{
  SPAN_ELEMENT,
  SPAN_TEXT,
  SPAN_CDATA,
  SPAN_COMMENT,
  SPAN_PI,
  SPAN_ENTITY_REF,
  SPAN_LEFT_OUT,               /* a BlSourceRange: an element of the tree */
} SpanKind;

/* Offsets into the source: 32 bits, as a mapped file is smaller than
 * 4 GiB (bl_source_map_new refuses larger ones; the editable load's limit
 * is far below): a big file has millions of spans, and the offsets are
 * most of their size. */
typedef guint32 SpanOffset;

/* An attribute of an element's start tag, read again from the source
 * when asked (bl_source_map_attr_next): the span keeps only the value
 * libxml2 read, when it differs from the bytes. */
typedef struct
{
  SpanOffset lead;             /* white space before the name */
  SpanOffset name_start, name_end;
  SpanOffset value_start, value_end; /* inside the quotes */
  char       quote;
  guint      index;            /* among the start tag's attributes */
} SpanAttr;

/* Where bl_source_map_attr_next is in a start tag. */
typedef struct
{
  const struct _Span *span;
  SpanOffset pos;
  SpanOffset attrs_end;        /* after the last attribute read (or the name) */
  guint      index;
} SpanAttrIter;

typedef struct _Span Span;

/* What an element's span records is the least that finds the rest in
 * the source: its name's end, its attributes, the end of its start tag
 * and the start of its end tag are read again from the bytes when asked
 * (a big file has millions of spans). */
struct _Span
{
  Span      *next;             /* the next sibling */
  SpanOffset start, end;       /* the whole node */
  guint32    kind : 3;         /* SpanKind */
  guint32    empty : 1;        /* elements only: written <a/> */
  guint32    n_attrs : 28;     /* elements only */
  /* Text only: blanks between elements that the tree leaves out (an
   * editable load's, bl-stream-load-lean.c): no node stands for them;
   * written as they are where they lie, among the nodes that do, until
   * bl_source_map_keep_layout makes them one */
  guint32    layout : 1;
  /* Elements only: other spans are allocated without these fields */
  Span      *first_child;
  /* Each attribute's value as libxml2 read it when that is not the bytes
   * between its quotes (references, line ends), else NULL (and NULL for
   * xmlns declarations, never compared) */
  const char *values[];
};

#if GLIB_SIZEOF_VOID_P == 8
/* A text span is 24 bytes: the layout flag lies in the padding */
G_STATIC_ASSERT (G_STRUCT_OFFSET (Span, first_child) == 24);
#endif

/* Spans, their attributes and the values remembered live in blocks freed
 * at once: a large file has hundreds of thousands of nodes, and as many
 * small allocations cost more to make and free than the mapping. */
typedef struct
{
  GPtrArray *blocks;
  char      *next;
  gsize      left;
} SpanArena;

struct _BlSourceMap
{
  xmlDoc     *xml;
  GBytes     *source;
  const char *s;
  gsize       n;
  Span       *root;
  SpanArena   arena;
  const gint *cancel;          /* while mapping: non-zero to stop; or NULL */
  char       *encoding;        /* NULL: UTF-8 */
  gboolean    crlf;
  gboolean    text_differs;    /* while mapping: a text is not what its span reads */
  /* find_attr's last answer: attributes are asked for in the source's
   * order, which is libxml2's, so the next one is nearly always next */
  xmlNode    *attr_node;
  xmlAttr    *attr_prop;
};

/* SPAN, or the one after it when it is layout (two text spans never
 * follow each other). */
static inline Span *
span_past_layout (Span *span)
{
  return span != NULL && span->layout ? span->next : span;
}

static inline guint
span_n_attrs (const Span *span)
{
  return span->n_attrs;
}

/* The element's attributes, read again from its start tag: ITER set by
 * bl_source_map_attr_first, then each in turn into ATTR (FALSE after the
 * last, with iter->attrs_end set). */
void         bl_source_map_attr_first     (BlSourceMap    *map,
                                           const Span     *span,
                                           SpanAttrIter   *iter);
gboolean     bl_source_map_attr_next      (BlSourceMap    *map,
                                           SpanAttrIter   *iter,
                                           SpanAttr       *attr);
/* After the last attribute read by ITER, once it read them all (or the
 * element's name when it has none). */
SpanOffset   bl_source_map_attrs_end      (BlSourceMap        *map,
                                           const SpanAttrIter *iter);
/* After the '>' (or "/>") of the element's start tag, from the end of its
 * last attribute (SpanAttrIter's attrs_end). */
SpanOffset   bl_source_map_stag_end       (BlSourceMap    *map,
                                           const Span     *span,
                                           SpanOffset      attrs_end);
/* The '<' of the element's end tag; its end when it has none. */
SpanOffset   bl_source_map_etag_start     (BlSourceMap    *map,
                                           const Span     *span);
/* Whether the attribute's value in the tree is what it was when mapped. */
gboolean     bl_source_map_attr_unchanged (BlSourceMap    *map,
                                           const Span     *span,
                                           xmlAttr        *prop,
                                           const SpanAttr *attr);
/* Whether the attribute of the source is a namespace declaration (xmlns,
 * xmlns:p), which libxml2 keeps apart from the attributes. */
gboolean     bl_source_map_attr_is_xmlns  (BlSourceMap    *map,
                                           const SpanAttr *attr);
/* Whether the source's attribute, absent from node, is a name an
 * editable load dropped once read (bl_xml_name_is_read_once): unchanged,
 * written as the file writes it. */
gboolean     bl_source_map_attr_dropped   (BlSourceMap    *map,
                                           xmlNode        *node,
                                           const SpanAttr *attr);
/* The attribute of node named as the source's attr is, or NULL. */
xmlAttr     *bl_source_map_find_attr      (BlSourceMap    *map,
                                           xmlNode        *node,
                                           const SpanAttr *attr);
/* The attribute's one text node, or NULL when it has several (entity
 * references) or none. */
const char  *bl_source_map_attr_text      (xmlAttr        *prop);
/* The attribute's value, as libxml2 joins it (free it). */
char        *bl_source_map_attr_value     (xmlAttr        *prop);
guint        bl_source_map_n_properties   (xmlNode        *node);
/* Whether the text node's content is what its span of the source reads
 * (references decoded, line ends as the parser makes them). */
gboolean     bl_source_map_text_unchanged (BlSourceMap    *map,
                                           xmlNode        *node,
                                           Span           *span);
/* The text of a text span as the parser reads it (references decoded,
 * line ends as the parser makes them), or NULL when it does not convert
 * to UTF-8 (free it). */
char        *bl_source_map_span_text      (BlSourceMap    *map,
                                           const Span     *span);
/* "prefix:name" or "name" (free it). */
char        *bl_source_map_node_qname     (xmlNode        *node);

G_END_DECLS
