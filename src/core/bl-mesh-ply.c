/* bl-mesh-ply.c: binary PLY files read in this process, giving exactly what the
 * assimp child of bl-mesh-import.c gives for them.
 *
 * assimp 5.2.5 gives every file whose name ends in “.ply” (any case) to its
 * PLY importer.  Its header parser works line by line on a buffer that keeps
 * stale bytes of earlier lines, and some headers it reads in surprising ways
 * (a comment among properties ends the element's property list, a comment
 * starting with “TextureFile” becomes an element, an unknown type ends a
 * property list).  This reader therefore takes only headers of the plain
 * form, whose meaning for assimp is certain, and DECLINES every other file
 * (ASCII PLY, other elements or lists, odd types, a first data byte of '\n',
 * which assimp drops), which the child then reads as before:
 *
 *   ply
 *   format binary_little_endian 1.0        (or binary_big_endian)
 *   comment …, obj_info …                  (any number; not “comment TextureFile”)
 *   element vertex N                       (N ≥ 1)
 *   property TYPE NAME                     (scalars only; x, y and z once each)
 *   element face M                         (M ≥ 1)
 *   property TYPE NAME                     (scalars, and one list:)
 *   property list COUNT INDEX vertex_indices   (or vertex_index)
 *   end_header
 *
 * every line ending in a single '\n', its words separated by single
 * spaces.  TYPE is any of PLY's scalar types (char, uchar, short, ushort,
 * int, uint, float, double and their int8…float64 names), COUNT and INDEX
 * integer types.
 *
 * What the child makes of such a file, and so what this reproduces bit
 * for bit: one submesh whose node and mesh names are empty; every vertex
 * of the file, x, y and z converted to float as assimp does (ai_real),
 * then widened to double and welded by exact position in file order (the
 * child's own bl_mesh_weld_points, through the same root transform); a
 * face of three indices is a triangle, faces of one or two (points,
 * lines) are left out.  A face of four is cut as assimp's triangulation
 * (aiProcess_Triangulate) cuts it: fanned from its concave corner if it
 * has one (found in float, as assimp finds it), else from its first; and
 * once a file has one, every triangle's corners are rotated as that
 * step's NGON encoding rotates them.  Faces of none or of five or more
 * indices (cut into ears, by a projection) are DECLINED.
 *
 * Refused with a clear message, as the child refuses them: an index past
 * the vertices, and a file that ends before the data its header announces
 * (assimp would read on into the stale bytes of its buffer).  Bytes after
 * the announced data are ignored, as assimp ignores them.
 *
 * The file is read with read(2), not mapped (a mapped file truncated while
 * it is read raises SIGBUS).  Once the vertices are read, a second thread
 * welds them while the calling thread reads the faces. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <assimp/types.h>

#include "bl-file-private.h"
#include "bl-mesh-private.h"

/* a header longer than this is left to assimp */
#define HEADER_MAX   65536
/* bytes per read(2) */
#define READ_SIZE    ((gsize) 1 << 20)
/* below this many vertices one thread does everything */
#define THREAD_THRESHOLD 65536

typedef enum
{
  PLY_CHAR, PLY_UCHAR, PLY_SHORT, PLY_USHORT, PLY_INT, PLY_UINT, PLY_FLOAT, PLY_DOUBLE,
  PLY_INVALID,
} PlyType;

static const guint8 type_size[] = { 1, 1, 2, 2, 4, 4, 4, 8 };

/* The names assimp's PlyParser knows, each word exactly. */
static const struct
{
  const char *name;
  PlyType     type;
} type_names[] = {
  { "char", PLY_CHAR }, { "int8", PLY_CHAR }, { "uchar", PLY_UCHAR }, { "uint8", PLY_UCHAR },
  { "short", PLY_SHORT }, { "int16", PLY_SHORT }, { "ushort", PLY_USHORT }, { "uint16", PLY_USHORT },
  { "int", PLY_INT }, { "int32", PLY_INT }, { "uint", PLY_UINT }, { "uint32", PLY_UINT },
  { "float", PLY_FLOAT }, { "float32", PLY_FLOAT },
  { "double", PLY_DOUBLE }, { "float64", PLY_DOUBLE }, { "double64", PLY_DOUBLE },
};

