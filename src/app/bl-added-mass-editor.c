/* bl-added-mass-editor.c: the selected link's 6×6 fluid added mass: 21 editable
 * cells, eigenvalues and checks, estimates and imports shown before applying. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-added-mass-editor.h"
#include "bl-display-name.h"
#include "bl-diagnostic-row.h"
#include "bl-added-mass-sources.h"
#include "bl-edit.h"
#include "bl-fluid.h"
#include "bl-field.h"
#include "bl-number.h"
#include "bl-number-field.h"
#include "bl-panel-job.h"

static const char * const axis_names[6] = { "x", "y", "z", "p", "q", "r" };

struct _BlAddedMassEditor
{
  GtkWidget      parent_instance;

  GtkStack      *stack;
  GtkScrolledWindow *scroller;
  GtkLabel      *title_label;
  GtkLabel      *status_label;
  GtkGrid       *matrix_grid;
  GtkLabel      *cell_error;
  GtkGrid       *eigen_grid;
  GtkBox        *checks_box;
  BlNumberField *fluid_field;
  GtkLabel      *fluid_error;
  GtkLabel      *fluid_note;    /* where the density comes from */
  GtkButton     *estimate_button;
  GtkButton     *import_button;
  GtkLabel      *sources_read_only_label;
  GtkRevealer   *proposal_revealer;
  GtkLabel      *proposal_title;
  GtkGrid       *proposal_grid;
  GtkBox        *proposal_notes;
  GtkButton     *apply_button;
  GtkButton     *migrate_button;
  GtkDropDown   *method_dropdown;
  GtkBox        *progress_box;
  GtkProgressBar *progress_bar;
  GtkButton     *cancel_button;
  GtkBox        *potential_box;
  GtkDropDown   *potential_dropdown;

  GtkWidget     *cells[6][6];
  GtkLabel      *proposal_cells[6][6];
  GtkLabel      *eigen_values[2][6];
  GtkLabel      *eigen_status[2];

  BlDocument    *document;
  GSignalGroup  *document_signals;   /* the document's ::link-changed */
  BlLink        *link;
  double         proposal[21];
  gboolean       has_proposal;
  guint          scroll_tick;   /* scrolls an opened proposal into view */
  gboolean       proposal_is_import;
  BlPanelJob    *job;           /* the panel method's, running or its result shown */
  gboolean       updating;
};

G_DEFINE_FINAL_TYPE (BlAddedMassEditor, bl_added_mass_editor, GTK_TYPE_WIDGET)

enum {
  EDIT,
  SHOW_PANELS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_FLUID_DENSITY,
  PROP_LINK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
block_class (guint row,
             guint col)
{
  if (row < 3 && col < 3)
    return "bl-block-translation";
  if (row >= 3 && col >= 3)
    return "bl-block-rotation";
  return "bl-block-coupling";
}

static const char *
block_unit (guint row,
            guint col)
{
  if (row < 3 && col < 3)
    return "kg";
  if (row >= 3 && col >= 3)
    return "kg·m²";
  return "kg·m";
}

static void
current_values (BlAddedMassEditor *self,
                double             values[21])
{
  for (guint k = 0; k < 21; k++)
    values[k] = self->link->has_added_mass ? self->link->added_mass[k] : 0.0;
}

static guint
key_of (guint row,
        guint col)
{
  for (guint k = 0; k < 21; k++)
    {
      guint r, c;

      bl_added_mass_index (k, &r, &c);
      if ((r == row && c == col) || (r == col && c == row))
        return k;
    }
  g_assert_not_reached ();
  return 0;
}

static void
set_magnitude_class (GtkWidget *widget,
                     double     value,
                     double     max_abs)
{
  static const char * const classes[] = { "bl-mag-0", "bl-mag-1", "bl-mag-2", "bl-mag-3", "bl-mag-4" };
  double ratio = max_abs > 0.0 ? fabs (value) / max_abs : 0.0;
  guint level;

  if (value == 0.0)
    level = 0;
  else if (ratio > 0.5)
    level = 4;
  else if (ratio > 0.1)
    level = 3;
  else if (ratio > 0.01)
    level = 2;
  else
    level = 1;

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      if (i == level)
        gtk_widget_add_css_class (widget, classes[i]);
      else
        gtk_widget_remove_css_class (widget, classes[i]);
    }
}

/* Estimate and Import lead to Apply, which a link of an included file
 * refuses: they say so before the user tries, below the buttons. */
static void
update_sources (BlAddedMassEditor *self,
                const char        *read_only_reason)
{
  gboolean running = self->job != NULL && bl_panel_job_is_running (self->job);

  gtk_widget_set_sensitive (GTK_WIDGET (self->estimate_button), read_only_reason == NULL && !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->import_button), read_only_reason == NULL);
  /* Set only when it changes: see update_matrix. */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->estimate_button)), read_only_reason) != 0)
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->estimate_button), read_only_reason);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->import_button), read_only_reason);
    }
  gtk_label_set_text (self->sources_read_only_label, read_only_reason != NULL ? read_only_reason : "");
  gtk_widget_set_visible (GTK_WIDGET (self->sources_read_only_label), read_only_reason != NULL);
}

/* The narrowest a cell is, in characters ("-1.23" and shorter). */
#define CELL_MIN_CHARS 5

/* Makes CELL as wide as its number, CELL_MIN_CHARS at least: a number
 * cut at the cell's edge reads as another number ("126.32473" for
 * 126.324739); the page scrolls sideways only when its numbers are long. */
