/* bl-stream-load.c: libxml2's parse of an SDF file, the faults read past as
 * Gazebo reads past them, the limits, and the read-only load that reads
 * each link as its end tag comes and frees its subtree at once. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "bl-file-private.h"
#include "bl-loader-private.h"
#include "bl-stream-load-private.h"
#include "bl-model-private.h"
#include "bl-tinyxml-filter-private.h"
#include "bl-xml-private.h"

/* ------------------------------------------------------------------------ */
/* Reading the XML                                                           */


/* In the arena with its link: frees what the arena does not hold of a
 * link never adopted, and (when the tree is still there) forgets it in
 * its node. */
static void
preparsed_link_free (BlLoader        *loader,
                     BlPreparsedLink *preparsed)
{
  g_clear_pointer (&preparsed->relative_to, g_free);
  if (preparsed->link == NULL)
    return;
  bl_sdf_arena_link_free (g_steal_pointer (&preparsed->link));
  if (loader->xml != NULL)
    preparsed->node->_private = NULL;
}

void
bl_stream_clear_preparsed (BlLoader *loader)
{
  if (loader->preparsed == NULL)
    return;
  for (guint i = 0; i < loader->preparsed->len; i++)
    preparsed_link_free (loader, g_ptr_array_index (loader->preparsed, i));
  g_clear_pointer (&loader->preparsed, g_ptr_array_unref);
  g_clear_pointer (&loader->pose_found, g_ptr_array_unref);
}

/* The scoped name parse_model will give the <model> element `node` of the
 * main file: its name and those of the enclosing models, joined by "::"
 * (written from the end, so that nothing but the result is allocated). */
static char *
expected_scoped_name (xmlNode *node)
{
  gsize length = 0;
  char *scoped, *end;

  for (xmlNode *model = node; model != NULL && bl_xml_is_element (model, "model"); model = model->parent)
    {
      g_auto(BlXmlString) owned = NULL;
      const char *name = bl_sdf_attribute_peek (model, "name", &owned);

      length += (model != node ? 2 : 0) + (name != NULL ? strlen (name) : 0);
    }

  scoped = g_malloc (length + 1);
  end = scoped + length;
  *end = '\0';
  for (xmlNode *model = node; model != NULL && bl_xml_is_element (model, "model"); model = model->parent)
    {
      g_auto(BlXmlString) owned = NULL;
      const char *name = bl_sdf_attribute_peek (model, "name", &owned);
      gsize n = name != NULL ? strlen (name) : 0;

      if (model != node)
        {
          end -= 2;
          memcpy (end, "::", 2);
        }
      end -= n;
      if (n > 0)
        memcpy (end, name, n);
    }

  return scoped;
}

static void
free_children_except (xmlNode *node,
                      xmlNode *keep_a,
                      xmlNode *keep_b)
{
  xmlNode *next;

  for (xmlNode *child = node->children; child != NULL; child = next)
    {
      next = child->next;
      if (child == keep_a || child == keep_b)
        continue;
      xmlUnlinkNode (child);
      xmlFreeNode (child);
    }
}

/* Called at the end tag of a <link> in a <model> of a read-only load: reads
 * everything of the link that needs only its own subtree (its collisions,
 * inertial and densities, exactly as parse_model and compute_link would),
 * and its first <pose> when that reads without a diagnostic, then frees
 * the subtree but for what the frame graph and the diagnostics still look
 * at: <inertial> and <fluid_added_mass> without their contents, and a
 * <pose> with something to say.  A link with a collision placed
 * relative_to another frame keeps its subtree and is read the usual way
 * later. */
static void
preparse_link (BlLoader   *loader,
               xmlNode    *node)
{
  g_auto(BlXmlString) name_owned = NULL;
  const char *name = bl_sdf_attribute_peek (node, "name", &name_owned);
  BlPreparsedLink *preparsed;
  BlLink *link;
  xmlNode *own_pose;

  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      xmlNode *pose;
      g_auto(BlXmlString) relative_to_owned = NULL;
      const char *relative_to, *end;

      if (!bl_xml_is_element (child, "collision") || (pose = bl_xml_first_child (child, "pose")) == NULL)
        continue;
      relative_to = bl_sdf_attribute_peek (pose, "relative_to", &relative_to_owned);
      if (relative_to == NULL)
        continue;
      /* stripped, as bl_sdf_parse_pose reads it */
      while (g_ascii_isspace (*relative_to))
        relative_to++;
      end = relative_to + strlen (relative_to);
      while (end > relative_to && g_ascii_isspace (end[-1]))
        end--;
      if (end > relative_to &&
          (name == NULL || strlen (name) != (gsize) (end - relative_to) ||
           memcmp (relative_to, name, end - relative_to) != 0))
        return;
    }

  if (name != NULL && *name != '\0')
    {
      BlModel *proto = loader->proto;

      /* One stand-in, for the <model> element of the last link read (its
       * node kept in proto->node): the link takes its scoped name and
       * file from it, and the model parse_model makes later replaces it
       * (bl_stream_adopt_link). */
      if (proto == NULL)
        {
          proto = loader->proto = g_new0 (BlModel, 1);
          proto->file = g_intern_string (loader->path);
        }
      if (proto->node != node->parent)
        {
          proto->node = node->parent;
          g_free (proto->scoped_name);
          proto->scoped_name = expected_scoped_name (node->parent);
        }
      preparsed = bl_arena_alloc0 (loader->arena, sizeof (BlPreparsedLink));

      link = bl_sdf_parse_link (loader, proto, node, name);
      bl_sdf_parse_link_collisions (loader, link, NULL, loader->base_dir);
      link->n_load_diagnostics = link->diagnostics->len;
      bl_sdf_parse_link_inertial (link);
      for (guint i = 0; i < link->collisions->len; i++)
        {
          BlCollision *collision = g_ptr_array_index (link->collisions, i);

          collision->node = NULL;
          collision->geometry.node = NULL;
        }
      preparsed->link = link;
      preparsed->node = node;
      g_ptr_array_add (loader->preparsed, preparsed);
      node->_private = preparsed;

      own_pose = bl_xml_first_child (node, "pose");
      if (loader->pose_found == NULL)
        loader->pose_found = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);
      preparsed->pose = bl_sdf_parse_pose (own_pose, name, loader->path, loader->pose_found, &preparsed->relative_to);
      preparsed->pose_read = loader->pose_found->len == 0;
      if (preparsed->pose_read)
        own_pose = NULL;
      else
        {
          /* read again by parse_model, which says it */
          g_clear_pointer (&preparsed->relative_to, g_free);
          g_ptr_array_set_size (loader->pose_found, 0);
        }

      free_children_except (node, own_pose, link->inertial_node);
      g_clear_pointer (&node->properties, xmlFreePropList);
      if (link->inertial_node != NULL)
        {
          free_children_except (link->inertial_node, link->added_mass_node, NULL);
          g_clear_pointer (&link->inertial_node->properties, xmlFreePropList);
        }
      if (link->added_mass_node != NULL)
        {
          free_children_except (link->added_mass_node, NULL, NULL);
          g_clear_pointer (&link->added_mass_node->properties, xmlFreePropList);
        }
    }
  else
    {
      /* Never becomes a link (parse_model reports the missing name). */
      free_children_except (node, bl_xml_first_child (node, "pose"), NULL);
    }
}

