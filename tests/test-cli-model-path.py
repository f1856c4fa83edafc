#!/usr/bin/env python3
"""ballast-cli finding included models: the environment's model paths,
--model-path DIR and the app's model-paths setting, and what a failed
include says.

Usage: test-cli-model-path.py PATH-TO-BALLAST-CLI.  GSETTINGS_SCHEMA_DIR
names the folder of the compiled schema (the build's data/)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

CLI = os.path.abspath(sys.argv.pop(1))
SCHEMAS = os.environ["BALLAST_SCHEMAS_DIR"]

BOAT = """<?xml version="1.0"?>
<sdf version="1.11"><model name="boat"><link name="hull"><inertial><mass>2</mass>
<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link></model></sdf>
"""

WORLD = """<?xml version="1.0"?>
<sdf version="1.11"><world name="w">
<include><uri>boat</uri><name>first</name></include>
<include><uri>model://boat</uri><name>second</name></include>
</world></sdf>
"""

PATH_VARIABLES = ("GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "SDF_PATH",
                  "GAZEBO_MODEL_PATH", "GZ_FUEL_CACHE_PATH")


class ModelPath(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        root = self.tmp.name
        self.models = os.path.join(root, "models")
        os.makedirs(os.path.join(self.models, "boat"))
        with open(os.path.join(self.models, "boat", "model.sdf"), "w") as f:
            f.write(BOAT)
        os.makedirs(os.path.join(root, "worlds"))
        self.world = os.path.join(root, "worlds", "w.sdf")
        with open(self.world, "w") as f:
            f.write(WORLD)
        self.config = os.path.join(root, "config")
        self.env = {k: v for k, v in os.environ.items() if k not in PATH_VARIABLES}
        # the app's schema, settings kept in a key file of our own
        self.env.update(GSETTINGS_SCHEMA_DIR=SCHEMAS, GSETTINGS_BACKEND="keyfile",
                        XDG_CONFIG_HOME=self.config)

    def run_cli(self, *args, env=None):
        return subprocess.run([CLI, *args], capture_output=True, text=True,
                              env=env or self.env, cwd=self.tmp.name, timeout=60)

    def test_not_found_says_where_and_what_to_set(self):
        result = self.run_cli("check", self.world)
        self.assertEqual(result.returncode, 1)
        worlds = os.path.dirname(self.world)
        # file and line of each <uri>, the folders searched, what to set
        self.assertIn(f"{self.world}:3: error [include]", result.stdout)
        self.assertIn(f"{self.world}:4: error [include]", result.stdout)
        self.assertIn(worlds, result.stdout)
        self.assertIn("GZ_SIM_RESOURCE_PATH", result.stdout)
        self.assertIn("--model-path", result.stdout)
        self.assertIn("model-paths setting", result.stdout)

    def test_repeated_failure_said_once(self):
        # one missing model included four times (lines 3 to 6): one error, at
        # the first, with the count and the other lines; JSON likewise
        world = os.path.join(self.tmp.name, "worlds", "fleet.sdf")
        with open(world, "w") as f:
            f.write('<?xml version="1.0"?>\n<sdf version="1.11"><world name="w">\n'
                    + "".join(f"<include><uri>model://boat</uri><name>b{i}</name></include>\n"
                              for i in range(4))
                    + "</world></sdf>\n")
        result = self.run_cli("check", world)
        self.assertEqual(result.returncode, 1)
        errors = [line for line in result.stdout.splitlines() if "error [include]" in line]
        self.assertEqual(len(errors), 1, result.stdout)
        self.assertTrue(errors[0].startswith(f"{world}:3: error [include]"), errors[0])
        self.assertIn("(4 includes of “model://boat” failed alike: the first here, line 3; "
                      "then line 4, line 5, line 6)", errors[0])
        doc = json.loads(self.run_cli("inspect", "--json", world).stdout)
        self.assertEqual([d["line"] for d in doc["diagnostics"] if d["code"] == "include"], [3])

    def test_model_path_option(self):
        result = self.run_cli("check", "--model-path", self.models, self.world)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("2 links, all valid", result.stdout)
        short = self.run_cli("inspect", "-M", "/nonexistent", "-M", self.models, self.world)
        self.assertEqual(short.returncode, 0)
        self.assertIn("first::hull", short.stdout)
        self.assertIn("second::hull", short.stdout)

    def test_environment(self):
        for variable in ("SDF_PATH", "GZ_SIM_RESOURCE_PATH"):
            with self.subTest(variable=variable):
                env = dict(self.env, **{variable: self.models})
                result = self.run_cli("check", self.world, env=env)
                self.assertEqual(result.returncode, 0, result.stdout)

    def test_setting(self):
        keyfile = os.path.join(self.config, "glib-2.0", "settings", "keyfile")
        os.makedirs(os.path.dirname(keyfile))
        with open(keyfile, "w") as f:
            f.write(f"[app/ballast/Ballast]\nmodel-paths=['/nonexistent', '{self.models}']\n")
        result = self.run_cli("check", self.world)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_setting_allows_a_refused_mesh(self):
        # A mesh named by an absolute path outside the model's folder is
        # refused until its folder is in the model-paths setting (what the
        # window's "Allow Files in …" writes); then it loads: a 2 × 1 × 0.5 m
        # box at 1000 kg/m³ has m = 1000 kg, its centre at its middle and
        # I = m (sides² summed) / 12.
        meshes = os.path.join(self.tmp.name, "meshes")
        os.makedirs(meshes)
        corners = [(x * 2.0, y * 1.0, z * 0.5) for z in (0, 1) for y in (0, 1) for x in (0, 1)]
        triangles = [(0, 2, 3), (0, 3, 1), (4, 5, 7), (4, 7, 6), (0, 1, 5), (0, 5, 4),
                     (2, 6, 7), (2, 7, 3), (0, 4, 6), (0, 6, 2), (1, 3, 7), (1, 7, 5)]
        with open(os.path.join(meshes, "box.stl"), "w") as f:
            f.write("solid box\n")
            for t in triangles:
                f.write("facet normal 0 0 0\nouter loop\n")
                for i in t:
                    f.write("vertex %g %g %g\n" % corners[i])
                f.write("endloop\nendfacet\n")
            f.write("endsolid box\n")
        boat = os.path.join(self.tmp.name, "boat")
        os.makedirs(boat)
        model = os.path.join(boat, "model.sdf")
        with open(model, "w") as f:
            f.write('<?xml version="1.0"?>\n<sdf version="1.11"><model name="boat"><link name="hull">'
                    '<inertial auto="true"/><collision name="c"><density>1000</density><geometry><mesh>'
                    f'<uri>{meshes}/box.stl</uri></mesh></geometry></collision></link></model></sdf>\n')

        refused = json.loads(self.run_cli("inspect", "--json", model).stdout)
        self.assertFalse(refused["links"][0]["valid"])
        self.assertTrue(any("outside the model's folder" in d["message"] for d in refused["diagnostics"]))

        keyfile = os.path.join(self.config, "glib-2.0", "settings", "keyfile")
        os.makedirs(os.path.dirname(keyfile), exist_ok=True)
        with open(keyfile, "w") as f:
            f.write(f"[app/ballast/Ballast]\nmodel-paths=['{meshes}']\n")
        result = self.run_cli("inspect", "--json", model)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        hull = json.loads(result.stdout)["links"][0]
        self.assertTrue(hull["valid"])
        self.assertAlmostEqual(hull["mass"], 1000.0, delta=1e-9)
        for got, want in zip(hull["com"], (1.0, 0.5, 0.25)):
            self.assertAlmostEqual(got, want, delta=1e-12)
        for got, want in zip(hull["inertia"], (1000 * (1 + 0.25) / 12, 1000 * (4 + 0.25) / 12,
                                                1000 * (4 + 1) / 12, 0, 0, 0)):
            self.assertAlmostEqual(got, want, delta=1e-9)

    def test_without_schema(self):
        env = dict(self.env, GSETTINGS_SCHEMA_DIR=self.tmp.name)
        result = self.run_cli("check", "--model-path", self.models, self.world, env=env)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
