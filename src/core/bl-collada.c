/* bl-collada.c: what a COLLADA file's node instancing amounts to.
 *
 * assimp's COLLADA importer builds the scene by copying, at every
 * <instance_node>, the whole subtree of the node it names.  Nodes that
 * instance the one before twice double the scene at each step: a 2 KB file
 * drove the reader to 8 GB.  This reads the file once with libxml2's
 * streaming reader (no tree), keeps each node's children and instance
 * references, and counts the expanded scene on an explicit stack, with
 * the counts saturating at the limit, before assimp is given the file. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlreader.h>

#include "bl-collada-private.h"
#include "bl-tinyxml-filter-private.h"

typedef struct
{
  char    *id;
  char    *name;
  GArray  *children;    /* guint: node indices */
  GPtrArray *instances; /* char *: the url without '#' */
  GArray  *targets;     /* guint: the instances resolved */
  guint64  expanded;
  guint8   state;       /* 0 not counted, 1 being counted, 2 counted */
} Node;

static void
node_clear (gpointer data)
{
  Node *node = data;

  g_free (node->id);
  g_free (node->name);
  g_array_unref (node->children);
  g_ptr_array_unref (node->instances);
  if (node->targets != NULL)
    g_array_unref (node->targets);
}

static gboolean
is_element (xmlTextReaderPtr reader,
            const char      *name)
{
  const xmlChar *local = xmlTextReaderConstLocalName (reader);

  return local != NULL && strcmp ((const char *) local, name) == 0;
}

static guint64
saturating_add (guint64 a,
                guint64 b,
                guint64 cap)
{
  return a >= cap || b >= cap || a + b >= cap ? cap : a + b;
}

typedef struct
{
  guint node;
  guint edge;   /* children first, then targets */
} Frame;

/* Counts the subtree of ROOT as assimp builds it; FALSE on a cycle. */
static gboolean
count_expanded (GArray  *nodes,
                guint    root,
                guint64  cap)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  Frame start = { root, 0 };

  if (g_array_index (nodes, Node, root).state == 2)
    return TRUE;
  g_array_index (nodes, Node, root).state = 1;
  g_array_index (nodes, Node, root).expanded = 1;
  g_array_append_val (stack, start);

  while (stack->len > 0)
    {
      Frame *top = &g_array_index (stack, Frame, stack->len - 1);
      Node *node = &g_array_index (nodes, Node, top->node);
      guint n_children = node->children->len;
      guint next;
      Node *child;

      if (top->edge >= n_children + node->targets->len)
        {
          guint64 done = node->expanded;

          node->state = 2;
          g_array_set_size (stack, stack->len - 1);
          if (stack->len > 0)
            {
              Node *parent = &g_array_index (nodes, Node,
                                             g_array_index (stack, Frame, stack->len - 1).node);

              parent->expanded = saturating_add (parent->expanded, done, cap);
            }
          continue;
        }

      next = top->edge < n_children ? g_array_index (node->children, guint, top->edge)
                                    : g_array_index (node->targets, guint, top->edge - n_children);
      top->edge++;
      child = &g_array_index (nodes, Node, next);
      if (child->state == 1)
        return FALSE;
      if (child->state == 2)
        {
          node->expanded = saturating_add (node->expanded, child->expanded, cap);
          continue;
        }
      /* once the count is past the limit, more of it changes nothing */
      if (node->expanded >= cap)
        continue;
      child->state = 1;
      child->expanded = 1;
      {
        Frame frame = { next, 0 };

        g_array_append_val (stack, frame);
      }
    }
  return TRUE;
}

/* The file as libxml2 reads it: counted by bl-tinyxml-filter first, so
 * that no element of more attributes than BL_TINYXML_MAX_ATTRIBUTES
 * reaches libxml2, whose check of them is quadratic (a million took
 * the reader hours). */
typedef struct
{
  int              fd;
  BlTinyxmlFilter *filter;
  gboolean         refused;
} CountedInput;

static int
read_counted (void *context,
              char *buffer,
              int   length)
{
  CountedInput *input = context;
  gssize n;

  if (input->refused)
    return -1;
  do
    n = read (input->fd, buffer, (gsize) length);
  while (n < 0 && errno == EINTR);
  if (n > 0 && !bl_tinyxml_filter_feed (input->filter, buffer, (gsize) n, NULL))
    {
      input->refused = TRUE;
      return -1;
    }
  return (int) n;
}

