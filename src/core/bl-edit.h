/* bl-edit.h: edits of a document's mass properties as undoable commands.
 *
 * An edit changes the libxml2 tree in place, touching only the elements it
 * is about (a missing element is created where the spec puts it, indented
 * like its siblings), then recomputes the link (bl_document_reload_link).
 * Reverting restores the tree exactly, so the saved bytes come back too.
 * Edits are applied and reverted in stack order (see BlEditHistory); the
 * CLI's --set and the GUI share this one path.
 *
 * Writing a density or auto="true" raises <sdf version> to 1.11, writing
 * an added-mass value raises it to 1.10; it is never lowered, nor raised
 * past bl_document_get_reading_changes_at (the rest of the file must read
 * as it did).  The raise is part of the edit, so undo lowers it again. */
#pragma once

#include <glib-object.h>

#include "bl-document.h"

G_BEGIN_DECLS

#define BL_EDIT_ERROR (bl_edit_error_quark ())

typedef enum
{
  BL_EDIT_ERROR_INVALID_VALUE,  /* not finite, or a mass or density ≤ 0 */
  BL_EDIT_ERROR_NOT_EDITABLE,   /* the element lives in an included file, or the file cannot be mapped */
} BlEditError;

GQuark bl_edit_error_quark (void);

typedef enum
{
  BL_EDIT_FIELD_COLLISION_DENSITY, /* //collision/density */
  BL_EDIT_FIELD_DENSITY,           /* //inertial/density */
  BL_EDIT_FIELD_AUTO,              /* //inertial/@auto */
  BL_EDIT_FIELD_MASS,              /* //inertial/mass */
  BL_EDIT_FIELD_INERTIAL,          /* //inertial/pose and //inertial/inertia */
  BL_EDIT_FIELD_ADDED_MASS,        /* //inertial/fluid_added_mass/<key> */
  BL_EDIT_FIELD_PLUGIN_ADDED_MASS, /* a Hydrodynamics <plugin>'s own added mass */
  BL_EDIT_FIELD_GROUP,             /* several edits as one step */
} BlEditField;

typedef struct _BlEdit BlEdit;

#define BL_TYPE_EDIT (bl_edit_get_type ())
GType        bl_edit_get_type                    (void) G_GNUC_CONST;

BlEdit      *bl_edit_ref                         (BlEdit       *edit);
void         bl_edit_unref                       (BlEdit       *edit);

/* Constructors check nothing; bl_edit_apply validates.  The edit keeps a
 * reference to the document. */
BlEdit      *bl_edit_new_collision_density       (BlDocument   *doc,
                                                  BlCollision  *collision,
                                                  double        density);
BlEdit      *bl_edit_new_unset_collision_density (BlDocument   *doc,
                                                  BlCollision  *collision);
BlEdit      *bl_edit_new_density                 (BlDocument   *doc,
                                                  BlLink       *link,
                                                  double        density);
BlEdit      *bl_edit_new_unset_density           (BlDocument   *doc,
                                                  BlLink       *link);
/* TRUE writes auto="true"; FALSE removes the attribute (the default). */
BlEdit      *bl_edit_new_auto                    (BlDocument   *doc,
                                                  BlLink       *link,
                                                  gboolean      auto_inertia);
BlEdit      *bl_edit_new_mass                    (BlDocument   *doc,
                                                  BlLink       *link,
                                                  double        mass);
BlEdit      *bl_edit_new_unset_mass              (BlDocument   *doc,
                                                  BlLink       *link);
/* Writes <pose> (X_LC, as x y z roll pitch yaw in radians; any
 * @rotation_format or @degrees is removed) and the six <inertia> values
 * ixx iyy izz ixy ixz iyz, about the centre of mass in C's axes. */
BlEdit      *bl_edit_new_inertial                (BlDocument   *doc,
                                                  BlLink       *link,
                                                  BlPose        pose,
                                                  const double  inertia[6]);
/* key: 0…20 in spec order (bl_added_mass_keys). */
BlEdit      *bl_edit_new_added_mass              (BlDocument   *doc,
                                                  BlLink       *link,
                                                  guint         key,
                                                  double        value);
BlEdit      *bl_edit_new_unset_added_mass        (BlDocument   *doc,
                                                  BlLink       *link,
                                                  guint         key);
/* Turns the added mass of a gz-sim Hydrodynamics <plugin> off, the way
 * every gz-sim release reads it: each `[xyzkmn]Dot[UVWPQR]` term that is
 * not 0 is set to 0 (releases before gz-sim 7.2 / ign-gazebo 6.14 read an
 * absent xDotU as 5, so the terms are zeroed, not removed; a zero term also
 * drops the plugin's Coriolis terms, which <disable_added_mass> keeps), and
 * <disable_added_mass> is set to true (appended when absent), as gz-sim's
 * Migration.md asks.  link is the link the plugin acts on: it is reloaded,
 * so its A7 is checked again.  The plugin must be in the document's own
 * file (BL_EDIT_ERROR_NOT_EDITABLE otherwise). */
BlEdit      *bl_edit_new_plugin_added_mass_off   (BlDocument   *doc,
                                                  BlLink       *link,
                                                  xmlNode      *plugin);
/* Applied in the order added, reverted in reverse; all or nothing. */
BlEdit      *bl_edit_new_group                   (BlDocument   *doc,
                                                  const char   *label);
void         bl_edit_group_add                   (BlEdit       *group,
                                                  BlEdit       *edit);
guint        bl_edit_group_get_n_edits           (BlEdit       *group);

BlEditField  bl_edit_get_field                   (BlEdit       *edit);
BlDocument  *bl_edit_get_document                (BlEdit       *edit);
/* NULL for a group. */
BlLink      *bl_edit_get_link                    (BlEdit       *edit);
/* "Set the mass of model::link", for undo menus. */
const char  *bl_edit_get_label                   (BlEdit       *edit);
gboolean     bl_edit_is_applied                  (BlEdit       *edit);

/* Validates, changes the tree and reloads the link.  On error nothing has
 * changed.  Applying an applied edit is a programming error. */
gboolean     bl_edit_apply                       (BlEdit       *edit,
                                                  GError      **error);
/* Restores the tree as it was before bl_edit_apply and reloads the link.
 * Every edit applied after this one must have been reverted first. */
void         bl_edit_revert                      (BlEdit       *edit);

/* TRUE when `next` sets the same field of the same element as `previous`
 * (repeated − / + steps of one field).  Groups and inertial edits never
 * merge. */
gboolean     bl_edit_can_merge                   (BlEdit       *previous,
                                                  BlEdit       *next);
/* Folds the applied `next` (applied right after the applied `previous`)
 * into `previous`: reverting `previous` then undoes both, reapplying it
 * sets next's value.  `next` is left unapplied and empty. */
void         bl_edit_merge                       (BlEdit       *previous,
                                                  BlEdit       *next);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlEdit, bl_edit_unref)

G_END_DECLS
