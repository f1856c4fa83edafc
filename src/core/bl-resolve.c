/* bl-resolve.c: a link's mass properties, as libsdformat 15 resolves them. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "bl-resolve-private.h"
#include "bl-xml-private.h"
#include "bl-overflow-private.h"

#define DEFAULT_DENSITY 1000.0

static const char *
link_file (BlLink *link)
{
  return link->file;
}

/* A mesh's unit-density properties through the mesh cache; *mesh is kept
 * when it is already the right file (the collision's own mesh when the
 * results are recorded, a local reference otherwise). */
static gboolean
lookup_mesh_properties (const BlGeometry  *geometry,
                        gboolean           convex_hull,
                        BlMesh           **mesh,
                        BlMeshProperties  *properties,
                        GError           **error)
{
  if (*mesh == NULL || g_strcmp0 (bl_mesh_get_path (*mesh), geometry->resolved_path) != 0)
    {
      g_clear_pointer (mesh, bl_mesh_unref);
      *mesh = bl_mesh_cache_lookup (geometry->resolved_path, geometry->scale,
                                    geometry->submesh, geometry->center, error);
      if (*mesh == NULL)
        return FALSE;
    }

  return bl_mesh_get_mass_properties (*mesh, convex_hull, properties, error);
}

/* Loads the collision's mesh through the cache and its unit-density
 * properties into the collision. */
static gboolean
load_mesh_properties (BlCollision  *collision,
                      gboolean      convex_hull,
                      GError      **error)
{
  if (collision->mesh_properties == NULL)
    collision->mesh_properties = g_new0 (BlMeshProperties, 1);
  collision->has_mesh_properties =
    lookup_mesh_properties (&collision->geometry, convex_hull, &collision->mesh,
                            collision->mesh_properties, error);
  return collision->has_mesh_properties;
}

/* Unit-density mesh properties scaled to `density`, in the collision frame. */
static gboolean
mesh_properties_inertial (const BlMeshProperties *properties,
                          double                  density,
                          BlInertial             *out)
{
  if (!(properties->volume > 0.0) || !(density > 0.0))
    return FALSE;

  out->mass = density * properties->volume;
  out->com = properties->centroid;
  out->inertia = bl_mat3_scale (&properties->inertia, density);

  return bl_mass_is_valid (out->mass, &out->inertia, BL_MASS_DEFAULT_TOLERANCE);
}

/* The mesh result scaled to `density`, in the collision frame.  With
 * `record`, the mesh and its properties are kept in the collision and
 * every problem is the link's diagnostic; without, nothing in the link
 * changes (explicit links never keep their meshes loaded). */
static gboolean
mesh_inertial (BlCollision *collision,
               double       density,
               gboolean     record,
               BlInertial  *out)
{
  BlLink *link = collision->link;
  BlGeometry *geometry = &collision->geometry;
  const char *path = collision->path;
  g_autoptr(GError) error = NULL;
  gboolean convex_hull;

  if (!record)
    {
      g_autoptr(BlMesh) mesh = NULL;
      BlMeshProperties properties;

      return geometry->resolved_path != NULL &&
             lookup_mesh_properties (geometry, g_strcmp0 (geometry->optimization, "convex_hull") == 0,
                                     &mesh, &properties, NULL) &&
             mesh_properties_inertial (&properties, density, out);
    }

  collision->has_mesh_properties = FALSE;

  if (geometry->resolved_path == NULL)
    return FALSE; /* already reported when the URI was resolved */

  convex_hull = g_strcmp0 (geometry->optimization, "convex_hull") == 0;
  if (!load_mesh_properties (collision, convex_hull, &error))
    {
      bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "mesh", link_file (link),
                          collision->line, path, "%s", error->message);
      return FALSE;
    }

  if (geometry->optimization != NULL && *geometry->optimization != '\0' && !convex_hull)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "mesh", link_file (link),
                        collision->line, path,
                        "@optimization=“%s” is not supported; the mesh itself is integrated",
                        geometry->optimization);

  for (guint i = 0; i < collision->mesh_properties->warnings->len; i++)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "mesh", link_file (link),
                        collision->line, path, "%s",
                        (const char *) g_ptr_array_index (collision->mesh_properties->warnings, i));

  return mesh_properties_inertial (collision->mesh_properties, density, out);
}

