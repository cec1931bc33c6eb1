# Shared set-up of the end-to-end tests of `rescfg sync` (sourced after
# harness.sh): a configuration of two pools and three policies, provisioned
# into ./state; the ClearML API test double (tests/double/clearml_server.py)
# with an agent per pool; the invariants of tests/double/sync_invariants.py.
DOUBLE_DIR=$SRC/tests/double
export PYTHONDONTWRITEBYTECODE=1
# The interpreter itself, once: a version manager's shim in PATH can cost
# seconds at every start on a loaded machine.
PYTHON=$(python3 -c 'import sys; print(sys.executable)') || { echo "sync tests: python3 is required"; exit 1; }
# A secret that nothing else contains, so that grepping for it finds only leaks.
SECRET="s3cr3t-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
export CLEARML_API_ACCESS_KEY=rescfg-test-key CLEARML_API_SECRET_KEY=$SECRET
unset CLEARML_API_HOST
ROUNDS_SCALE=2
[ -n "${RESCFG_TEST_QUICK:-}" ] && ROUNDS_SCALE=1
[ -n "${RESCFG_TEST_DEEP:-}" ] && ROUNDS_SCALE=10
command -v jq >/dev/null && command -v curl >/dev/null ||
  { echo "sync tests: jq and curl are required (scripts/install-deps.sh)"; exit 1; }

# Skips the whole test (exit 0, with a note) while the command is missing.
require_sync() {
  if ! "$RESCFG" sync --help >/dev/null 2>&1; then
    echo "SKIP: this rescfg has no 'sync' command yet; $(basename "$0") did not run"
    exit 0
  fi
}

cat > config.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - name: Metal
    resources: 8
    queue: metal
  - name: K8s
    resources: 8
    queue: k8s
profiles:
  - name: 2xGPU
    allotment: 2
    links:
      - {pool: Metal, queue: metal-2gpu}
      - {pool: K8s, queue: k8s-2gpu}
  - name: 4xGPU
    allotment: 4
    links:
      - {pool: K8s, queue: k8s-4gpu}
      - {pool: Metal, queue: metal-4gpu}
policies:
  - name: Dev
    reserved: 4
    limit: 8
    profiles:
      - {profile: 2xGPU, queue: dev-2gpu}
      - {profile: 4xGPU, queue: dev-4gpu}
  - name: Research
    reserved: 4
    limit: 12
    profiles:
      - {profile: 2xGPU, queue: research-2gpu}
      - {profile: 4xGPU, queue: research-4gpu}
  - name: Sandbox
    profiles:
      - {profile: 2xGPU, queue: sandbox-2gpu}
EOF
# The same configuration for the invariants checker.
cat > layout.json <<'EOF'
{"pools": {"Metal": {"size": 8, "queues": ["metal", "metal-2gpu", "metal-4gpu"]},
           "K8s": {"size": 8, "queues": ["k8s", "k8s-2gpu", "k8s-4gpu"]}},
 "policies": {
   "Dev": {"limit": 8, "queues": {"dev-2gpu": {"need": 2, "to": ["metal-2gpu", "k8s-2gpu"]},
                                  "dev-4gpu": {"need": 4, "to": ["k8s-4gpu", "metal-4gpu"]}}},
   "Research": {"limit": 12, "queues": {"research-2gpu": {"need": 2, "to": ["metal-2gpu", "k8s-2gpu"]},
                                        "research-4gpu": {"need": 4, "to": ["k8s-4gpu", "metal-4gpu"]}}},
   "Sandbox": {"limit": null, "queues": {"sandbox-2gpu": {"need": 2, "to": ["metal-2gpu", "k8s-2gpu"]}}}}}
EOF
POLICY_QUEUES=(dev-2gpu dev-4gpu research-2gpu research-4gpu sandbox-2gpu)
"$RESCFG" -q provision config.yaml --state state -m "sync tests" >/dev/null 2>provision.err ||
  { echo "FAIL: the sync tests' configuration does not provision: $(cat provision.err)" >&2; exit 1; }

