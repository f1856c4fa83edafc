/* test-mesh.c: mesh loading, health checks, exact mass properties and convex hulls. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bl-mesh.h"
#include "bl-mesh-loader.h"
#include "bl-mesh-private.h"
#include "compare-meshes.h"
#include "smaps.h"
#include "torus.h"

/* Expected values are closed forms worked by hand (docs/reference/inertia.md §8.9,
 * §8.10 for the COLLADA fixtures). Meshes are written by this file. */

static char *tmp_dir;

static void
assert_near_at (const char *file,
                int         line,
                const char *expr,
                double      got,
                double      want,
                double      tol)
{
  g_autofree char *msg = NULL;

  if (fabs (got - want) <= tol)
    return;

  msg = g_strdup_printf ("%s: got %.17g, want %.17g, tolerance %g", expr, got, want, tol);
  g_assertion_message (G_LOG_DOMAIN, file, line, G_STRFUNC, msg);
}

#define assert_near(got, want, tol) \
  assert_near_at (__FILE__, __LINE__, #got, (got), (want), (tol))
#define assert_rel(got, want, rel) \
  assert_near_at (__FILE__, __LINE__, #got, (got), (want), (rel) * fabs (want))

/* ---------------------------------------------------------------------- */
/* Shapes                                                                   */

typedef struct
{
  GArray *v;   /* double xyz */
  GArray *t;   /* guint32 × 3 */
} Shape;

static void
shape_init (Shape *s)
{
  s->v = g_array_new (FALSE, FALSE, sizeof (double));
  s->t = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
shape_clear (Shape *s)
{
  g_clear_pointer (&s->v, g_array_unref);
  g_clear_pointer (&s->t, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Shape, shape_clear)

static guint
shape_n_vertices (const Shape *s)
{
  return s->v->len / 3;
}

static guint
shape_n_triangles (const Shape *s)
{
  return s->t->len / 3;
}

static guint32
shape_vertex (Shape *s, double x, double y, double z)
{
  double p[3] = { x, y, z };

  g_array_append_vals (s->v, p, 3);
  return shape_n_vertices (s) - 1;
}

static void
shape_triangle (Shape *s, guint32 a, guint32 b, guint32 c)
{
  guint32 t[3] = { a, b, c };

  g_array_append_vals (s->t, t, 3);
}

/* Vertex i of the unit cube is (i & 1, i >> 1 & 1, i >> 2 & 1); these
 * twelve triangles face outward (checked by hand, one cross product each). */
static const guint32 cube_triangles[12][3] = {
  { 0, 2, 3 }, { 0, 3, 1 },   /* z = 0 */
  { 4, 5, 7 }, { 4, 7, 6 },   /* z = 1 */
  { 0, 1, 5 }, { 0, 5, 4 },   /* y = 0 */
  { 2, 6, 7 }, { 2, 7, 3 },   /* y = 1 */
  { 0, 4, 6 }, { 0, 6, 2 },   /* x = 0 */
  { 1, 3, 7 }, { 1, 7, 5 },   /* x = 1 */
};

/* A box of SIZE centred at CENTER, turned by R (row-major) about its centre;
 * SKIP triangles of the cube list left out from the end (for open meshes). */
static void
shape_add_box (Shape        *s,
               const double  center[3],
               const double  size[3],
               const double  r[3][3],
               guint         first_triangle,
               guint         n_triangles)
{
  guint32 base = shape_n_vertices (s);

  for (guint i = 0; i < 8; i++)
    {
      double local[3] = {
        ((i & 1) - 0.5) * size[0],
        ((i >> 1 & 1) - 0.5) * size[1],
        ((i >> 2 & 1) - 0.5) * size[2],
      };
      double p[3];

      for (int k = 0; k < 3; k++)
        p[k] = center[k] + r[k][0] * local[0] + r[k][1] * local[1] + r[k][2] * local[2];
      shape_vertex (s, p[0], p[1], p[2]);
    }

  for (guint t = first_triangle; t < first_triangle + n_triangles; t++)
    shape_triangle (s, base + cube_triangles[t][0], base + cube_triangles[t][1],
                    base + cube_triangles[t][2]);
}

static const double identity[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

static void
shape_unit_cube (Shape *s)
{
  shape_init (s);
  shape_add_box (s, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 12);
}

static void
shape_tetrahedron (Shape *s)
{
  shape_init (s);
  shape_vertex (s, 0, 0, 0);
  shape_vertex (s, 1, 0, 0);
  shape_vertex (s, 0, 1, 0);
  shape_vertex (s, 0, 0, 1);
  shape_triangle (s, 0, 2, 1);   /* z = 0, normal −z */
  shape_triangle (s, 0, 1, 3);   /* y = 0, normal −y */
  shape_triangle (s, 0, 3, 2);   /* x = 0, normal −x */
  shape_triangle (s, 1, 2, 3);   /* slanted face, normal (1,1,1) */
}

static void
shape_reverse (Shape *s)
{
  for (guint t = 0; t < shape_n_triangles (s); t++)
    {
      guint32 *tri = &g_array_index (s->t, guint32, 3 * t);
      guint32 x = tri[1];

      tri[1] = tri[2];
      tri[2] = x;
    }
}

/* Rotation by ANGLE about the unit axis (ux, uy, uz), Rodrigues' formula. */
static void
axis_angle (double ux, double uy, double uz, double angle, double r[3][3])
{
  double n = sqrt (ux * ux + uy * uy + uz * uz);
  double c = cos (angle), s = sin (angle), C = 1.0 - c;

  ux /= n; uy /= n; uz /= n;
  r[0][0] = c + ux * ux * C;      r[0][1] = ux * uy * C - uz * s; r[0][2] = ux * uz * C + uy * s;
  r[1][0] = uy * ux * C + uz * s; r[1][1] = c + uy * uy * C;      r[1][2] = uy * uz * C - ux * s;
  r[2][0] = uz * ux * C - uy * s; r[2][1] = uz * uy * C + ux * s; r[2][2] = c + uz * uz * C;
}

/* ---------------------------------------------------------------------- */
/* Writers                                                                  */

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static void
normal_of (const Shape *s, guint t, float n[3])
{
  const guint32 *tri = &g_array_index (s->t, guint32, 3 * t);
  const double *a = &g_array_index (s->v, double, 3 * tri[0]);
  const double *b = &g_array_index (s->v, double, 3 * tri[1]);
  const double *c = &g_array_index (s->v, double, 3 * tri[2]);
  double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  double x = e1[1] * e2[2] - e1[2] * e2[1];
  double y = e1[2] * e2[0] - e1[0] * e2[2];
  double z = e1[0] * e2[1] - e1[1] * e2[0];
  double l = sqrt (x * x + y * y + z * z);

  if (l == 0.0)
    l = 1.0;
  n[0] = x / l;
  n[1] = y / l;
  n[2] = z / l;
}

static char *
write_binary_stl (const Shape *s, const char *name)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  guint8 header[80] = { 0 };
  guint32 count = GUINT32_TO_LE (shape_n_triangles (s));
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  /* must not start with "solid", or readers take it for ASCII */
  memcpy (header, "ballast test mesh", 17);
  g_byte_array_append (bytes, header, sizeof header);
  g_byte_array_append (bytes, (guint8 *) &count, 4);
  for (guint t = 0; t < shape_n_triangles (s); t++)
    {
      float rec[12];
      guint16 attr = 0;

      normal_of (s, t, rec);
      for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
          rec[3 + 3 * k + j] = g_array_index (s->v, double,
                                              3 * g_array_index (s->t, guint32, 3 * t + k) + j);
      g_byte_array_append (bytes, (guint8 *) rec, sizeof rec);
      g_byte_array_append (bytes, (guint8 *) &attr, 2);
    }

  g_file_set_contents (path, (const char *) bytes->data, bytes->len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
write_ascii_stl (const Shape *s, const char *name)
{
  g_autoptr(GString) text = g_string_new ("solid ballast\n");
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  for (guint t = 0; t < shape_n_triangles (s); t++)
    {
      float n[3];

      normal_of (s, t, n);
      g_string_append_printf (text, "  facet normal %.9g %.9g %.9g\n    outer loop\n",
                              n[0], n[1], n[2]);
      for (int k = 0; k < 3; k++)
        {
          const double *p = &g_array_index (s->v, double,
                                            3 * g_array_index (s->t, guint32, 3 * t + k));

          /* %.9g round-trips a float, so ASCII and binary agree exactly */
          g_string_append_printf (text, "      vertex %.9g %.9g %.9g\n",
                                  (float) p[0], (float) p[1], (float) p[2]);
        }
      g_string_append (text, "    endloop\n  endfacet\n");
    }
  g_string_append (text, "endsolid ballast\n");

  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
  return path;
}

static void
append_obj_object (GString *text, const Shape *s, const char *object, guint vertex_base)
{
  if (object != NULL)
    g_string_append_printf (text, "o %s\n", object);
  for (guint v = 0; v < shape_n_vertices (s); v++)
    {
      const double *p = &g_array_index (s->v, double, 3 * v);

      g_string_append_printf (text, "v %.9g %.9g %.9g\n",
                              (float) p[0], (float) p[1], (float) p[2]);
    }
  for (guint t = 0; t < shape_n_triangles (s); t++)
    {
      const guint32 *tri = &g_array_index (s->t, guint32, 3 * t);

      g_string_append_printf (text, "f %u %u %u\n", vertex_base + tri[0] + 1,
                              vertex_base + tri[1] + 1, vertex_base + tri[2] + 1);
    }
}

static char *
write_text (const char *name, const char *contents)
{
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static char *
write_obj (const Shape *s, const char *name)
{
  g_autoptr(GString) text = g_string_new ("# ballast test mesh\n");

  append_obj_object (text, s, "body", 0);
  return write_text (name, text->str);
}

/* ---------------------------------------------------------------------- */
/* Helpers                                                                  */

static const BlVec3 unit_scale = { 1.0, 1.0, 1.0 };

static BlMesh *
load (const char *path, BlVec3 scale)
{
  g_autoptr(GError) error = NULL;
  BlMesh *mesh = bl_mesh_new_from_file (path, scale, NULL, FALSE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (mesh);
  return mesh;
}

static void
props_of (BlMesh *mesh, gboolean hull, BlMeshProperties *props)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = bl_mesh_get_mass_properties (mesh, hull, props, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
  for (guint i = 0; i < props->warnings->len; i++)
    g_test_message ("warning: %s", (const char *) g_ptr_array_index (props->warnings, i));
}

static void
assert_inertia (const BlMat3 *got, const double want[6], double tol)
{
  /* want: ixx, iyy, izz, ixy, ixz, iyz */
  assert_near (got->m[0][0], want[0], tol);
  assert_near (got->m[1][1], want[1], tol);
  assert_near (got->m[2][2], want[2], tol);
  assert_near (got->m[0][1], want[3], tol);
  assert_near (got->m[0][2], want[4], tol);
  assert_near (got->m[1][2], want[5], tol);
  assert_near (got->m[1][0], want[3], tol);
  assert_near (got->m[2][0], want[4], tol);
  assert_near (got->m[2][1], want[5], tol);
}

static gboolean
warnings_mention (const BlMeshProperties *props, const char *needle)
{
  for (guint i = 0; i < props->warnings->len; i++)
    if (strstr (g_ptr_array_index (props->warnings, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

static void
assert_clean (const BlMeshProperties *props)
{
  g_assert_true (props->watertight);
  g_assert_cmpuint (props->boundary_edges, ==, 0);
  g_assert_cmpuint (props->non_manifold_edges, ==, 0);
  g_assert_cmpuint (props->inconsistent_edges, ==, 0);
  g_assert_cmpuint (props->duplicate_triangles, ==, 0);
  g_assert_false (props->inside_out);
  g_assert_cmpuint (props->warnings->len, ==, 0);
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                    */

static void
test_unit_cube (void)
{
  g_auto(Shape) cube = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  shape_unit_cube (&cube);
  path = write_binary_stl (&cube, "cube.stl");
  mesh = load (path, unit_scale);

  g_assert_cmpuint (bl_mesh_get_n_submeshes (mesh), ==, 1);
  g_assert_cmpuint (bl_mesh_get_n_triangles (mesh), ==, 12);
  {
    guint nv, nt;

    g_assert_nonnull (bl_mesh_get_submesh_vertices (mesh, 0, &nv));
    g_assert_nonnull (bl_mesh_get_submesh_indices (mesh, 0, &nt));
    g_assert_cmpuint (nv, ==, 8);   /* welded */
    g_assert_cmpuint (nt, ==, 12);
  }

  props_of (mesh, FALSE, &p);
  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.gz_volume, 1.0, 1e-12);
  assert_near (p.centroid.x, 0.5, 1e-12);
  assert_near (p.centroid.y, 0.5, 1e-12);
  assert_near (p.centroid.z, 0.5, 1e-12);
  assert_inertia (&p.inertia, (double[]) { 1.0 / 6, 1.0 / 6, 1.0 / 6, 0, 0, 0 }, 1e-12);
  g_assert_cmpuint (p.n_triangles, ==, 12);
  assert_clean (&p);
}

static void
test_box_offset (void)
{
  g_auto(Shape) box = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;
  const double density = 1000.0;

  shape_init (&box);
  shape_add_box (&box, (double[]) { 5, -2, 1 }, (double[]) { 1, 2, 3 }, identity, 0, 12);
  path = write_ascii_stl (&box, "box-offset.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  /* m = 1000·6; Ixx = m(2² + 3²)/12, Iyy = m(1 + 9)/12, Izz = m(1 + 4)/12 */
  assert_rel (density * p.volume, 6000.0, 1e-12);
  assert_near (p.centroid.x, 5.0, 1e-12);
  assert_near (p.centroid.y, -2.0, 1e-12);
  assert_near (p.centroid.z, 1.0, 1e-12);
  assert_near (density * p.inertia.m[0][0], 6500.0, 1e-8);
  assert_near (density * p.inertia.m[1][1], 5000.0, 1e-8);
  assert_near (density * p.inertia.m[2][2], 2500.0, 1e-8);
  assert_near (density * p.inertia.m[0][1], 0.0, 1e-8);
  assert_near (density * p.inertia.m[0][2], 0.0, 1e-8);
  assert_near (density * p.inertia.m[1][2], 0.0, 1e-8);
  assert_clean (&p);
}

/* A 1×2×3 box turned 40° about (1, 2, 3) and centred at (3, 4, −7). */
static void
rotated_box (Shape *box, double r[3][3])
{
  axis_angle (1, 2, 3, 40.0 * G_PI / 180.0, r);
  shape_init (box);
  shape_add_box (box, (double[]) { 3, 4, -7 }, (double[]) { 1, 2, 3 }, (const double (*)[3]) r, 0, 12);
}

static void
check_rotated_box (const BlMeshProperties *p, double r[3][3], double tol)
{
  /* I' = R diag(Ixx, Iyy, Izz) Rᵀ with the box moments at unit density, V 6 */
  double d[3] = { 6.0 * (4 + 9) / 12.0, 6.0 * (1 + 9) / 12.0, 6.0 * (1 + 4) / 12.0 };
  double want[3][3];

  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      want[i][j] = r[i][0] * d[0] * r[j][0] + r[i][1] * d[1] * r[j][1] + r[i][2] * d[2] * r[j][2];

  assert_near (p->volume, 6.0, tol);
  assert_near (p->centroid.x, 3.0, tol);
  assert_near (p->centroid.y, 4.0, tol);
  assert_near (p->centroid.z, -7.0, tol);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      assert_near (p->inertia.m[i][j], want[i][j], tol);
  /* a real rotation: the products are not all zero */
  g_assert_cmpfloat (fabs (want[0][1]) + fabs (want[0][2]) + fabs (want[1][2]), >, 0.1);
}

static void
test_box_rotated (void)
{
  g_auto(Shape) box = { 0 };
  g_autofree char *stl = NULL;
  g_autofree char *obj = NULL;
  g_autoptr(BlMesh) mesh_stl = NULL;
  g_autoptr(BlMesh) mesh_obj = NULL;
  BlMeshProperties a, b;
  double r[3][3];

  rotated_box (&box, r);
  stl = write_binary_stl (&box, "box-rotated.stl");
  obj = write_obj (&box, "box-rotated.obj");
  mesh_stl = load (stl, unit_scale);
  mesh_obj = load (obj, unit_scale);
  props_of (mesh_stl, FALSE, &a);
  props_of (mesh_obj, FALSE, &b);

  /* the files hold single-precision vertices */
  check_rotated_box (&a, r, 1e-5);
  check_rotated_box (&b, r, 1e-5);
  assert_clean (&a);
  assert_clean (&b);

  /* STL and OBJ of the same shape: the same numbers */
  assert_near (a.volume, b.volume, 1e-12);
  assert_near (a.centroid.x, b.centroid.x, 1e-12);
  assert_near (a.centroid.y, b.centroid.y, 1e-12);
  assert_near (a.centroid.z, b.centroid.z, 1e-12);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      assert_near (a.inertia.m[i][j], b.inertia.m[i][j], 1e-12);
}

static void
test_stl_ascii_binary_obj (void)
{
  g_auto(Shape) tet = { 0 };
  g_autofree char *bin = NULL;
  g_autofree char *ascii = NULL;
  g_autofree char *obj = NULL;
  BlMeshProperties p[3];
  BlMesh *meshes[3];

  shape_tetrahedron (&tet);
  bin = write_binary_stl (&tet, "tet.stl");
  ascii = write_ascii_stl (&tet, "tet-ascii.stl");
  obj = write_obj (&tet, "tet.obj");
  meshes[0] = load (bin, unit_scale);
  meshes[1] = load (ascii, unit_scale);
  meshes[2] = load (obj, unit_scale);

  for (int i = 0; i < 3; i++)
    props_of (meshes[i], FALSE, &p[i]);
  for (int i = 1; i < 3; i++)
    {
      assert_near (p[i].volume, p[0].volume, 1e-15);
      assert_near (p[i].centroid.x, p[0].centroid.x, 1e-15);
      assert_near (p[i].inertia.m[0][1], p[0].inertia.m[0][1], 1e-15);
      assert_near (p[i].inertia.m[2][2], p[0].inertia.m[2][2], 1e-15);
    }
  for (int i = 0; i < 3; i++)
    bl_mesh_unref (meshes[i]);
}

static void
check_tetrahedron (const BlMeshProperties *p, double sx)
{
  /* V 1/6, COM ¼, Ixx = ∫(y² + z²) − V(cy² + cz²) = 1/30 − 1/48 = 1/80;
   * ∫xy = 1/120, so ixy = −(1/120 − (1/6)(1/16)) = +1/480.  Mirroring x
   * negates x: ixy and ixz change sign, iyz does not. */
  assert_near (p->volume, 1.0 / 6.0, 1e-15);
  assert_near (p->centroid.x, sx * 0.25, 1e-15);
  assert_near (p->centroid.y, 0.25, 1e-15);
  assert_near (p->centroid.z, 0.25, 1e-15);
  assert_inertia (&p->inertia,
                  (double[]) { 0.0125, 0.0125, 0.0125, sx / 480.0, sx / 480.0, 1.0 / 480.0 },
                  1e-15);
}

static void
test_tetrahedron (void)
{
  g_auto(Shape) tet = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  shape_tetrahedron (&tet);
  path = write_binary_stl (&tet, "tetrahedron.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);
  check_tetrahedron (&p, 1.0);
  assert_near (0.00208333, p.inertia.m[0][1], 1e-8);
  assert_clean (&p);
}

static void
test_scale (void)
{
  g_auto(Shape) cube = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  shape_unit_cube (&cube);
  path = write_binary_stl (&cube, "cube-to-scale.stl");
  mesh = load (path, bl_vec3 (2, 1, 0.5));
  props_of (mesh, FALSE, &p);

  /* a 2 × 1 × 0.5 box, V 1: Ixx = (1 + 0.25)/12, Iyy = (4 + 0.25)/12, Izz = (4 + 1)/12 */
  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.centroid.x, 1.0, 1e-12);
  assert_near (p.centroid.y, 0.5, 1e-12);
  assert_near (p.centroid.z, 0.25, 1e-12);
  assert_inertia (&p.inertia, (double[]) { 1.25 / 12, 4.25 / 12, 5.0 / 12, 0, 0, 0 }, 1e-12);
  assert_near (p.inertia.m[0][0], 0.1041667, 1e-7);
  assert_near (p.inertia.m[1][1], 0.3541667, 1e-7);
  assert_near (p.inertia.m[2][2], 0.4166667, 1e-7);
  g_assert_false (p.mirrored);
  assert_clean (&p);
}

static void
test_mirror (void)
{
  g_auto(Shape) tet = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  g_autoptr(BlMesh) mesh3 = NULL;
  BlMeshProperties p;

  shape_tetrahedron (&tet);
  path = write_binary_stl (&tet, "tet-mirror.stl");

  /* one negative component mirrors */
  mesh = load (path, bl_vec3 (-1, 1, 1));
  props_of (mesh, FALSE, &p);
  check_tetrahedron (&p, -1.0);
  g_assert_true (p.mirrored);
  g_assert_false (p.inside_out);
  g_assert_true (p.watertight);
  assert_near (p.gz_volume, -1.0 / 6.0, 1e-15);
  g_assert_true (warnings_mention (&p, "gz-sim"));

  /* three negative components mirror too: (−x, −y, −z) */
  mesh3 = load (path, bl_vec3 (-1, -1, -1));
  props_of (mesh3, FALSE, &p);
  assert_near (p.volume, 1.0 / 6.0, 1e-15);
  assert_near (p.centroid.z, -0.25, 1e-15);
  /* products are even in each pair of coordinates: unchanged */
  assert_near (p.inertia.m[0][1], 1.0 / 480.0, 1e-15);
  g_assert_true (p.mirrored);
  assert_near (p.gz_volume, -1.0 / 6.0, 1e-15);
}

static void
test_inward (void)
{
  g_auto(Shape) cube = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  shape_unit_cube (&cube);
  shape_reverse (&cube);
  path = write_binary_stl (&cube, "cube-inward.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.gz_volume, -1.0, 1e-12);
  assert_near (p.centroid.x, 0.5, 1e-12);
  assert_inertia (&p.inertia, (double[]) { 1.0 / 6, 1.0 / 6, 1.0 / 6, 0, 0, 0 }, 1e-12);
  g_assert_true (p.inside_out);
  g_assert_true (p.watertight);
  g_assert_cmpuint (p.inconsistent_edges, ==, 0);
  g_assert_true (warnings_mention (&p, "inside-out"));
}

static void
test_open (void)
{
  g_auto(Shape) open = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  /* the unit cube without its two z = 1 triangles */
  shape_init (&open);
  shape_add_box (&open, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 2);
  shape_add_box (&open, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 4, 8);
  path = write_binary_stl (&open, "cube-open.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  g_assert_false (p.watertight);
  g_assert_cmpuint (p.boundary_edges, ==, 4);
  g_assert_cmpuint (p.n_holes, ==, 1);
  g_assert_cmpuint (p.non_manifold_edges, ==, 0);
  g_assert_cmpuint (p.n_triangles, ==, 10);

  /* closed by a flat cap, the unit square at z = 1: the unit cube, V 1,
   * COM (0.5, 0.5, 0.5), I 1/6 — not gz-sim's numbers (§8.9: integrated
   * about the mesh origin, COM (0.5, 0.5, 0), iyz −0.25), which the note
   * gives as its volume, 1 */
  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.centroid.x, 0.5, 1e-12);
  assert_near (p.centroid.y, 0.5, 1e-12);
  assert_near (p.centroid.z, 0.5, 1e-12);
  assert_inertia (&p.inertia, (double[]) { 1.0 / 6, 1.0 / 6, 1.0 / 6, 0, 0, 0 }, 1e-12);
  assert_near (p.gz_volume, 1.0, 1e-12);

  g_assert_cmpuint (p.warnings->len, >=, 1);
  g_assert_true (warnings_mention (&p, "open"));
  g_assert_true (warnings_mention (&p, "4 boundary edges"));
  g_assert_true (warnings_mention (&p, "(1 m² in all)"));
}

/* A T-junction: the top face's front edge split at its midpoint M, the
 * side face not.  The boundary loop 4 → M → 5 → 4 closes a crack of no
 * area: the cube is whole, V 1. */
static void
test_crack (void)
{
  g_auto(Shape) cube = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;
  guint32 m;

  shape_init (&cube);
  shape_add_box (&cube, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 2);
  shape_add_box (&cube, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 3, 9);
  m = shape_n_vertices (&cube);
  shape_vertex (&cube, 0.5, 0, 1);
  /* { 4, 5, 7 } as { 4, M, 7 } and { M, 5, 7 } */
  shape_triangle (&cube, 4, m, 7);
  shape_triangle (&cube, m, 5, 7);
  path = write_binary_stl (&cube, "cube-crack.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  g_assert_cmpuint (p.boundary_edges, ==, 3);
  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.centroid.z, 0.5, 1e-12);
  g_assert_true (warnings_mention (&p, "crack of no area"));
  g_assert_false (warnings_mention (&p, "The mesh is open"));
}

/* A unit cube missing one face, anywhere and turned any way: closed by
 * its cap, V 1 and the centroid at the cube's centre every time (issue
 * 17: at (5, 5, 5) the open surface gave z −12.5, or V 6, or "no volume"
 * at the origin, and a missing bottom at z = 0 was "a crack of no area"). */
static void
test_open_anywhere (void)
{
  static const double centres[][3] = { { 0.5, 0.5, 0.5 }, { 5.5, 5.5, 5.5 }, { -3, 2, 7 }, { 1e3, -2e3, 5e2 } };
  /* Rz(30°)·Rx(40°), and the identity */
  const double c30 = cos (G_PI / 6), s30 = sin (G_PI / 6), c40 = cos (2 * G_PI / 9), s40 = sin (2 * G_PI / 9);
  const double turned[3][3] = {
    { c30, -s30 * c40, s30 * s40 },
    { s30, c30 * c40, -c30 * s40 },
    { 0, s40, c40 },
  };

  for (guint turn = 0; turn < 2; turn++)
    for (guint c = 0; c < G_N_ELEMENTS (centres); c++)
      for (guint face = 0; face < 6; face++)
        {
          g_auto(Shape) open = { 0 };
          g_autofree char *path = NULL;
          g_autoptr(BlMesh) mesh = NULL;
          BlMeshProperties p;
          const double (*r)[3] = turn ? turned : identity;

          g_test_message ("turned %u, centre %u, face %u", turn, c, face);
          shape_init (&open);
          shape_add_box (&open, centres[c], (double[]) { 1, 1, 1 }, r, 0, 2 * face);
          shape_add_box (&open, centres[c], (double[]) { 1, 1, 1 }, r, 2 * face + 2, 10 - 2 * face);
          path = write_binary_stl (&open, "cube-open-anywhere.stl");
          mesh = load (path, unit_scale);
          props_of (mesh, FALSE, &p);

          g_assert_cmpuint (p.n_holes, ==, 1);
          /* float32 STL coordinates: about 1e-7 relative to the position */
          assert_near (p.volume, 1.0, 1e-4);
          assert_near (p.centroid.x, centres[c][0], 1e-4 * MAX (1, fabs (centres[c][0])));
          assert_near (p.centroid.y, centres[c][1], 1e-4 * MAX (1, fabs (centres[c][1])));
          assert_near (p.centroid.z, centres[c][2], 1e-4 * MAX (1, fabs (centres[c][2])));
          assert_near (p.inertia.m[0][0], 1.0 / 6, 1e-3);
          g_assert_true (warnings_mention (&p, "The mesh is open"));
          g_assert_false (warnings_mention (&p, "crack"));
        }
}

static void
test_non_manifold (void)
{
  g_auto(Shape) two = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  /* two unit cubes touching along the edge x = y = 1 */
  shape_init (&two);
  shape_add_box (&two, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 12);
  shape_add_box (&two, (double[]) { 1.5, 1.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 12);
  path = write_binary_stl (&two, "non-manifold.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  g_assert_cmpuint (p.non_manifold_edges, ==, 1);
  g_assert_cmpuint (p.boundary_edges, ==, 0);
  g_assert_false (p.watertight);
  g_assert_true (warnings_mention (&p, "non-manifold"));
  /* each cube is whole: V 2, centroid (1, 1, 0.5) */
  assert_near (p.volume, 2.0, 1e-12);
  assert_near (p.centroid.x, 1.0, 1e-12);
  assert_near (p.centroid.y, 1.0, 1e-12);
  assert_near (p.centroid.z, 0.5, 1e-12);
}

static void
test_inconsistent (void)
{
  g_auto(Shape) cube = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;
  guint32 *tri;
  guint32 x;

  /* one triangle of the x = 1 side turned inward */
  shape_unit_cube (&cube);
  tri = &g_array_index (cube.t, guint32, 3 * 11);
  x = tri[1];
  tri[1] = tri[2];
  tri[2] = x;
  path = write_binary_stl (&cube, "cube-mixed.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  g_assert_cmpuint (p.inconsistent_edges, ==, 3);
  g_assert_cmpuint (p.boundary_edges, ==, 0);
  g_assert_true (warnings_mention (&p, "opposite directions"));
}

static void
test_duplicate_and_degenerate (void)
{
  g_auto(Shape) cube = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  shape_unit_cube (&cube);
  /* a zero-area sliver along an edge of the cube: contributes nothing */
  shape_vertex (&cube, 0.5, 0.0, 0.0);
  shape_triangle (&cube, 0, 1, 8);
  path = write_binary_stl (&cube, "cube-sliver.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);
  g_assert_cmpuint (p.n_degenerate_triangles, ==, 1);
  assert_clean (&p);
  assert_near (p.volume, 1.0, 1e-12);
  assert_inertia (&p.inertia, (double[]) { 1.0 / 6, 1.0 / 6, 1.0 / 6, 0, 0, 0 }, 1e-12);
  g_clear_pointer (&mesh, bl_mesh_unref);
  g_clear_pointer (&path, g_free);

  /* a repeated triangle counts twice */
  shape_clear (&cube);
  shape_unit_cube (&cube);
  shape_triangle (&cube, 1, 3, 7);
  path = write_binary_stl (&cube, "cube-duplicate.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);
  g_assert_cmpuint (p.duplicate_triangles, ==, 1);
  g_assert_true (warnings_mention (&p, "repeat"));
}

/* ---------------------------------------------------------------------- */
/* Other formats (glTF, GLB, PLY, FBX, COLLADA), written here by hand       */

/* The tetrahedron's unit-density tensor about its centroid (SDF products). */
static const double tet_inertia[3][3] = {
  { 1.0 / 80, 1.0 / 480, 1.0 / 480 },
  { 1.0 / 480, 1.0 / 80, 1.0 / 480 },
  { 1.0 / 480, 1.0 / 480, 1.0 / 80 },
};

/* A shape of volume V, centroid C and central tensor I0, placed by
 * x' = T + s R x: V' = s³ V, c' = T + s R c, I' = s⁵ R I0 Rᵀ. */
static void
check_placed (const BlMeshProperties *p,
              double                  volume,
              const double            c[3],
              const double            i0[3][3],
              double                  s,
              const double            r[3][3],
              const double            t[3],
              double                  rel)
{
  double s5 = s * s * s * s * s;
  double want_c[3];
  double scale_i = s5 * MAX (MAX (i0[0][0], i0[1][1]), i0[2][2]);

  assert_near (p->volume, s * s * s * volume, rel * s * s * s * volume);
  for (int k = 0; k < 3; k++)
    want_c[k] = t[k] + s * (r[k][0] * c[0] + r[k][1] * c[1] + r[k][2] * c[2]);
  assert_near (p->centroid.x, want_c[0], rel * (1.0 + fabs (want_c[0])));
  assert_near (p->centroid.y, want_c[1], rel * (1.0 + fabs (want_c[1])));
  assert_near (p->centroid.z, want_c[2], rel * (1.0 + fabs (want_c[2])));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        double want = 0.0;

        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++)
            want += r[i][a] * i0[a][b] * r[j][b];
        assert_near (p->inertia.m[i][j], s5 * want, rel * scale_i);
      }
}

static void
box_tensor (const double size[3], double i0[3][3])
{
  double v = size[0] * size[1] * size[2];

  memset (i0, 0, 9 * sizeof (double));
  i0[0][0] = v * (size[1] * size[1] + size[2] * size[2]) / 12.0;
  i0[1][1] = v * (size[0] * size[0] + size[2] * size[2]) / 12.0;
  i0[2][2] = v * (size[0] * size[0] + size[1] * size[1]) / 12.0;
}

/* Positions as float32 xyz, then indices as uint32: one glTF buffer. */
static GBytes *
shape_buffer (const Shape *s)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();

  for (guint i = 0; i < s->v->len; i++)
    {
      float f = g_array_index (s->v, double, i);

      g_byte_array_append (bytes, (guint8 *) &f, 4);
    }
  g_byte_array_append (bytes, (guint8 *) s->t->data, 4 * s->t->len);
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/* glTF 2.0 JSON for one node holding the shape; BUFFER_URI NULL for a GLB. */
static char *
gltf_json (const Shape *s,
           const char  *node_transform,
           const char  *buffer_uri)
{
  g_autoptr(GString) uri = g_string_new (NULL);
  guint nv = shape_n_vertices (s), nt = shape_n_triangles (s);
  double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE };
  double hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };

  for (guint i = 0; i < nv; i++)
    for (int k = 0; k < 3; k++)
      {
        lo[k] = MIN (lo[k], g_array_index (s->v, double, 3 * i + k));
        hi[k] = MAX (hi[k], g_array_index (s->v, double, 3 * i + k));
      }
  if (buffer_uri != NULL)
    g_string_printf (uri, ", \"uri\": \"%s\"", buffer_uri);

  return g_strdup_printf (
    "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],\n"
    " \"nodes\": [{\"name\": \"body\", \"mesh\": 0%s}],\n"
    " \"meshes\": [{\"name\": \"body-mesh\", \"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"indices\": 1, \"mode\": 4}]}],\n"
    " \"buffers\": [{\"byteLength\": %u%s}],\n"
    " \"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": %u, \"target\": 34962},\n"
    "                 {\"buffer\": 0, \"byteOffset\": %u, \"byteLength\": %u, \"target\": 34963}],\n"
    " \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": %u, \"type\": \"VEC3\",\n"
    "                \"min\": [%g, %g, %g], \"max\": [%g, %g, %g]},\n"
    "               {\"bufferView\": 1, \"componentType\": 5125, \"count\": %u, \"type\": \"SCALAR\"}]}\n",
    node_transform, 12 * nv + 12 * nt, uri->str,
    12 * nv, 12 * nv, 12 * nt,
    nv, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], 3 * nt);
}

static char *
write_gltf_embedded (const Shape *s, const char *node_transform, const char *name)
{
  g_autoptr(GBytes) buffer = shape_buffer (s);
  g_autofree char *b64 = g_base64_encode (g_bytes_get_data (buffer, NULL), g_bytes_get_size (buffer));
  g_autofree char *uri = g_strconcat ("data:application/octet-stream;base64,", b64, NULL);
  g_autofree char *json = gltf_json (s, node_transform, uri);

  return write_text (name, json);
}

static void
glb_chunk (GByteArray *out, guint32 type, const guint8 *data, gsize size, guint8 pad)
{
  guint32 length = (size + 3) & ~(gsize) 3;

  g_byte_array_append (out, (guint8 *) &length, 4);
  g_byte_array_append (out, (guint8 *) &type, 4);
  g_byte_array_append (out, data, size);
  for (gsize i = size; i < length; i++)
    g_byte_array_append (out, &pad, 1);
}

static char *
write_glb (const Shape *s, const char *node_transform, const char *name)
{
  g_autoptr(GBytes) buffer = shape_buffer (s);
  g_autofree char *json = gltf_json (s, node_transform, NULL);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint32 header[3] = { 0x46546C67, 2, 0 };   /* "glTF", version 2, length */
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;
  gsize size = 0;
  const guint8 *bin = g_bytes_get_data (buffer, &size);

  g_byte_array_append (out, (guint8 *) header, sizeof header);
  glb_chunk (out, 0x4E4F534A, (const guint8 *) json, strlen (json), ' ');   /* "JSON" */
  glb_chunk (out, 0x004E4942, bin, size, 0);                                /* "BIN\0" */
  header[2] = out->len;
  memcpy (out->data + 8, &header[2], 4);

  g_file_set_contents (path, (const char *) out->data, out->len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
write_ply (const Shape *s, gboolean binary, const char *name)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree char *header = g_strdup_printf (
    "ply\nformat %s 1.0\ncomment ballast test mesh\nelement vertex %u\n"
    "property float x\nproperty float y\nproperty float z\nelement face %u\n"
    "property list uchar int vertex_indices\nend_header\n",
    binary ? "binary_little_endian" : "ascii", shape_n_vertices (s), shape_n_triangles (s));
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  g_assert_true (G_BYTE_ORDER == G_LITTLE_ENDIAN);
  g_byte_array_append (out, (guint8 *) header, strlen (header));
  for (guint v = 0; v < shape_n_vertices (s); v++)
    {
      float p[3];

      for (int k = 0; k < 3; k++)
        p[k] = g_array_index (s->v, double, 3 * v + k);
      if (binary)
        {
          g_byte_array_append (out, (guint8 *) p, sizeof p);
        }
      else
        {
          g_autofree char *line = g_strdup_printf ("%.9g %.9g %.9g\n", p[0], p[1], p[2]);

          g_byte_array_append (out, (guint8 *) line, strlen (line));
        }
    }
  for (guint t = 0; t < shape_n_triangles (s); t++)
    {
      const guint32 *tri = &g_array_index (s->t, guint32, 3 * t);

      if (binary)
        {
          guint8 three = 3;

          g_byte_array_append (out, &three, 1);
          g_byte_array_append (out, (guint8 *) tri, 12);
        }
      else
        {
          g_autofree char *line = g_strdup_printf ("3 %u %u %u\n", tri[0], tri[1], tri[2]);

          g_byte_array_append (out, (guint8 *) line, strlen (line));
        }
    }

  g_file_set_contents (path, (const char *) out->data, out->len, &error);
  g_assert_no_error (error);
  return path;
}

/* FBX 7.4 ASCII: one Mesh model placed by Lcl Translation and Lcl Rotation
 * (degrees, XYZ order).  Polygon indices end with the one's complement. */
static char *
write_fbx_ascii (const Shape *s, const double t[3], const double rot_deg[3], const char *name)
{
  g_autoptr(GString) text = g_string_new (NULL);
  char num[3][G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (text,
                   "; FBX 7.4.0 project file\n"
                   "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
                   "GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n"
                   "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",1\n\t}\n}\n"
                   "Objects:  {\n\tGeometry: 1000, \"Geometry::body\", \"Mesh\" {\n");
  g_string_append_printf (text, "\t\tVertices: *%u {\n\t\t\ta: ", s->v->len);
  for (guint i = 0; i < s->v->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "," : "",
                            g_ascii_dtostr (num[0], sizeof num[0], g_array_index (s->v, double, i)));
  g_string_append_printf (text, "\n\t\t}\n\t\tPolygonVertexIndex: *%u {\n\t\t\ta: ", s->t->len);
  for (guint i = 0; i < s->t->len; i++)
    {
      gint64 idx = g_array_index (s->t, guint32, i);

      g_string_append_printf (text, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "",
                              i % 3 == 2 ? -idx - 1 : idx);
    }
  g_string_append (text, "\n\t\t}\n\t\tGeometryVersion: 124\n\t}\n"
                   "\tModel: 2000, \"Model::body\", \"Mesh\" {\n\t\tVersion: 232\n\t\tProperties70:  {\n");
  g_string_append_printf (text, "\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",%s,%s,%s\n",
                          g_ascii_dtostr (num[0], sizeof num[0], t[0]),
                          g_ascii_dtostr (num[1], sizeof num[1], t[1]),
                          g_ascii_dtostr (num[2], sizeof num[2], t[2]));
  g_string_append_printf (text, "\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",%s,%s,%s\n",
                          g_ascii_dtostr (num[0], sizeof num[0], rot_deg[0]),
                          g_ascii_dtostr (num[1], sizeof num[1], rot_deg[1]),
                          g_ascii_dtostr (num[2], sizeof num[2], rot_deg[2]));
  g_string_append (text, "\t\t}\n\t}\n}\nConnections:  {\n\tC: \"OO\",1000,2000\n\tC: \"OO\",2000,0\n}\n");

  return write_text (name, text->str);
}

static void
test_format_gltf_embedded (void)
{
  g_auto(Shape) tet = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  /* glTF keeps its node transform (gz-common keeps even the root's rotation
   * for glTF): scale 2, then translation (1, 2, 3) */
  shape_tetrahedron (&tet);
  path = write_gltf_embedded (&tet, ", \"translation\": [1, 2, 3], \"scale\": [2, 2, 2]", "tet.gltf");
  mesh = load (path, unit_scale);
  g_assert_cmpuint (bl_mesh_get_n_triangles (mesh), ==, 4);
  props_of (mesh, FALSE, &p);

  /* V = 8/6, centroid (1, 2, 3) + 2·¼, I = 2⁵ I_tet (ixx 0.4, products 1/15) */
  check_placed (&p, 1.0 / 6.0, (double[]) { 0.25, 0.25, 0.25 }, tet_inertia,
                2.0, identity, (double[]) { 1, 2, 3 }, 1e-14);
  assert_near (p.volume, 4.0 / 3.0, 1e-14);
  assert_near (p.centroid.x, 1.5, 1e-14);
  assert_near (p.inertia.m[0][0], 0.4, 1e-14);
  assert_near (p.inertia.m[0][1], 1.0 / 15.0, 1e-14);
  assert_clean (&p);
}

static void
test_format_glb (void)
{
  g_auto(Shape) box = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;
  const double size[3] = { 1, 2, 3 };
  /* quaternion (0, 0, sin 45°, cos 45°): a quarter turn about z */
  const double rz[3][3] = { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } };
  double i0[3][3];

  shape_init (&box);
  shape_add_box (&box, (double[]) { 0, 0, 0 }, size, identity, 0, 12);
  path = write_glb (&box, ", \"translation\": [-4, 5, 0.5], "
                    "\"rotation\": [0, 0, 0.70710678118654752, 0.70710678118654752]", "box.glb");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  /* the 1 × 2 × 3 box lies 2 along x and 1 along y: Ixx = 6(1 + 9)/12 = 5,
   * Iyy = 6(4 + 9)/12 = 6.5, Izz = 6(4 + 1)/12 = 2.5 */
  box_tensor (size, i0);
  check_placed (&p, 6.0, (double[]) { 0, 0, 0 }, i0, 1.0, rz, (double[]) { -4, 5, 0.5 }, 1e-6);
  assert_near (p.inertia.m[0][0], 5.0, 1e-5);
  assert_near (p.inertia.m[1][1], 6.5, 1e-5);
  assert_near (p.inertia.m[2][2], 2.5, 1e-5);
  assert_clean (&p);
}

static void
test_format_ply (void)
{
  g_auto(Shape) tet = { 0 };
  g_auto(Shape) box = { 0 };
  g_autofree char *ascii = NULL;
  g_autofree char *binary = NULL;
  g_autoptr(BlMesh) mesh_ascii = NULL;
  g_autoptr(BlMesh) mesh_binary = NULL;
  BlMeshProperties p;
  double i0[3][3];

  shape_tetrahedron (&tet);
  ascii = write_ply (&tet, FALSE, "tet-ascii.ply");
  mesh_ascii = load (ascii, unit_scale);
  props_of (mesh_ascii, FALSE, &p);
  g_assert_cmpuint (p.n_triangles, ==, 4);
  check_tetrahedron (&p, 1.0);
  assert_clean (&p);

  /* 1 × 2 × 3 box centred at (5, −2, 1): V 6, Ixx 6.5, Iyy 5, Izz 2.5 */
  shape_init (&box);
  shape_add_box (&box, (double[]) { 5, -2, 1 }, (double[]) { 1, 2, 3 }, identity, 0, 12);
  binary = write_ply (&box, TRUE, "box-binary.ply");
  mesh_binary = load (binary, unit_scale);
  props_of (mesh_binary, FALSE, &p);
  g_assert_cmpuint (p.n_triangles, ==, 12);
  box_tensor ((double[]) { 1, 2, 3 }, i0);
  check_placed (&p, 6.0, (double[]) { 0, 0, 0 }, i0, 1.0, identity, (double[]) { 5, -2, 1 }, 1e-13);
  assert_near (p.inertia.m[0][0], 6.5, 1e-12);
  assert_clean (&p);
}

/* The anonymous memory (pages copied or written privately) of the mapping
 * that holds address, in kB, from /proc/self/smaps; -1 when none does. */
static int
anonymous_kb_at (const void *address)
{
  g_autofree char *kb = smaps_field_at (address, "Anonymous");

  return kb != NULL ? atoi (kb) : -1;
}

/* What the mesh reader's child returns is used where the parent maps it
 * (the sealed memfd's own pages): not copied page by page into private
 * memory, as MAP_POPULATE on the private mapping did, keeping it twice.
 * A scale writes the vertices, so those pages are then the mesh's own. */
static void
test_child_result_not_copied (void)
{
  g_auto(Shape) box = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  g_autoptr(BlMesh) scaled = NULL;
  guint n;

  shape_init (&box);
  shape_add_box (&box, (double[]) { 5, -2, 1 }, (double[]) { 1, 2, 3 }, identity, 0, 12);
  /* (an ASCII PLY: a binary one is read in process) */
  path = write_ply (&box, FALSE, "box-mapped.ply");
  mesh = load (path, unit_scale);
  g_assert_cmpint (anonymous_kb_at (bl_mesh_get_submesh_vertices (mesh, 0, &n)), ==, 0);
  g_assert_cmpuint (n, ==, 8);
  scaled = load (path, (BlVec3) { 2, 2, 2 });
  g_assert_cmpfloat (bl_mesh_get_submesh_vertices (scaled, 0, &n)[0], ==,
                     2 * bl_mesh_get_submesh_vertices (mesh, 0, &n)[0]);
  g_assert_cmpint (anonymous_kb_at (bl_mesh_get_submesh_vertices (scaled, 0, &n)), >, 0);
  g_unlink (path);
}

/* A small mesh read in process (binary STL or PLY) lies in ordinary
 * pages: a huge page, filled at once, held 2 MiB for each as long as it
 * was cached (50 tetrahedra took 100 MB). */
static void
test_native_small_memory (void)
{
  g_auto(Shape) tet = { 0 };
  const char *names[] = { "small-memory.stl", "small-memory.ply" };

  shape_tetrahedron (&tet);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = i == 0 ? write_binary_stl (&tet, names[i]) : write_ply (&tet, TRUE, names[i]);
      g_autoptr(BlMesh) mesh = load (path, unit_scale);
      BlMeshTimings timings;
      guint n;

      bl_mesh_get_timings (&timings);
      g_assert_true (timings.native);
      /* the mapping's other blocks count too (under ASan a size class's
       * region, 44 kB once): far below the 2,048 kB of a huge page */
      g_assert_cmpint (anonymous_kb_at (bl_mesh_get_submesh_vertices (mesh, 0, &n)), <, 1024);
      g_assert_cmpuint (n, ==, 4);
      g_unlink (path);
    }
}

static void
test_format_fbx_ascii (void)
{
  g_auto(Shape) tet = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;
  const double rz[3][3] = { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } };

  /* assimp 5.2.5 reads FBX 7.4 ASCII; UnitScaleFactor 1 (centimetres) is
   * left as it is by assimp and gz-common alike */
  shape_tetrahedron (&tet);
  path = write_fbx_ascii (&tet, (double[]) { 1, 2, 3 }, (double[]) { 0, 0, 90 }, "tet.fbx");
  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);
  g_assert_cmpuint (p.n_triangles, ==, 4);

  /* turned a quarter about z then moved: centroid (1 − ¼, 2 + ¼, 3 + ¼);
   * ixy = −1/480 (x' = −y), ixz = −1/480, iyz = +1/480 */
  check_placed (&p, 1.0 / 6.0, (double[]) { 0.25, 0.25, 0.25 }, tet_inertia,
                1.0, rz, (double[]) { 1, 2, 3 }, 1e-6);
  assert_near (p.centroid.x, 0.75, 1e-6);
  assert_near (p.inertia.m[0][1], -1.0 / 480.0, 1e-8);
  assert_near (p.inertia.m[1][2], 1.0 / 480.0, 1e-8);
  assert_clean (&p);
}

/* The start of a Z-up COLLADA file with UNIT (a <unit> element) and one
 * geometry, "#box-mesh": the box of SIZE centred at CENTRE, wound as
 * cube_triangles. */
static void
dae_append_head (GString      *dae,
                 const char   *unit,
                 const double  centre[3],
                 const double  size[3])
{
  g_string_append_printf (dae,
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
    "  <asset>%s<up_axis>Z_UP</up_axis></asset>\n"
    "  <library_geometries><geometry id=\"box-mesh\" name=\"box\"><mesh>\n"
    "    <source id=\"box-pos\"><float_array id=\"box-pos-array\" count=\"24\">", unit);
  for (guint i = 0; i < 8; i++)
    for (int k = 0; k < 3; k++)
      g_string_append_printf (dae, "%g ", centre[k] + (((i >> k) & 1) - 0.5) * size[k]);
  g_string_append (dae,
    "</float_array>\n"
    "      <technique_common><accessor source=\"#box-pos-array\" count=\"8\" stride=\"3\">"
    "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "    <vertices id=\"box-vtx\"><input semantic=\"POSITION\" source=\"#box-pos\"/></vertices>\n"
    "    <triangles count=\"12\"><input semantic=\"VERTEX\" source=\"#box-vtx\" offset=\"0\"/><p>");
  for (guint i = 0; i < 12; i++)
    g_string_append_printf (dae, "%u %u %u ", cube_triangles[i][0], cube_triangles[i][1],
                            cube_triangles[i][2]);
  g_string_append (dae,
    "</p></triangles>\n"
    "  </mesh></geometry></library_geometries>\n");
}

/* A COLLADA <node> without a name takes its first named ancestor's name,
 * as gz-common's ColladaLoader gives it (polaris_ranger's
 * <node name="Steering_Wheel"><node>…): <submesh><name>Steering_Wheel
 * finds the unit cube moved 5 along x, centroid (5.5, 0.5, 0.5). */
static void
test_format_collada_unnamed_node (void)
{
  g_autoptr(GString) dae = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) whole = NULL;
  g_autoptr(BlMesh) wheel = NULL;
  BlMeshProperties p;

  dae_append_head (dae, "<unit name=\"meter\" meter=\"1\"/>", (const double[]) { 0.5, 0.5, 0.5 },
                   (const double[]) { 1, 1, 1 });
  g_string_append (dae,
    "  <library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">\n"
    "    <node id=\"node-Ranger\" name=\"Ranger\"><instance_geometry url=\"#box-mesh\"/></node>\n"
    "    <node id=\"node-Steering_Wheel\" name=\"Steering_Wheel\"><translate>5 0 0</translate>\n"
    "      <node><instance_geometry url=\"#box-mesh\"/></node>\n"
    "    </node>\n"
    "  </visual_scene></library_visual_scenes>\n"
    "  <scene><instance_visual_scene url=\"#Scene\"/></scene>\n"
    "</COLLADA>\n");
  path = write_text ("unnamed-node.dae", dae->str);

  whole = load (path, unit_scale);
  g_assert_cmpuint (bl_mesh_get_n_submeshes (whole), ==, 2);
  g_assert_cmpstr (bl_mesh_get_submesh_name (whole, 0), ==, "Ranger");
  g_assert_cmpstr (bl_mesh_get_submesh_name (whole, 1), ==, "Steering_Wheel");

  wheel = bl_mesh_new_from_file (path, unit_scale, "Steering_Wheel", FALSE, &error);
  g_assert_no_error (error);
  props_of (wheel, FALSE, &p);
  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.centroid.x, 5.5, 1e-12);
  assert_near (p.centroid.y, 0.5, 1e-12);
  assert_near (p.centroid.z, 0.5, 1e-12);
}

/* COLLADA in millimetres (<unit meter="0.001">, Z up) with a box placed by
 * two nested nodes: the parent translates, the child rotates.  gz-common's
 * AssimpLoader keeps the root node's scale (the unit) and translation but
 * drops its rotation (the up axis), then applies each node's transform:
 * x[m] = 0.001 (T + R x[mm]). */
static void
test_format_collada_unit_and_nodes (void)
{
  const double size_mm[3] = { 1000, 2000, 3000 };
  const double centre_mm[3] = { 50, 0, 0 };
  const double t_mm[3] = { 100, -200, 300 };
  const double axis[3] = { 0, 0.6, 0.8 };
  const double angle = 40.0;
  g_autoptr(GString) dae = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;
  double r[3][3], i0[3][3], corner[8][3], t[3];
  const double *v;
  guint nv;

  dae_append_head (dae, "<unit name=\"millimeter\" meter=\"0.001\"/>", centre_mm, size_mm);
  g_string_append_printf (dae,
    "  <library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">\n"
    "    <node id=\"frame\" name=\"frame\" type=\"NODE\"><translate>%g %g %g</translate>\n"
    "      <node id=\"body\" name=\"body\" type=\"NODE\"><rotate>%g %g %g %g</rotate>\n"
    "        <instance_geometry url=\"#box-mesh\"/></node>\n"
    "    </node>\n"
    "  </visual_scene></library_visual_scenes>\n"
    "  <scene><instance_visual_scene url=\"#Scene\"/></scene>\n"
    "</COLLADA>\n",
    t_mm[0], t_mm[1], t_mm[2], axis[0], axis[1], axis[2], angle);
  path = write_text ("box-mm.dae", dae->str);

  mesh = load (path, unit_scale);
  g_assert_cmpuint (bl_mesh_get_n_submeshes (mesh), ==, 1);
  g_assert_cmpstr (bl_mesh_get_submesh_name (mesh, 0), ==, "body");
  props_of (mesh, FALSE, &p);

  axis_angle (axis[0], axis[1], axis[2], angle * G_PI / 180.0, r);
  for (int k = 0; k < 3; k++)
    t[k] = 0.001 * t_mm[k];

  /* every vertex is a corner x = 0.001 (T + R c) in metres */
  v = bl_mesh_get_submesh_vertices (mesh, 0, &nv);
  g_assert_cmpuint (nv, ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      double local[3];

      for (int k = 0; k < 3; k++)
        local[k] = centre_mm[k] + (((i >> k) & 1) - 0.5) * size_mm[k];
      for (int k = 0; k < 3; k++)
        corner[i][k] = 0.001 * (t_mm[k] + r[k][0] * local[0] + r[k][1] * local[1] + r[k][2] * local[2]);
    }
  for (guint j = 0; j < nv; j++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < 8 && !found; i++)
        found = fabs (v[3 * j] - corner[i][0]) < 1e-6 && fabs (v[3 * j + 1] - corner[i][1]) < 1e-6
             && fabs (v[3 * j + 2] - corner[i][2]) < 1e-6;
      if (!found)
        g_error ("vertex %u (%g, %g, %g) is no corner of the placed box", j, v[3 * j], v[3 * j + 1], v[3 * j + 2]);
    }

  /* a 1 × 2 × 3 m box: V 6, centroid 0.001 (T + R (50, 0, 0)), I = R diag Rᵀ */
  box_tensor ((double[]) { 1, 2, 3 }, i0);
  check_placed (&p, 6.0, (double[]) { 0.05, 0, 0 }, i0, 1.0, (const double (*)[3]) r, t, 1e-6);
  g_assert_cmpfloat (fabs (p.inertia.m[1][2]), >, 0.1);   /* really turned */
  assert_clean (&p);
}

static const char *
fixtures_dir (void)
{
  const char *dir = g_getenv ("BALLAST_FIXTURES");

  return dir != NULL ? dir : "tests/fixtures/public";
}

static void
check_cylinder (const char *model, const char *file, double cz)
{
  g_autofree char *path = g_build_filename (fixtures_dir (), "models", model, "meshes", file, NULL);
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;
  const double rho = 1240.0;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("fixture missing");
      return;
    }

  mesh = load (path, unit_scale);
  props_of (mesh, FALSE, &p);

  /* §8.10: 8192 vertices, 16380 triangles */
  g_assert_cmpuint (p.n_triangles, ==, 16380);
  assert_rel (p.volume, 6.28318296, 1e-6);
  assert_rel (rho * p.volume, 7791.14687, 1e-6);
  assert_near (p.centroid.x, 0.0, 1e-6);
  assert_near (p.centroid.y, 0.0, 1e-6);
  assert_near (p.centroid.z, cz, 1e-6);
  assert_rel (rho * p.inertia.m[0][0], 4544.83494, 1e-6);
  assert_rel (rho * p.inertia.m[1][1], 4544.83494, 1e-6);
  assert_rel (rho * p.inertia.m[2][2], 3895.57198, 1e-6);
  /* within 0.1 % of the ideal cylinder (m 7791.149781, 4544.837372, 3895.57489) */
  assert_rel (rho * p.volume, 7791.149781, 1e-3);
  assert_rel (rho * p.inertia.m[0][0], 4544.837372, 1e-3);
  assert_rel (rho * p.inertia.m[2][2], 3895.57489, 1e-3);
  assert_near (p.inertia.m[0][1], 0.0, 1e-6);
  assert_near (p.inertia.m[0][2], 0.0, 1e-6);
  assert_near (p.inertia.m[1][2], 0.0, 1e-6);
  assert_clean (&p);
}

static void
test_cylinder_dae (void)
{
  check_cylinder ("cylinder_dae", "cylinder.dae", 0.0);
}

static void
test_cylinder_dae_bottom_origin (void)
{
  check_cylinder ("cylinder_dae_bottom_origin", "cylinder_bottom_origin.dae", 1.0);
}

static void
test_hull_point_cloud (void)
{
  g_auto(Shape) cloud = { 0 };
  g_autoptr(BlMesh) mesh = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  BlMeshProperties p;
  guint n;

  /* the cube's corners, its face and edge midpoints (coplanar with hull
   * faces) and 500 interior points, tied into arbitrary triangles */
  shape_init (&cloud);
  for (guint i = 0; i < 27; i++)
    shape_vertex (&cloud, (i % 3) * 0.5, (i / 3 % 3) * 0.5, (i / 9) * 0.5);
  for (guint i = 0; i < 500; i++)
    shape_vertex (&cloud, g_rand_double_range (rand, 0.01, 0.99),
                  g_rand_double_range (rand, 0.01, 0.99), g_rand_double_range (rand, 0.01, 0.99));
  n = shape_n_vertices (&cloud);
  for (guint i = 0; i + 2 < n; i += 3)
    shape_triangle (&cloud, i, i + 1, i + 2);

  mesh = bl_mesh_new_from_triangles ((const double *) cloud.v->data, n,
                                     (const guint32 *) cloud.t->data, shape_n_triangles (&cloud),
                                     NULL);
  g_assert_nonnull (mesh);
  props_of (mesh, TRUE, &p);

  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.centroid.x, 0.5, 1e-12);
  assert_near (p.centroid.y, 0.5, 1e-12);
  assert_near (p.centroid.z, 0.5, 1e-12);
  assert_inertia (&p.inertia, (double[]) { 1.0 / 6, 1.0 / 6, 1.0 / 6, 0, 0, 0 }, 1e-12);
  g_assert_true (p.watertight);
  g_assert_false (p.inside_out);
}

static void
test_hull_sphere (void)
{
  const guint n = 4000;
  g_autofree double *points = g_new (double, 3 * n);
  g_autofree guint32 *tris = g_new (guint32, 3);
  g_autofree guint32 *hull = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  g_autoptr(GError) error = NULL;
  gsize n_hull = 0;
  BlMeshProperties p;
  double golden = G_PI * (3.0 - sqrt (5.0));

  /* Fibonacci points on the unit sphere */
  for (guint i = 0; i < n; i++)
    {
      double z = 1.0 - 2.0 * (i + 0.5) / n;
      double r = sqrt (1.0 - z * z);

      points[3 * i] = 3.0 + r * cos (golden * i);
      points[3 * i + 1] = -1.0 + r * sin (golden * i);
      points[3 * i + 2] = 2.0 + z;
    }
  tris[0] = 0; tris[1] = 1; tris[2] = 2;

  hull = bl_mesh_convex_hull (points, n, &n_hull, &error);
  g_assert_no_error (error);
  /* every point is a vertex: Euler's formula gives 2n − 4 triangles */
  g_assert_cmpuint (n_hull, ==, 2 * n - 4);

  mesh = bl_mesh_new_from_triangles (points, n, tris, 1, NULL);
  props_of (mesh, TRUE, &p);
  g_assert_cmpfloat (p.volume, <, 4.0 / 3.0 * G_PI);
  assert_rel (p.volume, 4.0 / 3.0 * G_PI, 2e-3);
  assert_near (p.centroid.x, 3.0, 1e-3);
  assert_near (p.centroid.y, -1.0, 1e-3);
  assert_near (p.centroid.z, 2.0, 1e-3);
  /* solid sphere: 2/5 V r² */
  assert_rel (p.inertia.m[0][0], 0.4 * 4.0 / 3.0 * G_PI, 5e-3);
  g_assert_true (p.watertight);
  g_assert_cmpuint (p.inconsistent_edges, ==, 0);
}

static void
test_hull_degenerate (void)
{
  double flat[5 * 3] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.3, 0.2, 0 };
  double line[4 * 3] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3 };
  guint32 tri[3] = { 0, 1, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  gsize n = 0;
  BlMeshProperties p;
  guint32 *hull;

  hull = bl_mesh_convex_hull (flat, 5, &n, &error);
  g_assert_null (hull);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE);
  g_clear_error (&error);

  hull = bl_mesh_convex_hull (line, 4, &n, &error);
  g_assert_null (hull);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE);
  g_clear_error (&error);

  /* a flat mesh: no volume either way */
  mesh = bl_mesh_new_from_triangles (flat, 5, tri, 1, NULL);
  g_assert_false (bl_mesh_get_mass_properties (mesh, TRUE, &p, &error));
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE);
  g_clear_error (&error);
  g_assert_false (bl_mesh_get_mass_properties (mesh, FALSE, &p, &error));
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_DEGENERATE);
}

