/* bl-application.h: the Ballast GtkApplication: windows, settings, app actions. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define BL_APPLICATION_ID "app.ballast.Ballast"

#define BL_TYPE_APPLICATION (bl_application_get_type ())
G_DECLARE_FINAL_TYPE (BlApplication, bl_application, BL, APPLICATION, GtkApplication)

BlApplication *bl_application_new          (void);
/* A new GSettings for app.ballast.Ballast, or NULL when the schema is not
 * installed (running from the build tree). */
GSettings     *bl_application_settings_new (void);
/* TRUE when a --screenshot run could not open its file or write the image. */
gboolean       bl_application_get_failed   (BlApplication *self);

G_END_DECLS
