/* bl-added-mass-sources.h: proposals for a link's added mass from its collision
 * geometry and from simulator plugins in the document (no GTK). */
#pragma once

#include "bl-added-mass.h"
#include "bl-model.h"

G_BEGIN_DECLS

/* Sums the estimates of every collision of `link` at fluid density `rho`
 * into out (21 spec-order values about the link origin).  notes receives one
 * BlAddedMassFinding per collision ("estimate" id) saying the method and its
 * quality, or why it was skipped.  FALSE when no collision gave an estimate. */
gboolean bl_added_mass_propose_estimate (BlLink     *link,
                                         double      rho,
                                         double      out[21],
                                         GPtrArray  *notes);

/* Looks for a gz-sim Hydrodynamics, dsros_hydro or uuv_simulator plugin
 * about `link` in its model (or an enclosing one) and imports its added
 * mass.  FALSE (with a note) when there is none. */
gboolean bl_added_mass_propose_import   (BlLink     *link,
                                         double      out[21],
                                         GPtrArray  *notes);

G_END_DECLS
