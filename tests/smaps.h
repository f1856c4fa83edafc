/* smaps.h: what /proc/self/smaps says of the mapping that holds an
 * address (smaps.c), for tests of how memory is mapped. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The value of the line "FIELD: value" (e.g. "Anonymous", "VmFlags"),
 * trimmed, of the mapping that holds address; NULL when no mapping holds
 * it or it has no such line. */
char *smaps_field_at (const void *address,
                      const char *field);

G_END_DECLS