/* The adopted read-ahead link for `node`, or NULL. */
BlLink *
bl_stream_adopt_link (BlLoader   *loader,
                      BlModel    *model,
                      xmlNode    *node)
{
  BlPreparsedLink *preparsed;
  BlLink *link;

  if (loader->preparsed == NULL || node->_private == NULL)
    return NULL;

  preparsed = node->_private;
  node->_private = NULL;

  link = g_steal_pointer (&preparsed->link);
  /* expected_scoped_name follows parse_model's naming */
  g_warn_if_fail (g_str_has_prefix (link->scoped_name, model->scoped_name) &&
                  strncmp (link->scoped_name + strlen (model->scoped_name), "::", 2) == 0 &&
                  strcmp (link->scoped_name + strlen (model->scoped_name) + 2, link->name) == 0);
  g_warn_if_fail (strcmp (link->file, model->file) == 0);

  link->model = model;
  link->file = model->file;

  return link;
}

/* A link read ahead under the name its file gives, renamed by
 * bl_frame_scope_add (before SDF 1.7): the name, and the element of each of
 * its diagnostics, as bl_sdf_parse_link would have given them. */
void
bl_stream_rename_link (BlLoader   *loader,
                       BlLink     *link,
                       const char *name)
{
  g_autofree char *old_scoped = g_strdup (link->scoped_name);
  gsize old_length = strlen (old_scoped);

  link->name = bl_sdf_strjoin (loader, name, NULL);
  link->scoped_name = bl_sdf_strjoin (loader, link->model->scoped_name, "::", name, NULL);
  for (guint i = 0; i < link->diagnostics->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (link->diagnostics, i);
      g_autofree char *element = NULL;

      if (d->element == NULL || strncmp (d->element, old_scoped, old_length) != 0)
        continue;
      element = g_strconcat (link->scoped_name, d->element + old_length, NULL);
      link->diagnostics->pdata[i] = bl_diagnostic_new (d->severity, d->code, d->file, d->line, element,
                                                       "%s", d->message);
      bl_diagnostic_free (d);
    }
}

/* Whether parse_model can reach this <link>: its parent is a <model>,
 * inside models only, up to <sdf> directly or through one <world>.  Links
 * anywhere else are never read, and may be freed with an enclosing subtree. */
static gboolean
link_is_reachable (xmlNode *node)
{
  xmlNode *up = node->parent;

  if (up == NULL || !bl_xml_is_element (up, "model"))
    return FALSE;
  while (up != NULL && bl_xml_is_element (up, "model"))
    up = up->parent;
  if (up != NULL && bl_xml_is_element (up, "world"))
    up = up->parent;

  return up != NULL && bl_xml_is_element (up, "sdf") && up->parent != NULL &&
         up->parent->type == XML_DOCUMENT_NODE;
}

static const char * const fault_text[N_FAULTS] = {
  "a comment with “--” inside",
  "text outside the root element",
  "blank lines before the XML declaration “<?xml”",
};

static gboolean
is_late_declaration (xmlParserCtxt  *ctxt,
                     const xmlError *error)
{
  return error->code == XML_ERR_RESERVED_XML_NAME && error->message != NULL &&
         g_str_has_prefix (error->message, "XML declaration allowed only") &&
         ctxt->myDoc != NULL && ctxt->myDoc->children == NULL;
}

