/* bl-cli-export.c: `ballast-cli export`, edits and bake from the command line. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bl-added-mass.h"
#include "bl-cli.h"
#include "bl-cli-common.h"
#include "bl-edit.h"
#include "bl-export.h"
#include "bl-number.h"

/* Why an --set was refused: its syntax (a usage error) or its content. */
typedef enum
{
  SET_OK,
  SET_USAGE,
  SET_INVALID,
} SetStatus;

/* FALSE, with a message naming their lines, when other links have the
 * scoped name of `link` (two models of one name): which one an edit
 * would change cannot be told, so none is. */
static gboolean
link_is_unique (BlDocument  *doc,
                BlLink      *link,
                const char  *text,
                char       **message)
{
  GPtrArray *links = bl_document_get_links (doc);
  g_autoptr(GString) lines = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; i < links->len; i++)
    {
      BlLink *other = g_ptr_array_index (links, i);

      if (strcmp (other->scoped_name, link->scoped_name) != 0)
        continue;
      g_string_append_printf (lines, "%s%s:%d", n > 0 ? ", " : "", other->model->file, other->line);
      n++;
    }
  if (n <= 1)
    return TRUE;

  *message = g_strdup_printf ("--set “%s”: %u links are named “%s” (%s); rename them so that "
                              "each can be told apart", text, n, link->scoped_name, lines->str);
  return FALSE;
}

/* The link, or the link and collision, TARGET names: LINK or
 * LINK/COLLISION.  Names may hold '/' themselves (links exported from URDF
 * as "r2/world_ref", collisions as "r2/base/collision"), so every '/' is
 * tried as the one between them; a target that reads more than one way
 * is refused with the readings rather than guessed. */
static gboolean
find_target (BlDocument   *doc,
             const char   *text,
             const char   *target,
             BlLink      **link_out,
             BlCollision **collision_out,
             char        **message)
{
  g_autoptr(GString) readings = g_string_new (NULL);
  g_autofree char *longest_link = NULL;
  const char *longest_slash = NULL;
  guint n = 0;

  *link_out = bl_document_find_link (doc, target);
  *collision_out = NULL;
  if (*link_out != NULL)
    {
      g_string_append_printf (readings, "link “%s”", target);
      n++;
    }
  for (const char *slash = strchr (target, '/'); slash != NULL; slash = strchr (slash + 1, '/'))
    {
      g_autofree char *link_name = g_strndup (target, slash - target);
      BlLink *link = bl_document_find_link (doc, link_name);
      BlCollision *collision;

      if (link == NULL)
        continue;
      collision = bl_document_find_collision (doc, link_name, slash + 1);
      if (collision == NULL)
        {
          g_free (longest_link);
          longest_link = g_steal_pointer (&link_name);
          longest_slash = slash;
          continue;
        }
      g_string_append_printf (readings, "%slink “%s” and its collision “%s”", n > 0 ? "; " : "",
                              link_name, slash + 1);
      if (n++ == 0)
        {
          *link_out = link;
          *collision_out = collision;
        }
    }

  if (n == 1)
    return TRUE;
  if (n > 1)
    *message = g_strdup_printf ("--set “%s”: “%s” names more than one thing (%s)", text, target,
                                readings->str);
  else if (longest_link != NULL)
    *message = g_strdup_printf ("--set “%s”: link “%s” has no collision “%s”",
                                text, longest_link, longest_slash + 1);
  else
    *message = g_strdup_printf ("--set “%s”: there is no link “%s” (“ballast-cli inspect” "
                                "lists them)", text, target);
  return FALSE;
}

