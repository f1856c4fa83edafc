/* bl-problems-bar.c: the document's own problems, in an info bar above the 3D view. */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "bl-field.h"
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
  GtkButton     *allow_button;
  GtkMenuButton *details_button;
  GtkBox        *details_box;

  BlDocument    *document;
  gboolean       closed;       /* by the user, until the next document */
  GPtrArray     *mesh_rows;    /* BlDiagnostic*: the first refused meshes (link
                                * diagnostics), shown among the document's */
  GHashTable    *failures;     /* place_key → the first BlIncludeFailure there */
};

/* The refused meshes the bar lists one by one: a world can name thousands
 * (each link's own list has them all). */
#define MESH_ROWS_MAX 50
/* The problems Details lists one by one, errors first: a file of 50,000
 * nameless models has 100,000 (a label each took 10 s and 2 GB to show);
 * a last row counts the rest, which ballast-cli check lists. */
#define PROBLEM_ROWS_MAX 50
/* The folders to allow the hint names; Details lists them all. */
#define HINT_FOLDERS_MAX 5

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_REVEALED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (BlProblemsBar, bl_problems_bar, GTK_TYPE_WIDGET)

/* Where a failed include, and the diagnostic that reports it, are: both
 * carry the same file, line and message. */
static char *
place_key (const char *file,
           int         line,
           const char *message)
{
  return g_strdup_printf ("%d\n%s\n%s", line, file != NULL ? file : "", message != NULL ? message : "");
}

/* The failed includes by place, made again for a new document: a file
 * can have thousands, and each problem asks. */
static void
index_failures (BlProblemsBar *self)
{
  GPtrArray *failures;

  g_clear_pointer (&self->failures, g_hash_table_unref);
  if (self->document == NULL)
    return;
  failures = bl_document_get_include_failures (self->document);
  self->failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < failures->len; i++)
    {
      BlIncludeFailure *failure = g_ptr_array_index (failures, i);
      char *key = place_key (failure->file, failure->line, failure->message);

      if (g_hash_table_contains (self->failures, key))
        g_free (key);
      else
        g_hash_table_insert (self->failures, key, failure);
    }
}

/* The failed include a diagnostic reports, if it is one. */
static const BlIncludeFailure *
find_include_failure (BlProblemsBar      *self,
                      const BlDiagnostic *d)
{
  g_autofree char *key = NULL;

  if (self->failures == NULL || g_hash_table_size (self->failures) == 0)
    return NULL;
  key = place_key (d->file, d->line, d->message);
  return g_hash_table_lookup (self->failures, key);
}

/* Whether adding a model folder fixes it: an include looked for in folders
 * and found in none (not a Fuel model missing from the cache, nor a file
 * found but unusable). */
static gboolean
wants_model_path (BlProblemsBar      *self,
                  const BlDiagnostic *d)
{
  const BlIncludeFailure *failure = find_include_failure (self, d);

  return failure != NULL && failure->problem == BL_INCLUDE_NOT_FOUND;
}

/* The refused mesh a row of mesh_rows shows, or NULL. */
static const BlMeshRefusal *
find_mesh_refusal (BlProblemsBar      *self,
                   const BlDiagnostic *d)
{
  guint index;

  if (self->mesh_rows == NULL || !g_ptr_array_find (self->mesh_rows, d, &index))
    return NULL;
  return g_ptr_array_index (bl_document_get_mesh_refusals (self->document), index);
}

/* Whether the problem is a file the placement rule refused (docs/HARDENING.md,
 * "Files only where they belong"); *folder gets the folder that allows it,
 * NULL when none can (a special file). */
static gboolean
is_refusal (BlProblemsBar      *self,
            const BlDiagnostic *d,
            const char        **folder)
{
  const BlIncludeFailure *failure = find_include_failure (self, d);
  const BlMeshRefusal *refusal = find_mesh_refusal (self, d);

  if (failure != NULL && failure->problem == BL_INCLUDE_REFUSED)
    *folder = failure->folder;
  else if (refusal != NULL)
    *folder = refusal->folder;
  else
    return FALSE;
  return TRUE;
}

/* Every folder whose allowing would let the document's refused includes
 * and meshes load, once each, in document order. */
