/* bl-added-mass-editor.c: the selected link's 6×6 fluid added mass: 21 editable
 * cells, eigenvalues and checks, estimates and imports shown before applying. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-added-mass.h"
#include "bl-added-mass-editor.h"
#include "bl-added-mass-sources.h"
#include "bl-edit.h"
#include "bl-field.h"
#include "bl-number.h"
#include "bl-number-field.h"

static const char * const axis_names[6] = { "x", "y", "z", "p", "q", "r" };

struct _BlAddedMassEditor
{
  GtkWidget      parent_instance;

  GtkStack      *stack;
  GtkLabel      *title_label;
  GtkLabel      *status_label;
  GtkGrid       *matrix_grid;
  GtkLabel      *cell_error;
  GtkGrid       *eigen_grid;
  GtkBox        *checks_box;
  BlNumberField *fluid_field;
  GtkLabel      *fluid_error;
  GtkButton     *estimate_button;
  GtkButton     *import_button;
  GtkRevealer   *proposal_revealer;
  GtkLabel      *proposal_title;
  GtkGrid       *proposal_grid;
  GtkBox        *proposal_notes;
  GtkButton     *apply_button;

  GtkWidget     *cells[6][6];
  GtkLabel      *proposal_cells[6][6];
  GtkLabel      *eigen_values[2][6];
  GtkLabel      *eigen_status[2];

  BlDocument    *document;
  gulong         link_changed_id;
  BlLink        *link;
  double         proposal[21];
  gboolean       has_proposal;
  gboolean       updating;
};

G_DEFINE_FINAL_TYPE (BlAddedMassEditor, bl_added_mass_editor, GTK_TYPE_WIDGET)

enum {
  EDIT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_FLUID_DENSITY,
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
        gtk_widget_set_tooltip_text (cell, tooltip);
      }
  gtk_widget_set_visible (GTK_WIDGET (self->cell_error), FALSE);
}

static void
set_eigen_row (BlAddedMassEditor *self,
               guint              row,
               const double       values[6],
               gboolean           available,
               gboolean           positive,
               const char        *unavailable_reason)
{
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *text = available ? g_strdup_printf ("%.4g", values[i]) : g_strdup ("—");

      gtk_label_set_text (self->eigen_values[row][i], text);
      if (available && values[i] <= 0.0)
        gtk_widget_add_css_class (GTK_WIDGET (self->eigen_values[row][i]), "error");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->eigen_values[row][i]), "error");
    }

  gtk_widget_remove_css_class (GTK_WIDGET (self->eigen_status[row]), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->eigen_status[row]), "success");
  if (!available)
    gtk_label_set_text (self->eigen_status[row], unavailable_reason);
  else if (positive)
    {
      gtk_label_set_text (self->eigen_status[row], _("positive definite"));
      gtk_widget_add_css_class (GTK_WIDGET (self->eigen_status[row]), "success");
    }
  else
    {
      gtk_label_set_text (self->eigen_status[row], _("not positive definite"));
      gtk_widget_add_css_class (GTK_WIDGET (self->eigen_status[row]), "error");
    }
}

static GtkWidget *
finding_row (BlSeverity  severity,
             const char *id,
             const char *message)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon;
  GtkWidget *label;
  g_autofree char *text = id != NULL ? g_strdup_printf ("%s: %s", id, message) : g_strdup (message);

  switch (severity)
    {
    case BL_SEVERITY_ERROR:
      icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");
      gtk_widget_add_css_class (icon, "error");
      break;
    case BL_SEVERITY_WARNING:
      icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      gtk_widget_add_css_class (icon, "warning");
      break;
    case BL_SEVERITY_INFO:
    default:
      icon = gtk_image_new_from_icon_name ("dialog-information-symbolic");
      gtk_widget_add_css_class (icon, "dim-label");
      break;
    }
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (row), icon);
  gtk_box_append (GTK_BOX (row), label);
  return row;
}

static void
clear_box (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}

static void
update_checks (BlAddedMassEditor *self)
{
  double values[21];
  BlInertial body = { 0 };
  gboolean with_body = self->link->props.resolved && self->link->props.mass > 0.0;
  g_autoptr(BlAddedMassReport) report = NULL;

  current_values (self, values);
  body.mass = self->link->props.mass;
  body.com = self->link->props.com;
  body.inertia = self->link->props.inertia;
  report = bl_added_mass_check (values, with_body ? &body : NULL,
                                self->link->auto_inertia ? BL_ADDED_MASS_CHECK_AUTO : BL_ADDED_MASS_CHECK_NONE);

  set_eigen_row (self, 0, report->eigenvalues, report->finite,
                 bl_mat6_is_positive_definite (&report->added_mass, NULL),
                 _("not finite"));
  set_eigen_row (self, 1, report->total_eigenvalues, report->finite && report->has_body,
                 report->total_positive_definite,
                 _("needs the link's mass"));

  clear_box (self->checks_box);
  for (guint i = 0; i < report->findings->len; i++)
    {
      const BlAddedMassFinding *f = g_ptr_array_index (report->findings, i);
      gtk_box_append (self->checks_box, finding_row (f->severity, f->id, f->message));
    }
  if (report->findings->len == 0)
    {
      GtkWidget *label = gtk_label_new (_("All checks pass"));

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_widget_add_css_class (label, "success");
      gtk_box_append (self->checks_box, label);
    }
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
  gtk_label_set_text (self->title_label, self->link->name);
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

static void
show_proposal (BlAddedMassEditor *self,
               const char        *title,
               gboolean           ok,
               GPtrArray         *notes)
{
  double current[21];
  BlMat6 proposed = bl_mat6_from_values (self->proposal);
  BlMat6 now;

  current_values (self, current);
  now = bl_mat6_from_values (current);
  if (ok)
    {
      /* Rotations leave round-off (1e-14) where the exact value is 0. */
      double noise = 1e-12 * bl_mat6_max_abs (&proposed);

      for (guint k = 0; k < 21; k++)
        if (fabs (self->proposal[k]) < noise)
          self->proposal[k] = 0.0;
      proposed = bl_mat6_from_values (self->proposal);
    }
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
          gtk_widget_set_tooltip_text (GTK_WIDGET (label), tooltip);
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
  gtk_revealer_set_reveal_child (self->proposal_revealer, TRUE);
}

