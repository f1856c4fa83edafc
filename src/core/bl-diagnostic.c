/* bl-diagnostic.c: construction and formatting of model diagnostics. */
#include "config.h"

#include <stdarg.h>

#include "bl-diagnostic.h"

BlDiagnostic *
bl_diagnostic_new (BlSeverity   severity,
                   const char  *code,
                   const char  *file,
                   int          line,
                   const char  *element,
                   const char  *format,
                   ...)
{
  BlDiagnostic *diagnostic;
  va_list args;

  g_return_val_if_fail (format != NULL, NULL);

  diagnostic = g_new0 (BlDiagnostic, 1);
  diagnostic->severity = severity;
  diagnostic->code = g_strdup (code);
  diagnostic->file = g_strdup (file);
  diagnostic->line = line;
  diagnostic->element = g_strdup (element);

  va_start (args, format);
  diagnostic->message = g_strdup_vprintf (format, args);
  va_end (args);

  return diagnostic;
}

void
bl_diagnostic_free (BlDiagnostic *diagnostic)
{
  if (diagnostic == NULL)
    return;

  g_free (diagnostic->code);
  g_free (diagnostic->file);
  g_free (diagnostic->element);
  g_free (diagnostic->message);
  g_free (diagnostic);
}

const char *
bl_severity_to_string (BlSeverity severity)
{
  switch (severity)
    {
    case BL_SEVERITY_INFO:
      return "info";
    case BL_SEVERITY_WARNING:
      return "warning";
    case BL_SEVERITY_ERROR:
      return "error";
    default:
      g_return_val_if_reached ("error");
    }
}

char *
bl_diagnostic_to_string (const BlDiagnostic *diagnostic)
{
  GString *str;

  g_return_val_if_fail (diagnostic != NULL, NULL);

  str = g_string_new (NULL);
  if (diagnostic->file != NULL)
    {
      g_string_append (str, diagnostic->file);
      if (diagnostic->line > 0)
        g_string_append_printf (str, ":%d", diagnostic->line);
      g_string_append (str, ": ");
    }
  g_string_append (str, bl_severity_to_string (diagnostic->severity));
  if (diagnostic->code != NULL)
    g_string_append_printf (str, " [%s]", diagnostic->code);
  g_string_append (str, ": ");
  if (diagnostic->element != NULL)
    g_string_append_printf (str, "%s: ", diagnostic->element);
  g_string_append (str, diagnostic->message);

  return g_string_free (str, FALSE);
}