static GStrv
dup_folders_to_allow (BlDocument *document)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *failures = bl_document_get_include_failures (document);
  GPtrArray *refusals = bl_document_get_mesh_refusals (document);

  for (guint i = 0; i < failures->len + refusals->len; i++)
    {
      const char *folder = i < failures->len
                           ? ((BlIncludeFailure *) g_ptr_array_index (failures, i))->folder
                           : ((BlMeshRefusal *) g_ptr_array_index (refusals, i - failures->len))->folder;

      if (folder != NULL && g_hash_table_add (seen, (gpointer) folder))
        g_strv_builder_add (builder, folder);
    }
  return g_strv_builder_end (builder);
}

/* How to fix the includes not found: name the folder to add when there is
 * one model to find. */
static char *
dup_hint (BlDocument *document)
{
  GPtrArray *failures = bl_document_get_include_failures (document);
  const char *name = NULL;

  for (guint i = 0; i < failures->len; i++)
    {
      const BlIncludeFailure *failure = g_ptr_array_index (failures, i);

      if (failure->problem != BL_INCLUDE_NOT_FOUND || failure->name == NULL)
        continue;
      if (name != NULL && g_strcmp0 (name, failure->name) != 0)
        {
          name = NULL;
          break;
        }
      name = failure->name;
    }
  if (name != NULL)
    /* Translators: the model's folder name, as “tethys” */
    return g_strdup_printf (_("To fix it, add the folder that holds the “%s” folder (Ballast and ballast-cli "
                              "keep it), or set GZ_SIM_RESOURCE_PATH to it before starting Ballast."), name);
  return g_strdup (_("To fix it, add the folder that holds the models’ folders (Ballast and ballast-cli "
                     "keep it), or set GZ_SIM_RESOURCE_PATH to it before starting Ballast."));
}

/* What allowing does, naming the folders (the first few; Details lists
 * them all). */
static char *
dup_allow_hint (GStrv folders)
{
  guint n = g_strv_length (folders);
  g_autoptr(GString) named = g_string_new (NULL);

  if (n == 1)
    /* Translators: a folder, as “/data/meshes” */
    return g_strdup_printf (_("Ballast opens only files in the model’s own folders and in the model folders. "
                              "Allowing adds %s to the model folders (Ballast and ballast-cli keep it) and "
                              "reloads the file."), folders[0]);
  for (guint i = 0; i < n && i < HINT_FOLDERS_MAX; i++)
    {
      if (i > 0)
        g_string_append (named, ", ");
      g_string_append (named, folders[i]);
    }
  if (n > HINT_FOLDERS_MAX)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more (Details lists it)",
                                                            "%u more (Details lists them)",
                                                            n - HINT_FOLDERS_MAX), n - HINT_FOLDERS_MAX);
      g_autofree char *first = g_strdup (named->str);

      /* Translators: the folders named, then "3 more (Details lists them)" */
      g_string_printf (named, _("%s and %s"), first, more);
    }
  /* Translators: how many folders, then the folders, comma-separated */
  return g_strdup_printf (_("Ballast opens only files in the model’s own folders and in the model folders. "
                            "Allowing adds these %u folders to the model folders (Ballast and ballast-cli "
                            "keep them) and reloads the file: %s."), n, named->str);
}

/* Errors first, then warnings, each in document order; among the errors,
 * after the document's, the first refused meshes (their links' own
 * diagnostics, which only the inspector shows otherwise). */
static GPtrArray *
collect_problems (BlProblemsBar *self)
{
  GPtrArray *problems = g_ptr_array_new ();
  GPtrArray *all;

  if (self->document == NULL)
    return problems;
  all = bl_document_get_diagnostics (self->document);
  for (int severity = BL_SEVERITY_ERROR; severity >= BL_SEVERITY_WARNING; severity--)
    {
      for (guint i = 0; i < all->len; i++)
        {
          BlDiagnostic *d = g_ptr_array_index (all, i);

          if ((int) d->severity == severity)
            g_ptr_array_add (problems, d);
        }
      if (severity == BL_SEVERITY_ERROR)
        g_ptr_array_extend (problems, self->mesh_rows, NULL, NULL);
    }
  return problems;
}

