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
"$PY" - "$SRC/schemas/schedule.schema.json" "$out" <<'PY'
import json, pathlib, sys
import yaml
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
doc = Draft202012Validator(schema)
line = Draft202012Validator({"$ref": "#/$defs/jobLine", "$defs": schema["$defs"]})
failures, checked = 0, 0
for path in sorted(pathlib.Path(sys.argv[2]).iterdir()):
    text = path.read_text()
    if path.suffix == ".jsonl":
        items = [json.loads(l) for l in text.splitlines() if l.strip()]
        validator = line
    else:
        items = [json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)]
        validator = doc
    for item in items:
        checked += 1
        for error in validator.iter_errors(item):
            failures += 1
            print(f"{path.name}: {error.json_path}: {error.message}")
print(f"{checked} documents checked, {failures} schema errors")
sys.exit(1 if failures or checked == 0 else 0)
PY
