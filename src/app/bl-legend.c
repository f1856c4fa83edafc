/* bl-legend.c: the key to the 3D view's colours, shown in a corner of it. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "bl-legend.h"
#include "bl-renderer.h"

struct _BlLegend
{
  GtkWidget  parent_instance;

  GtkWidget *box;
};

G_DEFINE_FINAL_TYPE (BlLegend, bl_legend, GTK_TYPE_WIDGET)

typedef enum
{
  SWATCH_SHELL,     /* a translucent disc with a rim: the inertia ellipsoid */
  SWATCH_RINGS,     /* a dashed ring: the added-mass ellipsoid */
  SWATCH_SOLID,     /* a filled disc: bodies, the centre of buoyancy */
  SWATCH_COM,       /* the black-and-white centre-of-mass symbol */
  SWATCH_BOX,       /* a square outline: the inertia box */
  SWATCH_AXES,      /* three lines, red, green, blue */
} SwatchKind;

typedef struct
{
  SwatchKind   kind;
  const float *color;
} Swatch;

#define SWATCH_SIZE 14

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  const Swatch *swatch = data;
  const float *c = swatch->color;
  double cx = width / 2.0, cy = height / 2.0, r = MIN (width, height) / 2.0 - 1.0;

  switch (swatch->kind)
    {
    case SWATCH_SHELL:
      cairo_arc (cr, cx, cy, r, 0, 2 * G_PI);
      cairo_set_source_rgba (cr, c[0], c[1], c[2], 0.35);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, c[0], c[1], c[2]);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      break;
    case SWATCH_RINGS:
      {
        double dash = 2 * G_PI * (r - 1.0) / 12.0;

        cairo_arc (cr, cx, cy, r - 1.0, 0, 2 * G_PI);
        cairo_set_dash (cr, &dash, 1, 0);
        cairo_set_source_rgb (cr, c[0], c[1], c[2]);
        cairo_set_line_width (cr, 2.0);
        cairo_stroke (cr);
        break;
      }
    case SWATCH_SOLID:
      cairo_arc (cr, cx, cy, r, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, c[0], c[1], c[2]);
      cairo_fill (cr);
      break;
    case SWATCH_COM:
      for (int q = 0; q < 4; q++)
        {
          const float *fill = q % 2 == 0 ? bl_render_com_color : bl_render_com_dark_color;

          cairo_move_to (cr, cx, cy);
          cairo_arc (cr, cx, cy, r, q * G_PI / 2, (q + 1) * G_PI / 2);
          cairo_close_path (cr);
          cairo_set_source_rgb (cr, fill[0], fill[1], fill[2]);
          cairo_fill (cr);
        }
      break;
    case SWATCH_BOX:
      cairo_rectangle (cr, cx - r + 1, cy - r + 1, 2 * r - 2, 2 * r - 2);
      cairo_set_source_rgb (cr, c[0], c[1], c[2]);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      break;
    case SWATCH_AXES:
      for (int axis = 0; axis < 3; axis++)
        {
          double a = G_PI / 2 + axis * 2 * G_PI / 3;

          cairo_move_to (cr, cx, cy);
          cairo_line_to (cr, cx + r * cos (a), cy - r * sin (a));
          cairo_set_source_rgb (cr, axis == 0, axis == 1, axis == 2);
          cairo_set_line_width (cr, 1.5);
          cairo_stroke (cr);
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

static const float axes_swatch_color[3] = { 1, 1, 1 };

/* A row: swatch and text; shown while VIEWPORT's PROPERTY is on (NULL: always). */
static void
add_row (BlLegend    *self,
         BlViewport  *viewport,
         const char  *property,
         const char  *name,
         SwatchKind   kind,
         const float *color,
         const char  *text)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *area = gtk_drawing_area_new ();
  GtkWidget *label = gtk_label_new (text);
  Swatch *swatch = g_new (Swatch, 1);
  g_autofree char *widget_name = g_strdup_printf ("legend-%s", property != NULL ? property : name);

  swatch->kind = kind;
  swatch->color = color;
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), SWATCH_SIZE);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), SWATCH_SIZE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_swatch, swatch, g_free);
  gtk_widget_set_valign (area, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  /* In a 3D view narrower than the legend (a small window) the text is
   * cut at its end; the legend is never wider than the view, which would
   * cut it at its start, swatches first. */
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (row), area);
  gtk_box_append (GTK_BOX (row), label);
  gtk_widget_set_name (row, widget_name);
  gtk_box_append (GTK_BOX (self->box), row);
  if (property != NULL)
    g_object_bind_property (viewport, property, row, "visible", G_BINDING_SYNC_CREATE);
}

static void
bl_legend_dispose (GObject *object)
{
  BlLegend *self = BL_LEGEND (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (bl_legend_parent_class)->dispose (object);
}

static void
bl_legend_class_init (BlLegendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = bl_legend_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-legend");
}

static void
bl_legend_init (BlLegend *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "osd");
  gtk_widget_add_css_class (GTK_WIDGET (self), "bl-legend");
  /* A key to read, not a control: clicks go through to the view. */
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
}

GtkWidget *
bl_legend_new (BlViewport *viewport)
{
  BlLegend *self;

  g_return_val_if_fail (BL_IS_VIEWPORT (viewport), NULL);

  self = g_object_new (BL_TYPE_LEGEND, NULL);
  add_row (self, viewport, NULL, "selection", SWATCH_SOLID, bl_render_selection_color,
           _("Selection (its collision brighter)"));
  add_row (self, viewport, NULL, "warning", SWATCH_SOLID, bl_render_warning_color,
           _("Invalid inertia or added mass"));
  add_row (self, viewport, "show-inertia-ellipsoid", NULL, SWATCH_SHELL, bl_render_ellipsoid_color,
           _("Inertia ellipsoid"));
  add_row (self, viewport, "show-added-mass", NULL, SWATCH_RINGS, bl_render_added_mass_color,
           _("Added-mass ellipsoid (dashed)"));
  add_row (self, viewport, "show-inertia-box", NULL, SWATCH_BOX, bl_render_box_color,
           _("Inertia box"));
  add_row (self, viewport, "show-com", NULL, SWATCH_COM, bl_render_com_color,
           _("Centre of mass"));
  add_row (self, viewport, "show-buoyancy-center", NULL, SWATCH_SOLID, bl_render_buoyancy_color,
           _("Centre of buoyancy"));
  add_row (self, viewport, "show-principal-axes", NULL, SWATCH_AXES, axes_swatch_color,
           _("Principal axes (red: smallest moment)"));
  return GTK_WIDGET (self);
}
