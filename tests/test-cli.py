#!/usr/bin/env python3
"""ballast-cli as scripts use it: exit statuses, JSON shape and values.

Usage: test-cli.py PATH-TO-BALLAST-CLI.  Expected values are closed forms or
the reference values of docs/reference/inertia.md §8, never the
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
# the fixtures' models (models/robot, which a fixture includes by its bare
# name) are on the model path, as Gazebo users put theirs
os.environ["SDF_PATH"] = os.path.join(FIXTURES, "models")


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
                self.assertIn(doc["sdf_version"], ["1.5", "1.6", "1.7", "1.8", "1.11"])
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

    def test_link_pose_in_world(self):
        # Model at (1, 2, 3) turned a quarter turn about z, a nested model one
        # metre along the model's x, its link one metre along its own y: the
        # link sits at (1, 2, 3) + Rz(90°)·(1, 1, 0) = (0, 3, 3), turned by a
        # quarter turn (w = z = √½).
        path = write_sdf(self, '<?xml version="1.0"?><sdf version="1.11"><world name="w">'
                         '<model name="m"><pose>1 2 3 0 0 1.5707963267948966</pose>'
                         '<model name="n"><pose>1 0 0 0 0 0</pose><link name="l">'
                         '<pose>0 1 0 0 0 0</pose></link></model></model></world></sdf>')
        link = self.link(inspect_json(path), "m::n::l")
        for actual, expected in zip(link["pose"]["position"], (0, 3, 3)):
            self.assertLess(abs(actual - expected), 1e-12)
        half = math.sqrt(0.5)
        for actual, expected in zip(link["pose"]["orientation"], (half, 0, 0, half)):
            self.assertLess(abs(actual - expected), 1e-12)

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

    def test_number_arrays(self):
        # Arrays of numbers as JSON has them: −0 written 0, non-finite
        # values null, after a key and inside an array of arrays.  The
        # link z (m = 2, centre of mass (−0, 0.1, −0)) has the spatial
        # inertia's first row (m, 0, 0, 0, m c_z, −m c_y) = (2, 0, 0, 0, 0,
        # −0.2); big (m = 1e308 at x = 10) overflows m c_x, and what is
        # made from it is inf or NaN.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "numbers.sdf")
            with open(path, "w") as f:
                f.write('<?xml version="1.0"?>\n<sdf version="1.11"><model name="m">\n'
                        '<link name="z"><inertial><pose>-0 0.1 -0 0 0 0</pose><mass>2</mass><inertia>'
                        '<ixx>0.5</ixx><iyy>0.25</iyy><izz>1e-300</izz><ixy>-0</ixy><ixz>0</ixz><iyz>0</iyz>'
                        '</inertia></inertial></link>\n'
                        '<link name="big"><inertial><pose>10 0 0 0 0 0</pose><mass>1e308</mass><inertia>'
                        '<ixx>1e308</ixx><iyy>1e308</iyy><izz>1e308</izz></inertia></inertial></link>\n'
                        '</model></sdf>\n')
            out = run("inspect", "--json", path).stdout
        self.assertIn('"com":[0,0.1,0],"inertia":[0.5,0.25,1e-300,0,0,0],', out)
        self.assertIn('"spatial_inertia":[[2,0,0,0,0,-0.2],', out)
        self.assertIn('"spatial_inertia":[[1e+308,0,0,0,0,0],[0,1e+308,0,0,0,null],', out)
        self.assertIn(',[null,null,null,null,null,null]]', out)

    def test_names_in_json(self):
        # Text is copied as it is checked: UTF-8 beyond ASCII as it is,
        # quotes, backslashes and control characters escaped, whichever
        # comes first in the name; integers and short decimals in full.
        name = 'm\u00e9 "q" \\ \u4e2d\t\n'
        text = ('<?xml version="1.0" encoding="UTF-8"?>\n<sdf version="1.11">'
                '<model name="m\u00e9 &quot;q&quot; \\ \u4e2d&#9;&#10;"><link name="l">'
                '<pose>0 0 0 0 0 0</pose></link><link name="abcdefghijklm&quot;nopqrstuvw\\xyz0123456789\u00e9'
                '0123456789abcdef&#13;0123456789abcdef&#127;0123456789abcdefgh\u4e2d">'
                '<inertial><mass>4096</mass><inertia><ixx>100000000000000</ixx><iyy>0.5</iyy>'
                '<izz>126.3</izz></inertia></inertial></link></model></sdf>\n')
        with tempfile.NamedTemporaryFile("w", suffix=".sdf", encoding="utf-8", delete=False) as f:
            self.addCleanup(os.unlink, f.name)
            f.write(text)
        result = subprocess.run([CLI, "inspect", "--json", f.name], capture_output=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout.decode("utf-8")
        self.assertIn('"name":"m\u00e9 \\"q\\" \\\\ \u4e2d\\t\\n::l"', out)
        self.assertIn('"mass":4096,', out)
        self.assertIn('"inertia":[100000000000000,0.5,126.3,0,0,0]', out)
        self.assertEqual(json.loads(out)["links"][0]["name"], name + "::l")
        # the same eight bytes at a time as one by one, wherever a byte to
        # look at falls
        self.assertIn('"name":"m\u00e9 \\"q\\" \\\\ \u4e2d\\t\\n::abcdefghijklm\\"nopqrstuvw\\\\xyz0123456789'
                      '\u00e90123456789abcdef\\r0123456789abcdef\x7f0123456789abcdefgh\u4e2d"', out)

    def test_names_at_every_offset(self):
        # A character to escape or beyond ASCII (two, three and four bytes
        # of UTF-8) at each place of names of 1 to 20 bytes, before, in and
        # after the words of eight bytes the writer copies whole: each
        # name reads back as it was written.
        specials = ['"', "\\", "\t", "\u00e9", "\u4e2d", "\U0001f600", "\x7f"]
        names = []
        for length in range(1, 21):
            for at in range(length):
                for special in specials:
                    names.append("a" * at + special + "b" * (length - at - 1))
        links = "".join('<link name="%s"/>' % n.replace("&", "&amp;").replace('"', "&quot;").replace("\t", "&#9;")
                        for n in names)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "names.sdf")
            with open(path, "w", encoding="utf-8") as f:
                f.write('<?xml version="1.0" encoding="UTF-8"?>\n<sdf version="1.11"><model name="m">'
                        + links + "</model></sdf>\n")
            doc = inspect_json(path)
        self.assertEqual([link["name"] for link in doc["links"]], ["m::" + n for n in names])

    def test_missing_mesh_is_a_diagnostic(self):
        doc = inspect_json(os.path.join(FIXTURES, "sdformat_test_sdf_mesh_auto_inertial.sdf"))
        errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
        self.assertTrue(errors)
        self.assertTrue(any("box.dae" in d["message"] for d in errors), errors)
        self.assertTrue(all(d["line"] > 0 for d in errors))


class Meshes(unittest.TestCase):
    """gz-sim's COLLADA cylinders (r 1, l 2, ρ 1240): docs/reference/inertia.md §8.10."""

    def check(self, model, com_z):
        doc = inspect_json(os.path.join(FIXTURES, "models", model, "model.sdf"))
        link = doc["links"][0]
        self.assertTrue(link["auto"])
        self.assertTrue(link["valid"])
        self.assertLess(abs(link["mass"] - 7791.14687) / 7791.14687, 1e-6)
        ixx, iyy, izz = link["inertia"][:3]
        for value, expected in ((ixx, 4544.83494), (iyy, 4544.83494), (izz, 3895.57198)):
            self.assertLess(abs(value - expected) / expected, 1e-6)
        # within 0.1 % of the ideal cylinder
        self.assertLess(abs(link["mass"] - 1240 * math.pi * 2) / (1240 * math.pi * 2), 1e-3)
        self.assertLess(abs(link["com"][2] - com_z), 1e-9)
        mesh = link["collisions"][0]["mesh"]
        self.assertEqual(mesh["triangles"], 16380)
        self.assertTrue(mesh["watertight"])
        self.assertLess(abs(mesh["volume"] - 6.28318296), 1e-7)
        self.assertEqual(mesh["warnings"], [])

    def test_cylinder(self):
        self.check("cylinder_dae", 0.0)

    def test_cylinder_bottom_origin(self):
        self.check("cylinder_dae_bottom_origin", 1.0)

    def libraries_loaded(self, *args):
        """The shared libraries the dynamic linker loads for ballast-cli ARGS."""
        env = dict(os.environ, LD_DEBUG="files")
        result = run(*args, env=env)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stderr

    def test_assimp_only_when_a_mesh_needs_it(self):
        # assimp (and libstdc++, draco) are loaded for the first mesh that
        # assimp reads, not at every start: half of the start's CPU
        self.assertFalse("libassimp" in self.libraries_loaded("--version"), "assimp loaded at start")
        self.assertFalse("libassimp" in self.libraries_loaded("inspect", "--json"), "assimp loaded at start")
        dae = os.path.join(FIXTURES, "models", "cylinder_dae", "model.sdf")
        self.assertTrue("libassimp" in self.libraries_loaded("inspect", "--json", dae), "assimp not loaded")


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
        def check_link(mass, izz):
            with tempfile.NamedTemporaryFile("w", suffix=".sdf", delete=False) as f:
                f.write('<?xml version="1.0"?><sdf version="1.11"><model name="m"><link name="l">'
                        '<inertial><mass>%s</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>%s</izz>'
                        '</inertia></inertial></link></model></sdf>' % (mass, izz))
            try:
                return run("check", f.name)
            finally:
                os.unlink(f.name)

        invalid = check_link("1", "3")
        self.assertEqual(invalid.returncode, 1)
        self.assertIn("m::l", invalid.stdout)
        # Warnings do not fail the check, but are counted: a value split by
        # a comment (libsdformat reads only "1") is one.
        warned = check_link("1<!-- c -->2", "1")
        self.assertEqual(warned.returncode, 0, warned.stdout)
        self.assertIn("1 link, all valid; 1 warning", warned.stdout)
        self.assertNotIn("warning", good.stdout.replace("all valid", ""))


    def nested(self, depth):
        """A file of DEPTH models nested in one another, one link innermost."""
        text = ('<?xml version="1.0"?>\n<sdf version="1.11">\n' +
                "".join('<model name="m%d">' % i for i in range(depth)) +
                '<link name="l"><inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy>'
                '<izz>1</izz></inertia></inertial></link>' + "</model>" * depth + "\n</sdf>\n")
        return write_sdf(self, text)

    def test_large_output_written_as_made(self):
        # The JSON is written out whenever 64 KiB of it are ready: a model
        # whose output is many MiB, the diagnostics most of it, comes out
        # whole and in order.  Each link's box of side 1 m and density 1000
        # weighs 1000 kg; its second box, of density 0, is an error and
        # adds nothing.
        n = 4000
        with tempfile.NamedTemporaryFile("w", suffix=".sdf", delete=False) as f:
            self.addCleanup(os.unlink, f.name)
            f.write('<sdf version="1.11"><model name="m">')
            for i in range(n):
                f.write(f'<link name="l{i}"><inertial auto="true"/>'
                        f'<collision name="a"><density>1000</density><geometry><box><size>1 1 1</size></box></geometry></collision>'
                        f'<collision name="b"><density>0</density><geometry><box><size>1 1 1</size></box></geometry></collision>'
                        '</link>')
            f.write("</model></sdf>")
        result = run("inspect", "--json", f.name)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertGreater(len(result.stdout), 3 << 20)
        doc = json.loads(result.stdout)
        self.assertEqual([l["name"] for l in doc["links"]], [f"m::l{i}" for i in range(n)])
        for link in doc["links"]:
            self.assertEqual(link["mass"], 1000)
        self.assertGreaterEqual(len(doc["diagnostics"]), n)
        self.assertEqual(sorted({d["element"].split("/")[0] for d in doc["diagnostics"]}),
                         sorted(f"m::l{i}" for i in range(n)))

    def test_any_depth(self):
        # The loader reads models nested 65 deep (the top one and 64 more)
        # and reports deeper ones; libxml2 reads 256 elements deep (here 252
        # models) and refuses more.  Every command writes what it read.
        for depth, n_links, refused in ((31, 1, False), (65, 1, False), (66, 0, False),
                                        (250, 0, False), (252, 0, False), (253, 0, True)):
            path = self.nested(depth)
            result = run("inspect", "--json", path)
            table = run("inspect", path)
            out = tempfile.mktemp(suffix=".sdf")
            export = run("export", "-o", out, path)
            self.addCleanup(lambda p=out: os.path.exists(p) and os.unlink(p))
            if refused:
                for r in (result, table, export):
                    self.assertEqual(r.returncode, 1, depth)
                    self.assertIn("Excessive depth", r.stderr)
                    self.assertNotIn("Traceback", r.stderr)
                continue
            for r in (result, table, export):
                self.assertEqual(r.returncode, 0, (depth, r.stderr))
            doc = json.loads(result.stdout)
            self.assertEqual(len(doc["links"]), n_links, depth)
            if n_links:
                self.assertEqual(doc["links"][0]["name"],
                                 "::".join("m%d" % i for i in range(depth)) + "::l")
                self.assertEqual(doc["links"][0]["mass"], 2)
            else:
                self.assertIn("depth", [d["code"] for d in doc["diagnostics"]])
            # the models as deep as they were read, each in its parent's "models"
            model, levels = doc["models"][0], 1
            while model["models"]:
                model, levels = model["models"][0], levels + 1
            self.assertEqual(levels, min(depth, 65))
            with open(path) as a, open(out) as b:
                self.assertEqual(a.read(), b.read())


