/* bl-renderer.c: GL programs, per-BlMesh shared buffers and instanced batches for the viewport. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <epoxy/gl.h>
#include <gdk/gdk.h>

#include "bl-render-resources.h"
#include "bl-renderer.h"
#include "bl-tessellate.h"

const float bl_render_background_color[3] = { 0.18f, 0.19f, 0.21f };
const float bl_render_selection_color[3] = { 1.00f, 0.80f, 0.05f };
const float bl_render_warning_color[3] = { 0.90f, 0.15f, 0.10f };
const float bl_render_ellipsoid_color[3] = { 0.15f, 0.80f, 0.25f };
const float bl_render_added_mass_color[3] = { 0.60f, 0.30f, 1.00f };
const float bl_render_box_color[3] = { 0.95f, 0.35f, 0.85f };
const float bl_render_com_color[3] = { 0.95f, 0.95f, 0.95f };
const float bl_render_buoyancy_color[3] = { 0.10f, 0.45f, 1.00f };
static const float grid_color[3] = { 0.32f, 0.33f, 0.36f };

#define XRAY_ALPHA 0.35f
/* Above this many links spheres and cylinders use fewer facets. */
#define COARSE_LINKS 500

enum
{
  ATTR_POSITION,
  ATTR_NORMAL,
  ATTR_MODEL0,
  ATTR_MODEL1,
  ATTR_MODEL2,
  ATTR_MODEL3,
  ATTR_NORMAL0,
  ATTR_NORMAL1,
  ATTR_NORMAL2,
  ATTR_COLOR,
  ATTR_LINK,
  N_ATTRS
};

static const char * const attr_names[N_ATTRS] = {
  "a_position", "a_normal", "a_model0", "a_model1", "a_model2", "a_model3",
  "a_normal0", "a_normal1", "a_normal2", "a_color", "a_link",
};

/* Per instance: model 16, normal matrix 9, colour 4, link 1, padding 2. */
#define INSTANCE_FLOATS 32

typedef struct
{
  GLuint   vbo;
  GLuint   ibo;
  GLuint   edge_ibo;
  guint    n_indices;
  guint    n_edge_indices;
  GLenum   primitive;        /* GL_TRIANGLES or GL_LINES */
  gboolean has_normals;
  GArray  *indices;          /* kept for the wireframe edges, until made */
} GpuMesh;

typedef struct
{
  GpuMesh *mesh;
  GLuint   vao;
  GLuint   instance_vbo;
  GArray  *instances;        /* float, INSTANCE_FLOATS each */
  gsize    gpu_bytes;
  gboolean full_dirty;
  guint    dirty_lo, dirty_hi;   /* instance range [lo, hi) to re-send */
} Batch;

typedef struct
{
  Batch *batch;
  guint  index;
} Slot;

typedef enum
{
  OVERLAY_ELLIPSOID,
  OVERLAY_ADDED_MASS,
  OVERLAY_BOX,
  OVERLAY_COM,
  OVERLAY_BUOYANCY,
  OVERLAY_AXES,
  N_OVERLAYS
} Overlay;

struct _BlRenderer
{
  gboolean    use_es;
  GLuint      program;
  GLint       u_view_projection, u_mode, u_eye, u_alpha, u_selected, u_hovered, u_selection_color;

  GpuMesh    *prims[2][BL_PRIM_MESH];   /* [coarse][prim] */
  GpuMesh    *marker;
  GpuMesh    *cube_edges;
  GpuMesh    *axes_lines;
  GpuMesh    *grid;
  GpuMesh    *triad;
  GHashTable *mesh_gpu;                 /* BlMesh* (ref) → GpuMesh* */

  GPtrArray  *batches;                  /* Batch*, owned, every batch */
  Batch      *prim_batches[BL_PRIM_MESH];
  GHashTable *mesh_batches;             /* BlMesh* → Batch* */
  Batch      *overlays[N_OVERLAYS];
  Batch      *grid_batch;
  Batch      *triad_batch;

  GPtrArray  *links;                    /* BlSceneLink*, borrowed */
  GPtrArray  *slots;                    /* GArray of Slot per link */
  GHashTable *dirty_links;              /* BlSceneLink* set */
  gboolean    need_rebuild;
  gboolean    coarse;
  guint       n_rebuilds;
};

