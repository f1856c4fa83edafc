/* compare-documents.h: the full and the read-only load of one file, compared. */
#pragma once

#include "bl-document.h"

G_BEGIN_DECLS

/* Aborts unless FULL (a default load) and LEAN (BL_DOCUMENT_LOAD_READ_ONLY)
 * of the same file have the same links, values (bit for bit), collisions
 * and diagnostics.  (LEAN may have been read the usual way after all: a
 * file the push parser refuses is read again whole, see
 * bl_document_new_from_file_full.) */
void bl_test_assert_same_documents (BlDocument *full,
                                    BlDocument *lean);

G_END_DECLS
