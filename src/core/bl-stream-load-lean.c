/* bl-stream-load-lean.c: what a parse of the document's own file leaves
 * out: the children of the elements the reader picks by name that no
 * reader looks at, and blank text (a read-only load keeps none of it; an
 * editable one keeps a stand-in whose range the source map copies). */
#include "config.h"

#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>

#include "bl-added-mass.h"
#include "bl-sdf-order-private.h"
#include "bl-stream-load-private.h"
#include "bl-xml-private.h"

/* Where an element stands for the reader (bl-sdf-reader.c,
 * bl-sdf-elements.c, the fluid checks): the elements whose children it
 * picks by name, reachable as link_is_reachable says, and the rest. */
typedef enum
{
  KIND_OTHER,       /* kept whole: read as a whole or not at all */
  KIND_SDF,         /* the root <sdf> */
  KIND_WORLD,
  KIND_MODEL,
  KIND_LINK,
  KIND_COLLISION,
  KIND_INERTIAL,
  KIND_JOINT,
  KIND_FRAME,
  KIND_INCLUDE,
  KIND_BARE,        /* only its attributes, or that it is there, are read */
  KIND_INERTIA,     /* these three: kept but for children never read */
  KIND_ADDED_MASS,
  KIND_GEOMETRY,
  KIND_PLUGIN,      /* kept but for children no reader names */
  KIND_LEFT_OUT,
} ElementKind;

/* The children of those elements that anything of a read-only load reads
 * (parse_model, add_world_child, the world's gravity and physics, the
 * plugins of the fluid checks, a link's pose, inertial and collisions, a
 * collision's pose, geometry and density, what parse_inertial reads, a
 * joint's child link and pose, a frame's pose); every other child, and every
 * child in a namespace (bl_xml_is_element never matches one), is left out
 * with its subtree, as the reader would skip it.  A <visual>, a <sensor>, a
 * world's <state> or a flood of unknown elements costs no memory. */
static const struct
{
  guint8      parent;
  const char *name;
  guint8      kind;
  gboolean    single;   /* read once: a repeat is left out */
} kept_children[] = {
  { KIND_SDF, "world", KIND_WORLD, FALSE },
  { KIND_SDF, "model", KIND_MODEL, FALSE },
  { KIND_SDF, "include", KIND_INCLUDE, FALSE },
  /* an included file of one light or actor is no model, and says so */
  { KIND_SDF, "light", KIND_BARE, TRUE },
  { KIND_SDF, "actor", KIND_BARE, TRUE },
  { KIND_WORLD, "model", KIND_MODEL, FALSE },
  { KIND_WORLD, "include", KIND_INCLUDE, FALSE },
  { KIND_WORLD, "frame", KIND_FRAME, FALSE },
  { KIND_WORLD, "plugin", KIND_PLUGIN, FALSE },
  { KIND_WORLD, "physics", KIND_BARE, TRUE },
  { KIND_WORLD, "gravity", KIND_OTHER, TRUE },
  { KIND_MODEL, "link", KIND_LINK, FALSE },
  { KIND_MODEL, "model", KIND_MODEL, FALSE },
  { KIND_MODEL, "include", KIND_INCLUDE, FALSE },
  { KIND_MODEL, "frame", KIND_FRAME, FALSE },
  { KIND_MODEL, "joint", KIND_JOINT, FALSE },
  { KIND_MODEL, "plugin", KIND_PLUGIN, FALSE },
  { KIND_MODEL, "pose", KIND_OTHER, TRUE },
  { KIND_MODEL, "static", KIND_OTHER, TRUE },
  { KIND_LINK, "collision", KIND_COLLISION, FALSE },
  { KIND_LINK, "pose", KIND_OTHER, TRUE },
  { KIND_LINK, "inertial", KIND_INERTIAL, TRUE },
  { KIND_COLLISION, "pose", KIND_OTHER, TRUE },
  { KIND_COLLISION, "geometry", KIND_GEOMETRY, TRUE },
  { KIND_COLLISION, "density", KIND_OTHER, TRUE },
  { KIND_INERTIAL, "mass", KIND_OTHER, TRUE },
  { KIND_INERTIAL, "density", KIND_OTHER, TRUE },
  { KIND_INERTIAL, "pose", KIND_OTHER, TRUE },
  { KIND_INERTIAL, "inertia", KIND_INERTIA, TRUE },
  { KIND_INERTIAL, "fluid_added_mass", KIND_ADDED_MASS, TRUE },
  { KIND_JOINT, "child", KIND_OTHER, TRUE },
  { KIND_JOINT, "pose", KIND_OTHER, TRUE },
  { KIND_FRAME, "pose", KIND_OTHER, TRUE },
  { KIND_INCLUDE, "uri", KIND_OTHER, TRUE },
  { KIND_INCLUDE, "name", KIND_OTHER, TRUE },
  { KIND_INCLUDE, "pose", KIND_OTHER, TRUE },
  { KIND_INCLUDE, "static", KIND_OTHER, TRUE },
  { KIND_INCLUDE, "placement_frame", KIND_OTHER, TRUE },
  { KIND_INCLUDE, "plugin", KIND_PLUGIN, FALSE },
  /* <experimental:params>: libxml2 gives the local name of a prefix not
   * declared, and names the element with both */
  { KIND_INCLUDE, "params", KIND_OTHER, FALSE },
};
G_STATIC_ASSERT (G_N_ELEMENTS (kept_children) <= 64);

