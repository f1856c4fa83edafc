/* bl-sdf-elements.c: the elements of a link as libsdformat 15 reads them:
 * values and their faults, poses, <inertial>, collisions and geometry. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "bl-loader-private.h"
#include "bl-model-private.h"
#include "bl-number.h"
#include "bl-resource.h"
#include "bl-sdf-order-private.h"
#include "bl-xml-private.h"

/* A document's links, collisions and names live in an arena (bl-arena.c),
 * freed at once: a large model has tens of thousands of them, and neither
 * the allocator's per-chunk work nor its consolidation of the freed XML
 * nodes around them is worth paying for things that die together (an
 * edit changes what a link reads, never which links and collisions there
 * are). */

/* ------------------------------------------------------------------------ */
/* The spec's order of the children Ballast may create                       */

const char * const bl_sdf_link_order[] = {
  "gravity", "enable_wind", "self_collide", "kinematic", "must_be_base_link",
  "velocity_decay", "pose", "inertial", "collision", "visual", "sensor",
  "projector", "audio_sink", "audio_source", "battery", "light",
  "particle_emitter", NULL,
};
const char * const bl_sdf_inertial_order[] = {
  "mass", "density", "auto_inertia_params", "pose", "inertia", "fluid_added_mass", NULL,
};
const char * const bl_sdf_inertia_order[] = {
  "ixx", "ixy", "ixz", "iyy", "iyz", "izz", NULL,
};
const char * const bl_sdf_collision_order[] = {
  "laser_retro", "max_contacts", "pose", "geometry", "surface", "density",
  "auto_inertia_params", NULL,
};

/* ------------------------------------------------------------------------ */
/* XML helpers                                                               */

/* The element's value (bl_xml_value_node: as libsdformat reads it), not
 * copied; "" when it has none. */
const char *
bl_sdf_text_peek (xmlNode *node)
{
  xmlNode *value = bl_xml_value_node (node);

  return value != NULL && value->content != NULL ? (const char *) value->content : "";
}

/* The attribute's value (as bl_xml_dup_attribute gives it: as written,
 * never a DTD's default) without a copy when libxml2 holds it as one text
 * node, the usual case; otherwise a copy in *owned (free with xmlFree).
 * NULL when absent. */
const char *
bl_sdf_attribute_peek (xmlNode     *node,
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
    bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "split-value", file, bl_xml_get_line (element), path,
                        "<%s> holds more than its value (text after a comment or an element, or an element "
                        "inside it): libsdformat reads only “%s”, the text before the first comment or element, "
                        "and so does Ballast", (const char *) element->name, value);
  else
    bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "split-value", file, bl_xml_get_line (element), path,
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
  if (bl_number_parse (bl_sdf_text_peek (child), value))
    return TRUE;

  text = bl_xml_dup_text (child);
  path = g_strdup_printf ("%s/%s", owner, name);
  g_strstrip (text);
  if (*text == '\0')
    {
      g_auto(BlXmlString) attribute_owned = NULL;
      const char *attribute = bl_sdf_attribute_peek (child, "value", &attribute_owned);
      const char *fallback = libsdformat_default (name);
      double meant;

      if (attribute != NULL && bl_number_parse (attribute, &meant))
        bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, bl_xml_get_line (child), path,
                            "<%s value=\"%s\"/> is URDF's form: SDF reads the number from the element's "
                            "text, which is empty, so Gazebo uses %s, not %s; write <%s>%s</%s>",
                            name, attribute, fallback, attribute, name, attribute, name);
      else
        bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, bl_xml_get_line (child), path,
                            "<%s> holds no number; Gazebo uses %s", name, fallback);
    }
  else
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, bl_xml_get_line (child), path,
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
  if (bl_number_parse_vector (bl_sdf_text_peek (child), values, n))
    return TRUE;

  text = bl_xml_dup_text (child);
  path = element_path (owner, child);
  g_strstrip (text);
  bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, bl_xml_get_line (child), path,
                      "<%s> holds “%s”; expected %u finite numbers",
                      (const char *) child->name, text, n);
  return FALSE;
}

