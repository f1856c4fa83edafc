/* bl-simplify.c: level-of-detail meshes by half-edge collapses ranked by quadrics, with a measured error.
 *
 * A global heap of collapses is the classic way, but it is slow for a
 * million triangles (a heap update per neighbour per collapse, and random
 * memory access).  Here the work is done in passes: each pass finds, for
 * every removable vertex, its cheapest valid collapse against the mesh as
 * it was at the start of the pass, sorts them by cost (radix sort), and
 * applies them greedily, cheapest first, skipping any collapse that would
 * touch a vertex whose one-ring an earlier collapse of the same pass has
 * changed: then every check made at the start of the pass still holds.
 * Between passes the triangle list is compacted and the vertex-to-triangle
 * lists rebuilt.  Vertices never move, so a level is just an index list
 * into the caller's positions. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-simplify.h"

/* A triangle removed during a pass (its first index). */
#define DEAD G_MAXUINT32
/* A collapse may turn a surviving triangle's normal by at most 75°. */
#define COS_MAX_TURN 0.25881904510252074
/* A triangle is degenerate when |e1 × e2|² < this · |e1|² |e2|² (the sine
 * of its angle below 1e-6). */
#define DEGENERATE_SIN2 1e-12
/* Simplification has stalled after this many passes in a row that
 * removed less than a thousandth of the triangles. */
#define STALL_PASSES 3
/* The collapses' cost is sorted to 2^(1/16): see bucket_sort. */
#define SORT_MANTISSA_BITS 0
#define SORT_SHIFT (32 + 23 - SORT_MANTISSA_BITS)
/* A level that keeps more than this share of the one before is not made. */
#define STALL_SHARE 0.6
/* A vertex with more triangles around it than this (a cone's apex, a
 * fan's hub) is neither removed nor collapsed into, and its fan is not
 * searched for another vertex's error: every check would walk its whole
 * ring, so a 600,000-triangle cone took minutes.  It stays where it is;
 * the error stays an upper bound.  bl_simplify_smooth_mesh shades its
 * corners flat, for the same reason. */
#define MAX_RING BL_SIMPLIFY_HUB_RING

enum
{
  V_USED    = 1 << 0,   /* on a non-degenerate triangle */
  V_LOCKED  = 1 << 1,   /* boundary, non-manifold, pinched or non-finite: never removed */
  V_REMOVED = 1 << 2,
  V_CHECKED = 1 << 3,   /* its candidate in this pass was found valid */
  V_CHECK   = 1 << 4,   /* its cheapest collapse was invalid: the next pass checks as it chooses */
};

/* A plane quadric: the symmetric 4×4 (a² ab ac ad b² bc bd c² cd d²). */
typedef double Quadric[10];
typedef double Vec3[3];

typedef struct
{
  const float *positions;
  guint        stride;
  guint        n_vertices;

  guint32     *tris;       /* three per triangle, welded vertex numbers */
  gsize        n_tris;     /* in the array, with those removed in this pass */
  gsize        n_live;

  guint32     *start;      /* n_vertices + 1: each vertex's run of ring */
  guint32     *ring;       /* the triangles around each vertex */
  gboolean     rings_valid;

  Quadric     *quadric;
  struct { double cost, area; } *self;   /* a vertex's quadric at its position, and its area, this pass */
  guint32     *n_around;   /* a vertex's triangles now */
  guint32     *parent;     /* a removed vertex: the one it was collapsed into */
  guint8      *flags;
  guint32     *mark;       /* stamps */
  guint32     *seen;
  guint32     *dirty;      /* the pass that changed the vertex's ring */
  guint32     *gained;     /* the pass that collapsed a vertex into it */
  guint32      stamp;
  guint32      pass;

  guint32     *removable;  /* vertices that may still be removed */
  gsize        n_removable;
  guint32     *surface;    /* every vertex that may ever be removed (for the error) */
  gsize        n_surface;

  guint32     *target;     /* a vertex's chosen collapse */
  guint64     *items;      /* sort keys: cost bits << 32 | vertex */
  guint64     *scratch;

  guint32     *nb;         /* the neighbours of one vertex */
  double      *nb_cost;
  gsize        nb_size;

  double       max_cost;   /* of a collapse per unit area: MAX_ERROR² */
} Simplifier;

void
bl_simplify_level_free (BlSimplifyLevel *level)
{
  if (level == NULL)
    return;
  g_array_unref (level->indices);
  g_free (level);
}

static void
position (const Simplifier *s,
          guint32           v,
          double            p[3])
{
  const float *f = s->positions + (gsize) s->stride * v;

  p[0] = f[0];
  p[1] = f[1];
  p[2] = f[2];
}

