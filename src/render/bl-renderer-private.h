/* bl-renderer-private.h: what the renderer's files share (bl-renderer.c, bl-renderer-programs.c,
 * bl-renderer-gpu-mesh.c, bl-renderer-batch.c, bl-renderer-draw-passes.c); not for the viewport.  Every function needs the GL context current. */
#pragma once

#include <epoxy/gl.h>
#include <gio/gio.h>

#include "bl-renderer.h"
#include "bl-tessellate.h"

G_BEGIN_DECLS

typedef struct _BlMeshJob BlMeshJob;
typedef struct _BlOcclusion BlOcclusion;

/* How mesh jobs reach the renderer: FUNC (DATA) runs in CONTEXT (the
 * renderer's, its thread-default main context when made) after each stage
 * a job finishes; FUNC and DATA are only used there, and set to NULL when
 * the renderer goes, while jobs may still hold a reference. */
typedef struct
{
  gatomicrefcount  ref_count;
  GMainContext    *context;
  void           (*func) (gpointer data);
  gpointer         data;
} BlJobNotify;


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
/* Translucent shells over one part of the view beyond which only the
 * selected link's are drawn.  Under 32 layers of strength α, what is
 * behind shows through (1 − α)^32: α = 0.2 (nothing selected) 8·10⁻⁴,
 * under half a step of 255; 0.12 (x-ray, behind a body) 1.7 %; 0.042
 * (x-ray, while another link is selected) 25 %. */
#define SHELL_LAYERS 32
/* Radius of the point markers on screen, pixels (up to their link's size). */
#define MARKER_PX 8.0
/* Triangles per piece of a large draw on a software rasteriser. */
#define FLUSH_TRIANGLES 65536
/* Specks (points) per piece on a software rasteriser. */
#define SPECK_CHUNK 8192
/* Meshes of at least this many triangles are cut into clusters of at most
 * CLUSTER_TRIANGLES (in a thread, see BlMeshJob), and each frame draws
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

/* Per instance: model 16, normal matrix 9, colour 4, link 1, flags 1, part 1
 * (a body's collision: its position in the link's collisions). */
#define INSTANCE_FLOATS 32

typedef struct _BlGpuMesh BlGpuMesh;

struct _BlGpuMesh
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
  GPtrArray *levels;         /* BlGpuMesh*, coarser versions of a big mesh, finest first (else NULL) */
  double   error;            /* a level's measured distance from the mesh, in the mesh's frame */
  struct _BlMeshJob *job;      /* the clusters and levels being made in a thread */
  char    *unscaled_key;     /* a loaded mesh's bl_mesh_get_unscaled_key, or NULL */
  BlVec3   scale;            /* the <scale> of the geometry in its buffers */
  double   bound_radius;     /* of that geometry about its origin */
};

#define N_LODS 4
/* A batch's levels: a primitive's N_LODS, or a big mesh and its levels. */
#define N_BATCH_LEVELS (1 + MAX_LEVELS)

