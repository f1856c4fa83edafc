/* bl-application.h: the Ballast GtkApplication: windows, settings, app actions. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define BL_APPLICATION_ID "app.ballast.Ballast"

/* The answers of the dialog that offers a recovery copy after a crash;
 * closing it asks again at the next start. */
enum {
  BL_RECOVERY_RESPONSE_DISCARD = 1,
  BL_RECOVERY_RESPONSE_RESTORE = 2,
};

#define BL_TYPE_APPLICATION (bl_application_get_type ())
G_DECLARE_FINAL_TYPE (BlApplication, bl_application, BL, APPLICATION, GtkApplication)

BlApplication *bl_application_new          (void);
/* A new GSettings for app.ballast.Ballast, or NULL when the schema is not
 * installed (running from the build tree). */
GSettings     *bl_application_settings_new (void);
/* Follows the desktop's colour scheme (the settings portal's
 * org.freedesktop.appearance color-scheme): 1 dark, 2 light, 0 (no
 * preference) the gtk-application-prefer-dark-theme the user had. */
void           bl_application_apply_color_scheme (guint32 scheme);
/* TRUE when a --screenshot run could not open its file or write the image. */
gboolean       bl_application_get_failed   (BlApplication *self);

G_END_DECLS
