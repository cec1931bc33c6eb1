#!/usr/bin/env bash
# diff --trace with preemption (rescfg(1), diff): the preemption worked example
# over time (testdata/simulate/preemption) simulated against a configuration
# without preemption and one with it, and against minRuntime 10m and 30m.
# With preemption on either side, each clock line counts its stops (or says
# "preemption off") and a table gives per policy the runs stopped, the jobs
# preempted and the GPU-hours lost; JSON adds them to each clock, side and
# change. Without preemption on either side nothing of it appears.
# Regenerate the goldens with UPDATE_GOLDEN=1 after a deliberate change.
set -u
source "$(dirname "$0")/harness.sh" "$@"
GOLD=$SRC/testdata/preemption-outputs
# Copies under short names: the outputs name the files as given.
cp "$SRC/testdata/schedule/preemption-worked-example/config.yaml" on.yaml
cp "$SRC/testdata/schedule/preemption-worked-example-30m/config.yaml" on-30m.yaml
cp "$SRC/testdata/examples/worked-example.yaml" off.yaml
cp "$SRC/testdata/simulate/preemption/trace.yaml" trace.yaml

# golden NAME WANT-EXIT CMD...: the output of CMD must equal $GOLD/NAME.
golden() {
  local name=$1 want=$2; shift 2
  expect "$want" "$@"
  if [ -n "${UPDATE_GOLDEN:-}" ]; then cp out.txt "$GOLD/$name"; return; fi
  diff -u "$GOLD/$name" out.txt >diff.txt || { fail "$name differs"; sed 's/^/  | /' diff.txt >&2; }
}

# Off -> on: Dev's two stops at 10:20, 2.666667 GPU-hours lost; Research's waits drop.
golden diff-trace.txt 1 "$RESCFG" -q diff off.yaml on.yaml --trace trace.yaml
golden diff-trace.json 1 "$RESCFG" -q diff off.yaml on.yaml --trace trace.yaml -f json
golden diff-trace.md 1 "$RESCFG" -q diff off.yaml on.yaml --trace trace.yaml -f markdown
# On -> minRuntime 30m: on on both sides, the stops go away.
golden diff-trace-30m.txt 1 "$RESCFG" -q diff on.yaml on-30m.yaml --trace trace.yaml
jq -e '.simulation | .old.stops == 2 and .new.stops == 0 and .new.preemption == true and
       (.policies[0] | .name == "Dev" and .change.stops == -2 and .change.jobsPreempted == -2 and .change.gpuHoursLost == -2.666667)' \
  <("$RESCFG" -q diff on.yaml on-30m.yaml --trace trace.yaml -f json) >/dev/null ||
  fail "diff --trace json, on -> 30m: the change of the preemption figures"

# Off on both sides: no preemption figure anywhere.
sed 's/^    reserved: 8$/    reserved: 4/' off.yaml > less-reserved.yaml
for format in text json markdown; do
  expect 1 "$RESCFG" -q diff off.yaml less-reserved.yaml --trace trace.yaml -f "$format"
  ! grep -q -i -e 'preempt' -e 'stops' out.txt || fail "diff --trace ($format) without preemption shows preemption figures"
done

exit $((failures > 0))