/* The rows of the refused meshes, made again for a new document. */
static void
make_mesh_rows (BlProblemsBar *self)
{
  GPtrArray *refusals;

  g_clear_pointer (&self->mesh_rows, g_ptr_array_unref);
  if (self->document == NULL)
    return;
  refusals = bl_document_get_mesh_refusals (self->document);
  self->mesh_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);
  for (guint i = 0; i < refusals->len && i < MESH_ROWS_MAX; i++)
    {
      const BlMeshRefusal *r = g_ptr_array_index (refusals, i);

      g_ptr_array_add (self->mesh_rows, bl_diagnostic_new (BL_SEVERITY_ERROR, "mesh", r->file, r->line,
                                                           r->element, "%s", r->message));
    }
}

/* The name of FILE as the bar shows it: its base name, and for a file
 * other than the open one (an included model) its folder's name too,
 * "tethys_equipped/model.sdf": every Gazebo model is a model.sdf. */
static char *
dup_file_name (BlProblemsBar *self,
               const char    *file)
{
  const char *open = self->document != NULL ? bl_document_get_path (self->document) : NULL;
  g_autofree char *folder = NULL;
  g_autofree char *folder_name = NULL;
  g_autofree char *name = g_path_get_basename (file);

  if (open == NULL || g_strcmp0 (open, file) == 0)
    return g_steal_pointer (&name);
  folder = g_path_get_dirname (file);
  folder_name = g_path_get_basename (folder);
  if (strcmp (folder_name, ".") == 0 || strcmp (folder_name, G_DIR_SEPARATOR_S) == 0)
    return g_steal_pointer (&name);
  return g_build_filename (folder_name, name, NULL);
}

/* "world.sdf, line 12": where the problem is, as the user finds it. */
static char *
dup_location (BlProblemsBar      *self,
              const BlDiagnostic *d)
{
  g_autofree char *name = d->file != NULL ? dup_file_name (self, d->file) : NULL;

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

/* A label whose text can be selected with the pointer (to copy a path),
 * but that does not take the focus: the popover would give it to the
 * first one, selecting all its text. */
static GtkWidget *
copyable_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  return label;
}

/* One problem in the details popover: what, then where (the full path on
 * hover), for an include not found the folders searched, and for a file
 * refused what allowing would allow. */
static GtkWidget *
problem_row_new (BlProblemsBar      *self,
                 const BlDiagnostic *d)
{
  const BlIncludeFailure *failure = find_include_failure (self, d);
  const char *folder = NULL;
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *message = copyable_label_new (d->message);
  g_autofree char *location = dup_location (self, d);

  gtk_widget_add_css_class (row, "bl-problem");
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (message), 64);
  gtk_box_append (GTK_BOX (text), message);
  if (location != NULL)
    {
      GtkWidget *where = copyable_label_new (location);

      gtk_widget_add_css_class (where, "dim-label");
      gtk_widget_add_css_class (where, "caption");
      gtk_widget_set_tooltip_text (where, d->file);
      gtk_box_append (GTK_BOX (text), where);
    }
  /* The folders searched, one a line, as the user compares them. */
  if (failure != NULL && failure->searched != NULL && failure->searched[0] != NULL)
    {
      g_autofree char *folders = g_strjoinv ("\n", failure->searched);
      g_autofree char *searched = g_strdup_printf ("%s\n%s", _("Searched:"), folders);
      GtkWidget *list = copyable_label_new (searched);

      gtk_label_set_wrap (GTK_LABEL (list), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (list), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (list, "caption");
      gtk_box_append (GTK_BOX (text), list);
    }
  if (is_refusal (self, d, &folder))
    {
      g_autofree char *how = folder != NULL
                             /* Translators: a folder, as “/data/meshes” */
                             ? g_strdup_printf (_("Loads once %s is allowed"), folder)
                             : g_strdup (_("No setting lets a model name this file"));
      GtkWidget *label = copyable_label_new (how);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (text), label);
    }
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (row), severity_icon_new (d->severity));
  gtk_box_append (GTK_BOX (row), text);
  return row;
}

/* The bar's line on the worst problem: where, then what.  An include not
 * found reads as the folders searched, a file refused as the folder it is
 * in (the core's message, which says the same at length, is in Details). */