static void
test_hull_of_file (void)
{
  g_auto(Shape) open = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  BlMeshProperties p;

  /* the open cube's hull is the closed cube */
  shape_init (&open);
  shape_add_box (&open, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 10);
  path = write_binary_stl (&open, "cube-open-hull.stl");
  mesh = load (path, unit_scale);
  props_of (mesh, TRUE, &p);
  assert_near (p.volume, 1.0, 1e-12);
  assert_near (p.centroid.z, 0.5, 1e-12);
  assert_inertia (&p.inertia, (double[]) { 1.0 / 6, 1.0 / 6, 1.0 / 6, 0, 0, 0 }, 1e-12);
  assert_clean (&p);
}

/* An inside-out submesh is flipped; it is named only when its volume
 * matters against the mesh's own size: a 1 µm cube (1e-18 m³) beside a
 * unit cube is flipped without a word, a unit one is reported. */
static void
test_tiny_inside_out_submesh (void)
{
  const double sizes[2] = { 1e-6, 1 };

  for (guint k = 0; k < 2; k++)
    {
      g_auto(Shape) a = { 0 };
      g_auto(Shape) b = { 0 };
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *path = NULL;
      g_autoptr(BlMesh) mesh = NULL;
      BlMeshProperties p;

      shape_init (&a);
      shape_add_box (&a, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 12);
      shape_init (&b);
      shape_add_box (&b, (double[]) { 3, 0, 0 }, (double[]) { sizes[k], sizes[k], sizes[k] }, identity, 0, 12);
      for (guint t = 0; t < shape_n_triangles (&b); t++)
        {
          guint32 *tri = &g_array_index (b.t, guint32, 3 * t);
          guint32 x = tri[1];

          tri[1] = tri[2];
          tri[2] = x;
        }
      append_obj_object (text, &a, "body", 0);
      append_obj_object (text, &b, "sliver", shape_n_vertices (&a));
      path = write_text ("inside-out-part.obj", text->str);
      mesh = load (path, unit_scale);
      props_of (mesh, FALSE, &p);

      assert_near (p.volume, 1 + sizes[k] * sizes[k] * sizes[k], 1e-6);
      g_assert_cmpint (warnings_mention (&p, "Submesh “sliver” is inside-out"), ==, k == 1);
    }
}