static void
hide_proposal (BlAddedMassEditor *self)
{
  self->has_proposal = FALSE;
  gtk_revealer_set_reveal_child (self->proposal_revealer, FALSE);
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
  ok = bl_added_mass_propose_estimate (self->link, rho, self->proposal, notes);
  show_proposal (self, _("Estimate from Geometry"), ok, notes);
}

static void
on_import_clicked (GtkButton         *button,
                   BlAddedMassEditor *self)
{
  g_autoptr(GPtrArray) notes = bl_added_mass_findings_new ();
  gboolean ok;

  if (self->link == NULL)
    return;
  ok = bl_added_mass_propose_import (self->document, self->link, self->proposal, notes);
  show_proposal (self, _("Import from Plugin"), ok, notes);
}

static void
on_apply_clicked (GtkButton         *button,
                  BlAddedMassEditor *self)
{
  guint keys[21];

  if (self->link == NULL || !self->has_proposal)
    return;
  for (guint k = 0; k < 21; k++)
    keys[k] = k;
  hide_proposal (self);
  submit_values (self, keys, self->proposal, 21);
}

static void
on_discard_clicked (GtkButton         *button,
                    BlAddedMassEditor *self)
{
  hide_proposal (self);
}

/* GObject ---------------------------------------------------------------- */

static void
build_grids (BlAddedMassEditor *self)
{
  for (guint i = 0; i < 6; i++)
    {
      GtkWidget *col_head = gtk_label_new (axis_names[i]);
      GtkWidget *row_head = gtk_label_new (axis_names[i]);

      gtk_widget_add_css_class (col_head, "dim-label");
      gtk_widget_add_css_class (row_head, "dim-label");
      gtk_widget_set_margin_end (row_head, 4);
      gtk_grid_attach (self->matrix_grid, col_head, 1 + i, 0, 1, 1);
      gtk_grid_attach (self->matrix_grid, row_head, 0, 1 + i, 1, 1);
    }

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
        gtk_editable_set_width_chars (GTK_EDITABLE (cell), 6);
        gtk_editable_set_max_width_chars (GTK_EDITABLE (cell), 8);
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
        gtk_grid_attach (self->proposal_grid, proposal, c, r, 1, 1);
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
          self->eigen_values[row][i] = GTK_LABEL (value);
          gtk_grid_attach (self->eigen_grid, value, 1 + i, row * 2, 1, 1);
        }
      gtk_label_set_xalign (GTK_LABEL (status), 1.0);
      gtk_widget_add_css_class (status, "caption");
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
    case PROP_FLUID_DENSITY:
      g_value_set_double (value, bl_added_mass_editor_get_fluid_density (self));
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
    case PROP_FLUID_DENSITY:
      bl_added_mass_editor_set_fluid_density (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_added_mass_editor_dispose (GObject *object)
{
  BlAddedMassEditor *self = BL_ADDED_MASS_EDITOR (object);

  if (self->document != NULL)
    g_clear_signal_handler (&self->link_changed_id, self->document);
  g_clear_object (&self->document);
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

  properties[PROP_FLUID_DENSITY] =
    g_param_spec_double ("fluid-density", NULL, NULL,
                         0.001, 100000.0, BL_FLUID_DENSITY_DEFAULT,
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

  g_type_ensure (BL_TYPE_NUMBER_FIELD);
  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-added-mass-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, stack);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, status_label);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, matrix_grid);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, cell_error);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, eigen_grid);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, checks_box);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, fluid_field);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, fluid_error);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, estimate_button);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, import_button);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_revealer);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_title);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_grid);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, proposal_notes);
  gtk_widget_class_bind_template_child (widget_class, BlAddedMassEditor, apply_button);
  gtk_widget_class_bind_template_callback (widget_class, on_estimate_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_import_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_apply_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_discard_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-added-mass-editor");
}

static void
bl_added_mass_editor_init (BlAddedMassEditor *self)
{
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
  if (self->document != NULL)
    g_clear_signal_handler (&self->link_changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->link_changed_id = g_signal_connect (document, "link-changed",
                                              G_CALLBACK (on_link_changed), self);
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
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  update_all (self);
  gtk_stack_set_visible_child_name (self->stack, "link");
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

GtkWidget *
bl_added_mass_editor_get_cell (BlAddedMassEditor *self,
                               guint              row,
                               guint              col)
{
  g_return_val_if_fail (BL_IS_ADDED_MASS_EDITOR (self), NULL);
  g_return_val_if_fail (row < 6 && col < 6, NULL);
  return self->cells[row][col];
}
