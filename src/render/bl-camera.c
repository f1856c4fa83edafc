/* bl-camera.c: orbit, pan, zoom-to-pointer, fit and presets; rays for picking. */
#include "config.h"

#include <math.h>

#include "bl-camera.h"

#define PITCH_LIMIT (G_PI / 2.0)

void
bl_camera_init (BlCamera *camera)
{
  camera->target[0] = camera->target[1] = camera->target[2] = 0.0;
  camera->distance = 5.0;
  bl_camera_set_view (camera, BL_VIEW_ISO);
}

void
bl_camera_set_view (BlCamera        *camera,
                    BlViewDirection  direction)
{
  switch (direction)
    {
    case BL_VIEW_FRONT:
      camera->yaw = 0.0;
      camera->pitch = 0.0;
      break;
    case BL_VIEW_TOP:
      /* Seen from above with the eye "behind" the model: +x up the screen. */
      camera->yaw = G_PI;
      camera->pitch = PITCH_LIMIT;
      break;
    case BL_VIEW_SIDE:
      camera->yaw = -G_PI / 2.0;
      camera->pitch = 0.0;
      break;
    case BL_VIEW_ISO:
    default:
      camera->yaw = G_PI / 4.0;
      camera->pitch = atan (1.0 / sqrt (2.0));
      break;
    }
}

void
bl_camera_get_basis (const BlCamera *camera,
                     double          forward[3],
                     double          right[3],
                     double          up[3])
{
  double cy = cos (camera->yaw), sy = sin (camera->yaw);
  double cp = cos (camera->pitch), sp = sin (camera->pitch);

  /* The eye direction's derivative in pitch is the screen's up: it stays
   * defined straight above or below. */
  forward[0] = -cp * cy;
  forward[1] = -cp * sy;
  forward[2] = -sp;
  up[0] = -sp * cy;
  up[1] = -sp * sy;
  up[2] = cp;
  /* right = forward × up */
  right[0] = forward[1] * up[2] - forward[2] * up[1];
  right[1] = forward[2] * up[0] - forward[0] * up[2];
  right[2] = forward[0] * up[1] - forward[1] * up[0];
}

void
bl_camera_get_eye (const BlCamera *camera,
                   double          eye[3])
{
  double f[3], r[3], u[3];

  bl_camera_get_basis (camera, f, r, u);
  for (int k = 0; k < 3; k++)
    eye[k] = camera->target[k] - camera->distance * f[k];
}

void
bl_camera_get_view (const BlCamera *camera,
                    mat4            view)
{
  double f[3], r[3], u[3], eye[3];
  vec3 e, c, up;

  bl_camera_get_basis (camera, f, r, u);
  bl_camera_get_eye (camera, eye);
  for (int k = 0; k < 3; k++)
    {
      e[k] = (float) eye[k];
      c[k] = (float) camera->target[k];
      up[k] = (float) u[k];
    }
  glm_lookat (e, c, up, view);
}

void
bl_camera_get_projection (const BlCamera *camera,
                          int             width,
                          int             height,
                          double          scene_radius,
                          mat4            projection)
{
  double aspect = (double) MAX (width, 1) / MAX (height, 1);
  double d = camera->distance;
  double r = MAX (scene_radius, d);
  double near_z = MAX (d * 0.01, 1e-4);
  double far_z = d + 4.0 * r + 1.0;

  glm_perspective ((float) (BL_CAMERA_FOVY_DEGREES * G_PI / 180.0), (float) aspect,
                   (float) near_z, (float) far_z, projection);
}

void
bl_camera_orbit (BlCamera *camera,
                 double    dyaw,
                 double    dpitch)
{
  camera->yaw = fmod (camera->yaw + dyaw, 2.0 * G_PI);
  camera->pitch = CLAMP (camera->pitch + dpitch, -PITCH_LIMIT, PITCH_LIMIT);
}

/* World length of one pixel on the focal plane. */
static double
pixel_size (const BlCamera *camera,
            int             height)
{
  return 2.0 * camera->distance * tan (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0) / MAX (height, 1);
}

void
bl_camera_pan (BlCamera *camera,
               double    dx,
               double    dy,
               int       height)
{
  double f[3], r[3], u[3];
  double s = pixel_size (camera, height);

  bl_camera_get_basis (camera, f, r, u);
  for (int k = 0; k < 3; k++)
    camera->target[k] += s * (-dx * r[k] + dy * u[k]);
}

void
bl_camera_zoom_at (BlCamera *camera,
                   double    factor,
                   double    x,
                   double    y,
                   int       width,
                   int       height)
{
  double f[3], r[3], u[3];
  double s = pixel_size (camera, height);
  double ox = (x - 0.5 * width) * s, oy = (0.5 * height - y) * s;

  if (!(factor > 0.0))
    return;
  bl_camera_get_basis (camera, f, r, u);
  /* The pointed point p = target + ox r + oy u keeps its screen position
   * when the target moves by (1 − factor)(p − target). */
  for (int k = 0; k < 3; k++)
    camera->target[k] += (1.0 - factor) * (ox * r[k] + oy * u[k]);
  camera->distance *= factor;
}

void
bl_camera_fit_sphere (BlCamera     *camera,
                      const double  center[3],
                      double        radius,
                      int           width,
                      int           height)
{
  double half_v = BL_CAMERA_FOVY_DEGREES * G_PI / 360.0;
  double aspect = (double) MAX (width, 1) / MAX (height, 1);
  double half_h = atan (tan (half_v) * aspect);
  double half = MIN (half_v, half_h);

  if (!(radius > 0.0) || !isfinite (radius))
    radius = 1.0;
  for (int k = 0; k < 3; k++)
    camera->target[k] = center[k];
  camera->distance = radius / sin (half);
}

void
bl_camera_ray (const BlCamera *camera,
               double          x,
               double          y,
               int             width,
               int             height,
               double          origin[3],
               double          direction[3])
{
  double f[3], r[3], u[3], len = 0.0;
  double t = tan (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0);
  double aspect = (double) MAX (width, 1) / MAX (height, 1);
  double nx = 2.0 * x / MAX (width, 1) - 1.0;
  double ny = 1.0 - 2.0 * y / MAX (height, 1);

  bl_camera_get_basis (camera, f, r, u);
  bl_camera_get_eye (camera, origin);
  for (int k = 0; k < 3; k++)
    {
      direction[k] = f[k] + r[k] * nx * t * aspect + u[k] * ny * t;
      len += direction[k] * direction[k];
    }
  len = sqrt (len);
  for (int k = 0; k < 3; k++)
    direction[k] /= len;
}

gboolean
bl_camera_project (const BlCamera *camera,
                   const double    point[3],
                   int             width,
                   int             height,
                   double         *x,
                   double         *y)
{
  double f[3], r[3], u[3], eye[3], d[3];
  double t = tan (BL_CAMERA_FOVY_DEGREES * G_PI / 360.0);
  double aspect = (double) MAX (width, 1) / MAX (height, 1);
  double zf = 0, xr = 0, yu = 0;

  bl_camera_get_basis (camera, f, r, u);
  bl_camera_get_eye (camera, eye);
  for (int k = 0; k < 3; k++)
    {
      d[k] = point[k] - eye[k];
      zf += d[k] * f[k];
      xr += d[k] * r[k];
      yu += d[k] * u[k];
    }
  if (!(zf > 0.0))
    return FALSE;
  *x = 0.5 * width * (1.0 + xr / (zf * t * aspect));
  *y = 0.5 * height * (1.0 - yu / (zf * t));
  return TRUE;
}
