/* bl-document.c: reads an SDF file with libxml2 into the model tree. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "bl-arena-private.h"
#include "bl-document-private.h"
#include "bl-frame-graph-private.h"
#include "bl-resolve-private.h"
#include "bl-source-map.h"
#include "bl-xml-private.h"
#include "bl-file-private.h"
#include "bl-tinyxml-filter-private.h"
#include "bl-number.h"
#include "bl-sample-resources.h"
#include "bl-resource.h"
#include "bl-include-params-private.h"
#include "bl-merge-placement-private.h"

#define MAX_MODEL_DEPTH 64

/* A read-only document's links, collisions and names live in an arena
 * (bl-arena.c), freed at once: a large model has tens of thousands of
 * them, and neither the allocator's per-chunk work nor its consolidation
 * of the freed XML nodes around them is worth paying for things that die
 * together. */

/* A link read ahead by a read-only load, before its subtree was freed. */
typedef struct
{
  BlLink  *link;    /* NULL once adopted */
  BlModel *proto;   /* stands in for the model (name, file) until adopted; in self->protos */
  xmlNode *node;    /* the <link>, whose _private points here until adopted */
} PreparsedLink;

struct _BlDocument
{
  GObject     parent_instance;

  char       *path;
  char       *sdf_version;    /* as <sdf version> reads now (an edit may raise it) */
  char       *loaded_sdf_version;  /* as the file declared it when read */
  GBytes     *source;
  xmlDoc     *xml;
  GPtrArray  *included_xml;   /* xmlDoc* of <include>d files */
  GPtrArray  *models;         /* BlModel*, top level */
  GPtrArray  *links;          /* BlLink*, borrowed from the models */
  GHashTable *links_by_name;  /* scoped name → BlLink* */
  GPtrArray  *diagnostics;    /* BlDiagnostic* not tied to a link */
  GPtrArray  *include_failures; /* BlIncludeFailure* */
  GHashTable *include_firsts;   /* "URI\nmessage" → the first BlIncludeFailure of it, while loading */
  GHashTable *include_diagnostic; /* first BlIncludeFailure* → index of its diagnostic + 1, while loading */
  xmlNode    *world;          /* the first <world>, or NULL */
  gboolean    read_only;      /* BL_DOCUMENT_LOAD_READ_ONLY */
  BlArena    *arena;          /* read-only: links, collisions and their names */
  GPtrArray  *mesh_collisions; /* read-only: BlCollision* in the arena that hold heap memory */
  const xmlChar *link_tag;    /* while loading read-only: "link" in the parser's dictionary */
  char       *base_dir;       /* while loading: the folder of path */
  guint       sdf_minor;      /* 10 for "1.10"; 12 when absent or unknown */
  GPtrArray  *preparsed;      /* while loading read-only: PreparsedLink*, each also in its node's _private */
  GPtrArray  *protos;         /* while loading read-only: BlModel* stand-ins */
};

G_DEFINE_FINAL_TYPE (BlDocument, bl_document, G_TYPE_OBJECT)

G_DEFINE_QUARK (bl-document-error-quark, bl_document_error)

enum {
  LINK_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  BlDocument *doc;
  GPtrArray  *include_stack; /* char* paths being included */
  guint       n_includes;    /* files included so far, every time counted */
  guint64     include_bytes; /* their sizes, summed */
  gboolean    include_limit_reported;
  guint       n_comments;    /* comments and PIs read so far, in every file */
  BlParamsBudget params_budget; /* the work of <experimental:params> */
} LoadContext;

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */

static int
node_line (xmlNode *node)
{
  return bl_xml_get_line (node);
}

/* ------------------------------------------------------------------------ */
/* XML helpers                                                               */

typedef xmlChar *BlXmlString;
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (BlXmlString, xmlFree, NULL)

/* The element's value (bl_xml_value_node: as libsdformat reads it), not
 * copied; "" when it has none. */
static const char *
node_text_peek (xmlNode *node)
{
  xmlNode *value = bl_xml_value_node (node);

  return value != NULL && value->content != NULL ? (const char *) value->content : "";
}

/* The attribute's value (as bl_xml_dup_attribute gives it: as written,
 * never a DTD's default) without a copy when libxml2 holds it as one text
 * node, the usual case; otherwise a copy in *owned (free with xmlFree).
 * NULL when absent. */
static const char *
attribute_peek (xmlNode     *node,
                const char  *name,
                xmlChar    **owned)
{
  xmlAttr *attr = bl_xml_written_attribute (node, name);
  xmlNode *text;

  *owned = NULL;
  if (attr == NULL)
    return NULL;
  text = attr->children;
  if (text != NULL && text->next == NULL && text->type == XML_TEXT_NODE && text->content != NULL)
    return (const char *) text->content;
  /* several nodes or none: as libxml2 joins them */
  *owned = xmlNodeListGetString (node->doc, text, 1);
  return *owned != NULL ? (const char *) *owned : "";
}

static char *
element_path (const char *owner,
              xmlNode    *node)
{
  return g_strdup_printf ("%s/%s", owner, (const char *) node->name);
}

/* A value element holding more than its value: text split off by a
 * comment or an element, or elements inside it.  libsdformat reads only
 * the text before the first of them (none when an element comes first),
 * and so does Ballast (bl_xml_value_node); the warning says so. */
static void
check_split_value (xmlNode    *element,
                   const char *owner,
                   const char *file,
                   GPtrArray  *diagnostics)
{
  xmlNode *first = element->children;
  g_autofree char *value = NULL;
  g_autofree char *path = NULL;

  if (first == NULL || (first->next == NULL && first->type == XML_TEXT_NODE) || !bl_xml_value_is_split (element))
    return;
  value = g_strstrip (bl_xml_dup_text (element));
  path = element_path (owner, element);
  if (*value != '\0')
    bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "split-value", file, node_line (element), path,
                        "<%s> holds more than its value (text after a comment or an element, or an element "
                        "inside it): libsdformat reads only “%s”, the text before the first comment or element, "
                        "and so does Ballast", (const char *) element->name, value);
  else
    bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "split-value", file, node_line (element), path,
                        "<%s> begins with an element: libsdformat reads no value from it, the text after the "
                        "element is ignored, and so Ballast does too", (const char *) element->name);
}

/* Reads a child holding one number.  Returns TRUE and sets *value when the
 * child exists and parses; FALSE when absent (silently) or broken (with an
 * error diagnostic, *failed set). */
/* What libsdformat reads for an empty value element (the SDF spec's
 * default), as the diagnostics say it. */
static const char *
libsdformat_default (const char *name)
{
  static const struct { const char *name, *value; } defaults[] = {
    { "mass", "the default, 1 kg" },
    { "ixx", "the default, 1 kg·m²" },
    { "iyy", "the default, 1 kg·m²" },
    { "izz", "the default, 1 kg·m²" },
    { "ixy", "the default, 0" },
    { "ixz", "the default, 0" },
    { "iyz", "the default, 0" },
    { "density", "the default, 1000 kg/m³" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    if (strcmp (name, defaults[i].name) == 0)
      return defaults[i].value;
  return "the element's default";
}

/* The number in child, an element called name (the first of that name:
 * bl_xml_first_child), or FALSE when child is NULL. */
static gboolean
read_number (xmlNode    *child,
             const char *name,
             const char *owner,
             const char *file,
             GPtrArray  *diagnostics,
             double     *value,
             gboolean   *failed)
{
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  if (child == NULL)
    return FALSE;

  check_split_value (child, owner, file, diagnostics);
  if (bl_number_parse (node_text_peek (child), value))
    return TRUE;

  text = bl_xml_dup_text (child);
  path = g_strdup_printf ("%s/%s", owner, name);
  g_strstrip (text);
  if (*text == '\0')
    {
      g_auto(BlXmlString) attribute_owned = NULL;
      const char *attribute = attribute_peek (child, "value", &attribute_owned);
      const char *fallback = libsdformat_default (name);
      double meant;

      if (attribute != NULL && bl_number_parse (attribute, &meant))
        bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, node_line (child), path,
                            "<%s value=\"%s\"/> is URDF's form: SDF reads the number from the element's "
                            "text, which is empty, so Gazebo uses %s, not %s; write <%s>%s</%s>",
                            name, attribute, fallback, attribute, name, attribute, name);
      else
        bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, node_line (child), path,
                            "<%s> holds no number; Gazebo uses %s", name, fallback);
    }
  else
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, node_line (child), path,
                        "<%s> holds “%s”, which is not a finite number", name, text);
  if (failed != NULL)
    *failed = TRUE;

  return FALSE;
}

static gboolean
read_vector (xmlNode    *child,
             guint       n,
             const char *owner,
             const char *file,
             GPtrArray  *diagnostics,
             double     *values)
{
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  check_split_value (child, owner, file, diagnostics);
  if (bl_number_parse_vector (node_text_peek (child), values, n))
    return TRUE;

  text = bl_xml_dup_text (child);
  path = element_path (owner, child);
  g_strstrip (text);
  bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, node_line (child), path,
                      "<%s> holds “%s”; expected %u finite numbers",
                      (const char *) child->name, text, n);
  return FALSE;
}

/* The world's <gravity> (read by bl_document_get_gravity when needed):
 * one that cannot be read is an error, not the default used silently. */
static void
check_gravity (BlDocument *self,
               xmlNode    *world)
{
  xmlNode *gravity = bl_xml_first_child (world, "gravity");
  g_autofree char *text = NULL;
  double v[3];

  if (gravity == NULL || bl_number_parse_vector (node_text_peek (gravity), v, 3))
    return;

  text = g_strstrip (bl_xml_dup_text (gravity));
  bl_diagnostics_add (self->diagnostics, BL_SEVERITY_ERROR, "number", self->path, node_line (gravity),
                      "world/gravity", "<gravity> holds “%s”; expected 3 finite numbers; "
                      "the default 0 0 −9.8 is used instead", text);
}

static gboolean
parse_bool (const char *text,
            gboolean   *value)
{
  const char *start = text, *end;
  gsize length;

  /* as g_strstrip would trim it */
  while (g_ascii_isspace (*start))
    start++;
  end = start + strlen (start);
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  length = (gsize) (end - start);

  if ((length == 4 && g_ascii_strncasecmp (start, "true", 4) == 0) || (length == 1 && *start == '1'))
    *value = TRUE;
  else if ((length == 5 && g_ascii_strncasecmp (start, "false", 5) == 0) || (length == 1 && *start == '0'))
    *value = FALSE;
  else
    return FALSE;

  return TRUE;
}

/* The element path, built only when a diagnostic needs it. */
#define POSE_PATH() (path != NULL ? path : (path = element_path (owner, pose_node)))

/* Parses <pose> with @degrees and @rotation_format; *relative_to gets
 * @relative_to (or NULL).  Broken poses give a diagnostic and identity. */
static BlPose
parse_pose (xmlNode     *pose_node,
            const char  *owner,
            const char  *file,
            GPtrArray   *diagnostics,
            char       **relative_to)
{
  g_auto(BlXmlString) format_owned = NULL;
  g_auto(BlXmlString) degrees_owned = NULL;
  g_autofree char *path = NULL;
  gboolean degrees = FALSE;
  const char *text, *format, *degrees_attr;
  double v[7];
  guint n;

  if (relative_to != NULL)
    *relative_to = NULL;
  if (pose_node == NULL)
    return BL_POSE_IDENTITY;

  text = node_text_peek (pose_node);
  check_split_value (pose_node, owner, file, diagnostics);
  if (pose_node->properties == NULL && (pose_node->doc == NULL || pose_node->doc->intSubset == NULL))
    {
      /* <pose>x y z r p y</pose>, by far the most common */
      format = degrees_attr = NULL;
    }
  else
    {
      format = attribute_peek (pose_node, "rotation_format", &format_owned);
      degrees_attr = attribute_peek (pose_node, "degrees", &degrees_owned);
      if (relative_to != NULL)
        {
          char *rel = bl_xml_dup_attribute (pose_node, "relative_to");

          if (rel != NULL && *g_strstrip (rel) == '\0')
            g_clear_pointer (&rel, g_free);
          *relative_to = rel;
        }
    }

  if (degrees_attr != NULL && !parse_bool (degrees_attr, &degrees))
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, node_line (pose_node), POSE_PATH (),
                        "@degrees is “%s”; expected true or false", degrees_attr);

  n = (format != NULL && strcmp (format, "quat_xyzw") == 0) ? 7 : 6;
  if (format != NULL && n == 6 && strcmp (format, "euler_rpy") != 0)
    {
      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, node_line (pose_node), POSE_PATH (),
                          "unknown @rotation_format “%s”; expected euler_rpy or quat_xyzw", format);
      return BL_POSE_IDENTITY;
    }

  if (!bl_number_parse_vector (text, v, n))
    {
      g_autofree char *copy = NULL;

      /* An empty <pose/> is the identity. */
      if (bl_number_count_tokens (text) == 0)
        return BL_POSE_IDENTITY;

      copy = g_strstrip (g_strdup (text));

      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, node_line (pose_node), POSE_PATH (),
                          "pose “%s” is not %u finite numbers (%s)", copy, n,
                          n == 7 ? "x y z qx qy qz qw" : "x y z roll pitch yaw");
      return BL_POSE_IDENTITY;
    }

  if (n == 7)
    {
      BlQuat q = { v[6], v[3], v[4], v[5] };
      double norm = sqrt (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);

      if (norm < 1e-12)
        {
          bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, node_line (pose_node), POSE_PATH (),
                              "quaternion has zero length");
          return BL_POSE_IDENTITY;
        }
      if (fabs (norm - 1.0) > 1e-6)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "pose", file, node_line (pose_node), POSE_PATH (),
                            "quaternion length is %g; normalised", norm);

      return (BlPose) { { v[0], v[1], v[2] }, bl_quat_normalize (q) };
    }

  if (degrees)
    {
      for (guint i = 3; i < 6; i++)
        v[i] *= G_PI / 180.0;
    }

  return bl_pose_from_euler (v[0], v[1], v[2], v[3], v[4], v[5]);
}