/* The collision's inertial in its own frame K; FALSE when it cannot
 * contribute (a mesh's reason reported when `record`, see mesh_inertial). */
static gboolean
shape_inertial (BlCollision *collision,
                double       density,
                gboolean     record,
                BlInertial  *out)
{
  const double *s = collision->geometry.size;

  switch (collision->geometry.type)
    {
    case BL_GEOMETRY_BOX:
      return bl_inertial_box (s[0], s[1], s[2], density, out);
    case BL_GEOMETRY_SPHERE:
      return bl_inertial_sphere (s[0], density, out);
    case BL_GEOMETRY_CYLINDER:
      return bl_inertial_cylinder (s[0], s[1], density, out);
    case BL_GEOMETRY_CAPSULE:
      return bl_inertial_capsule (s[0], s[1], density, out);
    case BL_GEOMETRY_ELLIPSOID:
      return bl_inertial_ellipsoid (s[0], s[1], s[2], density, out);
    case BL_GEOMETRY_CONE:
      return bl_inertial_cone (s[0], s[1], density, out);
    case BL_GEOMETRY_MESH:
      return mesh_inertial (collision, density, record, out);
    case BL_GEOMETRY_EMPTY:
    case BL_GEOMETRY_PLANE:
    case BL_GEOMETRY_HEIGHTMAP:
    case BL_GEOMETRY_POLYLINE:
    case BL_GEOMETRY_IMAGE:
    default:
      return FALSE;
    }
}

static gboolean
geometry_is_solid (BlGeometryType type)
{
  return type != BL_GEOMETRY_EMPTY && type != BL_GEOMETRY_PLANE &&
         type != BL_GEOMETRY_HEIGHTMAP && type != BL_GEOMETRY_POLYLINE &&
         type != BL_GEOMETRY_IMAGE;
}

/* A mesh's unit-density properties for its displaced volume, when the
 * automatic inertia did not load them.  On an auto link a failure was
 * already reported (or the collision was skipped for a reported reason);
 * on an explicit link only the buoyancy is affected, so it is a warning. */
static gboolean
mesh_volume_properties (BlCollision *collision,
                        gboolean     is_auto)
{
  BlLink *link = collision->link;
  g_autoptr(GError) error = NULL;
  /* the notes are about the buoyancy: a static model never floats */
  gboolean quiet = is_auto || link->model->is_static;

  if (collision->has_mesh_properties)
    return TRUE;
  if (collision->geometry.resolved_path == NULL)
    return FALSE; /* reported when the URI was resolved */

  if (!load_mesh_properties (collision, FALSE, &error))
    {
      if (!quiet)
        bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "volume", link_file (link),
                            collision->line, collision->path,
                            "%s; its displaced volume is unknown and left out of the buoyancy",
                            error->message);
      return FALSE;
    }
  if (!quiet)
    for (guint i = 0; i < collision->mesh_properties->warnings->len; i++)
      bl_diagnostics_add (link->diagnostics, BL_SEVERITY_INFO, "volume", link_file (link),
                          collision->line, collision->path, "displaced volume: %s",
                          (const char *) g_ptr_array_index (collision->mesh_properties->warnings, i));

  return TRUE;
}

/* Every collision's geometric volume and centroid in L, whatever its
 * density (added-mass.md §7.1–7.2), summed into the link's displaced volume
 * and centre of buoyancy. */
/* Says each thing once per link: a note repeated word for word from
 * index `first` on (one mesh used by several collisions, cessna's body
 * eight times) is kept on its first collision, which then says how many
 * more it is about. */
static void
merge_repeated_notes (BlLink *link,
                      guint   first)
{
  GPtrArray *list = link->diagnostics;

  for (guint i = first; i < list->len; i++)
    {
      BlDiagnostic *d = g_ptr_array_index (list, i);
      guint repeats = 0;

      for (guint j = i + 1; j < list->len;)
        {
          BlDiagnostic *e = g_ptr_array_index (list, j);

          if (e->severity == d->severity && g_strcmp0 (e->code, d->code) == 0 &&
              strcmp (e->message, d->message) == 0)
            {
              g_ptr_array_remove_index (list, j);
              repeats++;
            }
          else
            j++;
        }
      if (repeats > 0)
        {
          list->pdata[i] = bl_diagnostic_new (d->severity, d->code, d->file, d->line, d->element,
                                              "%s (the same for %u more collision%s of this link)",
                                              d->message, repeats, repeats == 1 ? "" : "s");
          bl_diagnostic_free (d);
        }
    }
}