static void
test_submesh (void)
{
  g_auto(Shape) a = { 0 };
  g_auto(Shape) b = { 0 };
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) whole = NULL;
  g_autoptr(BlMesh) part = NULL;
  g_autoptr(BlMesh) centred = NULL;
  g_autoptr(BlMesh) missing = NULL;
  g_autoptr(GError) error = NULL;
  BlMeshProperties p, sp;
  gboolean found_a = FALSE, found_b = FALSE;

  shape_init (&a);
  shape_add_box (&a, (double[]) { 0.5, 0.5, 0.5 }, (double[]) { 1, 1, 1 }, identity, 0, 12);
  shape_init (&b);
  shape_add_box (&b, (double[]) { 10, 0, 0 }, (double[]) { 2, 1, 1 }, identity, 0, 12);
  append_obj_object (text, &a, "part_a", 0);
  append_obj_object (text, &b, "part_b", shape_n_vertices (&a));
  path = write_text ("two-parts.obj", text->str);

  whole = load (path, unit_scale);
  g_assert_cmpuint (bl_mesh_get_n_submeshes (whole), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      found_a |= g_strcmp0 (bl_mesh_get_submesh_name (whole, i), "part_a") == 0;
      found_b |= g_strcmp0 (bl_mesh_get_submesh_name (whole, i), "part_b") == 0;
    }
  g_assert_true (found_a && found_b);

  /* both parts: V 3, centroid (1·0.5 + 2·10)/3 */
  props_of (whole, FALSE, &p);
  assert_near (p.volume, 3.0, 1e-12);
  assert_near (p.centroid.x, (0.5 + 20.0) / 3.0, 1e-12);
  assert_clean (&p);
  g_assert_true (bl_mesh_get_submesh_mass_properties (whole, 0, &sp));
  g_assert_true (sp.watertight);
  g_assert_false (bl_mesh_get_submesh_mass_properties (whole, 2, &sp));

  part = bl_mesh_new_from_file (path, unit_scale, "part_b", FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (bl_mesh_get_n_submeshes (part), ==, 1);
  props_of (part, FALSE, &p);
  assert_near (p.volume, 2.0, 1e-12);
  assert_near (p.centroid.x, 10.0, 1e-12);

  centred = bl_mesh_new_from_file (path, unit_scale, "part_b", TRUE, &error);
  g_assert_no_error (error);
  props_of (centred, FALSE, &p);
  assert_near (p.volume, 2.0, 1e-12);
  assert_near (p.centroid.x, 0.0, 1e-12);
  assert_near (p.centroid.y, 0.0, 1e-12);
  /* Ixx = 2(1 + 1)/12, Iyy = Izz = 2(4 + 1)/12 */
  assert_inertia (&p.inertia, (double[]) { 4.0 / 12, 10.0 / 12, 10.0 / 12, 0, 0, 0 }, 1e-12);

  missing = bl_mesh_new_from_file (path, unit_scale, "part_c", FALSE, &error);
  g_assert_null (missing);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_NO_SUBMESH);
  g_assert_nonnull (strstr (error->message, "part_c"));
}

