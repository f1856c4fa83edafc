/* bl-include.c: an <include> resolved and read: the model path and the
 * Fuel cache, model.config, the limits on what includes may read, cycles,
 * and the failures a window offers to fix. */
#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "bl-file-private.h"
#include "bl-loader-private.h"
#include "bl-resource.h"
#include "bl-xml-private.h"

/* Whether two paths name one file: the same string, or the same device
 * and inode (a path through a symbolic link to a folder, `here -> .`,
 * names the same file by ever longer strings). */
static gboolean
same_file_as (const char *a,
              const char *b)
{
  GStatBuf sa, sb;

  if (strcmp (a, b) == 0)
    return TRUE;
  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The total work of a document's includes is bounded: a file that
 * includes the next one twice, 19 deep, asks for 2^18 includes. Past
 * MAX_INCLUDES files (each include counted, the same file again too) or
 * MAX_INCLUDE_BYTES read, no further include is read, with one error. */
#define MAX_INCLUDES 10000
#define MAX_INCLUDE_BYTES ((guint64) BL_FILE_MAX_SIZE)

static gboolean
include_within_limits (BlLoader    *loader,
                       const char  *file,
                       int          line,
                       const char  *owner)
{
  if (loader->n_includes < MAX_INCLUDES && loader->include_bytes <= MAX_INCLUDE_BYTES)
    {
      loader->n_includes++;
      return TRUE;
    }

  if (!loader->include_limit_reported)
    bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, "include-limit", file, line, owner,
                        "the document includes more than %d files or %d MiB in all (the limit on "
                        "the work of includes); "
                        "this include and every later one are not loaded",
                        MAX_INCLUDES, (int) (MAX_INCLUDE_BYTES >> 20));
  loader->include_limit_reported = TRUE;
  return FALSE;
}

static gboolean
count_include_bytes (BlLoader    *loader,
                     gsize        length,
                     GError     **error)
{
  loader->include_bytes += length;
  if (loader->include_bytes <= MAX_INCLUDE_BYTES)
    return TRUE;
  g_set_error (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_READ,
               "the included files would exceed %d MiB in all", (int) (MAX_INCLUDE_BYTES >> 20));
  return FALSE;
}

/* An SDF version ("1.7", "1.12", "1.6.1") as a number that orders as
 * versions do (libsdformat compares them as semantic versions: 1.7 is
 * before 1.12), or -1 when it is not one. */
static gint64
sdf_version_key (const char *version)
{
  gint64 key = 0;
  char **parts = g_strsplit (version, ".", 4);
  guint n = g_strv_length (parts);

  for (guint i = 0; i < 3; i++)
    {
      guint64 number = 0;

      if (i < n && !g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 0, 9999, &number, NULL))
        {
          key = -1;
          break;
        }
      key = key * 10000 + (gint64) number;
    }
  if (n == 0 || n > 3)
    key = -1;
  g_strfreev (parts);
  return key;
}

/* model.config names the SDF file; prefer the newest version we read. */
static char *
find_model_sdf (const char *dir)
{
  g_autofree char *config = g_build_filename (dir, "model.config", NULL);
  g_autofree char *config_text = NULL;
  gsize config_length = 0;
  xmlDoc *xml = NULL;
  char *best = NULL;
  gint64 best_version = -1;

  /* bl_file_read: a FIFO in place of model.config must not hang us; read
   * as TinyXML2 reads it (gz-common's and libsdformat's reader): blank
   * lines before <?xml, "--" in a comment */
  if (bl_file_read (config, BL_FILE_MAX_SIZE, &config_text, &config_length, NULL) &&
      config_length <= G_MAXINT)
    {
      BlReadCounts counts = { 0 };  /* model.config's own, under the same limits */

      xml = bl_stream_read_xml (NULL, config_text, config_length, -1, config, NULL, &counts, FALSE, NULL);
    }
  if (xml != NULL)
    {
      xmlNode *root = xmlDocGetRootElement (xml);

      for (xmlNode *child = root != NULL ? root->children : NULL; child != NULL; child = child->next)
        {
          g_autofree char *version = NULL;
          g_autofree char *text = NULL;
          gint64 v;

          if (!bl_xml_is_element (child, "sdf"))
            continue;

          version = bl_xml_dup_attribute (child, "version");
          text = g_strstrip (bl_xml_dup_text (child));
          v = version != NULL ? sdf_version_key (version) : 0;
          if (*text != '\0' && v >= 0 && v <= sdf_version_key ("1.12") && v > best_version)
            {
              g_free (best);
              best = g_build_filename (dir, text, NULL);
              best_version = v;
            }
        }
      xmlFreeDoc (xml);
    }

  if (best == NULL)
    {
      char *fallback = g_build_filename (dir, "model.sdf", NULL);

      if (g_file_test (fallback, G_FILE_TEST_IS_REGULAR))
        return fallback;
      g_free (fallback);
    }

  return best;
}


