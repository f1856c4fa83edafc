#!/usr/bin/env python3
"""`ballast-cli export` as scripts use it: byte-identical copies, --set edits,
--bake, version raises, exit statuses and safe saving.

Usage: test-cli-export.py PATH-TO-BALLAST-CLI.  Expected values are closed
forms or values the fixtures state, never the program's own output."""

import difflib
import json
import math
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

CLI = sys.argv.pop(1)
FIXTURES = os.environ["BALLAST_FIXTURES"]


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, timeout=120)


def fixture(name):
    return os.path.join(FIXTURES, name)


def fixtures():
    for name in sorted(os.listdir(FIXTURES)):
        if name.endswith(".sdf"):
            yield os.path.join(FIXTURES, name)
    for model in sorted(os.listdir(os.path.join(FIXTURES, "models"))):
        yield os.path.join(FIXTURES, "models", model, "model.sdf")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def inspect(path):
    result = run("inspect", "--json", path)
    if result.returncode != 0:
        raise AssertionError(f"{path}: exit {result.returncode}: {result.stderr.decode()}")
    return {link["name"]: link for link in json.loads(result.stdout)["links"]}


def line_diff(before, after):
    """Lines only in before and only in after."""
    removed, added = [], []
    for line in difflib.ndiff(before.decode().splitlines(), after.decode().splitlines()):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


