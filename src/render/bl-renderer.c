/* bl-renderer.c: the renderer's life cycle, and its instances kept in step with the scene. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>

#include "bl-renderer-private.h"

const float bl_render_background_color[3] = { 0.18f, 0.19f, 0.21f };
const float bl_render_selection_color[3] = { 1.00f, 0.58f, 0.12f };
const float bl_render_warning_color[3] = { 0.90f, 0.15f, 0.10f };
const float bl_render_ellipsoid_color[3] = { 0.20f, 0.85f, 0.30f };
const float bl_render_added_mass_color[3] = { 0.65f, 0.35f, 1.00f };
const float bl_render_box_color[3] = { 1.00f, 0.30f, 0.60f };
const float bl_render_com_color[3] = { 0.95f, 0.95f, 0.95f };
const float bl_render_com_dark_color[3] = { 0.08f, 0.08f, 0.08f };
const float bl_render_buoyancy_color[3] = { 0.15f, 0.55f, 1.00f };
const float bl_render_grid_color[3] = { 0.32f, 0.33f, 0.36f };

void
bl_render_link_color (guint  index,
                      float  rgb[3])
{
  /* Golden-angle hues at low saturation: near-neutral bodies told apart
   * by a tint, so that the saturated overlay, warning and selection
   * colours stand out against every one of them. */
  double h = fmod (0.58 + index * 0.6180339887498949, 1.0);
  double s = 0.16, v = 0.80;
  double hh = fmod (h * 6.0, 6.0);
  int i = (int) floor (hh);
  double f = hh - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  double r, g, b;

  switch (i)
    {
    case 0: r = v; g = t; b = p; break;
    case 1: r = q; g = v; b = p; break;
    case 2: r = p; g = v; b = t; break;
    case 3: r = p; g = q; b = v; break;
    case 4: r = t; g = p; b = v; break;
    default: r = v; g = p; b = q; break;
    }
  rgb[0] = (float) r;
  rgb[1] = (float) g;
  rgb[2] = (float) b;
}

BlRenderer *
bl_renderer_new (gboolean   use_es,
                 GError   **error)
{
  BlRenderer *self = g_new0 (BlRenderer, 1);

  self->use_es = use_es;
  if (!bl_program_init (&self->general, "mesh", "", use_es, error)
      || !bl_program_init (&self->body[BODY_FLAT], "body", "", use_es, error)
      || !bl_program_init (&self->body[BODY_SMOOTH], "body", "#define SMOOTH 1\n", use_es, error)
      || !bl_program_init (&self->body[BODY_SMOOTH_FALLBACK], "body", "#define SMOOTH 1\n#define NORMAL_FALLBACK 1\n",
                           use_es, error)
      || !bl_program_init (&self->shell[0], "shell", "", use_es, error)
      || !bl_program_init (&self->shell[1], "shell", "#define NORMAL_FALLBACK 1\n", use_es, error)
      || !bl_program_init (&self->rings[0], "shell", "#define RINGS 1\n", use_es, error)
      || !bl_program_init (&self->rings[1], "shell", "#define RINGS 1\n#define NORMAL_FALLBACK 1\n", use_es, error))
    {
      bl_renderer_delete_programs (self);
      g_free (self);
      return NULL;
    }
  if (bl_renderer_gl_is_software ())
    self->flush_triangles = FLUSH_TRIANGLES;

  self->batches = g_ptr_array_new_with_free_func (bl_batch_free);
  self->mesh_gpu = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) bl_mesh_unref, bl_gpu_mesh_unref);
  self->unscaled_gpu = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, bl_gpu_mesh_unref);
  self->mesh_batches = g_hash_table_new (NULL, NULL);
  self->dirty_links = g_hash_table_new (NULL, NULL);
  self->ranges = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->draw_counts = g_array_new (FALSE, FALSE, sizeof (GLsizei));
  self->draw_offsets = g_array_new (FALSE, FALSE, sizeof (const void *));
  self->candidates = g_array_new (FALSE, FALSE, sizeof (BlCandidate));
  self->unstarted_jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_gpu_mesh_job_unref);
  self->notify = bl_job_notify_new ();
  bl_renderer_make_fixed_meshes (self);
  self->need_rebuild = TRUE;
  return self;
}