static void
parse_error (void     *ctx,
             xmlError *error)
{
  xmlParserCtxt *ctxt = ctx;
  ParseState *state = ctxt->_private;

  /* Namespace faults (an undeclared gz: prefix) and warnings never made
   * a file unreadable; entity loops, depth and size limits are fatal
   * parser errors and still stop the parse. */
  if (state == NULL || state->failed || error->domain != XML_FROM_PARSER || error->level < XML_ERR_ERROR)
    return;

  if (is_late_declaration (ctxt, error))
    {
      if (state->fault_count[FAULT_LATE_DECLARATION]++ == 0)
        state->fault_line[FAULT_LATE_DECLARATION] = error->line;
      return;
    }

  /* The first error names the fault; what libxml2 says after it (often
   * "Extra content at the end of the document", lines later) does not. */
  state->failed = TRUE;
  state->error_code = error->code;
  state->error_line = error->line;
  if (error->code == XML_ERR_NO_MEMORY && error->message != NULL && strstr (error->message, "huge text") != NULL)
    {
      /* a text over 10 MB that reached the parser in pieces (read in
       * chunks, or split by an entity): what followed was dropped */
      state->refused = TRUE;
      state->error_message = g_strdup_printf ("a text longer than %d MB (the XML reader's limit); "
                                              "the file is not read", XML_MAX_TEXT_LENGTH / 1000000);
    }
  else
    state->error_message = g_strchomp (g_strdup (error->message != NULL ? error->message : ""));
  xmlStopParser (ctxt);
}

/* A link costs about 2 kB while loaded (an empty <link name="l1"/> of
 * 18 bytes too: 90 bytes of memory per byte of such a file), 5 kB with
 * its collisions: without a bound on links a 1 GiB file of empty links
 * would ask for 90 GB.  A million links, the largest real worlds
 * measured (docs/BENCHMARKS.md), load; more are refused as they are
 * read, naming the limit, which ballast-cli --max-links changes. */
#define DEFAULT_MAX_LINKS (1u << 20)

static guint max_links = DEFAULT_MAX_LINKS;

void
bl_stream_set_max_links (guint limit)
{
  g_atomic_int_set (&max_links, limit > 0 ? limit : DEFAULT_MAX_LINKS);
}

guint
bl_stream_get_max_links (void)
{
  return (guint) g_atomic_int_get (&max_links);
}

/* The parse refused past one of the reader's limits, on LINE, with
 * MESSAGE (taken). */
static void
set_over_limit (ParseState *state,
                int         line,
                char       *message)
{
  state->failed = TRUE;
  state->refused = TRUE;
  state->over_limit = TRUE;
  state->error_line = line;
  state->error_message = message;
}

/* Stops the parse past one of the reader's limits, with MESSAGE (taken);
 * FALSE. */
static gboolean
refuse_over_limit (xmlParserCtxt *ctxt,
                   char          *message)
{
  set_over_limit (ctxt->_private, ctxt->input != NULL ? ctxt->input->line : 0, message);
  xmlStopParser (ctxt);
  return FALSE;
}

/* The most links of counts' load, and of its other parts. */
static guint
max_links_of (const BlReadCounts *counts)
{
  return counts->max_links > 0 ? counts->max_links : bl_stream_get_max_links ();
}

static guint
max_parts_of (const BlReadCounts *counts)
{
  return (guint) MIN ((guint64) max_links_of (counts) * BL_DOCUMENT_PARTS_PER_LINK, G_MAXUINT);
}

/* Each model, collision, frame, joint and plugin is an object of the
 * loaded model too, or a node the loads keep: 10 MB of <model/> are 1.1
 * million models (808 MB and 3 s to check, a window of 1.6 GB), of
 * <collision/> 770,000 collisions (770 MB).  The largest real worlds have
 * fewer than two for each link (the benchmark's 100,000 links: 150,000
 * collisions, 3,000 models, 5,000 frames, 1,000 plugins); a document may
 * hold BL_DOCUMENT_PARTS_PER_LINK for each link the links' limit
 * allows. */
static gboolean
is_part_name (const xmlChar *localname)
{
  const char *name = (const char *) localname;

  switch (name[0])
    {
    case 'm': return strcmp (name, "model") == 0;
    case 'c': return strcmp (name, "collision") == 0;
    case 'f': return strcmp (name, "frame") == 0;
    case 'j': return strcmp (name, "joint") == 0;
    case 'p': return strcmp (name, "plugin") == 0;
    default: return FALSE;
    }
}

/* What the lean loads keep whole (a plugin's <link> or <added_mass>, a
 * shape, a value, <experimental:params>) holds elements of its own: a
 * shape's <size>, a mesh's <uri> and <scale>, a polyline's points, one or
 * two for each collision in real worlds.  A flood of them (10 MB of
 * <a>1</a> in a <box> cost check 287 MB) is bounded by
 * BL_DOCUMENT_PARTS_PER_LINK for each link the process's bound on links
 * allows (4,194,304 by default, about 1 GB of them); a bound of the
 * caller's on links does not lower it. */
static guint
max_nested (void)
{
  return (guint) MIN ((guint64) bl_stream_get_max_links () * BL_DOCUMENT_PARTS_PER_LINK, G_MAXUINT);
}

gboolean
bl_stream_count_nested (xmlParserCtxt *ctxt)
{
  ParseState *state = ctxt->_private;

  if (state->failed)
    return FALSE;
  if (++state->counts->nested <= max_nested ())
    return TRUE;
  return refuse_over_limit (ctxt, g_strdup_printf ("more than %u elements inside the values Ballast reads "
                                                   "(a shape, a plugin's parameters, <experimental:params> and "
                                                   "what they edit; with the included files), the most it "
                                                   "reads (%d for each link ballast-cli --max-links allows); "
                                                   "the file is not read", max_nested (),
                                                   BL_DOCUMENT_PARTS_PER_LINK));
}

