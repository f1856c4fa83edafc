/* bl-mesh-hull.c: 3D convex hull by quickhull, in double. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "bl-mesh-private.h"

#define NONE G_MAXUINT32

typedef struct
{
  guint32 v[3];      /* counter-clockwise seen from outside */
  guint32 nb[3];     /* the face across edge v[i] → v[i + 1] */
  double  n[3];      /* unit outward normal */
  double  d;         /* plane offset: distance of p is n·p − d */
  guint32 outside;   /* head of the list of points above this face */
  guint32 far;       /* the farthest of them */
  double  far_dist;
  guint32 stamp;     /* visibility mark */
  gboolean alive;
} Face;

typedef struct
{
  const double *p;       /* points, shifted to their bounding-box centre */
  gsize         n;
  double        eps;
  GArray       *faces;   /* Face */
  guint32      *next;    /* outside-list links, per point */
} Hull;

static inline const double *
pt (const Hull *h,
    guint32     i)
{
  return &h->p[3 * (gsize) i];
}

static inline double
face_dist (const Face   *f,
           const double *q)
{
  return f->n[0] * q[0] + f->n[1] * q[1] + f->n[2] * q[2] - f->d;
}

static guint32
add_face (Hull    *h,
          guint32  a,
          guint32  b,
          guint32  c)
{
  Face f = { { a, b, c }, { NONE, NONE, NONE }, { 0 }, 0.0, NONE, NONE, 0.0, 0, TRUE };
  const double *pa = pt (h, a), *pb = pt (h, b), *pc = pt (h, c);
  double e1[3] = { pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2] };
  double e2[3] = { pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2] };
  double len;

  f.n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  f.n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  f.n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  len = sqrt (f.n[0] * f.n[0] + f.n[1] * f.n[1] + f.n[2] * f.n[2]);
  if (len > 0.0)
    for (int k = 0; k < 3; k++)
      f.n[k] /= len;
  f.d = f.n[0] * pa[0] + f.n[1] * pa[1] + f.n[2] * pa[2];

  g_array_append_val (h->faces, f);
  return h->faces->len - 1;
}

static inline Face *
face_at (Hull    *h,
         guint32  i)
{
  return &g_array_index (h->faces, Face, i);
}

/* Puts point I on the outside list of the face (among FACES) it is
 * farthest above; drops it when it is above none. */
static void
assign_point (Hull          *h,
              guint32        i,
              const guint32 *faces,
              guint          n_faces)
{
  guint32 best = NONE;
  double best_dist = h->eps;

  for (guint k = 0; k < n_faces; k++)
    {
      double dist = face_dist (face_at (h, faces[k]), pt (h, i));

      if (dist > best_dist)
        {
          best_dist = dist;
          best = faces[k];
        }
    }

  if (best != NONE)
    {
      Face *f = face_at (h, best);

      h->next[i] = f->outside;
      f->outside = i;
      if (f->far == NONE || best_dist > f->far_dist)
        {
          f->far = i;
          f->far_dist = best_dist;
        }
    }
}

static gboolean
initial_simplex (Hull     *h,
                 guint32   out[4],
                 GError  **error)
{
  guint32 ext[6] = { 0, 0, 0, 0, 0, 0 };
  double best = -1.0;
  guint32 i0 = 0, i1 = 0, i2 = NONE, i3 = NONE;

  for (gsize i = 0; i < h->n; i++)
    for (int k = 0; k < 3; k++)
      {
        if (pt (h, i)[k] < pt (h, ext[2 * k])[k])
          ext[2 * k] = i;
        if (pt (h, i)[k] > pt (h, ext[2 * k + 1])[k])
          ext[2 * k + 1] = i;
      }

  for (int a = 0; a < 6; a++)
    for (int b = a + 1; b < 6; b++)
      {
        const double *p = pt (h, ext[a]), *q = pt (h, ext[b]);
        double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1])
                  + (p[2] - q[2]) * (p[2] - q[2]);

        if (d2 > best)
          {
            best = d2;
            i0 = ext[a];
            i1 = ext[b];
          }
      }

  if (sqrt (best) <= h->eps)
    {
      g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                           "all points coincide");
      return FALSE;
    }

  /* farthest from the line i0 i1 */
  {
    const double *a = pt (h, i0), *b = pt (h, i1);
    double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    double ul = sqrt (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);

    best = h->eps;
    for (gsize i = 0; i < h->n; i++)
      {
        const double *q = pt (h, i);
        double w[3] = { q[0] - a[0], q[1] - a[1], q[2] - a[2] };
        double c[3] = {
          u[1] * w[2] - u[2] * w[1],
          u[2] * w[0] - u[0] * w[2],
          u[0] * w[1] - u[1] * w[0],
        };
        double dist = sqrt (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / ul;

        if (dist > best)
          {
            best = dist;
            i2 = i;
          }
      }
  }

  if (i2 == NONE)
    {
      g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                           "all points lie on one line");
      return FALSE;
    }

  /* farthest from the plane i0 i1 i2 */
  {
    guint32 f = add_face (h, i0, i1, i2);
    Face plane = *face_at (h, f);

    g_array_set_size (h->faces, 0);
    best = h->eps;
    for (gsize i = 0; i < h->n; i++)
      {
        double dist = fabs (face_dist (&plane, pt (h, i)));

        if (dist > best)
          {
            best = dist;
            i3 = i;
          }
      }
  }

  if (i3 == NONE)
    {
      g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                           "all points lie in one plane (a flat mesh has no volume)");
      return FALSE;
    }

  out[0] = i0;
  out[1] = i1;
  out[2] = i2;
  out[3] = i3;
  return TRUE;
}

