/* bl-renderer-batch.c: instanced batches: instance buffers, culling and level of detail per frame, clustered draws. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>

#include "bl-cluster.h"
#include "bl-renderer-private.h"

/* Points the bound VAO's per-instance attributes at INSTANCE_VBO from
 * instance FIRST on (a draw that is not instanced reads instance FIRST). */
static void
point_instances (GLuint instance_vbo,
                 guint  first)
{
  GLsizei stride = INSTANCE_FLOATS * sizeof (float);
  gsize base = (gsize) first * stride;
  static const struct { int attr, size, offset; } attrs[] = {
    { ATTR_MODEL0, 4, 0 }, { ATTR_MODEL1, 4, 4 }, { ATTR_MODEL2, 4, 8 }, { ATTR_MODEL3, 4, 12 },
    { ATTR_NORMAL0, 3, 16 }, { ATTR_NORMAL1, 3, 19 }, { ATTR_NORMAL2, 3, 22 },
    { ATTR_COLOR, 4, 25 }, { ATTR_LINK, 1, 29 }, { ATTR_FLAGS, 1, 30 }, { ATTR_PART, 1, 31 },
  };

  glBindBuffer (GL_ARRAY_BUFFER, instance_vbo);
  for (guint i = 0; i < G_N_ELEMENTS (attrs); i++)
    {
      glEnableVertexAttribArray (attrs[i].attr);
      glVertexAttribPointer (attrs[i].attr, attrs[i].size, GL_FLOAT, GL_FALSE, stride,
                             (void *) (base + attrs[i].offset * sizeof (float)));
      glVertexAttribDivisor (attrs[i].attr, 1);
    }
}

/* Binds MESH's vertices and the instance attributes of INSTANCE_VBO to VAO. */
static void
setup_vao (GLuint     vao,
           BlGpuMesh *mesh,
           GLuint     instance_vbo)
{
  glBindVertexArray (vao);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->vbo);
  glEnableVertexAttribArray (ATTR_POSITION);
  glVertexAttribPointer (ATTR_POSITION, 3, GL_FLOAT, GL_FALSE,
                         (mesh->has_normals ? 6 : 3) * sizeof (float), NULL);
  if (mesh->has_normals)
    {
      glEnableVertexAttribArray (ATTR_NORMAL);
      glVertexAttribPointer (ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 6 * sizeof (float),
                             (void *) (3 * sizeof (float)));
    }
  else
    {
      /* A zero normal: the fragment shader shades the face flat. */
      glDisableVertexAttribArray (ATTR_NORMAL);
    }

  point_instances (instance_vbo, 0);

  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
  glBindVertexArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

BlBatch *
bl_batch_new (BlRenderer *self,
              BlGpuMesh  *mesh,
              double      bound_radius,
              gboolean    cull)
{
  BlBatch *batch = g_new0 (BlBatch, 1);

  batch->mesh = mesh;
  batch->prim = BL_PRIM_MESH;
  batch->rescale[0] = batch->rescale[1] = batch->rescale[2] = 1.0;
  batch->lods[0] = mesh;
  batch->bound_radius = bound_radius;
  batch->cull = cull;
  glGenVertexArrays (1, &batch->vao);
  glGenBuffers (1, &batch->instance_vbo);
  setup_vao (batch->vao, mesh, batch->instance_vbo);

  g_ptr_array_add (self->batches, batch);
  return batch;
}

/* Coarser tessellations of the batch's unit mesh (NULL: none). */
void
bl_batch_set_lods (BlBatch   *batch,
                   BlGpuMesh *coarse,
                   BlGpuMesh *tiny,
                   BlGpuMesh *speck)
{
  batch->lods[1] = coarse;
  batch->lods[2] = tiny;
  batch->lods[3] = speck;
}

void
bl_batch_free (gpointer data)
{
  BlBatch *batch = data;

  glDeleteVertexArrays (1, &batch->vao);
  glDeleteBuffers (1, &batch->instance_vbo);
  for (int l = 0; l < N_BATCH_LEVELS; l++)
    if (batch->lod_vao[l] != 0)
      {
        glDeleteVertexArrays (1, &batch->lod_vao[l]);
        glDeleteBuffers (1, &batch->lod_vbo[l]);
        g_array_unref (batch->lod_instances[l]);
      }
  for (int l = 0; l < MAX_LEVELS; l++)
    if (batch->level_vao[l] != 0)
      glDeleteVertexArrays (1, &batch->level_vao[l]);
  if (batch->speck_vao != 0)
    {
      glDeleteVertexArrays (1, &batch->speck_vao);
      glDeleteBuffers (1, &batch->speck_vbo);
      g_array_unref (batch->speck_instances);
    }
  g_clear_pointer (&batch->duplicate, g_array_unref);
  g_clear_pointer (&batch->overdrawn, g_array_unref);
  g_free (batch->instances);
  g_free (batch);
}