typedef struct
{
  BlGpuMesh *mesh;
  BlPrim   prim;             /* the unit primitive, BL_PRIM_MESH for a mesh or any other */
  /* Primitives: fine (= mesh), coarse, tiny, speck; big meshes: the mesh
   * and its levels once made; NULL: the finer one. */
  BlGpuMesh *lods[N_BATCH_LEVELS];
  double   bound_radius;     /* of the unit mesh about its origin */
  gboolean cull;             /* closed and wound outward: back faces may go */
  gboolean faint_normals;    /* a matrix may shrink a normal to nothing (bl_normals_may_vanish) */
  gboolean markers;          /* point markers: drawn on top at MARKER_PX (mesh.vert's u_marker_scale) */
  GLuint   vao;
  GLuint   instance_vbo;
  float   *instances;        /* INSTANCE_FLOATS each, room for n_alloc */
  guint    n_instances;
  guint    n_alloc;
  /* Instances the batch stands for in choosing how it is drawn: an
   * overlay's batch keeps only the links that have the overlay, and is
   * drawn as one of every link (0: n_instances). */
  guint    n_nominal;
  gsize    gpu_bytes;
  gboolean full_dirty;
  guint    dirty_lo, dirty_hi;   /* instance range [lo, hi) to re-send */

  /* This frame's visible instances by level of detail (many instances
   * only): their indices (guint), not copies; bl_batch_send copies them
   * into each level's buffer a piece at a time (128 bytes an instance:
   * a copy of 100,000 took 16.8 MB beside the instances and GL's). */
  gboolean streamed;
  GLuint   lod_vao[N_BATCH_LEVELS];
  GLuint   lod_vbo[N_BATCH_LEVELS];
  GArray  *lod_instances[N_BATCH_LEVELS];
  /* This frame's solid instances under CULL_SOLID_PX: a point each
   * (indices too). */
  GLuint   speck_vao;
  GLuint   speck_vbo;
  GArray  *speck_instances;
  /* Per instance, TRUE when an earlier instance is the same in all but its
   * part (same matrix, colour, link and flags: the same pixels), made
   * again when an instance is written.  A link of 100,000 boxes at one
   * place draws one box, not the same pixels 100,000 times over. */
  GArray  *duplicate;        /* gboolean */
  gboolean duplicates_stale;
  /* Markers: per instance this frame, TRUE when a later one is drawn over
   * the same pixels (same centre, colour and size on screen). */
  GArray  *overdrawn;        /* gboolean */

  /* The VAOs of the mesh's coarser levels, made when first drawn (0: not yet). */
  GLuint   level_vao[MAX_LEVELS];

  /* Scales each instance's matrix first (its mesh's buffers hold another
   * <scale> of the same file); (1, 1, 1) otherwise. */
  double   rescale[3];
} BlBatch;

typedef struct
{
  BlBatch *batch;
  guint  index;
} BlSlot;

typedef enum
{
  OVERLAY_ELLIPSOID,
  OVERLAY_ADDED_MASS,
  OVERLAY_BOX,
  OVERLAY_COM,
  OVERLAY_BUOYANCY,
  OVERLAY_AXES,
  N_OVERLAYS
} BlOverlay;

/* What culling and the level of detail need of the camera this frame. */
typedef struct
{
  float  planes[6][4];      /* frustum, normalised, inside ≥ 0 */
  double eye[3];
  double forward[3];        /* the view direction, unit */
  double right[3], up[3];   /* the screen's axes, unit */
  int    width, height;     /* pixels */
  double px_per_radian;     /* pixels per radian near the view axis (the focal length) */
  double corner_stretch;    /* √(1 + tan²θ), θ the angle of the frustum's corners off the axis */
  int    selected;
  int    selected_part;     /* the selected link's selected collision, −1 for none */
  gboolean clusters;        /* big meshes skip clusters that cannot show */
  gboolean levels;          /* big meshes may be drawn at a coarser level */
  gboolean occlusion;       /* solid bodies certainly hidden are left out (not in wireframe) */
  gboolean shell_layers;    /* shells under SHELL_LAYERS others, and markers drawn over, are left out */
} BlFrameInfo;

/* An instance bl_batch_prepare found in view, for the occlusion tests to
 * keep or leave out (bl-renderer-occlusion.c). */
typedef struct
{
  BlBatch *batch;
  guint    index;
  int      level;           /* its level of detail, −1: only a speck */
  gboolean speck;
  double   radius;          /* of its bounding sphere about its origin */
  double   px;              /* that radius on screen, pixels */
} BlCandidate;

/* A linked program and its uniforms (−1 where it has none). */
typedef struct
{
  GLuint id;
  GLint  u_view_projection, u_mode, u_eye, u_alpha, u_selected, u_hovered, u_selection_color;
  GLint  u_selection_mix, u_com_dark, u_marker_scale;
  GLint  u_selected_collision, u_collision_mix, u_background, u_dim_mix;
} BlProgram;

/* The opaque bodies' programs: meshes (no normals, flat) and primitives. */
typedef enum
{
  BODY_FLAT,
  BODY_SMOOTH,
  BODY_SMOOTH_FALLBACK,     /* with the derivative normal where one vanishes */
  N_BODY_PROGRAMS
} BlBodyProgram;

struct _BlRenderer
{
  gboolean    use_es;
  BlProgram   general;                  /* mesh.vert/.frag: every layer */
  BlProgram   body[N_BODY_PROGRAMS];    /* body.vert/.frag: opaque collisions */
  BlProgram   shell[2];                 /* shell.vert/.frag: translucent ellipsoids; [1] with NORMAL_FALLBACK */
  BlProgram   rings[2];                 /* shell.vert/.frag with RINGS: the added-mass ellipsoid */
  gboolean    shown_added_mass;         /* the bodies' colours were written with the added-mass overlay on */

