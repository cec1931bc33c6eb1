#!/bin/bash
# rescfg export kueue from the command line: exit codes, findings with their
# configuration paths on stderr and as JSON data, -o written atomically and
# never on unusable input, the provisioned state as the source, and the
# configurations Kueue cannot hold. Usage: kueue_export_test.sh RESCFG SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"
lacks() { ! grep -qF -- "$2" "$1" || { fail "$1 holds '$2'"; sed 's/^/  | /' "$1" >&2; }; }

# The worked example: exit 1, the documents on stdout, one finding a line on stderr.
expect 1 "$RESCFG" export kueue --config "$EXAMPLE"
cp out.txt worked.yaml
contains out.txt "kind: ResourceFlavor"
contains out.txt "  name: h100-half-a-superpod"
contains out.txt "  parentName: rescfg"
contains out.txt "    - {name: \"nvidia.com/gpu\", nominalQuota: 8}"
contains out.txt "  flavorFungibility: {whenCanBorrow: MayStopSearch, whenCanPreempt: TryNextFlavor}"
contains out.txt "  clusterQueue: research-4xgpu"
contains out.txt "kind: WorkloadPriorityClass"
[ "$(grep -c '^---$' out.txt)" = 21 ] || fail "expected 21 objects, got $(grep -c '^---$' out.txt)"
[ "$(wc -l < err.txt)" = 9 ] || fail "expected 9 findings, got $(wc -l < err.txt)"
contains err.txt "worked-example.yaml:37:15: kueue-split-reservation: policies[Dev].reserved: the reservation 8 of 'Dev' holds in whichever pools its jobs reach, but Kueue quota belongs to one flavor: it is split as 8 in 'Bare Metal Low END GPUs' and 0 in 'H100 Half a Superpod'"
contains err.txt "worked-example.yaml:42:15: kueue-split-reservation: policies[Research].reserved:"
contains err.txt "worked-example.yaml:15:24: kueue-execution-priority: pools[H100 Half a Superpod].executionPriority: Kueue cannot order workloads per flavor"
contains err.txt "worked-example.yaml:30:21: kueue-policy-priority: profiles[4xGPU].policyPriority: Kueue's priority is not strict"
contains err.txt "worked-example.yaml:20:9: kueue-fraction: profiles[0.5xGPU].links[0]: a job of '0.5xGPU' needs 0.5 GPU"
contains err.txt "worked-example.yaml:26:16: kueue-fixed-allotment: profiles[4xGPU].allotment: Kueue charges each workload what its pods request"
grep -q '^rescfg: warning: ' err.txt || fail "findings are not warnings on stderr"

# Same input, byte-identical output; -o writes the same documents.
expect 1 "$RESCFG" export kueue --config "$EXAMPLE" -o objects.yaml
cmp -s objects.yaml worked.yaml || fail "-o differs from stdout"
[ -s out.txt ] && fail "-o still prints the documents"

# --format json: the documents and the findings as data.
expect 1 "$RESCFG" export kueue --config "$EXAMPLE" --format json
python3 - out.txt worked.yaml <<'PY' || fail "json output"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["kind"] == "Export" and doc["target"] == "kueue", doc.keys()
assert doc["documents"] == open(sys.argv[2]).read()
codes = sorted(f["code"] for f in doc["findings"])
assert codes == sorted(["kueue-execution-priority", "kueue-fixed-allotment", "kueue-fixed-allotment",
                        "kueue-fixed-allotment", "kueue-fixed-allotment", "kueue-fraction",
                        "kueue-policy-priority", "kueue-split-reservation", "kueue-split-reservation"]), codes
dev = [f for f in doc["findings"] if f["path"] == "policies[Dev].reserved"][0]
assert dev["line"] == 37 and "split as 8 in" in dev["message"], dev
PY
# ... and the objects as data: the YAML documents, as JSON.
for config in "$EXAMPLE" "$SRC/testdata/valid/kubernetes.yaml"; do
  "$RESCFG" export kueue --config "$config" --format json > objects.json 2> /dev/null
  python3 - objects.json <<'PY' || fail "$config: the JSON objects differ from the YAML documents"
import json, sys, yaml
doc = json.load(open(sys.argv[1]))
assert doc["objects"] == [o for o in yaml.safe_load_all(doc["documents"]) if o is not None]
assert len(doc["objects"]) > 10
PY
done

# From the provisioned state: the same objects.
expect 0 "$RESCFG" provision "$EXAMPLE" --state st
expect 1 "$RESCFG" export kueue --state st
cmp -s out.txt worked.yaml || fail "the state's export differs from the file's"

