/* bl-toast.h: a short notice over the bottom of the view that goes by
 * itself ("Exported “x-baked.sdf” to ~/robots"), with an optional button
 * that opens the folder it names.  (GTK 4.8 has no AdwToast.) */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define BL_TYPE_TOAST (bl_toast_get_type ())
G_DECLARE_FINAL_TYPE (BlToast, bl_toast, BL, TOAST, GtkWidget)

GtkWidget  *bl_toast_new            (void);
/* Shows `text` for `timeout_ms` (0: until closed), replacing the notice
 * on screen; with `folder`, an Open Folder button shows it in the file
 * manager. */
void        bl_toast_show           (BlToast    *self,
                                     const char *text,
                                     GFile      *folder,
                                     guint       timeout_ms);
void        bl_toast_dismiss        (BlToast    *self);
/* The notice's text while it is shown, else NULL. */
const char *bl_toast_get_text       (BlToast    *self);

G_END_DECLS
