/* bl-legend.h: the key to the 3D view's colours, shown in a corner of it. */
#pragma once

#include <gtk/gtk.h>

#include "bl-viewport.h"

G_BEGIN_DECLS

#define BL_TYPE_LEGEND (bl_legend_get_type ())
G_DECLARE_FINAL_TYPE (BlLegend, bl_legend, BL, LEGEND, GtkWidget)

/* One row per colour the viewport draws: the selection, the warning
 * colour, and each overlay while its toggle (a property of VIEWPORT of
 * the same name) is on, each with a swatch drawn in the renderer's own
 * colour (bl-renderer.h).  Row widgets are named "legend-" and the
 * toggle's property name ("legend-show-com"…), or "legend-selection",
 * "legend-warning". */
GtkWidget *bl_legend_new (BlViewport *viewport);

G_END_DECLS
