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

/* The text printf's "%.*g" gives for precision and value, byte for byte
 * (in the current locale), without printf's cost for the usual cases;
 * for messages that printf would format. */
const char *bl_number_format_g     (double value, int precision, char buf[BL_DOUBLE_BUF_SIZE]);
/* The same text as bl_number_format_g; returns its length. */
gsize       bl_number_write_g      (double value, int precision, char buf[BL_DOUBLE_BUF_SIZE]);

/* Rounding noise: the one rule for every computed number a user reads
 * (the window, `inspect`) or a file receives (bake, applied estimates and
 * imports).  `scale` is the magnitude of the quantity the value belongs to
 * (a tensor's largest entry, a body's length, the value itself); against it
 *   - |value| < BL_NUMBER_NOISE_ZERO · scale is 0 (a rotation through an
 *     inexact π/2 leaves 1e-17 where the exact value is 0), and
 *   - any other value becomes the decimal with the fewest significant digits
 *     within BL_NUMBER_NOISE_ULPS ulps of scale (BL_NUMBER_NOISE_ULPS ·
 *     DBL_EPSILON · scale): 0.8064000000000002, one ulp off 0.8064, is 0.8064.
 * A scale below |value| means |value|.  Non-finite values come back as
 * they are.  Values the user typed are written as typed and never pass
 * through here; JSON output keeps every bit. */
#define BL_NUMBER_NOISE_ZERO 1e-12
#define BL_NUMBER_NOISE_ULPS 4.0

double      bl_number_clean        (double      value,
                                    double      scale);
/* bl_number_clean on each value, with scale the largest of `scale` and the
 * finite values' magnitudes (so scale ≤ 0: the largest value). */
void        bl_number_clean_noise  (double     *values,
                                    guint       n_values,
                                    double      scale);

G_END_DECLS