/* ------------------------------------------------------------------------ */
/* Links: <inertial> and collision densities (re-read on every reload)      */

/* libsdformat warns about an element it does not know ("XML Element[iyx],
 * child of element[inertia], not defined in SDF") and reads nothing from
 * it; so does Ballast, naming the product it may have meant: the
 * products of inertia are symmetric, and only ixy, ixz, iyz are read. */
static void
report_unknown_inertia_elements (xmlNode            *inertia,
                                 const char * const  names[6],
                                 const char         *owner,
                                 const char         *file,
                                 GPtrArray          *diagnostics)
{
  for (xmlNode *child = inertia->children; child != NULL; child = child->next)
    {
      const char *name = (const char *) child->name;
      gboolean known = FALSE;

      if (!bl_xml_is_element (child, NULL))
        continue;
      for (guint i = 0; i < 6; i++)
        known |= strcmp (name, names[i]) == 0;
      if (known)
        continue;
      if (strlen (name) == 3 && name[0] == 'i' && name[1] != name[2] &&
          strchr ("xyz", name[1]) != NULL && strchr ("xyz", name[2]) != NULL)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "unknown", file, node_line (child), owner,
                            "<%s> is not an element of <inertia>: libsdformat and Ballast ignore it, so "
                            "the product is read from <i%c%c> (0 when absent); the tensor is symmetric "
                            "and SDF names only ixy, ixz and iyz", name, name[2], name[1]);
      else
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "unknown", file, node_line (child), owner,
                            "<%s> is not an element of <inertia> (ixx iyy izz ixy ixz iyz): "
                            "libsdformat and Ballast ignore it", name);
    }
}

static void
parse_inertial (BlLink    *link,
                GPtrArray *diagnostics)
{
  const char *file = link->file;
  g_autofree char *owner = NULL;
  xmlNode *inertial = bl_xml_first_child (link->node, "inertial");
  xmlNode *child;
  gboolean failed = FALSE;

  link->inertial_node = inertial;
  link->auto_inertia = FALSE;
  link->has_mass = FALSE;
  link->mass = 1.0;
  link->has_density = FALSE;
  link->density = 1000.0;
  link->has_inertial_pose = FALSE;
  link->inertial_pose = BL_POSE_IDENTITY;
  link->has_inertia = FALSE;
  link->inertia[0] = link->inertia[1] = link->inertia[2] = 1.0;
  link->inertia[3] = link->inertia[4] = link->inertia[5] = 0.0;
  link->has_added_mass = FALSE;
  link->added_mass_node = NULL;
  memset (link->added_mass, 0, sizeof link->added_mass);
  link->input_errors = FALSE;

  if (inertial == NULL)
    return;

  owner = g_strconcat (link->scoped_name, "/inertial", NULL);
  {
    g_auto(BlXmlString) auto_owned = NULL;
    const char *auto_attr = attribute_peek (inertial, "auto", &auto_owned);

    if (auto_attr != NULL && !parse_bool (auto_attr, &link->auto_inertia))
      {
        bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, node_line (inertial), owner,
                            "@auto is “%s”; expected true or false", auto_attr);
        failed = TRUE;
      }
  }

  link->has_mass = read_number (bl_xml_first_child (inertial, "mass"), "mass", owner, file, diagnostics,
                                &link->mass, &failed);
  link->has_density = read_number (bl_xml_first_child (inertial, "density"), "density", owner, file, diagnostics,
                                   &link->density, &failed);

  if (link->has_mass && link->mass <= 0.0)
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "non-positive", file,
                        node_line (bl_xml_first_child (inertial, "mass")), owner,
                        "mass %g is not positive", link->mass);
  if (link->has_density && link->density <= 0.0)
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "non-positive", file,
                        node_line (bl_xml_first_child (inertial, "density")), owner,
                        "density %g is not positive", link->density);

  child = bl_xml_first_child (inertial, "pose");
  if (child != NULL)
    {
      g_autofree char *relative_to = NULL;
      guint before = diagnostics->len;

      link->has_inertial_pose = TRUE;
      link->inertial_pose = parse_pose (child, owner, file, diagnostics, &relative_to);
      if (diagnostics->len > before)
        failed = TRUE;
      if (relative_to != NULL)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "pose", file, node_line (child), owner,
                            "//inertial/pose has no @relative_to in the SDF spec; "
                            "libsdformat ignores “%s” and so does Ballast", relative_to);
    }

  child = bl_xml_first_child (inertial, "inertia");
  if (child != NULL)
    {
      static const char * const names[6] = { "ixx", "iyy", "izz", "ixy", "ixz", "iyz" };
      g_autofree char *inertia_owner = g_strconcat (owner, "/inertia", NULL);

      link->has_inertia = TRUE;
      for (guint i = 0; i < 6; i++)
        read_number (bl_xml_first_child (child, names[i]), names[i], inertia_owner, file, diagnostics,
                     &link->inertia[i], &failed);
      report_unknown_inertia_elements (child, names, inertia_owner, file, diagnostics);
    }

  child = bl_xml_first_child (inertial, "fluid_added_mass");
  if (child != NULL)
    {
      g_autofree char *am_owner = g_strconcat (owner, "/fluid_added_mass", NULL);
      /* the first element of each key: a repeated key reads the first again */
      xmlNode *first[G_N_ELEMENTS (bl_added_mass_keys)] = { NULL };

      link->has_added_mass = TRUE;
      link->added_mass_node = child;
      for (xmlNode *value = child->children; value != NULL; value = value->next)
        {
          int key;

          if (!bl_xml_is_element (value, NULL))
            continue;

          key = bl_added_mass_key_lookup ((const char *) value->name);
          if (key < 0)
            {
              bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "unknown", file, node_line (value), am_owner,
                                  "<%s> is not one of the 21 added-mass coefficients; ignored",
                                  (const char *) value->name);
              continue;
            }
          if (first[key] == NULL)
            first[key] = value;
          read_number (first[key], (const char *) value->name, am_owner, file, diagnostics,
                       &link->added_mass[key], &failed);
        }
    }

  link->input_errors = failed;
}

static void
parse_collision_density (BlCollision *collision,
                         GPtrArray   *diagnostics)
{
  BlLink *link = collision->link;
  const char *owner = collision->path;

  collision->density = 1000.0;
  collision->has_density = read_number (bl_xml_first_child (collision->node, "density"), "density", owner,
                                        link->file, diagnostics, &collision->density, &link->input_errors);
  if (collision->has_density && collision->density <= 0.0)
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "non-positive", link->file,
                        node_line (bl_xml_first_child (collision->node, "density")), owner,
                        "density %g is not positive", collision->density);
}

/* ------------------------------------------------------------------------ */
/* Geometry                                                                  */

typedef struct
{
  const char     *element;
  BlGeometryType  type;
} GeometryName;

static const GeometryName geometry_names[] = {
  { "box", BL_GEOMETRY_BOX },
  { "sphere", BL_GEOMETRY_SPHERE },
  { "cylinder", BL_GEOMETRY_CYLINDER },
  { "capsule", BL_GEOMETRY_CAPSULE },
  { "ellipsoid", BL_GEOMETRY_ELLIPSOID },
  { "cone", BL_GEOMETRY_CONE },
  { "mesh", BL_GEOMETRY_MESH },
  { "plane", BL_GEOMETRY_PLANE },
  { "heightmap", BL_GEOMETRY_HEIGHTMAP },
  { "polyline", BL_GEOMETRY_POLYLINE },
  { "image", BL_GEOMETRY_IMAGE },
  { "empty", BL_GEOMETRY_EMPTY },
};

/* What libsdformat 15.3+ substitutes for a non-positive size. */
static const char *
libsdformat_size_default (BlGeometryType type,
                          const char    *element)
{
  switch (type)
    {
    case BL_GEOMETRY_BOX:
    case BL_GEOMETRY_ELLIPSOID:
      return "1 1 1";
    case BL_GEOMETRY_SPHERE:
      return "1";
    default:
      return strcmp (element, "radius") == 0 ? "0.5" : "1";
    }
}

static void
check_positive (BlGeometry  *geometry,
                xmlNode     *node,
                const char  *element,
                const double *values,
                guint        n,
                const char  *owner,
                const char  *file,
                GPtrArray   *diagnostics)
{
  for (guint i = 0; i < n; i++)
    {
      if (values[i] > 0.0)
        continue;

      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "D10", file, node_line (node), owner,
                          "%s <%s> has a non-positive value %g; this geometry cannot have "
                          "mass (libsdformat 15.3+ silently uses %s instead)",
                          bl_geometry_type_to_string (geometry->type), element, values[i],
                          libsdformat_size_default (geometry->type, element));
      return;
    }
}

/* Reads a size child with n values into dest, keeping the default when
 * it is absent or broken. */
static void
read_size (BlGeometry *geometry,
           xmlNode    *shape,
           const char *element,
           guint       n,
           double     *dest,
           const char *owner,
           const char *file,
           GPtrArray  *diagnostics)
{
  xmlNode *child = bl_xml_first_child (shape, element);
  double values[3];

  if (child == NULL)
    return;

  if (!read_vector (child, n, owner, file, diagnostics, values))
    {
      /* A broken size cannot give a mass: poison it rather than guess. */
      for (guint i = 0; i < n; i++)
        dest[i] = NAN;
      return;
    }

  check_positive (geometry, child, element, values, n, owner, file, diagnostics);
  memcpy (dest, values, n * sizeof (double));
}

static void
parse_geometry (BlCollision *collision,
                GPtrArray   *diagnostics,
                const char  *base_dir)
{
  BlGeometry *geometry = &collision->geometry;
  const char *file = collision->link->file;
  const char *owner = collision->path;
  xmlNode *node = bl_xml_first_child (collision->node, "geometry");
  xmlNode *shape = NULL;

  geometry->node = node;
  geometry->type = BL_GEOMETRY_EMPTY;
  geometry->scale = bl_vec3 (1.0, 1.0, 1.0);

  if (node == NULL)
    {
      /* libsdformat reads an empty geometry in its place, without a word:
       * it has no volume and, on an automatic link, no inertia (an error
       * then, as for <empty/>) */
      bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "geometry", file, collision->line, owner,
                          "collision “%s” has no <geometry>: read as an empty one, as libsdformat reads it",
                          collision->name);
      return;
    }

  for (xmlNode *child = node->children; child != NULL && shape == NULL; child = child->next)
    {
      if (!bl_xml_is_element (child, NULL))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (geometry_names); i++)
        {
          if (strcmp ((const char *) child->name, geometry_names[i].element) == 0)
            {
              shape = child;
              geometry->type = geometry_names[i].type;
              break;
            }
        }
      if (shape == NULL)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "geometry", file, node_line (child), owner,
                            "unknown geometry <%s>; treated as empty", (const char *) child->name);
    }

  if (shape == NULL)
    return;

  switch (geometry->type)
    {
    case BL_GEOMETRY_BOX:
      geometry->size[0] = geometry->size[1] = geometry->size[2] = 1.0;
      read_size (geometry, shape, "size", 3, geometry->size, owner, file, diagnostics);
      break;

    case BL_GEOMETRY_SPHERE:
      geometry->size[0] = 1.0;
      read_size (geometry, shape, "radius", 1, &geometry->size[0], owner, file, diagnostics);
      break;

    case BL_GEOMETRY_CYLINDER:
    case BL_GEOMETRY_CONE:
    case BL_GEOMETRY_CAPSULE:
      geometry->size[0] = geometry->type == BL_GEOMETRY_CAPSULE ? 0.5 : 1.0;
      geometry->size[1] = 1.0;
      read_size (geometry, shape, "radius", 1, &geometry->size[0], owner, file, diagnostics);
      read_size (geometry, shape, "length", 1, &geometry->size[1], owner, file, diagnostics);
      break;

    case BL_GEOMETRY_ELLIPSOID:
      geometry->size[0] = geometry->size[1] = geometry->size[2] = 1.0;
      read_size (geometry, shape, "radii", 3, geometry->size, owner, file, diagnostics);
      break;

    case BL_GEOMETRY_PLANE:
      {
        xmlNode *child;

        geometry->size[0] = geometry->size[1] = 0.0;
        geometry->size[2] = 1.0;
        geometry->plane_size[0] = geometry->plane_size[1] = 1.0;
        if ((child = bl_xml_first_child (shape, "normal")) != NULL)
          read_vector (child, 3, owner, file, diagnostics, geometry->size);
        if ((child = bl_xml_first_child (shape, "size")) != NULL)
          read_vector (child, 2, owner, file, diagnostics, geometry->plane_size);
      }
      break;

    case BL_GEOMETRY_MESH:
      {
        xmlNode *uri = bl_xml_first_child (shape, "uri");
        xmlNode *scale = bl_xml_first_child (shape, "scale");
        xmlNode *submesh = bl_xml_first_child (shape, "submesh");

        geometry->optimization = bl_xml_dup_attribute (shape, "optimization");
        if (scale != NULL)
          {
            double s[3];

            if (read_vector (scale, 3, owner, file, diagnostics, s))
              geometry->scale = bl_vec3 (s[0], s[1], s[2]);
          }
        if (submesh != NULL)
          {
            xmlNode *name = bl_xml_first_child (submesh, "name");
            xmlNode *center = bl_xml_first_child (submesh, "center");

            if (name != NULL)
              geometry->submesh = g_strstrip (bl_xml_dup_text (name));
            if (center != NULL)
              {
                g_autofree char *text = bl_xml_dup_text (center);

                parse_bool (text, &geometry->center);
              }
          }
        if (uri == NULL)
          {
            bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "mesh", file, node_line (shape), owner,
                                "<mesh> has no <uri>");
            break;
          }

        geometry->uri = g_strstrip (bl_xml_dup_text (uri));
        {
          g_autoptr(GError) error = NULL;

          geometry->resolved_path = bl_resource_resolve_uri (geometry->uri, base_dir, &error);
          if (geometry->resolved_path == NULL)
            bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "mesh", file, node_line (uri), owner,
                                "%s", error->message);
        }
      }
      break;

    case BL_GEOMETRY_EMPTY:
    case BL_GEOMETRY_HEIGHTMAP:
    case BL_GEOMETRY_POLYLINE:
    case BL_GEOMETRY_IMAGE:
    default:
      break;
    }
}

