/* fuzz-readonly.c: libFuzzer target comparing the read-only (streaming)
 * load with the full load of the same bytes.
 *
 * `ballast-cli inspect` and `check` read with BL_DOCUMENT_LOAD_READ_ONLY,
 * which parses each link at its end tag from libxml2's push parser; the
 * application reads the whole tree.  For any input both must agree: both
 * refuse it with the same message, or both give the same links, values
 * (bit for bit) and diagnostics. */
#include "config.h"

#include <stdlib.h>

#include <glib/gstdio.h>

#include "bl-document.h"
#include "compare-documents.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* Both loads read one file, in a folder of its own: a relative
 * <include> names a file beside it (a file read through /proc/self/fd
 * had its includes resolved among the process's descriptors, which differ
 * from one load to the next). */
static char *input_dir, *input_file;

static void
remove_input (void)
{
  g_unlink (input_file);
  g_rmdir (input_dir);
}

static const char *
input_path (void)
{
  if (input_file == NULL)
    {
      input_dir = g_dir_make_tmp ("ballast-fuzz-readonly-XXXXXX", NULL);
      g_assert (input_dir != NULL);
      input_file = g_build_filename (input_dir, "input.sdf", NULL);
      atexit (remove_input);
    }
  return input_file;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error_full = NULL;
  g_autoptr(GError) error_lean = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  const char *path = input_path ();

  g_assert (g_file_set_contents (path, (const char *) data, (gssize) size, &error));

  full = bl_document_new_from_file (path, &error_full);
  lean = bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_READ_ONLY, &error_lean);

  g_assert ((full == NULL) == (lean == NULL));
  if (full == NULL)
    g_assert_cmpstr (error_full->message, ==, error_lean->message);
  else
    bl_test_assert_same_documents (full, lean);

  return 0;
}