gboolean
bl_sdf_parse_bool (const char *text,
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
BlPose
bl_sdf_parse_pose (xmlNode     *pose_node,
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

  text = bl_sdf_text_peek (pose_node);
  check_split_value (pose_node, owner, file, diagnostics);
  if (pose_node->properties == NULL && (pose_node->doc == NULL || pose_node->doc->intSubset == NULL))
    {
      /* <pose>x y z r p y</pose>, by far the most common */
      format = degrees_attr = NULL;
    }
  else
    {
      format = bl_sdf_attribute_peek (pose_node, "rotation_format", &format_owned);
      degrees_attr = bl_sdf_attribute_peek (pose_node, "degrees", &degrees_owned);
      if (relative_to != NULL)
        {
          char *rel = bl_xml_dup_attribute (pose_node, "relative_to");

          if (rel != NULL && *g_strstrip (rel) == '\0')
            g_clear_pointer (&rel, g_free);
          *relative_to = rel;
        }
    }

  if (degrees_attr != NULL && !bl_sdf_parse_bool (degrees_attr, &degrees))
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, bl_xml_get_line (pose_node), POSE_PATH (),
                        "@degrees is “%s”; expected true or false", degrees_attr);

  n = (format != NULL && strcmp (format, "quat_xyzw") == 0) ? 7 : 6;
  if (format != NULL && n == 6 && strcmp (format, "euler_rpy") != 0)
    {
      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, bl_xml_get_line (pose_node), POSE_PATH (),
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

      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, bl_xml_get_line (pose_node), POSE_PATH (),
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
          bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "pose", file, bl_xml_get_line (pose_node), POSE_PATH (),
                              "quaternion has zero length");
          return BL_POSE_IDENTITY;
        }
      if (fabs (norm - 1.0) > 1e-6)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "pose", file, bl_xml_get_line (pose_node), POSE_PATH (),
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

/* The first SDF child element of each of n names (first[i] for names[i],
 * NULL when there is none), in one walk of the children: what
 * bl_xml_first_child finds for each.  Returns whether a child element has
 * none of the names. */
static gboolean
first_children (xmlNode            *parent,
                const char * const *names,
                guint               n,
                xmlNode           **first)
{
  gboolean other = FALSE;

  memset (first, 0, n * sizeof *first);
  for (xmlNode *child = parent->children; child != NULL; child = child->next)
    {
      guint i;

      if (!bl_xml_is_element (child, NULL) || bl_xml_is_left_out (child))
        continue;
      for (i = 0; i < n && strcmp ((const char *) child->name, names[i]) != 0; i++)
        ;
      if (i == n)
        other = TRUE;
      else if (first[i] == NULL)
        first[i] = child;
    }
  return other;
}

/* A path in messages, a scoped name and a suffix ("/inertial"), joined in
 * buf when it fits (most links need no message: nothing allocated), else
 * in *heap. */
#define PATH_BUF_SIZE 256

static const char *
join_path (char        buf[PATH_BUF_SIZE],
           char      **heap,
           const char *base,
           const char *suffix)
{
  gsize base_len = strlen (base), suffix_len = strlen (suffix);

  if (base_len + suffix_len >= PATH_BUF_SIZE)
    return *heap = g_strconcat (base, suffix, NULL);
  memcpy (buf, base, base_len);
  memcpy (buf + base_len, suffix, suffix_len + 1);
  return buf;
}

/* Unknown children of one element are warned about one by one up to
 * MAX_UNKNOWN_LISTED; the rest in one warning that counts them (a
 * million unknown elements in one <inertia> would be a million
 * warnings, most of the memory of the load).  The loads keep no more
 * than those listed: the rest are counted in the element
 * (bl_xml_get_unknown_left_out). */
#define MAX_UNKNOWN_LISTED BL_XML_UNKNOWN_LISTED