# --- Fluid added mass and buoyancy (docs/reference/added-mass.md) ---------

def write_sdf(test, text):
    """A temporary SDF file removed after the test."""
    f = tempfile.NamedTemporaryFile("w", suffix=".sdf", delete=False)
    f.write(text)
    f.close()
    test.addCleanup(os.unlink, f.name)
    return f.name


def fixture(name):
    return os.path.join(FIXTURES, name + ".sdf")


def flags(link):
    """The added-mass checks raised at warning or error level on a link."""
    return {d["code"] for d in link["diagnostics"]
            if d["code"] in ("A3", "A4", "A6") and d["severity"] in ("warning", "error")}


class AddedMassChecks(unittest.TestCase):
    """The fixture table of docs/reference/added-mass.md §2.1 through inspect --json."""

    # model → (λmin(A), λmin(M_RB + A), flags); values as printed in §2.1.
    TABLE = {
        "gzsim_examples_worlds_fluid_added_mass": {
            "sphere_in_water": (0, 0.1, {"A6"}),
            "sphere_in_air": (0, 0.1, set()),
            "box_diagonal": (0, 0.1, set()),
            "box_xx_xy_xz": (-0.261666, 0.1, {"A3"}),
            "box_xy": (-0.261666, 0.1, {"A3"}),
        },
        "gzsim_test_worlds_fluid_added_mass": dict(
            [(f"box_{a}{a}", (0, 0.1, set())) for a in "xyz"]
            + [(f"box_{a}{a}", (0, 0.1, {"A6"})) for a in "pqr"]
            + [(f"box_{a}", (-0.261666, 0.1, {"A3"})) for a in ("xy", "xz", "yz")]
            + [(f"box_{a}{b}", (-0.261666, 0.0294531, {"A3"})) for a in "xyz" for b in "pqr"]
            + [(f"box_{a}", (-0.261666, -0.161666, {"A3", "A4"})) for a in ("pq", "pr", "qr")]),
        "gzsim_test_worlds_added_mass_full_matrix": {"body": (-0.818367, 0.181633, {"A3"})},
        "gzsim_test_worlds_added_mass_ellipsoids": {
            "body1": (0, 107.338, set()),
            "body2": (0, 107.338, set()),
            "body3": (0, 107.338, {"A6"}),
        },
        "gzsim_test_worlds_lighter_than_air_dynamics": {"hull": (1.60094e-4, 7.14622e-3, {"A6"})},
        "mbari_wec_singlefloatingbody_heave": {"SingleBuoy": (0, 670, {"A6"})},
        "sdformat_test_sdf_inertial_complete": {"model": (2.37876, 3.00233, {"A6"})},
    }

    def assertSig(self, actual, expected):
        """Agreement to the 6 significant digits §2.1 prints (absolute 1e-6 at 0)."""
        self.assertLessEqual(abs(actual - expected), max(5e-6 * abs(expected), 1e-6),
                             f"expected {expected}, got {actual}")

    def test_fixture_table(self):
        for name, models in self.TABLE.items():
            doc = inspect_json(fixture(name))
            for model, (lmin, total_min, expected_flags) in models.items():
                with self.subTest(file=name, model=model):
                    links = [l for l in doc["links"] if l["name"].startswith(model + "::")]
                    self.assertEqual(len(links), 1, [l["name"] for l in doc["links"]])
                    link = links[0]
                    self.assertIsNotNone(link["added_mass_eigenvalues"])
                    self.assertSig(link["added_mass_eigenvalues"][0], lmin)
                    self.assertSig(link["total_eigenvalues"][0], total_min)
                    self.assertEqual(flags(link), expected_flags)
                    for d in link["diagnostics"]:
                        if d["code"] in ("A3", "A4", "A6"):
                            # On the <fluid_added_mass> element's line.
                            self.assertTrue(d["element"].endswith("/inertial/fluid_added_mass"))
                            self.assertGreater(d["line"], 0)

    def test_a4_is_an_error(self):
        doc = inspect_json(fixture("gzsim_test_worlds_fluid_added_mass"))
        link = [l for l in doc["links"] if l["name"] == "box_pq::link"][0]
        a4 = [d for d in link["diagnostics"] if d["code"] == "A4"]
        self.assertEqual([d["severity"] for d in a4], ["error"])
        self.assertEqual(run("check", fixture("gzsim_test_worlds_fluid_added_mass")).returncode, 1)

    def test_spatial_inertia(self):
        # sphere_in_water: m 1, COM at the origin, I = 0.1·E3 → M_RB = diag(1,1,1,.1,.1,.1).
        doc = inspect_json(fixture("gzsim_examples_worlds_fluid_added_mass"))
        link = [l for l in doc["links"] if l["name"] == "sphere_in_water::link"][0]
        diag = [1, 1, 1, 0.1, 0.1, 0.1]
        for r in range(6):
            for c in range(6):
                self.assertAlmostEqual(link["spatial_inertia"][r][c], diag[r] if r == c else 0, 12)
        # §3.1 with the COM off the origin: inertial_complete, m 17.982,
        # c (0.01, 0, 0.02): row x is [m 0 0 0 m·cz −m·cy].
        doc = inspect_json(fixture("sdformat_test_sdf_inertial_complete"))
        row = doc["links"][0]["spatial_inertia"][0]
        expected = [17.982, 0, 0, 0, 17.982 * 0.02, 0]
        for a, e in zip(row, expected):
            self.assertAlmostEqual(a, e, 12)

    def test_every_link_has_the_new_fields(self):
        for path in fixtures():
            with self.subTest(path=path):
                doc = inspect_json(path)
                for link in doc["links"]:
                    self.assertEqual(len(link["spatial_inertia"]), 6)
                    self.assertTrue(all(len(row) == 6 for row in link["spatial_inertia"]))
                    self.assertGreaterEqual(link["volume"], 0)
                    if link["volume"] > 0:
                        self.assertEqual(len(link["center_of_buoyancy"]), 3)
                    else:
                        self.assertIsNone(link["center_of_buoyancy"])
                    if link["added_mass"] is None:
                        self.assertIsNone(link["added_mass_eigenvalues"])
                for model in doc["models"]:
                    self.assertIn("mass", model)
                    self.assertEqual(len(model["com"]), 3)
                    self.assertEqual(len(model["inertia"]), 6)

    def test_auto_link_reports_a9_once(self):
        # The built-in sample's hull is auto="true" with fluid_added_mass.
        doc = json.loads(run("inspect", "--json").stdout)
        hull = [l for l in doc["links"] if l["name"] == "sample_auv::hull"][0]
        self.assertEqual([d["code"] for d in hull["diagnostics"]].count("A9"), 1)

    def test_double_counting_and_engine(self):
        sdf = write_sdf(self, """<?xml version="1.0"?>
<sdf version="1.11"><world name="w">
  <plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics">
    <engine><filename>gz-physics-bullet-featherstone-plugin</filename></engine>
  </plugin>
  <model name="auv">
    <link name="body"><inertial><mass>100</mass>
      <inertia><ixx>10</ixx><iyy>10</iyy><izz>10</izz></inertia>
      <fluid_added_mass><xx>5</xx></fluid_added_mass></inertial></link>
    <link name="other"><inertial><mass>1</mass>
      <fluid_added_mass><xx>0.1</xx></fluid_added_mass></inertial></link>
    <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
      <link_name>body</link_name><xDotU>-4.876161</xDotU>
    </plugin>
  </model>
</world></sdf>""")
        doc = inspect_json(sdf)
        body = [l for l in doc["links"] if l["name"] == "auv::body"][0]
        other = [l for l in doc["links"] if l["name"] == "auv::other"][0]
        a7 = [d for d in body["diagnostics"] if d["code"] == "A7"]
        self.assertEqual([d["severity"] for d in a7], ["error"])
        self.assertNotIn("A7", [d["code"] for d in other["diagnostics"]])
        for link in (body, other):
            a8 = [d for d in link["diagnostics"] if d["code"] == "A8"]
            self.assertEqual([d["severity"] for d in a8], ["info"])
            self.assertIn("bullet-featherstone", a8[0]["message"])
        # With the plugin's added mass disabled and the default engine: neither.
        with open(sdf) as f:
            text = f.read()
        text = text.replace("<link_name>body</link_name>",
                            "<link_name>body</link_name><disable_added_mass>true</disable_added_mass>")
        text = text.replace("<engine><filename>gz-physics-bullet-featherstone-plugin</filename></engine>", "")
        doc = inspect_json(write_sdf(self, text))
        codes = {d["code"] for l in doc["links"] for d in l["diagnostics"]}
        self.assertNotIn("A7", codes)
        self.assertNotIn("A8", codes)


