/* bl-inspector.c: the selected link's mass properties, inertial settings,
 * collision densities and diagnostics. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-edit.h"
#include "bl-field.h"
#include "bl-inspector.h"
#include "bl-inertial.h"
#include "bl-number.h"

struct _BlInspector
{
  GtkWidget      parent_instance;

  GtkStack      *stack;
  GtkLabel      *title_label;
  GtkLabel      *subtitle_label;
  GtkImage      *validity_icon;
  GtkLabel      *validity_label;
  GtkGrid       *props_grid;
  GtkSwitch     *auto_switch;
  GtkLabel      *density_title;
  GtkSpinButton *density_spin;
  GtkLabel      *density_error;
  GtkLabel      *mass_title;
  GtkSpinButton *mass_spin;
  GtkLabel      *mass_error;
  GtkLabel      *inertial_hint;
  GtkLabel      *collisions_heading;
  GtkGrid       *collisions_grid;
  GtkBox        *diagnostics_box;

  /* Value labels of the mass-properties grid. */
  GtkLabel      *mass_value;
  GtkLabel      *com_value[3];
  GtkLabel      *inertia_value[3][3];
  GtkLabel      *moments_value[3];
  GtkLabel      *ellipsoid_value[3];

  BlDocument    *document;
  gulong         link_changed_id;
  BlLink        *link;
  GPtrArray     *collision_spins;   /* GtkSpinButton*, one per collision */
  gboolean       updating;
};

G_DEFINE_FINAL_TYPE (BlInspector, bl_inspector, GTK_TYPE_WIDGET)

enum {
  EDIT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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
build_props_grid (BlInspector *self)
{
  GtkGrid *grid = self->props_grid;
  int row = 0;

  attach_title (grid, _("Mass"), "kg", row);
  self->mass_value = value_label ();
  gtk_grid_attach (grid, GTK_WIDGET (self->mass_value), 3, row++, 1, 1);

  attach_title (grid, _("Centre of mass"), "m", row);
  attach_triple (grid, self->com_value, row++);

  attach_title (grid, _("Inertia tensor"), "kg·m²", row);
  for (int i = 0; i < 3; i++)
    attach_triple (grid, self->inertia_value[i], row++);

  attach_title (grid, _("Principal moments"), "kg·m²", row);
  attach_triple (grid, self->moments_value, row++);

  attach_title (grid, _("Equivalent ellipsoid"), "m", row);
  attach_triple (grid, self->ellipsoid_value, row++);
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

  gtk_widget_remove_css_class (GTK_WIDGET (self->validity_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->validity_label), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->validity_icon), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->validity_icon), "success");
  if (reason == NULL)
    {
      gtk_image_set_from_icon_name (self->validity_icon, "emblem-ok-symbolic");
      gtk_label_set_text (self->validity_label, _("Valid inertia"));
      gtk_widget_add_css_class (GTK_WIDGET (self->validity_label), "success");
      gtk_widget_add_css_class (GTK_WIDGET (self->validity_icon), "success");
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("Invalid inertia: %s"), reason);

      gtk_image_set_from_icon_name (self->validity_icon, "dialog-error-symbolic");
      gtk_label_set_text (self->validity_label, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->validity_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->validity_icon), "error");
    }
}

static void
update_props (BlInspector *self)
{
  const BlMassProperties *p = &self->link->props;
  double com[3] = { p->com.x, p->com.y, p->com.z };

  set_number (self->mass_value, p->mass);
  for (int i = 0; i < 3; i++)
    {
      set_number (self->com_value[i], com[i]);
      set_number (self->moments_value[i], p->principal_moments[i]);
      if (p->has_equivalent)
        set_number (self->ellipsoid_value[i], p->equivalent_ellipsoid[i]);
      else
        gtk_label_set_text (self->ellipsoid_value[i], "—");
      for (int j = 0; j < 3; j++)
        set_number (self->inertia_value[i][j], p->inertia.m[i][j]);
    }
}

