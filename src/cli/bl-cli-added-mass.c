/* bl-cli-added-mass.c: `ballast-cli added-mass estimate|import`. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bl-cli.h"
#include "bl-cli-common.h"
#include "bl-fluid.h"
#include "bl-json.h"
#include "bl-link-panel.h"
#include "bl-number.h"

/* ------------------------------------------------------------------------ */
/* Output helpers                                                            */

static const char *
fmt (double value,
     char   buf[BL_DOUBLE_BUF_SIZE])
{
  g_snprintf (buf, BL_DOUBLE_BUF_SIZE, "%.7g", value + 0.0);
  return buf;
}

/* The 21 values as the upper triangle of the 6×6, one row per line;
 * rounding noise shows as 0 (bl_number_clean_noise). */
static void
print_values (const double raw[21])
{
  static const char axes[] = "xyzpqr";
  double values[21];
  guint k = 0;

  memcpy (values, raw, sizeof values);
  bl_number_clean_noise (values, 21, 0.0);

  printf ("      %12s %12s %12s %12s %12s %12s\n", "x", "y", "z", "p", "q", "r");
  for (guint row = 0; row < 6; row++)
    {
      printf ("    %c ", axes[row]);
      for (guint col = 0; col < 6; col++)
        {
          char b[BL_DOUBLE_BUF_SIZE];
          double v;

          if (col < row)
            {
              printf (" %12s", "");
              continue;
            }
          v = values[k++];
          printf (" %12s", fmt (v, b));
        }
      printf ("\n");
    }
}

/* <fluid_added_mass> with the non-zero values as --apply writes them,
 * ready to paste. */
static void
print_sdf (const double raw[21])
{
  double values[21];

  memcpy (values, raw, sizeof values);
  bl_number_clean_noise (values, 21, 0.0);
  printf ("  <fluid_added_mass>\n");
  for (guint i = 0; i < 21; i++)
    {
      char b[BL_DOUBLE_BUF_SIZE];

      if (values[i] == 0.0)
        continue;
      printf ("    <%s>%s</%s>\n", bl_added_mass_keys[i], bl_number_format (values[i], b), bl_added_mass_keys[i]);
    }
  printf ("  </fluid_added_mass>\n");
}

static void
json_values (BlJson       *json,
             const double  values[21])
{
  bl_json_begin_object (json);
  for (guint i = 0; i < 21; i++)
    {
      bl_json_key_len (json, bl_added_mass_keys[i], strlen (bl_added_mass_keys[i]));
      bl_json_number (json, values[i]);
    }
  bl_json_end_object (json);
}

static void
json_findings (BlJson    *json,
               GPtrArray *findings)
{
  bl_json_begin_array (json);
  for (guint i = 0; findings != NULL && i < findings->len; i++)
    {
      const BlAddedMassFinding *finding = g_ptr_array_index (findings, i);

      bl_json_begin_object (json);
      bl_json_key (json, "id");
      bl_json_string (json, finding->id);
      bl_json_key (json, "severity");
      bl_json_string (json, bl_severity_to_string (finding->severity));
      bl_json_key (json, "message");
      bl_json_string (json, finding->message);
      bl_json_end_object (json);
    }
  bl_json_end_array (json);
}

static void
print_findings (const char *indent,
                GPtrArray  *findings)
{
  for (guint i = 0; findings != NULL && i < findings->len; i++)
    {
      const BlAddedMassFinding *finding = g_ptr_array_index (findings, i);

      printf ("%s%s [%s]: %s\n", indent, bl_severity_to_string (finding->severity), finding->id,
              finding->message);
    }
}

static BlLink *
find_link (BlDocument *doc,
           const char *name)
{
  GPtrArray *links = bl_document_get_links (doc);
  BlLink *found = bl_document_find_link (doc, name);

  if (found != NULL)
    return found;

  /* A local name is enough when it is unique. */
  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);

      if (strcmp (link->name, name) != 0)
        continue;
      if (found != NULL)
        return NULL;
      found = link;
    }
  return found;
}

/* ------------------------------------------------------------------------ */
/* estimate                                                                  */

