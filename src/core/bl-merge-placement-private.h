/* bl-merge-placement-private.h: the placement frame of an
 * <include merge="true"> into a <world>. */
#pragma once

#include "bl-model.h"

G_BEGIN_DECLS

/* Models [first, models->len) of `models` were merged into a world from
 * one include, placed through its proxy frame at `proxy` (world frame).
 * Finds the placement frame `frame` among them ("M" a merged model, or
 * "M::…::L" a nested model or a link of one) and moves them all so that
 * the frame lands where `proxy` was: the proxy goes to
 * proxy · X_proxy,Pf⁻¹, as libsdformat's merge resolves the included
 * model's pose with its placement frame.  FALSE, nothing moved, when no
 * merged model, nested model or link is called that (a frame or joint of
 * the included model: Ballast does not read those in a world merge). */
gboolean bl_merge_placement_apply (GPtrArray  *models,
                                   guint       first,
                                   BlPose      proxy,
                                   const char *frame);

G_END_DECLS
