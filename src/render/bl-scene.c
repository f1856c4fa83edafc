/* bl-scene.c: per-link drawing description (collision instances, overlays, bounds, picking), GL-free. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-mesh-loader.h"
#include "bl-scene.h"

/* A mesh the link waits for: the link is told once it is read (or failed). */
typedef struct
{
  BlSceneLink *link;
  char        *key;      /* in link->loading */
} MeshRequest;

void
bl_scene_matrix_from_pose (BlPose  pose,
                           double  m[16])
{
  BlMat3 r = bl_mat3_from_quat (pose.q);

  memset (m, 0, 16 * sizeof (double));
  for (int row = 0; row < 3; row++)
    for (int col = 0; col < 3; col++)
      m[col * 4 + row] = r.m[row][col];
  m[12] = pose.p.x;
  m[13] = pose.p.y;
  m[14] = pose.p.z;
  m[15] = 1.0;
}

void
bl_scene_matrix_mul (const double a[16],
                     const double b[16],
                     double       out[16])
{
  double r[16];

  for (int col = 0; col < 4; col++)
    for (int row = 0; row < 4; row++)
      {
        double s = 0.0;

        for (int k = 0; k < 4; k++)
          s += a[k * 4 + row] * b[col * 4 + k];
        r[col * 4 + row] = s;
      }
  memcpy (out, r, sizeof r);
}

void
bl_scene_matrix_apply (const double m[16],
                       const double p[3],
                       double       out[3])
{
  double r[3];

  for (int row = 0; row < 3; row++)
    r[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
  memcpy (out, r, sizeof r);
}

/* The affine map x ↦ R·diag(s)·x + t, R row-major with the axes as columns. */
static void
matrix_from_frame (const BlMat3 *r,
                   const double  s[3],
                   const double  t[3],
                   double        m[16])
{
  memset (m, 0, 16 * sizeof (double));
  for (int row = 0; row < 3; row++)
    for (int col = 0; col < 3; col++)
      m[col * 4 + row] = r->m[row][col] * s[col];
  m[12] = t[0];
  m[13] = t[1];
  m[14] = t[2];
  m[15] = 1.0;
}

static void
scale_matrix (double sx,
              double sy,
              double sz,
              double m[16])
{
  memset (m, 0, 16 * sizeof (double));
  m[0] = sx;
  m[5] = sy;
  m[10] = sz;
  m[15] = 1.0;
}

/* Drops every shape (their meshes' references), keeping the room. */
static void
clear_shapes (BlSceneLink *self)
{
  for (guint i = 0; i < self->n_shapes; i++)
    g_clear_pointer (&self->shapes[i].mesh, bl_mesh_unref);
  self->n_shapes = 0;
}

static void
add_shape (BlSceneLink  *self,
           guint         collision,
           BlPrim        prim,
           BlMesh       *mesh,
           const double  x_wk[16],
           const double  local[16])
{
  BlSceneShape shape = { 0 };

  shape.prim = prim;
  shape.collision = collision;
  shape.mesh = mesh != NULL ? bl_mesh_ref (mesh) : NULL;
  bl_scene_matrix_mul (x_wk, local, shape.model);
  /* Growing by half while the link is drawn; bl_scene_link_update leaves
   * the room exact. */
  if (self->n_shapes == self->shapes_alloc)
    {
      self->shapes_alloc += self->shapes_alloc / 2 + 1;
      self->shapes = g_renew (BlSceneShape, self->shapes, self->shapes_alloc);
    }
  self->shapes[self->n_shapes++] = shape;
}

/* A rotation taking +z to the unit vector n (the plane's normal). */
static BlQuat
quat_z_to (BlVec3 n)
{
  double len = bl_vec3_length (n);
  BlVec3 z = { 0, 0, 1 }, axis;
  double c;

  if (!(len > 0.0))
    return BL_QUAT_IDENTITY;
  n = bl_vec3_scale (n, 1.0 / len);
  c = bl_vec3_dot (z, n);
  if (c < -1.0 + 1e-12)
    return (BlQuat) { 0.0, 1.0, 0.0, 0.0 };   /* half turn about x */
  axis = bl_vec3_cross (z, n);
  return bl_quat_normalize ((BlQuat) { 1.0 + c, axis.x, axis.y, axis.z });
}

static void
mesh_read (GObject      *source_object,
           GAsyncResult *result,
           gpointer      user_data)
{
  MeshRequest *request = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = bl_mesh_cache_lookup_finish (result, &error);

  /* Cancelled: the link is gone (bl_scene_link_free). */
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      BlSceneLink *self = request->link;

      g_hash_table_remove (self->loading, request->key);
      if (self->mesh_ready != NULL)
        self->mesh_ready (self, self->mesh_ready_data);
    }
  g_free (request->key);
  g_free (request);
}