/* ------------------------------------------------------------------------ */
/* Models                                                                    */

static const char *
nonempty (const char *s)
{
  return (s != NULL && *s != '\0') ? s : NULL;
}

static void parse_link_inertial (BlLink *link);

static BlLink *adopt_preparsed_link (BlDocument *self,
                                     BlModel    *model,
                                     xmlNode    *node);

static void rename_preparsed_link (BlDocument *self,
                                   BlLink     *link,
                                   const char *name);

static BlModel *parse_model (LoadContext   *ctx,
                             xmlNode       *node,
                             BlModel       *parent,
                             const char    *file,
                             const char    *name_override,
                             int            depth,
                             BlFrameScope **scope_out);

static BlPose place_model (BlDocument   *doc,
                           BlModel      *model,
                           xmlNode      *include,
                           const char   *include_file,
                           BlFrameScope *scope,
                           BlPose        raw);
static BlModel *parse_include (LoadContext   *ctx,
                               xmlNode       *node,
                               BlModel       *parent,
                               const char    *file,
                               int            depth,
                               BlFrameScope **scope_out,
                               xmlNode      **pose_node_out,
                               gboolean      *has_static,
                               gboolean      *is_static);

static char *
scoped (BlModel    *model,
        const char *name)
{
  return g_strconcat (model->scoped_name, "::", name, NULL);
}

/* Memory for a link or a collision of the document: from the arena of a
 * read-only load, else from the heap (freed by bl_link_free and
 * bl_collision_free). */
static gpointer
doc_alloc0 (BlDocument *doc,
            gsize       size)
{
  return doc->arena != NULL ? bl_arena_alloc0 (doc->arena, size) : g_malloc0 (size);
}

/* The strings up to NULL joined, in the same memory as doc_alloc0. */
static char * G_GNUC_NULL_TERMINATED
doc_strjoin (BlDocument *doc,
             const char *first,
             ...)
{
  gsize length = 0;
  const char *part;
  char *out, *p;
  va_list args;

  va_start (args, first);
  for (part = first; part != NULL; part = va_arg (args, const char *))
    length += strlen (part);
  va_end (args);

  out = doc->arena != NULL ? bl_arena_alloc0 (doc->arena, length + 1) : g_malloc (length + 1);
  p = out;
  va_start (args, first);
  for (part = first; part != NULL; part = va_arg (args, const char *))
    {
      gsize n = strlen (part);

      memcpy (p, part, n);
      p += n;
    }
  va_end (args);
  *p = '\0';
  return out;
}

/* What the arena does not hold of a mesh collision: the strings of its
 * geometry, the mesh. */
static void
arena_collision_free (BlCollision *collision)
{
  g_free (collision->geometry.uri);
  g_free (collision->geometry.resolved_path);
  g_free (collision->geometry.submesh);
  g_free (collision->geometry.optimization);
  g_clear_pointer (&collision->mesh, bl_mesh_unref);
}

static void
arena_link_free (BlLink *link)
{
  g_clear_pointer (&link->collisions, g_ptr_array_unref);
  g_clear_pointer (&link->diagnostics, g_ptr_array_unref);
}

static GDestroyNotify
link_free_func (BlDocument *doc)
{
  return doc->arena != NULL ? (GDestroyNotify) arena_link_free : (GDestroyNotify) bl_link_free;
}

static BlLink *
parse_link (BlDocument *doc,
            BlModel    *model,
            xmlNode    *node,
            const char *name)
{
  BlLink *link = doc_alloc0 (doc, sizeof (BlLink));

  link->name = doc_strjoin (doc, name, NULL);
  link->scoped_name = doc_strjoin (doc, model->scoped_name, "::", name, NULL);
  link->model = model;
  link->file = model->file;
  link->node = node;
  link->line = node_line (node);
  /* In the arena, only mesh collisions hold memory of their own; those are
   * in doc->mesh_collisions, so the others are never visited to be freed. */
  link->collisions = g_ptr_array_new_with_free_func (doc->arena != NULL
                                                     ? NULL
                                                     : (GDestroyNotify) bl_collision_free);
  link->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);

  return link;
}

/* Adds name to the names of a link's collisions; FALSE when it was there.
 * A few names are compared one by one, more go to a hash table. */
#define FEW_NAMES 16

static gboolean
add_collision_name (const char  *seen[FEW_NAMES],
                    guint       *n_seen,
                    GHashTable **table,
                    const char  *name)
{
  if (*table == NULL)
    {
      for (guint i = 0; i < *n_seen; i++)
        if (strcmp (seen[i], name) == 0)
          return FALSE;
      if (*n_seen < FEW_NAMES)
        {
          seen[(*n_seen)++] = name;
          return TRUE;
        }
      *table = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < *n_seen; i++)
        g_hash_table_add (*table, (gpointer) seen[i]);
    }
  return g_hash_table_add (*table, (gpointer) name);
}

static void
parse_link_collisions (BlDocument   *doc,
                       BlLink       *link,
                       BlFrameScope *scope,
                       const char   *base_dir)
{
  const char *seen[FEW_NAMES];
  guint n_seen = 0;
  g_autoptr(GHashTable) names = NULL;
  BlPose link_inverse = bl_pose_inverse (link->pose);

  for (xmlNode *child = link->node->children; child != NULL; child = child->next)
    {
      BlCollision *collision;
      g_autofree char *relative_to = NULL;
      g_auto(BlXmlString) name_owned = NULL;
      const char *owner, *name;
      BlPose raw;

      if (!bl_xml_is_element (child, "collision"))
        continue;

      collision = doc_alloc0 (doc, sizeof (BlCollision));
      collision->link = link;
      collision->node = child;
      collision->line = node_line (child);
      name = attribute_peek (child, "name", &name_owned);
      if (name == NULL)
        {
          char generated[32];

          g_snprintf (generated, sizeof generated, "collision_%u", link->collisions->len);
          collision->name = doc_strjoin (doc, generated, NULL);
          bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "name", link->file,
                              collision->line, link->scoped_name,
                              "a <collision> has no name; shown as “%s”", collision->name);
        }
      else
        {
          collision->name = doc_strjoin (doc, name, NULL);
          if (!add_collision_name (seen, &n_seen, &names, collision->name))
            bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "name", link->file,
                                collision->line, link->scoped_name,
                                "two collisions are named “%s”", collision->name);
        }

      collision->path = doc_strjoin (doc, link->scoped_name, "/collision[", collision->name, "]", NULL);
      owner = collision->path;
      raw = parse_pose (bl_xml_first_child (child, "pose"), owner, link->file,
                        link->diagnostics, &relative_to);

      if (relative_to == NULL || strcmp (relative_to, link->name) == 0)
        {
          collision->pose = raw;
        }
      else
        {
          BlPose frame;

          if (bl_frame_scope_resolve (scope, relative_to, link->diagnostics, owner, collision->line, &frame))
            collision->pose = bl_pose_mul (link_inverse, bl_pose_mul (frame, raw));
          else
            collision->pose = raw;
        }

      parse_geometry (collision, link->diagnostics, base_dir);
      if (doc->arena != NULL && collision->geometry.type == BL_GEOMETRY_MESH)
        g_ptr_array_add (doc->mesh_collisions, collision);
      g_ptr_array_add (link->collisions, collision);
    }
}

/* "1.10" → 10; an absent or unknown version reads as the newest, 12. */
static guint
sdf_minor_version (const char *version)
{
  guint64 minor;

  if (version == NULL || !g_str_has_prefix (version, "1.") ||
      !g_ascii_string_to_unsigned (version + 2, 10, 0, 99, &minor, NULL))
    return 12;

  return (guint) minor;
}

static void
report_version_features (BlDocument *doc,
                         BlLink     *link)
{
  guint version = doc->sdf_minor;
  gboolean needs_1_11 = link->auto_inertia || link->has_density;

  for (guint i = 0; i < link->collisions->len && !needs_1_11; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);

      needs_1_11 = collision->has_density || collision->geometry.type == BL_GEOMETRY_CONE;
    }

  if (needs_1_11 && version < 11)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "version", link->file, link->line,
                        link->scoped_name,
                        "uses automatic inertia, densities or cones (SDF 1.11) in a file that "
                        "declares %s; read as libsdformat 15 does", doc->sdf_version);
  else if (link->has_added_mass && version < 10)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "version", link->file, link->line,
                        link->scoped_name,
                        "has <fluid_added_mass> (SDF 1.10) in a file that declares %s; "
                        "read as libsdformat 15 does", doc->sdf_version);
}

/* One child element of a model as parse_model reads it: its own, or one
 * an <include merge="true"> brought from another file (libsdformat 15's
 * merge-include: no model scope of its own, names unchanged). */
typedef struct
{
  xmlNode    *node;
  const char *file;          /* the file the element is in */
  const char *proxy;         /* merged: the frame standing for the included
                              * model's __model__, else NULL */
  char       *merged_frame;  /* a merge <include> (node): the name of its proxy frame */
  xmlNode    *pose_node;     /* merged_frame: the <include>'s <pose>, else the model's */
  const char *pose_file;     /* the file pose_node is in */
  xmlNode    *included;      /* merged_frame: the included <model> */
  const char *included_file; /* the file it is in */
} ModelChild;

static void include_failed (BlDocument  *doc,
                            xmlNode     *include,
                            const char  *code,
                            const char  *file,
                            int          line,
                            const char  *owner,
                            const char  *uri,
                            GPtrArray   *searched,
                            const char  *format,
                            ...) G_GNUC_PRINTF (9, 10);
/* An <include> with a <placement_frame> needs a <pose> to place it at:
 * TRUE, with the include's failure recorded, when it has none
 * (libsdformat refuses it too). */
static gboolean
placement_without_pose (BlDocument *doc,
                        xmlNode    *include,
                        const char *file,
                        const char *owner)
{
  xmlNode *placement = bl_xml_first_child (include, "placement_frame");

  if (placement == NULL || bl_xml_first_child (include, "pose") != NULL)
    return FALSE;
  include_failed (doc, include, "include", file, node_line (placement), owner, NULL, NULL,
                  "<include> has a <placement_frame> but no <pose> to place it at "
                  "(libsdformat refuses it too); left out");
  return TRUE;
}

static gboolean load_include (LoadContext  *ctx,
                              xmlNode      *node,
                              const char   *file,
                              const char   *owner,
                              gboolean      merge,
                              const char  **sdf_path_out,
                              xmlNode     **model_out);

/* Whether a model or include NODE in MODEL (at DEPTH) would nest too
 * deep; says so when it would. */
static gboolean
too_deep (BlDocument *doc,
          xmlNode    *node,
          const char *file,
          BlModel    *model,
          int         depth)
{
  if (depth + 1 <= MAX_MODEL_DEPTH)
    return FALSE;
  bl_diagnostics_add (doc->diagnostics, BL_SEVERITY_ERROR, "depth", file, node_line (node),
                      model->scoped_name,
                      "models are nested more than %d deep; the deeper ones are not loaded",
                      MAX_MODEL_DEPTH);
  return TRUE;
}

static gboolean
is_merge_include (xmlNode *node)
{
  g_autofree char *merge = NULL;
  gboolean value = FALSE;

  if (!bl_xml_is_element (node, "include"))
    return FALSE;
  merge = bl_xml_dup_attribute (node, "merge");
  return merge != NULL && parse_bool (merge, &value) && value;
}

static void collect_model_children (LoadContext *ctx,
                                    BlModel     *model,
                                    xmlNode     *node,
                                    const char  *file,
                                    const char  *proxy,
                                    int          depth,
                                    GArray      *out);

/* An <include merge="true">: a proxy frame "_merged__NAME__model__" placed
 * where the included model would be (the include's <pose>, else the
 * model's, relative to __model__ unless it says otherwise), then the
 * included model's own children, whose __model__ (or empty relative_to,
 * attached_to) now means the proxy frame. */
static void
expand_merge_include (LoadContext *ctx,
                      BlModel     *model,
                      xmlNode     *include,
                      const char  *file,
                      const char  *proxy,
                      int          depth,
                      GArray      *out)
{
  BlDocument *doc = ctx->doc;
  xmlNode *name_node = bl_xml_first_child (include, "name");
  g_autofree char *name = NULL;
  const char *sdf_path;
  xmlNode *included;
  ModelChild item = { include, file, proxy, NULL, NULL, file, NULL, NULL };

  if (too_deep (doc, include, file, model, depth))
    return;

  if (placement_without_pose (doc, include, file, model->scoped_name))
    return;

  if (!load_include (ctx, include, file, model->scoped_name, TRUE, &sdf_path, &included))
    return;

  if (name_node != NULL)
    name = g_strstrip (bl_xml_dup_text (name_node));
  if (name == NULL || *name == '\0')
    {
      g_free (name);
      name = bl_xml_dup_attribute (included, "name");
    }
  item.merged_frame = g_strdup_printf ("_merged__%s__model__", name != NULL ? name : "");
  item.included = included;
  item.included_file = sdf_path;
  item.pose_node = bl_xml_first_child (include, "pose");
  if (item.pose_node == NULL)
    {
      item.pose_node = bl_xml_first_child (included, "pose");
      item.pose_file = sdf_path;
    }
  g_array_append_val (out, item);

  g_ptr_array_add (ctx->include_stack, g_strdup (sdf_path));
  collect_model_children (ctx, model, included, sdf_path, item.merged_frame, depth + 1, out);
  g_ptr_array_remove_index (ctx->include_stack, ctx->include_stack->len - 1);
}

