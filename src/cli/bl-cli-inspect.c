/* bl-cli-inspect.c: `ballast-cli inspect` and `ballast-cli check`. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bl-cli.h"
#include "bl-cli-common.h"
#include "bl-resource.h"
#include "bl-fluid.h"
#include "bl-json.h"
#include "bl-number.h"
#include "bl-resolve.h"

/* What inspect needs besides the document: the fluid of the buoyancy report. */
typedef struct
{
  double      rho;       /* fluid density, kg/m³ */
  BlVec3      gravity;   /* world axes */
  int         gravity_line;
  BlCliFluid  source;    /* where rho came from */
} FluidContext;

/* After a key: [numbers] when present, null otherwise. */
static void
json_numbers_or_null (BlJson       *json,
                      gboolean      present,
                      const double *values,
                      guint         n)
{
  if (present)
    bl_json_numbers (json, values, n);
  else
    bl_json_null (json);
}

static void
json_diagnostic (BlJson             *json,
                 const BlDiagnostic *diagnostic)
{
  bl_json_begin_object (json);
  bl_json_key (json, "severity");
  bl_json_string (json, bl_severity_to_string (diagnostic->severity));
  bl_json_key (json, "code");
  bl_json_string (json, diagnostic->code);
  bl_json_key (json, "file");
  bl_json_string (json, diagnostic->file);
  bl_json_key (json, "line");
  bl_json_int (json, diagnostic->line);
  bl_json_key (json, "element");
  bl_json_string (json, diagnostic->element);
  bl_json_key (json, "message");
  bl_json_string (json, diagnostic->message);
  bl_json_end_object (json);
}

static void
json_diagnostics (BlJson    *json,
                  GPtrArray *diagnostics)
{
  bl_json_begin_array (json);
  for (guint i = 0; i < diagnostics->len; i++)
    json_diagnostic (json, g_ptr_array_index (diagnostics, i));
  bl_json_end_array (json);
}

static void
json_collision (BlJson      *json,
                BlCollision *collision)
{
  bl_json_begin_object (json);
  bl_json_key (json, "name");
  bl_json_string (json, collision->name);
  bl_json_key (json, "geometry");
  bl_json_string (json, bl_geometry_type_to_string (collision->geometry.type));
  bl_json_key (json, "density");
  if (collision->has_density)
    bl_json_number (json, collision->density);
  else
    bl_json_null (json);
  bl_json_key (json, "contributes");
  bl_json_bool (json, collision->contributes);
  bl_json_key (json, "volume");
  bl_json_number (json, collision->volume);
  bl_json_key (json, "centroid");
  if (collision->volume > 0.0)
    bl_json_numbers (json, (const double[3]) { collision->centroid.x, collision->centroid.y,
                                               collision->centroid.z }, 3);
  else
    bl_json_null (json);
  if (collision->contributes)
    {
      bl_json_key (json, "used_density");
      bl_json_number (json, collision->used_density);
      bl_json_key (json, "mass");
      bl_json_number (json, collision->inertial.mass);
    }
  if (collision->geometry.type == BL_GEOMETRY_MESH)
    {
      bl_json_key (json, "uri");
      bl_json_string (json, collision->geometry.uri);
    }
  if (collision->has_mesh_properties)
    {
      const BlMeshProperties *mesh = collision->mesh_properties;

      bl_json_key (json, "mesh");
      bl_json_begin_object (json);
      bl_json_key (json, "triangles");
      bl_json_int (json, mesh->n_triangles);
      bl_json_key (json, "volume");
      bl_json_number (json, mesh->volume);
      bl_json_key (json, "watertight");
      bl_json_bool (json, mesh->watertight);
      bl_json_key (json, "warnings");
      bl_json_begin_array (json);
      for (guint i = 0; i < mesh->warnings->len; i++)
        bl_json_string (json, g_ptr_array_index (mesh->warnings, i));
      bl_json_end_array (json);
      bl_json_end_object (json);
    }
  bl_json_end_object (json);
}

static void
json_vec3 (BlJson *json,
           BlVec3  v)
{
  bl_json_numbers (json, (const double[3]) { v.x, v.y, v.z }, 3);
}

