/* bl-inspector.c: the selected link's mass properties, inertial settings,
 * collision densities and diagnostics. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-added-mass.h"
#include "bl-collision-list.h"
#include "bl-edit.h"
#include "bl-export.h"
#include "bl-field.h"
#include "bl-fluid.h"
#include "bl-inspector.h"
#include "bl-diagnostic-row.h"
#include "bl-display-name.h"
#include "bl-inertial.h"
#include "bl-number.h"
#include "bl-number-field.h"
#include "bl-resolve.h"

typedef struct
{
  GtkLabel *mass;
  GtkLabel *com[3];
  GtkLabel *inertia[3][3];
  GtkLabel *moments[3];
  GtkLabel *ellipsoid[3];
} PropsLabels;

typedef struct
{
  GtkLabel      *volume;
  GtkLabel      *center[3];
  BlNumberField *fluid_field;
  GtkLabel      *fluid_error;
  GtkLabel      *fluid_note;    /* where the density comes from, when the
                                 * world's Buoyancy system has a say */
  GtkLabel      *net;
  GtkLabel      *verdict;
  GtkLabel      *offset;
} BuoyancyLabels;

struct _BlInspector
{
  GtkWidget      parent_instance;

  GtkStack      *stack;
  GtkLabel      *empty_title_label;
  GtkLabel      *empty_body_label;
  GtkScrolledWindow *link_scroller;
  GtkScrolledWindow *model_scroller;
  GtkLabel      *title_label;
  GtkLabel      *subtitle_label;
  GtkImage      *validity_icon;
  GtkLabel      *validity_label;
  GtkGrid       *props_grid;
  GtkSwitch     *auto_switch;
  GtkLabel      *density_title;
  BlNumberField *density_field;
  GtkLabel      *density_error;
  GtkLabel      *mass_title;
  BlNumberField *mass_field;
  GtkLabel      *mass_error;
  GtkLabel      *inertial_hint;
  GtkLabel      *read_only_label;
  GtkLabel      *collisions_heading;
  GtkBox        *collisions_card;
  GtkScrolledWindow *collisions_scroller;
  GtkListView   *collisions_list;
  GtkBox        *diagnostics_box;
  GtkWidget     *more_diagnostics;  /* "and N more problems", last in the box, or NULL */

  GtkGrid       *buoyancy_grid;
  GtkLabel      *model_title_label;
  GtkLabel      *model_subtitle_label;
  GtkGrid       *model_props_grid;
  GtkGrid       *model_buoyancy_grid;

  /* The value labels of the link's and the model's cards. */
  PropsLabels    props;
  BuoyancyLabels buoyancy;
  PropsLabels    model_props;
  BuoyancyLabels model_buoyancy;
  /* One fluid density for both buoyancy cards (and, through the
   * fluid-density property, the added-mass editor and GSettings). */
  double         fluid_density;

  BlDocument    *document;
  GSignalGroup  *document_signals;   /* the document's ::link-changed */
  BlLink        *link;
  BlModel       *model;
  BlCollisionList *collisions;     /* drives collisions_list */
  GtkWidget     *auto_question;     /* asking whether to keep the computed inertia */
  GtkLabel      *auto_question_title;
  GtkLabel      *auto_question_text;
  GtkWidget     *auto_question_cancel;
  GtkWidget     *auto_question_file;
  GtkWidget     *auto_question_keep;
  guint          question_tick;     /* scrolls the question into view */
  gboolean       updating;
};

G_DEFINE_FINAL_TYPE (BlInspector, bl_inspector, GTK_TYPE_WIDGET)