static void
collect_model_children (LoadContext *ctx,
                        BlModel     *model,
                        xmlNode     *node,
                        const char  *file,
                        const char  *proxy,
                        int          depth,
                        GArray      *out)
{
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      ModelChild item = { child, file, proxy, NULL, NULL, NULL, NULL, NULL };

      if (!bl_xml_is_element (child, NULL))
        continue;
      if (is_merge_include (child))
        expand_merge_include (ctx, model, child, file, proxy, depth, out);
      else
        g_array_append_val (out, item);
    }
}

static void
model_child_clear (ModelChild *item)
{
  g_free (item->merged_frame);
}

static void
add_plugin_source (BlModel    *model,
                   xmlNode    *node,
                   const char *file)
{
  BlPluginSource source = { node, g_intern_string (file) };

  if (model->plugin_sources == NULL)
    model->plugin_sources = g_array_new (FALSE, FALSE, sizeof (BlPluginSource));
  g_array_append_val (model->plugin_sources, source);
}

/* In a merged element, the included model's frame is the proxy frame. */
static void
merge_frame_name (char       **name,
                  const char  *proxy,
                  gboolean     when_empty)
{
  if (proxy == NULL)
    return;
  if ((*name == NULL && when_empty) || (*name != NULL && strcmp (*name, "__model__") == 0))
    {
      g_free (*name);
      *name = g_strdup (proxy);
    }
}

/* A merged model with a placement frame: its proxy frame and the name
 * (//include/placement_frame, else the included model's @placement_frame). */
typedef struct
{
  BlFrameEntry *proxy;
  char         *frame;
  int           line;
} PlacedProxy;

static void
placed_proxy_clear (gpointer data)
{
  g_free (((PlacedProxy *) data)->frame);
}

/* The proxy frame of each merged model with a placement frame stands
 * where the include's pose puts the placement frame: its raw pose becomes
 * X_RPf · X_proxy,Pf⁻¹, X_proxy,Pf taken from the poses resolved as
 * written (the merged elements hang from the proxy), as libsdformat's
 * merge places it; then the scope is resolved again (its diagnostics were
 * said the first time). */
static void
place_merged_models (BlDocument   *doc,
                     BlModel      *model,
                     BlFrameScope *scope,
                     GArray       *placed)
{
  g_autoptr(GPtrArray) again = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);

  for (guint i = 0; i < placed->len; i++)
    {
      PlacedProxy *p = &g_array_index (placed, PlacedProxy, i);
      BlPose X_MPf;

      if (!bl_frame_scope_resolve (scope, p->frame, doc->diagnostics, model->scoped_name, p->line, &X_MPf))
        continue;
      p->proxy->raw = bl_pose_mul (p->proxy->raw,
                                   bl_pose_inverse (bl_pose_mul (bl_pose_inverse (p->proxy->pose), X_MPf)));
    }
  bl_frame_scope_unresolve (scope);
  bl_frame_scope_resolve_all (scope, again);
}

/* The first pass registers every frame of the scope; nested models and
 * includes are parsed depth first so that "nested::frame" resolves. */
static BlModel *
parse_model (LoadContext   *ctx,
             xmlNode       *node,
             BlModel       *parent,
             const char    *file,
             const char    *name_override,
             int            depth,
             BlFrameScope **scope_out)
{
  BlDocument *doc = ctx->doc;
  g_autofree char *name_attr = bl_xml_dup_attribute (node, "name");
  const char *name = name_override != NULL ? name_override : name_attr;
  g_autofree char *base_dir = g_path_get_dirname (file);
  BlModel *model;
  BlFrameScope *scope;
  GPtrArray *pending_links;
  GPtrArray *pending_files;  /* the file of each pending link */
  GArray *children;          /* ModelChild */
  GArray *placed_proxies = NULL; /* PlacedProxy: merged models with a placement frame */
  xmlNode *static_node;

  model = g_new0 (BlModel, 1);
  model->name = g_strdup (name != NULL ? name : "");
  model->scoped_name = parent != NULL ? scoped (parent, model->name) : g_strdup (model->name);
  model->parent = parent;
  model->node = node;
  model->file = g_strdup (file);
  model->line = node_line (node);
  model->links = g_ptr_array_new_with_free_func (link_free_func (doc));
  model->models = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_model_free);
  model->is_static = parent != NULL ? parent->is_static : FALSE;

  if (name == NULL || *name == '\0')
    bl_diagnostics_add (doc->diagnostics, BL_SEVERITY_ERROR, "name", file, model->line, "model",
                        "a <model> has no name");

  static_node = bl_xml_first_child (node, "static");
  if (static_node != NULL)
    {
      g_autofree char *text = bl_xml_dup_text (static_node);
      gboolean value;

      if (parse_bool (text, &value))
        model->is_static = value || model->is_static;
      else
        bl_diagnostics_add (doc->diagnostics, BL_SEVERITY_ERROR, "number", file, node_line (static_node),
                            model->scoped_name, "<static> is “%s”; expected true or false",
                            g_strstrip (text));
    }

  {
    g_autofree char *version = node->doc != NULL && xmlDocGetRootElement (node->doc) != NULL
                               ? bl_xml_dup_attribute (xmlDocGetRootElement (node->doc), "version") : NULL;

    scope = bl_frame_scope_new (model, sdf_minor_version (version));
  }
  pending_links = g_ptr_array_new ();
  pending_files = g_ptr_array_new ();
  children = g_array_new (FALSE, FALSE, sizeof (ModelChild));
  g_array_set_clear_func (children, (GDestroyNotify) model_child_clear);
  collect_model_children (ctx, model, node, file, NULL, depth, children);

  for (guint c = 0; c < children->len; c++)
    {
      ModelChild *item = &g_array_index (children, ModelChild, c);
      xmlNode *child = item->node;
      const char *child_file = item->file;
      g_auto(BlXmlString) name_owned = NULL;
      const char *child_name;
      BlFrameEntry *entry;

      if (item->merged_frame != NULL)
        {
          g_autofree char *owner = scoped (model, item->merged_frame);

          entry = bl_frame_scope_add (scope, BL_FRAME_FRAME, child, item->merged_frame, doc->diagnostics,
                                      model->scoped_name);
          if (entry == NULL)
            continue;
          entry->raw = parse_pose (item->pose_node, owner, item->pose_file, doc->diagnostics,
                                   &entry->relative_to);
          if (entry->relative_to == NULL)
            entry->relative_to = g_strdup ("__model__");
          merge_frame_name (&entry->relative_to, item->proxy, FALSE);
          {
            xmlNode *element = bl_xml_first_child (child, "placement_frame");
            PlacedProxy placed = { entry, NULL, element != NULL ? node_line (element) : node_line (item->included) };

            placed.frame = element != NULL ? g_strstrip (bl_xml_dup_text (element))
                                           : bl_xml_dup_attribute (item->included, "placement_frame");
            if (placed.frame != NULL && *placed.frame != '\0' && strcmp (placed.frame, "__model__") != 0)
              {
                if (placed_proxies == NULL)
                  {
                    placed_proxies = g_array_new (FALSE, FALSE, sizeof (PlacedProxy));
                    g_array_set_clear_func (placed_proxies, placed_proxy_clear);
                  }
                g_array_append_val (placed_proxies, placed);
              }
            else
              g_free (placed.frame);
          }
          add_plugin_source (model, child, child_file);
          add_plugin_source (model, item->included, item->included_file);
          continue;
        }

      if (strcmp ((const char *) child->name, "model") == 0 ||
          strcmp ((const char *) child->name, "include") == 0)
        {
          BlFrameScope *nested_scope = NULL;
          xmlNode *pose_node = NULL;
          BlModel *nested;
          gboolean has_static = FALSE, is_static = FALSE;

          if (too_deep (doc, child, child_file, model, depth))
            continue;

          if (strcmp ((const char *) child->name, "model") == 0)
            {
              nested = parse_model (ctx, child, model, child_file, NULL, depth + 1, &nested_scope);
              pose_node = bl_xml_first_child (child, "pose");
            }
          else
            {
              nested = parse_include (ctx, child, model, child_file, depth + 1, &nested_scope,
                                      &pose_node, &has_static, &is_static);
            }

          if (nested == NULL)
            continue;

          if (has_static)
            nested->is_static = is_static;

          entry = bl_frame_scope_add (scope, BL_FRAME_MODEL, child, nested->name, doc->diagnostics,
                                      model->scoped_name);
          if (entry != NULL)
            {
              entry->nested = nested_scope;
              entry->raw = parse_pose (pose_node, nested->scoped_name, child_file, doc->diagnostics,
                                       &entry->relative_to);
              entry->raw = place_model (doc, nested, child != nested->node ? child : NULL, child_file,
                                        nested_scope, entry->raw);
              merge_frame_name (&entry->relative_to, item->proxy, TRUE);
            }
          else
            {
              bl_frame_scope_free (nested_scope);
            }
          g_ptr_array_add (model->models, nested);
          continue;
        }

      if (doc->preparsed != NULL && child->_private != NULL)
        {
          /* read ahead, its attributes freed: the name read then */
          child_name = ((PreparsedLink *) child->_private)->link->name;
        }
      else
        child_name = attribute_peek (child, "name", &name_owned);

      if (strcmp ((const char *) child->name, "link") == 0)
        {
          entry = bl_frame_scope_add (scope, BL_FRAME_LINK, child, child_name, doc->diagnostics, model->scoped_name);
          if (entry == NULL)
            continue;
          g_ptr_array_add (pending_links, entry);
          g_ptr_array_add (pending_files, (gpointer) child_file);
        }
      else if (strcmp ((const char *) child->name, "frame") == 0)
        {
          entry = bl_frame_scope_add (scope, BL_FRAME_FRAME, child, child_name, doc->diagnostics, model->scoped_name);
          if (entry == NULL)
            continue;
          entry->implicit_base = bl_xml_dup_attribute (child, "attached_to");
          if (entry->implicit_base != NULL && *entry->implicit_base == '\0')
            g_clear_pointer (&entry->implicit_base, g_free);
          merge_frame_name (&entry->implicit_base, item->proxy, TRUE);
        }
      else if (strcmp ((const char *) child->name, "joint") == 0)
        {
          xmlNode *child_link = bl_xml_first_child (child, "child");

          entry = bl_frame_scope_add (scope, BL_FRAME_JOINT, child, child_name, doc->diagnostics, model->scoped_name);
          if (entry == NULL)
            continue;
          if (child_link != NULL)
            {
              entry->implicit_base = g_strstrip (bl_xml_dup_text (child_link));
              if (strcmp (entry->implicit_base, "world") == 0)
                g_clear_pointer (&entry->implicit_base, g_free);
              merge_frame_name (&entry->implicit_base, item->proxy, FALSE);
            }
        }
      else
        {
          continue;
        }

      {
        g_autofree char *owner = scoped (model, entry->name);

        entry->raw = parse_pose (bl_xml_first_child (child, "pose"), owner, child_file, doc->diagnostics,
                                 &entry->relative_to);
        /* a link's empty relative_to is its model's frame; a frame's and a
         * joint's are their attached_to and child, renamed above */
        merge_frame_name (&entry->relative_to, item->proxy, entry->kind == BL_FRAME_LINK);
      }
    }

  g_array_unref (children);

  /* Poses of everything in this scope, then the links' contents. */
  bl_frame_scope_resolve_all (scope, doc->diagnostics);
  if (placed_proxies != NULL)
    {
      place_merged_models (doc, model, scope, placed_proxies);
      g_array_unref (placed_proxies);
    }

  for (guint i = 0; i < model->models->len; i++)
    {
      BlModel *nested = g_ptr_array_index (model->models, i);
      BlFrameEntry *entry = bl_frame_scope_lookup (scope, nested->name);

      if (entry != NULL && entry->kind == BL_FRAME_MODEL)
        nested->pose = entry->pose;
    }

  for (guint i = 0; i < pending_links->len; i++)
    {
      BlFrameEntry *entry = g_ptr_array_index (pending_links, i);
      const char *link_file = g_ptr_array_index (pending_files, i);
      BlLink *link = adopt_preparsed_link (doc, model, entry->node);

      if (link != NULL)
        {
          if (strcmp (link->name, entry->name) != 0)
            rename_preparsed_link (doc, link, entry->name);
          link->pose = entry->pose;
        }
      else if (link_file != file)
        {
          /* merged from an included file: its meshes are beside that file */
          g_autofree char *link_dir = g_path_get_dirname (link_file);

          link = parse_link (doc, model, entry->node, entry->name);
          link->file = link_file;
          link->pose = entry->pose;
          parse_link_collisions (doc, link, scope, link_dir);
          link->n_load_diagnostics = link->diagnostics->len;
          if (doc->read_only)
            parse_link_inertial (link);
        }
      else
        {
          link = parse_link (doc, model, entry->node, entry->name);
          link->pose = entry->pose;
          parse_link_collisions (doc, link, scope, base_dir);
          link->n_load_diagnostics = link->diagnostics->len;
          /* a read-only load reads every link's inertial here (those read
           * ahead, before their subtrees were freed, too) */
          if (doc->read_only)
            parse_link_inertial (link);
        }
      g_ptr_array_add (model->links, link);
    }

  g_ptr_array_unref (pending_links);
  g_ptr_array_unref (pending_files);

  if (scope_out != NULL)
    *scope_out = scope;
  else
    bl_frame_scope_free (scope);

  return model;
}

