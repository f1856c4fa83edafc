/* bl-field.h: number fields that refuse invalid input with an inline message. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  BL_FIELD_ANY,        /* any finite number */
  BL_FIELD_POSITIVE,   /* finite and > 0 (densities, masses) */
} BlFieldRule;

/* Parses `text` under `rule`.  On failure returns FALSE and sets *reason
 * (nullable) to a translated, static message. */
gboolean  bl_field_parse_text      (const char   *text,
                                    BlFieldRule   rule,
                                    double       *value,
                                    const char  **reason);
/* Parses the editable's text.  On failure the widget gets the "error" CSS
 * class and `message` (nullable) shows the reason; on success both clear. */
gboolean  bl_field_parse           (GtkWidget    *widget,
                                    GtkLabel     *message,
                                    BlFieldRule   rule,
                                    double       *value);
void      bl_field_show_error      (GtkWidget    *widget,
                                    GtkLabel     *message,
                                    const char   *reason);
void      bl_field_clear_error     (GtkWidget    *widget,
                                    GtkLabel     *message);
/* Sets the editable's text to the shortest round-trip form of value. */
void      bl_field_set_value       (GtkEditable  *editable,
                                    double        value);
/* Makes a spin button show shortest round-trip numbers and parse strictly
 * under `rule`, refusing (with `message`) what does not parse. */
void      bl_field_setup_spin      (GtkSpinButton *spin,
                                    GtkLabel      *message,
                                    BlFieldRule    rule);
/* An empty spin button shows no number (an optional value that is unset)
 * until the user types one. */
void      bl_field_set_spin_empty  (GtkSpinButton *spin,
                                    gboolean       empty);
/* An optional spin button takes empty text as a value, "unset", instead
 * of refusing it: Enter or focus-out on an emptied field shows it empty,
 * emits ::value-changed, and bl_field_spin_take_cleared() returns TRUE. */
void      bl_field_set_spin_optional   (GtkSpinButton *spin,
                                        gboolean       optional);
/* TRUE when the latest ::value-changed came from emptying an optional
 * spin button.  Call from ::value-changed; it forgets it. */
gboolean  bl_field_spin_take_cleared   (GtkSpinButton *spin);
/* The dimmed text an empty spin button shows: the value in use when the
 * field is unset.  NULL shows nothing. */
void      bl_field_set_spin_placeholder (GtkSpinButton *spin,
                                         const char    *text);
/* TRUE when the spin button's latest value came from typed text (Enter or
 * focus out) rather than a step of its buttons, keys or scroll wheel: a
 * run of steps is one undo step, a typed value is its own.  Call from
 * ::value-changed; it forgets the typed value. */
gboolean  bl_field_spin_take_typed (GtkSpinButton *spin);
/* Ctrl+Z and Ctrl+Shift+Z in the field undo and redo the document's edits
 * (win.undo, win.redo) instead of its text.  Spin buttons set up with
 * bl_field_setup_spin() have it already. */
void      bl_field_route_undo      (GtkWidget    *field);
/* A short display form with units, e.g. "12.5 kg". */
char     *bl_field_format_quantity (double        value,
                                    const char   *unit);

G_END_DECLS