/* Records an include that failed: its diagnostic and its BlIncludeFailure. */
void
bl_include_failed (BlLoader    *loader,
                   xmlNode     *include,
                   const char  *code,
                   const char  *file,
                   int          line,
                   const char  *owner,
                   const char  *uri,
                   GPtrArray   *searched,
                   const char  *format,
                   ...)
{
  BlIncludeFailure *failure = g_new0 (BlIncludeFailure, 1);
  g_autoptr(GStrvBuilder) folders = g_strv_builder_new ();
  va_list args;

  va_start (args, format);
  failure->message = g_strdup_vprintf (format, args);
  va_end (args);
  failure->problem = BL_INCLUDE_UNUSABLE;
  failure->include = include;
  failure->uri = g_strdup (uri != NULL ? uri : "");
  failure->file = g_strdup (file);
  failure->line = line;
  for (guint i = 0; searched != NULL && i < searched->len; i++)
    g_strv_builder_add (folders, g_ptr_array_index (searched, i));
  failure->searched = g_strv_builder_end (folders);
  failure->count = 1;

  /* The same URI failing the same way again adds no diagnostic of its
   * own: the first one's names it (bl_include_group_failures). */
  if (uri != NULL && *uri != '\0')
    {
      char *key = g_strconcat (uri, "\n", failure->message, NULL);
      BlIncludeFailure *first;

      if (loader->include_firsts == NULL)
        {
          loader->include_firsts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          loader->include_diagnostic = g_hash_table_new (g_direct_hash, g_direct_equal);
        }
      first = g_hash_table_lookup (loader->include_firsts, key);
      if (first != NULL)
        {
          g_free (key);
          failure->same_as = first;
          failure->count = 0;
          first->count++;
          g_ptr_array_add (loader->include_failures, failure);
          return;
        }
      g_hash_table_insert (loader->include_firsts, key, failure);
      g_hash_table_insert (loader->include_diagnostic, failure, GUINT_TO_POINTER (loader->diagnostics->len + 1));
    }

  bl_diagnostics_add (loader->diagnostics, BL_SEVERITY_ERROR, code, file, line, owner, "%s", failure->message);
  g_ptr_array_add (loader->include_failures, failure);
}

/* The place of a repeated include failure, as the first one's message
 * names it: "line 30" in the same file, "other.sdf line 3" in another. */
static void
append_failure_place (GString                *out,
                      const BlIncludeFailure *first,
                      const BlIncludeFailure *repeat)
{
  if (g_strcmp0 (first->file, repeat->file) == 0)
    {
      g_string_append_printf (out, "line %d", repeat->line);
    }
  else
    {
      g_autofree char *name = g_path_get_basename (repeat->file);

      g_string_append_printf (out, "%s line %d", name, repeat->line);
    }
}

#define FEW_FAILURE_PLACES 5

static void
string_free_all (gpointer string)
{
  g_string_free (string, TRUE);
}

/* After loading: the diagnostic of each URI that failed more than once
 * names how many includes of it failed, and where the others are (the
 * first few), and its failure the same message.  One pass over the
 * failures: a world may hold thousands. */
