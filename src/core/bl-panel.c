/* bl-panel.c: added mass by a constant-strength panel method (see bl-panel.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bl-panel.h"
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

/* ---- Influences ------------------------------------------------------------ */

typedef struct
{
  double corners[9];
  double centroid[3];
  double normal[3];     /* unit */
  double area;
  double radius;        /* largest distance from the centroid to a corner */
} Panel;

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

/* Panels farther than this many radii are points: the error of the point
 * rule for 1/r falls as (radius/distance)² with a zero mean over
 * directions (1/r is harmonic), below 1e-3 here. */
#define NEAR_RADII 6.0

static void
influence (const Panel  *p,
           const double  x[3],
           double       *single,
           double       *solid)
{
  double d[3] = { p->centroid[0] - x[0], p->centroid[1] - x[1], p->centroid[2] - x[2] };
  double dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  double limit = NEAR_RADII * p->radius;

  if (dist2 > limit * limit)
    {
      double dist = sqrt (dist2);

      *single = p->area / dist;
      *solid = p->area * (d[0] * p->normal[0] + d[1] * p->normal[1] + d[2] * p->normal[2]) / (dist2 * dist);
      return;
    }
  bl_panel_triangle_integrals (p->corners, x, single, solid);
}

/* ---- Solve ------------------------------------------------------------------ */

typedef struct
{
  const Panel  *panels;
  gsize         n;
  float        *matrix;     /* n × n, row major */
  double       *rhs;        /* 6 × n */
  const double *modes;      /* n × 6: n_k of each panel */
  volatile gint next_row;
  volatile gint rows_done;
  GCancellable *cancellable;
} Assembly;

#define ROW_BLOCK 16

/* Assembles the next block of rows; FALSE when none is left. */
static gboolean
assemble_block (Assembly *as)
{
  gsize n = as->n;
  gsize first = (gsize) g_atomic_int_add (&as->next_row, ROW_BLOCK);

  if (first >= n || g_cancellable_is_cancelled (as->cancellable))
    return FALSE;
  for (gsize i = first; i < MIN (first + ROW_BLOCK, n); i++)
    {
      const double *x = as->panels[i].centroid;
      float *row = as->matrix + i * n;
      double b[6] = { 0 };

      for (gsize j = 0; j < n; j++)
        {
          double single, solid;

          influence (&as->panels[j], x, &single, &solid);
          /* At its own centroid a flat panel subtends no solid angle: the
           * diagonal is the ½ of the jump alone. */
          row[j] = j == i ? 0.5f : (float) (solid / (4 * G_PI));
          for (int k = 0; k < 6; k++)
            b[k] -= single * as->modes[6 * j + k];
        }
      for (int k = 0; k < 6; k++)
        as->rhs[k * n + i] = b[k] / (4 * G_PI);
    }
  g_atomic_int_add (&as->rows_done, (gint) (MIN (first + ROW_BLOCK, n) - first));
  return TRUE;
}

static gpointer
assemble_rows (gpointer data)
{
  while (assemble_block (data))
    ;
  return NULL;
}

typedef struct
{
  const float  *matrix;
  gsize         n;
  const double *x;     /* n × 6, interleaved: the six values of column j together */
  double       *y;     /* 6 × n */
  gsize         first, end;
} Product;

static gpointer
multiply_rows (gpointer data)
{
  Product *p = data;

  for (gsize i = p->first; i < p->end; i++)
    {
      const float *row = p->matrix + i * p->n;
      const double *x = p->x;
      double acc[6] = { 0 };

      for (gsize j = 0; j < p->n; j++, x += 6)
        {
          double a = row[j];
          acc[0] += a * x[0];
          acc[1] += a * x[1];
          acc[2] += a * x[2];
          acc[3] += a * x[3];
          acc[4] += a * x[4];
          acc[5] += a * x[5];
        }
      for (int k = 0; k < 6; k++)
        p->y[k * p->n + i] = acc[k];
    }
  return NULL;
}

static guint
n_threads (void)
{
  return CLAMP (g_get_num_processors (), 1, 8);
}

