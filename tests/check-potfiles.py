#!/usr/bin/env python3
"""Fails when a source file with translatable strings is missing from po/POTFILES.in,
or when POTFILES.in names a file that does not exist."""
import os
import re
import sys

root = sys.argv[1]
listed = set()
with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith('#'):
            listed.add(line)

c_marker = re.compile(r'\b(?:_|N_|C_|NC_|g_dngettext|ngettext)\s*\(\s*"')
ui_marker = re.compile(r'translatable\s*=\s*"yes"')
needed = set()
for top in ('src', 'ui', 'data'):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        for name in filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            try:
                with open(path, encoding='utf-8') as f:
                    text = f.read()
            except (UnicodeDecodeError, OSError):
                continue
            if name.endswith(('.c', '.h')) and c_marker.search(text):
                needed.add(rel)
            elif name.endswith(('.ui', '.xml', '.in')) and ui_marker.search(text):
                needed.add(rel)
            elif name.endswith(('.desktop.in', '.metainfo.xml.in', '.gschema.xml')):
                needed.add(rel)

failed = False
for rel in sorted(needed - listed):
    print(f'not in po/POTFILES.in: {rel}')
    failed = True
for rel in sorted(listed):
    if not os.path.exists(os.path.join(root, rel)):
        print(f'listed in po/POTFILES.in but missing: {rel}')
        failed = True
print('1..1')
print(('not ok' if failed else 'ok') + ' 1 - po/POTFILES.in lists every translatable source')
sys.exit(1 if failed else 0)
