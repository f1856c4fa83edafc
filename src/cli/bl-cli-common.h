/* bl-cli-common.h: what the ballast-cli commands share (bl-cli-common.c):
 * exit statuses, loading, the options of every command, fluid densities
 * and writing the edited document. */
#pragma once

#include <gio/gio.h>

#include "bl-document.h"
#include "bl-export.h"
#include "bl-json.h"

G_BEGIN_DECLS

/* Exit statuses, as documented in the README. */
enum
{
  BL_EXIT_OK = 0,
  BL_EXIT_FAILURE = 1,  /* unreadable or unparsable input; check found problems */
  BL_EXIT_USAGE = 2,
};

/* Loads FILE, or the built-in sample when path is NULL; prints the error
 * and returns NULL when it cannot be read. */
BlDocument *bl_cli_load_document (const char *path);
BlDocument *bl_cli_load_document_full (const char          *path,
                                       BlDocumentLoadFlags  flags);

/* Keeps doc (taking the reference) until the process exits, which it does
 * as soon as the command returns: the kernel takes the pages back at once,
 * where freeing a 100,000-link document node by node is 6 % of inspect.
 * It stays reachable, so leak checkers do not report it. */
void        bl_cli_keep_until_exit (BlDocument *doc);

/* Writes the edited document to OUTPUT ("-": standard output) as export
 * does: atomically, the input itself only with in_place; says on stderr
 * when <sdf version> was raised.  bake (nullable, recorded): the links it
 * recorded are written baked.  Returns the exit status. */
int         bl_cli_write_document (BlDocument   *doc,
                                   BlExportBake *bake,
                                   const char   *output,
                                   gboolean      in_place);

/* A fluid density option: a positive number in kg/m³ or a preset name
 * (sea-water 1025, fresh-water 1000, air 1.225).  Prints the error and
 * returns FALSE otherwise. */
gboolean    bl_cli_parse_fluid_density (const char *text,
                                        double     *rho);
/* "sea water", "fresh water", "air" or "the fluid" for a density. */
const char *bl_cli_fluid_name    (double rho);

/* The fluid of a report on a document, and where it came from: the
 * --fluid-density option when given, else the fluid of the world's gz-sim
 * Buoyancy system (bl_fluid_get_world_fluid), else sea water. */
typedef struct
{
  double      rho;
  const char *source;  /* "option", "world" or "default" */
  int         line;    /* for "world": the Buoyancy system's line, else 0 */
  char       *note;    /* a sentence on the fluid when the world has a
                        * Buoyancy system, else NULL */
} BlCliFluid;

void        bl_cli_fluid_init    (BlCliFluid *fluid,
                                  BlDocument *doc,
                                  const char *option);
void        bl_cli_fluid_clear   (BlCliFluid *fluid);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BlCliFluid, bl_cli_fluid_clear)

/* "fluid_density", "fluid_density_source" and "fluid_density_line" (or
 * null) as keys of the open object. */
void        bl_cli_fluid_json    (const BlCliFluid *fluid,
                                  BlJson           *json);

/* The app's settings schema, whose model-paths key ballast-cli reads. */
#define BL_CLI_APPLICATION_ID "app.ballast.Ballast"

/* Parses options, and every command's --model-path DIR; on failure prints
 * the message and a hint. On success sets the core's extra model paths
 * (bl_resource_set_extra_paths) to the --model-path folders, then those of
 * the app's model-paths setting when its schema is installed, and whether
 * files outside the model's folders may be read (--allow-outside-files or
 * the app's allow-outside-files setting). */
gboolean    bl_cli_parse_options (GOptionContext *context,
                                  int            *argc,
                                  char         ***argv);

G_END_DECLS