void
bl_renderer_free (BlRenderer *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->batches);
  g_hash_table_unref (self->mesh_batches);
  g_hash_table_unref (self->mesh_gpu);
  g_hash_table_unref (self->unscaled_gpu);
  for (int l = 0; l < N_LODS; l++)
    for (int p = 0; p < BL_PRIM_MESH; p++)
      bl_gpu_mesh_free (self->prims[l][p]);
  bl_gpu_mesh_free (self->marker);
  bl_gpu_mesh_free (self->cube_edges);
  bl_gpu_mesh_free (self->axes_lines);
  bl_gpu_mesh_free (self->grid);
  bl_gpu_mesh_free (self->triad);
  g_clear_pointer (&self->links, g_ptr_array_unref);
  g_free (self->slots);
  g_free (self->slot_first);
  g_hash_table_unref (self->dirty_links);
  g_array_unref (self->ranges);
  g_array_unref (self->draw_counts);
  g_array_unref (self->draw_offsets);
  g_array_unref (self->candidates);
  bl_occlusion_free (self);
  g_ptr_array_unref (self->unstarted_jobs);
  /* Jobs still running report to nobody. */
  self->notify->func = NULL;
  self->notify->data = NULL;
  bl_job_notify_unref (self->notify);
  g_clear_pointer (&self->panel_vertices, g_array_unref);
  if (self->panel_vao != 0)
    {
      glDeleteVertexArrays (1, &self->panel_vao);
      glDeleteBuffers (1, &self->panel_vbo);
    }
  bl_renderer_delete_programs (self);
  g_free (self);
}

void
bl_renderer_set_scene (BlRenderer *self,
                       GPtrArray  *links)
{
  g_clear_pointer (&self->links, g_ptr_array_unref);
  self->links = links != NULL ? g_ptr_array_ref (links) : NULL;
  self->need_rebuild = TRUE;
  g_hash_table_remove_all (self->dirty_links);
}

void
bl_renderer_link_changed (BlRenderer  *self,
                          BlSceneLink *link)
{
  g_hash_table_add (self->dirty_links, link);
}

void
bl_renderer_set_mesh_jobs_func (BlRenderer *self,
                                void      (*func) (gpointer data),
                                gpointer    data)
{
  self->notify->func = func;
  self->notify->data = data;
}

guint
bl_renderer_get_n_rebuilds (BlRenderer *self)
{
  return self->n_rebuilds;
}

/* ---- Instances from the scene --------------------------------------------- */

static BlBatch *
batch_for_shape (BlRenderer   *self,
                 BlSceneShape *shape)
{
  BlBatch *batch;

  if (shape->prim != BL_PRIM_MESH)
    return self->prim_batches[shape->prim];
  batch = g_hash_table_lookup (self->mesh_batches, shape->mesh);
  if (batch == NULL)
    {
      BlGpuMesh *gpu = bl_renderer_gpu_mesh_for (self, shape->mesh);
      BlVec3 scale;

      batch = bl_batch_new (self, gpu, gpu->bound_radius, bl_render_mesh_is_closed (shape->mesh));
      /* Another scale's geometry: this one's is that scaled further. */
      if (gpu->unscaled_key != NULL && bl_mesh_get_unscaled_key (shape->mesh, &scale) != NULL)
        {
          batch->rescale[0] = scale.x / gpu->scale.x;
          batch->rescale[1] = scale.y / gpu->scale.y;
          batch->rescale[2] = scale.z / gpu->scale.z;
        }
      g_hash_table_insert (self->mesh_batches, shape->mesh, batch);
    }
  return batch;
}