static void
fit_cell (GtkWidget *cell)
{
  int chars = MAX (CELL_MIN_CHARS, (int) g_utf8_strlen (gtk_editable_get_text (GTK_EDITABLE (cell)), -1));

  gtk_editable_set_width_chars (GTK_EDITABLE (cell), chars);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (cell), chars);
}

static void
update_matrix (BlAddedMassEditor *self)
{
  double values[21];
  g_autofree char *reason = NULL;
  BlMat6 m;
  double max_abs;

  reason = bl_field_dup_read_only_reason (self->document, self->link);
  current_values (self, values);
  m = bl_mat6_from_values (values);
  max_abs = bl_mat6_max_abs (&m);

  for (guint r = 0; r < 6; r++)
    for (guint c = 0; c < 6; c++)
      {
        GtkWidget *cell = self->cells[r][c];
        g_autofree char *tooltip = NULL;

        bl_number_field_set_value (BL_NUMBER_FIELD (cell), m.m[r][c]);
        fit_cell (cell);
        set_magnitude_class (cell, m.m[r][c], max_abs);
        if (r <= c)
          gtk_editable_set_editable (GTK_EDITABLE (cell), reason == NULL);
        /* Translators: tooltip of an added-mass cell, e.g. "xq (kg·m)" */
        tooltip = g_strdup_printf (_("%s (%s)"), bl_added_mass_keys[key_of (r, c)], block_unit (r, c));
        if (reason != NULL)
          {
            char *both = g_strdup_printf ("%s\n%s", tooltip, reason);

            g_free (tooltip);
            tooltip = both;
          }
        bl_field_set_tooltip (cell, tooltip);
      }
  update_sources (self, reason);
  gtk_widget_set_visible (GTK_WIDGET (self->cell_error), FALSE);
}

/* The axes (x y z p q r) whose diagonal added mass is 0; of a positive
 * semi-definite matrix, their whole rows and columns are 0. */
static char *
zero_axes (const BlMat6 *a,
           gboolean     *rotational_only,
           guint        *n_rotational)
{
  GString *axes = g_string_new (NULL);

  *rotational_only = TRUE;
  *n_rotational = 0;
  for (guint i = 0; i < 6; i++)
    {
      if (a->m[i][i] != 0.0)
        continue;
      if (axes->len > 0)
        g_string_append_c (axes, ' ');
      g_string_append (axes, axis_names[i]);
      if (i < 3)
        *rotational_only = FALSE;
      else
        (*n_rotational)++;
    }
  return g_string_free (axes, FALSE);
}

/* What the eigenvalues of μ say: not red where a zero is exact (a link
 * without added mass, a sphere's rotations); red only for a negative
 * eigenvalue (A3). */
static char *
describe_added_mass (const BlAddedMassReport *report,
                     gboolean                 has_added_mass,
                     gboolean                *is_error)
{
  gboolean rotational_only;
  guint n_rotational;
  g_autofree char *axes = NULL;

  *is_error = FALSE;
  if (!has_added_mass)
    return g_strdup (_("no added mass"));
  if (!report->finite)
    {
      *is_error = TRUE;
      return g_strdup (_("not finite"));
    }
  if (!report->semidefinite)
    {
      *is_error = TRUE;
      return g_strdup (_("negative eigenvalue: not physical (A3)"));
    }
  if (bl_mat6_is_positive_definite (&report->added_mass, NULL))
    return g_strdup (_("positive definite"));

  axes = zero_axes (&report->added_mass, &rotational_only, &n_rotational);
  if (bl_mat6_max_abs (&report->added_mass) == 0.0)
    return g_strdup (_("all zero: no added mass"));
  if (rotational_only && n_rotational == 3)
    return g_strdup (_("positive semi-definite: rotational terms zero, exact for a sphere"));
  if (rotational_only && n_rotational > 0)
    /* Translators: %s lists rotation axes, e.g. "r" or "p q" */
    return g_strdup_printf (_("positive semi-definite: zero about %s, exact about the axis of a body of revolution"),
                            axes);
  if (*axes != '\0')
    /* Translators: %s lists axes, e.g. "x z" */
    return g_strdup_printf (_("positive semi-definite: no added mass along %s"), axes);
  return g_strdup (_("positive semi-definite (singular)"));
}

/* values: as the report has them; shown with rounding noise as 0 against
 * the largest, red when `red_below` is above them.  The status is red,
 * green, or, `neutral` (nothing to judge), dim. */
static void
set_eigen_row (BlAddedMassEditor *self,
               guint              row,
               const double       values[6],
               gboolean           available,
               double             red_below,
               const char        *status,
               gboolean           status_is_error,
               gboolean           neutral)
{
  static const char * const status_classes[] = { "error", "success", "dim-label", NULL };
  double shown[6];

  memcpy (shown, values, sizeof shown);
  if (available)
    bl_number_clean_noise (shown, 6, 0.0);
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *text = available ? g_strdup_printf ("%.4g", shown[i] + 0.0) : g_strdup ("—");

      gtk_label_set_text (self->eigen_values[row][i], text);
      bl_field_set_css_class (GTK_WIDGET (self->eigen_values[row][i]), status_classes,
                              available && values[i] < red_below ? "error" : NULL);
    }

  gtk_label_set_text (self->eigen_status[row], status);
  bl_field_set_css_class (GTK_WIDGET (self->eigen_status[row]), status_classes,
                          !available || neutral ? "dim-label" : status_is_error ? "error" : "success");
}

