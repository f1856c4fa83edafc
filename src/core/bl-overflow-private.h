/* bl-overflow-private.h: a link whose numbers overflow is reported, never shown as valid. */
#pragma once

#include "bl-model.h"

G_BEGIN_DECLS

/* Magnitudes beyond this are refused: a mass or volume this large already
 * makes its weight, buoyancy or spatial inertia overflow to infinity. */
#define BL_MAGNITUDE_LIMIT 1e300

/* After the link's mass properties were computed: when any of them is not
 * a finite number (a value overflowed to inf, or became NaN) or a mass or
 * volume exceeds BL_MAGNITUDE_LIMIT, appends an "overflow" error naming
 * the link and what overflowed, and marks the inertia invalid. */
void bl_link_check_overflow (BlLink *link);

G_END_DECLS