# A faithful export exits 0: one pool, a dynamic profile, reservation and limit in it.
cat > exact.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: Rack, resources: 8}
  - {name: Spare, resources: 2}
  - {name: Old, resources: 2, paused: true}
  - {name: Gone, resources: 1, paused: true}
profiles:
  - {name: flex, allotment: 1, dynamic: {parameter: runtime.gpus}, queueing: StrictFIFO, links: [{pool: Rack}]}
  - {name: solo, allotment: 1, dynamic: {parameter: runtime.gpus}, links: [{pool: Spare}, {pool: Old}]}
  - {name: stale, allotment: 1, dynamic: {parameter: runtime.gpus}, links: [{pool: Gone}]}
policies:
  - {name: Team, reserved: 2, limit: 6, profiles: [flex]}
  - {name: Frozen, paused: true, profiles: [solo]}
  - {name: Idle, profiles: [stale]}
EOF
expect 0 "$RESCFG" export kueue --config exact.yaml
[ -s err.txt ] && fail "a faithful export prints findings: $(cat err.txt)"
contains out.txt "  queueingStrategy: StrictFIFO"
contains out.txt "    - {key: \"rescfg.io/paused\", value: \"true\", effect: NoSchedule}"
contains out.txt "    - {name: \"nvidia.com/gpu\", nominalQuota: 2, borrowingLimit: 4}"
# Held: the paused policy's queue, and the one whose pools are all paused.
[ "$(grep -c 'stopPolicy: Hold' out.txt)" = 2 ] || fail "expected 2 held ClusterQueues"
awk '/^---$/ {doc = ""} {doc = doc $0 "\n"} /stopPolicy: Hold/ && doc ~ /name: idle-stale\n/ {held = 1}
     END {exit !held}' out.txt || fail "idle-stale is not held"
sed 's/^kind: ResourceConfiguration$/&\nenabled: false/' exact.yaml > disabled.yaml
expect 0 "$RESCFG" export kueue --config disabled.yaml
[ "$(grep -c 'stopPolicy: Hold' out.txt)" = 3 ] || fail "enabled: false does not hold every ClusterQueue"

# Counted in ticks: exact fractions, and the transformations Kueue needs.
cat > ticks.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
kubernetes: {ticksResource: rescfg.io/gpu-ticks, namespace: ml}
pools:
  - {name: a, resources: 7.5, gpuFractions: {mig: {"1/7": nvidia.com/mig-1g.10gb}}}
profiles:
  - {name: seventh, allotment: "1/7", dynamic: {parameter: runtime.gpus}, links: [{pool: a}]}
policies:
  - {name: t, reserved: "1/7", profiles: [seventh], kubernetes: {namespace: team-t}}
EOF
expect 0 "$RESCFG" export kueue --config ticks.yaml
contains out.txt "#       - {input: nvidia.com/mig-1g.10gb, strategy: Replace, outputs: {rescfg.io/gpu-ticks: \"1287000000\"}}"
contains out.txt "    - {name: \"rescfg.io/gpu-ticks\", nominalQuota: 1287000000}"
contains out.txt "    - {name: \"rescfg.io/gpu-ticks\", nominalQuota: 66280500000}"  # 7.5 - 1/7
contains out.txt "  namespace: team-t"
contains out.txt "matchLabels: {kubernetes.io/metadata.name: team-t}"

# Unusable input: exit 2, the reason with its line, nothing written to -o.
unusable() {  # unusable CONFIG TEXT...: exit 2, each TEXT on stderr, kept.yaml untouched
  local config=$1; shift
  echo "keep me" > kept.yaml
  expect 2 "$RESCFG" export kueue --config "$config" -o kept.yaml
  for text in "$@"; do contains err.txt "$text"; done
  [ "$(cat kept.yaml)" = "keep me" ] || fail "$config: -o was written"
  [ -s out.txt ] && fail "$config: stdout is not empty"
}
cat > collide.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: GPUs, resources: 8}
  - {name: gpus, resources: 8}
profiles:
  - {name: p, allotment: 1, links: [{pool: GPUs}, {pool: gpus}]}
policies:
  - {name: Dev Team, profiles: [p]}
  - {name: dev-team, profiles: [p]}
