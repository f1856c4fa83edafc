/* test-render.c: the viewport's display-free parts: tessellation, camera, picking, overlay geometry.
 *
 * Expected values are closed forms: unit shapes, pinhole projection with a
 * 40° vertical field of view, ray–quadric roots, the equivalent ellipsoid
 * √(5/12)·side of a uniform box (docs/reference/inertia.md §5.6), the sphere's added
 * mass ½ρV (docs/reference/added-mass.md §1.3) and centroids (docs/reference/added-mass.md §7.2). */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bl-camera.h"
#include "bl-cluster.h"
#include "bl-pick.h"
#include "bl-scene.h"
#include "bl-tessellate.h"
#include "torus.h"

#define SDF_HEAD "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n"

static void
assert_close (double actual,
              double expected,
              double tol)
{
  if (!(fabs (actual - expected) <= tol))
    g_error ("expected %.17g, got %.17g (tolerance %.3g)", expected, actual, tol);
}

/* Every triangle of a convex shape around the origin faces outward, and
 * (with normals) agrees with its vertex normals. */
static void
assert_outward (BlTessMesh *mesh)
{
  guint stride = bl_tess_mesh_get_stride (mesh);
  const float *v = (const float *) mesh->vertices->data;
  const guint32 *idx = (const guint32 *) mesh->indices->data;
  guint checked = 0;

  for (guint t = 0; t < bl_tess_mesh_get_n_triangles (mesh); t++)
    {
      const float *a = v + stride * idx[3 * t], *b = v + stride * idx[3 * t + 1], *c = v + stride * idx[3 * t + 2];
      double e1[3], e2[3], n[3], centroid[3], area2;

      for (int k = 0; k < 3; k++)
        {
          e1[k] = b[k] - a[k];
          e2[k] = c[k] - a[k];
          centroid[k] = (a[k] + b[k] + c[k]) / 3.0;
        }
      n[0] = e1[1] * e2[2] - e1[2] * e2[1];
      n[1] = e1[2] * e2[0] - e1[0] * e2[2];
      n[2] = e1[0] * e2[1] - e1[1] * e2[0];
      area2 = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (area2 < 1e-9)
        continue;
      g_assert_cmpfloat (n[0] * centroid[0] + n[1] * centroid[1] + n[2] * centroid[2], >, 0.0);
      if (mesh->has_normals)
        for (int corner = 0; corner < 3; corner++)
          {
            const float *p = v + stride * idx[3 * t + corner];

            g_assert_cmpfloat (n[0] * p[3] + n[1] * p[4] + n[2] * p[5], >, 0.0);
          }
      checked++;
    }
  g_assert_cmpuint (checked, >, 0);
}

static void
test_tessellate_box (void)
{
  g_autoptr(BlTessMesh) box = bl_tess_box ();
  g_autoptr(GArray) edges = NULL;
  float lo[3], hi[3];

  g_assert_cmpuint (bl_tess_mesh_get_n_vertices (box), ==, 24);
  g_assert_cmpuint (bl_tess_mesh_get_n_triangles (box), ==, 12);
  bl_tess_mesh_get_bounds (box, lo, hi);
  for (int k = 0; k < 3; k++)
    {
      assert_close (lo[k], -0.5, 0);
      assert_close (hi[k], 0.5, 0);
    }
  assert_outward (box);
  /* Faces are unwelded, so each face's 4 sides and 1 diagonal: 6 × 5. */
  edges = bl_tess_edges ((const guint32 *) box->indices->data, 12);
  g_assert_cmpuint (edges->len, ==, 2 * 30);
}