enum {
  EDIT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_FLUID_DENSITY,
  PROP_LINK,
  PROP_MODEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkLabel *
value_label (void)
{
  GtkWidget *label = gtk_label_new ("—");

  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  gtk_widget_add_css_class (label, "numeric");
  gtk_widget_add_css_class (label, "bl-value");
  return GTK_LABEL (label);
}

static void
attach_title (GtkGrid    *grid,
              const char *title,
              const char *unit,
              int         row)
{
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *unit_label = gtk_label_new (unit);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_widget_set_hexpand (label, TRUE);
  /* A narrow inspector wraps the titles, not the numbers. */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_grid_attach (grid, label, 0, row, 1, 1);

  gtk_label_set_xalign (GTK_LABEL (unit_label), 0.0);
  gtk_widget_set_valign (unit_label, GTK_ALIGN_START);
  gtk_widget_add_css_class (unit_label, "dim-label");
  gtk_grid_attach (grid, unit_label, 4, row, 1, 1);
}

static void
attach_triple (GtkGrid   *grid,
               GtkLabel **labels,
               int        row)
{
  for (int i = 0; i < 3; i++)
    {
      labels[i] = value_label ();
      gtk_grid_attach (grid, GTK_WIDGET (labels[i]), 1 + i, row, 1, 1);
    }
}

static void
build_props_grid (GtkGrid     *grid,
                  PropsLabels *labels)
{
  int row = 0;

  attach_title (grid, _("Mass"), "kg", row);
  labels->mass = value_label ();
  gtk_grid_attach (grid, GTK_WIDGET (labels->mass), 3, row++, 1, 1);

  attach_title (grid, _("Centre of mass"), "m", row);
  attach_triple (grid, labels->com, row++);

  attach_title (grid, _("Inertia tensor"), "kg·m²", row);
  for (int i = 0; i < 3; i++)
    attach_triple (grid, labels->inertia[i], row++);

  attach_title (grid, _("Principal moments"), "kg·m²", row);
  attach_triple (grid, labels->moments, row++);

  attach_title (grid, _("Equivalent ellipsoid"), "m", row);
  attach_triple (grid, labels->ellipsoid, row++);
}

static void on_fluid_edit (BlNumberField     *field,
                           BlNumberFieldEdit  how,
                           BlInspector       *self);

static void
build_buoyancy_grid (BlInspector    *self,
                     GtkGrid        *grid,
                     BuoyancyLabels *labels)
{
  GtkWidget *field = bl_number_field_new (BL_FIELD_POSITIVE);
  GtkWidget *error = gtk_label_new (NULL);
  GtkWidget *verdict = gtk_label_new (NULL);
  GtkWidget *title, *notes;
  int row = 0;

  attach_title (grid, _("Displaced volume"), "m³", row);
  labels->volume = value_label ();
  gtk_grid_attach (grid, GTK_WIDGET (labels->volume), 3, row++, 1, 1);

  attach_title (grid, _("Centre of buoyancy"), "m", row);
  attach_triple (grid, labels->center, row++);

  attach_title (grid, _("Fluid density"), "kg/m³", row);
  gtk_editable_set_width_chars (GTK_EDITABLE (field), 9);
  gtk_widget_set_halign (field, GTK_ALIGN_END);
  gtk_accessible_update_property (GTK_ACCESSIBLE (field), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Fluid density"), -1);
  gtk_widget_set_tooltip_text (field, _("Sea water 1025, fresh water 1000, air 1.225 kg/m³; shared with the Added Mass page"));
  gtk_grid_attach (grid, field, 1, row++, 3, 1);
  gtk_label_set_xalign (GTK_LABEL (error), 1.0);
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_widget_add_css_class (error, "error");
  gtk_widget_add_css_class (error, "caption");
  gtk_widget_set_visible (error, FALSE);
  labels->fluid_note = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (labels->fluid_note, 1.0);
  gtk_label_set_justify (labels->fluid_note, GTK_JUSTIFY_RIGHT);
  gtk_label_set_wrap (labels->fluid_note, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (labels->fluid_note), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (labels->fluid_note), "caption");
  gtk_widget_set_visible (GTK_WIDGET (labels->fluid_note), FALSE);
  /* under the field, one row: what is wrong with it, where it comes from */
  notes = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (notes), error);
  gtk_box_append (GTK_BOX (notes), GTK_WIDGET (labels->fluid_note));
  gtk_grid_attach (grid, notes, 0, row++, 5, 1);
  labels->fluid_field = BL_NUMBER_FIELD (field);
  labels->fluid_error = GTK_LABEL (error);
  bl_number_field_set_value (labels->fluid_field, self->fluid_density);
  bl_number_field_set_error_label (labels->fluid_field, labels->fluid_error);
  g_signal_connect (field, "edit", G_CALLBACK (on_fluid_edit), self);

  attach_title (grid, _("Net buoyancy"), "N", row);
  labels->net = value_label ();
  gtk_grid_attach (grid, GTK_WIDGET (labels->net), 3, row++, 1, 1);

  gtk_label_set_xalign (GTK_LABEL (verdict), 0.0);
  gtk_label_set_wrap (GTK_LABEL (verdict), TRUE);
  gtk_widget_add_css_class (verdict, "dim-label");
  gtk_widget_add_css_class (verdict, "caption");
  gtk_grid_attach (grid, verdict, 0, row++, 5, 1);
  labels->verdict = GTK_LABEL (verdict);

  attach_title (grid, _("Buoyancy above COM"), "m", row);
  title = gtk_grid_get_child_at (grid, 0, row);
  gtk_widget_set_tooltip_text (title, _("Height of the centre of buoyancy above the centre of mass, against gravity; positive is stable"));
  labels->offset = value_label ();
  gtk_grid_attach (grid, GTK_WIDGET (labels->offset), 3, row++, 1, 1);
}

static void
set_number (GtkLabel *label,
            double    value)
{
  g_autofree char *text = bl_field_format_quantity (value, NULL);
  gtk_label_set_text (label, text);
}

/* Why gz-math would call the inertia invalid, in the user's words. */
static char *
validity_reason (const BlLink *link)
{
  const BlMassProperties *p = &link->props;
  double trace;

  /* Unresolved: a value could not be read (a <mass> of "@calculated",
   * a density of "nan"), or the automatic inertia could not be computed. */
  if (!p->resolved && link->input_errors)
    return g_strdup (_("A value could not be read (see Diagnostics), so these numbers cannot be trusted."));
  if (!p->resolved)
    return g_strdup (_("The automatic inertia could not be computed from the collisions."));
  if (p->valid)
    return NULL;
  if (!(p->mass > 0.0))
    return g_strdup (_("The mass is not positive."));
  trace = p->inertia_c.m[0][0] + p->inertia_c.m[1][1] + p->inertia_c.m[2][2];
  if (p->principal_moments[0] < 0.0)
    return g_strdup (_("A principal moment of inertia is negative: the tensor is not positive definite."));
  if (!bl_mass_valid_moments (p->principal_moments, trace, BL_MASS_DEFAULT_TOLERANCE))
    return g_strdup (_("The principal moments break the triangle inequality (each must be at most the sum of the other two)."));
  return g_strdup (_("The inertia tensor is not positive definite."));
}

static void
update_validity (BlInspector *self)
{
  g_autofree char *reason = validity_reason (self->link);
  guint n_errors = 0;

  for (guint i = 0; i < self->link->diagnostics->len; i++)
    n_errors += ((BlDiagnostic *) g_ptr_array_index (self->link->diagnostics, i))->severity == BL_SEVERITY_ERROR;
  static const char * const classes[] = { "error", "success", "warning", NULL };
  const char *icon, *css_class;
  g_autofree char *text = NULL;

  if (reason == NULL && n_errors > 0)
    {
      /* Valid in gz-math's sense, but not what the file says (a collision
       * left out, a value unreadable): not a plain green tick. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Valid inertia, but the link has %u error (below)",
                                           "Valid inertia, but the link has %u errors (below)",
                                           n_errors), n_errors);
      icon = "dialog-warning-symbolic";
      css_class = "warning";
    }
  else if (reason == NULL)
    {
      text = g_strdup (_("Valid inertia"));
      icon = "emblem-ok-symbolic";
      css_class = "success";
    }
  else
    {
      text = g_strdup_printf (_("Invalid inertia: %s"), reason);
      icon = "dialog-error-symbolic";
      css_class = "error";
    }
  /* Set again only what differs: an image set to its own icon is
   * measured again, a class taken away and given back restyles. */
  if (g_strcmp0 (gtk_image_get_icon_name (self->validity_icon), icon) != 0)
    gtk_image_set_from_icon_name (self->validity_icon, icon);
  gtk_label_set_text (self->validity_label, text);
  bl_field_set_css_class (GTK_WIDGET (self->validity_label), classes, css_class);
  bl_field_set_css_class (GTK_WIDGET (self->validity_icon), classes, css_class);
}

static void
show_props (PropsLabels *labels,
            double       mass,
            BlVec3       com,
            const BlMat3 *inertia,
            const double moments[3],
            const double *ellipsoid)
{
  /* Rounding noise (1e-17 from a rotation by an inexact π/2) reads as 0. */
  BlInertial raw = { mass, com, *inertia };
  BlInertial shown = bl_inertial_clean_noise (&raw);
  double c[3] = { shown.com.x, shown.com.y, shown.com.z };
  double principal[3] = { moments[0], moments[1], moments[2] };

  bl_number_clean_noise (principal, 3, 0.0);
  moments = principal;
  inertia = &shown.inertia;

  set_number (labels->mass, shown.mass);
  for (int i = 0; i < 3; i++)
    {
      set_number (labels->com[i], c[i]);
      set_number (labels->moments[i], moments[i]);
      if (ellipsoid != NULL)
        set_number (labels->ellipsoid[i], ellipsoid[i]);
      else
        gtk_label_set_text (labels->ellipsoid[i], "—");
      for (int j = 0; j < 3; j++)
        set_number (labels->inertia[i][j], inertia->m[i][j]);
    }
}

static void
update_props (BlInspector *self)
{
  const BlMassProperties *p = &self->link->props;

  show_props (&self->props, p->mass, p->com, &p->inertia, p->principal_moments,
              p->has_equivalent ? p->equivalent_ellipsoid : NULL);
}

/* WEIGHTLESS: the world has no gravity (a zero <gravity>): nothing rises
 * or sinks, and "above" means nothing. */
static void
show_buoyancy (BlInspector      *self,
               BuoyancyLabels   *labels,
               const BlBuoyancy *b,
               double            mass,
               gboolean          weightless,
               gboolean          is_static)
{
  BlBuoyancy shown = *b;
  double c[3];
  g_autofree char *verdict = NULL;
  g_autofree char *excess = NULL;

  /* Rounding noise (a centre of buoyancy 4e-17 m above the COM) reads as 0. */
  bl_buoyancy_clean_noise (&shown);
  b = &shown;
  c[0] = b->center.x;
  c[1] = b->center.y;
  c[2] = b->center.z;
  excess = bl_field_format_quantity (fabs (b->net_mass), "kg");

  set_number (labels->volume, b->volume);
  for (int i = 0; i < 3; i++)
    {
      if (b->volume > 0.0)
        set_number (labels->center[i], c[i]);
      else
        gtk_label_set_text (labels->center[i], "—");
    }
  /* A mass that is not positive (an error of its own) weighs nothing a
   * buoyancy can be set against: no net force to show. */
  if (mass > 0.0)
    set_number (labels->net, b->net_force);
  else
    gtk_label_set_text (labels->net, "—");
  if (b->volume > 0.0 && !weightless)
    set_number (labels->offset, b->vertical_offset);
  else
    gtk_label_set_text (labels->offset, "—");

  if (!(mass > 0.0))
    verdict = g_strdup (_("The mass is not positive: there is no weight to set the buoyancy against."));
  else if (!(b->volume > 0.0))
    verdict = g_strdup (_("No collision displaces any volume."));
  else if (is_static)
    /* DIAGNOSTICS.md: a static model never floats (no overlap or volume
     * warnings on it either) */
    verdict = g_strdup (_("The model is static: it stays where it is placed, whatever its buoyancy."));
  else if (weightless && b->net_mass >= 0.0)
    /* Translators: %s is a mass, e.g. "1024 kg"; the world is the SDF <world>, whose <gravity> is 0 0 0 */
    verdict = g_strdup_printf (_("The world has no gravity: it neither rises nor sinks. It displaces %s of "
                                 "fluid more than its own mass."), excess);
  else if (weightless)
    /* Translators: %s is a mass, e.g. "1024 kg"; the world is the SDF <world>, whose <gravity> is 0 0 0 */
    verdict = g_strdup_printf (_("The world has no gravity: it neither rises nor sinks. Its mass exceeds "
                                 "that of the displaced fluid by %s."), excess);
  else if (b->net_mass > 1e-9 * MAX (mass, b->displaced_mass))
    /* Translators: the mass of fluid displaced beyond the body's own */
    verdict = g_strdup_printf (_("Rises: it displaces %s of fluid more than its own mass."), excess);
  else if (b->net_mass < -1e-9 * MAX (mass, b->displaced_mass))
    /* Translators: the body's mass beyond that of the fluid it displaces */
    verdict = g_strdup_printf (_("Sinks: its mass exceeds that of the displaced fluid by %s."), excess);
  else
    verdict = g_strdup (_("Neutrally buoyant."));
  gtk_label_set_text (labels->verdict, verdict);
}

static void
update_buoyancy (BlInspector *self)
{
  BlBuoyancy b;
  BlVec3 gravity = bl_fluid_get_gravity (self->document, NULL);

  bl_link_compute_buoyancy (self->link, self->fluid_density, gravity, &b);
  show_buoyancy (self, &self->buoyancy, &b, self->link->props.mass, bl_vec3_length (gravity) == 0.0,
                 self->link->model->is_static);
}

static int
count_links (BlModel *model)
{
  int n = model->links->len;

  for (guint i = 0; i < model->models->len; i++)
    n += count_links (g_ptr_array_index (model->models, i));
  return n;
}

static void
update_model (BlInspector *self)
{
  BlInertial total = bl_model_compute_total (self->model);
  BlVec3 gravity = bl_fluid_get_gravity (self->document, NULL);
  BlBuoyancy b;
  double moments[3];
  double semi_axes[3];
  BlMat3 axes;
  gboolean has_ellipsoid;

  bl_mass_principal_axes (&total.inertia, moments, &axes);
  has_ellipsoid = total.mass > 0.0 && bl_mass_equivalent_ellipsoid (total.mass, &total.inertia, semi_axes, &axes);
  show_props (&self->model_props, total.mass, total.com, &total.inertia, moments,
              has_ellipsoid ? semi_axes : NULL);

  bl_model_compute_buoyancy (self->model, &total, self->fluid_density, gravity, &b);
  show_buoyancy (self, &self->model_buoyancy, &b, total.mass, bl_vec3_length (gravity) == 0.0,
                 self->model->is_static);
}

static void
update_inertial (BlInspector *self)
{
  BlLink *link = self->link;
  gboolean is_auto = link->auto_inertia;
  g_autofree char *reason = bl_field_dup_read_only_reason (self->document, self->link);
  gboolean editable = reason == NULL;

  /* while it asks whether to keep the computed values, off and waiting */
  gboolean asking = gtk_widget_get_visible (self->auto_question);

  gtk_switch_set_active (self->auto_switch, is_auto && !asking);
  gtk_widget_set_sensitive (GTK_WIDGET (self->auto_switch), editable && !asking);
  bl_field_set_tooltip (GTK_WIDGET (self->auto_switch), reason);
  gtk_widget_set_visible (GTK_WIDGET (self->read_only_label), !editable);
  gtk_label_set_text (self->read_only_label, reason != NULL ? reason : "");
  gtk_widget_set_sensitive (GTK_WIDGET (self->density_field), is_auto);
  gtk_widget_set_sensitive (GTK_WIDGET (self->density_title), is_auto);
  bl_number_field_set_editable_hint (self->density_field, editable, reason, _("Empty the field to unset the link density"));
  bl_number_field_set_editable_hint (self->mass_field, editable, reason, _("Empty the field to unset the mass"));

  bl_number_field_show_optional (self->density_field, link->has_density, link->density);
  bl_number_field_set_in_use (self->density_field, 1000.0, BL_NUMBER_FIELD_IN_USE_DEFAULT);

  bl_number_field_show_optional (self->mass_field, link->has_mass, link->mass);
  if (!link->props.resolved)
    /* an empty field said nothing; no number to step from either */
    bl_number_field_set_placeholder (self->mass_field, NAN,
                                     link->input_errors
                                     /* Translators: in the Mass field, instead of the mass of a link
                                      * whose <mass> (or another value) could not be read */
                                     ? _("unreadable value")
                                     /* Translators: in the Mass field, instead of the mass of a link
                                      * whose automatic inertia could not be computed */
                                     : _("not computed"));
  else if (is_auto)
    bl_number_field_set_in_use (self->mass_field, link->props.mass, BL_NUMBER_FIELD_IN_USE_COMPUTED);
  else
    bl_number_field_set_in_use (self->mass_field, link->props.mass, BL_NUMBER_FIELD_IN_USE_DEFAULT);

  gtk_label_set_text (self->mass_title, is_auto ? _("Target mass") : _("Mass"));
  if (is_auto)
    gtk_label_set_text (self->inertial_hint,
                        link->has_mass
                        ? _("Computed from the collisions, then scaled to the target mass.")
                        : _("Computed from the collisions and their densities; collisions without a density use the link density (1000 kg/m³ when unset)."));
  else
    gtk_label_set_text (self->inertial_hint, _("Mass and inertia as written in the file."));
}

/* A link may have thousands of diagnostics (every pair of 5,000
 * overlapping collisions): the card shows this many, then says how many
 * more there are (ballast-cli inspect lists them all). */
#define DIAGNOSTICS_SHOWN_MAX 50

/* One row per diagnostic, up to DIAGNOSTICS_SHOWN_MAX, the errors first,
 * then the warnings, then the notes, each in the link's order: an error
 * is never among those cut.  Rows are kept and only what changed is set
 * again (an edit changes a few numbers in a message). */
static void
rebuild_diagnostics (BlInspector *self)
{
  static const BlSeverity order[] = { BL_SEVERITY_ERROR, BL_SEVERITY_WARNING, BL_SEVERITY_INFO };
  GPtrArray *all = self->link->diagnostics;
  const BlDiagnostic *shown[DIAGNOSTICS_SHOWN_MAX];
  guint n_all = all->len;
  guint n = 0;
  GtkWidget *row;

  for (guint s = 0; s < G_N_ELEMENTS (order) && n < DIAGNOSTICS_SHOWN_MAX; s++)
    for (guint i = 0; i < n_all && n < DIAGNOSTICS_SHOWN_MAX; i++)
      if (((const BlDiagnostic *) g_ptr_array_index (all, i))->severity == order[s])
        shown[n++] = g_ptr_array_index (all, i);

  /* bl_diagnostic_box_sync removes every label of the box, this one too */
  self->more_diagnostics = NULL;
  row = bl_diagnostic_box_sync (self->diagnostics_box, n, _("No problems found"), "dim-label");

  for (guint i = 0; i < n; i++, row = gtk_widget_get_next_sibling (row))
    {
      const BlDiagnostic *d = shown[i];
      g_autofree char *text = bl_diagnostic_to_string (d);
      g_autofree char *whole = bl_diagnostic_row_dup_message (d, self->link->scoped_name);
      /* The message may quote a name of any length. */
      g_autofree char *message = bl_display_cut (whole, BL_DISPLAY_TEXT_MAX);
      g_autofree char *escaped = g_markup_escape_text (message, -1);
      g_autofree char *markup = NULL;

      if (d->line > 0)
        markup = g_strdup_printf ("%s <span alpha=\"60%%\">(%s%s%s %d)</span>", escaped,
                                  d->code != NULL ? d->code : "", d->code != NULL ? ", " : "",
                                  _("line"), d->line);
      else
        markup = g_steal_pointer (&escaped);
      bl_diagnostic_row_set (row, d->severity, markup, text);
    }

  if (n_all > n)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "and %u more problem (ballast-cli inspect lists them all)",
                                                            "and %u more problems (ballast-cli inspect lists them all)",
                                                            n_all - n),
                                               n_all - n);

