/* bl-edit.c: undoable edits of the XML tree, recorded as primitive operations. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-edit.h"
#include "bl-edit-private.h"
#include "bl-xml-private.h"
#include "bl-number.h"
#include "bl-document-private.h"
#include "bl-sdf-order-private.h"

G_DEFINE_QUARK (bl-edit-error-quark, bl_edit_error)

/* ixx iyy izz ixy ixz iyz, the order of BlLink.inertia */
static const char * const inertia_names[6] = { "ixx", "iyy", "izz", "ixy", "ixz", "iyz" };

typedef enum
{
  OP_SET_CHILDREN,  /* an element's children replaced by one text node */
  OP_SET_ATTR,
  OP_INSERT,
  OP_REMOVE,
} OpKind;

/* 32 bytes: a bake records about 15 for each link it writes. */
typedef struct
{
  OpKind   kind;
  xmlNode *node;
  union
  {
    struct
    {
      xmlNode *parent;    /* where it was */
      xmlNode *next;
    } removed;            /* OP_REMOVE */
    xmlNode *old_children; /* OP_SET_CHILDREN: detached while applied */
    struct
    {
      char    *name;
      char    *old_value; /* NULL when absent */
    } attr;               /* OP_SET_ATTR */
  } u;
} Op;

G_STATIC_ASSERT (sizeof (Op) == 4 * sizeof (gpointer));

struct _BlEdit
{
  grefcount    ref_count;
  BlDocument  *doc;
  BlEditField  field;
  BlLink      *link;
  BlCollision *collision;
  guint        key;
  gboolean     unset;
  double       value;
  BlPose       pose;
  double       inertia[6];
  xmlNode     *plugin;    /* BL_EDIT_FIELD_PLUGIN_ADDED_MASS */
  GPtrArray   *children;  /* group: BlEdit* */
  char        *label;
  gboolean     applied;
  GArray      *ops;       /* Op, non-empty only while applied */
};

G_DEFINE_BOXED_TYPE (BlEdit, bl_edit, bl_edit_ref, bl_edit_unref)

/* ------------------------------------------------------------------------ */
/* Operations                                                                */

static void
op_release (Op *op)
{
  /* Frees what an applied operation keeps out of the tree. */
  if (op->kind == OP_REMOVE)
    xmlFreeNode (op->node);
  else if (op->kind == OP_SET_CHILDREN)
    xmlFreeNodeList (op->u.old_children);
  else if (op->kind == OP_SET_ATTR)
    {
      g_free (op->u.attr.name);
      g_free (op->u.attr.old_value);
    }
}

static void
record (BlEdit *edit,
        Op     *op)
{
  g_array_append_val (edit->ops, *op);
}

static void
op_insert (BlEdit  *edit,
           xmlNode *parent,
           xmlNode *next,
           xmlNode *node)
{
  Op op = { OP_INSERT, node };

  bl_xml_link (parent, next, node);
  record (edit, &op);
}

static void
op_remove (BlEdit  *edit,
           xmlNode *node)
{
  Op op = { OP_REMOVE, node, { .removed = { node->parent, node->next } } };

  xmlUnlinkNode (node);
  record (edit, &op);
}

/* The map of the edited document's tree: an edit is applied only with
 * one (bl_edit_apply), which may leave the layout between elements out
 * of the tree (bl_source_map_keep_layout). */
static BlSourceMap *
edit_map (BlEdit *edit)
{
  BlSourceMap *map = bl_document_get_source_map (edit->doc, NULL);

  g_assert (map != NULL);
  return map;
}

static void
op_set_text (BlEdit     *edit,
             xmlNode    *element,
             const char *text)
{
  Op op = { OP_SET_CHILDREN, element };
  xmlNode *child;

  /* the children replaced are all it has */
  bl_source_map_keep_layout (edit_map (edit), element);
  op.u.old_children = element->children;
  for (child = element->children; child != NULL; child = child->next)
    child->parent = NULL;
  element->children = element->last = NULL;
  bl_xml_link (element, NULL, xmlNewDocText (element->doc, (const xmlChar *) text));
  record (edit, &op);
}