static void
sub3 (const double a[3],
      const double b[3],
      double       out[3])
{
  out[0] = a[0] - b[0];
  out[1] = a[1] - b[1];
  out[2] = a[2] - b[2];
}

static double
dot3 (const double a[3],
      const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void
cross3 (const double a[3],
        const double b[3],
        double       out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* (B − A) × (C − A). */
static void
normal3 (const double a[3],
         const double b[3],
         const double c[3],
         double       n[3])
{
  double e1[3], e2[3];

  sub3 (b, a, e1);
  sub3 (c, a, e2);
  cross3 (e1, e2, n);
}

static double
quadric_eval (const double q[10],
              const double p[3])
{
  double x = p[0], y = p[1], z = p[2];

  return q[0] * x * x + 2 * q[1] * x * y + 2 * q[2] * x * z + 2 * q[3] * x
         + q[4] * y * y + 2 * q[5] * y * z + 2 * q[6] * y
         + q[7] * z * z + 2 * q[8] * z
         + q[9];
}

/* The area that went into a quadric (the trace of its 3×3 part). */
static double
quadric_area (const double q[10])
{
  return q[0] + q[4] + q[7];
}

static guint32
next_stamp (Simplifier *s)
{
  if (s->stamp == G_MAXUINT32)
    {
      memset (s->mark, 0, s->n_vertices * sizeof *s->mark);
      memset (s->seen, 0, s->n_vertices * sizeof *s->seen);
      s->stamp = 0;
    }
  return ++s->stamp;
}

/* The triangles around each of N_VERTICES vertices: those of vertex v
 * are RING[START[v]] … RING[START[v + 1] − 1] (START: N_VERTICES + 1,
 * RING: 3 N_TRIS). */
void
bl_simplify_vertex_rings (const guint32 *tris,
              gsize          n_tris,
              guint32        n_vertices,
              guint32       *start,
              guint32       *ring)
{
  memset (start, 0, ((gsize) n_vertices + 1) * sizeof *start);
  for (gsize i = 0; i < 3 * n_tris; i++)
    start[tris[i] + 1]++;
  for (guint32 v = 0; v < n_vertices; v++)
    start[v + 1] += start[v];
  for (gsize t = 0; t < n_tris; t++)
    for (int k = 0; k < 3; k++)
      ring[start[tris[3 * t + k]]++] = (guint32) t;
  /* Each start[v] now holds the start of v + 1. */
  memmove (start + 1, start, (gsize) n_vertices * sizeof *start);
  start[0] = 0;
}

static void
build_rings (Simplifier *s)
{
  bl_simplify_vertex_rings (s->tris, s->n_tris, s->n_vertices, s->start, s->ring);
  s->rings_valid = TRUE;
}

static guint32
ring_size (const Simplifier *s,
           guint32           v)
{
  return s->start[v + 1] - s->start[v];
}

/* Vertices with bit-identical positions share the lowest-numbered one:
 * REP[v] (an open-addressing hash on the position's bits). */
static guint32 *
weld (const float *positions,
      guint        stride,
      guint        n_vertices)
{
  gsize size = 16;
  g_autofree guint32 *table = NULL;
  guint32 *rep = g_new (guint32, MAX (n_vertices, 1));

  while (size < 2 * (gsize) n_vertices)
    size *= 2;
  table = g_new (guint32, size);
  memset (table, 0xff, size * sizeof *table);
  for (guint v = 0; v < n_vertices; v++)
    {
      guint32 bits[3];
      guint64 h;
      gsize slot;

      memcpy (bits, positions + (gsize) stride * v, sizeof bits);
      h = (bits[0] * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15))
          ^ (bits[1] * G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f))
          ^ (bits[2] * G_GUINT64_CONSTANT (0x165667b19e3779f9));
      h ^= h >> 29;
      slot = (gsize) h & (size - 1);
      for (;;)
        {
          guint32 w = table[slot];

          if (w == G_MAXUINT32)
            {
              table[slot] = v;
              rep[v] = v;
              break;
            }
          if (memcmp (positions + (gsize) stride * w, bits, sizeof bits) == 0)
            {
              rep[v] = w;
              break;
            }
          slot = (slot + 1) & (size - 1);
        }
    }
  return rep;
}

