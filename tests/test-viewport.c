/* test-viewport.c: pixel tests of BlViewport under Xvfb (Mesa llvmpipe).
 *
 * Each test shows a known SDF scene in a window, renders a frame and reads
 * it back, then checks colours at positions computed in closed form from
 * the pinhole camera (40° vertical field of view): a point at lateral
 * offset s and depth z lands s / (z·tan 20°) · H/2 pixels from the centre;
 * an ellipsoid's silhouette seen along its semi-axis a from distance d
 * reaches b / √(d² − a²) instead.  Shading is a headlight: a face seen
 * head-on shows its colour exactly, at angle θ it shows (0.3 + 0.7 cos θ)×. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <libxml/tree.h>

#include "bl-mesh-loader.h"
#include "bl-mesh-private.h"
#include "bl-panel.h"
#include "bl-renderer.h"
#include "bl-renderer-private.h"
#include "bl-viewport-private.h"
#include "torus.h"

#define SDF_HEAD "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n"
#define TAN_HALF_FOV (tan (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0))

typedef struct
{
  GtkWidget  *window;
  BlViewport *viewport;
  BlDocument *document;
  int         width, height;
  GdkTexture *texture;
  guchar     *pixels;
  gsize       stride;
  char       *dir;       /* temporary files (fixture_write_stl), or NULL */
  GPtrArray  *files;
} Fixture;

static gboolean
timeout_cb (gpointer data)
{
  gboolean *flag = data;

  *flag = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until the viewport has drawn a frame on screen. */
static void
wait_for_frame (Fixture *f)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (20, timeout_cb, &timed_out);
  guint frames = bl_viewport_get_n_frames (f->viewport);

  gtk_gl_area_queue_render (GTK_GL_AREA (f->viewport));
  while (!timed_out && bl_viewport_get_n_frames (f->viewport) == frames)
    g_main_context_iteration (NULL, TRUE);
  if (timed_out)
    g_error ("the viewport drew no frame in 20 s (GL error: %s)",
             gtk_gl_area_get_error (GTK_GL_AREA (f->viewport))
               ? gtk_gl_area_get_error (GTK_GL_AREA (f->viewport))->message : "none");
  g_source_remove (id);
}

static void
fixture_setup (Fixture    *f,
               const char *sdf)
{
  g_autoptr(GError) error = NULL;
  /* beside the meshes written for it, where the model may name them */
  g_autofree char *path = g_build_filename (f->dir != NULL ? f->dir : "/nonexistent", "test.sdf", NULL);

  f->document = bl_document_new_from_data (sdf, strlen (sdf), path, &error);
  g_assert_no_error (error);

  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 480, 360);
  f->viewport = BL_VIEWPORT (bl_viewport_new ());
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->viewport));
  bl_viewport_set_document (f->viewport, f->document);
  gtk_window_present (GTK_WINDOW (f->window));
  wait_for_frame (f);
  g_assert_null (gtk_gl_area_get_error (GTK_GL_AREA (f->viewport)));

  f->width = gtk_widget_get_width (GTK_WIDGET (f->viewport));
  f->height = gtk_widget_get_height (GTK_WIDGET (f->viewport));
  g_assert_cmpint (f->width, >, 100);
  g_assert_cmpint (f->height, >, 100);
  g_assert_cmpint (gtk_widget_get_scale_factor (GTK_WIDGET (f->viewport)), ==, 1);

  /* Plain scene: no overlays unless a test turns them on. */
  g_object_set (f->viewport, "xray", FALSE, "show-com", FALSE, "show-inertia-ellipsoid", FALSE,
                "show-added-mass", FALSE, NULL);
}

static void
fixture_teardown (Fixture *f)
{
  g_clear_object (&f->texture);
  g_clear_pointer (&f->pixels, g_free);
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->document);
  for (guint i = 0; f->files != NULL && i < f->files->len; i++)
    g_unlink (g_ptr_array_index (f->files, i));
  g_clear_pointer (&f->files, g_ptr_array_unref);
  if (f->dir != NULL)
    g_rmdir (f->dir);
  g_clear_pointer (&f->dir, g_free);
}

/* Writes the triangle soup TRIS (nine floats a triangle) as the binary
 * STL NAME in the fixture's temporary folder (made on first use, before
 * or after fixture_setup; fixture_teardown removes both) and returns its
 * path, owned by the fixture. */
static const char *
fixture_write_stl (Fixture      *f,
                   const char   *name,
                   const GArray *tris)
{
  char *path;

  if (f->dir == NULL)
    {
      f->dir = g_dir_make_tmp ("ballast-viewport-XXXXXX", NULL);
      g_assert_nonnull (f->dir);
      f->files = g_ptr_array_new_with_free_func (g_free);
    }
  path = g_build_filename (f->dir, name, NULL);
  write_stl (path, (const float *) tris->data, tris->len / 9);
  g_ptr_array_add (f->files, path);
  return path;
}

/* The front view aimed at TARGET from DISTANCE. */
static void
look_front (Fixture *f,
            double   distance)
{
  BlCamera camera;

  bl_viewport_get_camera (f->viewport, &camera);
  bl_camera_set_view (&camera, BL_VIEW_FRONT);
  camera.target[0] = camera.target[1] = camera.target[2] = 0.0;
  camera.distance = distance;
  bl_viewport_set_camera (f->viewport, &camera);
}

/* Aims the camera at TARGET from DISTANCE at YAW and PITCH (radians). */
static void
aim (Fixture      *f,
     const double  target[3],
     double        distance,
     double        yaw,
     double        pitch)
{
  BlCamera camera;

  bl_viewport_get_camera (f->viewport, &camera);
  memcpy (camera.target, target, sizeof camera.target);
  camera.distance = distance;
  camera.yaw = yaw;
  camera.pitch = pitch;
  bl_viewport_set_camera (f->viewport, &camera);
}

static void
capture (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  wait_for_frame (f);   /* the on-screen path draws the same state */
  g_clear_object (&f->texture);
  g_clear_pointer (&f->pixels, g_free);
  f->texture = bl_viewport_render_texture (f->viewport, 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (f->texture), ==, f->width);
  g_assert_cmpint (gdk_texture_get_height (f->texture), ==, f->height);
  if (g_getenv ("BALLAST_VIEWPORT_DUMP") != NULL)
    {
      /* For a person checking the pictures: every captured frame as PNG. */
      static guint n = 0;
      g_autofree char *name = g_strdup_printf ("viewport-%02u.png", n++);
      g_autofree char *path = g_build_filename (g_getenv ("BALLAST_VIEWPORT_DUMP"), name, NULL);

      gdk_texture_save_to_png (f->texture, path);
    }
  f->stride = (gsize) f->width * 4;
  f->pixels = g_malloc (f->stride * f->height);
  /* Downloads as Cairo's ARGB32 (B G R A in memory on little-endian). */
  gdk_texture_download (f->texture, f->pixels, f->stride);
}

/* Captures the view with a viewport switch (SET) on, then off: returns
 * the first picture (free it) and its drawn triangles in *N_ON; the second
 * is left in f->pixels, its triangles in *N_OFF. */
static guchar *
capture_on_off (Fixture *f,
                void   (*set) (BlViewport *viewport, gboolean enabled),
                guint   *n_on,
                guint   *n_off)
{
  guchar *on;

  set (f->viewport, TRUE);
  capture (f);
  *n_on = bl_viewport_get_n_drawn_triangles (f->viewport);
  on = g_steal_pointer (&f->pixels);
  set (f->viewport, FALSE);
  capture (f);
  *n_off = bl_viewport_get_n_drawn_triangles (f->viewport);
  return on;
}

/* Big meshes' clusters and coarser levels are made in a thread; the mesh
 * is drawn whole, at full detail, meanwhile. */
static void
wait_for_mesh_jobs (Fixture *f)
{
  gint64 start = g_get_monotonic_time ();

  while (bl_viewport_get_mesh_jobs_pending (f->viewport))
    {
      g_assert_cmpint (g_get_monotonic_time () - start, <, 60 * G_USEC_PER_SEC);
      wait_for_frame (f);
    }
}

static void
pixel_at (Fixture *f,
          double   x,
          double   y,
          double   rgb[3])
{
  int px = (int) floor (x), py = (int) floor (y);
  const guchar *p;

  g_assert_cmpint (px, >=, 0);
  g_assert_cmpint (py, >=, 0);
  g_assert_cmpint (px, <, f->width);
  g_assert_cmpint (py, <, f->height);
  p = f->pixels + py * f->stride + px * 4;
  rgb[0] = p[2] / 255.0;
  rgb[1] = p[1] / 255.0;
  rgb[2] = p[0] / 255.0;
}

static void
assert_color (Fixture     *f,
              double       x,
              double       y,
              const float  expected[3],
              double       factor)
{
  double rgb[3];

  pixel_at (f, x, y, rgb);
  for (int k = 0; k < 3; k++)
    if (fabs (rgb[k] - expected[k] * factor) > 3.0 / 255.0)
      g_error ("pixel (%g, %g): expected %.3f %.3f %.3f, got %.3f %.3f %.3f", x, y,
               expected[0] * factor, expected[1] * factor, expected[2] * factor, rgb[0], rgb[1], rgb[2]);
}

static void
assert_greenish (Fixture *f,
                 double   x,
                 double   y)
{
  double rgb[3];

  pixel_at (f, x, y, rgb);
  if (!(rgb[1] > rgb[0] + 0.1 && rgb[1] > rgb[2] + 0.1))
    g_error ("pixel (%g, %g): expected the ellipsoid's green, got %.3f %.3f %.3f", x, y, rgb[0], rgb[1], rgb[2]);
}

/* A translucent overlay of colour OVERLAY drawn over UNDER: the pixel has
 * moved away from UNDER (by at least 0.04) and towards the overlay's hue
 * (the direction of the change within 30° of OVERLAY − UNDER; its own
 * shading only scales the overlay's colour). */
static void
assert_overlay (Fixture     *f,
                double       x,
                double       y,
                const float  under[3],
                const float  overlay[3])
{
  double rgb[3], d[3], c[3], dd = 0, cc = 0, dc = 0;

  pixel_at (f, x, y, rgb);
  for (int k = 0; k < 3; k++)
    {
      d[k] = rgb[k] - under[k];
      c[k] = overlay[k] - under[k];
      dd += d[k] * d[k];
      cc += c[k] * c[k];
      dc += d[k] * c[k];
    }
  if (!(sqrt (dd) > 0.04 && dc / sqrt (dd * cc) > cos (G_PI / 6)))
    g_error ("pixel (%g, %g): expected %.2f %.2f %.2f tinted towards %.2f %.2f %.2f, got %.3f %.3f %.3f",
             x, y, under[0], under[1], under[2], overlay[0], overlay[1], overlay[2], rgb[0], rgb[1], rgb[2]);
}

/* A body's colour reads as near-neutral: its channels within 0.15. */
static void
assert_neutral (Fixture *f,
                double   x,
                double   y)
{
  double rgb[3];

  pixel_at (f, x, y, rgb);
  if (!(MAX (rgb[0], MAX (rgb[1], rgb[2])) - MIN (rgb[0], MIN (rgb[1], rgb[2])) < 0.15))
    g_error ("pixel (%g, %g): expected a near-neutral body, got %.3f %.3f %.3f", x, y, rgb[0], rgb[1], rgb[2]);
}

/* Screen offset in pixels of a lateral offset S at depth Z. */
static double
offset_px (Fixture *f,
           double   s,
           double   z)
{
  return s / (z * TAN_HALF_FOV) * 0.5 * f->height;
}

#define BOX_LINK(name, y, size) \
  "<link name='" name "'><pose>0 " #y " 0 0 0 0</pose>" \
  "<inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz>" \
  "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>" \
  "<collision name='c'><geometry><box><size>" size "</size></box></geometry></collision></link>"

static void
test_box_at_centre (void)
{
  Fixture f = { 0 };
  double cx, cy, edge;
  float color[3];

  fixture_setup (&f, SDF_HEAD "<model name='m'>" BOX_LINK ("box", 0, "1 1 1") "</model></sdf>");
  look_front (&f, 5.0);
  capture (&f);

  cx = f.width / 2.0;
  cy = f.height / 2.0;
  /* The front face at depth 4.5, half-size 0.5. */
  edge = offset_px (&f, 0.5, 4.5);
  bl_render_link_color (0, color);
  assert_color (&f, cx + 0.5, cy - 10.5, color, 1.0);
  assert_color (&f, cx + edge - 3, cy - 10.5, color, 1.0);
  assert_color (&f, cx + edge + 3, cy - 10.5, bl_render_background_color, 1.0);
  assert_color (&f, cx - edge - 3, cy - 10.5, bl_render_background_color, 1.0);
  assert_color (&f, cx + 0.5, cy - edge - 3, bl_render_background_color, 1.0);
  assert_color (&f, cx + 0.5, cy + edge - 3, color, 1.0);
  fixture_teardown (&f);
}

/* 12 kg, moments of a 1×2×3 box: equivalent ellipsoid √(5/12)·(1, 2, 3). */
#define ELLIPSOID_LINK(mass, ixx, iyy, izz) \
  "<link name='e'><inertial><mass>" mass "</mass><inertia><ixx>" ixx "</ixx><iyy>" iyy "</iyy>" \
  "<izz>" izz "</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>"

