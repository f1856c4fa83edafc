/* bl-number.h: strict parsing and shortest round-trip formatting of doubles. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define BL_DOUBLE_BUF_SIZE 32

/* Parses one finite number, allowing surrounding white space only.
 * FALSE for empty text, trailing garbage, NaN, infinity or overflow. */
gboolean    bl_number_parse        (const char *text, double *value);

/* Parses exactly n_values white-space separated finite numbers. */
gboolean    bl_number_parse_vector (const char *text, double *values, guint n_values);

/* Counts the white-space separated tokens of text. */
guint       bl_number_count_tokens (const char *text);

/* The shortest decimal form that reads back to the same double, in the C
 * locale ("0.1", "1e-09", "-0"); "nan"/"inf" never appear in SDF we write. */
const char *bl_number_format       (double value, char buf[BL_DOUBLE_BUF_SIZE]);
/* The same text as bl_number_format; returns its length. */
gsize       bl_number_write        (double value, char buf[BL_DOUBLE_BUF_SIZE]);

/* For display only: zeroes the entries whose magnitude is below 1e-12 ×
 * scale — rounding noise such as 1e-17 left by a rotation through an
 * inexact π/2.  A scale ≤ 0 means the largest magnitude among the values.
 * Machine-readable output keeps every bit and never calls this. */
void        bl_number_clean_noise  (double     *values,
                                    guint       n_values,
                                    double      scale);

G_END_DECLS
