/* bl-xml-private.h: the few libxml2 tree helpers the core's readers share. */
#pragma once

#include <string.h>

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

/* An SDF element: no namespace (gz:… and other extensions are not SDF),
 * and with the given name unless name is NULL. */
static inline gboolean
bl_xml_is_element (xmlNode    *node,
                   const char *name)
{
  return node->type == XML_ELEMENT_NODE && node->ns == NULL &&
         (name == NULL || strcmp ((const char *) node->name, name) == 0);
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

/* The element's text as written (not stripped); never NULL. */
static inline char *
bl_xml_dup_text (xmlNode *node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *text = g_strdup (content != NULL ? (const char *) content : "");

  xmlFree (content);
  return text;
}

/* The attribute's value, or NULL when absent. */
static inline char *
bl_xml_dup_attribute (xmlNode    *node,
                      const char *name)
{
  xmlChar *value = xmlGetNoNsProp (node, (const xmlChar *) name);
  char *text = value != NULL ? g_strdup ((const char *) value) : NULL;

  xmlFree (value);
  return text;
}

G_END_DECLS
