/* torus.h: a closed, welded torus grid for the tests and the benchmarks. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The torus about z with radii R (of the centre circle) and r (of the
 * tube): NU × NV vertices (stride 3, vertex i·NV + j at u = 2πi/NU along
 * the centre circle and v = 2πj/NV around the tube, computed in double and
 * rounded to float) into POSITIONS, and for each grid square (i, j) with
 * corners 0 (i, j), 1 (i + 1, j), 2 (i + 1, j + 1), 3 (i, j + 1), indices
 * wrapping at the seams, the triangles (0 1 2) and (0 2 3), wound outward,
 * into INDICES: 2 NU NV triangles. */
void torus_mesh (double   R,
                 double   r,
                 guint    nu,
                 guint    nv,
                 GArray **positions,
                 GArray **indices);

/* The grid of about N_TRIANGLES triangles (at least 8 × 8) whose squares
 * are closest to square on the centre circle (NU / NV ≈ R / r). */
void torus_grid_for (double  R,
                     double  r,
                     guint   n_triangles,
                     guint  *nu,
                     guint  *nv);

G_END_DECLS
