/* bl-source-map-write.c: splices the edited XML tree back into the source
 * bytes: unchanged subtrees copied, changed ones written in the file's style. */
#include "config.h"

#include <string.h>

#include "bl-source-map-private.h"

/* ------------------------------------------------------------------------ */
/* Comparing with and decoding the source                                   */

/* The source bytes of [start, end) in UTF-8 with line ends normalised to
 * \n, as the parser sees them. */
static char *
raw_utf8 (BlSourceMap *map,
          gsize        start,
          gsize        end)
{
  g_autofree char *converted = NULL;
  const char *p;
  gsize len = end - start;
  GString *out;

  p = map->s + start;
  if (map->encoding != NULL)
    {
      converted = g_convert (p, len, "UTF-8", map->encoding, NULL, &len, NULL);
      if (converted == NULL)
        return NULL;
      p = converted;
    }

  out = g_string_sized_new (len);
  for (gsize i = 0; i < len; i++)
    {
      if (p[i] == '\r')
        {
          g_string_append_c (out, '\n');
          if (i + 1 < len && p[i + 1] == '\n')
            i++;
        }
      else
        g_string_append_c (out, p[i]);
    }

  return g_string_free (out, FALSE);
}

/* Decodes predefined entities and character references in text. */
static char *
decode (const char *raw)
{
  GString *out = g_string_new (NULL);

  for (const char *p = raw; *p != '\0'; p++)
    {
      if (*p == '&')
        {
          const char *semi = strchr (p, ';');
          gsize len = semi != NULL ? (gsize) (semi - p) + 1 : 0;

          if (semi == NULL)
            goto literal;
          if (p[1] == '#')
            {
              gunichar c;
              char *end;

              if (p[2] == 'x')
                c = (gunichar) g_ascii_strtoull (p + 3, &end, 16);
              else
                c = (gunichar) g_ascii_strtoull (p + 2, &end, 10);
              if (end != semi)
                goto literal;
              g_string_append_unichar (out, c);
            }
          else if (len == 5 && strncmp (p, "&amp;", 5) == 0)
            g_string_append_c (out, '&');
          else if (len == 4 && strncmp (p, "&lt;", 4) == 0)
            g_string_append_c (out, '<');
          else if (len == 4 && strncmp (p, "&gt;", 4) == 0)
            g_string_append_c (out, '>');
          else if (len == 6 && strncmp (p, "&quot;", 6) == 0)
            g_string_append_c (out, '"');
          else if (len == 6 && strncmp (p, "&apos;", 6) == 0)
            g_string_append_c (out, '\'');
          else
            goto literal;
          p = semi;
          continue;
        }

    literal:
      g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

char *
bl_source_map_span_text (BlSourceMap *map,
                         const Span  *span)
{
  g_autofree char *raw = raw_utf8 (map, span->start, span->end);

  return raw != NULL ? decode (raw) : NULL;
}

gboolean
bl_source_map_text_unchanged (BlSourceMap *map,
                              xmlNode     *node,
                              Span        *span)
{
  gsize len = span->end - span->start;
  const char *source = map->s + span->start;
  g_autofree char *decoded = NULL;

  /* UTF-8 text without references or carriage returns is what the
   * parser kept, byte for byte: compared in place. */
  if (map->encoding == NULL && memchr (source, '&', len) == NULL && memchr (source, '\r', len) == NULL)
    return node->content != NULL && strncmp ((const char *) node->content, source, len) == 0 &&
           node->content[len] == '\0';

  decoded = bl_source_map_span_text (map, span);
  return decoded != NULL && g_strcmp0 (decoded, (const char *) node->content) == 0;
}




static gboolean
start_tag_unchanged (BlSourceMap *map,
                     xmlNode     *node,
                     Span        *span)
{
  guint n_original = 0;
  SpanAttrIter iter;
  SpanAttr attr;

  bl_source_map_attr_first (map, span, &iter);
  while (bl_source_map_attr_next (map, &iter, &attr))
    {
      xmlAttr *prop;

      if (bl_source_map_attr_is_xmlns (map, &attr))
        continue;
      prop = bl_source_map_find_attr (map, node, &attr);
      if (prop == NULL && bl_source_map_attr_dropped (map, node, &attr))
        continue;
      n_original++;
      if (prop == NULL || !bl_source_map_attr_unchanged (map, span, prop, &attr))
        return FALSE;
    }

  return n_original == bl_source_map_n_properties (node);
}

static gboolean
subtree_unchanged (BlSourceMap *map,
                   xmlNode     *node)
{
  Span *span = node->_private;
  xmlNode *child;
  Span *span_child = NULL;

  if (span == NULL)
    return FALSE;
  if (span->kind == SPAN_LEFT_OUT)
    return node->children == NULL && node->properties == NULL;

  switch (node->type)
    {
    case XML_TEXT_NODE:
      return bl_source_map_text_unchanged (map, node, span);
    case XML_ELEMENT_NODE:
      break;
    default:
      return TRUE; /* comments, PIs, CDATA and entity references are never edited */
    }

  if (!start_tag_unchanged (map, node, span))
    return FALSE;

  span_child = span->first_child;
  for (child = node->children; child != NULL; child = child->next, span_child = span_child->next)
    {
      span_child = span_past_layout (span_child);
      if (span_child == NULL || child->_private != span_child || !subtree_unchanged (map, child))
        return FALSE;
    }

  return span_past_layout (span_child) == NULL;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */

/* What a patch holds (bl-source-map.h): each recorded node's bytes as
 * ranges of the source and of the patch's own text, in order.  The text
 * is kept in blocks that are never moved (one growing string, copied as
 * it doubles, left holes of up to half its size). */
#define PATCH_SOURCE G_MAXUINT32
#define PATCH_BLOCK_SIZE (256 * 1024)

typedef struct
{
  guint32 start, end;
  guint32 block;               /* the text's block, or PATCH_SOURCE */
} PatchRange;

struct _BlSourceMapPatch
{
  BlSourceMap *map;
  GPtrArray   *nodes;          /* xmlNode*, in document order */
  GArray      *ends;           /* guint: where each node's ranges end */
  GArray      *ranges;         /* PatchRange */
  GPtrArray   *blocks;         /* char*: the new text of every node */
  gsize        used, size;     /* of the last block */
};

/* Where the tree is written: all of it into text; or, handed to WRITE,
 * the source's unchanged ranges as they lie in the source (contiguous
 * ones joined, nothing copied) between pieces of the text written anew;
 * or, recording, as the ranges of a patch.  PATCH (or NULL): nodes
 * written as it recorded them, NEXT the first not written yet. */
typedef struct
{
  BlSourceMap          *map;
  GString              *text;
  BlSourceMapWriteFunc  write;     /* or NULL */
  gpointer              write_data;
  BlSourceMapPatch     *recording; /* or NULL */
  gsize                 run_start, run_end; /* the range of the source not yet handed on */
  BlSourceMapPatch     *patch;
  guint                 next;
} Out;

static void
patch_add_range (BlSourceMapPatch *patch,
                 gsize             start,
                 gsize             end,
                 guint             block)
{
  PatchRange range = { start, end, block };

  g_assert (end <= G_MAXUINT32);
  g_array_append_val (patch->ranges, range);
}

/* Keeps TEXT in the patch, in the last block when it fits there. */
static void
patch_add_text (BlSourceMapPatch *patch,
                const char       *text,
                gsize             length)
{
  if (patch->blocks->len == 0 || length > patch->size - patch->used)
    {
      patch->size = MAX (length, PATCH_BLOCK_SIZE);
      patch->used = 0;
      g_ptr_array_add (patch->blocks, g_malloc (patch->size));
    }
  memcpy ((char *) g_ptr_array_index (patch->blocks, patch->blocks->len - 1) + patch->used, text, length);
  patch_add_range (patch, patch->used, patch->used + length, patch->blocks->len - 1);
  patch->used += length;
}

static void
flush_run (Out *out)
{
  if (out->run_end > out->run_start && out->recording != NULL)
    patch_add_range (out->recording, out->run_start, out->run_end, PATCH_SOURCE);
  else if (out->run_end > out->run_start)
    out->write (out->map->s + out->run_start, out->run_end - out->run_start, out->write_data);
  out->run_start = out->run_end = 0;
}

static void
flush_text (Out *out)
{
  if (out->text->len > 0 && out->recording != NULL)
    {
      patch_add_text (out->recording, out->text->str, out->text->len);
      g_string_truncate (out->text, 0);
    }
  else if (out->text->len > 0)
    {
      out->write (out->text->str, out->text->len, out->write_data);
      g_string_truncate (out->text, 0);
    }
}

/* Whether the unchanged ranges of the source are handed on or recorded
 * as ranges, not copied into the text. */
static gboolean
out_splices (Out *out)
{
  return out->write != NULL || out->recording != NULL;
}

/* The text to append to, after the range of the source before it. */
static GString *
out_text (Out *out)
{
  if (out_splices (out))
    flush_run (out);
  return out->text;
}

static void
append_range (Out         *out,
              BlSourceMap *map,
              gsize        start,
              gsize        end)
{
  if (!out_splices (out))
    {
      g_string_append_len (out->text, map->s + start, end - start);
      return;
    }
  if (start == end)
    return;
  flush_text (out);
  if (out->run_end > out->run_start && out->run_end == start)
    {
      out->run_end = end;
      return;
    }
  flush_run (out);
  out->run_start = start;
  out->run_end = end;
}

/* Escapes UTF-8 text for the file: markup characters always, line ends as
 * the file writes them, non-ASCII as character references when the file
 * is not UTF-8. */
static void
append_escaped (Out         *out,
                BlSourceMap *map,
                const char  *text,
                char         quote)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      const char *plain = p;
      gunichar c;

      /* a run that needs nothing (most text: numbers), in one piece */
      while ((guchar) *p >= 0x20 && *p != '&' && *p != '<' && *p != '>' && *p != '"' && *p != '\''
             && ((guchar) *p < 0x80 || map->encoding == NULL))
        p++;
      if (p > plain)
        g_string_append_len (out_text (out), plain, p - plain);
      if (*p == '\0')
        break;

      c = g_utf8_get_char (p);
      switch (c)
        {
        case '&':
          g_string_append (out_text (out), "&amp;");
          break;
        case '<':
          g_string_append (out_text (out), "&lt;");
          break;
        case '>':
          g_string_append (out_text (out), "&gt;");
          break;
        case '\r':
          g_string_append (out_text (out), "&#13;");
          break;
        case '"':
          g_string_append (out_text (out), quote == '"' ? "&quot;" : "\"");
          break;
        case '\'':
          g_string_append (out_text (out), quote == '\'' ? "&apos;" : "'");
          break;
        case '\n':
          if (quote != '\0')
            g_string_append (out_text (out), "&#10;");
          else
            g_string_append (out_text (out), map->crlf ? "\r\n" : "\n");
          break;
        case '\t':
          g_string_append (out_text (out), quote != '\0' ? "&#9;" : "\t");
          break;
        default:
          if (c >= 0x80 && map->encoding != NULL)
            g_string_append_printf (out_text (out), "&#%u;", c);
          else
            g_string_append_len (out_text (out), p, g_utf8_next_char (p) - p);
          break;
        }
    }
}

/* "prefix:name" or "name" of a node or an attribute, onto TEXT. */
static void
append_qname (GString       *text,
              xmlNs         *ns,
              const xmlChar *name)
{
  if (ns != NULL && ns->prefix != NULL)
    {
      g_string_append (text, (const char *) ns->prefix);
      g_string_append_c (text, ':');
    }
  g_string_append (text, (const char *) name);
}

/* The node's attributes that SPAN (NULL: a new node) does not have. */
static void
append_new_attributes (Out         *out,
                       BlSourceMap *map,
                       xmlNode     *node,
                       Span        *span)
{
  g_autoptr(GHashTable) original = NULL;

  if (node->properties == NULL)
    return;

  /* the source's attributes, found once each */
  original = g_hash_table_new (NULL, NULL);
  if (span != NULL)
    {
      SpanAttrIter iter;
      SpanAttr attr;

      bl_source_map_attr_first (map, span, &iter);
      while (bl_source_map_attr_next (map, &iter, &attr))
        {
          xmlAttr *prop = bl_source_map_find_attr (map, node, &attr);

          if (prop != NULL)
            g_hash_table_add (original, prop);
        }
    }

  for (xmlAttr *prop = node->properties; prop != NULL; prop = prop->next)
    {
      g_autofree char *value = NULL;

      if (g_hash_table_contains (original, prop))
        continue;

      value = bl_source_map_attr_value (prop);
      g_string_append_c (out_text (out), ' ');
      append_qname (out_text (out), prop->ns, prop->name);
      g_string_append (out_text (out), "=\"");
      append_escaped (out, map, value, '"');
      g_string_append_c (out_text (out), '"');
    }
}

static void write_node (Out *out, BlSourceMap *map, xmlNode *node);

/* The layout spans from SPAN up to UNTIL (NULL: the last), as they are;
 * UNTIL's next, or NULL. */
static Span *
write_layout (Out         *out,
              BlSourceMap *map,
              Span        *span,
              Span        *until)
{
  for (; span != NULL && span != until; span = span->next)
    if (span->layout)
      append_range (out, map, span->start, span->end);
  return span != NULL ? span->next : NULL;
}

/* The children, and the layout the tree leaves out among them where it
 * lies: just before the next child the source has (new nodes placed
 * after a child come before it, as before a full parse's blank node
 * after that child), or before the end tag. */
static void
write_children (Out         *out,
                BlSourceMap *map,
                xmlNode     *node)
{
  Span *span = node->_private;
  Span *next = span != NULL && span->kind == SPAN_ELEMENT ? span->first_child : NULL;

  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (child->_private != NULL)
        next = write_layout (out, map, next, child->_private);
      write_node (out, map, child);
    }
  write_layout (out, map, next, NULL);
}

