/* bl-mesh-weld.c: points welded by exact position, on an open-addressing
 * table of indices (a whole array, or assimp's float points placed by a
 * node transform as the import child writes them). */
#include "config.h"

#include <string.h>

#include <assimp/types.h>

#include "bl-mesh-private.h"

static inline guint64
hash_position (const double *p)
{
  guint64 a, b, c, h;

  memcpy (&a, &p[0], 8);
  memcpy (&b, &p[1], 8);
  memcpy (&c, &p[2], 8);
  /* floats widened to doubles have 29 zero bits: mix every word fully */
  h = bl_mesh_mix64 (a ^ bl_mesh_mix64 (b ^ bl_mesh_mix64 (c + 0x9e3779b97f4a7c15)));
  return h;
}

gsize
bl_mesh_table_size_for (gsize n)
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
  gsize size = bl_mesh_table_size_for (expected);

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

      while (w->slots[slot] != BL_MESH_EMPTY32)
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

      if (k == BL_MESH_EMPTY32)
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
guint
bl_mesh_weld_positions (const double *in,
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
             const BlMeshAffine      *t,
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
guint
bl_mesh_weld_points (const struct aiVector3D *in,
                     guint                    n_in,
                     gsize                    expected,
                     const BlMeshAffine      *t,
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

          if (k != BL_MESH_EMPTY32)
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
