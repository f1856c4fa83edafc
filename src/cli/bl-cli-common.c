/* bl-cli-common.c: what every ballast-cli command shares: loading the
 * document, the options every command takes, fluid densities, writing. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bl-cli-common.h"
#include "bl-cli-heap.h"
#include "bl-export.h"
#include "bl-fluid.h"
#include "bl-number.h"
#include "bl-resource.h"

BlDocument *
bl_cli_load_document (const char *path)
{
  return bl_cli_load_document_full (path, BL_DOCUMENT_LOAD_DEFAULT);
}

BlDocument *
bl_cli_load_document_full (const char          *path,
                           BlDocumentLoadFlags  flags)
{
  g_autoptr(GError) error = NULL;
  BlDocument *doc;
  GStatBuf st;

  if (path == NULL)
    return bl_document_new_sample ();

  /* the room an editable load will need, ahead (bl-cli-heap.c) */
  if ((flags & BL_DOCUMENT_LOAD_READ_ONLY) == 0 && g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
    bl_cli_heap_reserve (bl_cli_heap_room_for_editable ((gsize) st.st_size));
  doc = bl_document_new_from_file_full (path, flags, &error);
  if (doc == NULL)
    g_printerr ("ballast-cli: %s\n", error->message);

  return doc;
}

void
bl_cli_keep_until_exit (BlDocument *doc)
{
  static GPtrArray *kept;

  if (kept == NULL)
    kept = g_ptr_array_new ();
  g_ptr_array_add (kept, doc);
}

/* The app's settings, or NULL when its schema (or KEY) is not installed:
 * ballast-cli runs without it. */
static GSettings *
app_settings (const char *key)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, BL_CLI_APPLICATION_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, key))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/* The model-paths key of the app's settings, or an empty list. */
static GStrv
settings_model_paths (void)
{
  g_autoptr(GSettings) settings = app_settings ("model-paths");

  return settings != NULL ? g_settings_get_strv (settings, "model-paths") : g_new0 (char *, 1);
}

/* The allow-outside-files key of the app's settings, or FALSE. */
static gboolean
settings_allow_outside (void)
{
  g_autoptr(GSettings) settings = app_settings ("allow-outside-files");

  return settings != NULL && g_settings_get_boolean (settings, "allow-outside-files");
}

gboolean
bl_cli_parse_options (GOptionContext  *context,
                      int             *argc,
                      char          ***argv)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) option_paths = NULL;
  g_auto(GStrv) setting_paths = NULL;
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();
  g_auto(GStrv) extra = NULL;
  gboolean allow_outside = FALSE;
  gint max_links = 0;
  const GOptionEntry path_entries[] = {
    { "model-path", 'M', 0, G_OPTION_ARG_FILENAME_ARRAY, &option_paths,
      "Also look for included models (and meshes) in DIR, after the environment's "
      "model paths; may be repeated", "DIR" },
    { "allow-outside-files", 0, 0, G_OPTION_ARG_NONE, &allow_outside,
      "Let the model's includes and meshes name regular files outside its folders and the "
      "model paths (an absolute path, “..”); trust the model first", NULL },
    { "max-links", 0, 0, G_OPTION_ARG_INT, &max_links,
      "Refuse a model of more than N links, its includes counted (default 1048576; each link "
      "takes 2–5 kB of memory while it is read), or of more than 4 N models, collisions, frames, "
      "joints and plugins", "N" },
    { NULL }
  };

  g_option_context_add_main_entries (context, path_entries, NULL);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("ballast-cli: %s\n", error->message);
      g_printerr ("Try “%s --help”.\n", g_get_prgname ());
      return FALSE;
    }

  /* GOption leaves "--" among the arguments: drop the first, so that
   * `inspect -- -x.sdf` names the file -x.sdf */
  for (int i = 1; i < *argc; i++)
    {
      if (strcmp ((*argv)[i], "--") != 0)
        continue;
      memmove (*argv + i, *argv + i + 1, (*argc - i) * sizeof (char *));
      (*argc)--;
      break;
    }

  /* --model-path, then the model-paths setting the app keeps */
  setting_paths = settings_model_paths ();
  if (option_paths != NULL)
    g_strv_builder_addv (paths, (const char **) option_paths);
  g_strv_builder_addv (paths, (const char **) setting_paths);
  extra = g_strv_builder_end (paths);
  bl_resource_set_extra_paths ((const char * const *) extra);
  bl_resource_set_allow_outside (allow_outside || settings_allow_outside ());
  if (max_links < 0)
    {
      g_printerr ("ballast-cli: --max-links %d is not a number of links\n", max_links);
      return FALSE;
    }
  bl_document_set_max_links ((guint) max_links);
  return TRUE;
}

static const struct
{
  const char *name;
  const char *label;
  double      rho;
} fluid_presets[] = {
  { "sea-water", "sea water", BL_FLUID_DENSITY_SEA_WATER },
  { "fresh-water", "fresh water", BL_FLUID_DENSITY_FRESH_WATER },
  { "air", "air", BL_FLUID_DENSITY_AIR },
};

gboolean
bl_cli_parse_fluid_density (const char *text,
                            double     *rho)
{
  for (guint i = 0; i < G_N_ELEMENTS (fluid_presets); i++)
    if (g_ascii_strcasecmp (text, fluid_presets[i].name) == 0)
      {
        *rho = fluid_presets[i].rho;
        return TRUE;
      }

  if (bl_number_parse (text, rho) && isfinite (*rho) && *rho > 0.0)
    return TRUE;

  g_printerr ("ballast-cli: --fluid-density “%s” is not a positive number of kg/m³ "
              "nor one of sea-water, fresh-water, air\n", text);
  return FALSE;
}

