/* bl-fluid-import.h: added mass read from the simulator plugins of a
 * document (gz-sim Hydrodynamics, MBARI LRAUV, dsros_hydro,
 * uuv_simulator), and the edit that applies it. */
#pragma once

#include "bl-added-mass.h"
#include "bl-document.h"
#include "bl-edit.h"

G_BEGIN_DECLS

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
GPtrArray    *bl_fluid_find_added_mass_imports (BlDocument *self);

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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (BlAddedMassImport, bl_added_mass_import_free)

G_END_DECLS