static void
json_buoyancy (BlJson             *json,
               const FluidContext *fluid,
               const BlBuoyancy   *b)
{
  bl_json_key (json, "volume");
  bl_json_number (json, b->volume);
  bl_json_key (json, "center_of_buoyancy");
  if (b->volume > 0.0)
    json_vec3 (json, b->center);
  else
    bl_json_null (json);
  bl_json_key (json, "buoyancy");
  bl_json_begin_object (json);
  bl_json_key (json, "fluid_density");
  bl_json_number (json, fluid->rho);
  bl_json_key (json, "displaced_mass");
  bl_json_number (json, b->displaced_mass);
  bl_json_key (json, "net_mass");
  bl_json_number (json, b->net_mass);
  bl_json_key (json, "net_force");
  bl_json_number (json, b->net_force);
  bl_json_key (json, "vertical_offset");
  if (b->volume > 0.0)
    bl_json_number (json, b->vertical_offset);
  else
    bl_json_null (json);
  bl_json_end_object (json);
}

static void
json_link (BlJson             *json,
           const FluidContext *fluid,
           BlLink             *link)
{
  BlBuoyancy buoyancy;
  const BlMassProperties *p = &link->props;
  const BlMat3 *a = &p->principal_axes;
  BlMat6 spatial_inertia = bl_link_spatial_inertia (link);
  double inertia[6] = {
    p->inertia.m[0][0], p->inertia.m[1][1], p->inertia.m[2][2],
    p->inertia.m[0][1], p->inertia.m[0][2], p->inertia.m[1][2],
  };

  bl_json_begin_object (json);
  bl_json_key (json, "name");
  bl_json_string (json, link->scoped_name);
  bl_json_key (json, "line");
  bl_json_int (json, link->line);
  bl_json_key (json, "auto");
  bl_json_bool (json, link->inertial_node != NULL && link->auto_inertia);
  bl_json_key (json, "static");
  bl_json_bool (json, link->model->is_static);
  bl_json_key (json, "mass");
  bl_json_number (json, p->mass);
  bl_json_key (json, "com");
  bl_json_numbers (json, (const double[3]) { p->com.x, p->com.y, p->com.z }, 3);
  bl_json_key (json, "inertia");
  bl_json_numbers (json, inertia, 6);
  bl_json_key (json, "pose");
  bl_json_begin_object (json);
  bl_json_key (json, "position");
  json_vec3 (json, link->world_pose.p);
  bl_json_key (json, "orientation");
  bl_json_numbers (json, (const double[4]) { link->world_pose.q.w, link->world_pose.q.x,
                                             link->world_pose.q.y, link->world_pose.q.z }, 4);
  bl_json_end_object (json);
  bl_json_key (json, "principal_moments");
  bl_json_numbers (json, p->principal_moments, 3);
  bl_json_key (json, "principal_axes");
  bl_json_begin_array (json);
  for (guint i = 0; i < 3; i++)
    bl_json_numbers (json, (const double[3]) { a->m[0][i], a->m[1][i], a->m[2][i] }, 3);
  bl_json_end_array (json);
  bl_json_key (json, "equivalent_ellipsoid");
  json_numbers_or_null (json, p->has_equivalent, p->equivalent_ellipsoid, 3);
  bl_json_key (json, "equivalent_box");
  json_numbers_or_null (json, p->has_equivalent, p->equivalent_box, 3);
  bl_json_key (json, "valid");
  bl_json_bool (json, p->valid);
  bl_json_key (json, "added_mass");
  json_numbers_or_null (json, link->has_added_mass, link->added_mass, 21);
  bl_json_key (json, "spatial_inertia");
  bl_json_begin_array (json);
  for (guint i = 0; i < 6; i++)
    bl_json_numbers (json, spatial_inertia.m[i], 6);
  bl_json_end_array (json);
  bl_json_key (json, "added_mass_eigenvalues");
  json_numbers_or_null (json, p->has_added_mass_eigenvalues, p->added_mass_eigenvalues, 6);
  bl_json_key (json, "total_eigenvalues");
  json_numbers_or_null (json, p->has_added_mass_eigenvalues, p->total_eigenvalues, 6);
  bl_link_compute_buoyancy (link, fluid->rho, fluid->gravity, &buoyancy);
  json_buoyancy (json, fluid, &buoyancy);
  bl_json_key (json, "collisions");
  bl_json_begin_array (json);
  for (guint i = 0; i < link->collisions->len; i++)
    json_collision (json, g_ptr_array_index (link->collisions, i));
  bl_json_end_array (json);
  bl_json_key (json, "diagnostics");
  json_diagnostics (json, link->diagnostics);
  bl_json_end_object (json);
}

