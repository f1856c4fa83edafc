/* fuzz-load.c: libFuzzer target for the SDF loader with the full recompute.
 *
 * Any input must load or be refused with an error, never crash, hang or
 * leak; every number computed must be a number or flagged invalid. */
#include "config.h"

#include <math.h>

#include "bl-document.h"
#include "bl-resolve.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(GPtrArray) diagnostics = NULL;
  GPtrArray *links;

  doc = bl_document_new_from_data ((const char *) data, size, "/fuzz/input.sdf", &error);
  if (doc == NULL)
    {
      g_assert (error != NULL && error->message != NULL);
      return 0;
    }

  diagnostics = bl_document_collect_diagnostics (doc);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = bl_diagnostic_to_string (g_ptr_array_index (diagnostics, i));

      g_assert (text != NULL);
    }

  links = bl_document_get_links (doc);
  for (guint i = 0; i < links->len; i++)
    {
      BlLink *link = g_ptr_array_index (links, i);

      /* A valid link has finite values (gz-math calls a zero mass valid;
       * Ballast reports it as an error diagnostic). */
      if (link->props.valid)
        g_assert (isfinite (link->props.mass) && link->props.mass >= 0 &&
                  isfinite (link->props.com.x) && isfinite (link->props.inertia.m[0][0]));

      /* An edit-and-recompute of every link must be as safe as the load. */
      bl_document_reload_link (doc, link);
    }

  for (guint i = 0; i < bl_document_get_models (doc)->len; i++)
    bl_model_compute_total (g_ptr_array_index (bl_document_get_models (doc), i));

  return 0;
}