/* y = A x for six vectors at once (6 × n each): one pass over the matrix. */
static void
multiply (const float  *matrix,
          gsize         n,
          const double *x,
          double       *y)
{
  guint threads = n_threads ();
  g_autofree double *interleaved = g_new (double, 6 * n);
  Product parts[8];
  GThread *workers[8];

  for (gsize j = 0; j < n; j++)
    for (int k = 0; k < 6; k++)
      interleaved[6 * j + k] = x[k * n + j];
  for (guint t = 0; t < threads; t++)
    parts[t] = (Product) { matrix, n, interleaved, y, n * t / threads, n * (t + 1) / threads };
  for (guint t = 1; t < threads; t++)
    workers[t] = g_thread_new ("bl-panel", multiply_rows, &parts[t]);
  multiply_rows (&parts[0]);
  for (guint t = 1; t < threads; t++)
    g_thread_join (workers[t]);
}

static double
dot (const double *a,
     const double *b,
     gsize         n)
{
  double s = 0.0;

  for (gsize i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

#define RESTART 40
#define MAX_ITERATIONS 400
#define TOLERANCE 1e-9

/* Restarted GMRES for A x_k = b_k, k = 0…5, in lockstep (each iteration one
 * six-vector product).  x starts at 0.  Returns the iterations used, or 0
 * when some system did not reach TOLERANCE·|b_k|. */
static guint
gmres6 (const float  *matrix,
        gsize         n,
        const double *b,
        double       *x,
        GCancellable *cancellable)
{
  g_autofree double *basis = g_new (double, (gsize) (RESTART + 1) * 6 * n);
  g_autofree double *w = g_new (double, 6 * n);
  g_autofree double *ax = g_new (double, 6 * n);
  double hess[6][RESTART + 1][RESTART];
  double cs[6][RESTART], sn[6][RESTART], g[6][RESTART + 1];
  double bnorm[6];
  gboolean done[6];
  guint iterations = 0;

  memset (x, 0, 6 * n * sizeof (double));
  for (int k = 0; k < 6; k++)
    {
      bnorm[k] = sqrt (dot (b + k * n, b + k * n, n));
      done[k] = bnorm[k] == 0.0;
    }

  while (iterations < MAX_ITERATIONS)
    {
      int m = 0;
      gboolean all_done = TRUE;

      /* r = b − A x, the first basis vector r/|r|. */
      multiply (matrix, n, x, ax);
      for (int k = 0; k < 6; k++)
        {
          double *v0 = basis + k * n;
          double beta;

          for (gsize i = 0; i < n; i++)
            v0[i] = b[k * n + i] - ax[k * n + i];
          beta = sqrt (dot (v0, v0, n));
          if (done[k] || beta <= TOLERANCE * bnorm[k])
            {
              done[k] = TRUE;
              memset (v0, 0, n * sizeof (double));
              g[k][0] = 0.0;
              continue;
            }
          all_done = FALSE;
          for (gsize i = 0; i < n; i++)
            v0[i] /= beta;
          memset (g[k], 0, sizeof g[k]);
          g[k][0] = beta;
        }
      if (all_done)
        return MAX (iterations, 1);

      for (m = 0; m < RESTART && iterations < MAX_ITERATIONS; m++)
        {
          gboolean converged = TRUE;

          if (g_cancellable_is_cancelled (cancellable))
            return 0;
          multiply (matrix, n, basis + (gsize) m * 6 * n, w);
          iterations++;
          for (int k = 0; k < 6; k++)
            {
              double *wk = w + k * n, *next = basis + ((gsize) (m + 1) * 6 + k) * n;
              double norm, t;

              if (done[k])
                {
                  memset (next, 0, n * sizeof (double));
                  continue;
                }
              /* Modified Gram–Schmidt. */
              for (int i = 0; i <= m; i++)
                {
                  const double *vi = basis + ((gsize) i * 6 + k) * n;
                  double hij = dot (wk, vi, n);

                  hess[k][i][m] = hij;
                  for (gsize l = 0; l < n; l++)
                    wk[l] -= hij * vi[l];
                }
              norm = sqrt (dot (wk, wk, n));
              hess[k][m + 1][m] = norm;
              for (gsize l = 0; l < n; l++)
                next[l] = norm > 0.0 ? wk[l] / norm : 0.0;
              /* Givens rotations keep the Hessenberg matrix triangular. */
              for (int i = 0; i < m; i++)
                {
                  t = cs[k][i] * hess[k][i][m] + sn[k][i] * hess[k][i + 1][m];
                  hess[k][i + 1][m] = -sn[k][i] * hess[k][i][m] + cs[k][i] * hess[k][i + 1][m];
                  hess[k][i][m] = t;
                }
              t = hypot (hess[k][m][m], hess[k][m + 1][m]);
              cs[k][m] = t > 0.0 ? hess[k][m][m] / t : 1.0;
              sn[k][m] = t > 0.0 ? hess[k][m + 1][m] / t : 0.0;
              hess[k][m][m] = t;
              hess[k][m + 1][m] = 0.0;
              g[k][m + 1] = -sn[k][m] * g[k][m];
              g[k][m] = cs[k][m] * g[k][m];
              if (fabs (g[k][m + 1]) > TOLERANCE * bnorm[k])
                converged = FALSE;
            }
          if (converged)
            {
              m++;
              break;
            }
        }

      /* x += V y, H y = g (back substitution), for each unfinished system. */
      for (int k = 0; k < 6; k++)
        {
          double y[RESTART];

          if (done[k])
            continue;
          for (int i = m - 1; i >= 0; i--)
            {
              double s = g[k][i];
              for (int j = i + 1; j < m; j++)
                s -= hess[k][i][j] * y[j];
              y[i] = s / hess[k][i][i];
            }
          for (int i = 0; i < m; i++)
            {
              const double *vi = basis + ((gsize) i * 6 + k) * n;
              for (gsize l = 0; l < n; l++)
                x[k * n + l] += y[i] * vi[l];
            }
        }
    }
  return 0;
}

gboolean
bl_panel_solve (const BlPanelSurface *surface,
                double                rho,
                GCancellable         *cancellable,
                BlPanelProgressFunc   progress,
                gpointer              user_data,
                BlPanelSolution      *out,
                GError              **error)
{
  gsize n = surface->n_panels;
  g_autofree Panel *panels = NULL;
  g_autofree double *modes = NULL;
  g_autofree float *matrix = NULL;
  g_autofree double *rhs = NULL;
  g_autofree double *phi = NULL;
  Assembly as;
  GThread *workers[8];
  guint threads = n_threads (), iterations;
  BlMat6 mu;

  memset (out, 0, sizeof *out);
  if (n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "There is no surface to solve on");
      return FALSE;
    }
  if (n > BL_PANEL_MAX_PANELS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%zu panels are more than the panel method takes (%d: its matrix alone would need %zu MB)",
                   n, BL_PANEL_MAX_PANELS, (gsize) (4.0 * n * n / 1e6));
      return FALSE;
    }

  panels = g_new (Panel, n);
  modes = g_new (double, 6 * n);
  for (gsize i = 0; i < n; i++)
    {
      Panel *p = &panels[i];
      const double *c = surface->points + 9 * i;
      BlVec3 a = bl_vec3 (c[0], c[1], c[2]), b = bl_vec3 (c[3], c[4], c[5]), d = bl_vec3 (c[6], c[7], c[8]);
      BlVec3 centroid = bl_vec3_scale (bl_vec3_add (bl_vec3_add (a, b), d), 1.0 / 3);
      BlVec3 cross = bl_vec3_cross (bl_vec3_sub (b, a), bl_vec3_sub (d, a));
      double twice_area = bl_vec3_length (cross);
      BlVec3 normal = twice_area > 0.0 ? bl_vec3_scale (cross, 1.0 / twice_area) : BL_VEC3_ZERO;
      BlVec3 moment = bl_vec3_cross (centroid, normal);

      memcpy (p->corners, c, sizeof p->corners);
      p->centroid[0] = centroid.x; p->centroid[1] = centroid.y; p->centroid[2] = centroid.z;
      p->normal[0] = normal.x; p->normal[1] = normal.y; p->normal[2] = normal.z;
      p->area = twice_area / 2;
      p->radius = MAX (bl_vec3_length (bl_vec3_sub (a, centroid)),
                       MAX (bl_vec3_length (bl_vec3_sub (b, centroid)), bl_vec3_length (bl_vec3_sub (d, centroid))));
      if (!(twice_area > 0.0) || !isfinite (twice_area))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "Panel %zu has no area: the surface has a degenerate triangle", i);
          return FALSE;
        }
      /* n_k: translation modes n, rotation modes r × n about the link
       * origin (exact over the flat panel: r × n is linear in r). */
      modes[6 * i + 0] = normal.x; modes[6 * i + 1] = normal.y; modes[6 * i + 2] = normal.z;
      modes[6 * i + 3] = moment.x; modes[6 * i + 4] = moment.y; modes[6 * i + 5] = moment.z;
    }

  /* Panels wound inward would give the flow inside a cavity: a negative
   * added mass, silently. */
  if (!(six_volume (surface->points, 0, n) > 0.0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "The surface encloses no volume or is wound inward (its triangles' normals must point into the fluid)");
      return FALSE;
    }

  matrix = g_try_malloc ((gsize) n * n * sizeof (float));
  if (matrix == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "Not enough memory for the panel method's matrix (%zu MB)", (gsize) (4.0 * n * n / 1e6));
      return FALSE;
    }
  rhs = g_new (double, 6 * n);
  as = (Assembly) { panels, n, matrix, rhs, modes, 0, 0, cancellable };
  for (guint t = 1; t < threads; t++)
    workers[t] = g_thread_new ("bl-panel", assemble_rows, &as);
  /* The calling thread assembles too, and reports between its blocks. */
  while (assemble_block (&as))
    if (progress != NULL)
      progress (0.8 * g_atomic_int_get (&as.rows_done) / n, user_data);
  for (guint t = 1; t < threads; t++)
    g_thread_join (workers[t]);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (progress != NULL)
    progress (0.8, user_data);

  phi = g_new (double, 6 * n);
  iterations = gmres6 (matrix, n, rhs, phi, cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (iterations == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "The panel method did not converge in %d iterations: the surface may not be closed",
                   MAX_ITERATIONS);
      return FALSE;
    }

  /* μ_jk = −ρ Σ_i φ_k(i) n_j(i) A_i. */
  mu = bl_mat6_zero ();
  for (gsize i = 0; i < n; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 6; k++)
        mu.m[j][k] -= rho * phi[k * n + i] * modes[6 * i + j] * panels[i].area;
  {
    double largest = bl_mat6_max_abs (&mu), asymmetry;

    out->added_mass = bl_mat6_symmetrize (&mu, &asymmetry, NULL, NULL);
    out->asymmetry = largest > 0.0 ? asymmetry / largest : 0.0;
  }
  out->iterations = iterations;
  out->n_panels = n;
  out->potentials = g_new (double, 6 * n);
  for (gsize i = 0; i < n; i++)
    for (int k = 0; k < 6; k++)
      out->potentials[6 * i + k] = phi[k * n + i];
  if (progress != NULL)
    progress (1.0, user_data);
  return TRUE;
}