void
bl_include_group_failures (BlLoader *loader)
{
  g_autoptr(GHashTable) messages = NULL;  /* first → GString, its message so far */
  g_autoptr(GHashTable) listed = NULL;    /* first → places listed in it */

  if (loader->include_firsts == NULL)
    return;
  messages = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, string_free_all);
  listed = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < loader->include_failures->len; i++)
    {
      const BlIncludeFailure *repeat = g_ptr_array_index (loader->include_failures, i);
      const BlIncludeFailure *first = repeat->same_as;
      GString *message;
      guint n;

      if (first == NULL)
        continue;
      message = g_hash_table_lookup (messages, first);
      if (message == NULL)
        {
          message = g_string_new (first->message);
          g_string_append_printf (message, " (%u includes of “%s” failed alike: the first here, line %d; then ",
                                  first->count, first->uri, first->line);
          g_hash_table_insert (messages, (gpointer) first, message);
        }
      n = GPOINTER_TO_UINT (g_hash_table_lookup (listed, first));
      if (n < FEW_FAILURE_PLACES)
        {
          if (n > 0)
            g_string_append (message, ", ");
          append_failure_place (message, first, repeat);
          g_hash_table_insert (listed, (gpointer) first, GUINT_TO_POINTER (n + 1));
        }
    }

  for (guint i = 0; i < loader->include_failures->len; i++)
    {
      BlIncludeFailure *first = g_ptr_array_index (loader->include_failures, i);
      GString *message = g_hash_table_lookup (messages, first);
      guint index;
      BlDiagnostic *d;

      if (message == NULL)
        continue;
      if (first->count - 1 > FEW_FAILURE_PLACES)
        g_string_append_printf (message, " and %u more", first->count - 1 - FEW_FAILURE_PLACES);
      g_string_append_c (message, ')');

      index = GPOINTER_TO_UINT (g_hash_table_lookup (loader->include_diagnostic, first)) - 1;
      d = g_ptr_array_index (loader->diagnostics, index);
      g_ptr_array_index (loader->diagnostics, index) =
        bl_diagnostic_new (d->severity, d->code, d->file, d->line, d->element, "%s", message->str);
      bl_diagnostic_free (d);
      g_free (first->message);
      first->message = g_strdup (message->str);
    }
  g_clear_pointer (&loader->include_firsts, g_hash_table_unref);
  g_clear_pointer (&loader->include_diagnostic, g_hash_table_unref);
}

/* A file included more than once in a load (a world of many copies of
 * one model) is read and parsed twice, its first copy and its second; the
 * tree of the second, as parsed, is kept and every later include gets a
 * copy of it.  Each include still gets a tree of its own (its
 * <experimental:params> edit it, a merge moves its elements), the file's
 * true lines (bl_xml_copy_lines), the diagnostics its parse made again,
 * and its bytes, links and comments counted against the limits. */
typedef struct
{
  xmlDoc    *xml;         /* as parsed; NULL while the file was read once */
  gsize      length;      /* its bytes */
  BlReadCounts counts;    /* what it holds against the limits */
  GPtrArray *diagnostics; /* BlDiagnostic* its parse added */
} BlIncludedFile;

static void
included_file_free (gpointer data)
{
  BlIncludedFile *included = data;

  g_clear_pointer (&included->xml, xmlFreeDoc);
  g_clear_pointer (&included->diagnostics, g_ptr_array_unref);
  g_free (included);
}

static BlDiagnostic *
diagnostic_copy (const BlDiagnostic *d)
{
  return bl_diagnostic_new (d->severity, d->code, d->file, d->line, d->element, "%s", d->message);
}

/* A copy of xml (a document without a DTD: its nodes are copied one for
 * one) with its true lines, its names in xml's dictionary as a parse
 * would have them (xmlCopyDoc would give each node a name of its own). */
static xmlDoc *
copy_tree (xmlDoc *xml)
{
  xmlDoc *copy = xmlCopyDoc (xml, 0);

  if (xml->dict != NULL)
    {
      copy->dict = xml->dict;
      xmlDictReference (copy->dict);
    }
  copy->children = xmlDocCopyNodeList (copy, xml->children);
  for (xmlNode *a = xml->children, *b = copy->children; a != NULL && b != NULL; a = a->next, b = b->next)
    {
      b->parent = (xmlNode *) copy;
      copy->last = b;
      if (a->type == XML_ELEMENT_NODE && b->type == XML_ELEMENT_NODE)
        bl_xml_copy_lines (a, b);
    }
  return copy;
}

/* A copy of the tree kept for sdf_path (interned), its bytes, links and
 * comments counted and its diagnostics added as its parse would have;
 * NULL when there is none or a count would pass its limit (reading the
 * file again then fails as it should). */