static void
op_set_attr (BlEdit     *edit,
             xmlNode    *element,
             const char *name,
             const char *value)
{
  g_autofree char *old = bl_xml_dup_attribute (element, name);
  Op op = { OP_SET_ATTR, element };

  if (g_strcmp0 (old, value) == 0)
    return;

  op.u.attr.name = g_strdup (name);
  op.u.attr.old_value = g_steal_pointer (&old);

  if (value != NULL)
    xmlSetProp (element, (const xmlChar *) name, (const xmlChar *) value);
  else
    xmlUnsetProp (element, (const xmlChar *) name);
  record (edit, &op);
}

static void
op_undo (Op *op)
{
  switch (op->kind)
    {
    case OP_INSERT:
      xmlUnlinkNode (op->node);
      xmlFreeNode (op->node);
      break;

    case OP_REMOVE:
      bl_xml_link (op->u.removed.parent, op->u.removed.next, op->node);
      break;

    case OP_SET_CHILDREN:
      {
        xmlNode *element = op->node;

        xmlFreeNodeList (element->children);
        element->children = element->last = NULL;
        for (xmlNode *child = op->u.old_children, *next; child != NULL; child = next)
          {
            next = child->next;
            bl_xml_link (element, NULL, child);
          }
      }
      break;

    case OP_SET_ATTR:
      if (op->u.attr.old_value != NULL)
        xmlSetProp (op->node, (const xmlChar *) op->u.attr.name, (const xmlChar *) op->u.attr.old_value);
      else
        xmlUnsetProp (op->node, (const xmlChar *) op->u.attr.name);
      g_free (op->u.attr.name);
      g_free (op->u.attr.old_value);
      break;

    default:
      g_assert_not_reached ();
    }
}

/* ------------------------------------------------------------------------ */
/* Tree helpers                                                              */

static int
order_rank (const char * const *order,
            xmlNode            *node)
{
  if (node->type != XML_ELEMENT_NODE || node->ns != NULL)
    return -1;
  for (int i = 0; order[i] != NULL; i++)
    if (strcmp (order[i], (const char *) node->name) == 0)
      return i;
  return -1;
}

/* The indentation of `node`: the blanks after the last line end of the
 * text before it, or NULL when it does not start a line. */
static char *
indentation_of (BlEdit  *edit,
                xmlNode *node)
{
  const char *text, *newline;

  bl_source_map_keep_layout_before (edit_map (edit), node);
  if (!bl_xml_is_blank_text (node->prev))
    return NULL;
  text = (const char *) node->prev->content;
  newline = strrchr (text, '\n');
  return newline != NULL ? g_strdup (newline + 1) : NULL;
}

/* The step between a parent's and its children's indentation. */
static char *
indent_unit (BlEdit  *edit,
             xmlNode *element)
{
  g_autofree char *own = indentation_of (edit, element);
  g_autofree char *outer = NULL;

  if (own != NULL && element->parent != NULL && element->parent->type == XML_ELEMENT_NODE)
    outer = indentation_of (edit, element->parent);
  if (own != NULL && outer != NULL && strlen (own) > strlen (outer) && g_str_has_prefix (own, outer))
    return g_strdup (own + strlen (outer));

  return g_strdup (own != NULL && strchr (own, '\t') != NULL ? "\t" : "  ");
}

static xmlNode *
new_text (xmlNode    *parent,
          const char *text)
{
  return xmlNewDocText (parent->doc, (const xmlChar *) text);
}

/* Creates <name/> in parent at its spec position, on its own line and
 * indented like its siblings. */