/* The preset of density RHO ("sea water"), or NULL. */
static const char *
preset_label (double rho)
{
  for (guint i = 0; i < G_N_ELEMENTS (fluid_presets); i++)
    if (rho == fluid_presets[i].rho)
      return fluid_presets[i].label;
  return NULL;
}

const char *
bl_cli_fluid_name (double rho)
{
  const char *label = preset_label (rho);

  return label != NULL ? label : "the fluid";
}

/* "1000 kg/m³ (fresh water)", or "1.097 kg/m³" for no preset. */
static char *
describe_density (double rho)
{
  char b[BL_DOUBLE_BUF_SIZE];
  const char *label = preset_label (rho);

  if (label == NULL)
    return g_strdup_printf ("%s kg/m³", bl_number_format (rho, b));
  return g_strdup_printf ("%s kg/m³ (%s)", bl_number_format (rho, b), label);
}

void
bl_cli_fluid_init (BlCliFluid *fluid,
                   BlDocument *doc,
                   const char *option)
{
  BlWorldFluid world;
  gboolean named = bl_fluid_get_world_fluid (doc, &world);
  g_autofree char *rho = NULL;
  g_autofree char *other = NULL;

  *fluid = (BlCliFluid) { BL_FLUID_DENSITY_DEFAULT, "default", 0, NULL };
  /* the option was checked by bl_cli_parse_fluid_density before the load */
  if (option != NULL && bl_cli_parse_fluid_density (option, &fluid->rho))
    fluid->source = "option";
  else if (named)
    {
      fluid->rho = world.density;
      fluid->source = "world";
      fluid->line = world.line;
    }
  rho = describe_density (fluid->rho);

  switch (world.kind)
    {
    case BL_WORLD_FLUID_NONE:
      break;
    case BL_WORLD_FLUID_UNIFORM:
    case BL_WORLD_FLUID_GZ_DEFAULT:
    case BL_WORLD_FLUID_GRADED:
      if (strcmp (fluid->source, "option") == 0)
        {
          other = describe_density (world.density);
          fluid->note = g_strdup_printf ("%s from --fluid-density; the world's gz-sim Buoyancy "
                                         "system (line %d) uses %s", rho, world.line, other);
        }
      else if (world.kind == BL_WORLD_FLUID_UNIFORM)
        fluid->note = g_strdup_printf ("%s, the <uniform_fluid_density> of the world's gz-sim "
                                       "Buoyancy system (line %d)", rho, world.line);
      else if (world.kind == BL_WORLD_FLUID_GRADED)
        fluid->note = g_strdup_printf ("%s, the deepest fluid of the world's gz-sim Buoyancy "
                                       "system (line %d), which grades the density by depth", rho,
                                       world.line);
      else
        fluid->note = g_strdup_printf ("%s, gz-sim's default: the world's Buoyancy system "
                                       "(line %d) names no density", rho, world.line);
      break;
    case BL_WORLD_FLUID_UNREADABLE:
      fluid->note = g_strdup_printf ("%s: the density “%s” of the world's gz-sim Buoyancy "
                                     "system (line %d) is no density from %g to %g kg/m³",
                                     rho, world.text, world.line,
                                     BL_FLUID_DENSITY_MIN, BL_FLUID_DENSITY_MAX);
      break;
    default:
      g_assert_not_reached ();
    }
  bl_world_fluid_clear (&world);
}

void
bl_cli_fluid_clear (BlCliFluid *fluid)
{
  g_clear_pointer (&fluid->note, g_free);
}

void
bl_cli_fluid_json (const BlCliFluid *fluid,
                   BlJson           *json)
{
  bl_json_key (json, "fluid_density");
  bl_json_number (json, fluid->rho);
  bl_json_key (json, "fluid_density_source");
  bl_json_string (json, fluid->source);
  bl_json_key (json, "fluid_density_line");
  if (fluid->line > 0)
    bl_json_int (json, fluid->line);
  else
    bl_json_null (json);
}

int
bl_cli_write_document (BlDocument   *doc,
                       BlExportBake *bake,
                       const char   *output,
                       gboolean      in_place)
{
  BlExportFlags flags = in_place ? BL_EXPORT_IN_PLACE : BL_EXPORT_FLAGS_NONE;

  g_autoptr(GError) error = NULL;
  g_autofree char *original = NULL;
  g_autofree char *written = NULL;

  if (bl_export_get_version_change (doc, &original, &written))
    g_printerr ("ballast-cli: <sdf version> raised from %s to %s\n", original, written);

  if (strcmp (output, "-") == 0)
    {
      /* written as it is made, never held whole */
      if (fflush (stdout) != 0 ||
          !(bake != NULL ? bl_export_bake_write_fd (bake, STDOUT_FILENO, &error)
                         : bl_export_write_fd (doc, STDOUT_FILENO, &error)))
        {
          g_printerr ("ballast-cli: cannot write to standard output\n");
          return BL_EXIT_FAILURE;
        }
      return BL_EXIT_OK;
    }

  if (!(bake != NULL ? bl_export_bake_save (bake, output, flags, &error)
                     : bl_export_save (doc, output, flags, &error)))
    {
      g_printerr ("ballast-cli: %s\n", error->message);
      if (g_error_matches (error, BL_EXPORT_ERROR, BL_EXPORT_ERROR_SAME_FILE))
        {
          g_printerr ("Add --in-place to overwrite it.\n");
          return BL_EXIT_USAGE;
        }
      return BL_EXIT_FAILURE;
    }

  return BL_EXIT_OK;
}