/* Sets the <mass> of the inertial of LINK and reloads it (an edit). */
static void
set_link_mass (Fixture    *f,
               const char *link_name,
               const char *mass)
{
  BlLink *link = bl_document_find_link (f->document, link_name);

  for (xmlNode *child = link->inertial_node->children; child != NULL; child = child->next)
    if (child->type == XML_ELEMENT_NODE && g_str_equal ((const char *) child->name, "mass"))
      xmlNodeSetContent (child, (const xmlChar *) mass);
  bl_document_reload_link (f->document, link);
}

static void
test_ellipsoid_extent (void)
{
  Fixture f = { 0 };
  double k = sqrt (5.0 / 12.0), a = k, b = 2 * k, c = 3 * k, d = 8.0;
  double cx, cy, ey, ez;
  guint rebuilds;

  fixture_setup (&f, SDF_HEAD "<model name='m'>" ELLIPSOID_LINK ("12", "13", "10", "5") "</model></sdf>");
  g_object_set (f.viewport, "show-inertia-ellipsoid", TRUE, NULL);
  look_front (&f, d);
  capture (&f);

  cx = f.width / 2.0;
  cy = f.height / 2.0;
  /* Seen along x from d: silhouette half-widths b/√(d² − a²), c/√(d² − a²). */
  ey = b / sqrt (d * d - a * a) / TAN_HALF_FOV * 0.5 * f.height;
  ez = c / sqrt (d * d - a * a) / TAN_HALF_FOV * 0.5 * f.height;
  assert_greenish (&f, cx + 0.5, cy - 10.5);
  /* Rows off the centre line, where the edge-on grid is drawn. */
  assert_greenish (&f, cx + ey - 3, cy - 4.5);
  assert_greenish (&f, cx - ey + 3, cy - 4.5);
  assert_greenish (&f, cx + 0.5, cy - ez + 3);
  assert_color (&f, cx + ey + 3, cy - 4.5, bl_render_background_color, 1.0);
  assert_color (&f, cx + 0.5, cy - ez - 3, bl_render_background_color, 1.0);

  /* Live: four times the mass halves every semi-axis; only this link is
   * re-uploaded, the scene is not rebuilt. */
  rebuilds = bl_viewport_get_n_rebuilds (f.viewport);
  set_link_mass (&f, "m::e", "48");
  capture (&f);
  g_assert_cmpuint (bl_viewport_get_n_rebuilds (f.viewport), ==, rebuilds);
  ey = 0.5 * b / sqrt (d * d - 0.25 * a * a) / TAN_HALF_FOV * 0.5 * f.height;
  assert_greenish (&f, cx + ey - 3, cy - 4.5);
  assert_color (&f, cx + ey + 3, cy - 4.5, bl_render_background_color, 1.0);
  fixture_teardown (&f);
}

/* An edit walks every link for the scene's bounds only when it moved the
 * edited link's.  A 4 m cube around the link's equivalent ellipsoid
 * (semi-axes k, 2k, 3k, k = √(5/12), inside the cube): four times the
 * mass halves the ellipsoid, still inside, and the framing stays the
 * cube's (half-diagonal 2√3); a sixteenth of it quadruples the ellipsoid
 * (4k, 8k, 12k) past the cube, and "fit all" frames the half-diagonal of
 * its box, 4√14·k. */
static void
test_bounds_walk_on_change (void)
{
  Fixture f = { 0 };
  double k = sqrt (5.0 / 12.0), sin_half = sin (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0);
  BlCamera camera;
  guint walks;

  fixture_setup (&f, SDF_HEAD "<model name='m'><link name='e'><inertial><mass>12</mass><inertia><ixx>13</ixx>"
                 "<iyy>10</iyy><izz>5</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
                 "<collision name='c'><geometry><box><size>4 4 4</size></box></geometry></collision>"
                 "</link></model></sdf>");
  bl_viewport_fit_all (f.viewport);
  bl_viewport_get_camera (f.viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.distance, 2.0 * sqrt (3.0) / sin_half, 1e-9);

  walks = bl_viewport_get_n_bounds_walks (f.viewport);
  set_link_mass (&f, "m::e", "48");
  g_assert_cmpuint (bl_viewport_get_n_bounds_walks (f.viewport), ==, walks);
  bl_viewport_fit_all (f.viewport);
  bl_viewport_get_camera (f.viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.distance, 2.0 * sqrt (3.0) / sin_half, 1e-9);

  set_link_mass (&f, "m::e", "0.75");
  g_assert_cmpuint (bl_viewport_get_n_bounds_walks (f.viewport), ==, walks + 1);
  bl_viewport_fit_all (f.viewport);
  bl_viewport_get_camera (f.viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.distance, 4.0 * sqrt (14.0) * k / sin_half, 1e-9);
  fixture_teardown (&f);
}

static void
on_link_picked (BlViewport *viewport,
                BlLink     *link,
                gpointer    user_data)
{
  BlLink **out = user_data;

  *out = link;
}

static void
test_pick_selects (void)
{
  Fixture f = { 0 };
  BlLink *picked = GINT_TO_POINTER (1);
  BlLink *right, *left;
  double cx, cy, x, lambert;
  double eye[3] = { 5, 0, 0 }, p[3];

  fixture_setup (&f, SDF_HEAD "<model name='m'>" BOX_LINK ("left", -1, "1 1 1") BOX_LINK ("right", 1, "1 1 1")
                 "</model></sdf>");
  right = bl_document_find_link (f.document, "m::right");
  left = bl_document_find_link (f.document, "m::left");
  g_signal_connect (f.viewport, "link-picked", G_CALLBACK (on_link_picked), &picked);
  look_front (&f, 5.0);
  capture (&f);

  cx = f.width / 2.0;
  cy = f.height / 2.0;
  /* +y is to the right in the front view; the right box's face centre. */
  x = cx + offset_px (&f, 1.0, 4.5);
  g_assert_true (bl_viewport_click (f.viewport, x, cy - 10) == right);
  g_assert_true (picked == right);
  g_assert_true (bl_viewport_get_selected_link (f.viewport) == right);
  capture (&f);

  /* The face point under that pixel and the headlight's cosine there. */
  p[0] = 0.5;
  p[1] = 1.0;
  p[2] = 10.0 / (0.5 * f.height) * TAN_HALF_FOV * 4.5;
  lambert = (eye[0] - p[0]) / sqrt ((eye[0] - p[0]) * (eye[0] - p[0]) + p[1] * p[1] + p[2] * p[2]);
  {
    /* The selected link's bodies are tinted towards the selection colour. */
    float own[3], tinted[3];

    bl_render_link_color (1, own);
    for (int k = 0; k < 3; k++)
      tinted[k] = own[k] + BL_RENDER_SELECTION_MIX * (bl_render_selection_color[k] - own[k]);
    assert_color (&f, x, cy - 10, tinted, 0.3 + 0.7 * lambert);
  }
  /* The other box is dimmed towards the background. */
  {
    float color[3];
    double xl = cx - offset_px (&f, 1.0, 4.5);

    bl_render_link_color (0, color);
    for (int k = 0; k < 3; k++)
      color[k] += BL_RENDER_DIM_MIX * (bl_render_background_color[k] - color[k]);
    assert_color (&f, xl, cy - 10, color, 0.3 + 0.7 * lambert);
    g_assert_true (bl_viewport_pick (f.viewport, xl, cy - 10) == left);
  }
  /* Empty space: selection cleared, NULL emitted. */
  g_assert_null (bl_viewport_click (f.viewport, cx, cy - offset_px (&f, 1.0, 4.5)));
  g_assert_null (picked);
  g_assert_null (bl_viewport_get_selected_link (f.viewport));
  fixture_teardown (&f);
}

static void
test_xray_and_warning (void)
{
  Fixture f = { 0 };
  float color[3];
  double rgb[3];
  double cx, cy;

  /* A 2 m cube around an ellipsoid of semi-axes √(5·2/(2·12)) ≈ 0.65 m,
   * and an invalid link (1 + 1 < 5) in the warning colour. */
  fixture_setup (&f, SDF_HEAD "<model name='m'>"
                 "<link name='hull'><inertial><mass>12</mass><inertia><ixx>2</ixx><iyy>2</iyy><izz>2</izz>"
                 "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
                 "<collision name='c'><geometry><box><size>2 2 2</size></box></geometry></collision></link>"
                 "<link name='bad'><pose>0 3 0 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy>"
                 "<izz>5</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
                 "<collision name='c'><geometry><box><size>1 1 1</size></box></geometry></collision></link>"
                 "</model></sdf>");
  g_object_set (f.viewport, "show-inertia-ellipsoid", TRUE, NULL);
  look_front (&f, 10.0);
  capture (&f);
  cx = f.width / 2.0;
  cy = f.height / 2.0;

  /* X-ray off: the opaque hull hides its ellipsoid, and reads as a body. */
  g_object_set (f.viewport, "xray", FALSE, NULL);
  capture (&f);
  bl_render_link_color (0, color);
  assert_color (&f, cx + 0.5, cy - 5.5, color, 1.0);
  assert_neutral (&f, cx + 0.5, cy - 5.5);
  /* The invalid link, head-on at y = 3 (face at depth 9.5), no ellipsoid. */
  {
    double x = cx + offset_px (&f, 3.0, 9.5);
    double lambert = 9.5 / sqrt (9.5 * 9.5 + 9.0);

    assert_color (&f, x, cy - 6.5, bl_render_warning_color, 0.3 + 0.7 * lambert);
  }

  /* X-ray (the default): a ghost of the ellipsoid in its own green shows
   * through the hull, whose colour stays dominant; the hull's face beyond
   * the ellipsoid's silhouette (a sphere of radius a = √(5/12) m seen from
   * 10 m: a / √(100 − a²) of the focal length) is untouched. */
  g_object_set (f.viewport, "xray", TRUE, NULL);
  capture (&f);
  {
    double r = offset_px (&f, sqrt (5.0 / 12.0), sqrt (100.0 - 5.0 / 12.0));
    double e = offset_px (&f, 1.0, 9.0);

    pixel_at (&f, cx + 0.3 * r, cy - 0.4 * r, rgb);
    assert_overlay (&f, cx + 0.3 * r, cy - 0.4 * r, color, bl_render_ellipsoid_color);
    assert_overlay (&f, cx - 0.95 * r, cy - 0.5, color, bl_render_ellipsoid_color);
    for (int k = 0; k < 3; k++)
      g_assert_cmpfloat (fabs (rgb[k] - color[k]), <, 0.2);
    assert_color (&f, cx + 0.5 * (r + e), cy - 0.25 * r, color, 1.0);
  }
  fixture_teardown (&f);
}

/* A world as gz-sim writes them: a static 100 m × 100 m ground plane (with
 * the usual 1 kg placeholder inertia) and a 1 m cube of 1 kg at z = 0.5. */
#define GROUND_AND_BOX \
  SDF_HEAD "<world name='w'><model name='ground'><static>true</static><link name='link'>" \
  "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>" \
  "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>" \
  "<collision name='c'><geometry><plane><normal>0 0 1</normal><size>100 100</size></plane></geometry>" \
  "</collision></link></model>" \
  "<model name='m'><pose>0 0 0.5 0 0 0</pose><link name='box'><inertial><mass>1</mass><inertia>" \
  "<ixx>0.16666666666666666</ixx><iyy>0.16666666666666666</iyy><izz>0.16666666666666666</izz>" \
  "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>" \
  "<collision name='c'><geometry><box><size>1 1 1</size></box></geometry></collision></link>" \
  "</model></world></sdf>"

