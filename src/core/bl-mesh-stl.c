/* bl-mesh-stl.c: binary STL files read in this process, giving exactly what the
 * assimp child of bl-mesh-import.c gives for them.
 *
 * assimp 5.2.5 gives every file whose name ends in “.stl” (any case) to its
 * STL importer, which takes the file as binary when it is at least 84 bytes
 * long and 84 + 50 × (the count at byte 80) equals its size; a count of 0
 * is then its error “STL: file is empty”.  Such a file holds nothing but
 * float triangles, so it is read here instead: no parser to isolate, and
 * no process to start.  Every other file (ASCII STL, a count that does not
 * match the size, other formats) still goes to assimp in the child.
 *
 * What the child makes of a binary STL, and so what this reproduces bit for
 * bit: one submesh whose node and mesh names are empty; three points per
 * facet (the normal and the attribute word are ignored); the root node's
 * transform is the identity, so a point is its floats widened to double,
 * −0 made +0; points welded by exact position in first-seen order; the
 * facets' vertex order kept.  A NaN or infinite coordinate is refused.
 *
 * Two things in assimp's reading are left to assimp: a file that starts
 * with a byte-order mark (its text conversion shifts or swaps the bytes of
 * some of those before the importer sees them) and a file over 4 GiB
 * (assimp keeps the size in 32 bits).
 *
 * The file is read with read(2) in pieces that stay in cache, not mapped:
 * a mapped file that another program truncates while it is read would
 * kill the process with SIGBUS.  For a large file a second thread reads
 * and decodes the pieces (and answers points it saw shortly before) while
 * the calling thread welds the rest: see read_and_weld. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bl-file-private.h"
#include "bl-mesh-private.h"

#define RECORD_SIZE   50
#define HEADER_SIZE   84
/* facets per read(2) and per hand-over between the threads */
#define CHUNK_RECORDS 4096
/* chunks in flight between the reading thread and the welding one */
#define N_CHUNKS      4
/* below this many facets one thread does everything */
#define THREAD_THRESHOLD 65536
/* new points whose table slot is prefetched ahead of their turn */
#define AHEAD         32
/* slots of the cache of recently seen points (256 KiB) */
#define RECENT_SLOTS  16384

/* A point's three float bit patterns and its welded index + 1 (0: empty). */
typedef struct
{
  guint32 key[3];
  guint32 id;
} StlSlot;

typedef struct
{
  StlSlot *slots;
  gsize    size;      /* bytes of slots */
  gsize    mask;
  guint32  n;         /* distinct points so far */
  double  *out;       /* their coordinates, first-seen order */
} StlWeld;

#define NO_REF G_MAXUINT32

/* One read's points.  Points recur close together in a real file (a
 * vertex's facets are mostly written near each other), so the reading
 * thread answers most of them itself: REF is an earlier point (counted
 * from the file's first) at the same position, whose index the welder
 * copies.  The others, in order, with their bits made canonical, their
 * hashes and their places in the chunk, are for the welder's table. */
typedef struct
{
  guint32  ref[3 * CHUNK_RECORDS];
  guint32  keys[3 * CHUNK_RECORDS][3];
  guint64  hashes[3 * CHUNK_RECORDS];
  guint32  place[3 * CHUNK_RECORDS];
  gsize    n_records;
  gsize    n_new;      /* points with no REF */
} StlChunk;

/* Reading and decoding run in one thread, welding in another: a ring of
 * N_CHUNKS chunks between them, under LOCK. */
typedef struct
{
  int       fd;
  gsize     count;
  guint8   *buffer;           /* the reading thread's */
  StlChunk *chunks;
  /* the last point seen with each of these hashes, and its number + 1:
   * the reading thread's cache of recent points, 256 KiB (L2) */
  StlSlot   recent[RECENT_SLOTS];
  GMutex    lock;
  GCond     cond;
  gsize     produced;         /* chunks filled */
  gsize     consumed;         /* chunks welded */
  gboolean  stopped;          /* no chunk after PRODUCED will come */
  /* why the reading stopped early */
  int       read_errno;       /* 0: the file became shorter */
  gboolean  nonfinite;
  gsize     bad;              /* the facet with a non-finite coordinate */
  gint64    read_us;
  gint64    decode_us;
  gint64    weld_us;
} StlReader;

