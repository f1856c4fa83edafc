/* bl-mesh.c: a triangle mesh (BlMesh), read from a file or arrays, and its
 * exact mass properties, health and warnings.  The other concerns of a
 * mesh have files of their own: see bl-mesh-private.h. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <sys/mman.h>
#include <unistd.h>

#include "bl-file-private.h"
#include "bl-mesh.h"
#include "bl-mesh-private.h"

/* ---------------------------------------------------------------------- */
/* The object                                                               */

static void
props_clear (BlMeshProperties *props)
{
  g_clear_pointer (&props->warnings, g_ptr_array_unref);
}

static BlMesh *
mesh_alloc (const char *path)
{
  BlMesh *mesh = g_new0 (BlMesh, 1);

  mesh->ref_count = 1;
  mesh->path = g_strdup (path);
  mesh->submeshes = g_array_new (FALSE, TRUE, sizeof (BlSubmesh));
  g_array_set_clear_func (mesh->submeshes, bl_mesh_submesh_clear);
  return mesh;
}

BlMesh *
bl_mesh_ref (BlMesh *mesh)
{
  g_return_val_if_fail (mesh != NULL, NULL);

  g_atomic_int_inc (&mesh->ref_count);
  return mesh;
}

void
bl_mesh_unref (BlMesh *mesh)
{
  g_return_if_fail (mesh != NULL);
  g_return_if_fail (g_atomic_int_get (&mesh->ref_count) > 0);

  if (!g_atomic_int_dec_and_test (&mesh->ref_count))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (mesh->slots); i++)
    {
      props_clear (&mesh->slots[i].props);
      g_clear_error (&mesh->slots[i].error);
    }
  if (mesh->submesh_props != NULL)
    {
      for (guint i = 0; i < mesh->submeshes->len; i++)
        props_clear (&mesh->submesh_props[i]);
      g_free (mesh->submesh_props);
    }
  g_array_unref (mesh->submeshes);
  if (mesh->mapping != NULL)
    munmap (mesh->mapping, mesh->mapping_size);
  g_free (mesh->path);
  g_free (mesh->unscaled_key);
  g_free (mesh);
}

static void
update_bounds (BlMesh *mesh)
{
  double lo[3] = { DBL_MAX, DBL_MAX, DBL_MAX };
  double hi[3] = { -DBL_MAX, -DBL_MAX, -DBL_MAX };

  mesh->n_triangles = 0;
  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);

      mesh->n_triangles += s->n_triangles;
      for (guint v = 0; v < s->n_vertices; v++)
        for (int k = 0; k < 3; k++)
          {
            lo[k] = MIN (lo[k], s->vertices[3 * v + k]);
            hi[k] = MAX (hi[k], s->vertices[3 * v + k]);
          }
    }

  if (lo[0] > hi[0])
    lo[0] = lo[1] = lo[2] = hi[0] = hi[1] = hi[2] = 0.0;

  mesh->min = bl_vec3 (lo[0], lo[1], lo[2]);
  mesh->max = bl_vec3 (hi[0], hi[1], hi[2]);
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                  */