static void
test_fit_ignores_plane (void)
{
  Fixture f = { 0 };
  BlCamera camera;
  double k = sqrt (5.0 / 12.0), radius, distance, edge, cx, cy;
  float color[3];

  fixture_setup (&f, GROUND_AND_BOX);
  bl_viewport_fit_all (f.viewport);
  bl_viewport_get_camera (f.viewport, &camera);
  /* Framed: the cube and its equivalent sphere (radius √(5/12) > ½), whose
   * bounding box has the half-diagonal √3·√(5/12); not the plane. */
  radius = sqrt (3.0) * k;
  distance = radius / sin (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0);
  g_assert_cmpfloat_with_epsilon (camera.target[0], 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (camera.target[1], 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (camera.target[2], 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (camera.distance, distance, 1e-9);

  /* From the front, the cube's face (depth d − ½) fills its computed share
   * of the view: half-height ½ / ((d − ½) tan 20°) of the half-view. */
  bl_viewport_set_view (f.viewport, BL_VIEW_FRONT);
  capture (&f);
  cx = f.width / 2.0;
  cy = f.height / 2.0;
  edge = offset_px (&f, 0.5, distance - 0.5);
  g_assert_cmpfloat (edge / (0.5 * f.height), >, 0.45);
  bl_render_link_color (1, color);
  assert_color (&f, cx + edge - 3, cy - 10.5, color, 1.0);
  assert_color (&f, cx + 0.5, cy - edge + 3, color, 1.0);
  assert_color (&f, cx + 0.5, cy - edge - 3, bl_render_background_color, 1.0);

  /* Selecting the plane and fitting it frames the whole ground: the
   * 100 m square and its link's placeholder ellipsoid (a sphere of radius
   * √(5·1/(2·1)) m). */
  bl_viewport_set_selected_link (f.viewport, bl_document_find_link (f.document, "ground::link"));
  bl_viewport_fit_selection (f.viewport);
  bl_viewport_get_camera (f.viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.distance, sqrt (5000.0 + 2.5) / sin (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0), 1e-6);

  /* With no link selected, the selected model is framed: the box's model
   * as fit-all frames it, the ground's (a plane alone) whole. */
  bl_viewport_set_selected_link (f.viewport, NULL);
  bl_viewport_set_selected_model (f.viewport, g_ptr_array_index (bl_document_get_models (f.document), 1));
  bl_viewport_fit_selection (f.viewport);
  bl_viewport_get_camera (f.viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.target[2], 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (camera.distance, distance, 1e-9);
  bl_viewport_set_selected_model (f.viewport, g_ptr_array_index (bl_document_get_models (f.document), 0));
  bl_viewport_fit_selection (f.viewport);
  bl_viewport_get_camera (f.viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.distance, sqrt (5000.0 + 2.5) / sin (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0), 1e-6);
  fixture_teardown (&f);
}

static void
test_marker_size (void)
{
  Fixture f = { 0 };
  double cx, cy, rgb[3];
  float color[3];
  const double px = 8.0;   /* the markers' radius on screen */

  fixture_setup (&f, GROUND_AND_BOX);
  g_object_set (f.viewport, "show-com", TRUE, NULL);
  {
    BlCamera camera;

    bl_viewport_get_camera (f.viewport, &camera);
    bl_camera_set_view (&camera, BL_VIEW_FRONT);
    camera.target[0] = camera.target[1] = 0.0;
    camera.target[2] = 0.5;
    camera.distance = 5.0;
    bl_viewport_set_camera (f.viewport, &camera);
  }
  capture (&f);
  cx = f.width / 2.0;
  cy = f.height / 2.0;
  bl_render_link_color (1, color);
  /* The cube's centre of mass: a sphere of 8 px on screen whatever the
   * plane's size, white where x·y·z > 0 (up-right from the front: +y, +z
   * and +x towards the eye), black in the neighbouring octants. */
  pixel_at (&f, cx + 0.45 * px, cy - 0.45 * px, rgb);
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat (rgb[k], >, 0.6);
  pixel_at (&f, cx - 0.45 * px, cy - 0.45 * px, rgb);
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat (rgb[k], <, 0.15);
  pixel_at (&f, cx + 0.45 * px, cy + 0.45 * px, rgb);
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat (rgb[k], <, 0.15);
  /* Just outside: the cube's face (head-on, within a degree). */
  assert_color (&f, cx + 1.4 * px, cy - 0.5, color, 1.0);
  assert_color (&f, cx + 0.5, cy + 1.4 * px, color, 1.0);
  /* The static ground's own placeholder inertia draws no marker at the
   * origin (its bottom face's centre, hidden behind the cube anyway) and
   * no ellipsoid. */
  fixture_teardown (&f);
}

static void
test_actions_and_png (void)
{
  Fixture f = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ballast-viewport-XXXXXX", &error);
  g_autofree char *path = NULL;
  gboolean value = TRUE;
  BlCamera camera;

  g_assert_no_error (error);
  fixture_setup (&f, SDF_HEAD "<model name='m'>" BOX_LINK ("box", 0, "1 1 1") "</model></sdf>");

  /* Property actions toggle the properties. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.viewport), "viewport.wireframe", NULL));
  g_object_get (f.viewport, "wireframe", &value, NULL);
  g_assert_true (value);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.viewport), "viewport.show-principal-axes", NULL));
  g_object_get (f.viewport, "show-principal-axes", &value, NULL);
  g_assert_true (value);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.viewport), "viewport.view-top", NULL));
  bl_viewport_get_camera (f.viewport, &camera);
  g_assert_cmpfloat_with_epsilon (camera.pitch, G_PI / 2, 1e-12);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.viewport), "viewport.fit-all", NULL));
  bl_viewport_get_camera (f.viewport, &camera);
  /* The unit cube's bounding sphere √3/2 fills the vertical field. */
  g_assert_cmpfloat_with_epsilon (camera.distance, sqrt (3.0) / 2.0 / sin (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0), 1e-9);

  /* Wireframe frame renders, and the PNG helper writes a readable file. */
  wait_for_frame (&f);
  path = g_build_filename (dir, "shot.png", NULL);
  g_assert_true (bl_viewport_save_png (f.viewport, path, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GdkTexture) back = gdk_texture_new_from_filename (path, &error);

    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_width (back), ==, f.width);
    g_assert_cmpint (gdk_texture_get_height (back), ==, f.height);
  }
  g_unlink (path);
  g_rmdir (dir);
  fixture_teardown (&f);
}

/* The closed cube [−½, ½]³, face k (−x, +x, −y, +y, −z, +z) cut into
 * N[k]² squares of two triangles each, wound outward. */
static GArray *
cube_triangles (const guint n[6])
{
  GArray *tris = g_array_new (FALSE, FALSE, sizeof (float));

  for (int face = 0; face < 6; face++)
    {
      int axis = face / 2, u = (axis + 1) % 3, v = (axis + 2) % 3;
      float sign = face % 2 ? 1.0f : -1.0f;

      for (guint i = 0; i < n[face]; i++)
        for (guint j = 0; j < n[face]; j++)
          {
            float p[4][3];

            for (int c = 0; c < 4; c++)
              {
                p[c][axis] = 0.5f * sign;
                p[c][u] = -0.5f + (float) (i + (c == 1 || c == 2)) / n[face];
                p[c][v] = -0.5f + (float) (j + (c >= 2)) / n[face];
              }
            /* (u, v, axis) is right-handed: counter-clockwise seen from
             * +axis; reversed on the negative side. */
            for (int t = 0; t < 2; t++)
              {
                int a = 0, b = t == 0 ? 1 : 2, c = t == 0 ? 2 : 3;

                g_array_append_vals (tris, p[a], 3);
                g_array_append_vals (tris, p[sign > 0 ? b : c], 3);
                g_array_append_vals (tris, p[sign > 0 ? c : b], 3);
              }
          }
    }
  return tris;
}

/* A model of one link (mass 1, principal moments 0.1) whose one
 * collision is the mesh at PATH. */
static char *
one_mesh_sdf (const char *path)
{
  return g_strdup_printf (SDF_HEAD "<model name='m'><link name='a'><inertial><mass>1</mass><inertia>"
                          "<ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz>"
                          "</inertia></inertial><collision name='c'><geometry><mesh><uri>%s</uri></mesh>"
                          "</geometry></collision></link></model></sdf>", path);
}

/* A closed cube mesh whose +x face (the one the front view sees) alone is
 * 2 × 190² = 72,200 triangles, more than one piece of a software
 * rasteriser's split draw (65,536), and whose five other faces are coarse
 * (32 triangles each; the seams do not match, so no back faces are
 * skipped).  Whatever
 * order the renderer draws the face in, part of it lies in the second
 * piece.  Seen head-on it must show the link's colour exactly over the
 * whole face (a 9 × 9 grid of points: a missing piece of a sixteenth of the
 * face would be seen), as the primitive box does, and the background
 * outside. */
static void
test_large_mesh_in_pieces (void)
{
  static const guint n[6] = { 4, 190, 4, 4, 4, 4 };
  g_autoptr(GArray) tris = cube_triangles (n);
  guint32 n_face = 2 * n[1] * n[1];
  g_autofree char *sdf = NULL;
  Fixture f = { 0 };
  double cx, cy, edge;
  float color[3];

  g_assert_cmpuint (n_face, >, 65536);
  sdf = one_mesh_sdf (fixture_write_stl (&f, "cube.stl", tris));
  fixture_setup (&f, sdf);
  /* The file's own triangles: a coarser level of the flat face, once its
   * thread is done (sooner on a quiet machine), would be one piece. */
  bl_viewport_set_levels_of_detail (f.viewport, FALSE);
  look_front (&f, 5.0);
  capture (&f);
  g_assert_cmpuint (bl_viewport_get_n_drawn_triangles (f.viewport), >=, n_face);

  cx = f.width / 2.0;
  cy = f.height / 2.0;
  edge = offset_px (&f, 0.5, 4.5);
  bl_render_link_color (0, color);
  /* A grid over the face, 3 px inside its edges; the middle row just
   * above the ground grid, which is seen edge-on through the centre. */
  for (int i = -4; i <= 4; i++)
    for (int j = -4; j <= 4; j++)
      assert_color (&f, cx + i * (edge - 3) / 4 + 0.5, j == 0 ? cy - 10.5 : cy + j * (edge - 3) / 4 + 0.5, color, 1.0);
  assert_color (&f, cx + edge + 3, cy - 10.5, bl_render_background_color, 1.0);
  assert_color (&f, cx + 0.5, cy - edge - 3, bl_render_background_color, 1.0);

  fixture_teardown (&f);
}

/* Skipping back-facing and off-screen clusters must not change a pixel.
 * Two links share a torus mesh of 20,000 triangles (one as it is, one
 * rotated, moved and scaled unevenly), a third has a cube mesh of 6,144;
 * every view is rendered with the clusters skipped and with every
 * triangle drawn, and the two pictures must be identical byte for byte.
 * Views: far and near from several directions, grazing the torus, from
 * inside its hole, from inside its tube (nothing of it faces the eye),
 * with the mesh partly behind the eye, and from inside the cube.  The
 * clusters must also have dropped triangles in most views (else the test
 * would prove nothing).  The same again with the levels of detail on: the
 * clusters of a coarser level are as lossless as the mesh's own. */
static void
test_clusters_lossless (void)
{
  static const guint cube_n[6] = { 16, 16, 16, 16, 16, 16 };
  g_autoptr(GArray) torus = torus_triangles (1.0, 0.4, 200, 50);
  g_autoptr(GArray) cube = cube_triangles (cube_n);
  const char *torus_path, *cube_path;
  g_autofree char *sdf = NULL;
  guint n_total = torus->len / 9 * 2 + cube->len / 9;
  guint n_fewer = 0, n_views = 0;
  Fixture f = { 0 };
  static const struct
  {
    double target[3], distance, yaw, pitch;
  } views[] = {
    { { 0, 0, 0 }, 9.0, 0.3, 0.5 },            /* everything, from above */
    { { 0, 0, 0 }, 9.0, 2.4, -0.4 },           /* from below */
    { { 1.5, 0, 0 }, 6.0, G_PI / 2, 0.0 },     /* level: the torus edge-on */
    { { 1.0, 0, 0 }, 1.2, 0.0, 0.2 },          /* near: the tube fills the view */
    { { 1.4, 0, 0 }, 0.05, 0.0, 0.0 },         /* grazing the tube's outer side */
    { { 0, 0, 0 }, 0.3, 1.0, 0.1 },            /* in the hole, looking outwards */
    { { 1.0, 0, 0 }, 0.1, 0.7, 0.3 },          /* inside the tube */
    { { -1.0, 0, 0.2 }, 0.6, 0.5, -0.2 },      /* partly behind the eye */
    { { 3.0, 0, 0.5 }, 2.0, 4.0, 0.6 },        /* the scaled, rotated instance */
    { { 0, 3.0, 0 }, 0.2, 0.3, 0.2 },          /* inside the cube */
    { { 0, 3.0, 0 }, 0.9, 2.0, -0.6 },         /* near the cube's corner */
  };

  torus_path = fixture_write_stl (&f, "torus.stl", torus);
  cube_path = fixture_write_stl (&f, "cube.stl", cube);
#define MESH_LINK(name, pose, uri, scale) \
  "<link name='" name "'><pose>" pose "</pose><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy>" \
  "<izz>0.1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial><collision name='c'><geometry>" \
  "<mesh><uri>" uri "</uri><scale>" scale "</scale></mesh></geometry></collision></link>"
  sdf = g_strdup_printf (SDF_HEAD "<model name='m'>"
                         MESH_LINK ("a", "0 0 0 0 0 0", "%s", "1 1 1")
                         MESH_LINK ("b", "3 0 0.5 0.3 0.2 0.1", "%s", "1.5 0.6 1")
                         MESH_LINK ("c", "0 3 0 0.1 0 0.4", "%s", "1 1 1")
                         "</model></sdf>", torus_path, torus_path, cube_path);
#undef MESH_LINK
  fixture_setup (&f, sdf);
  wait_for_mesh_jobs (&f);

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      aim (&f, views[v].target, views[v].distance, views[v].yaw, views[v].pitch);

      /* At full detail, then at the levels of detail (whose big levels
       * have clusters of their own). */
      for (int levels = 0; levels < 2; levels++)
        {
          g_autofree guchar *culled = NULL;
          guint n_culled, n_whole;

          bl_viewport_set_levels_of_detail (f.viewport, levels);
          culled = capture_on_off (&f, bl_viewport_set_cluster_culling, &n_culled, &n_whole);

          g_test_message ("view %u%s: %u of %u triangles drawn with the clusters skipped", v,
                          levels ? " (levels of detail)" : "", n_culled, n_whole);
          g_assert_cmpuint (n_culled, <=, n_whole);
          if (!levels)
            {
              g_assert_cmpuint (n_whole, >=, n_total);
              n_fewer += n_culled < n_whole;
              n_views++;
            }
          for (int y = 0; y < f.height; y++)
            if (memcmp (culled + y * f.stride, f.pixels + y * f.stride, f.stride) != 0)
              for (int x = 0; x < f.width; x++)
                if (memcmp (culled + y * f.stride + 4 * x, f.pixels + y * f.stride + 4 * x, 4) != 0)
                  g_error ("view %u%s: pixel (%d, %d) differs with the clusters skipped", v,
                           levels ? " (levels of detail)" : "", x, y);
        }
    }
  g_assert_cmpuint (n_fewer, >=, n_views - 1);

  fixture_teardown (&f);
}

/* The largest difference of one channel between pixel (x, y) of A and
 * the closest of the 3 × 3 pixels around (x, y) in B. */
static int
diff_within_one_px (const guchar *a,
                    const guchar *b,
                    Fixture      *f,
                    int           x,
                    int           y)
{
  int best = 255;

  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        int qx = x + dx, qy = y + dy, worst = 0;

        if (qx < 0 || qy < 0 || qx >= f->width || qy >= f->height)
          continue;
        for (int c = 0; c < 3; c++)
          worst = MAX (worst, abs (a[y * f->stride + 4 * x + c] - b[qy * f->stride + 4 * qx + c]));
        best = MIN (best, worst);
      }
  return best;
}

/* The pixels where A and B differ by more than TOLERANCE (per channel) from
 * every pixel within one of them in the other picture, either way; the
 * largest such difference in *WORST. */
static guint
count_differing (Fixture      *f,
                 const guchar *a,
                 const guchar *b,
                 int           tolerance,
                 guint        *worst)
{
  guint n = 0;

  *worst = 0;
  for (int y = 0; y < f->height; y++)
    for (int x = 0; x < f->width; x++)
      {
        int d = MAX (diff_within_one_px (a, b, f, x, y), diff_within_one_px (b, a, f, x, y));

        *worst = MAX (*worst, (guint) d);
        n += d > tolerance;
      }
  return n;
}

/* A coarser level of detail stands for a big mesh only where its measured
 * distance from the full mesh is within half a pixel on screen, so the
 * picture may differ from the full mesh's only by what half a pixel and
 * the shading's smoothing make: every pixel of each picture must be
 * matched by one of the 3 × 3 pixels around it in the other within
 * SHADE_TOLERANCE per channel.  That tolerance: the full torus (400 × 100
 * squares) is shaded flat, each facet turning the normal by at most
 * 2π/100 from the next, so across the view its shade steps by up to
 * 0.7 sin θ · 2π/100 ≤ 0.044 (11 of 255) between neighbouring facets; a
 * smooth level lies within a step of it, doubled for rounding and the
 * grid lines seen through the half-pixel rim.  Up close the mesh itself
 * must be drawn (all its triangles); farther away a level, with at most
 * about a quarter of them (else the test would prove nothing).  With the
 * default overlays (ellipsoid, centre of mass, x-ray) as well. */
#define SHADE_TOLERANCE 24
static void
test_levels_within_half_pixel (void)
{
  g_autoptr(GArray) torus = torus_triangles (1.0, 0.4, 400, 100);
  g_autofree char *sdf = NULL;
  guint n_full = torus->len / 9;
  Fixture f = { 0 };
  static const struct
  {
    double target[3], distance, yaw, pitch;
    gboolean near, overlays;
  } views[] = {
    { { 0, 0, 0 }, 4.5, 0.3, 0.5, FALSE, FALSE },          /* fit-all, from above */
    { { 0, 0, 0 }, 4.5, 2.4, -0.2, FALSE, FALSE },         /* from below, grazing */
    { { 0, 0, 0 }, 4.5, G_PI / 2, 0.0, FALSE, FALSE },     /* edge-on */
    { { 0, 0, 0 }, 12.0, 1.0, 0.7, FALSE, FALSE },         /* far */
    { { 0, 0, 0 }, 4.5, 0.8, 0.6, FALSE, TRUE },           /* with the overlays */
    { { 1.0, 0, 0 }, 1.0, 0.0, 0.2, TRUE, FALSE },         /* near: the tube fills the view */
  };

  sdf = one_mesh_sdf (fixture_write_stl (&f, "torus.stl", torus));
  fixture_setup (&f, sdf);
  wait_for_mesh_jobs (&f);

  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      g_autofree guchar *coarse = NULL;
      guint n_coarse, n_drawn, n_differ, worst;

      aim (&f, views[v].target, views[v].distance, views[v].yaw, views[v].pitch);
      g_object_set (f.viewport, "xray", views[v].overlays, "show-com", views[v].overlays,
                    "show-inertia-ellipsoid", views[v].overlays, NULL);
      /* Every triangle, whatever faces the eye: the counts compare. */
      bl_viewport_set_cluster_culling (f.viewport, FALSE);

      coarse = capture_on_off (&f, bl_viewport_set_levels_of_detail, &n_coarse, &n_drawn);
      g_assert_cmpuint (n_drawn, >=, n_full);

      n_differ = count_differing (&f, coarse, f.pixels, SHADE_TOLERANCE, &worst);
      g_test_message ("view %u: %u of %u triangles at the levels of detail; largest difference within a "
                      "pixel %u of 255, %u pixels over %d", v, n_coarse, n_drawn, worst, n_differ, SHADE_TOLERANCE);
      if (views[v].near)
        g_assert_cmpuint (n_coarse, ==, n_drawn);
      else
        g_assert_cmpuint (n_coarse, <=, n_drawn - n_full + 3 * n_full / 10);
      g_assert_cmpuint (n_differ, ==, 0);
    }

  fixture_teardown (&f);
}

