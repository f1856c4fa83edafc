/* bl-mesh.c: triangle meshes loaded with assimp, their health and exact mass properties. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "bl-collada-private.h"
#include "bl-file-private.h"
#include "bl-mesh.h"
#include "bl-mesh-private.h"
#include "bl-resource.h"

G_DEFINE_QUARK (bl-mesh-error-quark, bl_mesh_error)

#define EMPTY32 G_MAXUINT32
#define EMPTY64 G_MAXUINT64

/* Below this many triangles one thread integrates everything. */
#define PARALLEL_THRESHOLD 65536

typedef struct
{
  char    *name;           /* the node's name: gz-common's submesh name */
  char    *mesh_name;      /* the aiMesh's own name */
  double  *vertices;       /* xyz, welded by exact position */
  guint    n_vertices;
  guint32 *indices;        /* three per triangle */
  guint    n_triangles;
  gboolean node_mirrored;  /* the node transform mirrors: winding reversed */
  gboolean borrowed;       /* vertices and indices lie in the mesh's mapping */
} Submesh;

typedef struct
{
  gboolean          computed;
  gboolean          ok;
  GError           *error;
  BlMeshProperties  props;
} PropsSlot;

struct _BlMesh
{
  gint        ref_count;      /* atomic: a document may load in a thread */
  char       *path;
  gboolean    mirrored;       /* <scale> mirrors: winding reversed */
  GArray     *submeshes;      /* Submesh */
  BlVec3      min;
  BlVec3      max;
  guint       n_triangles;
  PropsSlot   slots[2];       /* [0] the mesh, [1] its convex hull */
  BlMeshProperties *submesh_props;  /* filled with slots[0] */
  gpointer    mapping;        /* the mesh reader's result, mapped privately */
  gsize       mapping_size;
  char       *unscaled_key;   /* from the cache: the file as read, submesh and centring (no scale) */
  BlVec3      scale;          /* the <scale> it was made with (with unscaled_key) */
};

/* ---------------------------------------------------------------------- */
/* Hashing                                                                  */

static inline guint64
mix64 (guint64 x)
{
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  x ^= x >> 33;
  return x;
}

/* ---------------------------------------------------------------------- */
/* Submeshes                                                                */

static void
submesh_clear (gpointer data)
{
  Submesh *s = data;

  g_clear_pointer (&s->name, g_free);
  g_clear_pointer (&s->mesh_name, g_free);
  if (s->borrowed)
    {
      s->vertices = NULL;
      s->indices = NULL;
    }
  g_clear_pointer (&s->vertices, g_free);
  g_clear_pointer (&s->indices, g_free);
}

static void
reverse_winding (guint32 *indices,
                 guint    n_triangles)
{
  for (guint t = 0; t < n_triangles; t++)
    {
      guint32 tmp = indices[3 * t + 1];

      indices[3 * t + 1] = indices[3 * t + 2];
      indices[3 * t + 2] = tmp;
    }
}

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
  mesh->submeshes = g_array_new (FALSE, TRUE, sizeof (Submesh));
  g_array_set_clear_func (mesh->submeshes, submesh_clear);
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
      const Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);

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
/* Loading with assimp                                                      */

/* A 3×4 affine transform in double, row-major. */
typedef struct
{
  double m[3][4];
} Affine;

static Affine
affine_from_ai (const struct aiMatrix4x4 *a)
{
  return (Affine) { {
    { a->a1, a->a2, a->a3, a->a4 },
    { a->b1, a->b2, a->b3, a->b4 },
    { a->c1, a->c2, a->c3, a->c4 },
  } };
}

static Affine
affine_mul (const Affine *a,
            const Affine *b)
{
  Affine r;

  for (int i = 0; i < 3; i++)
    {
      for (int j = 0; j < 4; j++)
        {
          r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
          if (j == 3)
            r.m[i][j] += a->m[i][3];
        }
    }
  return r;
}

static double
affine_det (const Affine *a)
{
  const double (*m)[4] = a->m;

  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
       - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
       + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* gz-common's AssimpLoader keeps the root node's scale and translation but
 * drops its rotation (assimp#849: up-axis conversions), except for glTF. */
static Affine
root_transform_without_rotation (const Affine *root)
{
  Affine r = { { { 0 } } };
  double s[3];
  double sign = affine_det (root) < 0.0 ? -1.0 : 1.0;

  for (int j = 0; j < 3; j++)
    s[j] = sign * sqrt (root->m[0][j] * root->m[0][j]
                        + root->m[1][j] * root->m[1][j]
                        + root->m[2][j] * root->m[2][j]);

  for (int i = 0; i < 3; i++)
    {
      r.m[i][i] = s[i];
      r.m[i][3] = root->m[i][3];
    }
  return r;
}

static inline guint64
hash_position (const double *p)
{
  guint64 a, b, c, h;

  memcpy (&a, &p[0], 8);
  memcpy (&b, &p[1], 8);
  memcpy (&c, &p[2], 8);
  /* floats widened to doubles have 29 zero bits: mix every word fully */
  h = mix64 (a ^ mix64 (b ^ mix64 (c + 0x9e3779b97f4a7c15)));
  return h;
}

static gsize
table_size_for (gsize n)
{
  gsize size = 16;

  while (size < 2 * n)
    size <<= 1;
  return size;
}

/* Open addressing over the distinct points written so far (OUT). */
typedef struct
{
  guint32 *slots;
  gsize    mask;
} WeldTable;

static void
weld_table_init (WeldTable *w,
                 gsize      expected)
{
  gsize size = table_size_for (expected);

  w->slots = g_new (guint32, size);
  w->mask = size - 1;
  memset (w->slots, 0xff, size * sizeof (guint32));
}

static void
weld_table_grow (WeldTable    *w,
                 const double *out,
                 guint32       n_out)
{
  gsize size = 2 * (w->mask + 1);

  g_free (w->slots);
  w->slots = g_new (guint32, size);
  w->mask = size - 1;
  memset (w->slots, 0xff, size * sizeof (guint32));
  for (guint32 k = 0; k < n_out; k++)
    {
      gsize slot = hash_position (&out[3 * (gsize) k]) & w->mask;

      while (w->slots[slot] != EMPTY32)
        slot = (slot + 1) & w->mask;
      w->slots[slot] = k;
    }
}

/* The index of point P among OUT's distinct points, appending it if new. */
static inline guint32
weld_table_add (WeldTable    *w,
                const double  p[3],
                guint64       hash,
                double       *out,
                guint32      *n_out)
{
  gsize h = hash & w->mask;

  for (;;)
    {
      guint32 k = w->slots[h];
      const double *q;

      if (k == EMPTY32)
        {
          k = (*n_out)++;
          w->slots[h] = k;
          memcpy (&out[3 * (gsize) k], p, 3 * sizeof (double));
          if (2 * (gsize) *n_out > w->mask + 1)
            weld_table_grow (w, out, *n_out);
          return k;
        }
      q = &out[3 * (gsize) k];
      if (q[0] == p[0] && q[1] == p[1] && q[2] == p[2])
        return k;
      h = (h + 1) & w->mask;
    }
}

/* Welds IN (n_in xyz points) by exact position: writes the distinct points to
 * OUT (room for n_in) in first-seen order, REMAP[i] the new index of point i.
 * Returns the number of distinct points. */
static guint
weld_positions (const double *in,
                guint         n_in,
                double       *out,
                guint32      *remap)
{
  WeldTable w;
  guint32 n_out = 0;

  weld_table_init (&w, MIN (n_in, 1024));
  for (guint i = 0; i < n_in; i++)
    {
      /* + 0.0 turns −0 into +0 so that both weld together */
      double p[3] = { in[3 * i] + 0.0, in[3 * i + 1] + 0.0, in[3 * i + 2] + 0.0 };

      remap[i] = weld_table_add (&w, p, hash_position (p), out, &n_out);
    }
  g_free (w.slots);
  return n_out;
}

/* How many points ahead the weld computes hashes and prefetches slots. */
#define WELD_AHEAD 16

static inline void
place_point (const struct aiVector3D *q,
             const Affine            *t,
             double                   p[3])
{
  for (int k = 0; k < 3; k++)
    p[k] = t->m[k][0] * q->x + t->m[k][1] * q->y + t->m[k][2] * q->z + t->m[k][3];
  for (int k = 0; k < 3; k++)
    p[k] += 0.0;   /* −0 and +0 weld together */
}

/* The same for assimp's float points placed by T, without an intermediate
 * array of doubles.  The table starts large enough for EXPECTED distinct
 * points, so that it seldom grows.  Its slots
 * are random in memory: each point's hash is computed WELD_AHEAD points
 * early and its slot prefetched, and halfway there the point it holds. */
static guint
weld_points (const struct aiVector3D *in,
             guint                    n_in,
             gsize                    expected,
             const Affine            *t,
             double                  *out,
             guint32                 *remap)
{
  WeldTable w;
  guint32 n_out = 0;
  double ring_p[WELD_AHEAD][3];
  guint64 ring_h[WELD_AHEAD];

  weld_table_init (&w, MAX (expected, 1024));
  for (guint j = 0; j < MIN (n_in, WELD_AHEAD); j++)
    {
      place_point (&in[j], t, ring_p[j]);
      ring_h[j] = hash_position (ring_p[j]);
      __builtin_prefetch (&w.slots[ring_h[j] & w.mask]);
    }

  for (guint i = 0; i < n_in; i++)
    {
      guint r = i % WELD_AHEAD;
      guint mid = i + WELD_AHEAD / 2;
      double p[3] = { ring_p[r][0], ring_p[r][1], ring_p[r][2] };
      guint64 hash = ring_h[r];

      if (mid < n_in)
        {
          guint32 k = w.slots[ring_h[mid % WELD_AHEAD] & w.mask];

          if (k != EMPTY32)
            __builtin_prefetch (&out[3 * (gsize) k]);
        }
      if (i + WELD_AHEAD < n_in)
        {
          place_point (&in[i + WELD_AHEAD], t, ring_p[r]);
          ring_h[r] = hash_position (ring_p[r]);
          __builtin_prefetch (&w.slots[ring_h[r] & w.mask]);
        }

      remap[i] = weld_table_add (&w, p, hash, out, &n_out);
    }
  g_free (w.slots);
  return n_out;
}

/* One aiMesh placed by its node's transform: a submesh to be. */
typedef struct
{
  const struct aiNode *node;
  const struct aiMesh *mesh;
  Affine               t;
  guint                n_triangles;
} Part;

static void
collect_parts (const struct aiScene  *scene,
               const struct aiNode   *node,
               const Affine          *t,
               guint                  depth,
               GArray                *parts)
{
  if (node == NULL || depth > 1024)
    return;

  for (guint i = 0; i < node->mNumMeshes; i++)
    {
      guint m = node->mMeshes[i];
      const struct aiMesh *ai_mesh;
      Part part = { node, NULL, *t, 0 };

      if (m >= scene->mNumMeshes || scene->mMeshes[m] == NULL)
        continue;
      ai_mesh = scene->mMeshes[m];
      for (guint f = 0; f < ai_mesh->mNumFaces; f++)
        if (ai_mesh->mFaces[f].mNumIndices == 3)
          part.n_triangles++;
      if (part.n_triangles == 0 || ai_mesh->mNumVertices == 0)
        continue;   /* points or lines only */
      part.mesh = ai_mesh;
      g_array_append_val (parts, part);
    }

  for (guint i = 0; i < node->mNumChildren; i++)
    {
      const struct aiNode *child = node->mChildren[i];
      Affine local;
      Affine child_t;

      if (child == NULL)
        continue;
      local = affine_from_ai (&child->mTransformation);
      child_t = affine_mul (t, &local);
      collect_parts (scene, child, &child_t, depth + 1, parts);
    }
}

static gboolean
has_extension (const char *path,
               const char *ext)
{
  const char *dot = strrchr (path, '.');

  return dot != NULL && g_ascii_strcasecmp (dot + 1, ext) == 0;
}

static gboolean
select_submesh (BlMesh      *mesh,
                const char  *name,
                gboolean     center,
                GError     **error)
{
  guint found = G_MAXUINT;

  for (guint i = 0; i < mesh->submeshes->len && found == G_MAXUINT; i++)
    if (g_strcmp0 (g_array_index (mesh->submeshes, Submesh, i).name, name) == 0)
      found = i;
  for (guint i = 0; i < mesh->submeshes->len && found == G_MAXUINT; i++)
    if (g_strcmp0 (g_array_index (mesh->submeshes, Submesh, i).mesh_name, name) == 0)
      found = i;

  if (found == G_MAXUINT)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < mesh->submeshes->len; i++)
        g_string_append_printf (names, "%s“%s”", i > 0 ? ", " : "",
                                g_array_index (mesh->submeshes, Submesh, i).name);
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
      Submesh *s = &g_array_index (mesh->submeshes, Submesh, 0);
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
      Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);

      for (guint v = 0; v < s->n_vertices; v++)
        for (int j = 0; j < 3; j++)
          s->vertices[3 * v + j] *= k[j];
      /* A mirror turns an outward winding inward: put it back. */
      if (mesh->mirrored)
        reverse_winding (s->indices, s->n_triangles);
    }
}

