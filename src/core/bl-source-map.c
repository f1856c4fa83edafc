/* bl-source-map.c: the spans of the source bytes, the tree matched to them,
 * and the map made on another thread; writing is bl-source-map-write.c. */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "bl-source-map-private.h"
#include "bl-xml-private.h"

#define SPAN_ARENA_BLOCK (256 * 1024)

/* Zeroed, aligned to 8 (what spans and their pointers need: a text span
 * takes 24 bytes, not 32). */
static gpointer
arena_alloc (SpanArena *arena,
             gsize      size)
{
  gpointer p;

  size = (size + 7) & ~(gsize) 7;
  if (size > arena->left)
    {
      gsize block = MAX (size, SPAN_ARENA_BLOCK);
      char *memory = g_malloc0 (block);

#if defined(G_OS_UNIX) && defined(MADV_POPULATE_WRITE)
      /* The block's pages faulted in by one call, not one fault each 4 KiB
       * as the spans fill it (it is filled to its end but for the last):
       * 31,000 fewer faults of 333,000 in the editable load of the
       * 100,000-link benchmark world. */
      {
        guintptr page = 4096, start = ((guintptr) memory + page - 1) & ~(page - 1);
        guintptr end = ((guintptr) memory + block) & ~(page - 1);

        if (end > start)
          madvise ((void *) start, end - start, MADV_POPULATE_WRITE);
      }
#endif

      g_ptr_array_add (arena->blocks, memory);
      arena->next = memory;
      arena->left = block;
    }
  p = arena->next;
  arena->next += size;
  arena->left -= size;
  return p;
}

static char *
arena_strdup (SpanArena  *arena,
              const char *text)
{
  gsize len = strlen (text);
  char *copy = arena_alloc (arena, len + 1);

  memcpy (copy, text, len);
  return copy;
}

G_DEFINE_QUARK (bl-source-map-error-quark, bl_source_map_error)



/* ------------------------------------------------------------------------ */
/* Tokenizer: the file is already known to be well-formed XML.               */

typedef struct
{
  const char *s;
  gsize       n;
  gsize       pos;
  gboolean    failed;
  SpanArena  *arena;
  const gint *cancel;          /* non-zero: stop; or NULL */
  const BlSourceRange *left_out; /* in order; each one span */
  guint       n_left_out;
  guint       next_left_out;
} Tokenizer;

static gboolean
at (Tokenizer  *t,
    const char *prefix)
{
  gsize len = strlen (prefix);

  return t->pos + len <= t->n && memcmp (t->s + t->pos, prefix, len) == 0;
}

/* Moves past the next occurrence of `terminator`. */
static gboolean
skip_past (Tokenizer  *t,
           const char *terminator)
{
  gsize len = strlen (terminator);

  while (t->pos + len <= t->n)
    {
      if (memcmp (t->s + t->pos, terminator, len) == 0)
        {
          t->pos += len;
          return TRUE;
        }
      t->pos++;
    }
  t->failed = TRUE;
  return FALSE;
}

static inline gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void
skip_spaces (Tokenizer *t)
{
  while (t->pos < t->n && is_space (t->s[t->pos]))
    t->pos++;
}

static inline gboolean
is_name_end (char c)
{
  return is_space (c) || c == '/' || c == '>' || c == '=';
}

static gboolean
is_predefined_or_char_ref (Tokenizer *t)
{
  static const char * const predefined[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };

  if (at (t, "&#"))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (predefined); i++)
    if (at (t, predefined[i]))
      return TRUE;
  return FALSE;
}

static Span *
span_new (Tokenizer *t,
          SpanKind   kind,
          gsize      start)
{
  Span *span = arena_alloc (t->arena, G_STRUCT_OFFSET (Span, first_child));

  g_assert (kind != SPAN_ELEMENT);
  span->kind = kind;
  span->start = start;
  return span;
}

static Span *parse_element (Tokenizer *t);

