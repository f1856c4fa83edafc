#!/usr/bin/env python3
"""check-structure.py SRC: what docs/DESIGN.md promises of src/'s files.

- The shipped programs read no test hook: no "BALLAST_TEST" in src/.
- No circle between the files of a layer (src/core, src/render, src/app,
  src/cli, each with its subfolders): file A uses
  file B when A's .c or .h includes B's header or calls a function B's .c
  defines; that relation has no cycle (a file and its -private.h, or the
  -actions.c of a window, count as one).
- No src/**/*.c over 1,200 lines unless docs/DESIGN.md names it (as
  `bl-foo.c`) under "## Files over 1,200 lines", with the reason.
"""
import os
import re
import sys

src = os.path.join(sys.argv[1], 'src')
failures = []

for root, _, files in os.walk(src):
    for name in files:
        if name.endswith(('.c', '.h')):
            path = os.path.join(root, name)
            with open(path, encoding='utf-8') as f:
                if 'BALLAST_TEST' in f.read():
                    failures.append(f'{os.path.relpath(path, src)}: reads a test hook (BALLAST_TEST…)')


PARTS = {}  # stem of a part of an object -> the object's stem


def unit(name):
    """The file a source or header belongs to."""
    stem = name[:-2]
    if stem.endswith('-private'):
        stem = stem[:-len('-private')]
    return PARTS.get(stem, stem)


DEFINITION = re.compile(r'^([a-z_][a-z0-9_]*) \(', re.M)
INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)
IDENT = re.compile(r'\b[a-z_][a-z0-9_]*\b')
COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)

for layer in ('core', 'render', 'app', 'cli'):
    folder = os.path.join(src, layer)
    paths = {}
    for root, _, files in os.walk(folder):
        for n in files:
            if n.endswith(('.c', '.h')):
                paths[n] = os.path.join(root, n)
    names = sorted(paths)
    text = {}
    for n in names:
        with open(paths[n], encoding='utf-8') as f:
            text[n] = f.read()
    PARTS.clear()
    for n in names:
        if n.endswith('.c'):
            for inc in INCLUDE.findall(text[n]):
                owner = os.path.basename(inc)[:-len('-private.h')] if inc.endswith('-private.h') else None
                if owner is not None and n.startswith(owner + '-'):
                    PARTS[n[:-2]] = owner
    units = {unit(n) for n in names}
    defined = {}   # function -> unit
    for n in names:
        if n.endswith('.c'):
            for fn in DEFINITION.findall(text[n]):
                if fn == 'main':
                    continue
                if not re.search(r'^static\b[^\n]*\n' + re.escape(fn) + r' \(', text[n], re.M):
                    defined[fn] = unit(n)
    uses = {u: set() for u in units}
    for n in names:
        u = unit(n)
        for inc in INCLUDE.findall(text[n]):
            inc = os.path.basename(inc)
            if inc.endswith('.h') and unit(inc) in units and unit(inc) != u:
                uses[u].add(unit(inc))
        if n.endswith('.c'):
            for ident in set(IDENT.findall(COMMENT_OR_STRING.sub(' ', text[n]))):
                v = defined.get(ident)
                if v is not None and v != u:
                    uses[u].add(v)
    # A cycle: a unit that reaches itself.
    for start in sorted(units):
        seen, stack = set(), [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for nxt in uses[node]:
                if nxt == start:
                    failures.append(f'src/{layer}: circle ' + ' → '.join(trail + [start]))
                    stack = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, trail + [nxt]))

LONG_FILE_LINES = 1200


def check_long_files():
    """A .c file of src/ over LONG_FILE_LINES lines must be named in
    DESIGN.md's "## Files over 1,200 lines" (one concern that reads best
    whole, with the reason); the others are split by concern."""
    with open(os.path.join(sys.argv[1], 'docs', 'DESIGN.md'), encoding='utf-8') as f:
        design = f.read()
    section = re.search(r'^## Files over 1,200 lines\n(.*?)(?=^## |\Z)', design, re.M | re.S)
    named = set(re.findall(r'`([^`/\s]+\.c)`', section.group(1))) if section else set()
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith('.c'):
                continue
            path = os.path.join(root, name)
            with open(path, encoding='utf-8') as f:
                n = len(f.read().splitlines())
            if n > LONG_FILE_LINES and name not in named:
                failures.append(f'{os.path.relpath(path, src)}: {n} lines, over {LONG_FILE_LINES} '
                                'and not named under "## Files over 1,200 lines" in docs/DESIGN.md')


check_long_files()

for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