static void
json_estimate_link (BlJson *json,
                    BlLink *link,
                    double  rho)
{
  g_autoptr(GArray) estimates = g_array_new (FALSE, FALSE, sizeof (BlCollisionEstimate));
  double values[21];
  guint used = bl_link_estimate_added_mass (link, rho, values, estimates);

  bl_json_begin_object (json);
  bl_json_key (json, "name");
  bl_json_string (json, link->scoped_name);
  bl_json_key (json, "fluid_added_mass");
  if (used > 0)
    json_values (json, values);
  else
    bl_json_null (json);
  bl_json_key (json, "collisions");
  bl_json_begin_array (json);
  for (guint i = 0; i < estimates->len; i++)
    {
      const BlCollisionEstimate *e = &g_array_index (estimates, BlCollisionEstimate, i);
      double own[21];

      bl_json_begin_object (json);
      bl_json_key (json, "name");
      bl_json_string (json, e->collision->name);
      bl_json_key (json, "geometry");
      bl_json_string (json, bl_geometry_type_to_string (e->collision->geometry.type));
      bl_json_key (json, "estimated");
      bl_json_bool (json, e->ok);
      if (e->ok)
        {
          bl_json_key (json, "method");
          bl_json_string (json, e->estimate.method);
          bl_json_key (json, "translation_quality");
          bl_json_string (json, bl_estimate_quality_to_string (e->estimate.translation_quality));
          bl_json_key (json, "rotation_quality");
          bl_json_string (json, bl_estimate_quality_to_string (e->estimate.rotation_quality));
          bl_json_key (json, "volume");
          bl_json_number (json, e->estimate.volume);
          bl_mat6_to_values (&e->at_link, own);
          bl_json_key (json, "fluid_added_mass");
          json_values (json, own);
        }
      bl_json_end_object (json);
    }
  bl_json_end_array (json);
  bl_json_end_object (json);
}

static void
print_estimate_link (BlLink *link,
                     double  rho)
{
  g_autoptr(GArray) estimates = g_array_new (FALSE, FALSE, sizeof (BlCollisionEstimate));
  double values[21];
  guint used = bl_link_estimate_added_mass (link, rho, values, estimates);

  printf ("\n%s\n", link->scoped_name);
  for (guint i = 0; i < estimates->len; i++)
    {
      const BlCollisionEstimate *e = &g_array_index (estimates, BlCollisionEstimate, i);

      if (e->ok)
        printf ("  %s (%s): %s — translation %s, rotation %s\n", e->collision->name,
                bl_geometry_type_to_string (e->collision->geometry.type), e->estimate.method,
                bl_estimate_quality_to_string (e->estimate.translation_quality),
                bl_estimate_quality_to_string (e->estimate.rotation_quality));
      else
        printf ("  %s (%s): no estimate for this geometry\n", e->collision->name,
                bl_geometry_type_to_string (e->collision->geometry.type));
    }
  if (used == 0)
    {
      printf ("  no collision gives an estimate\n");
      return;
    }
  if (used > 1)
    printf ("  the %u collisions' estimates are summed at the link origin, ignoring how the "
            "parts shield each other\n", used);
  printf ("  ESTIMATE about the link origin, link axes (kg, kg·m, kg·m²):\n");
  print_values (values);
  print_sdf (values);
  if (link->has_added_mass)
    printf ("  (the link already has a fluid_added_mass; this does not replace it)\n");
}

/* The panel method on one link: FALSE with `error` when the link cannot
 * be panelled (no volume, an open mesh…).  Progress goes to a terminal's
 * stderr. */
static void
print_progress (double   fraction,
                gpointer data)
{
  g_printerr ("\r  %s: solving, %3.0f %%", (const char *) data, 100 * fraction);
}

static gboolean
panel_estimate_link (BlLink           *link,
                     gsize             panels,
                     double            rho,
                     BlPanelEstimate  *estimate,
                     GPtrArray       **notes,
                     GError          **error)
{
  g_autoptr(BlLinkPanel) panel = bl_link_panel_new (link, error);
  gboolean tty = isatty (STDERR_FILENO);
  gboolean ok;

  if (panel == NULL)
    return FALSE;
  ok = bl_panel_estimate ((BlPanelBody *) panel->bodies->data, panel->bodies->len, panels, rho, NULL,
                          tty ? print_progress : NULL, link->scoped_name, estimate, error);
  if (tty)
    g_printerr ("\r\033[K");
  *notes = g_ptr_array_ref (panel->notes);
  return ok;
}