/* A mesh's buffers, levels and the thread making them go with the last
 * shape that uses it: opening another document (here while the big
 * torus's levels are still being made) leaves none behind. */
static void
test_replaced_meshes_go (void)
{
  g_autoptr(GArray) torus = torus_triangles (1.0, 0.4, 400, 100);
  g_autofree char *sdf = NULL;
  static const char box_sdf[] = SDF_HEAD "<model name='m'><link name='a'><collision name='c'><geometry>"
                                "<box><size>1 1 1</size></box></geometry></collision></link></model></sdf>";
  g_autoptr(BlDocument) boxes = NULL;
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  sdf = one_mesh_sdf (fixture_write_stl (&f, "torus.stl", torus));
  fixture_setup (&f, sdf);
  g_assert_cmpuint (bl_viewport_get_n_meshes (f.viewport), ==, 1);

  boxes = bl_document_new_from_data (box_sdf, strlen (box_sdf), "/nonexistent/boxes.sdf", &error);
  g_assert_no_error (error);
  bl_viewport_set_document (f.viewport, boxes);
  wait_for_frame (&f);
  g_assert_cmpuint (bl_viewport_get_n_meshes (f.viewport), ==, 0);
  g_assert_false (bl_viewport_get_mesh_jobs_pending (f.viewport));

  /* And back: the mesh is made again, levels and all. */
  bl_viewport_set_document (f.viewport, f.document);
  wait_for_frame (&f);
  g_assert_cmpuint (bl_viewport_get_n_meshes (f.viewport), ==, 1);
  wait_for_mesh_jobs (&f);

  fixture_teardown (&f);
}

/* The pixel where the plane x = ½ seen from the front at distance 8 (depth
 * 7.5) shows the point (½, S, Z), a little above the ground grid for
 * Z = 0 (seen edge-on through the centre): COLOR as the headlight shades
 * it there (cos θ = 7.5 / distance from the eye), or the background for
 * NULL. */
static void
check_face_point (Fixture     *f,
                  double       s,
                  double       z,
                  const float *color)
{
  double x = f->width / 2.0 + offset_px (f, s, 7.5);
  double y = f->height / 2.0 - (z == 0.0 ? 10.5 : offset_px (f, z, 7.5));
  double zz = (f->height / 2.0 - y) / offset_px (f, 1.0, 7.5);

  if (color == NULL)
    assert_color (f, x, y, bl_render_background_color, 1.0);
  else
    assert_color (f, x, y, color, 0.3 + 0.7 * 7.5 / sqrt (7.5 * 7.5 + s * s + zz * zz));
}

/* One file used at two scales, one of them mirroring, is uploaded once:
 * the second link's instances scale the first's geometry.  Both boxes must
 * show where their own scale puts them: the unit cube at y = −1.5, and at
 * y = 1.5 the cube scaled by (1, −2, ½) (2 wide, ½ high; mirrored, so
 * drawn without back-face culling), their +x faces head-on at depth 7.5. */
static void
test_scales_share_buffers (void)
{
  static const guint n[6] = { 2, 2, 2, 2, 2, 2 };
  g_autoptr(GArray) tris = cube_triangles (n);
  g_autofree char *sdf = NULL;
  Fixture f = { 0 };
  const char *path = fixture_write_stl (&f, "cube.stl", tris);
  float a[3], b[3];

#define SCALED_LINK(name, y, scale) \
  "<link name='" name "'><pose>0 " y " 0 0 0 0</pose><collision name='c'><geometry><mesh><uri>%s</uri>" \
  "<scale>" scale "</scale></mesh></geometry></collision></link>"
  sdf = g_strdup_printf (SDF_HEAD "<model name='m'>" SCALED_LINK ("a", "-1.5", "1 1 1")
                         SCALED_LINK ("b", "1.5", "1 -2 0.5") "</model></sdf>", path, path);
#undef SCALED_LINK
  fixture_setup (&f, sdf);
  look_front (&f, 8.0);
  capture (&f);
  g_assert_cmpuint (bl_viewport_get_n_meshes (f.viewport), ==, 1);

  bl_render_link_color (0, a);
  bl_render_link_color (1, b);
  /* a: from y = −2 to −1, z within ±½; b: from y = 0.5 to 2.5, z within ±¼ */
  check_face_point (&f, -1.5, 0.0, a);
  check_face_point (&f, -2.0 + 0.05, 0.0, a);
  check_face_point (&f, -2.0 - 0.05, 0.0, NULL);
  check_face_point (&f, -1.0 - 0.05, 0.0, a);
  check_face_point (&f, -1.5, 0.5 - 0.05, a);
  check_face_point (&f, -1.5, 0.5 + 0.05, NULL);
  check_face_point (&f, 1.5, 0.0, b);
  check_face_point (&f, 0.5 + 0.05, 0.0, b);
  check_face_point (&f, 0.5 - 0.1, 0.0, NULL);   /* past the side face seen at 0.44…0.5 */
  check_face_point (&f, 2.5 - 0.05, 0.0, b);
  check_face_point (&f, 2.5 + 0.05, 0.0, NULL);
  check_face_point (&f, 1.5, 0.25 - 0.05, b);
  check_face_point (&f, 1.5, 0.25 + 0.05, NULL);

  fixture_teardown (&f);
}

/* Many instances of one big mesh (40 links share a 20,000-triangle
 * torus: more than 32, so each frame sorts them by level) get levels of
 * their own, each by its own distance, within the same half pixel (see
 * levels-within-half-pixel).  These tori are small on screen (about 40 px
 * across), so their shading falls steeply at the rim: a pixel whose
 * centre catches a sliver of the rim in one picture and not in the other
 * differs by more than the tolerance from every neighbour (up to 40 of
 * 255 was seen, on 31 pixels); at most one pixel in 2,000 may.  The
 * wireframe always shows the mesh's own triangles, so there the levels
 * change nothing at all. */
static void
test_many_instances_levels (void)
{
  g_autoptr(GArray) torus = torus_triangles (1.0, 0.4, 200, 50);
  const char *torus_path;
  g_autoptr(GString) sdf = g_string_new (SDF_HEAD "<model name='m'>");
  g_autofree guchar *coarse = NULL;
  guint n_full = torus->len / 9 * 40, n_coarse, n_drawn, n_differ, worst;
  Fixture f = { 0 };

  torus_path = fixture_write_stl (&f, "torus.stl", torus);
  for (int i = 0; i < 40; i++)
    g_string_append_printf (sdf, "<link name='l%d'><pose>%d %d 0 0 0 0</pose><collision name='c'><geometry>"
                            "<mesh><uri>%s</uri></mesh></geometry></collision></link>",
                            i, 3 * (i % 8), 3 * (i / 8), torus_path);
  g_string_append (sdf, "</model></sdf>");
  fixture_setup (&f, sdf->str);
  wait_for_mesh_jobs (&f);
  bl_viewport_set_cluster_culling (f.viewport, FALSE);

  coarse = capture_on_off (&f, bl_viewport_set_levels_of_detail, &n_coarse, &n_drawn);
  n_differ = count_differing (&f, coarse, f.pixels, SHADE_TOLERANCE, &worst);
  g_test_message ("%u of %u triangles at the levels of detail; largest difference within a pixel %u of 255, "
                  "%u pixels over %d", n_coarse, n_drawn, worst, n_differ, SHADE_TOLERANCE);
  g_assert_cmpuint (n_drawn, ==, n_full);
  g_assert_cmpuint (n_coarse, <=, n_full / 4);
  g_assert_cmpuint (n_differ, <=, (guint) (f.width * f.height) / 2000);
  g_assert_cmpuint (worst, <=, 64);

  g_object_set (f.viewport, "wireframe", TRUE, NULL);
  g_clear_pointer (&coarse, g_free);
  coarse = capture_on_off (&f, bl_viewport_set_levels_of_detail, &n_coarse, &n_drawn);
  g_assert_cmpint (memcmp (coarse, f.pixels, f.stride * f.height), ==, 0);

  fixture_teardown (&f);
}