/* Counts one more unknown child; TRUE while it is to be listed. */
static gboolean
list_unknown (guint *n_unknown)
{
  return ++*n_unknown <= MAX_UNKNOWN_LISTED;
}

static void
report_more_unknown (GPtrArray  *diagnostics,
                     const char *code,
                     const char *file,
                     xmlNode    *parent,
                     const char *owner,
                     guint       n_unknown)
{
  n_unknown += bl_xml_get_unknown_left_out (parent);
  if (n_unknown <= MAX_UNKNOWN_LISTED)
    return;
  bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, code, file, bl_xml_get_line (parent), owner,
                      "%u more children that are not elements of <%s>, after the %d above: ignored too",
                      n_unknown - MAX_UNKNOWN_LISTED, (const char *) parent->name, MAX_UNKNOWN_LISTED);
}

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
  guint n_unknown = 0;

  for (xmlNode *child = inertia->children; child != NULL; child = child->next)
    {
      const char *name = (const char *) child->name;
      gboolean known = FALSE;

      if (!bl_xml_is_element (child, NULL) || bl_xml_is_left_out (child))
        continue;
      for (guint i = 0; i < 6; i++)
        known |= strcmp (name, names[i]) == 0;
      if (known || !list_unknown (&n_unknown))
        continue;
      if (strlen (name) == 3 && name[0] == 'i' && name[1] != name[2] &&
          strchr ("xyz", name[1]) != NULL && strchr ("xyz", name[2]) != NULL)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "unknown", file, bl_xml_get_line (child), owner,
                            "<%s> is not an element of <inertia>: libsdformat and Ballast ignore it, so "
                            "the product is read from <i%c%c> (0 when absent); the tensor is symmetric "
                            "and SDF names only ixy, ixz and iyz", name, name[2], name[1]);
      else
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "unknown", file, bl_xml_get_line (child), owner,
                            "<%s> is not an element of <inertia> (ixx iyy izz ixy ixz iyz): "
                            "libsdformat and Ballast ignore it", name);
    }
  report_more_unknown (diagnostics, "unknown", file, inertia, owner, n_unknown);
}

/* What a link without <fluid_added_mass> reads as its added mass. */
static const double no_added_mass[G_N_ELEMENTS (bl_added_mass_keys)];

/* Frees the link's own added-mass values, if it has any. */
static void
clear_added_mass (BlLink *link)
{
  if (link->added_mass != no_added_mass)
    g_free ((double *) link->added_mass);
  link->added_mass = no_added_mass;
}