static void
json_panel_link (BlJson *json,
                 BlLink *link,
                 gsize   panels,
                 double  rho)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) notes = NULL;
  BlPanelEstimate estimate;
  double values[21];

  bl_json_begin_object (json);
  bl_json_key (json, "name");
  bl_json_string (json, link->scoped_name);
  bl_json_key (json, "method");
  bl_json_string (json, "panel");
  if (!panel_estimate_link (link, panels, rho, &estimate, &notes, &error))
    {
      bl_json_key (json, "fluid_added_mass");
      bl_json_null (json);
      bl_json_key (json, "error");
      bl_json_string (json, error->message);
      bl_json_end_object (json);
      return;
    }
  bl_mat6_to_values (&estimate.added_mass, values);
  bl_json_key (json, "fluid_added_mass");
  json_values (json, values);
  bl_json_key (json, "panels");
  bl_json_number (json, estimate.fine.n_panels);
  bl_json_key (json, "coarse_panels");
  bl_json_number (json, estimate.coarse_panels);
  bl_json_key (json, "error_estimate");
  if (isfinite (estimate.relative_error))
    {
      bl_mat6_to_values (&estimate.errors, values);
      json_values (json, values);
    }
  else
    bl_json_null (json);
  bl_json_key (json, "relative_error_estimate");
  if (isfinite (estimate.relative_error))
    bl_json_number (json, estimate.relative_error);
  else
    bl_json_null (json);
  bl_json_key (json, "panels_left_out");
  bl_json_number (json, estimate.n_removed);
  bl_json_key (json, "simplify_error");
  bl_json_number (json, estimate.simplify_error);
  bl_json_key (json, "sliver_panels");
  bl_json_number (json, estimate.n_slivers);
  bl_json_key (json, "notes");
  bl_json_begin_array (json);
  for (guint i = 0; i < notes->len; i++)
    bl_json_string (json, g_ptr_array_index (notes, i));
  bl_json_end_array (json);
  bl_json_end_object (json);
  bl_panel_estimate_clear (&estimate);
}

static void
print_panel_link (BlLink *link,
                  gsize   panels,
                  double  rho)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) notes = NULL;
  BlPanelEstimate estimate;
  double values[21];

  printf ("\n%s\n", link->scoped_name);
  if (!panel_estimate_link (link, panels, rho, &estimate, &notes, &error))
    {
      printf ("  no estimate: %s\n", error->message);
      return;
    }
  for (guint i = 0; i < notes->len; i++)
    printf ("  note: %s\n", (const char *) g_ptr_array_index (notes, i));
  {
    g_autoptr(GPtrArray) findings = bl_added_mass_findings_new ();

    bl_panel_estimate_findings (&estimate, findings);
    for (guint i = 0; i < findings->len; i++)
      {
        const BlAddedMassFinding *f = g_ptr_array_index (findings, i);

        printf ("  %s: %s\n", f->severity == BL_SEVERITY_WARNING ? "WARNING" : "note", f->message);
      }
  }
  printf ("  panel method, %zu panels (and %zu for the error estimate)", estimate.fine.n_panels,
          estimate.coarse_panels);
  if (isfinite (estimate.relative_error))
    printf (": error estimate at most %.2g %% of a term\n", 100 * estimate.relative_error);
  else
    printf (": no error estimate (the meshes are finer than the panel budget; raise --panels)\n");
  printf ("  ESTIMATE about the link origin, link axes (kg, kg·m, kg·m²), terms that cannot be told from 0 at this resolution as 0:\n");
  bl_mat6_to_values (&estimate.added_mass, values);
  print_values (values);
  print_sdf (values);
  if (link->has_added_mass)
    printf ("  (the link already has a fluid_added_mass; this does not replace it)\n");
  bl_panel_estimate_clear (&estimate);
}

