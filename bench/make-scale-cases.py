#!/usr/bin/env python3
"""Writes the window-at-any-size cases of issues 14 and 16 into DIR.

coll5000.sdf, coll100000.sdf  one link of 5,000 / 100,000 boxes at one place
collsep100000.sdf             one link of 100,000 boxes 0.2 m apart
nested100000.sdf              one link of 100,000 boxes at one place, 1 m to 2 m (nested)
nestedmodels100k.sdf          100,000 models of one such box each at the origin
rotated100000.sdf             one link of 100,000 1 m boxes at one place, each turned another way
axis40km.sdf                  one link of 401 1 m boxes along the x axis, 40 km long (specks on the grid's axis)
models100k.sdf                100,000 models of one link, 2 m apart
longname.sdf                  a link named by 9.5 MB of text
nest250.sdf, nest10000.sdf    models nested 250 and 10,000 deep

Usage: bench/make-scale-cases.py DIR   (docs/BENCHMARKS.md, "The window at any size")
"""
import os
import sys

HEAD = '<?xml version="1.0"?>\n<sdf version="1.11">\n'
BOX = '<geometry><box><size>{0} {0} {0}</size></box></geometry>'


def one_link(n, spacing, size=0.1, start=0):
    cols = ''.join(f'<collision name="c{i}"><pose>{start + i * spacing} 0 0 0 0 0</pose>{BOX.format(size)}</collision>\n'
                   for i in range(n))
    return f'{HEAD}<model name="m"><link name="l"><inertial auto="true"/>\n{cols}</link></model>\n</sdf>\n'


def nested_link(n):
    cols = ''.join(f'<collision name="c{i}">{BOX.format(f"{1 + i / n:.6f}")}</collision>\n' for i in range(n))
    return f'{HEAD}<model name="m"><link name="l"><inertial auto="true"/>\n{cols}</link></model>\n</sdf>\n'


def rotated_link(n):
    # Turned about z by i·(π/2)/n and about x by i·golden angle: no two alike.
    cols = ''.join(f'<collision name="c{i}"><pose>0 0 0 {(i * 2.399963) % 6.283185:.6f} 0 {i * 1.570796 / n:.6f}</pose>'
                   f'{BOX.format(1)}</collision>\n' for i in range(n))
    return f'{HEAD}<model name="m"><link name="l"><inertial auto="true"/>\n{cols}</link></model>\n</sdf>\n'


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = {
        'coll5000.sdf': one_link(5000, 0),
        'coll100000.sdf': one_link(100000, 0),
        'collsep100000.sdf': one_link(100000, 0.2),
        'nested100000.sdf': nested_link(100000),
        'nestedmodels100k.sdf': HEAD + '<world name="w">\n' + ''.join(
            f'<model name="m{i}"><link name="l{i}"><inertial auto="true"/>'
            f'<collision name="c">{BOX.format(f"{1 + i / 100000:.6f}")}</collision></link></model>\n'
            for i in range(100000)) + '</world>\n</sdf>\n',
        'rotated100000.sdf': rotated_link(100000),
        'axis40km.sdf': one_link(401, 100, 1, -20000),
        'models100k.sdf': HEAD + '<world name="w">\n' + ''.join(
            f'<model name="m{i}"><pose>{2 * i} 0 0 0 0 0</pose><link name="l{i}"><inertial auto="true"/>'
            f'<collision name="c">{BOX.format(1)}</collision></link></model>\n' for i in range(100000))
            + '</world>\n</sdf>\n',
        'longname.sdf': HEAD + '<model name="m"><link name="' + 'a' * 9_500_000
            + f'"><inertial auto="true"/><collision name="c">{BOX.format(1)}</collision></link></model>\n</sdf>\n',
    }
    for depth in (250, 10000):
        cases[f'nest{depth}.sdf'] = (HEAD + ''.join(f'<model name="n{i}">' for i in range(depth))
                                     + '<link name="l"/>' + '</model>' * depth + '\n</sdf>\n')
    for name, text in cases.items():
        with open(os.path.join(out, name), 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
