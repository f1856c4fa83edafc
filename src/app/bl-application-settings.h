/* bl-application-settings.h: the application's settings, for the
 * application and its windows alike. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_APPLICATION_ID "app.ballast.Ballast"

/* A new GSettings for app.ballast.Ballast, or NULL when the schema is not
 * installed (running from the build tree). */
GSettings *bl_application_settings_new (void);

G_END_DECLS
