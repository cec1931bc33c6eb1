#!/usr/bin/env python3
"""Checks the layout rules of lib/README.md against the code.

- Every folder of lib/ is in the table; a folder includes only its own
  files and those of folders in lower layers (at most MAX_UPWARD exceptions).
- No .cc or .h file of lib/ or cmd/ has more than MAX_LINES lines, and no
  function body more than MAX_FUNCTION lines.
Prints each breach and exits 1 when there is one. Usage: check-layers.py [SOURCE_DIR]
"""
import os
import re
import sys

MAX_UPWARD = 3
MAX_LINES = 600
MAX_FUNCTION = 120

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
lib = os.path.join(root, 'lib')
layers = {}
for line in open(os.path.join(lib, 'README.md'), encoding='utf-8'):
    m = re.match(r'\|\s*(\d+)\s*\|\s*([a-z_]+)\s*\|', line)
    if m:
        layers[m.group(2)] = int(m.group(1))

breaches = []
folders = sorted(d for d in os.listdir(lib) if os.path.isdir(os.path.join(lib, d)))
for folder in folders:
    if folder not in layers:
        breaches.append(f'lib/{folder}/ is not in the layer table of lib/README.md')
loose = sorted(f for f in os.listdir(lib) if f.endswith(('.cc', '.h')))
for name in loose:
    breaches.append(f'lib/{name} stands outside every folder: give it one (generic tools go to lib/util/)')

include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')
upward = []
edges = {folder: set() for folder in folders}  # folder -> the folders it includes
for folder in folders:
    for dirpath, _, files in os.walk(os.path.join(lib, folder)):
        for name in sorted(files):
            if not name.endswith(('.cc', '.h')):
                continue
            path = os.path.join(dirpath, name)
            for number, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
                m = include.match(line)
                if m and m.group(1) != folder and m.group(1) in edges:
                    edges[folder].add(m.group(1))
                if not m or m.group(1) == folder or m.group(1) not in layers or folder not in layers:
                    continue
                if layers[m.group(1)] >= layers[folder]:
                    upward.append(f'{os.path.relpath(path, root)}:{number}: {folder} (layer {layers[folder]}) '
                                  f'includes {m.group(1)} (layer {layers[m.group(1)]})')
# Even an allowed upward include must not close a loop of folders.
def reaches(start, goal):
    seen, todo = set(), [start]
    while todo:
        f = todo.pop()
        if f == goal:
            return True
        if f not in seen:
            seen.add(f)
            todo.extend(edges.get(f, ()))
    return False
for folder in folders:
    for to in sorted(edges[folder]):
        if folder < to and reaches(to, folder):
            breaches.append(f'lib/{folder}/ and lib/{to}/ include each other (through a loop of folders): no cycle')
if len(upward) > MAX_UPWARD:
    breaches.append(f'{len(upward)} includes go sideways or up (at most {MAX_UPWARD}):')
    breaches.extend('  ' + u for u in upward)

signature = re.compile(r'^( {0,2})[A-Za-z].*\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->.*)?\{\s*$')
not_function = re.compile(r'^\s*(namespace|struct|class|enum|if|for|while|switch|else|do)\b')
for top in ('lib', 'cmd'):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for name in sorted(files):
            if not name.endswith(('.cc', '.h')):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
            if len(lines) - 1 > MAX_LINES:
                breaches.append(f'{rel}: {len(lines) - 1} lines (at most {MAX_LINES}): split it by concept')
            i = 0
            while i < len(lines):
                m = signature.match(lines[i])
                if m and not not_function.match(lines[i]):
                    close = re.compile('^' + m.group(1) + r'\}')
                    j = i + 1
                    while j < len(lines) and not close.match(lines[j]):
                        j += 1
                    if j - i - 1 > MAX_FUNCTION:
                        breaches.append(f'{rel}:{i + 1}: a function of {j - i - 1} lines (at most {MAX_FUNCTION}): '
                                        + lines[i].strip()[:70])
                    i = j
                i += 1

for b in breaches:
    print(b)
sys.exit(1 if breaches else 0)