/* The welded, non-degenerate triangles and their quadrics. */
static void
load_triangles (Simplifier    *s,
                const guint32 *indices,
                guint          n_triangles)
{
  g_autofree guint32 *rep = weld (s->positions, s->stride, s->n_vertices);
  gboolean warned = FALSE;

  s->tris = g_new (guint32, 3 * (gsize) MAX (n_triangles, 1));
  s->n_tris = 0;
  for (guint t = 0; t < n_triangles; t++)
    {
      const guint32 *in = indices + 3 * (gsize) t;
      guint32 *tri = s->tris + 3 * s->n_tris;
      double p[3][3], n[3], len;

      if (in[0] >= s->n_vertices || in[1] >= s->n_vertices || in[2] >= s->n_vertices)
        {
          if (!warned)
            g_warning ("bl_simplify_levels: triangle %u indexes past the %u vertices; such triangles are left out", t, s->n_vertices);
          warned = TRUE;
          continue;
        }
      for (int k = 0; k < 3; k++)
        {
          tri[k] = rep[in[k]];
          position (s, tri[k], p[k]);
        }
      if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0])
        continue;
      normal3 (p[0], p[1], p[2], n);
      len = sqrt (dot3 (n, n));
      if (!(len > 0.0) || !isfinite (len))
        continue;
      s->n_tris++;

      {
        double area = 0.5 * len, a = n[0] / len, b = n[1] / len, c = n[2] / len;
        double d = -(a * p[0][0] + b * p[0][1] + c * p[0][2]);
        double plane[10] = { a * a, a * b, a * c, a * d, b * b, b * c, b * d, c * c, c * d, d * d };

        for (int k = 0; k < 3; k++)
          {
            for (int i = 0; i < 10; i++)
              s->quadric[tri[k]][i] += area * plane[i];
            s->flags[tri[k]] |= V_USED;
          }
      }
    }
}

/* A vertex may be removed only where the surface around it is a disc
 * wound one way: each neighbour w once as the vertex after it in a
 * triangle (v w ·) and once as the vertex before (v · w), and the fan a
 * single cycle.  SUCC: scratch of n_vertices. */
static gboolean
is_interior (Simplifier *s,
             guint32     v,
             guint32    *succ)
{
  guint32 out = next_stamp (s), in = out, n = ring_size (s, v), w, steps = 0;
  const guint32 *ring = s->ring + s->start[v];
  double p[3];

  position (s, v, p);
  if (!isfinite (p[0]) || !isfinite (p[1]) || !isfinite (p[2]) || n < 3)
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      const guint32 *tri = s->tris + 3 * (gsize) ring[i];
      int k = tri[0] == v ? 0 : tri[1] == v ? 1 : 2;
      guint32 a = tri[(k + 1) % 3], b = tri[(k + 2) % 3];

      if (s->mark[a] == out || s->seen[b] == in)
        return FALSE;   /* an edge used twice the same way, or by three triangles */
      s->mark[a] = out;
      s->seen[b] = in;
      succ[a] = b;
    }
  for (guint32 i = 0; i < n; i++)
    {
      const guint32 *tri = s->tris + 3 * (gsize) ring[i];
      int k = tri[0] == v ? 0 : tri[1] == v ? 1 : 2;

      if (s->seen[tri[(k + 1) % 3]] != in || s->mark[tri[(k + 2) % 3]] != out)
        return FALSE;   /* a boundary edge */
    }
  {
    const guint32 *tri = s->tris + 3 * (gsize) ring[0];
    int k = tri[0] == v ? 0 : tri[1] == v ? 1 : 2;
    guint32 first = tri[(k + 1) % 3];

    w = first;
    do
      {
        w = succ[w];
        steps++;
      }
    while (steps <= n && w != first);
  }
  return steps == n;
}

static void
classify (Simplifier *s)
{
  g_autofree guint32 *succ = g_new (guint32, MAX (s->n_vertices, 1));

  build_rings (s);
  s->removable = g_new (guint32, MAX (s->n_vertices, 1));
  s->n_removable = 0;
  for (guint v = 0; v < s->n_vertices; v++)
    {
      if (!(s->flags[v] & V_USED))
        continue;
      if (is_interior (s, v, succ))
        s->removable[s->n_removable++] = v;
      else
        s->flags[v] |= V_LOCKED;
    }
  s->surface = g_memdup2 (s->removable, MAX (s->n_removable, 1) * sizeof *s->removable);
  s->n_surface = s->n_removable;
}

/* The distinct neighbours of V (marked with a new stamp in s->mark) into
 * s->nb; returns how many. */
static gsize
gather_neighbours (Simplifier *s,
                   guint32     v)
{
  guint32 stamp = next_stamp (s), n = ring_size (s, v);
  const guint32 *ring = s->ring + s->start[v];
  gsize count = 0;

  if (s->nb_size < 2 * (gsize) n)
    {
      s->nb_size = 2 * (gsize) n;
      s->nb = g_renew (guint32, s->nb, s->nb_size);
      s->nb_cost = g_renew (double, s->nb_cost, s->nb_size);
    }
  s->mark[v] = stamp;
  for (guint32 i = 0; i < n; i++)
    for (int k = 0; k < 3 && s->tris[3 * (gsize) ring[i]] != DEAD; k++)
      {
        guint32 w = s->tris[3 * (gsize) ring[i] + k];

        if (s->mark[w] != stamp)
          {
            s->mark[w] = stamp;
            s->nb[count++] = w;
          }
      }
  s->mark[v] = 0;
  return count;
}