void
bl_panel_solution_clear (BlPanelSolution *solution)
{
  g_clear_pointer (&solution->potentials, g_free);
}

/* ---- Two resolutions -------------------------------------------------------- */

typedef struct
{
  BlPanelProgressFunc progress;
  gpointer            user_data;
  double              offset, scale;
} Stage;

static void
stage_progress (double   fraction,
                gpointer data)
{
  Stage *stage = data;

  if (stage->progress != NULL)
    stage->progress (stage->offset + stage->scale * fraction, stage->user_data);
}

gboolean
bl_panel_estimate (const BlPanelBody    *bodies,
                   gsize                 n_bodies,
                   gsize                 budget,
                   double                rho,
                   GCancellable         *cancellable,
                   BlPanelProgressFunc   progress,
                   gpointer              user_data,
                   BlPanelEstimate      *out,
                   GError              **error)
{
  g_autoptr(BlPanelSurface) fine = bl_panel_surface_new (bodies, n_bodies, budget);
  g_autoptr(BlPanelSurface) coarse = bl_panel_surface_new (bodies, n_bodies, budget / 4);

  return bl_panel_estimate_surfaces (fine, coarse, rho, cancellable, progress, user_data, out, error);
}

gboolean
bl_panel_estimate_surfaces (const BlPanelSurface *fine,
                            const BlPanelSurface *coarse,
                            double                rho,
                            GCancellable         *cancellable,
                            BlPanelProgressFunc   progress,
                            gpointer              user_data,
                            BlPanelEstimate      *out,
                            GError              **error)
{
  BlPanelSolution coarse_solution;
  /* The coarse solve costs about a sixteenth of the fine one. */
  Stage stage = { progress, user_data, 0.0, 1.0 / 17 };
  gboolean same;
  double largest, scale[2] = { 0.0, 0.0 };

  memset (out, 0, sizeof *out);
  if (!bl_panel_solve (coarse, rho, cancellable, stage_progress, &stage, &coarse_solution, error))
    return FALSE;
  out->coarse = coarse_solution.added_mass;
  out->coarse_panels = coarse_solution.n_panels;
  bl_panel_solution_clear (&coarse_solution);
  stage.offset = 1.0 / 17;
  stage.scale = 16.0 / 17;
  if (!bl_panel_solve (fine, rho, cancellable, stage_progress, &stage, &out->fine, error))
    return FALSE;
  out->n_removed = fine->n_removed;
  out->simplify_error = fine->simplify_error;
  out->n_slivers = fine->n_slivers;

  largest = bl_mat6_max_abs (&out->fine.added_mass);
  /* The same surface twice (a mesh too fine to be cut for this budget):
   * no estimate. */
  same = fine->n_panels == coarse->n_panels;
  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      out->errors.m[j][k] = same ? NAN : fabs (out->fine.added_mass.m[j][k] - out->coarse.m[j][k]) / 3;

  /* The natural scale of each block: the largest translational term,
   * and that times the square of the body's size (the radius of the
   * sphere of the same area) for the rotational one, which may be all
   * noise (a sphere's is 0).  The relative error: the largest over the
   * diagonal terms that carry their block (a tenth of its scale). */
  for (int j = 0; j < 3; j++)
    scale[0] = MAX (scale[0], fabs (out->fine.added_mass.m[j][j]));
  scale[1] = scale[0] * bl_panel_surface_area (fine) / (4 * G_PI);
  out->relative_error = same ? NAN : 0.0;
  for (int j = 0; j < 6 && !same; j++)
    if (fabs (out->fine.added_mass.m[j][j]) >= 0.1 * scale[j / 3] && scale[j / 3] > 0.0)
      out->relative_error = MAX (out->relative_error, out->errors.m[j][j] / fabs (out->fine.added_mass.m[j][j]));

  /* A term is shown as 0 when it is within its own difference between the
   * resolutions of 0, or within the relative error of the scale of its
   * blocks (√(s_j s_k), which bounds |μ_jk| for a positive matrix of
   * those scales). */
  out->added_mass = out->fine.added_mass;
  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 6; k++)
      {
        double value = fabs (out->fine.added_mass.m[j][k]);
        double block = sqrt (scale[j / 3] * scale[k / 3]);
        double limit = same ? 1e-9 * largest : MAX (3 * out->errors.m[j][k], out->relative_error * block);

        if (value <= limit)
          out->added_mass.m[j][k] = 0.0;
      }
  return TRUE;
}