static void
set_spin (GtkSpinButton *spin,
          GtkLabel      *message,
          double         value)
{
  bl_field_clear_error (GTK_WIDGET (spin), message);
  bl_field_set_spin_empty (spin, FALSE);
  if (isfinite (value) && value > 0.0)
    {
      GtkAdjustment *adj = gtk_spin_button_get_adjustment (spin);

      if (value < gtk_adjustment_get_lower (adj))
        gtk_adjustment_set_lower (adj, value);
      if (value > gtk_adjustment_get_upper (adj))
        gtk_adjustment_set_upper (adj, value);
      gtk_spin_button_set_value (spin, value);
      bl_field_set_value (GTK_EDITABLE (spin), value);
    }
}

static void
update_inertial (BlInspector *self)
{
  BlLink *link = self->link;
  gboolean is_auto = link->auto_inertia;

  gtk_switch_set_active (self->auto_switch, is_auto);
  gtk_widget_set_sensitive (GTK_WIDGET (self->density_spin), is_auto);
  gtk_widget_set_sensitive (GTK_WIDGET (self->density_title), is_auto);

  set_spin (self->density_spin, self->density_error,
            link->has_density ? link->density : 1000.0);
  if (!link->has_density)
    bl_field_set_spin_empty (self->density_spin, TRUE);

  if (link->has_mass)
    set_spin (self->mass_spin, self->mass_error, link->mass);
  else
    {
      bl_field_clear_error (GTK_WIDGET (self->mass_spin), self->mass_error);
      bl_field_set_spin_empty (self->mass_spin, TRUE);
    }

  gtk_label_set_text (self->mass_title, is_auto ? _("Target mass") : _("Mass"));
  if (is_auto)
    gtk_label_set_text (self->inertial_hint,
                        link->has_mass
                        ? _("Computed from the collisions, then scaled to the target mass.")
                        : _("Computed from the collisions and their densities; collisions without a density use the link density (1000 kg/m³ when unset)."));
  else
    gtk_label_set_text (self->inertial_hint, _("Mass and inertia as written in the file."));
}

static void
on_collision_density_changed (GtkSpinButton *spin,
                              BlInspector   *self);

static void
rebuild_collisions (BlInspector *self)
{
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->collisions_grid))) != NULL)
    gtk_grid_remove (self->collisions_grid, child);
  g_ptr_array_set_size (self->collision_spins, 0);

  gtk_widget_set_visible (GTK_WIDGET (self->collisions_heading), self->link->collisions->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->collisions_grid), self->link->collisions->len > 0);

  for (guint i = 0; i < self->link->collisions->len; i++)
    {
      BlCollision *collision = g_ptr_array_index (self->link->collisions, i);
      GtkWidget *name = gtk_label_new (collision->name);
      GtkWidget *type = gtk_label_new (bl_geometry_type_to_string (collision->geometry.type));
      GtkWidget *spin = gtk_spin_button_new_with_range (0.001, 1e6, 10);
      GtkWidget *unit = gtk_label_new ("kg/m³");
      GtkWidget *used = gtk_label_new (NULL);
      GtkWidget *error = gtk_label_new (NULL);
      g_autofree char *widget_name = g_strdup_printf ("collision-density-%s", collision->name);
      g_autofree char *a11y = g_strdup_printf (_("Density of %s"), collision->name);

      gtk_label_set_xalign (GTK_LABEL (name), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (name, TRUE);
      gtk_label_set_xalign (GTK_LABEL (type), 0.0);
      gtk_widget_add_css_class (type, "dim-label");
      gtk_widget_add_css_class (type, "caption");
      gtk_label_set_xalign (GTK_LABEL (unit), 0.0);
      gtk_label_set_width_chars (GTK_LABEL (unit), 5);
      gtk_widget_add_css_class (unit, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (used), 1.0);
      gtk_widget_add_css_class (used, "dim-label");
      gtk_widget_add_css_class (used, "caption");
      gtk_label_set_xalign (GTK_LABEL (error), 1.0);
      gtk_label_set_wrap (GTK_LABEL (error), TRUE);
      gtk_widget_add_css_class (error, "error");
      gtk_widget_add_css_class (error, "caption");
      gtk_widget_set_visible (error, FALSE);

      gtk_widget_set_name (spin, widget_name);
      gtk_editable_set_width_chars (GTK_EDITABLE (spin), 10);
      gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
      bl_field_setup_spin (GTK_SPIN_BUTTON (spin), GTK_LABEL (error), BL_FIELD_POSITIVE);
      g_object_set_data (G_OBJECT (spin), "bl-collision", collision);
      g_object_set_data (G_OBJECT (spin), "bl-used-label", used);
      g_object_set_data (G_OBJECT (spin), "bl-error-label", error);
      g_signal_connect (spin, "value-changed", G_CALLBACK (on_collision_density_changed), self);
      g_ptr_array_add (self->collision_spins, spin);

      gtk_grid_attach (self->collisions_grid, name, 0, row, 1, 1);
      gtk_grid_attach (self->collisions_grid, spin, 1, row, 1, 1);
      gtk_grid_attach (self->collisions_grid, unit, 2, row++, 1, 1);
      gtk_grid_attach (self->collisions_grid, type, 0, row, 1, 1);
      gtk_grid_attach (self->collisions_grid, used, 1, row++, 2, 1);
      gtk_grid_attach (self->collisions_grid, error, 0, row++, 3, 1);
    }
}