/* A node the source does not have, written as libxml2 would. */
static void
write_new_node (Out         *out,
                BlSourceMap *map,
                xmlNode     *node)
{
  switch (node->type)
    {
    case XML_ELEMENT_NODE:
      g_string_append_c (out_text (out), '<');
      append_qname (out_text (out), node->ns, node->name);
      append_new_attributes (out, map, node, NULL);
      if (node->children == NULL)
        {
          g_string_append (out_text (out), "/>");
          return;
        }
      g_string_append_c (out_text (out), '>');
      write_children (out, map, node);
      g_string_append (out_text (out), "</");
      append_qname (out_text (out), node->ns, node->name);
      g_string_append_c (out_text (out), '>');
      break;

    case XML_TEXT_NODE:
      append_escaped (out, map, (const char *) node->content, '\0');
      break;

    case XML_COMMENT_NODE:
      g_string_append_printf (out_text (out), "<!--%s-->", (const char *) node->content);
      break;

    default:
      {
        xmlBuffer *buffer = xmlBufferCreate ();

        xmlNodeDump (buffer, map->xml, node, 0, 0);
        g_string_append_len (out_text (out), (const char *) xmlBufferContent (buffer), xmlBufferLength (buffer));
        xmlBufferFree (buffer);
      }
      break;
    }
}

