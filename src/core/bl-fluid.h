/* bl-fluid.h: a document's fluid side — world gravity and physics engine
 * and buoyancy per link and per model (bl-fluid.c); it includes the
 * imports from simulator plugins (bl-fluid-import.h) and the added-mass
 * estimates per link (bl-fluid-estimate.h).  The checks A7, A8 and
 * gz-buoyancy that the document runs are bl-fluid-check-private.h's.
 *
 * The display-free algebra is in bl-added-mass.h; these files tie it to
 * the document's links and XML.  shared/reference/added-mass.md has the physics. */
#pragma once

#include "bl-added-mass.h"
#include "bl-document.h"
#include "bl-fluid-estimate.h"
#include "bl-fluid-import.h"
#include "bl-fluid-world.h"

G_BEGIN_DECLS

/* Standard gravity, m/s², for a file without a <world>. */
#define BL_STANDARD_GRAVITY 9.80665

/* The gravity vector in world axes: the world's <gravity>; the SDF default
 * (0, 0, −9.8) in a <world> without one; standard gravity (0, 0, −9.80665)
 * in a file without a <world>.  line (nullable) receives the line of
 * <gravity>, or 0. */
BlVec3        bl_fluid_get_gravity            (BlDocument  *self,
                                               int         *line);

/* The physics engine gz-sim would run the world with: the gz-sim Physics
 * system's <engine><filename> ("dartsim" when the system is present
 * without one; gz-sim ignores <physics type> then), else the world's
 * <physics type> when it names an engine.  NULL without a <world> or when
 * nothing names an engine.  line (nullable) receives where it was read. */
char         *bl_fluid_dup_physics_engine     (BlDocument  *self,
                                               int         *line);

/* TRUE (and density set) when the world's Buoyancy system names a fluid
 * density (UNIFORM, GZ_DEFAULT, GRADED).  Free out with
 * bl_world_fluid_clear(). */
gboolean      bl_fluid_get_world_fluid        (BlDocument   *self,
                                               BlWorldFluid *out);

/* ---- Buoyancy (§7) -------------------------------------------------------- */

/* The fully submerged link in fluid density rho, in link axes, with
 * gravity given in world axes. */
void          bl_link_compute_buoyancy        (BlLink      *link,
                                               double       rho,
                                               BlVec3       gravity_world,
                                               BlBuoyancy  *out);
/* The same for a model in its own frame: every link, nested models'
 * included; TOTAL is the model's bl_model_compute_total(). */
void          bl_model_compute_buoyancy       (BlModel     *model,
                                               const BlInertial *total,
                                               double       rho,
                                               BlVec3       gravity_world,
                                               BlBuoyancy  *out);

G_END_DECLS
