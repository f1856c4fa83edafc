/* bl-include-params.c: <experimental:params>, as libsdformat 15's
 * src/ParamPassing.cc applies them, over the included file's XML tree.
 *
 * libsdformat edits its element tree, read against the SDF spec; Ballast
 * edits the XML the model is then read from.  The two differ only where
 * the spec matters: an element name is "defined" here when it has no
 * namespace prefix (libsdformat looks it up in the spec), any attribute
 * may be modified (libsdformat refuses an unprefixed one the spec does
 * not define), and a modified value left empty takes the default of the
 * table below (libsdformat the spec's, for every element). */
#include "config.h"

#include <string.h>

#include "bl-diagnostic.h"
#include "bl-include-params-private.h"
#include "bl-xml-private.h"

/* An alteration handed on to a nested include (defer): the stub and its
 * attributes, and the limits on them. */
#define DEFERRED "ballast:deferred"
#define DEFERRED_UNNAMED "ballast:deferred-unnamed"
#define DEFERRED_FILE "ballast:deferred-file"
#define MAX_UNNAMED 16
#define MAX_DEFERRED 1000000
/* children looked at to find elements, a document: some seconds */
#define MAX_STEPS 50000000

typedef struct
{
  xmlNode    *include;
  const char *file;
  const char *owner;
  GPtrArray  *diagnostics;
  BlParamsBudget *budget;
  gboolean    over_budget;
} Params;

/* SDF's defaults for the values Ballast reads (the spec files of sdf/1.11). */
typedef struct
{
  const char *name;
  const char *parent; /* NULL: under any parent */
  const char *value;
} Default;

static const Default defaults[] = {
  { "pose", NULL, "0 0 0 0 0 0" },
  { "mass", NULL, "1.0" },
  { "ixx", NULL, "1.0" }, { "iyy", NULL, "1.0" }, { "izz", NULL, "1.0" },
  { "ixy", NULL, "0.0" }, { "ixz", NULL, "0.0" }, { "iyz", NULL, "0.0" },
  { "density", NULL, "1000.0" },
  { "size", "box", "1 1 1" },
  { "radii", "ellipsoid", "1 1 1" },
  { "scale", "mesh", "1 1 1" },
  { "radius", "capsule", "0.5" },
  { "radius", "sphere", "1" }, { "radius", "cylinder", "1" }, { "radius", "cone", "1" },
  { "length", "capsule", "1" }, { "length", "cylinder", "1" }, { "length", "cone", "1" },
  /* <fluid_added_mass>: every entry 0 */
  { "xx", NULL, "0.0" }, { "xy", NULL, "0.0" }, { "xz", NULL, "0.0" }, { "xp", NULL, "0.0" },
  { "xq", NULL, "0.0" }, { "xr", NULL, "0.0" }, { "yy", NULL, "0.0" }, { "yz", NULL, "0.0" },
  { "yp", NULL, "0.0" }, { "yq", NULL, "0.0" }, { "yr", NULL, "0.0" }, { "zz", NULL, "0.0" },
  { "zp", NULL, "0.0" }, { "zq", NULL, "0.0" }, { "zr", NULL, "0.0" }, { "pp", NULL, "0.0" },
  { "pq", NULL, "0.0" }, { "pr", NULL, "0.0" }, { "qq", NULL, "0.0" }, { "qr", NULL, "0.0" },
  { "rr", NULL, "0.0" },
};