static void
json_model (BlJson             *json,
            const FluidContext *fluid,
            BlModel            *model)
{
  BlInertial total = bl_model_compute_total (model);
  BlBuoyancy buoyancy;
  double inertia[6] = {
    total.inertia.m[0][0], total.inertia.m[1][1], total.inertia.m[2][2],
    total.inertia.m[0][1], total.inertia.m[0][2], total.inertia.m[1][2],
  };

  bl_model_compute_buoyancy (model, &total, fluid->rho, fluid->gravity, &buoyancy);

  bl_json_begin_object (json);
  bl_json_key (json, "name");
  bl_json_string (json, model->scoped_name);
  bl_json_key (json, "line");
  bl_json_int (json, model->line);
  bl_json_key (json, "mass");
  bl_json_number (json, total.mass);
  bl_json_key (json, "com");
  json_vec3 (json, total.com);
  bl_json_key (json, "inertia");
  bl_json_numbers (json, inertia, 6);
  json_buoyancy (json, fluid, &buoyancy);
  bl_json_key (json, "models");
  bl_json_begin_array (json);
  for (guint i = 0; i < model->models->len; i++)
    json_model (json, fluid, g_ptr_array_index (model->models, i));
  bl_json_end_array (json);
  bl_json_end_object (json);
}

static void
print_json (BlDocument         *doc,
            const FluidContext *fluid)
{
  GPtrArray *models = bl_document_get_models (doc);
  g_autoptr(GString) out = g_string_sized_new (4096);
  g_autoptr(GPtrArray) diagnostics = bl_document_collect_diagnostics (doc);
  GPtrArray *links = bl_document_get_links (doc);
  BlJson json;

  bl_json_init (&json, out, stdout);
  bl_json_begin_object (&json);
  bl_json_key (&json, "file");
  bl_json_string (&json, bl_document_get_path (doc));
  bl_json_key (&json, "sdf_version");
  bl_json_string (&json, bl_document_get_sdf_version (doc));
  bl_cli_fluid_json (&fluid->source, &json);
  bl_json_key (&json, "gravity");
  json_vec3 (&json, fluid->gravity);
  bl_json_key (&json, "models");
  bl_json_begin_array (&json);
  for (guint i = 0; i < models->len; i++)
    {
      bl_json_newline (&json);
      json_model (&json, fluid, g_ptr_array_index (models, i));
    }
  bl_json_end_array (&json);
  bl_json_newline (&json);
  bl_json_key (&json, "links");
  bl_json_begin_array (&json);
  for (guint i = 0; i < links->len; i++)
    {
      bl_json_newline (&json);
      json_link (&json, fluid, g_ptr_array_index (links, i));
    }
  bl_json_end_array (&json);
  bl_json_newline (&json);
  bl_json_key (&json, "diagnostics");
  json_diagnostics (&json, diagnostics);
  bl_json_end_object (&json);
  bl_json_newline (&json);
  bl_json_flush (&json);
}

static const char *
fmt (double value,
     char   buf[BL_DOUBLE_BUF_SIZE])
{
  /* Never "inf" or "nan" in a table a person reads: the overflow error
   * beside it says why. */
  if (!isfinite (value))
    g_strlcpy (buf, "(overflow)", BL_DOUBLE_BUF_SIZE);
  else
    g_snprintf (buf, BL_DOUBLE_BUF_SIZE, "%.6g", value + 0.0);
  return buf;
}

static void
print_diagnostic (FILE               *stream,
                  const BlDiagnostic *diagnostic)
{
  g_autofree char *text = bl_diagnostic_to_string (diagnostic);

  fprintf (stream, "%s\n", text);
}

