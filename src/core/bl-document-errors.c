/* bl-document-errors.c: the error domain and the include failures of a load. */
#include "config.h"

#include "bl-document-errors.h"

G_DEFINE_QUARK (bl-document-error-quark, bl_document_error)

void
bl_include_failure_free (BlIncludeFailure *failure)
{
  g_free (failure->uri);
  g_free (failure->name);
  g_free (failure->file);
  g_free (failure->message);
  g_strfreev (failure->searched);
  g_free (failure);
}
