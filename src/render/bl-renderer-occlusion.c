/* bl-renderer-occlusion.c: which bodies in view may show, and how many shells a part of the view needs. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-renderer-private.h"

/* The view is cut into tiles of TILE_PX pixels square (the last ones in a
 * row or column smaller).  Every test is made on rays through the eye: a
 * tile is the pyramid of the rays through its pixels, and a pixel's centre
 * lies inside its tile, so what covers a tile's four corner rays (a convex
 * body whose silhouette is convex) covers every pixel GL fills in it. */
#define TILE_PX 16
/* A body whose bounding sphere is under this radius on screen (half a
 * tile's diagonal) cannot cover a whole tile: it is not tried. */
#define COVER_MIN_PX (0.71 * TILE_PX)
/* Ray tests per frame for marking tiles covered: past it, bodies are still
 * drawn but mark no more tiles (fewer are left out, never a visible one). */
#define COVER_BUDGET (1u << 21)
/* Relative margins: a covering shape shrunk by INSIDE_MARGIN, a covered
 * depth pushed back by DEPTH_MARGIN (far beyond double rounding). */
#define INSIDE_MARGIN 1e-4
#define DEPTH_MARGIN 1e-6

/* Where a candidate lies on screen. */
typedef struct
{
  double   nearest;          /* no point of it is nearer (view depth) */
  gboolean known;            /* FALSE: around or behind the eye, may be anywhere */
  int      x0, y0, x1, y1;   /* the tiles its projection may touch */
  int      centre;           /* the tile of its centre, −1 when off screen */
  double   axis[3];          /* unit, eye to centre */
  double   cos_a, sin_a;     /* of the angle its bounding sphere subtends about AXIS */
  /* As a covering shape: the inverse of its 3×3 part, and the eye in its frame. */
  double   inverse[9];
  double   local_eye[3];
} BlBound;

struct _BlOcclusion
{
  int     width, height, nx, ny;
  double (*corner_dir)[3];   /* (nx + 1)(ny + 1) rays through tile corners, forward component 1 */
  double (*tile_axis)[3];    /* unit ray through each tile's centre */
  double *tile_cos, *tile_sin;  /* of the widest angle between it and the tile's corner rays */
  double *depth;             /* per tile: depth up to which it is covered, G_MAXDOUBLE: not */
  gint   *owner;             /* per tile: the candidate that covers it nearest, −1 */
  guint  *layers;            /* per tile: shells covering it whole */
  gint   *shells;            /* per tile: the first SHELL_LAYERS of them (candidates) */
  gint   *witness;           /* per tile: the last shell left out centred in it, −1 */
  double *hit;               /* per corner: where a ray enters the current body, < 0: misses */
  GArray *bounds;            /* BlBound per candidate */
  GArray *order;             /* guint: candidates by nearest depth */
  guint   rays;              /* tests spent this frame */
};

void
bl_occlusion_free (BlRenderer *self)
{
  BlOcclusion *occ = self->occlusion;

  if (occ == NULL)
    return;
  g_free (occ->corner_dir);
  g_free (occ->tile_axis);
  g_free (occ->tile_cos);
  g_free (occ->tile_sin);
  g_free (occ->depth);
  g_free (occ->owner);
  g_free (occ->layers);
  g_free (occ->shells);
  g_free (occ->witness);
  g_free (occ->hit);
  g_array_unref (occ->bounds);
  g_array_unref (occ->order);
  g_free (occ);
  self->occlusion = NULL;
}