/* "  volume" and "  buoyancy" lines of a link or a model. */
static void
print_buoyancy (const FluidContext *fluid,
                const BlBuoyancy   *b)
{
  char v[4][BL_DOUBLE_BUF_SIZE];
  BlBuoyancy shown = *b;
  double c[3];
  double g = sqrt (fluid->gravity.x * fluid->gravity.x + fluid->gravity.y * fluid->gravity.y +
                   fluid->gravity.z * fluid->gravity.z);

  if (!(b->volume > 0.0))
    {
      printf ("  volume     0 m³ (no collision of known volume): no buoyancy\n");
      return;
    }

  bl_buoyancy_clean_noise (&shown);
  b = &shown;
  c[0] = b->center.x;
  c[1] = b->center.y;
  c[2] = b->center.z;
  printf ("  volume     %s m³, centre of buoyancy %s %s %s m\n", fmt (b->volume, v[0]),
          fmt (c[0], v[1]), fmt (c[1], v[2]), fmt (c[2], v[3]));
  printf ("  buoyancy   in %s (%s kg/m³): displaces %s kg, net %s kg", bl_cli_fluid_name (fluid->rho),
          fmt (fluid->rho, v[0]), fmt (b->displaced_mass, v[1]), fmt (b->net_mass, v[2]));
  if (g > 0.0)
    printf (" = %s N (%s); centre of buoyancy %s m %s the COM\n", fmt (b->net_force, v[0]),
            fabs (b->net_mass) <= 1e-9 * MAX (b->displaced_mass, 1.0) ? "neutral"
            : b->net_mass > 0.0 ? "rises" : "sinks",
            fmt (fabs (b->vertical_offset), v[1]), b->vertical_offset >= 0.0 ? "above" : "below");
  else
    printf (" (no gravity in this world)\n");
}

static void
print_model (const FluidContext *fluid,
             BlModel            *model)
{
  BlInertial total = bl_model_compute_total (model);
  BlInertial shown = bl_inertial_clean_noise (&total);
  BlBuoyancy buoyancy;
  char b[3][BL_DOUBLE_BUF_SIZE];
  double com[3] = { shown.com.x, shown.com.y, shown.com.z };

  bl_model_compute_buoyancy (model, &total, fluid->rho, fluid->gravity, &buoyancy);
  printf ("\nmodel %s\n", model->scoped_name);
  printf ("  mass       %s kg\n", fmt (shown.mass, b[0]));
  printf ("  com        %s %s %s m (model frame)\n", fmt (com[0], b[0]), fmt (com[1], b[1]),
          fmt (com[2], b[2]));
  print_buoyancy (fluid, &buoyancy);
  for (guint i = 0; i < model->models->len; i++)
    print_model (fluid, g_ptr_array_index (model->models, i));
}