/* Where each parent's rows of kept_children begin (the table holds them
 * together, parent by parent): child_kind reads only its parent's few. */
static guint8 kept_children_start[KIND_LEFT_OUT + 2];

static void
index_kept_children (void)
{
  static gsize indexed;

  if (!g_once_init_enter (&indexed))
    return;
  for (guint kind = 0, i = 0; kind <= KIND_LEFT_OUT + 1; kind++)
    {
      kept_children_start[kind] = (guint8) i;
      while (i < G_N_ELEMENTS (kept_children) && kept_children[i].parent == kind)
        i++;
    }
  /* every row indexed: the rows of a parent are together, in kind order */
  g_assert (kept_children_start[KIND_LEFT_OUT + 1] == G_N_ELEMENTS (kept_children));
  g_once_init_leave (&indexed, 1);
}

/* The children of a <plugin> the plugin readers ask for by name
 * (bl-fluid-check.c, bl-fluid-import.c, bl-fluid-world.c), whose mere
 * presence may count (<enable/>, <graded_buoyancy/>), are kept whole, and
 * so are the Hydrodynamics plugin's added-mass terms
 * (bl_added_mass_parse_hydrodynamics_name: bl_fluid_collect_numbers takes
 * the first child of each name whose value is a number, and only those
 * names are read of them); of each but <enable> and <link>, which are
 * read as lists, only the first.  Every other child is left out with its
 * subtree: a plugin's own parameters, or 10 MB of <a>1</a> (which cost
 * the editable load 716 MB kept), cost no memory. */
static const char * const plugin_names[] = {
  "added_mass", "disable_added_mass", "drag", "engine", "graded_buoyancy", "link_name", "uniform_fluid_density",
  /* read as lists: every one is kept */
  "enable", "link",
};
#define N_PLUGIN_SINGLE 7

/* Whether a child of that bit was kept before in the open element (its
 * mark in state->seen): a repeated one is left out (its reader reads the
 * first). */
static gboolean
seen_before (ParseState *state,
             guint       bit)
{
  guint64 *seen = &state->seen[state->depth - 1];
  guint64 mask = G_GUINT64_CONSTANT (1) << bit;

  if (*seen & mask)
    return TRUE;
  *seen |= mask;
  return FALSE;
}