void
bl_render_link_color (guint  index,
                      float  rgb[3])
{
  /* Golden-angle hues kept in the blue–teal–slate range, soft saturation,
   * so overlays, warning and selection colours stay distinct. */
  double h = 0.50 + 0.22 * fmod (index * 0.6180339887498949, 1.0);
  double s = 0.30, v = 0.80;
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

/* ---- Programs ------------------------------------------------------------ */

static GLuint
compile_shader (GLenum       type,
                const char  *resource,
                gboolean     use_es,
                GError     **error)
{
  g_autofree char *path = g_strconcat ("/app/ballast/Ballast/shaders/", resource, NULL);
  g_autoptr(GBytes) bytes = NULL;
  const char *sources[2];
  GLint lengths[2];
  GLuint shader;
  GLint ok = 0;

  bytes = g_resource_lookup_data (bl_render_get_resource (), path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return 0;
  sources[0] = use_es ? "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                      : "#version 330 core\n";
  lengths[0] = (GLint) strlen (sources[0]);
  sources[1] = g_bytes_get_data (bytes, NULL);
  lengths[1] = (GLint) g_bytes_get_size (bytes);

  shader = glCreateShader (type);
  glShaderSource (shader, 2, sources, lengths);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetShaderiv (shader, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1) + 1);
      glGetShaderInfoLog (shader, len, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_COMPILATION_FAILED,
                   "Compiling shader %s failed: %s", resource, log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

static GLuint
link_program (gboolean   use_es,
              GError   **error)
{
  GLuint vs, fs, program;
  GLint ok = 0;

  vs = compile_shader (GL_VERTEX_SHADER, "mesh.vert", use_es, error);
  if (vs == 0)
    return 0;
  fs = compile_shader (GL_FRAGMENT_SHADER, "mesh.frag", use_es, error);
  if (fs == 0)
    {
      glDeleteShader (vs);
      return 0;
    }
  program = glCreateProgram ();
  glAttachShader (program, vs);
  glAttachShader (program, fs);
  for (int i = 0; i < N_ATTRS; i++)
    glBindAttribLocation (program, i, attr_names[i]);
  glLinkProgram (program);
  glGetProgramiv (program, GL_LINK_STATUS, &ok);
  glDetachShader (program, vs);
  glDetachShader (program, fs);
  glDeleteShader (vs);
  glDeleteShader (fs);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetProgramiv (program, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1) + 1);
      glGetProgramInfoLog (program, len, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_COMPILATION_FAILED,
                   "Linking the viewport shaders failed: %s", log);
      glDeleteProgram (program);
      return 0;
    }
  return program;
}

/* ---- Meshes and batches -------------------------------------------------- */

static GpuMesh *
gpu_mesh_new (const float   *vertices,
              gsize          n_floats,
              gboolean       has_normals,
              GArray        *indices,
              GLenum         primitive)
{
  GpuMesh *mesh = g_new0 (GpuMesh, 1);

  mesh->has_normals = has_normals;
  mesh->primitive = primitive;
  mesh->n_indices = indices->len;
  glGenBuffers (1, &mesh->vbo);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->vbo);
  glBufferData (GL_ARRAY_BUFFER, n_floats * sizeof (float), vertices, GL_STATIC_DRAW);
  glGenBuffers (1, &mesh->ibo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, indices->len * sizeof (guint32), indices->data, GL_STATIC_DRAW);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, 0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
  if (primitive == GL_TRIANGLES)
    mesh->indices = g_array_ref (indices);
  return mesh;
}

static GpuMesh *
gpu_mesh_from_tess (BlTessMesh *tess)
{
  return gpu_mesh_new ((const float *) tess->vertices->data, tess->vertices->len,
                       tess->has_normals, tess->indices, GL_TRIANGLES);
}

/* Lines with a colour per vertex (in the normal slot). */
static GpuMesh *
gpu_lines_new (const float *xyz_rgb,
               guint        n_vertices)
{
  g_autoptr(GArray) indices = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 i = 0; i < n_vertices; i++)
    g_array_append_val (indices, i);
  return gpu_mesh_new (xyz_rgb, 6 * n_vertices, TRUE, indices, GL_LINES);
}

