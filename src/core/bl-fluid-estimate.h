/* bl-fluid-estimate.h: a link's added mass estimated from the geometry of
 * its collisions. */
#pragma once

#include "bl-added-mass.h"
#include "bl-model.h"

G_BEGIN_DECLS

/* ---- Estimates from geometry (§6) ---------------------------------------- */

typedef struct
{
  BlCollision         *collision;
  gboolean             ok;        /* FALSE: no estimate for this geometry (plane, failed mesh…) */
  BlAddedMassEstimate  estimate;  /* in the collision's shape frame, about its centroid */
  BlMat6               at_link;   /* rotated and shifted to the link origin (§6.9) */
} BlCollisionEstimate;

/* Each collision's estimated added mass at fluid density rho, summed at the
 * link origin in link axes into out (21 spec-order values).  estimates
 * (nullable) is a GArray of BlCollisionEstimate that receives one element
 * per collision.  Returns how many collisions gave an estimate. */
guint         bl_link_estimate_added_mass     (BlLink      *link,
                                               double       rho,
                                               double       out[21],
                                               GArray      *estimates);

G_END_DECLS