/* Room for exactly N_INSTANCES instances in all (those it has kept). */
void
bl_batch_reserve (BlBatch *batch,
                  guint    n_instances)
{
  if (n_instances <= batch->n_alloc)
    return;
  batch->instances = g_renew (float, batch->instances, (gsize) n_instances * INSTANCE_FLOATS);
  batch->n_alloc = n_instances;
}

/* Drops every instance and this frame's copies, with their memory. */
void
bl_batch_clear (BlBatch *batch)
{
  g_clear_pointer (&batch->instances, g_free);
  batch->n_instances = batch->n_alloc = batch->n_nominal = 0;
  for (int l = 0; l < N_BATCH_LEVELS; l++)
    if (batch->lod_instances[l] != NULL)
      {
        g_array_unref (batch->lod_instances[l]);
        batch->lod_instances[l] = g_array_new (FALSE, FALSE, sizeof (guint));
      }
  if (batch->speck_instances != NULL)
    {
      g_array_unref (batch->speck_instances);
      batch->speck_instances = g_array_new (FALSE, FALSE, sizeof (guint));
    }
  g_clear_pointer (&batch->duplicate, g_array_unref);
  g_clear_pointer (&batch->overdrawn, g_array_unref);
  batch->faint_normals = FALSE;
  batch->full_dirty = TRUE;
  batch->dirty_lo = batch->dirty_hi = 0;
}

static guint
batch_n_instances (BlBatch *batch)
{
  return batch->n_instances;
}

static inline float *
batch_instance (BlBatch *batch,
                guint    i)
{
  return batch->instances + (gsize) i * INSTANCE_FLOATS;
}

/* Whether the batch is drawn from the per-frame buffers bl_batch_prepare
 * fills (many instances, or an overlay's of many links) rather than from
 * one of all its instances. */
static inline gboolean
batch_is_streamed (BlBatch *batch)
{
  return MAX (batch_n_instances (batch), batch->n_nominal) > LOD_MIN_INSTANCES;
}

/* Writes one instance: model matrix, its cofactor matrix for normals (the
 * inverse transpose up to a factor the shader normalises away), colour and
 * link index. */
void
bl_instance_write (float        *dst,
                   const double  m[16],
                   const float   color[3],
                   float         alpha,
                   float         link,
                   float         flags,
                   float         part)
{
  double a[3][3];

  for (int i = 0; i < 16; i++)
    dst[i] = (float) m[i];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      a[r][c] = m[c * 4 + r];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      {
        int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;

        /* column c of the cofactor matrix, row r */
        dst[16 + 3 * c + r] = (float) (a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1]);
      }
  dst[25] = color[0];
  dst[26] = color[1];
  dst[27] = color[2];
  dst[28] = alpha;
  dst[29] = link;
  dst[30] = flags;
  dst[31] = part;
}

/* The determinant of the 3×3 part: a negative one reverses the winding. */
static double
det3 (const double m[16])
{
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
         + m[8] * (m[1] * m[6] - m[5] * m[2]);
}

/* Whether shell.frag or body.frag (primitives) may meet an interpolated
 * normal too short to normalise (|n|² < 1e-12) under M, and so need their
 * NORMAL_FALLBACK variant.  Normals go through the cofactor matrix C,
 * which maps a unit vector to one of length at least
 * σmin(C) ≥ det C / ‖C‖²_F = det(M)² / ‖C‖²_F; interpolating across a
 * triangle of the coarsest tessellation (normals at most 90° apart) keeps
 * at least half of it; the test keeps a factor 100 in hand (body.vert
 * also normalises per vertex, so for bodies it is more than enough).
 * C = 0 (rank at most 1, a missing overlay's zero matrix) draws no pixel
 * at all. */
gboolean
bl_normals_may_vanish (const double m[16])
{
  double frob2 = 0.0, det = det3 (m), bound;

  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      {
        int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        double cof = m[c1 * 4 + r1] * m[c2 * 4 + r2] - m[c2 * 4 + r1] * m[c1 * 4 + r2];

        frob2 += cof * cof;
      }
  if (frob2 == 0.0)
    return FALSE;
  bound = 0.5 * det * det / frob2;
  return !(bound * bound >= 1e-10);
}

/* Writes instance INDEX (its matrix M scaled first by batch->rescale);
 * a mirroring matrix turns the batch's back-face culling off. */
static void
batch_write (BlBatch      *batch,
             guint         index,
             const double  m[16],
             const float   color[3],
             float         link,
             float         flags,
             float         part)
{
  double scaled[16];

  batch->duplicates_stale = TRUE;
  memcpy (scaled, m, sizeof scaled);
  for (int c = 0; c < 3; c++)
    for (int r = 0; r < 3; r++)
      scaled[4 * c + r] *= batch->rescale[c];
  bl_instance_write (batch_instance (batch, index), scaled, color, 1.0f, link,
                     flags, part);
  if (det3 (scaled) < 0.0)
    batch->cull = FALSE;
  if (bl_normals_may_vanish (scaled))
    batch->faint_normals = TRUE;
}

