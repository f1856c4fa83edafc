/* bl-added-mass-editor.h: the selected link's 6×6 fluid added mass: 21 editable
 * cells, eigenvalues and checks, estimates and imports shown before applying. */
#pragma once

#include <gtk/gtk.h>

#include "bl-document.h"

G_BEGIN_DECLS

#define BL_TYPE_ADDED_MASS_EDITOR (bl_added_mass_editor_get_type ())
G_DECLARE_FINAL_TYPE (BlAddedMassEditor, bl_added_mass_editor, BL, ADDED_MASS_EDITOR, GtkWidget)

GtkWidget *bl_added_mass_editor_new              (void);
void       bl_added_mass_editor_set_document     (BlAddedMassEditor *self,
                                                  BlDocument        *document);
/* The link shown, or NULL; property "link" (a pointer), which the window
 * binds to the outline's "selected-link". */
void       bl_added_mass_editor_set_link         (BlAddedMassEditor *self,
                                                  BlLink            *link);
BlLink    *bl_added_mass_editor_get_link         (BlAddedMassEditor *self);
/* Fluid density for estimates, kg/m³ (> 0). */
double     bl_added_mass_editor_get_fluid_density (BlAddedMassEditor *self);
void       bl_added_mass_editor_set_fluid_density (BlAddedMassEditor *self,
                                                   double             density);
/* A line under the fluid density saying where it comes from; NULL hides
 * it (bl_inspector_set_fluid_note). */
void       bl_added_mass_editor_set_fluid_note    (BlAddedMassEditor *self,
                                                   const char        *note);
/* The entry of cell (row, col), 0…5 each; the lower triangle mirrors. */
GtkWidget *bl_added_mass_editor_get_cell         (BlAddedMassEditor *self,
                                                  guint              row,
                                                  guint              col);

G_END_DECLS