static guint8
plugin_child_kind (ParseState    *state,
                   const xmlChar *localname,
                   const xmlChar *uri)
{
  guint row, col;

  if (uri != NULL)
    return KIND_LEFT_OUT;
  for (guint i = 0; i < G_N_ELEMENTS (plugin_names); i++)
    if (strcmp ((const char *) localname, plugin_names[i]) == 0)
      return i < N_PLUGIN_SINGLE && seen_before (state, i) ? KIND_LEFT_OUT : KIND_OTHER;
  if (bl_added_mass_parse_hydrodynamics_name ((const char *) localname, &row, &col))
    return seen_before (state, N_PLUGIN_SINGLE + row * 6 + col) ? KIND_LEFT_OUT : KIND_OTHER;
  return KIND_LEFT_OUT;
}

/* The children of an <inertia>, a <fluid_added_mass> and a <geometry>
 * (bl-sdf-elements.c): what their readers read is kept whole (the first
 * <ixx>… and the first added-mass coefficient of each name, a geometry's
 * first shape), and so are the first
 * BL_XML_UNKNOWN_LISTED children they warn about one by one; each one
 * past those is left out and counted in the element
 * (bl_xml_add_unknown_left_out) for the warning that counts the rest.
 * What follows a geometry's first shape, and what is in a namespace, is
 * never read.  10 MB of <a>1</a> in an <inertia> cost check 287 MB. */
static const char * const inertia_names[] = { "ixx", "iyy", "izz", "ixy", "ixz", "iyz" };
static const char * const shape_names[] = {
  "box", "sphere", "cylinder", "capsule", "ellipsoid", "cone", "mesh", "plane", "heightmap", "polyline", "image",
  "empty",
};

static guint8
value_child_kind (xmlParserCtxt *ctxt,
                  guint8         parent,
                  const xmlChar *localname)
{
  ParseState *state = ctxt->_private;
  const char *name = (const char *) localname;

  if (parent == KIND_INERTIA)
    {
      for (guint i = 0; i < G_N_ELEMENTS (inertia_names); i++)
        if (strcmp (name, inertia_names[i]) == 0)
          return seen_before (state, i) ? KIND_LEFT_OUT : KIND_OTHER;
    }
  else if (parent == KIND_ADDED_MASS)
    {
      int key = bl_added_mass_key_lookup (name);

      if (key >= 0)
        return seen_before (state, (guint) key) ? KIND_LEFT_OUT : KIND_OTHER;
    }
  else
    {
      /* bit 0: the geometry has its shape */
      if (state->seen[state->depth - 1] != 0)
        return KIND_LEFT_OUT;
      for (guint i = 0; i < G_N_ELEMENTS (shape_names); i++)
        if (strcmp (name, shape_names[i]) == 0)
          {
            seen_before (state, 0);
            return KIND_OTHER;
          }
    }
  if (state->unknown_kept < BL_XML_UNKNOWN_LISTED)
    {
      state->unknown_kept++;
      return KIND_OTHER;
    }
  bl_xml_add_unknown_left_out (ctxt->node);
  return KIND_LEFT_OUT;
}

static guint8
child_kind (xmlParserCtxt *ctxt,
            const xmlChar *localname,
            const xmlChar *uri)
{
  ParseState *state = ctxt->_private;
  guint8 parent;

  /* An editable load finds what it leaves out in the bytes: not when
   * libxml2 reads them through a converter (a file in Latin-1) */
  if (state->depth == 0)
    return uri == NULL && strcmp ((const char *) localname, "sdf") == 0 &&
           (state->left_out == NULL || ctxt->input->buf == NULL || ctxt->input->buf->encoder == NULL)
           ? KIND_SDF : KIND_OTHER;
  parent = state->kinds[state->depth - 1];
  if (parent == KIND_OTHER)
    return KIND_OTHER;
  if (parent == KIND_PLUGIN)
    return plugin_child_kind (state, localname, uri);
  /* <experimental:params> with its prefix declared */
  if (parent == KIND_INCLUDE && uri != NULL)
    return KIND_OTHER;
  if (parent == KIND_INERTIA || parent == KIND_ADDED_MASS || parent == KIND_GEOMETRY)
    return uri == NULL ? value_child_kind (ctxt, parent, localname) : KIND_LEFT_OUT;
  if (uri != NULL)
    return KIND_LEFT_OUT;
  for (guint i = kept_children_start[parent]; i < kept_children_start[parent + 1]; i++)
    if (localname[0] == (xmlChar) kept_children[i].name[0] && strcmp ((const char *) localname, kept_children[i].name) == 0)
      /* a singleton's reader reads the first (bl_xml_first_child) */
      return kept_children[i].single && seen_before (state, i) ? KIND_LEFT_OUT : kept_children[i].kind;
  return KIND_LEFT_OUT;
}