guint
bl_batch_append (BlBatch      *batch,
                 const double  m[16],
                 const float   color[3],
                 float         link,
                 float         flags,
                 float         part)
{
  guint index = batch_n_instances (batch);

  /* Growing by half (bl_batch_reserve makes the room exact). */
  if (index == batch->n_alloc)
    bl_batch_reserve (batch, index + index / 2 + 1);
  batch->n_instances++;
  batch_write (batch, index, m, color, link, flags, part);
  batch->full_dirty = TRUE;
  return index;
}

void
bl_batch_rewrite (BlBatch      *batch,
                  guint         index,
                  const double  m[16],
                  const float   color[3],
                  float         link,
                  float         flags,
                  float         part)
{
  batch_write (batch, index, m, color, link, flags, part);
  if (batch->dirty_lo == batch->dirty_hi)
    {
      batch->dirty_lo = index;
      batch->dirty_hi = index + 1;
    }
  else
    {
      batch->dirty_lo = MIN (batch->dirty_lo, index);
      batch->dirty_hi = MAX (batch->dirty_hi, index + 1);
    }
}

void
bl_batch_upload (BlBatch *batch)
{
  gsize bytes = (gsize) batch->n_instances * INSTANCE_FLOATS * sizeof (float);

  if (batch_is_streamed (batch))
    {
      /* Drawn from this frame's visible instances only: a buffer of all
       * of them would be memory and nothing else (on llvmpipe the
       * process's own: 90 MB for the 700,000 instances of 100,000 links). */
      if (batch->gpu_bytes > 0)
        {
          glBindBuffer (GL_ARRAY_BUFFER, batch->instance_vbo);
          glBufferData (GL_ARRAY_BUFFER, 0, NULL, GL_DYNAMIC_DRAW);
          batch->gpu_bytes = 0;
        }
    }
  else if (batch->full_dirty || bytes > batch->gpu_bytes)
    {
      glBindBuffer (GL_ARRAY_BUFFER, batch->instance_vbo);
      glBufferData (GL_ARRAY_BUFFER, bytes, batch->instances, GL_DYNAMIC_DRAW);
      batch->gpu_bytes = bytes;
    }
  else if (batch->dirty_hi > batch->dirty_lo)
    {
      gsize off = (gsize) batch->dirty_lo * INSTANCE_FLOATS * sizeof (float);
      gsize len = (gsize) (batch->dirty_hi - batch->dirty_lo) * INSTANCE_FLOATS * sizeof (float);

      glBindBuffer (GL_ARRAY_BUFFER, batch->instance_vbo);
      glBufferSubData (GL_ARRAY_BUFFER, off, len, (const char *) batch->instances + off);
    }
  batch->full_dirty = FALSE;
  batch->dirty_lo = batch->dirty_hi = 0;
}


void
bl_frame_info_init (BlFrameInfo    *frame,
                    mat4            vp,
                    const BlCamera *camera,
                    int             width,
                    int             height,
                    int             selected,
                    int             selected_part)
{
  double tan_half = tan (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0);
  double aspect = (double) width / MAX (height, 1);

  for (int p = 0; p < 6; p++)
    {
      int axis = p / 2;
      float sign = p % 2 ? -1.0f : 1.0f;
      float len;

      /* Row 3 ± row axis of the column-major matrix. */
      for (int k = 0; k < 4; k++)
        frame->planes[p][k] = vp[k][3] + sign * vp[k][axis];
      len = sqrtf (frame->planes[p][0] * frame->planes[p][0] + frame->planes[p][1] * frame->planes[p][1]
                   + frame->planes[p][2] * frame->planes[p][2]);
      if (len > 0.0f)
        for (int k = 0; k < 4; k++)
          frame->planes[p][k] /= len;
    }
  bl_camera_get_eye (camera, frame->eye);
  bl_camera_get_basis (camera, frame->forward, frame->right, frame->up);
  frame->width = width;
  frame->height = height;
  frame->px_per_radian = 0.5 * height / tan_half;
  frame->corner_stretch = sqrt (1.0 + tan_half * tan_half * (1.0 + aspect * aspect));
  frame->selected = selected;
  frame->selected_part = selected_part;
}

static BlGpuMesh *
batch_level_mesh (BlBatch *batch,
                  int      level)
{
  while (level > 0 && batch->lods[level] == NULL)
    level--;
  return batch->lods[level];
}

/* The nearest depth (along the view axis) of the part of BATCH's mesh in view
 * under the instance matrix M (whose largest stretch is STRETCH): of its
 * clusters' spheres that reach into the frustum, or of its whole bounding
 * sphere when it has none or the batch has many instances (the cheap
 * bound: every instance is asked every frame).  Spheres grow by MARGIN
 * (a level's surface may lie that far from the mesh's).  G_MAXDOUBLE
 * when nothing is in view. */