      self->more_diagnostics = gtk_label_new (more);
      gtk_label_set_xalign (GTK_LABEL (self->more_diagnostics), 0.0);
      gtk_label_set_wrap (GTK_LABEL (self->more_diagnostics), TRUE);
      gtk_widget_add_css_class (self->more_diagnostics, "dim-label");
      gtk_widget_set_name (self->more_diagnostics, "more-diagnostics");
      gtk_box_append (self->diagnostics_box, self->more_diagnostics);
    }
}

static void
update_all (BlInspector *self)
{
  self->updating = TRUE;
  update_validity (self);
  update_props (self);
  update_buoyancy (self);
  update_inertial (self);
  bl_collision_list_update (self->collisions);
  rebuild_diagnostics (self);
  self->updating = FALSE;
}

static void
on_link_changed (BlDocument  *document,
                 BlLink      *link,
                 BlInspector *self)
{
  if (link == self->link)
    update_all (self);
  else if (self->model != NULL && bl_model_contains_link (self->model, link))
    update_model (self);
}

static void
on_fluid_edit (BlNumberField     *field,
               BlNumberFieldEdit  how,
               BlInspector       *self)
{
  bl_inspector_set_fluid_density (self, bl_number_field_get_value (field));
}

/* Edits ------------------------------------------------------------------ */

