/* bl-renderer.c: GL programs, per-BlMesh shared buffers and instanced batches for the viewport. */
#include "config.h"

#include <math.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <epoxy/gl.h>
#include <gdk/gdk.h>

#include "bl-cluster.h"
#include "bl-render-resources.h"
#include "bl-renderer.h"
#include "bl-simplify-smooth.h"
#include "bl-tessellate.h"

const float bl_render_background_color[3] = { 0.18f, 0.19f, 0.21f };
const float bl_render_selection_color[3] = { 1.00f, 0.58f, 0.12f };
const float bl_render_warning_color[3] = { 0.90f, 0.15f, 0.10f };
const float bl_render_ellipsoid_color[3] = { 0.20f, 0.85f, 0.30f };
const float bl_render_added_mass_color[3] = { 0.65f, 0.35f, 1.00f };
const float bl_render_box_color[3] = { 1.00f, 0.30f, 0.60f };
const float bl_render_com_color[3] = { 0.95f, 0.95f, 0.95f };
const float bl_render_com_dark_color[3] = { 0.08f, 0.08f, 0.08f };
const float bl_render_buoyancy_color[3] = { 0.15f, 0.55f, 1.00f };
static const float grid_color[3] = { 0.32f, 0.33f, 0.36f };

/* Instances of one unit mesh above this count are culled and given a level
 * of detail by their size on screen every frame (below it they are drawn
 * as they are, from a buffer that only changes on edits). */
#define LOD_MIN_INSTANCES 32
/* Screen radius (pixels) above which a curved primitive uses its fine,
 * coarse and tiny tessellations, else a speck (an octahedron, a prism). */
#define LOD_FINE_PX 40.0
#define LOD_COARSE_PX 6.0
#define LOD_TINY_PX 2.0
/* Below these screen radii a collision is drawn as a one-pixel point (so
 * that a world of 100,000 links at fit-all shows its bodies, not an empty
 * grid), and overlays and markers (whose link is not selected) not at all. */
#define CULL_SOLID_PX 0.4
#define CULL_OVERLAY_PX 2.0
/* Triangles per piece of a large draw on a software rasteriser. */
#define FLUSH_TRIANGLES 65536
/* Meshes of at least this many triangles are cut into clusters of at most
 * CLUSTER_TRIANGLES (in a thread, see MeshJob), and each frame draws
 * only those that may show. */
#define CLUSTER_MIN_TRIANGLES 4096
#define CLUSTER_TRIANGLES 128
/* Such meshes also get coarser levels (in the same thread), down to
 * LEVEL_MIN_TRIANGLES, each with its measured distance from the mesh;
 * each frame draws an instance at the coarsest level whose distance from
 * the full mesh is at most LEVEL_ERROR_PX on screen (bl_simplify.h).  A
 * level is shaded smooth, its normals averaged across edges sharper than
 * LEVEL_CREASE_DEGREES only; levels whose error exceeds LEVEL_MAX_ERROR
 * of the mesh's radius are not made (they would serve only a mesh a few
 * pixels across). */
#define LEVEL_MIN_TRIANGLES 256
#define LEVEL_ERROR_PX 0.5
#define LEVEL_CREASE_DEGREES 60.0
#define LEVEL_MAX_ERROR 0.05
#define MAX_LEVELS 12

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
  ATTR_FLAGS,
  ATTR_PART,
  N_ATTRS
};

static const char * const attr_names[N_ATTRS] = {
  "a_position", "a_normal", "a_model0", "a_model1", "a_model2", "a_model3",
  "a_normal0", "a_normal1", "a_normal2", "a_color", "a_link", "a_flags", "a_part",
};

/* Per instance: model 16, normal matrix 9, colour 4, link 1, flags 1, part 1
 * (a body's collision: its position in the link's collisions). */
#define INSTANCE_FLOATS 32

typedef struct _GpuMesh GpuMesh;

struct _GpuMesh
{
  guint    ref_count;        /* a loaded mesh's: one per BlMesh using it, one for its unscaled key */
  GLuint   vbo;
  GLuint   ibo;
  GLuint   edge_ibo;
  guint    n_indices;
  guint    n_edge_indices;
  GLenum   primitive;        /* GL_TRIANGLES or GL_LINES */
  gboolean has_normals;
  GArray  *indices;          /* kept for the wireframe edges, until made */
  GArray  *clusters;         /* BlCluster, for big meshes (else NULL) */
  GPtrArray *levels;         /* GpuMesh*, coarser versions of a big mesh, finest first (else NULL) */
  double   error;            /* a level's measured distance from the mesh, in the mesh's frame */
  struct _MeshJob *job;      /* the clusters and levels being made in a thread */
  char    *unscaled_key;     /* a loaded mesh's bl_mesh_get_unscaled_key, or NULL */
  BlVec3   scale;            /* the <scale> of the geometry in its buffers */
  double   bound_radius;     /* of that geometry about its origin */
};

/* One coarser level of a big mesh, as the thread makes it. */
typedef struct
{
  BlTessMesh *tess;          /* smooth normals; reordered and renumbered when it has clusters */
  GArray     *clusters;      /* BlCluster, or NULL for a small level */
  double      error;
} LevelData;

static void
level_data_free (gpointer data)
{
  LevelData *level = data;

  bl_tess_mesh_free (level->tess);
  g_clear_pointer (&level->clusters, g_array_unref);
  g_free (level);
}

/* Making a big mesh's clusters takes about 0.1 s per million triangles,
 * and its levels about a second, so a thread does both while the first
 * frames draw the mesh whole; the first draw after the clusters are done
 * uploads the reordered indices and starts skipping clusters, the first
 * after the levels are done uploads them.  The job is shared by the thread
 * and the mesh, which cancels it when it goes first. */
typedef struct _MeshJob
{
  gint    ref_count;
  gint    clusters_done;     /* atomic: clusters and indices are ready */
  gint    levels_done;       /* atomic: levels are ready */
  GArray *vertices;          /* float, shared read-only with the tessellation */
  guint   stride;
  double  radius;            /* of the mesh about its origin */
  GArray *source;            /* guint32, shared read-only with the mesh (its edges) */
  GArray *indices;           /* guint32, the thread's own copy, reordered and renumbered */
  GArray *clusters;          /* BlCluster, the result */
  GArray *new_vertices;      /* float, renumbered in the order of first use */
  GPtrArray *levels;         /* LevelData*, finest first */
  GCancellable *cancellable;
} MeshJob;

static void
mesh_job_unref (MeshJob *job)
{
  if (!g_atomic_int_dec_and_test (&job->ref_count))
    return;
  g_array_unref (job->vertices);
  g_array_unref (job->source);
  g_clear_pointer (&job->indices, g_array_unref);
  g_clear_pointer (&job->clusters, g_array_unref);
  g_clear_pointer (&job->new_vertices, g_array_unref);
  g_clear_pointer (&job->levels, g_ptr_array_unref);
  g_object_unref (job->cancellable);
  g_free (job);
}

/* Reorders the triangles of INDICES into clusters and renumbers the
 * vertices in the order of first use (VERTICES rewritten in that order). */
static GArray *
make_clusters (GArray  *vertices,
               guint    stride,
               GArray  *indices)
{
  GArray *clusters = bl_cluster_build ((const float *) vertices->data, stride, (guint32 *) indices->data,
                                       indices->len / 3, CLUSTER_TRIANGLES);
  g_autoptr(GArray) old = g_array_copy (vertices);

  /* The triangles are in a new order: vertices in the same order keep
   * llvmpipe's vertex fetch sequential instead of scattered. */
  bl_cluster_renumber ((guint32 *) indices->data, indices->len, (const float *) old->data, stride,
                       old->len / stride, (float *) vertices->data);
  return clusters;
}