static double
nearest_depth (const BlFrameInfo *frame,
               const BlBatch     *batch,
               const float       *m,
               double             stretch,
               double             margin)
{
  const BlGpuMesh *mesh = batch->mesh;
  double nearest = G_MAXDOUBLE;

  if (mesh->clusters == NULL || batch->streamed)
    {
      double depth = -batch->bound_radius * stretch - margin;

      for (int k = 0; k < 3; k++)
        depth += frame->forward[k] * (m[12 + k] - frame->eye[k]);
      return depth;
    }
  for (guint c = 0; c < mesh->clusters->len; c++)
    {
      const BlCluster *cluster = &g_array_index (mesh->clusters, BlCluster, c);
      double center[3], r = cluster->radius * stretch + margin, depth = -r;
      gboolean outside = FALSE;

      for (int k = 0; k < 3; k++)
        center[k] = m[k] * cluster->center[0] + m[4 + k] * cluster->center[1] + m[8 + k] * cluster->center[2]
                    + m[12 + k];
      for (int p = 0; p < 6 && !outside; p++)
        outside = frame->planes[p][0] * center[0] + frame->planes[p][1] * center[1]
                  + frame->planes[p][2] * center[2] + frame->planes[p][3] < -r;
      if (outside)
        continue;
      for (int k = 0; k < 3; k++)
        depth += frame->forward[k] * (center[k] - frame->eye[k]);
      nearest = MIN (nearest, depth);
    }
  return nearest;
}

/* The coarsest level of the batch's mesh (1 + its index in mesh->levels;
 * 0: the mesh itself) that may stand for instance I this frame: its
 * measured distance from the mesh, through the instance's matrix and the
 * perspective at the nearest depth of the part of the mesh in view, is at
 * most LEVEL_ERROR_PX pixels anywhere in the view. */
static guint
instance_level (const BlFrameInfo *frame,
                BlBatch           *batch,
                guint              i)
{
  const float *m = batch_instance (batch, i);
  GPtrArray *levels = batch->mesh->levels;
  double gram[3][3], stretch = 0.0;

  if (levels == NULL || levels->len == 0 || !frame->levels)
    return 0;
  /* How far the matrix can stretch a length: the largest singular value,
   * bounded by the largest row sum of |MᵀM| (exact when the columns are
   * orthogonal, as a pose times a scale). */
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      gram[a][b] = (double) m[4 * a] * m[4 * b] + (double) m[4 * a + 1] * m[4 * b + 1]
                   + (double) m[4 * a + 2] * m[4 * b + 2];
  for (int a = 0; a < 3; a++)
    stretch = MAX (stretch, fabs (gram[a][0]) + fabs (gram[a][1]) + fabs (gram[a][2]));
  stretch = sqrt (stretch);
  /* A length L at depth Z spans at most L·f·√(1 + tan²θ)/Z pixels, θ the
   * angle off the view axis (at most the frustum's corner).  The part in
   * view is taken with the level's own error as margin: its surface may
   * reach that far into the view from the mesh's. */
  for (guint l = levels->len; l > 0; l--)
    {
      double error = ((BlGpuMesh *) g_ptr_array_index (levels, l - 1))->error * stretch;
      double depth = nearest_depth (frame, batch, m, stretch, error);

      if (depth > 0.0 && error * frame->px_per_radian * frame->corner_stretch <= LEVEL_ERROR_PX * depth)
        return l;
    }
  return 0;
}

/* An instance's floats but its part: what decides its pixels. */
#define INSTANCE_KEY_FLOATS (INSTANCE_FLOATS - 1)

static guint
instance_key_hash (gconstpointer key)
{
  const guint32 *words = key;
  guint32 h = 2166136261u;

  for (int k = 0; k < INSTANCE_KEY_FLOATS; k++)
    h = (h ^ words[k]) * 16777619u;
  return h;
}

static gboolean
instance_key_equal (gconstpointer a,
                    gconstpointer b)
{
  return memcmp (a, b, INSTANCE_KEY_FLOATS * sizeof (float)) == 0;
}

/* Marks each instance that repeats an earlier one but for its part. */
static void
find_duplicates (BlBatch *batch)
{
  guint n = batch_n_instances (batch);
  g_autoptr(GHashTable) seen = g_hash_table_new (instance_key_hash, instance_key_equal);

  if (batch->duplicate == NULL)
    batch->duplicate = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_array_set_size (batch->duplicate, n);
  for (guint i = 0; i < n; i++)
    {
      float *key = batch_instance (batch, i);

      g_array_index (batch->duplicate, gboolean, i) = !g_hash_table_add (seen, key);
    }
  batch->duplicates_stale = FALSE;
}

/* Markers are drawn on top of everything, opaque, in the instances' order,
 * at MARKER_PX on screen unless their link's size is smaller (mesh.vert):
 * one that a later one repeats at the same centre, in the same colour,
 * both at the screen size, is drawn over pixel for pixel (a world of
 * 100,000 models at one place: one marker, not 100,000). */