static xmlNode *
insert_child (BlEdit             *edit,
              xmlNode            *parent,
              const char         *name,
              const char * const *order)
{
  xmlNode *element = xmlNewDocNode (parent->doc, NULL, (const xmlChar *) name, NULL);
  xmlNode *after = NULL, *before = NULL, *last_element = NULL;
  int rank = -1;

  for (int i = 0; order[i] != NULL; i++)
    if (strcmp (order[i], name) == 0)
      rank = i;
  g_assert (rank >= 0);

  for (xmlNode *child = parent->children; child != NULL; child = child->next)
    {
      int r;

      if (child->type != XML_ELEMENT_NODE)
        continue;
      last_element = child;
      r = order_rank (order, child);
      if (r < 0)
        continue;
      if (r < rank)
        after = child;
      else if (before == NULL)
        before = child;
    }

  if (after == NULL && before == NULL)
    after = last_element;

  if (after != NULL)
    {
      g_autofree char *indent = indentation_of (edit, after);
      xmlNode *next = after->next;

      if (indent != NULL)
        {
          g_autofree char *text = g_strconcat ("\n", indent, NULL);

          op_insert (edit, parent, next, new_text (parent, text));
        }
      op_insert (edit, parent, next, element);
    }
  else if (before != NULL)
    {
      g_autofree char *indent = indentation_of (edit, before);

      op_insert (edit, parent, before, element);
      if (indent != NULL)
        {
          g_autofree char *text = g_strconcat ("\n", indent, NULL);

          op_insert (edit, parent, before, new_text (parent, text));
        }
    }
  else
    {
      g_autofree char *outer = indentation_of (edit, parent);
      gboolean blank = TRUE;

      for (xmlNode *child = parent->children; child != NULL; child = child->next)
        blank &= bl_xml_is_blank_text (child);

      if (outer == NULL || !blank)
        op_insert (edit, parent, NULL, element);
      else
        {
          g_autofree char *unit = indent_unit (edit, parent);
          g_autofree char *open = g_strconcat ("\n", outer, unit, NULL);
          xmlNode *first = parent->children;

          op_insert (edit, parent, first, new_text (parent, open));
          op_insert (edit, parent, first, element);
          if (first == NULL)
            {
              g_autofree char *close = g_strconcat ("\n", outer, NULL);

              op_insert (edit, parent, NULL, new_text (parent, close));
            }
        }
    }

  return element;
}

static xmlNode *
ensure_child (BlEdit             *edit,
              xmlNode            *parent,
              const char         *name,
              const char * const *order)
{
  xmlNode *child = bl_xml_first_child (parent, name);

  return child != NULL ? child : insert_child (edit, parent, name, order);
}

/* Removes an element and the line break and indentation before it. */
static void
remove_element (BlEdit  *edit,
                xmlNode *element)
{
  xmlNode *blank;

  bl_source_map_keep_layout (edit_map (edit), element->parent);
  blank = bl_xml_is_blank_text (element->prev) ? element->prev : NULL;

  op_remove (edit, element);
  if (blank != NULL)
    op_remove (edit, blank);
}

static gboolean
text_holds (xmlNode      *element,
            const double *values,
            guint         n)
{
  g_autofree char *content = bl_xml_dup_text (element);   /* the value as the document reads it */
  double parsed[6];
  gboolean same;

  g_assert (n <= G_N_ELEMENTS (parsed));
  same = bl_number_parse_vector (content, parsed, n);
  for (guint i = 0; same && i < n; i++)
    same = parsed[i] == values[i] && signbit (parsed[i]) == signbit (values[i]);

  return same;
}

/* Writes a number, leaving the element alone when it already holds it. */
static void
set_number (BlEdit  *edit,
            xmlNode *element,
            double   value)
{
  char buf[BL_DOUBLE_BUF_SIZE];

  if (text_holds (element, &value, 1))
    return;
  op_set_text (edit, element, bl_number_format (value, buf));
}

