/* bl-sdf-order-private.h: the spec's order of the children Ballast may
 * create (sdf/1.11 link.sdf, inertial.sdf, inertia in inertial.sdf,
 * collision.sdf), each list ending in NULL.  Edits place a new element by
 * it (bl-edit.c), other children keeping their places; an editable load
 * keeps a stand-in under its own name for each such child it leaves out
 * (bl-stream-load-lean.c), so that new elements land where they would. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

extern const char * const bl_sdf_link_order[];
extern const char * const bl_sdf_inertial_order[];
extern const char * const bl_sdf_inertia_order[];
extern const char * const bl_sdf_collision_order[];

G_END_DECLS