/* Counts a <link> against the most links, a model, collision, frame or
 * joint against the most parts; FALSE past them (the parse stopped). */
gboolean
bl_stream_count_named (xmlParserCtxt *ctxt,
                       const xmlChar *localname)
{
  ParseState *state = ctxt->_private;
  BlReadCounts *counts = state->counts;
  gboolean link = localname[0] == 'l' && strcmp ((const char *) localname, "link") == 0;
  guint *count, limit;
  const char *what;

  if (link)
    {
      count = &counts->links;
      limit = max_links_of (counts);
      what = "links";
    }
  else if (is_part_name (localname))
    {
      count = &counts->parts;
      limit = max_parts_of (counts);
      what = "models, collisions, frames, joints and plugins";
    }
  else
    return TRUE;
  if (state->failed)
    return FALSE;
  if (++*count <= limit)
    return TRUE;

  if (counts->max_links > 0)
    {
      counts->links_refused = TRUE;
      counts->parts_refused = !link;
      return refuse_over_limit (ctxt, g_strdup_printf ("more than %u %s (with the included files), the most "
                                                       "this load allows; the file is not read", limit, what));
    }
  if (link)
    return refuse_over_limit (ctxt, g_strdup_printf ("more than %u links (with the included files), the most "
                                                     "Ballast reads (ballast-cli --max-links changes it); the "
                                                     "file is not read", limit));
  return refuse_over_limit (ctxt, g_strdup_printf ("more than %u models, collisions, frames, joints and plugins (with the "
                                                   "included files), the most Ballast reads (%d for each link "
                                                   "ballast-cli --max-links allows); the file is not read",
                                                   limit, BL_DOCUMENT_PARTS_PER_LINK));
}

/* Appends node to the open element, as libxml2's xmlAddChild appends a
 * node that is not text. */
static void
append_node (xmlNode *parent,
             xmlNode *node)
{
  node->parent = parent;
  node->doc = parent->doc;
  if (parent->last == NULL)
    parent->children = node;
  else
    {
      node->prev = parent->last;
      parent->last->next = node;
    }
  parent->last = node;
}

/* libxml2's start of an element, for the element most of a file is made
 * of: inside another, without attributes or namespaces, its name from
 * the parser's dictionary.  The node is what xmlSAX2StartElementNs makes
 * of it (xmlFreeNode frees it alike), without what the general case
 * costs there (a node made by a call that offers it to the callbacks
 * xmlRegisterNodeDefault sets, which Ballast sets none of; attributes and
 * namespaces looked for; the child added by a call that merges text):
 * 100 instructions fewer an element, 1.1 % of `inspect --json`'s.  FALSE
 * for any other element. */
static gboolean
start_plain_element (xmlParserCtxt *ctxt,
                     const xmlChar *localname,
                     const xmlChar *prefix,
                     const xmlChar *uri,
                     int            nb_namespaces,
                     int            nb_attributes)
{
  xmlNode *parent = ctxt->node, *node;

  if (parent == NULL || parent->type != XML_ELEMENT_NODE || prefix != NULL || uri != NULL ||
      nb_namespaces != 0 || nb_attributes != 0 || !ctxt->dictNames || ctxt->validate || ctxt->html ||
      ctxt->myDoc == NULL || ctxt->input == NULL)
    return FALSE;
  node = xmlMalloc (sizeof (xmlNode));
  if (node == NULL)
    return FALSE;
  memset (node, 0, sizeof *node);
  node->type = XML_ELEMENT_NODE;
  node->name = localname;
  node->doc = ctxt->myDoc;
  if (ctxt->linenumbers)
    node->line = (unsigned short) MIN (ctxt->input->line, 65535);
  ctxt->nodemem = -1;
  if (nodePush (ctxt, node) < 0)
    {
      /* past libxml2's depth: the parse stops with its error */
      xmlFreeNode (node);
      return TRUE;
    }
  append_node (parent, node);
  return TRUE;
}

void
bl_stream_sax_start_element (void           *ctx,
                             const xmlChar  *localname,
                             const xmlChar  *prefix,
                             const xmlChar  *uri,
                             int             nb_namespaces,
                             const xmlChar **namespaces,
                             int             nb_attributes,
                             int             nb_defaulted,
                             const xmlChar **attributes)
{
  xmlParserCtxt *ctxt = ctx;
  ParseState *state = ctxt->_private;
  xmlNode *parent = ctxt->node;

  if (state != NULL && !bl_stream_count_element (ctxt, localname))
    return;
  /* a parse that keeps every element (an included model that
   * <experimental:params> edits, a file in Latin-1) counts each one as
   * kept whole */
  if (state != NULL && state->kinds == NULL && ctxt->node != NULL && !bl_stream_count_nested (ctxt))
    return;
  if (!start_plain_element (ctxt, localname, prefix, uri, nb_namespaces, nb_attributes))
    xmlSAX2StartElementNs (ctx, localname, prefix, uri, nb_namespaces, namespaces,
                           nb_attributes, nb_defaulted, attributes);
  /* libxml2 keeps at most 65535 in node->line; the element's psvi is
   * free outside schema validation, so the true line goes there. */
  if (ctxt->node != NULL && ctxt->node != parent && ctxt->input != NULL)
    ctxt->node->psvi = GINT_TO_POINTER (ctxt->input->line);
}