static void
gpu_mesh_free (gpointer data)
{
  GpuMesh *mesh = data;

  glDeleteBuffers (1, &mesh->vbo);
  glDeleteBuffers (1, &mesh->ibo);
  if (mesh->edge_ibo != 0)
    glDeleteBuffers (1, &mesh->edge_ibo);
  g_clear_pointer (&mesh->indices, g_array_unref);
  g_free (mesh);
}

/* The wireframe's unique edges, made on first use. */
static void
gpu_mesh_ensure_edges (GpuMesh *mesh)
{
  g_autoptr(GArray) edges = NULL;

  if (mesh->edge_ibo != 0 || mesh->indices == NULL)
    return;
  edges = bl_tess_edges ((const guint32 *) mesh->indices->data, mesh->indices->len / 3);
  mesh->n_edge_indices = edges->len;
  glGenBuffers (1, &mesh->edge_ibo);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->edge_ibo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, edges->len * sizeof (guint32), edges->data, GL_STATIC_DRAW);
  g_clear_pointer (&mesh->indices, g_array_unref);
}

static Batch *
batch_new (BlRenderer *self,
           GpuMesh    *mesh)
{
  Batch *batch = g_new0 (Batch, 1);
  GLsizei stride = INSTANCE_FLOATS * sizeof (float);

  batch->mesh = mesh;
  batch->instances = g_array_new (FALSE, FALSE, sizeof (float));
  glGenVertexArrays (1, &batch->vao);
  glGenBuffers (1, &batch->instance_vbo);
  glBindVertexArray (batch->vao);

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

  glBindBuffer (GL_ARRAY_BUFFER, batch->instance_vbo);
  for (int i = 0; i < 4; i++)
    {
      glEnableVertexAttribArray (ATTR_MODEL0 + i);
      glVertexAttribPointer (ATTR_MODEL0 + i, 4, GL_FLOAT, GL_FALSE, stride, (void *) (4 * i * sizeof (float)));
      glVertexAttribDivisor (ATTR_MODEL0 + i, 1);
    }
  for (int i = 0; i < 3; i++)
    {
      glEnableVertexAttribArray (ATTR_NORMAL0 + i);
      glVertexAttribPointer (ATTR_NORMAL0 + i, 3, GL_FLOAT, GL_FALSE, stride,
                             (void *) ((16 + 3 * i) * sizeof (float)));
      glVertexAttribDivisor (ATTR_NORMAL0 + i, 1);
    }
  glEnableVertexAttribArray (ATTR_COLOR);
  glVertexAttribPointer (ATTR_COLOR, 4, GL_FLOAT, GL_FALSE, stride, (void *) (25 * sizeof (float)));
  glVertexAttribDivisor (ATTR_COLOR, 1);
  glEnableVertexAttribArray (ATTR_LINK);
  glVertexAttribPointer (ATTR_LINK, 1, GL_FLOAT, GL_FALSE, stride, (void *) (29 * sizeof (float)));
  glVertexAttribDivisor (ATTR_LINK, 1);

  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
  glBindVertexArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, 0);

  g_ptr_array_add (self->batches, batch);
  return batch;
}

static void
batch_free (gpointer data)
{
  Batch *batch = data;

  glDeleteVertexArrays (1, &batch->vao);
  glDeleteBuffers (1, &batch->instance_vbo);
  g_array_unref (batch->instances);
  g_free (batch);
}

static guint
batch_n_instances (Batch *batch)
{
  return batch->instances->len / INSTANCE_FLOATS;
}

/* Writes one instance: model matrix, its cofactor matrix for normals (the
 * inverse transpose up to a factor the shader normalises away), colour and
 * link index. */
static void
write_instance (float        *dst,
                const double  m[16],
                const float   color[3],
                float         alpha,
                float         link)
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
  dst[30] = dst[31] = 0.0f;
}

