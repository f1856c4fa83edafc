/* bl-model.c: names and destruction of the parsed model tree. */
#include "config.h"

#include "bl-model-private.h"

const char *
bl_geometry_type_to_string (BlGeometryType type)
{
  static const char * const names[] = {
    [BL_GEOMETRY_EMPTY] = "empty",
    [BL_GEOMETRY_BOX] = "box",
    [BL_GEOMETRY_SPHERE] = "sphere",
    [BL_GEOMETRY_CYLINDER] = "cylinder",
    [BL_GEOMETRY_CAPSULE] = "capsule",
    [BL_GEOMETRY_ELLIPSOID] = "ellipsoid",
    [BL_GEOMETRY_CONE] = "cone",
    [BL_GEOMETRY_MESH] = "mesh",
    [BL_GEOMETRY_PLANE] = "plane",
    [BL_GEOMETRY_HEIGHTMAP] = "heightmap",
    [BL_GEOMETRY_POLYLINE] = "polyline",
    [BL_GEOMETRY_IMAGE] = "image",
  };

  g_return_val_if_fail ((guint) type < G_N_ELEMENTS (names), "empty");

  return names[type];
}

void
bl_model_free (BlModel *model)
{
  if (model == NULL)
    return;

  g_free (model->name);
  g_free (model->scoped_name);
  g_clear_pointer (&model->links, g_ptr_array_unref);
  g_clear_pointer (&model->models, g_ptr_array_unref);
  g_clear_pointer (&model->plugin_sources, g_array_unref);
  g_clear_pointer (&model->plugins, g_ptr_array_unref);
  g_free (model);
}

BlMat6
bl_link_spatial_inertia (const BlLink *link)
{
  return bl_spatial_inertia (link->props.mass, link->props.com, &link->props.inertia);
}

gboolean
bl_model_contains_link (BlModel *model,
                        BlLink  *link)
{
  g_return_val_if_fail (link != NULL, FALSE);

  for (BlModel *m = link->model; m != NULL; m = m->parent)
    if (m == model)
      return TRUE;
  return FALSE;
}