class Buoyancy(unittest.TestCase):
    """Displaced volume, centre of buoyancy and net buoyancy (docs/reference/added-mass.md §7)."""

    def assertClose(self, actual, expected, tol=1e-9):
        self.assertLessEqual(abs(actual - expected), tol * max(abs(expected), 1.0),
                             f"expected {expected!r}, got {actual!r}")

    def test_pendulum_upper_link(self):
        # §7.3: V = 0.0471238898 m³, r_B = (−0.01, 0, 0.5); in water 1000,
        # ρV = 47.1238898 kg against m = 113.0973355 kg.  The world has no
        # <gravity>: the SDF default 9.8.
        result = run("inspect", "--json", "--fluid-density", "1000",
                     fixture("gzsim_examples_worlds_auto_inertia_pendulum"))
        self.assertEqual(result.returncode, 0, result.stderr)
        doc = json.loads(result.stdout)
        self.assertEqual(doc["gravity"], [0, 0, -9.8])
        upper = [l for l in doc["links"] if l["name"] == "pendulum::upper_link"][0]
        self.assertClose(upper["volume"], 0.0471238898)
        for a, e in zip(upper["center_of_buoyancy"], (-0.01, 0, 0.5)):
            self.assertClose(a, e)
        b = upper["buoyancy"]
        self.assertEqual(b["fluid_density"], 1000)
        self.assertClose(b["displaced_mass"], 47.1238898)
        self.assertClose(b["net_mass"], 47.1238898 - 113.0973355)
        self.assertClose(b["net_force"], (47.1238898 - 113.0973355) * 9.8)

    def neutral_sphere(self, world):
        # Uniform material density equal to the fluid's: exactly neutral.
        model = ('<model name="ball"><link name="l"><inertial auto="true"><density>1000</density>'
                 '</inertial><collision name="c"><geometry><sphere><radius>0.5</radius></sphere>'
                 '</geometry></collision></link></model>')
        body = f'<world name="w">{world}{model}</world>' if world is not None else model
        return write_sdf(self, f'<?xml version="1.0"?><sdf version="1.11">{body}</sdf>')

    def test_neutral_sphere(self):
        for world in (None, "", "<gravity>0 0 -3.71</gravity>"):
            with self.subTest(world=world):
                result = run("inspect", "--json", "--fluid-density", "fresh-water",
                             self.neutral_sphere(world))
                self.assertEqual(result.returncode, 0, result.stderr)
                doc = json.loads(result.stdout)
                link = doc["links"][0]
                volume = 4 / 3 * math.pi * 0.125
                self.assertClose(link["volume"], volume)
                self.assertClose(link["buoyancy"]["displaced_mass"], 1000 * volume)
                self.assertLessEqual(abs(link["buoyancy"]["net_force"]), 1e-9)
                self.assertLessEqual(abs(link["buoyancy"]["net_mass"]), 1e-9)
                self.assertLessEqual(abs(link["buoyancy"]["vertical_offset"]), 1e-12)
                model = doc["models"][0]
                self.assertClose(model["volume"], volume)
                self.assertLessEqual(abs(model["buoyancy"]["net_force"]), 1e-9)

    def test_gravity(self):
        # No world: standard gravity; a world's <gravity> is used as written.
        cases = ((None, 9.80665), ("<gravity>0 0 -3.71</gravity>", 3.71))
        for world, g in cases:
            with self.subTest(world=world):
                result = run("inspect", "--json", "--fluid-density", "1025",
                             self.neutral_sphere(world))
                doc = json.loads(result.stdout)
                b = doc["links"][0]["buoyancy"]
                volume = 4 / 3 * math.pi * 0.125
                self.assertClose(b["net_mass"], 25 * volume)
                self.assertClose(b["net_force"], 25 * volume * g)

    BUOYANCY = ('<plugin filename="gz-sim-buoyancy-system" name="gz::sim::systems::Buoyancy">'
                '{}</plugin>')

    def world_sphere(self, density, plugin):
        # A sphere r 0.5 of uniform material density in a world whose
        # Buoyancy system is `plugin` (on line 3).
        return write_sdf(self, '<?xml version="1.0"?><sdf version="1.11">\n<world name="w">\n'
                         f'{plugin}\n<model name="ball"><link name="l"><inertial auto="true">'
                         f'<density>{density}</density></inertial><collision name="c"><geometry>'
                         '<sphere><radius>0.5</radius></sphere></geometry></collision></link></model>'
                         '</world></sdf>')

    def test_world_fluid(self):
        # The world's gz-sim Buoyancy system names the fluid (gz-sim's
        # lighter_than_air_blimp.sdf: air of 1.097 kg/m³); a body of that
        # density is neutral in it.  Without a density gz-sim takes 1000.
        volume = 4 / 3 * math.pi * 0.125
        cases = (
            (self.BUOYANCY.format("<uniform_fluid_density>1.097</uniform_fluid_density>"), 1.097, "world", 3),
            (self.BUOYANCY.format(""), 1000, "world", 3),
            ("", 1025, "default", None),
            # graded: the fluid below the lowest change (gz-sim's
            # buoyancy_shapes.sdf: water below 0, air above)
            (self.BUOYANCY.format("<graded_buoyancy><default_density>1000</default_density>"
                                  "<density_change><above_depth>0</above_depth><density>1</density>"
                                  "</density_change></graded_buoyancy>"), 1000, "world", 3),
            (self.BUOYANCY.format("<uniform_fluid_density>heavy</uniform_fluid_density>"),
             1025, "default", None),
        )
        for plugin, rho, source, line in cases:
            with self.subTest(plugin=plugin):
                sdf = self.world_sphere(rho, plugin)
                doc = inspect_json(sdf)
                self.assertEqual(doc["fluid_density"], rho)
                self.assertEqual(doc["fluid_density_source"], source)
                self.assertEqual(doc["fluid_density_line"], line)
                b = doc["links"][0]["buoyancy"]
                self.assertEqual(b["fluid_density"], rho)
                self.assertClose(b["displaced_mass"], rho * volume)
                self.assertLessEqual(abs(b["net_mass"]), 1e-9 * rho)
                estimate = json.loads(run("added-mass", "estimate", "--json", sdf).stdout)
                self.assertEqual(estimate["fluid_density"], rho)
                self.assertEqual(estimate["fluid_density_source"], source)
                # a sphere's added mass is half the displaced fluid's mass
                self.assertClose(estimate["links"][0]["fluid_added_mass"]["xx"], rho * volume / 2)

        # --fluid-density wins, and the table says what the world uses
        sdf = self.world_sphere(1.097, cases[0][0])
        doc = json.loads(run("inspect", "--json", "--fluid-density", "air", sdf).stdout)
        self.assertEqual(doc["fluid_density"], 1.225)
        self.assertEqual(doc["fluid_density_source"], "option")
        self.assertEqual(doc["fluid_density_line"], None)
        table = run("inspect", "--fluid-density", "air", sdf).stdout
        self.assertIn("fluid: 1.225 kg/m³ (air) from --fluid-density; the world's gz-sim Buoyancy "
                      "system (line 3) uses 1.097 kg/m³", table)
        table = run("inspect", sdf).stdout
        self.assertIn("fluid: 1.097 kg/m³, the <uniform_fluid_density> of the world's gz-sim "
                      "Buoyancy system (line 3)", table)
        self.assertIn("neutral", table)
        table = run("inspect", self.world_sphere(1, cases[3][0])).stdout
        self.assertIn("fluid: 1000 kg/m³ (fresh water), the deepest fluid of the world's gz-sim "
                      "Buoyancy system (line 3), which grades the density by depth", table)
        table = run("inspect", self.world_sphere(1, cases[4][0])).stdout
        self.assertIn("fluid: 1025 kg/m³ (sea water): the density “heavy” of the world's gz-sim "
                      "Buoyancy system (line 3) is no density", table)
        # no Buoyancy system: no line about the fluid
        self.assertNotIn("fluid:", run("inspect", self.world_sphere(1, "")).stdout)

    def test_world_fluid_real_files(self):
        # gz-sim's buoyancy.sdf: <uniform_fluid_density>1000 (line 44); its
        # submarine's body, 251.32741228718348 kg, is a cylinder r 0.2 l 2,
        # 80π dm³: neutral in it.  buoyancy_shapes.sdf grades its density,
        # 1000 below z = 0 (line 23), where its bodies of 1000 kg/m³ lie.
        doc = inspect_json(fixture("gzsim_examples_worlds_buoyancy"))
        self.assertEqual((doc["fluid_density"], doc["fluid_density_source"], doc["fluid_density_line"]),
                         (1000, "world", 44))
        body = self.link(doc, "submarine::body")
        self.assertClose(body["buoyancy"]["displaced_mass"], 80 * math.pi)
        self.assertLessEqual(abs(body["buoyancy"]["net_mass"]), 1e-9 * 80 * math.pi)
        doc = inspect_json(fixture("gzsim_test_worlds_buoyancy_shapes"))
        self.assertEqual((doc["fluid_density"], doc["fluid_density_source"], doc["fluid_density_line"]),
                         (1000, "world", 23))
        # the file rounds its masses: 251.33 kg against 80π
        cylinder = self.link(doc, "cylinder_neutral::body")
        self.assertClose(cylinder["buoyancy"]["net_mass"], 80 * math.pi - 251.33)

    def link(self, doc, name):
        for link in doc["links"]:
            if link["name"] == name:
                return link
        self.fail(f"no link {name}")

    def test_explicit_link_and_offset(self):
        # An explicit link still displaces its collisions' volume: a 1×2×3 box
        # at (0, 0, 1) and a sphere r 1 at the origin; COM at the origin.
        sdf = write_sdf(self, """<?xml version="1.0"?><sdf version="1.11"><model name="m">
  <link name="l"><inertial><mass>10</mass></inertial>
    <collision name="box"><pose>0 0 1 0 0 0</pose><geometry><box><size>1 2 3</size></box></geometry></collision>
    <collision name="ball"><geometry><sphere><radius>1</radius></sphere></geometry></collision>
  </link></model></sdf>""")
        doc = inspect_json(sdf)
        link = doc["links"][0]
        vb, vs = 6.0, 4 / 3 * math.pi
        self.assertClose(link["volume"], vb + vs)
        self.assertClose(link["center_of_buoyancy"][2], vb * 1 / (vb + vs))
        self.assertClose(link["buoyancy"]["vertical_offset"], vb / (vb + vs))
        self.assertEqual([c["volume"] for c in link["collisions"]][0], 6)

    def test_table_shows_buoyancy(self):
        result = run("inspect", "--fluid-density", "1000",
                     fixture("gzsim_examples_worlds_auto_inertia_pendulum"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("volume     0.0471239 m³", result.stdout)
        self.assertIn("fresh water", result.stdout)
        self.assertIn("sinks", result.stdout)
        self.assertIn("model pendulum", result.stdout)

    def test_no_rounding_noise(self):
        # gz-sim's shapes world: each shape's centre of buoyancy is its COM,
        # so the offset is 0 exactly; in doubles it came out as 8e-18 m below.
        result = run("inspect", fixture("gzsim_examples_worlds_shapes"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotRegex(result.stdout, r"e-1[3-9]|e-[2-9][0-9]")
        self.assertIn("centre of buoyancy 0 m above the COM", result.stdout)

    def test_bad_density(self):
        for value in ("0", "-1", "water", "nan"):
            with self.subTest(value=value):
                self.assertEqual(run("inspect", "--fluid-density", value).returncode, 2)


class AddedMassEstimate(unittest.TestCase):
    SPHERE = """<?xml version="1.0"?><sdf version="1.11"><model name="m">
  <link name="ball"><inertial><mass>1</mass></inertial>
    <collision name="c"><geometry><sphere><radius>0.5</radius></sphere></geometry></collision></link>
  <link name="off"><inertial><mass>1</mass></inertial>
    <collision name="c"><pose>1 0 0 0 0 0</pose><geometry><sphere><radius>0.5</radius></sphere></geometry></collision>
    <collision name="ground"><geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link>
</model></sdf>"""

    def estimate(self, *args):
        result = run("added-mass", "estimate", "--json", *args)
        self.assertEqual(result.returncode, 0, result.stderr)
        doc = json.loads(result.stdout)
        self.assertTrue(doc["estimate"])
        return doc

    def test_sphere(self):
        # §6.3: r 0.5 in water 1000 → ⅔πρR³ = 261.7993878 kg on each translation.
        doc = self.estimate("--fluid-density", "1000", "--link", "m::ball", write_sdf(self, self.SPHERE))
        self.assertEqual(doc["fluid_density"], 1000)
        self.assertEqual([l["name"] for l in doc["links"]], ["m::ball"])
        values = doc["links"][0]["fluid_added_mass"]
        for key in ("xx", "yy", "zz"):
            self.assertAlmostEqual(values[key], 261.7993878, 6)
        for key, value in values.items():
            if key not in ("xx", "yy", "zz"):
                self.assertEqual(value, 0, key)
        collision = doc["links"][0]["collisions"][0]
        self.assertEqual(collision["translation_quality"], "exact")
        self.assertTrue(collision["method"])

    def test_shifted_sphere(self):
        # §4.1: a diagonal a·E3 centred at r = (d, 0, 0) gives yr = +a·d,
        # zq = −a·d and qq = rr = a·d²; the plane adds nothing.
        a = 2 / 3 * math.pi * 1025 * 0.125
        doc = self.estimate("--link", "off", write_sdf(self, self.SPHERE))
        link = doc["links"][0]
        values = link["fluid_added_mass"]
        expected = {"xx": a, "yy": a, "zz": a, "yr": a, "zq": -a, "qq": a, "rr": a}
        for key, value in values.items():
            self.assertAlmostEqual(value, expected.get(key, 0), 9, key)
        self.assertEqual([c["estimated"] for c in link["collisions"]], [True, False])

    def test_presets(self):
        air = self.estimate("--fluid-density", "air", "--link", "m::ball", write_sdf(self, self.SPHERE))
        self.assertAlmostEqual(air["links"][0]["fluid_added_mass"]["xx"],
                               2 / 3 * math.pi * 1.225 * 0.125, 12)

    def test_rough_labels_and_text(self):
        sdf = write_sdf(self, """<?xml version="1.0"?><sdf version="1.11"><model name="m">
  <link name="l"><inertial><mass>1</mass></inertial>
    <collision name="pill"><geometry><capsule><radius>0.1</radius><length>1</length></capsule></geometry></collision>
  </link></model></sdf>""")
        doc = self.estimate(sdf)
        collision = doc["links"][0]["collisions"][0]
        self.assertEqual(collision["translation_quality"], "rough")
        text = run("added-mass", "estimate", sdf)
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("ESTIMATE", text.stdout)
        self.assertIn("rough", text.stdout)
        self.assertIn("<fluid_added_mass>", text.stdout)

    def test_usage(self):
        sdf = write_sdf(self, self.SPHERE)
        self.assertEqual(run("added-mass").returncode, 2)
        self.assertEqual(run("added-mass", "frobnicate", sdf).returncode, 2)
        self.assertEqual(run("added-mass", "estimate").returncode, 2)
        self.assertEqual(run("added-mass", "estimate", "--fluid-density", "-3", sdf).returncode, 2)
        self.assertEqual(run("added-mass", "estimate", "--link", "nope", sdf).returncode, 1)


class AddedMassImport(unittest.TestCase):
    """Each import against a conversion done by hand from docs/reference/added-mass.md §5."""

    def imports(self, text):
        result = run("added-mass", "import", "--json", write_sdf(self, text))
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)["imports"]

    def assertValues(self, values, expected):
        for key, value in values.items():
            self.assertAlmostEqual(value, expected.get(key, 0), 9, key)

    def test_hydrodynamics(self):
        # §5.1 (gz-sim Migration.md): xDotU −4.876161 → xx 4.876161, mDotQ −33.46
        # → qq 33.46; xDotQ −1 and mDotU −1.2 are the same element: xq 1.1, A2.
        (imp,) = self.imports("""<?xml version="1.0"?><sdf version="1.11"><model name="tethys">
  <link name="base_link"><inertial><mass>147.8671</mass>
    <inertia><ixx>3</ixx><iyy>41</iyy><izz>41</izz></inertia></inertial></link>
  <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
    <link_name>base_link</link_name>
    <xDotU>-4.876161</xDotU><mDotQ>-33.46</mDotQ><xDotQ>-1</xDotQ><mDotU>-1.2</mDotU>
    <xUabsU>-6.2282</xUabsU>
  </plugin></model></sdf>""")
        self.assertEqual(imp["source"], "gz-sim Hydrodynamics")
        self.assertEqual(imp["link"], "tethys::base_link")
        self.assertValues(imp["fluid_added_mass"], {"xx": 4.876161, "qq": 33.46, "xq": 1.1})
        self.assertIn("A2", [n["id"] for n in imp["notes"]])
        # qq 33.46 against M_RB,qq 41 is a ratio of 0.82: an A6 note, nothing worse.
        self.assertEqual([(c["id"], c["severity"]) for c in imp["checks"]], [("A6", "info")])

    def test_dsros(self):
        # §5.4: r p h are roll, pitch, yaw → p q r; given at the COM (0, 0, 0.5):
        # xx 10, yy 20, qq 3, rr 4, pq 0.5 at the COM; the shift by h = 0.5 adds
        # xq = +10·0.5, yp = −20·0.5, pp += 20·0.25, qq += 10·0.25.
        (imp,) = self.imports("""<?xml version="1.0"?><sdf version="1.11"><model name="veh">
  <link name="base_link"><inertial><pose>0 0 0.5 0 0 0</pose><mass>100</mass>
    <inertia><ixx>10</ixx><iyy>10</iyy><izz>10</izz></inertia></inertial></link>
  <plugin filename="libdsros_hydro_plugin.so" name="hydro"><base_link>base_link</base_link>
    <drag><added_mass><xx>10</xx><yy>20</yy><pp>3</pp><hh>4</hh><rp>0.5</rp></added_mass></drag>
  </plugin></model></sdf>""")
        self.assertEqual(imp["source"], "dsros_hydro")
        self.assertEqual(imp["link"], "veh::base_link")
        self.assertValues(imp["fluid_added_mass"],
                          {"xx": 10, "yy": 20, "xq": 5, "yp": -10, "pp": 5, "qq": 5.5, "rr": 4, "pq": 0.5})

    def test_uuv(self):
        # §5.3: 2·(Ma + 1·E6), then F·M·F flips xy xz xq xr yp zp pq pr; xz is
        # given as 2 and 2.002 (asymmetric): averaged to 2.001 before scaling.
        (imp,) = self.imports("""<?xml version="1.0"?><sdf version="1.11"><model name="rov">
  <link name="body"><inertial><mass>50</mass>
    <inertia><ixx>5</ixx><iyy>5</iyy><izz>5</izz></inertia></inertial></link>
  <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
    <link name="body"><hydrodynamic_model><type>fossen</type>
      <added_mass>10 1 2 0 3 0  1 20 0 4 0 0  2.002 0 30 0 0 0  0 4 0 5 0.5 0  3 0 0 0.5 6 0  0 0 0 0 0 7</added_mass>
      <scaling_added_mass>2</scaling_added_mass><offset_added_mass>1</offset_added_mass>
    </hydrodynamic_model></link>
  </plugin></model></sdf>""")
        self.assertEqual(imp["source"], "uuv_simulator")
        self.assertEqual(imp["link"], "rov::body")
        self.assertValues(imp["fluid_added_mass"],
                          {"xx": 22, "yy": 42, "zz": 62, "pp": 12, "qq": 14, "rr": 16,
                           "xy": -2, "xz": -4.002, "xq": -6, "yp": -8, "pq": -1})
        self.assertIn("A2", [n["id"] for n in imp["notes"]])
        # rr 16 against M_RB,rr 5: A6.
        self.assertIn("A6", [c["id"] for c in imp["checks"]])

    def test_text_and_nothing_to_import(self):
        sdf = write_sdf(self, """<?xml version="1.0"?><sdf version="1.11"><model name="m">
  <link name="l"><inertial><mass>1</mass></inertial></link>
  <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
    <link_name>l</link_name><xDotU>-2</xDotU></plugin></model></sdf>""")
        result = run("added-mass", "import", sdf)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("<xx>2</xx>", result.stdout)
        self.assertIn("negated", result.stdout)
        empty = run("added-mass", "import", fixture("sdformat_test_sdf_inertial_stats"))
        self.assertEqual(empty.returncode, 1)

    def test_import_lrauv_and_failed_include(self):
        # lrauv's tethys_equipped: the vehicle's own HydrodynamicsPlugin,
        # inside the <include> of the vehicle; when that include fails the
        # plugin is still found, and said to be in a model not loaded.
        plugin = """<plugin filename="HydrodynamicsPlugin" name="tethys::HydrodynamicsPlugin">
      <link_name>base_link</link_name><xDotU>-4.876161</xDotU><yDotV>-126.324739</yDotV>
      <zDotW>-126.324739</zDotW><kDotP>0</kDotP><mDotQ>-33.46</mDotQ><nDotR>-33.46</nDotR></plugin>"""
        sdf = write_sdf(self, f"""<?xml version="1.0"?><sdf version="1.9"><model name="tethys">
  <include merge="true"><uri>no_such_model_here</uri>
    {plugin}
  </include></model></sdf>""")
        result = run("added-mass", "import", "--json", sdf)
        doc = json.loads(result.stdout)
        self.assertEqual(len(doc["imports"]), 1, doc)
        found = doc["imports"][0]
        self.assertTrue(found["model_not_loaded"])
        self.assertIsNone(found["link"])
        text = run("added-mass", "import", sdf).stdout
        self.assertIn("MBARI LRAUV Hydrodynamics plugin", text)
        self.assertIn("whose model was not loaded", text)
        self.assertNotIn("no gz-sim", text)

        loaded = write_sdf(self, f"""<?xml version="1.0"?><sdf version="1.9"><model name="tethys">
  <link name="base_link"><inertial><mass>147.8671</mass></inertial></link>
  {plugin}</model></sdf>""")
        result = run("added-mass", "import", loaded)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("link tethys::base_link\n", result.stdout)
        self.assertIn("<xx>4.876161</xx>", result.stdout)
        self.assertIn("<qq>33.46</qq>", result.stdout)


# gz-sim's Migration.md example: the plugin's terms (Fossen's sign) become
# <fluid_added_mass> xx 4.876161, yy 126.324739 (positive).
HYDRO = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="auv">
    <link name="base_link">
      <inertial>
        <mass>100</mass>
        <inertia><ixx>10</ixx><iyy>40</iyy><izz>40</izz></inertia>
      </inertial>
    </link>
    <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
      <link_name>base_link</link_name>
      <xDotU>-4.876161</xDotU>
      <yDotV>-126.324739</yDotV>
      <xUabsU>-6.2282</xUabsU>
    </plugin>
  </model>
</sdf>
"""


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class AddedMassMigrate(unittest.TestCase):
    """added-mass import --apply / --migrate: one edit per plugin, written as export writes."""

    def out_path(self):
        path = tempfile.mktemp(suffix=".sdf")
        self.addCleanup(lambda: os.path.exists(path) and os.unlink(path))
        return path

    def codes(self, path):
        doc = inspect_json(path)
        (link,) = doc["links"]
        return {d["code"] for d in link["diagnostics"]}

    def test_migrate(self):
        sdf, out = write_sdf(self, HYDRO), self.out_path()
        result = run("added-mass", "import", "--migrate", "-o", out, sdf)
        self.assertEqual(result.returncode, 0, result.stderr)
        text = read(out)
        expected = HYDRO.replace('<sdf version="1.9">', '<sdf version="1.10">').replace(
            "        <inertia><ixx>10</ixx><iyy>40</iyy><izz>40</izz></inertia>\n",
            "        <inertia><ixx>10</ixx><iyy>40</iyy><izz>40</izz></inertia>\n"
            "        <fluid_added_mass>\n"
            "          <xx>4.876161</xx>\n"
            "          <yy>126.324739</yy>\n"
            "        </fluid_added_mass>\n").replace(
            "<xDotU>-4.876161</xDotU>", "<xDotU>0</xDotU>").replace(
            "<yDotV>-126.324739</yDotV>", "<yDotV>0</yDotV>").replace(
            "      <xUabsU>-6.2282</xUabsU>\n",
            "      <xUabsU>-6.2282</xUabsU>\n"
            "      <disable_added_mass>true</disable_added_mass>\n")
        self.assertEqual(text, expected)
        self.assertNotIn("A7", self.codes(out))
        self.assertIn("<disable_added_mass> true", result.stderr)
        # The moved plugin has nothing left to import.
        again = run("added-mass", "import", "--migrate", "-o", self.out_path(), out)
        self.assertEqual(again.returncode, 1)

    def test_apply_alone_counts_twice(self):
        sdf, out = write_sdf(self, HYDRO), self.out_path()
        result = run("added-mass", "import", "--apply", "-o", out, sdf)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("counts twice (A7)", result.stderr)
        self.assertIn("A7", self.codes(out))
        self.assertIn("<xDotU>-4.876161</xDotU>", read(out))

    def test_classic_plugin_refused(self):
        sdf = write_sdf(self, """<?xml version="1.0"?><sdf version="1.6"><model name="rov">
  <link name="base"><inertial><mass>10</mass></inertial></link>
  <plugin name="hydro" filename="libdsros_hydro_plugin.so">
    <drag><added_mass><xx>12</xx></added_mass></drag></plugin></model></sdf>""")
        out = self.out_path()
        result = run("added-mass", "import", "--migrate", "-o", out, sdf)
        self.assertEqual(result.returncode, 1)
        self.assertIn("Gazebo classic ignores <fluid_added_mass>", result.stderr)
        self.assertFalse(os.path.exists(out))
        applied = run("added-mass", "import", "--apply", "-o", out, sdf)
        self.assertEqual(applied.returncode, 0, applied.stderr)
        self.assertIn("<xx>12</xx>", read(out))

    def test_usage(self):
        sdf = write_sdf(self, HYDRO)
        self.assertEqual(run("added-mass", "import", "--migrate", sdf).returncode, 2)
        self.assertEqual(run("added-mass", "import", "-o", self.out_path(), sdf).returncode, 2)
        self.assertEqual(run("added-mass", "import", "--migrate", "--json", "--in-place", sdf).returncode, 2)
        self.assertEqual(run("added-mass", "import", "--migrate", "--link", "nope", "-o",
                             self.out_path(), sdf).returncode, 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