static gboolean
select_submesh (BlMesh      *mesh,
                const char  *name,
                gboolean     center,
                GError     **error)
{
  guint found = G_MAXUINT;

  for (guint i = 0; i < mesh->submeshes->len && found == G_MAXUINT; i++)
    if (g_strcmp0 (g_array_index (mesh->submeshes, BlSubmesh, i).name, name) == 0)
      found = i;
  for (guint i = 0; i < mesh->submeshes->len && found == G_MAXUINT; i++)
    if (g_strcmp0 (g_array_index (mesh->submeshes, BlSubmesh, i).mesh_name, name) == 0)
      found = i;

  if (found == G_MAXUINT)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < mesh->submeshes->len; i++)
        g_string_append_printf (names, "%s“%s”", i > 0 ? ", " : "",
                                g_array_index (mesh->submeshes, BlSubmesh, i).name);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_NO_SUBMESH,
                   "Mesh “%s” has no submesh named “%s” (it has %s)",
                   mesh->path, name, names->len > 0 ? names->str : "none");
      return FALSE;
    }

  if (found > 0)
    g_array_remove_range (mesh->submeshes, 0, found);
  if (mesh->submeshes->len > 1)
    g_array_remove_range (mesh->submeshes, 1, mesh->submeshes->len - 1);

  /* gz-common SubMesh::Center: move the bounding-box centre to the origin. */
  if (center)
    {
      BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, 0);
      double c[3];

      update_bounds (mesh);
      c[0] = 0.5 * (mesh->min.x + mesh->max.x);
      c[1] = 0.5 * (mesh->min.y + mesh->max.y);
      c[2] = 0.5 * (mesh->min.z + mesh->max.z);
      for (guint v = 0; v < s->n_vertices; v++)
        for (int k = 0; k < 3; k++)
          s->vertices[3 * v + k] -= c[k];
    }

  return TRUE;
}

static void
apply_scale (BlMesh *mesh,
             BlVec3  scale)
{
  double k[3] = { scale.x, scale.y, scale.z };

  if (k[0] == 1.0 && k[1] == 1.0 && k[2] == 1.0)
    return;

  mesh->mirrored = k[0] * k[1] * k[2] < 0.0;
  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);

      for (guint v = 0; v < s->n_vertices; v++)
        for (int j = 0; j < 3; j++)
          s->vertices[3 * v + j] *= k[j];
      /* A mirror turns an outward winding inward: put it back. */
      if (mesh->mirrored)
        bl_mesh_reverse_winding (s->indices, s->n_triangles);
    }
}

/* Binary STL and PLY files are read in process (bl-mesh-stl.c,
 * bl-mesh-ply.c) unless a test says not. */
static gboolean native_readers = TRUE;

void
bl_mesh_set_native_readers (gboolean enabled)
{
  native_readers = enabled;
}

/* TRUE if every coordinate is finite: exponent bits only, so that the loop
 * runs in vector lanes. */
static gboolean
all_finite (const double *values,
            gsize         n)
{
  const guint64 exponent = G_GUINT64_CONSTANT (0x7ff0000000000000);
  guint64 any = 0;

  for (gsize i = 0; i < n; i++)
    {
      guint64 bits;

      memcpy (&bits, &values[i], 8);
      any |= (bits & exponent) == exponent;
    }
  return any == 0;
}