static void
set_pose (BlEdit  *edit,
          xmlNode *element,
          BlPose   pose)
{
  double v[6];
  GString *text = g_string_new (NULL);
  g_autofree char *format = bl_xml_dup_attribute (element, "rotation_format");
  g_autofree char *degrees = bl_xml_dup_attribute (element, "degrees");

  v[0] = pose.p.x;
  v[1] = pose.p.y;
  v[2] = pose.p.z;
  if (bl_quat_is_identity (pose.q))
    v[3] = v[4] = v[5] = 0.0;
  else
    bl_quat_to_euler (pose.q, &v[3], &v[4], &v[5]);

  if (format != NULL || degrees != NULL || !text_holds (element, v, 6))
    {
      for (guint i = 0; i < 6; i++)
        {
          char buf[BL_DOUBLE_BUF_SIZE];

          if (i > 0)
            g_string_append_c (text, ' ');
          g_string_append (text, bl_number_format (v[i], buf));
        }
      op_set_attr (edit, element, "rotation_format", NULL);
      op_set_attr (edit, element, "degrees", NULL);
      op_set_text (edit, element, text->str);
    }

  g_string_free (text, TRUE);
}

static gboolean
parse_version (const char *text,
               int        *major,
               int        *minor)
{
  char *end;

  if (text == NULL)
    return FALSE;
  *major = (int) g_ascii_strtoll (text, &end, 10);
  if (end == text || *end != '.')
    return FALSE;
  text = end + 1;
  *minor = (int) g_ascii_strtoll (text, &end, 10);
  return end != text && *end == '\0';
}

/* Raises <sdf version> to 1.minor when it declares less; never lowers.
 * Nor raises it past what would make the rest of the file read otherwise
 * (bl_document_get_reading_changes_at: a link named “M1::L1” in a 1.7
 * file would be refused under 1.11): the file keeps its version, and the
 * new element is read as libsdformat 15 reads it there (a `version`
 * note says so). */
static void
require_version (BlEdit *edit,
                 int     minor)
{
  xmlNode *root = xmlDocGetRootElement (bl_document_get_xml (edit->doc));
  g_autofree char *version = bl_xml_dup_attribute (root, "version");
  guint changes_at = bl_document_get_reading_changes_at (edit->doc);
  int major, current;

  if (!parse_version (version, &major, &current) || major > 1 || (major == 1 && current >= minor))
    return;
  if (changes_at != 0 && (guint) minor >= changes_at)
    return;

  {
    g_autofree char *raised = g_strdup_printf ("1.%d", minor);

    op_set_attr (edit, root, "version", raised);
  }
}

static xmlNode *
ensure_inertial (BlEdit *edit)
{
  return ensure_child (edit, edit->link->node, "inertial", bl_sdf_link_order);
}

/* ------------------------------------------------------------------------ */
/* Edits                                                                     */

static BlEdit *
edit_new (BlDocument  *doc,
          BlEditField  field,
          BlLink      *link,
          BlCollision *collision)
{
  BlEdit *edit = g_new0 (BlEdit, 1);

  g_ref_count_init (&edit->ref_count);
  edit->doc = g_object_ref (doc);
  edit->field = field;
  edit->link = collision != NULL ? collision->link : link;
  edit->collision = collision;
  edit->ops = g_array_new (FALSE, FALSE, sizeof (Op));
  return edit;
}

BlEdit *
bl_edit_ref (BlEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);
  g_ref_count_inc (&edit->ref_count);
  return edit;
}

void
bl_edit_unref (BlEdit *edit)
{
  g_return_if_fail (edit != NULL);

  if (!g_ref_count_dec (&edit->ref_count))
    return;

  /* An applied edit keeps what it took out of the tree; it stays out. */
  for (guint i = 0; i < edit->ops->len; i++)
    op_release (&g_array_index (edit->ops, Op, i));
  g_array_unref (edit->ops);
  g_clear_pointer (&edit->children, g_ptr_array_unref);
  g_free (edit->label);
  g_object_unref (edit->doc);
  g_free (edit);
}