/* Mixes A towards B by T into OUT. */
static void
mix3 (const float a[3],
      const float b[3],
      float       t,
      float       out[3])
{
  for (int k = 0; k < 3; k++)
    out[k] = a[k] + t * (b[k] - a[k]);
}

/* Of 64 links laid out as test_sub_pixel_bodies_show's, those that show
 * as a speck of their colour (with SELECTED, −1 for none, selected: its
 * colour mixed towards the selection's, the others' towards the
 * background) under the headlight. */
static guint
count_specks (Fixture *f,
              double   distance,
              int      selected)
{
  guint found = 0;

  for (int i = 0; i < 64; i++)
    {
      /* y = ±(0.5 … 3.5) m across, z = 1 … 8 m up: the lateral sign does
       * not matter, the set is symmetric. */
      double y = -3.5 + i % 8, z = 1 + i / 8;
      double cx = f->width / 2.0 + offset_px (f, y, distance), cy = f->height / 2.0 - offset_px (f, z, distance);
      double mirror_x = f->width / 2.0 - offset_px (f, y, distance);
      double shade = 0.3 + 0.7 * distance / sqrt (distance * distance + y * y + z * z);
      float color[3];
      gboolean seen = FALSE;

      bl_render_link_color (i, color);
      if (selected == i)
        mix3 (color, bl_render_selection_color, BL_RENDER_SELECTION_MIX, color);
      else if (selected >= 0)
        mix3 (color, bl_render_background_color, BL_RENDER_DIM_MIX, color);
      for (int k = 0; k < 3; k++)
        color[k] *= shade;
      for (int dy = -1; dy <= 1 && !seen; dy++)
        for (int dx = -1; dx <= 1 && !seen; dx++)
          for (int side = 0; side < 2 && !seen; side++)
            {
              double rgb[3];
              gboolean same = TRUE;

              pixel_at (f, (side == 0 ? cx : mirror_x) + dx, cy + dy, rgb);
              for (int k = 0; k < 3; k++)
                same &= fabs (rgb[k] - color[k]) <= 3.0 / 255.0;
              seen = same;
            }
      if (!seen)
        {
          double rgb[3];

          pixel_at (f, cx, cy, rgb);
          g_test_message ("link %d at (%.1f, %.1f) not seen: %.3f %.3f %.3f there, %.3f %.3f %.3f expected",
                          i, cx, cy, rgb[0], rgb[1], rgb[2], color[0], color[1], color[2]);
        }
      found += seen;
    }
  return found;
}

/* 64 links, each a 1 cm cube, 1 m apart on a wall 40 m in front of the
 * eye: each is under 0.4 px on screen, where the renderer draws no
 * triangles (a world of 100,000 links at fit-all showed only its grid).
 * Each shows as a speck, one pixel where the pinhole camera puts its
 * centre, of its link's colour under the headlight: the speck is the
 * cube's first vertex, on its face towards the eye, seen at angle θ with
 * cos θ = d / √(d² + y² + z²).  The selected link's too (drawn finely, its
 * triangles covered no pixel's centre). */
static void
test_sub_pixel_bodies_show (void)
{
  g_autoptr(GString) sdf = g_string_new (SDF_HEAD "<model name='m'>");
  const double distance = 40.0;
  Fixture f = { 0 };
  guint found;

  for (int i = 0; i < 64; i++)
    g_string_append_printf (sdf, "<link name='l%d'><pose>0 %g %d 0 0 0</pose>"
                            "<inertial><mass>1</mass><inertia><ixx>1e-5</ixx><iyy>1e-5</iyy><izz>1e-5</izz>"
                            "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
                            "<collision name='c'><geometry><box><size>0.01 0.01 0.01</size></box></geometry>"
                            "</collision></link>", i, -3.5 + i % 8, 1 + i / 8);
  g_string_append (sdf, "</model></sdf>");
  fixture_setup (&f, sdf->str);
  look_front (&f, distance);
  capture (&f);
  found = count_specks (&f, distance, -1);
  g_test_message ("%u of 64 sub-pixel bodies seen", found);
  g_assert_cmpuint (found, ==, 64);

  bl_viewport_set_selected_link (f.viewport, bl_document_find_link (f.document, "m::l9"));
  capture (&f);
  found = count_specks (&f, distance, 9);
  g_test_message ("%u of 64 sub-pixel bodies seen with l9 selected", found);
  g_assert_cmpuint (found, ==, 64);
  fixture_teardown (&f);
}


/* Where world point P shows in the fixture's view (pixels from the upper
 * left), by the pinhole camera: FALSE when behind the eye. */
static gboolean
project_px (Fixture      *f,
            const double  p[3],
            double       *x,
            double       *y)
{
  BlCamera camera;
  double eye[3], forward[3], right[3], up[3], v[3], z;

  bl_viewport_get_camera (f->viewport, &camera);
  bl_camera_get_eye (&camera, eye);
  bl_camera_get_basis (&camera, forward, right, up);
  for (int k = 0; k < 3; k++)
    v[k] = p[k] - eye[k];
  z = v[0] * forward[0] + v[1] * forward[1] + v[2] * forward[2];
  if (!(z > 0.0))
    return FALSE;
  *x = f->width / 2.0 + offset_px (f, v[0] * right[0] + v[1] * right[1] + v[2] * right[2], z);
  *y = f->height / 2.0 - offset_px (f, v[0] * up[0] + v[1] * up[1] + v[2] * up[2], z);
  return TRUE;
}

/* Whether a pixel within one of (X, Y) is neither the background nor the
 * grid: a body's. */
static gboolean
body_near (Fixture *f,
           double   x,
           double   y)
{
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        double rgb[3], off_background = 0.0, off_grid = 0.0;

        if (x + dx < 0 || y + dy < 0 || x + dx >= f->width || y + dy >= f->height)
          continue;
        pixel_at (f, x + dx, y + dy, rgb);
        for (int k = 0; k < 3; k++)
          {
            off_background = MAX (off_background, fabs (rgb[k] - bl_render_background_color[k]));
            off_grid = MAX (off_grid, fabs (rgb[k] - bl_render_grid_color[k]));
          }
        if (off_background > 4.0 / 255.0 && off_grid > 4.0 / 255.0)
          return TRUE;
      }
  return FALSE;
}

/* A world of 1 m boxes along the x axis, 40 km long, at fit-all: each
 * box is far under a pixel, drawn as a speck (a point at its first
 * vertex, half a metre under the ground), and the grid's line along the
 * x axis, drawn first, hid them where it covers their pixel.  Specks stay
 * above the grid: each of the 41 boxes (1 km apart, a few pixels) shows
 * within a pixel of where the pinhole camera puts its centre. */
static void
test_specks_above_grid (void)
{
  g_autoptr(GString) sdf = g_string_new (SDF_HEAD "<model name='m'><link name='l'>"
                                         "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>"
                                         "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>");
  Fixture f = { 0 };
  guint seen = 0, in_view = 0;

  for (int i = 0; i <= 40; i++)
    g_string_append_printf (sdf, "<collision name='c%d'><pose>%d 0 0 0 0 0</pose>"
                            "<geometry><box><size>1 1 1</size></box></geometry></collision>",
                            i, 1000 * (i - 20));
  g_string_append (sdf, "</link></model></sdf>");
  fixture_setup (&f, sdf->str);
  bl_viewport_fit_all (f.viewport);
  capture (&f);
  for (int i = 0; i <= 40; i++)
    {
      double p[3] = { 1000.0 * (i - 20), 0.0, 0.0 }, x, y;

      if (!project_px (&f, p, &x, &y) || x < 1 || y < 1 || x >= f.width - 1 || y >= f.height - 1)
        continue;
      in_view++;
      seen += body_near (&f, x, y);
    }
  g_test_message ("%u of %u boxes in view seen", seen, in_view);
  g_assert_cmpuint (in_view, ==, 41);
  g_assert_cmpuint (seen, ==, in_view);
  fixture_teardown (&f);
}

/* A software rasteriser is handed many instances of a small mesh in
 * pieces (draw_instances): of 6,000 boxes (72,000 triangles, two pieces
 * of FLUSH_TRIANGLES), the first piece's in a block, the second piece's
 * 10 m apart beside it; each of the second piece shows where it is, and
 * nothing shows between them.  Nothing is left out (the occlusion test
 * off), so the pieces are the instances in order. */
static void
test_instances_in_pieces (void)
{
  g_autoptr(GString) sdf = g_string_new (SDF_HEAD "<model name='m'><link name='l'>"
                                         "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>"
                                         "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>");
  const int first_piece = FLUSH_TRIANGLES / 12;
  Fixture f = { 0 };
  guint seen = 0, in_view = 0, gaps = 0, gaps_empty = 0;

  for (int i = 0; i < 6000; i++)
    {
      int j = i - first_piece;

      if (j < 0)
        g_string_append_printf (sdf, "<collision name='c%d'><pose>%g %g 0 0 0 0</pose>"
                                "<geometry><box><size>1 1 1</size></box></geometry></collision>",
                                i, 0.5 * (i % 74), 0.5 * (i / 74));
      else
        g_string_append_printf (sdf, "<collision name='c%d'><pose>%d %d 0 0 0 0</pose>"
                                "<geometry><box><size>2 2 2</size></box></geometry></collision>",
                                i, 100 + 10 * (j % 49), 10 * (j / 49));
    }
  g_string_append (sdf, "</link></model></sdf>");
  fixture_setup (&f, sdf->str);
  bl_viewport_set_occlusion_culling (f.viewport, FALSE);
  bl_viewport_set_view (f.viewport, BL_VIEW_TOP);
  bl_viewport_fit_all (f.viewport);
  capture (&f);
  for (int j = 0; j < 6000 - first_piece; j++)
    {
      double p[3] = { 100.0 + 10 * (j % 49), 10.0 * (j / 49), 1.0 }, q[3] = { p[0] + 5, p[1] + 5, 0.0 }, x, y;

      if (project_px (&f, p, &x, &y) && x >= 1 && y >= 1 && x < f.width - 1 && y < f.height - 1)
        {
          in_view++;
          seen += body_near (&f, x, y);
        }
      if (j % 49 < 48 && j / 49 < 10 && project_px (&f, q, &x, &y) &&
          x >= 1 && y >= 1 && x < f.width - 1 && y < f.height - 1)
        {
          gaps++;
          gaps_empty += !body_near (&f, x, y);
        }
    }
  g_test_message ("%u of the second piece's %u boxes in view seen; %u of %u gaps empty",
                  seen, in_view, gaps_empty, gaps);
  g_assert_cmpuint (in_view, ==, 6000 - first_piece);
  g_assert_cmpuint (seen, ==, in_view);
  g_assert_cmpuint (gaps, ==, 48 * 10);
  g_assert_cmpuint (gaps_empty, ==, gaps);
  fixture_teardown (&f);
}

#define OCCLUSION_BOX(i, x, y, z, size) \
  g_string_append_printf (sdf, "<link name='l%d'><pose>%g %g %g 0 0 0</pose>" \
                          "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>" \
                          "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>" \
                          "<collision name='c'><geometry><box><size>%g %g %g</size></box></geometry>" \
                          "</collision></link>", i, x, y, z, size, size, size)

/* Asserts that the pixel where world point P shows is link LINK's colour
 * under the headlight at cos θ = COS_VIEW. */
static void
assert_link_at (Fixture      *f,
                const double  p[3],
                int           link,
                double        cos_view)
{
  float color[3];
  double x, y, rgb[3];

  g_assert_true (project_px (f, p, &x, &y));
  bl_render_link_color (link, color);
  pixel_at (f, x, y, rgb);
  g_test_message ("l%d at (%.1f, %.1f): %.3f %.3f %.3f, expected %.3f %.3f %.3f", link, x, y, rgb[0], rgb[1], rgb[2],
                  color[0] * (0.3 + 0.7 * cos_view), color[1] * (0.3 + 0.7 * cos_view),
                  color[2] * (0.3 + 0.7 * cos_view));
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat (fabs (rgb[k] - color[k] * (0.3 + 0.7 * cos_view)), <=, 0.02);
}

/* Bodies certainly hidden behind or inside nearer ones are left out, and
 * nothing else: from the front (the eye at x = 12 m), a 4 m cube at the
 * origin, 36 small cubes inside it and one straight behind it (left out);
 * a cube sticking out of its front face, one floating in front of it and
 * one behind it that peeks out beside its edge (drawn, each seen in its
 * link's colour).  The picture is the same pixel for pixel with the test
 * off (`bl_viewport_set_occlusion_culling`), and 37 cubes fewer are drawn;
 * the same from an oblique view, where nothing is straight behind, and
 * from close to the floating cube, cut by the near plane. */