BlMesh *
bl_mesh_new_from_file (const char  *path,
                       BlVec3       scale,
                       const char  *submesh,
                       gboolean     center,
                       GError     **error)
{
  g_autoptr(BlMesh) mesh = NULL;
  BlNativeMesh native;
  BlNativeStatus status;
  gboolean finite_checked;
  gint64 start;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: no such file", path);
      return NULL;
    }
  {
    /* a file of /proc (/proc/kmsg blocks) or one over 1 GiB is refused
     * before any reader: 20 million triangles of binary STL, far beyond
     * what a collision needs, and a bound on the memory and time one mesh
     * may take (a sparse 4 GB STL took 17 s and 3 GB in process) */
    g_autoptr(GError) open_error = NULL;
    int fd = bl_file_open (path, BL_MESH_MAX_FILE_SIZE, NULL, &open_error);

    if (fd < 0)
      {
        g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD, "Cannot load mesh “%s”: %s",
                     path, open_error->message);
        return NULL;
      }
    close (fd);
  }

  mesh = mesh_alloc (path);
  memset (&bl_mesh_timings, 0, sizeof bl_mesh_timings);
  status = native_readers ? bl_stl_read_binary (path, &native, error) : BL_NATIVE_DECLINED;
  /* the STL reader refuses NaN and infinities itself */
  finite_checked = status == BL_NATIVE_OK;
  if (status == BL_NATIVE_DECLINED && native_readers)
    status = bl_ply_read_binary (path, &native, error);
  if (status == BL_NATIVE_FAILED)
    return NULL;
  if (status == BL_NATIVE_OK)
    {
      /* what the child makes of it: one submesh, its node and mesh unnamed */
      BlSubmesh sub = { g_strdup (""), g_strdup (""), native.vertices, native.n_vertices,
                        native.indices, native.n_triangles, FALSE, TRUE };

      /* the arrays lie in the reader's mapping, as the child's do in its */
      mesh->mapping = native.mapping;
      mesh->mapping_size = native.mapping_size;

      g_array_append_val (mesh->submeshes, sub);
      bl_mesh_timings.native = TRUE;
      bl_mesh_timings.import = native.read_seconds;
      bl_mesh_timings.decode = native.decode_seconds;
      bl_mesh_timings.weld = native.weld_seconds;
      bl_mesh_timings.native_wall = native.wall_seconds;
    }
  else if (!bl_mesh_import (mesh, error))
    {
      g_autofree char *why = error != NULL && *error != NULL ? bl_stl_explain_failure (path) : NULL;

      /* assimp's own words for a damaged binary STL say little */
      if (why != NULL)
        {
          gsize length = strlen ((*error)->message);
          char *message;

          if (length > 0 && (*error)->message[length - 1] == '.')
            length--;
          message = g_strdup_printf ("%.*s; %s", (int) length, (*error)->message, why);

          g_free ((*error)->message);
          (*error)->message = message;
        }
      return NULL;
    }

  /* A NaN or infinite vertex (a binary STL holds any float) would make
   * every number computed from the mesh meaningless: refuse it. */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      const BlSubmesh *sub = &g_array_index (mesh->submeshes, BlSubmesh, i);

      if (finite_checked || all_finite (sub->vertices, 3 * (gsize) sub->n_vertices))
        continue;
      for (gsize k = 0; k < 3 * (gsize) sub->n_vertices; k++)
        if (!isfinite (sub->vertices[k]))
          {
            g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                         "Cannot load mesh “%s”: vertex %" G_GSIZE_FORMAT " of submesh “%s” has a "
                         "coordinate that is not a finite number (NaN or infinity)",
                         path, k / 3, sub->name != NULL ? sub->name : "");
            return NULL;
          }
    }

  if (mesh->submeshes->len == 0)
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_EMPTY,
                   "Mesh “%s” has no triangles", path);
      return NULL;
    }

  if (submesh != NULL && *submesh != '\0')
    {
      if (!select_submesh (mesh, submesh, center, error))
        return NULL;
    }

  apply_scale (mesh, scale);
  update_bounds (mesh);
  bl_mesh_timings.checks += bl_mesh_seconds_between (start, g_get_monotonic_time ());

  return g_steal_pointer (&mesh);
}

BlMesh *
bl_mesh_new_from_triangles (const double   *vertices,
                            guint           n_vertices,
                            const guint32  *indices,
                            guint           n_triangles,
                            GError        **error)
{
  g_autoptr(BlMesh) mesh = NULL;
  BlSubmesh s = { 0 };

  g_return_val_if_fail (vertices != NULL || n_vertices == 0, NULL);
  g_return_val_if_fail (indices != NULL || n_triangles == 0, NULL);

  if (n_triangles == 0 || n_vertices == 0)
    {
      g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_EMPTY, "Mesh has no triangles");
      return NULL;
    }

  for (gsize i = 0; i < 3 * (gsize) n_triangles; i++)
    {
      if (indices[i] >= n_vertices)
        {
          g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                       "Triangle %" G_GSIZE_FORMAT " refers to vertex %u of %u",
                       i / 3, indices[i], n_vertices);
          return NULL;
        }
    }

  mesh = mesh_alloc (NULL);
  s.name = g_strdup ("");
  s.mesh_name = g_strdup ("");
  s.n_vertices = n_vertices;
  s.vertices = g_memdup2 (vertices, 3 * sizeof (double) * n_vertices);
  s.n_triangles = n_triangles;
  s.indices = g_memdup2 (indices, 3 * sizeof (guint32) * n_triangles);
  g_array_append_val (mesh->submeshes, s);
  update_bounds (mesh);

  return g_steal_pointer (&mesh);
}