static void
write_start_tag (Out         *out,
                 BlSourceMap *map,
                 xmlNode     *node,
                 Span        *span)
{
  gsize pos = span->start;
  SpanAttrIter iter;
  SpanAttr attr;
  SpanOffset attrs_end, stag_end;

  bl_source_map_attr_first (map, span, &iter);
  while (bl_source_map_attr_next (map, &iter, &attr))
    {
      xmlAttr *prop;

      if (bl_source_map_attr_is_xmlns (map, &attr))
        continue;

      prop = bl_source_map_find_attr (map, node, &attr);
      if (prop == NULL && bl_source_map_attr_dropped (map, node, &attr))
        continue;   /* as the file writes it */
      if (prop == NULL)
        {
          /* Removed: drop it with the white space before it. */
          append_range (out, map, pos, attr.lead);
          pos = attr.value_end + 1;
        }
      else if (!bl_source_map_attr_unchanged (map, span, prop, &attr))
        {
          g_autofree char *value = bl_source_map_attr_value (prop);

          append_range (out, map, pos, attr.value_start);
          append_escaped (out, map, value, attr.quote);
          pos = attr.value_end;
        }
    }

  attrs_end = bl_source_map_attrs_end (map, &iter);
  append_range (out, map, pos, attrs_end);
  append_new_attributes (out, map, node, span);

  stag_end = bl_source_map_stag_end (map, span, attrs_end);
  if (!span->empty || node->children == NULL)
    append_range (out, map, attrs_end, stag_end);
  else
    g_string_append_c (out_text (out), '>');
}