static void
update_collisions (BlInspector *self)
{
  for (guint i = 0; i < self->collision_spins->len; i++)
    {
      GtkSpinButton *spin = g_ptr_array_index (self->collision_spins, i);
      BlCollision *collision = g_object_get_data (G_OBJECT (spin), "bl-collision");
      GtkLabel *used = g_object_get_data (G_OBJECT (spin), "bl-used-label");
      GtkLabel *error = g_object_get_data (G_OBJECT (spin), "bl-error-label");
      g_autofree char *text = NULL;

      if (collision->has_density)
        set_spin (spin, error, collision->density);
      else
        {
          bl_field_clear_error (GTK_WIDGET (spin), error);
          bl_field_set_spin_empty (spin, TRUE);
        }
      gtk_widget_set_sensitive (GTK_WIDGET (spin), self->link->auto_inertia);

      if (!self->link->auto_inertia)
        text = g_strdup (_("used only by automatic inertia"));
      else if (collision->contributes)
        /* Translators: the density a collision used and the mass it gave */
        text = g_strdup_printf (_("uses %.6g kg/m³ · %.6g kg"),
                                collision->used_density, collision->inertial.mass);
      else
        text = g_strdup (_("contributes no mass"));
      gtk_label_set_text (used, text);
    }
}

static void
rebuild_diagnostics (BlInspector *self)
{
  GtkWidget *child;
  guint shown = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->diagnostics_box))) != NULL)
    gtk_box_remove (self->diagnostics_box, child);

  for (guint i = 0; i < self->link->diagnostics->len; i++)
    {
      const BlDiagnostic *d = g_ptr_array_index (self->link->diagnostics, i);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *icon;
      GtkWidget *label;
      g_autofree char *text = NULL;

      switch (d->severity)
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

      text = bl_diagnostic_to_string (d);
      label = gtk_label_new (NULL);
      {
        g_autofree char *escaped = g_markup_escape_text (d->message, -1);
        g_autofree char *markup = NULL;

        if (d->line > 0)
          markup = g_strdup_printf ("%s <span alpha=\"60%%\">(%s%s%s %d)</span>", escaped,
                                    d->code != NULL ? d->code : "", d->code != NULL ? ", " : "",
                                    _("line"), d->line);
        else
          markup = g_steal_pointer (&escaped);
        gtk_label_set_markup (GTK_LABEL (label), markup);
      }
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_set_tooltip_text (label, text);

      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (self->diagnostics_box, row);
      shown++;
    }

  if (shown == 0)
    {
      GtkWidget *label = gtk_label_new (_("No problems found"));

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->diagnostics_box, label);
    }
}

