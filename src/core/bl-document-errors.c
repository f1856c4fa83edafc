/* bl-document-errors.c: the error domain, the include failures and the
 * refused meshes of a load. */
#include "config.h"

#include "bl-document-errors.h"
#include "bl-resource.h"

G_DEFINE_QUARK (bl-document-error-quark, bl_document_error)

void
bl_include_failure_free (BlIncludeFailure *failure)
{
  g_free (failure->uri);
  g_free (failure->name);
  g_free (failure->file);
  g_free (failure->message);
  g_strfreev (failure->searched);
  g_free (failure->folder);
  g_free (failure);
}

/* ERROR: the refusal, whose message and folder the record keeps. */
BlMeshRefusal *
bl_mesh_refusal_new (const char   *file,
                     int           line,
                     const char   *element,
                     const char   *uri,
                     const GError *error)
{
  BlMeshRefusal *refusal = g_new0 (BlMeshRefusal, 1);

  refusal->file = g_strdup (file);
  refusal->line = line;
  refusal->element = g_strdup (element);
  refusal->uri = g_strdup (uri);
  refusal->message = g_strdup (error->message);
  refusal->folder = g_strdup (bl_resource_error_get_folder (error));
  return refusal;
}

void
bl_mesh_refusal_free (BlMeshRefusal *refusal)
{
  g_free (refusal->file);
  g_free (refusal->element);
  g_free (refusal->uri);
  g_free (refusal->message);
  g_free (refusal->folder);
  g_free (refusal);
}

gboolean
bl_document_error_is_past_bound (const GError *error)
{
  return g_error_matches (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_LINKS) ||
         g_error_matches (error, BL_DOCUMENT_ERROR, BL_DOCUMENT_ERROR_TOO_MANY_PARTS);
}
