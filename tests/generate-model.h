/* generate-model.h: SDF worlds that carry what real ones carry, for the
 * scaling test and the benchmarks. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes into DIR a world of N_LINKS links and returns the path of its
 * top file (newly allocated).  The world is cut into units of about
 * LINKS_PER_MODEL links (at least 20; N_LINKS for one big model); each
 * unit is
 *
 *  - a model "m<u>" whose links stand on a chain of five frames (each
 *    <pose relative_to> the one before), every third link with automatic
 *    inertia and <fluid_added_mass>, every third with an explicit
 *    <inertial> and <fluid_added_mass>, the others automatic with a box
 *    and a cylinder, every tenth of those a mesh collision on the one
 *    shared "mesh.stl" (a tetrahedron, scaled); a Hydrodynamics plugin
 *    naming its first link; a nested model "nested" with a tenth of the
 *    unit's links;
 *  - an <include> of "part.sdf" (ten links, added mass on a third, its own
 *    Hydrodynamics plugin) named "part<u>".
 *
 * The world has the Physics system (dartsim) and the Buoyancy system
 * (uniform density 1000).  "m0::link_3" is a link of the top file with
 * automatic inertia, added mass and a box collision with a density, for
 * edits.  Every unit has at least 20 links, and the world exactly
 * N_LINKS (at least 20).  DIR also receives "part.sdf" and "mesh.stl". */
char  *generate_world          (const char *dir,
                                guint       n_links,
                                guint       links_per_model);

G_END_DECLS