/* The inspector builds edit commands; whoever owns the undo history (the
 * window) applies them from ::edit. */
static void
submit (BlInspector *self,
        BlEdit      *edit,
        gboolean     mergeable)
{
  g_autoptr(BlEdit) owned = edit;

  g_signal_emit (self, signals[EDIT], 0, owned, mergeable);
}

static void
on_collision_density_edit (BlCollisionList   *list,
                           BlCollision       *collision,
                           BlNumberField     *field,
                           BlNumberFieldEdit  how,
                           BlInspector       *self)
{
  double value = bl_number_field_get_value (field);

  if (self->updating)
    return;
  if (how == BL_NUMBER_FIELD_CLEARED)
    {
      if (collision->has_density)
        submit (self, bl_edit_new_unset_collision_density (self->document, collision), FALSE);
      return;
    }
  if (collision->has_density && collision->density == value)
    return;
  submit (self, bl_edit_new_collision_density (self->document, collision, value),
          how == BL_NUMBER_FIELD_STEPPED);
}

static void
on_density_edit (BlNumberField     *field,
                 BlNumberFieldEdit  how,
                 BlInspector       *self)
{
  double value = bl_number_field_get_value (field);

  if (self->updating || self->link == NULL)
    return;
  if (how == BL_NUMBER_FIELD_CLEARED)
    {
      if (self->link->has_density)
        submit (self, bl_edit_new_unset_density (self->document, self->link), FALSE);
      return;
    }
  if (self->link->has_density && self->link->density == value)
    return;
  submit (self, bl_edit_new_density (self->document, self->link, value), how == BL_NUMBER_FIELD_STEPPED);
}