typedef struct
{
  gboolean big_endian;
  gsize    header_size;    /* bytes up to and including "end_header\n" */
  guint32  n_vertices;
  gsize    vertex_size;    /* bytes of one vertex */
  gsize    xyz_offset[3];
  PlyType  xyz_type[3];
  guint32  n_faces;
  gsize    face_before;    /* bytes of a face's scalars before its list */
  gsize    face_after;     /* and after it */
  PlyType  count_type;
  PlyType  index_type;
} PlyHeader;

static PlyType
parse_type (const char *word)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (strcmp (word, type_names[i].name) == 0)
      return type_names[i].type;
  return PLY_INVALID;
}

/* A count of 1 to 10 digits below 2^32 (assimp's strtoul10 would wrap). */
static gboolean
parse_count (const char *word,
             guint32    *out)
{
  guint64 v = 0;
  gsize n = strlen (word);

  if (n == 0 || n > 10)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit (word[i]))
        return FALSE;
      v = 10 * v + (word[i] - '0');
    }
  if (v > G_MAXUINT32)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
is_integer_type (PlyType t)
{
  return t <= PLY_UINT;
}

/* Whether LINE holds only printable ASCII (assimp's parser treats \r, \f,
 * \0 and tabs specially). */
static gboolean
is_plain_text (const char *line)
{
  for (const char *c = line; *c != '\0'; c++)
    if (*c < 0x20 || *c > 0x7e)
      return FALSE;
  return TRUE;
}

/* LINE split at single spaces into at most MAX words: FALSE for an empty
 * word (two spaces, a leading or trailing space) or more words. */
static gboolean
split_line (char  *line,
            char **words,
            guint  max_words,
            guint *n_words)
{
  guint n = 0;
  char *p = line;

  for (;;)
    {
      char *space = strchr (p, ' ');

      if (n == max_words)
        return FALSE;
      if (space != NULL)
        *space = '\0';
      if (*p == '\0')
        return FALSE;
      words[n++] = p;
      if (space == NULL)
        break;
      p = space + 1;
    }
  *n_words = n;
  return TRUE;
}

/* A line that starts with WORD, alone or before a space. */
static gboolean
starts_with_word (const char *line,
                  const char *word)
{
  gsize n = strlen (word);

  return strncmp (line, word, n) == 0 && (line[n] == '\0' || line[n] == ' ');
}

/* Parses the header in HEAD (N bytes, the file's start): FALSE when it is
 * not of the plain form above. */