static void
find_overdrawn (BlBatch           *batch,
                const BlFrameInfo *frame)
{
  guint n = batch_n_instances (batch), n_sized = 0;
  double scale = MARKER_PX / frame->px_per_radian;
  g_autoptr(GHashTable) later = NULL;
  g_autofree float *keys = NULL;

  if (batch->overdrawn == NULL)
    batch->overdrawn = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_array_set_size (batch->overdrawn, n);
  /* First those drawn at the screen size (static links' only when
   * selected, mesh.vert), marked TRUE for now. */
  for (guint i = 0; i < n; i++)
    {
      const float *src = batch_instance (batch, i);
      gboolean selected = src[29] >= 0.0f && (int) src[29] == frame->selected;
      double size = (double) src[0] * src[0] + (double) src[1] * src[1] + (double) src[2] * src[2];
      double dist = 0.0;

      for (int k = 0; k < 3; k++)
        dist += (src[12 + k] - frame->eye[k]) * (src[12 + k] - frame->eye[k]);
      g_array_index (batch->overdrawn, gboolean, i)
        = (src[30] <= 0.5f || selected) && (selected || sqrt (size) > scale * sqrt (dist) * (1.0 + 1e-4));
      n_sized += g_array_index (batch->overdrawn, gboolean, i);
    }
  if (n_sized < 2)
    {
      /* (a batch without instances has no data to clear) */
      if (n > 0)
        memset (batch->overdrawn->data, 0, n * sizeof (gboolean));
      return;
    }
  later = g_hash_table_new (instance_key_hash, instance_key_equal);
  keys = g_new0 (float, (gsize) n_sized * INSTANCE_FLOATS);
  for (guint i = n; i-- > 0;)
    if (g_array_index (batch->overdrawn, gboolean, i))
      {
        const float *src = batch_instance (batch, i);
        /* its centre, colour and flags; the rest 0 */
        float *key = keys + (gsize) --n_sized * INSTANCE_FLOATS;

        memcpy (key + 12, src + 12, 3 * sizeof (float));
        memcpy (key + 25, src + 25, 4 * sizeof (float));
        key[30] = src[30];
        g_array_index (batch->overdrawn, gboolean, i) = !g_hash_table_add (later, key);
      }
}

/* With many instances: keeps this frame's visible ones, each at the level
 * of detail of its size on screen (a big mesh's: instance_level), in
 * per-level buffers, or, when CANDIDATES is given, appends them there as
 * BlCandidate for bl_occlusion_cull to choose from (then bl_batch_take
 * keeps each one chosen).  The selected link is always drawn finely; a
 * static link's overlays only when it is selected; instances smaller than
 * MIN_PX on screen are dropped, or kept as specks (a point each) when
 * SPECKS.  bl_batch_send hands the result to GL. */
void
bl_batch_prepare (BlBatch           *batch,
                  const BlFrameInfo *frame,
                  double             min_px,
                  gboolean           specks,
                  GArray            *candidates)
{
  guint n = batch_n_instances (batch);
  const float *src = batch->instances;
  GPtrArray *levels = batch->mesh->levels;

  batch->streamed = batch_is_streamed (batch);
  if (!batch->streamed)
    return;
  if (batch->duplicates_stale || batch->duplicate == NULL)
    find_duplicates (batch);
  if (batch->markers && frame->shell_layers)
    find_overdrawn (batch, frame);
  for (guint l = 0; levels != NULL && l < MIN (levels->len, MAX_LEVELS); l++)
    batch->lods[1 + l] = g_ptr_array_index (levels, l);
  for (int l = 0; l < N_BATCH_LEVELS; l++)
    {
      if (batch->lod_vao[l] == 0 && (l == 0 || batch->lods[l] != NULL))
        {
          glGenVertexArrays (1, &batch->lod_vao[l]);
          glGenBuffers (1, &batch->lod_vbo[l]);
          setup_vao (batch->lod_vao[l], batch->lods[l], batch->lod_vbo[l]);
          batch->lod_instances[l] = g_array_new (FALSE, FALSE, sizeof (guint));
        }
      if (batch->lod_instances[l] != NULL)
        g_array_set_size (batch->lod_instances[l], 0);
    }
  if (specks && batch->speck_vao == 0)
    {
      glGenVertexArrays (1, &batch->speck_vao);
      glGenBuffers (1, &batch->speck_vbo);
      setup_vao (batch->speck_vao, batch->mesh, batch->speck_vbo);
      batch->speck_instances = g_array_new (FALSE, FALSE, sizeof (guint));
    }
  if (batch->speck_instances != NULL)
    g_array_set_size (batch->speck_instances, 0);

  for (guint i = 0; i < n; i++, src += INSTANCE_FLOATS)
    {
      gboolean selected = src[29] >= 0.0f && (int) src[29] == frame->selected;
      double scale = 0.0, r, dist = 0.0, px;
      gboolean outside = FALSE, speck;
      int level;

      if (src[30] > 0.5f && !selected)
        continue;
      /* the same pixels as an earlier one, unless it is the collision
       * drawn highlighted */
      if (g_array_index (batch->duplicate, gboolean, i) && !(selected && (int) src[31] == frame->selected_part))
        continue;
      if (batch->markers && frame->shell_layers && g_array_index (batch->overdrawn, gboolean, i))
        continue;
      for (int c = 0; c < 3; c++)
        scale = MAX (scale, (double) src[4 * c] * src[4 * c] + (double) src[4 * c + 1] * src[4 * c + 1]
                            + (double) src[4 * c + 2] * src[4 * c + 2]);
      r = batch->bound_radius * sqrt (scale);
      if (!(r > 0.0))
        continue;
      for (int p = 0; p < 6 && !outside; p++)
        outside = frame->planes[p][0] * src[12] + frame->planes[p][1] * src[13]
                  + frame->planes[p][2] * src[14] + frame->planes[p][3] < -r;
      if (outside)
        continue;
      for (int k = 0; k < 3; k++)
        dist += (src[12 + k] - frame->eye[k]) * (src[12 + k] - frame->eye[k]);
      dist = sqrt (dist);
      px = dist > r ? frame->px_per_radian * r / dist : G_MAXDOUBLE;
      /* A speck for the selected link's too: its triangles (drawn
       * finely, whatever their size) may cover no pixel's centre. */
      speck = specks && px < min_px;
      if (!selected && px < min_px)
        level = -1;
      else if (levels != NULL)
        level = (int) instance_level (frame, batch, i);
      else
        level = selected || px >= LOD_FINE_PX ? 0 : px >= LOD_COARSE_PX ? 1 : px >= LOD_TINY_PX ? 2 : 3;
      while (level > 0 && batch->lods[level] == NULL)
        level--;
      if (level < 0 && !speck)
        continue;
      if (candidates != NULL)
        {
          BlCandidate candidate = { batch, i, level, speck, r, px };

          g_array_append_val (candidates, candidate);
        }
      else
        bl_batch_take (batch, i, level, speck);
    }
}