static gpointer
mesh_job_run (gpointer data)
{
  MeshJob *job = data;
  g_autoptr(GPtrArray) simplified = NULL;

#ifdef __linux__
  /* Behind the frames being drawn meanwhile: llvmpipe's threads first. */
  (void) setpriority (PRIO_PROCESS, (id_t) gettid (), 10);
#endif
  job->indices = g_array_copy (job->source);
  job->new_vertices = g_array_copy (job->vertices);
  job->clusters = make_clusters (job->new_vertices, job->stride, job->indices);
  g_atomic_int_set (&job->clusters_done, 1);

  simplified = bl_simplify_levels ((const float *) job->vertices->data, job->stride,
                                   job->vertices->len / job->stride, (const guint32 *) job->source->data,
                                   job->source->len / 3, LEVEL_MIN_TRIANGLES, LEVEL_MAX_ERROR * job->radius,
                                   job->cancellable);
  job->levels = g_ptr_array_new_with_free_func (level_data_free);
  for (guint l = 0; simplified != NULL && l < MIN (simplified->len, MAX_LEVELS); l++)
    {
      BlSimplifyLevel *level = g_ptr_array_index (simplified, l);
      LevelData *out = g_new0 (LevelData, 1);

      out->error = level->error;
      out->tess = bl_simplify_smooth_mesh ((const float *) job->vertices->data, job->stride, level->indices,
                                           LEVEL_CREASE_DEGREES);
      if (bl_tess_mesh_get_n_triangles (out->tess) >= CLUSTER_MIN_TRIANGLES)
        out->clusters = make_clusters (out->tess->vertices, bl_tess_mesh_get_stride (out->tess),
                                       out->tess->indices);
      g_ptr_array_add (job->levels, out);
    }
  g_atomic_int_set (&job->levels_done, 1);
  mesh_job_unref (job);
  return NULL;
}

#define N_LODS 4
/* A batch's levels: a primitive's N_LODS, or a big mesh and its levels. */
#define N_BATCH_LEVELS (1 + MAX_LEVELS)