BlEdit *
bl_edit_new_collision_density (BlDocument  *doc,
                               BlCollision *collision,
                               double       density)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (collision != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_COLLISION_DENSITY, NULL, collision);
  edit->value = density;
  edit->label = g_strdup_printf ("Set the density of %s/%s", collision->link->scoped_name, collision->name);
  return edit;
}

BlEdit *
bl_edit_new_unset_collision_density (BlDocument  *doc,
                                     BlCollision *collision)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (collision != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_COLLISION_DENSITY, NULL, collision);
  edit->unset = TRUE;
  edit->label = g_strdup_printf ("Remove the density of %s/%s", collision->link->scoped_name, collision->name);
  return edit;
}

BlEdit *
bl_edit_new_density (BlDocument *doc,
                     BlLink     *link,
                     double      density)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_DENSITY, link, NULL);
  edit->value = density;
  edit->label = g_strdup_printf ("Set the density of %s", link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_unset_density (BlDocument *doc,
                           BlLink     *link)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_DENSITY, link, NULL);
  edit->unset = TRUE;
  edit->label = g_strdup_printf ("Remove the density of %s", link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_auto (BlDocument *doc,
                  BlLink     *link,
                  gboolean    auto_inertia)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_AUTO, link, NULL);
  edit->unset = !auto_inertia;
  edit->label = g_strdup_printf (auto_inertia ? "Make the inertia of %s automatic"
                                              : "Make the inertia of %s explicit",
                                 link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_mass (BlDocument *doc,
                  BlLink     *link,
                  double      mass)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_MASS, link, NULL);
  edit->value = mass;
  edit->label = g_strdup_printf ("Set the mass of %s", link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_unset_mass (BlDocument *doc,
                        BlLink     *link)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_MASS, link, NULL);
  edit->unset = TRUE;
  edit->label = g_strdup_printf ("Remove the mass of %s", link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_inertial (BlDocument   *doc,
                      BlLink       *link,
                      BlPose        pose,
                      const double  inertia[6])
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (inertia != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_INERTIAL, link, NULL);
  edit->pose = pose;
  memcpy (edit->inertia, inertia, sizeof edit->inertia);
  edit->label = g_strdup_printf ("Set the inertia of %s", link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_added_mass (BlDocument *doc,
                        BlLink     *link,
                        guint       key,
                        double      value)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (key < BL_ADDED_MASS_N_VALUES, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_ADDED_MASS, link, NULL);
  edit->key = key;
  edit->value = value;
  edit->label = g_strdup_printf ("Set the added mass %s of %s", bl_added_mass_keys[key], link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_unset_added_mass (BlDocument *doc,
                              BlLink     *link,
                              guint       key)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (key < BL_ADDED_MASS_N_VALUES, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_ADDED_MASS, link, NULL);
  edit->key = key;
  edit->unset = TRUE;
  edit->label = g_strdup_printf ("Remove the added mass %s of %s", bl_added_mass_keys[key], link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_plugin_added_mass_off (BlDocument *doc,
                                   BlLink     *link,
                                   xmlNode    *plugin)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);
  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (plugin != NULL, NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_PLUGIN_ADDED_MASS, link, NULL);
  edit->plugin = plugin;
  edit->label = g_strdup_printf ("Turn off the added mass of the Hydrodynamics plugin of %s",
                                 link->scoped_name);
  return edit;
}

BlEdit *
bl_edit_new_group (BlDocument *doc,
                   const char *label)
{
  BlEdit *edit;

  g_return_val_if_fail (BL_IS_DOCUMENT (doc), NULL);

  edit = edit_new (doc, BL_EDIT_FIELD_GROUP, NULL, NULL);
  edit->children = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_edit_unref);
  edit->label = g_strdup (label != NULL ? label : "Edit");
  return edit;
}

void
bl_edit_group_add (BlEdit *group,
                   BlEdit *edit)
{
  g_return_if_fail (group != NULL && group->field == BL_EDIT_FIELD_GROUP);
  g_return_if_fail (!group->applied);
  g_return_if_fail (edit != NULL && edit != group && !edit->applied);

  g_ptr_array_add (group->children, bl_edit_ref (edit));
}

guint
bl_edit_group_get_n_edits (BlEdit *group)
{
  g_return_val_if_fail (group != NULL && group->field == BL_EDIT_FIELD_GROUP, 0);
  return group->children->len;
}

BlEditField
bl_edit_get_field (BlEdit *edit)
{
  g_return_val_if_fail (edit != NULL, BL_EDIT_FIELD_GROUP);
  return edit->field;
}

BlDocument *
bl_edit_get_document (BlEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);
  return edit->doc;
}

