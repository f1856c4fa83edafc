/* ui-hooks.h: what the ui tests do to the application that no user can:
 * hold file loads back, and edit a document from a spec string.  Only
 * test programs link this (the ballast-test-hooks library). */
#pragma once

#include "bl-window.h"

G_BEGIN_DECLS

/* Every load started from now on waits `ms` milliseconds in its worker
 * before it reads the file (0: no wait), so that a test can act while a
 * file opens.  A cancelled load stops waiting at once. */
void     ui_hooks_set_load_delay      (guint        ms);

/* Sets a collision's density through the window's undo history, from
 * "MODEL::LINK/COLLISION:density=VALUE". */
gboolean ui_hooks_apply_density_edit  (BlWindow    *window,
                                       const char  *spec,
                                       GError     **error);

G_END_DECLS