static void
print_table (BlDocument         *doc,
             const FluidContext *fluid)
{
  GPtrArray *models = bl_document_get_models (doc);
  g_autoptr(GPtrArray) diagnostics = bl_document_collect_diagnostics (doc);
  GPtrArray *links = bl_document_get_links (doc);
  char b[6][BL_DOUBLE_BUF_SIZE];

  printf ("%s  (SDF %s, %u link%s)\n", bl_document_get_path (doc),
          bl_document_get_sdf_version (doc) != NULL ? bl_document_get_sdf_version (doc) : "?",
          links->len, links->len == 1 ? "" : "s");
  if (fluid->source.note != NULL)
    printf ("fluid: %s\n", fluid->source.note);

  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);
      const BlMassProperties *p = &link->props;
      gboolean is_auto = link->inertial_node != NULL && link->auto_inertia;

      printf ("\n%s  [%s%s, %u collision%s]%s\n", link->scoped_name,
              is_auto ? "auto" : (link->inertial_node != NULL ? "explicit" : "default"),
              link->model->is_static ? ", static" : "",
              link->collisions->len, link->collisions->len == 1 ? "" : "s",
              p->valid ? "" : "  INVALID");
      BlInertial raw = { p->mass, p->com, p->inertia };
      BlInertial shown = bl_inertial_clean_noise (&raw);
      double com[3] = { shown.com.x, shown.com.y, shown.com.z };
      double inertia[6] = {
        shown.inertia.m[0][0], shown.inertia.m[1][1], shown.inertia.m[2][2],
        shown.inertia.m[0][1], shown.inertia.m[0][2], shown.inertia.m[1][2],
      };
      double principal[3] = { p->principal_moments[0], p->principal_moments[1], p->principal_moments[2] };

      bl_number_clean_noise (principal, 3, 0.0);
      printf ("  mass       %s kg\n", fmt (shown.mass, b[0]));
      printf ("  com        %s %s %s m\n", fmt (com[0], b[0]), fmt (com[1], b[1]), fmt (com[2], b[2]));
      printf ("  inertia    ixx %s  iyy %s  izz %s  ixy %s  ixz %s  iyz %s kg·m²\n",
              fmt (inertia[0], b[0]), fmt (inertia[1], b[1]), fmt (inertia[2], b[2]),
              fmt (inertia[3], b[3]), fmt (inertia[4], b[4]), fmt (inertia[5], b[5]));
      printf ("  principal  %s %s %s kg·m²\n", fmt (principal[0], b[0]),
              fmt (principal[1], b[1]), fmt (principal[2], b[2]));
      if (p->has_equivalent)
        printf ("  ellipsoid  semi-axes %s %s %s m\n", fmt (p->equivalent_ellipsoid[0], b[0]),
                fmt (p->equivalent_ellipsoid[1], b[1]), fmt (p->equivalent_ellipsoid[2], b[2]));
      if (link->has_added_mass)
        printf ("  added mass xx %s  yy %s  zz %s  pp %s  qq %s  rr %s (+ couplings)\n",
                fmt (link->added_mass[0], b[0]), fmt (link->added_mass[6], b[1]),
                fmt (link->added_mass[11], b[2]), fmt (link->added_mass[15], b[3]),
                fmt (link->added_mass[18], b[4]), fmt (link->added_mass[20], b[5]));
      if (p->has_added_mass_eigenvalues)
        {
          double added[6], total[6];

          memcpy (added, p->added_mass_eigenvalues, sizeof added);
          memcpy (total, p->total_eigenvalues, sizeof total);
          bl_number_clean_noise (added, 6, 0.0);
          bl_number_clean_noise (total, 6, 0.0);
          printf ("  eigen      λmin(μ) %s%s, λmin(M_RB + μ) %s (%s)\n",
                  fmt (added[0], b[0]),
                  p->added_mass_eigenvalues[0] < -1e-9 * MAX (p->added_mass_eigenvalues[5], 1.0)
                    ? " NEGATIVE" : "",
                  fmt (total[0], b[1]),
                  p->total_eigenvalues[0] > 0.0 ? "positive definite" : "NOT positive definite");
        }
      {
        BlBuoyancy buoyancy;

        bl_link_compute_buoyancy (link, fluid->rho, fluid->gravity, &buoyancy);
        print_buoyancy (fluid, &buoyancy);
      }
    }

  if (models->len > 0)
    {
      printf ("\nModels (totals in each model's frame):\n");
      for (guint i = 0; i < models->len; i++)
        print_model (fluid, g_ptr_array_index (models, i));
    }

  if (diagnostics->len > 0)
    {
      printf ("\n%u diagnostic%s:\n", diagnostics->len, diagnostics->len == 1 ? "" : "s");
      for (guint i = 0; i < diagnostics->len; i++)
        print_diagnostic (stdout, g_ptr_array_index (diagnostics, i));
    }
}