static gboolean
parse_header (const guint8 *head,
              gsize         n,
              PlyHeader    *h)
{
  enum { BEFORE_ELEMENTS, IN_VERTEX, IN_FACE } state = BEFORE_ELEMENTS;
  g_autofree char *text = g_malloc (n + 1);
  gboolean have_list = FALSE;
  gboolean have[3] = { FALSE, FALSE, FALSE };
  gsize pos = 0;
  guint line_no = 0;

  memcpy (text, head, n);
  text[n] = '\0';
  memset (h, 0, sizeof *h);
  for (;;)
    {
      char *end = memchr (text + pos, '\n', n - pos);
      char *words[6];
      guint nw;

      if (end == NULL || memchr (text + pos, '\0', end - (text + pos)) != NULL)
        return FALSE;
      *end = '\0';
      line_no++;

      if (!is_plain_text (text + pos))
        return FALSE;
      if (line_no == 1)
        {
          if (strcmp (text + pos, "ply") != 0)
            return FALSE;
        }
      else if (line_no > 2 && state == BEFORE_ELEMENTS && starts_with_word (text + pos, "comment"))
        {
          const char *rest = text + pos + 7;

          /* assimp makes an element of “comment TextureFile …” */
          while (*rest == ' ')
            rest++;
          if (g_str_has_prefix (rest, "TextureFile"))
            return FALSE;
        }
      else if (line_no > 2 && state == BEFORE_ELEMENTS && starts_with_word (text + pos, "obj_info"))
        ;   /* not an element: skipped */
      else if (!split_line (text + pos, words, G_N_ELEMENTS (words), &nw))
        return FALSE;
      else if (line_no == 2)
        {
          if (nw != 3 || strcmp (words[0], "format") != 0 || strcmp (words[2], "1.0") != 0)
            return FALSE;
          if (strcmp (words[1], "binary_little_endian") == 0)
            h->big_endian = FALSE;
          else if (strcmp (words[1], "binary_big_endian") == 0)
            h->big_endian = TRUE;
          else
            return FALSE;
        }
      else if (strcmp (words[0], "element") == 0)
        {
          if (nw != 3)
            return FALSE;
          if (state == BEFORE_ELEMENTS && strcmp (words[1], "vertex") == 0)
            {
              if (!parse_count (words[2], &h->n_vertices) || h->n_vertices == 0)
                return FALSE;
              state = IN_VERTEX;
            }
          else if (state == IN_VERTEX && strcmp (words[1], "face") == 0)
            {
              if (!have[0] || !have[1] || !have[2] ||
                  !parse_count (words[2], &h->n_faces) || h->n_faces == 0)
                return FALSE;
              state = IN_FACE;
            }
          else
            return FALSE;
        }
      else if (strcmp (words[0], "property") == 0 && state != BEFORE_ELEMENTS)
        {
          if (nw == 3)
            {
              PlyType t = parse_type (words[1]);
              const char *name = words[2];
              int axis = strcmp (name, "x") == 0 ? 0 : strcmp (name, "y") == 0 ? 1
                       : strcmp (name, "z") == 0 ? 2 : -1;

              if (t == PLY_INVALID)
                return FALSE;
              if (state == IN_VERTEX)
                {
                  if (axis >= 0)
                    {
                      if (have[axis])
                        return FALSE;
                      have[axis] = TRUE;
                      h->xyz_offset[axis] = h->vertex_size;
                      h->xyz_type[axis] = t;
                    }
                  h->vertex_size += type_size[t];
                }
              else if (strcmp (name, "vertex_indices") == 0 || strcmp (name, "vertex_index") == 0 ||
                       strcmp (name, "texcoord") == 0)
                return FALSE;   /* not a list: assimp's reading of it is not worth following */
              else if (have_list)
                h->face_after += type_size[t];
              else
                h->face_before += type_size[t];
            }
          else if (nw == 5 && strcmp (words[1], "list") == 0 && state == IN_FACE && !have_list &&
                   (strcmp (words[4], "vertex_indices") == 0 || strcmp (words[4], "vertex_index") == 0))
            {
              h->count_type = parse_type (words[2]);
              h->index_type = parse_type (words[3]);
              if (h->count_type == PLY_INVALID || h->index_type == PLY_INVALID ||
                  !is_integer_type (h->count_type) || !is_integer_type (h->index_type))
                return FALSE;
              have_list = TRUE;
            }
          else
            return FALSE;
        }
      else if (strcmp (words[0], "end_header") == 0 && nw == 1 && state == IN_FACE && have_list)
        {
          h->header_size = end + 1 - text;
          return TRUE;
        }
      else
        return FALSE;

      pos = end + 1 - text;
    }
}

/* A file read through a buffer of READ_SIZE bytes. */
typedef struct
{
  int     fd;
  guint8 *buffer;
  gsize   start;      /* the first unread byte in BUFFER */
  gsize   end;        /* one past the last byte read */
  int     read_errno; /* 0: the file ended */
  gint64  read_us;
} PlyInput;

/* Makes at least WANT (≤ READ_SIZE) bytes available from IN->start, or
 * all that is left of the file; returns how many are. */
static gsize
input_fill (PlyInput *in,
            gsize     want)
{
  gsize have = in->end - in->start;
  gint64 t0;
  gssize got;

  if (have >= want)
    return have;
  memmove (in->buffer, in->buffer + in->start, have);
  in->start = 0;
  in->end = have;
  t0 = g_get_monotonic_time ();
  got = bl_mesh_read_full (in->fd, in->buffer + have, READ_SIZE - have);
  in->read_us += g_get_monotonic_time () - t0;
  if (got < 0)
    in->read_errno = errno;
  else
    in->end += got;
  return in->end - in->start;
}

