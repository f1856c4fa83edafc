/* bl-field.h: what every number field shares: strict parsing under a rule,
 * the document's undo on Ctrl+Z, the short display of a quantity. */
#pragma once

#include <gtk/gtk.h>

#include "bl-document.h"

G_BEGIN_DECLS

typedef enum
{
  BL_FIELD_ANY,        /* any finite number */
  BL_FIELD_POSITIVE,   /* finite and > 0 (densities, masses) */
} BlFieldRule;

#define BL_TYPE_FIELD_RULE (bl_field_rule_get_type ())
GType     bl_field_rule_get_type   (void) G_GNUC_CONST;

/* Parses `text` under `rule`.  On failure returns FALSE and sets *reason
 * (nullable) to a translated, static message. */
gboolean  bl_field_parse_text      (const char   *text,
                                    BlFieldRule   rule,
                                    double       *value,
                                    const char  **reason);
/* Ctrl+Z and Ctrl+Shift+Z in the field undo and redo the document's edits
 * (win.undo, win.redo) instead of its text.  A BlNumberField has it
 * already; the outline's search field uses it too. */
void      bl_field_route_undo      (GtkWidget    *field);
/* Why the link's fields cannot be edited (it comes from an included
 * file: "Part of an included file (/path/to/part.sdf): open it to edit"), or NULL
 * when they can.  Fields say it before the user tries. */
char     *bl_field_dup_read_only_reason (BlDocument   *doc,
                                         const BlLink *link);
/* Sets WIDGET's tooltip to TEXT (nullable; "" is none) only when it
 * differs: setting a tooltip, even to the same text, makes GTK ask the
 * display server where the pointer is (a round trip each), and updates run
 * on every edit. */
void      bl_field_set_tooltip     (GtkWidget    *widget,
                                    const char   *text);
/* Shows TEXT in LABEL, or hides LABEL when TEXT is NULL; sets only what
 * differs, as bl_field_set_tooltip. */
void      bl_field_set_note        (GtkLabel     *label,
                                    const char   *text);
/* Gives WIDGET the style class ACTIVE (nullable: none) and none of the
 * others of CLASSES (NULL-terminated), adding or removing only what
 * differs: taking a class away and giving it back restyles the widget. */
void      bl_field_set_css_class   (GtkWidget          *widget,
                                    const char * const *classes,
                                    const char         *active);
/* A short display form with units, e.g. "12.5 kg". */
char     *bl_field_format_quantity (double        value,
                                    const char   *unit);

G_END_DECLS