static char *
dup_summary (BlProblemsBar      *self,
             const BlDiagnostic *d)
{
  const BlIncludeFailure *failure = find_include_failure (self, d);
  const BlMeshRefusal *refusal = find_mesh_refusal (self, d);
  g_autofree char *location = dup_location (self, d);
  g_autofree char *what = NULL;
  const char *folder = NULL;

  if (is_refusal (self, d, &folder) && folder != NULL)
    /* Translators: the <uri> as written, then the folder that holds what it
     * names (or that folder itself, for an included model) */
    what = g_strdup_printf (_("“%s” lies outside the model’s folders; allowing %s loads it"),
                            failure != NULL ? failure->uri : refusal->uri, folder);
  else if (failure != NULL && wants_model_path (self, d))
    {
      g_autofree char *folders = g_strjoinv (", ", failure->searched);

      if (failure->count > 1)
        /* Translators: the <uri> of an <include>, how many <include>s name
         * it (the first is the one named), then the folders searched */
        what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "“%s” (included %u time) is in none of the folders searched: %s",
                                             "“%s” (included %u times) is in none of the folders searched: %s",
                                             failure->count),
                                failure->uri, failure->count, folders);
      else
        /* Translators: the <uri> of an <include>, then the folders searched */
        what = g_strdup_printf (_("“%s” is in none of the folders searched: %s"), failure->uri, folders);
    }
  else
    what = g_strdup (d->message);
  if (location == NULL)
    return g_steal_pointer (&what);
  /* Translators: where a problem is ("world.sdf, line 5"), then what it is */
  return g_strdup_printf (_("%s: %s"), location, what);
}

static char *
dup_title (BlProblemsBar *self,
           GPtrArray     *problems)
{
  BlDocument *document = self->document;
  /* the refused meshes not listed count too */
  guint unlisted = bl_document_get_mesh_refusals (document)->len - self->mesh_rows->len;
  guint errors = unlisted, warnings = 0, includes = 0, refused = unlisted;

  for (guint i = 0; i < problems->len; i++)
    {
      const BlDiagnostic *d = g_ptr_array_index (problems, i);
      const char *folder;

      if (d->severity == BL_SEVERITY_ERROR)
        errors++;
      else
        warnings++;
      if (wants_model_path (self, d))
        includes++;
      refused += is_refusal (self, d, &folder);
    }
  /* Every error is a file refused: say that. */
  if (refused > 0 && refused == errors)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "A file outside the model’s folders was refused",
                                         "%u files outside the model’s folders were refused", refused),
                            refused);
  /* Every error is a model not found (what follows from it, such as a
   * world left without a model, is a warning): say that. */
  if (includes == 1 && errors == 1)
    return g_strdup (_("A model could not be found"));
  if (includes > 0 && includes == errors)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u model could not be found",
                                         "%u models could not be found", includes), includes);
  if (errors > 0 && warnings > 0)
    {
      g_autofree char *e = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'u error", "%'u errors", errors), errors);
      g_autofree char *w = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%'u warning", "%'u warnings", warnings),
                                            warnings);

      /* Translators: "2 errors" and "1 warning" */
      return g_strdup_printf (_("The file has %s and %s"), e, w);
    }
  if (errors > 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The file has %'u error",
                                         "The file has %'u errors", errors), errors);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The file has %'u warning",
                                       "The file has %'u warnings", warnings), warnings);
}

/* The offer to allow the folders of the files refused: the folder in the
 * button when there is one, else how many (the hint and Details name them). */
static void
update_allow_button (BlProblemsBar *self,
                     GStrv          folders)
{
  guint n = g_strv_length (folders);
  g_autofree char *label = NULL;
  g_autofree char *tooltip = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->allow_button), n > 0);
  if (n == 0)
    return;
  if (n == 1)
    {
      /* Translators: a folder, as “/data/meshes” */
      label = g_strdup_printf (_("Allow Files in %s"), folders[0]);
      /* Translators: a folder, as “/data/meshes” */
      tooltip = g_strdup_printf (_("Add %s to the model folders (Ballast and ballast-cli keep it) and reload "
                                   "the file"), folders[0]);
    }
  else
    {
      g_autofree char *list = g_strjoinv ("\n", folders);

      label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Allow Files in %u Folder",
                                            "Allow Files in %u Folders", n), n);
      tooltip = g_strdup_printf ("%s\n%s", _("Add these folders to the model folders (Ballast and ballast-cli "
                                              "keep them) and reload the file:"), list);
    }
  gtk_label_set_text (GTK_LABEL (gtk_button_get_child (self->allow_button)), label);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->allow_button), tooltip);
  /* the target first: the action takes the folders (win.allow-folders, "as") */
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->allow_button),
                                          g_variant_new_strv ((const char * const *) folders, -1));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->allow_button), "win.allow-folders");
}