/* The SIZE bytes at P (1, 2, 4 or 8) as an unsigned number. */
static inline guint64
load_bits (const guint8 *p,
           gsize         size,
           gboolean      big_endian)
{
  guint16 v16;
  guint32 v32;
  guint64 v64;

  switch (size)
    {
    case 1:
      return p[0];
    case 2:
      memcpy (&v16, p, 2);
      return big_endian ? GUINT16_FROM_BE (v16) : GUINT16_FROM_LE (v16);
    case 4:
      memcpy (&v32, p, 4);
      return big_endian ? GUINT32_FROM_BE (v32) : GUINT32_FROM_LE (v32);
    default:
      memcpy (&v64, p, 8);
      return big_endian ? GUINT64_FROM_BE (v64) : GUINT64_FROM_LE (v64);
    }
}

static gboolean
is_signed_type (PlyType t)
{
  return t == PLY_CHAR || t == PLY_SHORT || t == PLY_INT;
}

/* An integer as assimp's ConvertTo<unsigned int> gives it: through int32
 * or uint32. */
static inline guint32
read_uint (const guint8 *p,
           PlyType       t,
           gboolean      big_endian)
{
  guint64 bits = load_bits (p, type_size[t], big_endian);

  if (t == PLY_CHAR)
    return (guint32) (gint32) (gint8) bits;
  if (t == PLY_SHORT)
    return (guint32) (gint32) (gint16) bits;
  return (guint32) bits;
}

/* A coordinate as assimp's ConvertTo<ai_real> gives it. */
static inline float
read_coordinate (const guint8 *p,
                 PlyType       t,
                 gboolean      big_endian)
{
  guint64 bits;

  if (is_integer_type (t))
    {
      guint32 u = read_uint (p, t, big_endian);

      return is_signed_type (t) ? (float) (gint32) u : (float) u;
    }
  bits = load_bits (p, type_size[t], big_endian);
  switch (t)
    {
    case PLY_FLOAT:
      {
        guint32 b = bits;
        float f;

        memcpy (&f, &b, 4);
        return f;
      }
    case PLY_DOUBLE:
    default:
      {
        double d;

        memcpy (&d, &bits, 8);
        return (float) d;
      }
    }
}

/* Why the reading stopped early. */
typedef enum
{
  STOP_NONE,
  STOP_SHORT,      /* the file ended (or a read failed) before the data did */
  STOP_RANGE,      /* an index past the vertices */
  STOP_DECLINE,    /* a face assimp would triangulate, or one of no index */
} PlyStop;

typedef struct
{
  PlyStop  stop;
  gboolean in_faces; /* FALSE: among the vertices */
  guint32  face;     /* where it stopped */
  guint32  index;    /* STOP_RANGE: the index */
} PlyProblem;

static gboolean
read_vertices (PlyInput          *in,
               const PlyHeader   *h,
               struct aiVector3D *out,
               PlyProblem        *problem)
{
  gsize size = h->vertex_size;
  guint32 v = 0;

  while (v < h->n_vertices)
    {
      gsize have = input_fill (in, size);
      const guint8 *p = in->buffer + in->start;
      guint32 n = MIN (have / size, (gsize) (h->n_vertices - v));

      if (n == 0)
        {
          problem->stop = STOP_SHORT;
          return FALSE;
        }
      for (guint32 i = 0; i < n; i++, p += size)
        {
          out[v + i].x = read_coordinate (p + h->xyz_offset[0], h->xyz_type[0], h->big_endian);
          out[v + i].y = read_coordinate (p + h->xyz_offset[1], h->xyz_type[1], h->big_endian);
          out[v + i].z = read_coordinate (p + h->xyz_offset[2], h->xyz_type[2], h->big_endian);
        }
      in->start += (gsize) n * size;
      v += n;
    }
  return TRUE;
}

/* assimp's aiVector3D::Normalize, in float. */
static void
normalize (float v[3])
{
  float l = sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  float inv;

  if (l == 0)
    return;
  inv = 1.0f / l;
  for (int k = 0; k < 3; k++)
    v[k] *= inv;
}

