/* bl-application-settings.h: the application's settings, for the
 * application and its windows alike. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define BL_APPLICATION_ID "app.ballast.Ballast"

/* A new GSettings for app.ballast.Ballast, or NULL when the schema is not
 * installed (running from the build tree). */
GSettings *bl_application_settings_new (void);

/* The model-paths key of SETTINGS (the user's model folders, which
 * ballast-cli reads too): add appends FOLDER unless it is there, remove
 * takes it out; each returns whether it changed the key.  Whoever follows
 * the key (the application, into the resolver) hears the change. */
gboolean   bl_application_settings_add_model_path    (GSettings  *settings,
                                                      const char *folder);
gboolean   bl_application_settings_remove_model_path (GSettings  *settings,
                                                      const char *folder);

G_END_DECLS