/* The number of distinct neighbours of W, with s->seen; 0 when its ring
 * is not known (it has gained triangles in this pass). */
static guint32
valence (Simplifier *s,
         guint32     w)
{
  guint32 stamp, n = ring_size (s, w), count = 0;
  const guint32 *ring = s->ring + s->start[w];

  if (s->gained[w] == s->pass)
    return 0;
  if (!(s->flags[w] & V_LOCKED))
    return s->n_around[w];   /* a closed fan: as many neighbours as triangles */
  stamp = next_stamp (s);
  s->seen[w] = stamp;
  for (guint32 i = 0; i < n; i++)
    for (int k = 0; k < 3 && s->tris[3 * (gsize) ring[i]] != DEAD; k++)
      {
        guint32 x = s->tris[3 * (gsize) ring[i] + k];

        if (s->seen[x] != stamp)
          {
            s->seen[x] = stamp;
            count++;
          }
      }
  return count;
}

/* Whether U → V keeps the mesh a manifold with valences ≥ 3 and no
 * flipped or degenerate triangle.  U's neighbours are marked with
 * U_STAMP in s->mark; VALENCE_U of them. */
static gboolean
collapse_is_valid (Simplifier *s,
                   guint32     u,
                   guint32     v,
                   guint32     u_stamp,
                   guint32     valence_u)
{
  guint32 stamp = next_stamp (s), n = ring_size (s, v), valence_v = 0, common = 0, shared[2] = { 0, 0 };
  const guint32 *ring = s->ring + s->start[v];
  double pv[3], pu[3];

  s->seen[v] = stamp;
  for (guint32 i = 0; i < n; i++)
    for (int k = 0; k < 3 && s->tris[3 * (gsize) ring[i]] != DEAD; k++)
      {
        guint32 w = s->tris[3 * (gsize) ring[i] + k];

        if (s->seen[w] == stamp)
          continue;
        s->seen[w] = stamp;
        valence_v++;
        if (w != u && s->mark[w] == u_stamp)
          {
            if (common == 2)
              return FALSE;
            shared[common++] = w;
          }
      }
  /* Link condition: the edge's two opposite vertices and no other. */
  if (common != 2 || valence_u + valence_v < 7)
    return FALSE;
  for (int i = 0; i < 2; i++)
    if (((s->flags[shared[i]] & V_LOCKED) && ring_size (s, shared[i]) > MAX_RING) || valence (s, shared[i]) < 4)
      return FALSE;

  position (s, v, pv);
  position (s, u, pu);
  ring = s->ring + s->start[u];
  n = ring_size (s, u);
  for (guint32 i = 0; i < n; i++)
    {
      const guint32 *tri = s->tris + 3 * (gsize) ring[i];
      int k = tri[0] == u ? 0 : tri[1] == u ? 1 : 2;
      double a[3], b[3], n0[3], n1[3], ea[3], eb[3], n1n1, cos_n;

      if (tri[0] == DEAD || tri[0] == v || tri[1] == v || tri[2] == v)
        continue;
      position (s, tri[(k + 1) % 3], a);
      position (s, tri[(k + 2) % 3], b);
      normal3 (pu, a, b, n0);
      normal3 (pv, a, b, n1);
      sub3 (a, pv, ea);
      sub3 (b, pv, eb);
      n1n1 = dot3 (n1, n1);
      if (n1n1 <= DEGENERATE_SIN2 * dot3 (ea, ea) * dot3 (eb, eb))
        return FALSE;
      /* n0 · n1 < cos 75° |n0| |n1|, without the root. */
      cos_n = dot3 (n0, n1);
      if (cos_n < 0 || cos_n * cos_n < COS_MAX_TURN * COS_MAX_TURN * dot3 (n0, n0) * n1n1)
        return FALSE;
    }
  return TRUE;
}

/* U's cheapest collapse within s->max_cost (FALSE if none); only a
 * valid one when VALIDATE. */
