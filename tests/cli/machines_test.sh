#!/usr/bin/env bash
# Pools made of machines and elastic pools: `nodes`, `guaranteed`, a running
# job's `node`, and how schedule, status, explain and graph show them.
set -u
source "$(dirname "$0")/harness.sh" "$@"
FRAG=$SRC/testdata/schedule/machines-fragmentation

# The A100 example: 8 GPUs free, 2 on each server; 4-GPU jobs go to H100.
expect 0 "$RESCFG" -q schedule -c "$FRAG/config.yaml" -j "$FRAG/jobs.yaml" -f json
[ "$(jq -c '.pools[0] | [.nodes, .largestFree, .machineFree, .free]' out.txt)" = \
  '[{"count":4,"gpus":8},2,[2,2,2,2],8]' ] || fail "A100 pool record: $(jq -c '.pools[0]' out.txt)"
[ "$(jq -c '[.assignments[] | .node]' out.txt)" = '["#1","#1","#2"]' ] || fail "assignments' nodes"
[ "$(jq -r '.pending[0].message' out.txt)" = \
  "needs 8; the free GPUs are spread over machines: A100 bare metal has 8 free, at most 2 on one machine" ] \
  || fail "fragmented message: $(jq -r '.pending[0].message' out.txt)"

# A pool without nodes writes exactly what it wrote before: no node, no machine fields.
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$SRC/testdata/examples/worked-example-jobs.yaml" -f jsonl
if grep -q '"node"' out.txt; then fail "a pool without nodes has no node field"; fi
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$SRC/testdata/examples/worked-example-jobs.yaml" -f json
[ "$(jq -c '[.pools[] | has("nodes") or has("largestFree")] | any' out.txt)" = false ] || fail "v2 pools gained fields"

# status: machines, free per machine, largest free.
expect 0 "$RESCFG" -q status -c "$FRAG/config.yaml" -j "$FRAG/jobs.yaml"
contains out.txt "MACHINES"
contains out.txt "4 x 8 GPUs"
contains out.txt "2 2 2 2"
expect 0 "$RESCFG" -q status -c "$FRAG/config.yaml" -j "$FRAG/jobs.yaml" -f json
[ "$(jq -c '.pools[1] | [.nodes.count, .largestFree, .machineFree]' out.txt)" = '[2,4,[0,4]]' ] \
  || fail "status json: $(jq -c '.pools[1]' out.txt)"

# explain tells fragmentation: enough free GPUs in total, at most 2 on one machine.
expect 0 "$RESCFG" -q explain q4 -c "$FRAG/config.yaml" -j "$FRAG/jobs.yaml"
contains out.txt "q4: pending (fragmented)"
contains out.txt "(at most 2 on one machine); fragmented: 8 free in total, at most 2 on one machine"
expect 0 "$RESCFG" -q explain q4 -c "$FRAG/config.yaml" -j "$FRAG/jobs.yaml" -f json
[ "$(jq -c '[.pools[0].largestFreeWhenDecided, .pools[1].largestFreeWhenDecided]' out.txt)" = '[2,4]' ] \
  || fail "explain json largest free"

# graph shows a pool's machines.
expect 0 "$RESCFG" -q graph -c "$FRAG/config.yaml" -j "$FRAG/jobs.yaml"
contains out.txt "4 machines of 8 GPUs"

# Bad nodes in a jobs file: the job still holds, in the pool only, and says so.
cat > jobs.yaml <<'Y'
apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: a, policy: Research, profile: 4xGPU, state: running, pool: A100 bare metal, node: ""}
  - {id: b, policy: Research, profile: 4xGPU, state: running, pool: A100 bare metal, node: {host: x}}
  - {id: c, policy: Research, profile: 1xGPU, state: running, pool: A100 bare metal, node: n1}
  - {id: d, policy: Research, profile: 1xGPU, state: running, pool: A100 bare metal, node: n2}
  - {id: e, policy: Research, profile: 1xGPU, state: running, pool: A100 bare metal, node: n3}
  - {id: f, policy: Research, profile: 1xGPU, state: running, pool: A100 bare metal, node: n4}
  - {id: g, policy: Research, profile: 1xGPU, state: running, pool: A100 bare metal, node: n5}
  - {id: h, policy: Research, profile: 4xGPU, state: running, pool: H100, node: 7}
Y
expect 0 "$RESCFG" -q schedule -c "$FRAG/config.yaml" -j jobs.yaml -f jsonl
[ "$(jq -r 'select(.job == "a") | .message' out.txt)" = \
  "node must be a non-empty string; it holds in the pool only, on no machine" ] || fail "empty node"
[ "$(jq -r 'select(.job == "b") | [.status, .message] | join("|")' out.txt)" = \
  "running|node must be a non-empty string; it holds in the pool only, on no machine" ] || fail "mistyped node"
[ "$(jq -r 'select(.job == "g") | .message' out.txt)" = \
  "node 'n5' is the 5th distinct node named in pool 'A100 bare metal', which has 4 machines; it holds in the pool only, on no machine" ] \
  || fail "fifth node: $(jq -r 'select(.job == "g") | .message' out.txt)"
[ "$(jq -r 'select(.job == "h") | .node' out.txt)" = 7 ] || fail "a node written as a number is its text in YAML"
[ "$(jq -s -c '[.[] | select(.status == "running") | .resources] | add' out.txt)" = 17 ] || fail "every running job holds"

# JSON Lines: a node that is not a string.
printf '%s\n' '{"id": "x", "policy": "Research", "profile": "4xGPU", "state": "running", "pool": "H100", "node": 3}' > jobs.jsonl
expect 0 "$RESCFG" -q schedule -c "$FRAG/config.yaml" -j jobs.jsonl -f jsonl
[ "$(jq -r '[.status, .message] | join("|")' out.txt)" = \
  "running|node must be a non-empty string; it holds in the pool only, on no machine" ] || fail "jsonl node 3"

# Validation: each with its line and column.
cat > bad.yaml <<'Y'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: A, nodes: {count: 4, gpus: 8}, resources: 16}
  - {name: B, resources: 8, guaranteed: 9}
profiles:
  - {name: p, allotment: 12, links: [{pool: A}]}
policies:
  - {name: t, profiles: [p]}
Y
expect 1 "$RESCFG" validate bad.yaml
contains out.txt "bad.yaml:4:54"
contains out.txt "nodes-resources-mismatch"
contains out.txt "bad.yaml:5:41"
contains out.txt "guaranteed-above-resources"
contains out.txt "allotment-fits-no-machine"

[ "$failures" -eq 0 ] && echo "machines: all passed"
exit "$failures"
