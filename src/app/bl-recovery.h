/* bl-recovery.h: recovery copies of a window's unsaved edits, offered
 * again after the application was killed or crashed. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One recovery entry under g_get_user_state_dir()/ballast/recovery/: the
 * edited document (<id>.sdf), the file it is an edit of (<id>.ini) and a
 * lock (<id>.lock) held while its owner lives, so that a running
 * instance's entries are never offered to another one. */
typedef struct _BlRecovery BlRecovery;

char        *bl_recovery_dup_dir            (void);

/* A new entry for a window; nothing is written yet. */
BlRecovery  *bl_recovery_new                (void);
/* Writes `contents` (the document as it would be saved) atomically, and
 * records `original` (nullable: the built-in sample). */
gboolean     bl_recovery_save               (BlRecovery  *self,
                                             GBytes      *contents,
                                             GFile       *original,
                                             GError     **error);
/* Removes the entry's files; the entry can be saved again. */
void         bl_recovery_discard            (BlRecovery  *self);
/* Forgets the entry, leaving its files (and releasing its lock). */
void         bl_recovery_free               (BlRecovery  *self);

/* Entries whose owner is gone, oldest first; each is locked by the caller
 * until freed or discarded.  A GPtrArray of BlRecovery*, freed with it. */
GPtrArray   *bl_recovery_find_orphans       (void);
/* The file the edits apply to, or NULL for the built-in sample. */
GFile       *bl_recovery_get_original       (BlRecovery  *self);
GBytes      *bl_recovery_load               (BlRecovery  *self,
                                             GError     **error);
/* When the copy was last written (local time), or NULL. */
GDateTime   *bl_recovery_get_modified       (BlRecovery  *self);
/* How the recovery offer names the time of a copy, in local time and
 * translated: “today at 14:05”, “yesterday at 09:30”, else
 * “5 March 2025 at 09:07” (relative to `now`). */
char        *bl_recovery_format_time        (GDateTime   *time,
                                             GDateTime   *now);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlRecovery, bl_recovery_free)

G_END_DECLS
