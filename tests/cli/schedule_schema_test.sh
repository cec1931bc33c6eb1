#!/bin/bash
# Every golden scenario's schedule output matches schemas/schedule.schema.json:
# the YAML and JSON documents, and each JSON Lines object against $defs/jobLine.
set -euo pipefail
BIN=$1 SRC=$2
PY=/usr/bin/python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for dir in "$SRC"/testdata/schedule/*/; do
  name=$(basename "$dir")
  jobs=$(ls "$dir"/jobs.* | head -1)
  for fmt in json yaml jsonl; do
    "$BIN" -q schedule --config "$dir/config.yaml" --jobs "$jobs" --format "$fmt" >"$out/$name.$fmt" || true
  done
done
"$PY" "$SRC/tests/cli/schema_check.py" "$SRC/schemas/schedule.schema.json" "$out"
