/* bl-added-mass-private.h: the 6×6 algebra that bl-added-mass.c shares with
 * the estimates (bl-added-mass-estimate.c). */
#pragma once

#include "bl-added-mass.h"

G_BEGIN_DECLS

/* Cyclic Jacobi on the n×n (n ≤ 6) symmetric upper-left block of A, which it
 * destroys.  VALUES ascending; V's columns are the unit eigenvectors (V
 * nullable: the values without them are the same, in a third less work). */
void bl_mat6_sym_jacobi (int    n,
                         double a[6][6],
                         double values[6],
                         double v[6][6]);

G_END_DECLS