static xmlDoc *
copy_included_file (BlLoader   *loader,
                    const char *sdf_path,
                    gboolean    lean)
{
  GHashTable *files = lean ? loader->included_lean : loader->included_files;
  BlIncludedFile *included = files != NULL ? g_hash_table_lookup (files, sdf_path) : NULL;
  xmlDoc *copy;

  if (included == NULL || included->xml == NULL ||
      loader->include_bytes + included->length > MAX_INCLUDE_BYTES ||
      !bl_stream_counts_add (&loader->counts, &included->counts))
    return NULL;
  loader->include_bytes += included->length;
  copy = copy_tree (included->xml);
  for (guint i = 0; i < included->diagnostics->len; i++)
    g_ptr_array_add (loader->diagnostics, diagnostic_copy (g_ptr_array_index (included->diagnostics, i)));
  return copy;
}

/* The file at sdf_path (interned) read and parsed, its bytes, links and
 * comments counted and its diagnostics added to the loader's; the second
 * time, a copy of its tree is kept in loader->included_files.  NULL with
 * error when it cannot be. */
static xmlDoc *
read_included_file (BlLoader    *loader,
                    const char  *sdf_path,
                    gboolean     lean,
                    GError     **error)
{
  GHashTable **files = lean ? &loader->included_lean : &loader->included_files;
  g_autofree char *contents = NULL;
  BlReadCounts before = loader->counts;
  guint first_diagnostic = loader->diagnostics->len;
  BlIncludedFile *included;
  gsize length;
  xmlDoc *xml;

  if (!bl_file_read (sdf_path, BL_FILE_MAX_SIZE, &contents, &length, error) ||
      !count_include_bytes (loader, length, error) ||
      (xml = bl_stream_read_xml (NULL, contents, length, -1, sdf_path, loader->diagnostics, &loader->counts,
                                 lean, error)) == NULL)
    return NULL;

  if (*files == NULL)
    *files = g_hash_table_new_full (NULL, NULL, NULL, included_file_free);
  included = g_hash_table_lookup (*files, sdf_path);
  if (included == NULL)
    {
      g_hash_table_insert (*files, (gpointer) sdf_path, g_new0 (BlIncludedFile, 1));
      return xml;
    }
  if (included->xml != NULL || xml->intSubset != NULL)
    return xml;
  included->xml = copy_tree (xml);
  included->length = length;
  included->counts.links = loader->counts.links - before.links;
  included->counts.parts = loader->counts.parts - before.parts;
  included->counts.nested = loader->counts.nested - before.nested;
  included->counts.comments = loader->counts.comments - before.comments;
  included->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) bl_diagnostic_free);
  for (guint i = first_diagnostic; i < loader->diagnostics->len; i++)
    g_ptr_array_add (included->diagnostics, diagnostic_copy (g_ptr_array_index (loader->diagnostics, i)));
  return xml;
}

/* Whether the <include> holds <experimental:params>. */
static gboolean
include_has_params (xmlNode *include)
{
  for (xmlNode *child = include->children; child != NULL; child = child->next)
    if (bl_xml_has_qname (child, "experimental:params"))
      return TRUE;
  return FALSE;
}

/* The file an <include> names, read: its path (interned: links and models
 * keep it) and its top-level <model>, or NULL (and no failure) for a file
 * holding only a <light> or an <actor>, which libsdformat includes and
 * which have no mass, unless MERGE: merging one is an error (libsdformat's
 * too). FALSE after a failure is recorded. */