#define BL_MESH_MAX_FILE_SIZE ((gsize) 1 << 30)

/* The child's memory: what it inherited from the parent (libraries, GL
 * drivers, thread stacks), plus IMPORT_MEMORY_BASE, plus
 * IMPORT_MEMORY_PER_BYTE times the bytes of every file assimp opens (the
 * mesh, an OBJ's materials, a glTF's buffers: a parser's scene takes a few
 * times its input), up to IMPORT_MEMORY_LIMIT.  A small file that asks for
 * gigabytes (a COLLADA instancing bomb, a header claiming a billion
 * vertices) fails at a few hundred megabytes, not at 8 GB. */
#define IMPORT_MEMORY_LIMIT (G_GUINT64_CONSTANT (8) << 30)
#define IMPORT_MEMORY_BASE (G_GUINT64_CONSTANT (384) << 20)
#define IMPORT_MEMORY_PER_BYTE 16

/* The most triangles one mesh may give once its nodes are instanced:
 * 20 million, what the largest binary STL (1 GiB) holds. */
#define IMPORT_MAX_TRIANGLES G_GUINT64_CONSTANT (20000000)

/* In the child only: the address space it started with, and its budget so
 * far (0 in the parent, where nothing is limited). */
static guint64 child_memory_start;
static guint64 child_memory_budget;
/* In the child only: the folder of the mesh it reads. */
static char *child_mesh_dir;