/* Whether two paths name one file: the same string, or the same device
 * and inode (a path through a symbolic link to a folder, `here -> .`,
 * names the same file by ever longer strings). */
static gboolean
same_file_as (const char *a,
              const char *b)
{
  GStatBuf sa, sb;

  if (strcmp (a, b) == 0)
    return TRUE;
  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The total work of a document's includes is bounded: a file that
 * includes the next one twice, 19 deep, asks for 2^18 includes. Past
 * MAX_INCLUDES files (each include counted, the same file again too) or
 * MAX_INCLUDE_BYTES read, no further include is read, with one error. */
#define MAX_INCLUDES 10000
#define MAX_INCLUDE_BYTES ((guint64) BL_FILE_MAX_SIZE)

static gboolean
include_within_limits (LoadContext *ctx,
                       const char  *file,
                       int          line,
                       const char  *owner)
{
  if (ctx->n_includes < MAX_INCLUDES && ctx->include_bytes <= MAX_INCLUDE_BYTES)
    {
      ctx->n_includes++;
      return TRUE;
    }

  if (!ctx->include_limit_reported)
    bl_diagnostics_add (ctx->doc->diagnostics, BL_SEVERITY_ERROR, "include-limit", file, line, owner,
                        "the document includes more than %d files or %d MiB in all (the limit on "
                        "the work of includes); "
                        "this include and every later one are not loaded",
                        MAX_INCLUDES, (int) (MAX_INCLUDE_BYTES >> 20));
  ctx->include_limit_reported = TRUE;
  return FALSE;
}

static gboolean
count_include_bytes (LoadContext *ctx,
                     gsize        length,
                     GError     **error)
{
  ctx->include_bytes += length;
  if (ctx->include_bytes <= MAX_INCLUDE_BYTES)
    return TRUE;
  g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
               "the included files would exceed %d MiB in all", (int) (MAX_INCLUDE_BYTES >> 20));
  return FALSE;
}

static xmlDoc *read_xml (BlDocument  *self,
                         const char  *data,
                         gsize        length,
                         int          fd,
                         const char  *path,
                         GPtrArray   *diagnostics,
                         guint       *n_comments,
                         GError     **error);

/* An SDF version ("1.7", "1.12", "1.6.1") as a number that orders as
 * versions do (libsdformat compares them as semantic versions: 1.7 is
 * before 1.12), or -1 when it is not one. */
static gint64
sdf_version_key (const char *version)
{
  gint64 key = 0;
  char **parts = g_strsplit (version, ".", 4);
  guint n = g_strv_length (parts);

  for (guint i = 0; i < 3; i++)
    {
      guint64 number = 0;

      if (i < n && !g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, 9999, &number, NULL))
        {
          key = -1;
          break;
        }
      key = key * 10000 + (gint64) number;
    }
  if (n == 0 || n > 3)
    key = -1;
  g_strfreev (parts);
  return key;
}

/* model.config names the SDF file; prefer the newest version we read. */
static char *
find_model_sdf (const char *dir)
{
  g_autofree char *config = g_build_filename (dir, "model.config", NULL);
  g_autofree char *config_text = NULL;
  gsize config_length = 0;
  xmlDoc *xml = NULL;
  char *best = NULL;
  gint64 best_version = -1;

  /* bl_file_read: a FIFO in place of model.config must not hang us; read
   * as TinyXML2 reads it (gz-common's and libsdformat's reader): blank
   * lines before <?xml, "--" in a comment */
  if (bl_file_read (config, BL_FILE_MAX_SIZE, &config_text, &config_length, NULL) &&
      config_length <= G_MAXINT)
    {
      guint n_comments = 0;  /* model.config's own, under the same limit */

      xml = read_xml (NULL, config_text, config_length, -1, config, NULL, &n_comments, NULL);
    }
  if (xml != NULL)
    {
      xmlNode *root = xmlDocGetRootElement (xml);

      for (xmlNode *child = root != NULL ? root->children : NULL; child != NULL; child = child->next)
        {
          g_autofree char *version = NULL;
          g_autofree char *text = NULL;
          gint64 v;

          if (!bl_xml_is_element (child, "sdf"))
            continue;

          version = bl_xml_dup_attribute (child, "version");
          text = g_strstrip (bl_xml_dup_text (child));
          v = version != NULL ? sdf_version_key (version) : 0;
          if (*text != '\0' && v >= 0 && v <= sdf_version_key ("1.12") && v > best_version)
            {
              g_free (best);
              best = g_build_filename (dir, text, NULL);
              best_version = v;
            }
        }
      xmlFreeDoc (xml);
    }

  if (best == NULL)
    {
      char *fallback = g_build_filename (dir, "model.sdf", NULL);

      if (g_file_test (fallback, G_FILE_TEST_IS_REGULAR))
        return fallback;
      g_free (fallback);
    }

  return best;
}

static void
include_failure_free (BlIncludeFailure *failure)
{
  g_free (failure->uri);
  g_free (failure->name);
  g_free (failure->file);
  g_free (failure->message);
  g_strfreev (failure->searched);
  g_free (failure);
}


/* Records an include that failed: its diagnostic and its BlIncludeFailure. */
static void
include_failed (BlDocument  *doc,
                xmlNode     *include,
                const char  *code,
                const char  *file,
                int          line,
                const char  *owner,
                const char  *uri,
                GPtrArray   *searched,
                const char  *format,
                ...)
{
  BlIncludeFailure *failure = g_new0 (BlIncludeFailure, 1);
  g_autoptr(GStrvBuilder) folders = g_strv_builder_new ();
  va_list args;

  va_start (args, format);
  failure->message = g_strdup_vprintf (format, args);
  va_end (args);
  failure->problem = BL_INCLUDE_UNUSABLE;
  failure->include = include;
  failure->uri = g_strdup (uri != NULL ? uri : "");
  failure->file = g_strdup (file);
  failure->line = line;
  for (guint i = 0; searched != NULL && i < searched->len; i++)
    g_strv_builder_add (folders, g_ptr_array_index (searched, i));
  failure->searched = g_strv_builder_end (folders);
  failure->count = 1;

  /* The same URI failing the same way again adds no diagnostic of its
   * own: the first one's names it (group_include_failures). */
  if (uri != NULL && *uri != '\0')
    {
      char *key = g_strconcat (uri, "\n", failure->message, NULL);
      BlIncludeFailure *first;

      if (doc->include_firsts == NULL)
        {
          doc->include_firsts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          doc->include_diagnostic = g_hash_table_new (g_direct_hash, g_direct_equal);
        }
      first = g_hash_table_lookup (doc->include_firsts, key);
      if (first != NULL)
        {
          g_free (key);
          failure->same_as = first;
          failure->count = 0;
          first->count++;
          g_ptr_array_add (doc->include_failures, failure);
          return;
        }
      g_hash_table_insert (doc->include_firsts, key, failure);
      g_hash_table_insert (doc->include_diagnostic, failure, GUINT_TO_POINTER (doc->diagnostics->len + 1));
    }

  bl_diagnostics_add (doc->diagnostics, BL_SEVERITY_ERROR, code, file, line, owner, "%s", failure->message);
  g_ptr_array_add (doc->include_failures, failure);
}

/* The place of a repeated include failure, as the first one's message
 * names it: "line 30" in the same file, "other.sdf line 3" in another. */
static void
append_failure_place (GString                *out,
                      const BlIncludeFailure *first,
                      const BlIncludeFailure *repeat)
{
  if (g_strcmp0 (first->file, repeat->file) == 0)
    {
      g_string_append_printf (out, "line %d", repeat->line);
    }
  else
    {
      g_autofree char *name = g_path_get_basename (repeat->file);

      g_string_append_printf (out, "%s line %d", name, repeat->line);
    }
}

#define FEW_FAILURE_PLACES 5

static void
string_free_all (gpointer string)
{
  g_string_free (string, TRUE);
}

/* After loading: the diagnostic of each URI that failed more than once
 * names how many includes of it failed, and where the others are (the
 * first few), and its failure the same message.  One pass over the
 * failures: a world may hold thousands. */
static void
group_include_failures (BlDocument *doc)
{
  g_autoptr(GHashTable) messages = NULL;  /* first → GString, its message so far */
  g_autoptr(GHashTable) listed = NULL;    /* first → places listed in it */

  if (doc->include_firsts == NULL)
    return;
  messages = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, string_free_all);
  listed = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < doc->include_failures->len; i++)
    {
      const BlIncludeFailure *repeat = g_ptr_array_index (doc->include_failures, i);
      const BlIncludeFailure *first = repeat->same_as;
      GString *message;
      guint n;

      if (first == NULL)
        continue;
      message = g_hash_table_lookup (messages, first);
      if (message == NULL)
        {
          message = g_string_new (first->message);
          g_string_append_printf (message, " (%u includes of “%s” failed alike: the first here, line %d; then ",
                                  first->count, first->uri, first->line);
          g_hash_table_insert (messages, (gpointer) first, message);
        }
      n = GPOINTER_TO_UINT (g_hash_table_lookup (listed, first));
      if (n < FEW_FAILURE_PLACES)
        {
          if (n > 0)
            g_string_append (message, ", ");
          append_failure_place (message, first, repeat);
          g_hash_table_insert (listed, (gpointer) first, GUINT_TO_POINTER (n + 1));
        }
    }

  for (guint i = 0; i < doc->include_failures->len; i++)
    {
      BlIncludeFailure *first = g_ptr_array_index (doc->include_failures, i);
      GString *message = g_hash_table_lookup (messages, first);
      guint index;
      BlDiagnostic *d;

      if (message == NULL)
        continue;
      if (first->count - 1 > FEW_FAILURE_PLACES)
        g_string_append_printf (message, " and %u more", first->count - 1 - FEW_FAILURE_PLACES);
      g_string_append_c (message, ')');

      index = GPOINTER_TO_UINT (g_hash_table_lookup (doc->include_diagnostic, first)) - 1;
      d = g_ptr_array_index (doc->diagnostics, index);
      g_ptr_array_index (doc->diagnostics, index) =
        bl_diagnostic_new (d->severity, d->code, d->file, d->line, d->element, "%s", message->str);
      bl_diagnostic_free (d);
      g_free (first->message);
      first->message = g_strdup (message->str);
    }
  g_clear_pointer (&doc->include_firsts, g_hash_table_unref);
  g_clear_pointer (&doc->include_diagnostic, g_hash_table_unref);
}

/* The file an <include> names, read: its path (interned: links and models
 * keep it) and its top-level <model>, or NULL (and no failure) for a file
 * holding only a <light> or an <actor>, which libsdformat includes and
 * which have no mass, unless MERGE: merging one is an error (libsdformat's
 * too). FALSE after a failure is recorded. */
static gboolean
load_include (LoadContext  *ctx,
              xmlNode      *node,
              const char   *file,
              const char   *owner,
              gboolean      merge,
              const char  **sdf_path_out,
              xmlNode     **model_out)
{
  BlDocument *doc = ctx->doc;
  g_autofree char *base_dir = g_path_get_dirname (file);
  g_autofree char *uri = NULL;
  g_autofree char *target = NULL;
  g_autofree char *sdf_path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) searched = g_ptr_array_new_with_free_func (g_free);
  xmlNode *uri_node = bl_xml_first_child (node, "uri");
  xmlNode *root;
  xmlDoc *xml;
  gsize length;
  int line;

  if (uri_node == NULL)
    {
      include_failed (doc, node, "include", file, node_line (node), owner, NULL, NULL,
                      "<include> has no <uri>");
      return FALSE;
    }
  uri = g_strstrip (bl_xml_dup_text (uri_node));
  line = node_line (uri_node);
  if (*uri == '\0')
    {
      include_failed (doc, node, "include", file, line, owner, NULL, NULL,
                      "<include> has an empty <uri>");
      return FALSE;
    }

  target = bl_resource_resolve_include (uri, base_dir, searched, &error);
  if (target == NULL)
    {
      BlIncludeFailure *failure;

      include_failed (doc, node, "include", file, line, owner, uri, searched,
                      "cannot include “%s”: %s", uri, error->message);
      failure = g_ptr_array_index (doc->include_failures, doc->include_failures->len - 1);
      if (g_error_matches (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND))
        {
          failure->name = bl_resource_dup_include_name (uri);
          failure->problem = g_ascii_strncasecmp (uri, "http", 4) == 0
                             ? BL_INCLUDE_NOT_IN_FUEL_CACHE : BL_INCLUDE_NOT_FOUND;
        }
      return FALSE;
    }

  if (g_file_test (target, G_FILE_TEST_IS_DIR))
    {
      sdf_path = find_model_sdf (target);
      if (sdf_path == NULL)
        {
          include_failed (doc, node, "include", file, line, owner, uri, NULL,
                          "cannot include “%s”: %s has no model.config naming an SDF file, "
                          "and no model.sdf", uri, target);
          return FALSE;
        }
    }
  else
    {
      sdf_path = g_steal_pointer (&target);
    }

  for (guint i = 0; i < ctx->include_stack->len; i++)
    {
      if (same_file_as (g_ptr_array_index (ctx->include_stack, i), sdf_path))
        {
          include_failed (doc, node, "include-cycle", file, line, owner, uri, NULL,
                          "including “%s” again would never end (include cycle through %s)",
                          uri, sdf_path);
          return FALSE;
        }
    }

  if (!include_within_limits (ctx, file, line, owner))
    return FALSE;

  if (!bl_file_read (sdf_path, BL_FILE_MAX_SIZE, &contents, &length, &error) ||
      !count_include_bytes (ctx, length, &error) ||
      (xml = read_xml (NULL, contents, length, -1, sdf_path, doc->diagnostics, &ctx->n_comments,
                       &error)) == NULL)
    {
      include_failed (doc, node, "include", file, line, owner, uri, NULL,
                      "cannot include “%s”: %s", uri, error->message);
      return FALSE;
    }
  g_ptr_array_add (doc->included_xml, xml);

  root = xmlDocGetRootElement (xml);
  *sdf_path_out = g_intern_string (sdf_path);
  *model_out = root != NULL && bl_xml_is_element (root, "sdf") ? bl_xml_first_child (root, "model") : NULL;
  if (*model_out == NULL &&
      (root == NULL || !bl_xml_is_element (root, "sdf") ||
       (bl_xml_first_child (root, "light") == NULL && bl_xml_first_child (root, "actor") == NULL)))
    {
      include_failed (doc, node, "include", file, line, owner, uri, NULL,
                      "cannot include “%s”: %s has no <sdf><model> (nor a <light> or <actor>)",
                      uri, sdf_path);
      return FALSE;
    }
  if (*model_out != NULL)
    bl_include_params_apply (node, *model_out, file, owner, doc->diagnostics, &ctx->params_budget);
  if (*model_out == NULL && merge)
    {
      include_failed (doc, node, "include", file, line, owner, uri, NULL,
                      "cannot merge “%s”: %s holds no <model>, and merge=\"true\" is only "
                      "defined for included models (libsdformat refuses it too)", uri, sdf_path);
      return FALSE;
    }

  return TRUE;
}

