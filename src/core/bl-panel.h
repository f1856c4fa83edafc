/* bl-panel.h: the 6×6 added mass of rigid bodies deeply submerged in an
 * unbounded ideal fluid at rest, by a boundary-element (panel) method.
 *
 * The problem (docs/reference/added-mass.md §6, SDF 1.10's <fluid_added_mass>): for each
 * rigid-body mode k (x y z p q r about the link origin Lo, link axes), the
 * velocity potential φ_k is harmonic outside the bodies, ∂φ_k/∂n = n_k on
 * their surface (n the unit normal out of the body, into the fluid;
 * n_4..6 = r × n) and vanishes at infinity.  Then
 *
 *     μ_jk = −ρ ∫_S φ_k n_j dS,
 *
 * positive for a sphere (½ρV along each axis).  Green's third identity on
 * the surface gives a second-kind equation for φ itself,
 *
 *     ½ φ(x) + (1/4π) ∫_S φ(y) Ω'(x, y) dS_y = −(1/4π) ∫_S n_k(y) / |x − y| dS_y,
 *
 * Ω' the density of the solid angle under which x sees the surface (the
 * normal derivative of 1/r).  The surface is cut into flat triangles with
 * φ constant on each and the equation held at each centroid.  Each panel's
 * solid angle is exact from anywhere (Van Oosterom and Strackee) and its
 * integral of 1/r exact near it (the edge formula for a flat polygon); far
 * panels are points.  The dense matrix is stored in single precision
 * (4·N² bytes: 64 MB at 4,000 panels, 400 MB at 10,000; at most
 * BL_PANEL_MAX_PANELS); the six systems are solved together by restarted
 * GMRES in double precision, one pass over the matrix per iteration.
 *
 * Display- and document-free: bodies come as plain geometry in link
 * coordinates. */
#pragma once

#include <gio/gio.h>

#include "bl-added-mass.h"
#include "bl-math.h"
#include "bl-panel-surface.h"

G_BEGIN_DECLS

/* The most panels one solve takes: 16,000 is 1 GB of matrix. */
#define BL_PANEL_MAX_PANELS     16000
/* The panel budget when the caller gives none. */
#define BL_PANEL_DEFAULT_PANELS 4000

/* Called from the solving threads' coordinator (the thread that called
 * bl_panel_solve) with the fraction done, 0…1. */
typedef void (*BlPanelProgressFunc) (double   fraction,
                                     gpointer user_data);

typedef struct
{
  BlMat6  added_mass;      /* μ about Lo in link axes, symmetrised */
  double  asymmetry;       /* max |μ_jk − μ_kj| before symmetrising, over max |μ| */
  guint   iterations;      /* GMRES iterations until all six converged */
  gsize   n_panels;
  double *potentials;      /* 6 per panel: φ_k at its centroid, for a unit velocity */
} BlPanelSolution;

/* Solves on `surface` for fluid density rho.  FALSE with `error` set when
 * the surface is empty, has more than BL_PANEL_MAX_PANELS panels, the
 * solver did not converge, or `cancellable` was cancelled
 * (G_IO_ERROR_CANCELLED).  Runs on as many threads as there are processors
 * (at most 8). */
gboolean bl_panel_solve          (const BlPanelSurface *surface,
                                  double                rho,
                                  GCancellable         *cancellable,
                                  BlPanelProgressFunc   progress,
                                  gpointer              user_data,
                                  BlPanelSolution      *out,
                                  GError              **error);
void     bl_panel_solution_clear (BlPanelSolution      *solution);

/* The estimate a user is shown: μ at `budget` panels and at a quarter of
 * them.  Constant panels converge as 1/N, so a quarter of the panels has
 * four times the error and the fine result's is a third of the
 * difference, term by term (Richardson). */
typedef struct
{
  /* The fine result with every term that cannot be told from 0 at this
   * resolution set to 0 (a symmetric hull's couplings come out as 1e-5 of
   * its terms, not 0): a term within its own difference between the
   * resolutions of 0, or within relative_error of the scale of its blocks
   * (√(s_j·s_k): s the largest translational term, and that times the
   * square of the body's size, R² = area/4π, for rotations).  What to show
   * and write.  With no error estimate, terms below 1e-9 of the largest. */
  BlMat6          added_mass;
  BlMat6          errors;          /* |μ_N − μ_N/4| / 3 per term; NAN without an estimate */
  /* The largest errors[j][j] / |μ_jj| over the diagonal terms that carry
   * their block (a tenth of its scale or more); NAN when both
   * resolutions were the same surface (meshes already finer than the
   * budget). */
  double          relative_error;
  BlPanelSolution fine;
  BlMat6          coarse;
  gsize           coarse_panels;
  /* Of the fine surface (see BlPanelSurface). */
  gsize           n_removed;
  double          simplify_error;
  gsize           n_slivers;
} BlPanelEstimate;

gboolean bl_panel_estimate       (const BlPanelBody    *bodies,
                                  gsize                 n_bodies,
                                  gsize                 budget,
                                  double                rho,
                                  GCancellable         *cancellable,
                                  BlPanelProgressFunc   progress,
                                  gpointer              user_data,
                                  BlPanelEstimate      *out,
                                  GError              **error);
/* The same on surfaces made beforehand (`coarse` with about a quarter of
 * `fine`'s panels), e.g. to draw `fine` while it is solved; the fine
 * solution's potentials are in `fine`'s panel order. */
gboolean bl_panel_estimate_surfaces (const BlPanelSurface *fine,
                                     const BlPanelSurface *coarse,
                                     double                rho,
                                     GCancellable         *cancellable,
                                     BlPanelProgressFunc   progress,
                                     gpointer              user_data,
                                     BlPanelEstimate      *out,
                                     GError              **error);
/* What a user should know of how the fine surface was made (meshes
 * simplified, sliver panels, panels left out inside other collisions), as
 * BlAddedMassFinding* appended to `findings` (see
 * bl_added_mass_findings_new). */
void     bl_panel_estimate_findings (const BlPanelEstimate *estimate,
                                     GPtrArray             *findings);
void     bl_panel_estimate_clear (BlPanelEstimate      *estimate);

G_END_DECLS
