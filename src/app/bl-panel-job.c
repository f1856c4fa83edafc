/* bl-panel-job.c: a panel-method estimate in a thread (see bl-panel-job.h). */
#include "config.h"

#include "bl-panel-job.h"

struct _BlPanelJob
{
  GObject          parent_instance;

  BlLink          *link;          /* identity only: never read off the main thread */
  BlLinkPanel     *panel;
  gsize            budget;
  double           rho;
  GCancellable    *cancellable;
  GMainContext    *context;

  BlPanelSurface  *fine;
  BlPanelSurface  *coarse;
  BlPanelEstimate  estimate;
  gboolean         has_estimate;
  GError          *error;
  gboolean         running;
  double           fraction;
  gint             reported;      /* last fraction sent, in thousandths (thread side) */
};

G_DEFINE_FINAL_TYPE (BlPanelJob, bl_panel_job, G_TYPE_OBJECT)

enum { PROP_0, PROP_FRACTION, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { SURFACE_READY, FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

typedef struct
{
  BlPanelJob *job;
  double      fraction;
} Progress;

/* Runs `func` on the job's context, in the thread that iterates it.  Not
 * g_main_context_invoke(): when no thread owns the context at that moment
 * (the main thread between two iterations), it runs the function at once
 * in the calling thread, here a solving thread: the window's widgets
 * would be touched from two threads. */
static void
post (GMainContext   *context,
      GSourceFunc     func,
      gpointer        data,
      GDestroyNotify  notify)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, notify);
  g_source_set_static_name (source, "[ballast] panel job");
  g_source_attach (source, context);
  g_source_unref (source);
}

static gboolean
report_progress (gpointer data)
{
  Progress *p = data;

  if (p->job->running && p->fraction > p->job->fraction)
    {
      p->job->fraction = p->fraction;
      g_object_notify_by_pspec (G_OBJECT (p->job), properties[PROP_FRACTION]);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;

  g_object_unref (p->job);
  g_free (p);
}

/* In the solving threads' coordinator: at most a thousand reports. */
static void
on_progress (double   fraction,
             gpointer data)
{
  BlPanelJob *self = data;
  gint thousandths = (gint) (fraction * 1000);
  Progress *p;

  if (thousandths < g_atomic_int_get (&self->reported) + 10 && fraction < 1.0)
    return;
  g_atomic_int_set (&self->reported, thousandths);
  p = g_new (Progress, 1);
  p->job = g_object_ref (self);
  p->fraction = fraction;
  post (self->context, report_progress, p, progress_free);
}

static gboolean
report_surface (gpointer data)
{
  BlPanelJob *self = data;

  if (self->running)
    g_signal_emit (self, signals[SURFACE_READY], 0);
  return G_SOURCE_REMOVE;
}

static void
solve (GTask        *task,
       gpointer      source,
       gpointer      task_data,
       GCancellable *cancellable)
{
  BlPanelJob *self = source;
  BlPanelBody *bodies = (BlPanelBody *) self->panel->bodies->data;
  gsize n = self->panel->bodies->len;
  GError *error = NULL;

  /* Cutting overlapping bodies can take a moment: here, not on the main
   * thread.  The surfaces are written before the main thread is told. */
  self->fine = bl_panel_surface_new (bodies, n, self->budget);
  self->coarse = bl_panel_surface_new (bodies, n, self->budget / 4);
  post (self->context, report_surface, g_object_ref (self), g_object_unref);
  if (bl_panel_estimate_surfaces (self->fine, self->coarse, self->rho, cancellable, on_progress, self,
                                  &self->estimate, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
on_solved (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  BlPanelJob *self = BL_PANEL_JOB (source);

  self->running = FALSE;
  self->has_estimate = g_task_propagate_boolean (G_TASK (result), &self->error);
  g_signal_emit (self, signals[FINISHED], 0);
}

BlPanelJob *
bl_panel_job_new (BlLink  *link,
                  gsize    budget,
                  double   rho,
                  GError **error)
{
  g_autoptr(BlLinkPanel) panel = bl_link_panel_new (link, error);
  g_autoptr(GTask) task = NULL;
  BlPanelJob *self;

  if (panel == NULL)
    return NULL;
  self = g_object_new (BL_TYPE_PANEL_JOB, NULL);
  self->link = link;
  self->panel = g_steal_pointer (&panel);
  self->budget = budget;
  self->rho = rho;
  self->running = TRUE;
  task = g_task_new (self, self->cancellable, on_solved, NULL);
  g_task_set_source_tag (task, bl_panel_job_new);
  g_task_run_in_thread (task, solve);
  return self;
}

void
bl_panel_job_cancel (BlPanelJob *self)
{
  g_return_if_fail (BL_IS_PANEL_JOB (self));
  g_cancellable_cancel (self->cancellable);
}

BlLink *
bl_panel_job_get_link (BlPanelJob *self)
{
  g_return_val_if_fail (BL_IS_PANEL_JOB (self), NULL);
  return self->link;
}

gsize
bl_panel_job_get_budget (BlPanelJob *self)
{
  g_return_val_if_fail (BL_IS_PANEL_JOB (self), 0);
  return self->budget;
}

double
bl_panel_job_get_fraction (BlPanelJob *self)
{
  g_return_val_if_fail (BL_IS_PANEL_JOB (self), 0.0);
  return self->fraction;
}

gboolean
bl_panel_job_is_running (BlPanelJob *self)
{
  g_return_val_if_fail (BL_IS_PANEL_JOB (self), FALSE);
  return self->running;
}

const BlPanelSurface *
bl_panel_job_get_surface (BlPanelJob *self)
{
  g_return_val_if_fail (BL_IS_PANEL_JOB (self), NULL);
  /* Written by the thread before ::surface-ready was queued. */
  return self->fine;
}

GPtrArray *
bl_panel_job_get_notes (BlPanelJob *self)
{
  g_return_val_if_fail (BL_IS_PANEL_JOB (self), NULL);
  return self->panel->notes;
}

const BlPanelEstimate *
bl_panel_job_get_estimate (BlPanelJob  *self,
                           GError     **error)
{
  g_return_val_if_fail (BL_IS_PANEL_JOB (self), NULL);

  if (self->has_estimate)
    return &self->estimate;
  if (self->error != NULL)
    g_propagate_error (error, g_error_copy (self->error));
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING, "The panel method is still solving");
  return NULL;
}

static void
bl_panel_job_finalize (GObject *object)
{
  BlPanelJob *self = BL_PANEL_JOB (object);

  /* The thread holds the task, the task the job: nothing runs now. */
  if (self->has_estimate)
    bl_panel_estimate_clear (&self->estimate);
  g_clear_pointer (&self->fine, bl_panel_surface_free);
  g_clear_pointer (&self->coarse, bl_panel_surface_free);
  g_clear_pointer (&self->panel, bl_link_panel_free);
  g_clear_error (&self->error);
  g_clear_object (&self->cancellable);
  g_main_context_unref (self->context);

  G_OBJECT_CLASS (bl_panel_job_parent_class)->finalize (object);
}

static void
bl_panel_job_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  BlPanelJob *self = BL_PANEL_JOB (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_panel_job_class_init (BlPanelJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = bl_panel_job_finalize;
  object_class->get_property = bl_panel_job_get_property;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SURFACE_READY] = g_signal_new ("surface-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
bl_panel_job_init (BlPanelJob *self)
{
  self->cancellable = g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
}
