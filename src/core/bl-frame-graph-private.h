/* bl-frame-graph-private.h: the frames of one model scope and their poses,
 * resolved through relative_to and attached_to as libsdformat does. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

#include "bl-math.h"
#include "bl-model.h"

G_BEGIN_DECLS

typedef enum
{
  BL_FRAME_LINK,
  BL_FRAME_FRAME,
  BL_FRAME_JOINT,
  BL_FRAME_MODEL,
} BlFrameKind;

typedef enum
{
  BL_FRAME_UNRESOLVED,
  BL_FRAME_VISITING,
  BL_FRAME_RESOLVED,
} BlFrameState;

/* The frames of one model: links, frames, joints and nested models, by
 * name.  Lives while the loader reads the model; the document keeps none. */
typedef struct _BlFrameScope BlFrameScope;

/* One frame of a scope.  The loader sets raw, relative_to, implicit_base
 * and nested after bl_frame_scope_add; pose is X_MF once resolved. */
typedef struct
{
  BlFrameKind   kind;
  const char   *name;          /* stored after the entry, in its block */
  xmlNode      *node;
  int           line;
  BlPose        raw;           /* as written */
  char         *relative_to;   /* explicit @relative_to, or NULL; owned */
  char         *implicit_base; /* attached_to for frames, child for joints; owned */
  BlFrameState  state;
  BlPose        pose;          /* X_MF once resolved */
  BlFrameScope *nested;        /* BL_FRAME_MODEL: owned */
} BlFrameEntry;

/* A scope for `model` (which must outlive it), read from a file of SDF
 * 1.`sdf_minor` (libsdformat's OriginalVersion): names are checked as
 * that version's libsdformat checks them.  When a name is read as it is
 * only below some version (“::” before 1.8, a renamed name before 1.7),
 * `changes_at` (or NULL) gets the lowest such minor version, unless it
 * holds a lower one already (0: none yet). */
BlFrameScope *bl_frame_scope_new         (BlModel      *model,
                                          guint         sdf_minor,
                                          guint        *changes_at);
/* Frees the scope, its entries and their nested scopes; NULL is allowed. */
void          bl_frame_scope_free        (BlFrameScope *scope);

/* Registers the element `node` named `name` as a frame of kind `kind`.
 * NULL, with an error appended to `diagnostics` (its element `owner`),
 * when the name is missing, reserved or already taken; before SDF 1.7 a
 * name another kind of element has is renamed as libsdformat renames it,
 * with a warning. */
BlFrameEntry *bl_frame_scope_add         (BlFrameScope *scope,
                                          BlFrameKind   kind,
                                          xmlNode      *node,
                                          const char   *name,
                                          GPtrArray    *diagnostics,
                                          const char   *owner);
/* Once the scope's model is read and every entry resolved: from then on
 * the scope is only looked up and resolved through (its poses are
 * settled), never added to or resolved again, so its entries are kept
 * sorted by name instead of in a hash table (a model of one link is one
 * pointer, not a table of eight), and the names they were placed by are
 * freed.  Frozen, the lookups and resolutions below answer the same. */
void          bl_frame_scope_freeze      (BlFrameScope *scope);
/* The entry named `name` in this scope (not nested ones), or NULL. */
BlFrameEntry *bl_frame_scope_lookup      (BlFrameScope *scope,
                                          const char   *name);

/* Resolves the pose of every entry of the scope.  A cycle or an unknown
 * frame is an error in `diagnostics`, and the pose is then taken relative
 * to the model frame.  Chains are walked on an explicit stack: their
 * length is not bounded by the thread's stack. */
void          bl_frame_scope_resolve_all (BlFrameScope *scope,
                                          GPtrArray    *diagnostics);
/* Forgets every resolved pose of the scope (not of nested scopes), so
 * that bl_frame_scope_resolve_all() resolves them again after raw poses
 * changed. */
void          bl_frame_scope_unresolve   (BlFrameScope *scope);
/* X_MF of the frame `name` ("__model__", an entry, or "m::f" inside a
 * nested model m) in the scope's model frame M.  FALSE, with an error
 * for `owner` at `line` in `diagnostics`, when the name is unknown or
 * closes a cycle. */
gboolean      bl_frame_scope_resolve     (BlFrameScope *scope,
                                          const char   *name,
                                          GPtrArray    *diagnostics,
                                          const char   *owner,
                                          int           line,
                                          BlPose       *pose);

G_END_DECLS