void
bl_panel_estimate_findings (const BlPanelEstimate *estimate,
                            GPtrArray             *findings)
{
  if (estimate->simplify_error > 0.0)
    g_ptr_array_add (findings, bl_added_mass_finding_new ("estimate", BL_SEVERITY_INFO,
                                                          "meshes finer than the panel budget were simplified: no "
                                                          "mesh vertex is farther than %.3g m from its panels",
                                                          estimate->simplify_error));
  if (estimate->n_slivers > 0)
    g_ptr_array_add (findings, bl_added_mass_finding_new ("estimate", BL_SEVERITY_WARNING,
                                                          "%zu of the panels are long and thin (the mesh's own "
                                                          "triangles): the result is less accurate than the error "
                                                          "estimate says; a mesh of evenly sized triangles, or a "
                                                          "primitive, gives a better one", estimate->n_slivers));
  if (estimate->n_removed > 0)
    g_ptr_array_add (findings, bl_added_mass_finding_new ("overlap", BL_SEVERITY_INFO,
                                                          "%zu panels inside other collisions were left out: the "
                                                          "volume collisions share is solid, not wetted",
                                                          estimate->n_removed));
}

void
bl_panel_estimate_clear (BlPanelEstimate *estimate)
{
  bl_panel_solution_clear (&estimate->fine);
}
