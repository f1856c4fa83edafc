/* bl-resolve-private.h: the computation the loader runs on each link it reads. */
#pragma once

#include "bl-resolve.h"

G_BEGIN_DECLS

/* Computes link->props from the parsed values, appending its diagnostics
 * to link->diagnostics.  The document calls it after reading a link and
 * after every reload of one. */
void bl_link_compute_mass_properties (BlLink *link);

G_END_DECLS