/* The collision's mesh from the core: its own, or the cache's answer.
 * NULL without ERROR while the cache is still reading the file (in a
 * worker thread, never here): the link is told when it is done. */
static BlMesh *
collision_mesh (BlSceneLink *self,
                BlCollision *collision,
                GError     **error)
{
  BlGeometry *g = &collision->geometry;
  BlMesh *mesh = NULL;
  MeshRequest *request;
  char *key;

  if (collision->mesh != NULL)
    return bl_mesh_ref (collision->mesh);
  if (g->resolved_path == NULL)
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD, "mesh “%s” not found",
                   g->uri != NULL ? g->uri : "");
      return NULL;
    }
  if (bl_mesh_cache_peek (g->resolved_path, g->scale, g->submesh, g->center, &mesh, error))
    return mesh;

  key = g_strdup_printf ("%s\n%a %a %a\n%s\n%d", g->resolved_path, g->scale.x, g->scale.y,
                         g->scale.z, g->submesh != NULL ? g->submesh : "", !!g->center);
  /* Made for the first mesh asked for: most links never wait for one. */
  if (self->loading == NULL)
    {
      self->loading = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      self->cancellable = g_cancellable_new ();
    }
  if (g_hash_table_contains (self->loading, key))
    {
      g_free (key);
      return NULL;
    }
  g_hash_table_add (self->loading, key);
  request = g_new0 (MeshRequest, 1);
  request->link = self;
  request->key = g_strdup (key);
  bl_mesh_cache_lookup_async (g->resolved_path, g->scale, g->submesh, g->center,
                              self->cancellable, mesh_read, request);
  return NULL;
}