static gboolean
best_collapse (Simplifier *s,
               guint32     u,
               gboolean    validate,
               guint32    *target,
               double     *cost)
{
  gsize n, best = 0;
  guint32 u_stamp;
  const double *qu = s->quadric[u];
  double area_u = quadric_area (qu);

  if (ring_size (s, u) > MAX_RING)
    return FALSE;
  n = gather_neighbours (s, u);
  u_stamp = s->stamp;
  for (gsize i = 0; i < n; i++)
    {
      guint32 v = s->nb[i];
      double p[3];

      position (s, v, p);
      s->nb_cost[i] = MAX (0.0, quadric_eval (qu, p) + s->self[v].cost);
      if (!(s->nb_cost[i] <= s->max_cost * (area_u + s->self[v].area)) || ring_size (s, v) > MAX_RING)
        s->nb_cost[i] = G_MAXDOUBLE;   /* not allowed */
      if (s->nb_cost[i] < s->nb_cost[best])
        best = i;
    }
  if (n == 0 || s->nb_cost[best] == G_MAXDOUBLE)
    return FALSE;
  if (!validate)
    {
      *target = s->nb[best];
      *cost = s->nb_cost[best];
      return TRUE;
    }
  /* Cheapest first (insertion sort: a handful of neighbours). */
  for (gsize i = 1; i < n; i++)
    for (gsize j = i; j > 0 && s->nb_cost[j] < s->nb_cost[j - 1]; j--)
      {
        double c = s->nb_cost[j];
        guint32 w = s->nb[j];

        s->nb_cost[j] = s->nb_cost[j - 1];
        s->nb[j] = s->nb[j - 1];
        s->nb_cost[j - 1] = c;
        s->nb[j - 1] = w;
      }
  for (gsize i = 0; i < n && s->nb_cost[i] < G_MAXDOUBLE; i++)
    if (collapse_is_valid (s, u, s->nb[i], u_stamp, (guint32) n))
      {
        *target = s->nb[i];
        *cost = s->nb_cost[i];
        return TRUE;
      }
  return FALSE;
}

/* Counting sort of ITEMS (cost bits << 32 | vertex, the cost a float
 * ≥ 0) by the cost's exponent and first SORT_MANTISSA_BITS mantissa bits:
 * buckets of costs within 2^(1/16) (4.4 %) of each other, ordered by
 * vertex inside a bucket (as they were made), so that collapses of about
 * the same cost are applied in the mesh's own memory order, not at random
 * (the pass is then several times faster on a big mesh). */
static void
bucket_sort (guint64 *items,
             guint64 *scratch,
             gsize    n)
{
  int shift = SORT_SHIFT;
  gsize n_buckets = (gsize) 1 << (9 + SORT_MANTISSA_BITS);
  g_autofree gsize *count = g_new0 (gsize, n_buckets + 1);

  for (gsize i = 0; i < n; i++)
    count[(items[i] >> shift) + 1]++;
  for (gsize b = 0; b < n_buckets; b++)
    count[b + 1] += count[b];
  for (gsize i = 0; i < n; i++)
    scratch[count[items[i] >> shift]++] = items[i];
  memcpy (items, scratch, n * sizeof *items);
}

/* Whether U, V or a neighbour of U has had its ring changed in this pass
 * (then the checks made at its start must be made again). */
static gboolean
touched (const Simplifier *s,
         guint32           u,
         guint32           v)
{
  const guint32 *ring = s->ring + s->start[u];
  guint32 n = ring_size (s, u);

  if (s->dirty[u] == s->pass || s->dirty[v] == s->pass)
    return TRUE;
  for (guint32 i = 0; i < n; i++)
    for (int k = 0; k < 3 && s->tris[3 * (gsize) ring[i]] != DEAD; k++)
      if (s->dirty[s->tris[3 * (gsize) ring[i] + k]] == s->pass)
        return TRUE;
  return FALSE;
}

/* Applies U → V; returns the triangles removed. */
static guint32
collapse (Simplifier *s,
          guint32     u,
          guint32     v)
{
  const guint32 *ring = s->ring + s->start[u];
  guint32 n = ring_size (s, u), removed = 0;

  for (guint32 i = 0; i < n; i++)
    {
      guint32 *tri = s->tris + 3 * (gsize) ring[i];

      if (tri[0] == DEAD)
        continue;
      for (int k = 0; k < 3; k++)
        s->dirty[tri[k]] = s->pass;
      if (tri[0] == v || tri[1] == v || tri[2] == v)
        {
          for (int k = 0; k < 3; k++)
            s->n_around[tri[k]]--;
          tri[0] = DEAD;
          removed++;
        }
      else
        {
          for (int k = 0; k < 3; k++)
            if (tri[k] == u)
              tri[k] = v;
          s->n_around[v]++;
        }
    }
  for (int i = 0; i < 10; i++)
    s->quadric[v][i] += s->quadric[u][i];
  s->parent[u] = v;
  s->flags[u] |= V_REMOVED;
  s->dirty[v] = s->pass;
  s->gained[v] = s->pass;
  return removed;
}