static void
compute_volumes (BlLink  *link,
                 gboolean is_auto)
{
  BlMassProperties *props = &link->props;
  BlVec3 moment = BL_VEC3_ZERO;
  guint first_note = link->diagnostics->len;

  props->volume = 0.0;
  props->center_of_buoyancy = BL_VEC3_ZERO;

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);
      BlInertial own = { 0.0, BL_VEC3_ZERO, bl_mat3_zero () };
      gboolean ok = FALSE;

      collision->volume = 0.0;
      collision->centroid = collision->pose.p;

      if (!geometry_is_solid (collision->geometry.type))
        continue;

      if (collision->geometry.type == BL_GEOMETRY_MESH)
        {
          if (mesh_volume_properties (collision, is_auto))
            {
              own.mass = collision->mesh_properties->volume;
              own.com = collision->mesh_properties->centroid;
              ok = TRUE;
            }
        }
      else
        ok = shape_inertial (collision, 1.0, TRUE, &own); /* unit density: mass = volume */

      if (ok && isinf (own.mass))
        bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "overflow", link_file (link),
                            collision->line, collision->path,
                            "the volume of this %s overflows (its size is too large to compute "
                            "with); it is left out of the displaced volume",
                            bl_geometry_type_to_string (collision->geometry.type));
      if (!ok || !(own.mass > 0.0) || !isfinite (own.mass))
        continue;

      collision->volume = own.mass;
      collision->centroid = bl_pose_apply (collision->pose, own.com);
      props->volume += collision->volume;
      moment = bl_vec3_add (moment, bl_vec3_scale (collision->centroid, collision->volume));
    }

  if (props->volume > 0.0)
    props->center_of_buoyancy = bl_vec3_scale (moment, 1.0 / props->volume);
  merge_repeated_notes (link, first_note);
}

/* An oriented box around a collision's solid, in the link frame. */
typedef struct
{
  BlVec3 center;
  BlVec3 axis[3];     /* unit, the collision frame's axes in link axes */
  double half[3];
} Obb;

static gboolean
collision_obb (BlCollision *collision,
               Obb         *out)
{
  const double *s = collision->geometry.size;
  BlVec3 local = BL_VEC3_ZERO;
  BlMat3 r = bl_mat3_from_quat (collision->pose.q);

  switch (collision->geometry.type)
    {
    case BL_GEOMETRY_BOX:
      out->half[0] = s[0] / 2.0;
      out->half[1] = s[1] / 2.0;
      out->half[2] = s[2] / 2.0;
      break;
    case BL_GEOMETRY_SPHERE:
      out->half[0] = out->half[1] = out->half[2] = s[0];
      break;
    case BL_GEOMETRY_CYLINDER:
    case BL_GEOMETRY_CONE:     /* its height centred on the origin */
      out->half[0] = out->half[1] = s[0];
      out->half[2] = s[1] / 2.0;
      break;
    case BL_GEOMETRY_CAPSULE:
      out->half[0] = out->half[1] = s[0];
      out->half[2] = s[1] / 2.0 + s[0];
      break;
    case BL_GEOMETRY_ELLIPSOID:
      out->half[0] = s[0];
      out->half[1] = s[1];
      out->half[2] = s[2];
      break;
    case BL_GEOMETRY_MESH:
      {
        BlVec3 min, max;

        if (collision->mesh == NULL)
          return FALSE;
        bl_mesh_get_bounds (collision->mesh, &min, &max);
        local = bl_vec3_scale (bl_vec3_add (min, max), 0.5);
        out->half[0] = (max.x - min.x) / 2.0;
        out->half[1] = (max.y - min.y) / 2.0;
        out->half[2] = (max.z - min.z) / 2.0;
      }
      break;
    default:
      return FALSE;
    }

  out->center = bl_pose_apply (collision->pose, local);
  for (int i = 0; i < 3; i++)
    out->axis[i] = (BlVec3) { r.m[0][i], r.m[1][i], r.m[2][i] };
  for (int i = 0; i < 3; i++)
    if (!isfinite (out->half[i]) || !(out->half[i] >= 0.0))
      return FALSE;
  return isfinite (out->center.x) && isfinite (out->center.y) && isfinite (out->center.z);
}