/* Shows a finding in ROW: "ID: MESSAGE" (ID nullable). */
static void
set_finding (GtkWidget  *row,
             BlSeverity  severity,
             const char *id,
             const char *message)
{
  g_autofree char *text = id != NULL ? g_strdup_printf ("%s: %s", id, message) : g_strdup (message);
  g_autofree char *markup = g_markup_escape_text (text, -1);

  bl_diagnostic_row_set (row, severity, markup, NULL);
}

static GtkWidget *
finding_row (BlSeverity  severity,
             const char *id,
             const char *message)
{
  GtkWidget *row = bl_diagnostic_row_new ();

  set_finding (row, severity, id, message);
  return row;
}

static void
clear_box (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}

/* Natural order of the codes: A2 before A10, the checks before the rest. */
static int
compare_diagnostics (gconstpointer a,
                     gconstpointer b)
{
  const BlDiagnostic *da = *(const BlDiagnostic * const *) a;
  const BlDiagnostic *db = *(const BlDiagnostic * const *) b;
  gboolean ca = da->code != NULL && da->code[0] == 'A' && g_ascii_isdigit (da->code[1]);
  gboolean cb = db->code != NULL && db->code[0] == 'A' && g_ascii_isdigit (db->code[1]);

  if (ca != cb)
    return ca ? -1 : 1;
  if (ca)
    return atoi (da->code + 1) - atoi (db->code + 1);
  return 0;
}

/* Every diagnostic of the link's <fluid_added_mass>: the checks A1–A10
 * (with A7, a plugin counting it twice, and A8, the engine) and what
 * reading its values found. */
static void
show_diagnostics (BlAddedMassEditor *self)
{
  g_autofree char *element = g_strconcat (self->link->scoped_name, "/inertial/fluid_added_mass", NULL);
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();
  GtkWidget *row;

  for (guint i = 0; i < self->link->diagnostics->len; i++)
    {
      const BlDiagnostic *d = g_ptr_array_index (self->link->diagnostics, i);

      if (d->element != NULL && g_str_has_prefix (d->element, element))
        g_ptr_array_add (shown, (gpointer) d);
    }
  g_ptr_array_sort (shown, compare_diagnostics);

  /* Rows are kept: an edit changes a number in a message. */
  row = bl_diagnostic_box_sync (self->checks_box, shown->len,
                                !self->link->has_added_mass ? _("No added mass on this link: nothing to check.")
                                                            : _("All checks pass"),
                                !self->link->has_added_mass ? "dim-label" : "success");
  for (guint i = 0; i < shown->len; i++, row = gtk_widget_get_next_sibling (row))
    {
      const BlDiagnostic *d = g_ptr_array_index (shown, i);

      set_finding (row, d->severity, d->code, d->message);
    }
}

static void
update_checks (BlAddedMassEditor *self)
{
  double values[21];
  BlInertial body = { 0 };
  gboolean with_body = self->link->props.resolved && self->link->props.mass > 0.0;
  g_autoptr(BlAddedMassReport) report = NULL;
  g_autofree char *status = NULL;
  gboolean status_error;

  current_values (self, values);
  body.mass = self->link->props.mass;
  body.com = self->link->props.com;
  body.inertia = self->link->props.inertia;
  report = bl_added_mass_check (values, with_body ? &body : NULL,
                                self->link->auto_inertia ? BL_ADDED_MASS_CHECK_AUTO : BL_ADDED_MASS_CHECK_NONE);

  status = describe_added_mass (report, self->link->has_added_mass, &status_error);
  /* red below A3's tolerance only: a zero eigenvalue is no error */
  set_eigen_row (self, 0, report->eigenvalues, report->finite,
                 -1e-9 * MAX (report->eigenvalues[5], 1.0), status, status_error,
                 !self->link->has_added_mass);
  set_eigen_row (self, 1, report->total_eigenvalues, report->finite && report->has_body,
                 report->total_positive_definite ? -G_MAXDOUBLE : G_MINDOUBLE,
                 !(report->finite && report->has_body) ? _("needs the link's mass")
                 : report->total_positive_definite ? _("positive definite")
                 : _("not positive definite: DART aborts (A4)"),
                 !report->total_positive_definite, FALSE);

  show_diagnostics (self);
}

static void
update_status (BlAddedMassEditor *self)
{
  if (!self->link->has_added_mass)
    gtk_label_set_text (self->status_label,
                        _("This link has no fluid added mass. Editing a cell or applying an estimate adds it (SDF 1.10)."));
  else if (self->link->auto_inertia)
    gtk_label_set_text (self->status_label,
                        _("Fluid added mass of a link with automatic inertia: libsdformat 15 ignores it (check A9)."));
  else
    gtk_label_set_text (self->status_label, _("Fluid added mass (SDF 1.10)."));
}

static void
update_all (BlAddedMassEditor *self)
{
  self->updating = TRUE;
  {
    g_autofree char *title = bl_display_name (self->link->name);

    gtk_label_set_text (self->title_label, title);
  }
  update_status (self);
  update_matrix (self);
  update_checks (self);
  self->updating = FALSE;
}

/* Edits ------------------------------------------------------------------ */