/* Bytes of address space the process maps now. */
static guint64
address_space_in_use (void)
{
  char text[128];
  guint64 pages = 0;
  int fd = open ("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  gssize n = fd >= 0 ? read (fd, text, sizeof text - 1) : -1;

  if (fd >= 0)
    close (fd);
  if (n > 0)
    {
      text[n] = '\0';
      pages = g_ascii_strtoull (text, NULL, 10);
    }
  return pages * (guint64) sysconf (_SC_PAGESIZE);
}

/* Raises the child's soft address-space limit by the share of the file
 * open on FD (-1: none), once per file however often assimp opens it. */
static void
grow_memory_limit (int fd)
{
  static GArray *counted;   /* dev_t, ino_t pairs, as guint64 */
  struct rlimit limit;
  struct stat st;
  gsize bytes_read = 0;

  if (child_memory_budget == 0)
    return;
  if (fd >= 0 && fstat (fd, &st) == 0)
    {
      guint64 key[2] = { st.st_dev, st.st_ino };

      if (counted == NULL)
        counted = g_array_new (FALSE, FALSE, sizeof key);
      for (guint i = 0; i < counted->len; i++)
        if (memcmp ((const guint64 *) counted->data + 2 * i, key, sizeof key) == 0)
          return;
      g_array_append_val (counted, key);
      bytes_read = st.st_size;
    }
  child_memory_budget = MIN (child_memory_budget + IMPORT_MEMORY_PER_BYTE * (guint64) bytes_read,
                             IMPORT_MEMORY_LIMIT);
  limit.rlim_cur = child_memory_start + child_memory_budget;
  limit.rlim_max = child_memory_start + IMPORT_MEMORY_LIMIT;
  setrlimit (RLIMIT_AS, &limit);
}

/* Every file assimp opens (the mesh, and what it names: an OBJ's mtllib,
 * a glTF's buffers) goes through bl_file_open: a FIFO, a device or a file
 * in /proc or /sys is refused at once rather than read (a blocking open of
 * a FIFO waited until the time limit), and nothing is ever written. */
static size_t
io_read (struct aiFile *file,
         char          *buffer,
         size_t         size,
         size_t         count)
{
  return size == 0 ? 0 : fread (buffer, size, count, (FILE *) file->UserData);
}

static size_t
io_write (struct aiFile *file,
          const char    *buffer,
          size_t         size,
          size_t         count)
{
  return 0;
}

static size_t
io_tell (struct aiFile *file)
{
  long at = ftell ((FILE *) file->UserData);

  return at < 0 ? 0 : (size_t) at;
}

static size_t
io_size (struct aiFile *file)
{
  struct stat st;

  return fstat (fileno ((FILE *) file->UserData), &st) == 0 ? (size_t) st.st_size : 0;
}

static enum aiReturn
io_seek (struct aiFile   *file,
         size_t           offset,
         enum aiOrigin    origin)
{
  int whence = origin == aiOrigin_CUR ? SEEK_CUR : origin == aiOrigin_END ? SEEK_END : SEEK_SET;

  return fseeko ((FILE *) file->UserData, (off_t) offset, whence) == 0 ? aiReturn_SUCCESS
                                                                       : aiReturn_FAILURE;
}

static void
io_flush (struct aiFile *file)
{
}

static struct aiFile *
io_open (struct aiFileIO *io,
         const char      *path,
         const char      *mode)
{
  struct aiFile *file;
  FILE *stream;
  int fd;

  if (strpbrk (mode, "wa+") != NULL)
    return NULL;
  /* what the mesh names (an OBJ's mtllib /etc/passwd) only where its
   * model's files belong: under the mesh's folder or a resource path */
  if (child_mesh_dir != NULL && !bl_resource_check_place (NULL, path, child_mesh_dir, NULL))
    return NULL;
  fd = bl_file_open (path, G_MAXSSIZE, NULL, NULL);
  if (fd < 0)
    return NULL;
  grow_memory_limit (fd);
  stream = fdopen (fd, "rb");
  if (stream == NULL)
    {
      close (fd);
      return NULL;
    }
  file = g_new0 (struct aiFile, 1);
  file->ReadProc = io_read;
  file->WriteProc = io_write;
  file->TellProc = io_tell;
  file->FileSizeProc = io_size;
  file->SeekProc = io_seek;
  file->FlushProc = io_flush;
  file->UserData = (aiUserData) stream;
  return file;
}

static void
io_close (struct aiFileIO *io,
          struct aiFile   *file)
{
  if (file == NULL)
    return;
  fclose ((FILE *) file->UserData);
  g_free (file);
}

/* FALSE with *WHY when PATH is a COLLADA file (by its extension, or as
 * assimp recognises one: "<collada" near the start) whose node instancing
 * expands past BL_COLLADA_MAX_NODES, before assimp builds it. */
static gboolean
collada_within_limits (const char  *path,
                       char       **why)
{
  char head[4096];
  gssize n;
  gboolean collada;
  gboolean ok;
  int fd = bl_file_open (path, BL_MESH_MAX_FILE_SIZE, NULL, NULL);

  if (fd < 0)
    return TRUE;  /* assimp says what is wrong with it */
  n = read (fd, head, sizeof head);
  for (gssize i = 0; i < n; i++)
    head[i] = g_ascii_tolower (head[i]);
  collada = has_extension (path, "dae") || (n > 0 && memmem (head, n, "<collada", 8) != NULL);
  ok = !collada || lseek (fd, 0, SEEK_SET) != 0 ||
       bl_collada_check_instancing (fd, BL_COLLADA_MAX_NODES, why);
  close (fd);
  return ok;
}

/* assimp's functions that Ballast calls, from the library loaded when a
 * mesh first needs it (load_assimp), not when the program starts: its
 * relocations (assimp, libstdc++, draco) were half of every ballast-cli
 * run's start, 3.5 of 7 ms of CPU, for models without such meshes. */
static struct
{
  struct aiPropertyStore *(*create_property_store) (void);
  void (*set_import_property_integer) (struct aiPropertyStore *, const char *, int);
  const struct aiScene *(*import_file_ex_with_properties) (const char *, unsigned int, struct aiFileIO *,
                                                           const struct aiPropertyStore *);
  void (*release_property_store) (struct aiPropertyStore *);
  const char *(*get_error_string) (void);
  void (*release_import) (const struct aiScene *);
} ai;

/* Loads assimp (BL_ASSIMP_SONAME) once, in the parent before any child is
 * forked; the message of the first failure, or NULL. */
static const char *
load_assimp (void)
{
  static gsize done;
  static char *failure;

  if (g_once_init_enter (&done))
    {
      void *lib = dlopen (BL_ASSIMP_SONAME, RTLD_NOW | RTLD_LOCAL);

      if (lib != NULL)
        {
          *(void **) &ai.create_property_store = dlsym (lib, "aiCreatePropertyStore");
          *(void **) &ai.set_import_property_integer = dlsym (lib, "aiSetImportPropertyInteger");
          *(void **) &ai.import_file_ex_with_properties = dlsym (lib, "aiImportFileExWithProperties");
          *(void **) &ai.release_property_store = dlsym (lib, "aiReleasePropertyStore");
          *(void **) &ai.get_error_string = dlsym (lib, "aiGetErrorString");
          *(void **) &ai.release_import = dlsym (lib, "aiReleaseImport");
        }
      if (lib == NULL || ai.create_property_store == NULL || ai.set_import_property_integer == NULL ||
          ai.import_file_ex_with_properties == NULL || ai.release_property_store == NULL ||
          ai.get_error_string == NULL || ai.release_import == NULL)
        failure = g_strdup_printf ("the mesh reader (%s) cannot be loaded: %s", BL_ASSIMP_SONAME,
                                   lib == NULL ? dlerror () : "a function is missing");
      g_once_init_leave (&done, 1);
    }
  return failure;
}

/* Reads PATH with assimp (loaded by load_assimp), in this process; NULL
 * with *WHY on failure. */
static const struct aiScene *
read_scene (const char  *path,
            char       **why)
{
  struct aiFileIO io = { io_open, io_close, NULL };
  struct aiPropertyStore *store;
  const struct aiScene *scene;

  store = ai.create_property_store ();
  /* The root transform's rotation is dropped anyway (see
   * root_transform_without_rotation); keeping assimp from adding one
   * leaves only the <unit> scale in it. */
  ai.set_import_property_integer (store, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
  /* gz-common names a COLLADA submesh after its <node>'s name attribute,
   * never its id; assimp by default takes the id.  A node without a name
   * is then "$ColladaAutoName$_N" (see submesh_name_node). */
  ai.set_import_property_integer (store, AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, 1);
  scene = ai.import_file_ex_with_properties (path, aiProcess_Triangulate, &io, store);
  ai.release_property_store (store);

  if (scene == NULL || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || scene->mRootNode == NULL)
    {
      const char *message = ai.get_error_string ();

      if (message != NULL && strstr (message, "bad_alloc") != NULL && child_memory_budget > 0)
        *why = g_strdup_printf ("reading it needs more than the %" G_GUINT64_FORMAT " MiB of memory "
                                "a mesh of its size may take (%" G_GUINT64_FORMAT " MiB and %d times "
                                "the bytes of its files, at most %" G_GUINT64_FORMAT " MiB)",
                                child_memory_budget >> 20, IMPORT_MEMORY_BASE >> 20,
                                IMPORT_MEMORY_PER_BYTE, IMPORT_MEMORY_LIMIT >> 20);
      else
        *why = g_strdup (message != NULL && *message != '\0' ? message : "the file is incomplete or corrupt");
      if (scene != NULL)
        ai.release_import (scene);
      return NULL;
    }

  return scene;
}

/* ---------------------------------------------------------------------- */
/* Isolation: assimp reads the file in a child process                      */

/* assimp is a large C++ parser of many formats, and a corrupt or hostile
 * file can make it loop forever or crash.  It therefore runs in a forked
 * child with a time and memory limit, and a child that hangs, crashes or
 * runs out of memory becomes an error naming the file.
 *
 * The child welds each submesh and writes the arrays the parent keeps
 * (doubles and indices) straight into a memfd, seals it against any
 * further change, and sends a small reply through a pipe; the parent maps
 * the sealed memfd privately and uses the arrays where they are, after
 * checking every index.  Nothing is copied through the pipe. */

#define IMPORT_MAGIC 0x426c4d32u  /* "BlM2" */

#if defined (__has_feature)
# if __has_feature (address_sanitizer)
#  define BL_HAS_ASAN 1
# endif
#endif
#ifndef BL_HAS_ASAN
# define BL_HAS_ASAN 0
#endif
#define IMPORT_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

/* The child's reply through the pipe (the result itself is in the memfd). */
typedef struct
{
  guint32 magic;
  guint32 status;        /* 0: the scene is in the memfd; 1: an error message is */
  guint64 size;          /* bytes of the memfd in use */
  gint64  start;         /* monotonic µs: the child starts reading */
  gint64  imported;      /* assimp is done */
  gint64  welded;        /* the arrays are written */
} ImportReply;

static BlMeshTimings timings;

/* Binary STL files are read in process (bl-stl.c) unless a test says not. */
static gboolean native_stl = TRUE;

void
bl_mesh_set_native_stl (gboolean enabled)
{
  native_stl = enabled;
}

/* Children that sent a whole result and were left to finish exiting (the
 * kernel freeing assimp's scene takes a while); reaped at the next load. */
static GArray *unreaped;
/* Meshes may be read by a loading thread and the main thread at once. */
static GMutex  unreaped_lock;

static void
reap_finished_children (void)
{
  g_mutex_lock (&unreaped_lock);
  for (guint i = 0; unreaped != NULL && i < unreaped->len;)
    {
      pid_t pid = g_array_index (unreaped, pid_t, i);
      pid_t done = waitpid (pid, NULL, WNOHANG);

      if (done == 0 || (done < 0 && errno == EINTR))
        i++;
      else
        g_array_remove_index_fast (unreaped, i);
    }
  g_mutex_unlock (&unreaped_lock);
}

void
bl_mesh_get_timings (BlMeshTimings *out)
{
  g_return_if_fail (out != NULL);
  *out = timings;
}

static double
seconds_between (gint64 from,
                 gint64 to)
{
  return (to - from) / (double) G_USEC_PER_SEC;
}

static gboolean
write_all (int         fd,
           const void *data,
           gsize       size)
{
  const guint8 *p = data;

  while (size > 0)
    {
      gssize n = write (fd, p, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      size -= n;
    }
  return TRUE;
}

static gsize
align8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

/* The node whose name gz-common gives the submesh.  A COLLADA <node>
 * without a name (assimp calls it "$ColladaAutoName$_N") is named by
 * gz-common's ColladaLoader after its first named ancestor <node>
 * (polaris_ranger's wheels: <node name="Steering_Wheel"><node>…); with
 * none, gz-common makes up a name from a counter, and assimp's stays. */
static const struct aiNode *
submesh_name_node (const struct aiNode *node)
{
  static const char auto_prefix[] = "$ColladaAutoName$";

  for (const struct aiNode *n = node; n != NULL && n->mParent != NULL; n = n->mParent)
    if (strncmp (n->mName.data, auto_prefix, sizeof auto_prefix - 1) != 0)
      return n;
  return node;
}

/* The memfd's layout: u32 n_submeshes, u32 0; then for each submesh
 * u32 name length, mesh name length, node mirrored, vertices, triangles, 0;
 * the two names; 3 doubles per vertex; 3 u32 per triangle; each field
 * starting on a multiple of 8 bytes. */
static gsize
part_size_bound (const Part *part)
{
  return 24 + align8 (submesh_name_node (part->node)->mName.length) + align8 (part->mesh->mName.length)
       + 24 * (gsize) part->mesh->mNumVertices + align8 (12 * (gsize) part->n_triangles);
}

/* Writes PART at OUT (room for part_size_bound); returns the bytes used.
 * REMAP has room for the part's vertices. */
static gsize
write_part (const Part *part,
            guint8     *out,
            guint32    *remap)
{
  const struct aiMesh *ai_mesh = part->mesh;
  guint32 nv = ai_mesh->mNumVertices;
  const struct aiNode *named = submesh_name_node (part->node);
  guint32 header[6] = {
    named->mName.length, ai_mesh->mName.length,
    affine_det (&part->t) < 0.0, 0, part->n_triangles, 0,
  };
  gsize pos = 24;
  double *vertices;
  guint32 *indices;
  guint32 n_vertices;
  guint t = 0;

  memcpy (out + pos, named->mName.data, header[0]);
  pos += align8 (header[0]);
  memcpy (out + pos, ai_mesh->mName.data, header[1]);
  pos += align8 (header[1]);

  vertices = (double *) (out + pos);
  /* A triangle soup (three points per triangle, as assimp reads STL) holds
   * each point about six times; indexed points (PLY, OBJ, COLLADA…) are
   * mostly distinct already. */
  n_vertices = weld_points (ai_mesh->mVertices, nv,
                            (gsize) nv >= 3 * (gsize) ai_mesh->mNumFaces ? nv / 8 : nv,
                            &part->t, vertices, remap);
  header[3] = n_vertices;
  pos += 24 * (gsize) n_vertices;

  indices = (guint32 *) (out + pos);
  for (guint f = 0; f < ai_mesh->mNumFaces; f++)
    {
      const struct aiFace *face = &ai_mesh->mFaces[f];

      if (face->mNumIndices != 3)
        continue;
      for (int i = 0; i < 3; i++)
        {
          guint idx = face->mIndices[i];

          indices[3 * t + i] = idx < nv ? remap[idx] : 0;
        }
      t++;
    }
  /* a mirroring node transform turns an outward winding inward */
  if (header[2])
    reverse_winding (indices, t);
  pos += align8 (12 * (gsize) t);

  memcpy (out, header, sizeof header);
  return pos;
}

/* The child's work: read, weld, write into MEMFD.  FALSE only when the
 * memfd cannot be written (the parent then reports a malformed result). */
static gboolean
import_into (const char  *path,
             int          memfd,
             ImportReply *reply)
{
  g_autofree char *why = NULL;
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (Part));
  g_autofree guint32 *remap = NULL;
  const struct aiScene *scene;
  gsize bound = 8, pos = 8, max_vertices = 0;
  guint64 n_triangles = 0;
  guint32 n_parts;
  guint8 *base;
  Affine root;

  scene = collada_within_limits (path, &why) ? read_scene (path, &why) : NULL;
  reply->imported = g_get_monotonic_time ();
  if (scene == NULL)
    {
      reply->status = 1;
      reply->size = strlen (why);
      reply->welded = reply->imported;
      return write_all (memfd, why, reply->size);
    }

  /* gz-common keeps the root node's scale and translation but drops its
   * rotation (assimp#849: up-axis conversions), except for glTF. */
  root = affine_from_ai (&scene->mRootNode->mTransformation);
  if (!has_extension (path, "gltf") && !has_extension (path, "glb"))
    root = root_transform_without_rotation (&root);
  collect_parts (scene, scene->mRootNode, &root, 0, parts);

  for (guint i = 0; i < parts->len; i++)
    {
      const Part *part = &g_array_index (parts, Part, i);

      bound += part_size_bound (part);
      max_vertices = MAX (max_vertices, part->mesh->mNumVertices);
      n_triangles += part->n_triangles;
    }
  /* nodes instancing a mesh many times multiply its triangles */
  if (n_triangles > IMPORT_MAX_TRIANGLES)
    {
      g_free (why);
      why = g_strdup_printf ("its nodes place %" G_GUINT64_FORMAT " triangles, more than the "
                             "%" G_GUINT64_FORMAT " a mesh may hold", n_triangles, IMPORT_MAX_TRIANGLES);
      reply->status = 1;
      reply->size = strlen (why);
      reply->welded = g_get_monotonic_time ();
      return write_all (memfd, why, reply->size);
    }

  if (ftruncate (memfd, bound) != 0)
    return FALSE;
  base = mmap (NULL, bound, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
  if (base == MAP_FAILED)
    return FALSE;

  remap = g_new (guint32, MAX (max_vertices, 1));
  n_parts = parts->len;
  memcpy (base, &n_parts, 4);
  memset (base + 4, 0, 4);
  for (guint i = 0; i < parts->len; i++)
    pos += write_part (&g_array_index (parts, Part, i), base + pos, remap);

  reply->welded = g_get_monotonic_time ();
  reply->size = pos;
  return munmap (base, bound) == 0 && ftruncate (memfd, pos) == 0;
}

/* Set by sanitizer runtimes (and libFuzzer through them); absent otherwise. */
extern void __sanitizer_set_death_callback (void (*callback) (void)) __attribute__ ((weak));

G_GNUC_NORETURN static void
import_child (const char *path,
              int         memfd,
              int         fd)
{
  static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
  ImportReply reply = { IMPORT_MAGIC, 0, 0, g_get_monotonic_time (), 0, 0 };
  gboolean ok;

  /* A crash here is the parent's to report: die plainly, without the
   * parent's crash handlers (a fuzzer's, say) acting in the child. */
  for (guint i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
    signal (fatal_signals[i], SIG_DFL);
  if (__sanitizer_set_death_callback != NULL)
    __sanitizer_set_death_callback (NULL);

  child_mesh_dir = g_path_get_dirname (path);

  /* AddressSanitizer reserves terabytes of address space up front. */
#if !defined (__SANITIZE_ADDRESS__) && !BL_HAS_ASAN
  child_memory_start = address_space_in_use ();
  child_memory_budget = IMPORT_MEMORY_BASE;
  grow_memory_limit (-1);
#endif

  ok = import_into (path, memfd, &reply) &&
       fcntl (memfd, F_ADD_SEALS, IMPORT_SEALS) == 0 &&
       write_all (fd, &reply, sizeof reply);

  /* no clean-up: the kernel frees the scene faster */
  _exit (ok ? 0 : 1);
}

typedef struct
{
  const guint8 *p;
  const guint8 *end;
} Reader;

static gboolean
read_u32s (Reader  *r,
           guint32 *out,
           gsize    n)
{
  if ((gsize) (r->end - r->p) < 4 * n)
    return FALSE;
  memcpy (out, r->p, 4 * n);
  r->p += align8 (4 * n);
  return TRUE;
}

static gboolean
read_string (Reader  *r,
             guint32  length,
             char   **text)
{
  if ((gsize) (r->end - r->p) < align8 (length))
    return FALSE;
  *text = g_strndup ((const char *) r->p, length);
  r->p += align8 (length);
  return TRUE;
}

/* A pointer to COUNT elements of SIZE bytes where they lie in the mapping. */
static gboolean
take_array (Reader   *r,
            gsize     size,
            guint32   count,
            gpointer *out)
{
  gsize bytes = size * (gsize) count;

  if ((gsize) (r->end - r->p) < align8 (bytes))
    return FALSE;
  *out = (gpointer) r->p;
  r->p += align8 (bytes);
  return TRUE;
}

static gboolean
indices_in_range (const guint32 *indices,
                  gsize          n,
                  guint32        n_vertices)
{
  guint32 max = 0;

  for (gsize i = 0; i < n; i++)
    max = MAX (max, indices[i]);
  return n == 0 || max < n_vertices;
}

/* Fills mesh->submeshes from the child's result, mapped at mesh->mapping;
 * the arrays stay where they are.  FALSE on a malformed result. */
static gboolean
decode_import (BlMesh *mesh)
{
  Reader r = { mesh->mapping, (const guint8 *) mesh->mapping + mesh->mapping_size };
  guint32 head[2];

  if (!read_u32s (&r, head, 2))
    return FALSE;

  for (guint32 i = 0; i < head[0]; i++)
    {
      Submesh sub = { 0 };
      guint32 h[6];
      gpointer vertices, indices;

      if (!read_u32s (&r, h, 6) ||
          !read_string (&r, h[0], &sub.name) ||
          !read_string (&r, h[1], &sub.mesh_name) ||
          !take_array (&r, 3 * sizeof (double), h[3], &vertices) ||
          !take_array (&r, 3 * sizeof (guint32), h[4], &indices) ||
          !indices_in_range (indices, 3 * (gsize) h[4], h[3]))
        {
          submesh_clear (&sub);
          return FALSE;
        }

      sub.borrowed = TRUE;
      sub.node_mirrored = h[2] != 0;
      sub.n_vertices = h[3];
      sub.vertices = vertices;
      sub.n_triangles = h[4];
      sub.indices = indices;
      g_array_append_val (mesh->submeshes, sub);
    }

  return r.p == r.end;
}

static double
import_timeout_seconds (void)
{
  const char *env = g_getenv ("BALLAST_MESH_TIMEOUT");
  double seconds = env != NULL ? g_ascii_strtod (env, NULL) : 0.0;

  return seconds > 0.0 ? seconds : 30.0;
}

/* Reads the child's reply until it is whole, the pipe closes or the
 * deadline passes; returns the bytes read, -1 on timeout. */
static gssize
read_reply (int          fd,
            ImportReply *reply,
            gint64       deadline)
{
  gsize got = 0;

  while (got < sizeof *reply)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      gint64 left = deadline - g_get_monotonic_time ();
      gssize n;
      int ready;

      if (left <= 0)
        return -1;
      ready = poll (&pfd, 1, (int) MIN (left / 1000 + 1, G_MAXINT));
      if (ready <= 0)
        continue;   /* EINTR, or the deadline: checked above */

      n = read (fd, (guint8 *) reply + got, sizeof *reply - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += n;
    }

  return got;
}

static gboolean
import_isolated (BlMesh  *mesh,
                 GError **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (import_timeout_seconds () * G_USEC_PER_SEC);
  ImportReply reply = { 0 };
  gssize got;
  int fds[2];
  int memfd;
  int status = 0;
  int seals;
  struct stat st;
  gint64 replied, reaped, mapped;
  const char *unavailable = load_assimp ();
  pid_t pid;

  if (unavailable != NULL)
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD, "Cannot load mesh “%s”: %s",
                   mesh->path, unavailable);
      return FALSE;
    }

  memfd = memfd_create ("ballast-mesh", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (memfd < 0 || pipe2 (fds, O_CLOEXEC) != 0)
    {
      int saved = errno;

      if (memfd >= 0)
        close (memfd);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: %s", mesh->path, g_strerror (saved));
      return FALSE;
    }

  pid = fork ();
  if (pid < 0)
    {
      int saved = errno;

      close (memfd);
      close (fds[0]);
      close (fds[1]);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: %s", mesh->path, g_strerror (saved));
      return FALSE;
    }
  if (pid == 0)
    {
      close (fds[0]);
      import_child (mesh->path, memfd, fds[1]);
    }

  close (fds[1]);
  got = read_reply (fds[0], &reply, deadline);
  replied = g_get_monotonic_time ();
  close (fds[0]);
  reap_finished_children ();

  if (got == sizeof reply && reply.magic == IMPORT_MAGIC)
    {
      /* The child has sealed its result and only exits now: nothing it
       * does can change the memfd, so it is not waited for. */
      if (waitpid (pid, &status, WNOHANG) == 0)
        {
          g_mutex_lock (&unreaped_lock);
          if (unreaped == NULL)
            unreaped = g_array_new (FALSE, FALSE, sizeof (pid_t));
          g_array_append_val (unreaped, pid);
          g_mutex_unlock (&unreaped_lock);
        }
    }
  else
    {
      if (got < 0)
        kill (pid, SIGKILL);
      while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
        ;
    }
  reaped = g_get_monotonic_time ();

  if (got < 0)
    {
      close (memfd);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: reading it did not finish within %g s; "
                   "the file is probably corrupt", mesh->path, import_timeout_seconds ());
      return FALSE;
    }
  if (WIFSIGNALED (status))
    {
      close (memfd);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: the mesh reader (assimp) %s while reading it; "
                   "the file is probably corrupt", mesh->path,
                   WTERMSIG (status) == SIGKILL ? "ran out of memory" : "crashed");
      return FALSE;
    }

  /* Only a whole reply about a sealed memfd of the size it gives is
   * trusted: nothing can change the arrays after they are checked. */
  seals = fcntl (memfd, F_GET_SEALS);
  if (got != sizeof reply || reply.magic != IMPORT_MAGIC ||
      seals < 0 || (seals & IMPORT_SEALS) != IMPORT_SEALS ||
      fstat (memfd, &st) != 0 || (guint64) st.st_size != reply.size ||
      reply.size > G_MAXSIZE || reply.size == 0)
    {
      close (memfd);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: the mesh reader returned a malformed result", mesh->path);
      return FALSE;
    }

  /* Not MAP_POPULATE: on a private writable mapping it writes to every
   * page, which copies the whole result out of the memfd (and keeps both);
   * read, the pages are the memfd's own, and only a scale (apply_scale)
   * copies the pages it changes. */
  mesh->mapping = mmap (NULL, reply.size, PROT_READ | PROT_WRITE, MAP_PRIVATE, memfd, 0);
  close (memfd);
  if (mesh->mapping == MAP_FAILED)
    {
      int saved = errno;

      mesh->mapping = NULL;
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: %s", mesh->path, g_strerror (saved));
      return FALSE;
    }
  mesh->mapping_size = reply.size;
  mapped = g_get_monotonic_time ();

  timings.import = seconds_between (reply.start, reply.imported);
  timings.weld = seconds_between (reply.imported, reply.welded);
  timings.transfer = seconds_between (reply.welded, replied) + seconds_between (reaped, mapped);
  timings.reap = seconds_between (replied, reaped);

  if (reply.status != 0)
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD, "Cannot load mesh “%s”: %.*s",
                   mesh->path, (int) MIN (reply.size, 4096), (const char *) mesh->mapping);
      return FALSE;
    }

  if (!decode_import (mesh))
    {
      g_array_set_size (mesh->submeshes, 0);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: the mesh reader returned a malformed result", mesh->path);
      return FALSE;
    }
  timings.checks = seconds_between (mapped, g_get_monotonic_time ());

  return TRUE;
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
  BlStlMesh stl;
  BlStlStatus status;
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
  memset (&timings, 0, sizeof timings);
  status = native_stl ? bl_stl_read_binary (path, &stl, error) : BL_STL_NOT_BINARY;
  if (status == BL_STL_FAILED)
    return NULL;
  if (status == BL_STL_OK)
    {
      /* what the child makes of it: one submesh, its node and mesh unnamed */
      Submesh sub = { g_strdup (""), g_strdup (""), stl.vertices, stl.n_vertices,
                      stl.indices, stl.n_triangles, FALSE, TRUE };

      /* the arrays lie in the reader's mapping, as the child's do in its */
      mesh->mapping = stl.mapping;
      mesh->mapping_size = stl.mapping_size;

      g_array_append_val (mesh->submeshes, sub);
      timings.native = TRUE;
      timings.import = stl.read_seconds;
      timings.decode = stl.decode_seconds;
      timings.weld = stl.weld_seconds;
      timings.native_wall = stl.wall_seconds;
    }
  else if (!import_isolated (mesh, error))
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
      const Submesh *sub = &g_array_index (mesh->submeshes, Submesh, i);

      /* (the in-process reader refused them already) */
      if (status == BL_STL_OK || all_finite (sub->vertices, 3 * (gsize) sub->n_vertices))
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
  timings.checks += seconds_between (start, g_get_monotonic_time ());

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
  Submesh s = { 0 };

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
/* Cache                                                                    */