static void
parse_inertial (BlLink    *link,
                GPtrArray *diagnostics)
{
  enum { MASS, DENSITY, POSE, INERTIA, ADDED_MASS, N_PARTS };
  static const char * const parts[N_PARTS] = { "mass", "density", "pose", "inertia", "fluid_added_mass" };
  const char *file = link->file;
  char owner_buf[PATH_BUF_SIZE];
  g_autofree char *owner_heap = NULL;
  const char *owner;
  xmlNode *inertial = bl_xml_first_child (link->node, "inertial");
  xmlNode *part[N_PARTS];
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
  clear_added_mass (link);
  link->input_errors = FALSE;

  if (inertial == NULL)
    return;

  owner = join_path (owner_buf, &owner_heap, link->scoped_name, "/inertial");
  {
    g_auto(BlXmlString) auto_owned = NULL;
    const char *auto_attr = bl_sdf_attribute_peek (inertial, "auto", &auto_owned);

    if (auto_attr != NULL && !bl_sdf_parse_bool (auto_attr, &link->auto_inertia))
      {
        bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "number", file, bl_xml_get_line (inertial), owner,
                            "@auto is “%s”; expected true or false", auto_attr);
        failed = TRUE;
      }
  }

  first_children (inertial, parts, N_PARTS, part);
  link->has_mass = read_number (part[MASS], "mass", owner, file, diagnostics, &link->mass, &failed);
  link->has_density = read_number (part[DENSITY], "density", owner, file, diagnostics,
                                   &link->density, &failed);

  if (link->has_mass && link->mass <= 0.0)
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "non-positive", file,
                        bl_xml_get_line (part[MASS]), owner,
                        "mass %g is not positive", link->mass);
  if (link->has_density && link->density <= 0.0)
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "non-positive", file,
                        bl_xml_get_line (part[DENSITY]), owner,
                        "density %g is not positive", link->density);

  child = part[POSE];
  if (child != NULL)
    {
      g_autofree char *relative_to = NULL;
      guint before = diagnostics->len;

      link->has_inertial_pose = TRUE;
      link->inertial_pose = bl_sdf_parse_pose (child, owner, file, diagnostics, &relative_to);
      if (diagnostics->len > before)
        failed = TRUE;
      if (relative_to != NULL)
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "pose", file, bl_xml_get_line (child), owner,
                            "//inertial/pose has no @relative_to in the SDF spec; "
                            "libsdformat ignores “%s” and so does Ballast", relative_to);
    }

  child = part[INERTIA];
  if (child != NULL)
    {
      static const char * const names[6] = { "ixx", "iyy", "izz", "ixy", "ixz", "iyz" };
      char inertia_buf[PATH_BUF_SIZE];
      g_autofree char *inertia_heap = NULL;
      const char *inertia_owner = join_path (inertia_buf, &inertia_heap, owner, "/inertia");
      xmlNode *value[6];
      gboolean unknown = first_children (child, names, 6, value);

      link->has_inertia = TRUE;
      for (guint i = 0; i < 6; i++)
        read_number (value[i], names[i], inertia_owner, file, diagnostics, &link->inertia[i], &failed);
      if (unknown)
        report_unknown_inertia_elements (child, names, inertia_owner, file, diagnostics);
    }

  child = part[ADDED_MASS];
  if (child != NULL)
    {
      char am_buf[PATH_BUF_SIZE];
      g_autofree char *am_heap = NULL;
      const char *am_owner = join_path (am_buf, &am_heap, owner, "/fluid_added_mass");
      /* the first element of each key: a repeated one is not read (the
       * loads leave it out) */
      xmlNode *first[G_N_ELEMENTS (bl_added_mass_keys)] = { NULL };
      double *added_mass = g_new0 (double, G_N_ELEMENTS (bl_added_mass_keys));
      guint n_unknown = 0;

      link->added_mass = added_mass;
      link->has_added_mass = TRUE;
      link->added_mass_node = child;
      for (xmlNode *value = child->children; value != NULL; value = value->next)
        {
          int key;

          if (!bl_xml_is_element (value, NULL) || bl_xml_is_left_out (value))
            continue;

          key = bl_added_mass_key_lookup ((const char *) value->name);
          if (key < 0)
            {
              if (list_unknown (&n_unknown))
                bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "unknown", file, bl_xml_get_line (value),
                                    am_owner, "<%s> is not one of the 21 added-mass coefficients; ignored",
                                    (const char *) value->name);
              continue;
            }
          if (first[key] != NULL)
            continue;
          first[key] = value;
          read_number (value, (const char *) value->name, am_owner, file, diagnostics, &added_mass[key], &failed);
        }
      report_more_unknown (diagnostics, "unknown", file, child, am_owner, n_unknown);
    }

  link->input_errors = failed;
}

