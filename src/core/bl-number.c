/* bl-number.c: strict number parsing and shortest round-trip formatting. */
#include "config.h"

#include <errno.h>
#include <math.h>
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
  if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X'))
    return FALSE;

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

/* Writes digits (no leading or trailing zeros) d₀.d₁d₂… × 10^exponent in
 * the notation %g would choose. */
static void
write_decimal (char       *out,
               gboolean    negative,
               const char *digits,
               int         n_digits,
               int         exponent)
{
  char *p = out;

  if (negative)
    *p++ = '-';

  if (exponent >= -5 && exponent < 17)
    {
      if (exponent < 0)
        {
          *p++ = '0';
          *p++ = '.';
          for (int i = 0; i < -exponent - 1; i++)
            *p++ = '0';
          memcpy (p, digits, n_digits);
          p += n_digits;
        }
      else
        {
          for (int i = 0; i <= exponent; i++)
            *p++ = i < n_digits ? digits[i] : '0';
          if (n_digits > exponent + 1)
            {
              *p++ = '.';
              memcpy (p, digits + exponent + 1, n_digits - exponent - 1);
              p += n_digits - exponent - 1;
            }
        }
      *p = '\0';
      return;
    }

  *p++ = digits[0];
  if (n_digits > 1)
    {
      *p++ = '.';
      memcpy (p, digits + 1, n_digits - 1);
      p += n_digits - 1;
    }
  {
    int magnitude = exponent < 0 ? -exponent : exponent;

    *p++ = 'e';
    *p++ = exponent < 0 ? '-' : '+';
    if (magnitude >= 100)
      *p++ = (char) ('0' + magnitude / 100);
    *p++ = (char) ('0' + magnitude / 10 % 10);
    *p++ = (char) ('0' + magnitude % 10);
    *p = '\0';
  }
}

/* Shortest round trip, after Ulf Adams, "Ryū: fast float-to-string
 * conversion" (PLDI 2018): the bounds of the rounding interval of the value
 * are scaled by a 125-bit power of five so that their decimal digits come
 * out exactly in 64-bit integers, and digits are dropped while the bounds
 * still differ.  The result is the shortest decimal that reads back, and of
 * those the one nearest the value (ties to even). */

static inline guint32
pow5_bits (gint32 e)
{
  /* ceil (log2 (5^e)) for 1 ≤ e ≤ 3528; 1 for e = 0 */
  return (guint32) (((e * 1217359) >> 19) + 1);
}

static inline guint32
log10_pow2 (gint32 e)
{
  /* floor (log10 (2^e)) for 0 ≤ e ≤ 1650 */
  return (guint32) ((e * 78913) >> 18);
}

static inline guint32
log10_pow5 (gint32 e)
{
  /* floor (log10 (5^e)) for 0 ≤ e ≤ 2620 */
  return (guint32) ((e * 732923) >> 20);
}

static inline gboolean
multiple_of_pow5 (guint64 value,
                  guint32 p)
{
  guint32 count = 0;

  while (value > 0 && value % 5 == 0)
    {
      value /= 5;
      count++;
    }
  return count >= p;
}

static inline gboolean
multiple_of_pow2 (guint64 value,
                  guint32 p)
{
  return (value & ((G_GUINT64_CONSTANT (1) << p) - 1)) == 0;
}

/* (m × mul) >> j for a 125-bit mul and 64 ≤ j < 192. */
static inline guint64
mul_shift (guint64        m,
           const guint64 *mul,
           gint32         j)
{
  unsigned __int128 low = (unsigned __int128) m * mul[0];
  unsigned __int128 high = (unsigned __int128) m * mul[1];

  return (guint64) (((low >> 64) + high) >> (j - 64));
}

