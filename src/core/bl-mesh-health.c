/* bl-mesh-health.c: the health of a triangle surface (boundary,
 * non-manifold and inconsistent edges, holes and their caps, degenerate
 * and duplicate triangles) and the reorientation of mixed winding. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-mesh-private.h"

typedef struct
{
  guint64 key;   /* lo << 32 | hi, lo < hi */
  guint32 uses;
  guint32 forward;  /* uses that go lo → hi */
} EdgeSlot;

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
           BlMeshHealth   *h)
{
  g_autoptr(GHashTable) parent = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) centres = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (gsize i = 0; i < n_slots; i++)
    {
      if (edges[i].key == BL_MESH_EMPTY64 || edges[i].uses != 1)
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
      if (edges[i].key == BL_MESH_EMPTY64 || edges[i].uses != 1)
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

      if (edges[i].key == BL_MESH_EMPTY64 || edges[i].uses != 1)
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
      bl_mesh_integrate_triangle (b, a, p, h->cap_moments);
      {
        double u[3] = { a[0] - p[0], a[1] - p[1], a[2] - p[2] };
        double w[3] = { b[0] - p[0], b[1] - p[1], b[2] - p[2] };
        double n[3] = { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] };

        h->cap_area += 0.5 * sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      }
    }

  bl_mesh_scale_moments (h->cap_moments);
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
add_duplicate (BlMeshHealth    *h,
               guint8         **same,
               gsize            n_triangles,
               const TriEntry  *first,
               const TriEntry  *dup)
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
                   BlMeshHealth       *h,
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
analyse_health_with (const double      *vertices,
                     const guint32     *indices,
                     gsize              n_triangles,
                     const double       ref[3],
                     BlMeshHealth      *h,
                     BlMeshSideMoments *side)
{
  gint64 start = g_get_monotonic_time ();
  guint32 n_vertices = 0;
  guint degenerate_triangles = 0;
  g_autofree guint8 *degenerate = g_new (guint8, n_triangles);
  g_autofree guint8 *same = NULL;
  g_autoptr(GArray) boundary = g_array_new (FALSE, FALSE, sizeof (EdgeSlot));
  HealthInput in;
  gboolean threaded = n_triangles >= BL_MESH_PARALLEL_THRESHOLD && g_get_num_processors () > 1;
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

          bl_mesh_integrate_moments_threaded (side->vertices, indices, n_triangles, side->ref, FALSE, side->moments);
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
  bl_mesh_timings.health += bl_mesh_seconds_between (start + side_us, g_get_monotonic_time ());
}

void
bl_mesh_analyse_health (const double  *vertices,
                        const guint32 *indices,
                        gsize          n_triangles,
                        const double   ref[3],
                        BlMeshHealth  *h)
{
  analyse_health_with (vertices, indices, n_triangles, ref, h, NULL);
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
      const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);

      nv += s->n_vertices;
      nt += s->n_triangles;
    }

  all = g_new (double, 3 * nv);
  indices = g_new (guint32, 3 * nt);
  for (guint i = 0; i < mesh->submeshes->len; i++)
    {
      const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, i);

      memcpy (&all[3 * vo], s->vertices, 3 * sizeof (double) * s->n_vertices);
      for (gsize t = 0; t < 3 * (gsize) s->n_triangles; t++)
        indices[to++] = work[i][t] + vo;
      vo += s->n_vertices;
    }

  welded = g_new (double, 3 * nv);
  remap = g_new (guint32, nv);
  bl_mesh_weld_positions (all, nv, welded, remap);
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
guint32 *
bl_mesh_reorient (const double  *vertices,
                  const guint32 *indices,
                  gsize          n_triangles,
                  const double   ref[3])
{
  gsize size = bl_mesh_table_size_for (3 * n_triangles / 2 + 1);
  gsize mask = size - 1;
  g_autofree AdjSlot *adj = g_new (AdjSlot, size);
  g_autofree guint32 *component = g_new (guint32, n_triangles);
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) volumes = g_array_new (FALSE, FALSE, sizeof (double));
  guint32 *out = g_memdup2 (indices, 3 * sizeof (guint32) * n_triangles);

  for (gsize i = 0; i < size; i++)
    adj[i].key = BL_MESH_EMPTY64;
  memset (component, 0xff, n_triangles * sizeof (guint32));

  for (gsize t = 0; t < n_triangles; t++)
    for (int e = 0; e < 3; e++)
      {
        guint32 a = out[3 * t + e], b = out[3 * t + (e + 1) % 3];
        guint64 key = ((guint64) MIN (a, b) << 32) | MAX (a, b);
        gsize slot;

        if (a == b)
          continue;
        slot = bl_mesh_mix64 (key) & mask;
        while (adj[slot].key != BL_MESH_EMPTY64 && adj[slot].key != key)
          slot = (slot + 1) & mask;
        if (adj[slot].key == BL_MESH_EMPTY64)
          adj[slot] = (AdjSlot) { key, { BL_MESH_EMPTY32, BL_MESH_EMPTY32 }, 0 };
        if (adj[slot].uses < 2)
          adj[slot].t[adj[slot].uses] = t;
        adj[slot].uses++;
      }

  for (gsize seed = 0; seed < n_triangles; seed++)
    {
      guint32 id = volumes->len;
      double volume = 0.0;

      if (component[seed] != BL_MESH_EMPTY32)
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
              slot = bl_mesh_mix64 (key) & mask;
              while (adj[slot].key != key)
                slot = (slot + 1) & mask;
              if (adj[slot].uses != 2)
                continue;   /* only manifold edges say how to turn */
              other = adj[slot].t[0] == t ? adj[slot].t[1] : adj[slot].t[0];
              if (component[other] != BL_MESH_EMPTY32)
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

void
bl_mesh_union_health (BlMesh             *mesh,
                      const guint32     **work,
                      const double        ref[3],
                      BlMeshHealth       *h,
                      BlMeshSideMoments  *side)
{
  g_autofree double *vertices = NULL;
  g_autofree guint32 *indices = NULL;
  gsize nt;

  if (mesh->submeshes->len == 1)
    {
      const BlSubmesh *s = &g_array_index (mesh->submeshes, BlSubmesh, 0);

      analyse_health_with (s->vertices, work[0], s->n_triangles, ref, h, side);
      return;
    }

  weld_all (mesh, work, &vertices, &indices, &nt);
  bl_mesh_analyse_health (vertices, indices, nt, ref, h);
}