static BlModel *
parse_include (LoadContext   *ctx,
               xmlNode       *node,
               BlModel       *parent,
               const char    *file,
               int            depth,
               BlFrameScope **scope_out,
               xmlNode      **pose_node_out,
               gboolean      *has_static,
               gboolean      *is_static)
{
  g_autofree char *name = NULL;
  const char *owner = parent != NULL ? parent->scoped_name : "world";
  xmlNode *name_node = bl_xml_first_child (node, "name");
  xmlNode *static_node = bl_xml_first_child (node, "static");
  xmlNode *model_node;
  const char *sdf_path;
  BlModel *model;

  *pose_node_out = bl_xml_first_child (node, "pose");

  if (placement_without_pose (ctx->doc, node, file, owner))
    return NULL;

  if (!load_include (ctx, node, file, owner, FALSE, &sdf_path, &model_node) || model_node == NULL)
    return NULL;

  if (name_node != NULL)
    name = g_strstrip (bl_xml_dup_text (name_node));

  if (static_node != NULL)
    {
      g_autofree char *text = bl_xml_dup_text (static_node);

      *has_static = parse_bool (text, is_static);
    }

  g_ptr_array_add (ctx->include_stack, g_strdup (sdf_path));
  model = parse_model (ctx, model_node, parent, sdf_path, nonempty (name), depth, scope_out);
  g_ptr_array_remove_index (ctx->include_stack, ctx->include_stack->len - 1);
  /* <include><plugin> is the included model's (libsdformat puts it there) */
  add_plugin_source (model, node, file);

  /* Without an <include><pose>, the included model keeps its own. */
  if (*pose_node_out == NULL)
    *pose_node_out = bl_xml_first_child (model_node, "pose");

  return model;
}

/* SDF 1.8's placement frame: //include/placement_frame, else
 * //model/@placement_frame of `model` (read into `scope`).  The model's
 * pose `raw` (X_RPf) then places that frame, not the model frame, and the
 * model frame is X_RM = X_RPf · X_MPf⁻¹, X_MPf resolved in the model's own
 * frames, as libsdformat's resolveModelPoseWithPlacementFrame computes it.
 * Without a placement frame, or when it cannot be resolved (an error in
 * the diagnostics), `raw` as it is. */
static BlPose
place_model (BlDocument   *doc,
             BlModel      *model,
             xmlNode      *include,
             const char   *include_file,
             BlFrameScope *scope,
             BlPose        raw)
{
  xmlNode *element = include != NULL ? bl_xml_first_child (include, "placement_frame") : NULL;
  g_autofree char *frame = NULL;
  const char *file = model->file;
  int line = model->line;
  BlPose X_MPf;

  if (element != NULL)
    {
      frame = g_strstrip (bl_xml_dup_text (element));
      file = include_file;
      line = node_line (element);
    }
  else if (model->node != NULL)
    {
      frame = bl_xml_dup_attribute (model->node, "placement_frame");
    }
  if (frame == NULL || *frame == '\0' || scope == NULL)
    return raw;

  if (strstr (frame, "::") == NULL && strcmp (frame, "__model__") != 0 &&
      bl_frame_scope_lookup (scope, frame) == NULL)
    {
      bl_diagnostics_add (doc->diagnostics, BL_SEVERITY_ERROR, "frame", file, line, model->scoped_name,
                          "the placement frame “%s” is not a link, frame, joint or nested model of "
                          "“%s”; the model is placed by its own frame", frame, model->scoped_name);
      return raw;
    }
  if (!bl_frame_scope_resolve (scope, frame, doc->diagnostics, model->scoped_name, model->line, &X_MPf))
    return raw;
  return bl_pose_mul (raw, bl_pose_inverse (X_MPf));
}

/* ------------------------------------------------------------------------ */
/* Document                                                                  */

static void
collect_links (BlDocument *self,
               BlModel    *model,
               BlPose      parent_world)
{
  model->world_pose = bl_pose_mul (parent_world, model->pose);

  for (guint i = 0; i < model->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (model->links, i);

      link->world_pose = bl_pose_mul (model->world_pose, link->pose);
      g_ptr_array_add (self->links, link);
      if (!g_hash_table_insert (self->links_by_name, link->scoped_name, link))
        bl_diagnostics_add (self->diagnostics, BL_SEVERITY_WARNING, "name", model->file, link->line,
                            link->scoped_name, "two links are named “%s”", link->scoped_name);
    }

  for (guint i = 0; i < model->models->len; i++)
    collect_links (self, g_ptr_array_index (model->models, i), model->world_pose);
}

/* Re-reads the link's <inertial> and densities from the tree unless
 * `parsed` (a read-only load read them before pruning the tree). */
static void
parse_link_inertial (BlLink *link)
{
  g_ptr_array_set_size (link->diagnostics, link->n_load_diagnostics);
  parse_inertial (link, link->diagnostics);
  for (guint i = 0; i < link->collisions->len; i++)
    parse_collision_density (g_ptr_array_index (link->collisions, i), link->diagnostics);
}

static void
compute_link (BlDocument *self,
              BlLink     *link,
              gboolean    parsed)
{
  if (!parsed)
    parse_link_inertial (link);
  report_version_features (self, link);
  bl_link_compute_mass_properties (link);
  bl_document_check_link_fluid (self, link);
}

/* ------------------------------------------------------------------------ */
/* Reading the XML                                                           */


/* In the arena with its link: frees what the arena does not hold of a
 * link never adopted, and (when the tree is still there) forgets it in
 * its node. */
static void
preparsed_link_free (BlDocument    *self,
                     PreparsedLink *preparsed)
{
  if (preparsed->link == NULL)
    return;
  arena_link_free (g_steal_pointer (&preparsed->link));
  if (self->xml != NULL)
    preparsed->node->_private = NULL;
}

static void
clear_preparsed (BlDocument *self)
{
  if (self->preparsed == NULL)
    return;
  for (guint i = 0; i < self->preparsed->len; i++)
    preparsed_link_free (self, g_ptr_array_index (self->preparsed, i));
  g_clear_pointer (&self->preparsed, g_ptr_array_unref);
}

/* The scoped name parse_model will give the <model> element `node` of the
 * main file: its name and those of the enclosing models, joined by "::". */
static char *
expected_scoped_name (xmlNode *node)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) scoped = g_string_new (NULL);

  for (xmlNode *model = node; model != NULL && bl_xml_is_element (model, "model"); model = model->parent)
    {
      char *name = bl_xml_dup_attribute (model, "name");

      g_ptr_array_add (names, name != NULL ? name : g_strdup (""));
    }

  for (guint i = names->len; i-- > 0;)
    {
      g_string_append (scoped, g_ptr_array_index (names, i));
      if (i > 0)
        g_string_append (scoped, "::");
    }

  return g_string_free (g_steal_pointer (&scoped), FALSE);
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
 * then frees the subtree but for what the frame graph and the diagnostics
 * still look at: the first <pose>, and <inertial> and <fluid_added_mass>
 * without their contents.  A link with a collision placed relative_to
 * another frame keeps its subtree and is read the usual way later. */
