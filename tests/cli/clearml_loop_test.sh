#!/usr/bin/env bash
# The ClearML loop recipe of the README, run exactly as written (the block
# between its clearml-loop markers) against tests/double/clearml_server.py,
# the test double of the ClearML API server on loopback, which logs the
# requests it receives. The worked example is provisioned; its eight tasks
# wait in their policy queues. One round must make the snapshot calls with
# the credentials and then hand exactly rescfg's four assignments over, in
# placement order, with the bodies of rescfg(5), SCHEDULE OUTPUT.
set -u
source "$(dirname "$0")/harness.sh" "$@"
command -v curl >/dev/null || { echo "clearml_loop_test: curl is required (scripts/install-deps.sh)"; exit 1; }
SCENARIO=$SRC/testdata/schedule/clearml-worked-example

# The recipe, exactly as the README has it.
awk '/<!-- clearml-loop: begin/ {on = 1; next} /<!-- clearml-loop: end/ {on = 0} on' "$SRC/README.md" |
  sed '1{/^```sh$/d}; ${/^```$/d}' > clearml-loop.sh
head -1 clearml-loop.sh | grep -q '^#!/bin/sh' || fail "could not extract the recipe from README.md"

# The double's setup: the snapshot's tasks and queues, one idle worker and
# a task of another project (in no queue of the configuration).
jq -n --slurpfile t "$SCENARIO/tasks.json" --slurpfile q "$SCENARIO/queues.json" '{
  credentials: [{key: "key-1", secret: "secret-1"}],
  tasks: ($t[0].data.tasks + [{id: "f00d", name: "old", status: "completed", execution: {queue: "x"}}]),
  queues: $q[0].data.queues,
  workers: [{id: "bare-metal-1:gpu0", task: null, queue: null,
             queues: [{id: "24288085c2d6f61e242efcb1a762dddf", name: "bare-metal", num_tasks: 0}]}]}' > setup.json
python3 "$SRC/tests/double/clearml_server.py" --port-file port --setup setup.json --log requests.log 2>double.err &
double=$!
trap 'kill "$double" 2>/dev/null; wait "$double" 2>/dev/null; rm -rf "$WORK"' EXIT
wait_for "the API double to start" 10 test -s port || { cat double.err >&2; exit 1; }
URL=http://127.0.0.1:$(cat port)

expect 0 "$RESCFG" -q provision "$SCENARIO/config.yaml" --state state -m "worked example"
mkdir bin && ln -s "$RESCFG" bin/rescfg
CLEARML_API_HOST=$URL CLEARML_API_ACCESS_KEY=key-1 CLEARML_API_SECRET_KEY=secret-1 \
  STATE=state PATH="$WORK/bin:$PATH" expect 0 sh clearml-loop.sh

# The calls, in order, all POSTs of JSON with the key and secret (Basic).
[ "$(jq -r .path requests.log | tr '\n' ' ')" = \
  "/tasks.get_all /queues.get_all /workers.get_all /tasks.enqueue /tasks.enqueue /tasks.enqueue /tasks.enqueue " ] ||
  { fail "unexpected calls"; cat requests.log >&2; }
[ "$(jq -r '[.method, .auth, .content_type] | join(" ")' requests.log | sort -u)" = "POST basic application/json" ] ||
  fail "every call is a POST of JSON with basic credentials"
jq -c 'select(.path == "/tasks.get_all") | .body' requests.log > get-all.json
[ "$(jq -c '[.status, .page, .page_size, (.only_fields | index("execution.queue") != null)]' get-all.json)" = \
  '[["queued","in_progress"],0,500,true]' ] || { fail "tasks.get_all body"; cat get-all.json >&2; }

# The hand-over: exactly what rescfg decides, in placement order.
jq -c 'select(.path == "/tasks.enqueue") | .body' requests.log > enqueued.jsonl
"$RESCFG" -q schedule --state state --jobs "$SCENARIO/tasks.json" --jobs-format clearml \
  --clearml-queues "$SCENARIO/queues.json" --format clearml | jq -c .body > decided.jsonl
cmp -s enqueued.jsonl decided.jsonl || { fail "the enqueued bodies differ from rescfg's requests"; diff decided.jsonl enqueued.jsonl >&2; }
cat > want.jsonl <<'JSON'
{"task":"91adc996a2352feec7b42c15a1ce2cb4","queue":"24288085c2d6f61e242efcb1a762dddf","update_execution_queue":false}
{"task":"e711352015bce30beeb4689b4309e019","queue":"24288085c2d6f61e242efcb1a762dddf","update_execution_queue":false}
{"task":"94b4e2b2b520620d510cef328b991344","queue":"81c709e3f7b46f8237a52f6cf3663024","update_execution_queue":false}
{"task":"0a4ea330e320039def126368efa7ed05","queue":"81c709e3f7b46f8237a52f6cf3663024","update_execution_queue":false}
JSON
cmp -s enqueued.jsonl want.jsonl || { fail "the enqueued bodies are not the worked example's"; cat enqueued.jsonl >&2; }

# The double applied them: Dev's first two wait in bare-metal, Research's in
# h100-4gpu; the policy queues keep the rest; execution.queue is unchanged.
curl -sf "$URL/_double/state" > double-state.json || fail "the double's state cannot be read"
[ "$(jq -c '[.queues[] | select(.name == "bare-metal" or .name == "h100-4gpu" or .name == "dev-4gpu") | [.name, (.entries | length)]]' double-state.json)" = \
  '[["dev-4gpu",2],["bare-metal",2],["h100-4gpu",2]]' ] || { fail "queue entries after the round"; jq -c '.queues[] | [.name, .entries]' double-state.json >&2; }
[ "$(jq -r '.tasks[] | select(.id == "91adc996a2352feec7b42c15a1ce2cb4") | .execution.queue' double-state.json)" = 88a21f81970c8a5185882f7c13eb2f9f ] ||
  fail "execution.queue must stay the policy queue"

# Wrong credentials: the API answers 401 and the round stops (exit 22 from curl).
CLEARML_API_HOST=$URL CLEARML_API_ACCESS_KEY=key-1 CLEARML_API_SECRET_KEY=wrong \
  STATE=state PATH="$WORK/bin:$PATH" expect 22 sh clearml-loop.sh
contains err.txt "401"

[ "$failures" -eq 0 ] && echo "clearml loop: all passed"
exit "$failures"