/* Content up to the parent's end tag; t->pos is left on its '<'. */
static void
parse_content (Tokenizer *t,
               Span      *parent)
{
  Span *last = NULL;

  while (t->pos < t->n && !t->failed)
    {
      gsize start = t->pos;

      if (t->cancel != NULL && g_atomic_int_get (t->cancel))
        {
          t->failed = TRUE;
          return;
        }
      Span *child = NULL;

      if (t->next_left_out < t->n_left_out && start == t->left_out[t->next_left_out].start)
        {
          child = span_new (t, SPAN_LEFT_OUT, start);
          t->pos = t->left_out[t->next_left_out++].end;
        }
      else if (at (t, "</"))
        return;
      else if (at (t, "<!--"))
        {
          child = span_new (t, SPAN_COMMENT, start);
          skip_past (t, "-->");
        }
      else if (at (t, "<![CDATA["))
        {
          child = span_new (t, SPAN_CDATA, start);
          skip_past (t, "]]>");
        }
      else if (at (t, "<?"))
        {
          child = span_new (t, SPAN_PI, start);
          skip_past (t, "?>");
        }
      else if (at (t, "<"))
        child = parse_element (t);
      else if (at (t, "&") && !is_predefined_or_char_ref (t))
        {
          child = span_new (t, SPAN_ENTITY_REF, start);
          skip_past (t, ";");
        }
      else
        {
          /* A text run: libxml2 merges characters, predefined entities and
           * character references into one text node. */
          child = span_new (t, SPAN_TEXT, start);
          while (t->pos < t->n && t->s[t->pos] != '<')
            {
              if (t->s[t->pos] == '&')
                {
                  if (!is_predefined_or_char_ref (t))
                    break;
                  skip_past (t, ";");
                }
              else
                t->pos++;
            }
        }

      if (child == NULL)
        {
          t->failed = TRUE;
          return;
        }
      child->end = t->pos;
      if (last != NULL)
        last->next = child;
      else
        parent->first_child = child;
      last = child;
    }

  t->failed = TRUE; /* the end tag is missing */
}

/* Moves past the attribute at the tokenizer's position (after the blanks
 * before it); FALSE at the end of the start tag or when it is not one. */
static gboolean
skip_attr (Tokenizer *t)
{
  char quote;
  const char *close;

  if (t->s[t->pos] == '/' || t->s[t->pos] == '>')
    return FALSE;
  while (t->pos < t->n && !is_name_end (t->s[t->pos]))
    t->pos++;
  skip_spaces (t);
  if (t->pos >= t->n || t->s[t->pos] != '=')
    goto fail;
  t->pos++;
  skip_spaces (t);
  if (t->pos >= t->n || (t->s[t->pos] != '"' && t->s[t->pos] != '\''))
    goto fail;
  quote = t->s[t->pos++];
  close = memchr (t->s + t->pos, quote, t->n - t->pos);
  if (close == NULL)
    goto fail;
  t->pos = (gsize) (close - t->s) + 1;
  return TRUE;

fail:
  t->failed = TRUE;
  return FALSE;
}

static Span *
parse_element (Tokenizer *t)
{
  gsize start = t->pos;
  guint n_attrs = 0;
  Span *span;

  t->pos++; /* '<' */
  while (t->pos < t->n && !is_name_end (t->s[t->pos]))
    t->pos++;
  /* counted here, read again when asked (bl_source_map_attr_next) */
  for (;;)
    {
      skip_spaces (t);
      if (t->pos >= t->n || !skip_attr (t))
        break;
      n_attrs++;
    }
  if (t->failed || t->pos >= t->n)
    goto fail;

  span = arena_alloc (t->arena, G_STRUCT_OFFSET (Span, values) + n_attrs * sizeof (char *));
  span->kind = SPAN_ELEMENT;
  span->start = start;
  span->n_attrs = n_attrs;

  if (at (t, "/>"))
    {
      t->pos += 2;
      span->empty = TRUE;
      span->end = t->pos;
      return span;
    }

  t->pos++; /* '>' */
  parse_content (t, span);
  if (t->failed)
    goto fail;

  if (!skip_past (t, ">"))
    goto fail;
  span->end = t->pos;
  return span;

fail:
  t->failed = TRUE;
  return NULL;
}