static int
run_estimate (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autofree char *density = NULL;
  g_autofree char *link_name = NULL;
  g_autofree char *method = NULL;
  gboolean json = FALSE, panel;
  gint panels = BL_PANEL_DEFAULT_PANELS;
  double rho = BL_FLUID_DENSITY_DEFAULT;
  g_auto(BlCliFluid) fluid = { 0 };
  GPtrArray *links;
  BlLink *only = NULL;
  const GOptionEntry entries[] = {
    { "fluid-density", 'r', 0, G_OPTION_ARG_STRING, &density,
      "Fluid density in kg/m³ or a preset (default: the world's, else 1025, sea water)", "RHO" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &method,
      "closed-form (default: per collision) or panel (all collisions together)", "METHOD" },
    { "panels", 'n', 0, G_OPTION_ARG_INT, &panels, "Panel budget of the panel method (default 4000)", "N" },
    { "link", 'l', 0, G_OPTION_ARG_STRING, &link_name, "Only this link (scoped or unique local name)", "NAME" },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { NULL }
  };

  context = g_option_context_new ("FILE — estimate fluid_added_mass from the collision geometry");
  g_option_context_set_description (context,
    "Potential-flow estimates per collision (sphere and ellipsoid exact,\n"
    "cylinder by strip theory, box from the DNV-RP-H103 tables, capsule, cone\n"
    "and mesh from an equivalent spheroid or ellipsoid: rough), rotated and\n"
    "shifted to the link origin and summed.  They are estimates, not data.\n"
    "--method panel solves the potential flow around all the link's collisions\n"
    "together by a boundary-element (panel) method, with an error estimate\n"
    "from a second solve at a quarter of the panels.\n"
    "Fluid density presets: sea-water 1025, fresh-water 1000, air 1.225;\n"
    "without --fluid-density, the fluid of the world's gz-sim Buoyancy\n"
    "system, else sea water.  The collisions' material <density> plays no part.\n"
    "Exit status: 0 on success, 1 when FILE cannot be read or has no such\n"
    "link, 2 on a usage error.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!bl_cli_parse_options (context, &argc, &argv))
    return BL_EXIT_USAGE;
  if (argc != 2)
    {
      g_printerr ("ballast-cli: added-mass estimate takes one FILE\n");
      return BL_EXIT_USAGE;
    }
  if (density != NULL && !bl_cli_parse_fluid_density (density, &rho))
    return BL_EXIT_USAGE;
  panel = g_strcmp0 (method, "panel") == 0;
  if (method != NULL && !panel && strcmp (method, "closed-form") != 0)
    {
      g_printerr ("ballast-cli: --method “%s” is neither closed-form nor panel\n", method);
      return BL_EXIT_USAGE;
    }
  if (panels < 100 || panels > BL_PANEL_MAX_PANELS)
    {
      g_printerr ("ballast-cli: --panels takes 100 to %d\n", BL_PANEL_MAX_PANELS);
      return BL_EXIT_USAGE;
    }

  doc = bl_cli_load_document (argv[1]);
  if (doc == NULL)
    return BL_EXIT_FAILURE;
  bl_cli_fluid_init (&fluid, doc, density);
  rho = fluid.rho;

  if (link_name != NULL)
    {
      only = find_link (doc, link_name);
      if (only == NULL)
        {
          g_printerr ("ballast-cli: %s has no link “%s” (or the local name is not unique)\n",
                      bl_document_get_path (doc), link_name);
          return BL_EXIT_FAILURE;
        }
    }

  links = bl_document_get_links (doc);
  if (json)
    {
      g_autoptr(GString) out = g_string_new (NULL);
      BlJson j;

      bl_json_init (&j, out, stdout);
      bl_json_begin_object (&j);
      bl_json_key (&j, "file");
      bl_json_string (&j, bl_document_get_path (doc));
      bl_json_key (&j, "estimate");
      bl_json_bool (&j, TRUE);
      bl_cli_fluid_json (&fluid, &j);
      bl_json_key (&j, "links");
      bl_json_begin_array (&j);
      for (guint i = 0; i < links->len; i++)
        {
          BlLink *link = g_ptr_array_index (links, i);

          if (only != NULL && link != only)
            continue;
          bl_json_newline (&j);
          if (panel)
            json_panel_link (&j, link, panels, rho);
          else
            json_estimate_link (&j, link, rho);
        }
      bl_json_end_array (&j);
      bl_json_end_object (&j);
      bl_json_newline (&j);
      bl_json_flush (&j);
      return BL_EXIT_OK;
    }

  {
    char b[BL_DOUBLE_BUF_SIZE];

    printf ("%s: ESTIMATED added mass in %s (ρ = %s kg/m³), from the collision geometry\n",
            bl_document_get_path (doc), bl_cli_fluid_name (rho), fmt (rho, b));
    printf ("Potential flow, fully submerged, far from walls and the surface: check before use.\n");
    if (fluid.note != NULL)
      printf ("Fluid: %s\n", fluid.note);
  }
  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);

      if (only != NULL && link != only)
        continue;
      if (panel)
        print_panel_link (link, panels, rho);
      else
        print_estimate_link (link, rho);
    }

  return BL_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* import                                                                    */