/* A node that is new or differs from its span somewhere: written anew
 * where it differs. */
static void
write_changed_node (Out         *out,
                    BlSourceMap *map,
                    xmlNode     *node)
{
  Span *span = node->_private;

  if (span == NULL)
    {
      write_new_node (out, map, node);
      return;
    }

  if (node->type == XML_TEXT_NODE)
    {
      append_escaped (out, map, (const char *) node->content, '\0');
      return;
    }

  g_assert (node->type == XML_ELEMENT_NODE);

  write_start_tag (out, map, node, span);
  write_children (out, map, node);
  if (!span->empty)
    append_range (out, map, bl_source_map_etag_start (map, span), span->end);
  else if (node->children != NULL)
    {
      g_string_append (out_text (out), "</");
      append_qname (out_text (out), node->ns, node->name);
      g_string_append_c (out_text (out), '>');
    }
}

/* The patch's next node as it recorded it: its ranges of the source
 * joined to what is around them, its text handed on from the patch's. */
static void
write_recorded (Out         *out,
                BlSourceMap *map)
{
  BlSourceMapPatch *patch = out->patch;
  guint start = out->next > 0 ? g_array_index (patch->ends, guint, out->next - 1) : 0;
  guint end = g_array_index (patch->ends, guint, out->next);

  for (guint i = start; i < end; i++)
    {
      const PatchRange *range = &g_array_index (patch->ranges, PatchRange, i);
      const char *text = range->block == PATCH_SOURCE ? NULL
                         : (const char *) g_ptr_array_index (patch->blocks, range->block) + range->start;

      if (range->block == PATCH_SOURCE)
        append_range (out, map, range->start, range->end);
      else if (out->write == NULL)
        g_string_append_len (out->text, text, range->end - range->start);
      else
        {
          flush_run (out);
          flush_text (out);
          out->write (text, range->end - range->start, out->write_data);
        }
    }
  out->next++;
}

