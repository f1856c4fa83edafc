/* bl-problems-bar.c: the document's own problems, in an info bar above the 3D view. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-problems-bar.h"

struct _BlProblemsBar
{
  GtkWidget      parent_instance;

  GtkInfoBar    *info_bar;
  GtkImage      *icon;
  GtkLabel      *title_label;
  GtkLabel      *message_label;
  GtkLabel      *hint_label;
  GtkButton     *add_path_button;
  GtkMenuButton *details_button;
  GtkBox        *details_box;

  BlDocument    *document;
  gboolean       closed;       /* by the user, until the next document */
};

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_REVEALED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (BlProblemsBar, bl_problems_bar, GTK_TYPE_WIDGET)

gboolean
bl_problems_bar_wants_model_path (const BlDiagnostic *diagnostic)
{
  g_return_val_if_fail (diagnostic != NULL, FALSE);

  /* The resolver says "not found" or "Cannot find" when no folder held the
   * model; a cycle, a missing <uri> or an unreadable file are not that. */
  return g_strcmp0 (diagnostic->code, "include") == 0 &&
         (strstr (diagnostic->message, "not found") != NULL ||
          strstr (diagnostic->message, "Cannot find") != NULL);
}

/* Errors first, then warnings, each in document order. */
static GPtrArray *
collect_problems (BlDocument *document)
{
  GPtrArray *problems = g_ptr_array_new ();
  GPtrArray *all;

  if (document == NULL)
    return problems;
  all = bl_document_get_diagnostics (document);
  for (int severity = BL_SEVERITY_ERROR; severity >= BL_SEVERITY_WARNING; severity--)
    for (guint i = 0; i < all->len; i++)
      {
        BlDiagnostic *d = g_ptr_array_index (all, i);

        if ((int) d->severity == severity)
          g_ptr_array_add (problems, d);
      }
  return problems;
}

/* "world.sdf, line 12": where the problem is, as the user finds it. */
static char *
dup_location (const BlDiagnostic *d)
{
  g_autofree char *name = d->file != NULL ? g_path_get_basename (d->file) : NULL;

  if (name != NULL && d->line > 0)
    /* Translators: a file name and a line number */
    return g_strdup_printf (_("%s, line %d"), name, d->line);
  if (name != NULL)
    return g_steal_pointer (&name);
  if (d->line > 0)
    return g_strdup_printf (_("line %d"), d->line);
  return NULL;
}

static GtkWidget *
severity_icon_new (BlSeverity severity)
{
  GtkWidget *icon;

  if (severity == BL_SEVERITY_ERROR)
    {
      icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");
      gtk_widget_add_css_class (icon, "error");
    }
  else
    {
      icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      gtk_widget_add_css_class (icon, "warning");
    }
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  return icon;
}

/* One problem in the details popover: what, then where (the full path on
 * hover), both selectable so that a path can be copied. */
static GtkWidget *
problem_row_new (const BlDiagnostic *d)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *message = gtk_label_new (d->message);
  g_autofree char *location = dup_location (d);

  gtk_widget_add_css_class (row, "bl-problem");
  gtk_label_set_xalign (GTK_LABEL (message), 0.0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (message), 64);
  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  gtk_box_append (GTK_BOX (text), message);
  if (location != NULL)
    {
      GtkWidget *where = gtk_label_new (location);

      gtk_label_set_xalign (GTK_LABEL (where), 0.0);
      gtk_label_set_selectable (GTK_LABEL (where), TRUE);
      gtk_widget_add_css_class (where, "dim-label");
      gtk_widget_add_css_class (where, "caption");
      gtk_widget_set_tooltip_text (where, d->file);
      gtk_box_append (GTK_BOX (text), where);
    }
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (row), severity_icon_new (d->severity));
  gtk_box_append (GTK_BOX (row), text);
  return row;
}

static char *
dup_title (GPtrArray *problems)
{
  guint errors = 0, warnings = 0, includes = 0;

  for (guint i = 0; i < problems->len; i++)
    {
      const BlDiagnostic *d = g_ptr_array_index (problems, i);

      if (d->severity == BL_SEVERITY_ERROR)
        errors++;
      else
        warnings++;
      if (bl_problems_bar_wants_model_path (d))
        includes++;
    }
  if (includes == 1 && problems->len == 1)
    return g_strdup (_("A model could not be found"));
  if (includes > 0 && includes == problems->len)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u model could not be found",
                                         "%u models could not be found", includes), includes);
  if (errors > 0 && warnings > 0)
    {
      g_autofree char *e = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u error", "%u errors", errors), errors);
      g_autofree char *w = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u warning", "%u warnings", warnings),
                                            warnings);

      /* Translators: "2 errors" and "1 warning" */
      return g_strdup_printf (_("The file has %s and %s"), e, w);
    }
  if (errors > 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The file has %u error",
                                         "The file has %u errors", errors), errors);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The file has %u warning",
                                       "The file has %u warnings", warnings), warnings);
}