# setup_json [TASKS] [EXTRA]: the double's setup: the credentials, every queue
# of the configuration, a bare-metal agent (direct) and a k8s glue, TASKS (a
# JSON array) and EXTRA (an object merged last, e.g. faults or max_page_size).
setup_json() {
  jq -n --arg key "$CLEARML_API_ACCESS_KEY" --arg secret "$SECRET" \
    --argjson tasks "${1:-[]}" --argjson extra "${2:-{\}}" '{
    credentials: [{key: $key, secret: $secret}],
    max_page_size: 7,
    queues: ([("dev-2gpu", "dev-4gpu", "research-2gpu", "research-4gpu", "sandbox-2gpu",
               "metal", "metal-2gpu", "metal-4gpu", "k8s", "k8s-2gpu", "k8s-4gpu")] | map({name: .})),
    tasks: $tasks,
    agents: [
      {name: "metal", host: "metal-node-1", mode: "direct", capacity: 8, run_ticks: 2,
       queues: [{queue: "metal-4gpu", gpus: 4}, {queue: "metal-2gpu", gpus: 2}, {queue: "metal", gpus: 2}]},
      {name: "glue", host: "k8s-glue", mode: "k8s", capacity: 8, run_ticks: 3, start_ticks: 1,
       queues: [{queue: "k8s-4gpu", gpus: 4}, {queue: "k8s-2gpu", gpus: 2}, {queue: "k8s", gpus: 2}]}]
  } + $extra'
}

# tasks_json N [PREFIX] [OFFSET]: N queued tasks PREFIX0.. spread over the
# policy queues, the first in queue number OFFSET.
tasks_json() {
  local n=$1 prefix=${2:-t} offset=${3:-0} i out="[" sep=""
  for ((i = 0; i < n; i++)); do
    out+="$sep{\"id\": \"$prefix$i\", \"name\": \"train-$prefix$i\", \"status\": \"queued\", \"queue\": \"${POLICY_QUEUES[$(((i + offset) % 5))]}\"}"
    sep=", "
  done
  echo "$out]"
}

# start_double SETUP_FILE: starts the double; sets URL and DOUBLE_PID.
start_double() {
  rm -f port
  "$PYTHON" "$DOUBLE_DIR/clearml_server.py" --port-file port --setup "$1" --log double.log 2>double.err &
  DOUBLE_PID=$!
  trap 'kill "$DOUBLE_PID" 2>/dev/null; wait "$DOUBLE_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
  poll 10 test -s port || { echo "FAIL: the ClearML API double did not start: $(cat double.err)" >&2; exit 1; }
  URL=http://127.0.0.1:$(cat port)
}

# ctl ACTION [JSON]: a control call of the double; its answer on stdout.
ctl() { curl -sf -X POST -H 'Content-Type: application/json' --data "${2:-{\}}" "$URL/_double/$1"; }

# reset_double SETUP_FILE: the double back to SETUP (its log emptied).
reset_double() { ctl reset "$(cat "$1")" >/dev/null && : > double.log; }

# check_invariants LABEL [RECORDS]: the promises hold on the double's state
# now (tests/double/sync_invariants.py, run inside the double), and each
# "moved" record of RECORDS is a move the server saw. Writes the counts to
# counts.json and the state to double-state.json.
check_invariants() {
  local answer
  answer=$(ctl check "{\"layout\": \"layout.json\", \"records\": \"${2:-}\", \"counts\": \"counts.json\",
                       \"state\": \"double-state.json\"}") || { fail "$1: the double does not answer"; return 1; }
  case $answer in
    '{"problems": [],'*) return 0 ;;
    *) fail "$1: $answer"; return 1 ;;
  esac
}

# sync_once [ARGS...]: one cycle against the double, output in out.txt/err.txt
# (exit 124: it hung for two minutes).
sync_once() {
  timeout -k 5 "${SYNC_TIMEOUT:-120}" "$RESCFG" sync --state "${STATE_DIR:-state}" --clearml-server "$URL" --once "$@" >out.txt 2>err.txt
}

# mutating_calls: how many calls of the double's log could have changed something.
mutating_calls() {
  jq -s '[.[] | select(.endpoint | test("^(tasks\\.(enqueue|dequeue|stop)|queues\\.(add_task|remove_task|get_next_task|move_task.*))$"))] | length' double.log
}

# check_lines FILE: every line of FILE is a move record of the output contract.
check_lines() {
  jq -e -s 'all(.[]; has("cycle") and has("time") and has("task") and has("name") and has("policy")
            and has("profile") and has("pool") and has("from") and has("to")
            and (.result | IN("moved", "skipped", "failed", "planned"))
            and (if .result == "skipped" or .result == "failed" then has("detail") else true end))' "$1" >/dev/null ||
    { fail "$1 holds lines that are no move records"; sed 's/^/  | /' "$1" | head -5 >&2; }
}


# provision_preemption: turns preemption on (no minimum run time, no delay) in
# the tests' configuration and provisions it.
provision_preemption() {
  cat >> config.yaml <<'YAML'
preemption:
  minRuntime: 0
  delay: 0
  stopTimeout: 5m
YAML
  "$RESCFG" -q provision config.yaml --state state -m "preemption" >/dev/null 2>provision.err ||
    { echo "FAIL: the preemption configuration does not provision: $(cat provision.err)" >&2; exit 1; }
}
