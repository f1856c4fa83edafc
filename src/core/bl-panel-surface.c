/* bl-panel-surface.c: the panelled surface of a link's collisions: primitives
 * cut to a budget, meshes simplified or refined and split into shells, each
 * shell turned outward, the panels inside another body left out, and the
 * exact integrals over one flat panel (bl-panel-surface.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-panel-surface.h"
#include "bl-simplify.h"

/* ---- Surfaces -------------------------------------------------------------- */

typedef struct
{
  GArray *points;   /* double, 9 per panel */
} Builder;

static void
builder_add (Builder      *b,
             const BlPose *pose,
             BlVec3        p0,
             BlVec3        p1,
             BlVec3        p2)
{
  BlVec3 corners[3] = { p0, p1, p2 };

  for (int k = 0; k < 3; k++)
    {
      BlVec3 q = bl_pose_apply (*pose, corners[k]);
      double xyz[3] = { q.x, q.y, q.z };

      g_array_append_vals (b->points, xyz, 3);
    }
}

/* Six times the signed volume the panels from `first` on enclose. */
static double
six_volume (const double *points,
            gsize         first,
            gsize         end)
{
  double sum = 0.0;

  for (gsize i = first; i < end; i++)
    {
      const double *a = points + 9 * i, *b = a + 3, *c = a + 6;

      sum += a[0] * (b[1] * c[2] - b[2] * c[1])
           - a[1] * (b[0] * c[2] - b[2] * c[0])
           + a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
  return sum;
}

/* Turns the panels [first, end) outward if they enclose a negative volume
 * (a primitive's winding is settled once, here, not per case). */
static void
orient_range (Builder *b,
              gsize    first,
              gsize    end)
{
  double *points = (double *) b->points->data;

  if (six_volume (points, first, end) >= 0.0)
    return;
  for (gsize i = first; i < end; i++)
    for (int k = 0; k < 3; k++)
      {
        double t = points[9 * i + 3 + k];
        points[9 * i + 3 + k] = points[9 * i + 6 + k];
        points[9 * i + 6 + k] = t;
      }
}

static void
orient_outward (Builder *b,
                gsize    first)
{
  orient_range (b, first, b->points->len / 9);
}

/* The point at index i of a ring of n points (one: on the axis). */
static BlVec3
ring_point (double rho,
            double z,
            double sx,
            double sy,
            guint  i,
            guint  n)
{
  double angle = 2 * G_PI * (i % n) / n;

  return bl_vec3 (rho * sx * cos (angle), rho * sy * sin (angle), z);
}

/* A surface of revolution about z: the meridian `profile` (ρ, z) runs from
 * a point on the axis to a point on the axis; each ring is an ellipse of
 * semi-axes ρ·sx, ρ·sy with about one point per `h` of its perimeter.
 * Neighbouring rings are zipped by angle, always stepping on the side whose
 * next point comes first, so panels stay near-equilateral however the ring
 * sizes change.  Both kinds of step, (A_a, A_a+1, B_c) and
 * (A_a, B_c+1, B_c), turn the same way. */
static void
add_revolution (Builder      *b,
                const BlPose *pose,
                const double *profile,
                gsize         n_profile,
                double        sx,
                double        sy,
                double        h)
{
  gsize first = b->points->len / 9;
  guint na = 0;

  for (gsize i = 0; i < n_profile; i++)
    {
      double rho = profile[2 * i], z = profile[2 * i + 1];
      double rho_a = i > 0 ? profile[2 * i - 2] : 0.0, z_a = i > 0 ? profile[2 * i - 1] : 0.0;
      /* Ramanujan's perimeter of the ellipse with semi-axes ρ·sx, ρ·sy. */
      double ea = rho * sx, eb = rho * sy;
      double perimeter = G_PI * (3 * (ea + eb) - sqrt ((3 * ea + eb) * (ea + 3 * eb)));
      guint nb = rho > 0.0 ? MAX (3, (guint) ceil (perimeter / h - 0.5)) : 1;
      guint a = 0, c = 0;

      if (i > 0)
        while ((na > 1 && a < na) || (nb > 1 && c < nb))
          {
            gboolean step_a = nb == 1 || c == nb ||
                              (na > 1 && a < na && (a + 1.0) / na <= (c + 1.0) / nb);

            if (step_a)
              {
                builder_add (b, pose, ring_point (rho_a, z_a, sx, sy, a, na),
                             ring_point (rho_a, z_a, sx, sy, a + 1, na), ring_point (rho, z, sx, sy, c, nb));
                a++;
              }
            else
              {
                builder_add (b, pose, ring_point (rho_a, z_a, sx, sy, a, na),
                             ring_point (rho, z, sx, sy, c + 1, nb), ring_point (rho, z, sx, sy, c, nb));
                c++;
              }
          }
      na = nb;
    }
  orient_outward (b, first);
}

/* Appends the segment from (ρ0, z0) to (ρ1, z1) cut into pieces of about h,
 * without its first point. */
static void
profile_line (GArray *profile,
              double  rho0,
              double  z0,
              double  rho1,
              double  z1,
              double  h)
{
  double length = hypot (rho1 - rho0, z1 - z0);
  guint n = MAX (1, (guint) ceil (length / h - 0.5));

  for (guint i = 1; i <= n; i++)
    {
      double t = (double) i / n;
      double p[2] = { rho0 + t * (rho1 - rho0), z0 + t * (z1 - z0) };
      g_array_append_vals (profile, p, 2);
    }
}

/* Appends the elliptic arc ρ = a sin θ, z = zc − c cos θ for θ from θ0 to
 * θ1, at about equal arc lengths h, without its first point. */
static void
profile_arc (GArray *profile,
             double  a,
             double  c,
             double  zc,
             double  theta0,
             double  theta1,
             double  h)
{
  enum { STEPS = 2048 };
  double lengths[STEPS + 1];
  guint n;

  /* Arc length by the midpoint rule on a fine grid, then inverted. */
  lengths[0] = 0.0;
  for (guint i = 1; i <= STEPS; i++)
    {
      double t = theta0 + (theta1 - theta0) * (i - 0.5) / STEPS;
      lengths[i] = lengths[i - 1] + hypot (a * cos (t), c * sin (t)) * fabs (theta1 - theta0) / STEPS;
    }
  n = MAX (2, (guint) ceil (lengths[STEPS] / h - 0.5));
  for (guint i = 1, j = 0; i <= n; i++)
    {
      double target = lengths[STEPS] * i / n, t, theta;
      double p[2];

      while (j < STEPS && lengths[j + 1] < target)
        j++;
      t = j < STEPS ? (target - lengths[j]) / (lengths[j + 1] - lengths[j]) : 1.0;
      theta = theta0 + (theta1 - theta0) * (j + t) / STEPS;
      if (i == n)
        theta = theta1;
      /* sin π is 1e-16, not 0: a pole must be on the axis. */
      p[0] = theta == G_PI ? 0.0 : a * sin (theta);
      p[1] = zc - c * cos (theta);
      g_array_append_vals (profile, p, 2);
    }
}

static void
add_ellipsoid (Builder     *b,
               BlPose       pose,
               BlVec3       semi,
               double       h)
{
  double s[3] = { semi.x, semi.y, semi.z };
  int axis = 2;
  BlPose turn = BL_POSE_IDENTITY;
  g_autoptr(GArray) profile = g_array_new (FALSE, FALSE, sizeof (double));
  double start[2] = { 0.0, 0.0 };
  double a, sx, sy;

  /* Revolve about the longest semi-axis: the rings are then the shorter
   * ellipses and the poles the sharpest ends. */
  for (int i = 0; i < 3; i++)
    if (s[i] > s[axis])
      axis = i;
  if (axis == 0)
    turn.q = bl_quat_from_euler (0.0, G_PI / 2, 0.0);   /* pitch: z onto x */
  else if (axis == 1)
    turn.q = bl_quat_from_euler (-G_PI / 2, 0.0, 0.0);  /* roll: z onto y */
  {
    /* In the turned frame z is the chosen axis; the ring axes are the
     * images of x and y, whatever order the rotation gives them. */
    BlVec3 ex = bl_quat_rotate (turn.q, bl_vec3 (1, 0, 0));
    BlVec3 ey = bl_quat_rotate (turn.q, bl_vec3 (0, 1, 0));
    sx = fabs (ex.x) * s[0] + fabs (ex.y) * s[1] + fabs (ex.z) * s[2];
    sy = fabs (ey.x) * s[0] + fabs (ey.y) * s[1] + fabs (ey.z) * s[2];
  }
  a = MAX (sx, sy);
  start[1] = -s[axis];
  g_array_append_vals (profile, start, 2);
  profile_arc (profile, a, s[axis], 0.0, 0.0, G_PI, h);
  pose = bl_pose_mul (pose, turn);
  add_revolution (b, &pose, (double *) profile->data, profile->len / 2, sx / a, sy / a, h);
}

static void
add_box (Builder *b,
         BlPose   pose,
         BlVec3   size,
         double   h)
{
  double half[3] = { size.x / 2, size.y / 2, size.z / 2 };
  gsize first = b->points->len / 9;

  for (int axis = 0; axis < 3; axis++)
    for (int side = -1; side <= 1; side += 2)
      {
        int u = (axis + 1) % 3, v = (axis + 2) % 3;
        guint nu = MAX (1, (guint) ceil (2 * half[u] / h - 0.5));
        guint nv = MAX (1, (guint) ceil (2 * half[v] / h - 0.5));

        for (guint i = 0; i < nu; i++)
          for (guint j = 0; j < nv; j++)
            {
              double c[4][3];

              for (int k = 0; k < 4; k++)
                {
                  guint di = (k == 1 || k == 2), dj = (k >= 2);
                  c[k][axis] = side * half[axis];
                  c[k][u] = -half[u] + 2 * half[u] * (i + di) / nu;
                  c[k][v] = -half[v] + 2 * half[v] * (j + dj) / nv;
                }
              /* (u, v, axis) is right-handed: u × v = axis, so the panel
               * c0 c1 c2 faces +axis; the −axis face is wound the other way. */
              if (side > 0)
                {
                  builder_add (b, &pose, bl_vec3 (c[0][0], c[0][1], c[0][2]), bl_vec3 (c[1][0], c[1][1], c[1][2]), bl_vec3 (c[2][0], c[2][1], c[2][2]));
                  builder_add (b, &pose, bl_vec3 (c[0][0], c[0][1], c[0][2]), bl_vec3 (c[2][0], c[2][1], c[2][2]), bl_vec3 (c[3][0], c[3][1], c[3][2]));
                }
              else
                {
                  builder_add (b, &pose, bl_vec3 (c[0][0], c[0][1], c[0][2]), bl_vec3 (c[2][0], c[2][1], c[2][2]), bl_vec3 (c[1][0], c[1][1], c[1][2]));
                  builder_add (b, &pose, bl_vec3 (c[0][0], c[0][1], c[0][2]), bl_vec3 (c[3][0], c[3][1], c[3][2]), bl_vec3 (c[2][0], c[2][1], c[2][2]));
                }
            }
      }
  g_assert (six_volume ((double *) b->points->data, first, b->points->len / 9) > 0.0);
}

static void
add_primitive (Builder           *b,
               const BlPanelBody *body,
               double             h)
{
  g_autoptr(GArray) profile = g_array_new (FALSE, FALSE, sizeof (double));
  double r = body->size.x, length = body->size.z;
  double start[2] = { 0.0, -length / 2 };

  switch (body->kind)
    {
    case BL_PANEL_BODY_ELLIPSOID:
      add_ellipsoid (b, body->pose, body->size, h);
      return;
    case BL_PANEL_BODY_BOX:
      add_box (b, body->pose, body->size, h);
      return;
    case BL_PANEL_BODY_CYLINDER:
      g_array_append_vals (profile, start, 2);
      profile_line (profile, 0.0, -length / 2, r, -length / 2, h);
      profile_line (profile, r, -length / 2, r, length / 2, h);
      profile_line (profile, r, length / 2, 0.0, length / 2, h);
      break;
    case BL_PANEL_BODY_CAPSULE:
      start[1] = -length / 2 - r;
      g_array_append_vals (profile, start, 2);
      profile_arc (profile, r, r, -length / 2, 0.0, G_PI / 2, h);
      profile_line (profile, r, -length / 2, r, length / 2, h);
      profile_arc (profile, r, r, length / 2, G_PI / 2, G_PI, h);
      break;
    case BL_PANEL_BODY_CONE:
      g_array_append_vals (profile, start, 2);
      profile_line (profile, 0.0, -length / 2, r, -length / 2, h);
      profile_line (profile, r, -length / 2, 0.0, length / 2, h);
      break;
    case BL_PANEL_BODY_TRIANGLES:
    default:
      g_assert_not_reached ();
    }
  add_revolution (b, &body->pose, (double *) profile->data, profile->len / 2, 1.0, 1.0, h);
}

static double
primitive_area (const BlPanelBody *body)
{
  BlVec3 s = body->size;

  switch (body->kind)
    {
    case BL_PANEL_BODY_ELLIPSOID:
      {
        /* Thomsen's approximation (within about 1 %): enough to share a budget. */
        const double p = 1.6075;
        double ab = pow (s.x * s.y, p), bc = pow (s.y * s.z, p), ca = pow (s.z * s.x, p);
        return 4 * G_PI * pow ((ab + bc + ca) / 3, 1 / p);
      }
    case BL_PANEL_BODY_BOX:
      return 2 * (s.x * s.y + s.y * s.z + s.z * s.x);
    case BL_PANEL_BODY_CYLINDER:
      return 2 * G_PI * s.x * s.z + 2 * G_PI * s.x * s.x;
    case BL_PANEL_BODY_CAPSULE:
      return 2 * G_PI * s.x * s.z + 4 * G_PI * s.x * s.x;
    case BL_PANEL_BODY_CONE:
      return G_PI * s.x * (s.x + hypot (s.x, s.z));
    case BL_PANEL_BODY_TRIANGLES:
    default:
      return 0.0;
    }
}

/* The triangle cut into 4^level by its edge midpoints (the same flat
 * surface, finer panels). */
static void
add_subdivided (Builder      *b,
                const BlPose *pose,
                BlVec3        p0,
                BlVec3        p1,
                BlVec3        p2,
                guint         level)
{
  BlVec3 m01, m12, m20;

  if (level == 0)
    {
      builder_add (b, pose, p0, p1, p2);
      return;
    }
  m01 = bl_vec3_scale (bl_vec3_add (p0, p1), 0.5);
  m12 = bl_vec3_scale (bl_vec3_add (p1, p2), 0.5);
  m20 = bl_vec3_scale (bl_vec3_add (p2, p0), 0.5);
  add_subdivided (b, pose, p0, m01, m20, level - 1);
  add_subdivided (b, pose, m01, p1, m12, level - 1);
  add_subdivided (b, pose, m20, m12, p2, level - 1);
  add_subdivided (b, pose, m01, m12, m20, level - 1);
}

static BlVec3
mesh_point (const BlPanelBody *body,
            gsize              triangle,
            int                corner)
{
  const double *p = body->points + 3 * body->triangles[3 * triangle + corner];

  return bl_vec3 (p[0], p[1], p[2]);
}

static double
mesh_area (const BlPanelBody *body)
{
  double area = 0.0;

  for (gsize t = 0; t < body->n_triangles; t++)
    {
      BlVec3 a = mesh_point (body, t, 0), b = mesh_point (body, t, 1), c = mesh_point (body, t, 2);
      area += bl_vec3_length (bl_vec3_cross (bl_vec3_sub (b, a), bl_vec3_sub (c, a))) / 2;
    }
  return area;
}

/* How many times (0…8) a mesh's triangles are halved along each edge so
 * that its panels are no smaller than `panel_area`. */
static guint
mesh_level (const BlPanelBody *body,
           double             panel_area)
{
  double area = mesh_area (body);
  guint level = 0;

  /* The finest cut whose panels are still no smaller than the others'. */
  while (level < 8 && body->n_triangles * pow (4.0, level + 1) * panel_area <= area * 1.5)
    level++;
  return level;
}

static void remove_shared (BlPanelSurface *surface);

/* A mesh with many more triangles than panels of `panel_area` would cover
 * it with: its coarser level of detail (bl-simplify.h) nearest that
 * number (levels are a quarter apart), appended; its measured error (the
 * largest distance of the mesh's vertices from it) raises *error.  FALSE
 * when the mesh is not that fine (then it is taken as it is, or refined). */
static gboolean
add_simplified (Builder           *b,
                const BlPanelBody *body,
                double             panel_area,
                double            *error)
{
  double target = mesh_area (body) / panel_area;
  g_autofree float *positions = NULL;
  g_autoptr(GPtrArray) levels = NULL;
  const BlSimplifyLevel *chosen = NULL;
  double best;

  if (body->n_triangles <= 1.5 * target)
    return FALSE;
  positions = g_new (float, 3 * MAX (body->n_points, 1));
  for (gsize i = 0; i < 3 * body->n_points; i++)
    positions[i] = (float) body->points[i];
  levels = bl_simplify_levels (positions, 3, body->n_points, body->triangles, body->n_triangles,
                               MAX (8, (guint) (target / 4)), G_MAXDOUBLE, NULL);
  /* The level nearest the target (levels are a quarter apart), if nearer
   * than the mesh itself. */
  best = fabs (log (body->n_triangles / target));
  for (guint l = 0; levels != NULL && l < levels->len; l++)
    {
      const BlSimplifyLevel *level = g_ptr_array_index (levels, l);
      double distance = fabs (log ((level->indices->len / 3) / target));

      if (distance < best)
        {
          best = distance;
          chosen = level;
        }
    }
  if (chosen == NULL)
    return FALSE;
  for (guint t = 0; t < chosen->indices->len / 3; t++)
    {
      const guint32 *tri = &g_array_index (chosen->indices, guint32, 3 * t);
      BlVec3 v[3];

      for (int k = 0; k < 3; k++)
        v[k] = bl_vec3 (body->points[3 * tri[k]], body->points[3 * tri[k] + 1], body->points[3 * tri[k] + 2]);
      builder_add (b, &body->pose, v[0], v[1], v[2]);
    }
  *error = MAX (*error, chosen->error);
  return TRUE;
}

/* The area one panel should have for `budget` panels over all bodies. */
static double
panel_area_for (const BlPanelBody *bodies,
                gsize              n_bodies,
                gsize              budget)
{
  double area = 0.0;

  for (gsize i = 0; i < n_bodies; i++)
    area += bodies[i].kind == BL_PANEL_BODY_TRIANGLES ? mesh_area (&bodies[i]) : primitive_area (&bodies[i]);
  return area / MAX (budget, 8);
}

static gint
compare_by_root (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  const gsize *root = data;
  gsize ra = root[*(const gsize *) a], rb = root[*(const gsize *) b];

  if (ra != rb)
    return ra < rb ? -1 : 1;
  return *(const gsize *) a < *(const gsize *) b ? -1 : *(const gsize *) a > *(const gsize *) b;
}

static guint
point_hash (gconstpointer key)
{
  const double *p = key;
  guint64 bits[3];
  guint64 h = 1469598103934665603ull;

  memcpy (bits, p, sizeof bits);
  for (int k = 0; k < 3; k++)
    h = (h ^ bits[k]) * 1099511628211ull;
  return (guint) (h ^ (h >> 32));
}

static gboolean
point_equal (gconstpointer a,
             gconstpointer b)
{
  return memcmp (a, b, 3 * sizeof (double)) == 0;
}

static gsize
find_root (gsize *parent,
           gsize  i)
{
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* A mesh may hold several closed shells (a float and the masts standing
 * in it): each is a body of its own, turned outward on its own, so that
 * the panels of one inside another are found and left out as for two
 * collisions.  The panels [first, end) are reordered shell by shell
 * (shells: panels joined through corners at the same position), and each
 * shell's end appended to `ends`. */
static void
split_shells (Builder *b,
              gsize    first,
              GArray  *ends)
{
  gsize end = b->points->len / 9, n = end - first;
  double *points = (double *) b->points->data;
  g_autofree gsize *parent = g_new (gsize, MAX (n, 1));
  g_autofree gsize *order = g_new (gsize, MAX (n, 1));
  g_autofree double *copy = NULL;
  g_autoptr(GHashTable) corners = g_hash_table_new (point_hash, point_equal);
  gsize shell_first = first;

  for (gsize i = 0; i < n; i++)
    parent[i] = i;
  for (gsize i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      {
        double *corner = points + 9 * (first + i) + 3 * k;
        gpointer other;

        if (g_hash_table_lookup_extended (corners, corner, NULL, &other))
          parent[find_root (parent, i)] = find_root (parent, GPOINTER_TO_SIZE (other));
        else
          g_hash_table_insert (corners, corner, GSIZE_TO_POINTER (i));
      }
  /* Panels by shell (their root), keeping their order within it. */
  for (gsize i = 0; i < n; i++)
    order[i] = i;
  for (gsize i = 0; i < n; i++)
    parent[i] = find_root (parent, i);
  g_qsort_with_data (order, n, sizeof (gsize), compare_by_root, parent);
  copy = g_memdup2 (points + 9 * first, 9 * n * sizeof (double));
  for (gsize i = 0; i < n; i++)
    memcpy (points + 9 * (first + i), copy + 9 * order[i], 9 * sizeof (double));
  for (gsize i = 0; i < n; i++)
    if (i + 1 == n || parent[order[i + 1]] != parent[order[i]])
      {
        gsize shell_end = first + i + 1;

        orient_range (b, shell_first, shell_end);
        g_array_append_val (ends, shell_end);
        shell_first = shell_end;
      }
}

BlPanelSurface *
bl_panel_surface_new (const BlPanelBody *bodies,
                      gsize              n_bodies,
                      gsize              budget)
{
  Builder b = { g_array_new (FALSE, FALSE, sizeof (double)) };
  BlPanelSurface *surface;
  double panel_area = panel_area_for (bodies, n_bodies, budget);
  /* A grid of h × h squares, two panels each: a panel's area is h²/2. */
  double h = sqrt (2.0 * panel_area);
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  double simplify_error = 0.0;

  for (gsize i = 0; i < n_bodies; i++)
    {
      const BlPanelBody *body = &bodies[i];
      gsize first = b.points->len / 9;
      guint level;

      if (body->kind != BL_PANEL_BODY_TRIANGLES)
        add_primitive (&b, body, h);
      else if (!add_simplified (&b, body, panel_area, &simplify_error))
        {
          level = mesh_level (body, panel_area);
          for (gsize t = 0; t < body->n_triangles; t++)
            add_subdivided (&b, &body->pose, mesh_point (body, t, 0), mesh_point (body, t, 1),
                            mesh_point (body, t, 2), level);
        }
      if (body->kind == BL_PANEL_BODY_TRIANGLES)
        split_shells (&b, first, ends);
      else
        {
          gsize end = b.points->len / 9;
          g_array_append_val (ends, end);
        }
    }

  surface = g_new0 (BlPanelSurface, 1);
  surface->n_panels = b.points->len / 9;
  surface->points = (double *) g_array_free (b.points, FALSE);
  surface->n_bodies = ends->len;
  surface->body_end = (gsize *) g_array_free (g_steal_pointer (&ends), FALSE);
  surface->simplify_error = simplify_error;
  /* Slivers: a panel's longest edge over its height on it. */
  for (gsize p = 0; p < surface->n_panels; p++)
    {
      const double *c = surface->points + 9 * p;
      BlVec3 v[3] = { bl_vec3 (c[0], c[1], c[2]), bl_vec3 (c[3], c[4], c[5]), bl_vec3 (c[6], c[7], c[8]) };
      double twice_area = bl_vec3_length (bl_vec3_cross (bl_vec3_sub (v[1], v[0]), bl_vec3_sub (v[2], v[0])));
      double longest = 0.0;

      for (int k = 0; k < 3; k++)
        longest = MAX (longest, bl_vec3_length (bl_vec3_sub (v[(k + 1) % 3], v[k])));
      if (longest * longest > BL_PANEL_SLIVER_ASPECT * twice_area)
        surface->n_slivers++;
    }
  if (surface->n_bodies > 1)
    remove_shared (surface);
  return surface;
}

void
bl_panel_surface_free (BlPanelSurface *surface)
{
  if (surface == NULL)
    return;
  g_free (surface->body_end);
  g_free (surface->points);
  g_free (surface);
}

double
bl_panel_surface_area (const BlPanelSurface *surface)
{
  double area = 0.0;

  for (gsize i = 0; i < surface->n_panels; i++)
    {
      const double *a = surface->points + 9 * i, *b = a + 3, *c = a + 6;
      BlVec3 n = bl_vec3_cross (bl_vec3 (b[0] - a[0], b[1] - a[1], b[2] - a[2]),
                                bl_vec3 (c[0] - a[0], c[1] - a[1], c[2] - a[2]));
      area += bl_vec3_length (n) / 2;
    }
  return area;
}

double
bl_panel_surface_volume (const BlPanelSurface *surface)
{
  return six_volume (surface->points, 0, surface->n_panels) / 6.0;
}

/* ---- Panel integrals -------------------------------------------------------- */

void
bl_panel_triangle_integrals (const double  corners[9],
                             const double  x[3],
                             double       *one_over_r,
                             double       *solid_angle)
{
  double R[3][3], r[3], e1[3], e2[3], n[3], twice_area, h, numerator, denominator, sum = 0.0;

  for (int k = 0; k < 3; k++)
    {
      for (int i = 0; i < 3; i++)
        R[k][i] = corners[3 * k + i] - x[i];
      r[k] = sqrt (R[k][0] * R[k][0] + R[k][1] * R[k][1] + R[k][2] * R[k][2]);
    }
  for (int i = 0; i < 3; i++)
    {
      e1[i] = corners[3 + i] - corners[i];
      e2[i] = corners[6 + i] - corners[i];
    }
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  twice_area = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int i = 0; i < 3; i++)
    n[i] /= twice_area;

  /* Van Oosterom and Strackee: tan(Ω/2) = R0·(R1 × R2) / (r0 r1 r2 +
   * (R0·R1) r2 + (R0·R2) r1 + (R1·R2) r0). */
  numerator = R[0][0] * (R[1][1] * R[2][2] - R[1][2] * R[2][1])
            - R[0][1] * (R[1][0] * R[2][2] - R[1][2] * R[2][0])
            + R[0][2] * (R[1][0] * R[2][1] - R[1][1] * R[2][0]);
  denominator = r[0] * r[1] * r[2]
              + (R[0][0] * R[1][0] + R[0][1] * R[1][1] + R[0][2] * R[1][2]) * r[2]
              + (R[0][0] * R[2][0] + R[0][1] * R[2][1] + R[0][2] * R[2][2]) * r[1]
              + (R[1][0] * R[2][0] + R[1][1] * R[2][1] + R[1][2] * R[2][2]) * r[0];
  *solid_angle = 2.0 * atan2 (numerator, denominator);

  /* ∫ 1/r over a flat polygon: Σ over edges of d·ln((ra + rb + l)/(ra + rb − l))
   * + h·Ω, d the signed distance in the plane from x's foot to the edge
   * (positive inside), h the height of x above the plane along n. */
  h = -(R[0][0] * n[0] + R[0][1] * n[1] + R[0][2] * n[2]);
  for (int k = 0; k < 3; k++)
    {
      int j = (k + 1) % 3;
      double s[3], m[3], l, d, rr, gap;

      for (int i = 0; i < 3; i++)
        s[i] = R[j][i] - R[k][i];
      l = sqrt (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
      for (int i = 0; i < 3; i++)
        s[i] /= l;
      /* m = s × n points out of the triangle for an anticlockwise edge. */
      m[0] = s[1] * n[2] - s[2] * n[1];
      m[1] = s[2] * n[0] - s[0] * n[2];
      m[2] = s[0] * n[1] - s[1] * n[0];
      d = R[k][0] * m[0] + R[k][1] * m[1] + R[k][2] * m[2];
      rr = r[k] + r[j];
      /* ra + rb − l without cancellation: ((ra + rb)² − l²)/(ra + rb + l). */
      gap = (rr - l) * (rr + l) / (rr + l);
      if (gap > 0.0 && fabs (d) > 0.0)
        sum += d * log ((rr + l) / gap);
    }
  *one_over_r = sum + h * *solid_angle;
}

/* Whether x is inside the closed body whose panels are [first, end): the
 * body's panels subtend 4π from inside, 0 from outside. */
static gboolean
inside_body (const double *points,
             gsize         first,
             gsize         end,
             const double  x[3])
{
  double total = 0.0;

  for (gsize p = first; p < end; p++)
    {
      double unused, solid;

      bl_panel_triangle_integrals (points + 9 * p, x, &unused, &solid);
      total += solid;
    }
  return total > 2 * G_PI;
}

/* Collisions that overlap share volume that is solid, not fluid: the
 * panels of one body inside another are not wetted.  They are removed
 * (by their centroids), leaving the outer surface of the union, cut
 * along the seams to within a panel. */
static void
remove_shared (BlPanelSurface *surface)
{
  g_autofree gboolean *drop = g_new0 (gboolean, surface->n_panels);
  gsize first = 0, kept = 0;

  for (gsize b = 0; b < surface->n_bodies; b++)
    {
      gsize end = surface->body_end[b];
      double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE }, hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };

      for (gsize i = 9 * first; i < 9 * end; i++)
        {
          lo[i % 3] = MIN (lo[i % 3], surface->points[i]);
          hi[i % 3] = MAX (hi[i % 3], surface->points[i]);
        }
      for (gsize p = 0; p < surface->n_panels; p++)
        {
          const double *c = surface->points + 9 * p;
          double x[3];
          gboolean in_box = TRUE;

          if (p >= first && p < end)
            continue;
          for (int k = 0; k < 3; k++)
            {
              x[k] = (c[k] + c[3 + k] + c[6 + k]) / 3;
              in_box = in_box && x[k] > lo[k] && x[k] < hi[k];
            }
          if (in_box && !drop[p] && inside_body (surface->points, first, end, x))
            drop[p] = TRUE;
        }
      first = end;
    }

  first = 0;
  for (gsize b = 0; b < surface->n_bodies; b++)
    {
      gsize end = surface->body_end[b];

      for (gsize p = first; p < end; p++)
        if (!drop[p])
          memmove (surface->points + 9 * kept++, surface->points + 9 * p, 9 * sizeof (double));
      first = end;
      surface->body_end[b] = kept;
    }
  surface->n_removed = surface->n_panels - kept;
  surface->n_panels = kept;
}