static void
test_errors (void)
{
  g_autofree char *missing = tmp_path ("no-such-mesh.stl");
  g_autofree char *corrupt = write_text ("corrupt.stl", "this is not a mesh at all\n\x01\x02\x03");
  g_autofree char *lines = write_text ("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n");
  g_autoptr(GError) error = NULL;
  BlMesh *mesh;

  mesh = bl_mesh_new_from_file (missing, unit_scale, NULL, FALSE, &error);
  g_assert_null (mesh);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_clear_error (&error);

  mesh = bl_mesh_cache_lookup (missing, unit_scale, NULL, FALSE, &error);
  g_assert_null (mesh);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_clear_error (&error);

  mesh = bl_mesh_new_from_file (corrupt, unit_scale, NULL, FALSE, &error);
  g_assert_null (mesh);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_test_message ("corrupt: %s", error->message);
  g_clear_error (&error);

  mesh = bl_mesh_new_from_file (lines, unit_scale, NULL, FALSE, &error);
  g_assert_null (mesh);
  g_assert_true (g_error_matches (error, BL_MESH_ERROR, BL_MESH_ERROR_EMPTY)
                 || g_error_matches (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD));
  g_clear_error (&error);
}

static void
test_cache (void)
{
  g_auto(Shape) cube = { 0 };
  g_autofree char *path = NULL;
  g_autoptr(BlMesh) a = NULL;
  g_autoptr(BlMesh) b = NULL;
  g_autoptr(BlMesh) c = NULL;
  g_autoptr(BlMesh) d = NULL;
  g_autoptr(GError) error = NULL;
  BlMeshProperties pa, pb, pd;
  guint before;

  bl_mesh_cache_clear ();
  shape_unit_cube (&cube);
  path = write_binary_stl (&cube, "cached.stl");

  a = bl_mesh_cache_lookup (path, unit_scale, NULL, FALSE, &error);
  g_assert_no_error (error);
  props_of (a, FALSE, &pa);
  b = bl_mesh_cache_lookup (path, unit_scale, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (a == b);
  props_of (b, FALSE, &pb);
  /* computed once: the very same warnings array */
  g_assert_true (pa.warnings == pb.warnings);
  g_assert_cmpuint (bl_mesh_cache_size (), ==, 1);

  c = bl_mesh_cache_lookup (path, bl_vec3 (2, -1, 3), NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (c != a);
  g_assert_cmpuint (bl_mesh_cache_size (), ==, 2);
  /* two scales of one file: one unscaled key (the viewport shares their
   * buffers), each with its own scale */
  {
    BlVec3 sa, sc;

    g_assert_nonnull (bl_mesh_get_unscaled_key (a, &sa));
    g_assert_cmpstr (bl_mesh_get_unscaled_key (a, &sa), ==, bl_mesh_get_unscaled_key (c, &sc));
    g_assert_true (sa.x == 1 && sa.y == 1 && sa.z == 1);
    g_assert_true (sc.x == 2 && sc.y == -1 && sc.z == 3);
  }

  /* a new version of the file (another size) is reloaded, old entries dropped */
  shape_vertex (&cube, 0.5, 0.5, 0.5);
  shape_triangle (&cube, 0, 0, 8);   /* degenerate: same volume, bigger file */
  g_free (write_binary_stl (&cube, "cached.stl"));
  before = bl_mesh_cache_size ();
  d = bl_mesh_cache_lookup (path, unit_scale, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (d != a);
  g_assert_cmpuint (bl_mesh_cache_size (), <, before + 1);
  g_assert_cmpuint (bl_mesh_get_n_triangles (d), ==, 13);
  /* another version of the file: another key */
  g_assert_cmpstr (bl_mesh_get_unscaled_key (d, NULL), !=, bl_mesh_get_unscaled_key (a, NULL));
  props_of (d, FALSE, &pd);
  assert_near (pd.volume, 1.0, 1e-12);

  /* references held outside survive clearing */
  bl_mesh_cache_clear ();
  g_assert_cmpuint (bl_mesh_cache_size (), ==, 0);
  assert_near (pa.volume, 1.0, 1e-12);
  g_assert_cmpuint (bl_mesh_get_n_triangles (a), ==, 12);
}

static void
test_integrator_threads (void)
{
  /* many copies of the tetrahedron's faces, enough to split over threads,
   * give exactly many times its moments */
  const guint copies = 40000;
  double v[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  guint32 faces[12] = { 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3 };
  g_autofree guint32 *indices = g_new (guint32, 12 * copies);
  double ref[3] = { 0.5, 0.5, 0.5 };
  double m[BL_MESH_N_MOMENTS];

  for (guint i = 0; i < copies; i++)
    memcpy (&indices[12 * i], faces, sizeof faces);

  bl_mesh_integrate_moments (v, indices, 4 * copies, ref, m);
  assert_rel (m[0], copies / 6.0, 1e-12);
  /* ∫(x − ½) = V(¼ − ½) */
  assert_rel (m[1], copies / 6.0 * -0.25, 1e-12);
}

/* ---------------------------------------------------------------------- */
/* Binary STL read in process against assimp in the child                   */

/* Raw binary STL: HEADER (80 bytes, zeros when NULL), COUNT as the facet
 * count field, N_COORDS floats written 9 per facet after a zero normal,
 * ATTR as every facet's attribute word, then EXTRA zero bytes. */
static char *
write_stl_raw (const char   *name,
               const char   *header,
               gsize         header_len,
               guint32       count,
               const float  *coords,
               gsize         n_facets,
               guint16       attr,
               gsize         extra)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  guint8 head[80] = { 0 };
  guint32 count_le = GUINT32_TO_LE (count);
  guint16 attr_le = GUINT16_TO_LE (attr);
  char *path = tmp_path (name);
  g_autoptr(GError) error = NULL;

  if (header != NULL)
    memcpy (head, header, MIN (header_len, sizeof head));
  g_byte_array_append (bytes, head, sizeof head);
  g_byte_array_append (bytes, (const guint8 *) &count_le, 4);
  for (gsize f = 0; f < n_facets; f++)
    {
      static const float normal[3] = { 0, 0, 0 };

      g_byte_array_append (bytes, (const guint8 *) normal, sizeof normal);
      g_byte_array_append (bytes, (const guint8 *) &coords[9 * f], 9 * sizeof (float));
      g_byte_array_append (bytes, (const guint8 *) &attr_le, 2);
    }
  for (gsize i = 0; i < extra; i++)
    g_byte_array_append (bytes, (const guint8 *) "", 1);

  g_file_set_contents (path, (const char *) bytes->data, bytes->len, &error);
  g_assert_no_error (error);
  return path;
}

/* A closed torus (R 1, r 0.4) of 2·nu·nv facets, in grid order as a
 * mesher writes it: each vertex is shared by six facets. */
static float *
torus_facets (guint nu, guint nv, gsize *n_facets)
{
  float *f = g_new (float, 18 * (gsize) nu * nv);
  gsize o = 0;

  for (guint i = 0; i < nu; i++)
    for (guint j = 0; j < nv; j++)
      {
        float p[4][3];
        const guint ci[4] = { i, (i + 1) % nu, (i + 1) % nu, i };
        const guint cj[4] = { j, j, (j + 1) % nv, (j + 1) % nv };
        const int order[6] = { 0, 1, 2, 0, 2, 3 };

        for (int c = 0; c < 4; c++)
          {
            double u = 2 * G_PI * ci[c] / nu, v = 2 * G_PI * cj[c] / nv;

            p[c][0] = (1.0 + 0.4 * cos (v)) * cos (u);
            p[c][1] = (1.0 + 0.4 * cos (v)) * sin (u);
            p[c][2] = 0.4 * sin (v);
          }
        for (int k = 0; k < 6; k++)
          for (int j2 = 0; j2 < 3; j2++)
            f[o++] = p[order[k]][j2];
      }
  *n_facets = 2 * (gsize) nu * nv;
  return f;
}

/* The same, for a file that the in-process reader leaves to assimp and
 * that may or may not load. */
static void
compare_stl_any (char *path)
{
  GError *error = bl_test_compare_paths (path, unit_scale, FALSE);

  g_clear_error (&error);
  g_unlink (path);
  g_free (path);
}

static void
test_native_stl_same_mesh (void)
{
  g_auto(Shape) cube = { 0 };
  g_auto(Shape) open = { 0 };
  g_auto(Shape) tet = { 0 };
  g_autofree float *facets = NULL;
  g_autofree float *soup = NULL;
  gsize n = 0;

  /* shapes the other tests use, written by the same writer */
  shape_unit_cube (&cube);
  {
    g_autofree char *path = write_binary_stl (&cube, "same-cube-names.stl");
    g_autoptr(GError) native_error = NULL;
    g_autoptr(GError) child_error = NULL;
    BlMesh *mesh;

    /* the submesh names a <submesh> is looked up by (node, then mesh) */
    mesh = bl_mesh_new_from_file (path, unit_scale, "body", FALSE, &native_error);
    g_assert_null (mesh);
    bl_mesh_set_native_readers (FALSE);
    mesh = bl_mesh_new_from_file (path, unit_scale, "body", FALSE, &child_error);
    bl_mesh_set_native_readers (TRUE);
    g_assert_null (mesh);
    g_assert_error (native_error, BL_MESH_ERROR, BL_MESH_ERROR_NO_SUBMESH);
    g_assert_error (child_error, BL_MESH_ERROR, BL_MESH_ERROR_NO_SUBMESH);
    g_assert_cmpstr (native_error->message, ==, child_error->message);
    g_unlink (path);
  }
  bl_test_assert_same_and_remove (write_binary_stl (&cube, "same-cube.stl"), TRUE);
  shape_tetrahedron (&tet);
  bl_test_assert_same_and_remove (write_binary_stl (&tet, "same-tet.stl"), TRUE);
  shape_reverse (&tet);
  bl_test_assert_same_and_remove (write_binary_stl (&tet, "same-tet-inward.stl"), TRUE);
  /* ASCII STL stays with assimp */
  bl_test_assert_same_and_remove (write_ascii_stl (&cube, "same-cube-ascii.stl"), FALSE);

  /* an open cube: the top face left out */
  shape_unit_cube (&open);
  g_array_set_size (open.t, 3 * 10);
  bl_test_assert_same_and_remove (write_binary_stl (&open, "same-open.stl"), TRUE);

  /* a torus large enough for the reader's and the health check's threads,
   * in grid order (a vertex's facets far apart in the file: the recent
   * points' cache misses and the table answers) */
  facets = torus_facets (200, 180, &n);
  bl_test_assert_same_and_remove (write_stl_raw ("same-torus.stl", "ballast torus", 13, n, facets, n, 0, 0), TRUE);
  /* its upper case twin: assimp matches extensions in any case */
  bl_test_assert_same_and_remove (write_stl_raw ("same-torus-upper.STL", "ballast torus", 13, n, facets, n, 0, 0), TRUE);

  /* exactly 16 pieces of 4,096 facets, the least that is read by two threads */
  g_clear_pointer (&facets, g_free);
  facets = torus_facets (256, 128, &n);
  g_assert_cmpuint (n, ==, 65536);
  bl_test_assert_same_and_remove (write_stl_raw ("same-torus-65536.stl", NULL, 0, n, facets, n, 0, 0), TRUE);

  /* a triangle soup: no point shared, the weld's table grows many times */
  soup = g_new (float, 9 * 70000);
  for (gsize i = 0; i < 9 * 70000; i++)
    soup[i] = (float) ((i * 2654435761u) % 1000003) / 1000.0f - 500.0f;
  bl_test_assert_same_and_remove (write_stl_raw ("same-soup.stl", NULL, 0, 70000, soup, 70000, 0, 0), TRUE);
  bl_test_assert_same_and_remove (write_stl_raw ("same-soup-small.stl", NULL, 0, 3000, soup, 3000, 0, 0), TRUE);
}

/* A mesh large enough for the health check's arrays to go on huge pages
 * (more than 2 MiB of edges): the counts follow from how it was made. */
static void
test_large_health (void)
{
  gsize n = 0;
  g_autofree float *facets = torus_facets (250, 200, &n);
  g_autofree float *holed = NULL;
  g_autofree char *closed_path = NULL;
  g_autofree char *holed_path = NULL;
  g_autoptr(BlMesh) closed = NULL;
  g_autoptr(BlMesh) open_mesh = NULL;
  BlMeshProperties p;

  g_assert_cmpuint (n, ==, 100000);
  closed_path = write_stl_raw ("large-closed.stl", NULL, 0, n, facets, n, 0, 0);
  closed = load (closed_path, unit_scale);
  props_of (closed, FALSE, &p);
  /* closed and consistently wound: 150,000 edges each used once each way */
  assert_clean (&p);
  g_assert_cmpuint (p.n_triangles, ==, 100000);
  g_assert_cmpuint (p.n_degenerate_triangles, ==, 0);

  /* the first facet left out, and the 1000th written twice: one hole of
   * three edges, one duplicate */
  holed = g_new (float, 9 * n);
  memcpy (holed, facets + 9, 9 * sizeof (float) * (n - 1));
  memcpy (holed + 9 * (n - 1), facets + 9 * 1000, 9 * sizeof (float));
  holed_path = write_stl_raw ("large-holed.stl", NULL, 0, n, holed, n, 0, 0);
  open_mesh = load (holed_path, unit_scale);
  props_of (open_mesh, FALSE, &p);
  g_assert_false (p.watertight);
  g_assert_cmpuint (p.boundary_edges, ==, 3);
  g_assert_cmpuint (p.n_holes, ==, 1);
  g_assert_cmpuint (p.duplicate_triangles, ==, 1);
  g_assert_cmpuint (p.non_manifold_edges, ==, 3);
  g_assert_cmpuint (p.inconsistent_edges, ==, 0);
  g_unlink (closed_path);
  g_unlink (holed_path);
}

static void
test_native_stl_edge_cases (void)
{
  const float z = 0.0f, m = -0.0f;
  /* a tetrahedron whose corners at 0 are written as +0 and −0 by turns:
   * −0 and +0 weld to one vertex, stored as +0 */
  const float signed_zero[4 * 9] = {
    z, z, z,   z, 1, m,   1, m, z,
    m, z, m,   z, z, 1,   z, 1, z,
    z, m, z,   1, z, m,   m, m, 1,
    1, z, m,   m, 1, z,   z, m, 1,
  };
  /* a tetrahedron plus a repeated facet, the same facet reversed, a facet
   * with a repeated corner, a zero-area facet of three distinct collinear
   * corners, and tiny (subnormal) and huge coordinates */
  const float dup[10 * 9] = {
    0, 0, 0,   0, 1, 0,   1, 0, 0,
    0, 0, 0,   0, 0, 1,   0, 1, 0,
    0, 0, 0,   1, 0, 0,   0, 0, 1,
    1, 0, 0,   0, 1, 0,   0, 0, 1,
    1, 0, 0,   0, 1, 0,   0, 0, 1,
    1, 0, 0,   0, 0, 1,   0, 1, 0,
    0, 0, 0,   0, 0, 0,   1, 0, 0,
    0, 0, 0,   0.5f, 0, 0,   1, 0, 0,
    1e-45f, 0, 0,   0, 1e-40f, 0,   0, 0, 1e-38f,
    3e38f, 0, 0,   0, 3e38f, 0,   0, 0, -3e38f,
  };
  float bad[4 * 9];
  char *path = NULL;
  GError *error;

  path = write_stl_raw ("edge-signed-zero.stl", NULL, 0, 4, signed_zero, 4, 0, 0);
  {
    g_autoptr(BlMesh) mesh = load (path, unit_scale);
    guint nv;
    const double *v = bl_mesh_get_submesh_vertices (mesh, 0, &nv);
    BlMeshProperties p;

    g_assert_cmpuint (nv, ==, 4);
    for (guint i = 0; i < 3 * nv; i++)
      g_assert_false (v[i] == 0.0 && signbit (v[i]));
    props_of (mesh, FALSE, &p);
    assert_rel (p.volume, 1.0 / 6.0, 1e-15);
    assert_clean (&p);
  }
  bl_test_assert_same_and_remove (g_steal_pointer (&path), TRUE);
  bl_test_assert_same_and_remove (write_stl_raw ("edge-dup.stl", NULL, 0, 10, dup, 10, 0, 0), TRUE);

  /* a header that starts like ASCII ("solid") or names a colour, and
   * colour bits in every attribute word: still binary, colours ignored */
  bl_test_assert_same_and_remove (write_stl_raw ("edge-solid.stl", "solid binary really", 19, 4, signed_zero, 4, 0, 0), TRUE);
  bl_test_assert_same_and_remove (write_stl_raw ("edge-color.stl", "COLOR=\x10\x20\x30\xff", 10, 4, signed_zero, 4, 0xffff, 0), TRUE);

  /* byte-order marks: assimp's text conversion may move or swap the bytes,
   * so those files are left to it */
  compare_stl_any (write_stl_raw ("edge-bom8.stl", "\xef\xbb\xbf" "abc", 6, 4, signed_zero, 4, 0, 0));
  compare_stl_any (write_stl_raw ("edge-bom16.stl", "\xfe\xff" "abc", 5, 4, signed_zero, 4, 0, 0));
  bl_test_assert_same_and_remove (write_stl_raw ("edge-bom16le.stl", "\xff\xfe" "abc", 5, 4, signed_zero, 4, 0, 0), FALSE);
  bl_test_assert_same_and_remove (write_stl_raw ("edge-bom32.stl", "\0\0\xfe\xff" "abc", 7, 4, signed_zero, 4, 0, 0), FALSE);

  /* the count does not match the size: not binary for assimp either */
  compare_stl_any (write_stl_raw ("edge-short.stl", NULL, 0, 5, signed_zero, 4, 0, 0));
  compare_stl_any (write_stl_raw ("edge-long.stl", NULL, 0, 4, signed_zero, 4, 0, 7));
  /* cut short: not binary any more */
  path = write_stl_raw ("edge-truncated.stl", NULL, 0, 4, signed_zero, 4, 0, 0);
  {
    g_autofree char *data = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (path, &data, &len, NULL));
    g_assert_cmpuint (len, ==, 84 + 4 * 50);
    g_assert_true (g_file_set_contents (path, data, len - 20, NULL));
    error = bl_test_compare_paths (path, unit_scale, FALSE);
    /* assimp's message, and what is wrong: 84 + 4 × 50 = 284 bytes announced */
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "its header announces 4 facets, which take 284 bytes, "
                                              "but the file has 264 bytes: it is cut short"));
    g_clear_error (&error);
    /* longer than its facets */
    {
      g_autofree char *longer = g_malloc0 (len + 7);

      memcpy (longer, data, len);
      g_assert_true (g_file_set_contents (path, longer, len + 7, NULL));
    }
    error = bl_test_compare_paths (path, unit_scale, FALSE);
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "but the file has 291 bytes: it is longer than its facets"));
    g_clear_error (&error);
    /* a broken ASCII STL (text only) has no binary header to speak of */
    {
      static const char broken[] = "solid broken\nfacet normal 0 0 1\n  outer loop\n    vertex 0 0 zero\n";
      g_autofree char *ascii = g_strnfill (120, ' ');

      memcpy (ascii, broken, strlen (broken));
      g_assert_true (g_file_set_contents (path, ascii, 120, NULL));
      error = bl_test_compare_paths (path, unit_scale, FALSE);
      g_assert_nonnull (error);
      g_assert_null (strstr (error->message, "header announces"));
      g_clear_error (&error);
    }
    /* shorter than a header: nothing to say about a header */
    g_assert_true (g_file_set_contents (path, data, 60, NULL));
    error = bl_test_compare_paths (path, unit_scale, FALSE);
    g_assert_nonnull (error);
    g_assert_null (strstr (error->message, "header announces"));
    g_clear_error (&error);
    g_unlink (path);
    g_clear_pointer (&path, g_free);
  }

  /* no facets: assimp's error, word for word */
  path = write_stl_raw ("edge-empty.stl", NULL, 0, 0, NULL, 0, 0, 0);
  error = bl_test_compare_paths (path, unit_scale, TRUE);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_assert_nonnull (strstr (error->message, "STL: file is empty"));
  g_clear_error (&error);
  g_unlink (path);
  g_clear_pointer (&path, g_free);

  /* NaN and infinities: refused by both, naming the file */
  for (int k = 0; k < 3; k++)
    {
      const float values[3] = { NAN, INFINITY, -INFINITY };
      g_autofree char *name = g_strdup_printf ("edge-nonfinite-%d.stl", k);

      memcpy (bad, signed_zero, sizeof bad);
      bad[9 * 2 + 4 + k] = values[k];
      path = write_stl_raw (name, NULL, 0, 4, bad, 4, 0, 0);
      error = bl_test_compare_paths (path, unit_scale, TRUE);
      g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
      g_assert_nonnull (strstr (error->message, "not a finite number"));
      g_clear_error (&error);
      g_unlink (path);
      g_clear_pointer (&path, g_free);
    }

  /* the same deep into a large file, read by two threads: the reading one
   * stops, the welding one stops there too */
  {
    gsize n = 0;
    g_autofree float *facets = torus_facets (200, 180, &n);

    facets[9 * 70000 + 7] = NAN;
    path = write_stl_raw ("edge-nonfinite-late.stl", NULL, 0, n, facets, n, 0, 0);
    error = bl_test_compare_paths (path, unit_scale, TRUE);
    g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
    g_assert_nonnull (strstr (error->message, "triangle 70000 "));
    g_clear_error (&error);
    g_unlink (path);
    g_clear_pointer (&path, g_free);
  }
}