/* The warning colour for an invalid inertia, and while the added-mass
 * overlay is on for an added-mass matrix that is not physical (no
 * ellipsoid is drawn for either). */
void
bl_renderer_link_shape_color (BlRenderer  *self,
                              BlSceneLink *link,
                              float        rgb[3])
{
  if (!link->valid || (self->shown_added_mass && link->added_mass_invalid))
    memcpy (rgb, bl_render_warning_color, 3 * sizeof (float));
  else
    bl_render_link_color (link->index, rgb);
}

static void
translate_scale (const double p[3],
                 double       s,
                 double       m[16])
{
  memset (m, 0, 16 * sizeof (double));
  m[0] = m[5] = m[10] = s;
  m[12] = p[0];
  m[13] = p[1];
  m[14] = p[2];
  m[15] = 1.0;
}

/* Whether LINK has overlay O (the renderer keeps no instance for a
 * missing one). */
static gboolean
overlay_present (const BlSceneLink *link,
                 BlOverlay          o)
{
  switch (o)
    {
    case OVERLAY_ELLIPSOID: return link->has_ellipsoid;
    case OVERLAY_ADDED_MASS: return link->has_added_mass;
    case OVERLAY_BOX: return link->has_box;
    case OVERLAY_COM: return link->has_com;
    case OVERLAY_BUOYANCY: return link->has_buoyancy;
    case OVERLAY_AXES: return link->has_ellipsoid;
    case N_OVERLAYS:
    default: return FALSE;
    }
}

/* The matrix of overlay O of LINK, which has it (overlay_present). */
static void
overlay_matrix (const BlSceneLink *link,
                BlOverlay          o,
                double             m[16])
{
  switch (o)
    {
    case OVERLAY_ELLIPSOID:
      bl_scene_link_get_ellipsoid (link, m);
      break;
    case OVERLAY_ADDED_MASS:
      memcpy (m, link->added_mass, 16 * sizeof (double));
      break;
    case OVERLAY_BOX:
      bl_scene_link_get_box (link, m);
      break;
    case OVERLAY_COM:
      translate_scale (link->com, link->marker_size, m);
      break;
    case OVERLAY_BUOYANCY:
      translate_scale (link->buoyancy, 0.8 * link->marker_size, m);
      break;
    case OVERLAY_AXES:
    case N_OVERLAYS:
    default:
      memset (m, 0, 16 * sizeof (double));
      for (int i = 0; i < 3; i++)
        {
          double len = 1.25 * MAX (link->axis_length[i], link->marker_size);

          for (int r = 0; r < 3; r++)
            m[i * 4 + r] = link->axes[i][r] * len;
        }
      memcpy (&m[12], link->com, 3 * sizeof (double));
      m[15] = 1.0;
      break;
    }
}

/* Whether OPTIONS draw overlay O: only then does its batch keep instances. */
static gboolean
overlay_shown (const BlRenderOptions *options,
               BlOverlay              o)
{
  switch (o)
    {
    case OVERLAY_ELLIPSOID: return options->show_inertia_ellipsoid;
    case OVERLAY_ADDED_MASS: return options->show_added_mass;
    case OVERLAY_BOX: return options->show_inertia_box;
    case OVERLAY_COM: return options->show_com;
    case OVERLAY_BUOYANCY: return options->show_buoyancy_center;
    case OVERLAY_AXES: return options->show_principal_axes;
    case N_OVERLAYS:
    default: return FALSE;
    }
}

static const float *
overlay_color (BlOverlay overlay)
{
  switch (overlay)
    {
    case OVERLAY_ELLIPSOID: return bl_render_ellipsoid_color;
    case OVERLAY_ADDED_MASS: return bl_render_added_mass_color;
    case OVERLAY_BOX: return bl_render_box_color;
    case OVERLAY_COM: return bl_render_com_color;
    case OVERLAY_BUOYANCY: return bl_render_buoyancy_color;
    case OVERLAY_AXES:
    case N_OVERLAYS:
    default: return bl_render_box_color;
    }
}