/* Whether projections DIST apart with radii RA and RB are separate; boxes
 * that only touch, face to face within rounding, are. */
static inline gboolean
separated (double dist,
           double ra,
           double rb)
{
  return fabs (dist) >= (ra + rb) * (1.0 - 1e-9);
}

/* TRUE when the boxes share volume (the separating axis test over the 15
 * axes of two boxes). */
static gboolean
obb_overlap (const Obb *a,
             const Obb *b)
{
  BlVec3 d = bl_vec3_sub (b->center, a->center);
  double r[3][3], abs_r[3][3], t[3];

  for (int i = 0; i < 3; i++)
    {
      for (int j = 0; j < 3; j++)
        {
          r[i][j] = bl_vec3_dot (a->axis[i], b->axis[j]);
          /* parallel edges make the cross axes vanish: keep them harmless */
          abs_r[i][j] = fabs (r[i][j]) + 1e-12;
        }
      t[i] = bl_vec3_dot (d, a->axis[i]);
    }

  for (int i = 0; i < 3; i++)
    if (separated (t[i], a->half[i],
                   b->half[0] * abs_r[i][0] + b->half[1] * abs_r[i][1] + b->half[2] * abs_r[i][2]))
      return FALSE;
  for (int j = 0; j < 3; j++)
    if (separated (t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j],
                   a->half[0] * abs_r[0][j] + a->half[1] * abs_r[1][j] + a->half[2] * abs_r[2][j],
                   b->half[j]))
      return FALSE;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;

        /* the axis a_i × b_j */
        if (separated (t[i2] * r[i1][j] - t[i1] * r[i2][j],
                       a->half[i1] * abs_r[i2][j] + a->half[i2] * abs_r[i1][j],
                       b->half[j1] * abs_r[i][j2] + b->half[j2] * abs_r[i][j1]))
          return FALSE;
      }

  return TRUE;
}

/* Collisions whose solids may share volume (added-mass.md §7.1): the
 * displaced volume counts it twice, and so does an automatic inertia, as
 * libsdformat's does.  Two spheres are compared exactly, anything else by
 * the oriented boxes around the solids. */
static void
check_overlaps (BlLink  *link,
                gboolean is_auto)
{
  /* Pairs grow with the square: a link of very many collisions is left
   * alone.  A static model neither floats nor moves: shared volume changes
   * nothing a simulation does with it. */
  if (link->collisions->len < 2 || link->collisions->len > 256 || link->model->is_static)
    return;

  for (guint j = 1; j < link->collisions->len; j++)
    {
      BlCollision *b = g_ptr_array_index (link->collisions, j);
      g_autoptr(GString) names = NULL;
      gboolean only_spheres = TRUE;
      Obb box_b;

      if (!(b->volume > 0.0) || !collision_obb (b, &box_b))
        continue;

      /* Each pair once, on the later collision's line. */
      for (guint i = 0; i < j; i++)
        {
          BlCollision *a = g_ptr_array_index (link->collisions, i);
          gboolean spheres = a->geometry.type == BL_GEOMETRY_SPHERE && b->geometry.type == BL_GEOMETRY_SPHERE;
          Obb box_a;
          gboolean overlap;

          if (!(a->volume > 0.0) || !collision_obb (a, &box_a))
            continue;
          if (spheres)
            overlap = bl_vec3_length (bl_vec3_sub (box_a.center, box_b.center)) <
                      (a->geometry.size[0] + b->geometry.size[0]) * (1.0 - 1e-9);
          else
            overlap = obb_overlap (&box_a, &box_b);
          if (!overlap)
            continue;

          if (names == NULL)
            names = g_string_new (NULL);
          else
            g_string_append (names, ", ");
          g_string_append_printf (names, "“%s”", a->name);
          only_spheres &= spheres;
        }

      if (names != NULL)
        bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "overlap", link_file (link),
                            b->line, b->path,
                            "overlaps %s%s: the shared volume counts twice in the buoyancy%s",
                            names->str, only_spheres ? "" : " (by bounding boxes)",
                            is_auto ? " and, as in libsdformat, in the automatic inertia" : "");
    }
}