/* Skips the prolog (XML declaration, comments, PIs, DOCTYPE with its
 * internal subset) and parses the root element. */
static Span *
parse_document (const char *s,
                gsize       n,
                SpanArena  *arena,
                const gint *cancel,
                GArray     *left_out)
{
  Tokenizer t = { s, n, 0, FALSE, arena, cancel, NULL, 0, 0 };

  if (left_out != NULL)
    {
      t.left_out = (const BlSourceRange *) left_out->data;
      t.n_left_out = left_out->len;
    }

  while (t.pos < n && !t.failed)
    {
      if (at (&t, "<?"))
        skip_past (&t, "?>");
      else if (at (&t, "<!--"))
        skip_past (&t, "-->");
      else if (at (&t, "<!"))
        {
          gboolean subset = FALSE;

          for (t.pos += 2; t.pos < n; t.pos++)
            {
              char c = s[t.pos];

              if (c == '"' || c == '\'')
                {
                  const char *close = memchr (s + t.pos + 1, c, n - t.pos - 1);

                  if (close == NULL)
                    return NULL;
                  t.pos = close - s;
                }
              else if (subset && at (&t, "<!--"))
                {
                  if (!skip_past (&t, "-->"))
                    return NULL;
                  t.pos--;
                }
              else if (c == '[')
                subset = TRUE;
              else if (c == ']')
                subset = FALSE;
              else if (c == '>' && !subset)
                break;
            }
          t.pos++;
        }
      else if (at (&t, "<"))
        {
          Span *root = parse_element (&t);

          /* every range met where the tree has it */
          return t.failed || t.next_left_out != t.n_left_out ? NULL : root;
        }
      else
        t.pos++;
    }

  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Matching the tree to the spans                                           */

static SpanOffset
name_end (BlSourceMap *map,
          const Span  *span)
{
  gsize pos = span->start + 1;

  while (pos < map->n && !is_name_end (map->s[pos]))
    pos++;
  return (SpanOffset) pos;
}

static SpanOffset
skip_blanks (BlSourceMap *map,
             gsize        pos)
{
  while (pos < map->n && is_space (map->s[pos]))
    pos++;
  return (SpanOffset) pos;
}

/* The name's end is found only for a tag with attributes (most have
 * none): bl_source_map_attrs_end finds it for the others. */
void
bl_source_map_attr_first (BlSourceMap  *map,
                          const Span   *span,
                          SpanAttrIter *iter)
{
  iter->span = span;
  iter->pos = iter->attrs_end = span->n_attrs > 0 ? name_end (map, span) : 0;
  iter->index = 0;
}

SpanOffset
bl_source_map_attrs_end (BlSourceMap        *map,
                         const SpanAttrIter *iter)
{
  return iter->span->n_attrs > 0 ? iter->attrs_end : name_end (map, iter->span);
}

/* The tokenizer read the start tag whole: its attributes are as it found
 * them, each n_attrs of them well formed. */
gboolean
bl_source_map_attr_next (BlSourceMap  *map,
                         SpanAttrIter *iter,
                         SpanAttr     *attr)
{
  const char *s = map->s;
  gsize pos;

  if (iter->index >= iter->span->n_attrs)
    return FALSE;
  attr->lead = iter->pos;
  pos = attr->name_start = skip_blanks (map, iter->pos);
  while (!is_name_end (s[pos]))
    pos++;
  attr->name_end = (SpanOffset) pos;
  pos = skip_blanks (map, skip_blanks (map, pos) + 1); /* past '=' */
  attr->quote = s[pos];
  attr->value_start = (SpanOffset) pos + 1;
  attr->value_end = (SpanOffset) ((const char *) memchr (s + attr->value_start, attr->quote,
                                                         map->n - attr->value_start) - s);
  attr->index = iter->index++;
  iter->pos = iter->attrs_end = attr->value_end + 1;
  return TRUE;
}

SpanOffset
bl_source_map_stag_end (BlSourceMap *map,
                        const Span  *span,
                        SpanOffset   attrs_end)
{
  if (span->empty)
    return span->end;
  return skip_blanks (map, attrs_end) + 1;
}

SpanOffset
bl_source_map_etag_start (BlSourceMap *map,
                          const Span  *span)
{
  if (span->empty)
    return span->end;
  /* "</name>" holds no other '<' */
  return (SpanOffset) ((const char *) memrchr (map->s + span->start, '<', span->end - span->start) - map->s);
}

/* Whether TEXT is the LEN bytes at SOURCE, whole. */
static gboolean
is_bytes (const char *text,
          const char *source,
          gsize       len)
{
  return strncmp (text, source, len) == 0 && text[len] == '\0';
}

gboolean
bl_source_map_attr_unchanged (BlSourceMap    *map,
                              const Span     *span,
                              xmlAttr        *prop,
                              const SpanAttr *attr)
{
  const char *was = span->values[attr->index];
  const char *text = bl_source_map_attr_text (prop);
  g_autofree char *current = NULL;

  if (text == NULL)
    text = current = bl_source_map_attr_value (prop);
  if (was != NULL)
    return strcmp (was, text) == 0;
  return is_bytes (text, map->s + attr->value_start, attr->value_end - attr->value_start);
}

gboolean
bl_source_map_attr_is_xmlns (BlSourceMap    *map,
                             const SpanAttr *attr)
{
  gsize len = attr->name_end - attr->name_start;
  const char *name = map->s + attr->name_start;

  return (len == 5 && memcmp (name, "xmlns", 5) == 0) ||
         (len > 6 && memcmp (name, "xmlns:", 6) == 0);
}

gboolean
bl_source_map_attr_dropped (BlSourceMap    *map,
                            xmlNode        *node,
                            const SpanAttr *attr)
{
  return attr->name_end - attr->name_start == 4 && memcmp (map->s + attr->name_start, "name", 4) == 0 &&
         bl_xml_name_is_read_once (node) && bl_xml_written_attribute (node, "name") == NULL;
}

/* Whether prop's qualified name ("prefix:name" or "name") is the len
 * bytes at name; no copy. */
static gboolean
qname_equals (xmlAttr    *prop,
              const char *name,
              gsize       len)
{
  const char *local = (const char *) prop->name;
  gsize local_len;

  if (prop->ns != NULL && prop->ns->prefix != NULL)
    {
      const char *prefix = (const char *) prop->ns->prefix;
      gsize prefix_len = strlen (prefix);

      if (len <= prefix_len || memcmp (name, prefix, prefix_len) != 0 || name[prefix_len] != ':')
        return FALSE;
      name += prefix_len + 1;
      len -= prefix_len + 1;
    }
  local_len = strlen (local);
  return local_len == len && memcmp (local, name, len) == 0;
}

xmlAttr *
bl_source_map_find_attr (BlSourceMap    *map,
                         xmlNode        *node,
                         const SpanAttr *attr)
{
  gsize len = attr->name_end - attr->name_start;
  const char *name = map->s + attr->name_start;
  xmlAttr *first = map->attr_node == node && map->attr_prop != NULL && map->attr_prop->next != NULL
    ? map->attr_prop->next : node->properties;
  xmlAttr *prop;

  /* from the one after the last found to the end, then from the start:
   * linear in all for attributes asked in order, not quadratic */
  for (prop = first; prop != NULL; prop = prop->next)
    if (qname_equals (prop, name, len))
      break;
  for (xmlAttr *wrap = node->properties; prop == NULL && wrap != first; wrap = wrap->next)
    if (qname_equals (wrap, name, len))
      prop = wrap;

  if (prop != NULL)
    {
      map->attr_node = node;
      map->attr_prop = prop;
    }
  return prop;
}

/* The attribute's one text node, or NULL when it has several (entity
 * references) or none. */
const char *
bl_source_map_attr_text (xmlAttr *prop)
{
  xmlNode *text = prop->children;

  if (text != NULL && text->next == NULL && text->type == XML_TEXT_NODE && text->content != NULL)
    return (const char *) text->content;
  return NULL;
}

char *
bl_source_map_attr_value (xmlAttr *prop)
{
  const char *text = bl_source_map_attr_text (prop);
  xmlChar *value;

  if (text != NULL)
    return g_strdup (text);
  value = xmlNodeListGetString (prop->doc, prop->children, 1);
  char *copy = g_strdup (value != NULL ? (const char *) value : "");

  xmlFree (value);
  return copy;
}

guint
bl_source_map_n_properties (xmlNode *node)
{
  guint n = 0;

  for (xmlAttr *prop = node->properties; prop != NULL; prop = prop->next)
    n++;
  return n;
}

static gboolean
node_matches (xmlNode *node,
              Span    *span)
{
  switch (span->kind)
    {
    case SPAN_ELEMENT:
      return node->type == XML_ELEMENT_NODE;
    case SPAN_TEXT:
      return node->type == XML_TEXT_NODE;
    case SPAN_CDATA:
      return node->type == XML_CDATA_SECTION_NODE;
    case SPAN_COMMENT:
      return node->type == XML_COMMENT_NODE;
    case SPAN_PI:
      return node->type == XML_PI_NODE;
    case SPAN_ENTITY_REF:
      return node->type == XML_ENTITY_REF_NODE;
    case SPAN_LEFT_OUT:
      return node->type == XML_ELEMENT_NODE && node->children == NULL && node->properties == NULL;
    default:
      return FALSE;
    }
}

char *
bl_source_map_node_qname (xmlNode *node)
{
  if (node->ns != NULL && node->ns->prefix != NULL)
    return g_strdup_printf ("%s:%s", (const char *) node->ns->prefix, (const char *) node->name);
  return g_strdup ((const char *) node->name);
}

/* Whether the text span reads as blanks only (character references
 * decoded, as libxml2 hands them to the load). */
static gboolean
span_is_blank (BlSourceMap *map,
               const Span  *span)
{
  g_autofree char *text = NULL;

  for (SpanOffset i = span->start; i < span->end; i++)
    if (!is_space (map->s[i]))
      goto decoded;
  return TRUE;

decoded:
  text = bl_source_map_span_text (map, span);
  if (text == NULL)
    return FALSE;
  for (const char *c = text; *c != '\0'; c++)
    if (!is_space (*c))
      return FALSE;
  return TRUE;
}

/* From SPAN on, past blank text where the tree has NODE (or no more
 * nodes: NULL), which is not text: layout the load left out
 * (bl-stream-load-lean.c's is_layout), flagged so.  Text that is not
 * blank stays, and matches no such node. */
static Span *
skip_layout (BlSourceMap *map,
             Span        *span,
             xmlNode     *node)
{
  if (span != NULL && span->kind == SPAN_TEXT && (node == NULL || node->type != XML_TEXT_NODE) &&
      span_is_blank (map, span))
    {
      span->layout = TRUE;
      return span->next;
    }
  return span;
}

static gboolean
attach (BlSourceMap *map,
        xmlNode     *node,
        Span        *span)
{
  xmlNode *child;
  Span *span_child;

  if (!node_matches (node, span) || (map->cancel != NULL && g_atomic_int_get (map->cancel)))
    return FALSE;

  node->_private = span;
  /* compared here, while the node is in the cache: the check after
   * mapping needs no second walk of the tree when all are as read */
  if (span->kind == SPAN_TEXT && !map->text_differs && !bl_source_map_text_unchanged (map, node, span))
    map->text_differs = TRUE;
  if (span->kind != SPAN_ELEMENT)
    return TRUE;
  /* Only elements have children (the other spans are allocated without
   * the field). */
  span_child = span->first_child;

  {
    const char *name = map->s + span->start + 1;

    if (node->ns == NULL || node->ns->prefix == NULL)
      {
        /* compared as it is scanned: the tag's name ends where the
         * tokenizer found it end */
        const xmlChar *q = node->name;

        while (*q != '\0' && (xmlChar) *name == *q)
          name++, q++;
        if (*q != '\0' || !is_name_end (*name))
          return FALSE;
      }
    else
      {
        g_autofree char *qname = bl_source_map_node_qname (node);
        gsize len = name_end (map, span) - span->start - 1;

        if (strlen (qname) != len || memcmp (qname, name, len) != 0)
          return FALSE;
      }
  }

  /* Attribute values are remembered as read when they are not the bytes
   * between their quotes: comparing with them needs no decoding of entity
   * or character references. */
  {
    guint n_attrs = 0;
    SpanAttrIter iter;
    SpanAttr attr;

    bl_source_map_attr_first (map, span, &iter);
    while (bl_source_map_attr_next (map, &iter, &attr))
      {
        const char *text;
        g_autofree char *value = NULL;
        xmlAttr *prop;

        if (bl_source_map_attr_is_xmlns (map, &attr))
          continue;
        prop = bl_source_map_find_attr (map, node, &attr);
        if (prop == NULL && bl_source_map_attr_dropped (map, node, &attr))
          continue;
        if (prop == NULL)
          return FALSE;
        text = bl_source_map_attr_text (prop);
        if (text == NULL)
          text = value = bl_source_map_attr_value (prop);
        if (!is_bytes (text, map->s + attr.value_start, attr.value_end - attr.value_start))
          span->values[attr.index] = arena_strdup (&map->arena, text);
        n_attrs++;
      }
    if (n_attrs != bl_source_map_n_properties (node))
      return FALSE;
  }

  for (child = node->children; child != NULL; child = child->next, span_child = span_child->next)
    {
      span_child = skip_layout (map, span_child, child);
      if (span_child == NULL || !attach (map, child, span_child))
        return FALSE;
    }

  return skip_layout (map, span_child, NULL) == NULL;
}

static void
detach (xmlNode *node)
{
  for (; node != NULL; node = node->next)
    {
      node->_private = NULL;
      if (node->type == XML_ELEMENT_NODE)
        detach (node->children);
    }
}

/* ------------------------------------------------------------------------ */
/* Layout made nodes                                                         */

/* The layout span made a text node of the tree before NEXT (NULL: last),
 * as a full parse has it; the tree reads and writes as before. */
static void
keep_span (BlSourceMap *map,
           xmlNode     *parent,
           xmlNode     *next,
           Span        *span)
{
  g_autofree char *text = bl_source_map_span_text (map, span);
  xmlNode *node;

  /* a layout span is blanks that decode (span_is_blank) */
  g_return_if_fail (text != NULL);
  node = xmlNewDocText (parent->doc, (const xmlChar *) text);
  node->_private = span;
  span->layout = FALSE;
  bl_xml_link (parent, next, node);
}

void
bl_source_map_keep_layout (BlSourceMap *map,
                           xmlNode     *element)
{
  Span *span;
  xmlNode *child;

  g_return_if_fail (map != NULL);
  g_return_if_fail (element != NULL);

  span = element->type == XML_ELEMENT_NODE ? element->_private : NULL;
  if (span == NULL || span->kind != SPAN_ELEMENT)
    return;
  child = element->children;
  for (Span *s = span->first_child; s != NULL; s = s->next)
    {
      /* the next child the source has: layout lies after new nodes */
      while (child != NULL && child->_private == NULL)
        child = child->next;
      if (child != NULL && child->_private == s)
        child = child->next;
      else if (s->layout)
        keep_span (map, element, child, s);
    }
}

void
bl_source_map_keep_layout_before (BlSourceMap *map,
                                  xmlNode     *node)
{
  Span *own, *parent, *s, *layout = NULL;
  xmlNode *prev;

  g_return_if_fail (map != NULL);
  g_return_if_fail (node != NULL);

  own = node->_private;
  parent = node->parent != NULL && node->parent->type == XML_ELEMENT_NODE ? node->parent->_private : NULL;
  if (own == NULL || parent == NULL || parent->kind != SPAN_ELEMENT)
    return;
  /* from the last child before it that the source has */
  for (prev = node->prev; prev != NULL && prev->_private == NULL; prev = prev->prev)
    ;
  s = prev != NULL ? ((Span *) prev->_private)->next : parent->first_child;
  /* the writer puts the layout before it there just before it */
  for (; s != NULL && s != own; s = s->next)
    if (s->layout)
      layout = s;
  if (s == own && layout != NULL)
    keep_span (map, node->parent, node, layout);
}

/* ------------------------------------------------------------------------ */

static gboolean
encoding_is_ascii_compatible (const char *encoding)
{
  g_autofree char *lower = g_ascii_strdown (encoding, -1);

  return !g_str_has_prefix (lower, "utf-16") && !g_str_has_prefix (lower, "utf16") &&
         !g_str_has_prefix (lower, "ucs") && !g_str_has_prefix (lower, "utf-32") &&
         !g_str_has_prefix (lower, "ebcdic");
}

/* CANCEL (or NULL): mapping stops, and fails, once it reads non-zero. */
static BlSourceMap *
source_map_new (xmlDoc      *xml,
                GBytes      *source,
                GArray      *left_out,
                const gint  *cancel,
                GError     **error)
{
  g_autoptr(BlSourceMap) map = NULL;
  g_autoptr(GBytes) check = NULL;
  xmlNode *root;

  map = g_new0 (BlSourceMap, 1);
  map->xml = xml;
  map->cancel = cancel;
  map->source = g_bytes_ref (source);
  map->s = g_bytes_get_data (source, &map->n);

  if (map->n > G_MAXUINT32) /* SpanOffset */
    {
      g_set_error_literal (error, BL_SOURCE_MAP_ERROR, BL_SOURCE_MAP_ERROR_NOT_LOSSLESS,
                           "the file is 4 GiB or larger, so it cannot be edited without rewriting it");
      return NULL;
    }
  if (xml->encoding != NULL)
    {
      if (!encoding_is_ascii_compatible ((const char *) xml->encoding))
        {
          g_set_error (error, BL_SOURCE_MAP_ERROR, BL_SOURCE_MAP_ERROR_NOT_LOSSLESS,
                       "files in %s cannot be edited; convert the file to UTF-8",
                       (const char *) xml->encoding);
          return NULL;
        }
      if (g_ascii_strcasecmp ((const char *) xml->encoding, "UTF-8") != 0 &&
          g_ascii_strcasecmp ((const char *) xml->encoding, "UTF8") != 0 &&
          g_ascii_strcasecmp ((const char *) xml->encoding, "US-ASCII") != 0 &&
          g_ascii_strcasecmp ((const char *) xml->encoding, "ASCII") != 0)
        map->encoding = g_strdup ((const char *) xml->encoding);
    }

  {
    const char *newline = map->n > 0 ? memchr (map->s, '\n', map->n) : NULL;

    map->crlf = newline != NULL && newline > map->s && newline[-1] == '\r';
  }

  root = xmlDocGetRootElement (xml);
  map->arena.blocks = g_ptr_array_new_with_free_func (g_free);
  map->root = parse_document (map->s, map->n, &map->arena, cancel, left_out);
  if (root == NULL || map->root == NULL || !attach (map, root, map->root))
    {
      /* Only the document's end cancels: its tree goes next, with the
       * _private of the nodes mapped so far. */
      if (cancel != NULL && g_atomic_int_get (cancel))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "mapping the file was cancelled");
          return NULL;
        }
      if (root != NULL)
        detach (root);
      g_set_error_literal (error, BL_SOURCE_MAP_ERROR, BL_SOURCE_MAP_ERROR_NOT_LOSSLESS,
                           "the file's layout could not be mapped, so it cannot be edited "
                           "without rewriting it");
      return NULL;
    }

  /* The promise is byte identity: prove it before anything is edited.
   * Mapping matched every element, name, attribute and text node with its
   * span (attribute values are taken from the tree as mapped), so a tree
   * whose texts all read as their spans serializes to the source itself
   * (bl_source_map_serialize finds it unchanged: the prolog, the root's
   * span and what follows); any other is written out and compared. */
  if (map->text_differs && !g_bytes_equal ((check = bl_source_map_serialize (map)), source))
    {
      detach (root);
      g_set_error_literal (error, BL_SOURCE_MAP_ERROR, BL_SOURCE_MAP_ERROR_NOT_LOSSLESS,
                           "the file could not be reproduced byte for byte, so it cannot be "
                           "edited without rewriting it");
      return NULL;
    }

  map->cancel = NULL;
  return g_steal_pointer (&map);
}

