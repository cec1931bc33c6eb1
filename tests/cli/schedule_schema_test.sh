#!/bin/bash
# Every golden scenario's schedule output matches schemas/schedule.schema.json:
# the YAML and JSON documents, and each JSON Lines object against $defs/jobLine.
set -euo pipefail
BIN=$1 SRC=$2
PY=/usr/bin/python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source "$SRC/tests/cli/scenario_lib.sh"
for dir in "$SRC"/testdata/schedule/*/; do
  name=$(basename "$dir")
  scenario_args "$dir"
  for fmt in json yaml jsonl; do
    "$BIN" -q schedule --config "$dir/config.yaml" "${args[@]}" --format "$fmt" >"$out/$name.$fmt" || true
  done
done
"$PY" "$SRC/tests/cli/schema_check.py" "$SRC/schemas/schedule.schema.json" "$out"
