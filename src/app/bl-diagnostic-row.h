/* bl-diagnostic-row.h: a row that shows one diagnostic or finding. */
#pragma once

#include <gtk/gtk.h>

#include "bl-diagnostic.h"

G_BEGIN_DECLS

/* A row (a GtkGrid) of a severity icon and a wrapped, selectable label,
 * empty until bl_diagnostic_row_set; its width does not depend on the
 * height it is offered. */
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

/* Makes BOX hold exactly N rows of bl_diagnostic_row_new, keeping the rows
 * it has (an edit changes a number in a message, not the rows), and
 * returns the first (NULL when N is 0).  With N = 0 the box holds one
 * label instead, EMPTY_TEXT with the style class EMPTY_CLASS (e.g. "No
 * problems found", "dim-label"), set again only where it differs. */
GtkWidget *bl_diagnostic_box_sync (GtkBox     *box,
                                   guint       n,
                                   const char *empty_text,
                                   const char *empty_class);

/* D's message as read on the page or the outline row of its link, whose
 * scoped name is LINK_NAME: the diagnostic of a collision whose message
 * does not name it starts with it ("collision “battery”: overlaps
 * “hull_body” …"; the line alone left the user to find which); any other
 * message is as it is.  Newly allocated. */
char      *bl_diagnostic_row_dup_message (const BlDiagnostic *d,
                                          const char         *link_name);

G_END_DECLS