static void
submit_values (BlAddedMassEditor *self,
               const guint       *keys,
               const double      *values,
               guint              n)
{
  g_autoptr(BlEdit) edit = NULL;

  if (n == 1)
    edit = bl_edit_new_added_mass (self->document, self->link, keys[0], values[0]);
  else
    {
      edit = bl_edit_new_group (self->document, _("Set the added mass"));
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(BlEdit) one = bl_edit_new_added_mass (self->document, self->link, keys[i], values[i]);
          bl_edit_group_add (edit, one);
        }
    }
  g_signal_emit (self, signals[EDIT], 0, edit, FALSE);
}

/* A typed value, or Enter on the value shown, which adds the added mass
 * to a link even at the zero it shows (leaving an unchanged cell emits
 * nothing, so edits nothing). */
static void
on_cell_edit (BlNumberField     *cell,
              BlNumberFieldEdit  how,
              BlAddedMassEditor *self)
{
  double value = bl_number_field_get_value (cell);
  double current[21];
  guint key = 0;

  if (self->updating || self->link == NULL)
    return;
  for (guint r = 0; r < 6; r++)
    for (guint c = r; c < 6; c++)
      if (self->cells[r][c] == GTK_WIDGET (cell))
        key = key_of (r, c);
  current_values (self, current);
  if (self->link->has_added_mass && value == current[key])
    return;
  submit_values (self, &key, &value, 1);
}

static void
on_link_changed (BlDocument        *document,
                 BlLink            *link,
                 BlAddedMassEditor *self)
{
  if (link == self->link)
    update_all (self);
}

/* Proposals -------------------------------------------------------------- */

/* The proposal panel the user just opened is scrolled into view: all of
 * it when it fits, else its top.  Once a frame while the revealer slides
 * it open (the content grows), until it is open and in view. */
static gboolean
scroll_to_proposal (GtkWidget     *widget,
                    GdkFrameClock *clock,
                    gpointer       user_data)
{
  BlAddedMassEditor *self = BL_ADDED_MASS_EDITOR (widget);
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (self->scroller);
  GtkWidget *panel = gtk_revealer_get_child (self->proposal_revealer);
  graphene_rect_t bounds;
  double value = gtk_adjustment_get_value (vadj);
  double page = gtk_adjustment_get_page_size (vadj);
  double top, bottom, target;
  int height;

  if (!gtk_widget_compute_bounds (panel, GTK_WIDGET (self->scroller), &bounds))
    return G_SOURCE_CONTINUE;
  /* Where the panel ends once open, in the adjustment's units, with the
   * page's margin below it. */
  gtk_widget_measure (panel, GTK_ORIENTATION_VERTICAL, MAX (1, (int) bounds.size.width),
                      NULL, &height, NULL, NULL);
  top = value + bounds.origin.y;
  bottom = top + MAX (height, bounds.size.height)
           + gtk_widget_get_margin_bottom (gtk_widget_get_parent (GTK_WIDGET (self->proposal_revealer)));
  target = value;
  if (bottom > target + page)
    target = bottom - page;
  if (top < target)
    target = top;
  gtk_adjustment_set_value (vadj, target);
  if (gtk_revealer_get_child_revealed (self->proposal_revealer)
      && fabs (gtk_adjustment_get_value (vadj) - value) < 0.5)
    {
      self->scroll_tick = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
stop_scroll_to_proposal (BlAddedMassEditor *self)
{
  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->scroll_tick);
  self->scroll_tick = 0;
}

/* can_migrate: an import whose plugin's own added mass can be turned off
 * in the same step (BL_PLUGIN_ADDED_MASS_ACTIVE). */
static void
show_proposal (BlAddedMassEditor *self,
               const char        *title,
               gboolean           ok,
               gboolean           can_migrate,
               GPtrArray         *notes)
{
  double current[21];
  BlMat6 proposed = bl_mat6_from_values (self->proposal);
  BlMat6 now;

  current_values (self, current);
  /* The proposal's rounding noise is cleaned where it is made
   * (bl-added-mass-sources.c): what is shown is what Apply writes. */
  now = bl_mat6_from_values (current);
  self->has_proposal = ok;
  gtk_label_set_text (self->proposal_title, title);

  for (guint r = 0; r < 6; r++)
    for (guint c = 0; c < 6; c++)
      {
        GtkLabel *label = self->proposal_cells[r][c];
        char buf[BL_DOUBLE_BUF_SIZE];
        g_autofree char *markup = NULL;

        gtk_widget_set_visible (GTK_WIDGET (label), ok);
        if (!ok)
          continue;
        if (proposed.m[r][c] == now.m[r][c])
          markup = g_strdup_printf ("%.4g\n<span size=\"small\"> </span>", proposed.m[r][c]);
        else
          markup = g_strdup_printf ("<b>%.4g</b>\n<span alpha=\"55%%\" size=\"small\">%.4g</span>",
                                    proposed.m[r][c], now.m[r][c]);
        gtk_label_set_markup (label, markup);
        {
          g_autofree char *tooltip = g_strdup_printf (_("%s: proposed %s, current %.17g"),
                                                      bl_added_mass_keys[key_of (r, c)],
                                                      bl_number_format (proposed.m[r][c], buf),
                                                      now.m[r][c]);
          bl_field_set_tooltip (GTK_WIDGET (label), tooltip);
        }
      }

  clear_box (self->proposal_notes);
  if (ok)
    {
      GtkWidget *legend = gtk_label_new (_("Bold: proposed value, below it the current one."));

      gtk_label_set_xalign (GTK_LABEL (legend), 0.0);
      gtk_widget_add_css_class (legend, "dim-label");
      gtk_widget_add_css_class (legend, "caption");
      gtk_box_append (self->proposal_notes, legend);
    }
  for (guint i = 0; i < notes->len; i++)
    {
      const BlAddedMassFinding *f = g_ptr_array_index (notes, i);
      gtk_box_append (self->proposal_notes, finding_row (f->severity, NULL, f->message));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->apply_button), ok);
  gtk_widget_set_visible (GTK_WIDGET (self->migrate_button), ok && can_migrate);
  /* Where the plugin's terms can be turned off, that is the step to take. */
  if (ok && can_migrate)
    gtk_widget_remove_css_class (GTK_WIDGET (self->apply_button), "suggested-action");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->apply_button), "suggested-action");
  gtk_revealer_set_reveal_child (self->proposal_revealer, TRUE);
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_proposal, NULL, NULL);
}