void
bl_batch_take (BlBatch  *batch,
               guint     index,
               int       level,
               gboolean  speck)
{
  if (speck)
    g_array_append_val (batch->speck_instances, index);
  if (level >= 0)
    g_array_append_val (batch->lod_instances[level], index);
}

/* Fills VBO with the instances INDICES names, in order, through a copy of
 * at most SEND_PIECE of them at a time. */
#define SEND_PIECE 4096

static void
send_instances (BlBatch *batch,
                GLuint   vbo,
                GArray  *indices)
{
  gsize stride = INSTANCE_FLOATS * sizeof (float);
  guint n = indices->len;
  g_autofree float *piece = g_new (float, (gsize) MIN (n, SEND_PIECE) * INSTANCE_FLOATS);

  glBindBuffer (GL_ARRAY_BUFFER, vbo);
  glBufferData (GL_ARRAY_BUFFER, n * stride, NULL, GL_STREAM_DRAW);
  for (guint first = 0; first < n; first += SEND_PIECE)
    {
      guint count = MIN (SEND_PIECE, n - first);

      for (guint i = 0; i < count; i++)
        memcpy (piece + (gsize) i * INSTANCE_FLOATS,
                batch_instance (batch, g_array_index (indices, guint, first + i)), stride);
      glBufferSubData (GL_ARRAY_BUFFER, first * stride, count * stride, piece);
    }
}