static inline guint64
hash_key (const guint32 k[3])
{
  guint64 h = ((guint64) k[0] | (guint64) k[1] << 32) ^ ((guint64) k[2] * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  h *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  h ^= h >> 31;
  h *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  h ^= h >> 29;
  return h;
}

/* A power of two of at least 1024 slots, at most half full with N_POINTS. */
static gsize
slots_for (gsize n_points)
{
  return MAX ((gsize) 1024, (gsize) 1 << g_bit_storage (2 * n_points));
}

static StlSlot *
table_alloc (gsize *size)
{
  StlSlot *slots = bl_mesh_huge_alloc (size, TRUE);

  if (slots == NULL)
    g_error ("%s: out of memory (%" G_GSIZE_FORMAT " bytes)", G_STRLOC, *size);
  return slots;
}

static void
table_free (StlSlot *slots,
            gsize    size)
{
  bl_mesh_huge_free (slots, size);
}

static void
weld_init (StlWeld *w,
           gsize    n_slots)
{
  w->size = n_slots * sizeof (StlSlot);
  w->slots = table_alloc (&w->size);
  w->mask = n_slots - 1;
  w->n = 0;
}

static void
weld_grow (StlWeld *w)
{
  StlSlot *old = w->slots;
  gsize old_size = w->size;
  gsize old_n = w->mask + 1;

  w->size = 2 * old_n * sizeof (StlSlot);
  w->slots = table_alloc (&w->size);
  w->mask = 2 * old_n - 1;
  for (gsize i = 0; i < old_n; i++)
    {
      gsize s;

      if (old[i].id == 0)
        continue;
      s = hash_key (old[i].key) & w->mask;
      while (w->slots[s].id != 0)
        s = (s + 1) & w->mask;
      w->slots[s] = old[i];
    }
  table_free (old, old_size);
}

/* The welded index of the point KEY (hash H), adding it if it is new. */
static inline guint32
weld_add (StlWeld       *w,
          const guint32  key[3],
          guint64        h)
{
  gsize s = h & w->mask;

  for (;;)
    {
      StlSlot *slot = &w->slots[s];

      if (slot->id == 0)
        {
          float f[3];
          guint32 id = w->n++;

          memcpy (slot->key, key, sizeof slot->key);
          slot->id = id + 1;
          memcpy (f, key, sizeof f);
          for (int k = 0; k < 3; k++)
            w->out[3 * (gsize) id + k] = f[k];
          if (2 * (gsize) w->n > w->mask + 1)
            weld_grow (w);
          return id;
        }
      if (slot->key[0] == key[0] && slot->key[1] == key[1] && slot->key[2] == key[2])
        return slot->id - 1;
      s = (s + 1) & w->mask;
    }
}

/* A byte-order mark that assimp's text conversion acts on (or might). */
static gboolean
starts_with_bom (const guint8 *h)
{
  return (h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf)
      || (h[0] == 0xfe && h[1] == 0xff)
      || (h[0] == 0xff && h[1] == 0xfe)
      || (h[0] == 0x00 && h[1] == 0x00 && h[2] == 0xfe && h[3] == 0xff);
}

/* Decodes N_RECORDS facets from BUFFER into CHUNK, the first point being
 * point FIRST of the file.  FALSE (and *BAD, the record's index) at a
 * coordinate that is not finite. */
static gboolean
decode_records (StlSlot      *recent,
                const guint8 *buffer,
                gsize         n_records,
                gsize         first,
                StlChunk     *chunk,
                gsize        *bad)
{
  guint32 any = 0;
  gsize n_new = 0;

  /* the nine coordinates of each facet (after its normal), made canonical
   * in registers; a bad one is looked for only once a read holds one */
  for (gsize r = 0; r < n_records; r++)
    {
      guint32 c[9];

      memcpy (c, buffer + RECORD_SIZE * r + 12, sizeof c);
      for (int j = 0; j < 9; j++)
        {
          guint32 bits = GUINT32_FROM_LE (c[j]);

          /* an exponent of all ones: infinite or NaN */
          any |= (bits & 0x7f800000u) == 0x7f800000u;
          /* −0 welds with +0 and is stored as +0 */
          c[j] = (bits & 0x7fffffffu) != 0 ? bits : 0;
        }

      for (int v = 0; v < 3; v++)
        {
          const guint32 *k = &c[3 * v];
          guint64 h = hash_key (k);
          StlSlot *slot = &recent[h % RECENT_SLOTS];
          gsize i = 3 * r + v;

          if (slot->id != 0 && slot->key[0] == k[0] && slot->key[1] == k[1] && slot->key[2] == k[2])
            {
              chunk->ref[i] = slot->id - 1;
              continue;
            }
          chunk->ref[i] = NO_REF;
          memcpy (chunk->keys[n_new], k, sizeof chunk->keys[n_new]);
          chunk->hashes[n_new] = h;
          chunk->place[n_new] = i;
          n_new++;
          memcpy (slot->key, k, sizeof slot->key);
          slot->id = (guint32) (first + i) + 1;
        }

      if (any)
        {
          *bad = r;
          return FALSE;
        }
    }

  chunk->n_records = n_records;
  chunk->n_new = n_new;
  return TRUE;
}

/* Welds CHUNK, whose first point is point FIRST of the file: the indices
 * of all points go to INDICES[FIRST…].  New points are met in file order,
 * so the vertices stay in first-seen order. */
static void
weld_chunk (StlWeld        *w,
            const StlChunk *chunk,
            gsize           first,
            guint32        *indices)
{
  const guint32 (*keys)[3] = chunk->keys;
  const guint64 *hashes = chunk->hashes;
  gsize n_new = chunk->n_new;

  for (gsize m = 0; m < MIN (n_new, AHEAD); m++)
    __builtin_prefetch (&w->slots[hashes[m] & w->mask]);
  for (gsize m = 0; m < n_new; m++)
    {
      if (m + AHEAD < n_new)
        __builtin_prefetch (&w->slots[hashes[m + AHEAD] & w->mask]);
      indices[first + chunk->place[m]] = weld_add (w, keys[m], hashes[m]);
    }

  /* an earlier point at the same position: its index (earlier in this
   * chunk, or in one welded before) */
  for (gsize i = 0; i < 3 * chunk->n_records; i++)
    if (chunk->ref[i] != NO_REF)
      indices[first + i] = indices[chunk->ref[i]];
}

/* Reads and decodes chunk number SEQ into its place in the ring.  FALSE
 * when the reading stops there (the reason is in R). */
static gboolean
fill_chunk (StlReader *r,
            gsize      seq)
{
  gsize first = seq * CHUNK_RECORDS;
  gsize n = MIN (r->count - first, CHUNK_RECORDS);
  gint64 t0 = g_get_monotonic_time ();
  gssize got = bl_mesh_read_full (r->fd, r->buffer, RECORD_SIZE * n);
  int saved = errno;
  gint64 t1 = g_get_monotonic_time ();
  gsize bad = 0;
  gboolean ok;

  r->read_us += t1 - t0;
  if (got != (gssize) (RECORD_SIZE * n))
    {
      r->read_errno = got < 0 ? saved : 0;
      return FALSE;
    }
  ok = decode_records (r->recent, r->buffer, n, 3 * first, &r->chunks[seq % N_CHUNKS], &bad);
  r->decode_us += g_get_monotonic_time () - t1;
  if (!ok)
    {
      r->nonfinite = TRUE;
      r->bad = first + bad;
      return FALSE;
    }
  return TRUE;
}

static gsize
n_chunks_of (gsize count)
{
  return (count + CHUNK_RECORDS - 1) / CHUNK_RECORDS;
}

/* The reading thread: fills the ring ahead of the welder. */
static gpointer
read_thread (gpointer data)
{
  StlReader *r = data;
  gsize total = n_chunks_of (r->count);

  for (gsize seq = 0; seq < total; seq++)
    {
      gboolean ok;

      g_mutex_lock (&r->lock);
      while (seq - r->consumed >= N_CHUNKS)
        g_cond_wait (&r->cond, &r->lock);
      g_mutex_unlock (&r->lock);

      ok = fill_chunk (r, seq);

      g_mutex_lock (&r->lock);
      if (ok)
        r->produced++;
      else
        r->stopped = TRUE;
      g_cond_broadcast (&r->cond);
      g_mutex_unlock (&r->lock);
      if (!ok)
        return NULL;
    }
  return NULL;
}

/* Welds every chunk, reading in a second thread for a large file.  FALSE
 * when the reading stopped early (the reason is in R). */
static gboolean
read_and_weld (StlReader *r,
               StlWeld   *w,
               guint32   *indices)
{
  gsize total = n_chunks_of (r->count);
  GThread *reader;

  if (r->count < THREAD_THRESHOLD || g_get_num_processors () < 2)
    {
      for (gsize seq = 0; seq < total; seq++)
        {
          gint64 t0;

          if (!fill_chunk (r, seq))
            return FALSE;
          t0 = g_get_monotonic_time ();
          weld_chunk (w, &r->chunks[seq % N_CHUNKS], 3 * seq * CHUNK_RECORDS, indices);
          r->weld_us += g_get_monotonic_time () - t0;
        }
      return TRUE;
    }

  reader = g_thread_new ("bl-stl-read", read_thread, r);
  for (gsize seq = 0; seq < total; seq++)
    {
      gint64 t0;

      g_mutex_lock (&r->lock);
      while (r->produced == seq && !r->stopped)
        g_cond_wait (&r->cond, &r->lock);
      if (r->produced == seq)
        {
          g_mutex_unlock (&r->lock);
          break;   /* stopped before this chunk */
        }
      g_mutex_unlock (&r->lock);

      t0 = g_get_monotonic_time ();
      weld_chunk (w, &r->chunks[seq % N_CHUNKS], 3 * seq * CHUNK_RECORDS, indices);
      r->weld_us += g_get_monotonic_time () - t0;

      g_mutex_lock (&r->lock);
      r->consumed++;
      g_cond_broadcast (&r->cond);
      g_mutex_unlock (&r->lock);
    }
  g_thread_join (reader);
  return r->consumed == total;
}

char *
bl_stl_explain_failure (const char *path)
{
  guint8 head[HEADER_SIZE + RECORD_SIZE];
  gboolean text = TRUE;
  guint32 count32;
  guint64 count, expected;
  gsize size;
  gssize n;
  int fd;

  if (!bl_mesh_path_has_extension (path, "stl"))
    return NULL;
  fd = bl_file_open (path, G_MAXSIZE, &size, NULL);
  if (fd < 0)
    return NULL;
  n = bl_mesh_read_full (fd, head, sizeof head);
  close (fd);
  if (n < HEADER_SIZE)
    return NULL;

  for (gssize i = 0; i < n && text; i++)
    text = g_ascii_isprint (head[i]) || g_ascii_isspace (head[i]);
  memcpy (&count32, head + 80, 4);
  count = GUINT32_FROM_LE (count32);
  expected = HEADER_SIZE + RECORD_SIZE * count;
  if (text || expected == size)
    return NULL;

  return g_strdup_printf ("as a binary STL, its header announces %" G_GUINT64_FORMAT " facets, "
                          "which take %" G_GUINT64_FORMAT " bytes, but the file has %" G_GSIZE_FORMAT
                          " bytes: it is %s", count, expected, size,
                          size < expected ? "cut short" : "longer than its facets");
}

BlNativeStatus
bl_stl_read_binary (const char  *path,
                    BlNativeMesh   *out,
                    GError     **error)
{
  g_autoptr(GError) open_error = NULL;
  g_autofree StlReader *reader = NULL;
  guint32 *indices;
  char *mapping;
  gsize mapping_size, indices_size, used;
  guint8 header[HEADER_SIZE];
  g_autofree StlWeld *w = NULL;
  gsize size, count;
  guint32 count32;
  gboolean ok;
  gint64 start = g_get_monotonic_time ();
  int fd;

  g_return_val_if_fail (path != NULL, BL_NATIVE_FAILED);
  g_return_val_if_fail (out != NULL, BL_NATIVE_FAILED);

  memset (out, 0, sizeof *out);
  if (!bl_mesh_path_has_extension (path, "stl"))
    return BL_NATIVE_DECLINED;

  fd = bl_file_open (path, G_MAXSIZE, &size, &open_error);
  if (fd < 0)
    return bl_mesh_native_fail (error, path, "%s", open_error->message);

  if (size < HEADER_SIZE || size > G_MAXUINT32 ||
      bl_mesh_read_full (fd, header, HEADER_SIZE) != HEADER_SIZE)
    {
      close (fd);
      return BL_NATIVE_DECLINED;
    }
  memcpy (&count32, header + 80, 4);
  count = GUINT32_FROM_LE (count32);
  if (starts_with_bom (header) || HEADER_SIZE + RECORD_SIZE * (guint64) count != size)
    {
      close (fd);
      return BL_NATIVE_DECLINED;
    }
  if (count == 0)
    {
      close (fd);
      /* assimp's words */
      return bl_mesh_native_fail (error, path, "STL: file is empty. There are no facets defined");
    }

  /* A closed surface has half as many vertices as triangles; the table
   * grows for anything else. */
  w = g_new (StlWeld, 1);
  reader = g_new0 (StlReader, 1);
  weld_init (w, slots_for (count / 2));
  /* The result in one mapping: the indices (all written), then room for
   * every point as a vertex, of which only the pages written are touched
   * and the rest is given back at the end. */
  indices_size = bl_mesh_round_up (12 * count, 64);
  mapping_size = indices_size + 72 * count;
  mapping = bl_mesh_huge_alloc (&mapping_size, FALSE);
  if (mapping == NULL)
    {
      close (fd);
      table_free (w->slots, w->size);
      return bl_mesh_native_fail (error, path, "out of memory for %" G_GSIZE_FORMAT " triangles", count);
    }
#ifdef MADV_POPULATE_WRITE
  madvise (mapping, MIN (mapping_size, bl_mesh_round_up (indices_size, BL_MESH_HUGE_PAGE)), MADV_POPULATE_WRITE);
#endif
  indices = (guint32 *) mapping;
  w->out = (double *) (mapping + indices_size);

  reader->fd = fd;
  reader->count = count;
  reader->buffer = g_malloc (RECORD_SIZE * CHUNK_RECORDS);
  reader->chunks = g_new (StlChunk, MIN (N_CHUNKS, n_chunks_of (count)));
  g_mutex_init (&reader->lock);
  g_cond_init (&reader->cond);
  ok = read_and_weld (reader, w, indices);
  g_mutex_clear (&reader->lock);
  g_cond_clear (&reader->cond);
  g_free (reader->buffer);
  g_free (reader->chunks);
  close (fd);
  table_free (w->slots, w->size);

  if (!ok)
    {
      munmap (mapping, mapping_size);
      if (reader->nonfinite)
        return bl_mesh_native_fail (error, path, "triangle %" G_GSIZE_FORMAT " has a coordinate that is not "
                     "a finite number (NaN or infinity)", reader->bad);
      if (reader->read_errno != 0)
        return bl_mesh_native_fail (error, path, "%s", g_strerror (reader->read_errno));
      return bl_mesh_native_fail (error, path, "the file became shorter while it was read");
    }

  /* give back the room no vertex took */
  used = bl_mesh_round_up (indices_size + 24 * (gsize) w->n, BL_MESH_HUGE_PAGE);
  if (used < mapping_size)
    {
      munmap (mapping + used, mapping_size - used);
      mapping_size = used;
    }

  out->mapping = mapping;
  out->mapping_size = mapping_size;
  out->vertices = w->out;
  out->n_vertices = w->n;
  out->indices = indices;
  out->n_triangles = count;
  out->read_seconds = reader->read_us / (double) G_USEC_PER_SEC;
  out->decode_seconds = reader->decode_us / (double) G_USEC_PER_SEC;
  out->weld_seconds = reader->weld_us / (double) G_USEC_PER_SEC;
  out->wall_seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  return BL_NATIVE_OK;
}