static guint
batch_append (Batch        *batch,
              const double  m[16],
              const float   color[3],
              float         link)
{
  guint index = batch_n_instances (batch);

  g_array_set_size (batch->instances, batch->instances->len + INSTANCE_FLOATS);
  write_instance (&g_array_index (batch->instances, float, index * INSTANCE_FLOATS), m, color, 1.0f, link);
  batch->full_dirty = TRUE;
  return index;
}

static void
batch_rewrite (Batch        *batch,
               guint         index,
               const double  m[16],
               const float   color[3],
               float         link)
{
  write_instance (&g_array_index (batch->instances, float, index * INSTANCE_FLOATS), m, color, 1.0f, link);
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

static void
batch_upload (Batch *batch)
{
  gsize bytes = batch->instances->len * sizeof (float);

  if (batch->full_dirty || bytes > batch->gpu_bytes)
    {
      glBindBuffer (GL_ARRAY_BUFFER, batch->instance_vbo);
      glBufferData (GL_ARRAY_BUFFER, bytes, batch->instances->data, GL_DYNAMIC_DRAW);
      batch->gpu_bytes = bytes;
    }
  else if (batch->dirty_hi > batch->dirty_lo)
    {
      gsize off = (gsize) batch->dirty_lo * INSTANCE_FLOATS * sizeof (float);
      gsize len = (gsize) (batch->dirty_hi - batch->dirty_lo) * INSTANCE_FLOATS * sizeof (float);

      glBindBuffer (GL_ARRAY_BUFFER, batch->instance_vbo);
      glBufferSubData (GL_ARRAY_BUFFER, off, len, (const char *) batch->instances->data + off);
    }
  batch->full_dirty = FALSE;
  batch->dirty_lo = batch->dirty_hi = 0;
}

static void
batch_draw (BlRenderer *self,
            Batch      *batch,
            gboolean    edges)
{
  guint n = batch_n_instances (batch);
  GpuMesh *mesh = batch->mesh;

  if (n == 0)
    return;
  glBindVertexArray (batch->vao);
  if (edges && mesh->primitive == GL_TRIANGLES)
    {
      gpu_mesh_ensure_edges (mesh);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->edge_ibo);
      glDrawElementsInstanced (GL_LINES, mesh->n_edge_indices, GL_UNSIGNED_INT, NULL, n);
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
    }
  else
    glDrawElementsInstanced (mesh->primitive, mesh->n_indices, GL_UNSIGNED_INT, NULL, n);
  glBindVertexArray (0);
}

/* ---- Life cycle ------------------------------------------------------------ */

static void
make_fixed_meshes (BlRenderer *self)
{
  for (int coarse = 0; coarse < 2; coarse++)
    {
      guint slices = coarse ? 12 : 40, stacks = coarse ? 6 : 20;
      g_autoptr(BlTessMesh) box = bl_tess_box ();
      g_autoptr(BlTessMesh) sphere = bl_tess_sphere (slices, stacks);
      g_autoptr(BlTessMesh) cylinder = bl_tess_cylinder (slices);
      g_autoptr(BlTessMesh) cone = bl_tess_cone (slices);
      g_autoptr(BlTessMesh) plane = bl_tess_plane ();

      self->prims[coarse][BL_PRIM_BOX] = gpu_mesh_from_tess (box);
      self->prims[coarse][BL_PRIM_SPHERE] = gpu_mesh_from_tess (sphere);
      self->prims[coarse][BL_PRIM_CYLINDER] = gpu_mesh_from_tess (cylinder);
      self->prims[coarse][BL_PRIM_CONE] = gpu_mesh_from_tess (cone);
      self->prims[coarse][BL_PRIM_PLANE] = gpu_mesh_from_tess (plane);
    }
  {
    g_autoptr(BlTessMesh) marker = bl_tess_sphere (10, 6);

    self->marker = gpu_mesh_from_tess (marker);
  }

  {
    /* The unit cube's 12 edges. */
    float v[24 * 6];
    guint n = 0;

    for (int axis = 0; axis < 3; axis++)
      for (int a = -1; a <= 1; a += 2)
        for (int b = -1; b <= 1; b += 2)
          for (int end = -1; end <= 1; end += 2)
            {
              float p[3];

              p[axis] = 0.5f * end;
              p[(axis + 1) % 3] = 0.5f * a;
              p[(axis + 2) % 3] = 0.5f * b;
              memcpy (&v[6 * n], p, sizeof p);
              memcpy (&v[6 * n + 3], bl_render_box_color, 3 * sizeof (float));
              n++;
            }
    self->cube_edges = gpu_lines_new (v, n);
  }

  {
    /* Principal axes: ±1 along x, y, z in red, green, blue. */
    float v[6 * 6] = { 0 };

    for (int axis = 0; axis < 3; axis++)
      for (int end = 0; end < 2; end++)
        {
          float *p = &v[6 * (2 * axis + end)];

          p[axis] = end ? 1.0f : -1.0f;
          p[3 + axis] = 1.0f;
        }
    self->axes_lines = gpu_lines_new (v, 6);
  }

  {
    /* Triad: the world axes from the origin, red x, green y, blue z. */
    float v[6 * 6] = { 0 };

    for (int axis = 0; axis < 3; axis++)
      {
        float *p = &v[6 * (2 * axis)];

        p[3 + axis] = 1.0f;
        p[6 + axis] = 1.0f;
        p[6 + 3 + axis] = 1.0f;
      }
    self->triad = gpu_lines_new (v, 6);
  }

  {
    /* Grid: 21 lines each way over [−1, 1]², in the grid colour. */
    float v[84 * 6];
    guint n = 0;

    for (int dir = 0; dir < 2; dir++)
      for (int i = -10; i <= 10; i++)
        for (int end = -1; end <= 1; end += 2)
          {
            float *p = &v[6 * n++];

            p[dir] = i / 10.0f;
            p[1 - dir] = (float) end;
            p[2] = 0.0f;
            memcpy (p + 3, grid_color, sizeof grid_color);
          }
    self->grid = gpu_lines_new (v, n);
  }
}

