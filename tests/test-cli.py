#!/usr/bin/env python3
"""ballast-cli as scripts use it: exit statuses, JSON shape and values.

Usage: test-cli.py PATH-TO-BALLAST-CLI.  Expected values are closed forms or
the reference values of shared/reference/sdf-inertia.md §8, never the
program's own output."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1)
FIXTURES = os.environ["BALLAST_FIXTURES"]


def run(*args, env=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=env, timeout=60)


def inspect_json(path):
    result = run("inspect", "--json", path)
    if result.returncode != 0:
        raise AssertionError(f"{path}: exit {result.returncode}: {result.stderr}")
    return json.loads(result.stdout)


def fixtures():
    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith(".sdf"):
            yield os.path.join(FIXTURES, name)
    for model in sorted(os.listdir(os.path.join(FIXTURES, "models"))):
        yield os.path.join(FIXTURES, "models", model, "model.sdf")


class Inspect(unittest.TestCase):
    def assertClose(self, actual, expected, rel=1e-9):
        self.assertLessEqual(abs(actual - expected), rel * max(abs(expected), 1.0),
                             f"expected {expected!r}, got {actual!r}")

    def link(self, doc, name):
        for link in doc["links"]:
            if link["name"] == name:
                return link
        self.fail(f"no link {name} in {[l['name'] for l in doc['links']]}")

    def test_every_fixture_loads(self):
        keys = {"name", "auto", "mass", "com", "inertia", "principal_moments",
                "principal_axes", "equivalent_ellipsoid", "valid", "added_mass",
                "diagnostics"}
        for path in fixtures():
            with self.subTest(path=path):
                doc = inspect_json(path)
                self.assertEqual(doc["file"], path)
                self.assertIn(doc["sdf_version"], ["1.6", "1.8", "1.11"])
                self.assertGreater(len(doc["links"]), 0)
                for link in doc["links"]:
                    self.assertTrue(keys <= set(link), link.keys())
                    self.assertEqual(len(link["com"]), 3)
                    self.assertEqual(len(link["inertia"]), 6)
                    self.assertEqual(len(link["principal_axes"]), 3)
                    moments = link["principal_moments"]
                    self.assertEqual(moments, sorted(moments))
                    if link["added_mass"] is not None:
                        self.assertEqual(len(link["added_mass"]), 21)
                for diagnostic in doc["diagnostics"]:
                    self.assertIn(diagnostic["severity"], ["error", "warning", "info"])
                    self.assertIsInstance(diagnostic["line"], int)
                    self.assertTrue(diagnostic["message"])

    def test_table_on_every_fixture(self):
        for path in fixtures():
            with self.subTest(path=path):
                result = run("inspect", path)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn("mass", result.stdout)

    def test_sample_is_default(self):
        result = run("inspect", "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        doc = json.loads(result.stdout)
        hull = self.link(doc, "sample_auv::hull")
        self.assertTrue(hull["auto"])
        self.assertTrue(hull["valid"])
        self.assertEqual(len(hull["added_mass"]), 21)

    def test_pendulum_values(self):
        doc = inspect_json(os.path.join(FIXTURES, "gzsim_examples_worlds_auto_inertia_pendulum.sdf"))
        upper = self.link(doc, "pendulum::upper_link")
        self.assertTrue(upper["auto"])
        self.assertClose(upper["mass"], 113.0973355)
        self.assertClose(upper["com"][0], -1 / 30, 2e-9)
        self.assertClose(upper["com"][2], 0.2083333333, 2e-9)
        ixx, iyy, izz, ixy, ixz, iyz = upper["inertia"]
        self.assertClose(ixx, 13.98794129)
        self.assertClose(iyy, 14.47488815)
        self.assertClose(izz, 1.052433539)
        self.assertClose(ixz, -0.785396606)
        # The axes reconstruct the tensor: I = Σ λi ai aiᵀ.
        tensor = [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]
        for r in range(3):
            for c in range(3):
                value = sum(l * a[r] * a[c] for l, a in
                            zip(upper["principal_moments"], upper["principal_axes"]))
                self.assertClose(value, tensor[r][c], 1e-9)

    def test_equivalent_ellipsoid(self):
        # Unit-density cube of side 2: m 8, I = 8·8/12 each; the ellipsoid with
        # the same moments has a = sqrt(5·(2I − I)/(2m)) = sqrt(5/3).
        sdf = ('<?xml version="1.0"?><sdf version="1.11"><model name="m"><link name="l">'
               '<inertial auto="true"><density>1</density></inertial><collision name="c">'
               '<geometry><box><size>2 2 2</size></box></geometry></collision></link></model></sdf>')
        with tempfile.NamedTemporaryFile("w", suffix=".sdf", delete=False) as f:
            f.write(sdf)
        try:
            link = inspect_json(f.name)["links"][0]
        finally:
            os.unlink(f.name)
        self.assertClose(link["mass"], 8)
        for a in link["equivalent_ellipsoid"]:
            self.assertClose(a, math.sqrt(5 / 3))
        for s in link["equivalent_box"]:
            self.assertClose(s, 2)

    def test_inertial_complete_added_mass(self):
        doc = inspect_json(os.path.join(FIXTURES, "sdformat_test_sdf_inertial_complete.sdf"))
        expected = [10 * i + j for i in range(1, 7) for j in range(i, 7)]
        self.assertEqual(doc["links"][0]["added_mass"], expected)

    def test_shortest_numbers(self):
        doc = inspect_json(os.path.join(FIXTURES, "sdformat_test_sdf_inertial_complete.sdf"))
        result = run("inspect", "--json", os.path.join(FIXTURES, "sdformat_test_sdf_inertial_complete.sdf"))
        self.assertIn('"mass":17.982', result.stdout)
        self.assertIn("0.0008", result.stdout)
        self.assertEqual(doc["links"][0]["mass"], 17.982)

    def test_missing_mesh_is_a_diagnostic(self):
        doc = inspect_json(os.path.join(FIXTURES, "sdformat_test_sdf_mesh_auto_inertial.sdf"))
        errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
        self.assertTrue(errors)
        self.assertTrue(any("box.dae" in d["message"] for d in errors), errors)
        self.assertTrue(all(d["line"] > 0 for d in errors))


class ExitStatus(unittest.TestCase):
    def test_usage_errors(self):
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run("frobnicate").returncode, 2)
        self.assertEqual(run("inspect", "--no-such-option").returncode, 2)
        self.assertEqual(run("inspect", "a.sdf", "b.sdf").returncode, 2)
        self.assertEqual(run("check").returncode, 2)

    def test_help(self):
        result = run("--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("inspect", result.stdout)

    def test_unreadable(self):
        result = run("inspect", "/nonexistent/model.sdf")
        self.assertEqual(result.returncode, 1)
        self.assertIn("/nonexistent/model.sdf", result.stderr)
        self.assertEqual(run("inspect", FIXTURES).returncode, 1)

    def test_not_xml(self):
        with tempfile.NamedTemporaryFile("w", suffix=".sdf", delete=False) as f:
            f.write("<sdf version='1.11'><model name='m'>")
        try:
            result = run("inspect", "--json", f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(result.returncode, 1)
        self.assertIn(f.name, result.stderr)
        self.assertEqual(result.stdout, "")

    def test_check(self):
        good = run("check", os.path.join(FIXTURES, "sdformat_test_sdf_inertial_stats_auto_mass.sdf"))
        self.assertEqual(good.returncode, 0, good.stdout)
        bad = run("check", os.path.join(FIXTURES, "sdformat_test_sdf_mesh_auto_inertial.sdf"))
        self.assertEqual(bad.returncode, 1)
        self.assertIn("error", bad.stdout)
        with tempfile.NamedTemporaryFile("w", suffix=".sdf", delete=False) as f:
            f.write('<?xml version="1.0"?><sdf version="1.11"><model name="m"><link name="l">'
                    '<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz>'
                    '</inertia></inertial></link></model></sdf>')
        try:
            invalid = run("check", f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(invalid.returncode, 1)
        self.assertIn("m::l", invalid.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
