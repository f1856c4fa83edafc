/* bl-json.c: a minimal streaming JSON writer. */
#include "config.h"

#include <math.h>

#include "bl-json.h"
#include "bl-number.h"

void
bl_json_init (BlJson  *json,
              GString *out)
{
  json->out = out;
  json->depth = 0;
  json->need_comma = 0;
  json->after_key = FALSE;
}

static void
before_value (BlJson *json)
{
  if (json->after_key)
    {
      json->after_key = FALSE;
      return;
    }
  if (json->need_comma & (G_GUINT64_CONSTANT (1) << json->depth))
    g_string_append_c (json->out, ',');
  json->need_comma |= G_GUINT64_CONSTANT (1) << json->depth;
}

static void
json_open (BlJson *json,
      char    c)
{
  before_value (json);
  g_string_append_c (json->out, c);
  g_assert (json->depth < 63);
  json->depth++;
  json->need_comma &= ~(G_GUINT64_CONSTANT (1) << json->depth);
}

static void
json_close (BlJson *json,
       char    c)
{
  g_assert (json->depth > 0);
  json->depth--;
  g_string_append_c (json->out, c);
}

void
bl_json_begin_object (BlJson *json)
{
  json_open (json, '{');
}

void
bl_json_end_object (BlJson *json)
{
  json_close (json, '}');
}

void
bl_json_begin_array (BlJson *json)
{
  json_open (json, '[');
}

void
bl_json_end_array (BlJson *json)
{
  json_close (json, ']');
}

static void
append_string (GString    *out,
               const char *value)
{
  const unsigned char *p = (const unsigned char *) value;

  g_string_append_c (out, '"');
  for (;;)
    {
      const unsigned char *run = p;

      /* Most text needs no escape: copy it in one piece. */
      while (*p >= 0x20 && *p != '"' && *p != '\\')
        p++;
      if (p > run)
        g_string_append_len (out, (const char *) run, p - run);
      if (*p == '\0')
        break;

      switch (*p)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          g_string_append_printf (out, "\\u%04x", *p);
        }
      p++;
    }
  g_string_append_c (out, '"');
}

void
bl_json_key (BlJson     *json,
             const char *key)
{
  before_value (json);
  append_string (json->out, key);
  g_string_append_c (json->out, ':');
  json->after_key = TRUE;
}

void
bl_json_string (BlJson     *json,
                const char *value)
{
  if (value == NULL)
    {
      bl_json_null (json);
      return;
    }
  before_value (json);
  append_string (json->out, value);
}

void
bl_json_number (BlJson *json,
                double  value)
{
  char buf[BL_DOUBLE_BUF_SIZE];

  if (!isfinite (value))
    {
      bl_json_null (json);
      return;
    }
  before_value (json);
  /* + 0.0 turns −0 into 0 */
  g_string_append (json->out, bl_number_format (value + 0.0, buf));
}

void
bl_json_int (BlJson *json,
             gint64  value)
{
  before_value (json);
  g_string_append_printf (json->out, "%" G_GINT64_FORMAT, value);
}

void
bl_json_bool (BlJson   *json,
              gboolean  value)
{
  before_value (json);
  g_string_append (json->out, value ? "true" : "false");
}

void
bl_json_null (BlJson *json)
{
  before_value (json);
  g_string_append (json->out, "null");
}

void
bl_json_numbers (BlJson       *json,
                 const double *values,
                 guint         n)
{
  bl_json_begin_array (json);
  for (guint i = 0; i < n; i++)
    bl_json_number (json, values[i]);
  bl_json_end_array (json);
}

void
bl_json_newline (BlJson *json)
{
  g_string_append_c (json->out, '\n');
}
