/* bl-camera.h: the viewport's orbit camera (cglm, single precision) and its picking rays (double). */
#pragma once

#include <glib.h>
#include <cglm/cglm.h>

G_BEGIN_DECLS

/* Preset directions, z up (SDF):
 * FRONT looks from +x towards −x (the robot's face; +y to the right),
 * TOP looks down from +z with +x up the screen and +y to the left,
 * SIDE looks from −y towards +y (+x to the right),
 * ISO looks from (+1, +1, +1). */
typedef enum
{
  BL_VIEW_FRONT,
  BL_VIEW_TOP,
  BL_VIEW_SIDE,
  BL_VIEW_ISO,
} BlViewDirection;

#define BL_CAMERA_FOVY_DEGREES 40.0

/* The eye orbits `target` at `distance`: its direction from the target is
 * (cos pitch cos yaw, cos pitch sin yaw, sin pitch); pitch is clamped to
 * ±90°.  Vertical field of view BL_CAMERA_FOVY_DEGREES, perspective. */
typedef struct
{
  double target[3];
  double distance;
  double yaw;
  double pitch;
} BlCamera;

void     bl_camera_init            (BlCamera        *camera);
void     bl_camera_set_view        (BlCamera        *camera,
                                    BlViewDirection  direction);
/* Unit vectors in world axes: from the eye towards the target, the
 * screen's right and up. */
void     bl_camera_get_basis       (const BlCamera  *camera,
                                    double           forward[3],
                                    double           right[3],
                                    double           up[3]);
void     bl_camera_get_eye         (const BlCamera  *camera,
                                    double           eye[3]);
void     bl_camera_get_view        (const BlCamera  *camera,
                                    mat4             view);
/* Perspective for a WIDTH×HEIGHT viewport; the clip planes follow the
 * distance and the scene's bounding sphere radius. */
void     bl_camera_get_projection  (const BlCamera  *camera,
                                    int              width,
                                    int              height,
                                    double           scene_radius,
                                    mat4             projection);

/* Orbit by angles in radians (yaw about world z, pitch up). */
void     bl_camera_orbit           (BlCamera        *camera,
                                    double           dyaw,
                                    double           dpitch);
/* Moves the target so the scene follows a pointer that moved by dx, dy
 * pixels (y down) in a viewport HEIGHT pixels high. */
void     bl_camera_pan             (BlCamera        *camera,
                                    double           dx,
                                    double           dy,
                                    int              height);
/* Multiplies the distance by FACTOR (< 1 zooms in) keeping the point of the
 * focal plane under the pointer (x, y) where it is on screen. */
void     bl_camera_zoom_at         (BlCamera        *camera,
                                    double           factor,
                                    double           x,
                                    double           y,
                                    int              width,
                                    int              height);
/* Aims at CENTER from the current direction, at the distance where a
 * sphere of RADIUS fills the smaller field of view. */
void     bl_camera_fit_sphere      (BlCamera        *camera,
                                    const double     center[3],
                                    double           radius,
                                    int              width,
                                    int              height);
/* The ray from the eye through pixel (x, y) (widget coordinates, y down,
 * pixel centres at +0.5): origin is the eye, direction is unit. */
void     bl_camera_ray             (const BlCamera  *camera,
                                    double           x,
                                    double           y,
                                    int              width,
                                    int              height,
                                    double           origin[3],
                                    double           direction[3]);
/* Where a world point lands in widget coordinates (y down); FALSE when it
 * is behind the eye. */
gboolean bl_camera_project         (const BlCamera  *camera,
                                    const double     point[3],
                                    int              width,
                                    int              height,
                                    double          *x,
                                    double          *y);

G_END_DECLS
