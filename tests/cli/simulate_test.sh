#!/usr/bin/env bash
# rescfg simulate (rescfg-scheduling(7), THE SIMULATION CLOCK) end to end: the worked example over time (YAML
# and JSON Lines traces give the same bytes), the exact keys of --format
# jsonl, --start and --until, bad traces rejected per entry with their
# line, unusable input exiting 2 with nothing written to -o, the progress
# line only on a terminal, and diff --trace.
source "$(dirname "$0")/harness.sh" "$@"
DATA=$SRC/testdata/simulate
TRACE=$DATA/worked-example-trace.yaml

# The worked example: every job's story, and the statistics.
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --format jsonl
cmp -s out.txt "$DATA/worked-example.expected.jsonl" || { fail "jsonl differs from the golden file"; diff out.txt "$DATA/worked-example.expected.jsonl" >&2; }
cp out.txt yaml-trace.jsonl
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$DATA/worked-example-trace.jsonl" --format jsonl
cmp -s out.txt yaml-trace.jsonl || fail "the JSON Lines trace simulates differently from the YAML one"
[ "$(jq -c 'keys_unsorted' out.txt | sort -u)" = '["job","status","policy","profile","pool","queue","resources","submitted","started","finished","wait","reason"]' ] ||
  fail "jsonl keys are not exactly those of rescfg-scheduling(7), THE SIMULATION CLOCK: $(jq -c 'keys_unsorted' out.txt | sort -u)"
[ "$(jq -r 'select(.job == "dev-2") | "\(.pool) \(.started) \(.wait)"' out.txt)" = "H100 Half a Superpod 2026-11-29T10:01:00.000000Z 60" ] ||
  fail "dev-2 should wait the minute until warm-1 finishes"
[ "$(jq -r 'select(.job == "research-4") | "\(.finished) \(.wait)"' out.txt)" = "2026-11-29T11:00:00.250000Z 1799.5" ] ||
  fail "research-4 times are not exact to the microsecond"
[ "$(jq -r 'select(.job == "warm-1") | "\(.status) \(.submitted) \(.started) \(.finished) \(.wait)"' out.txt)" = \
  "finished null null 2026-11-29T10:01:00.000000Z null" ] || fail "warm-1, running at the start, is reported wrongly"

expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --format json
cp out.txt sim.json
[ "$(jq -c '.policies[] | select(.name == "Dev") | [.jobs, .started, .neverStarted, .wait, .gpuHours]' sim.json)" = \
  '[4,4,0,{"mean":1815,"p50":60,"p90":3600,"p99":3600,"max":3600},16.066667]' ] || fail "Dev's summary: $(jq -c '.policies[0]' sim.json)"
[ "$(jq -c '.policies[] | select(.name == "Research") | [.wait.mean, .wait.p50, .wait.max, .gpuHours]' sim.json)" = '[899.875,0,1800,8.000278]' ] ||
  fail "Research's summary: $(jq -c '.policies[1]' sim.json)"
[ "$(jq -c '.pools | map([.name, .gpuHours, .peakInUse, .utilisation])' sim.json)" = \
  '[["Bare Metal Low END GPUs",16,8,1],["H100 Half a Superpod",8.066944,8,0.504184]]' ] || fail "pools: $(jq -c '.pools' sim.json)"
[ "$(jq -r '"\(.start) \(.end) \(.summary.events)"' sim.json)" = "2026-11-29T10:00:00.000000Z 2026-11-29T12:00:00.000000Z 8" ] ||
  fail "clock: $(jq -c '[.start, .end, .summary]' sim.json)"
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE"
contains out.txt 'kind: "Simulation"'
contains out.txt '  - {name: "Dev", jobs: 4, started: 4, neverStarted: 0, wait: {mean: 1815, p50: 60, p90: 3600, p99: 3600, max: 3600}, gpuHours: 16.066667}'
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --format table
contains out.txt "Research     4        4      0     15m00s     0s  30m00s  30m00s  30m00s   8.000278"
# Byte-identical output for the same input.
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --format json -o again.json
cmp -s again.json sim.json || fail "-o output differs from stdout, or the output is not deterministic"

