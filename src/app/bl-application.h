/* bl-application.h: the Ballast GtkApplication: windows, settings, app actions. */
#pragma once

#include <gtk/gtk.h>

#include "bl-application-settings.h"

G_BEGIN_DECLS

/* The answers of the dialog that offers a recovery copy after a crash;
 * closing it asks again at the next start. */
enum {
  BL_RECOVERY_RESPONSE_DISCARD = 1,
  BL_RECOVERY_RESPONSE_RESTORE = 2,
};

#define BL_TYPE_APPLICATION (bl_application_get_type ())
G_DECLARE_FINAL_TYPE (BlApplication, bl_application, BL, APPLICATION, GtkApplication)

BlApplication *bl_application_new          (void);
/* Follows the desktop's colour scheme (the settings portal's
 * org.freedesktop.appearance color-scheme): 1 dark, 2 light, 0 (no
 * preference) the gtk-application-prefer-dark-theme the user had. */
void           bl_application_apply_color_scheme (guint32 scheme);
/* Adds FOLDER to the user's model paths (the model-paths setting, which
 * ballast-cli reads too), unless it is there, and makes it the core's at
 * once: a document loaded (or reloaded) afterwards finds the models in it.
 * Without the installed schema it lasts for this run only. Returns whether
 * it added it. For the window's offer to fix a failed <include>
 * (bl_document_get_include_failures), which activates it as the
 * application's action "add-model-path" (a string). */
gboolean       bl_application_add_model_path (BlApplication *self,
                                              const char    *folder);
/* TRUE when a --screenshot run could not open its file or write the image. */
gboolean       bl_application_get_failed   (BlApplication *self);

G_END_DECLS