/* ---------------------------------------------------------------------- */
/* Accessors                                                                */

const char *
bl_mesh_get_path (BlMesh *mesh)
{
  g_return_val_if_fail (mesh != NULL, NULL);
  return mesh->path;
}

const char *
bl_mesh_get_unscaled_key (BlMesh *mesh,
                          BlVec3 *scale)
{
  g_return_val_if_fail (mesh != NULL, NULL);
  if (scale != NULL)
    *scale = mesh->scale;
  return mesh->unscaled_key;
}

void
bl_mesh_get_bounds (BlMesh *mesh,
                    BlVec3 *min,
                    BlVec3 *max)
{
  g_return_if_fail (mesh != NULL);
  if (min != NULL)
    *min = mesh->min;
  if (max != NULL)
    *max = mesh->max;
}

guint
bl_mesh_get_n_triangles (BlMesh *mesh)
{
  g_return_val_if_fail (mesh != NULL, 0);
  return mesh->n_triangles;
}

guint
bl_mesh_get_n_submeshes (BlMesh *mesh)
{
  g_return_val_if_fail (mesh != NULL, 0);
  return mesh->submeshes->len;
}

const char *
bl_mesh_get_submesh_name (BlMesh *mesh,
                          guint   submesh)
{
  g_return_val_if_fail (mesh != NULL, NULL);
  g_return_val_if_fail (submesh < mesh->submeshes->len, NULL);
  return g_array_index (mesh->submeshes, BlSubmesh, submesh).name;
}

const double *
bl_mesh_get_submesh_vertices (BlMesh *mesh,
                              guint   submesh,
                              guint  *n_vertices)
{
  const BlSubmesh *s;

  g_return_val_if_fail (mesh != NULL, NULL);
  g_return_val_if_fail (submesh < mesh->submeshes->len, NULL);

  s = &g_array_index (mesh->submeshes, BlSubmesh, submesh);
  if (n_vertices != NULL)
    *n_vertices = s->n_vertices;
  return s->vertices;
}

const guint32 *
bl_mesh_get_submesh_indices (BlMesh *mesh,
                             guint   submesh,
                             guint  *n_triangles)
{
  const BlSubmesh *s;

  g_return_val_if_fail (mesh != NULL, NULL);
  g_return_val_if_fail (submesh < mesh->submeshes->len, NULL);

  s = &g_array_index (mesh->submeshes, BlSubmesh, submesh);
  if (n_triangles != NULL)
    *n_triangles = s->n_triangles;
  return s->indices;
}
/* ---------------------------------------------------------------------- */
/* Mass properties                                                          */