# --until: nothing after it happens; later submissions are not-submitted.
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --format jsonl --until 2026-11-29T10:00:00.2Z
[ "$(jq -r 'select(.job == "research-4") | "\(.status) \(.reason) \(.wait)"' out.txt)" = "pending not-submitted null" ] ||
  fail "research-4 submitted after --until should be not-submitted"
[ "$(jq -r 'select(.job == "dev-3") | "\(.status) \(.reason) \(.wait)"' out.txt)" = "pending capacity 0.2" ] ||
  fail "dev-3 should wait to the end: $(grep dev-3 out.txt)"
[ "$(jq -r 'select(.job == "warm-1") | .status' out.txt)" = "running" ] || fail "warm-1 runs past --until"
# --start after the submissions: they join at it, and wait from when they were submitted.
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --format json --start 2026-11-29T10:10:00Z
[ "$(jq -r '.jobs[] | select(.job == "dev-1") | "\(.started) \(.wait)"' out.txt)" = "2026-11-29T10:10:00.000000Z 600" ] ||
  fail "--start: dev-1 should start at the start, having waited 600 s"
[ "$(jq -r '.jobs[] | select(.job == "warm-1") | .finished' out.txt)" = "2026-11-29T10:11:00.000000Z" ] ||
  fail "--start: a running entry's duration counts from the start"

# Bad entries are rejected with their line, never dropped; the rest runs (exit 1).
expect 1 "$RESCFG" simulate --config "$EXAMPLE" --trace "$DATA/bad-entries.jsonl" --format jsonl
[ "$(wc -l < out.txt)" -eq "$(grep -c . "$DATA/bad-entries.jsonl")" ] || fail "an entry was dropped"
[ "$(jq -r 'select(.status == "rejected") | .job' out.txt | tr '\n' ' ')" = \
  "no-submitted no-duration seven-digits zero negative string-duration exponent bad-time running-bad " ] ||
  fail "rejected: $(jq -r 'select(.status == "rejected") | .job' out.txt | tr '\n' ' ')"
[ "$(jq -r 'select(.job == "ok") | .status' out.txt)" = "finished" ] || fail "the good entry did not run"
expect 1 "$RESCFG" simulate --config "$EXAMPLE" --trace "$DATA/bad-entries.jsonl" --format json
for pair in "no-submitted:line 1: required field 'submitted' is missing" \
            "no-duration:line 2: required field 'duration' is missing" \
            "seven-digits:line 3: submitted '2026-11-29T10:00:00.1234567Z' has 7 fractional digits" \
            "zero:line 4: duration '0' must be greater than 0" \
            "negative:line 5: duration '-5' must be greater than 0" \
            "string-duration:line 6: duration '3600' must be a number of seconds, not a string" \
            "exponent:line 7: duration '1e3' must be written as a plain decimal" \
            "bad-time:line 8: submitted 'yesterday' is not an RFC 3339 time" \
            "running-bad:line 9: duration '1.0000001' has 7 fractional digits"; do
  job=${pair%%:*} want=${pair#*:}
  got=$(jq -r --arg j "$job" '.jobs[] | select(.job == $j) | "\(.reason) \(.message)"' out.txt)
  case $got in "invalid-job $want"*) ;; *) fail "$job: got '$got', want invalid-job '$want...'" ;; esac
done
contains err.txt "warning: "
contains err.txt "invalid-job: line 1: required field 'submitted' is missing"

# Unusable input exits 2 and writes nothing to -o.
echo keep > kept.txt
expect 2 "$RESCFG" simulate --config "$EXAMPLE" --trace "$EXAMPLE" -o kept.txt
contains err.txt "kind must be JobList"
contains err.txt ":7:"
expect 2 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --start 2026-11-29T11:00:00Z --until 2026-11-29T10:00:00Z -o kept.txt
contains err.txt "--until 2026-11-29T10:00:00.000000Z is before --start 2026-11-29T11:00:00.000000Z"
expect 2 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --until 2026-11-29T09:00:00Z -o kept.txt --plot kept.svg
contains err.txt "is before the start of the simulation"
expect 2 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --start "" -o kept.txt
expect 2 "$RESCFG" simulate --config "$EXAMPLE" --trace "$TRACE" --until 2026-11-29T10:00:00.1234567Z -o kept.txt
contains err.txt "7 fractional digits"
printf 'apiVersion: rescfg/v1\nkind: JobList\njobs: [\n' > broken.yaml
expect 2 "$RESCFG" simulate --config "$EXAMPLE" --trace broken.yaml -o kept.txt
contains err.txt "broken.yaml:"
expect 2 "$RESCFG" simulate --config "$EXAMPLE" --trace missing.jsonl -o kept.txt
[ "$(cat kept.txt)" = keep ] || fail "-o was written on exit 2"
[ ! -e kept.svg ] || fail "--plot was written on exit 2"