BlRenderer *
bl_renderer_new (gboolean   use_es,
                 GError   **error)
{
  BlRenderer *self;
  GLuint program = link_program (use_es, error);

  if (program == 0)
    return NULL;

  self = g_new0 (BlRenderer, 1);
  self->use_es = use_es;
  self->program = program;
  self->u_view_projection = glGetUniformLocation (program, "u_view_projection");
  self->u_mode = glGetUniformLocation (program, "u_mode");
  self->u_eye = glGetUniformLocation (program, "u_eye");
  self->u_alpha = glGetUniformLocation (program, "u_alpha");
  self->u_selected = glGetUniformLocation (program, "u_selected");
  self->u_hovered = glGetUniformLocation (program, "u_hovered");
  self->u_selection_color = glGetUniformLocation (program, "u_selection_color");

  self->batches = g_ptr_array_new_with_free_func (batch_free);
  self->mesh_gpu = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) bl_mesh_unref, gpu_mesh_free);
  self->mesh_batches = g_hash_table_new (NULL, NULL);
  self->slots = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->dirty_links = g_hash_table_new (NULL, NULL);
  make_fixed_meshes (self);

  {
    double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    static const float white[3] = { 1, 1, 1 };

    self->grid_batch = batch_new (self, self->grid);
    batch_append (self->grid_batch, identity, grid_color, -1.0f);
    self->triad_batch = batch_new (self, self->triad);
    batch_append (self->triad_batch, identity, white, -1.0f);
  }
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
  for (int c = 0; c < 2; c++)
    for (int p = 0; p < BL_PRIM_MESH; p++)
      gpu_mesh_free (self->prims[c][p]);
  gpu_mesh_free (self->marker);
  gpu_mesh_free (self->cube_edges);
  gpu_mesh_free (self->axes_lines);
  gpu_mesh_free (self->grid);
  gpu_mesh_free (self->triad);
  g_clear_pointer (&self->links, g_ptr_array_unref);
  g_ptr_array_unref (self->slots);
  g_hash_table_unref (self->dirty_links);
  glDeleteProgram (self->program);
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

guint
bl_renderer_get_n_rebuilds (BlRenderer *self)
{
  return self->n_rebuilds;
}

/* ---- Instances from the scene --------------------------------------------- */