static void
preparse_link (BlDocument *self,
               xmlNode    *node)
{
  g_auto(BlXmlString) name_owned = NULL;
  const char *name = attribute_peek (node, "name", &name_owned);
  PreparsedLink *preparsed;
  BlLink *link;

  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      xmlNode *pose;
      g_auto(BlXmlString) relative_to_owned = NULL;
      const char *relative_to, *end;

      if (!bl_xml_is_element (child, "collision") || (pose = bl_xml_first_child (child, "pose")) == NULL)
        continue;
      relative_to = attribute_peek (pose, "relative_to", &relative_to_owned);
      if (relative_to == NULL)
        continue;
      /* stripped, as parse_pose reads it */
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
      BlModel *proto = self->protos->len > 0 ? g_ptr_array_index (self->protos, self->protos->len - 1) : NULL;

      /* One stand-in per <model> element (its node kept in proto->node). */
      if (proto == NULL || proto->node != node->parent)
        {
          proto = g_new0 (BlModel, 1);
          proto->node = node->parent;
          proto->scoped_name = expected_scoped_name (node->parent);
          proto->file = g_strdup (self->path);
          g_ptr_array_add (self->protos, proto);
        }
      preparsed = bl_arena_alloc0 (self->arena, sizeof (PreparsedLink));
      preparsed->proto = proto;

      link = parse_link (self, preparsed->proto, node, name);
      parse_link_collisions (self, link, NULL, self->base_dir);
      link->n_load_diagnostics = link->diagnostics->len;
      parse_link_inertial (link);
      for (guint i = 0; i < link->collisions->len; i++)
        {
          BlCollision *collision = g_ptr_array_index (link->collisions, i);

          collision->node = NULL;
          collision->geometry.node = NULL;
        }
      preparsed->link = link;
      preparsed->node = node;
      g_ptr_array_add (self->preparsed, preparsed);
      node->_private = preparsed;

      free_children_except (node, bl_xml_first_child (node, "pose"), link->inertial_node);
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
static BlLink *
adopt_preparsed_link (BlDocument *self,
                      BlModel    *model,
                      xmlNode    *node)
{
  PreparsedLink *preparsed;
  BlLink *link;

  if (self->preparsed == NULL || node->_private == NULL)
    return NULL;

  preparsed = node->_private;
  node->_private = NULL;

  /* expected_scoped_name follows parse_model's naming */
  g_warn_if_fail (strcmp (preparsed->proto->scoped_name, model->scoped_name) == 0);
  g_warn_if_fail (strcmp (preparsed->proto->file, model->file) == 0);

  link = g_steal_pointer (&preparsed->link);
  link->model = model;
  link->file = model->file;

  return link;
}

/* A link read ahead under the name its file gives, renamed by
 * bl_frame_scope_add (before SDF 1.7): the name, and the element of each of
 * its diagnostics, as parse_link would have given them. */
static void
rename_preparsed_link (BlDocument *self,
                       BlLink     *link,
                       const char *name)
{
  g_autofree char *old_scoped = g_strdup (link->scoped_name);
  gsize old_length = strlen (old_scoped);

  link->name = doc_strjoin (self, name, NULL);
  link->scoped_name = doc_strjoin (self, link->model->scoped_name, "::", name, NULL);
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

/* libxml2 refuses these; TinyXML2, and so Gazebo, reads them.  "--"
 * inside a comment (gz-sim's own example worlds have it) and text
 * outside the root element never reach libxml2: bl-tinyxml-filter.c
 * rewrites them.  An XML declaration after blank lines: TinyXML2 keeps no
 * node for the blanks.  A declaration after a comment or an element stays
 * an error, as in TinyXML2. */
typedef enum
{
  FAULT_HYPHENS = BL_TINYXML_FAULT_HYPHENS,
  FAULT_OUTSIDE_ROOT = BL_TINYXML_FAULT_OUTSIDE_ROOT,
  FAULT_LATE_DECLARATION = BL_TINYXML_N_FAULTS,
  N_FAULTS
} XmlFault;

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

/* What one parse met: the first error that makes the file unreadable,
 * and the faults read past as TinyXML2 (libsdformat's reader) reads past
 * them. */
typedef struct
{
  BlDocument *self;          /* read-only loads: links are read as they end */
  const char *path;
  GPtrArray  *diagnostics;   /* where the faults read past go; may be NULL */
  gboolean    failed;
  gboolean    refused;       /* error_message is ours, not libxml2's */
  int         error_code;
  int         error_line;
  char       *error_message;
  int         fault_line[N_FAULTS];  /* the first of each fault read past */
  guint       fault_count[N_FAULTS];
  guint      *n_comments;    /* comments and PIs of the document so far */
  gboolean    over_limit;    /* refused for MAX_COMMENTS */
} ParseState;

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

static void
sax_start_element (void           *ctx,
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
  xmlNode *parent = ctxt->node;

  xmlSAX2StartElementNs (ctx, localname, prefix, uri, nb_namespaces, namespaces,
                         nb_attributes, nb_defaulted, attributes);
  /* libxml2 keeps at most 65535 in node->line; the element's psvi is
   * free outside schema validation, so the true line goes there. */
  if (ctxt->node != NULL && ctxt->node != parent && ctxt->input != NULL)
    ctxt->node->psvi = GINT_TO_POINTER (ctxt->input->line);
}

static void
sax_end_element (void          *ctx,
                 const xmlChar *localname,
                 const xmlChar *prefix,
                 const xmlChar *uri)
{
  xmlParserCtxt *ctxt = ctx;
  ParseState *state = ctxt->_private;
  BlDocument *self = state != NULL ? state->self : NULL;
  xmlNode *node = ctxt->node;

  /* the names are the parser's dictionary's: a pointer compare first */
  if (self != NULL && localname == self->link_tag && node != NULL &&
      bl_xml_is_element (node, "link") && link_is_reachable (node))
    preparse_link (self, node);

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

static gboolean
count_comment (xmlParserCtxt *ctxt)
{
  ParseState *state = ctxt->_private;

  if (state->failed)
    return FALSE;
  if (++*state->n_comments <= MAX_COMMENTS)
    return TRUE;
  state->failed = TRUE;
  state->refused = TRUE;
  state->over_limit = TRUE;
  state->error_line = ctxt->input != NULL ? ctxt->input->line : 0;
  state->error_message = g_strdup_printf ("more than %d comments and processing instructions (with the "
                                          "included files), the most Ballast reads; the file is not read",
                                          MAX_COMMENTS);
  xmlStopParser (ctxt);
  return FALSE;
}

static void
sax_comment (void          *ctx,
             const xmlChar *value)
{
  if (count_comment (ctx))
    xmlSAX2Comment (ctx, value);
}

static void
sax_processing_instruction (void          *ctx,
                            const xmlChar *target,
                            const xmlChar *data)
{
  if (count_comment (ctx))
    xmlSAX2ProcessingInstruction (ctx, target, data);
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

/* Parses data in place of xmlReadMemory, keeping true line numbers.  For
 * a read-only load (state->self set and read-only), links are read as
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
  BlDocument *self = state->self;
  const char *path = state->path;
  xmlParserCtxt *ctxt;
  xmlDoc *xml = NULL;

  if (self != NULL && self->read_only)
    {
      const gsize chunk = 256 * 1024;
      g_autofree char *buffer = fd >= 0 ? g_malloc (chunk) : NULL;
      g_autoptr(BlTinyxmlFilter) filter = bl_tinyxml_filter_new ();
      g_autoptr(GByteArray) filtered = g_byte_array_sized_new (chunk);

      ctxt = xmlCreatePushParserCtxt (NULL, NULL, NULL, 0, path);
      if (ctxt == NULL)
        return NULL;
      /* Short texts stored in the node: nothing here is ever written
       * back.  Blank text is kept, as the full load keeps it: an element
       * with elements inside (wrong, but possible) reads the same text. */
      xmlCtxtUseOptions (ctxt, XML_OPTIONS | XML_PARSE_COMPACT);
      ctxt->sax->startElementNs = sax_start_element;
      ctxt->sax->endElementNs = sax_end_element;
      ctxt->sax->serror = parse_error;
      ctxt->sax->entityDecl = sax_entity_decl;
      ctxt->sax->comment = sax_comment;
      ctxt->sax->processingInstruction = sax_processing_instruction;
      ctxt->_private = state;
      self->link_tag = xmlDictLookup (ctxt->dict, (const xmlChar *) "link", -1);

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
          g_byte_array_set_size (filtered, 0);
          bl_tinyxml_filter_feed (filter, piece, (gsize) n, filtered);
          xmlParseChunk (ctxt, (const char *) filtered->data, (int) filtered->len, 0);
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
    }
  else
    {
      g_autoptr(GByteArray) filtered = NULL;

      *read_length = length;
      if (length == 0)
        return NULL;
      {
        g_autoptr(BlTinyxmlFilter) filter = bl_tinyxml_filter_new ();

        filtered = g_byte_array_sized_new ((guint) length);
        bl_tinyxml_filter_feed (filter, data, length, filtered);
        bl_tinyxml_filter_finish (filter, filtered);
        take_filter_faults (state, filter);
        data = (const char *) filtered->data;
        g_assert (filtered->len == length);
      }
      ctxt = xmlNewParserCtxt ();
      if (ctxt == NULL)
        return NULL;
      ctxt->sax->startElementNs = sax_start_element;
      ctxt->sax->serror = parse_error;
      ctxt->sax->entityDecl = sax_entity_decl;
      ctxt->sax->comment = sax_comment;
      ctxt->sax->processingInstruction = sax_processing_instruction;
      ctxt->_private = state;
      xml = xmlCtxtReadMemory (ctxt, data, (int) length, path, NULL, XML_OPTIONS | XML_PARSE_COMPACT);
      xmlFreeParserCtxt (ctxt);
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

/* From data, or when fd ≥ 0 read from fd in pieces (read-only loads).
 * The faults read past as Gazebo reads past them are warnings in
 * diagnostics (may be NULL). */
static xmlDoc *
read_xml (BlDocument  *self,
          const char  *data,
          gsize        length,
          int          fd,
          const char  *path,
          GPtrArray   *diagnostics,
          guint       *n_comments,
          GError     **error)
{
  ParseState state = { self, path, diagnostics, FALSE, FALSE, 0, 0, NULL, { 0 }, { 0 }, n_comments };
  g_autoptr(GError) read_error = NULL;
  g_autofree char *message = NULL;
  xmlDoc *xml;

  if (fd < 0 && length > G_MAXINT)
    {
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
                   "%s: the file is too large", path);
      return NULL;
    }

  xml = parse_xml (&state, data, length, fd, &length, &read_error);
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
      else if (state.refused)
        g_set_error (error, BL_DOCUMENT_ERROR,
                     state.over_limit ? BL_DOCUMENT_ERROR_LIMIT : BL_DOCUMENT_ERROR_PARSE,
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

static void merge_into_world (LoadContext *ctx,
                              xmlNode     *include,
                              const char  *file,
                              BlPose       placement);

/* The world's frames: its <frame>s and models, by name, so that a model's
 * or a frame's pose may be relative_to another (libsdformat's world pose
 * graph); "world" is the scope's own frame. */
typedef struct
{
  BlModel       stand_in;  /* names the scope in messages */
  BlFrameScope *scope;
  GPtrArray    *models;    /* BlModel* placed through the scope... */
  GPtrArray    *entries;   /* ...and their entries */
} WorldFrames;

/* "world" in a world's relative_to or attached_to is the world frame. */
static void
world_frame_name (char **name)
{
  if (*name != NULL && (**name == '\0' || strcmp (*name, "world") == 0))
    g_clear_pointer (name, g_free);
}

/* A <model> or <include> of the world, placed in PLACEMENT (the proxy
 * frame of a merge-include into the world, else identity), or with
 * FRAMES (the world's own children) a <frame> of the world, and models
 * whose pose is resolved through the world's frames once all are read. */
static void
add_world_child (LoadContext *ctx,
                 xmlNode     *item,
                 const char  *file,
                 BlPose       placement,
                 WorldFrames *frames)
{
  BlDocument *self = ctx->doc;
  BlModel *model = NULL;
  BlFrameScope *scope = NULL;
  g_autofree char *relative_to = NULL;
  BlPose raw = BL_POSE_IDENTITY;

  if (bl_xml_is_element (item, "model"))
    {
      model = parse_model (ctx, item, NULL, file, NULL, 0, &scope);
      raw = place_model (self, model, NULL, file, scope,
                         parse_pose (bl_xml_first_child (item, "pose"), model->scoped_name,
                                     file, self->diagnostics, frames != NULL ? &relative_to : NULL));
    }
  else if (is_merge_include (item))
    {
      merge_into_world (ctx, item, file, placement);
    }
  else if (bl_xml_is_element (item, "include"))
    {
      xmlNode *pose_node = NULL;
      gboolean has_static = FALSE, is_static = FALSE;

      model = parse_include (ctx, item, NULL, file, 0, &scope, &pose_node,
                             &has_static, &is_static);
      if (model != NULL)
        {
          if (has_static)
            model->is_static = is_static;
          raw = place_model (self, model, item, file, scope,
                             parse_pose (pose_node, model->scoped_name, file, self->diagnostics,
                                         frames != NULL ? &relative_to : NULL));
        }
    }
  else if (frames != NULL && bl_xml_is_element (item, "frame"))
    {
      g_autofree char *name = bl_xml_dup_attribute (item, "name");
      BlFrameEntry *entry = bl_frame_scope_add (frames->scope, BL_FRAME_FRAME, item, name,
                                                self->diagnostics, "world");

      if (entry != NULL)
        {
          entry->implicit_base = bl_xml_dup_attribute (item, "attached_to");
          world_frame_name (&entry->implicit_base);
          entry->raw = parse_pose (bl_xml_first_child (item, "pose"), entry->name, file,
                                   self->diagnostics, &entry->relative_to);
          world_frame_name (&entry->relative_to);
        }
    }

  if (model == NULL)
    {
      bl_frame_scope_free (scope);
      return;
    }

  model->pose = bl_pose_mul (placement, raw);
  if (frames != NULL)
    {
      BlFrameEntry *entry = bl_frame_scope_add (frames->scope, BL_FRAME_MODEL, item, model->name,
                                                self->diagnostics, "world");

      /* a second model of that name (an error) stays placed as written */
      if (entry != NULL)
        {
          entry->nested = g_steal_pointer (&scope);
          entry->raw = raw;
          entry->relative_to = g_steal_pointer (&relative_to);
          world_frame_name (&entry->relative_to);
          g_ptr_array_add (frames->models, model);
          g_ptr_array_add (frames->entries, entry);
        }
    }
  bl_frame_scope_free (scope);
  g_ptr_array_add (self->models, model);
}

/* An <include merge="true"> directly in a <world>: as libsdformat 15, the
 * included model's models (and includes) become the world's, placed by its
 * proxy frame; its links cannot be (libsdformat refuses them too). */
static void
merge_into_world (LoadContext *ctx,
                  xmlNode     *include,
                  const char  *file,
                  BlPose       placement)
{
  BlDocument *self = ctx->doc;
  xmlNode *pose_node = bl_xml_first_child (include, "pose");
  const char *pose_file = file;
  const char *sdf_path;
  xmlNode *included;
  BlPose proxy;
  guint first = self->models->len;
  xmlNode *placement_node = bl_xml_first_child (include, "placement_frame");
  g_autofree char *placement_frame = NULL;

  if (placement_without_pose (self, include, file, "world") ||
      !load_include (ctx, include, file, "world", TRUE, &sdf_path, &included))
    return;
  if (pose_node == NULL)
    {
      pose_node = bl_xml_first_child (included, "pose");
      pose_file = sdf_path;
    }
  proxy = bl_pose_mul (placement, parse_pose (pose_node, "world", pose_file, self->diagnostics, NULL));

  g_ptr_array_add (ctx->include_stack, g_strdup (sdf_path));
  for (xmlNode *item = included->children; item != NULL; item = item->next)
    {
      if (bl_xml_is_element (item, "link"))
        {
          g_autofree char *name = bl_xml_dup_attribute (item, "name");

          bl_diagnostics_add (self->diagnostics, BL_SEVERITY_ERROR, "include", sdf_path, node_line (item),
                              "world", "<include merge=\"true\"> into a <world> cannot take the "
                              "included model's <link> “%s”: a world has no links of its own "
                              "(libsdformat refuses it too); left out", name != NULL ? name : "");
          continue;
        }
      add_world_child (ctx, item, sdf_path, proxy, NULL);
    }
  g_ptr_array_remove_index (ctx->include_stack, ctx->include_stack->len - 1);

  /* the placement frame lands where the proxy frame was */
  placement_frame = placement_node != NULL ? g_strstrip (bl_xml_dup_text (placement_node))
                                           : bl_xml_dup_attribute (included, "placement_frame");
  if (placement_frame != NULL && *placement_frame != '\0' && strcmp (placement_frame, "__model__") != 0 &&
      !bl_merge_placement_apply (self->models, first, proxy, placement_frame))
    bl_diagnostics_add (self->diagnostics, BL_SEVERITY_ERROR, "frame",
                        placement_node != NULL ? file : sdf_path,
                        placement_node != NULL ? node_line (placement_node) : node_line (included), "world",
                        "the placement frame “%s” is not a model, nested model or link merged into "
                        "the world; the merged models are placed by the include's pose", placement_frame);
}

static gboolean
bl_document_load (BlDocument  *self,
                  int          fd,
                  GError     **error)
{
  LoadContext ctx = { self, g_ptr_array_new_with_free_func (g_free) };
  const char *data = NULL;
  gsize length = 0;
  xmlNode *root;

  if (self->source != NULL)
    data = g_bytes_get_data (self->source, &length);
  if (self->read_only)
    {
      self->arena = bl_arena_new ();
      self->mesh_collisions = g_ptr_array_new_with_free_func ((GDestroyNotify) arena_collision_free);
      self->preparsed = g_ptr_array_new ();
      self->protos = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_model_free);
    }
  self->base_dir = g_path_get_dirname (self->path);
  self->xml = read_xml (self, data, length, fd, self->path, self->diagnostics, &ctx.n_comments, error);
  if (self->xml == NULL)
    {
      g_ptr_array_unref (ctx.include_stack);
      return FALSE;
    }

  root = xmlDocGetRootElement (self->xml);
  if (root != NULL && root->ns != NULL && strcmp ((const char *) root->name, "sdf") == 0)
    {
      /* "the root element is <sdf>, not <sdf>" said nothing */
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_NOT_SDF,
                   "%s:%d: the root element <sdf> is in the XML namespace “%s”; SDF's <sdf> is in "
                   "none: this is not an SDF file", self->path, node_line (root),
                   root->ns->href != NULL ? (const char *) root->ns->href : "");
      g_ptr_array_unref (ctx.include_stack);
      return FALSE;
    }
  if (root == NULL || !bl_xml_is_element (root, "sdf"))
    {
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_NOT_SDF,
                   "%s:%d: the root element is <%s>, not <sdf>: this is not an SDF file",
                   self->path, node_line (root), root != NULL ? (const char *) root->name : "");
      g_ptr_array_unref (ctx.include_stack);
      return FALSE;
    }

  self->sdf_version = bl_xml_dup_attribute (root, "version");
  self->loaded_sdf_version = g_strdup (self->sdf_version);
  self->sdf_minor = sdf_minor_version (self->sdf_version);
  if (self->sdf_version == NULL)
    {
      bl_diagnostics_add (self->diagnostics, BL_SEVERITY_WARNING, "version", self->path, node_line (root),
                          "sdf", "<sdf> has no version attribute; read as 1.12");
    }
  else
    {
      static const char * const known[] = {
        "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12",
      };
      gboolean ok = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (known); i++)
        ok |= strcmp (self->sdf_version, known[i]) == 0;
      if (!ok)
        bl_diagnostics_add (self->diagnostics, BL_SEVERITY_WARNING, "version", self->path, node_line (root),
                            "sdf", "SDF version “%s” is not one of 1.4 to 1.12; read as 1.12",
                            self->sdf_version);
    }

  g_ptr_array_add (ctx.include_stack, g_strdup (self->path));

  for (xmlNode *child = root->children; child != NULL; child = child->next)
    {
      if (bl_xml_is_element (child, "world"))
        {
          if (self->world == NULL)
            {
              self->world = child;
              check_gravity (self, child);
            }
          WorldFrames frames = { { 0 }, NULL, g_ptr_array_new (), g_ptr_array_new () };

          frames.stand_in.name = (char *) "world";
          frames.stand_in.scoped_name = (char *) "world";
          frames.stand_in.file = (char *) self->path;
          frames.scope = bl_frame_scope_new (&frames.stand_in, self->sdf_minor);
          for (xmlNode *item = child->children; item != NULL; item = item->next)
            add_world_child (&ctx, item, self->path, BL_POSE_IDENTITY, &frames);
          bl_frame_scope_resolve_all (frames.scope, self->diagnostics);
          for (guint i = 0; i < frames.models->len; i++)
            ((BlModel *) g_ptr_array_index (frames.models, i))->pose =
              ((BlFrameEntry *) g_ptr_array_index (frames.entries, i))->pose;
          bl_frame_scope_free (frames.scope);
          g_ptr_array_unref (frames.models);
          g_ptr_array_unref (frames.entries);
        }
      else if (bl_xml_is_element (child, "model"))
        {
          BlFrameScope *scope = NULL;
          BlModel *model = parse_model (&ctx, child, NULL, self->path, NULL, 0, &scope);

          model->pose = place_model (self, model, NULL, self->path, scope,
                                     parse_pose (bl_xml_first_child (child, "pose"), model->scoped_name,
                                                 self->path, self->diagnostics, NULL));
          bl_frame_scope_free (scope);
          g_ptr_array_add (self->models, model);
        }
      else if (bl_xml_is_element (child, "include"))
        {
          /* libsdformat inserts the included model into <sdf> as a top model */
          if (!is_merge_include (child))
            add_world_child (&ctx, child, self->path, BL_POSE_IDENTITY, NULL);
          else
            include_failed (self, child, "include", self->path, node_line (child), "sdf", NULL, NULL,
                            "<include merge=\"true\"> directly in <sdf> has no model or world to merge "
                            "into (libsdformat refuses it too); not loaded");
        }
    }

  g_ptr_array_unref (ctx.include_stack);
  group_include_failures (self);

  if (self->models->len == 0)
    bl_diagnostics_add (self->diagnostics, BL_SEVERITY_WARNING, "empty", self->path, node_line (root),
                        "sdf", "the file has no <model>");

  for (guint i = 0; i < self->models->len; i++)
    collect_links (self, g_ptr_array_index (self->models, i), BL_POSE_IDENTITY);

  for (guint i = 0; i < self->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (self->links, i);

      compute_link (self, link, self->read_only);
    }

  return TRUE;
}

static void
bl_document_finalize (GObject *object)
{
  BlDocument *self = (BlDocument *) object;

  bl_source_map_forget (self);
  clear_preparsed (self);
  g_clear_pointer (&self->protos, g_ptr_array_unref);
  g_clear_pointer (&self->links_by_name, g_hash_table_unref);
  g_clear_pointer (&self->links, g_ptr_array_unref);
  g_clear_pointer (&self->models, g_ptr_array_unref);
  /* after everything that lives in it */
  g_clear_pointer (&self->mesh_collisions, g_ptr_array_unref);
  g_clear_pointer (&self->arena, bl_arena_free);
  g_free (self->base_dir);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->included_xml, g_ptr_array_unref);
  g_clear_pointer (&self->include_failures, g_ptr_array_unref);
  g_clear_pointer (&self->include_firsts, g_hash_table_unref);
  g_clear_pointer (&self->include_diagnostic, g_hash_table_unref);
  g_clear_pointer (&self->xml, xmlFreeDoc);
  g_clear_pointer (&self->source, g_bytes_unref);
  g_free (self->sdf_version);
  g_free (self->loaded_sdf_version);
  g_free (self->path);

  G_OBJECT_CLASS (bl_document_parent_class)->finalize (object);
}

