/* torus.h: a closed, welded torus grid for the tests and the benchmarks, and binary STL files of triangle soups. */
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

/* The same torus as a triangle soup, three corners of three floats per
 * triangle (for binary STL files); the seams' corners are the same
 * floats, so the surface welds closed. */
GArray *torus_triangles (double R,
                         double r,
                         guint  nu,
                         guint  nv);

/* An open triangle soup: N_TRIANGLES small triangles (corners within 0.1
 * of a centre) scattered in the unit cube by a linear congruential
 * generator from SEED, nine floats per triangle as for write_stl.  It
 * encloses no volume: the core leaves it out of the displaced volume. */
GArray *soup_triangles  (guint    n_triangles,
                         guint32  seed);

/* Binary STL of N_TRIANGLES triangles (nine floats each, counter-clockwise
 * seen from outside) at PATH; aborts when it cannot be written. */
void    write_stl       (const char  *path,
                         const float *triangles,
                         guint32      n_triangles);

/* The grid of about N_TRIANGLES triangles (at least 8 × 8) whose squares
 * are closest to square on the centre circle (NU / NV ≈ R / r). */
void torus_grid_for (double  R,
                     double  r,
                     guint   n_triangles,
                     guint  *nu,
                     guint  *nv);

G_END_DECLS
