/* bl-xml-private.h: the few libxml2 tree helpers the core's readers share. */
#pragma once

#include <string.h>

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

/* The name of an editable load's stand-in for elements it left out
 * (bl-stream-load.c): no reader or edit ever looks for it. */
#define BL_XML_LEFT_OUT "ballast-left-out"

/* An SDF element: no namespace (gz:… and other extensions are not SDF),
 * and with the given name unless name is NULL.  (The first bytes are
 * compared here: most names looked for differ from most there, and the
 * readers ask this of every child they pass.) */
static inline gboolean
bl_xml_is_element (xmlNode    *node,
                   const char *name)
{
  return node->type == XML_ELEMENT_NODE && node->ns == NULL &&
         (name == NULL || (node->name[0] == (xmlChar) name[0] && strcmp ((const char *) node->name, name) == 0));
}

/* Whether the element is one whose name attribute an editable load drops
 * once it is read (a <model>, <link> or <collision>: the document keeps
 * the name in its BlModel, BlLink or BlCollision, and no edit renames),
 * and the source map then takes as written in the file. */
static inline gboolean
bl_xml_name_is_read_once (xmlNode *node)
{
  return bl_xml_is_element (node, "model") || bl_xml_is_element (node, "link") ||
         bl_xml_is_element (node, "collision");
}

/* The line an element starts on (its start tag's end), 0 for NULL.  The
 * document's parser keeps the true line in psvi, because libxml2's own
 * field stops at 65535 (and xmlGetLineNo's guess past it is off). */
static inline int
bl_xml_get_line (xmlNode *node)
{
  if (node == NULL)
    return 0;
  if (node->type == XML_ELEMENT_NODE && node->psvi != NULL)
    return GPOINTER_TO_INT (node->psvi);
  return (int) xmlGetLineNo (node);
}

/* The unknown children of an <inertia>, a <fluid_added_mass> or a
 * <geometry> that its reader warns about one by one; the loads keep no
 * more (bl-stream-load-lean.c), counting the rest in the element's
 * _private, which nothing else uses on them. */
#define BL_XML_UNKNOWN_LISTED 20

static inline gboolean
bl_xml_counts_unknown (xmlNode *node)
{
  return bl_xml_is_element (node, "inertia") || bl_xml_is_element (node, "fluid_added_mass") ||
         bl_xml_is_element (node, "geometry");
}

static inline void
bl_xml_add_unknown_left_out (xmlNode *node)
{
  node->_private = GUINT_TO_POINTER (GPOINTER_TO_UINT (node->_private) + 1);
}

/* The unknown children left out of the element (0 for other elements). */
static inline guint
bl_xml_get_unknown_left_out (xmlNode *node)
{
  return bl_xml_counts_unknown (node) ? GPOINTER_TO_UINT (node->_private) : 0;
}

/* Whether the element stands in for elements an editable load left out
 * (copied back byte for byte; no reader reads it). */
static inline gboolean
bl_xml_is_left_out (xmlNode *node)
{
  return node->type == XML_ELEMENT_NODE && node->ns == NULL && strcmp ((const char *) node->name, BL_XML_LEFT_OUT) == 0;
}

/* Gives the elements of `to`, a copy of `from` (xmlDocCopyNode), the
 * true lines of `from`'s, and the unknown children left out: libxml2's
 * copy keeps only its own field. */
static inline void
bl_xml_copy_lines (xmlNode *from,
                   xmlNode *to)
{
  to->psvi = from->psvi;
  if (bl_xml_counts_unknown (from))
    to->_private = from->_private;
  for (xmlNode *a = from->children, *b = to->children; a != NULL && b != NULL; a = a->next, b = b->next)
    if (a->type == XML_ELEMENT_NODE && b->type == XML_ELEMENT_NODE)
      bl_xml_copy_lines (a, b);
}

/* The first SDF child element called name; NULL when parent is NULL. */
static inline xmlNode *
bl_xml_first_child (xmlNode    *parent,
                    const char *name)
{
  for (xmlNode *child = parent != NULL ? parent->children : NULL; child != NULL; child = child->next)
    if (bl_xml_is_element (child, name))
      return child;
  return NULL;
}

/* Links NODE into PARENT's children before NEXT (NULL: last).  Not
 * xmlAddChild & co: they merge adjacent text nodes, which would change
 * the source's own nodes. */
static inline void
bl_xml_link (xmlNode *parent,
             xmlNode *next,
             xmlNode *node)
{
  node->parent = parent;
  node->next = next;
  node->prev = next != NULL ? next->prev : parent->last;
  if (node->prev != NULL)
    node->prev->next = node;
  else
    parent->children = node;
  if (next != NULL)
    next->prev = node;
  else
    parent->last = node;
}

/* Text of XML blanks only (layout; TinyXML2 keeps no node for it). */
static inline gboolean
bl_xml_is_blank_text (xmlNode *node)
{
  if (node == NULL || node->type != XML_TEXT_NODE)
    return FALSE;
  for (const xmlChar *c = node->content; c != NULL && *c != '\0'; c++)
    if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r')
      return FALSE;
  return TRUE;
}

/* The child an element's value is read from, as libsdformat reads it
 * (TinyXML2's XMLElement::GetText): the first child that is neither a
 * comment nor blank text, when that is text or CDATA; NULL when it is an
 * element or anything else (libsdformat then reads an empty value) or
 * when there is none.  Text after a comment or an element is not part of
 * the value. */
static inline xmlNode *
bl_xml_value_node (xmlNode *element)
{
  for (xmlNode *child = element->children; child != NULL; child = child->next)
    {
      if (child->type == XML_COMMENT_NODE || bl_xml_is_blank_text (child))
        continue;
      if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE)
        return child;
      return NULL;
    }
  return NULL;
}

/* Whether the element holds more than its value (bl_xml_value_node),
 * comments and blanks: text split off by a comment or an element, or
 * elements, which libsdformat leaves out of the value. */
static inline gboolean
bl_xml_value_is_split (xmlNode *element)
{
  xmlNode *value = bl_xml_value_node (element);

  for (xmlNode *child = element->children; child != NULL; child = child->next)
    if (child != value && child->type != XML_COMMENT_NODE && !bl_xml_is_blank_text (child))
      return TRUE;
  return FALSE;
}

/* The element's value as written (not stripped; see bl_xml_value_node),
 * "" when it has none; never NULL. */
static inline char *
bl_xml_dup_text (xmlNode *node)
{
  xmlNode *value = bl_xml_value_node (node);

  return g_strdup (value != NULL && value->content != NULL ? (const char *) value->content : "");
}

/* The attribute `name` (no namespace) as the file writes it, or NULL.
 * Unlike xmlGetNoNsProp, never a default from the document's DTD
 * (<!ATTLIST inertial auto CDATA "true">): libsdformat reads only what
 * the file writes, and so does Ballast. */
static inline xmlAttr *
bl_xml_written_attribute (xmlNode    *node,
                          const char *name)
{
  for (xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
    if (attr->ns == NULL && strcmp ((const char *) attr->name, name) == 0)
      return attr;
  return NULL;
}

/* The attribute's value as written (see bl_xml_written_attribute), or
 * NULL when absent. */
static inline char *
bl_xml_dup_attribute (xmlNode    *node,
                      const char *name)
{
  xmlAttr *attr = bl_xml_written_attribute (node, name);
  xmlChar *value;
  char *text;

  if (attr == NULL)
    return NULL;
  value = xmlNodeListGetString (node->doc, attr->children, 1);
  text = g_strdup (value != NULL ? (const char *) value : "");
  xmlFree (value);
  return text;
}

G_END_DECLS