/* Sets the neighbour of face F across edge (from → to) to G. */
static void
relink (Hull    *h,
        guint32  f,
        guint32  from,
        guint32  to,
        guint32  g)
{
  Face *face = face_at (h, f);

  for (int e = 0; e < 3; e++)
    if (face->v[e] == from && face->v[(e + 1) % 3] == to)
      {
        face->nb[e] = g;
        return;
      }
  g_assert_not_reached ();
}

typedef struct
{
  guint32 from, to, other, dead;
} HorizonEdge;

guint32 *
bl_mesh_convex_hull (const double  *points,
                     gsize          n_points,
                     gsize         *n_triangles,
                     GError       **error)
{
  Hull h = { 0 };
  g_autofree double *shifted = NULL;
  g_autofree guint32 *next = NULL;
  g_autofree guint32 *start_of = NULL;
  g_autofree guint32 *end_of = NULL;
  g_autoptr(GArray) faces = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) visible = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) horizon = g_array_new (FALSE, FALSE, sizeof (HorizonEdge));
  g_autoptr(GArray) created = g_array_new (FALSE, FALSE, sizeof (guint32));
  double lo[3] = { DBL_MAX, DBL_MAX, DBL_MAX }, hi[3] = { -DBL_MAX, -DBL_MAX, -DBL_MAX };
  double extent = 0.0;
  guint32 s[4];
  guint32 stamp = 0;
  guint32 *result;
  gsize n_out = 0;

  g_return_val_if_fail (points != NULL || n_points == 0, NULL);
  g_return_val_if_fail (n_triangles != NULL, NULL);

  if (n_points < 4 || n_points >= NONE)
    {
      g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                   "%" G_GSIZE_FORMAT " points cannot enclose a volume", n_points);
      return NULL;
    }

  for (gsize i = 0; i < n_points; i++)
    for (int k = 0; k < 3; k++)
      {
        /* NaN fails every orientation test and leaves faces unlinked */
        if (!isfinite (points[3 * i + k]))
          {
            g_set_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                         "vertex %" G_GSIZE_FORMAT " has a coordinate that is not a finite number", i);
            return NULL;
          }
        lo[k] = MIN (lo[k], points[3 * i + k]);
        hi[k] = MAX (hi[k], points[3 * i + k]);
      }
  for (int k = 0; k < 3; k++)
    if (!isfinite (hi[k] - lo[k]))
      {
        g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                             "the mesh is too large to compute with (its extent overflows)");
        return NULL;
      }

  shifted = g_new (double, 3 * n_points);
  for (gsize i = 0; i < n_points; i++)
    for (int k = 0; k < 3; k++)
      shifted[3 * i + k] = points[3 * i + k] - 0.5 * (lo[k] + hi[k]);
  for (int k = 0; k < 3; k++)
    extent += 0.5 * (hi[k] - lo[k]);

  faces = g_array_new (FALSE, FALSE, sizeof (Face));
  next = g_new (guint32, n_points);
  h.p = shifted;
  h.n = n_points;
  /* the usual quickhull tolerance, from the coordinates' magnitude */
  h.eps = 3.0 * DBL_EPSILON * extent * 4.0;
  h.faces = faces;
  h.next = next;

  if (!initial_simplex (&h, s, error))
    return NULL;

  /* The tetrahedron, each face turned so the fourth vertex is below it. */
  {
    static const int tri[4][4] = { { 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 2, 3, 1 }, { 1, 2, 3, 0 } };
    guint32 all[4];

    for (int f = 0; f < 4; f++)
      {
        guint32 a = s[tri[f][0]], b = s[tri[f][1]], c = s[tri[f][2]];
        guint32 id = add_face (&h, a, b, c);

        if (face_dist (face_at (&h, id), pt (&h, s[tri[f][3]])) > 0.0)
          {
            g_array_set_size (h.faces, id);
            id = add_face (&h, a, c, b);
          }
        all[f] = id;
      }

    for (int f = 0; f < 4; f++)
      for (int e = 0; e < 3; e++)
        {
          Face *ff = face_at (&h, all[f]);
          guint32 from = ff->v[e], to = ff->v[(e + 1) % 3];

          for (int g = 0; g < 4; g++)
            {
              const Face *gg = face_at (&h, all[g]);

              if (g == f)
                continue;
              for (int k = 0; k < 3; k++)
                if (gg->v[k] == to && gg->v[(k + 1) % 3] == from)
                  ff->nb[e] = all[g];
            }
        }

    for (gsize i = 0; i < n_points; i++)
      if (i != s[0] && i != s[1] && i != s[2] && i != s[3])
        assign_point (&h, i, all, 4);
  }

  start_of = g_new (guint32, n_points);
  end_of = g_new (guint32, n_points);
  memset (start_of, 0xff, n_points * sizeof (guint32));
  memset (end_of, 0xff, n_points * sizeof (guint32));

  /* New faces are appended; faces before the cursor never gain points. */
  for (guint32 cursor = 0; cursor < h.faces->len; cursor++)
    {
      guint32 apex;
      const double *q;

      if (!face_at (&h, cursor)->alive || face_at (&h, cursor)->outside == NONE)
        continue;

      apex = face_at (&h, cursor)->far;
      q = pt (&h, apex);
      stamp++;

      /* the faces the apex sees, and the horizon around them */
      g_array_set_size (stack, 0);
      g_array_set_size (visible, 0);
      g_array_set_size (horizon, 0);
      face_at (&h, cursor)->stamp = stamp;
      g_array_append_val (stack, cursor);
      while (stack->len > 0)
        {
          guint32 f = g_array_index (stack, guint32, stack->len - 1);

          g_array_set_size (stack, stack->len - 1);
          g_array_append_val (visible, f);
          for (int e = 0; e < 3; e++)
            {
              Face *face = face_at (&h, f);
              guint32 g = face->nb[e];
              Face *other;

              if (g >= h.faces->len)
                {
                  g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                                       "numerical breakdown (an edge of the hull has no neighbour)");
                  return NULL;
                }
              other = face_at (&h, g);
              if (other->stamp == stamp)
                continue;
              if (face_dist (other, q) > h.eps)
                {
                  other->stamp = stamp;
                  g_array_append_val (stack, g);
                }
              else
                {
                  HorizonEdge he = { face->v[e], face->v[(e + 1) % 3], g, f };

                  g_array_append_val (horizon, he);
                }
            }
        }

      /* a cone of new faces from the horizon to the apex */
      g_array_set_size (created, 0);
      for (guint i = 0; i < horizon->len; i++)
        {
          HorizonEdge *he = &g_array_index (horizon, HorizonEdge, i);
          guint32 nf;

          if (start_of[he->from] != NONE || end_of[he->to] != NONE)
            {
              g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                                   "numerical breakdown (the horizon is not a simple loop)");
              return NULL;
            }
          nf = add_face (&h, he->from, he->to, apex);
          face_at (&h, nf)->nb[0] = he->other;
          relink (&h, he->other, he->to, he->from, nf);
          start_of[he->from] = nf;
          end_of[he->to] = nf;
          g_array_append_val (created, nf);
        }

      for (guint i = 0; i < created->len; i++)
        {
          guint32 nf = g_array_index (created, guint32, i);
          Face *face = face_at (&h, nf);
          guint32 a = face->v[0], b = face->v[1];

          face->nb[1] = start_of[b];   /* across b → apex */
          face->nb[2] = end_of[a];     /* across apex → a */
          if (face->nb[1] == NONE || face->nb[2] == NONE)
            {
              g_set_error_literal (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE,
                                   "numerical breakdown (the horizon is not closed)");
              return NULL;
            }
        }

      for (guint i = 0; i < horizon->len; i++)
        {
          HorizonEdge *he = &g_array_index (horizon, HorizonEdge, i);

          start_of[he->from] = NONE;
          end_of[he->to] = NONE;
        }

      /* retire the visible faces and hand their points to the new ones */
      for (guint i = 0; i < visible->len; i++)
        {
          Face *face = face_at (&h, g_array_index (visible, guint32, i));
          guint32 p = face->outside;

          face->alive = FALSE;
          face->outside = NONE;
          while (p != NONE)
            {
              guint32 after = h.next[p];

              if (p != apex)
                assign_point (&h, p, (const guint32 *) created->data, created->len);
              p = after;
            }
        }
    }

  for (guint i = 0; i < h.faces->len; i++)
    if (face_at (&h, i)->alive)
      n_out++;

  result = g_new (guint32, 3 * n_out);
  n_out = 0;
  for (guint i = 0; i < h.faces->len; i++)
    {
      const Face *face = face_at (&h, i);

      if (!face->alive)
        continue;
      memcpy (&result[3 * n_out], face->v, sizeof face->v);
      n_out++;
    }

  *n_triangles = n_out;
  return result;
}