/* Whether NODE holds the patch's next node (or is it). */
static gboolean
holds_next (Out     *out,
            xmlNode *node)
{
  if (out->patch == NULL || out->next >= out->patch->nodes->len)
    return FALSE;
  for (xmlNode *p = g_ptr_array_index (out->patch->nodes, out->next); p != NULL; p = p->parent)
    if (p == node)
      return TRUE;
  return FALSE;
}

static void
write_node (Out         *out,
            BlSourceMap *map,
            xmlNode     *node)
{
  Span *span = node->_private;

  if (holds_next (out, node))
    {
      /* What holds a recorded node is written node by node (the same
       * bytes as its range, when unchanged) down to it. */
      if (node == g_ptr_array_index (out->patch->nodes, out->next))
        write_recorded (out, map);
      else
        write_changed_node (out, map, node);
    }
  else if (subtree_unchanged (map, node))
    append_range (out, map, span->start, span->end);
  else
    write_changed_node (out, map, node);
}

/* The current tree into OUT: the source's prolog, the root (found
 * changed), what follows it. */
static void
write_document (Out *out)
{
  BlSourceMap *map = out->map;

  append_range (out, map, 0, map->root->start);
  write_changed_node (out, map, xmlDocGetRootElement (map->xml));
  append_range (out, map, map->root->end, map->n);
}

/* Whether the tree is as the source reads, every node (resetting the
 * attribute cursor, which edits since the last call may have freed). */
static gboolean
tree_unchanged (BlSourceMap *map)
{
  map->attr_node = NULL;
  map->attr_prop = NULL;
  return subtree_unchanged (map, xmlDocGetRootElement (map->xml));
}

/* The tree into TEXT, or handed to WRITE in pieces when WRITE is set,
 * with PATCH's nodes (or none) written as it recorded them. */