static void
update (BlProblemsBar *self)
{
  g_autoptr(GPtrArray) problems = collect_problems (self->document);
  gboolean was_revealed = gtk_info_bar_get_revealed (self->info_bar);
  gboolean revealed = problems->len > 0 && !self->closed;
  gboolean wants_path = FALSE;
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->details_box))) != NULL)
    gtk_box_remove (self->details_box, row);

  if (problems->len > 0)
    {
      const BlDiagnostic *first = g_ptr_array_index (problems, 0);
      g_autofree char *title = dup_title (problems);
      g_autofree char *location = dup_location (first);
      g_autofree char *message = location != NULL ? g_strdup_printf ("%s: %s", location, first->message)
                                                  : g_strdup (first->message);

      for (guint i = 0; i < problems->len; i++)
        {
          wants_path |= bl_problems_bar_wants_model_path (g_ptr_array_index (problems, i));
          gtk_box_append (self->details_box, problem_row_new (g_ptr_array_index (problems, i)));
        }
      gtk_info_bar_set_message_type (self->info_bar, first->severity == BL_SEVERITY_ERROR
                                                     ? GTK_MESSAGE_ERROR : GTK_MESSAGE_WARNING);
      gtk_image_set_from_icon_name (self->icon, first->severity == BL_SEVERITY_ERROR
                                                ? "dialog-error-symbolic" : "dialog-warning-symbolic");
      gtk_label_set_text (self->title_label, title);
      gtk_label_set_text (self->message_label, message);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->message_label), first->file);
    }
  /* How to fix it: the model path, and the variable gz-sim itself reads. */
  gtk_widget_set_visible (GTK_WIDGET (self->hint_label), wants_path);
  gtk_widget_set_visible (GTK_WIDGET (self->add_path_button), wants_path);
  gtk_info_bar_set_revealed (self->info_bar, revealed);
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), revealed);
  if (was_revealed != revealed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVEALED]);
}

static void
on_response (GtkInfoBar    *info_bar,
             int            response,
             BlProblemsBar *self)
{
  if (response != GTK_RESPONSE_CLOSE)
    return;
  self->closed = TRUE;
  update (self);
}

void
bl_problems_bar_set_document (BlProblemsBar *self,
                              BlDocument    *document)
{
  g_return_if_fail (BL_IS_PROBLEMS_BAR (self));
  g_return_if_fail (document == NULL || BL_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  g_set_object (&self->document, document);
  self->closed = FALSE;
  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

BlDocument *
bl_problems_bar_get_document (BlProblemsBar *self)
{
  g_return_val_if_fail (BL_IS_PROBLEMS_BAR (self), NULL);
  return self->document;
}

gboolean
bl_problems_bar_get_revealed (BlProblemsBar *self)
{
  g_return_val_if_fail (BL_IS_PROBLEMS_BAR (self), FALSE);
  return gtk_info_bar_get_revealed (self->info_bar);
}

GtkWidget *
bl_problems_bar_new (void)
{
  return g_object_new (BL_TYPE_PROBLEMS_BAR, NULL);
}

static void
bl_problems_bar_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  BlProblemsBar *self = BL_PROBLEMS_BAR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_REVEALED:
      g_value_set_boolean (value, bl_problems_bar_get_revealed (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_problems_bar_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  BlProblemsBar *self = BL_PROBLEMS_BAR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      bl_problems_bar_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
bl_problems_bar_dispose (GObject *object)
{
  BlProblemsBar *self = BL_PROBLEMS_BAR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), BL_TYPE_PROBLEMS_BAR);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (bl_problems_bar_parent_class)->dispose (object);
}

static void
bl_problems_bar_class_init (BlProblemsBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = bl_problems_bar_get_property;
  object_class->set_property = bl_problems_bar_set_property;
  object_class->dispose = bl_problems_bar_dispose;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, BL_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_REVEALED] =
    g_param_spec_boolean ("revealed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/app/ballast/Ballast/ui/bl-problems-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, info_bar);
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, icon);
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, title_label);
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, message_label);
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, hint_label);
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, add_path_button);
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, details_button);
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, details_box);
  gtk_widget_class_bind_template_callback (widget_class, on_response);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "bl-problems-bar");
}

static void
bl_problems_bar_init (BlProblemsBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  update (self);
}
