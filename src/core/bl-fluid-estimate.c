/* bl-fluid-estimate.c: a link's added mass estimated from its collisions'
 * geometry. */
#include "config.h"

#include <string.h>

#include "bl-fluid-estimate.h"

static gboolean
estimate_collision (BlCollision         *collision,
                    double               rho,
                    BlAddedMassEstimate *est)
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
      if (collision->has_mesh_properties && collision->mesh_properties->volume > 0.0)
        {
          BlInertial unit = {
            collision->mesh_properties->volume,
            collision->mesh_properties->centroid,
            collision->mesh_properties->inertia,
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

guint
bl_link_estimate_added_mass (BlLink *link,
                             double  rho,
                             double  out[21],
                             GArray *estimates)
{
  BlMat6 sum = bl_mat6_zero ();
  guint used = 0;

  g_return_val_if_fail (link != NULL, 0);
  g_return_val_if_fail (out != NULL, 0);

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollisionEstimate item;

      memset (&item, 0, sizeof item);
      item.collision = g_ptr_array_index (link->collisions, i);
      item.ok = estimate_collision (item.collision, rho, &item.estimate);
      if (item.ok)
        {
          item.at_link = bl_added_mass_estimate_to_link (&item.estimate, item.collision->pose);
          sum = bl_mat6_add (&sum, &item.at_link);
          used++;
        }
      if (estimates != NULL)
        g_array_append_val (estimates, item);
    }

  bl_mat6_to_values (&sum, out);
  return used;
}