static void
test_occlusion_lossless (void)
{
  g_autoptr(GString) sdf = g_string_new (SDF_HEAD "<model name='m'>");
  g_autofree guchar *on = NULL;
  Fixture f = { 0 };
  guint n_on, n_off;

  OCCLUSION_BOX (0, 0.0, 0.0, 0.0, 4.0);
  OCCLUSION_BOX (1, 2.2, 0.0, 0.0, 0.6);      /* through the front face */
  OCCLUSION_BOX (2, 3.0, 1.0, 0.5, 0.4);      /* in front */
  OCCLUSION_BOX (3, -3.5, 0.0, 0.0, 0.6);     /* straight behind */
  OCCLUSION_BOX (4, -3.5, 3.0, 0.0, 0.6);     /* behind, beside the edge */
  for (int i = 0; i < 36; i++)
    OCCLUSION_BOX (5 + i, -1.2 + 0.8 * (i % 4), -1.2 + 0.8 * (i / 4 % 4), -0.8 + 0.8 * (i / 16), 0.5);
  OCCLUSION_BOX (41, 2.6, 1.0, 0.5, 0.1);    /* between the floating one and the big one */
  g_string_append (sdf, "</model></sdf>");
  fixture_setup (&f, sdf->str);
  look_front (&f, 12.0);

  on = capture_on_off (&f, bl_viewport_set_occlusion_culling, &n_on, &n_off);
  g_test_message ("front: triangles drawn %u with the occlusion test, %u without", n_on, n_off);
  g_assert_cmpmem (on, f.stride * f.height, f.pixels, f.stride * f.height);
  g_assert_cmpuint (n_on, <=, n_off - 37 * 12);
  {
    /* off the middle row, where the grid is seen edge-on */
    const double out[3] = { 2.5, 0.0, 0.15 }, front[3] = { 3.2, 1.0, 0.5 }, big[3] = { 2.0, -1.0, -1.0 };
    double edge_x, peek_x, y, mid[3];

    assert_link_at (&f, out, 1, 9.5 / sqrt (9.5 * 9.5 + 0.15 * 0.15));
    assert_link_at (&f, front, 2, 8.8 / sqrt (8.8 * 8.8 + 1.0 + 0.25));
    assert_link_at (&f, big, 0, 10.0 / sqrt (100.0 + 2.0));
    /* the peeking cube between the big one's edge (y = 2 at depth 10)
     * and its own far edge (y = 3.3 at depth 15.2) */
    g_assert_true (project_px (&f, (const double[3]) { 2.0, 2.0, 0.0 }, &edge_x, &y));
    g_assert_true (project_px (&f, (const double[3]) { -3.2, 3.3, 0.0 }, &peek_x, &y));
    g_assert_cmpfloat (peek_x - edge_x, >=, 4.0);
    mid[0] = -3.2;
    mid[1] = 3.3 * (0.5 * (edge_x + peek_x) - f.width / 2.0) / (peek_x - f.width / 2.0);
    mid[2] = 0.15;
    assert_link_at (&f, mid, 4, 15.2 / sqrt (15.2 * 15.2 + mid[1] * mid[1] + 0.15 * 0.15));
  }

  g_clear_pointer (&on, g_free);
  aim (&f, (const double[3]) { 0, 0, 0 }, 14.0, 0.6, 0.4);
  on = capture_on_off (&f, bl_viewport_set_occlusion_culling, &n_on, &n_off);
  g_test_message ("oblique: triangles drawn %u with the occlusion test, %u without", n_on, n_off);
  g_assert_cmpmem (on, f.stride * f.height, f.pixels, f.stride * f.height);
  g_assert_cmpuint (n_on, <=, n_off - 36 * 12);

  /* The eye 0.4 m in front of the floating cube, aimed at a target 50 m
   * away: the near plane, half a metre away, cuts through that cube, and
   * the small one behind it shows through the hole. */
  g_clear_pointer (&on, g_free);
  aim (&f, (const double[3]) { 3.6 - 50.0, 1.0, 0.5 }, 50.0, 0.0, 0.0);
  on = capture_on_off (&f, bl_viewport_set_occlusion_culling, &n_on, &n_off);
  g_test_message ("clipped: triangles drawn %u with the occlusion test, %u without", n_on, n_off);
  g_assert_cmpmem (on, f.stride * f.height, f.pixels, f.stride * f.height);

  /* Chosen once per camera: a frame of the same view (hovering, the
   * offscreen capture) keeps the last choice; a turn, a selection or an
   * edit of an instance makes a new one. */
  {
    guint n = bl_viewport_get_n_prepares (f.viewport);

    wait_for_frame (&f);
    capture (&f);
    g_assert_cmpuint (bl_viewport_get_n_prepares (f.viewport), ==, n);
    aim (&f, (const double[3]) { 0, 0, 0 }, 14.0, 0.7, 0.4);
    wait_for_frame (&f);
    g_assert_cmpuint (bl_viewport_get_n_prepares (f.viewport), ==, n + 1);
    bl_viewport_set_selected_link (f.viewport, bl_document_find_link (f.document, "m::l1"));
    wait_for_frame (&f);
    g_assert_cmpuint (bl_viewport_get_n_prepares (f.viewport), ==, n + 2);
    wait_for_frame (&f);
    g_assert_cmpuint (bl_viewport_get_n_prepares (f.viewport), ==, n + 2);
  }
  fixture_teardown (&f);
}

/* 300 links at one place, each a box of another size (1 m to 2 m), and so
 * 300 nested inertia ellipsoids (spheres of radius 0.645 times the box's
 * side): translucent, each a layer of at least α = 0.2 over what is
 * behind; past 32 of them the view shows the overlay's colour whatever is
 * behind ((1 − 0.2)^32 < 10⁻³, under half a step of 255).  Shells nested
 * in 32 others are left out (the bodies inside the biggest box too): over
 * three times fewer triangles drawn, and the picture still the overlay's:
 * every pixel within 0.1 of the picture with every shell drawn (a section
 * line of a shell left out: 0.25 brighter at strength 0.4 of 1) and on
 * average within 2/255. */
static void
test_shell_layers_bounded (void)
{
  g_autoptr(GString) sdf = g_string_new (SDF_HEAD "<model name='m'>");
  g_autofree guchar *on = NULL;
  Fixture f = { 0 };
  guint n_on, n_off, worst = 0;
  double sum = 0.0;

  for (int i = 0; i < 300; i++)
    {
      double side = 1.0 + i / 300.0;

      g_string_append_printf (sdf, "<link name='l%d'><inertial><mass>1</mass><inertia><ixx>%.17g</ixx>"
                              "<iyy>%.17g</iyy><izz>%.17g</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>"
                              "</inertial><collision name='c'><geometry><box><size>%.17g %.17g %.17g</size></box>"
                              "</geometry></collision></link>", i, side * side / 6, side * side / 6,
                              side * side / 6, side, side, side);
    }
  g_string_append (sdf, "</model></sdf>");
  fixture_setup (&f, sdf->str);
  g_object_set (f.viewport, "show-inertia-ellipsoid", TRUE, NULL);
  aim (&f, (const double[3]) { 0, 0, 0 }, 7.0, 0.5, 0.3);

  on = capture_on_off (&f, bl_viewport_set_occlusion_culling, &n_on, &n_off);
  for (gsize p = 0; p < f.stride * f.height; p++)
    if (p % 4 != 3)
      {
        guint d = (guint) ABS ((int) on[p] - (int) f.pixels[p]);

        worst = MAX (worst, d);
        sum += d;
      }
  g_test_message ("triangles drawn %u with shells under 32 left out, %u without; largest difference %u of 255, "
                  "mean %.3f", n_on, n_off, worst, sum / (3.0 * f.width * f.height));
  g_assert_cmpuint (3 * n_on, <, n_off);
  g_assert_cmpuint (worst, <=, 26);
  g_assert_cmpfloat (sum / (3.0 * f.width * f.height), <=, 2.0);

  /* Their 300 centres of mass, one over the other at the origin, each
   * drawn on top at 8 px (their links are bigger): the last one drawn
   * covers the others' pixels, exactly. */
  g_clear_pointer (&on, g_free);
  g_object_set (f.viewport, "show-inertia-ellipsoid", FALSE, "show-com", TRUE, NULL);
  on = capture_on_off (&f, bl_viewport_set_occlusion_culling, &n_on, &n_off);
  g_test_message ("centres of mass: triangles drawn %u with markers drawn over left out, %u without", n_on, n_off);
  g_assert_cmpmem (on, f.stride * f.height, f.pixels, f.stride * f.height);
  g_assert_cmpuint (10 * n_on, <, n_off);
  fixture_teardown (&f);
}

/* The SDF of one link of N unit cubes at its origin and one at y = 3. */
static char *
stacked_cubes (guint n)
{
  GString *sdf = g_string_new (SDF_HEAD "<model name='m'><link name='l'>"
                               "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>"
                               "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (sdf, "<collision name='c%u'><geometry><box><size>1 1 1</size></box></geometry>"
                            "</collision>", i);
  g_string_append (sdf, "<collision name='far'><pose>0 3 0 0 0 0</pose><geometry><box><size>1 1 1</size>"
                   "</box></geometry></collision></link></model></sdf>");
  return g_string_free (sdf, FALSE);
}

/* A link of 100,000 boxes at one place took llvmpipe 106 s to draw (the
 * same pixels 100,000 times a frame): an instance that repeats an earlier
 * one but for its collision is drawn once, so 1,000 stacked cubes cost
 * what one does; the one selected among them still shows highlighted,
 * exactly as the first would (a pixel of the cube beside the grid's line
 * through the centre). */
static void
test_stacked_bodies_drawn_once (void)
{
  g_autofree char *one = stacked_cubes (1);
  g_autofree char *many = stacked_cubes (1000);
  g_autofree guchar *first = NULL;
  Fixture f = { 0 };
  BlLink *link;
  guint n_one, n_many;
  double none_rgb[3], first_rgb[3], later_rgb[3];

  fixture_setup (&f, one);
  link = bl_document_find_link (f.document, "m::l");
  bl_viewport_set_selected_link (f.viewport, link);
  look_front (&f, 12.0);
  capture (&f);
  n_one = bl_viewport_get_n_drawn_triangles (f.viewport);
  fixture_teardown (&f);

  memset (&f, 0, sizeof f);
  fixture_setup (&f, many);
  link = bl_document_find_link (f.document, "m::l");
  bl_viewport_set_selected_link (f.viewport, link);
  look_front (&f, 12.0);
  capture (&f);
  n_many = bl_viewport_get_n_drawn_triangles (f.viewport);
  g_test_message ("triangles drawn: 1 cube %u, 1,000 stacked cubes %u", n_one, n_many);
  /* the same, but for the one selected collision a frame may add (12) */
  g_assert_cmpuint (n_many, <=, n_one + 12);
  pixel_at (&f, f.width / 2.0 + 7, f.height / 2.0 - 7, none_rgb);

  bl_viewport_set_selected_collision (f.viewport, g_ptr_array_index (link->collisions, 0));
  capture (&f);
  pixel_at (&f, f.width / 2.0 + 7, f.height / 2.0 - 7, first_rgb);
  first = g_steal_pointer (&f.pixels);
  bl_viewport_set_selected_collision (f.viewport, g_ptr_array_index (link->collisions, 500));
  capture (&f);
  pixel_at (&f, f.width / 2.0 + 7, f.height / 2.0 - 7, later_rgb);
  g_test_message ("centre: no collision selected %.3f %.3f %.3f, c0 %.3f %.3f %.3f, c500 %.3f %.3f %.3f",
                  none_rgb[0], none_rgb[1], none_rgb[2], first_rgb[0], first_rgb[1], first_rgb[2],
                  later_rgb[0], later_rgb[1], later_rgb[2]);
  g_assert_true (fabs (first_rgb[0] - none_rgb[0]) + fabs (first_rgb[1] - none_rgb[1])
                 + fabs (first_rgb[2] - none_rgb[2]) > 0.05);
  g_assert_cmpmem (first, f.stride * f.height, f.pixels, f.stride * f.height);
  fixture_teardown (&f);
}

/* A model of N links of a box 0.5 m wide each (automatic inertia), in a
 * row along y 0.05 m apart, centred on the origin. */
static char *
row_of_boxes (guint n)
{
  GString *sdf = g_string_new (SDF_HEAD "<model name='m'>");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (sdf, "<link name='l%u'><pose>0 %g 0 0 0 0</pose><inertial auto='true'/>"
                            "<collision name='c'><geometry><box><size>0.5 0.5 0.5</size></box></geometry>"
                            "</collision></link>", i, (i - n / 2.0) * 0.05);
  g_string_append (sdf, "</model></sdf>");
  return g_string_free (sdf, FALSE);
}

/* A batch of many instances is sent per frame, its visible instances
 * only: no buffer of all of them stays with the GL (on llvmpipe the
 * process's own memory, 90 MB at 100,000 links).  200 links of a box in a
 * row: every box is drawn, and the GL keeps instance buffers for the
 * grid and the axes only, far less than one batch of 200 instances. */