void
bl_stream_sax_end_element (void          *ctx,
                           const xmlChar *localname,
                           const xmlChar *prefix,
                           const xmlChar *uri)
{
  xmlParserCtxt *ctxt = ctx;
  ParseState *state = ctxt->_private;
  BlLoader *loader = state != NULL ? state->loader : NULL;
  xmlNode *node = ctxt->node;

  /* the names are the parser's dictionary's: a pointer compare first */
  if (loader != NULL && localname == loader->link_tag && node != NULL &&
      bl_xml_is_element (node, "link") && link_is_reachable (node))
    preparse_link (loader, node);

  xmlSAX2EndElementNs (ctx, localname, prefix, uri);
}

/* SDF has no use for entities; expanding them is how a "billion laughs"
 * file exhausts memory and how an external entity reads another file.
 * The first declaration stops the parse: nothing declared is ever
 * expanded, parsed or checked. */
static void
sax_entity_decl (void          *ctx,
                 const xmlChar *name,
                 int            type,
                 const xmlChar *public_id,
                 const xmlChar *system_id,
                 xmlChar       *content)
{
  xmlParserCtxt *ctxt = ctx;
  ParseState *state = ctxt->_private;

  if (state->failed)
    return;
  state->failed = TRUE;
  state->refused = TRUE;
  state->error_line = ctxt->input != NULL ? ctxt->input->line : 0;
  state->error_message = g_strdup_printf ("the file declares the XML entity “%s”; Ballast does not read "
                                          "files with entity declarations, which SDF never needs",
                                          (const char *) name);
  xmlStopParser (ctxt);
}

/* Each comment (and processing instruction) is a node of its own in
 * libxml2's tree and a span in the source map, about 300 bytes for
 * `<!--x-->` and a line break: 250 MB of short comments took 7.6 GB to
 * check and 14.5 GB to export.  Real models have a few hundred; a
 * document (with its included files) of more is refused as it is read. */
#define MAX_COMMENTS 100000

gboolean
bl_stream_count_comment (xmlParserCtxt *ctxt)
{
  ParseState *state = ctxt->_private;

  if (state->failed)
    return FALSE;
  if (++state->counts->comments <= MAX_COMMENTS)
    return TRUE;
  return refuse_over_limit (ctxt, g_strdup_printf ("more than %d comments and processing instructions (with "
                                                   "the included files), the most Ballast reads; the file is "
                                                   "not read", MAX_COMMENTS));
}

/* Whether count + more is within limit. */
static gboolean
fits (guint count,
      guint more,
      guint limit)
{
  return more <= limit && count <= limit - more;
}

gboolean
bl_stream_counts_add (BlReadCounts       *counts,
                      const BlReadCounts *more)
{
  if (!fits (counts->links, more->links, max_links_of (counts)) ||
      !fits (counts->parts, more->parts, max_parts_of (counts)) ||
      !fits (counts->nested, more->nested, max_nested ()) ||
      !fits (counts->comments, more->comments, MAX_COMMENTS))
    return FALSE;
  counts->links += more->links;
  counts->parts += more->parts;
  counts->nested += more->nested;
  counts->comments += more->comments;
  return TRUE;
}

void
bl_stream_sax_comment (void          *ctx,
                       const xmlChar *value)
{
  if (bl_stream_count_comment (ctx))
    xmlSAX2Comment (ctx, value);
}

void
bl_stream_sax_processing_instruction (void          *ctx,
                                      const xmlChar *target,
                                      const xmlChar *data)
{
  if (bl_stream_count_comment (ctx))
    xmlSAX2ProcessingInstruction (ctx, target, data);
}

/* Called once the DOCTYPE's internal subset is read.  libxml2 adds the
 * attribute defaults it declares to every element they name, checking
 * each against all the attributes before it (3,000 defaults on 2,000
 * links: 5 s), though SAX2 then drops them and Ballast reads only what a
 * file writes, as TinyXML2 (libsdformat's reader) does: they are
 * forgotten before any element is read. */
static void
sax_external_subset (void          *ctx,
                     const xmlChar *name,
                     const xmlChar *external_id,
                     const xmlChar *system_id)
{
  xmlParserCtxt *ctxt = ctx;

  if (ctxt->attsDefault != NULL)
    xmlHashFree (g_steal_pointer (&ctxt->attsDefault), xmlHashDefaultDeallocator);
  xmlSAX2ExternalSubset (ctx, name, external_id, system_id);
}

/* Ballast's handlers, on every parse of a file (STATE its own). */
static void
use_handlers (xmlParserCtxt *ctxt,
              ParseState    *state)
{
  ctxt->sax->startElementNs = bl_stream_sax_start_element;
  ctxt->sax->serror = parse_error;
  ctxt->sax->entityDecl = sax_entity_decl;
  ctxt->sax->externalSubset = sax_external_subset;
  ctxt->sax->comment = bl_stream_sax_comment;
  ctxt->sax->processingInstruction = bl_stream_sax_processing_instruction;
  ctxt->_private = state;
  state->ctxt = ctxt;
}

/* The filter refused the file for an element with too many attributes.
 * libxml2 has read the filtered bytes before that point (the streaming
 * load as they came, the editable one then, through the same push
 * parser): its first error there, if any, is the file's; else this. */
static void
refuse_attributes (ParseState      *state,
                   BlTinyxmlFilter *filter)
{
  g_autofree char *element = NULL;
  int line = 0;

  if (state->failed)
    return;
  element = bl_tinyxml_filter_get_refused_element (filter, &line);
  set_over_limit (state, line,
                  g_strdup_printf ("the element <%s> has more than %d attributes, the most Ballast reads "
                                   "on one element; the file is not read", element, BL_TINYXML_MAX_ATTRIBUTES));
}

