#!/bin/bash
# The JSON outputs of explain, status and diff match their schemas
# (schemas/explanation.schema.json, status.schema.json, diff.schema.json):
# for every golden scenario of testdata/schedule, status with and without the
# jobs, explain of each job (up to 8 a scenario), and diff of the worked
# example against the scenario's configuration with its jobs; then the
# preemption outputs (preemptor, victim, stopping jobs, explain by task name,
# status counting stopping and preempted jobs, diff --jobs and --trace with
# preemption on one or both sides), checked to be among the documents.
set -euo pipefail
BIN=$1 SRC=$2
PY=/usr/bin/python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source "$SRC/tests/cli/scenario_lib.sh"
mkdir -p "$out/explain" "$out/status" "$out/diff"
EXAMPLE=$SRC/testdata/examples/worked-example.yaml
NOW=2026-12-05T10:20:00Z
# Under the sanitizers (RESCFG_TEST_QUICK) two explanations a scenario suffice.
per=8
[ -n "${RESCFG_TEST_QUICK:-}" ] && per=2
for dir in "$SRC"/testdata/schedule/*/; do
  name=$(basename "$dir")
  scenario_args "$dir"
  args+=(--now "$NOW")
  "$BIN" -q status --config "$dir/config.yaml" -f json >"$out/status/$name-nojobs.json"
  "$BIN" -q status --config "$dir/config.yaml" "${args[@]}" -f json >"$out/status/$name.json" || true
  "$BIN" -q diff "$EXAMPLE" "$dir/config.yaml" "${args[@]}" -f json >"$out/diff/$name.json" || true
  { "$BIN" -q schedule --config "$dir/config.yaml" "${args[@]}" -f jsonl 2>/dev/null || true; } >"$out/schedule.jsonl"
  jq -r '.job // empty' "$out/schedule.jsonl" | head -"$per" >"$out/ids"
  while read -r id; do
    "$BIN" -q explain "$id" --config "$dir/config.yaml" "${args[@]}" -f json >"$out/explain/$name-$id.json" || true
  done <"$out/ids"
done

# Preemption: the worked example judged at 10:20, a variant with d3 stopping,
# the same as ClearML tasks explained by name, and the trace over time.
WE=$SRC/testdata/schedule/preemption-worked-example/config.yaml
WE30=$SRC/testdata/schedule/preemption-worked-example-30m/config.yaml
P=$SRC/testdata/preemption-outputs
WJ=$SRC/testdata/schedule/preemption-worked-example/jobs.yaml
for id in r1 r2 d1 d2 d3; do
  "$BIN" -q explain "$id" -c "$WE" -j "$P/jobs-stopping.yaml" --now "$NOW" -f json >"$out/explain/stopping-$id.json"
done
"$BIN" -q explain r1 -c "$WE" -j "$WJ" --now 2026-12-05T10:18:30Z -f json >"$out/explain/delay-r1.json"
for name in research-sweep-1 dev-train-a; do
  "$BIN" -q explain "$name" -c "$WE" -j "$P/tasks.jsonl" --jobs-format clearml --clearml-workers "$P/workers.json" \
    --now "$NOW" -f json >"$out/explain/by-name-$name.json"
done
"$BIN" -q status -c "$WE" -j "$P/jobs-stopping.yaml" --now "$NOW" -f json >"$out/status/stopping.json"
"$BIN" -q diff "$WE" "$WE30" -j "$WJ" --now "$NOW" -f json >"$out/diff/jobs-30m.json" || true
TRACE=$SRC/testdata/simulate/preemption/trace.yaml
"$BIN" -q diff "$EXAMPLE" "$WE" --trace "$TRACE" -f json >"$out/diff/trace-on.json" || true
"$BIN" -q diff "$WE" "$WE30" --trace "$TRACE" -j "$WJ" --now "$NOW" -f json >"$out/diff/trace-30m.json" || true
"$BIN" -q diff "$EXAMPLE" "$EXAMPLE" --trace "$SRC/testdata/simulate/worked-example-trace.yaml" -f json >"$out/diff/trace-same.json"

for kind in explain status diff; do
  schema=$SRC/schemas/$([ "$kind" = explain ] && echo explanation || echo "$kind").schema.json
  "$PY" "$SRC/tests/cli/schema_check.py" "$schema" "$out/$kind"
done

# The documents hold the preemption fields (so the schemas check them), and
# the schemas are not vacuous: an unknown key, a missing one or a bad code fails.
"$PY" - "$SRC/schemas" "$out" <<'PY'
import json, pathlib, sys
from jsonschema import Draft202012Validator
schemas, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
def load(kind, name):
    return json.loads((out / kind / name).read_text())
def validator(name):
    return Draft202012Validator(json.loads((schemas / name).read_text()))
explain, status, diff = validator("explanation.schema.json"), validator("status.schema.json"), validator("diff.schema.json")
problems = []
r1, d1 = load("explain", "stopping-r1.json"), load("explain", "by-name-dev-train-a.json")
if r1.get("preemption", {}).get("role") != "preemptor": problems.append("no preemptor among the explanations")
if d1.get("preemption", {}).get("role") != "victim": problems.append("no victim among the explanations")
st = load("status", "stopping.json")
if not any(t.get("stopping") for t in st["teams"]): problems.append("no stopping job among the status cards")
dj, dt = load("diff", "jobs-30m.json"), load("diff", "trace-on.json")
if "preemption" not in dj or "victims" not in dj["impact"][0]["before"]: problems.append("diff --jobs without preemption fields")
if dt["simulation"]["new"].get("stops") != 2: problems.append("diff --trace without stops")
def refused(v, doc, what):
    if v.is_valid(doc): problems.append(f"the schema accepts {what}")
refused(explain, dict(r1, extra=1), "an explanation with an unknown key")
refused(explain, {k: v for k, v in r1.items() if k != "pools"}, "an explanation without pools")
bad = json.loads(json.dumps(r1)); bad["preemption"]["pools"][0]["candidates"][0]["verdict"] = "eaten"
refused(explain, bad, "an unknown candidate verdict")
bad = json.loads(json.dumps(st)); bad["teams"][0]["stopping"] = -1
refused(status, bad, "a negative count of stopping jobs")
bad = json.loads(json.dumps(st)); del bad["teams"][0]["preempted"]
refused(status, bad, "stopping without preempted")
bad = json.loads(json.dumps(dt)); del bad["simulation"]["policies"][0]["new"]["gpuHoursLost"]
refused(diff, bad, "a side with stops but no GPU-hours lost")
bad = json.loads(json.dumps(dj)); bad["impact"][0]["before"]["preemptedFor"] = 3
refused(diff, bad, "a preemptor that is no id")
print("\n".join(problems) or "ok")
sys.exit(1 if problems else 0)
PY
