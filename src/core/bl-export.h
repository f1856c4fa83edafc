/* bl-export.h: saving a document losslessly, baking automatic inertia, atomic writes.
 *
 * Saving writes the source bytes with only the edited elements changed
 * (bl-source-map.h): a document with no edits comes back byte for byte. */
#pragma once

#include <glib.h>

#include "bl-document.h"
#include "bl-edit.h"

G_BEGIN_DECLS

#define BL_EXPORT_ERROR (bl_export_error_quark ())

typedef enum
{
  BL_EXPORT_ERROR_SAME_FILE,    /* the target is the input and in-place was not asked for */
  BL_EXPORT_ERROR_WRITE,        /* the target could not be written; it is unchanged */
  BL_EXPORT_ERROR_BAKE,         /* an automatic inertia could not be computed */
} BlExportError;

GQuark bl_export_error_quark (void);

typedef enum
{
  BL_EXPORT_FLAGS_NONE = 0,
  BL_EXPORT_IN_PLACE   = 1 << 0,  /* allow the target to be the document's own file */
} BlExportFlags;

typedef enum
{
  BL_BAKE_AUTO        = 1 << 0,   /* every auto link: explicit mass, pose and inertia */
  BL_BAKE_FIX_INVALID = 1 << 1,   /* explicit links with an invalid inertia: computed from collisions */
} BlBakeFlags;

/* The document as it would be saved. */
GBytes   *bl_export_to_bytes           (BlDocument    *doc,
                                        GError       **error);

/* The same bytes written to the open descriptor fd as they are made,
 * never held whole (standard output); FALSE with BL_EXPORT_ERROR_WRITE
 * when a write fails (what was written before it stays). */
gboolean  bl_export_write_fd           (BlDocument    *doc,
                                        int            fd,
                                        GError       **error);

/* Writes the document to path atomically (bl_export_write_atomic).
 * Refuses to overwrite the document's own file unless BL_EXPORT_IN_PLACE. */
gboolean  bl_export_save               (BlDocument    *doc,
                                        const char    *path,
                                        BlExportFlags  flags,
                                        GError       **error);

/* Writes a temporary file beside path, flushes it to disk and renames it
 * over path, keeping an existing file's permissions (and owner when
 * allowed); a symbolic link is followed.  On failure path is untouched,
 * no temporary file is left and the error says why.  What is not a
 * regular file is written to, never replaced: a character device or a
 * FIFO (one with no reader is an error), and "/dev/stdout", "/dev/fd/N"
 * and the like, whose descriptor is written to as inherited (a shell's
 * `>> log` appends); a block device or a socket is refused.  A file with
 * other hard links is rewritten in place once a complete copy of the new
 * content is synced beside it (removed after), so that every name sees
 * the new content (docs/HARDENING.md). */
gboolean  bl_export_write_atomic       (const char    *path,
                                        GBytes        *contents,
                                        GError       **error);

/* TRUE when edits raised <sdf version>: *original (nullable) gets the
 * version the file declared, *written (nullable) the one it now declares. */
gboolean  bl_export_get_version_change (BlDocument    *doc,
                                        char         **original,
                                        char         **written);

/* An unapplied group edit that bakes the document for simulators without
 * automatic inertia: each auto link gets its computed <mass>, <pose> (the
 * centre of mass, no rotation) and <inertia>, and loses auto="true"; its
 * densities and added mass stay.  With BL_BAKE_FIX_INVALID, each explicit
 * link whose inertia is invalid gets the inertia computed from its
 * collisions (bl_link_compute_auto_inertial) instead.
 *
 * changed (nullable) receives the BlLink* the edit changes, in the order
 * of bl_document_get_links; notes (nullable) receives a message (char*, caller frees) for
 * each link that was left alone and why.  NULL with BL_EXPORT_ERROR_BAKE
 * when an auto link's inertia could not be computed. */
BlEdit   *bl_export_create_bake_edit   (BlDocument    *doc,
                                        BlBakeFlags    flags,
                                        GPtrArray     *changed,
                                        GPtrArray     *notes,
                                        GError       **error);

/* A bake written, not applied: the links bl_export_create_bake_edit
 * would change are baked, written down and put back one at a time, so
 * that the document, its links and its history stay as they were, and
 * the bake costs the bytes it writes, not the elements it adds to the
 * tree and the edits that would undo them (about 3 kB a link).  For a
 * file written and not shown: `ballast-cli export --bake`, the window's
 * Export Baked of its copy. */
typedef struct _BlExportBake BlExportBake;

/* The links to bake, none baked yet: changed, notes and the error as
 * bl_export_create_bake_edit gives them.  The bake keeps a reference to
 * the document. */
BlExportBake *bl_export_bake_new       (BlDocument    *doc,
                                        BlBakeFlags    flags,
                                        GPtrArray     *changed,
                                        GPtrArray     *notes,
                                        GError       **error);
void          bl_export_bake_free      (BlExportBake  *bake);
/* Bakes each link, records how the file then writes it and puts it back
 * (bl-source-map.h's patch), in the file's order; called once.  FALSE with
 * the error bl_edit_apply of the bake edit would give, nothing recorded. */
gboolean      bl_export_bake_record    (BlExportBake  *bake,
                                        GError       **error);
/* bl_export_to_bytes, bl_export_write_fd and bl_export_save of the
 * document with the links recorded written baked.  The document must not be edited after
 * bl_export_bake_record: what an edit changes in a recorded link is not
 * written. */
GBytes       *bl_export_bake_to_bytes  (BlExportBake  *bake,
                                        GError       **error);
gboolean      bl_export_bake_write_fd  (BlExportBake  *bake,
                                        int            fd,
                                        GError       **error);
gboolean      bl_export_bake_save      (BlExportBake  *bake,
                                        const char    *path,
                                        BlExportFlags  flags,
                                        GError       **error);

/* The same for one auto link, as one undo step: turning automatic inertia
 * off while keeping the values it computes now (the GUI offers it), rather
 * than falling back to what the file writes or the defaults (1 kg, unit
 * moments).  NULL with BL_EXPORT_ERROR_BAKE when its inertia could not be
 * computed.  Like every edit, bl_edit_apply refuses a link of an included
 * file. */
BlEdit   *bl_export_create_link_bake_edit (BlDocument *doc,
                                           BlLink     *link,
                                           GError    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlExportBake, bl_export_bake_free)

G_END_DECLS