typedef struct
{
  GpuMesh *mesh;
  /* Primitives: fine (= mesh), coarse, tiny, speck; big meshes: the mesh
   * and its levels once made; NULL: the finer one. */
  GpuMesh *lods[N_BATCH_LEVELS];
  double   bound_radius;     /* of the unit mesh about its origin */
  gboolean cull;             /* closed and wound outward: back faces may go */
  gboolean faint_normals;    /* a matrix may shrink a normal to nothing (normals_may_vanish) */
  GLuint   vao;
  GLuint   instance_vbo;
  GArray  *instances;        /* float, INSTANCE_FLOATS each */
  gsize    gpu_bytes;
  gboolean full_dirty;
  guint    dirty_lo, dirty_hi;   /* instance range [lo, hi) to re-send */

  /* This frame's visible instances by level of detail (many instances only). */
  gboolean streamed;
  GLuint   lod_vao[N_BATCH_LEVELS];
  GLuint   lod_vbo[N_BATCH_LEVELS];
  GArray  *lod_instances[N_BATCH_LEVELS];
  /* This frame's solid instances under CULL_SOLID_PX: a point each. */
  GLuint   speck_vao;
  GLuint   speck_vbo;
  GArray  *speck_instances;

  /* The VAOs of the mesh's coarser levels, made when first drawn (0: not yet). */
  GLuint   level_vao[MAX_LEVELS];

  /* Scales each instance's matrix first (its mesh's buffers hold another
   * <scale> of the same file); (1, 1, 1) otherwise. */
  double   rescale[3];
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

/* What culling and the level of detail need of the camera this frame. */
typedef struct
{
  float  planes[6][4];      /* frustum, normalised, inside ≥ 0 */
  double eye[3];
  double forward[3];        /* the view direction, unit */
  double px_per_radian;     /* pixels per radian near the view axis (the focal length) */
  double corner_stretch;    /* √(1 + tan²θ), θ the angle of the frustum's corners off the axis */
  int    selected;
  gboolean clusters;        /* big meshes skip clusters that cannot show */
  gboolean levels;          /* big meshes may be drawn at a coarser level */
} FrameInfo;

/* A linked program and its uniforms (−1 where it has none). */
typedef struct
{
  GLuint id;
  GLint  u_view_projection, u_mode, u_eye, u_alpha, u_selected, u_hovered, u_selection_color;
  GLint  u_selection_mix, u_com_dark, u_marker_scale;
  GLint  u_selected_collision, u_collision_mix, u_background, u_dim_mix;
} Program;

/* The opaque bodies' programs: meshes (no normals, flat) and primitives. */
typedef enum
{
  BODY_FLAT,
  BODY_SMOOTH,
  BODY_SMOOTH_FALLBACK,     /* with the derivative normal where one vanishes */
  N_BODY_PROGRAMS
} BodyProgram;

struct _BlRenderer
{
  gboolean    use_es;
  Program     general;                  /* mesh.vert/.frag: every layer */
  Program     body[N_BODY_PROGRAMS];    /* body.vert/.frag: opaque collisions */
  Program     shell[2];                 /* shell.vert/.frag: translucent ellipsoids; [1] with NORMAL_FALLBACK */
  Program     rings[2];                 /* shell.vert/.frag with RINGS: the added-mass ellipsoid */
  gboolean    shown_added_mass;         /* the bodies' colours were written with the added-mass overlay on */

  GpuMesh    *prims[N_LODS][BL_PRIM_MESH];   /* [level][prim] */
  GpuMesh    *marker;
  GpuMesh    *cube_edges;
  GpuMesh    *axes_lines;
  GpuMesh    *grid;
  GpuMesh    *triad;
  GHashTable *mesh_gpu;                 /* BlMesh* (ref) → GpuMesh* (ref) */
  GHashTable *unscaled_gpu;             /* unscaled key → GpuMesh* (ref): every <scale> of one file shares it */

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
  guint       n_rebuilds;
  guint       n_drawn_triangles;

  /* On a software rasteriser (llvmpipe), a draw of more triangles than
   * this is cut into pieces with a flush after each: llvmpipe transforms
   * and bins triangles on the calling thread and rasterises a flushed
   * scene on its own threads, so the two overlap instead of taking turns.
   * 0: one draw (hardware). */
  guint       flush_triangles;

  /* This frame's camera (for the clusters) and scratch arrays for the
   * ranges of a clustered draw. */
  FrameInfo   frame;
  GArray     *ranges;                   /* guint32 pairs: first triangle, count */
  GArray     *draw_counts;              /* GLsizei */
  GArray     *draw_offsets;             /* const void * */
  GPtrArray  *unstarted_jobs;           /* MeshJob*, each holding its thread's reference */

  /* The panel method's surface (bl_renderer_set_panels): triangles
   * (filled when coloured) then their edges, 6 floats a vertex. */
  GArray     *panel_vertices;
  guint       panel_fill_vertices;
  gboolean    panel_dirty;
  GLuint      panel_vao, panel_vbo;
};

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

/* ---- Programs ------------------------------------------------------------ */

static GLuint
compile_shader (GLenum       type,
                const char  *resource,
                const char  *defines,
                gboolean     use_es,
                GError     **error)
{
  g_autofree char *path = g_strconcat ("/app/ballast/Ballast/shaders/", resource, NULL);
  g_autoptr(GBytes) bytes = NULL;
  const char *sources[3];
  GLint lengths[3];
  GLuint shader;
  GLint ok = 0;

  bytes = g_resource_lookup_data (bl_render_get_resource (), path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return 0;
  sources[0] = use_es ? "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                      : "#version 330 core\n";
  lengths[0] = (GLint) strlen (sources[0]);
  sources[1] = defines;
  lengths[1] = (GLint) strlen (defines);
  sources[2] = g_bytes_get_data (bytes, NULL);
  lengths[2] = (GLint) g_bytes_get_size (bytes);

  shader = glCreateShader (type);
  glShaderSource (shader, 3, sources, lengths);
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

/* Links NAME.vert and NAME.frag with DEFINES (lines of #define) before both. */
static gboolean
program_init (Program     *program,
              const char  *name,
              const char  *defines,
              gboolean     use_es,
              GError     **error)
{
  g_autofree char *vert = g_strconcat (name, ".vert", NULL);
  g_autofree char *frag = g_strconcat (name, ".frag", NULL);
  GLuint vs, fs, id;
  GLint ok = 0;

  vs = compile_shader (GL_VERTEX_SHADER, vert, defines, use_es, error);
  if (vs == 0)
    return FALSE;
  fs = compile_shader (GL_FRAGMENT_SHADER, frag, defines, use_es, error);
  if (fs == 0)
    {
      glDeleteShader (vs);
      return FALSE;
    }
  id = glCreateProgram ();
  glAttachShader (id, vs);
  glAttachShader (id, fs);
  for (int i = 0; i < N_ATTRS; i++)
    glBindAttribLocation (id, i, attr_names[i]);
  glLinkProgram (id);
  glGetProgramiv (id, GL_LINK_STATUS, &ok);
  glDetachShader (id, vs);
  glDetachShader (id, fs);
  glDeleteShader (vs);
  glDeleteShader (fs);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetProgramiv (id, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1) + 1);
      glGetProgramInfoLog (id, len, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_COMPILATION_FAILED,
                   "Linking the viewport shaders (%s) failed: %s", name, log);
      glDeleteProgram (id);
      return FALSE;
    }

  /* −1 for a uniform that this program does not use: glUniform ignores it. */
  program->id = id;
  program->u_view_projection = glGetUniformLocation (id, "u_view_projection");
  program->u_mode = glGetUniformLocation (id, "u_mode");
  program->u_eye = glGetUniformLocation (id, "u_eye");
  program->u_alpha = glGetUniformLocation (id, "u_alpha");
  program->u_selected = glGetUniformLocation (id, "u_selected");
  program->u_hovered = glGetUniformLocation (id, "u_hovered");
  program->u_selection_color = glGetUniformLocation (id, "u_selection_color");
  program->u_selection_mix = glGetUniformLocation (id, "u_selection_mix");
  program->u_com_dark = glGetUniformLocation (id, "u_com_dark");
  program->u_marker_scale = glGetUniformLocation (id, "u_marker_scale");
  program->u_selected_collision = glGetUniformLocation (id, "u_selected_collision");
  program->u_collision_mix = glGetUniformLocation (id, "u_collision_mix");
  program->u_background = glGetUniformLocation (id, "u_background");
  program->u_dim_mix = glGetUniformLocation (id, "u_dim_mix");
  return TRUE;
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

  mesh->ref_count = 1;
  mesh->scale = bl_vec3 (1, 1, 1);
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
  g_clear_pointer (&mesh->clusters, g_array_unref);
  g_clear_pointer (&mesh->levels, g_ptr_array_unref);
  if (mesh->job != NULL)
    g_cancellable_cancel (mesh->job->cancellable);
  g_clear_pointer (&mesh->job, mesh_job_unref);
  g_free (mesh->unscaled_key);
  g_free (mesh);
}

static void
gpu_mesh_unref (gpointer data)
{
  GpuMesh *mesh = data;

  if (--mesh->ref_count == 0)
    gpu_mesh_free (mesh);
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
setup_vao (GLuint   vao,
           GpuMesh *mesh,
           GLuint   instance_vbo)
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

static Batch *
batch_new (BlRenderer *self,
           GpuMesh    *mesh,
           double      bound_radius,
           gboolean    cull)
{
  Batch *batch = g_new0 (Batch, 1);

  batch->mesh = mesh;
  batch->rescale[0] = batch->rescale[1] = batch->rescale[2] = 1.0;
  batch->lods[0] = mesh;
  batch->bound_radius = bound_radius;
  batch->cull = cull;
  batch->instances = g_array_new (FALSE, FALSE, sizeof (float));
  glGenVertexArrays (1, &batch->vao);
  glGenBuffers (1, &batch->instance_vbo);
  setup_vao (batch->vao, mesh, batch->instance_vbo);

  g_ptr_array_add (self->batches, batch);
  return batch;
}

/* Coarser tessellations of the batch's unit mesh (NULL: none). */
static void
batch_set_lods (Batch   *batch,
                GpuMesh *coarse,
                GpuMesh *tiny,
                GpuMesh *speck)
{
  batch->lods[1] = coarse;
  batch->lods[2] = tiny;
  batch->lods[3] = speck;
}

static void
batch_free (gpointer data)
{
  Batch *batch = data;

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
static gboolean
normals_may_vanish (const double m[16])
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
batch_write (Batch        *batch,
             guint         index,
             const double  m[16],
             const float   color[3],
             float         link,
             float         flags,
             float         part)
{
  double scaled[16];

  memcpy (scaled, m, sizeof scaled);
  for (int c = 0; c < 3; c++)
    for (int r = 0; r < 3; r++)
      scaled[4 * c + r] *= batch->rescale[c];
  write_instance (&g_array_index (batch->instances, float, index * INSTANCE_FLOATS), scaled, color, 1.0f, link,
                  flags, part);
  if (det3 (scaled) < 0.0)
    batch->cull = FALSE;
  if (normals_may_vanish (scaled))
    batch->faint_normals = TRUE;
}

static guint
batch_append (Batch        *batch,
              const double  m[16],
              const float   color[3],
              float         link,
              float         flags,
              float         part)
{
  guint index = batch_n_instances (batch);

  g_array_set_size (batch->instances, batch->instances->len + INSTANCE_FLOATS);
  batch_write (batch, index, m, color, link, flags, part);
  batch->full_dirty = TRUE;
  return index;
}

static void
batch_rewrite (Batch        *batch,
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
frame_info_init (FrameInfo      *frame,
                 mat4            vp,
                 const BlCamera *camera,
                 int             width,
                 int             height,
                 int             selected)
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
  {
    double right[3], up[3];

    bl_camera_get_basis (camera, frame->forward, right, up);
  }
  frame->px_per_radian = 0.5 * height / tan_half;
  frame->corner_stretch = sqrt (1.0 + tan_half * tan_half * (1.0 + aspect * aspect));
  frame->selected = selected;
}

static GpuMesh *
batch_level_mesh (Batch *batch,
                  int    level)
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
nearest_depth (const FrameInfo *frame,
               const Batch   *batch,
               const float   *m,
               double         stretch,
               double         margin)
{
  const GpuMesh *mesh = batch->mesh;
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
instance_level (const FrameInfo *frame,
                Batch           *batch,
                guint            i)
{
  const float *m = &g_array_index (batch->instances, float, i * INSTANCE_FLOATS);
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
      double error = ((GpuMesh *) g_ptr_array_index (levels, l - 1))->error * stretch;
      double depth = nearest_depth (frame, batch, m, stretch, error);

      if (depth > 0.0 && error * frame->px_per_radian * frame->corner_stretch <= LEVEL_ERROR_PX * depth)
        return l;
    }
  return 0;
}

/* With many instances: keeps this frame's visible ones, each at the level
 * of detail of its size on screen (a big mesh's: instance_level), in
 * per-level buffers.  The selected link is always drawn finely; a static
 * link's overlays only when it is selected; instances smaller than MIN_PX
 * on screen are dropped, or kept as specks (a point each) when SPECKS. */
static void
batch_prepare (Batch           *batch,
               const FrameInfo *frame,
               double           min_px,
               gboolean         specks)
{
  guint n = batch_n_instances (batch);
  const float *src = (const float *) batch->instances->data;
  GPtrArray *levels = batch->mesh->levels;

  batch->streamed = n > LOD_MIN_INSTANCES;
  if (!batch->streamed)
    return;
  for (guint l = 0; levels != NULL && l < MIN (levels->len, MAX_LEVELS); l++)
    batch->lods[1 + l] = g_ptr_array_index (levels, l);
  for (int l = 0; l < N_BATCH_LEVELS; l++)
    {
      if (batch->lod_vao[l] == 0 && (l == 0 || batch->lods[l] != NULL))
        {
          glGenVertexArrays (1, &batch->lod_vao[l]);
          glGenBuffers (1, &batch->lod_vbo[l]);
          setup_vao (batch->lod_vao[l], batch->lods[l], batch->lod_vbo[l]);
          batch->lod_instances[l] = g_array_new (FALSE, FALSE, sizeof (float));
        }
      if (batch->lod_instances[l] != NULL)
        g_array_set_size (batch->lod_instances[l], 0);
    }
  if (specks && batch->speck_vao == 0)
    {
      glGenVertexArrays (1, &batch->speck_vao);
      glGenBuffers (1, &batch->speck_vbo);
      setup_vao (batch->speck_vao, batch->mesh, batch->speck_vbo);
      batch->speck_instances = g_array_new (FALSE, FALSE, sizeof (float));
    }
  if (batch->speck_instances != NULL)
    g_array_set_size (batch->speck_instances, 0);

  for (guint i = 0; i < n; i++, src += INSTANCE_FLOATS)
    {
      gboolean selected = src[29] >= 0.0f && (int) src[29] == frame->selected;
      double scale = 0.0, r, dist = 0.0, px;
      gboolean outside = FALSE;
      int level;

      if (src[30] > 0.5f && !selected)
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
      if (specks && px < min_px)
        g_array_append_vals (batch->speck_instances, src, INSTANCE_FLOATS);
      if (!selected && px < min_px)
        continue;
      if (levels != NULL)
        level = (int) instance_level (frame, batch, i);
      else
        level = selected || px >= LOD_FINE_PX ? 0 : px >= LOD_COARSE_PX ? 1 : px >= LOD_TINY_PX ? 2 : 3;
      while (level > 0 && batch->lods[level] == NULL)
        level--;
      g_array_append_vals (batch->lod_instances[level], src, INSTANCE_FLOATS);
    }

  for (int l = 0; l < N_BATCH_LEVELS; l++)
    if (batch->lod_instances[l] != NULL && batch->lod_instances[l]->len > 0)
      {
        glBindBuffer (GL_ARRAY_BUFFER, batch->lod_vbo[l]);
        glBufferData (GL_ARRAY_BUFFER, batch->lod_instances[l]->len * sizeof (float),
                      batch->lod_instances[l]->data, GL_STREAM_DRAW);
      }
  if (batch->speck_instances != NULL && batch->speck_instances->len > 0)
    {
      glBindBuffer (GL_ARRAY_BUFFER, batch->speck_vbo);
      glBufferData (GL_ARRAY_BUFFER, batch->speck_instances->len * sizeof (float),
                    batch->speck_instances->data, GL_STREAM_DRAW);
    }
  glBindBuffer (GL_ARRAY_BUFFER, 0);
}

/* The batch's specks of this frame: the first vertex of each instance as
 * a one-pixel point, with the bound body program (a body under a pixel
 * lies within a pixel of any of its vertices). */
static void
draw_specks (Batch *batch)
{
  if (!batch->streamed || batch->speck_instances == NULL || batch->speck_instances->len == 0)
    return;
  glBindVertexArray (batch->speck_vao);
  glDrawElementsInstanced (GL_POINTS, 1, GL_UNSIGNED_INT, NULL,
                           batch->speck_instances->len / INSTANCE_FLOATS);
  glBindVertexArray (0);
}

static void
draw_instances (BlRenderer *self,
                GpuMesh    *mesh,
                GLuint      vao,
                guint       n,
                gboolean    edges)
{
  if (n == 0)
    return;
  glBindVertexArray (vao);
  if (edges && mesh->primitive == GL_TRIANGLES)
    {
      gpu_mesh_ensure_edges (mesh);
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

/* Uploads a finished thread's reordered indices and renumbered vertices
 * (the same triangles) into MESH's buffers, and takes its clusters; the
 * wireframe's edges are made again from them when next needed. */
static void
gpu_mesh_adopt_clusters (GpuMesh *mesh,
                         GArray  *vertices,
                         GArray  *indices,
                         GArray  *clusters)
{
  glBindVertexArray (0);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, mesh->ibo);
  glBufferSubData (GL_ELEMENT_ARRAY_BUFFER, 0, indices->len * sizeof (guint32), indices->data);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, 0);
  glBindBuffer (GL_ARRAY_BUFFER, mesh->vbo);
  glBufferSubData (GL_ARRAY_BUFFER, 0, vertices->len * sizeof (float), vertices->data);
  glBindBuffer (GL_ARRAY_BUFFER, 0);
  if (mesh->edge_ibo != 0)
    {
      glDeleteBuffers (1, &mesh->edge_ibo);
      mesh->edge_ibo = 0;
    }
  g_clear_pointer (&mesh->indices, g_array_unref);
  mesh->indices = g_array_ref (indices);
  mesh->clusters = g_array_ref (clusters);
}

/* What MESH's thread has finished and no draw has taken yet. */
static gboolean
clusters_ready (const GpuMesh *mesh)
{
  return mesh->job != NULL && mesh->clusters == NULL && g_atomic_int_get (&mesh->job->clusters_done);
}

static gboolean
levels_ready (const GpuMesh *mesh)
{
  return mesh->job != NULL && g_atomic_int_get (&mesh->job->levels_done);
}

static gboolean
job_ready (const GpuMesh *mesh)
{
  return clusters_ready (mesh) || levels_ready (mesh);
}

static gboolean
job_pending (const GpuMesh *mesh)
{
  return mesh->job != NULL;
}

/* Whether TEST holds for any of the renderer's meshes. */
static gboolean
any_mesh (BlRenderer *self,
          gboolean  (*test) (const GpuMesh *mesh))
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->mesh_gpu);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (test (value))
      return TRUE;
  return FALSE;
}

/* Takes what the threads of big meshes have finished: clusters first,
 * then the coarser levels (uploaded as meshes of their own). */
static void
adopt_mesh_jobs (BlRenderer *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->mesh_gpu);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GpuMesh *mesh = value;
      MeshJob *job = mesh->job;

      if (clusters_ready (mesh))
        gpu_mesh_adopt_clusters (mesh, job->new_vertices, job->indices, job->clusters);
      if (!levels_ready (mesh))
        continue;
      mesh->levels = g_ptr_array_new_with_free_func (gpu_mesh_free);
      for (guint l = 0; l < job->levels->len; l++)
        {
          LevelData *data = g_ptr_array_index (job->levels, l);
          GpuMesh *level = gpu_mesh_from_tess (data->tess);

          level->error = data->error;
          if (data->clusters != NULL)
            level->clusters = g_array_ref (data->clusters);
          g_ptr_array_add (mesh->levels, level);
        }
      g_clear_pointer (&mesh->job, mesh_job_unref);
    }
}