# A trace without queued entries starts and ends at --start, or at no time.
printf '{"id": "r", "state": "running", "pool": "Bare Metal Low END GPUs", "policy": "Dev", "profile": "4xGPU", "duration": 5}\n' > running.jsonl
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace running.jsonl --format json --start 2026-11-29T10:00:00Z
[ "$(jq -r '"\(.start) \(.end) \(.jobs[0].status) \(.jobs[0].finished)"' out.txt)" = \
  "2026-11-29T10:00:00.000000Z 2026-11-29T10:00:00.000000Z running null" ] || fail "running-only trace with --start: $(jq -c '[.start,.end,.jobs]' out.txt)"
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace running.jsonl --format json
[ "$(jq -r '"\(.start) \(.end) \(.summary.events) \(.pools[0].utilisation)"' out.txt)" = "null null 0 null" ] ||
  fail "running-only trace without --start: $(jq -c '[.start,.end,.summary]' out.txt)"

# The progress line: only on a terminal, never with -q.
awk 'BEGIN { print "apiVersion: rescfg/v1\nkind: JobList\njobs:";
  for (i = 0; i < 12000; i++) printf "  - {id: j%d, policy: Research, profile: 4xGPU, submitted: \"2026-11-29T10:%02d:%02d.%06dZ\", duration: 0.5}\n", i, int(i / 6000), int(i / 100) % 60, i % 100 }' > long.yaml
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace long.yaml --format jsonl -o long.jsonl
grep -q simulating err.txt && fail "a progress line was written to a file"
if script -qec "true" /dev/null > /dev/null 2>&1; then
  script -qec "'$RESCFG' simulate --config '$EXAMPLE' --trace long.yaml -o long.jsonl" /dev/null > tty.txt
  grep -q "simulating: [0-9]* events, reached 2026-11-29T" tty.txt || fail "no progress line on a terminal"
  script -qec "'$RESCFG' -q simulate --config '$EXAMPLE' --trace long.yaml -o long.jsonl" /dev/null > tty.txt
  grep -q simulating tty.txt && fail "a progress line with -q"
fi

# diff --trace: both simulations side by side; the exit code is the diff's.
sed 's/^    reserved: 8$/    reserved: 4/' "$EXAMPLE" > less-reserved.yaml
grep -q 'reserved: 4' less-reserved.yaml || fail "could not derive the changed configuration"
expect 1 "$RESCFG" diff "$EXAMPLE" less-reserved.yaml --trace "$TRACE"
contains out.txt "Simulation of "
contains out.txt "POLICY"
contains out.txt "GPU-HOURS"
contains out.txt "Dev       4/4 -> 4/4"
expect 1 "$RESCFG" diff "$EXAMPLE" less-reserved.yaml --trace "$TRACE" --format json
jq -e '.simulation.policies[0] | .name == "Dev" and .old.wait.mean == 1815 and (.change.wait.mean == (.new.wait.mean - .old.wait.mean))' out.txt > /dev/null ||
  fail "diff --trace json: $(jq -c '.simulation.policies[0]' out.txt)"
expect 0 "$RESCFG" diff "$EXAMPLE" "$EXAMPLE" --trace "$TRACE" --format json
jq -e '[.simulation.policies[].change.wait.p90 | select(. != null)] | all(. == 0)' out.txt > /dev/null || fail "same configurations, different waits"
expect 2 "$RESCFG" diff "$EXAMPLE" less-reserved.yaml --trace broken.yaml

exit $((failures > 0))
