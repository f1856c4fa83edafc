/* bl-number.c: strict number parsing and shortest round-trip formatting. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <langinfo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bl-number.h"
#include "bl-number-tables.h"

static const char *
skip_space (const char *p)
{
  while (g_ascii_isspace (*p))
    p++;
  return p;
}

/* Exactly representable powers of ten. */
static const double exact_powers_of_ten[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The common short decimal ("0.3", "-12.5e-3") without strtod: when its
 * digits fit in 53 bits and its power of ten is exact, one IEEE
 * multiplication or division rounds it correctly (Clinger, "How to read
 * floating point numbers accurately", PLDI 1990), so the result is the
 * same double strtod gives.  FALSE for anything else, which then goes
 * through g_ascii_strtod. */
static gboolean
parse_token_fast (const char  *start,
                  const char **end,
                  double      *value)
{
  const char *p = start;
  gboolean negative = FALSE, any_digit = FALSE;
  guint64 digits = 0;
  int n_digits = 0, exponent = 0;
  double v;

  if (*p == '-' || *p == '+')
    negative = *p++ == '-';
  while (*p == '0')
    {
      any_digit = TRUE;
      p++;
    }
  for (; g_ascii_isdigit (*p); p++, n_digits++)
    {
      if (n_digits == 19)
        return FALSE;
      digits = digits * 10 + (guint) (*p - '0');
      any_digit = TRUE;
    }
  if (*p == '.')
    {
      p++;
      if (n_digits == 0)
        for (; *p == '0'; p++, exponent--)
          any_digit = TRUE;
      for (; g_ascii_isdigit (*p); p++, n_digits++, exponent--)
        {
          if (n_digits == 19)
            return FALSE;
          digits = digits * 10 + (guint) (*p - '0');
          any_digit = TRUE;
        }
    }
  if (!any_digit)
    return FALSE;
  if (*p == 'e' || *p == 'E')
    {
      gboolean exponent_negative = FALSE;
      int e = 0;

      p++;
      if (*p == '-' || *p == '+')
        exponent_negative = *p++ == '-';
      if (!g_ascii_isdigit (*p))
        return FALSE;
      for (; g_ascii_isdigit (*p); p++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      exponent += exponent_negative ? -e : e;
    }
  if (*p != '\0' && !g_ascii_isspace (*p))
    return FALSE;

  if (digits == 0)
    v = 0.0;
  else if (digits > (G_GUINT64_CONSTANT (1) << 53) || exponent < -22 || exponent > 22)
    return FALSE;
  else if (exponent < 0)
    v = (double) digits / exact_powers_of_ten[-exponent];
  else
    v = (double) digits * exact_powers_of_ten[exponent];

  *value = negative ? -v : v;
  *end = p;
  return TRUE;
}

/* Parses one token at *p and advances past it. */
static gboolean
parse_token (const char **p,
             double      *value)
{
  const char *start = skip_space (*p);
  char *end = NULL;
  double v;

  if (*start == '\0')
    return FALSE;

  /* g_ascii_strtod accepts "nan", "inf" and hex floats: SDF has none. */
  if (!(g_ascii_isdigit (*start) || *start == '-' || *start == '+' || *start == '.'))
    return FALSE;
  if ((start[0] == '-' || start[0] == '+') && !(g_ascii_isdigit (start[1]) || start[1] == '.'))
    return FALSE;
  {
    /* after the sign: "+0x1p3" is as hexadecimal as "0x1p3" */
    const char *digits = start + (start[0] == '-' || start[0] == '+');

    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
      return FALSE;
  }

  if (parse_token_fast (start, p, value))
    return TRUE;

  errno = 0;
  v = g_ascii_strtod (start, &end);
  /* Overflow is an error; underflow to a subnormal or zero is not. */
  if (end == start || !isfinite (v))
    return FALSE;
  if (*end != '\0' && !g_ascii_isspace (*end))
    return FALSE;

  *value = v;
  *p = end;
  return TRUE;
}

gboolean
bl_number_parse (const char *text,
                 double     *value)
{
  const char *p = text;
  double v;

  if (text == NULL || !parse_token (&p, &v))
    return FALSE;
  if (*skip_space (p) != '\0')
    return FALSE;

  *value = v;
  return TRUE;
}

gboolean
bl_number_parse_vector (const char *text,
                        double     *values,
                        guint       n_values)
{
  const char *p = text;

  if (text == NULL)
    return FALSE;

  for (guint i = 0; i < n_values; i++)
    {
      if (!parse_token (&p, &values[i]))
        return FALSE;
    }

  return *skip_space (p) == '\0';
}

guint
bl_number_count_tokens (const char *text)
{
  const char *p = text;
  guint n = 0;

  if (text == NULL)
    return 0;

  for (;;)
    {
      p = skip_space (p);
      if (*p == '\0')
        return n;
      n++;
      while (*p != '\0' && !g_ascii_isspace (*p))
        p++;
    }
}

static const char digit_pairs[200] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* The number of decimal digits of v ≥ 1: t = floor (log10 (2^bits)),
 * bits × 1233 / 4096 for bits ≤ 64, is the digits less one, or less two
 * below 10^t, which one compare tells. */
static inline int
decimal_length (guint64 v)
{
  static const guint64 powers[] = {
    G_GUINT64_CONSTANT (1), G_GUINT64_CONSTANT (10), G_GUINT64_CONSTANT (100),
    G_GUINT64_CONSTANT (1000), G_GUINT64_CONSTANT (10000), G_GUINT64_CONSTANT (100000),
    G_GUINT64_CONSTANT (1000000), G_GUINT64_CONSTANT (10000000), G_GUINT64_CONSTANT (100000000),
    G_GUINT64_CONSTANT (1000000000), G_GUINT64_CONSTANT (10000000000),
    G_GUINT64_CONSTANT (100000000000), G_GUINT64_CONSTANT (1000000000000),
    G_GUINT64_CONSTANT (10000000000000), G_GUINT64_CONSTANT (100000000000000),
    G_GUINT64_CONSTANT (1000000000000000), G_GUINT64_CONSTANT (10000000000000000),
    G_GUINT64_CONSTANT (100000000000000000), G_GUINT64_CONSTANT (1000000000000000000),
    G_GUINT64_CONSTANT (10000000000000000000),
  };
  int t = (int) (((64 - __builtin_clzll (v | 1)) * 1233) >> 12);

  return t + (v >= powers[t]);
}

/* The 4 digits of v < 10000 into out[0 … 3]. */
static inline void
write_4_digits (char    *out,
                guint32  v)
{
  guint32 high = v / 100, low = v % 100;

  memcpy (out, digit_pairs + 2 * high, 2);
  memcpy (out + 2, digit_pairs + 2 * low, 2);
}

/* The n decimal digits of v into out[0 … n-1]: the last eight by 32-bit
 * arithmetic in two independent halves, the rest two at a time. */
static inline void
write_digits (char    *out,
              guint64  v,
              int      n)
{
  char *p = out + n;
  guint32 w;

  if (v >= 100000000)
    {
      guint64 q = v / 100000000;
      guint32 low = (guint32) (v - q * 100000000);

      write_4_digits (p - 4, low % 10000);
      write_4_digits (p - 8, low / 10000);
      p -= 8;
      v = q;
    }
  w = (guint32) v;   /* at most 9 digits left */
  while (w >= 100)
    {
      guint32 r = w % 100;

      w /= 100;
      p -= 2;
      memcpy (p, digit_pairs + 2 * r, 2);
    }
  if (w >= 10)
    {
      p -= 2;
      memcpy (p, digit_pairs + 2 * w, 2);
    }
  else
    *--p = (char) ('0' + w);
}

/* p[1 … len] to p[0 … len − 1], 1 ≤ len ≤ 16: both ends loaded before
 * either is stored, as memmove does, without a call for a few bytes. */
#define MOVE_BACK_ONE(type) \
  G_STMT_START { \
    type head, tail; \
    memcpy (&head, p + 1, sizeof head); \
    memcpy (&tail, p + 1 + len - sizeof tail, sizeof tail); \
    memcpy (p, &head, sizeof head); \
    memcpy (p + len - sizeof tail, &tail, sizeof tail); \
  } G_STMT_END

static inline void
move_back_one (char *p,
               int   len)
{
  if (len >= 8)
    MOVE_BACK_ONE (guint64);
  else if (len >= 4)
    MOVE_BACK_ONE (guint32);
  else if (len >= 2)
    MOVE_BACK_ONE (guint16);
  else
    p[0] = p[1];
}

#undef MOVE_BACK_ONE

/* Writes the n digits of `digits` (no leading or trailing zeros) as
 * d₀.d₁d₂… × 10^exponent, straight into place: without an exponent when
 * fixed_low ≤ exponent < fixed_high (%g's rule is −4 and its precision),
 * else as d.ddde±XX; returns the length written (the text is
 * NUL-terminated). */
G_ALWAYS_INLINE static inline gsize
write_decimal (char     *out,
               gboolean  negative,
               guint64   digits,
               int       n,
               int       exponent,
               int       fixed_low,
               int       fixed_high)
{
  char *p = out;

  if (negative)
    *p++ = '-';

  if (exponent >= fixed_low && exponent < fixed_high)
    {
      if (exponent < 0)
        {
          /* 0.000ddd */
          *p++ = '0';
          *p++ = '.';
          for (int i = 0; i < -exponent - 1; i++)
            *p++ = '0';
          write_digits (p, digits, n);
          p += n;
        }
      else if (n <= exponent + 1)
        {
          /* ddd000 */
          write_digits (p, digits, n);
          p += n;
          for (int i = n; i <= exponent; i++)
            *p++ = '0';
        }
      else
        {
          /* dd.ddd: the digits one place on, the integer part moved back */
          write_digits (p + 1, digits, n);
          move_back_one (p, exponent + 1);
          p[exponent + 1] = '.';
          p += n + 1;
        }
      *p = '\0';
      return (gsize) (p - out);
    }

  /* d.ddde±XX */
  write_digits (p + 1, digits, n);
  p[0] = p[1];
  if (n > 1)
    {
      p[1] = '.';
      p += n + 1;
    }
  else
    p++;
  {
    int magnitude = exponent < 0 ? -exponent : exponent;

    *p++ = 'e';
    *p++ = exponent < 0 ? '-' : '+';
    if (magnitude >= 100)
      *p++ = (char) ('0' + magnitude / 100);
    memcpy (p, digit_pairs + 2 * (magnitude % 100), 2);
    p += 2;
    *p = '\0';
  }
  return (gsize) (p - out);
}

/* Shortest round trip, after Raffaello Giulietti, "The Schubfach way to
 * render doubles" (2020), as Alexander Bolz's C version writes it: the
 * value c × 2^q has the rounding interval (c − ½ or ¼) × 2^q to (c + ½) ×
 * 2^q, bounds included when c is even.  With k = ⌊log10 (2^q)⌋ (of ¾ ×
 * 2^q below a power of two, where the lower gap is half as wide), the
 * interval, scaled by 10^−k, is between 1 and 10 units wide: it holds at
 * most one multiple of 10 units and at least one of 1.  The bounds and
 * the value ×4, scaled by a 128-bit overestimate of 10^−k and rounded to
 * odd, compare exactly.  The one multiple of ten inside, when there is
 * one, is the shortest decimal that reads back; else the nearest of the
 * units inside (ties to even).  What is left are trailing zeros. */

/* ⌊g × cp / 2^128⌋, its last bit set when the rest is not 0 (round to
 * odd): g is { high, low }. */
static inline guint64
round_to_odd (const guint64 *g,
              guint64        cp)
{
  unsigned __int128 low = (unsigned __int128) g[1] * cp;
  unsigned __int128 high = (unsigned __int128) g[0] * cp;
  guint64 middle = (guint64) high + (guint64) (low >> 64);
  guint64 top = (guint64) (high >> 64) + (middle < (guint64) high);

  return top | (middle > 1);
}

/* value = digits × 10^exponent, digits without trailing zeros; value
 * finite and not 0. */
static void
shortest_decimal (double   value,
                  guint64 *digits_out,
                  gint32  *exponent_out)
{
  guint64 bits, mantissa, c, vbl, vb, vbr, lower, upper, s, output;
  guint32 biased;
  gint32 q, k, h, e10;
  gboolean even, closer_below;
  const guint64 *g;

  memcpy (&bits, &value, sizeof bits);
  mantissa = bits & ((G_GUINT64_CONSTANT (1) << 52) - 1);
  biased = (guint32) ((bits >> 52) & 0x7ff);
  if (biased != 0)
    {
      c = (G_GUINT64_CONSTANT (1) << 52) | mantissa;
      q = (gint32) biased - 1075;
    }
  else
    {
      c = mantissa;
      q = 1 - 1075;
    }
  /* Round-to-even reading: an even c owns its interval's bounds. */
  even = (c & 1) == 0;
  closer_below = mantissa == 0 && biased > 1;

  /* k = ⌊log10 (2^q)⌋, or ⌊log10 (¾ × 2^q)⌋ (exact for |q| ≤ 1500);
   * h = q + ⌊log2 (10^−k)⌋ + 1, between 1 and 4 */
  k = (q * 1262611 - (closer_below ? 524031 : 0)) >> 22;
  h = q + ((-k * 1741647) >> 19) + 1;
  g_assert (-k >= BL_POW10_K_MIN && -k <= BL_POW10_K_MAX);
  g = bl_pow10[-k - BL_POW10_K_MIN];
  vbl = round_to_odd (g, (4 * c - 2 + closer_below) << h);
  vb = round_to_odd (g, (4 * c) << h);
  vbr = round_to_odd (g, (4 * c + 2) << h);
  lower = vbl + !even;
  upper = vbr - !even;

  s = vb / 4;
  e10 = k;
  {
    /* the multiple of ten units below and the one above */
    guint64 sp = s / 10;
    gboolean below_inside = lower <= 40 * sp, above_inside = 40 * sp + 40 <= upper;

    if (s >= 10 && below_inside != above_inside)
      {
        output = sp + above_inside;
        e10 = k + 1;
      }
    else
      {
        /* the unit below and the one above, else the nearer of them */
        gboolean unit_below_inside = lower <= 4 * s, unit_above_inside = 4 * s + 4 <= upper;

        if (unit_below_inside != unit_above_inside)
          output = s + unit_above_inside;
        else
          output = s + (vb > 4 * s + 2 || (vb == 4 * s + 2 && (s & 1) != 0));
      }
  }

  /* At most 17 digits: the trailing zeros 8, 4, 2 and 1 at a time. */
  if (output % 100000000 == 0)
    {
      output /= 100000000;
      e10 += 8;
    }
  if (output % 10000 == 0)
    {
      output /= 10000;
      e10 += 4;
    }
  if (output % 100 == 0)
    {
      output /= 100;
      e10 += 2;
    }
  while (output % 10 == 0)
    {
      output /= 10;
      e10++;
    }

  *digits_out = output;
  *exponent_out = e10;
}

gsize
bl_number_write (double value,
                 char   buf[BL_DOUBLE_BUF_SIZE])
{
  guint64 significand;
  gint32 exponent;
  int n;

  if (value == 0.0)
    {
      if (signbit (value))
        {
          memcpy (buf, "-0", 3);
          return 2;
        }
      memcpy (buf, "0", 2);
      return 1;
    }
  if (!isfinite (value))
    {
      strcpy (buf, isnan (value) ? "nan" : (value > 0 ? "inf" : "-inf"));
      return strlen (buf);
    }

  if (fabs (value) < 1e15 && value == (double) (gint64) value)
    {
      /* An integer below 2^53: every other decimal within half an ulp
       * (at most 0.5) of it is another integer, further away, or has a
       * fraction and so more digits; its own digits are the shortest. */
      gint64 integer = (gint64) value;

      significand = (guint64) (integer < 0 ? -integer : integer);
      exponent = 0;
      while (significand % 10 == 0)
        {
          significand /= 10;
          exponent++;
        }
    }
  else
    shortest_decimal (value, &significand, &exponent);
  /* at most 17 digits */
  n = decimal_length (significand);

  return write_decimal (buf, signbit (value), significand, n, exponent + n - 1, -5, 17);
}

/* 10^k, 0 ≤ k ≤ 16. */
static guint64
power_of_ten (int k)
{
  guint64 p = 1;

  while (k-- > 0)
    p *= 10;
  return p;
}

/* What printf's "%.*g" writes; the shortest digits (shortest_decimal)
 * rounded to `precision` give the same digits as rounding the exact value,
 * for a normal double and at most 15 digits, unless the digits dropped are
 * exactly a 5: a decimal of precision + 1 digits that ends in 5 and lies
 * strictly between the value and its shortest form would be a shorter one
 * that reads back, or one of the same length nearer the value, and
 * shortest_decimal returns neither.  With at most 15 digits, a shortest
 * form of no more digits is the value rounded (a double's half ulp is
 * under 1.2e-16 of it, half a unit in the 15th digit at least 5e-16).
 * The other cases (subnormal, non-finite, more digits, that tie, a locale
 * whose decimal point is not ".") go to snprintf. */
gsize
bl_number_write_g (double value,
                   int    precision,
                   char   buf[BL_DOUBLE_BUF_SIZE])
{
  guint64 digits;
  gint32 exponent;
  int n;

  if (precision == 0)
    precision = 1;
  if (precision < 0 || precision > 15 || !isfinite (value) ||
      (value != 0.0 && fabs (value) < DBL_MIN) || strcmp (nl_langinfo (RADIXCHAR), ".") != 0)
    return (gsize) snprintf (buf, BL_DOUBLE_BUF_SIZE, "%.*g", precision, value);

  if (value == 0.0)
    {
      strcpy (buf, signbit (value) ? "-0" : "0");
      return strlen (buf);
    }

  shortest_decimal (value, &digits, &exponent);
  n = decimal_length (digits);
  if (n > precision)
    {
      guint64 unit = power_of_ten (n - precision);
      guint64 rest = digits % unit;

      if (rest == unit / 2)
        return (gsize) snprintf (buf, BL_DOUBLE_BUF_SIZE, "%.*g", precision, value);
      digits = digits / unit + (rest > unit / 2);
      exponent += n - precision;
      while (digits % 10 == 0)
        {
          digits /= 10;
          exponent++;
        }
      n = decimal_length (digits);
    }

  return write_decimal (buf, signbit (value), digits, n, exponent + n - 1, -4, precision);
}

const char *
bl_number_format_g (double value,
                    int    precision,
                    char   buf[BL_DOUBLE_BUF_SIZE])
{
  bl_number_write_g (value, precision, buf);
  return buf;
}

const char *
bl_number_format (double value,
                  char   buf[BL_DOUBLE_BUF_SIZE])
{
  bl_number_write (value, buf);
  return buf;
}

/* value rounded to `digits` significant decimal digits: what strtod reads
 * from printf's "%.*e" of digits − 1.  For a normal double and at most 15
 * digits, those digits are its shortest ones rounded (as in
 * bl_number_write_g, which says why), unless the digits dropped are
 * exactly a 5; read back as strtod does when they and the power of ten
 * are exact, by one division or multiplication (parse_token_fast).  The
 * other cases go through printf and strtod. */
static double
round_to_digits (double value,
                 int    digits)
{
  char format[8];
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (digits <= 15 && isfinite (value) && fabs (value) >= DBL_MIN)
    {
      guint64 d;
      gint32 exponent;
      int n;
      gboolean tie = FALSE;

      shortest_decimal (value, &d, &exponent);
      n = decimal_length (d);
      if (n > digits)
        {
          guint64 unit = power_of_ten (n - digits);
          guint64 rest = d % unit;

          tie = rest == unit / 2;
          d = d / unit + (rest > unit / 2);
          exponent += n - digits;
        }
      if (!tie && exponent >= -22 && exponent <= 22)
        {
          double v = exponent < 0 ? (double) d / exact_powers_of_ten[-exponent]
                                  : (double) d * exact_powers_of_ten[exponent];

          return signbit (value) ? -v : v;
        }
    }

  g_snprintf (format, sizeof format, "%%.%de", digits - 1);
  return g_ascii_strtod (g_ascii_formatd (text, sizeof text, format, value), NULL);
}

double
bl_number_clean (double value,
                 double scale)
{
  double tolerance;
  int lo, hi;

  if (!isfinite (value))
    return value;
  if (!(scale >= fabs (value)))
    scale = fabs (value);
  if (fabs (value) < BL_NUMBER_NOISE_ZERO * scale)
    return 0.0;

  /* The fewest significant digits that stay within a few ulps of scale.
   * printf's %e rounds correctly, so p + 1 digits land at least as close as
   * p (the p-digit decimal is one of the candidates): the error falls with
   * p, and 17 digits read back exactly.  A binary search finds the least
   * p in five roundings. */
  tolerance = BL_NUMBER_NOISE_ULPS * DBL_EPSILON * scale;
  lo = 1;
  hi = 17;
  while (lo < hi)
    {
      int digits = (lo + hi) / 2;

      if (fabs (round_to_digits (value, digits) - value) <= tolerance)
        hi = digits;
      else
        lo = digits + 1;
    }
  return round_to_digits (value, lo);
}

void
bl_number_clean_noise (double *values,
                       guint   n_values,
                       double  scale)
{
  g_return_if_fail (n_values == 0 || values != NULL);

  for (guint i = 0; i < n_values; i++)
    if (isfinite (values[i]))
      scale = MAX (scale, fabs (values[i]));

  for (guint i = 0; i < n_values; i++)
    values[i] = bl_number_clean (values[i], scale);
}