/* The shapes of COLLISION, the link's INDEX-th. */
static void
add_collision (BlSceneLink *self,
               BlCollision *collision,
               guint        index)
{
  BlGeometry *g = &collision->geometry;
  double x_wk[16], local[16];
  BlPose pose = bl_pose_mul (self->link->world_pose, collision->pose);

  bl_scene_matrix_from_pose (pose, x_wk);

  switch (g->type)
    {
    case BL_GEOMETRY_BOX:
      scale_matrix (g->size[0], g->size[1], g->size[2], local);
      add_shape (self, index, BL_PRIM_BOX, NULL, x_wk, local);
      break;
    case BL_GEOMETRY_SPHERE:
      scale_matrix (g->size[0], g->size[0], g->size[0], local);
      add_shape (self, index, BL_PRIM_SPHERE, NULL, x_wk, local);
      break;
    case BL_GEOMETRY_ELLIPSOID:
      scale_matrix (g->size[0], g->size[1], g->size[2], local);
      add_shape (self, index, BL_PRIM_SPHERE, NULL, x_wk, local);
      break;
    case BL_GEOMETRY_CYLINDER:
      scale_matrix (g->size[0], g->size[0], g->size[1], local);
      add_shape (self, index, BL_PRIM_CYLINDER, NULL, x_wk, local);
      break;
    case BL_GEOMETRY_CONE:
      scale_matrix (g->size[0], g->size[0], g->size[1], local);
      add_shape (self, index, BL_PRIM_CONE, NULL, x_wk, local);
      break;
    case BL_GEOMETRY_CAPSULE:
      /* A cylinder and two spheres: no per-size tessellation is needed. */
      scale_matrix (g->size[0], g->size[0], g->size[1], local);
      add_shape (self, index, BL_PRIM_CYLINDER, NULL, x_wk, local);
      for (int end = -1; end <= 1; end += 2)
        {
          scale_matrix (g->size[0], g->size[0], g->size[0], local);
          local[14] = 0.5 * end * g->size[1];
          add_shape (self, index, BL_PRIM_SPHERE, NULL, x_wk, local);
        }
      break;
    case BL_GEOMETRY_PLANE:
      {
        BlPose rot = { BL_VEC3_ZERO, quat_z_to (bl_vec3 (g->size[0], g->size[1], g->size[2])) };
        double r[16], s[16];

        bl_scene_matrix_from_pose (rot, r);
        scale_matrix (g->plane_size[0] > 0 ? g->plane_size[0] : 1.0,
                      g->plane_size[1] > 0 ? g->plane_size[1] : 1.0, 1.0, s);
        bl_scene_matrix_mul (r, s, local);
        add_shape (self, index, BL_PRIM_PLANE, NULL, x_wk, local);
        break;
      }
    case BL_GEOMETRY_MESH:
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(BlMesh) mesh = collision_mesh (self, collision, &error);

        if (mesh == NULL && error == NULL)
          {
            self->n_loading++;
            g_ptr_array_add (self->missing, g_strdup_printf ("%s: its mesh is being read", collision->name));
            break;
          }
        if (mesh == NULL)
          {
            g_ptr_array_add (self->missing, g_strdup_printf ("%s: %s", collision->name, error->message));
            break;
          }
        scale_matrix (1, 1, 1, local);
        add_shape (self, index, BL_PRIM_MESH, mesh, x_wk, local);
        break;
      }
    default:
      g_ptr_array_add (self->missing, g_strdup_printf ("%s: %s geometry is not drawn", collision->name,
                                                       bl_geometry_type_to_string (g->type)));
      break;
    }
}

static void
grow_box (gboolean     *has,
          double        min[3],
          double        max[3],
          const double  m[16],
          const double  lo[3],
          const double  hi[3])
{
  for (int c = 0; c < 8; c++)
    {
      double p[3] = { c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2] };

      bl_scene_matrix_apply (m, p, p);
      for (int k = 0; k < 3; k++)
        {
          if (!isfinite (p[k]))
            return;
        }
      for (int k = 0; k < 3; k++)
        {
          min[k] = *has ? MIN (min[k], p[k]) : p[k];
          max[k] = *has ? MAX (max[k], p[k]) : p[k];
        }
      *has = TRUE;
    }
}

/* Grows the drawn bounds, and the framing bounds unless PLANE (also set
 * for what is not drawn by default: a static link's overlays). */
static void
grow_bounds (BlSceneLink  *self,
             const double  m[16],
             const double  lo[3],
             const double  hi[3],
             gboolean      plane)
{
  grow_box (&self->has_bounds, self->min, self->max, m, lo, hi);
  if (!plane)
    grow_box (&self->has_frame_bounds, self->frame_min, self->frame_max, m, lo, hi);
}

static void
shape_bounds (BlSceneShape *shape,
              double        lo[3],
              double        hi[3])
{
  switch (shape->prim)
    {
    case BL_PRIM_BOX:
      lo[0] = lo[1] = lo[2] = -0.5;
      hi[0] = hi[1] = hi[2] = 0.5;
      break;
    case BL_PRIM_SPHERE:
      lo[0] = lo[1] = lo[2] = -1;
      hi[0] = hi[1] = hi[2] = 1;
      break;
    case BL_PRIM_CYLINDER:
    case BL_PRIM_CONE:
      lo[0] = lo[1] = -1;
      hi[0] = hi[1] = 1;
      lo[2] = -0.5;
      hi[2] = 0.5;
      break;
    case BL_PRIM_PLANE:
      lo[0] = lo[1] = -0.5;
      hi[0] = hi[1] = 0.5;
      lo[2] = hi[2] = 0.0;
      break;
    case BL_PRIM_MESH:
      {
        BlVec3 a, b;

        bl_mesh_get_bounds (shape->mesh, &a, &b);
        lo[0] = a.x; lo[1] = a.y; lo[2] = a.z;
        hi[0] = b.x; hi[1] = b.y; hi[2] = b.z;
        break;
      }
    default:
      g_assert_not_reached ();
    }
}