/* Stops the panel method (if it runs) and takes its panels off the view. */
static void
drop_job (BlAddedMassEditor *self)
{
  if (self->job == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->job, self);
  bl_panel_job_cancel (self->job);
  g_clear_object (&self->job);
  gtk_widget_set_sensitive (GTK_WIDGET (self->estimate_button), TRUE);
  if (gtk_widget_has_focus (GTK_WIDGET (self->cancel_button)))
    gtk_widget_grab_focus (GTK_WIDGET (self->estimate_button));
  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->potential_box), FALSE);
  g_signal_emit (self, signals[SHOW_PANELS], 0, NULL, NULL, (guint64) 0, NULL);
}

static void
hide_proposal (BlAddedMassEditor *self)
{
  self->has_proposal = FALSE;
  stop_scroll_to_proposal (self);
  drop_job (self);
  gtk_revealer_set_reveal_child (self->proposal_revealer, FALSE);
}

/* The panels of the finished job coloured by the chosen mode's potential. */
static void
show_potential (BlAddedMassEditor *self)
{
  const BlPanelEstimate *estimate = bl_panel_job_get_estimate (self->job, NULL);
  const BlPanelSurface *surface = bl_panel_job_get_surface (self->job);
  guint mode = gtk_drop_down_get_selected (self->potential_dropdown);
  g_autofree double *values = NULL;

  if (estimate == NULL || mode >= 6)
    return;
  values = g_new (double, surface->n_panels);
  for (gsize i = 0; i < surface->n_panels; i++)
    values[i] = estimate->fine.potentials[6 * i + mode];
  g_signal_emit (self, signals[SHOW_PANELS], 0, bl_panel_job_get_link (self->job), surface->points,
                 (guint64) surface->n_panels, values);
}

static void
on_potential_selected (GtkDropDown       *dropdown,
                       GParamSpec        *pspec,
                       BlAddedMassEditor *self)
{
  if (self->job != NULL && !bl_panel_job_is_running (self->job))
    show_potential (self);
}

static void
on_job_surface (BlPanelJob        *job,
                BlAddedMassEditor *self)
{
  const BlPanelSurface *surface = bl_panel_job_get_surface (job);
  g_autofree char *text = g_strdup_printf (_("Solving on %zu panels…"), surface->n_panels);

  gtk_progress_bar_set_text (self->progress_bar, text);
  g_signal_emit (self, signals[SHOW_PANELS], 0, bl_panel_job_get_link (job), surface->points,
                 (guint64) surface->n_panels, NULL);
}

static void
on_job_fraction (BlPanelJob        *job,
                 GParamSpec        *pspec,
                 BlAddedMassEditor *self)
{
  gtk_progress_bar_set_fraction (self->progress_bar, bl_panel_job_get_fraction (job));
}

static void
on_job_finished (BlPanelJob        *job,
                 BlAddedMassEditor *self)
{
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  g_autoptr(GError) error = NULL;
  const BlPanelEstimate *estimate = bl_panel_job_get_estimate (job, &error);

  gtk_widget_set_sensitive (GTK_WIDGET (self->estimate_button), TRUE);
  if (gtk_widget_has_focus (GTK_WIDGET (self->cancel_button)))
    gtk_widget_grab_focus (GTK_WIDGET (self->estimate_button));
  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), FALSE);
  if (estimate == NULL)
    {
      gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

      drop_job (self);
      if (!cancelled)
        {
          g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_ERROR, "%s", error->message));
          show_proposal (self, _("Estimate from Geometry: Panel Method"), FALSE, FALSE, notes);
        }
      return;
    }
  bl_mat6_to_values (&estimate->added_mass, self->proposal);
  bl_added_mass_panel_findings (estimate, bl_panel_job_get_notes (job), notes);
  show_proposal (self, _("Estimate from Geometry: Panel Method"), TRUE, FALSE, notes);
  gtk_widget_set_visible (GTK_WIDGET (self->potential_box), TRUE);
  show_potential (self);
}

static void
start_panel_job (BlAddedMassEditor *self,
                 gsize              budget,
                 double             rho)
{
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  g_autoptr(GError) error = NULL;

  hide_proposal (self);
  self->job = bl_panel_job_new (self->link, budget, rho, &error);
  if (self->job == NULL)
    {
      g_ptr_array_add (notes, bl_added_mass_finding_new ("estimate", BL_SEVERITY_ERROR, "%s", error->message));
      show_proposal (self, _("Estimate from Geometry: Panel Method"), FALSE, FALSE, notes);
      return;
    }
  g_signal_connect (self->job, "surface-ready", G_CALLBACK (on_job_surface), self);
  g_signal_connect (self->job, "notify::fraction", G_CALLBACK (on_job_fraction), self);
  g_signal_connect (self->job, "finished", G_CALLBACK (on_job_finished), self);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_progress_bar_set_text (self->progress_bar, _("Cutting the surface into panels…"));
  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), TRUE);
  /* The focus goes from the button that turns insensitive to Cancel,
   * right below it (not wherever GTK would move it, scrolling the page). */
  if (gtk_widget_has_focus (GTK_WIDGET (self->estimate_button)))
    gtk_widget_grab_focus (GTK_WIDGET (self->cancel_button));
  gtk_widget_set_sensitive (GTK_WIDGET (self->estimate_button), FALSE);
}