BlSourceMap *
bl_source_map_new (xmlDoc  *xml,
                   GBytes  *source,
                   GArray  *left_out,
                   GError **error)
{
  g_return_val_if_fail (xml != NULL, NULL);
  g_return_val_if_fail (source != NULL, NULL);

  return source_map_new (xml, source, left_out, NULL, error);
}

void
bl_source_map_free (BlSourceMap *map)
{
  if (map == NULL)
    return;
  g_clear_pointer (&map->arena.blocks, g_ptr_array_unref);
  g_bytes_unref (map->source);
  g_free (map->encoding);
  g_free (map);
}

/* A map being built on another thread, built, or refused. */
struct _BlSourceMapJob
{
  GThread     *thread;         /* until joined */
  xmlDoc      *xml;            /* borrowed */
  GArray      *left_out;       /* borrowed */
  GBytes      *source;
  BlSourceMap *map;
  GError      *error;
  gint         cancelled;      /* the tree ends: stop mapping */
};

static void
job_join (BlSourceMapJob *job)
{
  if (job->thread != NULL)
    g_thread_join (g_steal_pointer (&job->thread));
}

static gpointer
job_build (gpointer data)
{
  BlSourceMapJob *job = data;

  job->map = source_map_new (job->xml, job->source, job->left_out, &job->cancelled, &job->error);
  return NULL;
}