void
bl_scene_link_update (BlSceneLink *self,
                      double       fluid_density,
                      BlVec3       gravity)
{
  BlLink *link = self->link;
  BlMassProperties *props = &link->props;
  double x_wl[16];
  BlMat3 r_wl = bl_mat3_from_quat (link->world_pose.q);
  static const double unit_lo[3] = { -1, -1, -1 }, unit_hi[3] = { 1, 1, 1 };
  double extent = 0.0;
  BlBuoyancy buoyancy;

  clear_shapes (self);
  g_ptr_array_set_size (self->missing, 0);
  self->has_bounds = self->has_frame_bounds = FALSE;
  self->is_static = FALSE;
  for (BlModel *model = link->model; model != NULL; model = model->parent)
    self->is_static = self->is_static || model->is_static;
  self->has_ellipsoid = self->has_box = self->has_com = FALSE;
  self->has_buoyancy = self->has_added_mass = FALSE;
  self->valid = props->valid;
  self->n_loading = 0;
  bl_scene_matrix_from_pose (link->world_pose, x_wl);

  for (guint i = 0; i < link->collisions->len; i++)
    add_collision (self, g_ptr_array_index (link->collisions, i), i);
  if (self->shapes_alloc > self->n_shapes)
    {
      self->shapes_alloc = self->n_shapes;
      self->shapes = g_renew (BlSceneShape, self->shapes, self->shapes_alloc);
    }
  for (guint i = 0; i < self->n_shapes; i++)
    {
      BlSceneShape *shape = &self->shapes[i];
      double lo[3], hi[3];

      shape_bounds (shape, lo, hi);
      grow_bounds (self, shape->model, lo, hi, shape->prim == BL_PRIM_PLANE);
    }
  /* The link's own size: its solid shapes, not an unbounded plane. */
  if (self->has_frame_bounds)
    for (int k = 0; k < 3; k++)
      extent = MAX (extent, self->frame_max[k] - self->frame_min[k]);

  /* Centre of mass and the inertia overlays (only for a valid tensor: an
   * invalid one has no honest ellipsoid). */
  if (props->resolved && isfinite (props->com.x) && isfinite (props->com.y) && isfinite (props->com.z))
    {
      BlVec3 com = bl_pose_apply (link->world_pose, props->com);

      self->com[0] = com.x;
      self->com[1] = com.y;
      self->com[2] = com.z;
      self->has_com = TRUE;
    }
  if (self->has_com && props->valid)
    {
      BlMat3 axes, world_axes;
      double semi[3], size[3];

      if (bl_mass_equivalent_ellipsoid (props->mass, &props->inertia, semi, &axes))
        {
          world_axes = bl_mat3_mul (&r_wl, &axes);
          double ellipsoid[16];

          self->ellipsoid_axes = world_axes;
          memcpy (self->semi_axes, semi, sizeof semi);
          self->has_ellipsoid = TRUE;
          bl_scene_link_get_ellipsoid (self, ellipsoid);
          grow_bounds (self, ellipsoid, unit_lo, unit_hi, self->is_static);
          if (!(extent > 0.0))
            extent = 2 * MAX (semi[0], MAX (semi[1], semi[2]));
        }
      if (bl_mass_equivalent_box (props->mass, &props->inertia, size, &axes))
        {
          world_axes = bl_mat3_mul (&r_wl, &axes);
          self->box_axes = world_axes;
          memcpy (self->box_size, size, sizeof size);
          self->has_box = TRUE;
        }

      world_axes = bl_mat3_mul (&r_wl, &props->principal_axes);
      bl_mass_principal_semi_axes (props->mass, props->principal_moments, self->axis_length);
      for (int i = 0; i < 3; i++)
        for (int r = 0; r < 3; r++)
          self->axes[i][r] = world_axes.m[r][i];
    }

  /* Centre of buoyancy: the core's, as the inspector shows it. */
  bl_link_compute_buoyancy (link, fluid_density, gravity, &buoyancy);
  if (buoyancy.volume > 0.0)
    {
      BlVec3 w = bl_pose_apply (link->world_pose, buoyancy.center);

      self->buoyancy[0] = w.x;
      self->buoyancy[1] = w.y;
      self->buoyancy[2] = w.z;
      self->volume = buoyancy.volume;
      self->has_buoyancy = TRUE;
    }

  self->added_mass_invalid = FALSE;
  if (link->has_added_mass && props->has_added_mass_eigenvalues)
    {
      const double *mu = props->added_mass_eigenvalues, *total = props->total_eigenvalues;

      /* As the checks A3 and A4 (docs/reference/added-mass.md §2). */
      self->added_mass_invalid = mu[0] < -1e-9 * MAX (mu[5], 1.0)
                                 || (isfinite (total[0]) && props->mass > 0.0 && !(total[0] > 0.0));
    }
  if (link->has_added_mass && !self->added_mass_invalid)
    {
      double axes[3][3];
      BlMat3 a, world_axes;
      double centre[3];

      if (bl_added_mass_equivalent_radii (link->added_mass, fluid_density, self->added_mass_radii, axes))
        {
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
              a.m[r][c] = axes[r][c];
          world_axes = bl_mat3_mul (&r_wl, &a);
          if (self->has_buoyancy)
            memcpy (centre, self->buoyancy, sizeof centre);
          else
            {
              centre[0] = link->world_pose.p.x;
              centre[1] = link->world_pose.p.y;
              centre[2] = link->world_pose.p.z;
            }
          if (self->added_mass == NULL)
            self->added_mass = g_new (double, 16);
          matrix_from_frame (&world_axes, self->added_mass_radii, centre, self->added_mass);
          self->has_added_mass = TRUE;
          grow_bounds (self, self->added_mass, unit_lo, unit_hi, self->is_static);
        }
    }

  if (!self->has_bounds)
    {
      double p[16];

      /* Nothing drawn: a small region around the link origin (or COM). */
      scale_matrix (0.05, 0.05, 0.05, p);
      if (self->has_com)
        {
          p[12] = self->com[0];
          p[13] = self->com[1];
          p[14] = self->com[2];
        }
      else
        {
          p[12] = link->world_pose.p.x;
          p[13] = link->world_pose.p.y;
          p[14] = link->world_pose.p.z;
        }
      grow_bounds (self, p, unit_lo, unit_hi, self->is_static);
    }
  if (!(extent > 0.0))
    extent = 0.1;
  self->marker_size = 0.15 * extent;
}