static void
on_cancel_clicked (GtkButton         *button,
                   BlAddedMassEditor *self)
{
  if (self->job != NULL)
    bl_panel_job_cancel (self->job);
}

static void
on_estimate_clicked (GtkButton         *button,
                     BlAddedMassEditor *self)
{
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  double rho;
  gboolean ok;

  if (self->link == NULL)
    return;
  /* Text refused (and said so below the field) is not the density. */
  if (bl_number_field_get_error (self->fluid_field) != NULL)
    return;
  rho = bl_number_field_get_value (self->fluid_field);
  {
    /* The method list: closed forms, then panel budgets. */
    static const gsize budgets[] = { 0, 1000, 4000, 10000, BL_PANEL_MAX_PANELS };
    guint method = gtk_drop_down_get_selected (self->method_dropdown);

    if (method > 0 && method < G_N_ELEMENTS (budgets))
      {
        start_panel_job (self, budgets[method], rho);
        return;
      }
  }
  hide_proposal (self);
  ok = bl_added_mass_propose_estimate (self->link, rho, self->proposal, notes);
  self->proposal_is_import = FALSE;
  show_proposal (self, _("Estimate from Geometry"), ok, FALSE, notes);
}

static void
on_import_clicked (GtkButton         *button,
                   BlAddedMassEditor *self)
{
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  g_autoptr(BlAddedMassImport) import = NULL;

  if (self->link == NULL)
    return;
  import = bl_added_mass_propose_import (self->document, self->link, self->proposal, notes);
  self->proposal_is_import = import != NULL;
  show_proposal (self, _("Import from Plugin"), import != NULL,
                 import != NULL && bl_added_mass_import_get_plugin_state (self->document, import)
                                   == BL_PLUGIN_ADDED_MASS_ACTIVE,
                 notes);
}

/* An import is applied through the core's one edit (the plugin's terms
 * turned off too with `migrate`), found again now: the document may have
 * changed since the proposal was shown. */
static void
apply_import (BlAddedMassEditor *self,
              gboolean           migrate)
{
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  g_autoptr(BlAddedMassImport) import = NULL;
  g_autoptr(BlEdit) edit = NULL;
  g_autoptr(GError) error = NULL;
  double values[21];

  import = bl_added_mass_propose_import (self->document, self->link, values, notes);
  if (import != NULL)
    edit = bl_added_mass_import_create_edit (self->document, import, migrate, &error);
  if (edit == NULL)
    {
      /* Shown where the user looks: in place of the proposal. */
      if (error != NULL)
        g_ptr_array_add (notes, bl_added_mass_finding_new ("import", BL_SEVERITY_ERROR, "%s", error->message));
      show_proposal (self, _("Import from Plugin"), FALSE, FALSE, notes);
      return;
    }
  hide_proposal (self);
  g_signal_emit (self, signals[EDIT], 0, edit, FALSE);
}

static void
on_apply_clicked (GtkButton         *button,
                  BlAddedMassEditor *self)
{
  guint keys[21];
  double values[21], current[21];
  guint n = 0;

  if (self->link == NULL || !self->has_proposal)
    return;
  if (self->proposal_is_import)
    {
      apply_import (self, FALSE);
      return;
    }
  /* An absent value is 0: write the non-zero ones, and 0 only over a
   * value the link has. */
  current_values (self, current);
  for (guint k = 0; k < 21; k++)
    if (self->proposal[k] != 0.0 || current[k] != 0.0)
      {
        keys[n] = k;
        values[n++] = self->proposal[k];
      }
  hide_proposal (self);
  if (n > 0)
    submit_values (self, keys, values, n);
}

static void
on_migrate_clicked (GtkButton         *button,
                    BlAddedMassEditor *self)
{
  if (self->link == NULL || !self->has_proposal || !self->proposal_is_import)
    return;
  apply_import (self, TRUE);
}

static void
on_discard_clicked (GtkButton         *button,
                    BlAddedMassEditor *self)
{
  hide_proposal (self);
}

/* GObject ---------------------------------------------------------------- */

/* The axes x y z p q r above GRID's columns 1–6 and left of its rows
 * 1–6; over right-aligned numbers (`right`) at their right, beside the
 * first line of each row. */
static void
attach_axis_heads (GtkGrid  *grid,
                   gboolean  right)
{
  for (guint i = 0; i < 6; i++)
    {
      GtkWidget *col_head = gtk_label_new (axis_names[i]);
      GtkWidget *row_head = gtk_label_new (axis_names[i]);

      gtk_widget_add_css_class (col_head, "dim-label");
      gtk_widget_add_css_class (row_head, "dim-label");
      gtk_widget_set_margin_end (row_head, 4);
      if (right)
        {
          gtk_label_set_xalign (GTK_LABEL (col_head), 1.0);
          gtk_widget_set_valign (row_head, GTK_ALIGN_START);
        }
      gtk_grid_attach (grid, col_head, 1 + i, 0, 1, 1);
      gtk_grid_attach (grid, row_head, 0, 1 + i, 1, 1);
    }
}

