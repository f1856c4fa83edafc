/* bl-inspector.h: the selected link's mass properties, inertial settings,
 * collision densities and diagnostics. */
#pragma once

#include <gtk/gtk.h>

#include "bl-document.h"

G_BEGIN_DECLS

#define BL_TYPE_INSPECTOR (bl_inspector_get_type ())
G_DECLARE_FINAL_TYPE (BlInspector, bl_inspector, BL, INSPECTOR, GtkWidget)

GtkWidget  *bl_inspector_new          (void);
void        bl_inspector_set_document (BlInspector *self,
                                       BlDocument  *document);
/* The link shown, or NULL; property "link" (a pointer), which the window
 * binds to the outline's "selected-link". */
void        bl_inspector_set_link     (BlInspector *self,
                                       BlLink      *link);
BlLink     *bl_inspector_get_link     (BlInspector *self);
/* Shows the model's totals and buoyancy instead of a link; NULL leaves
 * the model page.  Property "model" (a pointer), bound to the outline's
 * "selected-model"; "link" and "model" are never both set. */
void        bl_inspector_set_model    (BlInspector *self,
                                       BlModel     *model);
BlModel    *bl_inspector_get_model    (BlInspector *self);
/* Fluid density for buoyancy, kg/m³ (> 0); the fluid-density property. */
double      bl_inspector_get_fluid_density (BlInspector *self);
void        bl_inspector_set_fluid_density (BlInspector *self,
                                            double       density);
/* A line under the fluid density saying where it comes from (the world's
 * Buoyancy system); NULL hides it. */
void        bl_inspector_set_fluid_note    (BlInspector *self,
                                            const char  *note);

G_END_DECLS