static float
dot (const float a[3],
     const float b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The corner from which assimp 5.2.5's triangulation fans the
 * quadrilateral Q: the first whose angles to the two sides, seen from the
 * opposite corner, add up to more than π (a concave corner), else 0.  In
 * float, as assimp computes it. */
static guint
quad_fan_corner (const struct aiVector3D *points,
                 const guint32            q[4])
{
  for (guint i = 0; i < 4; i++)
    {
      const struct aiVector3D *v = &points[q[i]];
      const struct aiVector3D *v0 = &points[q[(i + 3) % 4]];
      const struct aiVector3D *v1 = &points[q[(i + 2) % 4]];
      const struct aiVector3D *v2 = &points[q[(i + 1) % 4]];
      float left[3] = { v0->x - v->x, v0->y - v->y, v0->z - v->z };
      float diag[3] = { v1->x - v->x, v1->y - v->y, v1->z - v->z };
      float right[3] = { v2->x - v->x, v2->y - v->y, v2->z - v->z };
      float angle;

      normalize (left);
      normalize (diag);
      normalize (right);
      angle = acosf (dot (left, diag)) + acosf (dot (right, diag));
      /* AI_MATH_PI_F */
      if (angle > 3.1415926538f)
        return i;
    }
  return 0;
}

static inline gboolean
bit_is_set (const guint8 *bits,
            gsize         i)
{
  return bits != NULL && (bits[i / 8] >> (i % 8) & 1) != 0;
}

/* What assimp's triangulation does to every triangle once a mesh has a
 * polygon (its NGON encoding): a triangle, or a quadrilateral's pair
 * (SECOND marks the pair's second), whose first index is the first index
 * of the one before is rotated to start at its third corner. */
static void
ngon_encode (guint32      *indices,
             guint         n_triangles,
             const guint8 *second)
{
  guint32 last = G_MAXUINT32;

  for (guint t = 0; t < n_triangles; t++)
    {
      guint32 *a = &indices[3 * (gsize) t];
      gboolean pair = t + 1 < n_triangles && bit_is_set (second, t + 1);

      if (a[0] == last)
        {
          guint32 r[6] = { a[2], a[0], a[1], a[4], a[5], a[3] };

          memcpy (a, r, (pair ? 6 : 3) * sizeof (guint32));
        }
      last = a[0];
      if (pair)
        t++;
    }
}

/* Reads the faces: each triangle's file indices to INDICES (room for two
 * triangles a face), checked against the vertex count, a quadrilateral
 * cut in two as assimp cuts it (by POINTS, the file's points); *SECOND
 * (when there are quadrilaterals) marks the second triangle of each;
 * *N_TRIANGLES. */
static gboolean
read_faces (PlyInput                *in,
            const PlyHeader         *h,
            const struct aiVector3D *points,
            guint32                 *indices,
            guint8                 **second,
            guint                   *n_triangles,
            PlyProblem              *problem)
{
  gsize cs = type_size[h->count_type];
  gsize is = type_size[h->index_type];
  /* a face of four indices, the most this reader takes */
  gsize most = h->face_before + cs + 4 * is + h->face_after;
  guint32 nv = h->n_vertices;
  guint t = 0;

  for (guint32 f = 0; f < h->n_faces; f++)
    {
      gsize have = in->end - in->start;
      const guint8 *p;
      guint32 count, q[4];
      gsize size;

      if (have < most)
        have = input_fill (in, most);
      p = in->buffer + in->start;
      problem->in_faces = TRUE;
      problem->face = f;
      if (have < h->face_before + cs)
        goto cut_short;
      count = read_uint (p + h->face_before, h->count_type, h->big_endian);
      if (count == 0 || count > 4)
        {
          problem->stop = STOP_DECLINE;
          return FALSE;
        }
      size = h->face_before + cs + count * is + h->face_after;
      if (have < size)
        goto cut_short;
      in->start += size;
      if (count < 3)
        continue;   /* a point or a line */

      for (guint k = 0; k < count; k++)
        {
          q[k] = read_uint (p + h->face_before + cs + k * is, h->index_type, h->big_endian);
          if (q[k] >= nv)
            {
              problem->stop = STOP_RANGE;
              problem->index = q[k];
              return FALSE;
            }
        }
      if (count == 3)
        {
          memcpy (&indices[3 * (gsize) t], q, 3 * sizeof (guint32));
          t++;
          continue;
        }

      {
        guint s = quad_fan_corner (points, q);
        guint32 *a = &indices[3 * (gsize) t];

        a[0] = q[s];
        a[1] = q[(s + 1) % 4];
        a[2] = q[(s + 2) % 4];
        a[3] = q[s];
        a[4] = q[(s + 2) % 4];
        a[5] = q[(s + 3) % 4];
        if (*second == NULL)
          *second = g_malloc0 (((gsize) 2 * h->n_faces + 7) / 8);
        (*second)[(t + 1) / 8] |= 1 << ((t + 1) % 8);
        t += 2;
      }
      continue;

    cut_short:
      problem->stop = STOP_SHORT;
      return FALSE;
    }
  *n_triangles = t;
  return TRUE;
}

/* The weld, in a second thread for a large file. */
typedef struct
{
  const struct aiVector3D *points;
  guint32                  n;
  double                  *out;
  guint32                 *remap;
  guint                    n_out;
  gint64                   us;
} PlyWeld;

static gpointer
weld_thread (gpointer data)
{
  PlyWeld *w = data;
  gint64 t0 = g_get_monotonic_time ();
  /* what the child applies to a PLY file's points: the root node's
   * transform (the identity) without its rotation, exactly 1 on the
   * diagonal */
  const BlMeshAffine identity = { { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 } } };

  /* indexed points are mostly distinct: the table sized for all of them,
   * as the child sizes it */
  w->n_out = bl_mesh_weld_points (w->points, w->n, w->n, &identity, w->out, w->remap);
  w->us = g_get_monotonic_time () - t0;
  return NULL;
}

