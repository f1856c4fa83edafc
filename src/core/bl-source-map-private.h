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

typedef struct
{
  SpanOffset lead;             /* white space before the name */
  SpanOffset name_start, name_end;
  SpanOffset value_start, value_end; /* inside the quotes */
  char       quote;
  char      *value;            /* as libxml2 read it; NULL for xmlns */
} SpanAttr;

typedef struct _Span Span;

struct _Span
{
  SpanOffset start, end;       /* the whole node */
  guint8     kind;             /* SpanKind */
  guint8     empty;            /* elements only: written <a/> */
  guint      n_attrs;          /* elements only */
  Span      *next;             /* the next sibling */
  /* Elements only: other spans are allocated without these fields */
  SpanOffset name_end;
  SpanOffset attrs_end;        /* after the last attribute (or the name) */
  SpanOffset stag_end;         /* after the start tag's '>' */
  SpanOffset etag_start;       /* the end tag's '<'; == end when empty */
  SpanAttr  *attrs;            /* n_attrs of them */
  Span      *first_child;
};

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

static inline guint
span_n_attrs (const Span *span)
{
  return span->n_attrs;
}

/* Whether the attribute of the source is a namespace declaration (xmlns,
 * xmlns:p), which libxml2 keeps apart from the attributes. */
gboolean     bl_source_map_attr_is_xmlns  (BlSourceMap    *map,
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
/* "prefix:name" or "name" (free it). */
char        *bl_source_map_node_qname     (xmlNode        *node);

G_END_DECLS
