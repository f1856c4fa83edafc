/* fuzz-readonly.c: libFuzzer target comparing the read-only (streaming)
 * load with the full load of the same bytes.
 *
 * `ballast-cli inspect` and `check` read with BL_DOCUMENT_LOAD_READ_ONLY,
 * which parses each link at its end tag from libxml2's push parser; the
 * application reads the whole tree.  For any input both must agree: both
 * refuse it with the same message, or both give the same links, values
 * (bit for bit) and diagnostics. */
#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#include "bl-document.h"
#include "compare-documents.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error_full = NULL;
  g_autoptr(GError) error_lean = NULL;
  g_autoptr(BlDocument) full = NULL;
  g_autoptr(BlDocument) lean = NULL;
  g_autofree char *path = NULL;
  int fd;

  /* Both loads read one file: a memfd, named through /proc. */
  fd = memfd_create ("fuzz-readonly", MFD_CLOEXEC);
  g_assert (fd >= 0);
  for (size_t done = 0; done < size;)
    {
      ssize_t n = write (fd, data + done, size - done);

      g_assert (n > 0);
      done += (size_t) n;
    }
  path = g_strdup_printf ("/proc/self/fd/%d", fd);

  full = bl_document_new_from_file (path, &error_full);
  lean = bl_document_new_from_file_full (path, BL_DOCUMENT_LOAD_READ_ONLY, &error_lean);
  close (fd);

  g_assert ((full == NULL) == (lean == NULL));
  if (full == NULL)
    g_assert_cmpstr (error_full->message, ==, error_lean->message);
  else
    bl_test_assert_same_documents (full, lean);

  return 0;
}