void
bl_batch_send (BlBatch *batch)
{
  if (!batch->streamed)
    return;
  for (int l = 0; l < N_BATCH_LEVELS; l++)
    if (batch->lod_instances[l] != NULL && batch->lod_instances[l]->len > 0)
      send_instances (batch, batch->lod_vbo[l], batch->lod_instances[l]);
  if (batch->speck_instances != NULL && batch->speck_instances->len > 0)
    send_instances (batch, batch->speck_vbo, batch->speck_instances);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

void
bl_batch_draw_specks (BlRenderer *self,
                      BlBatch    *batch)
{
  guint n, chunk = self->flush_triangles > 0 ? SPECK_CHUNK : G_MAXUINT;

  if (!batch->streamed || batch->speck_instances == NULL || batch->speck_instances->len == 0)
    return;
  n = batch->speck_instances->len;
  /* Marked in the stencil where they show, for the grid to leave alone. */
  glEnable (GL_STENCIL_TEST);
  glStencilFunc (GL_ALWAYS, 1, 1);
  glStencilOp (GL_KEEP, GL_KEEP, GL_REPLACE);
  glBindVertexArray (batch->speck_vao);
  /* On a software rasteriser in pieces, each flushed: llvmpipe holds
   * every point it has binned, about 310 bytes each, until a flush (31 MB
   * for 100,000 specks in one draw). */
  for (guint first = 0; first < n; first += chunk)
    {
      if (first > 0)
        point_instances (batch->speck_vbo, first);
      glDrawElementsInstanced (GL_POINTS, 1, GL_UNSIGNED_INT, NULL, MIN (chunk, n - first));
      if (n - first > chunk)
        glFlush ();
    }
  if (n > chunk)
    point_instances (batch->speck_vbo, 0);
  glBindVertexArray (0);
  glDisable (GL_STENCIL_TEST);
}

/* Draws N instances of MESH through VAO, whose instance attributes read
 * INSTANCE_VBO.  On a software rasteriser a draw is handed over in
 * pieces of about flush_triangles, each flushed: a mesh's indices in
 * pieces, or, for a small mesh, its instances (llvmpipe holds every
 * triangle it has binned until a flush, 30 MB for 100,000 boxes in one
 * draw).  Instances are drawn in the same order either way. */
static void
draw_instances (BlRenderer *self,
                BlGpuMesh  *mesh,
                GLuint      vao,
                GLuint      instance_vbo,
                guint       n,
                gboolean    edges)
{
  guint per_draw = n;

  if (n == 0)
    return;
  if (self->flush_triangles > 0 && !edges && mesh->primitive == GL_TRIANGLES &&
      mesh->n_indices / 3 <= self->flush_triangles)
    per_draw = MAX (self->flush_triangles / MAX (mesh->n_indices / 3, 1), 1);
  if (per_draw < n)
    {
      glBindVertexArray (vao);
      for (guint first = 0; first < n; first += per_draw)
        {
          if (first > 0)
            point_instances (instance_vbo, first);
          glDrawElementsInstanced (GL_TRIANGLES, mesh->n_indices, GL_UNSIGNED_INT, NULL, MIN (per_draw, n - first));
          glFlush ();
        }
      point_instances (instance_vbo, 0);
      self->n_drawn_triangles += mesh->n_indices / 3 * n;
      glBindVertexArray (0);
      return;
    }
  glBindVertexArray (vao);
  if (edges && mesh->primitive == GL_TRIANGLES)
    {
      bl_gpu_mesh_ensure_edges (mesh);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->edge_ibo);
      glDrawElementsInstanced (GL_LINES, mesh->n_edge_indices, GL_UNSIGNED_INT, NULL, n);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
    }
  else
    {
      guint step = self->flush_triangles > 0 && mesh->primitive == GL_TRIANGLES ? 3 * self->flush_triangles
                                                                                : mesh->n_indices;

      /* In pieces, each handed to the rasteriser's threads while the next
       * one is transformed and binned (see flush_triangles). */
      for (guint first = 0; first < mesh->n_indices; first += step)
        {
          glDrawElementsInstanced (mesh->primitive, MIN (step, mesh->n_indices - first), GL_UNSIGNED_INT,
                                   (const void *) ((gsize) first * sizeof (guint32)), n);
          if (step < mesh->n_indices)
            glFlush ();
        }
      if (mesh->primitive == GL_TRIANGLES)
        self->n_drawn_triangles += mesh->n_indices / 3 * n;
    }
  glBindVertexArray (0);
}

/* Hands the recorded ranges to GL as one multi-draw (a loop of draws on
 * GLES 3, which has none). */
static void
submit_ranges (BlRenderer *self)
{
  guint n = self->draw_counts->len;

  if (n == 0)
    return;
  if (self->use_es)
    for (guint i = 0; i < n; i++)
      glDrawElements (GL_TRIANGLES, g_array_index (self->draw_counts, GLsizei, i), GL_UNSIGNED_INT,
                      g_array_index (self->draw_offsets, const void *, i));
  else
    glMultiDrawElements (GL_TRIANGLES, (const GLsizei *) self->draw_counts->data, GL_UNSIGNED_INT,
                         (const void * const *) self->draw_offsets->data, (GLsizei) n);
  g_array_set_size (self->draw_counts, 0);
  g_array_set_size (self->draw_offsets, 0);
}

/* Draws self->ranges of the bound VAO's triangles, in pieces of
 * flush_triangles with a flush after each full one (see flush_triangles). */
static void
draw_ranges (BlRenderer *self)
{
  guint budget = self->flush_triangles > 0 ? self->flush_triangles : G_MAXUINT;
  guint in_piece = 0;

  for (guint r = 0; r < self->ranges->len; r += 2)
    {
      guint32 first = g_array_index (self->ranges, guint32, r);
      guint32 count = g_array_index (self->ranges, guint32, r + 1);

      while (count > 0)
        {
          guint32 take = MIN (count, budget - in_piece);
          GLsizei indices = (GLsizei) (3 * take);
          const void *offset = (const void *) ((gsize) first * 3 * sizeof (guint32));

          g_array_append_val (self->draw_counts, indices);
          g_array_append_val (self->draw_offsets, offset);
          self->n_drawn_triangles += take;
          first += take;
          count -= take;
          in_piece += take;
          if (in_piece == budget)
            {
              submit_ranges (self);
              glFlush ();
              in_piece = 0;
            }
        }
    }
  submit_ranges (self);
}

/* Draws instance I of BATCH with MESH (the batch's own or one of its
 * levels, VAO binding it): only the clusters that may show
 * (bl_cluster_is_visible, conservative) as merged index ranges when MESH
 * has clusters, else every triangle.  The VAO's instance attributes are
 * left pointing at instance I. */