static void
test_many_instances_no_whole_buffer (void)
{
  g_autofree char *text = row_of_boxes (200);
  Fixture f = { 0 };

  fixture_setup (&f, text);
  look_front (&f, 30.0);
  capture (&f);
  g_test_message ("instance bytes held by the GL: %zu; triangles drawn %u",
                  bl_viewport_get_gl_instance_bytes (f.viewport), bl_viewport_get_n_drawn_triangles (f.viewport));
  g_assert_cmpuint (bl_viewport_get_n_drawn_triangles (f.viewport), >=, 200 * 12);
  g_assert_cmpuint (bl_viewport_get_gl_instance_bytes (f.viewport), <, 200 * INSTANCE_FLOATS * sizeof (float));
  fixture_teardown (&f);
}

/* The renderer keeps an instance per body and per link for each overlay
 * shown that the link has, nothing for hidden overlays or missing ones:
 * 200 links of a box (no fluid: no added mass) with the ellipsoid, the
 * box, the centre of mass and the added mass shown keep 200 bodies, 200
 * ellipsoids, 200 boxes and 200 markers, plus the grid and the triad
 * (the code before kept all six overlays of every link, in arrays grown
 * by doubling: 7 × 256 instances).  Hiding the box frees its 200; showing
 * it again draws the same picture at once. */
static void
test_instances_kept_per_link (void)
{
  g_autofree char *text = row_of_boxes (200);
  g_autofree guchar *first = NULL;
  gsize instance = INSTANCE_FLOATS * sizeof (float), kept;
  Fixture f = { 0 };

  fixture_setup (&f, text);
  g_object_set (f.viewport, "show-com", TRUE, "show-inertia-ellipsoid", TRUE, "show-added-mass", TRUE,
                "show-inertia-box", TRUE, NULL);
  look_front (&f, 30.0);
  capture (&f);
  kept = bl_viewport_get_kept_instance_bytes (f.viewport);
  g_test_message ("instance bytes kept: %zu (%zu a link)", kept, kept / 200);
  g_assert_cmpuint (kept, ==, (4 * 200 + 2) * instance);
  first = g_steal_pointer (&f.pixels);

  g_object_set (f.viewport, "show-inertia-box", FALSE, NULL);
  capture (&f);
  g_assert_cmpuint (bl_viewport_get_kept_instance_bytes (f.viewport), ==, (3 * 200 + 2) * instance);
  g_assert_true (memcmp (first, f.pixels, f.stride * f.height) != 0);
  g_object_set (f.viewport, "show-inertia-box", TRUE, NULL);
  capture (&f);
  g_assert_cmpuint (bl_viewport_get_kept_instance_bytes (f.viewport), ==, kept);
  g_assert_cmpmem (first, f.stride * f.height, f.pixels, f.stride * f.height);
  fixture_teardown (&f);
}

#define CUBE_COLLISION(name, y) \
  "<collision name='" name "'><pose>0 " #y " 0 0 0 0</pose>" \
  "<geometry><box><size>1 1 1</size></box></geometry></collision>"

/* A selected collision stands out from its link's other collisions, which
 * stand out from the other links (dimmed towards the background). */
static void
test_selection_unmistakable (void)
{
  Fixture f = { 0 };
  BlLink *a;
  BlCollision *c2;
  float own_a[3], own_b[3], expected[3];
  double cx, cy, z, d = 8.0;

  /* Link a (at the origin): cubes c1 at y = −1.5 and c2 at y = 0; link b
   * (at y = 1.5): a cube. */
  fixture_setup (&f, SDF_HEAD "<model name='m'>"
                 "<link name='a'><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz>"
                 "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
                 CUBE_COLLISION ("c1", -1.5) CUBE_COLLISION ("c2", 0) "</link>"
                 "<link name='b'><pose>0 1.5 0 0 0 0</pose>"
                 "<inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz>"
                 "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"
                 CUBE_COLLISION ("c", 0) "</link></model></sdf>");
  a = bl_document_find_link (f.document, "m::a");
  c2 = bl_document_find_collision (f.document, "m::a", "c2");
  g_assert_nonnull (c2);
  look_front (&f, d);
  bl_render_link_color (0, own_a);
  bl_render_link_color (1, own_b);
  cx = f.width / 2.0;
  cy = f.height / 2.0;

  /* The faces at x = 0.5 (depth d − 0.5), sampled 10 px above their
   * centres (the grid's line runs through them), at height z: the
   * headlight's cosine there is (d − 0.5) / √((d − 0.5)² + y² + z²). */
  z = 10.0 / (0.5 * f.height) * TAN_HALF_FOV * (d - 0.5);
#define FACE(y) cx + offset_px (&f, (y), d - 0.5), cy - 10
#define SHADE(y) (0.3 + 0.7 * (d - 0.5) / sqrt ((d - 0.5) * (d - 0.5) + (y) * (y) + z * z))

  /* Nothing selected: every body in its own colour. */
  capture (&f);
  assert_color (&f, FACE (-1.5), own_a, SHADE (-1.5));
  assert_color (&f, FACE (0.0), own_a, SHADE (0.0));
  assert_color (&f, FACE (1.5), own_b, SHADE (1.5));

  /* Collision c2 selected (as from the outline). */
  bl_viewport_set_selected_collision (f.viewport, c2);
  g_assert_true (bl_viewport_get_selected_link (f.viewport) == a);
  g_assert_true (bl_viewport_get_selected_collision (f.viewport) == c2);
  capture (&f);
  mix3 (own_a, bl_render_selection_color, BL_RENDER_SELECTION_MIX, expected);
  assert_color (&f, FACE (-1.5), expected, SHADE (-1.5));
  mix3 (own_a, bl_render_selection_color, BL_RENDER_COLLISION_MIX, expected);
  assert_color (&f, FACE (0.0), expected, SHADE (0.0));
  mix3 (own_b, bl_render_background_color, BL_RENDER_DIM_MIX, expected);
  assert_color (&f, FACE (1.5), expected, SHADE (1.5));

  /* The link alone selected again: both its collisions alike. */
  bl_viewport_set_selected_link (f.viewport, a);
  g_assert_null (bl_viewport_get_selected_collision (f.viewport));
  capture (&f);
  mix3 (own_a, bl_render_selection_color, BL_RENDER_SELECTION_MIX, expected);
  assert_color (&f, FACE (-1.5), expected, SHADE (-1.5));
  assert_color (&f, FACE (0.0), expected, SHADE (0.0));
#undef FACE
#undef SHADE

  /* The centre-of-mass markers are drawn over everything: link a's, at
   * the origin, is dimmed too while b is selected.  3 px up and right of
   * its centre lies a white octant (x·y·z > 0, the eye on +x) lit by the
   * headlight's cosine c: the pixel is white·c, and dimmed
   * (1 − t)·white·c + t·background·c. */
  g_object_set (f.viewport, "show-com", TRUE, NULL);
  bl_viewport_set_selected_link (f.viewport, NULL);
  capture (&f);
  {
    double lit[3], c;
    float dimmed[3];

    pixel_at (&f, cx + 3.5, cy - 3.5, lit);
    c = lit[0] / bl_render_com_color[0];
    g_assert_cmpfloat (c, >, 0.8);
    bl_viewport_set_selected_link (f.viewport, bl_document_find_link (f.document, "m::b"));
    capture (&f);
    mix3 (bl_render_com_color, bl_render_background_color, BL_RENDER_DIM_MIX, dimmed);
    assert_color (&f, cx + 3.5, cy - 3.5, dimmed, c);
  }
  fixture_teardown (&f);
}

#define ONE_CUBE_WITH_ADDED_MASS(xx) \
  SDF_HEAD "<model name='m'><link name='l'><inertial><mass>6</mass>" \
  "<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>" \
  "<fluid_added_mass><xx>" xx "</xx><yy>2</yy><zz>2</zz></fluid_added_mass></inertial>" \
  CUBE_COLLISION ("c", 0) "</link></model></sdf>"

/* An added-mass matrix that is not positive semi-definite (xx = −2: an
 * eigenvalue −2) has no ellipsoid; its link is drawn in the warning
 * colour while the added-mass overlay is on, as an invalid inertia is. */
static void
test_added_mass_invalid_warns (void)
{
  Fixture f = { 0 };
  g_autoptr(BlSceneLink) scene = NULL;
  float own[3];
  double cx, cy, d = 6.0;

  fixture_setup (&f, ONE_CUBE_WITH_ADDED_MASS ("-2"));
  scene = bl_scene_link_new (bl_document_find_link (f.document, "m::l"), 0, 1025.0, bl_vec3 (0, 0, -9.8));
  g_assert_true (scene->added_mass_invalid);
  g_assert_false (scene->has_added_mass);
  look_front (&f, d);
  cx = f.width / 2.0;
  cy = f.height / 2.0;
  bl_render_link_color (0, own);

  /* The face head-on, 10 px above the grid's line through its centre. */
  g_object_set (f.viewport, "show-added-mass", TRUE, NULL);
  capture (&f);
  assert_color (&f, cx + 0.5, cy - 10, bl_render_warning_color, 1.0);
  g_object_set (f.viewport, "show-added-mass", FALSE, NULL);
  capture (&f);
  assert_color (&f, cx + 0.5, cy - 10, own, 1.0);
  fixture_teardown (&f);

  /* The same link with xx = 2 is physical: its own colour either way. */
  fixture_setup (&f, ONE_CUBE_WITH_ADDED_MASS ("2"));
  look_front (&f, d);
  g_object_set (f.viewport, "show-added-mass", TRUE, NULL);
  capture (&f);
  assert_color (&f, cx + 0.5, cy - 10, own, 1.0);
  fixture_teardown (&f);
}

/* A sphere's inertia ellipsoid and its added-mass ellipsoid in a fluid of
 * the right density are the same sphere: a solid sphere of radius R has
 * I = 2/5·m·R², whose equivalent ellipsoid has semi-axes R, and added
 * mass ½·ρ·(4/3)·π·R³ in every direction, whose ellipsoid has radius R
 * (bl-scene.h).  Both must show: the added-mass one is dashed rings with
 * no fill, so between the rings the picture is the inertia ellipsoid's
 * alone, and on its rings it is tinted towards the added-mass colour. */
static void
test_sphere_added_mass_visible (void)
{
  Fixture f = { 0 };
  g_autofree char *sdf = NULL;
  g_autofree guchar *inertia_only = NULL;
  double m = 10.0, r = 1.0, rho = 1025.0, mu = 0.5 * rho * 4.0 / 3.0 * G_PI * r * r * r;
  double i = 0.4 * m * r * r, d = 6.0, cx, cy, rp;
  int tinted = 0;

  /* No collision: nothing hides the two shells. */
  sdf = g_strdup_printf (SDF_HEAD "<model name='m'><link name='l'><inertial><mass>%.17g</mass>"
                         "<inertia><ixx>%.17g</ixx><iyy>%.17g</iyy><izz>%.17g</izz>"
                         "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>"
                         "<fluid_added_mass><xx>%.17g</xx><yy>%.17g</yy><zz>%.17g</zz></fluid_added_mass>"
                         "</inertial></link></model></sdf>", m, i, i, i, mu, mu, mu);
  fixture_setup (&f, sdf);
  g_object_set (f.viewport, "fluid-density", rho, "show-inertia-ellipsoid", TRUE, NULL);
  look_front (&f, d);
  cx = f.width / 2.0;
  cy = f.height / 2.0;
  rp = offset_px (&f, r, sqrt (d * d - r * r));

  capture (&f);
  inertia_only = g_steal_pointer (&f.pixels);
  g_object_set (f.viewport, "show-added-mass", TRUE, NULL);
  capture (&f);

  /* Between the rings (off the silhouette and the two sections seen edge
   * on, the horizontal and vertical diameters): the inertia shell alone. */
  {
    const double points[][2] = { { 0.35, 0.45 }, { -0.4, 0.3 }, { 0.3, -0.5 }, { -0.55, -0.35 } };

    for (guint k = 0; k < G_N_ELEMENTS (points); k++)
      {
        int px = (int) floor (cx + points[k][0] * rp), py = (int) floor (cy + points[k][1] * rp);
        const guchar *a = inertia_only + py * f.stride + px * 4, *b = f.pixels + py * f.stride + px * 4;

        for (int c = 0; c < 3; c++)
          if (abs ((int) a[c] - (int) b[c]) > 2)
            g_error ("pixel (%d, %d) between the added-mass rings changed: %d %d %d → %d %d %d",
                     px, py, a[2], a[1], a[0], b[2], b[1], b[0]);
      }
  }
  /* Along the horizontal diameter (the z = 0 section, edge on): dashes in
   * the added-mass colour over the inertia shell. */
  for (int x = (int) (cx - 0.8 * rp); x <= (int) (cx + 0.8 * rp); x++)
    for (int y = (int) cy - 1; y <= (int) cy + 1; y++)
      {
        const guchar *a = inertia_only + y * f.stride + x * 4, *b = f.pixels + y * f.stride + x * 4;
        double dd = 0, cc = 0, dc = 0;

        for (int c = 0; c < 3; c++)
          {
            double under = a[2 - c] / 255.0, now = b[2 - c] / 255.0;
            double delta = now - under, toward = bl_render_added_mass_color[c] - under;

            dd += delta * delta;
            cc += toward * toward;
            dc += delta * toward;
          }
        if (sqrt (dd) > 0.04 && dc / sqrt (dd * cc) > cos (G_PI / 6))
          tinted++;
      }
  if (tinted < 10)
    g_error ("only %d pixels of the horizontal diameter show the added-mass rings", tinted);
  fixture_teardown (&f);
}