EOF
unusable collide.yaml \
  "rescfg: error: collide.yaml:5:12: kueue-name-collision: pool 'gpus' and pool 'GPUs' (line 4) both become the Kueue ResourceFlavor 'gpus'" \
  "collide.yaml:10:12: kueue-name-collision: policy 'dev-team' and policy 'Dev Team' (line 9) both become the Kueue Cohort 'dev-team'" \
  "collide.yaml:10:33: kueue-name-collision: policy queue 'dev-team/p' and policy queue 'Dev Team/p' (line 9) both become the Kueue ClusterQueue 'dev-team-p'"
long=$(printf 'x%.0s' {1..70})
sed "s/name: GPUs,/name: ${long}A,/; s/name: gpus,/name: ${long}B,/; s/pool: GPUs/pool: ${long}A/; s/pool: gpus/pool: ${long}B/; s/dev-team/Ops/" \
  collide.yaml > long.yaml
# Two long names that only the cut to 63 characters makes one: each gets
# 8 hex digits of the sha256 of its whole name instead of its tail.
"$RESCFG" export kueue --config long.yaml -o long.out 2>err.txt
[ $? -le 1 ] || fail "long names that the cut makes one: $(cat err.txt)"
for name in "${long}A" "${long}B"; do
  contains long.out "name: $(printf 'x%.0s' {1..54})-$(printf '%s' "$name" | sha256sum | cut -c1-8)"
done
sed 's/resources: 8}/resources: 7.5}/' exact.yaml > fractional.yaml
unusable fractional.yaml "fractional.yaml:4:29: kueue-fractional-pool: pool 'Rack' holds 7.5 GPUs, not a whole number"
cat > badlabel.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - name: a
    resources: 8
    kubernetes:
      nodeLabels: {"gpu type": h100}
      nodeTaints: [{key: dedicated, effect: Sometimes}]
profiles:
  - {name: p, allotment: 1, links: [{pool: a}]}
policies:
  - {name: t, profiles: [p]}
EOF
unusable badlabel.yaml \
  "badlabel.yaml:7:20: bad-kubernetes: 'gpu type' is not a Kubernetes label key" \
  "badlabel.yaml:8:45: bad-kubernetes: unknown taint effect 'Sometimes' (use NoSchedule, PreferNoSchedule or NoExecute)"
expect 1 "$RESCFG" validate badlabel.yaml
contains out.txt "error[bad-kubernetes]: pools[a].kubernetes.nodeLabels[gpu type]"

# More pools than a resource group holds.
{
  printf 'apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools:\n'
  for i in $(seq 65); do echo "  - {name: p$i, resources: 1}"; done
  printf 'profiles:\n  - name: wide\n    allotment: 1\n    links:\n'
  for i in $(seq 65); do echo "      - {pool: p$i}"; done
  printf 'policies:\n  - {name: t, profiles: [wide]}\n'
} > wide.yaml
unusable wide.yaml "kueue-too-many-flavors: profile 'wide' spans 65 pools, but a Kueue resource group lists at most 64 flavors"

# The clearml-agent flag --mode is an error with kueue.
expect 2 "$RESCFG" export kueue --config "$EXAMPLE" --mode daemon
contains err.txt "--mode applies to export clearml-agent, not kueue"

# --pool (repeatable): only the pools on Kubernetes. Without it the output is
# the whole export; naming every pool gives the same bytes.
cat > mixed.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: gpu-k8s, resources: 8}
  - {name: metal, nodes: {count: 2, gpus: 8}}
  - {name: cpu-k8s, resources: 4}
profiles:
  - {name: 2xGPU, allotment: 2, links: [{pool: metal, queue: m2}, {pool: gpu-k8s, queue: k2}, {pool: cpu-k8s, queue: c2}]}
  - {name: metal-only, allotment: 1, links: [{pool: metal, queue: m1}]}
policies:
  - {name: dev, reserved: 8, limit: 8, profiles: [2xGPU, metal-only]}
  - {name: ops, profiles: [metal-only]}