static void
draw_instance (BlRenderer *self,
               BlBatch    *batch,
               BlGpuMesh  *mesh,
               GLuint      vao,
               guint       i,
               gboolean    backfaces)
{
  const float *model = batch_instance (batch, i);

  g_array_set_size (self->ranges, 0);
  if (mesh->clusters != NULL && self->frame.clusters)
    {
      const BlCluster *clusters = (const BlCluster *) mesh->clusters->data;
      BlClusterView view;
      gboolean all = !bl_cluster_view_init (&view, model, (const float (*)[4]) self->frame.planes,
                                            self->frame.eye, batch->bound_radius, backfaces);

      for (guint c = 0; c < mesh->clusters->len; c++)
        if (all || bl_cluster_is_visible (&clusters[c], &view))
          {
            guint len = self->ranges->len;

            if (len > 0 && g_array_index (self->ranges, guint32, len - 2)
                           + g_array_index (self->ranges, guint32, len - 1) == clusters[c].first)
              g_array_index (self->ranges, guint32, len - 1) += clusters[c].count;
            else
              {
                guint32 range[2] = { clusters[c].first, clusters[c].count };

                g_array_append_vals (self->ranges, range, 2);
              }
          }
    }
  else
    {
      guint32 range[2] = { 0, mesh->n_indices / 3 };

      g_array_append_vals (self->ranges, range, 2);
    }
  if (self->ranges->len == 0)
    return;
  glBindVertexArray (vao);
  point_instances (batch->instance_vbo, i);
  draw_ranges (self);
}

/* A clustered mesh's instances one by one (draw_instance). */
static void
draw_clustered (BlRenderer *self,
                BlBatch    *batch,
                gboolean    backfaces)
{
  guint n = batch_n_instances (batch);

  for (guint i = 0; i < n; i++)
    draw_instance (self, batch, batch->mesh, batch->vao, i, backfaces);
  glBindVertexArray (batch->vao);
  point_instances (batch->instance_vbo, 0);
  glBindVertexArray (0);
}

/* Draws the batch (its prepared levels when streamed); back faces are
 * culled when CULL and the batch allows it. */
void
bl_batch_draw (BlRenderer *self,
               BlBatch    *batch,
               gboolean    edges,
               gboolean    cull)
{
  if (cull && batch->cull && !edges)
    glEnable (GL_CULL_FACE);
  else
    glDisable (GL_CULL_FACE);
  if (!batch->streamed && !edges && batch->mesh->clusters != NULL && self->frame.clusters)
    draw_clustered (self, batch, cull && batch->cull);
  else if (!batch->streamed)
    draw_instances (self, batch->mesh, batch->vao, batch->instance_vbo, batch_n_instances (batch), edges);
  else
    for (int l = 0; l < N_BATCH_LEVELS; l++)
      if (batch->lod_instances[l] != NULL)
        draw_instances (self, batch_level_mesh (batch, l), batch->lod_vao[l], batch->lod_vbo[l],
                        batch->lod_instances[l]->len, edges);
  glDisable (GL_CULL_FACE);
}

/* A mesh batch's solid bodies, at each instance's level of detail: the
 * instances drawn at full detail when COARSE is FALSE (flat shading,
 * bodies' flat program bound), the others when TRUE (smooth program
 * bound).  Returns whether any instance wants a coarser level. */
gboolean
bl_renderer_draw_mesh_batch (BlRenderer *self,
                             BlBatch    *batch,
                             gboolean    coarse)
{
  guint n = batch_n_instances (batch);
  gboolean any_coarse = FALSE;
  gboolean backfaces = batch->cull;

  if (batch->streamed)
    {
      /* bl_batch_prepare sorted the instances by level */
      if (batch->cull)
        glEnable (GL_CULL_FACE);
      else
        glDisable (GL_CULL_FACE);
      for (int l = 0; l < N_BATCH_LEVELS; l++)
        if (batch->lod_instances[l] != NULL && batch->lod_instances[l]->len > 0)
          {
            any_coarse |= l > 0;
            if ((l > 0) == coarse)
              draw_instances (self, batch_level_mesh (batch, l), batch->lod_vao[l], batch->lod_vbo[l],
                              batch->lod_instances[l]->len, FALSE);
          }
      glDisable (GL_CULL_FACE);
      return any_coarse;
    }
  if (batch->mesh->levels == NULL || !self->frame.levels)
    {
      if (!coarse)
        bl_batch_draw (self, batch, FALSE, TRUE);
      return FALSE;
    }
  if (backfaces)
    glEnable (GL_CULL_FACE);
  else
    glDisable (GL_CULL_FACE);
  for (guint i = 0; i < n; i++)
    {
      guint level = instance_level (&self->frame, batch, i);

      any_coarse |= level > 0;
      if (level == 0 && !coarse)
        draw_instance (self, batch, batch->mesh, batch->vao, i, backfaces);
      else if (level > 0 && coarse)
        {
          if (batch->level_vao[level - 1] == 0)
            {
              glGenVertexArrays (1, &batch->level_vao[level - 1]);
              setup_vao (batch->level_vao[level - 1], g_ptr_array_index (batch->mesh->levels, level - 1),
                         batch->instance_vbo);
            }
          draw_instance (self, batch, g_ptr_array_index (batch->mesh->levels, level - 1),
                         batch->level_vao[level - 1], i, backfaces);
        }
    }
  glBindVertexArray (batch->vao);
  point_instances (batch->instance_vbo, 0);
  glBindVertexArray (0);
  glDisable (GL_CULL_FACE);
  return any_coarse;
}
