/* bl-fluid-world.h: the fluid a world's gz-sim Buoyancy system simulates
 * (bl-fluid-world.c; bl_fluid_get_world_fluid in bl-fluid.h reads it from
 * a document). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The fluid of the world's gz-sim Buoyancy system (added-mass.md §7.4),
 * as gz-sim reads it: its <uniform_fluid_density> when it has one, which
 * gz-sim takes before a <graded_buoyancy>; else, graded, the density below
 * its lowest change of density (its <default_density>, the last one as
 * gz-sim reads them), where a body lies fully submerged; else gz-sim's
 * default, 1000 kg/m³.  BlWorldFluid.line is that of the element the
 * density was read from, or of the <plugin>. */
typedef enum
{
  BL_WORLD_FLUID_NONE,        /* no Buoyancy system in the world */
  BL_WORLD_FLUID_UNIFORM,     /* <uniform_fluid_density>: density */
  BL_WORLD_FLUID_GZ_DEFAULT,  /* neither: gz-sim's 1000 kg/m³ in density */
  BL_WORLD_FLUID_GRADED,      /* <graded_buoyancy>: density is the deepest
                               * fluid's (its <default_density> or 1000) */
  BL_WORLD_FLUID_UNREADABLE,  /* the density element is no density from
                               * BL_FLUID_DENSITY_MIN to _MAX; text */
} BlWorldFluidKind;

typedef struct
{
  BlWorldFluidKind kind;
  double           density;   /* kg/m³, but for NONE and UNREADABLE */
  int              line;
  char            *text;      /* UNREADABLE: the element's text, else NULL */
} BlWorldFluid;

void          bl_world_fluid_clear            (BlWorldFluid *fluid);

G_END_DECLS