static gboolean
mesh_is_unused (gpointer key,
                gpointer value,
                gpointer data)
{
  BlRenderer *self = data;

  return !g_hash_table_contains (self->mesh_batches, key);
}

/* Only the unscaled table holds it. */
static gboolean
gpu_mesh_is_unused (gpointer key,
                    gpointer value,
                    gpointer data)
{
  return ((BlGpuMesh *) value)->ref_count == 1;
}

/* Keeps an instance of overlay O for each link that has it, in the
 * links' order. */
static void
fill_overlay (BlRenderer *self,
              BlOverlay   o)
{
  BlBatch *batch = self->overlays[o];
  guint n = self->links != NULL ? self->links->len : 0, count = 0;

  bl_batch_clear (batch);
  for (guint i = 0; i < n; i++)
    count += overlay_present (g_ptr_array_index (self->links, i), o);
  bl_batch_reserve (batch, count);
  for (guint i = 0; i < n; i++)
    {
      BlSceneLink *link = g_ptr_array_index (self->links, i);
      double m[16];

      if (!overlay_present (link, o))
        continue;
      overlay_matrix (link, o, m);
      bl_batch_append (batch, m, overlay_color (o), (float) i, link->is_static ? 1.0f : 0.0f, 0.0f);
    }
  /* Drawn as a batch of one instance per link. */
  batch->n_nominal = n;
  self->overlay_filled[o] = TRUE;
  self->overlay_stale[o] = FALSE;
}

/* The instance of link INDEX in an overlay's BATCH (kept in the links'
 * order), or G_MAXUINT when it has none. */
static guint
find_overlay_instance (BlBatch *batch,
                       guint    index)
{
  guint lo = 0, hi = batch->n_instances;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      float link = batch->instances[(gsize) mid * INSTANCE_FLOATS + 29];

      if (link < (float) index)
        lo = mid + 1;
      else if (link > (float) index)
        hi = mid;
      else
        return mid;
    }
  return G_MAXUINT;
}

