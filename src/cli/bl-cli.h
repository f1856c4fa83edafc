/* bl-cli.h: the subcommands of ballast-cli, one file each
 * (bl-cli-inspect.c, bl-cli-export.c, bl-cli-added-mass.c); what they
 * share is in bl-cli-common.h, and no command file uses another's code. */
#pragma once

#include "bl-cli-common.h"

G_BEGIN_DECLS

int         bl_cli_inspect       (int argc, char **argv);
int         bl_cli_check         (int argc, char **argv);
int         bl_cli_export        (int argc, char **argv);
int         bl_cli_added_mass    (int argc, char **argv);

G_END_DECLS
