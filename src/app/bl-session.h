/* bl-session.h: the file a window shows: its document, undo history and
 * state on disk; loading, saving, watching the file and recovery copies. */
#pragma once

#include <gio/gio.h>

#include "bl-document.h"
#include "bl-edit-history.h"

G_BEGIN_DECLS

#define BL_TYPE_SESSION (bl_session_get_type ())
G_DECLARE_FINAL_TYPE (BlSession, bl_session, BL, SESSION, GObject)

/* A session is a plain GIO object (no widgets): the window shows it and
 * asks the user; the session only does what it is told and says what
 * changed.  Properties (all read-only, EXPLICIT_NOTIFY):
 *   document       the shown BlDocument (NULL before the first one)
 *   file           its GFile, NULL for the built-in sample
 *   modified       unsaved edits (the undo history's, or a restored copy's)
 *   loading-file   the file being read in a worker thread, if any
 *   saving         a save or export is being written in a worker thread
 * Signals:
 *   ::changed             the undo history changed (edit, undo, redo, save)
 *   ::file-changed        the file changed on disk, by another program
 *                         (our own writes and touches that keep its bytes
 *                         are not reported); the window reloads or asks. */

BlSession     *bl_session_new                (void);

BlDocument    *bl_session_get_document       (BlSession   *self);
GFile         *bl_session_get_file           (BlSession   *self);
BlEditHistory *bl_session_get_history        (BlSession   *self);
gboolean       bl_session_get_modified       (BlSession   *self);
GFile         *bl_session_get_loading_file   (BlSession   *self);
gboolean       bl_session_get_saving         (BlSession   *self);

/* Shows `document` (read from `file`, NULL for the sample; `disk_bytes`
 * what the file held, nullable) with a new undo history; the old
 * document's recovery copy goes.  `restored`: the document is a recovery
 * copy, modified although its history is empty. */
void           bl_session_set_document       (BlSession   *self,
                                              BlDocument  *document,
                                              GFile       *file,
                                              GBytes      *disk_bytes,
                                              gboolean     restored);

/* Reads `file` into a new document in a worker thread, refusing one of
 * more than `max_links` links (0: the core's bound alone), or 4 times as
 * many other parts, as bl_document_new_from_file_limited does.  A later load (or
 * bl_session_cancel_load, or disposing the session) supersedes it: it then
 * fails with G_IO_ERROR_CANCELLED.  The document is not shown: the caller
 * decides (bl_session_set_document). */
void           bl_session_load_async         (BlSession           *self,
                                              GFile               *file,
                                              guint                max_links,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
/* The new document (full reference); *edited_while_loading (nullable) is
 * whether the shown document was edited while the worker ran. */
BlDocument    *bl_session_load_finish        (BlSession           *self,
                                              GAsyncResult        *result,
                                              gboolean            *edited_while_loading,
                                              GError             **error);
void           bl_session_cancel_load        (BlSession           *self);

/* Whether saving to `file` would write over another version than the one
 * the edits were made to: the user kept theirs over a change on disk
 * (bl_session_keep_edits), or the file changed since it was read. */
gboolean       bl_session_disk_changed       (BlSession           *self,
                                              GFile               *file);
/* The user keeps their edits over a change on disk: the next save asks. */
void           bl_session_keep_edits         (BlSession           *self);
/* The user agreed to replace what is on disk now. */
void           bl_session_accept_disk        (BlSession           *self);

typedef enum
{
  /* Serializes the document now and writes it (atomically, flushed to
   * disk) in a worker thread.  On success the session's file becomes
   * `file` and, unless the document was edited meanwhile, it is clean. */
  BL_SESSION_SAVE,
  /* Writes a baked copy (bl_export_bake_new, BL_BAKE_AUTO): the
   * document as it is now is read again in a worker thread, its bake
   * recorded and written there; the shown document is left alone. */
  BL_SESSION_EXPORT_BAKED,
} BlSessionWrite;

void           bl_session_write_async        (BlSession           *self,
                                              GFile               *file,
                                              BlSessionWrite       what,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
gboolean       bl_session_write_finish       (BlSession           *self,
                                              GAsyncResult        *result,
                                              GError             **error);

/* Writes the recovery copy of the unsaved edits now (it is otherwise
 * written about a second after they change). */
void           bl_session_write_recovery     (BlSession           *self);

G_END_DECLS
