/* bl-diagnostic.c: construction and formatting of model diagnostics. */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "bl-diagnostic.h"

/* Copies TEXT (may be NULL) to *AT and moves *AT past it. */
static char *
place (char       **at,
       const char  *text,
       gsize        length)
{
  char *copy;

  if (text == NULL)
    return NULL;
  copy = memcpy (*at, text, length + 1);
  *at += length + 1;
  return copy;
}

/* The diagnostic of ELEMENT followed by SUFFIX (both may be NULL) and
 * MESSAGE, copied into one block: a large model may have a diagnostic for
 * each of tens of thousands of links.  A STATIC_MESSAGE is not copied. */
static BlDiagnostic *
diagnostic_new (BlSeverity   severity,
                const char  *code,
                const char  *file,
                int          line,
                const char  *element,
                const char  *suffix,
                const char  *message,
                gboolean     static_message)
{
  gsize code_len, file_len, element_len, suffix_len, message_len;
  BlDiagnostic *diagnostic;
  char *at;

  code_len = code != NULL ? strlen (code) : 0;
  file_len = file != NULL ? strlen (file) : 0;
  element_len = element != NULL ? strlen (element) : 0;
  suffix_len = suffix != NULL ? strlen (suffix) : 0;
  message_len = static_message ? 0 : strlen (message);

  diagnostic = g_malloc (sizeof (BlDiagnostic) + code_len + file_len + element_len + suffix_len +
                         message_len + 4);
  at = (char *) (diagnostic + 1);
  diagnostic->severity = severity;
  diagnostic->line = line;
  diagnostic->code = place (&at, code, code_len);
  diagnostic->file = place (&at, file, file_len);
  if (element != NULL || suffix != NULL)
    {
      diagnostic->element = at;
      memcpy (at, element != NULL ? element : "", element_len);
      memcpy (at + element_len, suffix != NULL ? suffix : "", suffix_len + 1);
      at += element_len + suffix_len + 1;
    }
  else
    diagnostic->element = NULL;
  diagnostic->message = static_message ? (char *) message : place (&at, message, message_len);

  return diagnostic;
}

BlDiagnostic *
bl_diagnostic_new_valist (BlSeverity   severity,
                          const char  *code,
                          const char  *file,
                          int          line,
                          const char  *element,
                          const char  *format,
                          va_list      args)
{
  g_autofree char *message = NULL;

  g_return_val_if_fail (format != NULL, NULL);

  message = g_strdup_vprintf (format, args);
  return diagnostic_new (severity, code, file, line, element, NULL, message, FALSE);
}

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

  va_start (args, format);
  diagnostic = bl_diagnostic_new_valist (severity, code, file, line, element, format, args);
  va_end (args);

  return diagnostic;
}

void
bl_diagnostic_free (BlDiagnostic *diagnostic)
{
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

void
bl_diagnostics_add (GPtrArray   *list,
                    BlSeverity   severity,
                    const char  *code,
                    const char  *file,
                    int          line,
                    const char  *element,
                    const char  *format,
                    ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (list, bl_diagnostic_new_valist (severity, code, file, line, element, format, args));
  va_end (args);
}

void
bl_diagnostics_add_text (GPtrArray   *list,
                         BlSeverity   severity,
                         const char  *code,
                         const char  *file,
                         int          line,
                         const char  *element,
                         const char  *element_suffix,
                         const char  *message)
{
  g_return_if_fail (message != NULL);

  g_ptr_array_add (list, diagnostic_new (severity, code, file, line, element, element_suffix, message, FALSE));
}

void
bl_diagnostics_add_static (GPtrArray   *list,
                           BlSeverity   severity,
                           const char  *code,
                           const char  *file,
                           int          line,
                           const char  *element,
                           const char  *message)
{
  g_return_if_fail (message != NULL);

  g_ptr_array_add (list, diagnostic_new (severity, code, file, line, element, NULL, message, TRUE));
}
