/* bl-added-mass-sources.c: proposals for a link's added mass from its collision
 * geometry and from simulator plugins in the document (no GTK). */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-added-mass-sources.h"
#include "bl-number.h"

static gboolean
estimate_collision (BlCollision          *collision,
                    double                rho,
                    BlAddedMassEstimate  *est)
{
  const BlGeometry *g = &collision->geometry;

  switch (g->type)
    {
    case BL_GEOMETRY_BOX:
      return bl_added_mass_estimate_box (g->size[0], g->size[1], g->size[2], rho, est);
    case BL_GEOMETRY_SPHERE:
      return bl_added_mass_estimate_sphere (g->size[0], rho, est);
    case BL_GEOMETRY_CYLINDER:
      return bl_added_mass_estimate_cylinder (g->size[0], g->size[1], rho, est);
    case BL_GEOMETRY_CAPSULE:
      return bl_added_mass_estimate_capsule (g->size[0], g->size[1], rho, est);
    case BL_GEOMETRY_ELLIPSOID:
      return bl_added_mass_estimate_ellipsoid (g->size[0], g->size[1], g->size[2], rho, est);
    case BL_GEOMETRY_CONE:
      return bl_added_mass_estimate_cone (g->size[0], g->size[1], rho, est);
    case BL_GEOMETRY_MESH:
      if (collision->has_mesh_properties)
        {
          BlInertial unit = {
            .mass = collision->mesh_properties.volume,
            .com = collision->mesh_properties.centroid,
            .inertia = collision->mesh_properties.inertia,
          };
          return bl_added_mass_estimate_from_volume_inertial (&unit, rho, est);
        }
      return FALSE;
    case BL_GEOMETRY_EMPTY:
    case BL_GEOMETRY_PLANE:
    case BL_GEOMETRY_HEIGHTMAP:
    case BL_GEOMETRY_POLYLINE:
    case BL_GEOMETRY_IMAGE:
    default:
      return FALSE;
    }
}

gboolean
bl_added_mass_propose_estimate (BlLink    *link,
                                double     rho,
                                double     out[21],
                                GPtrArray *notes)
{
  BlMat6 sum = bl_mat6_zero ();
  guint used = 0;

  g_return_val_if_fail (link != NULL, FALSE);

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);
      BlAddedMassEstimate est;

      if (!estimate_collision (collision, rho, &est))
        {
          if (notes != NULL)
            g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_WARNING,
                                                               _("%s (%s): no estimate for this geometry"),
                                                               collision->name,
                                                               bl_geometry_type_to_string (collision->geometry.type)));
          continue;
        }
      {
        BlMat6 in_link = bl_added_mass_estimate_to_link (&est, collision->pose);
        sum = bl_mat6_add (&sum, &in_link);
      }
      used++;
      if (notes != NULL)
        g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate",
                                                           est.translation_quality == BL_ESTIMATE_EXACT
                                                           && est.rotation_quality == BL_ESTIMATE_EXACT
                                                           ? BL_SEVERITY_INFO : BL_SEVERITY_WARNING,
                                                           _("%s (%s): %s; translation %s, rotation %s"),
                                                           collision->name,
                                                           bl_geometry_type_to_string (collision->geometry.type),
                                                           est.method,
                                                           bl_estimate_quality_to_string (est.translation_quality),
                                                           bl_estimate_quality_to_string (est.rotation_quality)));
    }

  if (used == 0)
    return FALSE;
  if (used > 1 && notes != NULL)
    g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_INFO,
                                                       _("The collisions' estimates are summed, ignoring how the parts shield each other.")));
  bl_mat6_to_values (&sum, out);
  return TRUE;
}

/* Plugins ---------------------------------------------------------------- */

static gboolean
is_element (xmlNode    *node,
            const char *name)
{
  return node->type == XML_ELEMENT_NODE && strcmp ((const char *) node->name, name) == 0;
}

static char *
element_text (xmlNode *node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *text = g_strdup (content != NULL ? (const char *) content : "");

  xmlFree (content);
  return g_strstrip (text);
}

static char *
attribute (xmlNode    *node,
           const char *name)
{
  xmlChar *value = xmlGetProp (node, (const xmlChar *) name);
  char *copy = value != NULL ? g_strdup ((const char *) value) : NULL;

  xmlFree (value);
  return copy;
}

static xmlNode *
child (xmlNode    *parent,
       const char *name)
{
  for (xmlNode *n = parent->children; n != NULL; n = n->next)
    if (is_element (n, name))
      return n;
  return NULL;
}

/* Matches a plugin's link name against the link's local or scoped name. */
static gboolean
names_link (const char   *name,
            const BlLink *link)
{
  return name != NULL && (strcmp (name, link->name) == 0 || strcmp (name, link->scoped_name) == 0);
}