/* M_RB, and the checks of fluid_added_mass (A1–A6, A9, A10) as the link's
 * diagnostics on the <fluid_added_mass> line. */
static void
check_added_mass (BlLink  *link,
                  gboolean is_auto)
{
  BlMassProperties *props = &link->props;
  BlInertial body = { props->mass, props->com, props->inertia };
  g_autoptr(BlAddedMassReport) report = NULL;
  int line;

  props->has_added_mass_eigenvalues = FALSE;

  if (!link->has_added_mass)
    return;

  report = bl_added_mass_check (link->added_mass, &body,
                                is_auto ? BL_ADDED_MASS_CHECK_AUTO : BL_ADDED_MASS_CHECK_NONE);
  if (report->finite)
    {
      props->has_added_mass_eigenvalues = TRUE;
      memcpy (props->added_mass_eigenvalues, report->eigenvalues, sizeof report->eigenvalues);
      memcpy (props->total_eigenvalues, report->total_eigenvalues, sizeof report->total_eigenvalues);
    }

  line = bl_xml_get_line (link->added_mass_node != NULL ? link->added_mass_node : link->inertial_node);
  for (guint i = 0; i < report->findings->len; i++)
    {
      const BlAddedMassFinding *finding = g_ptr_array_index (report->findings, i);

      /* An invalid body is D8 already. */
      if (strcmp (finding->id, "A5") == 0 && props->resolved && !props->valid)
        continue;
      bl_diagnostics_add_text (link->diagnostics, finding->severity, finding->id, link_file (link),
                               line, link->scoped_name, "/inertial/fluid_added_mass", finding->message);
    }
}

/* The density a collision's automatic inertia uses: its own <density>,
 * else the link's <inertial><density>, else water's 1000 kg/m³. */
static double
collision_density (const BlLink      *link,
                   const BlCollision *collision)
{
  if (collision->has_density)
    return collision->density;
  if (link->has_density)
    return link->density;
  return DEFAULT_DENSITY;
}

/* The sum of the collisions' inertials in the link frame, each at its
 * density, before any rescaling to <mass>: the one computation behind an
 * automatic link (resolve_auto) and bl_link_compute_auto_inertial.  With
 * `record`, each collision gets its used density, whether it contributes
 * and its inertial, and each one that cannot contribute is the link's
 * diagnostic; without, nothing in the link changes. */
static BlInertial
sum_collision_inertials (BlLink   *link,
                         gboolean  record)
{
  BlInertial sum = { 0.0, BL_VEC3_ZERO, bl_mat3_zero () };

  for (guint i = 0; i < link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (link->collisions, i);
      const char *path = collision->path;
      BlInertial own = { 0.0, BL_VEC3_ZERO, bl_mat3_zero () };
      double density = collision_density (link, collision);
      gboolean solid = geometry_is_solid (collision->geometry.type);

      if (record)
        {
          collision->contributes = FALSE;
          collision->volume = 0.0;
          collision->used_density = density;
          if (!collision->has_density && !link->has_density && !link->has_mass && solid)
            bl_diagnostics_add_static (link->diagnostics, BL_SEVERITY_WARNING, "D3", link_file (link),
                                       collision->line, path,
                                       "no <density> here or in the link's <inertial>: the default "
                                       "1000 kg/m³ (water) is used");
        }

      if (!solid)
        {
          if (record)
            bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "D4", link_file (link),
                                collision->line, path,
                                "the %s geometry has no volume and adds nothing to the automatic "
                                "inertia",
                                bl_geometry_type_to_string (collision->geometry.type));
          continue;
        }

      /* gz-math lets some shapes through with a zero density (a zero-mass
       * capsule is "valid"), so refuse it here, as sdformat #1328 does. */
      if (!(density > 0.0))
        {
          if (record)
            bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "D5", link_file (link),
                                collision->line, path,
                                "density %g is not positive, so this collision adds nothing to the link",
                                density);
          continue;
        }

      if (!shape_inertial (collision, density, record, &own) || !(own.mass > 0.0) ||
          !isfinite (own.mass))
        {
          if (record)
            bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "D5", link_file (link),
                                collision->line, path,
                                "this collision gives no valid inertia (%s) and adds nothing to the link",
                                isinf (own.mass) ? "its mass, density × volume, overflows"
                                : collision->geometry.type != BL_GEOMETRY_MESH ? "its size is invalid"
                                : collision->mesh == NULL ? "its mesh file could not be loaded"
                                : "its mesh encloses no valid volume");
          continue;
        }

      if (record)
        {
          collision->contributes = TRUE;
          collision->volume = own.mass / density;
          collision->inertial = bl_inertial_transform (&own, collision->pose);
          sum = bl_inertial_add (&sum, &collision->inertial);
        }
      else
        {
          BlInertial placed = bl_inertial_transform (&own, collision->pose);

          sum = bl_inertial_add (&sum, &placed);
        }
    }

  return sum;
}

