/* bl-number.c: strict number parsing and shortest round-trip formatting. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bl-number.h"

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
  sprintf (p, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
}

const char *
bl_number_format (double value,
                  char   buf[BL_DOUBLE_BUF_SIZE])
{
  char sci[40];
  char digits[18];
  double half_ulp;
  int exponent;

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

  /* Subnormals carry fewer digits than 15: the slow, sure way. */
  if (fabs (value) < DBL_MIN)
    {
      for (int precision = 1; precision <= 17; precision++)
        {
          snprintf (buf, BL_DOUBLE_BUF_SIZE, "%.*g", precision, value);
          if (g_ascii_strtod (buf, NULL) == value)
            break;
        }
      return buf;
    }

  /* For normal numbers a round-tripping form of fewer than 15 digits is
   * always the 15-digit rounding with its trailing zeros dropped, so
   * 15, 16 and 17 digits are the only candidates.  The correctly rounded
   * 17 significant digits always read back; shorter
   * candidates are cut from them and kept when they read back too. */
  snprintf (sci, sizeof sci, "%.16e", fabs (value));
  digits[0] = sci[0];
  memcpy (digits + 1, sci + 2, 16);
  digits[17] = '\0';
  exponent = atoi (sci + 19);

  /* Half an ulp of value, in units of its 17th significant digit: a
   * candidate further than that (plus the 17-digit rounding's own half
   * unit, and slack for this estimate) from the digits cannot read back,
   * so it needs no strtod to be rejected. */
  {
    double magnitude = fabs (value);
    double ulp = magnitude < DBL_MAX ? nextafter (magnitude, INFINITY) - magnitude
                                     : magnitude - nextafter (magnitude, 0.0);

    half_ulp = 0.5 * ulp / pow (10.0, exponent - 16);
  }

  for (int precision = 15; precision <= 17; precision++)
    {
      /* Cutting a 17-digit string that ends in exactly 5, 50… is a tie we
       * cannot resolve from the digits: try both neighbours. */
      gboolean tie = precision < 17 && digits[precision] == '5' &&
                     strspn (digits + precision + 1, "0") == (size_t) (16 - precision);

      for (int attempt = 0; attempt < (tie ? 2 : 1); attempt++)
        {
          gboolean round_up = precision < 17 && digits[precision] >= '5' && !(tie && attempt == 0);
          char candidate[18];
          int n = precision;
          int e = exponent;

          if (precision < 17)
            {
              int tail = 0, base = 1;

              for (int i = precision; i < 17; i++, base *= 10)
                tail = tail * 10 + (digits[i] - '0');
              if ((round_up ? base - tail : tail) > half_ulp + 1.0)
                continue;
            }

          memcpy (candidate, digits, 17);
          candidate[17] = '\0';

          if (round_up)
            {
              int i = precision - 1;

              while (i >= 0 && candidate[i] == '9')
                candidate[i--] = '0';
              if (i >= 0)
                candidate[i]++;
              else
                {
                  memmove (candidate + 1, candidate, precision - 1);
                  candidate[0] = '1';
                  e++;
                }
            }

          while (n > 1 && candidate[n - 1] == '0')
            n--;

          write_decimal (buf, value < 0, candidate, n, e);
          if (precision == 17 || g_ascii_strtod (buf, NULL) == value)
            return buf;
        }
    }

  return buf;
}