/* value = digits × 10^exponent, digits without trailing zeros. */
static void
shortest_decimal (double   value,
                  guint64 *digits_out,
                  gint32  *exponent_out)
{
  guint64 bits, mantissa, m2, mv, mp, mm, vr, vp, vm, output;
  guint32 biased, mm_shift;
  gint32 e2, e10, removed = 0;
  gboolean accept_bounds, vm_trailing_zeros = FALSE, vr_trailing_zeros = FALSE;
  guint last_removed = 0;

  memcpy (&bits, &value, sizeof bits);
  mantissa = bits & ((G_GUINT64_CONSTANT (1) << 52) - 1);
  biased = (guint32) ((bits >> 52) & 0x7ff);

  if (biased == 0)
    {
      e2 = 1 - 1023 - 52 - 2;
      m2 = mantissa;
    }
  else
    {
      e2 = (gint32) biased - 1023 - 52 - 2;
      m2 = (G_GUINT64_CONSTANT (1) << 52) | mantissa;
    }
  /* Round-to-even reading: an even mantissa owns its interval's bounds. */
  accept_bounds = (m2 & 1) == 0;

  /* The interval, ×4 so that its half-ulp bounds are integers; below a
   * power of two the lower gap is half as wide. */
  mv = 4 * m2;
  mm_shift = mantissa != 0 || biased <= 1;
  mp = mv + 2;
  mm = mv - 1 - mm_shift;

  if (e2 >= 0)
    {
      guint32 q = log10_pow2 (e2) - (e2 > 3);
      gint32 k = BL_POW5_INV_BITCOUNT + (gint32) pow5_bits ((gint32) q) - 1;
      gint32 i = -e2 + (gint32) q + k;

      g_assert (q < BL_POW5_INV_TABLE_SIZE);
      e10 = (gint32) q;
      vr = mul_shift (mv, bl_pow5_inv[q], i);
      vp = mul_shift (mp, bl_pow5_inv[q], i);
      vm = mul_shift (mm, bl_pow5_inv[q], i);
      if (q <= 21)
        {
          /* Only here can one of the bounds be an exact multiple of 10^q. */
          if (mv % 5 == 0)
            vr_trailing_zeros = multiple_of_pow5 (mv, q);
          else if (accept_bounds)
            vm_trailing_zeros = multiple_of_pow5 (mm, q);
          else
            vp -= multiple_of_pow5 (mp, q);
        }
    }
  else
    {
      guint32 q = log10_pow5 (-e2) - (-e2 > 1);
      gint32 i = -e2 - (gint32) q;
      gint32 k = (gint32) pow5_bits (i) - BL_POW5_BITCOUNT;
      gint32 j = (gint32) q - k;

      g_assert (i >= 0 && i < BL_POW5_TABLE_SIZE);
      e10 = (gint32) q + e2;
      vr = mul_shift (mv, bl_pow5[i], j);
      vp = mul_shift (mp, bl_pow5[i], j);
      vm = mul_shift (mm, bl_pow5[i], j);
      if (q <= 1)
        {
          /* mv, mp and mm all have at least two trailing binary zeros
           * to spare: every digit removed here is exact. */
          vr_trailing_zeros = TRUE;
          if (accept_bounds)
            vm_trailing_zeros = mm_shift == 1;
          else
            vp--;
        }
      else if (q < 63)
        {
          vr_trailing_zeros = multiple_of_pow2 (mv, q);
        }
    }

  if (vm_trailing_zeros || vr_trailing_zeros)
    {
      /* The rare exact cases: track whether the removed digits are all
       * zeros, for the bounds and for the tie. */
      for (;;)
        {
          guint64 vp10 = vp / 10, vm10 = vm / 10;
          guint vm_digit, vr_digit;

          if (vp10 <= vm10)
            break;
          vm_digit = (guint) (vm % 10);
          vr_digit = (guint) (vr % 10);
          vm_trailing_zeros &= vm_digit == 0;
          vr_trailing_zeros &= last_removed == 0;
          last_removed = vr_digit;
          vr /= 10;
          vp = vp10;
          vm = vm10;
          removed++;
        }
      if (vm_trailing_zeros)
        {
          while (vm != 0 && vm % 10 == 0)
            {
              guint vr_digit = (guint) (vr % 10);

              vr_trailing_zeros &= last_removed == 0;
              last_removed = vr_digit;
              vr /= 10;
              vp /= 10;
              vm /= 10;
              removed++;
            }
        }
      if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0)
        last_removed = 4; /* exactly half way: round to even */
      output = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
    }
  else
    {
      gboolean round_up = FALSE;

      for (;;)
        {
          guint64 vp10 = vp / 10, vm10 = vm / 10;

          if (vp10 <= vm10)
            break;
          round_up = vr % 10 >= 5;
          vr /= 10;
          vp = vp10;
          vm = vm10;
          removed++;
        }
      output = vr + (vr == vm || round_up);
    }

  e10 += removed;
  while (output % 10 == 0)
    {
      output /= 10;
      e10++;
    }

  *digits_out = output;
  *exponent_out = e10;
}

const char *
bl_number_format (double value,
                  char   buf[BL_DOUBLE_BUF_SIZE])
{
  char digits[24];
  guint64 significand;
  gint32 exponent;
  int n = 0;

  if (value == 0.0)
    {
      strcpy (buf, signbit (value) ? "-0" : "0");
      return buf;
    }
  if (!isfinite (value))
    {
      strcpy (buf, isnan (value) ? "nan" : (value > 0 ? "inf" : "-inf"));
      return buf;
    }

  shortest_decimal (value, &significand, &exponent);

  /* At most 17 digits, most significant first. */
  {
    char reversed[24];

    while (significand > 0)
      {
        reversed[n++] = (char) ('0' + significand % 10);
        significand /= 10;
      }
    for (int i = 0; i < n; i++)
      digits[i] = reversed[n - 1 - i];
  }

  write_decimal (buf, signbit (value), digits, n, exponent + n - 1);
  return buf;
}
