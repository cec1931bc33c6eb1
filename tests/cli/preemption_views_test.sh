#!/usr/bin/env bash
# Preemption in explain, status and diff --jobs, on the preemption worked example.
set -u
source "$(dirname "$0")/harness.sh" "$@"
D=$SRC/testdata/schedule/preemption-worked-example
D30=$SRC/testdata/schedule/preemption-worked-example-30m
NOW=2026-12-05T10:20:00Z
expect 0 "$RESCFG" -q explain r1 -c "$D/config.yaml" -j "$D/jobs.yaml" --now $NOW
contains out.txt "Preemption: preempts in Bare Metal Low END GPUs"
contains out.txt "d1 (Dev, 4xGPU, 4) — taken: Dev uses 16 of its 8 reserved, 12 without it"
contains out.txt "d2 (Dev, 4xGPU, 4) — not-needed: r1 fit before the walk reached it"
expect 0 "$RESCFG" -q explain d1 -c "$D/config.yaml" -j "$D/jobs.yaml" --now $NOW -f json
[ "$(jq -c '[.preemption.role, .preemption.preemptor, .preemption.pool]' out.txt)" = \
  '["victim","r1","Bare Metal Low END GPUs"]' ] || fail "d1 json: $(cat out.txt)"
expect 0 "$RESCFG" -q explain r1 -c "$D30/config.yaml" -j "$D30/jobs.yaml" --now $NOW
contains out.txt "min-runtime: runs for 20m"
expect 0 "$RESCFG" -q status -c "$D/config.yaml" -j "$D/jobs.yaml" --now $NOW -f json
[ "$(jq -c '[.teams[0].preempted, .teams[0].stopping]' out.txt)" = '[2,0]' ] || fail "status: $(cat out.txt)"
expect 1 "$RESCFG" -q diff "$D/config.yaml" "$D30/config.yaml" -j "$D/jobs.yaml" --now $NOW
contains out.txt "Preemptions: 2 preemptors, 2 victims -> 0 preemptors, 0 victims"
contains out.txt "(preempted for r1) -> running"
echo "ok"
