/* bl-diagnostic.h: a message about the model, tied to a file, line and element. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  BL_SEVERITY_INFO,
  BL_SEVERITY_WARNING,
  BL_SEVERITY_ERROR,
} BlSeverity;

typedef struct
{
  BlSeverity  severity;
  char       *code;     /* "D1"…"D10" for libsdformat's diagnostics, else a short tag; may be NULL */
  char       *file;     /* path of the file the element is in; may be NULL */
  int         line;     /* 1-based; 0 when unknown */
  char       *element;  /* scoped element path, e.g. "model::link/collision[name]" */
  char       *message;
} BlDiagnostic;

BlDiagnostic *bl_diagnostic_new      (BlSeverity   severity,
                                      const char  *code,
                                      const char  *file,
                                      int          line,
                                      const char  *element,
                                      const char  *format,
                                      ...) G_GNUC_PRINTF (6, 7);
BlDiagnostic *bl_diagnostic_new_valist (BlSeverity   severity,
                                       const char  *code,
                                       const char  *file,
                                       int          line,
                                       const char  *element,
                                       const char  *format,
                                       va_list      args) G_GNUC_PRINTF (6, 0);
/* A diagnostic is one allocation (its message may be a literal it points
 * to: bl_diagnostics_add_static): its strings are not to be freed or
 * replaced on their own. */
void          bl_diagnostic_free     (BlDiagnostic *diagnostic);
const char   *bl_severity_to_string  (BlSeverity severity);
/* "file:line: severity: element: message" */
char         *bl_diagnostic_to_string (const BlDiagnostic *diagnostic);

/* Appends a new diagnostic to `list` (a GPtrArray of BlDiagnostic*, whose
 * free function is bl_diagnostic_free). */
void          bl_diagnostics_add     (GPtrArray   *list,
                                      BlSeverity   severity,
                                      const char  *code,
                                      const char  *file,
                                      int          line,
                                      const char  *element,
                                      const char  *format,
                                      ...) G_GNUC_PRINTF (7, 8);

/* The same with the element ELEMENT followed by ELEMENT_SUFFIX (either
 * may be NULL; "model::link" and "/inertial") and MESSAGE as it is, not a
 * format: nothing to join or format beforehand. */
void          bl_diagnostics_add_text (GPtrArray   *list,
                                       BlSeverity   severity,
                                       const char  *code,
                                       const char  *file,
                                       int          line,
                                       const char  *element,
                                       const char  *element_suffix,
                                       const char  *message);

/* The same with MESSAGE a string that outlives every diagnostic (a
 * literal), which the diagnostic points to instead of holding a copy:
 * for the messages of which a model may have one per collision. */
void          bl_diagnostics_add_static (GPtrArray   *list,
                                         BlSeverity   severity,
                                         const char  *code,
                                         const char  *file,
                                         int          line,
                                         const char  *element,
                                         const char  *message);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlDiagnostic, bl_diagnostic_free)

G_END_DECLS