static void
on_mass_edit (BlNumberField     *field,
              BlNumberFieldEdit  how,
              BlInspector       *self)
{
  double value = bl_number_field_get_value (field);

  if (self->updating || self->link == NULL)
    return;
  if (how == BL_NUMBER_FIELD_CLEARED)
    {
      if (self->link->has_mass)
        submit (self, bl_edit_new_unset_mass (self->document, self->link), FALSE);
      return;
    }
  if (self->link->has_mass && self->link->mass == value)
    return;
  submit (self, bl_edit_new_mass (self->document, self->link, value), how == BL_NUMBER_FIELD_STEPPED);
}

static void
close_auto_question (BlInspector *self)
{
  if (self->question_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->question_tick);
  self->question_tick = 0;
  gtk_widget_set_visible (self->auto_question, FALSE);
}

/* The answer to the question ask_keep_computed asks: keep the computed
 * values, use the file's, or (Cancel) leave automatic inertia on. */
static void
on_auto_question_answer (GtkButton   *button,
                         BlInspector *self)
{
  close_auto_question (self);
  if (self->link == NULL)
    return;
  if (GTK_WIDGET (button) == self->auto_question_keep)
    {
      g_autoptr(GError) error = NULL;
      BlEdit *edit = bl_export_create_link_bake_edit (self->document, self->link, &error);

      if (edit != NULL)
        {
          submit (self, edit, FALSE);
          return;
        }
      g_warning ("%s", error->message);  /* unreachable: asked only when resolved */
    }
  else if (GTK_WIDGET (button) == self->auto_question_file)
    {
      submit (self, bl_edit_new_auto (self->document, self->link, FALSE), FALSE);
      return;
    }
  /* Cancelled: the switch is on again. */
  update_all (self);
}

