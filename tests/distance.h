/* distance.h: the exact distance from a point to a triangle, for the tests. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The distance from P to the triangle ABC: the nearest of its face (where
 * P projects inside it), its three edges and corners; a degenerate
 * triangle counts as its edges. */
double point_triangle_distance (const double p[3],
                                const double a[3],
                                const double b[3],
                                const double c[3]);

G_END_DECLS