/* Parses LINK:FIELD=VALUE or LINK/COLLISION:density=VALUE into an edit. */
static SetStatus
parse_set (BlDocument  *doc,
           const char  *text,
           BlEdit     **edit_out,
           char       **message)
{
  g_autofree char *lhs = NULL;
  g_autofree char *target = NULL;
  /* the last '=': values have none, names may ("a=b") */
  const char *eq = strrchr (text, '=');
  const char *value, *field, *colon;
  BlLink *link;
  BlCollision *collision = NULL;
  int key = -1;
  double number;

  *edit_out = NULL;

  if (eq == NULL)
    {
      *message = g_strdup_printf ("--set “%s”: expected LINK:FIELD=VALUE", text);
      return SET_USAGE;
    }
  lhs = g_strndup (text, eq - text);
  value = eq + 1;

  /* The field follows the last single colon; "model::link" has doubled ones. */
  colon = strrchr (lhs, ':');
  if (colon == NULL || colon == lhs || colon[-1] == ':' || colon[1] == '\0')
    {
      *message = g_strdup_printf ("--set “%s”: expected LINK:FIELD=VALUE", text);
      return SET_USAGE;
    }
  target = g_strndup (lhs, colon - lhs);
  field = colon + 1;

  if (strcmp (field, "auto") != 0 && strcmp (field, "density") != 0 && strcmp (field, "mass") != 0 &&
      (key = bl_added_mass_key_lookup (field)) < 0)
    {
      *message = g_strdup_printf ("--set “%s”: unknown field “%s”; expected auto, density, mass "
                                  "or an added-mass key xx…rr", text, field);
      return SET_USAGE;
    }

  if (!find_target (doc, text, target, &link, &collision, message))
    return SET_INVALID;

  if (!link_is_unique (doc, link, text, message))
    return SET_INVALID;

  if (collision != NULL && strcmp (field, "density") != 0)
    {
      *message = g_strdup_printf ("--set “%s”: a collision has only a density", text);
      return SET_USAGE;
    }

  if (strcmp (field, "auto") == 0)
    {
      gboolean on;

      if (strcmp (value, "true") == 0)
        on = TRUE;
      else if (strcmp (value, "false") == 0)
        on = FALSE;
      else
        {
          *message = g_strdup_printf ("--set “%s”: auto is true or false, not “%s”", text, value);
          return SET_INVALID;
        }
      *edit_out = bl_edit_new_auto (doc, link, on);
      return SET_OK;
    }

  if (!bl_number_parse (value, &number))
    {
      *message = g_strdup_printf ("--set “%s”: “%s” is not a finite number", text, value);
      return SET_INVALID;
    }

  if (collision != NULL)
    *edit_out = bl_edit_new_collision_density (doc, collision, number);
  else if (strcmp (field, "density") == 0)
    *edit_out = bl_edit_new_density (doc, link, number);
  else if (strcmp (field, "mass") == 0)
    *edit_out = bl_edit_new_mass (doc, link, number);
  else
    *edit_out = bl_edit_new_added_mass (doc, link, (guint) key, number);

  return SET_OK;
}