/* The question just asked is scrolled into view, once it is laid out. */
static gboolean
scroll_to_question (GtkWidget     *widget,
                    GdkFrameClock *clock,
                    gpointer       user_data)
{
  BlInspector *self = BL_INSPECTOR (widget);
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (self->link_scroller);
  double value = gtk_adjustment_get_value (vadj);
  double page = gtk_adjustment_get_page_size (vadj);
  graphene_rect_t bounds;

  if (!gtk_widget_get_visible (self->auto_question))
    {
      self->question_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (!gtk_widget_compute_bounds (self->auto_question, GTK_WIDGET (self->link_scroller), &bounds)
      || bounds.size.height <= 0)
    return G_SOURCE_CONTINUE;   /* not laid out yet */
  /* the bounds are from the top of what shows: all of it, else its top */
  if (bounds.origin.y + bounds.size.height > page)
    value += MIN (bounds.origin.y, bounds.origin.y + bounds.size.height - page + 12);
  else if (bounds.origin.y < 0)
    value += bounds.origin.y;
  gtk_adjustment_set_value (vadj, value);
  self->question_tick = 0;
  return G_SOURCE_REMOVE;
}

/* Turning automatic inertia off falls back to what <inertial> writes, or
 * to 1 kg and unit moments: ask first, in the Inertial card, whether to
 * keep the computed values (one edit either way).  The switch stays off
 * and insensitive until the answer; a question in the window, not a
 * dialog of its own, so that answering draws only what changed. */
static void
ask_keep_computed (BlInspector *self)
{
  g_autofree char *mass = bl_field_format_quantity (self->link->props.mass, "kg");
  g_autofree char *name = bl_display_name (self->link->name);
  /* Translators: %s is a link's name */
  g_autofree char *title = g_strdup_printf (_("Keep the computed inertia of “%s”?"), name);
  /* Translators: %s is a mass, e.g. "141.5 kg" */
  g_autofree char *text = g_strdup_printf (_("Without automatic inertia the link has the mass and inertia its "
                                             "<inertial> writes, and the defaults (1 kg, unit moments of inertia) "
                                             "for what it does not write. Keeping the computed values writes %s, "
                                             "the centre of mass and the inertia as they are now."), mass);

  gtk_label_set_text (self->auto_question_title, title);
  gtk_label_set_text (self->auto_question_text, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->auto_switch), FALSE);
  gtk_widget_set_visible (self->auto_question, TRUE);
  gtk_widget_grab_focus (self->auto_question_keep);
  if (self->question_tick == 0)
    self->question_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), scroll_to_question, NULL, NULL);
}