static GpuMesh *
gpu_mesh_for (BlRenderer *self,
              BlMesh     *mesh)
{
  GpuMesh *gpu = g_hash_table_lookup (self->mesh_gpu, mesh);

  if (gpu == NULL)
    {
      g_autoptr(BlTessMesh) tess = bl_tess_from_mesh (mesh);

      gpu = gpu_mesh_from_tess (tess);
      g_hash_table_insert (self->mesh_gpu, bl_mesh_ref (mesh), gpu);
    }
  return gpu;
}

static Batch *
batch_for_shape (BlRenderer   *self,
                 BlSceneShape *shape)
{
  Batch *batch;

  if (shape->prim != BL_PRIM_MESH)
    return self->prim_batches[shape->prim];
  batch = g_hash_table_lookup (self->mesh_batches, shape->mesh);
  if (batch == NULL)
    {
      batch = batch_new (self, gpu_mesh_for (self, shape->mesh));
      g_hash_table_insert (self->mesh_batches, shape->mesh, batch);
    }
  return batch;
}

static void
link_shape_color (BlSceneLink *link,
                  float        rgb[3])
{
  if (!link->valid)
    memcpy (rgb, bl_render_warning_color, 3 * sizeof (float));
  else
    bl_render_link_color (link->index, rgb);
}

static const double zero_matrix[16] = { 0 };

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

/* The overlay matrices of a link; a zero matrix hides a missing one. */
static void
overlay_matrices (BlSceneLink *link,
                  double       m[N_OVERLAYS][16])
{
  memcpy (m[OVERLAY_ELLIPSOID], link->has_ellipsoid ? link->ellipsoid : zero_matrix, sizeof m[0]);
  memcpy (m[OVERLAY_ADDED_MASS], link->has_added_mass ? link->added_mass : zero_matrix, sizeof m[0]);
  memcpy (m[OVERLAY_BOX], link->has_box ? link->box : zero_matrix, sizeof m[0]);
  if (link->has_com)
    translate_scale (link->com, link->marker_size, m[OVERLAY_COM]);
  else
    memcpy (m[OVERLAY_COM], zero_matrix, sizeof m[0]);
  if (link->has_buoyancy)
    translate_scale (link->buoyancy, 0.8 * link->marker_size, m[OVERLAY_BUOYANCY]);
  else
    memcpy (m[OVERLAY_BUOYANCY], zero_matrix, sizeof m[0]);
  memcpy (m[OVERLAY_AXES], zero_matrix, sizeof m[0]);
  if (link->has_ellipsoid)
    {
      for (int i = 0; i < 3; i++)
        {
          double len = 1.25 * MAX (link->axis_length[i], link->marker_size);

          for (int r = 0; r < 3; r++)
            m[OVERLAY_AXES][i * 4 + r] = link->axes[i][r] * len;
        }
      memcpy (&m[OVERLAY_AXES][12], link->com, 3 * sizeof (double));
      m[OVERLAY_AXES][15] = 1.0;
    }
}

static const float *
overlay_color (Overlay overlay)
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