/* Whether edits place new elements by this child (bl-sdf-order-private.h):
 * an editable load keeps a stand-in of it under its own name, so that an
 * element an edit adds lands where it would have. */
static gboolean
is_placed_by_edits (guint8         parent,
                    const xmlChar *localname)
{
  const char * const *order = parent == KIND_LINK ? bl_sdf_link_order
                              : parent == KIND_INERTIAL ? bl_sdf_inertial_order
                              : parent == KIND_COLLISION ? bl_sdf_collision_order : NULL;

  for (guint i = 0; order != NULL && order[i] != NULL; i++)
    if (strcmp ((const char *) localname, order[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The blanks held back, emptied and added to without a call while they
 * fit (the layout between two elements, at nearly every event). */
static inline void
clear_blanks (ParseState *state)
{
  state->blanks->len = 0;
  state->blanks->str[0] = '\0';
}

static inline void
hold_blanks (ParseState    *state,
             const xmlChar *text,
             int            length)
{
  GString *blanks = state->blanks;

  if (G_LIKELY (blanks->len + (gsize) length < blanks->allocated_len))
    {
      memcpy (blanks->str + blanks->len, text, (gsize) length);
      blanks->len += (gsize) length;
      blanks->str[blanks->len] = '\0';
    }
  else
    g_string_append_len (blanks, (const char *) text, length);
}

/* Text ends at any other event.  Blanks held back are dropped when they
 * are layout no reader looks at (a read-only load; bl_xml_value_node and
 * TinyXML2 skip them) or when DROP: they lie between elements one
 * stand-in holds, or between elements (is_layout); otherwise an editable
 * load passes them on first. */
static void
end_text (xmlParserCtxt *ctxt,
          gboolean       drop)
{
  ParseState *state = ctxt->_private;

  if (!drop && state->left_out != NULL && state->blanks->len > 0)
    xmlSAX2Characters (ctxt, (const xmlChar *) state->blanks->str, (int) state->blanks->len);
  clear_blanks (state);
  state->in_text = FALSE;
  state->joinable = FALSE;
}

/* Whether blanks held back, ended by an element's start (or its end:
 * AT_END) in an editable load, are only layout between elements: they
 * follow the parent's start tag or an element, and are not all an
 * element holds (<uri> </uri> keeps its text).  An editable tree leaves
 * them out (a third of its nodes in a file indented as SDF files are);
 * the source map keeps their spans, copies them and makes them nodes
 * again where an edit needs them (bl_source_map_keep_layout). */
static gboolean
is_layout (xmlParserCtxt *ctxt,
           gboolean       at_end)
{
  xmlNode *last = ctxt->node != NULL ? ctxt->node->last : NULL;

  if (ctxt->node == NULL)
    return FALSE;
  return last != NULL ? last->type == XML_ELEMENT_NODE : !at_end;
}

/* Ends the text for an event other than text; TRUE when the event is
 * inside a subtree left out. */
static gboolean
in_left_out (void *ctx)
{
  ParseState *state = ((xmlParserCtxt *) ctx)->_private;

  end_text (ctx, FALSE);
  return state->skip_depth > 0;
}

/* Whether the source holds a start tag of that name at open. */
static gboolean
is_start_tag (ParseState    *state,
              const char    *open,
              const xmlChar *prefix,
              const xmlChar *localname)
{
  gsize left = state->length - (gsize) (open - state->data) - 1;
  const char *name = open + 1;
  gsize n;

  if (prefix != NULL)
    {
      n = strlen ((const char *) prefix);
      if (left <= n || memcmp (name, prefix, n) != 0 || name[n] != ':')
        return FALSE;
      name += n + 1;
      left -= n + 1;
    }
  n = strlen ((const char *) localname);
  return left > n && memcmp (name, localname, n) == 0 &&
         (name[n] == '>' || name[n] == '/' || g_ascii_isspace (name[n]));
}

/* The last C in [START, END), or NULL: a loop, where memrchr under
 * AddressSanitizer checks the whole range at each call (each element left
 * out would check the file so far). */
static const char *
last_byte (const char *start,
           const char *end,
           char        c)
{
  for (const char *p = end; p > start; p--)
    if (p[-1] == c)
      return p - 1;
  return NULL;
}

/* The '<' of the start tag libxml2 has just read, in an editable load's
 * bytes; NULL when the bytes do not hold it there (the tree is then thrown
 * away and the file parsed again, all kept). */
static const char *
start_tag_open (xmlParserCtxt *ctxt,
                const xmlChar *localname,
                const xmlChar *prefix)
{
  ParseState *state = ctxt->_private;
  long consumed = xmlByteConsumed (ctxt);
  const char *open = consumed > 0 && (gsize) consumed <= state->length
                     ? last_byte (state->data, state->data + consumed, '<') : NULL;

  if (open == NULL || !is_start_tag (state, open, prefix, localname))
    {
      state->leave_out_failed = TRUE;
      xmlStopParser (ctxt);
      return NULL;
    }
  return open;
}

/* The end of the element whose range is the last of left_out: the range
 * ends after the '>' libxml2 has just read.  FALSE (the parse stopped)
 * when the bytes do not end there. */
static gboolean
end_last_range (xmlParserCtxt *ctxt)
{
  ParseState *state = ctxt->_private;
  BlSourceRange *range = &g_array_index (state->left_out, BlSourceRange, state->left_out->len - 1);
  long consumed = xmlByteConsumed (ctxt);

  if (consumed <= (long) range->start || (gsize) consumed > state->length || state->data[consumed - 1] != '>')
    {
      state->leave_out_failed = TRUE;
      xmlStopParser (ctxt);
      return FALSE;
    }
  range->end = (guint32) consumed;
  return TRUE;
}

/* An editable load: the first element of a subtree left out.  It joins
 * the stand-in before it when only blanks lie between and neither is
 * placed by edits, or both are of the same name (a repeated <pose>);
 * else a stand-in is added, an element without children or attributes
 * (named as it is when edits place it, else BL_XML_LEFT_OUT), whose
 * range the source map copies byte for byte. */
static void
add_stand_in (xmlParserCtxt *ctxt,
              const xmlChar *localname,
              const xmlChar *prefix,
              const xmlChar *uri)
{
  ParseState *state = ctxt->_private;
  guint8 parent = state->kinds[state->depth - 1];
  gboolean alone = uri == NULL && is_placed_by_edits (parent, localname);
  const char *open = start_tag_open (ctxt, localname, prefix);
  BlSourceRange range = { 0, 0 };
  xmlNode *node;

  if (open == NULL)
    return;
  state->last_open = (guint32) (open - state->data);
  /* a run of the same name joins too (a repeated <pose>) */
  if (state->joinable && (alone ? state->run_name != NULL && strcmp ((const char *) state->run_name,
                                                                      (const char *) localname) == 0
                                : state->run_name == NULL))
    {
      end_text (ctxt, TRUE);
      return;
    }
  end_text (ctxt, is_layout (ctxt, FALSE));
  node = xmlNewDocNode (ctxt->myDoc, NULL, alone ? localname : (const xmlChar *) BL_XML_LEFT_OUT, NULL);
  node->psvi = GINT_TO_POINTER (ctxt->input->line);
  xmlAddChild (ctxt->node, node);
  range.start = (guint32) (open - state->data);
  g_array_append_val (state->left_out, range);
  state->run_name = alone ? localname : NULL;
}

/* The end of the first element of a subtree left out: the stand-in's
 * range ends here. */
static void
end_stand_in (xmlParserCtxt *ctxt)
{
  ParseState *state = ctxt->_private;

  if (end_last_range (ctxt))
    state->joinable = TRUE;
}

/* An editable load, at the end of a <plugin> whose last element is a
 * stand-in for several children: its last child gets a stand-in of its
 * own (the blanks before it are layout, is_layout).  An edit adds a
 * plugin's <disable_added_mass> after its last element, on a line of its
 * own only when that element begins one (insert_child in bl-edit.c).  The
 * last child begins at last_open; only blanks lie between it and the '>'
 * that ends the child before it. */
static void
split_last_plugin_stand_in (xmlParserCtxt *ctxt)
{
  ParseState *state = ctxt->_private;
  xmlNode *last = ctxt->node != NULL ? ctxt->node->last : NULL;
  BlSourceRange *range, tail;
  const char *start, *lt, *gt;
  xmlNode *stand_in;
  int line;

  while (last != NULL && last->type != XML_ELEMENT_NODE)
    last = last->prev;
  if (last == NULL || strcmp ((const char *) last->name, BL_XML_LEFT_OUT) != 0 || state->left_out->len == 0)
    return;
  range = &g_array_index (state->left_out, BlSourceRange, state->left_out->len - 1);
  if (state->last_open <= range->start || state->last_open >= range->end)
    return;   /* one child: the blanks before it are the tree's already */
  start = state->data + range->start;
  lt = state->data + state->last_open;
  gt = last_byte (start, lt, '>');
  if (gt == NULL)
    return;

  line = GPOINTER_TO_INT (last->psvi);
  for (const char *c = start; c < lt; c++)
    line += *c == '\n';
  tail.start = (guint32) (lt - state->data);
  tail.end = range->end;
  range->end = (guint32) (gt + 1 - state->data);
  stand_in = xmlNewDocNode (ctxt->myDoc, NULL, (const xmlChar *) BL_XML_LEFT_OUT, NULL);
  stand_in->psvi = GINT_TO_POINTER (line);
  xmlAddNextSibling (last, stand_in);
  g_array_append_val (state->left_out, tail);
}

static void
lean_start_element (void           *ctx,
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
  guint8 kind = KIND_LEFT_OUT;

  if (state->skip_depth == 0)
    kind = child_kind (ctxt, localname, uri);
  /* inside what is kept whole, and what a plugin keeps (its <enable>
   * and <link> lists) */
  if (kind == KIND_OTHER && state->depth > 0 &&
      (state->kinds[state->depth - 1] == KIND_OTHER || state->kinds[state->depth - 1] == KIND_PLUGIN) &&
      !bl_stream_count_nested (ctxt))
    return;
  if (kind != KIND_LEFT_OUT)
    {
      end_text (ctxt, is_layout (ctxt, FALSE));
      if (state->depth == state->levels)
        {
          state->levels *= 2;
          state->kinds = g_renew (guint8, state->kinds, state->levels);
          state->seen = g_renew (guint64, state->seen, state->levels);
        }
      state->kinds[state->depth] = kind;
      state->seen[state->depth] = 0;
      state->depth++;
      /* one such element is open at a time: its children are kept whole */
      if (kind == KIND_INERTIA || kind == KIND_ADDED_MASS || kind == KIND_GEOMETRY)
        state->unknown_kept = 0;
      bl_stream_sax_start_element (ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                                   nb_defaulted, attributes);
      return;
    }
  /* links and parts left out count as the full load counts them */
  if (!bl_stream_count_element (ctxt, localname))
    return;
  if (state->skip_depth++ > 0)
    return;
  if (state->left_out != NULL)
    add_stand_in (ctxt, localname, prefix, uri);
  else
    end_text (ctxt, TRUE);
}

static void
lean_end_element (void          *ctx,
                  const xmlChar *localname,
                  const xmlChar *prefix,
                  const xmlChar *uri)
{
  xmlParserCtxt *ctxt = ctx;
  ParseState *state = ctxt->_private;

  if (state->skip_depth > 0)
    {
      if (--state->skip_depth == 0 && state->left_out != NULL)
        end_stand_in (ctxt);
      return;
    }
  end_text (ctxt, is_layout (ctxt, TRUE));
  if (state->left_out != NULL && state->depth > 0 && state->kinds[state->depth - 1] == KIND_PLUGIN)
    split_last_plugin_stand_in (ctxt);
  if (state->depth > 0)
    state->depth--;
  if (state->left_out != NULL)
    xmlSAX2EndElementNs (ctx, localname, prefix, uri);
  else
    bl_stream_sax_end_element (ctx, localname, prefix, uri);
}

static gboolean
is_blank (const xmlChar *text,
          int            length)
{
  for (int i = 0; i < length; i++)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
      return FALSE;
  return TRUE;
}

/* libxml2 hands a text over in pieces (at character references, every
 * few hundred bytes): a piece of blanks that begins one is held back
 * until the next piece or event shows what it is. */
static void
lean_characters (void          *ctx,
                 const xmlChar *text,
                 int            length)
{
  xmlParserCtxt *ctxt = ctx;
  ParseState *state = ctxt->_private;

  if (state->skip_depth > 0)
    return;
  if (!state->in_text)
    {
      if (is_blank (text, length))
        {
          hold_blanks (state, text, length);
          return;
        }
      if (state->blanks->len > 0)
        xmlSAX2Characters (ctx, (const xmlChar *) state->blanks->str, (int) state->blanks->len);
      clear_blanks (state);
      state->joinable = FALSE;
      state->in_text = TRUE;
    }
  xmlSAX2Characters (ctx, text, length);
}

static void
lean_cdata_block (void          *ctx,
                  const xmlChar *value,
                  int            length)
{
  if (!in_left_out (ctx))
    xmlSAX2CDataBlock (ctx, value, length);
}

static void
lean_reference (void          *ctx,
                const xmlChar *name)
{
  if (!in_left_out (ctx))
    xmlSAX2Reference (ctx, name);
}

/* Counted wherever they are, as the editable load counts them; kept
 * only where their element is. */
static void
lean_comment (void          *ctx,
                   const xmlChar *value)
{
  if (!in_left_out (ctx))
    bl_stream_sax_comment (ctx, value);
  else
    bl_stream_count_comment (ctx);
}

static void
lean_processing_instruction (void          *ctx,
                                  const xmlChar *target,
                                  const xmlChar *data)
{
  if (!in_left_out (ctx))
    bl_stream_sax_processing_instruction (ctx, target, data);
  else
    bl_stream_count_comment (ctx);
}

/* The handlers that leave out what no reader looks at, on a parse of the
 * document's own file. */
void
bl_stream_use_lean_handlers (xmlParserCtxt *ctxt,
                             ParseState    *state)
{
  index_kept_children ();
  ctxt->sax->startElementNs = lean_start_element;
  ctxt->sax->endElementNs = lean_end_element;
  /* the same handler for both, so that libxml2 never guesses which
   * blanks to drop (areBlanks) */
  ctxt->sax->characters = lean_characters;
  ctxt->sax->ignorableWhitespace = lean_characters;
  ctxt->sax->cdataBlock = lean_cdata_block;
  ctxt->sax->reference = lean_reference;
  ctxt->sax->comment = lean_comment;
  ctxt->sax->processingInstruction = lean_processing_instruction;
  state->levels = 64;
  state->depth = 0;
  state->kinds = g_new (guint8, state->levels);
  state->seen = g_new (guint64, state->levels);
  state->blanks = g_string_sized_new (256);
}

void
bl_stream_clear_lean_state (ParseState *state)
{
  g_clear_pointer (&state->kinds, g_free);
  g_clear_pointer (&state->seen, g_free);
  state->levels = state->depth = 0;
  if (state->blanks != NULL)
    g_string_free (g_steal_pointer (&state->blanks), TRUE);
}