EOF
expect 1 "$RESCFG" export kueue --config mixed.yaml -o whole.yaml
contains err.txt "kueue-starved-queue"
expect 1 "$RESCFG" export kueue --config mixed.yaml --pool metal --pool gpu-k8s --pool cpu-k8s -o named.yaml
cmp -s whole.yaml named.yaml || fail "naming every pool changed the export"
expect 1 "$RESCFG" export kueue --config mixed.yaml --pool gpu-k8s --pool cpu-k8s -o k8s.yaml
# The whole limit over the exported pools alone: none of it lies in metal.
! grep -q "kueue-starved-queue" err.txt || fail "--pool starved a queue by a limit split over pools Kueue never sees"
contains err.txt "the limit 8 of 'dev' holds across pools, but Kueue caps each flavor apart: it is split as 6 in 'gpu-k8s' and 2 in 'cpu-k8s'"
contains err.txt "kueue-split-reservation: policies[dev].reserved: the reservation 8 of 'dev' holds in whichever pools its jobs reach; split over all of them, 8 in 'metal' rests on pools this export leaves out"
[ "$(grep -c '^kind: ResourceFlavor' k8s.yaml)" = 2 ] || fail "--pool gpu-k8s --pool cpu-k8s did not give two ResourceFlavors"
[ "$(grep -c '^kind: LocalQueue' k8s.yaml)" = 1 ] || fail "--pool kept queues that reach no exported pool"
! grep -q 'rescfg.io/pool: "metal"' k8s.yaml || fail "--pool exported pool metal"
if /usr/bin/python3 -c 'import jsonschema, yaml' 2>/dev/null; then
  /usr/bin/python3 "$SRC/tests/kueue_crd_check.py" "$SRC/testdata/kueue-crds" k8s.yaml > crd.txt 2>&1 ||
    fail "the --pool export breaks Kueue's CRDs: $(head -c 600 crd.txt)"
fi
expect 2 "$RESCFG" export kueue --config mixed.yaml --pool gpu-k8s --pool gpu-k9s -o never.yaml
contains err.txt "unknown-pool: --pool 'gpu-k9s': the configuration has no pool of that name (did you mean 'gpu-k8s'?)"
[ ! -e never.yaml ] || fail "an unknown --pool wrote a file"
# export clearml-agent takes one --pool.
expect 2 "$RESCFG" export clearml-agent --config mixed.yaml --pool gpu-k8s --pool metal
contains err.txt "export clearml-agent takes one --pool"

# A limit too low for one job of each queue in each of its pools: the
# queue and pool Kueue never admits are each an error, still exit 1 with
# the objects written.
cat > starved.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: H100, resources: 32}
  - {name: T4, resources: 8}
profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: H100}]}
  - {name: 1xGPU, allotment: 1, links: [{pool: T4, queue: t4-1}]}
policies:
  - {name: Tight, limit: 8, profiles: [{profile: 8xGPU, queue: tight-big}, {profile: 1xGPU, queue: tight-small}]}
EOF
expect 1 "$RESCFG" export kueue --config starved.yaml -o starved-out.yaml
contains err.txt "rescfg: error: starved.yaml:10:26: kueue-starved-queue: policies[Tight].limit: the limit 8 of 'Tight', split over its pools, leaves 0 in 'T4', less than one job of its queue 'tight-small' (1)"
contains starved-out.yaml "kind: ClusterQueue"
expect 1 "$RESCFG" export kueue --config starved.yaml -f json
[ "$(jq -c '[.findings[] | select(.code == "kueue-starved-queue") | [.severity, .accepted]]' out.txt)" = '[["error",false]]' ] ||
  fail "starved finding as data: $(jq -c .findings out.txt)"
sed -i 's/limit: 8,/limit: 9,/' starved.yaml
expect 1 "$RESCFG" export kueue --config starved.yaml
lacks err.txt "kueue-starved-queue"

# --accept: the worked example's reviewed findings no longer make the exit 1.
expect 0 "$RESCFG" export kueue --config "$EXAMPLE" -o accepted.yaml --accept \
  kueue-split-reservation,kueue-execution-priority,kueue-policy-priority,kueue-fraction --accept kueue-fixed-allotment
cmp -s accepted.yaml worked.yaml || fail "--accept changed the documents"
[ "$(grep -c '^rescfg: note: .*(accepted)$' err.txt)" = 9 ] || fail "expected 9 notes: $(cat err.txt)"
expect 1 "$RESCFG" export kueue --config "$EXAMPLE" --accept kueue-split-reservation
[ "$(grep -c '^rescfg: warning: ' err.txt)" = 7 ] || fail "expected 7 warnings left: $(cat err.txt)"
expect 2 "$RESCFG" export kueue --config "$EXAMPLE" --accept kueue-split-reservaton -o never.yaml
contains err.txt "did you mean 'kueue-split-reservation'?"
[ -e never.yaml ] && fail "an unknown --accept code still wrote the output"
expect 2 "$RESCFG" export kueue --config "$EXAMPLE" --accept mixed-queue

# --help teaches the targets.
expect 0 "$RESCFG" export --help
contains out.txt "kueue"

[ "$failures" -eq 0 ] || exit 1
echo PASS