/* The panel method's surface over a unit box: its edges dark on their own
 * (the box's middle is an edge of a 4 × 4 grid of panels), filled by a
 * potential (here the panel centroid's height, so the top half is red,
 * the bottom blue, the middle white), and gone when cleared. */
static void
test_panels (void)
{
  Fixture f = { 0 };
  BlPanelBody body = { .kind = BL_PANEL_BODY_BOX, .pose = BL_POSE_IDENTITY, .size = { 1, 1, 1 } };
  g_autoptr(BlPanelSurface) surface = bl_panel_surface_new (&body, 1, 200);
  g_autofree double *heights = g_new (double, surface->n_panels);
  BlLink *link;
  double cx, cy, edge, rgb[3];
  float color[3];

  fixture_setup (&f, SDF_HEAD "<model name='m'>" BOX_LINK ("box", 0, "1 1 1") "</model></sdf>");
  link = bl_document_find_link (f.document, "m::box");
  look_front (&f, 5.0);
  cx = f.width / 2.0;
  cy = f.height / 2.0;
  edge = offset_px (&f, 0.5, 4.5);
  for (gsize p = 0; p < surface->n_panels; p++)
    {
      const double *c = surface->points + 9 * p;
      heights[p] = (c[2] + c[5] + c[8]) / 3;
    }

  bl_viewport_set_panels (f.viewport, link, surface->points, surface->n_panels, NULL);
  g_assert_cmpuint (bl_viewport_get_n_panels (f.viewport), ==, surface->n_panels);
  capture (&f);
  pixel_at (&f, cx, cy, rgb);
  if (!(rgb[0] < 0.3 && rgb[1] < 0.3 && rgb[2] < 0.3))
    g_error ("the panels' edges through the middle: expected dark, got %.3f %.3f %.3f", rgb[0], rgb[1], rgb[2]);

  bl_viewport_set_panels (f.viewport, link, surface->points, surface->n_panels, heights);
  capture (&f);
  /* Up on screen is up in the model; a quarter of the way from the middle
   * is inside a panel of the second row (centroid height ±0.125 or so). */
  pixel_at (&f, cx + 0.3 * edge, cy - 0.6 * edge, rgb);
  if (!(rgb[0] > rgb[2] + 0.3))
    g_error ("upper half: expected red, got %.3f %.3f %.3f", rgb[0], rgb[1], rgb[2]);
  pixel_at (&f, cx + 0.3 * edge, cy + 0.6 * edge, rgb);
  if (!(rgb[2] > rgb[0] + 0.2))
    g_error ("lower half: expected blue, got %.3f %.3f %.3f", rgb[0], rgb[1], rgb[2]);
  assert_color (&f, cx + edge + 3, cy - 10.5, bl_render_background_color, 1.0);

  bl_viewport_set_panels (f.viewport, NULL, NULL, 0, NULL);
  g_assert_cmpuint (bl_viewport_get_n_panels (f.viewport), ==, 0);
  capture (&f);
  bl_render_link_color (0, color);
  assert_color (&f, cx + 0.5, cy - 10.5, color, 1.0);
  fixture_teardown (&f);
}

/* Issue 18: a big mesh's clusters and levels are made in a thread pool
 * that tells the viewport when each is done; the viewport polled the
 * threads every 50 ms instead.  Here nobody queues a frame: the frames that
 * take the clusters and the levels come from the jobs' own reports, and the
 * viewport has no source of its own in the main context meanwhile. */
static void
test_mesh_jobs_told (void)
{
  static const guint n[6] = { 30, 30, 30, 30, 30, 30 };
  g_autoptr(GArray) tris = cube_triangles (n);
  g_autofree char *sdf = NULL;
  Fixture f = { 0 };
  gboolean timed_out = FALSE;
  guint id, frames;

  sdf = one_mesh_sdf (fixture_write_stl (&f, "cube.stl", tris));
  fixture_setup (&f, sdf);
  g_assert_true (bl_viewport_get_mesh_jobs_pending (f.viewport));
  frames = bl_viewport_get_n_frames (f.viewport);
  id = g_timeout_add_seconds (60, timeout_cb, &timed_out);
  while (!timed_out && bl_viewport_get_mesh_jobs_pending (f.viewport))
    {
      g_assert_null (g_main_context_find_source_by_user_data (NULL, f.viewport));
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_false (timed_out);
  g_source_remove (id);
  g_assert_cmpuint (bl_viewport_get_n_frames (f.viewport), >, frames);
  fixture_teardown (&f);
}

/* A stalled mesh import, made by the test alone: this program's own
 * open64() stands in front of the C library's for every caller in the
 * process (GLib's g_open, which the import child's file reader uses,
 * included).  While a stall is armed, a child process that opens
 * STALL_PATH waits on a pipe until the test lets it go (or 15 s pass): a
 * real import that does not return, as a corrupt file that makes assimp
 * loop does, until the time limit (30 s). */
static char *stall_path;
static int   stall_pipe[2] = { -1, -1 };
static pid_t stall_parent;

/* By its symbol name: GLib calls open64. */
int stall_open (const char *path, int flags, ...) __asm__ ("open64");

int
stall_open (const char *path,
            int         flags,
            ...)
{
  static int (*real_open) (const char *, int, ...);
  mode_t mode = 0;

  if (flags & (O_CREAT | O_TMPFILE))
    {
      va_list args;

      va_start (args, flags);
      mode = va_arg (args, mode_t);
      va_end (args);
    }
  if (real_open == NULL)
    real_open = (int (*) (const char *, int, ...)) dlsym (RTLD_NEXT, "open64");
  if (stall_path != NULL && getpid () != stall_parent && strcmp (path, stall_path) == 0)
    {
      struct pollfd pfd = { stall_pipe[0], POLLIN, 0 };

      close (stall_pipe[1]);   /* the parent's copy alone keeps it open */
      poll (&pfd, 1, 15000);
    }
  return real_open (path, flags, mode);
}

/* Issue 18: the scene read meshes itself, on the main thread, so one whose
 * import hangs froze the window until the time limit.  Here the core's
 * cache reads it in a worker thread: while the import is stalled the main
 * loop keeps drawing frames, the box beside it is drawn, and the mesh is
 * drawn once its import is let go. */
static void
test_stalled_mesh_import (void)
{
  static const guint n[6] = { 1, 1, 1, 1, 1, 1 };
  g_autoptr(GArray) tris = cube_triangles (n);
  g_autofree char *sdf = NULL;
  Fixture f = { 0 };
  double cx, cy, side, z, shade;
  float box_color[3], mesh_color[3];
  BlCollision *collision;
  guint frames;
  gint64 start;

  /* Through assimp (in a child), as every other format is read. */
  bl_mesh_set_native_readers (FALSE);
  sdf = g_strdup_printf (SDF_HEAD "<model name='m'>" BOX_LINK ("box", -1.5, "1 1 1")
                         "<link name='mesh'><pose>0 1.5 0 0 0 0</pose><inertial><mass>1</mass><inertia>"
                         "<ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz>"
                         "</inertia></inertial><collision name='c'><geometry><mesh><uri>%s</uri></mesh>"
                         "</geometry></collision></link></model></sdf>",
                         fixture_write_stl (&f, "stall.stl", tris));
  fixture_setup (&f, sdf);
  collision = g_ptr_array_index (bl_document_find_link (f.document, "m::mesh")->collisions, 0);

  /* The document again, its collision holding no mesh (as after a failed
   * or dropped read) and the cache empty: the scene asks the cache, whose
   * import stalls. */
  bl_viewport_set_document (f.viewport, NULL);
  g_clear_pointer (&collision->mesh, bl_mesh_unref);
  bl_mesh_cache_clear ();
  g_assert_cmpint (pipe (stall_pipe), ==, 0);
  stall_parent = getpid ();
  stall_path = g_strdup (g_ptr_array_index (f.files, 0));
  start = g_get_monotonic_time ();
  bl_viewport_set_document (f.viewport, f.document);
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_assert_cmpuint (bl_viewport_get_n_meshes_reading (f.viewport), ==, 1);

  frames = bl_viewport_get_n_frames (f.viewport);
  look_front (&f, 6.0);
  for (int i = 0; i < 5; i++)
    wait_for_frame (&f);
  capture (&f);
  g_assert_cmpuint (bl_viewport_get_n_frames (f.viewport), >=, frames + 5);
  g_assert_cmpuint (bl_viewport_get_n_meshes_reading (f.viewport), ==, 1);
  g_assert_cmpuint (bl_mesh_cache_get_n_reading (), ==, 1);

  /* The front faces at depth 5.5, 1.5 m either side of the centre. */
  cx = f.width / 2.0;
  cy = f.height / 2.0;
  side = offset_px (&f, 1.5, 5.5);
  /* The headlight's shading at (1.5, 10.5 px up) on a face 5.5 m away. */
  z = 10.5 / (0.5 * f.height) * 5.5 * TAN_HALF_FOV;
  shade = 0.3 + 0.7 * 5.5 / sqrt (5.5 * 5.5 + 1.5 * 1.5 + z * z);
  bl_render_link_color (0, box_color);
  bl_render_link_color (1, mesh_color);
  {
    double left[3], right[3];
    gboolean box_left;

    pixel_at (&f, cx - side + 0.5, cy - 10.5, left);
    pixel_at (&f, cx + side + 0.5, cy - 10.5, right);
    box_left = fabs (left[0] - box_color[0]) < fabs (right[0] - box_color[0]);
    assert_color (&f, box_left ? cx - side + 0.5 : cx + side + 0.5, cy - 10.5, box_color, shade);
    assert_color (&f, box_left ? cx + side + 0.5 : cx - side + 0.5, cy - 10.5, bl_render_background_color, 1.0);

    /* Let the import go: the mesh is drawn where the background was. */
    close (stall_pipe[1]);
    close (stall_pipe[0]);
    while (bl_viewport_get_n_meshes_reading (f.viewport) > 0)
      {
        g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
        g_main_context_iteration (NULL, TRUE);
      }
    capture (&f);
    assert_color (&f, box_left ? cx - side + 0.5 : cx + side + 0.5, cy - 10.5, box_color, shade);
    assert_color (&f, box_left ? cx + side + 0.5 : cx - side + 0.5, cy - 10.5, mesh_color, shade);
  }

  g_clear_pointer (&stall_path, g_free);
  bl_mesh_set_native_readers (TRUE);
  fixture_teardown (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  g_test_add_func ("/ui/viewport/box-at-centre", test_box_at_centre);
  g_test_add_func ("/ui/viewport/panels", test_panels);
  g_test_add_func ("/ui/viewport/ellipsoid-extent-and-live-update", test_ellipsoid_extent);
  g_test_add_func ("/ui/viewport/bounds-walk-on-change", test_bounds_walk_on_change);
  g_test_add_func ("/ui/viewport/pick-selects", test_pick_selects);
  g_test_add_func ("/ui/viewport/xray-and-warning", test_xray_and_warning);
  g_test_add_func ("/ui/viewport/selection-unmistakable", test_selection_unmistakable);
  g_test_add_func ("/ui/viewport/added-mass-invalid-warns", test_added_mass_invalid_warns);
  g_test_add_func ("/ui/viewport/sphere-added-mass-visible", test_sphere_added_mass_visible);
  g_test_add_func ("/ui/viewport/actions-and-png", test_actions_and_png);
  g_test_add_func ("/ui/viewport/fit-ignores-plane", test_fit_ignores_plane);
  g_test_add_func ("/ui/viewport/marker-size", test_marker_size);
  g_test_add_func ("/ui/viewport/large-mesh-in-pieces", test_large_mesh_in_pieces);
  g_test_add_func ("/ui/viewport/clusters-lossless", test_clusters_lossless);
  g_test_add_func ("/ui/viewport/levels-within-half-pixel", test_levels_within_half_pixel);
  g_test_add_func ("/ui/viewport/replaced-meshes-go", test_replaced_meshes_go);
  g_test_add_func ("/ui/viewport/scales-share-buffers", test_scales_share_buffers);
  g_test_add_func ("/ui/viewport/many-instances-levels", test_many_instances_levels);
  g_test_add_func ("/ui/viewport/mesh-jobs-told", test_mesh_jobs_told);
  g_test_add_func ("/ui/viewport/stalled-mesh-import", test_stalled_mesh_import);
  g_test_add_func ("/ui/viewport/sub-pixel-bodies-show", test_sub_pixel_bodies_show);
  g_test_add_func ("/ui/viewport/instances-in-pieces", test_instances_in_pieces);
  g_test_add_func ("/ui/viewport/stacked-bodies-drawn-once", test_stacked_bodies_drawn_once);
  g_test_add_func ("/ui/viewport/many-instances-no-whole-buffer", test_many_instances_no_whole_buffer);
  g_test_add_func ("/ui/viewport/instances-kept-per-link", test_instances_kept_per_link);
  g_test_add_func ("/ui/viewport/specks-above-grid", test_specks_above_grid);
  g_test_add_func ("/ui/viewport/occlusion-lossless", test_occlusion_lossless);
  g_test_add_func ("/ui/viewport/shell-layers-bounded", test_shell_layers_bounded);

  return g_test_run ();
}