static void
on_auto_active (GtkSwitch   *sw,
                GParamSpec  *pspec,
                BlInspector *self)
{
  gboolean active = gtk_switch_get_active (sw);

  if (self->updating || self->link == NULL || active == self->link->auto_inertia)
    return;
  if (!active && self->link->props.resolved)
    ask_keep_computed (self);
  else
    submit (self, bl_edit_new_auto (self->document, self->link, active), FALSE);
}

/* GObject ---------------------------------------------------------------- */

static void
bl_inspector_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  BlInspector *self = BL_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_FLUID_DENSITY:
      g_value_set_double (value, bl_inspector_get_fluid_density (self));
      break;
    case PROP_LINK:
      g_value_set_pointer (value, self->link);
      break;
    case PROP_MODEL:
      g_value_set_pointer (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_inspector_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  BlInspector *self = BL_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      bl_inspector_set_document (self, g_value_get_object (value));
      break;
    case PROP_FLUID_DENSITY:
      bl_inspector_set_fluid_density (self, g_value_get_double (value));
      break;
    case PROP_LINK:
      bl_inspector_set_link (self, g_value_get_pointer (value));
      break;
    case PROP_MODEL:
      bl_inspector_set_model (self, g_value_get_pointer (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_inspector_dispose (GObject *object)
{
  BlInspector *self = BL_INSPECTOR (object);

  close_auto_question (self);
  g_clear_object (&self->document_signals);
  g_clear_object (&self->document);
  g_clear_object (&self->collisions);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_INSPECTOR);

  G_OBJECT_CLASS (bl_inspector_parent_class)->dispose (object);
}

static void
bl_inspector_class_init (BlInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_inspector_dispose;
  object_class->get_property = bl_inspector_get_property;
  object_class->set_property = bl_inspector_set_property;

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
  properties[PROP_MODEL] =
    g_param_spec_pointer ("model", NULL, NULL,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * BlInspector::edit:
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
  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, BlInspector, stack);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, empty_title_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, empty_body_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, link_scroller);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, model_scroller);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, validity_icon);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, validity_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, props_grid);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_switch);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_question);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_question_title);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_question_text);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_question_cancel);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_question_file);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_question_keep);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, density_title);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, density_field);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, density_error);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, mass_title);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, mass_field);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, mass_error);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, inertial_hint);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, read_only_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, collisions_heading);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, collisions_card);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, collisions_scroller);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, collisions_list);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, diagnostics_box);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, buoyancy_grid);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, model_title_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, model_subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, model_props_grid);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, model_buoyancy_grid);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-inspector");
}

static void
bl_inspector_init (BlInspector *self)
{
  /* The document's signals, connected while it is the document shown. */
  self->document_signals = g_signal_group_new (BL_TYPE_DOCUMENT);
  g_signal_group_connect (self->document_signals, "link-changed", G_CALLBACK (on_link_changed), self);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->collisions = bl_collision_list_new (self->collisions_list, self->collisions_card,
                                            self->collisions_scroller,
                                            GTK_WIDGET (self->collisions_heading));
  g_signal_connect (self->collisions, "density-edit", G_CALLBACK (on_collision_density_edit), self);
  self->fluid_density = BL_FLUID_DENSITY_DEFAULT;
  build_props_grid (self->props_grid, &self->props);
  build_buoyancy_grid (self, self->buoyancy_grid, &self->buoyancy);
  build_props_grid (self->model_props_grid, &self->model_props);
  build_buoyancy_grid (self, self->model_buoyancy_grid, &self->model_buoyancy);

  bl_number_field_set_error_label (self->density_field, self->density_error);
  bl_number_field_set_error_label (self->mass_field, self->mass_error);
  g_signal_connect (self->density_field, "edit", G_CALLBACK (on_density_edit), self);
  g_signal_connect (self->mass_field, "edit", G_CALLBACK (on_mass_edit), self);
  g_signal_connect (self->auto_switch, "notify::active", G_CALLBACK (on_auto_active), self);
  g_signal_connect (self->auto_question_cancel, "clicked", G_CALLBACK (on_auto_question_answer), self);
  g_signal_connect (self->auto_question_file, "clicked", G_CALLBACK (on_auto_question_answer), self);
  g_signal_connect (self->auto_question_keep, "clicked", G_CALLBACK (on_auto_question_answer), self);
}

GtkWidget *
bl_inspector_new (void)
{
  return g_object_new (BL_TYPE_INSPECTOR, NULL);
}

/* Nothing selected: how to pick a link, or that the file has none (a
 * model that could not be loaded says why in the bar above the 3D view). */
