#!/usr/bin/env python3
"""Compare every link Ballast lists with what libsdformat 15 lists.

Runs `sdf-links FILE` (libsdformat 15, see README.md) and
`ballast-cli inspect --json FILE` and `ballast-cli check FILE` on every .sdf
and .world under the given folders, with every model folder found under
--models on GZ_SIM_RESOURCE_PATH and SDF_PATH, and compares, link by link
(by scoped name), the mass, the centre of mass and the inertia tensor about
it, both in the world's (or the top model's) frame, to --rel (1e-9)
relative.

Prints one line per file with a difference and totals; --json OUT writes
every file's result.
"""

import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys


def model_paths(roots):
    """Every folder holding a model folder (a folder with model.config)."""
    paths = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            if "model.config" in files:
                parent = os.path.dirname(folder)
                if parent not in paths:
                    paths.append(parent)
    return paths


def sdf_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith((".sdf", ".world")):
                    yield os.path.join(folder, name)


def run_json(cmd, env, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return None, "timeout"
    except OSError as e:
        return None, f"not run: {e}"
    if r.returncode != 0 and not r.stdout.strip():
        return None, f"exit {r.returncode}: {r.stderr.strip()[-300:]}"
    try:
        return json.loads(r.stdout), None
    except ValueError as e:
        return None, f"exit {r.returncode}: bad JSON ({e}) {r.stderr.strip()[-300:]}"


def quat_matrix(q):
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def ballast_world(link):
    """Ballast's link in the world frame: mass, COM, tensor (6 numbers)."""
    r = quat_matrix(link["pose"]["orientation"])
    p = link["pose"]["position"]
    c = link["com"]
    com = [p[i] + sum(r[i][k] * c[k] for k in range(3)) for i in range(3)]
    ixx, iyy, izz, ixy, ixz, iyz = link["inertia"]
    t = [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]
    w = [[sum(r[i][a] * t[a][b] * r[j][b] for a in range(3) for b in range(3))
          for j in range(3)] for i in range(3)]
    return link["mass"], com, [w[0][0], w[1][1], w[2][2], w[0][1], w[0][2], w[1][2]]


def close(a, b, scale, rel):
    return abs(a - b) <= rel * scale


def compare_link(mine, theirs, rel):
    """None when equal, else what differs."""
    mass, com, inertia = ballast_world(mine)
    diffs = []
    if not close(mass, theirs["mass"], max(abs(mass), abs(theirs["mass"]), 1e-300), rel):
        diffs.append(f"mass {mass!r} vs {theirs['mass']!r}")
    iscale = max(max(abs(v) for v in inertia), max(abs(v) for v in theirs["inertia"]), 1e-300)
    # The COM is judged against its distance from the origin and the
    # body's radius of gyration.
    gyration = math.sqrt(max(inertia[0] + inertia[1] + inertia[2], 0) / mass) if mass > 0 else 0
    cscale = max(max(abs(v) for v in com), max(abs(v) for v in theirs["com"]), gyration, 1e-300)
    for i in range(3):
        if not close(com[i], theirs["com"][i], cscale, rel):
            diffs.append(f"com {com} vs {theirs['com']}")
            break
    for i in range(6):
        if not close(inertia[i], theirs["inertia"][i], iscale, rel):
            diffs.append(f"inertia {inertia} vs {theirs['inertia']}")
            break
    return "; ".join(diffs) or None


def compare_file(path, args, env):
    theirs, their_err = run_json([args.sdf_links, path], env, args.timeout)
    mine, my_err = run_json([args.ballast, "inspect", "--json", path], env, args.timeout)
    try:
        check = subprocess.run([args.ballast, "check", path], capture_output=True, env=env,
                               timeout=args.timeout).returncode if mine is not None else None
    except (OSError, subprocess.TimeoutExpired):
        check = None
    result = {"file": path, "libsdformat_failed": their_err, "ballast_failed": my_err,
              "libsdformat_errors": [], "check": check, "links": 0, "equal": 0,
              "missing": [], "extra": [], "different": []}
    if theirs is None:
        return result
    result["libsdformat_errors"] = [e["message"][:200] for e in theirs["errors"]]
    result["links"] = len(theirs["links"])
    their_links = {l["name"]: l for l in theirs["links"]}
    my_links = {l["name"]: l for l in mine["links"]} if mine else {}
    for name, link in their_links.items():
        if name not in my_links:
            result["missing"].append(name)
            continue
        diff = compare_link(my_links[name], link, args.rel)
        if diff is None:
            result["equal"] += 1
        else:
            result["different"].append({"link": name, "mesh_auto": link["mesh_auto"],
                                        "auto": link["auto"], "diff": diff})
    result["extra"] = [n for n in my_links if n not in their_links]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sdf-links", required=True, help="the built sdf-links program")
    parser.add_argument("--ballast", required=True, help="ballast-cli")
    parser.add_argument("--models", action="append", default=[],
                        help="a folder searched for model folders (repeatable)")
    parser.add_argument("--rel", type=float, default=1e-9)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", help="write every file's result here")
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args()

    paths = model_paths(args.models)
    env = dict(os.environ)
    env["GZ_SIM_RESOURCE_PATH"] = ":".join(paths)
    env["SDF_PATH"] = ":".join(paths)
    env.setdefault("GZ_FUEL_CACHE_PATH", "/nonexistent-fuel-cache")

    files = list(sdf_files(args.folders))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda f: compare_file(f, args, env), files))

    totals = {"files": len(results), "libsdformat_loaded": 0, "ballast_loaded": 0,
              "links": 0, "equal": 0, "different": 0, "different_mesh_auto": 0,
              "missing": 0, "extra": 0, "check_fails": 0,
              "check_fails_libsdformat_clean": 0}
    for r in results:
        totals["libsdformat_loaded"] += r["libsdformat_failed"] is None
        totals["ballast_loaded"] += r["ballast_failed"] is None
        totals["links"] += r["links"]
        totals["equal"] += r["equal"]
        totals["different"] += len(r["different"])
        totals["different_mesh_auto"] += sum(d["mesh_auto"] for d in r["different"])
        totals["missing"] += len(r["missing"])
        totals["extra"] += len(r["extra"])
        if r["check"] == 1:
            totals["check_fails"] += 1
            if not r["libsdformat_errors"] and r["libsdformat_failed"] is None:
                totals["check_fails_libsdformat_clean"] += 1
        if r["missing"] or r["extra"] or r["different"] or r["ballast_failed"]:
            print(f"{r['file']}: {r['links']} links, {r['equal']} equal, "
                  f"{len(r['missing'])} missing {r['missing'][:3]}, "
                  f"{len(r['extra'])} extra {r['extra'][:3]}, "
                  f"{len(r['different'])} different "
                  f"{[d['link'] + ': ' + d['diff'][:160] for d in r['different'][:2]]}"
                  + (f", Ballast: {r['ballast_failed'][:160]}" if r["ballast_failed"] else ""))
    print(json.dumps(totals, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"totals": totals, "files": results}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
