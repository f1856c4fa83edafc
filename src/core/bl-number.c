/* bl-number.c: strict number parsing and shortest round-trip formatting. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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
  if (end == start || errno == ERANGE || !isfinite (v))
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

const char *
bl_number_format (double value,
                  char   buf[BL_DOUBLE_BUF_SIZE])
{
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

  /* Integers that a double holds exactly print without an exponent. */
  if (fabs (value) < 1e15 && value == floor (value))
    {
      snprintf (buf, BL_DOUBLE_BUF_SIZE, "%.0f", value);
      return buf;
    }

  for (int precision = 15; precision <= 17; precision++)
    {
      snprintf (buf, BL_DOUBLE_BUF_SIZE, "%.*g", precision, value);
      /* snprintf follows LC_NUMERIC: SDF always uses '.' */
      for (char *p = buf; *p != '\0'; p++)
        if (*p == ',')
          *p = '.';
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }

  return buf;
}