  BlGpuMesh  *prims[N_LODS][BL_PRIM_MESH];   /* [level][prim] */
  double      sphere_inradius[N_LODS];       /* of the sphere's levels (bl_tess_mesh_get_inradius) */
  double      cylinder_inradius[N_LODS];     /* of the cylinder's sides about its axis */
  BlGpuMesh  *marker;
  BlGpuMesh  *cube_edges;
  BlGpuMesh  *axes_lines;
  BlGpuMesh  *grid;
  BlGpuMesh  *triad;
  GHashTable *mesh_gpu;                 /* BlMesh* (ref) → BlGpuMesh* (ref) */
  GHashTable *unscaled_gpu;             /* unscaled key → BlGpuMesh* (ref): every <scale> of one file shares it */

  GPtrArray  *batches;                  /* BlBatch*, owned, every batch */
  BlBatch    *prim_batches[BL_PRIM_MESH];
  GHashTable *mesh_batches;             /* BlMesh* → BlBatch* */
  BlBatch    *overlays[N_OVERLAYS];
  /* An overlay's batch keeps instances only while it is shown (of the
   * links that have it); stale: a link's overlay came or went. */
  gboolean    overlay_filled[N_OVERLAYS];
  gboolean    overlay_stale[N_OVERLAYS];
  BlRenderOptions shown;                /* the options of the last sync */
  BlBatch    *grid_batch;
  BlBatch    *triad_batch;

  GPtrArray  *links;                    /* BlSceneLink*, borrowed */
  BlSlot     *slots;                    /* every link's shapes' instances, link by link */
  guint      *slot_first;               /* link i's are slots[slot_first[i]] to [slot_first[i + 1]] */
  guint       n_slot_links;
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
  BlFrameInfo frame;
  GArray     *ranges;                   /* guint32 pairs: first triangle, count */
  GArray     *draw_counts;              /* GLsizei */
  GArray     *draw_offsets;             /* const void * */
  GPtrArray  *unstarted_jobs;           /* BlMeshJob*, each holding its thread's reference */

  /* The instances in view, and what they were prepared for: a frame of
   * the same camera, size, selection and instances keeps them (and the
   * buffers they were sent to). */
  GArray     *candidates;               /* BlCandidate, scratch */
  BlOcclusion *occlusion;               /* its tiles, bl-renderer-occlusion.c */
  guint       instances_serial;         /* changes whenever an instance or a mesh's levels do */
  gboolean    prepared;
  guint       n_prepares;
  guint       prepared_serial;
  BlFrameInfo prepared_frame;
  float       prepared_vp[16];
  BlJobNotify *notify;                  /* shared with the jobs */

  /* The panel method's surface (bl_renderer_set_panels): triangles
   * (filled when coloured) then their edges, 6 floats a vertex. */
  GArray     *panel_vertices;
  guint       panel_fill_vertices;
  gboolean    panel_dirty;
  GLuint      panel_vao, panel_vbo;
};

/* ---- Programs (bl-renderer-programs.c) ------------------------------------- */

gboolean
bl_program_init (BlProgram   *program,
                 const char  *name,
                 const char  *defines,
                 gboolean     use_es,
                 GError     **error);

void
bl_renderer_delete_programs (BlRenderer *self);

void
bl_program_use (const BlProgram       *program,
                mat4                   vp,
                const float            eye[3],
                const BlRenderOptions *options);

/* ---- GPU meshes and their jobs (bl-renderer-gpu-mesh.c) -------------------- */

void
bl_gpu_mesh_job_unref (BlMeshJob *job);

/* Hands the jobs of meshes first drawn in this frame to the pool. */
void
bl_renderer_start_mesh_jobs (BlRenderer *self);

BlJobNotify *
bl_job_notify_new (void);

void
bl_job_notify_unref (BlJobNotify *notify);

void
bl_gpu_mesh_free (gpointer data);

void
bl_gpu_mesh_unref (gpointer data);

void
bl_gpu_mesh_ensure_edges (BlGpuMesh *mesh);

void
bl_renderer_adopt_mesh_jobs (BlRenderer *self);

void
bl_renderer_make_fixed_meshes (BlRenderer *self);

