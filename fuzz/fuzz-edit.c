/* fuzz-edit.c: libFuzzer target for the edit-and-save path.
 *
 * The input is a byte script followed by an SDF document.  Every edit the
 * script names is applied through the undo history; the saved bytes must
 * load again, a bake written without keeping it (BlExportBake) must give
 * the bytes of the bake edit applied and leave the document as it was,
 * and undoing everything must give back the input exactly. */
#include "config.h"

#include <string.h>

#include "bl-document.h"
#include "bl-edit.h"
#include "bl-edit-history.h"
#include "bl-export.h"

#define SCRIPT_LENGTH 16

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static const double values[] = { 0.5, 1.0, 1000.0, 1e-9, 123.456, -1.0, 0.0, 1e300 };

static BlEdit *
make_edit (BlDocument   *doc,
           const guint8 *step)
{
  GPtrArray *links = bl_document_get_links (doc);
  BlLink *link = g_ptr_array_index (links, step[0] % links->len);
  double value = values[step[1] % G_N_ELEMENTS (values)];

  switch (step[1] / G_N_ELEMENTS (values) % 6)
    {
    case 0:
      if (link->collisions->len > 0)
        return bl_edit_new_collision_density (doc, g_ptr_array_index (link->collisions,
                                                                      step[0] % link->collisions->len),
                                              value);
      return bl_edit_new_density (doc, link, value);
    case 1:
      return bl_edit_new_density (doc, link, value);
    case 2:
      return bl_edit_new_auto (doc, link, step[0] & 1);
    case 3:
      return bl_edit_new_mass (doc, link, value);
    case 4:
      return bl_edit_new_added_mass (doc, link, step[0] % 21, value);
    default:
      return bl_edit_new_unset_mass (doc, link);
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(BlDocument) doc = NULL;
  g_autoptr(BlEditHistory) history = NULL;
  g_autoptr(GBytes) original = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) restored = NULL;
  g_autoptr(GError) error = NULL;

  if (size < SCRIPT_LENGTH)
    return 0;

  doc = bl_document_new_from_data ((const char *) data + SCRIPT_LENGTH, size - SCRIPT_LENGTH,
                                   "/fuzz/input.sdf", NULL);
  if (doc == NULL || bl_document_get_links (doc)->len == 0)
    return 0;

  original = bl_export_to_bytes (doc, &error);
  if (original == NULL)
    return 0;   /* a file the exporter cannot map losslessly is refused, not mangled */
  g_assert (g_bytes_get_size (original) == size - SCRIPT_LENGTH &&
            memcmp (g_bytes_get_data (original, NULL), data + SCRIPT_LENGTH, size - SCRIPT_LENGTH) == 0);

  history = bl_edit_history_new ();
  for (guint i = 0; i + 1 < SCRIPT_LENGTH; i += 2)
    {
      g_autoptr(BlEdit) edit = make_edit (doc, data + i);

      g_clear_error (&error);
      bl_edit_history_do (history, edit, &error);
    }

  g_clear_error (&error);
  saved = bl_export_to_bytes (doc, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GError) reload_error = NULL;
    gsize length;
    const char *text = g_bytes_get_data (saved, &length);
    g_autoptr(BlDocument) again = bl_document_new_from_data (text, length, "/fuzz/saved.sdf",
                                                             &reload_error);

    g_assert_no_error (reload_error);
    g_assert (bl_document_get_links (again)->len == bl_document_get_links (doc)->len);
  }

  {
    const BlBakeFlags flags = BL_BAKE_AUTO | BL_BAKE_FIX_INVALID;
    g_autoptr(GError) written_error = NULL;
    g_autoptr(GError) applied_error = NULL;
    g_autoptr(BlExportBake) written = bl_export_bake_new (doc, flags, NULL, NULL, &written_error);
    g_autoptr(BlEdit) bake = bl_export_create_bake_edit (doc, flags, NULL, NULL, &applied_error);

    g_assert ((written == NULL) == (bake == NULL));
    if (written != NULL)
      {
        gboolean recorded = bl_export_bake_record (written, &written_error);
        g_autoptr(GBytes) unchanged = bl_export_to_bytes (doc, NULL);
        g_autoptr(GBytes) written_bytes = recorded ? bl_export_bake_to_bytes (written, NULL) : NULL;

        g_assert (g_bytes_equal (unchanged, saved));
        if (bl_edit_history_do (history, bake, &applied_error))
          {
            g_autoptr(GBytes) applied_bytes = bl_export_to_bytes (doc, NULL);

            g_assert (recorded);
            g_assert (g_bytes_equal (written_bytes, applied_bytes));
          }
        else
          g_assert (!recorded && strcmp (written_error->message, applied_error->message) == 0);
      }
    else
      g_assert (strcmp (written_error->message, applied_error->message) == 0);
  }

  while (bl_edit_history_undo (history))
    ;
  restored = bl_export_to_bytes (doc, &error);
  g_assert_no_error (error);
  g_assert (g_bytes_equal (restored, original));

  return 0;
}
