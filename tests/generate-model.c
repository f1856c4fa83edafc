/* generate-model.c: SDF worlds that carry what real ones carry. */
#include "config.h"

#include <glib.h>

#include "generate-model.h"
#include "torus.h"

/* The six diagonal terms gz-sim's fluid_added_mass example gives a
 * sphere, scaled per link so that no two links are alike. */
static void
append_added_mass (GString *sdf,
                   guint    i)
{
  double k = 1.0 + (i % 7) / 10.0;

  g_string_append_printf (sdf,
    "        <fluid_added_mass>\n"
    "          <xx>%.6g</xx>\n"
    "          <yy>%.6g</yy>\n"
    "          <zz>%.6g</zz>\n"
    "          <pp>%.6g</pp>\n"
    "          <qq>%.6g</qq>\n"
    "          <rr>%.6g</rr>\n"
    "        </fluid_added_mass>\n",
    4.876161 * k, 126.3 * k, 126.3 * k, 0.5 * k, 33.46 * k, 33.46 * k);
}

/* One link: kinds in turn (automatic with added mass, explicit with added
 * mass, automatic with a box and a cylinder or the shared mesh). */
static void
append_link (GString    *sdf,
             guint       i,
             const char *relative_to)
{
  g_autofree char *relative = relative_to != NULL ? g_strdup_printf (" relative_to=\"%s\"", relative_to)
                                                  : g_strdup ("");

  g_string_append_printf (sdf,
    "      <link name=\"link_%u\">\n"
    "        <pose%s>%u %u 0 0 0 0.%u</pose>\n",
    i, relative, i % 100, i / 100, i % 10);

  switch (i % 3)
    {
    case 0:
      g_string_append (sdf, "        <inertial auto=\"true\">\n");
      append_added_mass (sdf, i);
      g_string_append_printf (sdf,
        "        </inertial>\n"
        "        <collision name=\"hull\">\n"
        "          <density>%u</density>\n"
        "          <geometry><box><size>0.4 0.3 0.2</size></box></geometry>\n"
        "        </collision>\n"
        "        <collision name=\"ball\">\n"
        "          <pose>-0.3 0 0 0 0 0</pose>\n"
        "          <density>7800</density>\n"
        "          <geometry><sphere><radius>0.06</radius></sphere></geometry>\n"
        "        </collision>\n",
        500 + i % 1000);
      break;

    case 1:
      g_string_append_printf (sdf,
        "        <inertial>\n"
        "          <pose>0.01 0 0 0 0 0</pose>\n"
        "          <mass>%u.5</mass>\n"
        "          <inertia>\n"
        "            <ixx>0.3</ixx><iyy>0.4</iyy><izz>0.5</izz>\n"
        "            <ixy>0.01</ixy><ixz>0</ixz><iyz>0</iyz>\n"
        "          </inertia>\n",
        10 + i % 20);
      append_added_mass (sdf, i);
      g_string_append (sdf,
        "        </inertial>\n"
        "        <collision name=\"hull\">\n"
        "          <geometry><cylinder><radius>0.1</radius><length>0.5</length></cylinder></geometry>\n"
        "        </collision>\n");
      break;

    default:
      g_string_append (sdf,
        "        <inertial auto=\"true\"/>\n"
        "        <collision name=\"box\">\n"
        "          <pose>0 0 0.1 0 0 0</pose>\n"
        "          <density>2700</density>\n"
        "          <geometry><box><size>0.4 0.3 0.2</size></box></geometry>\n"
        "        </collision>\n");
      if (i % 30 == 2)
        g_string_append (sdf,
          "        <collision name=\"mesh\">\n"
          "          <pose>0 0 -0.6 0 0 0</pose>\n"
          "          <density>1200</density>\n"
          "          <geometry><mesh><uri>mesh.stl</uri><scale>0.2 0.1 0.3</scale></mesh></geometry>\n"
          "        </collision>\n");
      else
        g_string_append (sdf,
          "        <collision name=\"cylinder\">\n"
          "          <pose>0 0 -0.2 0 1.5707963267948966 0</pose>\n"
          "          <density>1000</density>\n"
          "          <geometry><cylinder><radius>0.05</radius><length>0.3</length></cylinder></geometry>\n"
          "        </collision>\n");
      break;
    }

  g_string_append (sdf, "      </link>\n");
}