gboolean
bl_render_mesh_is_closed (BlMesh *mesh);

BlGpuMesh *
bl_renderer_gpu_mesh_for (BlRenderer *self,
                          BlMesh     *mesh);

/* ---- Instanced batches (bl-renderer-batch.c) ------------------------------- */

BlBatch *
bl_batch_new (BlRenderer *self,
              BlGpuMesh  *mesh,
              double      bound_radius,
              gboolean    cull);

void
bl_batch_set_lods (BlBatch   *batch,
                   BlGpuMesh *coarse,
                   BlGpuMesh *tiny,
                   BlGpuMesh *speck);

void
bl_batch_free (gpointer data);

/* Makes room for exactly N_INSTANCES in all (appending beyond grows by
 * half). */
void
bl_batch_reserve (BlBatch *batch,
                  guint    n_instances);

/* Drops every instance, and this frame's copies, freeing their memory. */
void
bl_batch_clear (BlBatch *batch);

void
bl_instance_write (float        *dst,
                   const double  m[16],
                   const float   color[3],
                   float         alpha,
                   float         link,
                   float         flags,
                   float         part);

gboolean
bl_normals_may_vanish (const double m[16]);

guint
bl_batch_append (BlBatch      *batch,
                 const double  m[16],
                 const float   color[3],
                 float         link,
                 float         flags,
                 float         part);

void
bl_batch_rewrite (BlBatch      *batch,
                  guint         index,
                  const double  m[16],
                  const float   color[3],
                  float         link,
                  float         flags,
                  float         part);

void
bl_batch_upload (BlBatch *batch);

void
bl_frame_info_init (BlFrameInfo    *frame,
                    mat4            vp,
                    const BlCamera *camera,
                    int             width,
                    int             height,
                    int             selected,
                    int             selected_part);

void
bl_batch_prepare (BlBatch           *batch,
                  const BlFrameInfo *frame,
                  double             min_px,
                  gboolean           specks,
                  GArray            *candidates);

/* Keeps instance INDEX this frame at LEVEL (−1: not as a body) and as a
 * speck when SPECK. */
void
bl_batch_take (BlBatch  *batch,
               guint     index,
               int       level,
               gboolean  speck);

/* Hands what bl_batch_prepare and bl_batch_take kept to GL. */
void
bl_batch_send (BlBatch *batch);

/* The batch's specks of this frame (bl_batch_prepare with SPECKS): the
 * first vertex of each instance as a one-pixel point, with the bound body
 * program (a body under a pixel lies within a pixel of any of its
 * vertices), setting stencil bit 1 where one shows.  On a software
 * rasteriser in pieces of SPECK_CHUNK, flushed. */
void
bl_batch_draw_specks (BlRenderer *self,
                      BlBatch    *batch);

void
bl_batch_draw (BlRenderer *self,
               BlBatch    *batch,
               gboolean    edges,
               gboolean    cull);

gboolean
bl_renderer_draw_mesh_batch (BlRenderer *self,
                             BlBatch    *batch,
                             gboolean    coarse);

/* ---- Occlusion (bl-renderer-occlusion.c) ----------------------------------- */

/* Opaque bodies: keeps the CANDIDATES (BlCandidate, of solid batches) that
 * may show, front to back, leaving out those certainly hidden behind or
 * inside nearer ones (conservative: never one that would colour a pixel).
 * Reorders CANDIDATES. */
void
bl_occlusion_keep_bodies (BlRenderer        *self,
                          const BlFrameInfo *frame,
                          GArray            *candidates);

/* Translucent shells (ellipsoids, CANDIDATES of one overlay batch): keeps
 * them in their order, but over any part of the view already under
 * SHELL_LAYERS of them only those of the selected link. */
void
bl_occlusion_keep_shells (BlRenderer        *self,
                          const BlFrameInfo *frame,
                          GArray            *candidates);

void
bl_occlusion_free (BlRenderer *self);

/* ---- Instances from the scene (bl-renderer.c) ------------------------------ */

void
bl_renderer_link_shape_color (BlRenderer  *self,
                              BlSceneLink *link,
                              float        rgb[3]);

/* Brings the instances in step with the scene and with OPTIONS (the
 * overlays they show). */
void
bl_renderer_sync_instances (BlRenderer            *self,
                            const BlRenderOptions *options);

G_END_DECLS
