/* bl-diagnostic-row.h: a row that shows one diagnostic or finding. */
#pragma once

#include <gtk/gtk.h>

#include "bl-diagnostic.h"

G_BEGIN_DECLS

/* A horizontal box of a severity icon and a wrapped, selectable label,
 * empty until bl_diagnostic_row_set. */
GtkWidget *bl_diagnostic_row_new (void);

/* Shows SEVERITY's icon and MARKUP, with TOOLTIP (or none).  Only what
 * differs from what the row shows is set again: a changed label is
 * measured and drawn anew, and a changed tooltip costs a round trip to the
 * display server, so an edit that changes one number of one message
 * redraws that label alone. */
void       bl_diagnostic_row_set (GtkWidget  *row,
                                  BlSeverity  severity,
                                  const char *markup,
                                  const char *tooltip);

G_END_DECLS