static GHashTable *mesh_cache;   /* key string → BlMesh (a reference) */
/* key string → GError: a file that failed fails the same way until it
 * changes (a mesh that times out is not read again, the limit again) */
static GHashTable *failure_cache;
/* The application loads documents in a worker thread while the main thread
 * may reload a link of the open one: both reach the cache.  The lock is not
 * held while a mesh is read, so two threads may read the same new file at
 * once; the second insert replaces the first. */
static GMutex      cache_lock;

static char *
cache_key (const char *path,
           gint64      mtime_ns,
           gint64      size,
           BlVec3      scale,
           const char *submesh,
           gboolean    center)
{
  /* %a keeps every bit of the scale. */
  return g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT "\n%a %a %a\n%s\n%d",
                          path, mtime_ns, size, scale.x, scale.y, scale.z,
                          submesh != NULL ? submesh : "",
                          submesh != NULL && *submesh != '\0' ? !!center : 0);
}

/* prefixes[0] is "PATH\n", prefixes[1] "PATH\nMTIME\nSIZE\n" of the file now. */
static gboolean
is_stale_entry (gpointer key,
                gpointer value,
                gpointer user_data)
{
  char **prefixes = user_data;

  return g_str_has_prefix (key, prefixes[0]) && !g_str_has_prefix (key, prefixes[1]);
}

/* The file's modification time in ns; FALSE (and ERROR) when it cannot
 * be read. */
static gboolean
stat_file (const char *path,
           GStatBuf   *st,
           gint64     *mtime_ns,
           GError    **error)
{
  if (g_stat (path, st) != 0)
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: %s", path, g_strerror (errno));
      return FALSE;
    }

  *mtime_ns = (gint64) st->st_mtime * G_GINT64_CONSTANT (1000000000);
