/* bl-fluid.c: a document's world as the fluid side needs it (gravity,
 * physics engine) and buoyancy per link and per model.  The plugin
 * imports, the checks and the estimates have files of their own. */
#include "config.h"

#include "bl-document-private.h"
#include "bl-fluid.h"
#include "bl-fluid-world-private.h"
#include "bl-number.h"
#include "bl-xml-private.h"

/* ------------------------------------------------------------------------ */
/* World                                                                     */

BlVec3
bl_fluid_get_gravity (BlDocument *self,
                      int        *line)
{
  xmlNode *world, *gravity;
  double v[3];

  if (line != NULL)
    *line = 0;
  g_return_val_if_fail (BL_IS_DOCUMENT (self), bl_vec3 (0.0, 0.0, -BL_STANDARD_GRAVITY));

  world = bl_document_get_world (self);
  if (world == NULL)
    return bl_vec3 (0.0, 0.0, -BL_STANDARD_GRAVITY);

  gravity = bl_xml_first_child (world, "gravity");
  if (gravity != NULL)
    {
      g_autofree char *text = bl_fluid_node_text (gravity);

      if (bl_number_parse_vector (text, v, 3))
        {
          if (line != NULL)
            *line = bl_xml_get_line (gravity);
          return bl_vec3 (v[0], v[1], v[2]);
        }
    }

  return bl_vec3 (0.0, 0.0, -9.8); /* the SDF default of //world/gravity */
}

gboolean
bl_fluid_get_world_fluid (BlDocument   *self,
                          BlWorldFluid *out)
{
  g_return_val_if_fail (out != NULL, FALSE);
  *out = (BlWorldFluid) { BL_WORLD_FLUID_NONE, 0.0, 0, NULL };
  g_return_val_if_fail (BL_IS_DOCUMENT (self), FALSE);

  return bl_fluid_world_read_fluid (bl_document_get_world (self), out);
}

char *
bl_fluid_dup_physics_engine (BlDocument *self,
                             int        *line)
{
  if (line != NULL)
    *line = 0;
  g_return_val_if_fail (BL_IS_DOCUMENT (self), NULL);

  return bl_fluid_world_dup_physics_engine (bl_document_get_world (self), line);
}

/* ------------------------------------------------------------------------ */
/* Buoyancy                                                                  */

void
bl_link_compute_buoyancy (BlLink     *link,
                          double      rho,
                          BlVec3      gravity_world,
                          BlBuoyancy *out)
{
  BlVec3 gravity;

  g_return_if_fail (link != NULL);
  g_return_if_fail (out != NULL);

  gravity = bl_quat_rotate (bl_quat_conjugate (link->world_pose.q), gravity_world);
  bl_buoyancy_compute (&link->props.volume, &link->props.center_of_buoyancy, 1,
                       link->props.mass, link->props.com, rho, gravity, out);
}

/* Volumes and centroids of every link of `model`, nested ones included,
 * in the model's frame.  A static model nested in one that is not (a
 * seabed terrain beside the vehicles) never floats: its volume is not the
 * model's. */
static void
collect_volumes (BlModel *model,
                 BlPose   pose,
                 GArray  *volumes,
                 GArray  *centroids)
{
  for (guint i = 0; i < model->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (model->links, i);
      BlVec3 c = bl_pose_apply (bl_pose_mul (pose, link->pose), link->props.center_of_buoyancy);

      if (!(link->props.volume > 0.0))
        continue;
      g_array_append_val (volumes, link->props.volume);
      g_array_append_val (centroids, c);
    }
  for (guint i = 0; i < model->models->len; i++)
    {
      BlModel *nested = g_ptr_array_index (model->models, i);

      if (nested->is_static && !model->is_static)
        continue;
      collect_volumes (nested, bl_pose_mul (pose, nested->pose), volumes, centroids);
    }
}

void
bl_model_compute_buoyancy (BlModel          *model,
                           const BlInertial *total,
                           double            rho,
                           BlVec3            gravity_world,
                           BlBuoyancy       *out)
{
  g_autoptr(GArray) volumes = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) centroids = g_array_new (FALSE, FALSE, sizeof (BlVec3));
  BlVec3 gravity;

  g_return_if_fail (model != NULL);
  g_return_if_fail (total != NULL);
  g_return_if_fail (out != NULL);

  collect_volumes (model, BL_POSE_IDENTITY, volumes, centroids);
  gravity = bl_quat_rotate (bl_quat_conjugate (model->world_pose.q), gravity_world);
  bl_buoyancy_compute ((const double *) volumes->data, (const BlVec3 *) centroids->data,
                       volumes->len, total->mass, total->com, rho, gravity, out);
}