BlNativeStatus
bl_ply_read_binary (const char   *path,
                    BlNativeMesh *out,
                    GError      **error)
{
  g_autoptr(GError) open_error = NULL;
  g_autofree struct aiVector3D *points = NULL;
  g_autofree guint32 *remap = NULL;
  g_autofree guint8 *buffer = NULL;
  g_autofree guint8 *second = NULL;
  PlyInput in = { -1 };
  PlyHeader h;
  PlyProblem problem = { STOP_NONE, FALSE, 0, 0 };
  PlyWeld weld = { 0 };
  GThread *welder = NULL;
  char *mapping;
  gsize size, head_n, need, indices_size, mapping_size, used;
  guint n_triangles = 0;
  gboolean ok;
  gint64 start = g_get_monotonic_time ();
  gint64 decode_us = 0, read_before, t0;

  g_return_val_if_fail (path != NULL, BL_NATIVE_FAILED);
  g_return_val_if_fail (out != NULL, BL_NATIVE_FAILED);

  memset (out, 0, sizeof *out);
  if (!bl_mesh_path_has_extension (path, "ply"))
    return BL_NATIVE_DECLINED;

  in.fd = bl_file_open (path, G_MAXSIZE, &size, &open_error);
  if (in.fd < 0)
    return bl_mesh_native_fail (error, path, "%s", open_error->message);

  buffer = g_malloc (READ_SIZE);
  in.buffer = buffer;
  head_n = MIN (input_fill (&in, HEADER_MAX), (gsize) HEADER_MAX);
  if (!parse_header (in.buffer, head_n, &h) ||
      /* assimp drops a first data byte of '\n' (taking it for the end of
       * a "\r\n"), and the data after it shifts */
      (h.header_size < head_n ? in.buffer[h.header_size] == '\n' : size > h.header_size) ||
      /* the child's limits, and its messages, for the very large */
      h.n_vertices > BL_MESH_MAX_TRIANGLES || h.n_faces > BL_MESH_MAX_TRIANGLES)
    {
      close (in.fd);
      return BL_NATIVE_DECLINED;
    }
  in.start = h.header_size;

  /* the least the announced data takes: every face a single index */
  need = (gsize) h.n_vertices * h.vertex_size
       + (gsize) h.n_faces * (h.face_before + type_size[h.count_type] + type_size[h.index_type] + h.face_after);
  if (size - h.header_size < need)
    {
      close (in.fd);
      return bl_mesh_native_fail (error, path, "as a binary PLY, its header announces %u vertices and %u faces, "
                                  "which take at least %" G_GSIZE_FORMAT " bytes after the header, but only %"
                                  G_GSIZE_FORMAT " follow it: the file is cut short", h.n_vertices, h.n_faces,
                                  need, size - h.header_size);
    }

  /* The result in one mapping: the indices (at most two triangles a face,
   * the second's pages touched only by quadrilaterals), then room for
   * every vertex, of which what no vertex took is given back at the end. */
  indices_size = bl_mesh_round_up (24 * (gsize) h.n_faces, 64);
  mapping_size = indices_size + 24 * (gsize) h.n_vertices;
  mapping = bl_mesh_huge_alloc (&mapping_size, FALSE);
  points = g_try_new (struct aiVector3D, h.n_vertices);
  remap = g_try_new (guint32, h.n_vertices);
  if (mapping == NULL || points == NULL || remap == NULL)
    {
      close (in.fd);
      bl_mesh_huge_free (mapping, mapping_size);
      return bl_mesh_native_fail (error, path, "out of memory for %u vertices and %u faces",
                                  h.n_vertices, h.n_faces);
    }
#ifdef MADV_POPULATE_WRITE
  madvise (mapping, MIN (mapping_size, bl_mesh_round_up (12 * (gsize) h.n_faces, BL_MESH_HUGE_PAGE)), MADV_POPULATE_WRITE);
#endif

  t0 = g_get_monotonic_time ();
  read_before = in.read_us;
  ok = read_vertices (&in, &h, points, &problem);
  decode_us += g_get_monotonic_time () - t0 - (in.read_us - read_before);
  if (ok)
    {
      read_before = in.read_us;

      weld = (PlyWeld) { points, h.n_vertices, (double *) (mapping + indices_size), remap, 0, 0 };
      if (h.n_vertices >= THREAD_THRESHOLD && g_get_num_processors () >= 2)
        welder = g_thread_new ("bl-ply-weld", weld_thread, &weld);
      t0 = g_get_monotonic_time ();
      ok = read_faces (&in, &h, points, (guint32 *) mapping, &second, &n_triangles, &problem);
      decode_us += g_get_monotonic_time () - t0 - (in.read_us - read_before);
      if (welder != NULL)
        g_thread_join (welder);
      else if (ok)
        weld_thread (&weld);
    }
  close (in.fd);

  if (!ok)
    {
      bl_mesh_huge_free (mapping, mapping_size);
      switch (problem.stop)
        {
        case STOP_DECLINE:
          return BL_NATIVE_DECLINED;
        case STOP_RANGE:
          return bl_mesh_native_fail (error, path, "face %u refers to vertex %u, but the file has only %u vertices",
                                      problem.face, problem.index, h.n_vertices);
        case STOP_SHORT:
        case STOP_NONE:
        default:
          if (in.read_errno != 0)
            return bl_mesh_native_fail (error, path, "%s", g_strerror (in.read_errno));
          if (!problem.in_faces)
            return bl_mesh_native_fail (error, path, "as a binary PLY, it ends among the %u vertices its header "
                                        "announces: the file became shorter while it was read", h.n_vertices);
          return bl_mesh_native_fail (error, path, "as a binary PLY, it ends inside face %u of the %u its header "
                                      "announces: the file is cut short", problem.face, h.n_faces);
        }
    }
  if (n_triangles == 0 || n_triangles > BL_MESH_MAX_TRIANGLES)
    {
      /* points and lines only, or too many triangles: the child's words
       * for it */
      bl_mesh_huge_free (mapping, mapping_size);
      return BL_NATIVE_DECLINED;
    }

  /* the file's indices to the welded ones, in the order assimp's
   * triangulation gives them when it runs (a quadrilateral) */
  t0 = g_get_monotonic_time ();
  if (second != NULL)
    ngon_encode ((guint32 *) mapping, n_triangles, second);
  {
    guint32 *indices = (guint32 *) mapping;

    for (gsize i = 0; i < 3 * (gsize) n_triangles; i++)
      indices[i] = remap[indices[i]];
  }
  decode_us += g_get_monotonic_time () - t0;

  /* give back the room no vertex took */
  used = bl_mesh_round_up (indices_size + 24 * (gsize) weld.n_out, BL_MESH_HUGE_PAGE);
  if (used < mapping_size)
    {
      munmap (mapping + used, mapping_size - used);
      mapping_size = used;
    }

  out->mapping = mapping;
  out->mapping_size = mapping_size;
  out->vertices = weld.out;
  out->n_vertices = weld.n_out;
  out->indices = (guint32 *) mapping;
  out->n_triangles = n_triangles;
  out->read_seconds = in.read_us / (double) G_USEC_PER_SEC;
  out->decode_seconds = decode_us / (double) G_USEC_PER_SEC;
  out->weld_seconds = weld.us / (double) G_USEC_PER_SEC;
  out->wall_seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  return BL_NATIVE_OK;
}