static void G_GNUC_PRINTF (2, 3)
add_warning (BlMeshProperties *props,
             const char       *format,
             ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (props->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

static void
negate_moments (double m[BL_MESH_N_MOMENTS])
{
  for (int i = 0; i < BL_MESH_N_MOMENTS; i++)
    m[i] = -m[i];
}

static double
vec3_distance (BlVec3 a,
               BlVec3 b)
{
  return sqrt ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

static void
health_to_props (const BlMeshHealth *h,
                 BlMeshProperties   *props)
{
  props->n_degenerate_triangles = h->degenerate_triangles;
  props->boundary_edges = h->boundary_edges;
  props->n_holes = h->n_holes;
  props->non_manifold_edges = h->non_manifold_edges;
  props->inconsistent_edges = h->inconsistent_edges;
  props->duplicate_triangles = h->duplicate_triangles;
  props->watertight = h->boundary_edges == 0 && h->non_manifold_edges == 0;
  props->hole_volume = h->cap_moments[0];
}

/* Health warnings, given the (final, positive) result; size is the
 * mesh's diagonal. */
static void
warn_health (BlMeshProperties   *props,
             const BlMeshHealth *h,
             double              size)
{

  if (h->boundary_edges > 0 && h->cap_area <= 1e-9 * size * size)
    add_warning (props,
                 "The mesh has %u boundary edges around %u crack%s of no area "
                 "(e.g. T-junctions): the result is unaffected.",
                 h->boundary_edges, h->n_holes, h->n_holes == 1 ? "" : "s");
  else if (h->boundary_edges > 0)
    add_warning (props,
                 "The mesh is open: %u boundary edges around %u hole%s (%.3g m² in all). "
                 "Ballast closes %s with flat caps: the volume, %.6g m³, the centroid and the "
                 "inertia are the closed solid's, wherever the mesh sits. gz-sim integrates the "
                 "open surface about the mesh origin, which gives %.6g m³ here and changes when the "
                 "mesh is moved. Close the mesh, or use optimization=\"convex_hull\".",
                 h->boundary_edges, h->n_holes, h->n_holes == 1 ? "" : "s", h->cap_area,
                 h->n_holes == 1 ? "it" : "them", props->volume, props->gz_volume);

  if (h->non_manifold_edges > 0)
    add_warning (props,
                 "%u edges are shared by more than two triangles (non-manifold): "
                 "touching or overlapping shells are each integrated whole, so volume "
                 "they share is counted more than once.",
                 h->non_manifold_edges);

  if (h->duplicate_triangles > 0)
    add_warning (props,
                 "%u triangles repeat an earlier triangle's vertices; those wound the "
                 "same way count their part of the volume twice (%.3g %% of the volume).",
                 h->duplicate_triangles,
                 props->volume > 0.0 ? 100.0 * fabs (h->dup_volume) / props->volume : 0.0);
}

static void
props_init (BlMeshProperties *props)
{
  memset (props, 0, sizeof *props);
  props->warnings = g_ptr_array_new_with_free_func (g_free);
}

static gboolean
compute_mesh_props (BlMesh            *mesh,
                    BlMeshProperties  *props,
                    GError           **error)
{
  /* Closed surfaces, and open ones closed with caps, are integrated about
   * the bounding-box centre, which avoids cancellation; a surface that
   * is neither (edges crossed unevenly, but no hole) about the mesh
   * origin, exactly as gz-sim does. */
  double ref_box[3] = {
    0.5 * (mesh->min.x + mesh->max.x),
    0.5 * (mesh->min.y + mesh->max.y),
    0.5 * (mesh->min.z + mesh->max.z),
  };
  static const double origin[3] = { 0.0, 0.0, 0.0 };
  guint n_sub = mesh->submeshes->len;
  double total_box[BL_MESH_N_MOMENTS] = { 0 };
  double total_origin[BL_MESH_N_MOMENTS] = { 0 };
  const double *ref;
  double *total;
  double gz_volume = 0.0;
  gboolean flipped = FALSE;
  gboolean any_reoriented = FALSE;
  gboolean any_inside_out = FALSE;
  gboolean open;
  BlMeshHealth reported;   /* the union as stored */
  BlMeshHealth fixed;      /* the union as integrated (mixed winding repaired) */
  double size = vec3_distance (mesh->max, mesh->min);
  g_autofree const guint32 **work = g_new0 (const guint32 *, n_sub);
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  BlMeshSideMoments side = { NULL, ref_box, FALSE, { 0 } };

  mesh->submesh_props = g_new0 (BlMeshProperties, n_sub);
  for (guint i = 0; i < n_sub; i++)
    {
      const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);

      props_init (&mesh->submesh_props[i]);
      work[i] = s->indices;
    }

  /* one submesh: its moments about the box centre, needed below in any
   * case, are integrated during the health check */
  if (n_sub == 1)
    side.vertices = g_array_index (mesh->submeshes, BlSubmesh, 0).vertices;
  bl_mesh_union_health (mesh, work, ref_box, &reported, n_sub == 1 ? &side : NULL);
  fixed = reported;

  for (guint i = 0; i < n_sub; i++)
    {
      const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);
      BlMeshProperties *sp = &mesh->submesh_props[i];
      double m_box[BL_MESH_N_MOMENTS];
      double m_origin[BL_MESH_N_MOMENTS];
      gboolean gz_reversed = s->node_mirrored != mesh->mirrored;
      gboolean about_box;
      BlMeshHealth h;

      if (n_sub == 1)
        h = reported;
      else
        bl_mesh_analyse_health (s->vertices, s->indices, s->n_triangles, ref_box, &h);
      health_to_props (&h, sp);
      sp->n_triangles = s->n_triangles;
      sp->mirrored = mesh->mirrored;

      /* gz-sim's numbers for this submesh, as stored */
      about_box = h.is_cycle;
      if (about_box && side.done)
        memcpy (m_origin, side.moments, sizeof m_origin);
      else
        bl_mesh_integrate_moments (s->vertices, s->indices, s->n_triangles,
                                   about_box ? ref_box : origin, m_origin);
      bl_mesh_moments_to_props (m_origin, h.is_cycle ? ref_box : origin,
                                &sp->volume, &sp->centroid, &sp->inertia);
      sp->gz_volume = gz_reversed ? -sp->volume : sp->volume;
      gz_volume += sp->gz_volume;

      if (h.inconsistent_edges > 0)
        {
          guint32 *turned = bl_mesh_reorient (s->vertices, s->indices, s->n_triangles, ref_box);

          g_ptr_array_add (owned, turned);
          work[i] = turned;
          any_reoriented = TRUE;
          bl_mesh_analyse_health (s->vertices, turned, s->n_triangles, ref_box, &h);
        }

      /* the same triangles about the same point: the same moments */
      if (about_box && work[i] == s->indices)
        memcpy (m_box, m_origin, sizeof m_box);
      else if (side.done && work[i] == s->indices)
        memcpy (m_box, side.moments, sizeof m_box);
      else
        bl_mesh_integrate_moments (s->vertices, work[i], s->n_triangles, ref_box, m_box);

      /* A closed submesh with negative volume is inside-out as a whole.
       * One too small to matter against the mesh's own size (a sliver
       * of 1e-19 m³ in a metre-sized mesh) is flipped without a word. */
      if (n_sub > 1 && h.is_cycle && m_box[0] < 0.0)
        {
          negate_moments (m_box);
          sp->inside_out = TRUE;
          any_inside_out = TRUE;
          if (fabs (sp->volume) > 1e-9 * size * size * size)
            add_warning (props,
                         "Submesh “%s” is inside-out (its triangles face inward, volume %.6g m³): "
                         "Ballast flips it; gz-sim would integrate a negative volume for it.",
                         s->name, sp->volume);
        }

      if (n_sub > 1 && !sp->watertight && reported.boundary_edges == 0)
        add_warning (props,
                     "Submesh “%s” is not closed on its own (%u boundary edges), though the "
                     "whole mesh is: gz-sim integrates each submesh separately and may find "
                     "this one invalid.",
                     s->name, sp->boundary_edges);

      for (int k = 0; k < BL_MESH_N_MOMENTS; k++)
        total_box[k] += m_box[k];
    }

  if (any_reoriented)
    bl_mesh_union_health (mesh, work, ref_box, &fixed, NULL);

  /* An open surface is closed with flat caps over its holes (the box
   * centre's moments of both), so that nothing depends on where it sits;
   * gz-sim's open-surface numbers stay in gz_volume and the notes. */
  open = fixed.boundary_edges > 0;
  if (open)
    for (int k = 0; k < BL_MESH_N_MOMENTS; k++)
      total_box[k] += fixed.cap_moments[k];

  if (!fixed.is_cycle && !open)
    {
      for (guint i = 0; i < n_sub; i++)
        {
          const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);
          double m[BL_MESH_N_MOMENTS];

          bl_mesh_integrate_moments (s->vertices, work[i], s->n_triangles, origin, m);
          if (mesh->submesh_props[i].inside_out)
            negate_moments (m);
          for (int k = 0; k < BL_MESH_N_MOMENTS; k++)
            total_origin[k] += m[k];
        }
    }

  health_to_props (&reported, props);
  props->n_triangles = mesh->n_triangles;
  props->mirrored = mesh->mirrored;
  props->gz_volume = gz_volume;

  if (fixed.is_cycle || open)
    {
      ref = ref_box;
      total = total_box;
    }
  else
    {
      ref = origin;
      total = total_origin;
    }

  if (total[0] < 0.0)
    {
      negate_moments (total);
      if (total != total_box)
        negate_moments (total_box);
      flipped = TRUE;
      any_inside_out = TRUE;
    }
  props->inside_out = any_inside_out;

  if (!isfinite (size * size * size) || !isfinite (total[0]))
    {
      /* not "encloses no volume (0 m³)": the numbers overflowed */
      double extent = MAX (MAX (mesh->max.x - mesh->min.x, mesh->max.y - mesh->min.y),
                           mesh->max.z - mesh->min.z);

      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                   "Mesh “%s” is too large to compute: it is %.3g m across, and its volume "
                   "overflows a double", mesh->path != NULL ? mesh->path : "(arrays)", extent);
      return FALSE;
    }
  if (!bl_mesh_moments_to_props (total, ref, &props->volume, &props->centroid, &props->inertia)
      || props->volume <= 1e-12 * size * size * size)
    {
      if (open)
        {
          /* a soup of loose triangles: each cap cancels its triangle */
          g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                       "Mesh “%s” is open (%u boundary edges around %u holes) and closing it gives "
                       "no volume (%.3g m³): it is flat, or loose triangles rather than a surface",
                       mesh->path != NULL ? mesh->path : "(arrays)", fixed.boundary_edges,
                       fixed.n_holes, props->volume);
        }
      else
        g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                     "Mesh “%s” encloses no volume (%.3g m³): it is flat or not a closed surface",
                     mesh->path != NULL ? mesh->path : "(arrays)", props->volume);
      return FALSE;
    }

  if (flipped)
    add_warning (props,
                 "The mesh is inside-out: its triangles face inward (signed volume %.6g m³). "
                 "Ballast flips it; gz-sim would compute a negative mass and reject this "
                 "collision's inertia.",
                 -props->volume);

  if (mesh->mirrored)
    add_warning (props,
                 "The negative <scale> mirrors the mesh: Ballast reverses the triangles to keep "
                 "them facing outward, but gz-sim does not, so it would get a negative volume "
                 "(%.6g m³) and reject this collision's inertia.",
                 gz_volume);

  for (guint i = 0; i < n_sub; i++)
    if (g_array_index (mesh->submeshes, BlSubmesh, i).node_mirrored)
      {
        add_warning (props,
                     "Submesh “%s” is placed by a mirroring node transform: Ballast reverses its "
                     "triangles; gz-sim does not and integrates it inside-out.",
                     g_array_index (mesh->submeshes, BlSubmesh, i).name);
      }

  if (reported.inconsistent_edges > 0)
    add_warning (props,
                 "%u edges join triangles wound in opposite directions, so part of the "
                 "surface faces inward. Ballast turns those triangles to match their "
                 "neighbours (volume %.6g m³); gz-sim integrates them as they are "
                 "(volume %.6g m³, %.3g %% off). Fix the face orientation of the mesh.",
                 reported.inconsistent_edges, props->volume, gz_volume,
                 100.0 * fabs (gz_volume - props->volume) / props->volume);

  warn_health (props, &fixed, size);

  return TRUE;
}