static void
show_empty (BlInspector *self)
{
  gboolean no_links = self->document != NULL && bl_document_get_links (self->document)->len == 0;

  bl_collision_list_clear (self->collisions);
  gtk_label_set_text (self->empty_title_label, no_links ? _("No Links") : _("No Link Selected"));
  gtk_label_set_text (self->empty_body_label,
                      no_links ? _("The file has no links to show. If a model could not be loaded, "
                                   "the bar above the 3D view says why.")
                               : _("Pick a link in the outline or click it in the viewport to see "
                                   "and edit its mass properties."));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* A new link, model or file is shown from its top (its name), not at the
 * place the previous one was scrolled to. */
static void
scroll_to_top (GtkScrolledWindow *scroller)
{
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (scroller), 0.0);
  gtk_adjustment_set_value (gtk_scrolled_window_get_hadjustment (scroller), 0.0);
}

void
bl_inspector_set_document (BlInspector *self,
                           BlDocument  *document)
{
  g_return_if_fail (BL_IS_INSPECTOR (self));
  g_return_if_fail (document == NULL || BL_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  bl_inspector_set_link (self, NULL);
  g_set_object (&self->document, document);
  g_signal_group_set_target (self->document_signals, document);
  show_empty (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/* What the inspector shows: a link, a model or neither (not both);
 * notifies "link" and "model" when they change. */
static void
set_shown (BlInspector *self,
           BlLink      *link,
           BlModel     *model)
{
  gboolean link_changed = self->link != link;
  gboolean model_changed = self->model != model;

  self->link = link;
  self->model = model;
  if (link_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINK]);
  if (model_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

void
bl_inspector_set_link (BlInspector *self,
                       BlLink      *link)
{
  g_return_if_fail (BL_IS_INSPECTOR (self));

  if (self->link == link && (link != NULL || self->model == NULL))
    return;
  close_auto_question (self);
  set_shown (self, link, NULL);
  if (link == NULL)
    {
      show_empty (self);
      return;
    }

  {
    g_autofree char *title = bl_display_name (link->name);
    g_autofree char *scoped_name = bl_display_name (link->scoped_name);
    /* Translators: the link's scoped name and the line it starts on */
    g_autofree char *subtitle = g_strdup_printf (_("%s · line %d"), scoped_name, link->line);

    gtk_label_set_text (self->title_label, title);
    gtk_label_set_text (self->subtitle_label, subtitle);
  }
  bl_collision_list_show (self->collisions, self->document, link);
  update_all (self);
  scroll_to_top (self->link_scroller);
  gtk_stack_set_visible_child_name (self->stack, "link");
}

BlLink *
bl_inspector_get_link (BlInspector *self)
{
  g_return_val_if_fail (BL_IS_INSPECTOR (self), NULL);
  return self->link;
}

void
bl_inspector_set_model (BlInspector *self,
                        BlModel     *model)
{
  g_autofree char *subtitle = NULL;
  int n_links;

  g_return_if_fail (BL_IS_INSPECTOR (self));

  if (self->model == model)
    return;
  if (model == NULL)
    {
      set_shown (self, self->link, NULL);
      if (self->link == NULL)
        show_empty (self);
      return;
    }
  close_auto_question (self);
  set_shown (self, NULL, model);
  bl_collision_list_clear (self->collisions);

  n_links = count_links (model);
  {
    g_autofree char *title = bl_display_name (model->name);
    g_autofree char *scoped_name = bl_display_name (model->scoped_name);

    gtk_label_set_text (self->model_title_label, title);
    /* Translators: the model's scoped name, then how many links it has */
    subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %d link", "%s · %d links", n_links),
                                scoped_name, n_links);
  }
  gtk_label_set_text (self->model_subtitle_label, subtitle);
  update_model (self);
  scroll_to_top (self->model_scroller);
  gtk_stack_set_visible_child_name (self->stack, "model");
}

BlModel *
bl_inspector_get_model (BlInspector *self)
{
  g_return_val_if_fail (BL_IS_INSPECTOR (self), NULL);
  return self->model;
}

/* Under the fluid density of both buoyancy cards. */
void
bl_inspector_set_fluid_note (BlInspector *self,
                             const char  *note)
{
  BuoyancyLabels *cards[] = { &self->buoyancy, &self->model_buoyancy };

  g_return_if_fail (BL_IS_INSPECTOR (self));

  for (guint i = 0; i < G_N_ELEMENTS (cards); i++)
    bl_field_set_note (cards[i]->fluid_note, note);
}

double
bl_inspector_get_fluid_density (BlInspector *self)
{
  g_return_val_if_fail (BL_IS_INSPECTOR (self), BL_FLUID_DENSITY_DEFAULT);
  return self->fluid_density;
}

void
bl_inspector_set_fluid_density (BlInspector *self,
                                double       density)
{
  g_return_if_fail (BL_IS_INSPECTOR (self));
  g_return_if_fail (density > 0.0);

  if (self->fluid_density == density)
    return;
  self->fluid_density = density;
  bl_number_field_set_value (self->buoyancy.fluid_field, density);
  bl_number_field_set_value (self->model_buoyancy.fluid_field, density);
  if (self->link != NULL)
    update_buoyancy (self);
  if (self->model != NULL)
    update_model (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLUID_DENSITY]);
}