static void
rebuild (BlRenderer *self)
{
  guint n = self->links != NULL ? self->links->len : 0;
  gboolean coarse = n > COARSE_LINKS;

  /* Instance batches only; meshes' GPU buffers stay shared and cached. */
  g_hash_table_remove_all (self->mesh_batches);
  g_ptr_array_set_size (self->batches, 0);
  g_ptr_array_set_size (self->slots, 0);
  self->coarse = coarse;

  {
    double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    static const float white[3] = { 1, 1, 1 };

    self->grid_batch = batch_new (self, self->grid);
    batch_append (self->grid_batch, identity, grid_color, -1.0f);
    self->triad_batch = batch_new (self, self->triad);
    batch_append (self->triad_batch, identity, white, -1.0f);
  }
  for (int p = 0; p < BL_PRIM_MESH; p++)
    self->prim_batches[p] = batch_new (self, self->prims[coarse][p]);
  self->overlays[OVERLAY_ELLIPSOID] = batch_new (self, self->prims[coarse][BL_PRIM_SPHERE]);
  self->overlays[OVERLAY_ADDED_MASS] = batch_new (self, self->prims[coarse][BL_PRIM_SPHERE]);
  self->overlays[OVERLAY_BOX] = batch_new (self, self->cube_edges);
  self->overlays[OVERLAY_COM] = batch_new (self, self->marker);
  self->overlays[OVERLAY_BUOYANCY] = batch_new (self, self->marker);
  self->overlays[OVERLAY_AXES] = batch_new (self, self->axes_lines);

  for (guint i = 0; i < n; i++)
    {
      BlSceneLink *link = g_ptr_array_index (self->links, i);
      GArray *slots = g_array_new (FALSE, FALSE, sizeof (Slot));
      double m[N_OVERLAYS][16];
      float color[3];

      link_shape_color (link, color);
      for (guint s = 0; s < link->shapes->len; s++)
        {
          BlSceneShape *shape = &g_array_index (link->shapes, BlSceneShape, s);
          Slot slot;

          slot.batch = batch_for_shape (self, shape);
          slot.index = batch_append (slot.batch, shape->model, color, (float) i);
          g_array_append_val (slots, slot);
        }
      overlay_matrices (link, m);
      for (int o = 0; o < N_OVERLAYS; o++)
        batch_append (self->overlays[o], m[o], overlay_color (o), -1.0f);
      g_ptr_array_add (self->slots, slots);
    }
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
  GArray *slots;
  double m[N_OVERLAYS][16];
  float color[3];
  guint i = link->index;

  if (i >= self->slots->len || g_ptr_array_index (self->links, i) != link)
    return FALSE;
  slots = g_ptr_array_index (self->slots, i);
  if (slots->len != link->shapes->len)
    return FALSE;
  for (guint s = 0; s < link->shapes->len; s++)
    {
      BlSceneShape *shape = &g_array_index (link->shapes, BlSceneShape, s);
      Slot *slot = &g_array_index (slots, Slot, s);

      if (shape->prim != BL_PRIM_MESH ? slot->batch != self->prim_batches[shape->prim]
                                      : slot->batch != g_hash_table_lookup (self->mesh_batches, shape->mesh))
        return FALSE;
    }

  link_shape_color (link, color);
  for (guint s = 0; s < link->shapes->len; s++)
    {
      BlSceneShape *shape = &g_array_index (link->shapes, BlSceneShape, s);
      Slot *slot = &g_array_index (slots, Slot, s);

      batch_rewrite (slot->batch, slot->index, shape->model, color, (float) i);
    }
  overlay_matrices (link, m);
  for (int o = 0; o < N_OVERLAYS; o++)
    batch_rewrite (self->overlays[o], i, m[o], overlay_color (o), -1.0f);
  return TRUE;
}

static void
sync_instances (BlRenderer *self)
{
  GHashTableIter iter;
  gpointer key;

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
  for (guint b = 0; b < self->batches->len; b++)
    batch_upload (g_ptr_array_index (self->batches, b));
}

/* ---- Drawing --------------------------------------------------------------- */

static void
draw_collisions (BlRenderer            *self,
                 const BlRenderOptions *options,
                 float                  alpha)
{
  GHashTableIter iter;
  gpointer value;
  gboolean edges = options->wireframe;

  glUniform1i (self->u_mode, edges ? 1 : 0);
  glUniform1f (self->u_alpha, alpha);
  for (int p = 0; p < BL_PRIM_MESH; p++)
    batch_draw (self, self->prim_batches[p], edges);
  g_hash_table_iter_init (&iter, self->mesh_batches);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    batch_draw (self, value, edges);
}

static void
draw_inertia_overlays (BlRenderer            *self,
                       const BlRenderOptions *options)
{
  glUniform1f (self->u_alpha, 1.0f);
  glUniform1i (self->u_mode, 0);
  if (options->show_inertia_ellipsoid)
    batch_draw (self, self->overlays[OVERLAY_ELLIPSOID], FALSE);
  if (options->show_added_mass)
    batch_draw (self, self->overlays[OVERLAY_ADDED_MASS], FALSE);
  if (options->show_inertia_box)
    {
      glUniform1i (self->u_mode, 2);
      batch_draw (self, self->overlays[OVERLAY_BOX], FALSE);
    }
}