static void
serialize (BlSourceMap          *map,
           BlSourceMapPatch     *patch,
           GString              *text,
           BlSourceMapWriteFunc  write,
           gpointer              write_data)
{
  Out out = { map, text, write, write_data, NULL, 0, 0, patch, 0 };

  /* edits since the last write may have freed the attribute it found */
  map->attr_node = NULL;
  map->attr_prop = NULL;
  write_document (&out);
  if (write != NULL)
    {
      flush_text (&out);
      flush_run (&out);
    }
  /* a recorded node taken out of the tree would be left out silently */
  g_warn_if_fail (patch == NULL || out.next == patch->nodes->len);
}

GBytes *
bl_source_map_serialize (BlSourceMap *map)
{
  g_return_val_if_fail (map != NULL, NULL);

  return bl_source_map_patch_serialize (map, NULL);
}

void
bl_source_map_write (BlSourceMap          *map,
                     BlSourceMapWriteFunc  write,
                     gpointer              user_data)
{
  g_return_if_fail (map != NULL);
  g_return_if_fail (write != NULL);

  bl_source_map_patch_write (map, NULL, write, user_data);
}

/* ------------------------------------------------------------------------ */
/* Patches                                                                   */

BlSourceMapPatch *
bl_source_map_patch_new (BlSourceMap *map)
{
  BlSourceMapPatch *patch;

  g_return_val_if_fail (map != NULL, NULL);

  patch = g_new0 (BlSourceMapPatch, 1);
  patch->map = map;
  patch->nodes = g_ptr_array_new ();
  patch->ends = g_array_new (FALSE, FALSE, sizeof (guint));
  patch->ranges = g_array_new (FALSE, FALSE, sizeof (PatchRange));
  patch->blocks = g_ptr_array_new_with_free_func (g_free);
  return patch;
}

void
bl_source_map_patch_free (BlSourceMapPatch *patch)
{
  if (patch == NULL)
    return;
  g_ptr_array_unref (patch->nodes);
  g_array_unref (patch->ends);
  g_array_unref (patch->ranges);
  g_ptr_array_unref (patch->blocks);
  g_free (patch);
}

void
bl_source_map_patch_record (BlSourceMapPatch *patch,
                            xmlNode          *node)
{
  GString *scratch;
  Out out = { NULL };
  guint end;

  g_return_if_fail (patch != NULL);
  g_return_if_fail (node != NULL && node->doc == patch->map->xml);
  g_return_if_fail (node->parent != NULL && node->parent->type == XML_ELEMENT_NODE);

  /* edits since the last write may have freed the attribute it found */
  patch->map->attr_node = NULL;
  patch->map->attr_prop = NULL;

  scratch = g_string_new (NULL);
  out.map = patch->map;
  out.text = scratch;
  out.recording = patch;
  write_node (&out, patch->map, node);
  flush_text (&out);
  flush_run (&out);
  g_string_free (scratch, TRUE);

  end = patch->ranges->len;
  g_ptr_array_add (patch->nodes, node);
  g_array_append_val (patch->ends, end);
}

/* Whether nothing is written otherwise than the source reads. */
static gboolean
as_source (BlSourceMap      *map,
           BlSourceMapPatch *patch)
{
  return (patch == NULL || patch->nodes->len == 0) && tree_unchanged (map);
}

GBytes *
bl_source_map_patch_serialize (BlSourceMap      *map,
                               BlSourceMapPatch *patch)
{
  GString *text;

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (patch == NULL || patch->map == map, NULL);

  /* Unedited (or edited back): what would be written is the source's
   * prolog, the root's span and what follows it, so the source itself,
   * not a copy. */
  if (as_source (map, patch))
    return g_bytes_ref (map->source);

  text = g_string_sized_new (map->n + 256);
  serialize (map, patch, text, NULL, NULL);
  return g_string_free_to_bytes (text);
}

void
bl_source_map_patch_write (BlSourceMap          *map,
                           BlSourceMapPatch     *patch,
                           BlSourceMapWriteFunc  write,
                           gpointer              user_data)
{
  g_autoptr(GString) text = NULL;

  g_return_if_fail (map != NULL);
  g_return_if_fail (patch == NULL || patch->map == map);
  g_return_if_fail (write != NULL);

  if (as_source (map, patch))
    {
      write (map->s, map->n, user_data);
      return;
    }

  text = g_string_new (NULL);
  serialize (map, patch, text, write, user_data);
}
