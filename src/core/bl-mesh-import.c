/* bl-mesh-import.c: meshes read by assimp (loaded with dlopen) in a
 * forked child process with a time and memory limit, the child's result
 * in a sealed memfd mapped by the parent. */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "bl-display-name.h"
#include "bl-collada-private.h"
#include "bl-file-private.h"
#include "bl-mesh-private.h"
#include "bl-resource.h"

static BlMeshAffine
affine_from_ai (const struct aiMatrix4x4 *a)
{
  return (BlMeshAffine) { {
    { a->a1, a->a2, a->a3, a->a4 },
    { a->b1, a->b2, a->b3, a->b4 },
    { a->c1, a->c2, a->c3, a->c4 },
  } };
}

static BlMeshAffine
affine_mul (const BlMeshAffine *a,
            const BlMeshAffine *b)
{
  BlMeshAffine r;

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
affine_det (const BlMeshAffine *a)
{
  const double (*m)[4] = a->m;

  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
       - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
       + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* gz-common's AssimpLoader keeps the root node's scale and translation but
 * drops its rotation (assimp#849: up-axis conversions), except for glTF. */
static BlMeshAffine
root_transform_without_rotation (const BlMeshAffine *root)
{
  BlMeshAffine r = { { { 0 } } };
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

/* One aiMesh placed by its node's transform: a submesh to be. */
typedef struct
{
  const struct aiNode *node;
  const struct aiMesh *mesh;
  BlMeshAffine         t;
  guint                n_triangles;
} Part;

static void
collect_parts (const struct aiScene *scene,
               const struct aiNode  *node,
               const BlMeshAffine   *t,
               guint                 depth,
               GArray               *parts)
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
      BlMeshAffine local;
      BlMeshAffine child_t;

      if (child == NULL)
        continue;
      local = affine_from_ai (&child->mTransformation);
      child_t = affine_mul (t, &local);
      collect_parts (scene, child, &child_t, depth + 1, parts);
    }
}

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
  collada = bl_mesh_path_has_extension (path, "dae") || (n > 0 && memmem (head, n, "<collada", 8) != NULL);
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
 * REMAP has room for the part's vertices.  A triangle that names a vertex
 * the mesh does not have sets *WHY (when still NULL). */
static gsize
write_part (const Part *part,
            guint8     *out,
            guint32    *remap,
            char      **why)
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
  n_vertices = bl_mesh_weld_points (ai_mesh->mVertices, nv,
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

          if (idx >= nv && *why == NULL)
            *why = g_strdup_printf ("triangle %u of submesh “%s” refers to vertex %u, but the submesh "
                                    "has only %u vertices", t, named->mName.data, idx, nv);
          indices[3 * t + i] = idx < nv ? remap[idx] : 0;
        }
      t++;
    }
  /* a mirroring node transform turns an outward winding inward */
  if (header[2])
    bl_mesh_reverse_winding (indices, t);
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
  BlMeshAffine root;

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
  if (!bl_mesh_path_has_extension (path, "gltf") && !bl_mesh_path_has_extension (path, "glb"))
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
  if (n_triangles > BL_MESH_MAX_TRIANGLES)
    {
      g_free (why);
      why = g_strdup_printf ("its nodes place %" G_GUINT64_FORMAT " triangles, more than the "
                             "%" G_GUINT64_FORMAT " a mesh may hold", n_triangles, BL_MESH_MAX_TRIANGLES);
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
    pos += write_part (&g_array_index (parts, Part, i), base + pos, remap, &why);

  reply->welded = g_get_monotonic_time ();
  if (why != NULL)
    {
      reply->status = 1;
      reply->size = strlen (why);
      return munmap (base, bound) == 0 && ftruncate (memfd, 0) == 0 && write_all (memfd, why, reply->size);
    }
  reply->size = pos;
  return munmap (base, bound) == 0 && ftruncate (memfd, pos) == 0;
}

/* Set by sanitizer runtimes (and libFuzzer through them); absent otherwise. */
extern void __sanitizer_set_death_callback (void (*callback) (void)) __attribute__ ((weak));

static void
close_pair (int fds[2])
{
  for (int i = 0; i < 2; i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

/* The first line the child wrote to its standard error (assimp's
 * assertion, say), cut to 200 characters, or NULL: read once it is gone,
 * from a pipe it could never block on.  Under sanitizers all of it is
 * passed on to ours too, so that a report of the child's own memory
 * errors reaches the test's log. */
static char *
child_said (int errfd)
{
  g_autoptr(GString) text = g_string_new (NULL);
  char buffer[4096];
  gssize n;
  const char *start;
  const char *end;

  if (errfd < 0)
    return NULL;
  while (text->len < 65536 &&
         ((n = read (errfd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR)))
    if (n > 0)
      g_string_append_len (text, buffer, n);
#if defined (__SANITIZE_ADDRESS__) || BL_HAS_ASAN
  if (text->len > 0)
    write_all (STDERR_FILENO, text->str, text->len);
#endif

  for (start = text->str; g_ascii_isspace (*start); start++)
    ;
  end = strchr (start, '\n');
  if (end == NULL)
    end = start + strlen (start);
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  if (end == start)
    return NULL;
  {
    g_autofree char *line = g_strndup (start, end - start);
    g_autofree char *valid = g_utf8_make_valid (line, -1);

    return bl_display_cut (valid, BL_DISPLAY_NAME_MAX);
  }
}

G_GNUC_NORETURN static void
import_child (const char *path,
              int         memfd,
              int         fd,
              int         errfd)
{
  static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
  ImportReply reply = { IMPORT_MAGIC, 0, 0, g_get_monotonic_time (), 0, 0 };
  gboolean ok;

  /* What assimp prints (an assertion before it aborts) is the parent's to
   * report in its message, not stray text on the user's terminal.  The
   * pipe does not block: past its 64 kB the rest is lost. */
  if (errfd >= 0)
    dup2 (errfd, STDERR_FILENO);

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
      BlSubmesh sub = { 0 };
      guint32 h[6];
      gpointer vertices, indices;

      if (!read_u32s (&r, h, 6) ||
          !read_string (&r, h[0], &sub.name) ||
          !read_string (&r, h[1], &sub.mesh_name) ||
          !take_array (&r, 3 * sizeof (double), h[3], &vertices) ||
          !take_array (&r, 3 * sizeof (guint32), h[4], &indices) ||
          !indices_in_range (indices, 3 * (gsize) h[4], h[3]))
        {
          bl_mesh_submesh_clear (&sub);
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

gboolean
bl_mesh_import (BlMesh  *mesh,
                GError **error)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (import_timeout_seconds () * G_USEC_PER_SEC);
  ImportReply reply = { 0 };
  gssize got;
  int fds[2];
  int errfds[2];
  int memfd;
  int status = 0;
  g_autofree char *said = NULL;
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

  if (pipe2 (errfds, O_CLOEXEC | O_NONBLOCK) != 0)
    errfds[0] = errfds[1] = -1;

  memfd = memfd_create ("ballast-mesh", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (memfd < 0 || pipe2 (fds, O_CLOEXEC) != 0)
    {
      int saved = errno;

      if (memfd >= 0)
        close (memfd);
      close_pair (errfds);
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
      close_pair (errfds);
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD,
                   "Cannot load mesh “%s”: %s", mesh->path, g_strerror (saved));
      return FALSE;
    }
  if (pid == 0)
    {
      close (fds[0]);
      import_child (mesh->path, memfd, fds[1], errfds[1]);
    }

  close (fds[1]);
  if (errfds[1] >= 0)
    close (errfds[1]);
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
  said = child_said (errfds[0]);
  if (errfds[0] >= 0)
    close (errfds[0]);

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
                   "Cannot load mesh “%s”: the mesh reader (assimp) %s while reading it%s%s%s; "
                   "the file is probably corrupt", mesh->path,
                   WTERMSIG (status) == SIGKILL ? "ran out of memory" : "crashed",
                   said != NULL ? " (it said “" : "", said != NULL ? said : "", said != NULL ? "”)" : "");
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

  bl_mesh_timings.import = bl_mesh_seconds_between (reply.start, reply.imported);
  bl_mesh_timings.weld = bl_mesh_seconds_between (reply.imported, reply.welded);
  bl_mesh_timings.transfer = bl_mesh_seconds_between (reply.welded, replied) + bl_mesh_seconds_between (reaped, mapped);
  bl_mesh_timings.reap = bl_mesh_seconds_between (replied, reaped);

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
  bl_mesh_timings.checks = bl_mesh_seconds_between (mapped, g_get_monotonic_time ());

  return TRUE;
}