void
bl_renderer_draw (BlRenderer            *self,
                  const BlCamera        *camera,
                  const BlRenderOptions *options,
                  const double           scene_center[3],
                  double                 scene_radius,
                  int                    width,
                  int                    height)
{
  mat4 view, projection, vp;
  double eye[3];
  float eyef[3];

  sync_instances (self);

  bl_camera_get_view (camera, view);
  bl_camera_get_projection (camera, width, height, scene_radius, projection);
  glm_mat4_mul (projection, view, vp);
  bl_camera_get_eye (camera, eye);
  for (int k = 0; k < 3; k++)
    eyef[k] = (float) eye[k];

  glViewport (0, 0, width, height);
  glClearColor (bl_render_background_color[0], bl_render_background_color[1],
                bl_render_background_color[2], 1.0f);
  glClearDepthf (1.0f);
  glDepthMask (GL_TRUE);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_CULL_FACE);
  glDisable (GL_BLEND);

  glUseProgram (self->program);
  glUniformMatrix4fv (self->u_view_projection, 1, GL_FALSE, (const float *) vp);
  glUniform3fv (self->u_eye, 1, eyef);
  glUniform1f (self->u_selected, (float) options->selected);
  glUniform1f (self->u_hovered, (float) options->hovered);
  glUniform3fv (self->u_selection_color, 1, bl_render_selection_color);

  /* Ground grid under the scene: spacing a power of ten near its size. */
  {
    double r = MAX (scene_radius, 1e-3);
    double step = pow (10.0, floor (log10 (r)));
    double half = 10.0 * step;
    double m[16] = { half, 0, 0, 0, 0, half, 0, 0, 0, 0, 1, 0,
                     floor (scene_center[0] / step) * step, floor (scene_center[1] / step) * step, 0, 1 };
    float *dst = &g_array_index (self->grid_batch->instances, float, 0);

    write_instance (dst, m, grid_color, 1.0f, -1.0f);
    self->grid_batch->full_dirty = TRUE;
    batch_upload (self->grid_batch);
    glUniform1i (self->u_mode, 2);
    glUniform1f (self->u_alpha, 1.0f);
    batch_draw (self, self->grid_batch, FALSE);
  }

  if (options->xray && !options->wireframe)
    {
      /* Overlays first and opaque, then the hulls translucent over them
       * without writing depth, so everything inside stays visible. */
      draw_inertia_overlays (self, options);
      glEnable (GL_BLEND);
      glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
      glDepthMask (GL_FALSE);
      draw_collisions (self, options, XRAY_ALPHA);
      glDepthMask (GL_TRUE);
      glDisable (GL_BLEND);
    }
  else
    {
      draw_collisions (self, options, 1.0f);
      draw_inertia_overlays (self, options);
    }

  /* Point markers and axes on top of everything. */
  glDisable (GL_DEPTH_TEST);
  glUniform1f (self->u_alpha, 1.0f);
  if (options->show_principal_axes)
    {
      glUniform1i (self->u_mode, 2);
      batch_draw (self, self->overlays[OVERLAY_AXES], FALSE);
    }
  glUniform1i (self->u_mode, 0);
  if (options->show_com)
    batch_draw (self, self->overlays[OVERLAY_COM], FALSE);
  if (options->show_buoyancy_center)
    batch_draw (self, self->overlays[OVERLAY_BUOYANCY], FALSE);

  /* Axes triad in the lower-left corner: the camera's rotation only. */
  {
    int size = MIN (96, MIN (width, height) / 4);
    mat4 rot, ortho, tvp;

    glm_mat4_copy (view, rot);
    rot[3][0] = rot[3][1] = rot[3][2] = 0.0f;
    rot[3][2] = -2.0f;
    glm_ortho (-1.3f, 1.3f, -1.3f, 1.3f, 0.1f, 4.0f, ortho);
    glm_mat4_mul (ortho, rot, tvp);
    glViewport (0, 0, size, size);
    glUniformMatrix4fv (self->u_view_projection, 1, GL_FALSE, (const float *) tvp);
    glUniform1i (self->u_mode, 2);
    batch_draw (self, self->triad_batch, FALSE);
    glViewport (0, 0, width, height);
  }

  glEnable (GL_DEPTH_TEST);
  glUseProgram (0);
}
