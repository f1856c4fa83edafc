/* bl-window.h: a Ballast document window: outline, viewport, inspector, files. */
#pragma once

#include <gtk/gtk.h>

#include "bl-document.h"
#include "bl-edit.h"
#include "bl-recovery.h"

G_BEGIN_DECLS

#define BL_TYPE_WINDOW (bl_window_get_type ())
G_DECLARE_FINAL_TYPE (BlWindow, bl_window, BL, WINDOW, GtkApplicationWindow)

/* Property "fluid-density" (double, kg/m³; BL_FLUID_DENSITY_MIN to _MAX):
 * the fluid around the model, kept in the settings; the viewport, the
 * inspector and the Added Mass page are bound to it.
 * application may be NULL (tests). */
BlWindow   *bl_window_new            (GtkApplication *application);

/* Replaces the document without asking; on error the window is unchanged. */
gboolean    bl_window_load_file      (BlWindow       *self,
                                      GFile          *file,
                                      GError        **error);
void        bl_window_load_sample    (BlWindow       *self);
/* Reads the file in a worker thread while the window stays responsive and
 * shows "Opening FILE…"; the document is swapped in on the main thread
 * before `callback` runs.  On error the window keeps its document.  Any
 * later load (this, bl_window_load_file, bl_window_load_sample) or closing
 * the window supersedes it: finish then fails with G_IO_ERROR_CANCELLED and
 * the document is not replaced; so does Cancel when the window asks about
 * edits made while the file loaded.  The window's BlSession does the
 * reading (bl_session_load_async). */
void        bl_window_load_file_async  (BlWindow            *self,
                                        GFile               *file,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean    bl_window_load_file_finish (BlWindow            *self,
                                        GAsyncResult        *result,
                                        GError             **error);
/* Says in a dialog over the window that FILE could not be opened, and
 * why (ERROR's message): "Could not open “/path/to/model.sdf”".  A file of
 * more links than the setting "window-max-links" lets the window open
 * (bl_document_error_is_past_bound) is a question instead, whose "Open
 * Anyway" opens it (bl_window_open) without that bound. */
void        bl_window_show_open_error  (BlWindow            *self,
                                        GFile               *file,
                                        const GError        *error);
/* Whether a file is being opened in the background, and which. */
gboolean    bl_window_get_loading      (BlWindow            *self);
GFile      *bl_window_get_loading_file (BlWindow            *self);
/* Asks first when there are unsaved edits, then loads in the background;
 * errors are shown in a dialog. */
void        bl_window_open           (BlWindow       *self,
                                      GFile          *file);

BlDocument *bl_window_get_document   (BlWindow       *self);
/* NULL for the built-in sample. */
GFile      *bl_window_get_file       (BlWindow       *self);
gboolean    bl_window_get_modified   (BlWindow       *self);
/* Whether a save or an export is being written in a worker thread. */
gboolean    bl_window_get_saving     (BlWindow       *self);
void        bl_window_select_link    (BlWindow       *self,
                                      BlLink         *link);
/* Applies the edit through the window's undo history, as one step. */
gboolean    bl_window_do_edit        (BlWindow       *self,
                                      BlEdit         *edit,
                                      GError        **error);
/* Opens a recovery copy as unsaved edits to the file it was made from
 * (the built-in sample when it names none), then deletes the copy. */
gboolean    bl_window_restore        (BlWindow       *self,
                                      BlRecovery     *recovery,
                                      GError        **error);
/* Whether the viewport is still preparing big meshes (their clusters and
 * levels of detail, in a thread): a screenshot waits until it is not. */
gboolean    bl_window_get_view_settling (BlWindow    *self);

/* Whether files opened and saved go into the recent files (by default;
 * not for a one-shot --screenshot). */
void        bl_window_set_remember_recent (BlWindow  *self,
                                           gboolean   remember);

/* Renders the window as it is now into a PNG. */
gboolean    bl_window_save_screenshot (BlWindow      *self,
                                       const char    *path,
                                       GError       **error);

G_END_DECLS