BlLink *
bl_edit_get_link (BlEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);
  return edit->link;
}

const char *
bl_edit_get_label (BlEdit *edit)
{
  g_return_val_if_fail (edit != NULL, NULL);
  return edit->label;
}

gboolean
bl_edit_is_applied (BlEdit *edit)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  return edit->applied;
}

static gboolean
validate (BlEdit  *edit,
          GError **error)
{
  xmlDoc *xml = bl_document_get_xml (edit->doc);
  g_autoptr(GError) map_error = NULL;

  if (edit->link->node->doc != xml)
    {
      g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_NOT_EDITABLE,
                   "%s comes from an included file (%s); edit that file instead",
                   edit->link->scoped_name, edit->link->file);
      return FALSE;
    }

  if (bl_document_get_source_map (edit->doc, &map_error) == NULL)
    {
      g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_NOT_EDITABLE, "%s: %s",
                   bl_document_get_path (edit->doc), map_error->message);
      return FALSE;
    }

  if (edit->field == BL_EDIT_FIELD_PLUGIN_ADDED_MASS && edit->plugin->doc != xml)
    {
      g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_NOT_EDITABLE,
                   "the Hydrodynamics plugin of %s comes from an included file; edit that file instead",
                   edit->link->scoped_name);
      return FALSE;
    }

  if (edit->unset || edit->field == BL_EDIT_FIELD_AUTO)
    return TRUE;

  switch (edit->field)
    {
    case BL_EDIT_FIELD_COLLISION_DENSITY:
    case BL_EDIT_FIELD_DENSITY:
    case BL_EDIT_FIELD_MASS:
      if (!isfinite (edit->value) || edit->value <= 0.0)
        {
          g_autofree char *target = edit->collision != NULL
            ? g_strdup_printf ("%s/%s", edit->link->scoped_name, edit->collision->name)
            : g_strdup (edit->link->scoped_name);

          g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_INVALID_VALUE,
                       "%s: the %s must be a positive number, not %g", target,
                       edit->field == BL_EDIT_FIELD_MASS ? "mass" : "density", edit->value);
          return FALSE;
        }
      break;

    case BL_EDIT_FIELD_ADDED_MASS:
      if (!isfinite (edit->value))
        {
          g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_INVALID_VALUE,
                       "%s: the added mass %s must be a finite number",
                       edit->link->scoped_name, bl_added_mass_keys[edit->key]);
          return FALSE;
        }
      break;

    case BL_EDIT_FIELD_INERTIAL:
      {
        const double pose[7] = {
          edit->pose.p.x, edit->pose.p.y, edit->pose.p.z,
          edit->pose.q.w, edit->pose.q.x, edit->pose.q.y, edit->pose.q.z,
        };

        for (guint i = 0; i < 7; i++)
          if (!isfinite (pose[i]))
            {
              g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_INVALID_VALUE,
                           "%s: the inertial pose must be finite", edit->link->scoped_name);
              return FALSE;
            }
        for (guint i = 0; i < 6; i++)
          if (!isfinite (edit->inertia[i]))
            {
              g_set_error (error, BL_EDIT_ERROR, BL_EDIT_ERROR_INVALID_VALUE,
                           "%s: <%s> must be a finite number", edit->link->scoped_name, inertia_names[i]);
              return FALSE;
            }
      }
      break;

    case BL_EDIT_FIELD_AUTO:
    case BL_EDIT_FIELD_GROUP:
    default:
      break;
    }

  return TRUE;
}

