/* bl-link-panel.c: a link's collisions as panel-method bodies. */
#include "config.h"


#include "bl-link-panel.h"
#include "bl-mesh.h"

static gboolean
add_mesh (BlLinkPanel  *panel,
          BlCollision  *collision,
          GError      **error)
{
  const BlMeshProperties *health = collision->mesh_properties;
  BlMesh *mesh = collision->mesh;

  if (mesh == NULL || !collision->has_mesh_properties)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "Collision “%s”: its mesh (%s) is not loaded, so the link's surface is not known",
                   collision->name, collision->geometry.uri != NULL ? collision->geometry.uri : "?");
      return FALSE;
    }
  /* The flow outside a surface with holes or broken edges is not
   * defined: refused rather than solved into a plausible number. */
  if (health->boundary_edges > 0 || health->non_manifold_edges > 0 || health->inconsistent_edges > 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "Collision “%s”: its mesh is not a closed surface (%u edges on holes, %u shared by three "
                     "or more triangles, %u wound inconsistently); the panel method needs a watertight mesh",
                   collision->name, health->boundary_edges, health->non_manifold_edges,
                   health->inconsistent_edges);
      return FALSE;
    }
  if (health->inside_out)
    g_ptr_array_add (panel->notes,
                     g_strdup_printf ("Collision “%s”: the mesh is wound inward; it is turned outward",
                                      collision->name));

  g_ptr_array_add (panel->meshes, bl_mesh_ref (mesh));
  for (guint s = 0; s < bl_mesh_get_n_submeshes (mesh); s++)
    {
      BlPanelBody body = { .kind = BL_PANEL_BODY_TRIANGLES, .pose = collision->pose };
      guint n_points, n_triangles;

      body.points = bl_mesh_get_submesh_vertices (mesh, s, &n_points);
      body.triangles = bl_mesh_get_submesh_indices (mesh, s, &n_triangles);
      body.n_points = n_points;
      body.n_triangles = n_triangles;
      if (n_triangles > 0)
        g_array_append_val (panel->bodies, body);
    }
  return TRUE;
}

BlLinkPanel *
bl_link_panel_new (BlLink  *link,
                   GError **error)
{
  g_autoptr(BlLinkPanel) panel = g_new0 (BlLinkPanel, 1);

  g_return_val_if_fail (link != NULL, NULL);

  panel->bodies = g_array_new (FALSE, FALSE, sizeof (BlPanelBody));
  panel->meshes = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_mesh_unref);
  panel->notes = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);
      const BlGeometry *g = &collision->geometry;
      BlPanelBody body = { .pose = collision->pose };

      switch (g->type)
        {
        case BL_GEOMETRY_SPHERE:
          body.kind = BL_PANEL_BODY_ELLIPSOID;
          body.size = bl_vec3 (g->size[0], g->size[0], g->size[0]);
          break;
        case BL_GEOMETRY_ELLIPSOID:
          body.kind = BL_PANEL_BODY_ELLIPSOID;
          body.size = bl_vec3 (g->size[0], g->size[1], g->size[2]);
          break;
        case BL_GEOMETRY_BOX:
          body.kind = BL_PANEL_BODY_BOX;
          body.size = bl_vec3 (g->size[0], g->size[1], g->size[2]);
          break;
        case BL_GEOMETRY_CYLINDER:
        case BL_GEOMETRY_CAPSULE:
        case BL_GEOMETRY_CONE:
          body.kind = g->type == BL_GEOMETRY_CYLINDER ? BL_PANEL_BODY_CYLINDER :
                      g->type == BL_GEOMETRY_CAPSULE ? BL_PANEL_BODY_CAPSULE : BL_PANEL_BODY_CONE;
          body.size = bl_vec3 (g->size[0], 0.0, g->size[1]);
          break;
        case BL_GEOMETRY_MESH:
          if (!add_mesh (panel, collision, error))
            return NULL;
          continue;
        case BL_GEOMETRY_EMPTY:
        case BL_GEOMETRY_PLANE:
        case BL_GEOMETRY_HEIGHTMAP:
        case BL_GEOMETRY_POLYLINE:
        case BL_GEOMETRY_IMAGE:
        default:
          g_ptr_array_add (panel->notes,
                           g_strdup_printf ("Collision “%s” (%s) has no volume: left out",
                                            collision->name, bl_geometry_type_to_string (g->type)));
          continue;
        }
      if (!(body.size.x > 0.0) || body.size.y < 0.0 || body.size.z < 0.0 ||
          (body.kind != BL_PANEL_BODY_CYLINDER && body.kind != BL_PANEL_BODY_CAPSULE &&
           body.kind != BL_PANEL_BODY_CONE && !(body.size.y > 0.0 && body.size.z > 0.0)) ||
          ((body.kind == BL_PANEL_BODY_CYLINDER || body.kind == BL_PANEL_BODY_CONE) && !(body.size.z > 0.0)))
        {
          g_ptr_array_add (panel->notes,
                           g_strdup_printf ("Collision “%s” (%s) has a zero or invalid size: left out",
                                            collision->name, bl_geometry_type_to_string (g->type)));
          continue;
        }
      g_array_append_val (panel->bodies, body);
    }

  if (panel->bodies->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Link “%s” has no collision with a volume", link->name);
      return NULL;
    }
  return g_steal_pointer (&panel);
}

void
bl_link_panel_free (BlLinkPanel *panel)
{
  if (panel == NULL)
    return;
  g_clear_pointer (&panel->bodies, g_array_unref);
  g_clear_pointer (&panel->meshes, g_ptr_array_unref);
  g_clear_pointer (&panel->notes, g_ptr_array_unref);
  g_free (panel);
}
