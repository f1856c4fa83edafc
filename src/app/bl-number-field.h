/* bl-number-field.h: the one widget every number of Ballast is edited in.
 *
 * A text with − / + buttons (or without, in the added-mass matrix) that
 * holds a value or, when optional, no value ("empty": the element is unset
 * and the field shows the value in use as a dimmed placeholder).  What the
 * user does is told by ::edit, after the field has taken the new value:
 *
 *  - TYPED: Enter, or leaving the field after changing its text, with text
 *    that parses strictly under the field's rule (anything else is refused
 *    with an inline message, the `error` property, and nothing is emitted).
 *    Enter emits even when the value did not change; leaving does not.
 *  - STEPPED: the − / + buttons or Up / Down with the focus in the field.
 *    The step is from the value shown (the placeholder's value when empty)
 *    to the next multiple of the step: `step`, or when it is 0 a power of
 *    ten between 0.2 % and 2 % of the value (600 → 610, 141.5 → 142).
 *  - CLEARED: Enter or leaving an optional field whose text was emptied.
 *
 * The mouse wheel never changes the value: a wheel over the field scrolls
 * whatever the field is in.  Setting the value or the placeholder from
 * code emits no ::edit.  The field is a GtkEditable (its text, `editable`
 * and so on are its GtkText's); a field that is not editable shows its
 * value without buttons.  Ctrl+Z / Ctrl+Shift+Z run win.undo / win.redo. */
#pragma once

#include <gtk/gtk.h>

#include "bl-field.h"

G_BEGIN_DECLS

typedef enum
{
  BL_NUMBER_FIELD_TYPED,
  BL_NUMBER_FIELD_STEPPED,
  BL_NUMBER_FIELD_CLEARED,
} BlNumberFieldEdit;

#define BL_TYPE_NUMBER_FIELD_EDIT (bl_number_field_edit_get_type ())
GType bl_number_field_edit_get_type (void) G_GNUC_CONST;

#define BL_TYPE_NUMBER_FIELD (bl_number_field_get_type ())
G_DECLARE_FINAL_TYPE (BlNumberField, bl_number_field, BL, NUMBER_FIELD, GtkWidget)

GtkWidget   *bl_number_field_new                  (BlFieldRule    rule);

double       bl_number_field_get_value            (BlNumberField *self);
/* Shows `value` (shortest round-trip form) and makes the field not empty;
 * clears the error. */
void         bl_number_field_set_value            (BlNumberField *self,
                                                   double         value);
gboolean     bl_number_field_get_empty            (BlNumberField *self);
/* Only an optional field can be empty; the value is kept but not shown. */
void         bl_number_field_set_empty            (BlNumberField *self,
                                                   gboolean       empty);
gboolean     bl_number_field_get_optional         (BlNumberField *self);
void         bl_number_field_set_optional         (BlNumberField *self,
                                                   gboolean       optional);
BlFieldRule  bl_number_field_get_rule             (BlNumberField *self);
void         bl_number_field_set_rule             (BlNumberField *self,
                                                   BlFieldRule    rule);
/* The value in use when the field is empty, and the dimmed text that
 * says so ("600 (link)").  A NULL text: nothing in use, nothing shown,
 * and − / + have nothing to step from; a value that is not finite: the
 * text says why there is none, and − / + have nothing to step from. */
void         bl_number_field_set_placeholder      (BlNumberField *self,
                                                   double         value,
                                                   const char    *text);
double       bl_number_field_get_placeholder_value (BlNumberField *self);
const char  *bl_number_field_get_placeholder_text (BlNumberField *self);
/* 0: a step that fits the value's magnitude (see above). */
double       bl_number_field_get_step             (BlNumberField *self);
void         bl_number_field_set_step             (BlNumberField *self,
                                                   double         step);
gboolean     bl_number_field_get_show_buttons     (BlNumberField *self);
void         bl_number_field_set_show_buttons     (BlNumberField *self,
                                                   gboolean       show_buttons);
/* The reason the text was refused, NULL when it was not.  Set from code,
 * it shows a refusal of the owner's (the field gets the "error" style). */
const char  *bl_number_field_get_error            (BlNumberField *self);
void         bl_number_field_set_error            (BlNumberField *self,
                                                   const char    *error);
/* Shows the field's error in `label` (hidden when there is none). */
void         bl_number_field_set_error_label      (BlNumberField *self,
                                                   GtkLabel      *label);
/* The − and + buttons, for tests and accessibility relations. */
GtkWidget   *bl_number_field_get_down_button      (BlNumberField *self);
GtkWidget   *bl_number_field_get_up_button        (BlNumberField *self);
/* What a step from the value shown would give: for + (direction > 0) or
 * − (direction < 0).  FALSE when there is no such step (nothing shown, or
 * below the rule's minimum). */
gboolean     bl_number_field_next_value           (BlNumberField *self,
                                                   int            direction,
                                                   double        *next);

/* Where the value an unset field uses comes from. */
typedef enum
{
  BL_NUMBER_FIELD_IN_USE_DEFAULT,
  BL_NUMBER_FIELD_IN_USE_COMPUTED,
  BL_NUMBER_FIELD_IN_USE_LINK,
} BlNumberFieldInUse;

/* The placeholder of an unset field: VALUE, said with where it comes from
 * ("600 (link)", "1000 (default)"). */
void         bl_number_field_set_in_use           (BlNumberField      *self,
                                                   double              value,
                                                   BlNumberFieldInUse  source);
/* Shows an optional element: VALUE when IS_SET, else empty. */
void         bl_number_field_show_optional        (BlNumberField *self,
                                                   gboolean       is_set,
                                                   double         value);
/* Makes the field editable or not; its tooltip is HINT (what emptying it
 * does) when it is, REASON (why not) when it is not. */
void         bl_number_field_set_editable_hint    (BlNumberField *self,
                                                   gboolean       editable,
                                                   const char    *reason,
                                                   const char    *hint);

G_END_DECLS