static double
dot3 (const double a[3],
      const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The ray through screen point (X, Y) (pixels from the lower left), its
 * component along the view direction 1: a point at parameter t on it lies
 * at view depth t. */
static void
screen_ray (const BlFrameInfo *frame,
            double             x,
            double             y,
            double             dir[3])
{
  double u = (x - 0.5 * frame->width) / frame->px_per_radian;
  double v = (y - 0.5 * frame->height) / frame->px_per_radian;

  for (int k = 0; k < 3; k++)
    dir[k] = frame->forward[k] + u * frame->right[k] + v * frame->up[k];
}

/* The tile grid for this frame's camera, every tile uncovered. */
static BlOcclusion *
occlusion_begin (BlRenderer        *self,
                 const BlFrameInfo *frame,
                 guint              n_candidates)
{
  BlOcclusion *occ = self->occlusion;
  int nx = MAX (1, (frame->width + TILE_PX - 1) / TILE_PX);
  int ny = MAX (1, (frame->height + TILE_PX - 1) / TILE_PX);

  if (occ == NULL)
    {
      occ = self->occlusion = g_new0 (BlOcclusion, 1);
      occ->bounds = g_array_new (FALSE, FALSE, sizeof (BlBound));
      occ->order = g_array_new (FALSE, FALSE, sizeof (guint));
    }
  if (occ->nx != nx || occ->ny != ny)
    {
      occ->nx = nx;
      occ->ny = ny;
      occ->corner_dir = g_realloc_n (occ->corner_dir, (nx + 1) * (ny + 1), sizeof *occ->corner_dir);
      occ->hit = g_renew (double, occ->hit, (nx + 1) * (ny + 1));
      occ->tile_axis = g_realloc_n (occ->tile_axis, nx * ny, sizeof *occ->tile_axis);
      occ->tile_cos = g_renew (double, occ->tile_cos, nx * ny);
      occ->tile_sin = g_renew (double, occ->tile_sin, nx * ny);
      occ->depth = g_renew (double, occ->depth, nx * ny);
      occ->owner = g_renew (gint, occ->owner, nx * ny);
      occ->layers = g_renew (guint, occ->layers, nx * ny);
      occ->shells = g_renew (gint, occ->shells, nx * ny * SHELL_LAYERS);
      occ->witness = g_renew (gint, occ->witness, nx * ny);
    }
  occ->width = frame->width;
  occ->height = frame->height;
  for (int j = 0; j <= ny; j++)
    for (int i = 0; i <= nx; i++)
      screen_ray (frame, MIN (i * TILE_PX, frame->width), MIN (j * TILE_PX, frame->height),
                  occ->corner_dir[j * (nx + 1) + i]);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      {
        int t = j * nx + i;
        double *axis = occ->tile_axis[t], len, widest = 1.0;

        screen_ray (frame, 0.5 * (i * TILE_PX + MIN ((i + 1) * TILE_PX, frame->width)),
                    0.5 * (j * TILE_PX + MIN ((j + 1) * TILE_PX, frame->height)), axis);
        len = sqrt (dot3 (axis, axis));
        for (int k = 0; k < 3; k++)
          axis[k] /= len;
        for (int c = 0; c < 4; c++)
          {
            const double *corner = occ->corner_dir[(j + c / 2) * (nx + 1) + i + c % 2];

            widest = MIN (widest, dot3 (axis, corner) / sqrt (dot3 (corner, corner)));
          }
        /* a little wider than the widest corner, against rounding */
        occ->tile_cos[t] = widest * (1.0 - 1e-9);
        occ->tile_sin[t] = sqrt (MAX (0.0, 1.0 - occ->tile_cos[t] * occ->tile_cos[t]));
        occ->depth[t] = G_MAXDOUBLE;
        occ->owner[t] = -1;
        occ->layers[t] = 0;
        occ->witness[t] = -1;
      }
  g_array_set_size (occ->bounds, n_candidates);
  g_array_set_size (occ->order, 0);
  occ->rays = 0;
  return occ;
}

/* Half the extents of a batch's unit mesh along its axes: a box about its
 * origin that holds it. */
static void
unit_half_extents (const BlBatch *batch,
                   double         h[3])
{
  switch (batch->prim)
    {
    case BL_PRIM_BOX:
      h[0] = h[1] = h[2] = 0.5;
      break;
    case BL_PRIM_SPHERE:
      h[0] = h[1] = h[2] = 1.0;
      break;
    case BL_PRIM_CYLINDER:
    case BL_PRIM_CONE:
      h[0] = h[1] = 1.0;
      h[2] = 0.5;
      break;
    case BL_PRIM_PLANE:
    case BL_PRIM_MESH:
    default:
      h[0] = h[1] = h[2] = batch->bound_radius;
      break;
    }
}

static const float *
candidate_matrix (const BlCandidate *candidate)
{
  return candidate->batch->instances + (gsize) candidate->index * INSTANCE_FLOATS;
}

/* Where CANDIDATE lies on screen (its bounding sphere and the box of its
 * unit mesh under its matrix). */
static void
bound_candidate (const BlOcclusion *occ,
                 const BlFrameInfo *frame,
                 const BlCandidate *candidate,
                 BlBound           *bound)
{
  const float *m = candidate_matrix (candidate);
  double h[3], v[3], d, z, reach = 0.0, xmin = G_MAXDOUBLE, xmax = -G_MAXDOUBLE, ymin = G_MAXDOUBLE,
         ymax = -G_MAXDOUBLE;

  memset (bound, 0, sizeof *bound);
  unit_half_extents (candidate->batch, h);
  for (int k = 0; k < 3; k++)
    v[k] = m[12 + k] - frame->eye[k];
  d = sqrt (dot3 (v, v));
  z = dot3 (v, frame->forward);
  for (int c = 0; c < 3; c++)
    reach += h[c] * fabs (m[4 * c] * frame->forward[0] + m[4 * c + 1] * frame->forward[1]
                          + m[4 * c + 2] * frame->forward[2]);
  bound->nearest = MAX (z - candidate->radius, z - reach);
  bound->centre = -1;
  /* Around the eye or reaching behind it: no footprint (never left out). */
  if (!(d > candidate->radius * (1.0 + 1e-9)) || !(bound->nearest > 1e-9 * d))
    {
      bound->nearest = -G_MAXDOUBLE;
      return;
    }
  bound->known = TRUE;
  for (int k = 0; k < 3; k++)
    bound->axis[k] = v[k] / d;
  bound->sin_a = candidate->radius / d;
  bound->cos_a = sqrt (1.0 - bound->sin_a * bound->sin_a);
  for (int c = 0; c < 8; c++)
    {
      double p[3], pz, x, y;

      for (int k = 0; k < 3; k++)
        p[k] = v[k] + (c & 1 ? h[0] : -h[0]) * m[k] + (c & 2 ? h[1] : -h[1]) * m[4 + k]
               + (c & 4 ? h[2] : -h[2]) * m[8 + k];
      pz = dot3 (p, frame->forward);
      x = 0.5 * frame->width + frame->px_per_radian * dot3 (p, frame->right) / pz;
      y = 0.5 * frame->height + frame->px_per_radian * dot3 (p, frame->up) / pz;
      xmin = MIN (xmin, x);
      xmax = MAX (xmax, x);
      ymin = MIN (ymin, y);
      ymax = MAX (ymax, y);
    }
  /* a pixel's margin against the GPU's rounding */
  bound->x0 = (int) CLAMP (floor ((xmin - 1.0) / TILE_PX), 0, occ->nx - 1);
  bound->x1 = (int) CLAMP (floor ((xmax + 1.0) / TILE_PX), 0, occ->nx - 1);
  bound->y0 = (int) CLAMP (floor ((ymin - 1.0) / TILE_PX), 0, occ->ny - 1);
  bound->y1 = (int) CLAMP (floor ((ymax + 1.0) / TILE_PX), 0, occ->ny - 1);
  {
    double x = 0.5 * frame->width + frame->px_per_radian * dot3 (v, frame->right) / z;
    double y = 0.5 * frame->height + frame->px_per_radian * dot3 (v, frame->up) / z;

    if (x >= 0.0 && y >= 0.0 && x < frame->width && y < frame->height)
      bound->centre = (int) (y / TILE_PX) * occ->nx + (int) (x / TILE_PX);
  }
}

/* Whether tile T may hold a pixel of a body within BOUND's bounding
 * sphere: the angle between their axes is within the sum of theirs. */
static gboolean
tile_touched (const BlOcclusion *occ,
              const BlBound     *bound,
              int                t)
{
  return dot3 (occ->tile_axis[t], bound->axis)
         >= bound->cos_a * occ->tile_cos[t] - bound->sin_a * occ->tile_sin[t] - 1e-12;
}

/* The shape that certainly lies inside what GL draws of CANDIDATE: a box
 * itself; a sphere's tessellation holds the ball of its inradius; a
 * cylinder's, the cylinder of its sides' distance from the axis.  Others
 * (cones, meshes, planes, specks) cover nothing. */
static gboolean
covering_shape (const BlRenderer  *self,
                const BlCandidate *candidate,
                double            *radius)
{
  int level = candidate->level;

  if (level < 0 || candidate->px < COVER_MIN_PX)
    return FALSE;
  if (candidate->batch->lods[level] == NULL)
    level = 0;
  switch (candidate->batch->prim)
    {
    case BL_PRIM_BOX:
      *radius = 0.5;
      return TRUE;
    case BL_PRIM_SPHERE:
      *radius = self->sphere_inradius[level];
      return TRUE;
    case BL_PRIM_CYLINDER:
      *radius = self->cylinder_inradius[level];
      return TRUE;
    case BL_PRIM_CONE:
    case BL_PRIM_PLANE:
    case BL_PRIM_MESH:
    default:
      return FALSE;
    }
}

/* Where the ray EYE + t·DIR (in the shape's frame) enters the covering
 * shape of PRIM (RADIUS, shrunk by INSIDE_MARGIN), or −1 when it misses. */
static double
ray_enter (BlPrim        prim,
           double        radius,
           const double  eye[3],
           const double  dir[3])
{
  double lo = 0.0, hi = G_MAXDOUBLE, r = radius * (1.0 - INSIDE_MARGIN), h = 0.5 * (1.0 - INSIDE_MARGIN);

  if (prim == BL_PRIM_SPHERE)
    {
      double a = dot3 (dir, dir), b = dot3 (eye, dir), c = dot3 (eye, eye) - r * r, disc = b * b - a * c;

      return disc >= 0.0 && a > 0.0 ? MAX (-1.0, (-b - sqrt (disc)) / a) : -1.0;
    }
  for (int k = prim == BL_PRIM_BOX ? 0 : 2; k < 3; k++)
    {
      double t1, t2;

      if (dir[k] == 0.0)
        {
          if (fabs (eye[k]) > h)
            return -1.0;
          continue;
        }
      t1 = (-h - eye[k]) / dir[k];
      t2 = (h - eye[k]) / dir[k];
      lo = MAX (lo, MIN (t1, t2));
      hi = MIN (hi, MAX (t1, t2));
    }
  if (prim == BL_PRIM_CYLINDER)
    {
      double a = dir[0] * dir[0] + dir[1] * dir[1], b = eye[0] * dir[0] + eye[1] * dir[1];
      double c = eye[0] * eye[0] + eye[1] * eye[1] - r * r, disc = b * b - a * c;

      if (a == 0.0 ? c > 0.0 : disc < 0.0)
        return -1.0;
      if (a > 0.0)
        {
          lo = MAX (lo, (-b - sqrt (disc)) / a);
          hi = MIN (hi, (-b + sqrt (disc)) / a);
        }
    }
  return lo <= hi && lo > 0.0 ? lo : -1.0;
}

/* Whether point P (in the shape's frame) lies inside the covering shape. */
static gboolean
shape_holds (BlPrim        prim,
             double        radius,
             const double  p[3])
{
  double r = radius * (1.0 - INSIDE_MARGIN), h = 0.5 * (1.0 - INSIDE_MARGIN);

  switch (prim)
    {
    case BL_PRIM_SPHERE:
      return dot3 (p, p) <= r * r;
    case BL_PRIM_CYLINDER:
      return p[0] * p[0] + p[1] * p[1] <= r * r && fabs (p[2]) <= h;
    case BL_PRIM_BOX:
      return fabs (p[0]) <= h && fabs (p[1]) <= h && fabs (p[2]) <= h;
    case BL_PRIM_CONE:
    case BL_PRIM_PLANE:
    case BL_PRIM_MESH:
    default:
      return FALSE;
    }
}

/* Makes BOUND ready to cover: the inverse of the candidate's matrix and
 * the eye in its frame.  FALSE when it cannot (flat, not wholly between
 * the near and far planes, which would clip it, or the eye within reach
 * of what GL draws of it: its unit mesh's box). */
static gboolean
prepare_cover (const BlFrameInfo *frame,
               const BlCandidate *candidate,
               BlBound           *bound)
{
  const float *m = candidate_matrix (candidate);
  double a[9], det, scale = 0.0, h[3], rel[3];

  if (!bound->known)
    return FALSE;
  /* frame->planes[4] and [5]: near and far, inside ≥ 0 */
  for (int p = 4; p < 6; p++)
    if (!(frame->planes[p][0] * m[12] + frame->planes[p][1] * m[13] + frame->planes[p][2] * m[14]
          + frame->planes[p][3] >= candidate->radius * (1.0 + INSIDE_MARGIN)))
      return FALSE;
  for (int c = 0; c < 3; c++)
    for (int r = 0; r < 3; r++)
      a[3 * c + r] = m[4 * c + r];
  for (int k = 0; k < 9; k++)
    scale = MAX (scale, fabs (a[k]));
  /* cofactors, transposed: the inverse times det (column-major) */
  bound->inverse[0] = a[4] * a[8] - a[7] * a[5];
  bound->inverse[3] = -(a[3] * a[8] - a[6] * a[5]);
  bound->inverse[6] = a[3] * a[7] - a[6] * a[4];
  bound->inverse[1] = -(a[1] * a[8] - a[7] * a[2]);
  bound->inverse[4] = a[0] * a[8] - a[6] * a[2];
  bound->inverse[7] = -(a[0] * a[7] - a[6] * a[1]);
  bound->inverse[2] = a[1] * a[5] - a[4] * a[2];
  bound->inverse[5] = -(a[0] * a[5] - a[3] * a[2]);
  bound->inverse[8] = a[0] * a[4] - a[3] * a[1];
  det = a[0] * bound->inverse[0] + a[3] * bound->inverse[1] + a[6] * bound->inverse[2];
  if (!(fabs (det) > 1e-9 * scale * scale * scale))
    return FALSE;
  for (int k = 0; k < 9; k++)
    bound->inverse[k] /= det;
  for (int k = 0; k < 3; k++)
    rel[k] = frame->eye[k] - m[12 + k];
  for (int r = 0; r < 3; r++)
    bound->local_eye[r] = bound->inverse[r] * rel[0] + bound->inverse[3 + r] * rel[1] + bound->inverse[6 + r] * rel[2];
  unit_half_extents (candidate->batch, h);
  for (int k = 0; k < 3; k++)
    if (fabs (bound->local_eye[k]) > h[k] * (1.0 + INSIDE_MARGIN))
      return TRUE;
  return FALSE;
}

/* Marks the tiles whose four corner rays enter CANDIDATE's covering shape:
 * in LAYERS when counting shells, else with the depth of the farthest of
 * those entries (a convex body's front surface is farthest over a tile at
 * one of its corners) and the candidate as their owner. */
static void
cover_tiles (BlOcclusion       *occ,
             const BlCandidate *candidate,
             guint              index,
             BlBound           *bound,
             double             radius,
             gboolean           layers)
{
  int w = bound->x1 - bound->x0 + 2;
  BlPrim prim = candidate->batch->prim;

  occ->rays += (guint) (w * (bound->y1 - bound->y0 + 2));
  for (int j = bound->y0; j <= bound->y1 + 1; j++)
    for (int i = bound->x0; i <= bound->x1 + 1; i++)
      {
        const double *dir = occ->corner_dir[j * (occ->nx + 1) + i];
        double local[3];

        for (int r = 0; r < 3; r++)
          local[r] = bound->inverse[r] * dir[0] + bound->inverse[3 + r] * dir[1] + bound->inverse[6 + r] * dir[2];
        occ->hit[j * (occ->nx + 1) + i] = ray_enter (prim, radius, bound->local_eye, local);
      }
  for (int j = bound->y0; j <= bound->y1; j++)
    for (int i = bound->x0; i <= bound->x1; i++)
      {
        int t = j * occ->nx + i, c = j * (occ->nx + 1) + i;
        double far = MAX (MAX (occ->hit[c], occ->hit[c + 1]),
                          MAX (occ->hit[c + occ->nx + 1], occ->hit[c + occ->nx + 2]));
        double near = MIN (MIN (occ->hit[c], occ->hit[c + 1]),
                           MIN (occ->hit[c + occ->nx + 1], occ->hit[c + occ->nx + 2]));

        if (!(near > 0.0))
          continue;
        if (layers)
          {
            if (occ->layers[t] < SHELL_LAYERS)
              occ->shells[t * SHELL_LAYERS + occ->layers[t]] = (gint) index;
            occ->layers[t]++;
          }
        else if (far * (1.0 + DEPTH_MARGIN) < occ->depth[t])
          {
            occ->depth[t] = far * (1.0 + DEPTH_MARGIN);
            occ->owner[t] = (gint) index;
          }
      }
}

/* Whether every corner of the box of OCCLUDEE's unit mesh lies inside the
 * covering shape of OWNER (whose bound is ready to cover): it is then
 * inside that convex body, which the eye is outside of. */
static gboolean
held_inside (BlRenderer        *self,
             const BlCandidate *owner,
             const BlBound     *owner_bound,
             const BlCandidate *occludee)
{
  const float *mo = candidate_matrix (owner), *m = candidate_matrix (occludee);
  double h[3], radius;

  if (!covering_shape (self, owner, &radius))
    return FALSE;
  unit_half_extents (occludee->batch, h);
  for (int c = 0; c < 8; c++)
    {
      double p[3], local[3];

      for (int k = 0; k < 3; k++)
        p[k] = m[12 + k] - mo[12 + k] + (c & 1 ? h[0] : -h[0]) * m[k] + (c & 2 ? h[1] : -h[1]) * m[4 + k]
               + (c & 4 ? h[2] : -h[2]) * m[8 + k];
      for (int r = 0; r < 3; r++)
        local[r] = owner_bound->inverse[r] * p[0] + owner_bound->inverse[3 + r] * p[1]
                   + owner_bound->inverse[6 + r] * p[2];
      if (!shape_holds (owner->batch->prim, radius, local))
        return FALSE;
    }
  return TRUE;
}

/* How many of CANDIDATES could cover a tile (up to AT_MOST). */
static guint
count_covering (BlRenderer *self,
                GArray     *candidates,
                guint       at_most)
{
  guint n = 0;
  double radius;

  for (guint c = 0; c < candidates->len && n < at_most; c++)
    n += covering_shape (self, &g_array_index (candidates, BlCandidate, c), &radius);
  return n;
}

static void
take (const BlCandidate *candidate)
{
  bl_batch_take (candidate->batch, candidate->index, candidate->level, candidate->speck);
}

/* The radius of the ball about OWNER's centre inside what GL draws of it
 * (its covering shape, RADIUS in its frame, under its matrix): RADIUS
 * times the matrix's least stretch, exact when its columns are orthogonal
 * (a rotation times semi-axes), else bounded below by |det| / ‖M‖²_F. */
static double
inner_ball (const BlCandidate *owner,
            double             radius)
{
  const float *m = candidate_matrix (owner);
  double g[3][3], least = G_MAXDOUBLE, frob = 0.0, det;
  gboolean orthogonal = TRUE;

  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      g[a][b] = (double) m[4 * a] * m[4 * b] + (double) m[4 * a + 1] * m[4 * b + 1]
                + (double) m[4 * a + 2] * m[4 * b + 2];
  for (int a = 0; a < 3; a++)
    {
      least = MIN (least, g[a][a]);
      frob += g[a][a];
      for (int b = a + 1; b < 3; b++)
        orthogonal &= fabs (g[a][b]) <= 1e-9 * sqrt (g[a][a] * g[b][b]);
    }
  if (orthogonal)
    return radius * sqrt (least);
  det = m[0] * ((double) m[5] * m[10] - (double) m[9] * m[6]) - m[4] * ((double) m[1] * m[10] - (double) m[9] * m[2])
        + m[8] * ((double) m[1] * m[6] - (double) m[5] * m[2]);
  return frob > 0.0 ? radius * fabs (det) / frob : 0.0;
}

/* Whether INNER is OUTER scaled down about the same centre (the same
 * tessellation, its matrix OUTER's times λ < 1 but for rounding): a
 * convex mesh about its centre holds itself scaled down, with room
 * (1 − λ) times its inner ball (BALL) for the rounding, at most 3·dev away
 * (dev the largest difference of a matrix element, the vertices within 1
 * of the centre).  Nested ellipsoids of one shape (100,000 models at one
 * place) 10⁻⁵ apart in size need no other margin. */
static gboolean
similar_inside (const BlCandidate *inner,
                const BlCandidate *outer,
                double             ball)
{
  const float *m = candidate_matrix (inner), *mo = candidate_matrix (outer);
  double lambda = 0.0, top = 0.0, dev = 0.0;

  if (inner->level != outer->level || memcmp (m + 12, mo + 12, 3 * sizeof (float)) != 0)
    return FALSE;
  for (int k = 0; k < 12; k++)
    if (fabs (mo[k]) > top)
      {
        top = fabs (mo[k]);
        lambda = (double) m[k] / mo[k];
      }
  if (!(lambda > 0.0 && lambda < 1.0))
    return FALSE;
  for (int k = 0; k < 12; k++)
    dev = MAX (dev, fabs (m[k] - lambda * mo[k]));
  return 3.0 * dev < (1.0 - lambda) * ball * (1.0 - INSIDE_MARGIN);
}

/* Whether what GL draws of SHELL lies inside what it draws of OUTER:
 * OUTER's scaled down, or SHELL's bounding sphere inside the ball in
 * OUTER's covering shape. */
static gboolean
shell_inside (BlRenderer        *self,
              const BlCandidate *shell,
              const BlCandidate *outer)
{
  const float *m = candidate_matrix (shell), *mo = candidate_matrix (outer);
  double d[3], radius, ball;

  if (!covering_shape (self, outer, &radius))
    return FALSE;
  ball = inner_ball (outer, radius);
  if (similar_inside (shell, outer, ball))
    return TRUE;
  for (int j = 0; j < 3; j++)
    d[j] = (double) m[12 + j] - mo[12 + j];
  return sqrt (dot3 (d, d)) + shell->radius <= ball * (1.0 - INSIDE_MARGIN);
}

/* Whether SHELL lies inside at least SHELL_LAYERS of the shells listed at
 * tile T (kept, covering it whole, the eye outside each), or inside the
 * last one left out for that (the witness: inside is transitive): then
 * that many draw over every pixel of SHELL. */
static gboolean
nested_deep (BlRenderer        *self,
             const BlOcclusion *occ,
             GArray            *candidates,
             const BlCandidate *shell,
             int                t)
{
  if (t < 0 || occ->layers[t] < SHELL_LAYERS)
    return FALSE;
  if (occ->witness[t] >= 0
      && shell_inside (self, shell, &g_array_index (candidates, BlCandidate, occ->witness[t])))
    return TRUE;
  for (guint k = 0; k < SHELL_LAYERS; k++)
    if (!shell_inside (self, shell, &g_array_index (candidates, BlCandidate, occ->shells[t * SHELL_LAYERS + k])))
      return FALSE;
  return TRUE;
}

static int
compare_nearest (const void *a,
                 const void *b,
                 void       *data)
{
  const BlBound *bounds = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  double x = bounds[i].nearest, y = bounds[j].nearest;

  return x < y ? -1 : x > y ? 1 : (i > j) - (i < j);
}

/* Bounds every candidate and orders them front to back. */
static BlOcclusion *
bound_all (BlRenderer        *self,
           const BlFrameInfo *frame,
           GArray            *candidates)
{
  BlOcclusion *occ = occlusion_begin (self, frame, candidates->len);

  for (guint c = 0; c < candidates->len; c++)
    {
      bound_candidate (occ, frame, &g_array_index (candidates, BlCandidate, c),
                       &g_array_index (occ->bounds, BlBound, c));
      g_array_append_val (occ->order, c);
    }
  g_qsort_with_data (occ->order->data, occ->order->len, sizeof (guint), compare_nearest, occ->bounds->data);
  return occ;
}

void
bl_occlusion_keep_bodies (BlRenderer        *self,
                          const BlFrameInfo *frame,
                          GArray            *candidates)
{
  BlOcclusion *occ;
  double radius;

  /* Nothing big enough to hide anything (a large world at fit-all): all
   * of them, as they are. */
  if (count_covering (self, candidates, 1) == 0)
    {
      for (guint c = 0; c < candidates->len; c++)
        take (&g_array_index (candidates, BlCandidate, c));
      return;
    }
  occ = bound_all (self, frame, candidates);
  for (guint o = 0; o < occ->order->len; o++)
    {
      guint c = g_array_index (occ->order, guint, o);
      BlCandidate *candidate = &g_array_index (candidates, BlCandidate, c);
      BlBound *bound = &g_array_index (occ->bounds, BlBound, c);
      gboolean hidden = FALSE;

      if (bound->known && bound->centre >= 0 && occ->owner[bound->centre] >= 0)
        {
          gint owner = occ->owner[bound->centre];

          hidden = held_inside (self, &g_array_index (candidates, BlCandidate, owner),
                                &g_array_index (occ->bounds, BlBound, owner), candidate);
        }
      if (!hidden && bound->known)
        {
          hidden = TRUE;
          for (int j = bound->y0; j <= bound->y1 && hidden; j++)
            for (int i = bound->x0; i <= bound->x1 && hidden; i++)
              {
                int t = j * occ->nx + i;

                hidden = !(occ->depth[t] >= bound->nearest) || !tile_touched (occ, bound, t);
              }
        }
      if (hidden)
        continue;
      take (candidate);
      if (occ->rays < COVER_BUDGET && covering_shape (self, candidate, &radius) && prepare_cover (frame, candidate, bound))
        cover_tiles (occ, candidate, c, bound, radius, FALSE);
    }
}

void
bl_occlusion_keep_shells (BlRenderer        *self,
                          const BlFrameInfo *frame,
                          GArray            *candidates)
{
  BlOcclusion *occ;
  g_autofree gboolean *keep = NULL;

  /* Too few to make SHELL_LAYERS anywhere: all of them. */
  if (count_covering (self, candidates, SHELL_LAYERS) < SHELL_LAYERS)
    {
      for (guint c = 0; c < candidates->len; c++)
        take (&g_array_index (candidates, BlCandidate, c));
      return;
    }
  occ = bound_all (self, frame, candidates);
  keep = g_new0 (gboolean, candidates->len);
  for (guint o = 0; o < occ->order->len; o++)
    {
      guint c = g_array_index (occ->order, guint, o);
      BlCandidate *candidate = &g_array_index (candidates, BlCandidate, c);
      BlBound *bound = &g_array_index (occ->bounds, BlBound, c);
      const float *m = candidate_matrix (candidate);
      gboolean selected = m[29] >= 0.0f && (int) m[29] == frame->selected;
      double radius;

      /* Left out: inside SHELL_LAYERS kept shells, or over none but tiles
       * that many cover whole. */
      keep[c] = selected || !bound->known;
      if (!keep[c] && nested_deep (self, occ, candidates, candidate, bound->centre))
        occ->witness[bound->centre] = (gint) c;
      else if (!keep[c])
        for (int j = bound->y0; j <= bound->y1 && !keep[c]; j++)
          for (int i = bound->x0; i <= bound->x1 && !keep[c]; i++)
            {
              int t = j * occ->nx + i;

              keep[c] = occ->layers[t] < SHELL_LAYERS && tile_touched (occ, bound, t);
            }
      if (keep[c] && occ->rays < COVER_BUDGET && covering_shape (self, candidate, &radius)
          && prepare_cover (frame, candidate, bound))
        cover_tiles (occ, candidate, c, bound, radius, TRUE);
    }
  /* in their own order: translucent layers blend in the order drawn */
  for (guint c = 0; c < candidates->len; c++)
    if (keep[c])
      take (&g_array_index (candidates, BlCandidate, c));
}