#ifdef __linux__
  *mtime_ns += st->st_mtim.tv_nsec;
#endif
  return TRUE;
}

gboolean
bl_mesh_cache_peek (const char  *path,
                    BlVec3       scale,
                    const char  *submesh,
                    gboolean     center,
                    BlMesh     **mesh,
                    GError     **error)
{
  GStatBuf st;
  gint64 mtime_ns;
  g_autofree char *key = NULL;
  const GError *failure;
  gboolean known = FALSE;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (mesh != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *mesh = NULL;
  if (!stat_file (path, &st, &mtime_ns, error))
    return TRUE;   /* what a lookup answers at once */
  key = cache_key (path, mtime_ns, st.st_size, scale, submesh, center);

  g_mutex_lock (&cache_lock);
  if (mesh_cache != NULL && (*mesh = g_hash_table_lookup (mesh_cache, key)) != NULL)
    {
      bl_mesh_ref (*mesh);
      known = TRUE;
    }
  else if (failure_cache != NULL && (failure = g_hash_table_lookup (failure_cache, key)) != NULL)
    {
      g_set_error_literal (error, failure->domain, failure->code, failure->message);
      known = TRUE;
    }
  g_mutex_unlock (&cache_lock);
  return known;
}

BlMesh *
bl_mesh_cache_lookup (const char  *path,
                      BlVec3       scale,
                      const char  *submesh,
                      gboolean     center,
                      GError     **error)
{
  GStatBuf st;
  gint64 mtime_ns;
  g_autofree char *key = NULL;
  char *prefixes[2];
  BlMesh *mesh;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!stat_file (path, &st, &mtime_ns, error))
    return NULL;

  key = cache_key (path, mtime_ns, st.st_size, scale, submesh, center);

  g_mutex_lock (&cache_lock);
  if (mesh_cache == NULL)
    mesh_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) bl_mesh_unref);
  if (failure_cache == NULL)
    failure_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) g_error_free);
  mesh = g_hash_table_lookup (mesh_cache, key);
  if (mesh != NULL)
    {
      bl_mesh_ref (mesh);
      g_mutex_unlock (&cache_lock);
      return mesh;
    }
  {
    const GError *failure = g_hash_table_lookup (failure_cache, key);

    if (failure != NULL)
      {
        g_set_error_literal (error, failure->domain, failure->code, failure->message);
        g_mutex_unlock (&cache_lock);
        return NULL;
      }
  }

  /* Whatever was cached for an older version of this file is stale. */
  prefixes[0] = g_strdup_printf ("%s\n", path);
  prefixes[1] = g_strdup_printf ("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT "\n",
                                 path, mtime_ns, (gint64) st.st_size);
  g_hash_table_foreach_remove (mesh_cache, is_stale_entry, prefixes);
  g_hash_table_foreach_remove (failure_cache, is_stale_entry, prefixes);
  g_mutex_unlock (&cache_lock);
  g_free (prefixes[0]);
  g_free (prefixes[1]);

  {
    g_autoptr(GError) local_error = NULL;

    mesh = bl_mesh_new_from_file (path, scale, submesh, center, &local_error);
    if (mesh == NULL)
      {
        g_mutex_lock (&cache_lock);
        g_hash_table_replace (failure_cache, g_steal_pointer (&key), g_error_copy (local_error));
        g_mutex_unlock (&cache_lock);
        g_propagate_error (error, g_steal_pointer (&local_error));
        return NULL;
      }
  }
  mesh->unscaled_key = cache_key (path, mtime_ns, st.st_size, bl_vec3 (1, 1, 1), submesh, center);
  mesh->scale = scale;

  g_mutex_lock (&cache_lock);
  g_hash_table_insert (mesh_cache, g_steal_pointer (&key), bl_mesh_ref (mesh));
  g_mutex_unlock (&cache_lock);
  return mesh;
}

void
bl_mesh_cache_clear (void)
{
  g_mutex_lock (&cache_lock);
  if (mesh_cache != NULL)
    g_hash_table_remove_all (mesh_cache);
  if (failure_cache != NULL)
    g_hash_table_remove_all (failure_cache);
  g_mutex_unlock (&cache_lock);
}

void
bl_mesh_cache_forget_failures (void)
{
  g_mutex_lock (&cache_lock);
  if (failure_cache != NULL)
    g_hash_table_remove_all (failure_cache);
  g_mutex_unlock (&cache_lock);
}

guint
bl_mesh_cache_size (void)
{
  guint size;

  g_mutex_lock (&cache_lock);
  size = mesh_cache != NULL ? g_hash_table_size (mesh_cache) : 0;
  g_mutex_unlock (&cache_lock);
  return size;
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
  return g_array_index (mesh->submeshes, Submesh, submesh).name;
}

const double *
bl_mesh_get_submesh_vertices (BlMesh *mesh,
                              guint   submesh,
                              guint  *n_vertices)
{
  const Submesh *s;

  g_return_val_if_fail (mesh != NULL, NULL);
  g_return_val_if_fail (submesh < mesh->submeshes->len, NULL);

  s = &g_array_index (mesh->submeshes, Submesh, submesh);
  if (n_vertices != NULL)
    *n_vertices = s->n_vertices;
  return s->vertices;
}

const guint32 *
bl_mesh_get_submesh_indices (BlMesh *mesh,
                             guint   submesh,
                             guint  *n_triangles)
{
  const Submesh *s;

  g_return_val_if_fail (mesh != NULL, NULL);
  g_return_val_if_fail (submesh < mesh->submeshes->len, NULL);

  s = &g_array_index (mesh->submeshes, Submesh, submesh);
  if (n_triangles != NULL)
    *n_triangles = s->n_triangles;
  return s->indices;
}

/* ---------------------------------------------------------------------- */
/* Integration (Eberly, "Polyhedral Mass Properties (Revisited)")           */

/* Accumulates one triangle's unscaled terms, in the order
 * 1, x, y, z, x², y², z², xy, yz, zx. */
static inline void
integrate_one (const double a[3],
               const double b[3],
               const double c[3],
               double       acc[BL_MESH_N_MOMENTS])
{
  double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  double n[3] = {
    e1[1] * e2[2] - e1[2] * e2[1],
    e1[2] * e2[0] - e1[0] * e2[2],
    e1[0] * e2[1] - e1[1] * e2[0],
  };
  double f1[3], f2[3], f3[3], g0[3], g1[3], g2[3];

  for (int k = 0; k < 3; k++)
    {
      double w0 = a[k], w1 = b[k], w2 = c[k];
      double t0 = w0 + w1;
      double t1 = w0 * w0;
      double t2 = t1 + w1 * t0;

      f1[k] = t0 + w2;
      f2[k] = t2 + w2 * f1[k];
      f3[k] = w0 * t1 + w1 * t2 + w2 * f2[k];
      g0[k] = f2[k] + w0 * (f1[k] + w0);
      g1[k] = f2[k] + w1 * (f1[k] + w1);
      g2[k] = f2[k] + w2 * (f1[k] + w2);
    }

  acc[0] += n[0] * f1[0];
  acc[1] += n[0] * f2[0];
  acc[2] += n[1] * f2[1];
  acc[3] += n[2] * f2[2];
  acc[4] += n[0] * f3[0];
  acc[5] += n[1] * f3[1];
  acc[6] += n[2] * f3[2];
  acc[7] += n[0] * (a[1] * g0[0] + b[1] * g1[0] + c[1] * g2[0]);
  acc[8] += n[1] * (a[2] * g0[1] + b[2] * g1[1] + c[2] * g2[1]);
  acc[9] += n[2] * (a[0] * g0[2] + b[0] * g1[2] + c[0] * g2[2]);
}

static void
scale_moments (double acc[BL_MESH_N_MOMENTS])
{
  acc[0] /= 6.0;
  for (int i = 1; i <= 3; i++)
    acc[i] /= 24.0;
  for (int i = 4; i <= 6; i++)
    acc[i] /= 60.0;
  for (int i = 7; i <= 9; i++)
    acc[i] /= 120.0;
}

/* The bulk integrator: triangles are gathered LANES at a time into
 * structure-of-arrays blocks so that the arithmetic runs in SIMD lanes
 * (each lane keeps its own sums; they are added at the end). */