static void
build_grids (BlAddedMassEditor *self)
{
  attach_axis_heads (self->matrix_grid, FALSE);
  /* the proposal is read apart from the matrix, scrolled away above it */
  attach_axis_heads (self->proposal_grid, TRUE);

  for (guint r = 0; r < 6; r++)
    for (guint c = 0; c < 6; c++)
      {
        GtkWidget *cell = bl_number_field_new (BL_FIELD_ANY);
        GtkWidget *proposal = gtk_label_new (NULL);
        guint key = key_of (r, c);
        g_autofree char *name = g_strdup_printf ("added-mass-%u-%u", r, c);
        g_autofree char *a11y = g_strdup_printf (_("Added mass %s"), bl_added_mass_keys[key]);

        gtk_widget_set_name (cell, name);
        bl_number_field_set_show_buttons (BL_NUMBER_FIELD (cell), FALSE);
        fit_cell (cell);
        gtk_editable_set_alignment (GTK_EDITABLE (cell), 1.0);
        gtk_widget_add_css_class (cell, "bl-cell");
        gtk_widget_add_css_class (cell, block_class (r, c));
        gtk_accessible_update_property (GTK_ACCESSIBLE (cell), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
        if (r <= c)
          {
            bl_number_field_set_error_label (BL_NUMBER_FIELD (cell), self->cell_error);
            g_signal_connect (cell, "edit", G_CALLBACK (on_cell_edit), self);
          }
        else
          {
            gtk_editable_set_editable (GTK_EDITABLE (cell), FALSE);
            gtk_widget_set_focusable (GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (cell))), FALSE);
            gtk_widget_add_css_class (cell, "bl-mirror");
          }
        self->cells[r][c] = cell;
        gtk_grid_attach (self->matrix_grid, cell, 1 + c, 1 + r, 1, 1);

        gtk_label_set_xalign (GTK_LABEL (proposal), 1.0);
        gtk_label_set_justify (GTK_LABEL (proposal), GTK_JUSTIFY_RIGHT);
        gtk_widget_add_css_class (proposal, "numeric");
        gtk_widget_set_hexpand (proposal, TRUE);
        self->proposal_cells[r][c] = GTK_LABEL (proposal);
        gtk_grid_attach (self->proposal_grid, proposal, 1 + c, 1 + r, 1, 1);
      }

  for (guint row = 0; row < 2; row++)
    {
      GtkWidget *title = gtk_label_new (row == 0 ? "μ" : "M + μ");
      GtkWidget *status = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (title), 0.0);
      gtk_widget_set_tooltip_text (title, row == 0 ? _("Eigenvalues of the added mass") :
                                                     _("Eigenvalues of the rigid-body spatial inertia plus the added mass"));
      gtk_grid_attach (self->eigen_grid, title, 0, row * 2, 1, 1);
      for (guint i = 0; i < 6; i++)
        {
          GtkWidget *value = gtk_label_new ("—");

          gtk_label_set_xalign (GTK_LABEL (value), 1.0);
          gtk_widget_set_hexpand (value, TRUE);
          gtk_widget_add_css_class (value, "numeric");
          gtk_widget_add_css_class (value, "bl-value");
          {
            g_autofree char *name = g_strdup_printf ("eigenvalue-%u-%u", row, i);

            gtk_widget_set_name (value, name);
          }
          self->eigen_values[row][i] = GTK_LABEL (value);
          gtk_grid_attach (self->eigen_grid, value, 1 + i, row * 2, 1, 1);
        }
      gtk_label_set_xalign (GTK_LABEL (status), 1.0);
      /* "positive semi-definite: zero about p, exact about the axis of a
       * body of revolution" is wider than the pane at its least width */
      gtk_label_set_wrap (GTK_LABEL (status), TRUE);
      gtk_label_set_justify (GTK_LABEL (status), GTK_JUSTIFY_RIGHT);
      gtk_widget_add_css_class (status, "caption");
      gtk_widget_set_name (status, row == 0 ? "eigen-status-added" : "eigen-status-total");
      self->eigen_status[row] = GTK_LABEL (status);
      gtk_grid_attach (self->eigen_grid, status, 0, row * 2 + 1, 7, 1);
    }
}

static void
on_fluid_changed (BlNumberField     *field,
                  GParamSpec        *pspec,
                  BlAddedMassEditor *self)
{
  if (self->has_proposal)
    hide_proposal (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLUID_DENSITY]);
}