static void
parse_collision_density (BlCollision *collision,
                         GPtrArray   *diagnostics)
{
  BlLink *link = collision->link;
  const char *owner = collision->path;

  xmlNode *density = bl_xml_first_child (collision->node, "density");

  collision->density = 1000.0;
  collision->has_density = read_number (density, "density", owner, link->file, diagnostics,
                                        &collision->density, &link->input_errors);
  if (collision->has_density && collision->density <= 0.0)
    bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "non-positive", link->file,
                        bl_xml_get_line (density), owner,
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

      bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "D10", file, bl_xml_get_line (node), owner,
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

static char *
path_key (const char *base_dir,
          const char *uri)
{
  return g_strdup_printf ("%" G_GSIZE_FORMAT ":%s%s", strlen (base_dir), base_dir, uri);
}

const char *
bl_sdf_known_path (GHashTable *table,
                   const char *base_dir,
                   const char *uri)
{
  g_autofree char *key = NULL;

  if (table == NULL)
    return NULL;
  key = path_key (base_dir, uri);
  return g_hash_table_lookup (table, key);
}

void
bl_sdf_remember_path (GHashTable **table,
                      const char  *base_dir,
                      const char  *uri,
                      const char  *path)
{
  if (*table == NULL)
    *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_insert (*table, path_key (base_dir, uri), g_strdup (path));
}

/* bl_resource_resolve_uri, remembered for the load: links often share a
 * mesh (a third of the benchmark's), and each resolution asks the file
 * system where the file lies (realpath).  Only paths found are
 * remembered; a failure is resolved again, for its message. */
static char *
resolve_mesh_uri (BlLoader    *loader,
                  const char  *uri,
                  const char  *base_dir,
                  GError     **error)
{
  const char *known;
  char *path;

  if (base_dir == NULL)
    return bl_resource_resolve_uri (uri, base_dir, error);

  known = bl_sdf_known_path (loader->mesh_paths, base_dir, uri);
  if (known != NULL)
    return g_strdup (known);

  path = bl_resource_resolve_uri (uri, base_dir, error);
  if (path != NULL)
    bl_sdf_remember_path (&loader->mesh_paths, base_dir, uri, path);
  return path;
}

/* NODE: the collision's first <geometry>, or NULL. */
static void
parse_geometry (BlLoader    *loader,
                BlCollision *collision,
                xmlNode     *node,
                GPtrArray   *diagnostics,
                const char  *base_dir)
{
  BlGeometry *geometry = &collision->geometry;
  const char *file = collision->link->file;
  const char *owner = collision->path;
  xmlNode *shape = NULL;
  guint n_unknown = 0;

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
      if (!bl_xml_is_element (child, NULL) || bl_xml_is_left_out (child))
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
      if (shape == NULL && list_unknown (&n_unknown))
        bl_diagnostics_add (diagnostics, BL_SEVERITY_WARNING, "geometry", file, bl_xml_get_line (child), owner,
                            "unknown geometry <%s>; treated as empty", (const char *) child->name);
    }
  report_more_unknown (diagnostics, "geometry", file, node, owner, n_unknown);

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

                bl_sdf_parse_bool (text, &geometry->center);
              }
          }
        if (uri == NULL)
          {
            bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "mesh", file, bl_xml_get_line (shape), owner,
                                "<mesh> has no <uri>");
            break;
          }

        geometry->uri = g_strstrip (bl_xml_dup_text (uri));
        {
          g_autoptr(GError) error = NULL;

          geometry->resolved_path = resolve_mesh_uri (loader, geometry->uri, base_dir, &error);
          if (geometry->resolved_path == NULL)
            bl_diagnostics_add (diagnostics, BL_SEVERITY_ERROR, "mesh", file, bl_xml_get_line (uri), owner,
                                "%s", error->message);
          /* kept for the window's offer to allow the folder */
          if (loader->mesh_refusals != NULL &&
              (g_error_matches (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OUTSIDE) ||
               g_error_matches (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_SPECIAL)))
            g_ptr_array_add (loader->mesh_refusals,
                             bl_mesh_refusal_new (file, bl_xml_get_line (uri), owner, geometry->uri, error));
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

/* Memory for a link or a collision of the document, from its arena. */
gpointer
bl_sdf_alloc0 (BlLoader *loader,
               gsize     size)
{
  return bl_arena_alloc0 (loader->arena, size);
}

/* The strings up to NULL joined, in the same memory as bl_sdf_alloc0. */
char * G_GNUC_NULL_TERMINATED
bl_sdf_strjoin (BlLoader   *loader,
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

  out = bl_arena_alloc0 (loader->arena, length + 1);
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
void
bl_sdf_arena_collision_free (BlCollision *collision)
{
  g_free (collision->geometry.uri);
  g_free (collision->geometry.resolved_path);
  g_free (collision->geometry.submesh);
  g_free (collision->geometry.optimization);
  g_clear_pointer (&collision->mesh, bl_mesh_unref);
  g_clear_pointer (&collision->mesh_properties, g_free);
}

void
bl_sdf_arena_link_free (BlLink *link)
{
  clear_added_mass (link);
  g_clear_pointer (&link->collisions, g_ptr_array_unref);
  g_clear_pointer (&link->diagnostics, g_ptr_array_unref);
}

BlLink *
bl_sdf_parse_link (BlLoader   *loader,
                   BlModel    *model,
                   xmlNode    *node,
                   const char *name)
{
  BlLink *link = bl_sdf_alloc0 (loader, sizeof (BlLink));

  link->name = bl_sdf_strjoin (loader, name, NULL);
  link->scoped_name = bl_sdf_strjoin (loader, model->scoped_name, "::", name, NULL);
  link->model = model;
  link->file = model->file;
  link->added_mass = no_added_mass;
  link->node = node;
  link->line = bl_xml_get_line (node);
  /* Only mesh collisions hold memory of their own; those are in
   * loader->mesh_collisions, so the others are never visited to be freed. */
  link->collisions = g_ptr_array_new ();
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

void
bl_sdf_parse_link_collisions (BlLoader     *loader,
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
      static const char * const parts[2] = { "pose", "geometry" };
      BlCollision *collision;
      g_autofree char *relative_to = NULL;
      g_auto(BlXmlString) name_owned = NULL;
      const char *owner, *name;
      xmlNode *part[2];
      BlPose raw;

      if (!bl_xml_is_element (child, "collision"))
        continue;

      collision = bl_sdf_alloc0 (loader, sizeof (BlCollision));
      collision->link = link;
      collision->node = child;
      collision->line = bl_xml_get_line (child);
      name = bl_sdf_attribute_peek (child, "name", &name_owned);
      if (name == NULL)
        {
          char generated[32];

          g_snprintf (generated, sizeof generated, "collision_%u", link->collisions->len);
          collision->name = bl_sdf_strjoin (loader, generated, NULL);
          bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "name", link->file,
                              collision->line, link->scoped_name,
                              "a <collision> has no name; shown as “%s”", collision->name);
        }
      else
        {
          collision->name = bl_sdf_strjoin (loader, name, NULL);
          if (!add_collision_name (seen, &n_seen, &names, collision->name))
            bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "name", link->file,
                                collision->line, link->scoped_name,
                                "two collisions are named “%s”", collision->name);
        }

      collision->path = bl_sdf_strjoin (loader, link->scoped_name, "/collision[", collision->name, "]", NULL);
      owner = collision->path;
      first_children (child, parts, 2, part);
      raw = bl_sdf_parse_pose (part[0], owner, link->file, link->diagnostics, &relative_to);

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

      parse_geometry (loader, collision, part[1], link->diagnostics, base_dir);
      if (collision->geometry.type == BL_GEOMETRY_MESH)
        g_ptr_array_add (loader->mesh_collisions, collision);
      g_ptr_array_add (link->collisions, collision);
    }
}

/* "1.10" → 10; an absent or unknown version reads as the newest, 12. */
guint
bl_sdf_minor_version (const char *version)
{
  guint64 minor;

  if (version == NULL || !g_str_has_prefix (version, "1.") ||
      !g_ascii_string_to_unsigned (version + 2, 10, 0, 99, &minor, NULL))
    return 12;

  return (guint) minor;
}

/* Reads the link's <inertial> and densities from the tree: at the load,
 * as the reader reads the link, and again after each edit. */
void
bl_sdf_parse_link_inertial (BlLink *link)
{
  g_ptr_array_set_size (link->diagnostics, link->n_load_diagnostics);
  parse_inertial (link, link->diagnostics);
  for (guint i = 0; i < link->collisions->len; i++)
    parse_collision_density (g_ptr_array_index (link->collisions, i), link->diagnostics);
}