BlSceneLink *
bl_scene_link_new (BlLink *link,
                   guint   index,
                   double  fluid_density,
                   BlVec3  gravity)
{
  BlSceneLink *self = g_new0 (BlSceneLink, 1);

  self->link = link;
  self->index = index;
  self->missing = g_ptr_array_new_with_free_func (g_free);
  bl_scene_link_update (self, fluid_density, gravity);
  return self;
}

void
bl_scene_link_set_mesh_ready_func (BlSceneLink          *self,
                                   BlSceneMeshReadyFunc  func,
                                   gpointer              user_data)
{
  g_return_if_fail (self != NULL);

  self->mesh_ready = func;
  self->mesh_ready_data = user_data;
}

void
bl_scene_link_get_ellipsoid (const BlSceneLink *self,
                             double             m[16])
{
  matrix_from_frame (&self->ellipsoid_axes, self->semi_axes, self->com, m);
}

void
bl_scene_link_get_box (const BlSceneLink *self,
                       double             m[16])
{
  matrix_from_frame (&self->box_axes, self->box_size, self->com, m);
}

void
bl_scene_link_get_bounds (const BlSceneLink *self,
                          BlSceneBounds     *bounds)
{
  memset (bounds, 0, sizeof *bounds);
  bounds->has_bounds = self->has_bounds;
  bounds->has_frame_bounds = self->has_frame_bounds;
  memcpy (bounds->min, self->min, sizeof bounds->min);
  memcpy (bounds->max, self->max, sizeof bounds->max);
  memcpy (bounds->frame_min, self->frame_min, sizeof bounds->frame_min);
  memcpy (bounds->frame_max, self->frame_max, sizeof bounds->frame_max);
}