/* assimp loops forever on this corrupt PLY header (found by fuzz/fuzz-mesh):
 * the reader runs in a child process and is cut off with a clear error. */
static void
test_reader_hang (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-hang-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "hang.ply", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = NULL;
  const char *ply =
    "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
    "property float z\ne\xec" "ement face 4\nproperty list uchar int vertex_indices\n"
    "end_hee\ndra0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
  gint64 start;

  g_assert_true (g_file_set_contents (path, ply, -1, NULL));
  g_setenv ("BALLAST_MESH_TIMEOUT", "1", TRUE);
  start = g_get_monotonic_time ();
  mesh = bl_mesh_new_from_file (path, bl_vec3 (1, 1, 1), NULL, FALSE, &error);
  g_unsetenv ("BALLAST_MESH_TIMEOUT");

  g_assert_null (mesh);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_assert_nonnull (strstr (error->message, "did not finish"));
  g_assert_nonnull (strstr (error->message, path));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  g_unlink (path);
  g_rmdir (dir);
}

static void
on_async_lookup (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GPtrArray *results = user_data;
  GError *error = NULL;
  BlMesh *mesh = bl_mesh_cache_lookup_finish (result, &error);

  g_ptr_array_add (results, mesh != NULL ? (gpointer) mesh : (gpointer) error);
}