static void
update_all (BlInspector *self)
{
  self->updating = TRUE;
  update_validity (self);
  update_props (self);
  update_inertial (self);
  update_collisions (self);
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
on_collision_density_changed (GtkSpinButton *spin,
                              BlInspector   *self)
{
  BlCollision *collision = g_object_get_data (G_OBJECT (spin), "bl-collision");
  GtkLabel *error = g_object_get_data (G_OBJECT (spin), "bl-error-label");
  double value = gtk_spin_button_get_value (spin);

  if (self->updating || collision == NULL)
    return;
  /* GTK re-emits ::value-changed after refusing text: nothing changed. */
  if (collision->has_density && collision->density == value)
    return;
  if (!(value > 0.0) || !isfinite (value))
    {
      bl_field_show_error (GTK_WIDGET (spin), error, _("Must be greater than zero"));
      return;
    }
  submit (self, bl_edit_new_collision_density (self->document, collision, value),
          !bl_field_spin_take_typed (spin));
}

static void
on_density_changed (GtkSpinButton *spin,
                    BlInspector   *self)
{
  double value = gtk_spin_button_get_value (spin);

  if (self->updating || self->link == NULL)
    return;
  if (self->link->has_density && self->link->density == value)
    return;
  submit (self, bl_edit_new_density (self->document, self->link, value),
          !bl_field_spin_take_typed (spin));
}

static void
on_mass_changed (GtkSpinButton *spin,
                 BlInspector   *self)
{
  double value = gtk_spin_button_get_value (spin);

  if (self->updating || self->link == NULL)
    return;
  if (self->link->has_mass && self->link->mass == value)
    return;
  submit (self, bl_edit_new_mass (self->document, self->link, value),
          !bl_field_spin_take_typed (spin));
}

static void
on_auto_active (GtkSwitch   *sw,
                GParamSpec  *pspec,
                BlInspector *self)
{
  if (self->updating || self->link == NULL)
    return;
  if (gtk_switch_get_active (sw) != self->link->auto_inertia)
    submit (self, bl_edit_new_auto (self->document, self->link, gtk_switch_get_active (sw)), FALSE);
}

/* GObject ---------------------------------------------------------------- */

static void
bl_inspector_dispose (GObject *object)
{
  BlInspector *self = BL_INSPECTOR (object);

  if (self->document != NULL)
    g_clear_signal_handler (&self->link_changed_id, self->document);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_INSPECTOR);
  g_clear_pointer (&self->collision_spins, g_ptr_array_unref);

  G_OBJECT_CLASS (bl_inspector_parent_class)->dispose (object);
}

static void
bl_inspector_class_init (BlInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_inspector_dispose;

  /**
   * BlInspector::edit:
   * @edit: the unapplied edit the user asked for
   * @mergeable: TRUE for a step of a spin button, which may merge with
   *   the previous step into one undo step
   */
  signals[EDIT] =
    g_signal_new ("edit",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, BL_TYPE_EDIT | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, BlInspector, stack);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, validity_icon);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, validity_label);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, props_grid);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, auto_switch);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, density_title);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, density_spin);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, density_error);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, mass_title);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, mass_spin);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, mass_error);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, inertial_hint);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, collisions_heading);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, collisions_grid);
  gtk_widget_class_bind_template_child (widget_class, BlInspector, diagnostics_box);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-inspector");
}

static void
bl_inspector_init (BlInspector *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->collision_spins = g_ptr_array_new ();
  build_props_grid (self);

  bl_field_setup_spin (self->density_spin, self->density_error, BL_FIELD_POSITIVE);
  bl_field_setup_spin (self->mass_spin, self->mass_error, BL_FIELD_POSITIVE);
  g_signal_connect (self->density_spin, "value-changed", G_CALLBACK (on_density_changed), self);
  g_signal_connect (self->mass_spin, "value-changed", G_CALLBACK (on_mass_changed), self);
  g_signal_connect (self->auto_switch, "notify::active", G_CALLBACK (on_auto_active), self);
}

GtkWidget *
bl_inspector_new (void)
{
  return g_object_new (BL_TYPE_INSPECTOR, NULL);
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
  if (self->document != NULL)
    g_clear_signal_handler (&self->link_changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->link_changed_id = g_signal_connect (document, "link-changed",
                                              G_CALLBACK (on_link_changed), self);
}

void
bl_inspector_set_link (BlInspector *self,
                       BlLink      *link)
{
  g_return_if_fail (BL_IS_INSPECTOR (self));

  if (self->link == link)
    return;
  self->link = link;
  if (link == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  gtk_label_set_text (self->title_label, link->name);
  {
    /* Translators: the link's scoped name and the line it starts on */
    g_autofree char *subtitle = g_strdup_printf (_("%s · line %d"), link->scoped_name, link->line);
    gtk_label_set_text (self->subtitle_label, subtitle);
  }
  rebuild_collisions (self);
  update_all (self);
  gtk_stack_set_visible_child_name (self->stack, "link");
}

BlLink *
bl_inspector_get_link (BlInspector *self)
{
  g_return_val_if_fail (BL_IS_INSPECTOR (self), NULL);
  return self->link;
}