static gboolean
compute_hull_props (BlMesh            *mesh,
                    BlMeshProperties  *props,
                    GError           **error)
{
  g_autofree double *points = NULL;
  g_autofree guint32 *triangles = NULL;
  gsize n_points = 0, o = 0;
  gsize n_tri = 0;
  g_autoptr(BlMesh) hull = NULL;
  BlMeshPropsSlot *slot;

  for (guint i = 0; i < mesh->submeshes->len; i++)
    n_points += g_array_index (mesh->submeshes, BlSubmesh, i).n_vertices;

  points = g_new (double, 3 * n_points);
  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);

      memcpy (&points[3 * o], s->vertices, 3 * sizeof (double) * s->n_vertices);
      o += s->n_vertices;
    }

  triangles = bl_mesh_convex_hull (points, n_points, &n_tri, error);
  if (triangles == NULL)
    {
      g_prefix_error (error, "Cannot compute the convex hull of mesh “%s”: ",
                      mesh->path != NULL ? mesh->path : "(arrays)");
      return FALSE;
    }

  hull = bl_mesh_new_from_triangles (points, n_points, triangles, n_tri, error);
  if (hull == NULL)
    return FALSE;
  g_free (hull->path);
  hull->path = g_strdup (mesh->path);

  /* the hull's own warnings (a flat hull, say) need an array to go to */
  props_init (&hull->slots[0].props);
  if (!compute_mesh_props (hull, &hull->slots[0].props, error))
    return FALSE;

  slot = &hull->slots[0];
  *props = slot->props;
  slot->props.warnings = NULL;
  props->mirrored = mesh->mirrored;
  props->n_triangles = n_tri;
  props->gz_volume = props->volume;
  return TRUE;
}