/* The cache read off the caller's thread (what the viewport uses, issue
 * 18): the answer comes in the caller's main context; requests for one
 * file share one read; a cancelled request completes as cancelled; what
 * was read, or failed, is then known without reading (bl_mesh_cache_peek).
 * The unit right tetrahedron has V = 1/6 m³. */
static void
test_cache_async (void)
{
  static const float tet[4][9] = {
    { 0, 0, 0, 0, 1, 0, 1, 0, 0 }, { 0, 0, 0, 1, 0, 0, 0, 0, 1 },
    { 0, 0, 0, 0, 0, 1, 0, 1, 0 }, { 1, 0, 0, 0, 1, 0, 0, 0, 1 },
  };
  g_autofree char *dir = g_dir_make_tmp ("ballast-mesh-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "tet.stl", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.obj", NULL);
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  BlMesh *mesh = NULL, *first, *second;
  BlMeshProperties props;

  write_stl (good, &tet[0][0], 4);
  g_assert_true (g_file_set_contents (bad, "v 0 0\nf 1 2 x\n\x01\x02", -1, NULL));
  bl_mesh_cache_clear ();
  g_assert_false (bl_mesh_cache_peek (good, bl_vec3 (1, 1, 1), NULL, FALSE, &mesh, NULL));
  g_assert_null (mesh);

  bl_mesh_cache_lookup_async (good, bl_vec3 (1, 1, 1), NULL, FALSE, NULL, on_async_lookup, results);
  bl_mesh_cache_lookup_async (good, bl_vec3 (1, 1, 1), NULL, FALSE, NULL, on_async_lookup, results);
  bl_mesh_cache_lookup_async (good, bl_vec3 (1, 1, 1), NULL, FALSE, cancellable, on_async_lookup, results);
  g_cancellable_cancel (cancellable);
  g_assert_cmpuint (bl_mesh_cache_get_n_reading (), ==, 1);
  while (results->len < 3)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (bl_mesh_cache_get_n_reading (), ==, 0);

  first = g_ptr_array_index (results, 0);
  second = g_ptr_array_index (results, 1);
  g_assert_true (first == second);
  g_assert_true (bl_mesh_get_mass_properties (first, FALSE, &props, NULL));
  g_assert_cmpfloat (fabs (props.volume - 1.0 / 6.0), <=, 1e-15);
  g_assert_error ((GError *) g_ptr_array_index (results, 2), G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_error_free (g_ptr_array_index (results, 2));
  g_assert_true (bl_mesh_cache_peek (good, bl_vec3 (1, 1, 1), NULL, FALSE, &mesh, NULL));
  g_assert_true (mesh == first);
  bl_mesh_unref (mesh);
  bl_mesh_unref (first);
  bl_mesh_unref (second);

  /* A failure is answered the same way, and then remembered. */
  g_ptr_array_set_size (results, 0);
  bl_mesh_cache_lookup_async (bad, bl_vec3 (1, 1, 1), NULL, FALSE, NULL, on_async_lookup, results);
  while (results->len < 1)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error ((GError *) g_ptr_array_index (results, 0), BL_MESH_ERROR, BL_MESH_ERROR_LOAD);
  g_error_free (g_ptr_array_index (results, 0));
  g_assert_true (bl_mesh_cache_peek (bad, bl_vec3 (1, 1, 1), NULL, FALSE, &mesh, &error));
  g_assert_null (mesh);
  g_assert_error (error, BL_MESH_ERROR, BL_MESH_ERROR_LOAD);

  bl_mesh_cache_clear ();
  g_unlink (good);
  g_unlink (bad);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("ballast-test-mesh-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/core/mesh/unit-cube", test_unit_cube);
  g_test_add_func ("/core/mesh/box-offset", test_box_offset);
  g_test_add_func ("/core/mesh/box-rotated", test_box_rotated);
  g_test_add_func ("/core/mesh/formats", test_stl_ascii_binary_obj);
  g_test_add_func ("/core/mesh/format/gltf-embedded", test_format_gltf_embedded);
  g_test_add_func ("/core/mesh/format/glb", test_format_glb);
  g_test_add_func ("/core/mesh/format/ply", test_format_ply);
  g_test_add_func ("/core/mesh/child-result-not-copied", test_child_result_not_copied);
  g_test_add_func ("/core/mesh/native-small-memory", test_native_small_memory);
  g_test_add_func ("/core/mesh/format/fbx-ascii", test_format_fbx_ascii);
  g_test_add_func ("/core/mesh/format/collada-unit-and-nodes", test_format_collada_unit_and_nodes);
  g_test_add_func ("/core/mesh/tetrahedron", test_tetrahedron);
  g_test_add_func ("/core/mesh/scale", test_scale);
  g_test_add_func ("/core/mesh/mirror", test_mirror);
  g_test_add_func ("/core/mesh/inward", test_inward);
  g_test_add_func ("/core/mesh/open", test_open);
  g_test_add_func ("/core/mesh/open-anywhere", test_open_anywhere);
  g_test_add_func ("/core/mesh/crack", test_crack);
  g_test_add_func ("/core/mesh/tiny-inside-out-submesh", test_tiny_inside_out_submesh);
  g_test_add_func ("/core/mesh/non-manifold", test_non_manifold);
  g_test_add_func ("/core/mesh/inconsistent", test_inconsistent);
  g_test_add_func ("/core/mesh/duplicate-degenerate", test_duplicate_and_degenerate);
  g_test_add_func ("/core/mesh/cylinder-dae", test_cylinder_dae);
  g_test_add_func ("/core/mesh/format/collada-unnamed-node", test_format_collada_unnamed_node);
  g_test_add_func ("/core/mesh/cylinder-dae-bottom-origin", test_cylinder_dae_bottom_origin);
  g_test_add_func ("/core/mesh/hull/point-cloud", test_hull_point_cloud);
  g_test_add_func ("/core/mesh/hull/sphere", test_hull_sphere);
  g_test_add_func ("/core/mesh/hull/degenerate", test_hull_degenerate);
  g_test_add_func ("/core/mesh/hull/open-file", test_hull_of_file);
  g_test_add_func ("/core/mesh/submesh", test_submesh);
  g_test_add_func ("/core/mesh/errors", test_errors);
  g_test_add_func ("/core/mesh/cache", test_cache);
  g_test_add_func ("/core/mesh/cache-async", test_cache_async);
  g_test_add_func ("/core/mesh/integrator-threads", test_integrator_threads);
  g_test_add_func ("/core/mesh/reader-hang", test_reader_hang);
  g_test_add_func ("/core/mesh/native-stl/same-mesh", test_native_stl_same_mesh);
  g_test_add_func ("/core/mesh/native-stl/edge-cases", test_native_stl_edge_cases);
  g_test_add_func ("/core/mesh/large-health", test_large_health);

  ret = g_test_run ();

  bl_mesh_cache_clear ();
  {
    g_autoptr(GDir) dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmp_dir, name, NULL);

        g_unlink (p);
      }
  }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);

  return ret;
}