int
bl_cli_inspect (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(BlDocument) doc = NULL;
  gboolean json = FALSE;
  g_autofree char *density = NULL;
  FluidContext fluid = { BL_FLUID_DENSITY_DEFAULT, BL_VEC3_ZERO, 0, { 0 } };
  const GOptionEntry entries[] = {
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { "fluid-density", 'r', 0, G_OPTION_ARG_STRING, &density,
      "Fluid of the buoyancy report, kg/m³ or a preset (default: the world's, else 1025, sea water)", "RHO" },
    { NULL }
  };

  context = g_option_context_new ("[FILE] — print every link's mass properties");
  g_option_context_set_description (context,
    "Without FILE, the built-in sample model is inspected.\n"
    "The buoyancy report assumes each body fully submerged in the fluid of\n"
    "--fluid-density: 1025 (sea-water), 1000 (fresh-water) or 1.225 (air),\n"
    "or any positive number; without it, the fluid of the world's gz-sim\n"
    "Buoyancy system (its <uniform_fluid_density>, else gz-sim's 1000), and\n"
    "sea water in a file without one.  Gravity is the world's <gravity>\n"
    "(SDF default 0 0 -9.8), or 9.80665 m/s² in a file without a world.\n"
    "Exit status: 0 when the file loaded (warnings and errors inside the\n"
    "model are reported, not fatal), 1 when it could not be read or\n"
    "parsed, 2 on a usage error.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!bl_cli_parse_options (context, &argc, &argv))
    return BL_EXIT_USAGE;
  if (argc > 2)
    {
      g_printerr ("ballast-cli: inspect takes one FILE\n");
      return BL_EXIT_USAGE;
    }

  if (density != NULL && !bl_cli_parse_fluid_density (density, &fluid.rho))
    return BL_EXIT_USAGE;

  /* Nothing is edited or saved: the lighter read-only load. */
  doc = bl_cli_load_document_full (argc == 2 ? argv[1] : NULL, BL_DOCUMENT_LOAD_READ_ONLY);
  if (doc == NULL)
    return BL_EXIT_FAILURE;

  bl_cli_fluid_init (&fluid.source, doc, density);
  fluid.rho = fluid.source.rho;
  fluid.gravity = bl_fluid_get_gravity (doc, &fluid.gravity_line);
  if (json)
    print_json (doc, &fluid);
  else
    print_table (doc, &fluid);

  bl_cli_fluid_clear (&fluid.source);
  bl_cli_keep_until_exit (g_steal_pointer (&doc));
  return BL_EXIT_OK;
}

int
bl_cli_check (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  GPtrArray *links;
  guint n_problems = 0, n_warnings = 0;
  const GOptionEntry entries[] = { { NULL } };

  context = g_option_context_new ("FILE — fail when a link's inertia is invalid or an error was found");
  g_option_context_set_description (context,
    "For pre-commit hooks and CI of model repositories.\n"
    "Exit status: 0 when every link is valid and there is no error,\n"
    "1 otherwise (or when FILE cannot be read), 2 on a usage error.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!bl_cli_parse_options (context, &argc, &argv))
    return BL_EXIT_USAGE;
  if (argc != 2)
    {
      g_printerr ("ballast-cli: check takes one FILE\n");
      return BL_EXIT_USAGE;
    }

  doc = bl_cli_load_document_full (argv[1], BL_DOCUMENT_LOAD_READ_ONLY);
  if (doc == NULL)
    return BL_EXIT_FAILURE;

  diagnostics = bl_document_collect_diagnostics (doc);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      BlDiagnostic *diagnostic = g_ptr_array_index (diagnostics, i);

      if (diagnostic->severity == BL_SEVERITY_ERROR)
        {
          print_diagnostic (stdout, diagnostic);
          n_problems++;
        }
      n_warnings += diagnostic->severity == BL_SEVERITY_WARNING;
    }

  links = bl_document_get_links (doc);
  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);

      if (!link->props.valid)
        {
          printf ("%s:%d: invalid inertia: %s\n", link->model->file, link->line, link->scoped_name);
          n_problems++;
        }
    }

  if (n_problems == 0)
    {
      printf ("%s: %u link%s, all valid", bl_document_get_path (doc), links->len, links->len == 1 ? "" : "s");
      /* Warnings do not fail the check, but they are not hidden either. */
      if (n_warnings > 0)
        printf ("; %u warning%s (ballast-cli inspect lists %s)", n_warnings, n_warnings == 1 ? "" : "s",
                n_warnings == 1 ? "it" : "them");
      printf ("\n");
    }
  else
    printf ("%s: %u problem%s\n", bl_document_get_path (doc), n_problems, n_problems == 1 ? "" : "s");

  bl_cli_keep_until_exit (g_steal_pointer (&doc));
  return n_problems == 0 ? BL_EXIT_OK : BL_EXIT_FAILURE;
}