static void
apply_ops (BlEdit *edit)
{
  xmlNode *inertial = NULL;
  xmlNode *element;

  switch (edit->field)
    {
    case BL_EDIT_FIELD_COLLISION_DENSITY:
      if (edit->unset)
        {
          if ((element = bl_xml_first_child (edit->collision->node, "density")) != NULL)
            remove_element (edit, element);
          break;
        }
      element = ensure_child (edit, edit->collision->node, "density", bl_sdf_collision_order);
      set_number (edit, element, edit->value);
      require_version (edit, 11);
      break;

    case BL_EDIT_FIELD_DENSITY:
      if (edit->unset)
        {
          if ((element = bl_xml_first_child (bl_xml_first_child (edit->link->node, "inertial"), "density")) != NULL)
            remove_element (edit, element);
          break;
        }
      inertial = ensure_inertial (edit);
      set_number (edit, ensure_child (edit, inertial, "density", bl_sdf_inertial_order), edit->value);
      require_version (edit, 11);
      break;

    case BL_EDIT_FIELD_AUTO:
      if (edit->unset)
        {
          if ((inertial = bl_xml_first_child (edit->link->node, "inertial")) != NULL)
            op_set_attr (edit, inertial, "auto", NULL);
          break;
        }
      inertial = ensure_inertial (edit);
      op_set_attr (edit, inertial, "auto", "true");
      require_version (edit, 11);
      break;

    case BL_EDIT_FIELD_MASS:
      if (edit->unset)
        {
          if ((element = bl_xml_first_child (bl_xml_first_child (edit->link->node, "inertial"), "mass")) != NULL)
            remove_element (edit, element);
          break;
        }
      inertial = ensure_inertial (edit);
      set_number (edit, ensure_child (edit, inertial, "mass", bl_sdf_inertial_order), edit->value);
      break;

    case BL_EDIT_FIELD_INERTIAL:
      inertial = ensure_inertial (edit);
      set_pose (edit, ensure_child (edit, inertial, "pose", bl_sdf_inertial_order), edit->pose);
      element = ensure_child (edit, inertial, "inertia", bl_sdf_inertial_order);
      for (guint i = 0; i < 6; i++)
        set_number (edit, ensure_child (edit, element, inertia_names[i], bl_sdf_inertia_order), edit->inertia[i]);
      break;

    case BL_EDIT_FIELD_ADDED_MASS:
      {
        const char *key = bl_added_mass_keys[edit->key];
        const char *keys[BL_ADDED_MASS_N_VALUES + 1];

        if (edit->unset)
          {
            element = bl_xml_first_child (bl_xml_first_child (bl_xml_first_child (edit->link->node, "inertial"),
                                                "fluid_added_mass"), key);
            if (element != NULL)
              remove_element (edit, element);
            break;
          }

        for (guint i = 0; i < BL_ADDED_MASS_N_VALUES; i++)
          keys[i] = bl_added_mass_keys[i];
        keys[BL_ADDED_MASS_N_VALUES] = NULL;

        inertial = ensure_inertial (edit);
        element = ensure_child (edit, inertial, "fluid_added_mass", bl_sdf_inertial_order);
        set_number (edit, ensure_child (edit, element, key, keys), edit->value);
        require_version (edit, 10);
      }
      break;

    case BL_EDIT_FIELD_PLUGIN_ADDED_MASS:
      {
        static const char * const plugin_order[] = { "disable_added_mass", NULL };

        for (xmlNode *child = edit->plugin->children; child != NULL; child = child->next)
          {
            g_autofree char *text = NULL;
            guint row, col;
            double value;

            if (!bl_xml_is_element (child, NULL)
                || !bl_added_mass_parse_hydrodynamics_name ((const char *) child->name, &row, &col))
              continue;
            text = g_strstrip (bl_xml_dup_text (child));
            if (bl_number_parse (text, &value) && value != 0.0)
              set_number (edit, child, 0.0);
          }

        element = bl_xml_first_child (edit->plugin, "disable_added_mass");
        if (element == NULL)
          element = insert_child (edit, edit->plugin, "disable_added_mass", plugin_order);
        {
          g_autofree char *text = g_strstrip (bl_xml_dup_text (element));

          if (strcmp (text, "true") != 0)
            op_set_text (edit, element, "true");
        }
      }
      break;

    case BL_EDIT_FIELD_GROUP:
    default:
      g_assert_not_reached ();
    }
}

