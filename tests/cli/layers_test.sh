#!/usr/bin/env bash
# The layout of lib/README.md holds: folders include only lower layers, no
# file over 600 lines, no function over 120 (scripts/check-layers.py), and
# the checker itself finds a breach when there is one.
# Usage: layers_test.sh BINARY SOURCE_DIR
set -euo pipefail
src=$2
python3 "$src/scripts/check-layers.py" "$src"

# A breach is found: an include from util/ up to config/ in a copy of the tree.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib" "$tmp/cmd"
cp "$src/lib/README.md" "$tmp/lib/"
cp -r "$src/lib/util" "$src/lib/config" "$tmp/lib/"
for i in 1 2 3 4; do echo "#include \"config/model.h\"" > "$tmp/lib/util/up$i.h"; done
if python3 "$src/scripts/check-layers.py" "$tmp" > "$tmp/out"; then
  echo "FAIL: four includes from util/ up to config/ were not found" >&2
  exit 1
fi
grep -q 'includes config (layer 1)' "$tmp/out" || { echo "FAIL: unexpected report:" >&2; cat "$tmp/out" >&2; exit 1; }

# One allowed upward include that closes a loop (config/ includes util/) is a breach too.
rm "$tmp"/lib/util/up*.h
echo "#include \"config/model.h\"" > "$tmp/lib/util/up1.h"
if python3 "$src/scripts/check-layers.py" "$tmp" > "$tmp/out"; then
  echo "FAIL: a loop of folders through one upward include was not found" >&2
  exit 1
fi
grep -q 'lib/config/ and lib/util/ include each other' "$tmp/out" || { echo "FAIL: unexpected report:" >&2; cat "$tmp/out" >&2; exit 1; }
echo "layers: 2 passed, 0 failed"