static GMutex props_lock;

gboolean
bl_mesh_get_mass_properties (BlMesh            *mesh,
                             gboolean           convex_hull,
                             BlMeshProperties  *out,
                             GError           **error)
{
  BlMeshPropsSlot *slot;

  g_return_val_if_fail (mesh != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  slot = &mesh->slots[convex_hull ? 1 : 0];
  /* A cached mesh can be shared by a document loading in a thread and the
   * open one: its properties are computed once, by one of them. */
  g_mutex_lock (&props_lock);
  if (!slot->computed)
    {
      bl_mesh_timings.health = 0.0;
      bl_mesh_timings.integrate = 0.0;
      props_init (&slot->props);
      if (convex_hull)
        {
          g_clear_pointer (&slot->props.warnings, g_ptr_array_unref);
          slot->ok = compute_hull_props (mesh, &slot->props, &slot->error);
          if (slot->props.warnings == NULL)
            slot->props.warnings = g_ptr_array_new_with_free_func (g_free);
        }
      else
        {
          slot->ok = compute_mesh_props (mesh, &slot->props, &slot->error);
        }
      slot->computed = TRUE;
    }
  g_mutex_unlock (&props_lock);

  if (!slot->ok)
    {
      if (error != NULL)
        *error = g_error_copy (slot->error);
      return FALSE;
    }

  *out = slot->props;
  return TRUE;
}

gboolean
bl_mesh_get_submesh_mass_properties (BlMesh           *mesh,
                                     guint             submesh,
                                     BlMeshProperties *out)
{
  g_return_val_if_fail (mesh != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (submesh >= mesh->submeshes->len)
    return FALSE;

  {
    BlMeshProperties unused;

    /* Computes once, under the lock; fills submesh_props. */
    bl_mesh_get_mass_properties (mesh, FALSE, &unused, NULL);
  }

  if (mesh->submesh_props == NULL)
    return FALSE;

  *out = mesh->submesh_props[submesh];
  return TRUE;
}