static void
append_hydrodynamics (GString *sdf)
{
  g_string_append (sdf,
    "      <plugin filename=\"gz-sim-hydrodynamics-system\" name=\"gz::sim::systems::Hydrodynamics\">\n"
    "        <link_name>link_0</link_name>\n"
    "        <xDotU>-4.876161</xDotU>\n"
    "        <yDotV>-126.324739</yDotV>\n"
    "        <zDotW>-126.324739</zDotW>\n"
    "        <kDotP>0</kDotP>\n"
    "        <mDotQ>-33.46</mDotQ>\n"
    "        <nDotR>-33.46</nDotR>\n"
    "        <xUabsU>-6.2282</xUabsU>\n"
    "        <yVabsV>-601.27</yVabsV>\n"
    "        <zWabsW>-601.27</zWabsW>\n"
    "      </plugin>\n");
}

/* The model "m<unit>" of N links: N − 10 − N / 10 of its own on a chain
 * of frames, a nested model of N / 10; the unit's other ten are the
 * world's include of part.sdf. */
static void
append_unit (GString *sdf,
             guint    unit,
             guint    n)
{
  guint nested = n / 10;
  guint own = n - 10 - nested;

  g_string_append_printf (sdf,
    "    <model name=\"m%u\">\n"
    "      <pose>%u %u 0 0 0 0</pose>\n"
    "      <frame name=\"f0\"><pose>1 0 0 0 0 0</pose></frame>\n",
    unit, 200 * (unit % 50), 200 * (unit / 50));
  for (guint f = 1; f < 5; f++)
    g_string_append_printf (sdf,
      "      <frame name=\"f%u\"><pose relative_to=\"f%u\">0 0.5 0 0 0 0.1</pose></frame>\n", f, f - 1);
  for (guint i = 0; i < own; i++)
    {
      g_autofree char *frame = g_strdup_printf ("f%u", i % 5);

      append_link (sdf, i, frame);
    }
  append_hydrodynamics (sdf);

  g_string_append (sdf,
    "      <model name=\"nested\">\n"
    "        <pose>0 0 -3 0 0 0</pose>\n");
  for (guint i = 0; i < nested; i++)
    append_link (sdf, i, NULL);
  g_string_append (sdf, "      </model>\n");
  g_string_append (sdf, "    </model>\n");

  g_string_append_printf (sdf,
    "    <include>\n"
    "      <uri>part.sdf</uri>\n"
    "      <name>part%u</name>\n"
    "      <pose>%u %u -10 0 0 0</pose>\n"
    "    </include>\n",
    unit, 200 * (unit % 50), 200 * (unit / 50));
}

static void
write_file (const char *path,
            GString    *contents)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents->str, contents->len, &error);
  g_assert_no_error (error);
}

char *
generate_world (const char *dir,
                guint       n_links,
                guint       links_per_model)
{
  /* A tetrahedron, wound outward. */
  static const float tetrahedron[] = {
    0, 0, 0,  0, 1, 0,  1, 0, 0,
    0, 0, 0,  1, 0, 0,  0, 0, 1,
    0, 0, 0,  0, 0, 1,  0, 1, 0,
    1, 0, 0,  0, 1, 0,  0, 0, 1,
  };
  guint units = MAX (1, n_links / MAX (links_per_model, 20));
  g_autoptr(GString) sdf = g_string_sized_new ((gsize) n_links * 800);
  g_autoptr(GString) part = g_string_new (NULL);
  g_autofree char *mesh_path = g_build_filename (dir, "mesh.stl", NULL);
  g_autofree char *part_path = g_build_filename (dir, "part.sdf", NULL);
  char *path = g_strdup_printf ("%s/world-%u-%u.sdf", dir, n_links, links_per_model);

  g_assert (n_links >= 20);

  write_stl (mesh_path, tetrahedron, 4);

  g_string_append (part, "<?xml version=\"1.0\"?>\n<sdf version=\"1.11\">\n  <model name=\"part\">\n");
  for (guint i = 0; i < 10; i++)
    append_link (part, i, NULL);
  append_hydrodynamics (part);
  g_string_append (part, "  </model>\n</sdf>\n");
  write_file (part_path, part);

  g_string_append (sdf,
    "<?xml version=\"1.0\"?>\n"
    "<sdf version=\"1.11\">\n"
    "  <world name=\"generated\">\n"
    "    <plugin filename=\"gz-sim-physics-system\" name=\"gz::sim::systems::Physics\"/>\n"
    "    <plugin filename=\"gz-sim-buoyancy-system\" name=\"gz::sim::systems::Buoyancy\">\n"
    "      <uniform_fluid_density>1000</uniform_fluid_density>\n"
    "    </plugin>\n");
  for (guint u = 0; u < units; u++)
    append_unit (sdf, u, (guint) ((guint64) n_links * (u + 1) / units - (guint64) n_links * u / units));
  g_string_append (sdf, "  </world>\n</sdf>\n");
  write_file (path, sdf);

  return path;
}
