/* bl-panel-job.h: one panel-method estimate of a link's added mass, solved
 * in a thread and reported on the main context: the surface as soon as it
 * is cut (to draw it while it is solved), the fraction done, the result. */
#pragma once

#include <gio/gio.h>

#include "bl-link-panel.h"
#include "bl-model.h"
#include "bl-panel.h"

G_BEGIN_DECLS

#define BL_TYPE_PANEL_JOB (bl_panel_job_get_type ())
G_DECLARE_FINAL_TYPE (BlPanelJob, bl_panel_job, BL, PANEL_JOB, GObject)

/* Starts at once.  NULL with `error` when the link cannot be panelled
 * (bl_link_panel_new: no volume, an open mesh…).  Signals, on the
 * context that was the thread default here:
 *   ::surface-ready  the fine surface is cut (bl_panel_job_get_surface)
 *   ::finished       solved, failed or cancelled (bl_panel_job_get_estimate)
 * and notify::fraction as it goes (0…1). */
BlPanelJob            *bl_panel_job_new          (BlLink            *link,
                                                  gsize              budget,
                                                  double             rho,
                                                  GError           **error);
/* The result arrives as ::finished with G_IO_ERROR_CANCELLED. */
void                   bl_panel_job_cancel       (BlPanelJob        *self);
BlLink                *bl_panel_job_get_link     (BlPanelJob        *self);
gsize                  bl_panel_job_get_budget   (BlPanelJob        *self);
double                 bl_panel_job_get_fraction (BlPanelJob        *self);
gboolean               bl_panel_job_is_running   (BlPanelJob        *self);
/* NULL until ::surface-ready. */
const BlPanelSurface  *bl_panel_job_get_surface  (BlPanelJob        *self);
/* What bl_link_panel_new noted: collisions left out or turned (char*). */
GPtrArray             *bl_panel_job_get_notes    (BlPanelJob        *self);
/* After ::finished: the estimate (owned by the job), or NULL with
 * `error` set to why not. */
const BlPanelEstimate *bl_panel_job_get_estimate (BlPanelJob        *self,
                                                  GError           **error);

G_END_DECLS