void
bl_scene_link_free (BlSceneLink *self)
{
  if (self == NULL)
    return;
  /* Reads under way complete later, cancelled, without touching SELF. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->loading, g_hash_table_unref);
  g_free (self->added_mass);
  clear_shapes (self);
  g_free (self->shapes);
  g_ptr_array_unref (self->missing);
  g_free (self);
}

static gboolean
pick_mesh (BlMesh       *mesh,
           const double  o[3],
           const double  d[3],
           double       *t)
{
  BlVec3 a, b;
  double lo[3], hi[3], t_box;
  gboolean hit = FALSE;
  double best = 0.0;

  bl_mesh_get_bounds (mesh, &a, &b);
  lo[0] = a.x; lo[1] = a.y; lo[2] = a.z;
  hi[0] = b.x; hi[1] = b.y; hi[2] = b.z;
  if (!bl_pick_aabb (lo, hi, o, d, &t_box))
    return FALSE;
  for (guint s = 0; s < bl_mesh_get_n_submeshes (mesh); s++)
    {
      guint nv, nt;
      const double *v = bl_mesh_get_submesh_vertices (mesh, s, &nv);
      const guint32 *idx = bl_mesh_get_submesh_indices (mesh, s, &nt);
      double ts;

      if (bl_pick_triangles (v, idx, nt, o, d, &ts) && (!hit || ts < best))
        {
          best = ts;
          hit = TRUE;
        }
    }
  if (hit)
    *t = best;
  return hit;
}

static const BlPickShape prim_shapes[] = {
  [BL_PRIM_BOX] = BL_PICK_BOX,
  [BL_PRIM_SPHERE] = BL_PICK_SPHERE,
  [BL_PRIM_CYLINDER] = BL_PICK_CYLINDER,
  [BL_PRIM_CONE] = BL_PICK_CONE,
  [BL_PRIM_PLANE] = BL_PICK_PLANE,
};

gboolean
bl_scene_link_pick (BlSceneLink  *self,
                    const double  origin[3],
                    const double  direction[3],
                    double       *t)
{
  gboolean hit = FALSE;
  double best = 0.0;

  for (guint i = 0; i < self->n_shapes; i++)
    {
      BlSceneShape *shape = &self->shapes[i];
      double inverse[16], lo[3], ld[3], ts;
      gboolean h;

      if (!bl_pick_affine_inverse (shape->model, inverse))
        continue;
      bl_pick_transform_ray (inverse, origin, direction, lo, ld);
      if (shape->prim == BL_PRIM_MESH)
        h = pick_mesh (shape->mesh, lo, ld, &ts);
      else
        h = bl_pick_unit_shape (prim_shapes[shape->prim], lo, ld, &ts);
      if (h && (!hit || ts < best))
        {
          best = ts;
          hit = TRUE;
        }
    }

  if (self->n_shapes == 0 && self->has_ellipsoid)
    {
      double inv[16], lo[3], ld[3], ts;

      double ellipsoid[16];

      bl_scene_link_get_ellipsoid (self, ellipsoid);
      if (bl_pick_affine_inverse (ellipsoid, inv))
        {
          bl_pick_transform_ray (inv, origin, direction, lo, ld);
          if (bl_pick_unit_shape (BL_PICK_SPHERE, lo, ld, &ts) && (!hit || ts < best))
            {
              best = ts;
              hit = TRUE;
            }
        }
    }
  if (hit)
    *t = best;
  return hit;
}