static void
rebuild (BlRenderer *self)
{
  guint n = self->links != NULL ? self->links->len : 0, n_slots = 0;
  static const double prim_radius[BL_PRIM_MESH] = {
    [BL_PRIM_BOX] = 0.8660254037844386,
    [BL_PRIM_SPHERE] = 1.0,
    [BL_PRIM_CYLINDER] = 1.118033988749895,
    [BL_PRIM_CONE] = 1.118033988749895,
    [BL_PRIM_PLANE] = 0.7071067811865476,
  };

  /* Instance batches only; meshes' GPU buffers stay shared and cached. */
  g_hash_table_remove_all (self->mesh_batches);
  g_ptr_array_set_size (self->batches, 0);
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->slot_first, g_free);
  self->n_slot_links = 0;

  {
    double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    static const float white[3] = { 1, 1, 1 };

    self->grid_batch = bl_batch_new (self, self->grid, 1.0, FALSE);
    bl_batch_append (self->grid_batch, identity, bl_render_grid_color, -1.0f, 0.0f, 0.0f);
    self->triad_batch = bl_batch_new (self, self->triad, 1.0, FALSE);
    bl_batch_append (self->triad_batch, identity, white, -1.0f, 0.0f, 0.0f);
  }
  for (int p = 0; p < BL_PRIM_MESH; p++)
    {
      gboolean curved = p == BL_PRIM_SPHERE || p == BL_PRIM_CYLINDER || p == BL_PRIM_CONE;

      self->prim_batches[p] = bl_batch_new (self, self->prims[0][p], prim_radius[p], p != BL_PRIM_PLANE);
      self->prim_batches[p]->prim = p;
      if (curved)
        bl_batch_set_lods (self->prim_batches[p], self->prims[1][p], self->prims[2][p], self->prims[3][p]);
    }
  for (int o = OVERLAY_ELLIPSOID; o <= OVERLAY_ADDED_MASS; o++)
    {
      self->overlays[o] = bl_batch_new (self, self->prims[0][BL_PRIM_SPHERE], 1.0, TRUE);
      self->overlays[o]->prim = BL_PRIM_SPHERE;
      bl_batch_set_lods (self->overlays[o], self->prims[1][BL_PRIM_SPHERE], self->prims[2][BL_PRIM_SPHERE],
                         self->prims[3][BL_PRIM_SPHERE]);
    }
  self->overlays[OVERLAY_BOX] = bl_batch_new (self, self->cube_edges, 0.8660254037844386, FALSE);
  self->overlays[OVERLAY_COM] = bl_batch_new (self, self->marker, 1.0, TRUE);
  self->overlays[OVERLAY_BUOYANCY] = bl_batch_new (self, self->marker, 1.0, TRUE);
  self->overlays[OVERLAY_COM]->markers = self->overlays[OVERLAY_BUOYANCY]->markers = TRUE;
  self->overlays[OVERLAY_AXES] = bl_batch_new (self, self->axes_lines, 1.0, FALSE);

  /* Each batch's instances counted first, to hold exactly those. */
  {
    g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
    GHashTableIter iter;
    gpointer key, value;

    for (guint i = 0; i < n; i++)
      {
        BlSceneLink *link = g_ptr_array_index (self->links, i);

        n_slots += link->n_shapes;
        for (guint s = 0; s < link->n_shapes; s++)
          {
            BlBatch *batch = batch_for_shape (self, &link->shapes[s]);

            g_hash_table_insert (counts, batch,
                                 GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, batch)) + 1));
          }
      }
    g_hash_table_iter_init (&iter, counts);
    while (g_hash_table_iter_next (&iter, &key, &value))
      bl_batch_reserve (key, GPOINTER_TO_UINT (value));
  }
  self->slots = g_new (BlSlot, n_slots);
  self->slot_first = g_new (guint, n + 1);
  self->n_slot_links = n;
  n_slots = 0;
  for (guint i = 0; i < n; i++)
    {
      BlSceneLink *link = g_ptr_array_index (self->links, i);
      float color[3];

      self->slot_first[i] = n_slots;
      bl_renderer_link_shape_color (self, link, color);
      for (guint s = 0; s < link->n_shapes; s++)
        {
          BlSceneShape *shape = &link->shapes[s];
          BlSlot *slot = &self->slots[n_slots++];

          slot->batch = batch_for_shape (self, shape);
          slot->index = bl_batch_append (slot->batch, shape->model, color, (float) i, 0.0f, (float) shape->collision);
        }
    }
  self->slot_first[n] = n_slots;
  for (int o = 0; o < N_OVERLAYS; o++)
    {
      self->overlay_filled[o] = FALSE;
      if (overlay_shown (&self->shown, o))
        fill_overlay (self, o);
    }
  /* Meshes no shape uses any more (those of a document closed or
   * replaced) go, with their levels and any thread still making them. */
  g_hash_table_foreach_remove (self->mesh_gpu, mesh_is_unused, self);
  g_hash_table_foreach_remove (self->unscaled_gpu, gpu_mesh_is_unused, NULL);
  self->need_rebuild = FALSE;
  self->n_rebuilds++;
  g_hash_table_remove_all (self->dirty_links);
}

/* Rewrites LINK's instances in place; FALSE when its shapes no longer fit
 * the slots it had (then the caller rebuilds). */