gboolean
bl_renderer_get_mesh_jobs_ready (BlRenderer *self)
{
  return any_mesh (self, job_ready);
}

gboolean
bl_renderer_get_mesh_jobs_pending (BlRenderer *self)
{
  return any_mesh (self, job_pending);
}

/* Draws instance I of BATCH with MESH (the batch's own or one of its
 * levels, VAO binding it): only the clusters that may show
 * (bl_cluster_is_visible, conservative) as merged index ranges when MESH
 * has clusters, else every triangle.  The VAO's instance attributes are
 * left pointing at instance I. */
static void
draw_instance (BlRenderer *self,
               Batch      *batch,
               GpuMesh    *mesh,
               GLuint      vao,
               guint       i,
               gboolean    backfaces)
{
  const float *model = &g_array_index (batch->instances, float, i * INSTANCE_FLOATS);

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
                Batch      *batch,
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
static void
batch_draw (BlRenderer *self,
            Batch      *batch,
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
    draw_instances (self, batch->mesh, batch->vao, batch_n_instances (batch), edges);
  else
    for (int l = 0; l < N_BATCH_LEVELS; l++)
      if (batch->lod_instances[l] != NULL)
        draw_instances (self, batch_level_mesh (batch, l), batch->lod_vao[l],
                        batch->lod_instances[l]->len / INSTANCE_FLOATS, edges);
  glDisable (GL_CULL_FACE);
}

/* A mesh batch's solid bodies, at each instance's level of detail: the
 * instances drawn at full detail when COARSE is FALSE (flat shading,
 * bodies' flat program bound), the others when TRUE (smooth program
 * bound).  Returns whether any instance wants a coarser level. */
static gboolean
draw_mesh_batch (BlRenderer *self,
                 Batch      *batch,
                 gboolean    coarse)
{
  guint n = batch_n_instances (batch);
  gboolean any_coarse = FALSE;
  gboolean backfaces = batch->cull;

  if (batch->streamed)
    {
      /* batch_prepare sorted the instances by level */
      if (batch->cull)
        glEnable (GL_CULL_FACE);
      else
        glDisable (GL_CULL_FACE);
      for (int l = 0; l < N_BATCH_LEVELS; l++)
        if (batch->lod_instances[l] != NULL && batch->lod_instances[l]->len > 0)
          {
            any_coarse |= l > 0;
            if ((l > 0) == coarse)
              draw_instances (self, batch_level_mesh (batch, l), batch->lod_vao[l],
                              batch->lod_instances[l]->len / INSTANCE_FLOATS, FALSE);
          }
      glDisable (GL_CULL_FACE);
      return any_coarse;
    }
  if (batch->mesh->levels == NULL || !self->frame.levels)
    {
      if (!coarse)
        batch_draw (self, batch, FALSE, TRUE);
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

/* ---- Life cycle ------------------------------------------------------------ */

static void
make_fixed_meshes (BlRenderer *self)
{
  for (int level = 0; level < N_LODS; level++)
    {
      static const guint level_slices[N_LODS] = { 40, 14, 6, 4 };
      guint slices = level_slices[level], stacks = slices / 2;
      g_autoptr(BlTessMesh) box = bl_tess_box ();
      g_autoptr(BlTessMesh) sphere = bl_tess_sphere (slices, stacks);
      g_autoptr(BlTessMesh) cylinder = bl_tess_cylinder (slices);
      g_autoptr(BlTessMesh) cone = bl_tess_cone (slices);
      g_autoptr(BlTessMesh) plane = bl_tess_plane ();

      self->prims[level][BL_PRIM_BOX] = gpu_mesh_from_tess (box);
      self->prims[level][BL_PRIM_SPHERE] = gpu_mesh_from_tess (sphere);
      self->prims[level][BL_PRIM_CYLINDER] = gpu_mesh_from_tess (cylinder);
      self->prims[level][BL_PRIM_CONE] = gpu_mesh_from_tess (cone);
      self->prims[level][BL_PRIM_PLANE] = gpu_mesh_from_tess (plane);
    }
  {
    g_autoptr(BlTessMesh) marker = bl_tess_sphere (16, 8);

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

static void
delete_programs (BlRenderer *self)
{
  glDeleteProgram (self->general.id);
  for (int v = 0; v < 2; v++)
    {
      glDeleteProgram (self->shell[v].id);
      glDeleteProgram (self->rings[v].id);
    }
  for (int b = 0; b < N_BODY_PROGRAMS; b++)
    glDeleteProgram (self->body[b].id);
}

gboolean
bl_renderer_gl_is_software (void)
{
  const char *renderer = (const char *) glGetString (GL_RENDERER);

  return renderer != NULL && (strstr (renderer, "llvmpipe") != NULL || strstr (renderer, "softpipe") != NULL);
}

BlRenderer *
bl_renderer_new (gboolean   use_es,
                 GError   **error)
{
  BlRenderer *self = g_new0 (BlRenderer, 1);

  self->use_es = use_es;
  if (!program_init (&self->general, "mesh", "", use_es, error)
      || !program_init (&self->body[BODY_FLAT], "body", "", use_es, error)
      || !program_init (&self->body[BODY_SMOOTH], "body", "#define SMOOTH 1\n", use_es, error)
      || !program_init (&self->body[BODY_SMOOTH_FALLBACK], "body", "#define SMOOTH 1\n#define NORMAL_FALLBACK 1\n",
                        use_es, error)
      || !program_init (&self->shell[0], "shell", "", use_es, error)
      || !program_init (&self->shell[1], "shell", "#define NORMAL_FALLBACK 1\n", use_es, error)
      || !program_init (&self->rings[0], "shell", "#define RINGS 1\n", use_es, error)
      || !program_init (&self->rings[1], "shell", "#define RINGS 1\n#define NORMAL_FALLBACK 1\n", use_es, error))
    {
      delete_programs (self);
      g_free (self);
      return NULL;
    }
  if (bl_renderer_gl_is_software ())
    self->flush_triangles = FLUSH_TRIANGLES;

  self->batches = g_ptr_array_new_with_free_func (batch_free);
  self->mesh_gpu = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) bl_mesh_unref, gpu_mesh_unref);
  self->unscaled_gpu = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, gpu_mesh_unref);
  self->mesh_batches = g_hash_table_new (NULL, NULL);
  self->slots = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->dirty_links = g_hash_table_new (NULL, NULL);
  self->ranges = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->draw_counts = g_array_new (FALSE, FALSE, sizeof (GLsizei));
  self->draw_offsets = g_array_new (FALSE, FALSE, sizeof (const void *));
  self->unstarted_jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) mesh_job_unref);
  make_fixed_meshes (self);
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
      gpu_mesh_free (self->prims[l][p]);
  gpu_mesh_free (self->marker);
  gpu_mesh_free (self->cube_edges);
  gpu_mesh_free (self->axes_lines);
  gpu_mesh_free (self->grid);
  gpu_mesh_free (self->triad);
  g_clear_pointer (&self->links, g_ptr_array_unref);
  g_ptr_array_unref (self->slots);
  g_hash_table_unref (self->dirty_links);
  g_array_unref (self->ranges);
  g_array_unref (self->draw_counts);
  g_array_unref (self->draw_offsets);
  g_ptr_array_unref (self->unstarted_jobs);
  g_clear_pointer (&self->panel_vertices, g_array_unref);
  if (self->panel_vao != 0)
    {
      glDeleteVertexArrays (1, &self->panel_vao);
      glDeleteBuffers (1, &self->panel_vbo);
    }
  delete_programs (self);
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

/* A mesh's batch culls back faces only when the surface is closed and
 * consistently wound outward. */
static gboolean
mesh_is_closed (BlMesh *mesh)
{
  BlMeshProperties props;

  return bl_mesh_get_mass_properties (mesh, FALSE, &props, NULL)
         && props.watertight && props.inconsistent_edges == 0 && !props.inside_out;
}

static double
mesh_bound_radius (BlMesh *mesh)
{
  BlVec3 a, b;
  double r = 0.0;

  bl_mesh_get_bounds (mesh, &a, &b);
  r = MAX (r, bl_vec3_length (a));
  r = MAX (r, bl_vec3_length (b));
  r = MAX (r, bl_vec3_length (bl_vec3 (a.x, a.y, b.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (a.x, b.y, a.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (b.x, a.y, a.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (a.x, b.y, b.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (b.x, a.y, b.z)));
  r = MAX (r, bl_vec3_length (bl_vec3 (b.x, b.y, a.z)));
  return r;
}

/* The buffers of MESH: those of another <scale> of the same file when
 * there are (bl_mesh_get_unscaled_key), else made now. */
static GpuMesh *
gpu_mesh_for (BlRenderer *self,
              BlMesh     *mesh)
{
  GpuMesh *gpu = g_hash_table_lookup (self->mesh_gpu, mesh);
  BlVec3 scale;
  const char *key;

  if (gpu != NULL)
    return gpu;
  key = bl_mesh_get_unscaled_key (mesh, &scale);
  /* A flattened scale has lost a dimension: no other scale can be made from it. */
  if (scale.x == 0.0 || scale.y == 0.0 || scale.z == 0.0)
    key = NULL;
  if (key != NULL)
    gpu = g_hash_table_lookup (self->unscaled_gpu, key);
  if (gpu != NULL)
    gpu->ref_count++;
  else
    {
      g_autoptr(BlTessMesh) tess = bl_tess_from_mesh (mesh);

      gpu = gpu_mesh_from_tess (tess);
      gpu->bound_radius = mesh_bound_radius (mesh);
      if (key != NULL)
        {
          gpu->unscaled_key = g_strdup (key);
          gpu->scale = scale;
          gpu->ref_count++;
          g_hash_table_insert (self->unscaled_gpu, g_strdup (key), gpu);
        }
      if (bl_tess_mesh_get_n_triangles (tess) >= CLUSTER_MIN_TRIANGLES)
        {
          MeshJob *job = g_new0 (MeshJob, 1);

          job->ref_count = 2;   /* the mesh's and the thread's */
          job->vertices = g_array_ref (tess->vertices);
          job->stride = bl_tess_mesh_get_stride (tess);
          job->radius = gpu->bound_radius;
          job->source = g_array_ref (tess->indices);
          job->cancellable = g_cancellable_new ();
          gpu->job = job;
          /* Started once this frame is handed to GL, not to compete with it. */
          g_ptr_array_add (self->unstarted_jobs, job);
        }
    }
  g_hash_table_insert (self->mesh_gpu, bl_mesh_ref (mesh), gpu);
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
      GpuMesh *gpu = gpu_mesh_for (self, shape->mesh);
      BlVec3 scale;

      batch = batch_new (self, gpu, gpu->bound_radius, mesh_is_closed (shape->mesh));
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
static void
link_shape_color (BlRenderer  *self,
                  BlSceneLink *link,
                  float        rgb[3])
{
  if (!link->valid || (self->shown_added_mass && link->added_mass_invalid))
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
  return ((GpuMesh *) value)->ref_count == 1;
}

static void
rebuild (BlRenderer *self)
{
  guint n = self->links != NULL ? self->links->len : 0;
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
  g_ptr_array_set_size (self->slots, 0);

  {
    double identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    static const float white[3] = { 1, 1, 1 };

    self->grid_batch = batch_new (self, self->grid, 1.0, FALSE);
    batch_append (self->grid_batch, identity, grid_color, -1.0f, 0.0f, 0.0f);
    self->triad_batch = batch_new (self, self->triad, 1.0, FALSE);
    batch_append (self->triad_batch, identity, white, -1.0f, 0.0f, 0.0f);
  }
  for (int p = 0; p < BL_PRIM_MESH; p++)
    {
      gboolean curved = p == BL_PRIM_SPHERE || p == BL_PRIM_CYLINDER || p == BL_PRIM_CONE;

      self->prim_batches[p] = batch_new (self, self->prims[0][p], prim_radius[p], p != BL_PRIM_PLANE);
      if (curved)
        batch_set_lods (self->prim_batches[p], self->prims[1][p], self->prims[2][p], self->prims[3][p]);
    }
  for (int o = OVERLAY_ELLIPSOID; o <= OVERLAY_ADDED_MASS; o++)
    {
      self->overlays[o] = batch_new (self, self->prims[0][BL_PRIM_SPHERE], 1.0, TRUE);
      batch_set_lods (self->overlays[o], self->prims[1][BL_PRIM_SPHERE], self->prims[2][BL_PRIM_SPHERE],
                      self->prims[3][BL_PRIM_SPHERE]);
    }
  self->overlays[OVERLAY_BOX] = batch_new (self, self->cube_edges, 0.8660254037844386, FALSE);
  self->overlays[OVERLAY_COM] = batch_new (self, self->marker, 1.0, TRUE);
  self->overlays[OVERLAY_BUOYANCY] = batch_new (self, self->marker, 1.0, TRUE);
  self->overlays[OVERLAY_AXES] = batch_new (self, self->axes_lines, 1.0, FALSE);

  for (guint i = 0; i < n; i++)
    {
      BlSceneLink *link = g_ptr_array_index (self->links, i);
      GArray *slots = g_array_new (FALSE, FALSE, sizeof (Slot));
      double m[N_OVERLAYS][16];
      float color[3];

      link_shape_color (self, link, color);
      for (guint s = 0; s < link->shapes->len; s++)
        {
          BlSceneShape *shape = &g_array_index (link->shapes, BlSceneShape, s);
          Slot slot;

          slot.batch = batch_for_shape (self, shape);
          slot.index = batch_append (slot.batch, shape->model, color, (float) i, 0.0f, (float) shape->collision);
          g_array_append_val (slots, slot);
        }
      overlay_matrices (link, m);
      for (int o = 0; o < N_OVERLAYS; o++)
        batch_append (self->overlays[o], m[o], overlay_color (o), (float) i, link->is_static ? 1.0f : 0.0f, 0.0f);
      g_ptr_array_add (self->slots, slots);
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

  link_shape_color (self, link, color);
  for (guint s = 0; s < link->shapes->len; s++)
    {
      BlSceneShape *shape = &g_array_index (link->shapes, BlSceneShape, s);
      Slot *slot = &g_array_index (slots, Slot, s);

      batch_rewrite (slot->batch, slot->index, shape->model, color, (float) i, 0.0f, (float) shape->collision);
    }
  overlay_matrices (link, m);
  for (int o = 0; o < N_OVERLAYS; o++)
    batch_rewrite (self->overlays[o], i, m[o], overlay_color (o), (float) i, link->is_static ? 1.0f : 0.0f, 0.0f);
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

/* Radius of the point markers on screen, pixels. */
#define MARKER_PX 8.0
/* Translucency of the layers. */
#define PLANE_ALPHA 0.45f
#define OVERLAY_ALPHA 0.20f
#define OVERLAY_HIDDEN_ALPHA 0.12f

static void
prepare_batches (BlRenderer      *self,
                 const FrameInfo *frame)
{
  GHashTableIter iter;
  gpointer value;

  for (int p = 0; p < BL_PRIM_MESH; p++)
    batch_prepare (self->prim_batches[p], frame, CULL_SOLID_PX, p != BL_PRIM_PLANE);
  g_hash_table_iter_init (&iter, self->mesh_batches);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    batch_prepare (value, frame, CULL_SOLID_PX, TRUE);
  for (int o = 0; o < N_OVERLAYS; o++)
    batch_prepare (self->overlays[o], frame, CULL_OVERLAY_PX, FALSE);
}

/* Binds PROGRAM with this frame's camera and highlight uniforms. */
static void
program_use (const Program         *program,
             mat4                   vp,
             const float            eye[3],
             const BlRenderOptions *options)
{
  glUseProgram (program->id);
  glUniformMatrix4fv (program->u_view_projection, 1, GL_FALSE, (const float *) vp);
  glUniform3fv (program->u_eye, 1, eye);
  glUniform1f (program->u_selected, (float) options->selected);
  glUniform1f (program->u_hovered, (float) options->hovered);
  glUniform3fv (program->u_selection_color, 1, bl_render_selection_color);
  glUniform1f (program->u_selection_mix, BL_RENDER_SELECTION_MIX);
  glUniform1f (program->u_selected_collision, (float) options->selected_collision);
  glUniform1f (program->u_collision_mix, BL_RENDER_COLLISION_MIX);
  glUniform3fv (program->u_background, 1, bl_render_background_color);
  glUniform1f (program->u_dim_mix, BL_RENDER_DIM_MIX);
}

/* The bodies, opaque, with the body programs (the general one for the
 * wireframe's edges); the general program is bound again on return. */
static void
draw_bodies (BlRenderer            *self,
             const BlRenderOptions *options,
             mat4                   vp,
             const float            eye[3])
{
  GHashTableIter iter;
  gpointer value;
  gboolean any_coarse = FALSE;

  if (options->wireframe)
    {
      glUniform1i (self->general.u_mode, 1);
      glUniform1f (self->general.u_alpha, 1.0f);
      for (int p = 0; p < BL_PRIM_MESH; p++)
        if (p != BL_PRIM_PLANE)
          batch_draw (self, self->prim_batches[p], TRUE, TRUE);
      g_hash_table_iter_init (&iter, self->mesh_batches);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        batch_draw (self, value, TRUE, TRUE);
      return;
    }

  for (int p = 0; p < BL_PRIM_MESH; p++)
    if (p != BL_PRIM_PLANE)
      {
        program_use (&self->body[self->prim_batches[p]->faint_normals ? BODY_SMOOTH_FALLBACK : BODY_SMOOTH],
                     vp, eye, options);
        batch_draw (self, self->prim_batches[p], FALSE, TRUE);
        draw_specks (self->prim_batches[p]);
      }
  /* Meshes at full detail flat, then those at a coarser level smooth. */
  program_use (&self->body[BODY_FLAT], vp, eye, options);
  g_hash_table_iter_init (&iter, self->mesh_batches);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      any_coarse |= draw_mesh_batch (self, value, FALSE);
      draw_specks (value);
    }
  if (any_coarse)
    {
      g_hash_table_iter_init (&iter, self->mesh_batches);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          Batch *batch = value;

          if (batch->mesh->levels == NULL)
            continue;
          program_use (&self->body[batch->faint_normals ? BODY_SMOOTH_FALLBACK : BODY_SMOOTH], vp, eye, options);
          draw_mesh_batch (self, batch, TRUE);
        }
    }
  glUseProgram (self->general.id);
}

/* Planes: a translucent ground (or their edges in wireframe). */
static void
draw_planes (BlRenderer            *self,
             const BlRenderOptions *options)
{
  gboolean edges = options->wireframe;

  glUniform1i (self->general.u_mode, edges ? 1 : 0);
  glUniform1f (self->general.u_alpha, edges ? 1.0f : PLANE_ALPHA);
  batch_draw (self, self->prim_batches[BL_PRIM_PLANE], edges, FALSE);
}

/* The ellipsoids as glass shells (their own program) and the box as
 * edges, at ALPHA; the general program is bound on return. */
static void
draw_shells (BlRenderer            *self,
             const BlRenderOptions *options,
             mat4                   vp,
             const float            eye[3],
             float                  alpha)
{
  for (int o = OVERLAY_ELLIPSOID; o <= OVERLAY_ADDED_MASS; o++)
    if (o == OVERLAY_ELLIPSOID ? options->show_inertia_ellipsoid : options->show_added_mass)
      {
        /* The added-mass ellipsoid as dashed rings: it shows over an inertia
         * ellipsoid of the same shape (a sphere in a fluid of its density). */
        const Program *shell = o == OVERLAY_ADDED_MASS ? &self->rings[self->overlays[o]->faint_normals ? 1 : 0]
                                                       : &self->shell[self->overlays[o]->faint_normals ? 1 : 0];

        program_use (shell, vp, eye, options);
        glUniform1f (shell->u_alpha, alpha);
        batch_draw (self, self->overlays[o], FALSE, TRUE);
        glUseProgram (self->general.id);
      }
  if (options->show_inertia_box)
    {
      glUniform1i (self->general.u_mode, 2);
      glUniform1f (self->general.u_alpha, MIN (1.0f, 3.0f * alpha));
      batch_draw (self, self->overlays[OVERLAY_BOX], FALSE, FALSE);
    }
}

static void draw_panels (BlRenderer *self);

void
bl_renderer_draw (BlRenderer            *self,
                  const BlCamera        *camera,
                  const BlRenderOptions *options,
                  const double           scene_center[3],
                  double                 scene_radius,
                  double                 extent_radius,
                  int                    width,
                  int                    height)
{
  mat4 view, projection, vp;
  double eye[3];
  float eyef[3];
  FrameInfo frame;
  gboolean any_shell = options->show_inertia_ellipsoid || options->show_added_mass || options->show_inertia_box;

  if (self->shown_added_mass != options->show_added_mass)
    {
      /* The bodies' colours depend on it (link_shape_color). */
      self->shown_added_mass = options->show_added_mass;
      self->need_rebuild = TRUE;
    }
  sync_instances (self);
  adopt_mesh_jobs (self);
  self->n_drawn_triangles = 0;

  bl_camera_get_view (camera, view);
  bl_camera_get_projection (camera, width, height, MAX (scene_radius, extent_radius), projection);
  glm_mat4_mul (projection, view, vp);
  bl_camera_get_eye (camera, eye);
  for (int k = 0; k < 3; k++)
    eyef[k] = (float) eye[k];
  frame_info_init (&frame, vp, camera, width, height, options->selected);
  frame.clusters = !options->no_clusters;
  /* The wireframe shows the file's own triangles. */
  frame.levels = !options->no_levels && !options->wireframe;
  self->frame = frame;
  prepare_batches (self, &frame);

  glViewport (0, 0, width, height);
  glClearColor (bl_render_background_color[0], bl_render_background_color[1],
                bl_render_background_color[2], 1.0f);
  glClearDepthf (1.0f);
  glClearStencil (0);
  glDepthMask (GL_TRUE);
  glStencilMask (0xff);
  /* Depth and stencil together: llvmpipe then fills the packed
   * depth-stencil words instead of masking each one. */
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_CULL_FACE);
  glFrontFace (GL_CCW);
  glCullFace (GL_BACK);
  glDisable (GL_BLEND);
  glBlendFuncSeparate (GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  program_use (&self->general, vp, eyef, options);
  glUniform3fv (self->general.u_com_dark, 1, bl_render_com_dark_color);
  glUniform1f (self->general.u_marker_scale, 0.0f);

  /* Ground grid under the scene: spacing a power of ten near its size. */
  {
    double r = MAX (scene_radius, 1e-3);
    double step = pow (10.0, floor (log10 (r)));
    double half = 10.0 * step;
    double m[16] = { half, 0, 0, 0, 0, half, 0, 0, 0, 0, 1, 0,
                     floor (scene_center[0] / step) * step, floor (scene_center[1] / step) * step, 0, 1 };
    float *dst = &g_array_index (self->grid_batch->instances, float, 0);

    write_instance (dst, m, grid_color, 1.0f, -1.0f, 0.0f, 0.0f);
    self->grid_batch->full_dirty = TRUE;
    batch_upload (self->grid_batch);
    glUniform1i (self->general.u_mode, 2);
    glUniform1f (self->general.u_alpha, 1.0f);
    batch_draw (self, self->grid_batch, FALSE, FALSE);
  }

  /* Bodies opaque, then planes as a translucent ground over the grid. */
  draw_bodies (self, options, vp, eyef);
  /* The bodies are rasterised while the overlays are prepared. */
  if (self->flush_triangles > 0)
    glFlush ();
  glEnable (GL_BLEND);
  glDepthMask (GL_FALSE);
  draw_planes (self, options);

  /* Overlays: translucent shells that never hide the bodies.  X-ray: where
   * a body is in front, a fainter ghost of the shell still shows. */
  if (any_shell)
    {
      if (options->xray && !options->wireframe)
        {
          glDepthFunc (GL_GREATER);
          draw_shells (self, options, vp, eyef, OVERLAY_HIDDEN_ALPHA);
          glDepthFunc (GL_LEQUAL);
        }
      draw_shells (self, options, vp, eyef, OVERLAY_ALPHA);
    }
  glDepthMask (GL_TRUE);
  glDisable (GL_BLEND);
  draw_panels (self);

  /* Point markers and axes on top of everything, markers at a constant
   * size on screen (up to their link's own size). */
  glDisable (GL_DEPTH_TEST);
  glUniform1f (self->general.u_alpha, 1.0f);
  if (options->show_principal_axes)
    {
      glUniform1i (self->general.u_mode, 2);
      batch_draw (self, self->overlays[OVERLAY_AXES], FALSE, FALSE);
    }
  glUniform1f (self->general.u_marker_scale, (float) (MARKER_PX / frame.px_per_radian));
  if (options->show_buoyancy_center)
    {
      glUniform1i (self->general.u_mode, 5);
      batch_draw (self, self->overlays[OVERLAY_BUOYANCY], FALSE, TRUE);
    }
  if (options->show_com)
    {
      glUniform1i (self->general.u_mode, 4);
      batch_draw (self, self->overlays[OVERLAY_COM], FALSE, TRUE);
    }
  glUniform1f (self->general.u_marker_scale, 0.0f);

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
    glUniformMatrix4fv (self->general.u_view_projection, 1, GL_FALSE, (const float *) tvp);
    glUniform1i (self->general.u_mode, 2);
    batch_draw (self, self->triad_batch, FALSE, FALSE);
    glViewport (0, 0, width, height);
  }

  glEnable (GL_DEPTH_TEST);
  glUseProgram (0);

  /* The clusters of meshes first drawn in this frame. */
  for (guint j = 0; j < self->unstarted_jobs->len; j++)
    {
      MeshJob *job = g_ptr_array_index (self->unstarted_jobs, j);
      GThread *thread = g_thread_try_new ("ballast-meshes", mesh_job_run, job, NULL);

      if (thread != NULL)
        g_thread_unref (thread);
      else
        mesh_job_run (job);   /* no thread to be had: here, now */
    }
  /* Each thread now owns the reference the array held. */
  g_ptr_array_set_free_func (self->unstarted_jobs, NULL);
  g_ptr_array_set_size (self->unstarted_jobs, 0);
  g_ptr_array_set_free_func (self->unstarted_jobs, (GDestroyNotify) mesh_job_unref);
}

void
bl_renderer_set_panels (BlRenderer  *self,
                        const float *corners,
                        const float *colors,
                        gsize        n_panels)
{
  static const float edge_color[3] = { 0.12f, 0.14f, 0.18f };

  g_clear_pointer (&self->panel_vertices, g_array_unref);
  self->panel_dirty = TRUE;
  self->panel_fill_vertices = 0;
  if (n_panels == 0)
    return;
  self->panel_vertices = g_array_sized_new (FALSE, FALSE, sizeof (float), 6 * (colors != NULL ? 9 : 6) * n_panels);
  if (colors != NULL)
    for (gsize p = 0; p < n_panels; p++)
      for (int k = 0; k < 3; k++)
        {
          g_array_append_vals (self->panel_vertices, corners + 9 * p + 3 * k, 3);
          g_array_append_vals (self->panel_vertices, colors + 3 * p, 3);
        }
  self->panel_fill_vertices = self->panel_vertices->len / 6;
  for (gsize p = 0; p < n_panels; p++)
    for (int k = 0; k < 3; k++)
      {
        g_array_append_vals (self->panel_vertices, corners + 9 * p + 3 * k, 3);
        g_array_append_vals (self->panel_vertices, edge_color, 3);
        g_array_append_vals (self->panel_vertices, corners + 9 * p + 3 * ((k + 1) % 3), 3);
        g_array_append_vals (self->panel_vertices, edge_color, 3);
      }
}

/* The panel surface over everything but the markers: it lies just inside
 * the bodies it approximates, so it is drawn against a cleared depth
 * buffer (its own panels hide each other), filled in its colours with its
 * edges on top.  The general program's vertex-colour mode, with the
 * per-instance attributes held at an identity instance. */
static void
draw_panels (BlRenderer *self)
{
  static const float identity[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
  guint n_vertices;

  if (self->panel_vertices == NULL)
    return;
  if (self->panel_vao == 0)
    {
      glGenVertexArrays (1, &self->panel_vao);
      glGenBuffers (1, &self->panel_vbo);
      glBindVertexArray (self->panel_vao);
      glBindBuffer (GL_ARRAY_BUFFER, self->panel_vbo);
      glEnableVertexAttribArray (ATTR_POSITION);
      glVertexAttribPointer (ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 6 * sizeof (float), (void *) 0);
      glEnableVertexAttribArray (ATTR_NORMAL);
      glVertexAttribPointer (ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 6 * sizeof (float), (void *) (3 * sizeof (float)));
    }
  glBindVertexArray (self->panel_vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->panel_vbo);
  if (self->panel_dirty)
    {
      glBufferData (GL_ARRAY_BUFFER, self->panel_vertices->len * sizeof (float), self->panel_vertices->data,
                    GL_STATIC_DRAW);
      self->panel_dirty = FALSE;
    }
  glVertexAttrib4fv (ATTR_MODEL0, identity[0]);
  glVertexAttrib4fv (ATTR_MODEL1, identity[1]);
  glVertexAttrib4fv (ATTR_MODEL2, identity[2]);
  glVertexAttrib4fv (ATTR_MODEL3, identity[3]);
  glVertexAttrib3fv (ATTR_NORMAL0, identity[0]);
  glVertexAttrib3fv (ATTR_NORMAL1, identity[1]);
  glVertexAttrib3fv (ATTR_NORMAL2, identity[2]);
  glVertexAttrib4f (ATTR_COLOR, 1.0f, 1.0f, 1.0f, 1.0f);
  glVertexAttrib1f (ATTR_LINK, -1.0f);
  glVertexAttrib1f (ATTR_FLAGS, 0.0f);

  glUniform1i (self->general.u_mode, 2);
  glUniform1f (self->general.u_alpha, 1.0f);
  glDisable (GL_CULL_FACE);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glClear (GL_DEPTH_BUFFER_BIT);
  n_vertices = self->panel_vertices->len / 6;
  if (self->panel_fill_vertices > 0)
    {
      /* The fill pushed back a little, so that its own edges win. */
      glEnable (GL_POLYGON_OFFSET_FILL);
      glPolygonOffset (1.0f, 1.0f);
      glDrawArrays (GL_TRIANGLES, 0, (GLsizei) self->panel_fill_vertices);
      glDisable (GL_POLYGON_OFFSET_FILL);
    }
  glDrawArrays (GL_LINES, (GLint) self->panel_fill_vertices, (GLsizei) (n_vertices - self->panel_fill_vertices));
  glBindVertexArray (0);
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
    n += ((GpuMesh *) value)->unscaled_key == NULL;
  return n;
}

guint
bl_renderer_get_n_drawn_triangles (BlRenderer *self)
{
  return self->n_drawn_triangles;
}
