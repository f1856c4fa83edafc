#!/usr/bin/env python3
"""Calls between the files of src/core, for the concerns split by file.

Includes say little inside one type split by concern (every mesh file
includes bl-mesh-private.h), so this reads calls: file A calls file B when
A names a function that B defines (or a macro that expands to one, such
as BL_MESH_ERROR).  It checks that

- no function bl_document_* is defined outside bl-document*.c;
- no circle of calls passes through a mesh file (bl-mesh*.c) or
  a fluid file (bl-fluid*.c).

Comments and string literals are not read.  Usage: check-calls.py ROOT"""
import os
import re
import sys
from collections import defaultdict

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
core = os.path.join(root, 'src', 'core')


def code_of(text):
    """TEXT without comments, string and character literals."""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: '\n' * m.group(0).count('\n') if m.group(0).startswith('/') else '""',
                  text, flags=re.S)


sources, macros = {}, {}
for name in sorted(os.listdir(core)):
    with open(os.path.join(core, name), encoding='utf-8') as f:
        text = code_of(f.read())
    if name.endswith('.c'):
        sources[name] = text
    # #define NAME (function ()) and the like: NAME calls function
    for m in re.finditer(r'^#\s*define\s+(\w+)\s+\(?\s*([a-z_]\w*)\s*\(\s*\)', text, re.M):
        macros[m.group(1)] = m.group(2)

defined = {}
for name, text in sources.items():
    # a function definition: not static, its name at the start of a line
    # after the return type's line
    for m in re.finditer(r'^(?!static\b)(?:[A-Za-z_][^\n;(){}=]*)\n([a-z_]\w*) \([^;{]*\)\s*\{', text, re.M):
        defined[m.group(1)] = name
    for m in re.finditer(r'\bG_DEFINE_QUARK \([^,]*, (\w+)\)', text):
        defined[m.group(1) + '_quark'] = name
    for m in re.finditer(r'\bG_DEFINE_(?:FINAL_)?TYPE(?:_WITH_CODE)? \(\w+, (\w+)', text):
        defined[m.group(1) + '_get_type'] = name
    for m in re.finditer(r'\bG_DEFINE_BOXED_TYPE \(\w+, (\w+)', text):
        defined[m.group(1) + '_get_type'] = name

problems = []
for function, name in sorted(defined.items()):
    if function.startswith('bl_document_') and not name.startswith('bl-document'):
        problems.append(f'src/core/{name} defines {function}: the document\'s '
                        'functions belong to bl-document*.c')

calls = defaultdict(dict)
for name, text in sources.items():
    for word in set(re.findall(r'\b\w+\b', text)):
        target = defined.get(macros.get(word, word))
        if target is not None and target != name:
            calls[name].setdefault(target, word)

# Circles of calls (Tarjan's strongly connected components)
index, low, stack, on, sccs = {}, {}, [], set(), []
sys.setrecursionlimit(10000)


def strong(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in calls[v]:
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))


for v in sources:
    if v not in index:
        strong(v)


def checked(name):
    return name.startswith(('bl-mesh', 'bl-fluid'))


for comp in sccs:
    if not any(checked(n) for n in comp):
        continue
    arrows = [f'{a} → {b} ({calls[a][b]})' for a in comp for b in comp if b in calls[a]]
    problems.append('circle of calls between ' + ', '.join(comp) + ': ' + '; '.join(arrows))

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
