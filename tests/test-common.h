/* test-common.h: helpers the core tests share. */
#pragma once

#include "bl-document.h"

G_BEGIN_DECLS

/* A document read from tests/fixtures/public/NAME (BALLAST_FIXTURES); aborts
 * when it cannot be read. */
BlDocument *load_fixture (const char *name);
/* The link of that scoped name; aborts when there is none. */
BlLink     *link_of      (BlDocument *doc,
                          const char *name);
/* Aborts unless ACTUAL is EXPECTED within REL relative (absolute below 1). */
void        assert_close (double      actual,
                          double      expected,
                          double      rel);
/* Aborts unless the link's world position is (x, y, z) within 1e-12 m. */
void        assert_position (BlLink     *link,
                             double      x,
                             double      y,
                             double      z);
/* Writes DIR/NAME (folders made as needed); aborts when it cannot. */
void        write_tree_file (const char *dir,
                             const char *name,
                             const char *contents);
/* Unsets every variable a resource lookup reads (model paths, ROS
 * packages, the Fuel cache) and clears the extra model paths. */
void        clear_model_path_variables (void);

/* An ASCII STL of the corner tetrahedron (0,0,0) (1,0,0) (0,1,0) (0,0,1):
 * volume 1/6 m³. */
#define TEST_TETRAHEDRON_STL \
  "solid t\n" \
  "facet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 1 0 0\nendloop\nendfacet\n" \
  "facet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0 1\nendloop\nendfacet\n" \
  "facet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 1\nvertex 0 1 0\nendloop\nendfacet\n" \
  "facet normal 0 0 0\nouter loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\n" \
  "endsolid t\n"

/* A 10 kg link "rov::base" and a dsros_hydro plugin (Gazebo classic) whose
 * <drag><added_mass> gives xx = 12. */
#define TEST_DSROS_ROV_SDF \
  "<sdf version=\"1.6\">\n" \
  "  <model name=\"rov\">\n" \
  "    <link name=\"base\"><inertial><mass>10</mass></inertial></link>\n" \
  "    <plugin name=\"hydro\" filename=\"libdsros_hydro_plugin.so\">\n" \
  "      <drag><added_mass><xx>12</xx></added_mass></drag>\n" \
  "    </plugin>\n" \
  "  </model>\n" \
  "</sdf>\n"

/* TRUE when one of the link's diagnostics has that code ("A7", "D8"…). */
gboolean    link_has_code (BlLink     *link,
                           const char *code);

G_END_DECLS