/* A dimmed last row of Details. */
static void
append_details_note (BlProblemsBar *self,
                     const char    *text,
                     const char    *name)
{
  GtkWidget *label = copyable_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_name (label, name);
  gtk_box_append (self->details_box, label);
}

/* Details' last rows: how many problems are not listed, the folders
 * allowing would add, when there are several, and how many refused
 * meshes are not listed. */
static void
append_details_footer (BlProblemsBar *self,
                       guint          unlisted_problems,
                       GStrv          folders)
{
  guint unlisted = bl_document_get_mesh_refusals (self->document)->len - self->mesh_rows->len;

  if (unlisted_problems > 0)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "and %'u more problem (ballast-cli check lists them all)",
                                                            "and %'u more problems (ballast-cli check lists them all)",
                                                            unlisted_problems), unlisted_problems);

      append_details_note (self, text, "more-problems");
    }

  if (g_strv_length (folders) > 1)
    {
      g_autofree char *list = g_strjoinv ("\n", folders);
      g_autofree char *text = g_strdup_printf ("%s\n%s", _("Allowing adds these folders to the model folders:"),
                                               list);
      GtkWidget *label = copyable_label_new (text);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_set_name (label, "allow-folders-list");
      gtk_box_append (self->details_box, label);
    }
  if (unlisted > 0)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "and %u more refused mesh (its link lists it)",
                                                            "and %u more refused meshes (each link lists its own)",
                                                            unlisted), unlisted);

      append_details_note (self, text, "more-meshes");
    }
}

static void
update (BlProblemsBar *self)
{
  g_autoptr(GPtrArray) problems = collect_problems (self);
  g_auto(GStrv) folders = self->document != NULL ? dup_folders_to_allow (self->document) : g_new0 (char *, 1);
  gboolean was_revealed = gtk_info_bar_get_revealed (self->info_bar);
  gboolean revealed = problems->len > 0 && !self->closed;
  gboolean wants_path = FALSE;
  g_autoptr(GString) hint = g_string_new (NULL);
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->details_box))) != NULL)
    gtk_box_remove (self->details_box, row);

  if (problems->len > 0)
    {
      const BlDiagnostic *first = g_ptr_array_index (problems, 0);
      g_autofree char *title = dup_title (self, problems);
      g_autofree char *message = dup_summary (self, first);

      for (guint i = 0; i < problems->len; i++)
        {
          wants_path |= wants_model_path (self, g_ptr_array_index (problems, i));
          if (i < PROBLEM_ROWS_MAX)
            gtk_box_append (self->details_box, problem_row_new (self, g_ptr_array_index (problems, i)));
        }
      append_details_footer (self, problems->len - MIN (problems->len, PROBLEM_ROWS_MAX), folders);
      gtk_info_bar_set_message_type (self->info_bar, first->severity == BL_SEVERITY_ERROR
                                                     ? GTK_MESSAGE_ERROR : GTK_MESSAGE_WARNING);
      gtk_image_set_from_icon_name (self->icon, first->severity == BL_SEVERITY_ERROR
                                                ? "dialog-error-symbolic" : "dialog-warning-symbolic");
      gtk_label_set_text (self->title_label, title);
      gtk_label_set_text (self->message_label, message);
      bl_field_set_tooltip (GTK_WIDGET (self->message_label), first->file);
    }
  /* How to fix it: the model path, and the variable gz-sim itself reads;
   * the folders of the files refused. */
  if (wants_path)
    {
      g_autofree char *text = dup_hint (self->document);

      g_string_append (hint, text);
    }
  if (folders[0] != NULL)
    {
      g_autofree char *text = dup_allow_hint (folders);

      g_string_append_printf (hint, "%s%s", hint->len > 0 ? "\n" : "", text);
    }
  gtk_label_set_text (self->hint_label, hint->str);
  gtk_widget_set_visible (GTK_WIDGET (self->hint_label), hint->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->add_path_button), wants_path);
  /* and its place in the flow box */
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->add_path_button)), wants_path);
  update_allow_button (self, folders);
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
  make_mesh_rows (self);
  index_failures (self);
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
  g_clear_pointer (&self->mesh_rows, g_ptr_array_unref);
  g_clear_pointer (&self->failures, g_hash_table_unref);

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
  gtk_widget_class_bind_template_child (widget_class, BlProblemsBar, allow_button);
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