static void
test_tessellate_sphere (void)
{
  g_autoptr(BlTessMesh) sphere = bl_tess_sphere (16, 8);
  guint stride = bl_tess_mesh_get_stride (sphere);
  const float *v = (const float *) sphere->vertices->data;

  /* Two triangles per quad, one per quad on the two polar stacks. */
  g_assert_cmpuint (bl_tess_mesh_get_n_triangles (sphere), ==, 2 * 16 * (8 - 1));
  for (guint i = 0; i < bl_tess_mesh_get_n_vertices (sphere); i++)
    {
      const float *p = v + stride * i;

      assert_close (sqrt (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 1.0, 1e-6);
      assert_close (sqrt (p[3] * p[3] + p[4] * p[4] + p[5] * p[5]), 1.0, 1e-6);
    }
  assert_outward (sphere);
}

/* The ball about the origin inside a tessellation (what the occlusion
 * test may count on): the cube's faces are ½ away; the sphere of 4 slices
 * and 2 stacks is the octahedron |x| + |y| + |z| ≤ 1, faces 1/√3 away;
 * that of 6 slices and 3 stacks has its nearest faces in the band between
 * latitudes ±30° (rings of radius cos 30° at z = ±½), rectangles
 * cos 30° · cos 30° = ¾ away (its polar fans are farther, 0.83). */
static void
test_tessellate_inradius (void)
{
  g_autoptr(BlTessMesh) box = bl_tess_box ();
  g_autoptr(BlTessMesh) octahedron = bl_tess_sphere (4, 2);
  g_autoptr(BlTessMesh) sphere = bl_tess_sphere (6, 3);

  g_assert_cmpfloat_with_epsilon (bl_tess_mesh_get_inradius (box), 0.5, 1e-7);
  g_assert_cmpfloat_with_epsilon (bl_tess_mesh_get_inradius (octahedron), 1.0 / sqrt (3.0), 1e-6);
  g_assert_cmpfloat_with_epsilon (bl_tess_mesh_get_inradius (sphere), 0.75, 1e-6);
}

static void
test_tessellate_cylinder_cone_plane (void)
{
  g_autoptr(BlTessMesh) cylinder = bl_tess_cylinder (24);
  g_autoptr(BlTessMesh) cone = bl_tess_cone (24);
  g_autoptr(BlTessMesh) plane = bl_tess_plane ();
  float lo[3], hi[3];

  /* Side quads + two caps of 24 fans; cone: 24 sides + one cap. */
  g_assert_cmpuint (bl_tess_mesh_get_n_triangles (cylinder), ==, 2 * 24 + 2 * 24);
  g_assert_cmpuint (bl_tess_mesh_get_n_triangles (cone), ==, 24 + 24);
  assert_outward (cylinder);
  assert_outward (cone);
  bl_tess_mesh_get_bounds (cone, lo, hi);
  assert_close (lo[2], -0.5, 1e-7);
  assert_close (hi[2], 0.5, 1e-7);
  assert_close (hi[0], 1.0, 1e-7);
  g_assert_cmpuint (bl_tess_mesh_get_n_triangles (plane), ==, 2);
  bl_tess_mesh_get_bounds (plane, lo, hi);
  assert_close (lo[2], 0, 0);
  assert_close (hi[2], 0, 0);
}

static void
test_tessellate_mesh (void)
{
  /* A unit right tetrahedron: 4 faces wound outward, 6 edges. */
  static const double verts[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  static const guint32 tris[] = { 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3 };
  g_autoptr(GError) error = NULL;
  g_autoptr(BlMesh) mesh = bl_mesh_new_from_triangles (verts, 4, tris, 4, &error);
  g_autoptr(BlTessMesh) tess = NULL;
  g_autoptr(GArray) edges = NULL;

  g_assert_no_error (error);
  tess = bl_tess_from_mesh (mesh);
  g_assert_false (tess->has_normals);
  g_assert_cmpuint (bl_tess_mesh_get_n_vertices (tess), ==, 4);
  g_assert_cmpuint (bl_tess_mesh_get_n_triangles (tess), ==, 4);
  edges = bl_tess_edges ((const guint32 *) tess->indices->data, 4);
  g_assert_cmpuint (edges->len, ==, 12);
}

static void
test_camera_views (void)
{
  BlCamera camera;
  double f[3], r[3], u[3], x, y;
  double half = BL_CAMERA_FOVY_DEGREES * G_PI / 360.0;

  bl_camera_init (&camera);
  camera.distance = 10.0;

  /* Front: from +x, +y to the right, +z up. */
  bl_camera_set_view (&camera, BL_VIEW_FRONT);
  bl_camera_get_basis (&camera, f, r, u);
  assert_close (f[0], -1, 1e-12);
  assert_close (r[1], 1, 1e-12);
  assert_close (u[2], 1, 1e-12);
  {
    /* (0, 1, 0) at depth 10 on a 400×200 viewport: x = W/2 (1 + 1 / (10 tan h · 2)). */
    double p[3] = { 0, 1, 0 };

    g_assert_true (bl_camera_project (&camera, p, 400, 200, &x, &y));
    assert_close (x, 200.0 * (1.0 + 1.0 / (10.0 * tan (half) * 2.0)), 1e-9);
    assert_close (y, 100.0, 1e-9);
  }

  /* Top: +x up the screen, +y to the left. */
  bl_camera_set_view (&camera, BL_VIEW_TOP);
  bl_camera_get_basis (&camera, f, r, u);
  assert_close (f[2], -1, 1e-12);
  assert_close (u[0], 1, 1e-12);
  assert_close (r[1], -1, 1e-12);

  /* Side: from −y, +x to the right. */
  bl_camera_set_view (&camera, BL_VIEW_SIDE);
  bl_camera_get_basis (&camera, f, r, u);
  assert_close (f[1], 1, 1e-12);
  assert_close (r[0], 1, 1e-12);
  assert_close (u[2], 1, 1e-12);

  /* Iso: from (1, 1, 1)/√3. */
  bl_camera_set_view (&camera, BL_VIEW_ISO);
  bl_camera_get_basis (&camera, f, r, u);
  for (int k = 0; k < 3; k++)
    assert_close (f[k], -1.0 / sqrt (3.0), 1e-12);
}

static void
test_camera_ray_and_zoom (void)
{
  BlCamera camera;
  double o[3], d[3], x, y;
  double p[3] = { 0.3, -0.7, 0.2 };

  bl_camera_init (&camera);
  camera.distance = 6.0;
  camera.yaw = 0.4;
  camera.pitch = 0.3;

  /* A ray through a point's projection passes through the point. */
  g_assert_true (bl_camera_project (&camera, p, 640, 480, &x, &y));
  bl_camera_ray (&camera, x, y, 640, 480, o, d);
  {
    double v[3], t = 0, dist2 = 0;

    for (int k = 0; k < 3; k++)
      t += (p[k] - o[k]) * d[k];
    for (int k = 0; k < 3; k++)
      {
        v[k] = o[k] + t * d[k] - p[k];
        dist2 += v[k] * v[k];
      }
    assert_close (sqrt (dist2), 0, 1e-9);
  }

  /* The ray through the centre is the view direction, from the eye at distance. */
  bl_camera_ray (&camera, 320, 240, 640, 480, o, d);
  assert_close (sqrt (o[0] * o[0] + o[1] * o[1] + o[2] * o[2]), 6.0, 1e-12);
  assert_close (d[0], -cos (0.3) * cos (0.4), 1e-12);
  assert_close (d[2], -sin (0.3), 1e-12);

  /* Zooming at a pointer keeps the focal-plane point under it. */
  {
    double f[3], r[3], u[3], q[3], s, qx, qy;
    double px = 500, py = 100;

    bl_camera_get_basis (&camera, f, r, u);
    s = 2.0 * camera.distance * tan (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0) / 480.0;
    for (int k = 0; k < 3; k++)
      q[k] = camera.target[k] + (px - 320) * s * r[k] + (240 - py) * s * u[k];
    bl_camera_zoom_at (&camera, 0.5, px, py, 640, 480);
    assert_close (camera.distance, 3.0, 1e-12);
    g_assert_true (bl_camera_project (&camera, q, 640, 480, &qx, &qy));
    assert_close (qx, px, 1e-9);
    assert_close (qy, py, 1e-9);
  }

  /* Panning by (dx, dy) pixels moves a focal-plane point by the same. */
  {
    double before_x, before_y, after_x, after_y;
    double t[3] = { camera.target[0], camera.target[1], camera.target[2] };

    g_assert_true (bl_camera_project (&camera, t, 640, 480, &before_x, &before_y));
    bl_camera_pan (&camera, 30, -20, 480);
    g_assert_true (bl_camera_project (&camera, t, 640, 480, &after_x, &after_y));
    assert_close (after_x - before_x, 30, 1e-9);
    assert_close (after_y - before_y, -20, 1e-9);
  }
}

static void
test_camera_fit (void)
{
  BlCamera camera;
  double c[3] = { 1, 2, 3 };
  double half = BL_CAMERA_FOVY_DEGREES * G_PI / 360.0;

  bl_camera_init (&camera);
  /* Landscape: the vertical field is the smaller; the sphere touches it. */
  bl_camera_fit_sphere (&camera, c, 2.0, 800, 400);
  assert_close (camera.distance, 2.0 / sin (half), 1e-12);
  assert_close (camera.target[1], 2.0, 0);
  /* Portrait 1:2: the horizontal half-angle atan(tan h / 2) is smaller. */
  bl_camera_fit_sphere (&camera, c, 2.0, 400, 800);
  assert_close (camera.distance, 2.0 / sin (atan (tan (half) / 2.0)), 1e-12);
}

static void
test_pick_shapes (void)
{
  double t;
  double ox[3] = { -5, 0, 0 }, dx[3] = { 1, 0, 0 };
  double oz[3] = { 0, 0, 5 }, dz[3] = { 0, 0, -1 };
  double oz2[3] = { 0.9, 0, 5 };

  g_assert_true (bl_pick_unit_shape (BL_PICK_BOX, ox, dx, &t));
  assert_close (t, 4.5, 1e-12);
  g_assert_true (bl_pick_unit_shape (BL_PICK_SPHERE, ox, dx, &t));
  assert_close (t, 4.0, 1e-12);
  g_assert_true (bl_pick_unit_shape (BL_PICK_CYLINDER, ox, dx, &t));
  assert_close (t, 4.0, 1e-12);
  g_assert_true (bl_pick_unit_shape (BL_PICK_CYLINDER, oz, dz, &t));
  assert_close (t, 4.5, 1e-12);
  /* Cone: radius ½ − z, so at z = 0 the side is at x = −½; down the axis
   * the apex is at z = ½; off-axis at x = 0.9 the side is at z = −0.4. */
  g_assert_true (bl_pick_unit_shape (BL_PICK_CONE, ox, dx, &t));
  assert_close (t, 4.5, 1e-12);
  g_assert_true (bl_pick_unit_shape (BL_PICK_CONE, oz, dz, &t));
  assert_close (t, 4.5, 1e-12);
  g_assert_true (bl_pick_unit_shape (BL_PICK_CONE, oz2, dz, &t));
  assert_close (t, 5.4, 1e-12);
  g_assert_true (bl_pick_unit_shape (BL_PICK_PLANE, oz, dz, &t));
  assert_close (t, 5.0, 1e-12);
  g_assert_false (bl_pick_unit_shape (BL_PICK_PLANE, ox, dx, &t));
  {
    double miss[3] = { -5, 2, 0 };

    g_assert_false (bl_pick_unit_shape (BL_PICK_SPHERE, miss, dx, &t));
    g_assert_false (bl_pick_unit_shape (BL_PICK_BOX, miss, dx, &t));
  }
  /* Behind the origin: no hit. */
  {
    double back[3] = { -1, 0, 0 };

    g_assert_false (bl_pick_unit_shape (BL_PICK_SPHERE, ox, back, &t));
  }
}

static void
test_pick_triangles_and_transform (void)
{
  static const double v[] = { 0, 0, 0, 2, 0, 0, 0, 2, 0 };
  static const guint32 idx[] = { 0, 1, 2 };
  double o[3] = { 0.5, 0.5, 3 }, d[3] = { 0, 0, -1 }, t;
  double outside[3] = { 1.5, 1.5, 3 };
  double m[16] = { 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1 }, inv[16], lo[3], ld[3];

  g_assert_true (bl_pick_triangles (v, idx, 1, o, d, &t));
  assert_close (t, 3.0, 1e-12);
  g_assert_false (bl_pick_triangles (v, idx, 1, outside, d, &t));

  /* Scale (2, 3, 4), offset (1, 2, 3): a box of 2×3×4 at (1, 2, 3), hit
   * from x = −10 at 1 − 1 − (−10) = 10 along x. */
  g_assert_true (bl_pick_affine_inverse (m, inv));
  {
    double wo[3] = { -10, 2, 3 }, wd[3] = { 1, 0, 0 };

    bl_pick_transform_ray (inv, wo, wd, lo, ld);
    g_assert_true (bl_pick_unit_shape (BL_PICK_BOX, lo, ld, &t));
    assert_close (t, 10.0, 1e-12);
  }
  {
    double singular[16] = { 0 };

    g_assert_false (bl_pick_affine_inverse (singular, inv));
  }
}

static BlDocument *
load_string (const char *sdf)
{
  g_autoptr(GError) error = NULL;
  BlDocument *doc = bl_document_new_from_data (sdf, strlen (sdf), "/nonexistent/test.sdf", &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

static double
column_length (const double m[16],
               int          col)
{
  return sqrt (m[col * 4] * m[col * 4] + m[col * 4 + 1] * m[col * 4 + 1] + m[col * 4 + 2] * m[col * 4 + 2]);
}

/* A 1×2×3 box of 12 kg: Ixx = m(b² + c²)/12 = 13, Iyy = 10, Izz = 5. */
#define BOX_LINK(name, pose) \
  "<link name='" name "'><pose>" pose "</pose>" \
  "<inertial><mass>12</mass><inertia><ixx>13</ixx><iyy>10</iyy><izz>5</izz>" \
  "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>" \
  "<collision name='c'><geometry><box><size>1 2 3</size></box></geometry></collision></link>"

static void
test_scene_box_overlays (void)
{
  g_autoptr(BlDocument) doc = load_string (SDF_HEAD "<model name='m'>"
                                           BOX_LINK ("a", "1 2 3 0 0 0")
                                           BOX_LINK ("b", "0 0 0 0 0 1.5707963267948966")
                                           "</model></sdf>");
  BlLink *a = bl_document_find_link (doc, "m::a");
  BlLink *b = bl_document_find_link (doc, "m::b");
  g_autoptr(BlSceneLink) sa = bl_scene_link_new (a, 0, 1025.0, bl_vec3 (0, 0, -9.8));
  g_autoptr(BlSceneLink) sb = bl_scene_link_new (b, 1, 1025.0, bl_vec3 (0, 0, -9.8));
  double k = sqrt (5.0 / 12.0), t, ellipsoid[16], box[16];

  g_assert_true (sa->valid);
  g_assert_cmpuint (sa->n_shapes, ==, 1);
  g_assert_true (sa->has_ellipsoid);
  /* Equivalent ellipsoid of a uniform box: √(5/12)·side along the box axes. */
  bl_scene_link_get_ellipsoid (sa, ellipsoid);
  for (int col = 0; col < 3; col++)
    {
      double len = column_length (ellipsoid, col);
      int axis = -1;

      for (int r = 0; r < 3; r++)
        if (fabs (ellipsoid[col * 4 + r]) > 1e-9)
          axis = r;
      g_assert_cmpint (axis, >=, 0);
      assert_close (len, k * (axis + 1), 1e-12);
    }
  assert_close (ellipsoid[12], 1, 1e-12);
  assert_close (ellipsoid[13], 2, 1e-12);
  assert_close (ellipsoid[14], 3, 1e-12);
  /* The equivalent box is the box itself. */
  g_assert_true (sa->has_box);
  bl_scene_link_get_box (sa, box);
  for (int col = 0; col < 3; col++)
    {
      double len = column_length (box, col);

      g_assert_true (fabs (len - 1) < 1e-9 || fabs (len - 2) < 1e-9 || fabs (len - 3) < 1e-9);
    }
  /* Bounds: the box at (1, 2, 3) (x from 0.5, z to 4.5) and its ellipsoid
   * (x from 1 − k, z to 3 + 3k), whichever reaches further. */
  assert_close (sa->min[0], MIN (0.5, 1 - k), 1e-12);
  assert_close (sa->max[2], MAX (4.5, 3 + 3 * k), 1e-12);
  /* Buoyancy at the box centre, volume 6. */
  g_assert_true (sa->has_buoyancy);
  assert_close (sa->volume, 6.0, 1e-12);
  assert_close (sa->buoyancy[0], 1.0, 1e-12);
  assert_close (sa->buoyancy[2], 3.0, 1e-12);

  /* Picking from above: top face at z = 3 + 1.5. */
  {
    double o[3] = { 1, 2, 10 }, d[3] = { 0, 0, -1 }, miss[3] = { 3, 2, 10 };

    g_assert_true (bl_scene_link_pick (sa, o, d, &t));
    assert_close (t, 5.5, 1e-12);
    g_assert_false (bl_scene_link_pick (sa, miss, d, &t));
  }

  /* Yawed 90°: the 1 m side (semi-axis √(5/12)) lies along world y. */
  g_assert_true (sb->has_ellipsoid);
  bl_scene_link_get_ellipsoid (sb, ellipsoid);
  for (int col = 0; col < 3; col++)
    if (fabs (column_length (ellipsoid, col) - k) < 1e-9)
      {
        assert_close (fabs (ellipsoid[col * 4 + 1]), k, 1e-9);
        assert_close (ellipsoid[col * 4 + 0], 0, 1e-9);
      }
}

static void
test_scene_invalid_link (void)
{
  /* Triangle inequality broken: 1 + 1 < 5. */
  g_autoptr(BlDocument) doc = load_string (SDF_HEAD "<model name='m'><link name='bad'>"
                                           "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>5</izz>"
                                           "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
                                           "<collision name='c'><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>"
                                           "</link></model></sdf>");
  BlLink *bad = bl_document_find_link (doc, "m::bad");
  g_autoptr(BlSceneLink) s = bl_scene_link_new (bad, 0, 1025.0, bl_vec3 (0, 0, -9.8));

  g_assert_false (s->valid);
  g_assert_false (s->has_ellipsoid);
  g_assert_false (s->has_box);
  g_assert_cmpuint (s->n_shapes, ==, 1);
}

static void
test_scene_buoyancy_centroids (void)
{
  /* Box of volume 1 at the origin, sphere r ½ (V = π/6) at x = 2, cone
   * r 1 l 2 (V = 2π/3) at z = 5 with its centroid at z = 5 − l/4. */
  g_autoptr(BlDocument) doc = load_string (SDF_HEAD "<model name='m'><link name='l'>"
                                           "<collision name='b'><geometry><box><size>1 1 1</size></box></geometry></collision>"
                                           "<collision name='s'><pose>2 0 0 0 0 0</pose><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>"
                                           "<collision name='k'><pose>0 0 5 0 0 0</pose><geometry><cone><radius>1</radius><length>2</length></cone></geometry></collision>"
                                           "<collision name='p'><pose>0 0 -1 0 0 0</pose><geometry><capsule><radius>0.1</radius><length>0.4</length></capsule></geometry></collision>"
                                           "</link></model></sdf>");
  BlLink *l = bl_document_find_link (doc, "m::l");
  g_autoptr(BlSceneLink) s = bl_scene_link_new (l, 0, 1025.0, bl_vec3 (0, 0, -9.8));
  double vb = 1.0, vs = G_PI / 6.0, vk = 2.0 * G_PI / 3.0;
  double vc = G_PI * 0.01 * (0.4 + 4.0 / 3.0 * 0.1);
  double v = vb + vs + vk + vc;

  /* Box, sphere, cone, and the capsule as a cylinder and two spheres, in
   * an array of the exact size; no mesh asked for, no added mass: nothing
   * held for them (100,000 links of a box kept 40 MB of it). */
  g_assert_cmpuint (s->n_shapes, ==, 6);
  g_assert_cmpuint (s->shapes_alloc, ==, 6);
  g_assert_null (s->loading);
  g_assert_null (s->cancellable);
  g_assert_null (s->added_mass);
  /* Its overlays' matrices are made when asked: a link's drawing stays
   * under 640 bytes (848 with them kept). */
  g_assert_cmpuint (sizeof (BlSceneLink), <=, 640);
  g_assert_true (s->has_buoyancy);
  assert_close (s->volume, v, 1e-12);
  assert_close (s->buoyancy[0], 2.0 * vs / v, 1e-12);
  assert_close (s->buoyancy[2], (4.5 * vk - 1.0 * vc) / v, 1e-12);
}

static void
test_scene_added_mass (void)
{
  double values[21] = { 0 }, radii[3], axes[3][3];
  double rho = 1000.0, r = 0.5;
  double mu = 0.5 * rho * 4.0 / 3.0 * G_PI * r * r * r;

  /* A sphere's added mass ½ρV on each axis: the ellipsoid is the sphere. */
  values[0] = values[6] = values[11] = mu;   /* xx yy zz */
  g_assert_true (bl_added_mass_equivalent_radii (values, rho, radii, axes));
  for (int i = 0; i < 3; i++)
    assert_close (radii[i], r, 1e-12);

  /* Twice the added mass along y only: radius × 2^⅓ on the axis that is y. */
  values[6] = 2 * mu;
  g_assert_true (bl_added_mass_equivalent_radii (values, rho, radii, axes));
  assert_close (radii[2], r * cbrt (2.0), 1e-12);
  assert_close (fabs (axes[1][2]), 1.0, 1e-12);

  /* None positive: nothing to draw. */
  memset (values, 0, sizeof values);
  g_assert_false (bl_added_mass_equivalent_radii (values, rho, radii, axes));
}

static void
test_scene_added_mass_link (void)
{
  /* Sphere r 0.5 at (0, 0, 1) in sea water with its potential-flow added
   * mass ½ρV: the added-mass ellipsoid is that sphere, centred on it. */
  double mu = 0.5 * 1025.0 * 4.0 / 3.0 * G_PI * 0.125;
  g_autofree char *sdf = g_strdup_printf (SDF_HEAD "<model name='m'><link name='l'>"
                                          "<inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz>"
                                          "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>"
                                          "<fluid_added_mass><xx>%.17g</xx><yy>%.17g</yy><zz>%.17g</zz></fluid_added_mass></inertial>"
                                          "<collision name='s'><pose>0 0 1 0 0 0</pose><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>"
                                          "</link></model></sdf>", mu, mu, mu);
  g_autoptr(BlDocument) doc = load_string (sdf);
  BlLink *l = bl_document_find_link (doc, "m::l");
  g_autoptr(BlSceneLink) s = bl_scene_link_new (l, 0, 1025.0, bl_vec3 (0, 0, -9.8));

  g_assert_true (l->has_added_mass);
  g_assert_true (s->has_added_mass);
  for (int col = 0; col < 3; col++)
    assert_close (column_length (s->added_mass, col), 0.5, 1e-9);
  assert_close (s->added_mass[14], 1.0, 1e-12);
}

/* The viewport's buoyancy marker is the inspector's centre of buoyancy
 * (bl_link_compute_buoyancy with the world's gravity, placed in the world
 * by the link pose), the same numbers, for every link of DOC. */
static guint
assert_buoyancy_as_core (BlDocument *doc)
{
  GPtrArray *links = bl_document_get_links (doc);
  BlVec3 gravity = bl_fluid_get_gravity (doc, NULL);
  guint n_buoyant = 0;

  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);
      g_autoptr(BlSceneLink) s = bl_scene_link_new (link, i, 1025.0, gravity);
      BlBuoyancy b;
      BlVec3 w;

      bl_link_compute_buoyancy (link, 1025.0, gravity, &b);
      g_assert_cmpint (s->has_buoyancy, ==, b.volume > 0.0);
      if (!s->has_buoyancy)
        continue;
      w = bl_pose_apply (link->world_pose, b.center);
      g_assert_cmpfloat (s->volume, ==, link->props.volume);
      g_assert_cmpfloat (s->volume, ==, b.volume);
      g_assert_cmpfloat (s->buoyancy[0], ==, w.x);
      g_assert_cmpfloat (s->buoyancy[1], ==, w.y);
      g_assert_cmpfloat (s->buoyancy[2], ==, w.z);
      n_buoyant++;
    }
  return n_buoyant;
}

/* Issue 18: an open triangle soup encloses no volume, so the core leaves
 * it out: the unit box at x = 3 is the whole displaced volume, V = 1 m³
 * centred at (3, 0, 0).  The scene computed its own volume from the soup
 * (1.00094 m³, its centre 6.3 mm off) and contradicted the inspector. */
static void
test_scene_buoyancy_open_soup (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ballast-render-XXXXXX", NULL);
  g_autofree char *stl = g_build_filename (dir, "soup.stl", NULL);
  g_autofree char *sdf = g_build_filename (dir, "model.sdf", NULL);
  g_autoptr(GArray) soup = soup_triangles (64, 12345);
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlSceneLink) s = NULL;

  write_stl (stl, (const float *) soup->data, soup->len / 9);
  g_file_set_contents (sdf, SDF_HEAD
    "<model name='m'><pose>0 0 2 0 0 0</pose><link name='l'><inertial><mass>2</mass></inertial>"
    "<collision name='box'><pose>3 0 0 0 0 0</pose><geometry><box><size>1 1 1</size></box></geometry></collision>"
    "<collision name='soup'><geometry><mesh><uri>soup.stl</uri></mesh></geometry></collision>"
    "</link></model></sdf>", -1, &error);
  g_assert_no_error (error);
  doc = bl_document_new_from_file (sdf, &error);
  g_assert_no_error (error);

  s = bl_scene_link_new (bl_document_find_link (doc, "m::l"), 0, 1025.0, bl_fluid_get_gravity (doc, NULL));
  g_assert_true (s->has_buoyancy);
  g_assert_cmpfloat (s->volume, ==, 1.0);
  g_assert_cmpfloat (s->buoyancy[0], ==, 3.0);
  g_assert_cmpfloat (s->buoyancy[1], ==, 0.0);
  g_assert_cmpfloat (s->buoyancy[2], ==, 2.0);
  /* The soup is still drawn. */
  g_assert_cmpuint (s->n_shapes, ==, 2);
  g_assert_cmpuint (assert_buoyancy_as_core (doc), ==, 1);

  g_unlink (stl);
  g_unlink (sdf);
  g_rmdir (dir);
}

/* Every fixture file (BALLAST_FIXTURES, and the folders in
 * BALLAST_EXTRA_FIXTURES, colon-separated, to check a corpus by hand). */
static void
test_scene_buoyancy_fixtures (void)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) dirs = NULL;
  guint n_files = 0, n_buoyant = 0;

  g_strv_builder_add (builder, g_getenv ("BALLAST_FIXTURES"));
  if (g_getenv ("BALLAST_EXTRA_FIXTURES") != NULL)
    {
      g_auto(GStrv) extra = g_strsplit (g_getenv ("BALLAST_EXTRA_FIXTURES"), ":", -1);

      g_strv_builder_addv (builder, (const char **) extra);
    }
  dirs = g_strv_builder_end (builder);

  for (guint d = 0; dirs[d] != NULL; d++)
    {
      g_autoptr(GDir) dir = g_dir_open (dirs[d], 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (dirs[d], name, NULL);
          g_autoptr(GError) error = NULL;
          g_autoptr(BlDocument) doc = NULL;

          if (!g_str_has_suffix (name, ".sdf"))
            continue;
          doc = bl_document_new_from_file (path, &error);
          g_assert_no_error (error);
          n_buoyant += assert_buoyancy_as_core (doc);
          n_files++;
        }
    }
  /* tests/fixtures/public holds 17 files, and links that float. */
  g_assert_cmpuint (n_files, >=, 17);
  g_assert_cmpuint (n_buoyant, >, 0);
}