static void
take_filter_faults (ParseState      *state,
                    BlTinyxmlFilter *filter)
{
  for (guint i = 0; i < BL_TINYXML_N_FAULTS; i++)
    {
      state->fault_count[i] = bl_tinyxml_filter_get_count (filter, i);
      state->fault_line[i] = bl_tinyxml_filter_get_first_line (filter, i);
    }
}

/* No network, no DTD loading, no entity substitution: a model file must
 * never make us read another file.  XML_PARSE_RECOVER only so that a
 * declaration after blank lines (is_late_declaration), which TinyXML2
 * reads, is read past here too: parse_error stops the parser at the first
 * other error, so nothing else is ever recovered from. */
#define XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES | \
                     XML_PARSE_RECOVER)

/* What a failed parse left in STATE, forgotten before another parse of
 * the same bytes. */
static void
forget_failure (ParseState *state)
{
  state->failed = FALSE;
  state->refused = FALSE;
  state->error_code = 0;
  state->error_line = 0;
  g_clear_pointer (&state->error_message, g_free);
  state->fault_count[FAULT_LATE_DECLARATION] = 0;
  state->fault_line[FAULT_LATE_DECLARATION] = 0;
  g_clear_pointer (&state->encoding_error, g_free);
  g_clear_pointer (&state->declared_encoding, g_free);
}

/* An editable load of the document's own file (loader->left_out set)
 * leaves out what no reader looks at in DATA, its stand-ins' ranges
 * recorded afresh; a lean load of an included file leaves it out as a
 * read-only load does. */
static void
leave_out_of (xmlParserCtxt *ctxt,
              ParseState    *state,
              const char    *data,
              gsize          length)
{
  BlLoader *loader = state->loader;

  if (loader == NULL && state->lean)
    bl_stream_use_lean_handlers (ctxt, state);
  if (loader == NULL || loader->left_out == NULL)
    return;
  g_array_set_size (loader->left_out, 0);
  bl_stream_use_lean_handlers (ctxt, state);
  state->left_out = loader->left_out;
  state->data = data;
  state->length = length;
}

/* The editable load's parse of the whole of DATA through libxml2's push
 * parser in pieces of 256 KiB, as the streaming load reads: the
 * whole-buffer parser of libxml2 2.9.14 stops with "Huge input lookup"
 * past 10 MB of elements of many attributes.  NULL when it fails. */
static xmlDoc *
parse_in_pieces (ParseState *state,
                 const char *data,
                 gsize       length)
{
  xmlParserCtxt *ctxt = xmlCreatePushParserCtxt (NULL, NULL, NULL, 0, state->path);
  xmlDoc *xml;

  if (ctxt == NULL)
    return NULL;
  xmlCtxtUseOptions (ctxt, XML_OPTIONS | XML_PARSE_COMPACT);
  use_handlers (ctxt, state);
  leave_out_of (ctxt, state, data, length);
  for (gsize done = 0; done < length && !state->failed && !state->leave_out_failed;)
    {
      gsize n = MIN (length - done, 256 * 1024);

      if (xmlParseChunk (ctxt, data + done, (int) n, 0) != 0 && !state->failed)
        state->failed = TRUE;
      done += n;
    }
  if (!state->failed && !state->leave_out_failed && xmlParseChunk (ctxt, NULL, 0, 1) != 0)
    state->failed = TRUE;
  bl_stream_clear_lean_state (state);
  xml = g_steal_pointer (&ctxt->myDoc);
  if (state->failed || state->encoding_error != NULL || xml == NULL || xmlDocGetRootElement (xml) == NULL)
    g_clear_pointer (&xml, xmlFreeDoc);
  xmlFreeParserCtxt (ctxt);
  return xml;
}

/* Bytes filtered and handed to libxml2's push parser at a time by a
 * read-only load (of each 256 KiB read). */
#define PARSE_PIECE (32 * 1024)

/* Parses data in place of xmlReadMemory, keeping true line numbers.  For
 * a read-only load (state->loader set and read-only), links are read as
 * their end tags arrive and their subtrees freed, and the input goes
 * through a push parser in small chunks, so neither the whole tree nor a
 * second copy of the file is ever held. */