static void edit_revert (BlEdit *edit, gboolean reload);

/* bl_edit_apply; RELOAD: the links edited are read again. */
static gboolean
edit_apply (BlEdit    *edit,
            gboolean   reload,
            GError   **error)
{
  if (edit->field == BL_EDIT_FIELD_GROUP)
    {
      for (guint i = 0; i < edit->children->len; i++)
        {
          if (!edit_apply (g_ptr_array_index (edit->children, i), reload, error))
            {
              while (i-- > 0)
                edit_revert (g_ptr_array_index (edit->children, i), reload);
              return FALSE;
            }
        }
      edit->applied = TRUE;
      return TRUE;
    }

  if (!validate (edit, error))
    return FALSE;

  g_assert (edit->ops->len == 0);
  apply_ops (edit);
  edit->applied = TRUE;
  if (reload)
    bl_document_reload_link (edit->doc, edit->link);
  return TRUE;
}

static void
edit_revert (BlEdit   *edit,
             gboolean  reload)
{
  edit->applied = FALSE;

  if (edit->field == BL_EDIT_FIELD_GROUP)
    {
      for (guint i = edit->children->len; i-- > 0;)
        edit_revert (g_ptr_array_index (edit->children, i), reload);
      return;
    }

  for (guint i = edit->ops->len; i-- > 0;)
    op_undo (&g_array_index (edit->ops, Op, i));
  g_array_set_size (edit->ops, 0);
  if (reload)
    bl_document_reload_link (edit->doc, edit->link);
}

gboolean
bl_edit_apply (BlEdit  *edit,
               GError **error)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (!edit->applied, FALSE);

  return edit_apply (edit, TRUE, error);
}

void
bl_edit_revert (BlEdit *edit)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (edit->applied);

  edit_revert (edit, TRUE);
}

gboolean
bl_edit_apply_tree (BlEdit  *edit,
                    GError **error)
{
  g_return_val_if_fail (edit != NULL, FALSE);
  g_return_val_if_fail (!edit->applied, FALSE);

  return edit_apply (edit, FALSE, error);
}

void
bl_edit_revert_tree (BlEdit *edit)
{
  g_return_if_fail (edit != NULL);
  g_return_if_fail (edit->applied);

  edit_revert (edit, FALSE);
}

gboolean
bl_edit_can_merge (BlEdit *previous,
                   BlEdit *next)
{
  g_return_val_if_fail (previous != NULL && next != NULL, FALSE);

  return previous != next &&
         previous->applied && next->applied &&
         previous->doc == next->doc &&
         previous->field == next->field &&
         previous->field != BL_EDIT_FIELD_GROUP &&
         previous->field != BL_EDIT_FIELD_INERTIAL &&
         previous->field != BL_EDIT_FIELD_PLUGIN_ADDED_MASS &&
         previous->link == next->link &&
         previous->collision == next->collision &&
         previous->key == next->key;
}

void
bl_edit_merge (BlEdit *previous,
               BlEdit *next)
{
  g_return_if_fail (bl_edit_can_merge (previous, next));

  /* Reverting runs the operations backwards: next's first, then ours. */
  g_array_append_vals (previous->ops, next->ops->data, next->ops->len);
  g_array_set_size (next->ops, 0);
  next->applied = FALSE;

  previous->unset = next->unset;
  previous->value = next->value;
  g_free (previous->label);
  previous->label = g_strdup (next->label);
}