static void
bl_added_mass_editor_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  BlAddedMassEditor *self = BL_ADDED_MASS_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_FLUID_DENSITY:
      g_value_set_double (value, bl_added_mass_editor_get_fluid_density (self));
      break;
    case PROP_LINK:
      g_value_set_pointer (value, self->link);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_added_mass_editor_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  BlAddedMassEditor *self = BL_ADDED_MASS_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      bl_added_mass_editor_set_document (self, g_value_get_object (value));
      break;
    case PROP_FLUID_DENSITY:
      bl_added_mass_editor_set_fluid_density (self, g_value_get_double (value));
      break;
    case PROP_LINK:
      bl_added_mass_editor_set_link (self, g_value_get_pointer (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_added_mass_editor_dispose (GObject *object)
{
  BlAddedMassEditor *self = BL_ADDED_MASS_EDITOR (object);

  drop_job (self);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  stop_scroll_to_proposal (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_ADDED_MASS_EDITOR);

  G_OBJECT_CLASS (bl_added_mass_editor_parent_class)->dispose (object);
}

static void
bl_added_mass_editor_class_init (BlAddedMassEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_added_mass_editor_dispose;
  object_class->get_property = bl_added_mass_editor_get_property;
  object_class->set_property = bl_added_mass_editor_set_property;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, BL_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FLUID_DENSITY] =
    g_param_spec_double ("fluid-density", NULL, NULL,
                         BL_FLUID_DENSITY_MIN, BL_FLUID_DENSITY_MAX, BL_FLUID_DENSITY_DEFAULT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LINK] =
    g_param_spec_pointer ("link", NULL, NULL,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlAddedMassEditor::edit:
   * @edit: the unapplied edit the user asked for
   * @mergeable: TRUE for a step of − / + (BL_NUMBER_FIELD_STEPPED),
   *   which may merge with the previous step into one undo step
   */
  signals[EDIT] =
    g_signal_new ("edit",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, BL_TYPE_EDIT | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_BOOLEAN);

  /**
   * BlAddedMassEditor::show-panels:
   * @link: (nullable): the link whose panels these are, NULL to show none
   * @corners: 9 doubles a panel, in link coordinates
   * @n_panels: how many
   * @values: (nullable): one per panel to colour them by (a potential)
   *
   * The panel method's surface, to be drawn in the 3D view: while it is
   * solved (edges only), then coloured by the chosen mode's potential.
   */
  signals[SHOW_PANELS] =
    g_signal_new ("show-panels",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_POINTER, G_TYPE_POINTER, G_TYPE_UINT64, G_TYPE_POINTER);

  g_type_ensure (BL_TYPE_NUMBER_FIELD);
  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-added-mass-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, stack);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, scroller);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, status_label);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, matrix_grid);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, cell_error);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, eigen_grid);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, checks_box);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, fluid_field);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, fluid_error);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, fluid_note);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, estimate_button);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, import_button);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, sources_read_only_label);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_revealer);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_title);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_grid);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_notes);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, apply_button);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, migrate_button);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, method_dropdown);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, progress_box);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, potential_box);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, potential_dropdown);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_potential_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_estimate_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_import_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_apply_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_migrate_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_discard_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-added-mass-editor");
}

static void
bl_added_mass_editor_init (BlAddedMassEditor *self)
{
  /* The document's signals, connected while it is the document shown. */
  self->document_signals = g_signal_group_new (BL_TYPE_DOCUMENT);
  g_signal_group_connect (self->document_signals, "link-changed", G_CALLBACK (on_link_changed), self);
  gtk_widget_init_template (GTK_WIDGET (self));
  build_grids (self);
  bl_number_field_set_error_label (self->fluid_field, self->fluid_error);
  bl_added_mass_editor_set_fluid_density (self, BL_FLUID_DENSITY_DEFAULT);
  g_signal_connect (self->fluid_field, "notify::value", G_CALLBACK (on_fluid_changed), self);
}

GtkWidget *
bl_added_mass_editor_new (void)
{
  return g_object_new (BL_TYPE_ADDED_MASS_EDITOR, NULL);
}

void
bl_added_mass_editor_set_document (BlAddedMassEditor *self,
                                   BlDocument        *document)
{
  g_return_if_fail (BL_IS_ADDED_MASS_EDITOR (self));
  g_return_if_fail (document == NULL || BL_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  bl_added_mass_editor_set_link (self, NULL);
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

void
bl_added_mass_editor_set_link (BlAddedMassEditor *self,
                               BlLink            *link)
{
  g_return_if_fail (BL_IS_ADDED_MASS_EDITOR (self));

  if (self->link == link)
    return;
  self->link = link;
  hide_proposal (self);
  if (link == NULL)
    gtk_stack_set_visible_child_name (self->stack, "empty");
  else
    {
      update_all (self);
      /* A new link is shown from its top (its name). */
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0.0);
      gtk_stack_set_visible_child_name (self->stack, "link");
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINK]);
}

BlLink *
bl_added_mass_editor_get_link (BlAddedMassEditor *self)
{
  g_return_val_if_fail (BL_IS_ADDED_MASS_EDITOR (self), NULL);
  return self->link;
}

double
bl_added_mass_editor_get_fluid_density (BlAddedMassEditor *self)
{
  g_return_val_if_fail (BL_IS_ADDED_MASS_EDITOR (self), BL_FLUID_DENSITY_DEFAULT);
  return bl_number_field_get_value (self->fluid_field);
}

void
bl_added_mass_editor_set_fluid_density (BlAddedMassEditor *self,
                                        double             density)
{
  g_return_if_fail (BL_IS_ADDED_MASS_EDITOR (self));
  g_return_if_fail (density > 0.0);

  /* The field notifies ::fluid-density when its value changes. */
  bl_number_field_set_value (self->fluid_field, density);
}

void
bl_added_mass_editor_set_fluid_note (BlAddedMassEditor *self,
                                     const char        *note)
{
  g_return_if_fail (BL_IS_ADDED_MASS_EDITOR (self));
  bl_field_set_note (self->fluid_note, note);
}

GtkWidget *
bl_added_mass_editor_get_cell (BlAddedMassEditor *self,
                               guint              row,
                               guint              col)
{
  g_return_val_if_fail (BL_IS_ADDED_MASS_EDITOR (self), NULL);
  g_return_val_if_fail (row < 6 && col < 6, NULL);
  return self->cells[row][col];
}