static xmlDoc *
parse_xml (ParseState  *state,
           const char  *data,
           gsize        length,
           int          fd,
           gsize       *read_length,
           GError     **error)
{
  BlLoader *loader = state->loader;
  const char *path = state->path;
  xmlParserCtxt *ctxt;
  xmlDoc *xml = NULL;

  if (loader != NULL && loader->read_only)
    {
      const gsize chunk = 256 * 1024;
      g_autofree char *buffer = fd >= 0 ? g_malloc (chunk) : NULL;
      g_autoptr(BlTinyxmlFilter) filter = bl_tinyxml_filter_new ();
      g_autoptr(GByteArray) filtered = g_byte_array_sized_new (PARSE_PIECE);
      gboolean within = TRUE;

      ctxt = xmlCreatePushParserCtxt (NULL, NULL, NULL, 0, path);
      if (ctxt == NULL)
        return NULL;
      /* Short texts stored in the node: nothing here is ever written
       * back.  Blank text is kept, as the full load keeps it: an element
       * with elements inside (wrong, but possible) reads the same text. */
      xmlCtxtUseOptions (ctxt, XML_OPTIONS | XML_PARSE_COMPACT);
      use_handlers (ctxt, state);
      bl_stream_use_lean_handlers (ctxt, state);
      loader->link_tag = xmlDictLookup (ctxt->dict, (const xmlChar *) "link", -1);

      *read_length = 0;
      /* What the file holds now is what is read: one that another program
       * appends to while it is read would be read for as long as it grows. */
      if (fd >= 0)
        {
          struct stat st;

          length = fstat (fd, &st) == 0 && st.st_size >= 0 ? (gsize) st.st_size : G_MAXINT;
        }
      for (;;)
        {
          const char *piece;
          gssize n;

          if (fd >= 0)
            {
              n = *read_length < length ? read (fd, buffer, MIN (chunk, length - *read_length)) : 0;
              if (n < 0 && errno == EINTR)
                continue;
              if (n < 0)
                {
                  g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
                               "%s: %s", path, g_strerror (errno));
                  break;
                }
              piece = buffer;
            }
          else
            {
              n = (gssize) MIN (chunk, length - *read_length);
              piece = data + *read_length;
            }
          if (n == 0)
            break;
          if (*read_length + (gsize) n > G_MAXINT)
            {
              g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
                           "%s: the file is too large", path);
              break;
            }
          *read_length += (gsize) n;
          /* filtered and parsed in smaller pieces: libxml2's input buffer
           * and the filter's output stay small and warm in the cache; the
           * filter reads the whole read, as its counts are of all of it */
          for (gsize done = 0; done < (gsize) n && within;)
            {
              gsize m = MIN ((gsize) n - done, PARSE_PIECE);
              gboolean as_is;

              g_byte_array_set_size (filtered, 0);
              within = bl_tinyxml_filter_feed_or_keep (filter, piece + done, m, filtered, &as_is);
              if (!state->failed)
                xmlParseChunk (ctxt, as_is ? piece + done : (const char *) filtered->data,
                               as_is ? (int) m : (int) filtered->len, 0);
              done += m;
            }
          if (!within)
            refuse_attributes (state, filter);
          if (state->failed)
            break;
        }
      if (!state->failed && *read_length > 0 && (error == NULL || *error == NULL))
        {
          g_byte_array_set_size (filtered, 0);
          bl_tinyxml_filter_finish (filter, filtered);
          xmlParseChunk (ctxt, (const char *) filtered->data, (int) filtered->len, 1);
        }
      take_filter_faults (state, filter);
      if (error != NULL && *error != NULL)
        state->failed = TRUE;
      bl_stream_clear_lean_state (state);
    }
  else
    {
      g_autoptr(GByteArray) filtered = NULL;
      g_autoptr(BlTinyxmlFilter) filter = bl_tinyxml_filter_new ();

      *read_length = length;
      if (length == 0)
        return NULL;
      if (!bl_tinyxml_filter_whole (filter, data, length, &filtered))
        {
          /* what the streaming load has read when the filter refuses:
           * the same bytes, through the same push parser */
          take_filter_faults (state, filter);
          ctxt = xmlCreatePushParserCtxt (NULL, NULL, NULL, 0, path);
          if (ctxt == NULL)
            return NULL;
          xmlCtxtUseOptions (ctxt, XML_OPTIONS | XML_PARSE_COMPACT);
          use_handlers (ctxt, state);
          xmlParseChunk (ctxt, (const char *) filtered->data, (int) filtered->len, 0);
          refuse_attributes (state, filter);
          g_clear_pointer (&ctxt->myDoc, xmlFreeDoc);
          xmlFreeParserCtxt (ctxt);
          return NULL;
        }
      take_filter_faults (state, filter);
      if (filtered != NULL)
        data = (const char *) filtered->data;
      for (;;)
        {
          BlReadCounts counts = *state->counts;

          xml = parse_in_pieces (state, data, length);
          if (xml == NULL && !state->over_limit && !state->leave_out_failed)
            {
              /* libxml2's push parser stops at the first error where the
               * whole-buffer parser reports the last, and refuses a text
               * over 10 MB that comes in pieces: a file the first refuses
               * is read again by the second, which says what it always
               * said (and what a read-only load falls back to) */
              *state->counts = counts;
              forget_failure (state);
              ctxt = xmlNewParserCtxt ();
              if (ctxt == NULL)
                return NULL;
              use_handlers (ctxt, state);
              leave_out_of (ctxt, state, data, length);
              xml = xmlCtxtReadMemory (ctxt, data, (int) length, path, NULL, XML_OPTIONS | XML_PARSE_COMPACT);
              xmlFreeParserCtxt (ctxt);
            }
          bl_stream_clear_lean_state (state);
          if (!state->leave_out_failed)
            break;
          /* A range not where the parser said: everything kept instead.
           * (Never seen; the source map would refuse such a tree.) */
          g_clear_pointer (&xml, xmlFreeDoc);
          g_array_set_size (loader->left_out, 0);
          g_clear_pointer (&loader->left_out, g_array_unref);
          *state->counts = counts;
          state->fault_count[FAULT_LATE_DECLARATION] = 0;
          state->leave_out_failed = FALSE;
          state->left_out = NULL;
        }
      if (state->failed)
        g_clear_pointer (&xml, xmlFreeDoc);
      return xml;
    }

  xml = ctxt->myDoc;
  ctxt->myDoc = NULL;
  if (state->failed || xml == NULL || xmlDocGetRootElement (xml) == NULL)
    g_clear_pointer (&xml, xmlFreeDoc);
  xmlFreeParserCtxt (ctxt);

  return xml;
}

