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
# With preemption: per entry `preempted`, per policy jobs preempted and GPU-hours lost.
for fmt in json yaml jsonl; do
  "$BIN" -q simulate --config "$SRC/testdata/schedule/preemption-worked-example/config.yaml" \
    --trace "$DATA/preemption/trace.yaml" --format "$fmt" >"$out/preemption.$fmt"
done
"$PY" "$SRC/tests/cli/schema_check.py" "$SRC/schemas/simulation.schema.json" "$out"
# The schema is not vacuous: a line with an extra key, or one missing, fails.
"$PY" - "$SRC/schemas/simulation.schema.json" "$out/1.jsonl" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
line = Draft202012Validator({"$ref": "#/$defs/jobLine", "$defs": schema["$defs"]})
sample = json.loads(open(sys.argv[2]).readline())
assert line.is_valid(sample), "jobLine refuses a real line"
assert not line.is_valid(dict(sample, message=None)), "jobLine accepts an extra key"
assert not line.is_valid({k: v for k, v in sample.items() if k != "wait"}), "jobLine accepts a missing key"
PY
