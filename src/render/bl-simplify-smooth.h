/* bl-simplify-smooth.h: a level of detail (bl-simplify.h) ready to draw smooth. */
#pragma once

#include "bl-simplify.h"
#include "bl-tessellate.h"

G_BEGIN_DECLS

/* A level ready to draw smooth: vertices compacted to those INDICES use, each with a unit
 * normal (stride 6, has_normals TRUE), the area-weighted average of the normals of the
 * triangles around it whose normal is within CREASE_DEGREES of the corner's own triangle;
 * a vertex is split where its corners' normals differ (so sharp edges stay sharp).
 * Vertices are told apart by index (as a level indexes them), not by position.
 * A corner of a zero-area triangle takes its vertex's average over all
 * its triangles ((0, 0, 1) if that is zero too).  A hub's corners (more
 * than 256 triangles around it) take their own triangle's normal, each
 * its own vertex. */
BlTessMesh *bl_simplify_smooth_mesh (const float  *positions,
                                     guint         stride,
                                     const GArray *indices,
                                     double        crease_degrees);

G_END_DECLS