static BlAddedMassReport *
check_import (const BlAddedMassImport *import)
{
  BlLink *link = import->link;
  BlAddedMassCheckFlags flags = BL_ADDED_MASS_CHECK_NONE;
  BlInertial body;

  if (link == NULL)
    return bl_added_mass_check (import->values, NULL, flags);

  body.mass = link->props.mass;
  body.com = link->props.com;
  body.inertia = link->props.inertia;
  if (link->inertial_node != NULL && link->auto_inertia)
    flags |= BL_ADDED_MASS_CHECK_AUTO;
  return bl_added_mass_check (import->values, &body, flags);
}

/* --apply / --migrate: each import into its link's <fluid_added_mass>, one
 * edit per plugin (the plugin's own terms turned off with migrate), then
 * written as export writes. */
static int
apply_imports (BlDocument *doc,
               GPtrArray  *imports,
               BlLink     *only,
               gboolean    migrate,
               const char *output,
               gboolean    in_place)
{
  g_autoptr(GHashTable) done = g_hash_table_new (NULL, NULL);
  guint n = 0;

  for (guint i = 0; i < imports->len; i++)
    {
      const BlAddedMassImport *import = g_ptr_array_index (imports, i);
      const BlAddedMassImport *first;
      g_autoptr(BlEdit) edit = NULL;
      g_autoptr(GError) error = NULL;

      if (!import->has_values || import->link == NULL || (only != NULL && import->link != only))
        continue;
      if (bl_added_mass_import_get_plugin_state (doc, import) == BL_PLUGIN_ADDED_MASS_OFF)
        {
          g_printerr ("ballast-cli: note: the Hydrodynamics plugin on line %d has all its added-mass "
                      "terms at 0; nothing to import for %s\n", import->line, import->link->scoped_name);
          continue;
        }
      first = g_hash_table_lookup (done, import->link);
      if (first != NULL)
        {
          g_printerr ("ballast-cli: two plugins give added mass for %s (lines %d and %d): keep one, "
                      "nothing was written\n", import->link->scoped_name, first->line, import->line);
          return BL_EXIT_FAILURE;
        }
      g_hash_table_insert (done, import->link, (gpointer) import);

      edit = bl_added_mass_import_create_edit (doc, import, migrate, &error);
      if (edit == NULL || !bl_edit_apply (edit, &error))
        {
          g_printerr ("ballast-cli: %s: %s; nothing was written\n", import->link->scoped_name, error->message);
          return BL_EXIT_FAILURE;
        }
      n++;
      g_printerr ("ballast-cli: %s: <fluid_added_mass> from the %s plugin (line %d)%s\n",
                  import->link->scoped_name, bl_added_mass_source_to_string (import->source), import->line,
                  migrate ? "; the plugin's added-mass terms set to 0, <disable_added_mass> true" : "");
      if (!migrate && bl_added_mass_import_get_plugin_state (doc, import) == BL_PLUGIN_ADDED_MASS_ACTIVE)
        g_printerr ("ballast-cli: note: the plugin still applies its added mass, so it counts twice "
                    "(A7); --migrate turns it off in the same edit\n");
    }

  if (n == 0)
    {
      g_printerr ("ballast-cli: no plugin gives added mass for %s; nothing was written\n",
                  only != NULL ? only->scoped_name : "a link of the document");
      return BL_EXIT_FAILURE;
    }
  return bl_cli_write_document (doc, NULL, output, in_place);
}