#define LANES 8

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define BL_VECTORIZE __attribute__ ((optimize ("O3", "tree-vectorize"), target_clones ("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
#define BL_VECTORIZE __attribute__ ((optimize ("O3", "tree-vectorize")))
#else
#define BL_VECTORIZE
#endif

BL_VECTORIZE static void
integrate_range (const double  *vertices,
                 const guint32 *indices,
                 gsize          first,
                 gsize          last,
                 const double   ref[3],
                 double         acc[BL_MESH_N_MOMENTS])
{
  double lane[BL_MESH_N_MOMENTS][LANES] = { { 0 } };
  double sum[BL_MESH_N_MOMENTS] = { 0 };
  double rx = ref[0], ry = ref[1], rz = ref[2];
  gsize t = first;

  for (; t + LANES <= last; t += LANES)
    {
      double x0[LANES], y0[LANES], z0[LANES];
      double x1[LANES], y1[LANES], z1[LANES];
      double x2[LANES], y2[LANES], z2[LANES];

      for (int l = 0; l < LANES; l++)
        {
          const guint32 *tri = &indices[3 * (t + l)];
          const double *a = &vertices[3 * (gsize) tri[0]];
          const double *b = &vertices[3 * (gsize) tri[1]];
          const double *c = &vertices[3 * (gsize) tri[2]];

          x0[l] = a[0] - rx; y0[l] = a[1] - ry; z0[l] = a[2] - rz;
          x1[l] = b[0] - rx; y1[l] = b[1] - ry; z1[l] = b[2] - rz;
          x2[l] = c[0] - rx; y2[l] = c[1] - ry; z2[l] = c[2] - rz;
        }

      for (int l = 0; l < LANES; l++)
        {
          double e1x = x1[l] - x0[l], e1y = y1[l] - y0[l], e1z = z1[l] - z0[l];
          double e2x = x2[l] - x0[l], e2y = y2[l] - y0[l], e2z = z2[l] - z0[l];
          double nx = e1y * e2z - e1z * e2y;
          double ny = e1z * e2x - e1x * e2z;
          double nz = e1x * e2y - e1y * e2x;
          /* x */
          double tx0 = x0[l] + x1[l], tx1 = x0[l] * x0[l], tx2 = tx1 + x1[l] * tx0;
          double f1x = tx0 + x2[l], f2x = tx2 + x2[l] * f1x;
          double f3x = x0[l] * tx1 + x1[l] * tx2 + x2[l] * f2x;
          double g0x = f2x + x0[l] * (f1x + x0[l]);
          double g1x = f2x + x1[l] * (f1x + x1[l]);
          double g2x = f2x + x2[l] * (f1x + x2[l]);
          /* y */
          double ty0 = y0[l] + y1[l], ty1 = y0[l] * y0[l], ty2 = ty1 + y1[l] * ty0;
          double f1y = ty0 + y2[l], f2y = ty2 + y2[l] * f1y;
          double f3y = y0[l] * ty1 + y1[l] * ty2 + y2[l] * f2y;
          double g0y = f2y + y0[l] * (f1y + y0[l]);
          double g1y = f2y + y1[l] * (f1y + y1[l]);
          double g2y = f2y + y2[l] * (f1y + y2[l]);
          /* z */
          double tz0 = z0[l] + z1[l], tz1 = z0[l] * z0[l], tz2 = tz1 + z1[l] * tz0;
          double f1z = tz0 + z2[l], f2z = tz2 + z2[l] * f1z;
          double f3z = z0[l] * tz1 + z1[l] * tz2 + z2[l] * f2z;
          double g0z = f2z + z0[l] * (f1z + z0[l]);
          double g1z = f2z + z1[l] * (f1z + z1[l]);
          double g2z = f2z + z2[l] * (f1z + z2[l]);

          lane[0][l] += nx * f1x;
          lane[1][l] += nx * f2x;
          lane[2][l] += ny * f2y;
          lane[3][l] += nz * f2z;
          lane[4][l] += nx * f3x;
          lane[5][l] += ny * f3y;
          lane[6][l] += nz * f3z;
          lane[7][l] += nx * (y0[l] * g0x + y1[l] * g1x + y2[l] * g2x);
          lane[8][l] += ny * (z0[l] * g0y + z1[l] * g1y + z2[l] * g2y);
          lane[9][l] += nz * (x0[l] * g0z + x1[l] * g1z + x2[l] * g2z);
        }
    }

  for (; t < last; t++)
    {
      const double *pa = &vertices[3 * (gsize) indices[3 * t]];
      const double *pb = &vertices[3 * (gsize) indices[3 * t + 1]];
      const double *pc = &vertices[3 * (gsize) indices[3 * t + 2]];
      double a[3] = { pa[0] - rx, pa[1] - ry, pa[2] - rz };
      double b[3] = { pb[0] - rx, pb[1] - ry, pb[2] - rz };
      double c[3] = { pc[0] - rx, pc[1] - ry, pc[2] - rz };

      integrate_one (a, b, c, sum);
    }

  for (int k = 0; k < BL_MESH_N_MOMENTS; k++)
    {
      for (int l = 0; l < LANES; l++)
        sum[k] += lane[k][l];
      acc[k] += sum[k];
    }
}

typedef struct
{
  const double  *vertices;
  const guint32 *indices;
  gsize          first;
  gsize          last;
  const double  *ref;
  double         acc[BL_MESH_N_MOMENTS];
} IntegrateJob;

static gpointer
integrate_job_run (gpointer data)
{
  IntegrateJob *job = data;

  integrate_range (job->vertices, job->indices, job->first, job->last, job->ref, job->acc);
  return NULL;
}

/* How many pieces bl_mesh_integrate_moments splits N_TRIANGLES into. */
static guint
integrate_pieces (gsize n_triangles)
{
  return n_triangles >= PARALLEL_THRESHOLD ? CLAMP (g_get_num_processors (), 1, 16) : 1;
}

/* The moments of the triangles, summed piece by piece as
 * bl_mesh_integrate_moments does (so bit for bit the same result); the
 * pieces run in threads when THREADED. */
static void
integrate_moments (const double  *vertices,
                   const guint32 *indices,
                   gsize          n_triangles,
                   const double   ref[3],
                   gboolean       threaded,
                   double         moments[BL_MESH_N_MOMENTS])
{
  guint n_pieces = integrate_pieces (n_triangles);
  gint64 start = g_get_monotonic_time ();
  IntegrateJob jobs[16];
  GThread *threads[16] = { NULL };

  memset (moments, 0, BL_MESH_N_MOMENTS * sizeof (double));

  if (n_pieces == 1)
    {
      integrate_range (vertices, indices, 0, n_triangles, ref, moments);
    }
  else
    {
      for (guint i = 0; i < n_pieces; i++)
        {
          jobs[i] = (IntegrateJob) {
            vertices, indices,
            n_triangles * i / n_pieces, n_triangles * (i + 1) / n_pieces,
            ref, { 0 }
          };
        }
      for (guint i = 1; i < n_pieces; i++)
        {
          if (threaded)
            threads[i] = g_thread_new ("bl-mesh-integrate", integrate_job_run, &jobs[i]);
          else
            integrate_job_run (&jobs[i]);
        }
      integrate_job_run (&jobs[0]);
      for (guint i = 1; i < n_pieces; i++)
        if (threads[i] != NULL)
          g_thread_join (threads[i]);
      for (guint i = 0; i < n_pieces; i++)
        for (int k = 0; k < BL_MESH_N_MOMENTS; k++)
          moments[k] += jobs[i].acc[k];
    }

  scale_moments (moments);
  timings.integrate += seconds_between (start, g_get_monotonic_time ());
}

void
bl_mesh_integrate_moments (const double  *vertices,
                           const guint32 *indices,
                           gsize          n_triangles,
                           const double   ref[3],
                           double         moments[BL_MESH_N_MOMENTS])
{
  integrate_moments (vertices, indices, n_triangles, ref, TRUE, moments);
}

/* Volume, centroid and central tensor (unit density) from moments taken
 * about REF.  FALSE when the volume is zero. */
static gboolean
moments_to_props (const double  m[BL_MESH_N_MOMENTS],
                  const double  ref[3],
                  double       *volume,
                  BlVec3       *centroid,
                  BlMat3       *inertia)
{
  double v = m[0];
  double cx, cy, cz;
  double ixx, iyy, izz, ixy, iyz, ixz;

  if (v == 0.0 || !isfinite (v))
    {
      *volume = 0.0;
      *centroid = bl_vec3 (ref[0], ref[1], ref[2]);
      memset (inertia, 0, sizeof *inertia);
      return FALSE;
    }

  cx = m[1] / v;
  cy = m[2] / v;
  cz = m[3] / v;
  ixx = m[5] + m[6] - v * (cy * cy + cz * cz);
  iyy = m[6] + m[4] - v * (cz * cz + cx * cx);
  izz = m[4] + m[5] - v * (cx * cx + cy * cy);
  ixy = -(m[7] - v * cx * cy);
  iyz = -(m[8] - v * cy * cz);
  ixz = -(m[9] - v * cz * cx);

  *volume = v;
  *centroid = bl_vec3 (cx + ref[0], cy + ref[1], cz + ref[2]);
  *inertia = (BlMat3) { {
    { ixx, ixy, ixz },
    { ixy, iyy, iyz },
    { ixz, iyz, izz },
  } };
  return TRUE;
}

/* ---------------------------------------------------------------------- */
/* Health                                                                   */

typedef struct
{
  guint64 key;   /* lo << 32 | hi, lo < hi */
  guint32 uses;
  guint32 forward;  /* uses that go lo → hi */
} EdgeSlot;

typedef struct
{
  guint  boundary_edges;
  guint  n_holes;
  guint  non_manifold_edges;
  guint  inconsistent_edges;
  guint  duplicate_triangles;
  guint  degenerate_triangles;
  gboolean is_cycle;   /* every edge crossed as often each way: the result is translation invariant */
  double cap_moments[BL_MESH_N_MOMENTS];   /* flat caps over the holes */
  double cap_area;                         /* of those caps, m² */
  double dup_volume;                       /* same-winding duplicates' share */
} Health;

static guint32
uf_find (GHashTable *parent,
         guint32     v)
{
  for (;;)
    {
      gpointer p;

      if (!g_hash_table_lookup_extended (parent, GUINT_TO_POINTER (v), NULL, &p))
        {
          g_hash_table_insert (parent, GUINT_TO_POINTER (v), GUINT_TO_POINTER (v));
          return v;
        }
      if (GPOINTER_TO_UINT (p) == v)
        return v;
      /* path halving */
      {
        gpointer gp = g_hash_table_lookup (parent, p);

        g_hash_table_insert (parent, GUINT_TO_POINTER (v), gp);
        v = GPOINTER_TO_UINT (gp);
      }
    }
}

typedef struct
{
  double sum[3];
  guint  count;
} LoopCentre;

/* Caps each boundary loop with a fan from the mean of its vertices, so
 * that the moments of the open surface plus these give a closed one:
 * the fan's point moves with the mesh, so the closed solid's volume,
 * centroid and inertia do not depend on where the mesh sits. */
static void
cap_holes (const double   *vertices,
           const EdgeSlot *edges,
           gsize           n_slots,
           const double    ref[3],
           Health         *h)
{
  g_autoptr(GHashTable) parent = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) centres = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (gsize i = 0; i < n_slots; i++)
    {
      if (edges[i].key == EMPTY64 || edges[i].uses != 1)
        continue;

      {
        guint32 a = uf_find (parent, (guint32) (edges[i].key >> 32));
        guint32 b = uf_find (parent, (guint32) edges[i].key);

        if (a != b)
          g_hash_table_insert (parent, GUINT_TO_POINTER (a), GUINT_TO_POINTER (b));
      }
    }

  for (gsize i = 0; i < n_slots; i++)
    {
      if (edges[i].key == EMPTY64 || edges[i].uses != 1)
        continue;

      for (int end = 0; end < 2; end++)
        {
          guint32 v = end == 0 ? (guint32) (edges[i].key >> 32) : (guint32) edges[i].key;
          guint32 root = uf_find (parent, v);
          LoopCentre *c = g_hash_table_lookup (centres, GUINT_TO_POINTER (root));

          if (c == NULL)
            {
              c = g_new0 (LoopCentre, 1);
              g_hash_table_insert (centres, GUINT_TO_POINTER (root), c);
            }
          /* each loop vertex is met twice (once per edge end); the mean is the same */
          for (int k = 0; k < 3; k++)
            c->sum[k] += vertices[3 * (gsize) v + k] - ref[k];
          c->count++;
        }
    }

  h->n_holes = g_hash_table_size (centres);

  for (gsize i = 0; i < n_slots; i++)
    {
      guint32 lo, hi, from, to;
      const LoopCentre *c;
      double p[3], a[3], b[3];

      if (edges[i].key == EMPTY64 || edges[i].uses != 1)
        continue;

      lo = (guint32) (edges[i].key >> 32);
      hi = (guint32) edges[i].key;
      from = edges[i].forward ? lo : hi;
      to = edges[i].forward ? hi : lo;
      c = g_hash_table_lookup (centres, GUINT_TO_POINTER (uf_find (parent, lo)));
      for (int k = 0; k < 3; k++)
        {
          p[k] = c->sum[k] / c->count;
          a[k] = vertices[3 * (gsize) from + k] - ref[k];
          b[k] = vertices[3 * (gsize) to + k] - ref[k];
        }
      /* the open surface runs from → to; the cap runs to → from */
      integrate_one (b, a, p, h->cap_moments);
      {
        double u[3] = { a[0] - p[0], a[1] - p[1], a[2] - p[2] };
        double w[3] = { b[0] - p[0], b[1] - p[1], b[2] - p[2] };
        double n[3] = { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] };

        h->cap_area += 0.5 * sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      }
    }

  scale_moments (h->cap_moments);
}

static inline double
tet_volume (const double *vertices,
            const guint32 *t,
            const double   ref[3])
{
  double a[3], b[3], c[3];

  for (int k = 0; k < 3; k++)
    {
      a[k] = vertices[3 * (gsize) t[0] + k] - ref[k];
      b[k] = vertices[3 * (gsize) t[1] + k] - ref[k];
      c[k] = vertices[3 * (gsize) t[2] + k] - ref[k];
    }

  return (a[0] * (b[1] * c[2] - b[2] * c[1])
          - a[1] * (b[0] * c[2] - b[2] * c[0])
          + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0;
}

static gboolean
is_zero_area (const double  *vertices,
              const guint32 *t)
{
  const double *a = &vertices[3 * (gsize) t[0]];
  const double *b = &vertices[3 * (gsize) t[1]];
  const double *c = &vertices[3 * (gsize) t[2]];
  double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };

  return e1[1] * e2[2] - e1[2] * e2[1] == 0.0
      && e1[2] * e2[0] - e1[0] * e2[2] == 0.0
      && e1[0] * e2[1] - e1[1] * e2[0] == 0.0;
}

/* One triangle in its lowest vertex's bucket: the other two, sorted, and
 * whether sorting reversed its turn. */
typedef struct
{
  guint32 s1;
  guint32 s2;
  guint32 t;
  guint32 parity;
} TriEntry;

static void
sort_u64 (guint64 *a,
          gsize    n)
{
  for (gsize i = 1; i < n; i++)
    {
      guint64 x = a[i];
      gsize j = i;

      for (; j > 0 && a[j - 1] > x; j--)
        a[j] = a[j - 1];
      a[j] = x;
    }
}

static int
compare_u64 (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static int
compare_tri_entry (gconstpointer a,
                   gconstpointer b)
{
  const TriEntry *x = a, *y = b;

  if (x->s1 != y->s1)
    return x->s1 < y->s1 ? -1 : 1;
  if (x->s2 != y->s2)
    return x->s2 < y->s2 ? -1 : 1;
  return x->t < y->t ? -1 : x->t > y->t;
}

/* Counting sort's offsets: COUNT[v + 1] holds the entries of v on entry;
 * on return COUNT[v] is where v's entries start. */
static void
prefix_sum (guint32 *count,
            gsize    n)
{
  for (gsize v = 1; v <= n; v++)
    count[v] += count[v - 1];
}

/* Same-winding duplicates found in bucket order are summed in triangle
 * order, as a single pass over the triangles would. */
static void
add_duplicate (Health         *h,
               guint8        **same,
               gsize           n_triangles,
               const TriEntry *first,
               const TriEntry *dup)
{
  h->duplicate_triangles++;
  if (dup->parity != first->parity)
    return;
  if (*same == NULL)
    *same = g_new0 (guint8, n_triangles);
  (*same)[dup->t] = 1;
}

/* The health analysis's large arrays (tens of MB for a million triangles)
 * are written all over: on huge pages, filled at once, where the system
 * has them (a 4 KiB page fault per 4 KiB costs more than the work).
 * Small ones come from the heap.  *MAPPED is 0 for those. */
#define BIG_ARRAY_BYTES ((gsize) 2 * 1024 * 1024)

static gpointer
big_alloc0 (gsize  bytes,
            gsize *mapped)
{
  if (bytes >= BIG_ARRAY_BYTES)
    {
      gsize size = bytes;
      gpointer memory = bl_mesh_huge_alloc (&size, TRUE);

      if (memory != NULL)
        {
          *mapped = size;
          return memory;
        }
    }
  *mapped = 0;
  return g_malloc0 (MAX (bytes, 1));
}

static void
big_free (gpointer memory,
          gsize    mapped)
{
  if (mapped != 0)
    bl_mesh_huge_free (memory, mapped);
  else
    g_free (memory);
}

/* The inputs of both halves of the health analysis. */
typedef struct
{
  const guint32 *indices;
  gsize          n_triangles;
  guint32        n_vertices;
  const guint8  *degenerate;   /* per triangle */
  gsize          n_kept;       /* triangles not degenerate */
} HealthInput;

/* Moments about REF that compute_mesh_props will need anyway, integrated
 * while the other thread looks at the edges. */
typedef struct
{
  const double *vertices;
  const double *ref;
  gboolean      done;
  double        moments[BL_MESH_N_MOMENTS];
} SideMoments;

/* What the edge half finds. */
typedef struct
{
  guint     boundary_edges;
  guint     non_manifold_edges;
  guint     inconsistent_edges;
  gboolean  is_cycle;
  GArray   *boundary;   /* EdgeSlot */
} EdgeHealth;

typedef struct
{
  const HealthInput *in;
  EdgeHealth        *out;
} EdgeJob;

/* Edges, each in the bucket of its lower vertex: how many triangles use
 * each, and which way. */
static void
analyse_edges (const HealthInput *in,
               EdgeHealth        *eh)
{
  const guint32 *indices = in->indices;
  guint32 n_vertices = in->n_vertices;
  gsize n_edges = 3 * in->n_kept;
  gsize offset_mapped, edges_mapped;
  guint32 *offset = big_alloc0 (((gsize) n_vertices + 1) * sizeof (guint32), &offset_mapped);
  guint64 *edges;

  /* edges, bucketed by their lower vertex: (higher << 1) | runs lo → hi */
  for (gsize t = 0; t < in->n_triangles; t++)
    if (!in->degenerate[t])
      for (int e = 0; e < 3; e++)
        offset[MIN (indices[3 * t + e], indices[3 * t + (e + 1) % 3]) + 1]++;
  prefix_sum (offset, n_vertices);
  edges = big_alloc0 (n_edges * sizeof (guint64), &edges_mapped);
  for (gsize t = 0; t < in->n_triangles; t++)
    if (!in->degenerate[t])
      for (int e = 0; e < 3; e++)
        {
          guint32 from = indices[3 * t + e], to = indices[3 * t + (e + 1) % 3];
          guint32 lo = MIN (from, to), hi = MAX (from, to);

          edges[offset[lo]++] = (guint64) hi << 1 | (from == lo);
        }

  /* offset[v] is now where v + 1's edges start */
  eh->is_cycle = TRUE;
  for (guint32 lo = 0; lo < n_vertices; lo++)
    {
      gsize first = lo == 0 ? 0 : offset[lo - 1], last = offset[lo];
      guint64 *bucket = &edges[first];
      gsize n = last - first;

      if (n > 32)
        qsort (bucket, n, sizeof (guint64), compare_u64);
      else
        sort_u64 (bucket, n);

      for (gsize i = 0; i < n;)
        {
          guint64 hi = bucket[i] >> 1;
          guint32 uses = 0, forward = 0;

          for (; i < n && bucket[i] >> 1 == hi; i++)
            {
              uses++;
              forward += bucket[i] & 1;
            }

          if (uses != 2 * forward)
            eh->is_cycle = FALSE;
          if (uses == 1)
            {
              EdgeSlot slot = { (guint64) lo << 32 | hi, 1, forward };

              eh->boundary_edges++;
              g_array_append_val (eh->boundary, slot);
            }
          else if (uses > 2)
            eh->non_manifold_edges++;
          else if (forward != 1)
            eh->inconsistent_edges++;
        }
    }

  big_free (edges, edges_mapped);
  big_free (offset, offset_mapped);
}

static gpointer
edge_job_run (gpointer data)
{
  EdgeJob *job = data;

  analyse_edges (job->in, job->out);
  return NULL;
}

/* Triangles, each in the bucket of its lowest vertex, in triangle order:
 * those that repeat an earlier one's vertices.  *SAME (allocated when
 * needed) marks the repeats wound the same way. */
static void
analyse_triangles (const HealthInput  *in,
                   Health             *h,
                   guint8            **same)
{
  const guint32 *indices = in->indices;
  guint32 n_vertices = in->n_vertices;
  gsize n_triangles = in->n_triangles;
  gsize offset_mapped, tris_mapped;
  guint32 *offset = big_alloc0 (((gsize) n_vertices + 1) * sizeof (guint32), &offset_mapped);
  TriEntry *tris;

  for (gsize t = 0; t < n_triangles; t++)
    if (!in->degenerate[t])
      {
        const guint32 *v = &indices[3 * t];

        offset[MIN (MIN (v[0], v[1]), v[2]) + 1]++;
      }
  prefix_sum (offset, n_vertices);
  tris = big_alloc0 (in->n_kept * sizeof (TriEntry), &tris_mapped);
  for (gsize t = 0; t < n_triangles; t++)
    if (!in->degenerate[t])
      {
        guint32 s[3];
        guint32 parity = 0;

        /* sort the three indices, tracking the permutation's parity */
        memcpy (s, &indices[3 * t], sizeof s);
        if (s[0] > s[1]) { guint32 x = s[0]; s[0] = s[1]; s[1] = x; parity ^= 1; }
        if (s[1] > s[2]) { guint32 x = s[1]; s[1] = s[2]; s[2] = x; parity ^= 1; }
        if (s[0] > s[1]) { guint32 x = s[0]; s[0] = s[1]; s[1] = x; parity ^= 1; }
        tris[offset[s[0]]++] = (TriEntry) { s[1], s[2], (guint32) t, parity };
      }

  for (guint32 v = 0; v < n_vertices; v++)
    {
      gsize first = v == 0 ? 0 : offset[v - 1], last = offset[v];
      TriEntry *bucket = &tris[first];
      gsize n = last - first;

      if (n > 32)
        {
          /* runs of the same triangle; the first of each is the earliest */
          qsort (bucket, n, sizeof (TriEntry), compare_tri_entry);
          for (gsize i = 1, run = 0; i < n; i++)
            {
              if (bucket[i].s1 == bucket[run].s1 && bucket[i].s2 == bucket[run].s2)
                add_duplicate (h, same, n_triangles, &bucket[run], &bucket[i]);
              else
                run = i;
            }
          continue;
        }

      for (gsize i = 1; i < n; i++)
        for (gsize j = 0; j < i; j++)
          if (bucket[j].s1 == bucket[i].s1 && bucket[j].s2 == bucket[i].s2)
            {
              add_duplicate (h, same, n_triangles, &bucket[j], &bucket[i]);
              break;
            }
    }

  big_free (tris, tris_mapped);
  big_free (offset, offset_mapped);
}

/* Degenerate triangles FIRST…LAST−1 marked, and the highest vertex used. */
typedef struct
{
  const double  *vertices;
  const guint32 *indices;
  gsize          first;
  gsize          last;
  guint8        *degenerate;
  guint32        n_vertices;   /* the highest vertex + 1 */
  guint          n_degenerate;
} DegenerateJob;

static gpointer
degenerate_job_run (gpointer data)
{
  DegenerateJob *job = data;

  for (gsize t = job->first; t < job->last; t++)
    {
      const guint32 *v = &job->indices[3 * t];

      job->n_vertices = MAX (job->n_vertices, MAX (MAX (v[0], v[1]), v[2]) + 1);
      job->degenerate[t] = v[0] == v[1] || v[1] == v[2] || v[2] == v[0]
                        || is_zero_area (job->vertices, v);
      job->n_degenerate += job->degenerate[t];
    }
  return NULL;
}

/* Edge and triangle bookkeeping over welded indices, by counting sort:
 * each edge goes to the bucket of its lower vertex, each triangle to the
 * bucket of its lowest; buckets are small and read in order, so the work
 * is a few sequential passes instead of random probes into large tables.
 * The edges and the triangles are independent: for a large mesh they are
 * looked at in two threads. */
static void
analyse_health_with (const double  *vertices,
                     const guint32 *indices,
                     gsize          n_triangles,
                     const double   ref[3],
                     Health        *h,
                     SideMoments   *side)
{
  gint64 start = g_get_monotonic_time ();
  guint32 n_vertices = 0;
  guint degenerate_triangles = 0;
  g_autofree guint8 *degenerate = g_new (guint8, n_triangles);
  g_autofree guint8 *same = NULL;
  g_autoptr(GArray) boundary = g_array_new (FALSE, FALSE, sizeof (EdgeSlot));
  HealthInput in;
  gboolean threaded = n_triangles >= PARALLEL_THRESHOLD && g_get_num_processors () > 1;
  gint64 side_us = 0;
  EdgeHealth eh = { 0, 0, 0, TRUE, boundary };
  EdgeJob job = { &in, &eh };

  memset (h, 0, sizeof *h);

  /* degenerate triangles contribute nothing, and their edges would only
   * report a crack */
  {
    DegenerateJob halves[2] = {
      { vertices, indices, 0, n_triangles / 2, degenerate, 0, 0 },
      { vertices, indices, n_triangles / 2, n_triangles, degenerate, 0, 0 },
    };

    if (threaded)
      {
        GThread *thread = g_thread_new ("bl-mesh-degenerate", degenerate_job_run, &halves[1]);

        degenerate_job_run (&halves[0]);
        g_thread_join (thread);
      }
    else
      {
        degenerate_job_run (&halves[0]);
        degenerate_job_run (&halves[1]);
      }
    n_vertices = MAX (halves[0].n_vertices, halves[1].n_vertices);
    degenerate_triangles = halves[0].n_degenerate + halves[1].n_degenerate;
  }
  in = (HealthInput) { indices, n_triangles, n_vertices, degenerate, n_triangles - degenerate_triangles };

  if (threaded)
    {
      GThread *edge_thread = g_thread_new ("bl-mesh-edges", edge_job_run, &job);

      analyse_triangles (&in, h, &same);
      /* the edges take longer: integrate meanwhile */
      if (side != NULL)
        {
          gint64 t0 = g_get_monotonic_time ();

          integrate_moments (side->vertices, indices, n_triangles, side->ref, FALSE, side->moments);
          side->done = TRUE;
          side_us = g_get_monotonic_time () - t0;
        }
      g_thread_join (edge_thread);
    }
  else
    {
      analyse_edges (&in, &eh);
      analyse_triangles (&in, h, &same);
    }

  h->degenerate_triangles = degenerate_triangles;
  h->boundary_edges = eh.boundary_edges;
  h->non_manifold_edges = eh.non_manifold_edges;
  h->inconsistent_edges = eh.inconsistent_edges;
  h->is_cycle = eh.is_cycle;

  if (same != NULL)
    for (gsize t = 0; t < n_triangles; t++)
      if (same[t])
        h->dup_volume += tet_volume (vertices, &indices[3 * t], ref);

  if (h->boundary_edges > 0)
    cap_holes (vertices, (const EdgeSlot *) boundary->data, boundary->len, ref, h);
  /* the side integration is counted as integration */
  timings.health += seconds_between (start + side_us, g_get_monotonic_time ());
}

static void
analyse_health (const double  *vertices,
                const guint32 *indices,
                gsize          n_triangles,
                const double   ref[3],
                Health        *h)
{
  analyse_health_with (vertices, indices, n_triangles, ref, h, NULL);
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
health_to_props (const Health     *h,
                 BlMeshProperties *props)
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
warn_health (BlMeshProperties *props,
             const Health     *h,
             double            size)
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

/* Global vertex ids across submeshes, so that the union's health can be
 * checked where submeshes share edges. */
static void
weld_all (BlMesh          *mesh,
          const guint32  **work,
          double         **vertices_out,
          guint32  **indices_out,
          gsize     *n_triangles_out)
{
  gsize nv = 0, nt = 0, vo = 0, to = 0;
  g_autofree double *all = NULL;
  g_autofree guint32 *remap = NULL;
  double *welded;
  guint32 *indices;

  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      const Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);

      nv += s->n_vertices;
      nt += s->n_triangles;
    }

  all = g_new (double, 3 * nv);
  indices = g_new (guint32, 3 * nt);
  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      const Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);

      memcpy (&all[3 * vo], s->vertices, 3 * sizeof (double) * s->n_vertices);
      for (gsize t = 0; t < 3 * (gsize) s->n_triangles; t++)
        indices[to++] = work[i][t] + vo;
      vo += s->n_vertices;
    }

  welded = g_new (double, 3 * nv);
  remap = g_new (guint32, nv);
  weld_positions (all, nv, welded, remap);
  for (gsize t = 0; t < 3 * nt; t++)
    indices[t] = remap[indices[t]];

  *vertices_out = welded;
  *indices_out = indices;
  *n_triangles_out = nt;
}

