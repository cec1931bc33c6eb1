#!/usr/bin/env bash
# nodes.names: none: a pool whose machines Kubernetes or an autoscaler places.
# Its tasks are not put on a machine by their k8s glue worker's id
# (GLUE_ID:TASK_ID); status, graph and explain say the machines are estimated;
# validate warns about a Kubernetes pool still named after worker ids.
set -u
source "$(dirname "$0")/harness.sh" "$@"

cat > none.yaml <<'Y'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - name: H100
    nodes: {count: 4, gpus: 8, names: none}
    queue: h100
    kubernetes:
      nodeLabels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
profiles:
  - {name: 2xGPU, allotment: 2, links: [H100]}
policies:
  - {name: Dev, profiles: [2xGPU]}
Y
sed 's/, names: none//' none.yaml > worker.yaml
# Eight running 2-GPU tasks, each run by a k8s glue worker glue-h100:TASK_ID, and one waiting.
{
  printf '{"data": {"tasks": ['
  for i in 0 1 2 3 4 5 6 7; do
    printf '{"id": "t%s", "name": "run %s", "status": "in_progress", "execution": {"queue": "h100"}},' "$i" "$i"
  done
  printf '{"id": "w1", "name": "waiting", "status": "queued", "execution": {"queue": "Dev/2xGPU"}}]}}\n'
} > tasks.json
{
  printf '{"data": {"workers": ['
  for i in 0 1 2 3 4 5 6 7; do
    [ "$i" = 0 ] || printf ','
    printf '{"id": "glue-h100:t%s", "task": {"id": "t%s"}, "queue": {"id": "h100", "name": "h100"}}' "$i" "$i"
  done
  printf ']}}\n'
} > workers.json
JOBS=(-j tasks.json --jobs-format clearml --clearml-workers workers.json)

# validate: a warning at the pool's nodes, with its line and column, and what to write.
expect 0 "$RESCFG" validate none.yaml
expect 0 "$RESCFG" validate worker.yaml
contains out.txt "worker.yaml:5:12: warning[k8s-machine-names]: pools[H100].nodes:"
contains out.txt "pool 'H100' is 4 machines of 8 GPUs that Kubernetes places tasks on"
contains out.txt "write nodes: {count: 4, gpus: 8, names: none}"
expect 1 "$RESCFG" validate --strict worker.yaml
expect 0 "$RESCFG" validate -f json worker.yaml
[ "$(jq -c '[.files[0].findings[] | [.code, .severity, .line, .column, .path]]' out.txt)" = \
  '[["k8s-machine-names","warning",5,12,"pools[H100].nodes"]]' ] || fail "validate json: $(cat out.txt)"

# fmt keeps it.
expect 0 "$RESCFG" fmt none.yaml
contains out.txt "nodes: {count: 4, gpus: 8, names: none}"

# schedule: the tasks are spread where new ones would go, not all on "glue-h100".
expect 0 "$RESCFG" -q schedule -c none.yaml "${JOBS[@]}" -f jsonl
[ "$(jq -r '.node' out.txt | tr '\n' ' ')" = "#1 #1 #1 #1 #2 #2 #2 #2 #3 " ] || fail "nodes: $(jq -c '[.job,.node]' out.txt)"

# status: the machines table says estimated, and why, in text and JSON.
expect 0 "$RESCFG" -q status -c none.yaml "${JOBS[@]}"
contains out.txt "H100  4 x 8 GPUs, estimated             8  0 0 6 8"
contains out.txt "estimated: Kubernetes or an autoscaler places these machines (nodes.names: none)"
expect 0 "$RESCFG" -q status -c none.yaml "${JOBS[@]}" -f json
[ "$(jq -c '.pools[0] | [.machinesEstimated, .machineFree]' out.txt)" = '[true,[0,0,6,8]]' ] \
  || fail "status json: $(jq -c '.pools[0]' out.txt)"
# Named after workers: every task on one machine, and nothing said about estimates.
expect 0 "$RESCFG" -q status -c worker.yaml "${JOBS[@]}"
contains out.txt "H100  4 x 8 GPUs             8  0 6 8 8"
if grep -q estimated out.txt; then fail "status of a pool named after workers says estimated"; fi
expect 0 "$RESCFG" -q status -c worker.yaml "${JOBS[@]}" -f json
[ "$(jq '.pools[0] | has("machinesEstimated")' out.txt)" = false ] || fail "status json gained machinesEstimated"

# graph: on the pool and in the legend.
expect 0 "$RESCFG" -q graph -c none.yaml "${JOBS[@]}"
contains out.txt "4 machines of 8 GPUs (machines estimated)"
contains out.txt "free per machine (estimated): 0 0 6 8 (largest 8)"
contains out.txt "estimated: Kubernetes or an autoscaler places the pool's machines (nodes.names: none)"
expect 0 "$RESCFG" -q graph -c none.yaml --format dot
contains out.txt "4 machines of 8 GPUs (machines estimated)"
expect 0 "$RESCFG" -q graph -c worker.yaml "${JOBS[@]}"
if grep -q estimated out.txt; then fail "graph of a pool named after workers says estimated"; fi

# explain: a running task, and a waiting one's linked pool.
expect 0 "$RESCFG" -q explain t3 -c none.yaml "${JOBS[@]}"
contains out.txt "t3: running in H100"
contains out.txt "machines estimated: Kubernetes or an autoscaler places the machines of H100 (nodes.names: none)"
expect 0 "$RESCFG" -q explain w1 -c none.yaml "${JOBS[@]}"
contains out.txt "(at most 8 on one machine, machines estimated); placed here"
expect 0 "$RESCFG" -q explain w1 -c none.yaml "${JOBS[@]}" -f json
[ "$(jq -c '[.machinesEstimated, .pools[0].machinesEstimated]' out.txt)" = '[true,true]' ] \
  || fail "explain json: $(cat out.txt)"
expect 0 "$RESCFG" -q explain w1 -c worker.yaml "${JOBS[@]}" -f json
[ "$(jq -c '[has("machinesEstimated"), (.pools[0] | has("machinesEstimated"))]' out.txt)" = '[false,false]' ] \
  || fail "explain json of a pool named after workers: $(cat out.txt)"
expect 0 "$RESCFG" -q explain w1 -c worker.yaml "${JOBS[@]}"
if grep -q estimated out.txt; then fail "explain of a pool named after workers says estimated"; fi

[ "$failures" -eq 0 ] && echo "machine names: all passed"
exit "$failures"
