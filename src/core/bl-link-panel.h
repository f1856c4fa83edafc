/* bl-link-panel.h: the panel method (bl-panel.h) on a link's collisions,
 * all of them solved together in link coordinates. */
#pragma once

#include "bl-model.h"
#include "bl-panel.h"

G_BEGIN_DECLS

typedef struct
{
  GArray    *bodies;     /* BlPanelBody, link coordinates */
  GPtrArray *meshes;     /* BlMesh*, kept while bodies point into them */
  GPtrArray *notes;      /* char*: collisions left out or changed, and why */
} BlLinkPanel;

/* The link's collisions as closed bodies: every primitive with a volume
 * and every loaded mesh (each submesh a body).  Planes, heightmaps and
 * other surfaces without a volume are left out with a note.  FALSE (NULL)
 * with `error` set when a mesh cannot be panelled honestly (not loaded,
 * holes, edges shared by three triangles or traversed the same way twice)
 * or when no collision has a volume. */
BlLinkPanel *bl_link_panel_new      (BlLink       *link,
                                     GError      **error);
void         bl_link_panel_free     (BlLinkPanel  *panel);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlLinkPanel, bl_link_panel_free)

G_END_DECLS