static void
ignore_generic_error (void       *ctx,
                      const char *format,
                      ...)
{
}

static void
conversion_error (void     *ctx,
                  xmlError *error)
{
  ParseState *state = ctx;

  if (state->encoding_error != NULL || (error->domain != XML_FROM_I18N && error->domain != XML_FROM_IO))
    return;
  state->encoding_error = g_strchomp (g_strdup (error->message != NULL ? error->message : "no message"));
  if (state->ctxt != NULL)
    {
      if (state->ctxt->encoding != NULL)
        state->declared_encoding = g_strdup ((const char *) state->ctxt->encoding);
      else if (state->ctxt->input != NULL && state->ctxt->input->encoding != NULL)
        state->declared_encoding = g_strdup ((const char *) state->ctxt->input->encoding);
    }
}

/* From data, or when fd ≥ 0 read from fd in pieces (read-only loads).
 * The faults read past as Gazebo reads past them are warnings in
 * diagnostics (may be NULL). */
xmlDoc *
bl_stream_read_xml (BlLoader    *loader,
                    const char  *data,
                    gsize        length,
                    int          fd,
                    const char  *path,
                    GPtrArray   *diagnostics,
                    BlReadCounts *counts,
                    gboolean     lean,
                    GError     **error)
{
  ParseState state = { .loader = loader, .path = path, .diagnostics = diagnostics, .counts = counts, .lean = lean };
  gboolean not_converted = FALSE;
  xmlStructuredErrorFunc structured = xmlStructuredError;
  void *structured_context = xmlStructuredErrorContext;
  xmlGenericErrorFunc generic = xmlGenericError;
  void *generic_context = xmlGenericErrorContext;
  g_autoptr(GError) read_error = NULL;
  g_autofree char *message = NULL;
  xmlDoc *xml;

  if (fd < 0 && length > G_MAXINT)
    {
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
                   "%s: the file is too large", path);
      return NULL;
    }

  /* What libxml2 says without a parser context (a failed conversion from
   * the declared encoding, and what the push parser then prints) goes to
   * this thread's handlers: here, never to the terminal. */
  xmlSetStructuredErrorFunc (&state, conversion_error);
  xmlSetGenericErrorFunc (NULL, ignore_generic_error);
  xml = parse_xml (&state, data, length, fd, &length, &read_error);
  xmlSetStructuredErrorFunc (structured_context, structured);
  xmlSetGenericErrorFunc (generic_context, generic);
  if (state.encoding_error != NULL && read_error == NULL && !state.over_limit)
    {
      /* the push parser stops without a word; the other reads on into
       * a misleading syntax error */
      g_clear_pointer (&xml, xmlFreeDoc);
      g_free (state.error_message);
      state.error_message = g_strdup_printf ("the bytes are not valid %s, the encoding the file declares (%s); "
                                             "the file is not read", state.declared_encoding != NULL
                                             ? state.declared_encoding : "text", state.encoding_error);
      state.refused = TRUE;
      not_converted = TRUE;
    }
  g_free (state.encoding_error);
  g_free (state.declared_encoding);
  message = g_steal_pointer (&state.error_message);
  if (read_error != NULL)
    {
      g_clear_pointer (&xml, xmlFreeDoc);
      g_propagate_error (error, g_steal_pointer (&read_error));
      return NULL;
    }
  if (xml == NULL)
    {
      if (length == 0)
        g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_PARSE,
                     "%s: the file is empty", path);
      else if (not_converted)
        /* the converter runs ahead of the parser: no line to name, the
         * bytes quoted instead */
        g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_PARSE, "%s: %s", path, message);
      else if (state.refused)
        g_set_error (error, BL_DOCUMENT_ERROR,
                     !state.over_limit ? BL_DOCUMENT_ERROR_PARSE
                     : counts->parts_refused ? BL_DOCUMENT_ERROR_TOO_MANY_PARTS
                     : counts->links_refused ? BL_DOCUMENT_ERROR_TOO_MANY_LINKS
                     : BL_DOCUMENT_ERROR_LIMIT,
                     "%s:%d: %s", path, state.error_line, message);
      else if (message != NULL && message[0] != '\0')
        {
          /* no element at all: where the text that stands in its place starts
           * (an STL file given for an SDF one), not where the file ends */
          int line = state.error_code == XML_ERR_DOCUMENT_EMPTY && state.fault_count[FAULT_OUTSIDE_ROOT] > 0
                     ? state.fault_line[FAULT_OUTSIDE_ROOT] : state.error_line;

          g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_PARSE,
                       "%s:%d: not well-formed XML: %s", path, line, message);
        }
      else
        g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_PARSE,
                     "%s: not well-formed XML", path);
      return NULL;
    }

  /* Said once a file, where the fault first is: a file of shell commands
   * in comments has dozens. */
  for (guint i = 0; i < N_FAULTS; i++)
    {
      if (state.fault_count[i] == 0 || diagnostics == NULL)
        continue;
      if (state.fault_count[i] == 1)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "xml", path, state.fault_line[i], NULL,
                            "not well-formed XML: %s; read as Gazebo (TinyXML2) reads it", fault_text[i]);
      else
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "xml", path, state.fault_line[i], NULL,
                            "not well-formed XML: %s (%u of them, the first here); "
                            "read as Gazebo (TinyXML2) reads it", fault_text[i], state.fault_count[i]);
    }

  return xml;
}