gboolean
bl_include_load (BlLoader     *loader,
                 xmlNode      *node,
                 const char   *file,
                 const char   *owner,
                 gboolean      merge,
                 const char  **sdf_path_out,
                 xmlNode     **model_out)
{
  g_autofree char *base_dir = g_path_get_dirname (file);
  g_autofree char *uri = NULL;
  g_autofree char *target = NULL;
  g_autofree char *sdf_path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) searched = g_ptr_array_new_with_free_func (g_free);
  xmlNode *uri_node = bl_xml_first_child (node, "uri");
  xmlNode *root;
  xmlDoc *xml;
  gboolean lean;
  int line;

  if (uri_node == NULL)
    {
      bl_include_failed (loader, node, "include", file, bl_xml_get_line (node), owner, NULL, NULL,
                         "<include> has no <uri>");
      return FALSE;
    }
  uri = g_strstrip (bl_xml_dup_text (uri_node));
  line = bl_xml_get_line (uri_node);
  if (*uri == '\0')
    {
      bl_include_failed (loader, node, "include", file, line, owner, NULL, NULL,
                         "<include> has an empty <uri>");
      return FALSE;
    }

  /* A URI found before from the same folder in this load (a world of many
   * copies of one model names it each time): the SDF file it named, without
   * the search, the placement check and model.config again.  Only files
   * found are remembered; a failure is resolved again, for its message. */
  sdf_path = g_strdup (bl_sdf_known_path (loader->include_paths, base_dir, uri));
  if (sdf_path == NULL)
    {
      target = bl_resource_resolve_include (uri, base_dir, searched, &error);
      if (target == NULL)
        {
          BlIncludeFailure *failure;

          bl_include_failed (loader, node, "include", file, line, owner, uri, searched,
                             "cannot include “%s”: %s", uri, error->message);
          failure = g_ptr_array_index (loader->include_failures, loader->include_failures->len - 1);
          if (g_error_matches (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_NOT_FOUND))
            {
              failure->name = bl_resource_dup_include_name (uri);
              failure->problem = g_ascii_strncasecmp (uri, "http", 4) == 0
                                 ? BL_INCLUDE_NOT_IN_FUEL_CACHE : BL_INCLUDE_NOT_FOUND;
            }
          else if (g_error_matches (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_OUTSIDE) ||
                   g_error_matches (error, BL_RESOURCE_ERROR, BL_RESOURCE_ERROR_SPECIAL))
            {
              failure->problem = BL_INCLUDE_REFUSED;
              failure->folder = g_strdup (bl_resource_error_get_folder (error));
            }
          return FALSE;
        }

      if (g_file_test (target, G_FILE_TEST_IS_DIR))
        {
          sdf_path = find_model_sdf (target);
          if (sdf_path == NULL)
            {
              bl_include_failed (loader, node, "include", file, line, owner, uri, NULL,
                                 "cannot include “%s”: %s has no model.config naming an SDF file, "
                                 "and no model.sdf", uri, target);
              return FALSE;
            }
        }
      else
        {
          sdf_path = g_steal_pointer (&target);
        }
      bl_sdf_remember_path (&loader->include_paths, base_dir, uri, sdf_path);
    }

  for (guint i = 0; i < loader->include_stack->len; i++)
    {
      if (same_file_as (g_ptr_array_index (loader->include_stack, i), sdf_path))
        {
          bl_include_failed (loader, node, "include-cycle", file, line, owner, uri, NULL,
                             "including “%s” again would never end (include cycle through %s)",
                             uri, sdf_path);
          return FALSE;
        }
    }

  if (!include_within_limits (loader, file, line, owner))
    return FALSE;

  /* <experimental:params> may name any element of the included model:
   * keep them all then */
  lean = !include_has_params (node);
  xml = copy_included_file (loader, g_intern_string (sdf_path), lean);
  if (xml == NULL)
    xml = read_included_file (loader, g_intern_string (sdf_path), lean, &error);
  if (xml == NULL)
    {
      bl_include_failed (loader, node, "include", file, line, owner, uri, NULL,
                         "cannot include “%s”: %s", uri, error->message);
      return FALSE;
    }
  g_ptr_array_add (loader->included_xml, xml);

  root = xmlDocGetRootElement (xml);
  *sdf_path_out = g_intern_string (sdf_path);
  *model_out = root != NULL && bl_xml_is_element (root, "sdf") ? bl_xml_first_child (root, "model") : NULL;
  if (*model_out == NULL &&
      (root == NULL || !bl_xml_is_element (root, "sdf") ||
       (bl_xml_first_child (root, "light") == NULL && bl_xml_first_child (root, "actor") == NULL)))
    {
      bl_include_failed (loader, node, "include", file, line, owner, uri, NULL,
                         "cannot include “%s”: %s has no <sdf><model> (nor a <light> or <actor>)",
                         uri, sdf_path);
      return FALSE;
    }
  if (*model_out != NULL)
    bl_include_params_apply (node, *model_out, file, owner, loader->diagnostics, &loader->params_budget);
  if (*model_out == NULL && merge)
    {
      bl_include_failed (loader, node, "include", file, line, owner, uri, NULL,
                         "cannot merge “%s”: %s holds no <model>, and merge=\"true\" is only "
                         "defined for included models (libsdformat refuses it too)", uri, sdf_path);
      return FALSE;
    }

  return TRUE;
}