static int
run_import (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autofree char *link_name = NULL;
  g_autofree char *output = NULL;
  gboolean json = FALSE, apply = FALSE, migrate = FALSE, in_place = FALSE;
  BlLink *only = NULL;
  const GOptionEntry entries[] = {
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { "apply", 0, 0, G_OPTION_ARG_NONE, &apply,
      "Write each plugin's added mass into its link's <fluid_added_mass>", NULL },
    { "migrate", 0, 0, G_OPTION_ARG_NONE, &migrate,
      "Like --apply, and turn the Hydrodynamics plugin's own added mass off in the same edit", NULL },
    { "link", 'l', 0, G_OPTION_ARG_STRING, &link_name, "With --apply or --migrate: only this link", "NAME" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "With --apply or --migrate: write the file to OUT (“-”: standard output)", "OUT" },
    { "in-place", 0, 0, G_OPTION_ARG_NONE, &in_place, "With --apply or --migrate: overwrite FILE", NULL },
    { NULL }
  };

  context = g_option_context_new ("FILE — convert simulator plugins' added mass into fluid_added_mass");
  g_option_context_set_description (context,
    "Reads, in FILE's models and world: the gz-sim Hydrodynamics plugin's\n"
    "(and the MBARI LRAUV HydrodynamicsPlugin's)\n"
    "<xDotU>… terms (negated; k m n are p q r), a dsros_hydro <added_mass>\n"
    "block (r p h are roll, pitch, yaw; moved from the COM to the link\n"
    "origin) and uuv_simulator's 36-value <added_mass> (scaling and offset\n"
    "applied, FRD axes flipped, asymmetry averaged).  Prints the 21 values,\n"
    "what the conversion did, and the checks of the result.\n"
    "\n"
    "--apply writes the values into each link's <fluid_added_mass> (-o OUT or\n"
    "--in-place).  A Hydrodynamics plugin then still applies its own added\n"
    "mass, which counts it twice (A7): --migrate also sets the plugin's\n"
    "[xyzkmn]Dot[UVWPQR] terms to 0 (not removed: gz-sim before 7.2 reads an\n"
    "absent xDotU as 5) and <disable_added_mass> to true, in the same edit.\n"
    "dsros_hydro and uuv_simulator are Gazebo classic plugins, which ignores\n"
    "<fluid_added_mass>: --migrate refuses them (nothing is counted twice).\n"
    "Exit status: 0 when at least one plugin was converted (and, with --apply\n"
    "or --migrate, the file written), 1 when none was found, FILE cannot be\n"
    "read or an import cannot be applied (nothing is written then), 2 on a\n"
    "usage error.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!bl_cli_parse_options (context, &argc, &argv))
    return BL_EXIT_USAGE;
  if (argc != 2)
    {
      g_printerr ("ballast-cli: added-mass import takes one FILE\n");
      return BL_EXIT_USAGE;
    }

  if ((apply || migrate) && json)
    {
      g_printerr ("ballast-cli: --json prints the imports; it does not go with --apply or --migrate\n");
      return BL_EXIT_USAGE;
    }
  if (!(apply || migrate) && (output != NULL || in_place || link_name != NULL))
    {
      g_printerr ("ballast-cli: -o, --in-place and --link go with --apply or --migrate\n");
      return BL_EXIT_USAGE;
    }
  if ((apply || migrate) && output == NULL && !in_place)
    {
      g_printerr ("ballast-cli: --%s needs -o OUT, or --in-place to overwrite %s\n",
                  migrate ? "migrate" : "apply", argv[1]);
      return BL_EXIT_USAGE;
    }

  doc = bl_cli_load_document (argv[1]);
  if (doc == NULL)
    return BL_EXIT_FAILURE;

  imports = bl_fluid_find_added_mass_imports (doc);

  if (apply || migrate)
    {
      if (link_name != NULL && (only = find_link (doc, link_name)) == NULL)
        {
          g_printerr ("ballast-cli: %s has no link “%s” (or the local name is not unique)\n",
                      bl_document_get_path (doc), link_name);
          return BL_EXIT_FAILURE;
        }
      return apply_imports (doc, imports, only, migrate, output != NULL ? output : argv[1], in_place);
    }

  if (json)
    {
      g_autoptr(GString) out = g_string_new (NULL);
      BlJson j;

      bl_json_init (&j, out, stdout);
      bl_json_begin_object (&j);
      bl_json_key (&j, "file");
      bl_json_string (&j, bl_document_get_path (doc));
      bl_json_key (&j, "imports");
      bl_json_begin_array (&j);
      for (guint i = 0; i < imports->len; i++)
        {
          const BlAddedMassImport *import = g_ptr_array_index (imports, i);
          g_autoptr(BlAddedMassReport) report = import->has_values ? check_import (import) : NULL;

          bl_json_newline (&j);
          bl_json_begin_object (&j);
          bl_json_key (&j, "source");
          bl_json_string (&j, bl_added_mass_source_to_string (import->source));
          bl_json_key (&j, "file");
          bl_json_string (&j, import->file);
          bl_json_key (&j, "line");
          bl_json_int (&j, import->line);
          bl_json_key (&j, "link_name");
          bl_json_string (&j, import->link_name);
          bl_json_key (&j, "link");
          bl_json_string (&j, import->link != NULL ? import->link->scoped_name : NULL);
          bl_json_key (&j, "model_not_loaded");
          bl_json_bool (&j, import->model_not_loaded);
          bl_json_key (&j, "fluid_added_mass");
          if (import->has_values)
            json_values (&j, import->values);
          else
            bl_json_null (&j);
          bl_json_key (&j, "notes");
          json_findings (&j, import->notes);
          bl_json_key (&j, "checks");
          json_findings (&j, report != NULL ? report->findings : NULL);
          bl_json_key (&j, "added_mass_eigenvalues");
          if (report != NULL && report->finite)
            bl_json_numbers (&j, report->eigenvalues, 6);
          else
            bl_json_null (&j);
          bl_json_key (&j, "total_eigenvalues");
          if (report != NULL && report->finite && report->has_body)
            bl_json_numbers (&j, report->total_eigenvalues, 6);
          else
            bl_json_null (&j);
          bl_json_end_object (&j);
        }
      bl_json_end_array (&j);
      bl_json_end_object (&j);
      bl_json_newline (&j);
      bl_json_flush (&j);
      return imports->len > 0 ? BL_EXIT_OK : BL_EXIT_FAILURE;
    }

  if (imports->len == 0)
    {
      printf ("%s: no gz-sim Hydrodynamics, LRAUV HydrodynamicsPlugin, dsros_hydro or uuv_simulator "
              "plugin with added mass\n",
              bl_document_get_path (doc));
      return BL_EXIT_FAILURE;
    }

  for (guint i = 0; i < imports->len; i++)
    {
      const BlAddedMassImport *import = g_ptr_array_index (imports, i);
      g_autoptr(BlAddedMassReport) report = import->has_values ? check_import (import) : NULL;

      printf ("%s%s:%d: %s plugin, link %s%s\n", i > 0 ? "\n" : "", import->file, import->line,
              bl_added_mass_source_to_string (import->source),
              import->link != NULL ? import->link->scoped_name
              : import->link_name != NULL ? import->link_name : "(none)",
              import->model_not_loaded ? " (in an <include> whose model was not loaded: "
                                         "ballast-cli inspect says why)"
              : import->link == NULL ? " (not found in the document)" : "");
      print_findings ("  ", import->notes);
      if (!import->has_values)
        continue;
      printf ("  fluid_added_mass about the link origin, link axes (kg, kg·m, kg·m²):\n");
      print_values (import->values);
      print_sdf (import->values);
      if (report->findings->len == 0)
        printf ("  checks: all passed\n");
      else
        {
          printf ("  checks:\n");
          print_findings ("    ", report->findings);
        }
      if (import->link != NULL && import->link->has_added_mass)
        printf ("  (the link already has a fluid_added_mass: keep only one of them, A7)\n");
      if (bl_added_mass_import_get_plugin_state (doc, import) == BL_PLUGIN_ADDED_MASS_ACTIVE)
        printf ("  the plugin applies these terms itself: --migrate writes <fluid_added_mass> and "
                "turns them off in one edit\n");
    }

  return BL_EXIT_OK;
}

int
bl_cli_added_mass (int    argc,
                   char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "estimate") == 0)
    {
      g_set_prgname ("ballast-cli added-mass estimate");
      return run_estimate (argc - 1, argv + 1);
    }
  if (argc >= 2 && strcmp (argv[1], "import") == 0)
    {
      g_set_prgname ("ballast-cli added-mass import");
      return run_import (argc - 1, argv + 1);
    }

  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      printf ("Usage: ballast-cli added-mass estimate [--fluid-density RHO] [--method closed-form|panel] [--panels N] [--link NAME] [--json] FILE\n"
              "       ballast-cli added-mass import [--json] FILE\n"
              "       ballast-cli added-mass import (--apply | --migrate) [--link NAME] (-o OUT | --in-place) FILE\n");
      return BL_EXIT_OK;
    }

  g_printerr ("Usage: ballast-cli added-mass estimate [--fluid-density RHO] [--method closed-form|panel] [--panels N] [--link NAME] [--json] FILE\n"
              "       ballast-cli added-mass import [--json] FILE\n"
              "       ballast-cli added-mass import (--apply | --migrate) [--link NAME] (-o OUT | --in-place) FILE\n");
  return BL_EXIT_USAGE;
}
