/* bl-resolve.h: the mass properties of links and models, as libsdformat 15 resolves them. */
#pragma once

#include <glib.h>

#include "bl-inertial.h"
#include "bl-model.h"

G_BEGIN_DECLS

/* The model's mass properties in its own frame: every link's, nested
 * models' included, summed with the parallel-axis theorem. */
BlInertial    bl_model_compute_total         (BlModel     *model);

/* The inertial an automatic link would get from this link's collisions
 * (densities by the usual precedence, rescaled to a positive <mass> when
 * there is one), whatever the link's @auto says.  Changes nothing in the
 * link; FALSE with an error when no collision gives a valid inertia.  For
 * replacing an invalid explicit inertia. */
gboolean      bl_link_compute_auto_inertial  (BlLink      *link,
                                              BlInertial  *out,
                                              GError     **error);

G_END_DECLS