static gboolean
update_link (BlRenderer  *self,
             BlSceneLink *link)
{
  BlSlot *slots;
  float color[3];
  guint i = link->index;

  if (i >= self->n_slot_links || g_ptr_array_index (self->links, i) != link)
    return FALSE;
  slots = self->slots + self->slot_first[i];
  if (self->slot_first[i + 1] - self->slot_first[i] != link->n_shapes)
    return FALSE;
  for (guint s = 0; s < link->n_shapes; s++)
    {
      BlSceneShape *shape = &link->shapes[s];
      BlSlot *slot = &slots[s];

      if (shape->prim != BL_PRIM_MESH ? slot->batch != self->prim_batches[shape->prim]
                                      : slot->batch != g_hash_table_lookup (self->mesh_batches, shape->mesh))
        return FALSE;
    }

  bl_renderer_link_shape_color (self, link, color);
  for (guint s = 0; s < link->n_shapes; s++)
    {
      BlSceneShape *shape = &link->shapes[s];
      BlSlot *slot = &slots[s];

      bl_batch_rewrite (slot->batch, slot->index, shape->model, color, (float) i, 0.0f, (float) shape->collision);
    }
  for (int o = 0; o < N_OVERLAYS; o++)
    if (self->overlay_filled[o])
      {
        guint index = find_overlay_instance (self->overlays[o], i);
        double m[16];

        /* An overlay come or gone: its batch is filled again. */
        if ((index != G_MAXUINT) != overlay_present (link, o))
          self->overlay_stale[o] = TRUE;
        else if (index != G_MAXUINT)
          {
            overlay_matrix (link, o, m);
            bl_batch_rewrite (self->overlays[o], index, m, overlay_color (o), (float) i,
                              link->is_static ? 1.0f : 0.0f, 0.0f);
          }
      }
  return TRUE;
}

void
bl_renderer_sync_instances (BlRenderer            *self,
                            const BlRenderOptions *options)
{
  GHashTableIter iter;
  gpointer key;

  self->shown = *options;
  if (self->need_rebuild || g_hash_table_size (self->dirty_links) > 0)
    self->instances_serial++;
  if (!self->need_rebuild)
    {
      g_hash_table_iter_init (&iter, self->dirty_links);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!update_link (self, key))
          {
            self->need_rebuild = TRUE;
            break;
          }
      g_hash_table_remove_all (self->dirty_links);
    }
  if (self->need_rebuild)
    rebuild (self);
  /* Overlays shown keep an instance of each link that has them, those
   * hidden none. */
  for (int o = 0; o < N_OVERLAYS; o++)
    {
      gboolean shown = overlay_shown (options, o);

      if (shown && (!self->overlay_filled[o] || self->overlay_stale[o]))
        fill_overlay (self, o);
      else if (!shown && self->overlay_filled[o])
        {
          bl_batch_clear (self->overlays[o]);
          self->overlay_filled[o] = FALSE;
        }
      else
        continue;
      self->instances_serial++;
    }
  for (guint b = 0; b < self->batches->len; b++)
    bl_batch_upload (g_ptr_array_index (self->batches, b));
}

guint
bl_renderer_get_n_meshes (BlRenderer *self)
{
  GHashTableIter iter;
  gpointer value;
  guint n = g_hash_table_size (self->unscaled_gpu);

  /* Those the unscaled table lists, and the others (one BlMesh each). */
  g_hash_table_iter_init (&iter, self->mesh_gpu);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n += ((BlGpuMesh *) value)->unscaled_key == NULL;
  return n;
}

guint
bl_renderer_get_n_prepares (BlRenderer *self)
{
  return self->n_prepares;
}

guint
bl_renderer_get_n_drawn_triangles (BlRenderer *self)
{
  return self->n_drawn_triangles;
}

gsize
bl_renderer_get_kept_instance_bytes (BlRenderer *self)
{
  gsize bytes = 0;

  for (guint b = 0; b < self->batches->len; b++)
    bytes += (gsize) ((BlBatch *) g_ptr_array_index (self->batches, b))->n_alloc * INSTANCE_FLOATS * sizeof (float);
  return bytes;
}

gsize
bl_renderer_get_gl_instance_bytes (BlRenderer *self)
{
  gsize bytes = 0;

  for (guint b = 0; b < self->batches->len; b++)
    bytes += ((BlBatch *) g_ptr_array_index (self->batches, b))->gpu_bytes;
  return bytes;
}