/* The frustum planes (unit normals, inside ≥ 0) of a camera. */
static void
frustum_planes (const BlCamera *camera,
                float           planes[6][4])
{
  mat4 view, projection, vp;

  bl_camera_get_view (camera, view);
  bl_camera_get_projection (camera, 640, 480, 3.0, projection);
  glm_mat4_mul (projection, view, vp);
  for (int p = 0; p < 6; p++)
    {
      float sign = p % 2 ? -1.0f : 1.0f, len;

      for (int k = 0; k < 4; k++)
        planes[p][k] = vp[k][3] + sign * vp[k][p / 2];
      len = sqrtf (planes[p][0] * planes[p][0] + planes[p][1] * planes[p][1] + planes[p][2] * planes[p][2]);
      for (int k = 0; k < 4; k++)
        planes[p][k] /= len;
    }
}

/* Clusters: a permutation of the triangles in runs, and conservative
 * tests.  Checked against every triangle, from many cameras and model
 * matrices: a triangle that faces the eye (its plane's side, exactly) and
 * has a vertex inside the frustum is always in a cluster that is kept; a
 * cluster that is dropped as back-facing has only back-facing
 * triangles. */
static void
test_clusters (void)
{
  g_autoptr(GArray) vertices = NULL;
  g_autoptr(GArray) indices = NULL;
  g_autoptr(GArray) original = NULL;
  g_autoptr(GArray) clusters = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  const float *pos;
  const guint32 *idx;
  guint n_triangles, next = 0, n_dropped = 0, n_back_dropped = 0;
  GRand *rand = g_rand_new_with_seed (7);

  torus_mesh (1.0, 0.4, 120, 40, &vertices, &indices);
  n_triangles = indices->len / 3;
  original = g_array_copy (indices);
  clusters = bl_cluster_build ((const float *) vertices->data, 3, (guint32 *) indices->data, n_triangles, 64);
  pos = (const float *) vertices->data;
  idx = (const guint32 *) indices->data;

  /* Runs that cover the list in order, of at most 64 triangles. */
  for (guint c = 0; c < clusters->len; c++)
    {
      BlCluster *cl = &g_array_index (clusters, BlCluster, c);

      g_assert_cmpuint (cl->first, ==, next);
      g_assert_cmpuint (cl->count, >=, 1);
      g_assert_cmpuint (cl->count, <=, 64);
      next += cl->count;
      /* Every vertex inside the bounding sphere. */
      for (guint t = cl->first; t < cl->first + cl->count; t++)
        for (int k = 0; k < 3; k++)
          {
            const float *p = pos + 3 * idx[3 * t + k];
            double d = sqrt ((p[0] - cl->center[0]) * (p[0] - cl->center[0]) + (p[1] - cl->center[1]) * (p[1] - cl->center[1])
                             + (p[2] - cl->center[2]) * (p[2] - cl->center[2]));

            g_assert_cmpfloat (d, <=, cl->radius);
          }
    }
  g_assert_cmpuint (next, ==, n_triangles);
  g_assert_cmpuint (clusters->len, >=, n_triangles / 64);
  /* The same triangles (as vertex triples, winding kept), each once. */
  for (guint t = 0; t < n_triangles; t++)
    {
      const guint32 *o = &g_array_index (original, guint32, 3 * t);
      char *key = g_strdup_printf ("%u %u %u", o[0], o[1], o[2]);

      g_ptr_array_add (keys, key);
      g_hash_table_add (seen, key);
    }
  for (guint t = 0; t < n_triangles; t++)
    {
      g_autofree char *key = g_strdup_printf ("%u %u %u", idx[3 * t], idx[3 * t + 1], idx[3 * t + 2]);

      g_assert_true (g_hash_table_remove (seen, key));
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, 0);

  /* The eye in the mesh's frame: model = 2 × rotation about z by 90° + (1, 2, 3). */
  {
    const float model[16] = { 0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1 };
    float planes[6][4] = { { 0 } };
    const double eye[3] = { 1, 6, 3 };
    BlClusterView view;

    for (int p = 0; p < 6; p++)
      planes[p][3] = 1.0f;
    g_assert_true (bl_cluster_view_init (&view, model, (const float (*)[4]) planes, eye, 1.4, TRUE));
    /* eye − t = (0, 4, 0) = 2 R (2, 0, 0): local (2, 0, 0). */
    assert_close (view.eye[0], 2.0, 1e-12);
    assert_close (view.eye[1], 0.0, 1e-12);
    assert_close (view.eye[2], 0.0, 1e-12);
    g_assert_true (view.backfaces);
    /* A mirror keeps nothing back-facing; a singular matrix skips nothing. */
    {
      const float mirror[16] = { -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
      const float flat[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };

      g_assert_true (bl_cluster_view_init (&view, mirror, (const float (*)[4]) planes, eye, 1.4, TRUE));
      g_assert_false (view.backfaces);
      g_assert_false (bl_cluster_view_init (&view, flat, (const float (*)[4]) planes, eye, 1.4, TRUE));
    }
  }

  for (int trial = 0; trial < 60; trial++)
    {
      BlCamera camera;
      float planes[6][4], model[16] = { 0 };
      double eye[3], yaw = g_rand_double_range (rand, -G_PI, G_PI);
      double sx = g_rand_double_range (rand, 0.3, 3.0), sy = g_rand_double_range (rand, 0.3, 3.0);
      BlClusterView view;

      /* Model: rotation about z by YAW, uneven scale, a translation. */
      model[0] = (float) (cos (yaw) * sx);
      model[1] = (float) (sin (yaw) * sx);
      model[4] = (float) (-sin (yaw) * sy);
      model[5] = (float) (cos (yaw) * sy);
      model[10] = (float) g_rand_double_range (rand, 0.3, 3.0);
      model[12] = (float) g_rand_double_range (rand, -2, 2);
      model[13] = (float) g_rand_double_range (rand, -2, 2);
      model[14] = (float) g_rand_double_range (rand, -2, 2);
      model[15] = 1.0f;

      bl_camera_init (&camera);
      camera.target[0] = model[12] + g_rand_double_range (rand, -2, 2);
      camera.target[1] = model[13] + g_rand_double_range (rand, -2, 2);
      camera.target[2] = model[14] + g_rand_double_range (rand, -1, 1);
      camera.distance = trial % 3 == 0 ? g_rand_double_range (rand, 0.05, 1.0) : g_rand_double_range (rand, 1.0, 15.0);
      camera.yaw = g_rand_double_range (rand, -G_PI, G_PI);
      camera.pitch = g_rand_double_range (rand, -1.4, 1.4);
      bl_camera_get_eye (&camera, eye);
      frustum_planes (&camera, planes);
      g_assert_true (bl_cluster_view_init (&view, model, (const float (*)[4]) planes, eye, 1.4, TRUE));

      for (guint c = 0; c < clusters->len; c++)
        {
          BlCluster *cl = &g_array_index (clusters, BlCluster, c);
          BlClusterView no_frustum = view;
          gboolean kept = bl_cluster_is_visible (cl, &view);
          gboolean kept_facing;

          /* The facing test alone: every plane far away. */
          for (int p = 0; p < 6; p++)
            no_frustum.planes[p][3] = 1e9;
          kept_facing = bl_cluster_is_visible (cl, &no_frustum);
          n_dropped += !kept;
          n_back_dropped += !kept_facing;

          for (guint t = cl->first; t < cl->first + cl->count; t++)
            {
              double w[3][3], e1[3], e2[3], n[3], facing;
              gboolean inside = FALSE;

              for (int k = 0; k < 3; k++)
                {
                  const float *p = pos + 3 * idx[3 * t + k];
                  gboolean in = TRUE;

                  for (int r = 0; r < 3; r++)
                    w[k][r] = (double) model[r] * p[0] + (double) model[4 + r] * p[1] + (double) model[8 + r] * p[2]
                              + model[12 + r];
                  for (int pl = 0; pl < 6; pl++)
                    in = in && planes[pl][0] * w[k][0] + planes[pl][1] * w[k][1] + planes[pl][2] * w[k][2] + planes[pl][3] >= 0;
                  inside = inside || in;
                }
              for (int r = 0; r < 3; r++)
                {
                  e1[r] = w[1][r] - w[0][r];
                  e2[r] = w[2][r] - w[0][r];
                }
              n[0] = e1[1] * e2[2] - e1[2] * e2[1];
              n[1] = e1[2] * e2[0] - e1[0] * e2[2];
              n[2] = e1[0] * e2[1] - e1[1] * e2[0];
              facing = n[0] * (eye[0] - w[0][0]) + n[1] * (eye[1] - w[0][1]) + n[2] * (eye[2] - w[0][2]);
              if (!kept_facing)
                g_assert_cmpfloat (facing, <, 0.0);
              if (facing >= 0.0 && inside)
                g_assert_true (kept);
            }
        }
    }
  /* Not vacuous: clusters were dropped, back-facing ones among them. */
  g_assert_cmpuint (n_back_dropped, >, 60 * clusters->len / 5);
  g_assert_cmpuint (n_dropped, >, n_back_dropped);
  g_rand_free (rand);
}

/* Renumbering by first use: indices 5 2 5 0 over six vertices (stride 2,
 * vertex v = (10v, 10v + 1)) become 0 1 0 2, the vertices 5 2 0 first and
 * then those no index uses, 1 3 4, in their order. */
static void
test_clusters_renumber (void)
{
  guint32 indices[4] = { 5, 2, 5, 0 };
  float vertices[12], out[12];
  static const guint32 expected_indices[4] = { 0, 1, 0, 2 };
  static const int expected_order[6] = { 5, 2, 0, 1, 3, 4 };

  for (int v = 0; v < 6; v++)
    {
      vertices[2 * v] = 10.0f * v;
      vertices[2 * v + 1] = 10.0f * v + 1.0f;
    }
  bl_cluster_renumber (indices, 4, vertices, 2, 6, out);
  for (int i = 0; i < 4; i++)
    g_assert_cmpuint (indices[i], ==, expected_indices[i]);
  for (int v = 0; v < 6; v++)
    {
      g_assert_cmpfloat (out[2 * v], ==, 10.0f * expected_order[v]);
      g_assert_cmpfloat (out[2 * v + 1], ==, 10.0f * expected_order[v] + 1.0f);
    }
}

/* A cluster with a non-finite coordinate is never skipped, whatever the
 * view: neither behind a frustum plane nor as back-facing. */
static void
test_clusters_not_finite (void)
{
  float vertices[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, NAN, 0, 1 };
  guint32 indices[6] = { 0, 1, 2, 0, 2, 3 };
  const float model[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
  float planes[6][4] = { { 0 } };
  /* Below the triangles' plane (they face +z) and every plane excluding them. */
  const double eye[3] = { 0.2, 0.2, -5 };
  g_autoptr(GArray) clusters = bl_cluster_build (vertices, 3, indices, 2, 8);
  BlClusterView view;
  guint n_nan = 0;

  for (int p = 0; p < 6; p++)
    {
      planes[p][0] = 1.0f;
      planes[p][3] = -100.0f;
    }
  g_assert_true (bl_cluster_view_init (&view, model, (const float (*)[4]) planes, eye, 2.0, TRUE));
  g_assert_cmpuint (clusters->len, >=, 1);
  for (guint c = 0; c < clusters->len; c++)
    {
      BlCluster *cl = &g_array_index (clusters, BlCluster, c);
      gboolean has_nan = FALSE;

      for (guint t = cl->first; t < cl->first + cl->count; t++)
        for (int k = 0; k < 3; k++)
          has_nan = has_nan || isnan (vertices[3 * indices[3 * t + k]]);
      if (has_nan)
        g_assert_true (bl_cluster_is_visible (cl, &view));
      n_nan += has_nan;
    }
  g_assert_cmpuint (n_nan, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/tessellate/box", test_tessellate_box);
  g_test_add_func ("/render/tessellate/sphere", test_tessellate_sphere);
  g_test_add_func ("/render/tessellate/inradius", test_tessellate_inradius);
  g_test_add_func ("/render/tessellate/cylinder-cone-plane", test_tessellate_cylinder_cone_plane);
  g_test_add_func ("/render/tessellate/mesh", test_tessellate_mesh);
  g_test_add_func ("/render/camera/views", test_camera_views);
  g_test_add_func ("/render/camera/ray-zoom-pan", test_camera_ray_and_zoom);
  g_test_add_func ("/render/camera/fit", test_camera_fit);
  g_test_add_func ("/render/pick/shapes", test_pick_shapes);
  g_test_add_func ("/render/pick/triangles-transform", test_pick_triangles_and_transform);
  g_test_add_func ("/render/scene/box-overlays", test_scene_box_overlays);
  g_test_add_func ("/render/scene/invalid-link", test_scene_invalid_link);
  g_test_add_func ("/render/scene/buoyancy-centroids", test_scene_buoyancy_centroids);
  g_test_add_func ("/render/scene/buoyancy-open-soup", test_scene_buoyancy_open_soup);
  g_test_add_func ("/render/scene/buoyancy-fixtures", test_scene_buoyancy_fixtures);
  g_test_add_func ("/render/scene/added-mass-radii", test_scene_added_mass);
  g_test_add_func ("/render/scene/added-mass-link", test_scene_added_mass_link);
  g_test_add_func ("/render/clusters", test_clusters);
  g_test_add_func ("/render/clusters/renumber", test_clusters_renumber);
  g_test_add_func ("/render/clusters/not-finite", test_clusters_not_finite);

  return g_test_run ();
}
