/* bl-export-private.h: switches of the writer, for tests. */
#pragma once

#include "bl-export.h"

G_BEGIN_DECLS

/* FALSE: saves write a named temporary file from the start, as on a file
 * system without O_TMPFILE (the default, TRUE, tries an unnamed one first). */
void bl_export_set_unnamed_temp (gboolean unnamed);

G_END_DECLS
