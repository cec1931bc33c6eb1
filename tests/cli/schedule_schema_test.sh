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
  if [ -f "$dir/tasks.json" ]; then  # a ClearML task snapshot and its companions
    args=(--jobs "$dir/tasks.json" --jobs-format clearml)
    [ -f "$dir/queues.json" ] && args+=(--clearml-queues "$dir/queues.json")
    [ -f "$dir/workers.json" ] && args+=(--clearml-workers "$dir/workers.json")
  else
    args=(--jobs "$(ls "$dir"/jobs.* | head -1)")
  fi
  for fmt in json yaml jsonl; do
    "$BIN" -q schedule --config "$dir/config.yaml" "${args[@]}" --format "$fmt" >"$out/$name.$fmt" || true
  done
done
"$PY" "$SRC/tests/cli/schema_check.py" "$SRC/schemas/schedule.schema.json" "$out"