int
bl_cli_export (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlExportBake) baking = NULL;
  g_autoptr(GPtrArray) changed = g_ptr_array_new ();
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) sets = NULL;
  gboolean bake = FALSE, fix_invalid = FALSE, in_place = FALSE;
  const char *input;
  int written;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "Write the corrected file to OUT (“-”: standard output)", "OUT" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
      "Change a value before saving (repeatable, applied in order)", "EDIT" },
    { "bake", 0, 0, G_OPTION_ARG_NONE, &bake,
      "Write each automatic link's computed mass, pose and inertia and drop auto=\"true\"", NULL },
    { "fix-invalid", 0, 0, G_OPTION_ARG_NONE, &fix_invalid,
      "Replace an invalid explicit inertia by the one computed from the link's collisions", NULL },
    { "in-place", 0, 0, G_OPTION_ARG_NONE, &in_place,
      "Allow overwriting IN (the default output when -o is not given)", NULL },
    { NULL }
  };

  context = g_option_context_new ("IN — save a corrected copy of an SDF file");
  g_option_context_set_description (context,
    "EDIT is one of\n"
    "  LINK:auto=true|false         automatic inertia on or off\n"
    "  LINK:density=VALUE           //inertial/density, kg/m³\n"
    "  LINK:mass=VALUE              //inertial/mass, kg\n"
    "  LINK:KEY=VALUE               an added-mass value, KEY one of xx xy … qr rr\n"
    "  LINK/COLLISION:density=VALUE a collision's density, kg/m³\n"
    "where LINK is the scoped name “ballast-cli inspect” prints (model::link).\n"
    "\n"
    "Only the edited elements change; the rest of the file is copied byte for byte.\n"
    "<sdf version> is raised to 1.10 for added mass and to 1.11 for auto or a density,\n"
    "unless that would change how the rest of the file reads (a name with “::” before 1.8).\n"
    "The file is written to a temporary file and renamed, so OUT is never left half written.\n"
    "\n"
    "Exit status: 0 when the file was written, 1 when IN cannot be read, an edit is\n"
    "invalid, baking fails or OUT cannot be written (nothing is written then),\n"
    "2 on a usage error.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!bl_cli_parse_options (context, &argc, &argv))
    return BL_EXIT_USAGE;

  if (argc != 2)
    {
      g_printerr ("ballast-cli: export takes one input file\n");
      return BL_EXIT_USAGE;
    }
  input = argv[1];
  if (output == NULL)
    {
      if (!in_place)
        {
          g_printerr ("ballast-cli: export needs -o OUT, or --in-place to overwrite %s\n", input);
          return BL_EXIT_USAGE;
        }
      output = g_strdup (input);
    }

  doc = bl_cli_load_document (input);
  if (doc == NULL)
    return BL_EXIT_FAILURE;

  /* Every edit first, in order; a bad one stops before anything is written. */
  for (guint i = 0; sets != NULL && sets[i] != NULL; i++)
    {
      g_autoptr(BlEdit) edit = NULL;
      g_autofree char *message = NULL;
      SetStatus status = parse_set (doc, sets[i], &edit, &message);

      if (status != SET_OK)
        {
          g_printerr ("ballast-cli: %s\n", message);
          return status == SET_USAGE ? BL_EXIT_USAGE : BL_EXIT_FAILURE;
        }
      if (!bl_edit_apply (edit, &error))
        {
          g_printerr ("ballast-cli: --set “%s”: %s\n", sets[i], error->message);
          return BL_EXIT_FAILURE;
        }
    }

  if (bake || fix_invalid)
    {
      BlBakeFlags flags = (bake ? BL_BAKE_AUTO : 0) | (fix_invalid ? BL_BAKE_FIX_INVALID : 0);

      /* Written, not applied: nothing reads the document afterwards, and
       * a bake kept in the tree costs about 3 kB a link. */
      baking = bl_export_bake_new (doc, flags, changed, notes, &error);
      if (baking == NULL)
        {
          g_printerr ("ballast-cli: %s\n", error->message);
          return BL_EXIT_FAILURE;
        }
      for (guint i = 0; i < changed->len; i++)
        {
          BlLink *link = g_ptr_array_index (changed, i);

          if (link->inertial_node != NULL && link->auto_inertia)
            g_printerr ("ballast-cli: baked %s\n", link->scoped_name);
          else
            g_printerr ("ballast-cli: replaced the invalid inertia of %s by the one of its collisions\n",
                        link->scoped_name);
        }
      if (!bl_export_bake_record (baking, &error))
        {
          g_printerr ("ballast-cli: %s\n", error->message);
          return BL_EXIT_FAILURE;
        }
    }

  for (guint i = 0; i < notes->len; i++)
    g_printerr ("ballast-cli: note: %s\n", (const char *) g_ptr_array_index (notes, i));

  written = bl_cli_write_document (doc, baking, output, in_place);
  bl_cli_keep_until_exit (g_steal_pointer (&doc));
  return written;
}