static guint32
find_kept (Simplifier *s,
           guint32     v)
{
  guint32 root = v;

  while (s->flags[root] & V_REMOVED)
    root = s->parent[root];
  while (v != root)
    {
      guint32 next = s->parent[v];

      s->parent[v] = root;
      v = next;
    }
  return root;
}

/* The squared distance from P to the triangle A B C (Ericson, Real-Time Collision
 * Detection §5.1.5: the closest point by Voronoi regions). */
static double
point_triangle_distance2 (const double p[3],
                         const double a[3],
                         const double b[3],
                         const double c[3])
{
  double ab[3], ac[3], ap[3], bp[3], cp[3], q[3], d[3];
  double d1, d2, d3, d4, d5, d6, va, vb, vc, v, w, denom;

  sub3 (b, a, ab);
  sub3 (c, a, ac);
  sub3 (p, a, ap);
  d1 = dot3 (ab, ap);
  d2 = dot3 (ac, ap);
  if (d1 <= 0 && d2 <= 0)
    return dot3 (ap, ap);
  sub3 (p, b, bp);
  d3 = dot3 (ab, bp);
  d4 = dot3 (ac, bp);
  if (d3 >= 0 && d4 <= d3)
    return dot3 (bp, bp);
  vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0)
    {
      v = d1 / (d1 - d3);
      for (int k = 0; k < 3; k++)
        q[k] = a[k] + v * ab[k];
      sub3 (p, q, d);
      return dot3 (d, d);
    }
  sub3 (p, c, cp);
  d5 = dot3 (ab, cp);
  d6 = dot3 (ac, cp);
  if (d6 >= 0 && d5 <= d6)
    return dot3 (cp, cp);
  vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0)
    {
      w = d2 / (d2 - d6);
      for (int k = 0; k < 3; k++)
        q[k] = a[k] + w * ac[k];
      sub3 (p, q, d);
      return dot3 (d, d);
    }
  va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    {
      w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
      for (int k = 0; k < 3; k++)
        q[k] = b[k] + w * (c[k] - b[k]);
      sub3 (p, q, d);
      return dot3 (d, d);
    }
  denom = 1.0 / (va + vb + vc);
  v = vb * denom;
  w = vc * denom;
  for (int k = 0; k < 3; k++)
    q[k] = a[k] + ab[k] * v + ac[k] * w;
  sub3 (p, q, d);
  return dot3 (d, d);
}

/* A level's triangles and the triangles around each vertex. */
typedef struct
{
  const guint32 *tris;
  guint32       *start;   /* n_vertices + 1 */
  guint32       *ring;
} Snapshot;

/* The smallest squared distance from P to LEVEL's triangles around V,
 * stopping as soon as one is within ENOUGH (squared too). */
static double
fan_distance (const Simplifier *s,
              const Snapshot   *level,
              const double      p[3],
              guint32           v,
              double            enough)
{
  double best = G_MAXDOUBLE;

  for (guint32 i = level->start[v]; i < level->start[v + 1] && best > enough; i++)
    {
      const guint32 *tri = level->tris + 3 * (gsize) level->ring[i];
      double a[3], b[3], c[3];

      position (s, tri[0], a);
      position (s, tri[1], b);
      position (s, tri[2], c);
      best = MIN (best, point_triangle_distance2 (p, a, b, c));
    }
  return best;
}

/* The level's error (see bl_simplify_levels) for the N_TRIS triangles
 * TRIS, the mesh as it is now. */
static double
measure_error (Simplifier    *s,
               const guint32 *tris,
               gsize          n_tris)
{
  g_autofree guint32 *start = g_new (guint32, (gsize) s->n_vertices + 1);
  g_autofree guint32 *ring = g_new (guint32, 3 * MAX (n_tris, 1));
  Snapshot level = { tris, start, ring };
  double error = 0.0;   /* squared until the end */
  gsize step = MAX (1, s->n_surface / 1024);

  bl_simplify_vertex_rings (tris, n_tris, s->n_vertices, start, ring);

  /* A sample first: the sooner the maximum is near its final value, the
   * sooner the search for most vertices stops (at the first triangle
   * within it). */
  for (int round = 0; round < 2; round++)
    for (gsize i = round == 0 ? step / 2 : 0; i < s->n_surface; i += round == 0 ? step : 1)
      {
        guint32 o = s->surface[i], r = find_kept (s, o);
        double p[3], q[3], e[3], d;

        if (r == o)
          continue;
        position (s, o, p);
        position (s, r, q);
        sub3 (p, q, e);
        if (dot3 (e, e) <= error)
          continue;   /* R is a point of its triangles: no farther than that */
        d = fan_distance (s, &level, p, r, error);
        /* Around the neighbours too: still an upper bound, and tighter
         * where O lies beyond R's own fan. */
        for (guint32 j = start[r]; j < start[r + 1] && d > error; j++)
          for (int k = 0; k < 3 && d > error; k++)
            {
              guint32 w = tris[3 * (gsize) ring[j] + k];

              if (w != r && start[w + 1] - start[w] <= MAX_RING)
                d = MIN (d, fan_distance (s, &level, p, w, error));
            }
        error = MAX (error, d);
      }
  return sqrt (error);
}