static const char *
default_value (xmlNode *element)
{
  const char *parent = element->parent != NULL && element->parent->type == XML_ELEMENT_NODE
                       ? (const char *) element->parent->name : "";

  if (element->ns != NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    if (strcmp (defaults[i].name, (const char *) element->name) == 0 &&
        (defaults[i].parent == NULL || strcmp (defaults[i].parent, parent) == 0))
      return defaults[i].value;
  return NULL;
}

/* "prefix:name" as written, whether or not the prefix is declared
 * (undeclared, libxml2 keeps it in the name). */
static char *
dup_qname (xmlNode *node)
{
  if (node->ns != NULL && node->ns->prefix != NULL)
    return g_strconcat ((const char *) node->ns->prefix, ":", (const char *) node->name, NULL);
  return g_strdup ((const char *) node->name);
}

gboolean
bl_xml_has_qname (xmlNode    *node,
                  const char *qname)
{
  g_autofree char *name = NULL;

  if (node == NULL || node->type != XML_ELEMENT_NODE)
    return FALSE;
  name = dup_qname (node);
  return strcmp (name, qname) == 0;
}

static gboolean
same_qname (xmlNode *a,
            xmlNode *b)
{
  g_autofree char *name = dup_qname (b);

  return bl_xml_has_qname (a, name);
}

/* An element of the SDF spec, as far as Ballast can tell: no prefix. */
static gboolean
is_sdf_name (xmlNode *node)
{
  g_autofree char *name = dup_qname (node);

  return strchr (name, ':') == NULL;
}

static xmlNode *
first_element (xmlNode *node)
{
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    if (child->type == XML_ELEMENT_NODE)
      return child;
  return NULL;
}

static xmlNode *
next_element (xmlNode *node)
{
  for (xmlNode *next = node->next; next != NULL; next = next->next)
    if (next->type == XML_ELEMENT_NODE)
      return next;
  return NULL;
}

/* TinyXML2's NoChildren: blanks are no nodes there, comments are. */
static gboolean
has_no_children (xmlNode *node)
{
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    if (!bl_xml_is_blank_text (child))
      return FALSE;
  return TRUE;
}

static void G_GNUC_PRINTF (4, 5)
report (Params     *params,
        BlSeverity  severity,
        xmlNode    *where,
        const char *format,
        ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  bl_diagnostics_add (params->diagnostics, severity, "params", params->file, bl_xml_get_line (where),
                      params->owner, "<experimental:params>: %s", message);
}

/* The element's name attribute as written, or NULL: without a copy,
 * this is what the searches look at most (the reader expands no
 * entities, so the value is one text node, or none when empty). */
static const char *
peek_name (xmlNode *node)
{
  xmlAttr *attr = bl_xml_written_attribute (node, "name");

  if (attr == NULL)
    return NULL;
  if (attr->children == NULL || attr->children->content == NULL)
    return "";
  return (const char *) attr->children->content;
}

/* A nested <include> the element_id may go on into: libsdformat has
 * read it into a <model> when it applies the params, Ballast reads it
 * after, so the alteration is handed on to it (defer). */
typedef struct
{
  xmlNode *include;
  gsize    rest;       /* offset in the id of what is left past its name */
  gboolean named;      /* FALSE: its <name> is the included model's, unknown yet */
} Through;

/* libsdformat's getElementById, step for step: the child of `model`
 * whose name is the longest prefix of `id`, then its children with what
 * follows the "::", until a child of element `qname` (any, with
 * is_parent) is named the rest.  Adds to `through` (a GArray of
 * Through) each nested <include> on the way that the id may go on in. */
static xmlNode *
find_by_id (Params     *params,
            xmlNode    *model,
            const char *qname,
            const char *id,
            gboolean    is_parent,
            GArray     *through)
{
  gint64 length = (gint64) strlen (id);
  gint64 start = 0, longest = 0;
  xmlNode *child = first_element (model);
  xmlNode *matching = NULL;

  while (child != NULL)
    {
      const char *name = peek_name (child);

      params->budget->steps++;
      if (name != NULL)
        {
          gint64 size = (gint64) strlen (name);
          gint64 stop = -1;

          if (is_parent && strcmp (id, name) == 0)
            return child;

          if (start <= length && length - start >= size && strncmp (id + start, name, size) == 0)
            stop = start + size - 1;
          if (stop > longest)
            {
              gboolean rest = strcmp (id + start, name) == 0;

              matching = child;
              if (rest && (is_parent || bl_xml_has_qname (child, qname)))
                break;
              longest = stop;
            }
        }
      else if (bl_xml_is_element (child, "include") && start <= length)
        {
          xmlNode *name_node = bl_xml_first_child (child, "name");
          g_autofree char *include_name = name_node != NULL ? g_strstrip (bl_xml_dup_text (name_node)) : NULL;
          gsize size = include_name != NULL ? strlen (include_name) : 0;

          if (name_node == NULL)
            {
              Through item = { child, start, FALSE };

              g_array_append_val (through, item);
            }
          else if (size > 0 && strncmp (id + start, include_name, size) == 0 &&
                   (id[start + size] == '\0' || g_str_has_prefix (id + start + size, "::")))
            {
              /* past the "::", or "" for the included model itself */
              Through item = { child, start + size + (id[start + size] != '\0' ? 2 : 0), TRUE };

              g_array_append_val (through, item);
            }
        }

      child = next_element (child);
      if (child == NULL && matching != NULL)
        {
          const char *found;

          child = first_element (matching);
          matching = NULL;
          start = longest;
          found = start <= length ? strstr (id + start, "::") : NULL;
          if (found != NULL && found - (id + start) == 1)
            start += 3;
        }
    }

  return matching != NULL ? child : NULL;
}

/* libsdformat's getElementByName: the child of `parent` written like
 * `xml` (and of its name, when it has one; with `modify`, else the first
 * of that element, to be renamed). */
static xmlNode *
find_by_name (Params   *params,
              xmlNode  *parent,
              xmlNode  *xml,
              gboolean  modify)
{
  const char *name = peek_name (xml);
  xmlNode *first = NULL;

  for (xmlNode *child = first_element (parent); child != NULL; child = next_element (child))
    {
      const char *child_name;

      params->budget->steps++;
      if (!same_qname (child, xml))
        continue;
      if (first == NULL)
        first = child;
      if (name == NULL)
        break;
      child_name = peek_name (child);
      if (child_name != NULL && strcmp (child_name, name) == 0)
        return child;
    }

  if (first == NULL || (name != NULL && !modify))
    return NULL;
  if (name == NULL)
    {
      g_autofree char *first_name = bl_xml_dup_attribute (first, "name");

      if (first_name != NULL)
        report (params, BL_SEVERITY_WARNING, xml,
                "<%s> names no element, but the original has the name “%s”: that one is altered",
                (const char *) xml->name, first_name);
    }
  return first;
}

/* element_id and action: not the element's own. */
static gboolean
is_control_attribute (xmlAttr *attr)
{
  const char *name = (const char *) attr->name;

  return attr->ns == NULL && (strcmp (name, "element_id") == 0 || strcmp (name, "action") == 0);
}

/* `xml` without element_id and action, into `doc` (libsdformat's xmlToSdf). */
static xmlNode *
copy_element (xmlNode *xml,
              xmlDoc  *doc)
{
  xmlNode *copy = xmlDocCopyNode (xml, doc, 1);

  bl_xml_copy_lines (xml, copy);
  for (xmlAttr *attr = copy->properties, *next; attr != NULL; attr = next)
    {
      next = attr->next;
      if (is_control_attribute (attr))
        xmlRemoveProp (attr);
    }
  return copy;
}

static void
remove_element (xmlNode *element)
{
  xmlUnlinkNode (element);
  xmlFreeNode (element);
}

static void
set_value (xmlNode    *element,
           const char *value)
{
  xmlNode *first;

  for (xmlNode *child = element->children, *next; child != NULL; child = next)
    {
      next = child->next;
      if (child->type != XML_ELEMENT_NODE)
        remove_element (child);
    }
  first = element->children;
  if (first != NULL)
    xmlAddPrevSibling (first, xmlNewDocText (element->doc, (const xmlChar *) value));
  else
    xmlAddChild (element, xmlNewDocText (element->doc, (const xmlChar *) value));
}

static void
modify_attributes (xmlNode *xml,
                   xmlNode *element)
{
  for (xmlAttr *attr = xml->properties; attr != NULL; attr = attr->next)
    {
      g_autofree char *name = NULL;
      xmlChar *value;

      if (is_control_attribute (attr))
        continue;
      name = attr->ns != NULL && attr->ns->prefix != NULL
             ? g_strconcat ((const char *) attr->ns->prefix, ":", (const char *) attr->name, NULL)
             : g_strdup ((const char *) attr->name);
      value = xmlNodeListGetString (xml->doc, attr->children, 1);
      xmlSetProp (element, (const xmlChar *) name, value != NULL ? value : (const xmlChar *) "");
      xmlFree (value);
    }
}

static void modify (Params  *params,
                    xmlNode *xml,
                    xmlNode *element);

static void
modify_children (Params  *params,
                 xmlNode *xml,
                 xmlNode *element)
{
  for (xmlNode *child = first_element (xml); child != NULL; child = next_element (child))
    {
      xmlNode *value = bl_xml_value_node (child);
      xmlNode *target = find_by_name (params, element, child, TRUE);

      if (target == NULL)
        {
          report (params, BL_SEVERITY_ERROR, child,
                  "there is no <%s> in <%s> to modify; skipped", (const char *) child->name,
                  (const char *) element->name);
          continue;
        }
      if (value != NULL)
        {
          set_value (target, (const char *) value->content);
          modify_attributes (child, target);
        }
      else if (has_no_children (child))
        {
          const char *fallback = default_value (target);

          if (first_element (target) != NULL)
            {
              report (params, BL_SEVERITY_WARNING, child,
                      "<%s/> in <%s> modifies nothing; skipped", (const char *) child->name,
                      (const char *) element->name);
              continue;
            }
          if (fallback != NULL)
            set_value (target, fallback);
          else if (bl_xml_value_node (target) != NULL)
            report (params, BL_SEVERITY_WARNING, child,
                    "<%s/> resets the value to SDF's default, which Ballast does not know for "
                    "this element; its value is left as the model has it", (const char *) child->name);
          modify_attributes (child, target);
        }
      else
        {
          modify (params, child, target);
        }
    }
}

static void
modify (Params  *params,
        xmlNode *xml,
        xmlNode *element)
{
  xmlNode *value = bl_xml_value_node (xml);

  modify_attributes (xml, element);
  if (value != NULL)
    set_value (element, (const char *) value->content);
  else
    modify_children (params, xml, element);
}

static void
remove_children (Params  *params,
                 xmlNode *xml,
                 xmlNode *element)
{
  if (has_no_children (xml))
    {
      remove_element (element);
      return;
    }
  for (xmlNode *child = first_element (xml); child != NULL; child = next_element (child))
    {
      xmlNode *target = find_by_name (params, element, child, FALSE);

      if (target == NULL)
        report (params, BL_SEVERITY_ERROR, child, "there is no <%s> in <%s> to remove; skipped",
                (const char *) child->name, (const char *) element->name);
      else
        remove_element (target);
    }
}

static void
replace (xmlNode *xml,
         xmlNode *element)
{
  xmlNode *copy = copy_element (xml, element->doc);

  xmlReplaceNode (element, copy);
  xmlFreeNode (element);
}

static gboolean
valid_action (const char *action)
{
  return strcmp (action, "add") == 0 || strcmp (action, "modify") == 0 ||
         strcmp (action, "remove") == 0 || strcmp (action, "replace") == 0;
}

/* An element_id without an action: each child of `xml` has its own. */
static void
child_actions (Params  *params,
               xmlNode *xml,
               xmlNode *element)
{
  if (!is_sdf_name (xml))
    {
      report (params, BL_SEVERITY_ERROR, xml, "<%s> is not an SDF element; skipped", (const char *) xml->name);
      return;
    }

  for (xmlNode *child = first_element (xml); child != NULL; child = next_element (child))
    {
      g_autofree char *action = bl_xml_dup_attribute (child, "action");
      xmlNode *target;

      if (action == NULL)
        {
          report (params, BL_SEVERITY_ERROR, child,
                  "<%s> has no action (add, modify, remove or replace); skipped", (const char *) child->name);
          continue;
        }
      if (!valid_action (action))
        {
          report (params, BL_SEVERITY_ERROR, child,
                  "<%s> has the action “%s”, not add, modify, remove or replace; skipped",
                  (const char *) child->name, action);
          continue;
        }
      if (strcmp (action, "remove") == 0 || strcmp (action, "modify") == 0)
        {
          gboolean is_modify = action[0] == 'm';

          target = find_by_name (params, element, child, is_modify);
          if (target == NULL)
            report (params, BL_SEVERITY_ERROR, child, "there is no <%s> in <%s> to %s; skipped",
                    (const char *) child->name, (const char *) element->name, action);
          else if (is_modify)
            modify (params, child, target);
          else
            remove_children (params, child, target);
          continue;
        }

      if (!is_sdf_name (child))
        {
          report (params, BL_SEVERITY_ERROR, child, "<%s> is not an SDF element of <%s>; skipped",
                  (const char *) child->name, (const char *) xml->name);
          continue;
        }
      if (strcmp (action, "add") == 0)
        {
          xmlAddChild (element, copy_element (child, element->doc));
          continue;
        }
      target = find_by_name (params, element, child, FALSE);
      if (target == NULL)
        {
          report (params, BL_SEVERITY_ERROR, child, "there is no <%s> in <%s> to replace; skipped",
                  (const char *) child->name, (const char *) element->name);
          continue;
        }
      if (bl_xml_written_attribute (target, "name") != NULL && bl_xml_written_attribute (child, "name") == NULL)
        {
          report (params, BL_SEVERITY_ERROR, child, "the replacement <%s> has no name; skipped",
                  (const char *) child->name);
          continue;
        }
      replace (child, target);
    }
}

/* Elements of `xml`, itself included, counted up to `limit`. */
static guint
count_elements (xmlNode *xml,
                guint    limit)
{
  guint n = 1;

  for (xmlNode *child = first_element (xml); child != NULL && n < limit; child = next_element (child))
    n += count_elements (child, limit - n);
  return n;
}

/* What is handed on to nested includes costs `cost` (a stub 1, applying
 * one the elements of its alteration) of MAX_DEFERRED a document: a
 * fan of unnamed includes could otherwise copy an alteration once per
 * include it reaches.  FALSE, said once an include, past it. */
static gboolean
within_budget (Params  *params,
               xmlNode *xml,
               guint    cost)
{
  if (params->budget->deferred <= MAX_DEFERRED && cost <= MAX_DEFERRED - params->budget->deferred)
    {
      params->budget->deferred += cost;
      return TRUE;
    }
  if (!params->over_budget)
    report (params, BL_SEVERITY_WARNING, xml,
            "the alterations handed on to nested <include>s exceed %d elements in all (the limit "
            "on their work); this one and the later ones are not applied", MAX_DEFERRED);
  params->over_budget = TRUE;
  return FALSE;
}

/* Hands `xml` on to the nested includes in `through` that may hold it:
 * the first named one, else every unnamed one (MAX_UNNAMED at most).
 * Each gets a stub at the end of its <experimental:params> (made when it
 * has none), applied when that include is read, after its own params, as
 * libsdformat applies them: a DEFERRED element whose _private is `xml`
 * (the document keeps every file's tree until it is freed), with the
 * rest of the id; for an unnamed include the id keeps the model's name,
 * and DEFERRED_UNNAMED says "1" when the include is the only one, "n"
 * when one of several.  DEFERRED_FILE names the file `xml` is in.  At
 * most MAX_DEFERRED stubs a document (budget->deferred counts them). */
static void
defer (Params     *params,
       xmlNode    *xml,
       const char *id,
       GArray     *through)
{
  guint n = 0, first = 0;

  for (guint i = 0; i < through->len && n == 0; i++)
    if (g_array_index (through, Through, i).named)
      {
        first = i;
        n = 1;
      }
  if (n == 0)
    n = through->len;
  if (n > MAX_UNNAMED)
    {
      report (params, BL_SEVERITY_WARNING, xml,
              "<%s element_id=\"%s\"> may be in any of %u nested <include>s without a <name>; "
              "Ballast does not apply it (libsdformat does, to the one whose model has that name)",
              (const char *) xml->name, id, n);
      return;
    }

  for (guint i = first; i < first + n; i++)
    {
      Through *item = &g_array_index (through, Through, i);
      xmlNode *list = NULL;
      xmlNode *stub;

      if (!within_budget (params, xml, 1))
        return;

      for (xmlNode *child = item->include->children; child != NULL; child = child->next)
        if (bl_xml_has_qname (child, "experimental:params"))
          list = child;
      if (list == NULL)
        list = xmlNewChild (item->include, NULL, (const xmlChar *) "experimental:params", NULL);
      stub = xmlNewChild (list, NULL, (const xmlChar *) DEFERRED, NULL);
      stub->_private = xml;
      xmlSetProp (stub, (const xmlChar *) "element_id", (const xmlChar *) id + item->rest);
      if (!item->named)
        xmlSetProp (stub, (const xmlChar *) DEFERRED_UNNAMED, (const xmlChar *) (n == 1 ? "1" : "n"));
      xmlSetProp (stub, (const xmlChar *) DEFERRED_FILE, (const xmlChar *) params->file);
    }
}

/* `xml`, or with `stub` (see defer) the alteration it stands for. */
static void
apply_one (Params  *params,
           xmlNode *model,
           xmlNode *xml,
           xmlNode *stub)
{
  g_autofree char *id = bl_xml_dup_attribute (stub != NULL ? stub : xml, "element_id");
  g_autofree char *action = bl_xml_dup_attribute (xml, "action");
  g_autofree char *qname = dup_qname (xml);
  g_autofree char *strip = stub != NULL ? bl_xml_dup_attribute (stub, DEFERRED_UNNAMED) : NULL;
  g_autoptr(GArray) through = g_array_new (FALSE, FALSE, sizeof (Through));
  const char *last;
  xmlNode *element;

  /* handed on to an unnamed nested include: the id starts with the
   * included model's name, when it is this one */
  if (strip != NULL && id != NULL)
    {
      g_autofree char *name = bl_xml_dup_attribute (model, "name");
      g_autofree char *prefix = g_strconcat (name != NULL ? name : "", "::", NULL);
      char *rest;

      if (name != NULL && strcmp (id, name) == 0)
        rest = g_strdup ("");  /* the included model itself */
      else if (g_str_has_prefix (id, prefix))
        rest = g_strdup (id + strlen (prefix));
      else
        {
          if (strcmp (strip, "1") == 0)
            report (params, BL_SEVERITY_ERROR, xml,
                    "the included model “%s” has no <%s element_id=\"%s\">; skipped",
                    name != NULL ? name : "", qname, id);
          return;
        }
      g_free (id);
      id = rest;
    }

  if (id == NULL)
    {
      report (params, BL_SEVERITY_ERROR, xml, "<%s> has no element_id; skipped", qname);
      return;
    }
  last = g_strrstr (id, "::");
  if (last != NULL && last[2] == '\0')
    {
      report (params, BL_SEVERITY_ERROR, xml, "the element_id “%s” has no name after its last “::”; skipped", id);
      return;
    }
  if (action != NULL && !valid_action (action))
    {
      report (params, BL_SEVERITY_ERROR, xml,
              "<%s element_id=\"%s\"> has the action “%s”, not add, modify, remove or replace; skipped",
              qname, id, action);
      return;
    }

  if (action != NULL && strcmp (action, "add") == 0)
    {
      g_autofree char *name = bl_xml_dup_attribute (xml, "name");
      g_autofree char *added_id = NULL;

      if (name == NULL || *name == '\0')
        {
          report (params, BL_SEVERITY_ERROR, xml, "the <%s> to add has %s name; skipped", qname,
                  name == NULL ? "no" : "an empty");
          return;
        }
      added_id = g_strconcat (id, "::", name, NULL);
      element = find_by_id (params, model, qname, added_id, FALSE, through);
      if (element != NULL && !bl_xml_has_qname (element, "plugin"))
        {
          report (params, BL_SEVERITY_ERROR, xml, "<%s element_id=\"%s\"> “%s” exists already in the "
                  "included model; not added", qname, id, name);
          return;
        }
      g_array_set_size (through, 0);
      element = *id == '\0' ? model : find_by_id (params, model, NULL, id, TRUE, through);
    }
  else
    {
      element = find_by_id (params, model, qname, id, FALSE, through);
    }

  if (element == NULL && through->len > 0)
    {
      defer (params, xml, id, through);
      return;
    }
  if (element == NULL)
    {
      report (params, BL_SEVERITY_ERROR, xml,
              "the included model has no <%s element_id=\"%s\">; skipped", qname, id);
      return;
    }

  if (action == NULL)
    {
      child_actions (params, xml, element);
    }
  else if (strcmp (action, "add") == 0)
    {
      if (!is_sdf_name (xml))
        report (params, BL_SEVERITY_ERROR, xml, "<%s> is not an SDF element; not added", qname);
      else
        xmlAddChild (element, copy_element (xml, element->doc));
    }
  else if (strcmp (action, "modify") == 0)
    {
      modify (params, xml, element);
    }
  else if (strcmp (action, "remove") == 0)
    {
      remove_children (params, xml, element);
    }
  else if (!is_sdf_name (xml))
    {
      report (params, BL_SEVERITY_ERROR, xml, "<%s> is not an SDF element; not replaced", qname);
    }
  else
    {
      replace (xml, element);
    }
}

void
bl_include_params_apply (xmlNode        *include,
                         xmlNode        *model,
                         const char     *file,
                         const char     *owner,
                         GPtrArray      *diagnostics,
                         BlParamsBudget *budget)
{
  Params params = { include, file, owner, diagnostics, budget, FALSE };
  xmlNode *list = NULL;

  g_return_if_fail (include != NULL && model != NULL);

  for (xmlNode *child = include->children; child != NULL && list == NULL; child = child->next)
    if (bl_xml_has_qname (child, "experimental:params"))
      list = child;
  if (list == NULL)
    return;

  for (xmlNode *xml = first_element (list); xml != NULL; xml = next_element (xml))
    {
      gboolean is_stub = bl_xml_has_qname (xml, DEFERRED) && xml->_private != NULL;
      g_autofree char *written_in = is_stub ? bl_xml_dup_attribute (xml, DEFERRED_FILE) : NULL;

      params.file = written_in != NULL ? written_in : file;
      if (budget->steps > MAX_STEPS)
        {
          report (&params, BL_SEVERITY_WARNING, xml,
                  "finding the elements <experimental:params> name took more than %d steps in "
                  "this document (the limit on their work); this alteration and the later ones "
                  "are not applied", MAX_STEPS);
          break;
        }
      if (is_stub && within_budget (&params, xml->_private, count_elements (xml->_private, MAX_DEFERRED + 1)))
        apply_one (&params, model, xml->_private, xml);
      else if (is_stub)
        continue;
      else
        apply_one (&params, model, xml, NULL);
    }
}
