/* bl-added-mass-sources.h: a link's added-mass proposals from the core's
 * estimates and plugin imports, with notes for the user (no GTK). */
#pragma once

#include "bl-added-mass.h"
#include "bl-document.h"
#include "bl-fluid.h"
#include "bl-panel.h"

G_BEGIN_DECLS

/* The sum of the estimates of every collision of `link` at fluid density
 * `rho` (bl_link_estimate_added_mass), into out (21 spec-order values about
 * the link origin).  notes (nullable) receives one BlAddedMassFinding per
 * collision saying the method and its quality, or why it was skipped.
 * FALSE when no collision gave an estimate. */
gboolean bl_added_mass_propose_estimate (BlLink     *link,
                                         double      rho,
                                         double      out[21],
                                         GPtrArray  *notes);

/* What a panel-method estimate tells the user (into notes, as
 * BlAddedMassFinding*): panels and error estimate, how the surface was
 * made (bl_panel_estimate_findings), and `link_notes` (char*,
 * bl_link_panel_new's). */
void     bl_added_mass_panel_findings   (const BlPanelEstimate *estimate,
                                         GPtrArray             *link_notes,
                                         GPtrArray             *notes);

/* The first plugin of the document that carries added mass for `link`
 * (bl_fluid_find_added_mass_imports), converted into out (rounding
 * noise cleaned, as applying writes it).  notes receives what the
 * conversion did and what applying can do about the plugin (turn its terms
 * off, or why not), or why there is nothing to import.  Returns the import
 * (free with bl_added_mass_import_free; bl_added_mass_import_create_edit
 * applies it), or NULL when there is nothing to import. */
BlAddedMassImport *bl_added_mass_propose_import (BlDocument *document,
                                                 BlLink     *link,
                                                 double      out[21],
                                                 GPtrArray  *notes);

G_END_DECLS