/* Making the levels: the one under way and what stops them. */
typedef struct
{
  GPtrArray *levels;
  gsize      previous;        /* triangles of the level before */
  gsize      target;
  guint      min_triangles;
  double     max_error;
  gboolean   done;
} Levels;

/* The mesh as it is now is a level, if it qualifies (see
 * bl_simplify_levels); sets the next target, or done. */
static void
finish_level (Simplifier *s,
              Levels     *levels)
{
  GArray *indices;
  double error;

  levels->done = TRUE;
  if (s->n_live > STALL_SHARE * levels->previous || s->n_live < levels->min_triangles || s->n_live == 0)
    return;
  indices = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint) (3 * s->n_live));
  for (gsize t = 0; t < s->n_tris; t++)
    if (s->tris[3 * t] != DEAD)
      g_array_append_vals (indices, s->tris + 3 * t, 3);
  error = measure_error (s, (const guint32 *) (gconstpointer) indices->data, s->n_live);
  if (!(error <= levels->max_error))
    {
      g_array_unref (indices);
      return;
    }
  {
    BlSimplifyLevel *level = g_new0 (BlSimplifyLevel, 1);

    level->indices = indices;
    level->error = error;
    g_ptr_array_add (levels->levels, level);
  }
  levels->previous = s->n_live;
  levels->target = s->n_live / 4;
  levels->done = levels->target == 0 || levels->target < levels->min_triangles;
}

/* One pass: collapses until LEVELS is done, making each level as its
 * target is reached (a pass goes on into the next level: its candidates
 * are still good).  Returns the triangles removed, and in DEFERRED the
 * collapses found invalid as they were to be applied (the next pass
 * chooses those vertices' collapses again with the checks). */
static gsize
run_pass (Simplifier *s,
          Levels     *levels,
          gsize      *deferred)
{
  gsize n_items = 0, removed = 0, kept = 0, out = 0, last;

  *deferred = 0;
  if (!s->rings_valid)
    build_rings (s);
  s->pass++;
  /* Each vertex's own quadric at its own position and its area, once. */
  for (guint32 v = 0; v < s->n_vertices; v++)
    if ((s->flags[v] & (V_USED | V_REMOVED)) == V_USED)
      {
        double p[3];

        position (s, v, p);
        s->self[v].cost = quadric_eval (s->quadric[v], p);
        s->self[v].area = quadric_area (s->quadric[v]);
        s->n_around[v] = ring_size (s, v);
      }
  for (gsize i = 0; i < s->n_removable; i++)
    {
      guint32 u = s->removable[i], v;
      gboolean validate = (s->flags[u] & V_CHECK) != 0;
      double cost;

      /* Most cheapest collapses are valid: checked only as they are
       * applied, except where the last pass found one that was not. */
      s->flags[u] &= ~(V_CHECK | V_CHECKED);
      if (best_collapse (s, u, validate, &v, &cost))
        {
          float key = (float) cost;
          guint32 bits;

          if (validate)
            s->flags[u] |= V_CHECKED;
          memcpy (&bits, &key, sizeof bits);
          s->target[u] = v;
          s->items[n_items++] = (guint64) bits << 32 | u;
        }
      else if (validate)
        s->flags[u] |= V_CHECK;   /* none valid: checked again next pass */
    }
  bucket_sort (s->items, s->scratch, n_items);

  last = n_items;
  for (gsize i = 0; i < last && !levels->done; i++)
    {
      guint32 u = (guint32) s->items[i], v = s->target[u], n;

      /* A vertex that gained triangles has a stale ring: it waits. */
      if ((s->flags[v] & V_REMOVED) || s->gained[u] == s->pass || s->gained[v] == s->pass)
        continue;
      if (!(s->flags[u] & V_CHECKED) || touched (s, u, v))
        {
          guint32 valence_u = (guint32) gather_neighbours (s, u);

          if (!collapse_is_valid (s, u, v, s->stamp, valence_u))
            {
              s->flags[u] |= V_CHECK;
              (*deferred)++;
              continue;
            }
        }
      n = collapse (s, u, v);
      removed += n;
      s->n_live -= n;
      if (s->n_live <= levels->target)
        {
          /* The pass goes on into the next level, but only through
           * collapses as cheap as the last one (about: its bucket); the
           * rest wait for fresh candidates. */
          finish_level (s, levels);
          last = i + 1;
          while (last < n_items && s->items[last] >> SORT_SHIFT == s->items[i] >> SORT_SHIFT)
            last++;
        }
    }

  /* Compact the triangles and the removable vertices. */
  for (gsize t = 0; t < s->n_tris; t++)
    if (s->tris[3 * t] != DEAD)
      {
        memmove (s->tris + 3 * out, s->tris + 3 * t, 3 * sizeof *s->tris);
        out++;
      }
  s->n_tris = out;
  g_assert (s->n_tris == s->n_live);
  for (gsize i = 0; i < s->n_removable; i++)
    if (!(s->flags[s->removable[i]] & V_REMOVED))
      s->removable[kept++] = s->removable[i];
  s->n_removable = kept;
  s->rings_valid = FALSE;
  return removed;
}

