#!/usr/bin/env bash
# `rescfg explain JOB`: one job's story in the pass — its need, each linked
# pool with what was free, the jobs placed ahead of it there and the rule
# that put them ahead, and its final reason.
set -u
source "$(dirname "$0")/harness.sh" "$@"
JOBS=$SRC/testdata/examples/worked-example-jobs.yaml

# The worked example: Dev's third job waits; Research's jobs went to H100
# because Dev would have left Research's reservation uncoverable there.
expect 0 "$RESCFG" -q explain dev-3 -c "$EXAMPLE" -j "$JOBS"
contains out.txt "dev-3: pending (capacity)"
contains out.txt "needs 4 (the profile's allotment)"
contains out.txt "1. Bare Metal Low END GPUs (link \"4 GPU Low End\", queue bare-metal, size 8)"
contains out.txt "dev-1 (Dev, 4xGPU, 4) — queue-order"
contains out.txt "research-1 (Research, 4xGPU, 4) — reservation: pool H100 Half a Superpod had 8 free, but policy Dev would have gone beyond its reservation of 8 and left policy Research (8 outstanding) uncoverable"
contains out.txt "Reason: capacity: needs 4; free:"
# Research learns that Dev went first by policy priority.
expect 0 "$RESCFG" -q explain research-3 -c "$EXAMPLE" -j "$JOBS" -f json
[ "$(jq -r '.pools[0].ahead | map(.job + ":" + .rule) | join(" ")' out.txt)" = "dev-1:policy-priority dev-2:policy-priority" ] \
  || fail "research-3 json: $(cat out.txt)"
[ "$(jq -c '[.status, .reason, .pools[1].freeAtStart, .pools[1].freeWhenDecided, .pools[1].aheadTotal]' out.txt)" = \
  '["pending","capacity",8,0,2]' ] || fail "research-3 json summary"
expect 0 "$RESCFG" -q explain research-1 -c "$EXAMPLE" -j "$JOBS" -f json
[ "$(jq -c '[.status, .pool, .placement, .pools[1].verdict]' out.txt)" = '["assigned","H100 Half a Superpod",3,"placed here"]' ] \
  || fail "research-1 json: $(cat out.txt)"

# Execution priority, policy priority, queue order, StrictFIFO, the job's
# own limit and no room. Pool P (8) favours small, then big, then tiny.
# Derivation: s1, s2, s3 (small, rank 1) go first, one by one (StrictFIFO);
# then big: b1 (policy A ranks before C) fills A's limit of 2; b2 is over
# A's limit; c1 takes 2 (1 free); c2 does not fit; t1 (tiny) takes the last.
cat > rules.yaml <<'Y'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: P, resources: 8, executionPriority: [small, big, tiny]}
profiles:
  - {name: big, allotment: 2, links: [{pool: P, queue: p-big}]}
  - {name: small, allotment: 1, queueing: StrictFIFO, links: [{pool: P, queue: p-small}]}
  - {name: tiny, allotment: 1, links: [{pool: P, queue: p-tiny}]}
policies:
  - {name: A, limit: 2, profiles: [big]}
  - {name: B, profiles: [small]}
  - {name: C, profiles: [big, tiny]}
Y
cat > rules-jobs.yaml <<'Y'
apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: b1, policy: A, profile: big}
  - {id: s1, policy: B, profile: small}
  - {id: b2, policy: A, profile: big}
  - {id: s2, policy: B, profile: small}
  - {id: s3, policy: B, profile: small}
  - {id: c1, policy: C, profile: big}
  - {id: c2, policy: C, profile: big}
  - {id: t1, policy: C, profile: tiny}
Y
ahead() { jq -r '.pools[0].ahead | map(.job + ":" + .rule) | join(" ")' out.txt; }
expect 0 "$RESCFG" -q explain b1 -c rules.yaml -j rules-jobs.yaml -f json
[ "$(ahead)" = "s1:execution-priority s2:execution-priority s3:execution-priority" ] || fail "b1: $(ahead)"
[ "$(jq -c '[.status, .placement]' out.txt)" = '["assigned",4]' ] || fail "b1 placement"
jq -r '.pools[0].ahead[0].detail' out.txt | grep -q "profile small ranks 1 in pool P's execution priority; profile big ranks 2" \
  || fail "execution priority detail: $(jq -r '.pools[0].ahead[0].detail' out.txt)"
expect 0 "$RESCFG" -q explain s3 -c rules.yaml -j rules-jobs.yaml -f json
[ "$(ahead)" = "s1:strict-fifo s2:strict-fifo" ] || fail "s3: $(ahead)"
expect 0 "$RESCFG" -q explain b2 -c rules.yaml -j rules-jobs.yaml -f json
[ "$(ahead)" = "s1:execution-priority s2:execution-priority s3:execution-priority b1:queue-order c1:limit t1:limit" ] \
  || fail "b2: $(ahead)"
[ "$(jq -c '[.status, .reason]' out.txt)" = '["pending","limit"]' ] || fail "b2 reason"
expect 0 "$RESCFG" -q explain c2 -c rules.yaml -j rules-jobs.yaml -f json
[ "$(ahead)" = "s1:execution-priority s2:execution-priority s3:execution-priority b1:policy-priority c1:queue-order t1:capacity" ] \
  || fail "c2: $(ahead)"
[ "$(jq -c '[.status, .reason, .pools[0].freeWhenDecided]' out.txt)" = '["pending","capacity",0]' ] || fail "c2 reason"
expect 0 "$RESCFG" -q explain c2 -c rules.yaml -j rules-jobs.yaml --max-ahead 2
contains out.txt "placed there before it (6):"
contains out.txt "... and 4 more"

# Rejected and running jobs, -o, unknown jobs.
cat > other.jsonl <<'J'
{"id": "r1", "policy": "Dev", "profile": "4xGPU", "state": "running", "pool": "H100 Half a Superpod"}
{"id": "x1", "policy": "Nobody", "profile": "4xGPU"}
J
expect 0 "$RESCFG" -q explain x1 -c "$EXAMPLE" -j other.jsonl
contains out.txt "x1: rejected (unknown-policy)"
contains out.txt "Reason: unknown-policy: line 2: policy 'Nobody' is not in the configuration"
expect 0 "$RESCFG" -q explain r1 -c "$EXAMPLE" -j other.jsonl -o story.txt
[ -s out.txt ] && fail "-o also wrote to standard output"
grep -q "r1: running in H100 Half a Superpod" story.txt || fail "running story: $(cat story.txt)"
expect 2 "$RESCFG" -q explain dev-33 -c "$EXAMPLE" -j "$JOBS"
expect 2 "$RESCFG" explain dev-9 -c "$EXAMPLE" -j "$JOBS"
contains err.txt "rescfg: error: no job 'dev-9' in the jobs file; did you mean 'dev-1'?"
expect 2 "$RESCFG" explain dev-1 -c "$EXAMPLE"

[ "$failures" -eq 0 ] && echo "explain: all passed"
exit "$failures"
