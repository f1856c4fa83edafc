/* bl-fluid.h: a document's fluid side — world gravity and physics engine,
 * the simulator plugins that carry added mass (imports, A7, A8), added-mass
 * estimates per link and buoyancy per link and per model.
 *
 * The display-free algebra is in bl-added-mass.h; this file ties it to the
 * document's links and XML.  shared/reference/added-mass.md has the physics. */
#pragma once

#include "bl-added-mass.h"
#include "bl-document.h"
#include "bl-edit.h"

G_BEGIN_DECLS

/* Standard gravity, m/s², for a file without a <world>. */
#define BL_STANDARD_GRAVITY 9.80665

/* The gravity vector in world axes: the world's <gravity>; the SDF default
 * (0, 0, −9.8) in a <world> without one; standard gravity (0, 0, −9.80665)
 * in a file without a <world>.  line (nullable) receives the line of
 * <gravity>, or 0. */
BlVec3        bl_document_get_gravity         (BlDocument  *self,
                                               int         *line);

/* The physics engine gz-sim would run the world with: the gz-sim Physics
 * system's <engine><filename> ("dartsim" when the system is present
 * without one; gz-sim ignores <physics type> then), else the world's
 * <physics type> when it names an engine.  NULL without a <world> or when
 * nothing names an engine.  line (nullable) receives where it was read. */
char         *bl_document_dup_physics_engine  (BlDocument  *self,
                                               int         *line);

/* ---- Imports from simulator plugins (added-mass.md §5) ------------------ */

typedef enum
{
  BL_ADDED_MASS_SOURCE_HYDRODYNAMICS, /* gz-sim Hydrodynamics <xDotU>… */
  BL_ADDED_MASS_SOURCE_DSROS,         /* dsros_hydro <drag><added_mass> */
  BL_ADDED_MASS_SOURCE_UUV,           /* uuv_simulator <link><hydrodynamic_model><added_mass> */
  BL_ADDED_MASS_SOURCE_LRAUV,         /* MBARI LRAUV HydrodynamicsPlugin <xDotU>… (diagonal) */
} BlAddedMassSource;

const char   *bl_added_mass_source_to_string  (BlAddedMassSource source);

typedef struct
{
  BlAddedMassSource  source;
  char              *link_name;   /* as the plugin names it, or NULL (dsros: the model's canonical link) */
  BlLink            *link;        /* the link it applies to, or NULL when none matches */
  xmlNode           *node;        /* the <plugin> */
  char              *file;
  int                line;        /* of the element holding the values */
  gboolean           has_values;  /* at least one added-mass term was read */
  gboolean           disable_added_mass; /* Hydrodynamics <disable_added_mass>true */
  gboolean           model_not_loaded;   /* in an <include> whose model could not be loaded */
  double             values[21];  /* converted: spec order, about Lo, L axes, positive */
  GPtrArray         *notes;       /* BlAddedMassFinding*: what the conversion did */
} BlAddedMassImport;

void          bl_added_mass_import_free       (BlAddedMassImport *import);

/* Every gz-sim Hydrodynamics, MBARI LRAUV HydrodynamicsPlugin, dsros_hydro
 * and uuv_simulator plugin in the document (in the models, nested and
 * included ones, in <include> elements, and the world), each converted
 * into fluid_added_mass values; those inside an <include> whose model was
 * not loaded are marked model_not_loaded, with no link.  A GPtrArray of
 * BlAddedMassImport*, freed with it; plugins without any added-mass term
 * are left out. */
GPtrArray    *bl_document_find_added_mass_imports (BlDocument *self);

/* What applying an import can do about the plugin it came from: writing
 * <fluid_added_mass> while the plugin still applies its own added mass
 * counts it twice (A7). */
typedef enum
{
  BL_PLUGIN_ADDED_MASS_ACTIVE,   /* Hydrodynamics in this file with a *Dot* term ≠ 0: can be turned off */
  BL_PLUGIN_ADDED_MASS_OFF,      /* Hydrodynamics whose *Dot* terms are all 0 already */
  BL_PLUGIN_ADDED_MASS_INCLUDED, /* Hydrodynamics in an included (read-only) file */
  BL_PLUGIN_ADDED_MASS_CLASSIC,  /* dsros_hydro or uuv_simulator: Gazebo classic plugins, left alone */
} BlPluginAddedMass;

BlPluginAddedMass bl_added_mass_import_get_plugin_state (BlDocument              *self,
                                                         const BlAddedMassImport *import);

/* One undoable edit: the import's values, rounding noise cleaned
 * (bl_number_clean_noise), into the link's <fluid_added_mass> (the non-zero
 * ones, and 0 where the link has another value), and with
 * `migrate` the plugin's own added mass turned off in the same step
 * (bl_edit_new_plugin_added_mass_off).  NULL with BL_EDIT_ERROR when the
 * import has no link or no values, or `migrate` is asked of a plugin that is
 * not BL_PLUGIN_ADDED_MASS_ACTIVE (the message says why). */
BlEdit       *bl_added_mass_import_create_edit (BlDocument              *self,
                                                const BlAddedMassImport *import,
                                                gboolean                 migrate,
                                                GError                 **error);

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

/* ---- Buoyancy (§7) -------------------------------------------------------- */

/* The fully submerged link in fluid density rho, in link axes, with
 * gravity given in world axes. */
void          bl_link_compute_buoyancy        (BlLink      *link,
                                               double       rho,
                                               BlVec3       gravity_world,
                                               BlBuoyancy  *out);
/* The same for a model in its own frame: every link, nested models'
 * included; TOTAL is the model's bl_model_compute_total(). */
void          bl_model_compute_buoyancy       (BlModel     *model,
                                               const BlInertial *total,
                                               double       rho,
                                               BlVec3       gravity_world,
                                               BlBuoyancy  *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlAddedMassImport, bl_added_mass_import_free)

G_END_DECLS