static void
resolve_auto (BlLink     *link,
              BlInertial *total,
              gboolean   *resolved)
{
  BlInertial sum;

  *resolved = FALSE;

  if (link->has_inertial_pose || link->has_inertia)
    bl_diagnostics_add (link->diagnostics, BL_SEVERITY_WARNING, "D2", link_file (link),
                        bl_xml_get_line (link->inertial_node), link->scoped_name,
                        "the inertial is automatic, so the <pose> and <inertia> written here "
                        "are overwritten by the values computed from the collisions");

  if (link->collisions->len == 0)
    {
      bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "D1", link_file (link),
                          bl_xml_get_line (link->inertial_node), link->scoped_name,
                          "the inertial is automatic but the link has no <collision>; "
                          "libsdformat keeps mass 1 and a unit inertia");
      return;
    }

  sum = sum_collision_inertials (link, TRUE);
  if (!(sum.mass > 0.0))
    {
      bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "D5", link_file (link),
                          bl_xml_get_line (link->inertial_node), link->scoped_name,
                          "no collision gave a valid inertia, so the automatic inertial "
                          "cannot be computed");
      return;
    }

  if (link->has_mass)
    {
      if (!(link->mass > 0.0))
        return; /* reported while reading <mass> */
      sum = bl_inertial_scale (&sum, link->mass / sum.mass);
    }

  *total = sum;
  *resolved = TRUE;
}

