/* bl-session-private.h: what only the ui tests use of a session. */
#pragma once

#include "bl-session.h"

G_BEGIN_DECLS

/* Runs in every load's worker thread before it reads the file; it may
 * block, and should return once `cancellable` is cancelled.  The ui
 * tests hold loads back with it (tests/ui-hooks.c), so that they can act
 * while a file opens; the program never sets one.  NULL removes it. */
typedef void (*BlSessionLoadHook) (GFile        *file,
                                   GCancellable *cancellable);

void bl_session_set_load_hook (BlSessionLoadHook hook);

G_END_DECLS
