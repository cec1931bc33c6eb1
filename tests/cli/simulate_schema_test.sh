#!/bin/bash
# The outputs of rescfg simulate match schemas/simulation.schema.json: the
# YAML and JSON documents, and each JSON Lines object against $defs/jobLine
# (exactly its keys), for the worked example, bad entries and --until.
set -euo pipefail
BIN=$1 SRC=$2
PY=/usr/bin/python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
EXAMPLE=$SRC/testdata/examples/worked-example.yaml
DATA=$SRC/testdata/simulate
n=0
for trace in "$DATA/worked-example-trace.yaml" "$DATA/worked-example-trace.jsonl" "$DATA/bad-entries.jsonl"; do
  for extra in "" "--until 2026-11-29T10:00:00.2Z"; do
    n=$((n + 1))
    for fmt in json yaml jsonl; do
      # shellcheck disable=SC2086
      "$BIN" -q simulate --config "$EXAMPLE" --trace "$trace" --format "$fmt" $extra >"$out/$n.$fmt" || true
    done
  done
done
"$PY" - "$SRC/schemas/simulation.schema.json" "$out" <<'PY'
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
# The schema is not vacuous: a line with an extra key, or one missing, fails.
sample = json.loads((pathlib.Path(sys.argv[2]) / "1.jsonl").read_text().splitlines()[0])
assert not line.is_valid(dict(sample, message=None)), "jobLine accepts an extra key"
assert not line.is_valid({k: v for k, v in sample.items() if k != "wait"}), "jobLine accepts a missing key"
print(f"{checked} documents checked, {failures} schema errors")
sys.exit(1 if failures or checked == 0 else 0)
PY
