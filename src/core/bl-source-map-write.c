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

gboolean
bl_source_map_text_unchanged (BlSourceMap *map,
                              xmlNode     *node,
                              Span        *span)
{
  gsize len = span->end - span->start;
  const char *source = map->s + span->start;
  g_autofree char *raw = NULL;

  /* UTF-8 text without references or carriage returns is what the
   * parser kept, byte for byte: compared in place. */
  if (map->encoding == NULL && memchr (source, '&', len) == NULL && memchr (source, '\r', len) == NULL)
    return node->content != NULL && strncmp ((const char *) node->content, source, len) == 0 &&
           node->content[len] == '\0';

  raw = raw_utf8 (map, span->start, span->end);
  g_autofree char *decoded = NULL;

  if (raw == NULL)
    return FALSE;
  decoded = decode (raw);
  return g_strcmp0 (decoded, (const char *) node->content) == 0;
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
      if (span_child == NULL || child->_private != span_child || !subtree_unchanged (map, child))
        return FALSE;
    }

  return span_child == NULL;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */

/* Where the tree is written: all of it into text; or, with pieces, the
 * source's unchanged ranges as slices of the source (contiguous ones
 * joined, nothing copied) between pieces of the text written anew. */
typedef struct
{
  BlSourceMap *map;
  GString     *text;
  GPtrArray   *pieces;         /* GBytes*, or NULL */
  gsize        run_start, run_end; /* the range of the source not yet a piece */
} Out;

static void
flush_run (Out *out)
{
  if (out->run_end > out->run_start)
    g_ptr_array_add (out->pieces, g_bytes_new_from_bytes (out->map->source, out->run_start,
                                                          out->run_end - out->run_start));
  out->run_start = out->run_end = 0;
}

static void
flush_text (Out *out)
{
  if (out->text->len > 0)
    {
      g_ptr_array_add (out->pieces, g_bytes_new (out->text->str, out->text->len));
      g_string_truncate (out->text, 0);
    }
}

/* The text to append to, after the range of the source before it. */
static GString *
out_text (Out *out)
{
  if (out->pieces != NULL)
    flush_run (out);
  return out->text;
}

static void
append_range (Out         *out,
              BlSourceMap *map,
              gsize        start,
              gsize        end)
{
  if (out->pieces == NULL)
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
      gunichar c = g_utf8_get_char (p);

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

static void
append_new_attributes (Out         *out,
                       BlSourceMap *map,
                       xmlNode     *node,
                       Span        *span)
{
  g_autoptr(GHashTable) original = g_hash_table_new (NULL, NULL);

  /* the source's attributes, found once each */
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
      if (prop->ns != NULL && prop->ns->prefix != NULL)
        g_string_append_printf (out_text (out), "%s:", (const char *) prop->ns->prefix);
      g_string_append_printf (out_text (out), "%s=\"", (const char *) prop->name);
      append_escaped (out, map, value, '"');
      g_string_append_c (out_text (out), '"');
    }
}

static void write_node (Out *out, BlSourceMap *map, xmlNode *node);

static void
write_children (Out         *out,
                BlSourceMap *map,
                xmlNode     *node)
{
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    write_node (out, map, child);
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
      {
        g_autofree char *qname = bl_source_map_node_qname (node);

        g_string_append_printf (out_text (out), "<%s", qname);
        append_new_attributes (out, map, node, NULL);
        if (node->children == NULL)
          {
            g_string_append (out_text (out), "/>");
            return;
          }
        g_string_append_c (out_text (out), '>');
        write_children (out, map, node);
        g_string_append_printf (out_text (out), "</%s>", qname);
      }
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
      g_autofree char *qname = bl_source_map_node_qname (node);

      g_string_append_printf (out_text (out), "</%s>", qname);
    }
}

static void
write_node (Out         *out,
            BlSourceMap *map,
            xmlNode     *node)
{
  Span *span = node->_private;

  if (subtree_unchanged (map, node))
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

GBytes *
bl_source_map_serialize (BlSourceMap *map)
{
  Out out = { map, NULL, NULL, 0, 0 };

  g_return_val_if_fail (map != NULL, NULL);

  /* Unedited (or edited back): what would be written is the source's
   * prolog, the root's span and what follows it, so the source itself,
   * not a copy. */
  if (tree_unchanged (map))
    return g_bytes_ref (map->source);

  out.text = g_string_sized_new (map->n + 256);
  write_document (&out);
  return g_string_free_to_bytes (out.text);
}

GPtrArray *
bl_source_map_serialize_pieces (BlSourceMap *map)
{
  Out out = { map, NULL, NULL, 0, 0 };

  g_return_val_if_fail (map != NULL, NULL);

  out.pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  if (tree_unchanged (map))
    {
      g_ptr_array_add (out.pieces, g_bytes_ref (map->source));
      return out.pieces;
    }

  out.text = g_string_new (NULL);
  write_document (&out);
  flush_text (&out);
  flush_run (&out);
  g_string_free (out.text, TRUE);
  return out.pieces;
}