BlSourceMapJob *
bl_source_map_job_new (xmlDoc   *xml,
                       GBytes   *source,
                       GArray   *left_out,
                       gboolean  in_thread)
{
  BlSourceMapJob *job;

  g_return_val_if_fail (xml != NULL, NULL);
  g_return_val_if_fail (source != NULL, NULL);

  job = g_new0 (BlSourceMapJob, 1);
  job->xml = xml;
  job->left_out = left_out;
  job->source = g_bytes_ref (source);
  if (in_thread)
    job->thread = g_thread_try_new ("bl-source-map", job_build, job, NULL);
  /* Without a thread, bl_source_map_job_get builds the map. */
  return job;
}

BlSourceMap *
bl_source_map_job_get (BlSourceMapJob  *job,
                       GError         **error)
{
  g_return_val_if_fail (job != NULL, NULL);

  job_join (job);
  if (job->map == NULL && job->error == NULL)
    job->map = bl_source_map_new (job->xml, job->source, job->left_out, &job->error);
  if (job->map == NULL)
    g_propagate_error (error, g_error_copy (job->error));

  return job->map;
}

void
bl_source_map_job_free (BlSourceMapJob *job)
{
  if (job == NULL)
    return;

  /* A tree closed before it was mapped does not wait for the map. */
  g_atomic_int_set (&job->cancelled, 1);
  job_join (job);
  g_clear_pointer (&job->map, bl_source_map_free);
  g_clear_error (&job->error);
  g_clear_pointer (&job->source, g_bytes_unref);
  g_free (job);
}