static void
simplifier_clear (Simplifier *s)
{
  g_free (s->tris);
  g_free (s->start);
  g_free (s->ring);
  g_free (s->quadric);
  g_free (s->self);
  g_free (s->n_around);
  g_free (s->parent);
  g_free (s->flags);
  g_free (s->mark);
  g_free (s->seen);
  g_free (s->dirty);
  g_free (s->gained);
  g_free (s->removable);
  g_free (s->surface);
  g_free (s->target);
  g_free (s->items);
  g_free (s->scratch);
  g_free (s->nb);
  g_free (s->nb_cost);
}

GPtrArray *
bl_simplify_levels (const float   *positions,
                    guint          stride,
                    guint          n_vertices,
                    const guint32 *indices,
                    guint          n_triangles,
                    guint          min_triangles,
                    double         max_error,
                    GCancellable  *cancellable)
{
  Simplifier s = { 0 };
  Levels levels = { 0 };
  guint slow = 0;

  g_return_val_if_fail (stride >= 3, NULL);
  g_return_val_if_fail (positions != NULL || n_vertices == 0, NULL);
  g_return_val_if_fail (indices != NULL || n_triangles == 0, NULL);
  g_return_val_if_fail (n_triangles <= G_MAXUINT32 / 3, NULL);

  if (g_cancellable_is_cancelled (cancellable))
    return NULL;

  s.positions = positions;
  s.stride = stride;
  s.n_vertices = n_vertices;
  s.quadric = g_new0 (Quadric, MAX (n_vertices, 1));
  s.self = g_malloc0_n (MAX (n_vertices, 1), sizeof *s.self);
  s.n_around = g_new0 (guint32, MAX (n_vertices, 1));
  s.flags = g_new0 (guint8, MAX (n_vertices, 1));
  s.mark = g_new0 (guint32, MAX (n_vertices, 1));
  s.seen = g_new0 (guint32, MAX (n_vertices, 1));
  s.dirty = g_new0 (guint32, MAX (n_vertices, 1));
  s.gained = g_new0 (guint32, MAX (n_vertices, 1));
  s.start = g_new (guint32, (gsize) n_vertices + 1);
  s.max_cost = isnan (max_error) ? 0.0 : max_error >= sqrt (G_MAXDOUBLE) ? G_MAXDOUBLE : MAX (max_error, 0.0) * MAX (max_error, 0.0);

  load_triangles (&s, indices, n_triangles);
  s.n_live = s.n_tris;
  s.ring = g_new (guint32, 3 * MAX (s.n_tris, 1));
  classify (&s);
  s.parent = g_new (guint32, MAX (n_vertices, 1));
  s.target = g_new (guint32, MAX (n_vertices, 1));
  s.items = g_new (guint64, MAX (s.n_removable, 1));
  s.scratch = g_new (guint64, MAX (s.n_removable, 1));

  levels.levels = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_simplify_level_free);
  levels.previous = s.n_tris;
  levels.target = s.n_tris / 4;
  levels.min_triangles = min_triangles;
  levels.max_error = max_error;
  levels.done = levels.target == 0 || levels.target < min_triangles;
  while (!levels.done)
    {
      gsize deferred, before = s.n_live, removed;

      if (g_cancellable_is_cancelled (cancellable))
        {
          g_ptr_array_unref (levels.levels);
          simplifier_clear (&s);
          return NULL;
        }
      removed = run_pass (&s, &levels, &deferred);
      slow = removed * 1000 < before ? slow + 1 : 0;
      if (!levels.done && ((removed == 0 && deferred == 0) || slow >= STALL_PASSES))
        finish_level (&s, &levels);   /* stalled: what there is, and no more */
      if (!levels.done && g_cancellable_is_cancelled (cancellable))
        {
          g_ptr_array_unref (levels.levels);
          simplifier_clear (&s);
          return NULL;
        }
    }
  simplifier_clear (&s);
  return levels.levels;
}
