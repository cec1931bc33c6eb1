#!/usr/bin/env bash
# rescfg simulate with preemption (rescfg-scheduling(7), THE SIMULATION CLOCK and PREEMPTION): the
# preemption worked example over time. At 10:20 r1 preempts d1 and r2 preempts d2 in Bare Metal;
# d1 and d2 rejoin Dev's queue at their old place, start again when r1 and r2 finish (10:50) and
# run their whole two hours again. The same trace without preemption, and with minRuntime 30m
# (no Dev job has run long enough at any event), preempts nothing; the output without
# `preemption` keeps exactly the keys it always had.
source "$(dirname "$0")/harness.sh" "$@"
DATA=$SRC/testdata/simulate/preemption
ON=$SRC/testdata/schedule/preemption-worked-example/config.yaml
LONG=$SRC/testdata/schedule/preemption-worked-example-30m/config.yaml
OFF=$SRC/testdata/examples/worked-example.yaml

expect 0 "$RESCFG" simulate --config "$ON" --trace "$DATA/trace.yaml" --format jsonl
cmp -s out.txt "$DATA/expected.jsonl" || { fail "jsonl differs from the golden file"; diff out.txt "$DATA/expected.jsonl" >&2; }
[ "$(jq -c 'keys_unsorted' out.txt | sort -u)" = \
  '["job","status","policy","profile","pool","queue","resources","submitted","started","finished","wait","reason","preempted"]' ] ||
  fail "with preemption, jsonl keys are those of the simulation then preempted: $(jq -c 'keys_unsorted' out.txt | sort -u)"
[ "$(jq -r 'select(.job == "d1") | "\(.preempted) \(.started) \(.finished) \(.wait)"' out.txt)" = \
  "1 2026-12-05T10:50:00.000000Z 2026-12-05T12:50:00.000000Z 3000" ] || fail "d1 should be preempted once and run again from 10:50"
[ "$(jq -r 'select(.job == "r1") | "\(.preempted) \(.started) \(.wait)"' out.txt)" = "0 2026-12-05T10:20:00.000000Z 120" ] ||
  fail "r1 should start at 10:20, when it has waited the delay"
[ "$(jq -r 'select(.job == "d3") | "\(.preempted) \(.finished)"' out.txt)" = "0 2026-12-05T12:05:00.000000Z" ] ||
  fail "d3 in H100 is not needed and must not be preempted"

expect 0 "$RESCFG" simulate --config "$ON" --trace "$DATA/trace.yaml" --format json
[ "$(jq -c '.policies | map([.name, .jobsPreempted, .gpuHoursLost, .gpuHours])' out.txt)" = \
  '[["Dev",2,2.666667,34.666667],["Research",0,0,4],["Sandbox",0,0,0.083333]]' ] || fail "per policy: $(jq -c .policies out.txt)"
[ "$(jq -c '[.summary.preemptions, .end]' out.txt)" = '[2,"2026-12-05T12:50:00.000000Z"]' ] || fail "summary: $(jq -c .summary out.txt)"
expect 0 "$RESCFG" simulate --config "$ON" --trace "$DATA/trace.yaml"
contains out.txt '  - {name: "Dev", jobs: 4, started: 4, neverStarted: 0, wait: {mean: 1500, p50: 0, p90: 3000, p99: 3000, max: 3000}, gpuHours: 34.666667, jobsPreempted: 2, gpuHoursLost: 2.666667}'
expect 0 "$RESCFG" simulate --config "$ON" --trace "$DATA/trace.yaml" --format table
contains out.txt "8 events: 7 finished, 0 running, 0 pending, 0 rejected, 2 preemptions"
contains out.txt "PREEMPTED  GPU-HOURS LOST"
contains out.txt "Dev          4        4      0     25m00s     0s  50m00s  50m00s  50m00s  34.666667          2        2.666667"

# Without preemption: r1 and r2 wait for d1 and d2 until 12:00, and no new key appears.
expect 0 "$RESCFG" simulate --config "$OFF" --trace "$DATA/trace.yaml" --format jsonl
cmp -s out.txt "$DATA/expected-off.jsonl" || { fail "jsonl without preemption differs"; diff out.txt "$DATA/expected-off.jsonl" >&2; }
[ "$(jq -c 'keys_unsorted' out.txt | sort -u)" = \
  '["job","status","policy","profile","pool","queue","resources","submitted","started","finished","wait","reason"]' ] ||
  fail "without preemption the keys must not change"
expect 0 "$RESCFG" simulate --config "$OFF" --trace "$DATA/trace.yaml" --format table
! grep -q PREEMPT out.txt || fail "the table without preemption must not change"

# minRuntime 30m: at 10:20 (the last event before 12:00) no Dev job has run 30 minutes.
expect 0 "$RESCFG" simulate --config "$LONG" --trace "$DATA/trace.yaml" --format json
[ "$(jq -c '[.summary.preemptions, (.jobs[] | select(.job == "r1") | .started)]' out.txt)" = '[0,"2026-12-05T12:00:00.000000Z"]' ] ||
  fail "minRuntime 30m: nothing preempted, r1 starts at 12:00"

# Same input, same bytes.
expect 0 "$RESCFG" simulate --config "$ON" --trace "$DATA/trace.yaml" --format jsonl -o again.jsonl
cmp -s again.jsonl "$DATA/expected.jsonl" || fail "not deterministic"
exit $((failures > 0))