void
bl_link_compute_mass_properties (BlLink *link)
{
  BlMassProperties *props = &link->props;
  BlInertial total;
  gboolean resolved = TRUE;

  memset (props, 0, sizeof *props);

  if (link->inertial_node != NULL && link->auto_inertia)
    {
      resolve_auto (link, &total, &resolved);
      /* A value that could not be read (a density of "nan", say) was
       * reported; the numbers computed without it are not to be trusted. */
      if (link->input_errors)
        resolved = FALSE;
      if (!resolved)
        {
          /* libsdformat's fallback: mass 1, unit inertia at the link origin. */
          total.mass = 1.0;
          total.com = BL_VEC3_ZERO;
          total.inertia = bl_mat3_identity ();
        }
      props->inertia_c = total.inertia;
    }
  else
    {
      BlMat3 r;

      for (guint i = 0; i < link->collisions->len; i++)
        {
          BlCollision *collision = g_ptr_array_index (link->collisions, i);

          collision->contributes = FALSE;
          collision->used_density = 0.0;
        }

      total.mass = link->mass;
      total.com = link->inertial_pose.p;
      props->inertia_c = bl_inertia_from_sdf (link->inertia[0], link->inertia[1], link->inertia[2],
                                              link->inertia[3], link->inertia[4], link->inertia[5]);
      r = bl_mat3_from_quat (link->inertial_pose.q);
      total.inertia = bl_mat3_rotate (&props->inertia_c, &r);
      resolved = !link->input_errors;
    }

  props->mass = total.mass;
  props->com = total.com;
  props->inertia = total.inertia;
  props->resolved = resolved;
  props->valid = resolved && bl_mass_is_valid (total.mass, &props->inertia_c, BL_MASS_DEFAULT_TOLERANCE);

  bl_mass_principal_axes (&props->inertia, props->principal_moments, &props->principal_axes);
  {
    /* gz-math's preconditions decide whether they exist (the same for the
     * box as for the ellipsoid, and without the axes, which would cost two
     * more eigen-decompositions); the sizes are taken from the ascending
     * principal moments so that entry i pairs with principal axis i
     * (gz-math keeps a diagonal tensor's order). */
    props->has_equivalent =
      bl_mass_equivalent_ellipsoid (total.mass, &props->inertia, props->equivalent_ellipsoid, NULL);
    if (props->has_equivalent)
      {
        const double *l = props->principal_moments;

        for (guint i = 0; i < 3; i++)
          {
            /* difference first, mass divided first: no overflow near DBL_MAX */
            double excess = MAX ((l[(i + 1) % 3] - l[i]) + l[(i + 2) % 3], 0.0);

            props->equivalent_ellipsoid[i] = sqrt (2.5 * (excess / total.mass));
            props->equivalent_box[i] = sqrt (6.0 * (excess / total.mass));
          }
      }
  }

  if (resolved && !props->valid)
    {
      g_autofree char *reason = bl_mass_describe_invalid (total.mass, &props->inertia_c,
                                                          BL_MASS_DEFAULT_TOLERANCE);

      if (reason == NULL)  /* not a number somewhere: the overflow check names it */
        reason = g_strdup ("a value is not a finite number");
      if (link->inertial_node != NULL && link->auto_inertia)
        bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "D8", link_file (link), link->line,
                            link->scoped_name, "the computed inertia is not valid: %s", reason);
      else
        bl_diagnostics_add (link->diagnostics, BL_SEVERITY_ERROR, "D8", link_file (link),
                            bl_xml_get_line (link->inertial_node != NULL ? link->inertial_node : link->node),
                            link->scoped_name, "invalid inertia: %s", reason);
    }

  compute_volumes (link, link->inertial_node != NULL && link->auto_inertia);
  check_overlaps (link, link->inertial_node != NULL && link->auto_inertia);
  check_added_mass (link, link->inertial_node != NULL && link->auto_inertia);
  bl_link_check_overflow (link);
}

BlInertial
bl_model_compute_total (BlModel *model)
{
  BlInertial total = { 0.0, BL_VEC3_ZERO, bl_mat3_zero () };

  g_return_val_if_fail (model != NULL, total);

  for (guint i = 0; i < model->links->len; i++)
    {
      BlLink *link = g_ptr_array_index (model->links, i);
      BlInertial own = { link->props.mass, link->props.com, link->props.inertia };
      BlInertial placed = bl_inertial_transform (&own, link->pose);

      total = bl_inertial_add (&total, &placed);
    }

  for (guint i = 0; i < model->models->len; i++)
    {
      BlModel *nested = g_ptr_array_index (model->models, i);
      BlInertial own = bl_model_compute_total (nested);
      BlInertial placed = bl_inertial_transform (&own, nested->pose);

      total = bl_inertial_add (&total, &placed);
    }

  return total;
}

gboolean
bl_link_compute_auto_inertial (BlLink      *link,
                               BlInertial  *out,
                               GError     **error)
{
  BlInertial sum;

  g_return_val_if_fail (link != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (link->collisions->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "%s has no <collision> to compute an inertia from", link->scoped_name);
      return FALSE;
    }

  /* resolve_auto's computation, without its diagnostics or per-collision
   * results */
  sum = sum_collision_inertials (link, FALSE);
  if (!(sum.mass > 0.0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "no collision of %s gives a valid inertia", link->scoped_name);
      return FALSE;
    }

  /* A replacement for an invalid inertia: a <mass> that is not positive
   * is part of what is wrong, so the densities' mass is kept. */
  if (link->has_mass && link->mass > 0.0)
    sum = bl_inertial_scale (&sum, link->mass / sum.mass);

  *out = sum;
  return TRUE;
}