class Export(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ballast-cli-export-")
        self.addCleanup(shutil.rmtree, self.dir)

    def out(self, name="out.sdf"):
        return os.path.join(self.dir, name)

    def export(self, source, *args, status=0):
        result = run("export", source, "-o", self.out(), *args)
        self.assertEqual(result.returncode, status, result.stderr.decode())
        return result

    def assertClose(self, actual, expected, rel=1e-12):
        self.assertLessEqual(abs(actual - expected), rel * max(abs(expected), 1.0),
                             f"expected {expected!r}, got {actual!r}")

    # -- round trips ---------------------------------------------------------

    def test_every_fixture_is_copied_byte_for_byte(self):
        for path in fixtures():
            with self.subTest(path=path):
                result = self.export(path)
                self.assertEqual(read(self.out()), read(path))
                self.assertEqual(result.stderr, b"")

    def test_standard_output(self):
        path = fixture("gzsim_examples_worlds_shapes.sdf")
        result = run("export", path, "-o", "-")
        self.assertEqual(result.returncode, 0)
        self.assertEqual(result.stdout, read(path))

    # -- each edit kind --------------------------------------------------------

    def test_set_mass(self):
        source = fixture("sdformat_test_sdf_inertial_stats.sdf")
        result = self.export(source, "--set", "test_model::link_3:mass=7")
        removed, added = line_diff(read(source), read(self.out()))
        self.assertEqual(removed, ["          <mass>6.0</mass>"])
        self.assertEqual(added, ["          <mass>7</mass>"])
        self.assertNotIn(b"raised", result.stderr)
        links = inspect(self.out())
        self.assertEqual(links["test_model::link_3"]["mass"], 7)
        self.assertEqual(links["test_model::link_1"]["mass"], 6)

    def test_set_link_density(self):
        source = fixture("sdformat_test_sdf_inertial_stats_auto.sdf")
        self.export(source, "--set", "test_model::link_1:density=12")
        removed, added = line_diff(read(source), read(self.out()))
        self.assertEqual(removed, ["          <density>6</density>"])
        self.assertEqual(added, ["          <density>12</density>"])
        # Unit cube, ρ 12: m 12, I = m(1² + 1²)/12 = 2.
        link = inspect(self.out())["test_model::link_1"]
        self.assertClose(link["mass"], 12)
        self.assertClose(link["inertia"][0], 2)
        self.assertClose(link["inertia"][2], 2)

    def test_set_collision_density(self):
        source = fixture("gzsim_examples_worlds_auto_inertia_pendulum.sdf")
        before = inspect(source)["pendulum::upper_link"]["mass"]
        self.export(source, "--set", "pendulum::upper_link/col_upper_joint:density=4000")
        removed, added = line_diff(read(source), read(self.out()))
        self.assertEqual(removed, ["          <density>8000</density>"])
        self.assertEqual(added, ["          <density>4000</density>"])
        # Cylinder r 0.1 l 0.3 loses half of ρ 8000.
        after = inspect(self.out())["pendulum::upper_link"]["mass"]
        self.assertClose(after, before - 4000 * math.pi * 0.01 * 0.3)

    def test_set_auto_raises_version(self):
        source = fixture("sdformat_test_sdf_inertial_stats.sdf")
        result = self.export(source, "--set", "test_model::link_4:auto=true")
        removed, added = line_diff(read(source), read(self.out()))
        self.assertEqual(removed, ['<sdf version="1.6">', "        <inertial>"])
        self.assertEqual(added, ['<sdf version="1.11">', '        <inertial auto="true">'])
        self.assertIn(b"raised from 1.6 to 1.11", result.stderr)
        # <mass>6.0</mass> rescales the unit cube: I = 6·2/12 = 1.
        link = inspect(self.out())["test_model::link_4"]
        self.assertTrue(link["auto"])
        self.assertClose(link["mass"], 6)
        self.assertClose(link["inertia"][0], 1)

    def test_set_added_mass(self):
        source = fixture("sdformat_test_sdf_inertial_complete.sdf")
        result = self.export(source, "--set", "model::link:pq=-4.5")
        removed, added = line_diff(read(source), read(self.out()))
        self.assertEqual(removed, ['<sdf version="1.6">', "          <pq>45.0</pq>"])
        self.assertEqual(added, ['<sdf version="1.10">', "          <pq>-4.5</pq>"])
        self.assertIn(b"raised from 1.6 to 1.10", result.stderr)
        # Spec order xx xy xz xp xq xr yy yz yp yq yr zz zp zq zr pp pq …: pq is the 17th.
        values = inspect(self.out())["model::link"]["added_mass"]
        self.assertEqual(values[16], -4.5)
        self.assertEqual(values[15], 44)

    def test_version_never_lowered(self):
        source = fixture("gzsim_examples_worlds_shapes.sdf")  # 1.11
        result = self.export(source, "--set", "box::box_link:xx=1")
        self.assertNotIn(b"raised", result.stderr)
        self.assertIn(b'<sdf version="1.11">', read(self.out()))

    def test_several_sets_in_order(self):
        source = fixture("sdformat_test_sdf_inertial_stats.sdf")
        self.export(source, "--set", "test_model::link_1:mass=2", "--set", "test_model::link_1:mass=3")
        self.assertEqual(inspect(self.out())["test_model::link_1"]["mass"], 3)

    # -- bake ----------------------------------------------------------------

    def test_bake(self):
        for name in ["gzsim_examples_worlds_auto_inertia_pendulum.sdf",
                     "gzsim_examples_worlds_shapes.sdf",
                     "sdformat_test_sdf_inertial_stats_auto.sdf",
                     "sdformat_test_sdf_inertial_stats_auto_mass.sdf",
                     "models/cylinder_dae/model.sdf",
                     "models/cylinder_dae_bottom_origin/model.sdf"]:
            with self.subTest(name=name):
                # A copy with its meshes, so relative URIs resolve beside the output.
                work = os.path.join(self.dir, name.replace("/", "_") + ".d")
                if name.startswith("models/"):
                    shutil.copytree(os.path.dirname(fixture(name)), work)
                else:
                    os.mkdir(work)
                    shutil.copy(fixture(name), work)
                source = os.path.join(work, os.path.basename(name))
                out = os.path.join(work, "baked.sdf")
                result = run("export", source, "-o", out, "--bake")
                self.assertEqual(result.returncode, 0, result.stderr.decode())
                before, after = inspect(source), inspect(out)
                baked = [l for l in before.values() if l["auto"]]
                self.assertGreater(len(baked), 0)
                for link in baked:
                    self.assertIn(f"baked {link['name']}".encode(), result.stderr)
                self.assertEqual(sorted(before), sorted(after))
                for name_, link in after.items():
                    self.assertFalse(link["auto"])
                    was = before[name_]
                    self.assertClose(link["mass"], was["mass"])
                    for a, b in zip(link["com"], was["com"]):
                        self.assertClose(a, b)
                    scale = max(abs(v) for v in was["inertia"])
                    for a, b in zip(link["inertia"], was["inertia"]):
                        self.assertLessEqual(abs(a - b), 1e-12 * scale)
                    self.assertEqual(link["added_mass"], was["added_mass"])
                lint = subprocess.run(["xmllint", "--noout", out], capture_output=True)
                self.assertEqual(lint.returncode, 0, lint.stderr.decode())

    def test_bake_failure_writes_nothing(self):
        # box.dae is not stored: the automatic inertia cannot be computed.
        result = self.export(fixture("sdformat_test_sdf_mesh_auto_inertial.sdf"), "--bake", status=1)
        self.assertIn(b"cannot bake", result.stderr)
        self.assertFalse(os.path.exists(self.out()))

    # -- errors ----------------------------------------------------------------

    def test_bad_edits_write_nothing(self):
        source = fixture("sdformat_test_sdf_inertial_stats.sdf")
        cases = [
            ("nope::link:mass=1", 1),
            ("test_model::link_1/nope:density=1", 1),
            ("test_model::link_1:density=-5", 1),
            ("test_model::link_1:mass=0", 1),
            ("test_model::link_1:mass=abc", 1),
            ("test_model::link_1:mass=nan", 1),
            ("test_model::link_1:auto=maybe", 1),
            ("test_model::link_1:colour=1", 2),
            ("test_model::link_1", 2),
            ("test_model::link_1/collision_1:mass=1", 2),
        ]
        for edit, status in cases:
            with self.subTest(edit=edit):
                # A good edit first: nothing at all may be written.
                result = self.export(source, "--set", "test_model::link_2:mass=2", "--set", edit,
                                     status=status)
                self.assertNotEqual(result.stderr, b"")
                self.assertFalse(os.path.exists(self.out()))

    def test_refuses_to_overwrite_input(self):
        path = self.out("model.sdf")
        shutil.copy(fixture("sdformat_test_sdf_inertial_stats.sdf"), path)
        original = read(path)
        for args in (["-o", path], []):
            with self.subTest(args=args):
                result = run("export", path, *args, "--set", "test_model::link_1:mass=2")
                self.assertEqual(result.returncode, 2)
                self.assertIn(b"--in-place", result.stderr)
                self.assertEqual(read(path), original)

    def test_in_place_keeps_permissions(self):
        path = self.out("model.sdf")
        shutil.copy(fixture("sdformat_test_sdf_inertial_stats.sdf"), path)
        os.chmod(path, 0o604)
        result = run("export", path, "--in-place", "--set", "test_model::link_1:mass=2")
        self.assertEqual(result.returncode, 0, result.stderr.decode())
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o604)
        self.assertEqual(inspect(path)["test_model::link_1"]["mass"], 2)
        self.assertEqual(os.listdir(self.dir), ["model.sdf"])

    def test_failed_save(self):
        source = fixture("sdformat_test_sdf_inertial_stats.sdf")
        missing = os.path.join(self.dir, "missing", "out.sdf")
        result = run("export", source, "-o", missing)
        self.assertEqual(result.returncode, 1)
        self.assertIn(b"does not exist", result.stderr)

        folder = os.path.join(self.dir, "folder")
        os.mkdir(folder)
        result = run("export", source, "-o", folder)
        self.assertEqual(result.returncode, 1)
        self.assertTrue(os.path.isdir(folder))
        self.assertEqual(os.listdir(folder), [])

    def test_usage(self):
        source = fixture("sdformat_test_sdf_inertial_stats.sdf")
        self.assertEqual(run("export", source).returncode, 2)
        self.assertEqual(run("export").returncode, 2)
        self.assertEqual(run("export", "-o", self.out()).returncode, 2)
        self.assertEqual(run("export", source, "-o", self.out(), "--no-such-option").returncode, 2)
        self.assertEqual(run("export", os.path.join(self.dir, "absent.sdf"), "-o", self.out()).returncode, 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