typedef struct
{
  guint64 key;
  guint32 t[2];
  guint32 uses;
} AdjSlot;

/* Mixed winding: turns the triangles of each edge-connected piece so that
 * every manifold edge is crossed once each way, then turns each piece
 * outward (positive volume about REF).  Returns a new index array. */
static guint32 *
reorient (const double  *vertices,
          const guint32 *indices,
          gsize          n_triangles,
          const double   ref[3])
{
  gsize size = table_size_for (3 * n_triangles / 2 + 1);
  gsize mask = size - 1;
  g_autofree AdjSlot *adj = g_new (AdjSlot, size);
  g_autofree guint32 *component = g_new (guint32, n_triangles);
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) volumes = g_array_new (FALSE, FALSE, sizeof (double));
  guint32 *out = g_memdup2 (indices, 3 * sizeof (guint32) * n_triangles);

  for (gsize i = 0; i < size; i++)
    adj[i].key = EMPTY64;
  memset (component, 0xff, n_triangles * sizeof (guint32));

  for (gsize t = 0; t < n_triangles; t++)
    for (int e = 0; e < 3; e++)
      {
        guint32 a = out[3 * t + e], b = out[3 * t + (e + 1) % 3];
        guint64 key = ((guint64) MIN (a, b) << 32) | MAX (a, b);
        gsize slot;

        if (a == b)
          continue;
        slot = mix64 (key) & mask;
        while (adj[slot].key != EMPTY64 && adj[slot].key != key)
          slot = (slot + 1) & mask;
        if (adj[slot].key == EMPTY64)
          adj[slot] = (AdjSlot) { key, { EMPTY32, EMPTY32 }, 0 };
        if (adj[slot].uses < 2)
          adj[slot].t[adj[slot].uses] = t;
        adj[slot].uses++;
      }

  for (gsize seed = 0; seed < n_triangles; seed++)
    {
      guint32 id = volumes->len;
      double volume = 0.0;

      if (component[seed] != EMPTY32)
        continue;

      component[seed] = id;
      g_array_set_size (queue, 0);
      g_array_append_val (queue, seed);
      for (guint q = 0; q < queue->len; q++)
        {
          guint32 t = g_array_index (queue, guint32, q);

          volume += tet_volume (vertices, &out[3 * t], ref);
          for (int e = 0; e < 3; e++)
            {
              guint32 a = out[3 * t + e], b = out[3 * t + (e + 1) % 3];
              guint64 key = ((guint64) MIN (a, b) << 32) | MAX (a, b);
              gsize slot;
              guint32 other;

              if (a == b)
                continue;
              slot = mix64 (key) & mask;
              while (adj[slot].key != key)
                slot = (slot + 1) & mask;
              if (adj[slot].uses != 2)
                continue;   /* only manifold edges say how to turn */
              other = adj[slot].t[0] == t ? adj[slot].t[1] : adj[slot].t[0];
              if (component[other] != EMPTY32)
                continue;

              /* OTHER must cross the edge b → a; if it crosses a → b, turn it */
              for (int k = 0; k < 3; k++)
                if (out[3 * other + k] == a && out[3 * other + (k + 1) % 3] == b)
                  {
                    guint32 x = out[3 * other + 1];

                    out[3 * other + 1] = out[3 * other + 2];
                    out[3 * other + 2] = x;
                    break;
                  }
              component[other] = id;
              g_array_append_val (queue, other);
            }
        }
      g_array_append_val (volumes, volume);
    }

  for (gsize t = 0; t < n_triangles; t++)
    if (g_array_index (volumes, double, component[t]) < 0.0)
      {
        guint32 x = out[3 * t + 1];

        out[3 * t + 1] = out[3 * t + 2];
        out[3 * t + 2] = x;
      }

  return out;
}