gboolean
bl_collada_check_instancing (int       fd,
                             guint64   max_nodes,
                             char    **why)
{
  g_autoptr(GArray) nodes = g_array_new (FALSE, TRUE, sizeof (Node));
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (guint)); /* <node>s being read */
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(BlTinyxmlFilter) filter = bl_tinyxml_filter_new ();
  CountedInput input = { fd, filter, FALSE };
  xmlTextReaderPtr reader;
  int visual_scene_depth = -1;
  guint64 total = 0;

  g_return_val_if_fail (why != NULL && *why == NULL, FALSE);

  g_array_set_clear_func (nodes, node_clear);
  reader = xmlReaderForIO (read_counted, NULL, &input, NULL, NULL,
                           XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (reader == NULL)
    return TRUE;

  while (xmlTextReaderRead (reader) == 1)
    {
      int type = xmlTextReaderNodeType (reader);
      int depth = xmlTextReaderDepth (reader);

      if (type == XML_READER_TYPE_END_ELEMENT)
        {
          if (is_element (reader, "node") && open->len > 0)
            g_array_set_size (open, open->len - 1);
          else if (is_element (reader, "visual_scene"))
            visual_scene_depth = -1;
          continue;
        }
      if (type != XML_READER_TYPE_ELEMENT)
        continue;

      if (is_element (reader, "visual_scene"))
        {
          if (!xmlTextReaderIsEmptyElement (reader))
            visual_scene_depth = depth;
        }
      else if (is_element (reader, "node"))
        {
          Node node = { 0 };
          guint index = nodes->len;
          xmlChar *id = xmlTextReaderGetAttribute (reader, BAD_CAST "id");
          xmlChar *name = xmlTextReaderGetAttribute (reader, BAD_CAST "name");

          node.id = g_strdup ((const char *) id);
          node.name = g_strdup ((const char *) name);
          xmlFree (id);
          xmlFree (name);
          node.children = g_array_new (FALSE, FALSE, sizeof (guint));
          node.instances = g_ptr_array_new_with_free_func (g_free);
          g_array_append_val (nodes, node);

          if (open->len > 0)
            g_array_append_val (g_array_index (nodes, Node, g_array_index (open, guint, open->len - 1)).children,
                                index);
          else if (visual_scene_depth >= 0 && depth == visual_scene_depth + 1)
            g_array_append_val (roots, index);
          if (!xmlTextReaderIsEmptyElement (reader))
            g_array_append_val (open, index);
        }
      else if (is_element (reader, "instance_node") && open->len > 0)
        {
          xmlChar *url = xmlTextReaderGetAttribute (reader, BAD_CAST "url");
          const char *target = (const char *) url;

          if (target != NULL)
            {
              Node *owner = &g_array_index (nodes, Node, g_array_index (open, guint, open->len - 1));

              g_ptr_array_add (owner->instances, g_strdup (target[0] == '#' ? target + 1 : target));
            }
          xmlFree (url);
        }
    }
  xmlFreeTextReader (reader);
  if (input.refused)
    {
      g_autofree char *element = NULL;
      int line = 0;

      element = bl_tinyxml_filter_get_refused_element (filter, &line);
      *why = g_strdup_printf ("its element <%s> on line %d has more than %d attributes, the most Ballast "
                              "reads on one element", element, line, BL_TINYXML_MAX_ATTRIBUTES);
      return FALSE;
    }

  /* assimp looks an instance up by id, then by name; the first node wins */
  for (guint i = nodes->len; i-- > 0;)
    {
      Node *node = &g_array_index (nodes, Node, i);

      if (node->id != NULL)
        g_hash_table_insert (by_id, node->id, GUINT_TO_POINTER (i));
      if (node->name != NULL)
        g_hash_table_insert (by_name, node->name, GUINT_TO_POINTER (i));
    }
  for (guint i = 0; i < nodes->len; i++)
    {
      Node *node = &g_array_index (nodes, Node, i);

      node->targets = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint k = 0; k < node->instances->len; k++)
        {
          const char *url = g_ptr_array_index (node->instances, k);
          gpointer found;

          if (g_hash_table_lookup_extended (by_id, url, NULL, &found) ||
              g_hash_table_lookup_extended (by_name, url, NULL, &found))
            {
              guint target = GPOINTER_TO_UINT (found);

              g_array_append_val (node->targets, target);
            }
        }
    }

  for (guint i = 0; i < roots->len; i++)
    {
      guint root = g_array_index (roots, guint, i);

      if (!count_expanded (nodes, root, max_nodes + 1))
        {
          *why = g_strdup ("its <instance_node>s form a cycle (a node instances itself)");
          return FALSE;
        }
      total = saturating_add (total, g_array_index (nodes, Node, root).expanded, max_nodes + 1);
    }
  if (total > max_nodes)
    {
      *why = g_strdup_printf ("its <instance_node>s expand to more than %" G_GUINT64_FORMAT " scene nodes, "
                              "the limit of what a mesh may hold", max_nodes);
      return FALSE;
    }
  return TRUE;
}
