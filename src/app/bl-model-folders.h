/* bl-model-folders.h: the dialog that shows the user's model folders (the
 * model-paths setting: where model:// is searched and where models may
 * name files, docs/HARDENING.md) and lets the user add and remove them. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define BL_TYPE_MODEL_FOLDERS (bl_model_folders_get_type ())
G_DECLARE_FINAL_TYPE (BlModelFolders, bl_model_folders, BL, MODEL_FOLDERS, GtkWindow)

/* A new dialog, modal over PARENT, for the model-paths key of SETTINGS,
 * which it follows while it is open (a folder the problems bar allows
 * shows at once); with SETTINGS NULL (a window without the application,
 * or the schema not installed), the resolver's extra paths of this run
 * (bl_resource_dup_extra_paths).  Removing a folder takes it out of the
 * model paths: files opened or reloaded afterwards are refused there
 * again; adding one asks for the folder. */
GtkWidget *bl_model_folders_new (GtkWindow *parent,
                                 GSettings *settings);

G_END_DECLS