static void
union_health (BlMesh         *mesh,
              const guint32 **work,
              const double    ref[3],
              Health         *h,
              SideMoments    *side)
{
  g_autofree double *vertices = NULL;
  g_autofree guint32 *indices = NULL;
  gsize nt;

  if (mesh->submeshes->len == 1)
    {
      const Submesh *s = &g_array_index (mesh->submeshes, Submesh, 0);

      analyse_health_with (s->vertices, work[0], s->n_triangles, ref, h, side);
      return;
    }

  weld_all (mesh, work, &vertices, &indices, &nt);
  analyse_health (vertices, indices, nt, ref, h);
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
  Health reported;   /* the union as stored */
  Health fixed;      /* the union as integrated (mixed winding repaired) */
  double size = vec3_distance (mesh->max, mesh->min);
  g_autofree const guint32 **work = g_new0 (const guint32 *, n_sub);
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  SideMoments side = { NULL, ref_box, FALSE, { 0 } };

  mesh->submesh_props = g_new0 (BlMeshProperties, n_sub);
  for (guint i = 0; i < n_sub; i++)
    {
      const Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);

      props_init (&mesh->submesh_props[i]);
      work[i] = s->indices;
    }

  /* one submesh: its moments about the box centre, needed below in any
   * case, are integrated during the health check */
  if (n_sub == 1)
    side.vertices = g_array_index (mesh->submeshes, Submesh, 0).vertices;
  union_health (mesh, work, ref_box, &reported, n_sub == 1 ? &side : NULL);
  fixed = reported;

  for (guint i = 0; i < n_sub; i++)
    {
      const Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);
      BlMeshProperties *sp = &mesh->submesh_props[i];
      double m_box[BL_MESH_N_MOMENTS];
      double m_origin[BL_MESH_N_MOMENTS];
      gboolean gz_reversed = s->node_mirrored != mesh->mirrored;
      gboolean about_box;
      Health h;

      if (n_sub == 1)
        h = reported;
      else
        analyse_health (s->vertices, s->indices, s->n_triangles, ref_box, &h);
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
      moments_to_props (m_origin, h.is_cycle ? ref_box : origin,
                        &sp->volume, &sp->centroid, &sp->inertia);
      sp->gz_volume = gz_reversed ? -sp->volume : sp->volume;
      gz_volume += sp->gz_volume;

      if (h.inconsistent_edges > 0)
        {
          guint32 *turned = reorient (s->vertices, s->indices, s->n_triangles, ref_box);

          g_ptr_array_add (owned, turned);
          work[i] = turned;
          any_reoriented = TRUE;
          analyse_health (s->vertices, turned, s->n_triangles, ref_box, &h);
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
    union_health (mesh, work, ref_box, &fixed, NULL);

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
          const Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);
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
  if (!moments_to_props (total, ref, &props->volume, &props->centroid, &props->inertia)
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
    if (g_array_index (mesh->submeshes, Submesh, i).node_mirrored)
      {
        add_warning (props,
                     "Submesh “%s” is placed by a mirroring node transform: Ballast reverses its "
                     "triangles; gz-sim does not and integrates it inside-out.",
                     g_array_index (mesh->submeshes, Submesh, i).name);
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
  PropsSlot *slot;

  for (guint i = 0; i < mesh->submeshes->len; i++)
    n_points += g_array_index (mesh->submeshes, Submesh, i).n_vertices;

  points = g_new (double, 3 * n_points);
  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      const Submesh *s = &g_array_index (mesh->submeshes, Submesh, i);

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
  PropsSlot *slot;

  g_return_val_if_fail (mesh != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  slot = &mesh->slots[convex_hull ? 1 : 0];
  /* A cached mesh can be shared by a document loading in a thread and the
   * open one: its properties are computed once, by one of them. */
  g_mutex_lock (&props_lock);
  if (!slot->computed)
    {
      timings.health = 0.0;
      timings.integrate = 0.0;
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