static void
bl_document_class_init (BlDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_document_finalize;

  /**
   * BlDocument::link-changed:
   * @link: (type gpointer): the BlLink whose values were recomputed
   */
  signals[LINK_CHANGED] =
    g_signal_new ("link-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
bl_document_init (BlDocument *self)
{
  self->models = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_model_free);
  self->links = g_ptr_array_new ();
  self->links_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);
  self->included_xml = g_ptr_array_new_with_free_func ((GDestroyNotify) xmlFreeDoc);
  self->include_failures = g_ptr_array_new_with_free_func ((GDestroyNotify) include_failure_free);
}

/* From bytes, or (bytes NULL) read from fd. */
static BlDocument *
bl_document_new_from_bytes (GBytes               *bytes,
                            int                   fd,
                            const char           *path,
                            BlDocumentLoadFlags   flags,
                            GError              **error)
{
  g_autoptr(BlDocument) self = g_object_new (BL_TYPE_DOCUMENT, NULL);
  gboolean loaded;

  self->path = g_strdup (path);
  self->source = bytes != NULL ? g_bytes_ref (bytes) : NULL;
  self->read_only = (flags & BL_DOCUMENT_LOAD_READ_ONLY) != 0;

  loaded = bl_document_load (self, bytes != NULL ? -1 : fd, error);
  self->link_tag = NULL;
  clear_preparsed (self);
  g_clear_pointer (&self->protos, g_ptr_array_unref);
  g_clear_pointer (&self->base_dir, g_free);
  if (self->read_only)
    g_clear_pointer (&self->source, g_bytes_unref);
  if (!loaded)
    return NULL;

  if (!self->read_only)
    bl_source_map_prepare (self);
  return g_steal_pointer (&self);
}

BlDocument *
bl_document_new_from_file (const char  *path,
                           GError     **error)
{
  return bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_DEFAULT, error);
}

BlDocument *
bl_document_new_from_file_full (const char           *path,
                                BlDocumentLoadFlags   flags,
                                GError              **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) read_error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
                   "%s: is a directory, not an SDF file", path);
      return NULL;
    }

  if (flags & BL_DOCUMENT_LOAD_READ_ONLY)
    {
      /* Read in pieces as the parser goes: the bytes are never kept. */
      BlDocument *self;
      gsize size = 0;
      int fd = bl_file_open (path, BL_FILE_MAX_STREAM_SIZE, &size, &read_error);

      if (fd < 0)
        {
          g_set_error_literal (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ, read_error->message);
          return NULL;
        }
      self = bl_document_new_from_bytes (NULL, fd, path, flags, &read_error);
      close (fd);
      /* libxml2's push parser stops at the first error where the full
       * parse reports the last: read it again the usual way, so that the
       * message is the same whichever load met it (a file larger than
       * that load takes keeps the first error). */
      if (self == NULL && g_error_matches (read_error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_PARSE) &&
          size <= BL_FILE_MAX_SIZE)
        return bl_document_new_from_file_full (path, flags & ~BL_DOCUMENT_LOAD_READ_ONLY, error);
      if (self == NULL)
        g_propagate_error (error, g_steal_pointer (&read_error));
      return self;
    }

  if (!bl_file_read (path, BL_FILE_MAX_SIZE, &contents, &length, &read_error))
    {
      /* GLib's message already names the file. */
      g_set_error_literal (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ, read_error->message);
      return NULL;
    }

  bytes = g_bytes_new_take (contents, length);

  return bl_document_new_from_bytes (bytes, -1, path, flags, error);
}

BlDocument *
bl_document_new_from_data (const char  *data,
                           gsize        length,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  bytes = g_bytes_new (data, length);
  return bl_document_new_from_bytes (bytes, -1, path, BL_DOCUMENT_LOAD_DEFAULT, error);
}

GBytes *
bl_document_get_sample_bytes (void)
{
  /* Through the resource itself: a static library drops an object file
   * that nothing references, and its constructor with it. */
  return g_resource_lookup_data (bl_sample_get_resource (),
                                 "/app/ballast/Ballast/models/sample.sdf",
                                 G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
}

BlDocument *
bl_document_new_sample (void)
{
  g_autoptr(GBytes) bytes = bl_document_get_sample_bytes ();
  g_autoptr(GError) error = NULL;
  BlDocument *self;

  g_assert (bytes != NULL);
  self = bl_document_new_from_bytes (bytes, -1, "sample.sdf", BL_DOCUMENT_LOAD_DEFAULT, &error);
  g_assert_no_error (error);

  return self;
}

gboolean
bl_document_is_read_only (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), FALSE);
  return self->read_only;
}

const char *
bl_document_get_path (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->path;
}

const char *
bl_document_get_sdf_version (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->sdf_version;
}

xmlNode *
bl_document_get_world (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->world;
}

const char *
bl_document_get_loaded_sdf_version (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->loaded_sdf_version;
}

GBytes *
bl_document_get_source (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->source;
}

xmlDoc *
bl_document_get_xml (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->xml;
}

GPtrArray *
bl_document_get_models (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->models;
}

GPtrArray *
bl_document_get_links (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->links;
}

BlLink *
bl_document_find_link (BlDocument *self,
                       const char *scoped_name)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (scoped_name != NULL, NULL);
  return g_hash_table_lookup (self->links_by_name, scoped_name);
}

BlCollision *
bl_document_find_collision (BlDocument *self,
                            const char *link_scoped_name,
                            const char *collision_name)
{
  BlLink *link = bl_document_find_link (self, link_scoped_name);

  if (link == NULL)
    return NULL;

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);

      if (strcmp (collision->name, collision_name) == 0)
        return collision;
    }

  return NULL;
}

GPtrArray *
bl_document_get_diagnostics (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->diagnostics;
}

GPtrArray *
bl_document_get_include_failures (BlDocument *self)
{
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);
  return self->include_failures;
}

GPtrArray *
bl_document_collect_diagnostics (BlDocument *self)
{
  GPtrArray *all;

  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);

  all = g_ptr_array_new ();
  for (guint i = 0; i < self->diagnostics->len; i++)
    g_ptr_array_add (all, g_ptr_array_index (self->diagnostics, i));
  for (guint i = 0; i < self->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (self->links, i);

      for (guint j = 0; j < link->diagnostics->len; j++)
        g_ptr_array_add (all, g_ptr_array_index (link->diagnostics, j));
    }

  return all;
}

gboolean
bl_document_has_errors (BlDocument *self)
{
  g_autoptr(GPtrArray) all = bl_document_collect_diagnostics (self);

  for (guint i = 0; i < all->len; i++)
    {
      BlDiagnostic *diagnostic = g_ptr_array_index (all, i);

      if (diagnostic->severity == BL_SEVERITY_ERROR)
        return TRUE;
    }

  return FALSE;
}

/* Follows <sdf version> in the tree; TRUE when it changed. */
static gboolean
refresh_sdf_version (BlDocument *self)
{
  xmlNode *root = xmlDocGetRootElement (self->xml);
  g_autofree char *now = root != NULL ? bl_xml_dup_attribute (root, "version") : NULL;

  if (g_strcmp0 (now, self->sdf_version) == 0)
    return FALSE;

  g_free (self->sdf_version);
  self->sdf_version = g_steal_pointer (&now);
  self->sdf_minor = sdf_minor_version (self->sdf_version);
  return TRUE;
}

void
bl_document_reload_link (BlDocument *self,
                         BlLink     *link)
{
  g_return_if_fail (BL_IS_DOCUMENT (self));
  g_return_if_fail (link != NULL);
  g_return_if_fail (!self->read_only);

  /* An edit that raised <sdf version> (or its undo) changes what every
   * link's version note says, not only this link's. */
  if (refresh_sdf_version (self))
    {
      for (guint i = 0; i < self->links->len; i++)
        {
          BlLink *other = g_ptr_array_index (self->links, i);

          if (other != link)
            {
              compute_link (self, other, FALSE);
              g_signal_emit (self, signals[LINK_CHANGED], 0, other);
            }
        }
    }

  compute_link (self, link, FALSE);
  g_signal_emit (self, signals[LINK_CHANGED], 0, link);
}