/* Collects every child element of `parent` whose text is one number. */
static void
collect_numbers (xmlNode   *parent,
                 GPtrArray *names,
                 GArray    *values)
{
  for (xmlNode *n = parent->children; n != NULL; n = n->next)
    {
      g_autofree char *text = NULL;
      double v;

      if (n->type != XML_ELEMENT_NODE)
        continue;
      text = element_text (n);
      if (bl_number_parse (text, &v))
        {
          g_ptr_array_add (names, g_strdup ((const char *) n->name));
          g_array_append_val (values, v);
        }
    }
}

static gboolean
import_plugin (xmlNode   *plugin,
               BlLink    *link,
               double     out[21],
               GPtrArray *notes)
{
  g_autofree char *filename = attribute (plugin, "filename");
  g_autofree char *name = attribute (plugin, "name");
  g_autofree char *id = g_ascii_strdown (g_strconcat (filename ? filename : "", " ", name ? name : "", NULL), -1);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  xmlNode *link_name = child (plugin, "link_name");
  g_autofree char *link_text = link_name != NULL ? element_text (link_name) : NULL;

  if (strstr (id, "hydrodynamics") != NULL && strstr (id, "uuv") == NULL)
    {
      if (!names_link (link_text, link))
        return FALSE;
      collect_numbers (plugin, names, values);
      g_ptr_array_add (names, NULL);
      if (bl_added_mass_import_hydrodynamics ((const char * const *) names->pdata,
                                              (const double *) values->data, values->len, out, notes))
        {
          g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                             _("Imported from the gz-sim Hydrodynamics plugin (line %d): signs negated. Disable the plugin's added mass to avoid counting it twice."),
                                                             (int) xmlGetLineNo (plugin)));
          return TRUE;
        }
      return FALSE;
    }

  if (strstr (id, "dsros") != NULL)
    {
      xmlNode *added = child (plugin, "added_mass");

      if (added == NULL || (link_text != NULL && !names_link (link_text, link)))
        return FALSE;
      collect_numbers (added, names, values);
      g_ptr_array_add (names, NULL);
      if (bl_added_mass_import_dsros ((const char * const *) names->pdata,
                                      (const double *) values->data, values->len,
                                      link->props.com, out, notes))
        {
          g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                             _("Imported from the dsros_hydro plugin (line %d): shifted from the centre of mass to the link origin."),
                                                             (int) xmlGetLineNo (plugin)));
          return TRUE;
        }
      return FALSE;
    }

  if (strstr (id, "uuv") != NULL)
    {
      for (xmlNode *n = plugin->children; n != NULL; n = n->next)
        {
          g_autofree char *link_attr = NULL;
          xmlNode *model;
          xmlNode *added;
          g_autofree char *text = NULL;
          double matrix[36];
          double scaling = 1.0, offset = 0.0;

          if (!is_element (n, "link"))
            continue;
          link_attr = attribute (n, "name");
          if (!names_link (link_attr, link))
            continue;
          model = child (n, "hydrodynamic_model");
          added = model != NULL ? child (model, "added_mass") : NULL;
          if (added == NULL)
            continue;
          text = element_text (added);
          if (!bl_number_parse_vector (text, matrix, 36))
            {
              g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_ERROR,
                                                                 _("The uuv_simulator <added_mass> (line %d) is not 36 numbers."),
                                                                 (int) xmlGetLineNo (added)));
              continue;
            }
          if (child (model, "scaling_added_mass") != NULL)
            {
              g_autofree char *t = element_text (child (model, "scaling_added_mass"));
              bl_number_parse (t, &scaling);
            }
          if (child (model, "offset_added_mass") != NULL)
            {
              g_autofree char *t = element_text (child (model, "offset_added_mass"));
              bl_number_parse (t, &offset);
            }
          bl_added_mass_import_uuv (matrix, scaling, offset, out, notes);
          g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_INFO,
                                                             _("Imported from the uuv_simulator plugin (line %d): FRD axes flipped to the link's."),
                                                             (int) xmlGetLineNo (plugin)));
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
bl_added_mass_propose_import (BlLink    *link,
                              double     out[21],
                              GPtrArray *notes)
{
  g_return_val_if_fail (link != NULL, FALSE);
  g_return_val_if_fail (notes != NULL, FALSE);

  /* The plugin sits in the link's model, an enclosing model or the world. */
  for (xmlNode *scope = link->model != NULL ? link->model->node : NULL; scope != NULL; scope = scope->parent)
    {
      if (scope->type != XML_ELEMENT_NODE)
        break;
      for (xmlNode *n = scope->children; n != NULL; n = n->next)
        if (is_element (n, "plugin") && import_plugin (n, link, out, notes))
          return TRUE;
    }

  g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_WARNING,
                                                     _("No Hydrodynamics, dsros_hydro or uuv_simulator plugin names this link.")));
  return FALSE;
}
