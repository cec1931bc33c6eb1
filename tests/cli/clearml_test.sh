#!/usr/bin/env bash
# ClearML task snapshots on the command line (rescfg(5), JOBS FILE, ClearML task snapshots): --jobs-format
# clearml with --clearml-queues and --clearml-workers on schedule, status and
# diff --jobs; --format clearml; exit codes and -o on bad input.
set -u
source "$(dirname "$0")/harness.sh" "$@"
SCENARIO=$SRC/testdata/schedule/clearml-worked-example
CONFIG=$SCENARIO/config.yaml
TASKS=$SCENARIO/tasks.json
QUEUES=$SCENARIO/queues.json
RUNNING=$SRC/testdata/schedule/clearml-running-and-order
clearml=(--jobs-format clearml --clearml-queues "$QUEUES")

# --format clearml: one tasks.enqueue request per assignment, placement order.
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j "$TASKS" "${clearml[@]}" -f clearml
cat > want.jsonl <<'EOF'
{"endpoint": "tasks.enqueue", "body": {"task": "91adc996a2352feec7b42c15a1ce2cb4", "queue": "24288085c2d6f61e242efcb1a762dddf", "update_execution_queue": false}}
{"endpoint": "tasks.enqueue", "body": {"task": "e711352015bce30beeb4689b4309e019", "queue": "24288085c2d6f61e242efcb1a762dddf", "update_execution_queue": false}}
{"endpoint": "tasks.enqueue", "body": {"task": "94b4e2b2b520620d510cef328b991344", "queue": "81c709e3f7b46f8237a52f6cf3663024", "update_execution_queue": false}}
{"endpoint": "tasks.enqueue", "body": {"task": "0a4ea330e320039def126368efa7ed05", "queue": "81c709e3f7b46f8237a52f6cf3663024", "update_execution_queue": false}}
EOF
cmp -s out.txt want.jsonl || { fail "--format clearml differs"; diff want.jsonl out.txt >&2; }
# The same through -o, atomically.
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j "$TASKS" "${clearml[@]}" -f clearml -o requests.jsonl
cmp -s requests.jsonl want.jsonl || fail "-o requests.jsonl differs from standard output"

# A queue the queues file gives no ID for goes by name.
jq '.data.queues |= map(select(.name != "h100-4gpu"))' "$QUEUES" > partial-queues.json
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j "$TASKS" --jobs-format clearml --clearml-queues partial-queues.json -f clearml
cp out.txt by-name.jsonl
contains out.txt '"queue": "24288085c2d6f61e242efcb1a762dddf"'
contains out.txt '{"endpoint": "tasks.enqueue", "body": {"task": "94b4e2b2b520620d510cef328b991344", "queue_name": "h100-4gpu", "update_execution_queue": false}}'
# Other jobs formats can be turned into requests too (task = job id, by queue name).
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$SRC/testdata/examples/worked-example-jobs.yaml" -f clearml
[ "$(wc -l < out.txt)" -eq 4 ] || fail "expected four requests for the worked example"
contains out.txt '{"endpoint": "tasks.enqueue", "body": {"task": "dev-1", "queue_name": "bare-metal", "update_execution_queue": false}}'
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$SRC/testdata/examples/worked-example-jobs.yaml" --clearml-queues "$QUEUES" -f clearml
contains out.txt '{"endpoint": "tasks.enqueue", "body": {"task": "dev-1", "queue": "24288085c2d6f61e242efcb1a762dddf", "update_execution_queue": false}}'

# Every request line matches its schema.
/usr/bin/python3 - "$SRC/schemas/clearml-requests.schema.json" requests.jsonl by-name.jsonl <<'PY' || fail "requests do not match schemas/clearml-requests.schema.json"
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
v = Draft202012Validator(schema)
n = 0
for path in sys.argv[2:]:
    for line in open(path):
        n += 1
        for e in v.iter_errors(json.loads(line)):
            print(f"{path}: {e.message}")
            sys.exit(1)
assert n == 8, n
PY

# The task's name travels to jsonl, yaml and json.
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j "$TASKS" "${clearml[@]}" -f jsonl
contains out.txt '"resourcesNumber": 4, "name": "dev-train-1"}'
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j "$TASKS" "${clearml[@]}" -f json
[ "$(jq -r '.assignments[0].name, .pending[0].name' out.txt | tr '\n' ' ')" = "dev-train-1 dev-train-3 " ] ||
  fail "json assignments and pending lack the task names"

# Rejected entries: exit 1, the output still complete.
args=(-j "$RUNNING/tasks.json" --jobs-format clearml --clearml-queues "$RUNNING/queues.json"
      --clearml-workers "$RUNNING/workers.json")
expect 1 "$RESCFG" -q schedule -c "$RUNNING/config.yaml" "${args[@]}" -f clearml
[ "$(wc -l < out.txt)" -eq 3 ] || fail "expected three requests"
expect 1 "$RESCFG" schedule -c "$RUNNING/config.yaml" "${args[@]}" -f clearml -v
# Running tasks whose pool cannot be told count against Team in no pool.
contains err.txt "3 assigned, 3 pending, 5 running, 4 rejected (invalid-job 3, unknown-queue 1)"
contains err.txt "warning: r5: cannot tell which pool runs it"

# status and diff --jobs read snapshots the same way.
expect 0 "$RESCFG" -q status -c "$CONFIG" -j "$TASKS" "${clearml[@]}" -f json
[ "$(jq '[.profiles[] | select(.name == "4xGPU")][0] | [.assigned, .pending]' -c out.txt)" = "[4,4]" ] ||
  { fail "status counts of 4xGPU"; cat out.txt >&2; }
sed 's/reserved: 8/reserved: 0/' "$CONFIG" > no-reservations.yaml
expect 1 "$RESCFG" -q diff "$CONFIG" no-reservations.yaml -j "$TASKS" "${clearml[@]}"
contains out.txt "283a69a01e29e00d8eb671e8b885e9c9: pending (capacity) -> assigned"
sed 's/resources: 4/resources: 2/' "$RUNNING/config.yaml" > smaller-gate.yaml
expect 1 "$RESCFG" -q diff "$RUNNING/config.yaml" smaller-gate.yaml -j "$RUNNING/tasks.json" --jobs-format clearml
contains out.txt "Impact on the jobs in"

# Standard input.
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j - "${clearml[@]}" -f clearml < "$TASKS"
cmp -s out.txt want.jsonl || fail "tasks from standard input differ"
expect 2 "$RESCFG" -q schedule -c "$CONFIG" -j - --jobs-format clearml --clearml-queues - < "$TASKS"
contains err.txt "only one of --jobs, --clearml-queues and --clearml-workers can read standard input"

# Companions without a ClearML snapshot are a mistake.
expect 2 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$SRC/testdata/examples/worked-example-jobs.yaml" --clearml-workers "$QUEUES"
contains err.txt "--clearml-workers is read only with --jobs-format clearml"
expect 2 "$RESCFG" -q status -c "$EXAMPLE" -j "$SRC/testdata/examples/worked-example-jobs.yaml" --clearml-queues "$QUEUES"
contains err.txt "--clearml-queues is read only with --jobs-format clearml"

# Unusable input: exit 2 with file and line, nothing written to -o.
check_unusable() {  # WHAT EXPECTED-STDERR ARGS...
  local what=$1 want=$2
  shift 2
  echo "keep me" > result.jsonl
  expect 2 "$RESCFG" -q schedule -c "$CONFIG" "$@" -f clearml -o result.jsonl
  contains err.txt "$want"
  [ "$(cat result.jsonl)" = "keep me" ] || fail "$what: the output file was replaced"
}
printf '<html><body>502 Bad Gateway</body></html>\n' > html.json
check_unusable "tasks not JSON" "html.json:1:1: bad-shape: not a ClearML task snapshot" -j html.json "${clearml[@]}"
printf '{"meta": {"result_code": 401, "result_msg": "Unauthorized"}, "data": {}}' > denied.json
check_unusable "an error response" "denied.json:1:10: error-response: the response is an error: result_code 401 (Unauthorized)" \
  -j denied.json "${clearml[@]}"
head -c 300 "$TASKS" > truncated.json
check_unusable "a truncated response" "truncated.json:" -j truncated.json "${clearml[@]}"
contains err.txt "json-syntax: not valid JSON"
printf '[{"id": "a", "name": "A"}, {"id": "b"}]' > bad-queues.json
check_unusable "a queue without a name" "bad-queues.json:1:28: bad-shape: queue b has no name" \
  -j "$TASKS" --jobs-format clearml --clearml-queues bad-queues.json
printf '{"data": {"workers": [{"id": "w", "queues": "x"}]}}' > bad-workers.json
check_unusable "workers of the wrong shape" "bad-workers.json:1:45: bad-shape: worker w: worker queues must be a list" \
  -j "$TASKS" "${clearml[@]}" --clearml-workers bad-workers.json
check_unusable "a missing queues file" "no-such-queues.json" -j "$TASKS" --jobs-format clearml --clearml-queues no-such-queues.json
check_unusable "a missing tasks file" "no-such-tasks.json" -j no-such-tasks.json "${clearml[@]}"
ls result.jsonl.* 2>/dev/null && fail "a temporary file was left behind"

# Nothing matched: queue IDs without the queues file, or a queues file of
# another server, are unusable (exit 2), never an empty decision.
echo "keep me" > result.jsonl
expect 2 "$RESCFG" schedule -c "$CONFIG" -j "$TASKS" --jobs-format clearml -f clearml -o result.jsonl
contains err.txt "nothing-matched: none of the 8 tasks names a queue of the configuration"
contains err.txt "--clearml-queues"
[ -s out.txt ] && fail "nothing matched: something on stdout"
[ "$(cat result.jsonl)" = "keep me" ] || fail "nothing matched: the output file was replaced"
jq '.data.queues |= map(.id |= "x" + . | .name |= "other-" + .)' "$QUEUES" > other-server.json
expect 2 "$RESCFG" schedule -c "$CONFIG" -j "$TASKS" --jobs-format clearml --clearml-queues other-server.json
contains err.txt "queues seen: '88a21f81970c8a5185882f7c13eb2f9f', '4a3dafc688bdf45885cb4ef463551faa'"
for cmd in status explain; do
  extra=(); [ "$cmd" = explain ] && extra=(91adc996a2352feec7b42c15a1ce2cb4)
  expect 2 "$RESCFG" -q $cmd -c "$CONFIG" -j "$TASKS" --jobs-format clearml "${extra[@]}"
  contains err.txt "nothing-matched"
done
expect 2 "$RESCFG" -q diff "$CONFIG" no-reservations.yaml -j "$TASKS" --jobs-format clearml
contains err.txt "nothing-matched"

# Every format ends with a one-line summary on stderr; -q silences it.
for format in yaml json jsonl table clearml; do
  expect 0 "$RESCFG" schedule -c "$CONFIG" -j "$TASKS" "${clearml[@]}" -f "$format"
  [ "$(tail -n 1 err.txt)" = "rescfg: 4 assigned, 4 pending, 0 running, 0 rejected" ] ||
    { fail "no summary line with -f $format"; cat err.txt >&2; }
done
expect 0 "$RESCFG" schedule -c "$EXAMPLE" -j "$SRC/testdata/examples/worked-example-jobs.yaml" -f jsonl
[ "$(cat err.txt)" = "rescfg: 4 assigned, 4 pending, 0 running, 0 rejected" ] || fail "no summary line for a jobs file"
expect 1 "$RESCFG" schedule -c "$RUNNING/config.yaml" "${args[@]}" -f clearml
contains err.txt "rejected (invalid-job "
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j "$TASKS" "${clearml[@]}" -f clearml
[ -s err.txt ] && fail "-q did not silence the summary"

# Handed over: Dev's first two tasks wait in bare-metal's queue (handed over
# by the last cycle). They hold Bare Metal and count against Dev: never
# sent again, and Dev's others do not pile onto the pool.
jq '(.data.queues[] | select(.name == "dev-4gpu") | .entries) |= .[2:]
    | (.data.queues[] | select(.name == "bare-metal") | .entries) =
      [{"task": "91adc996a2352feec7b42c15a1ce2cb4", "added": "2026-11-29T09:20:00Z"},
       {"task": "e711352015bce30beeb4689b4309e019", "added": "2026-11-29T09:20:01Z"},
       {"task": "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0", "added": "2026-11-29T09:20:02Z"}]' "$QUEUES" > handed-queues.json
expect 0 "$RESCFG" schedule -c "$CONFIG" -j "$TASKS" --jobs-format clearml --clearml-queues handed-queues.json -f clearml
grep -q 91adc996a2352feec7b42c15a1ce2cb4 out.txt && fail "a handed-over task was sent again"
grep -q e711352015bce30beeb4689b4309e019 out.txt && fail "a handed-over task was sent again"
[ "$(wc -l < out.txt)" -eq 2 ] || { fail "expected Research's two requests only"; cat out.txt >&2; }
contains err.txt "rescfg: 2 assigned, 4 pending, 2 running, 0 rejected"
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j "$TASKS" --jobs-format clearml --clearml-queues handed-queues.json -f jsonl
[ "$(jq -r 'select(.job == "91adc996a2352feec7b42c15a1ce2cb4") | [.status, .pool, .message] | join("|")' out.txt)" = \
  "running|Bare Metal Low END GPUs|handed over to pool 'Bare Metal Low END GPUs': waits in its queue 'bare-metal' for an agent" ] ||
  fail "a handed-over task is not running in its pool"

# In flight: the k8s glue holds Dev's first task in its own queue. It counts
# against Dev in no pool, with a warning on stderr; it is never sent.
jq '(.data.queues[] | select(.name == "dev-4gpu") | .entries) |= .[1:]
    | .data.queues += [{"id": "k8s0", "name": "k8s_scheduler",
                        "entries": [{"task": "91adc996a2352feec7b42c15a1ce2cb4", "added": "2026-11-29T09:20:00Z"}]}]' \
  "$QUEUES" > flight-queues.json
expect 0 "$RESCFG" schedule -c "$CONFIG" -j "$TASKS" --jobs-format clearml --clearml-queues flight-queues.json -f clearml
grep -q 91adc996a2352feec7b42c15a1ce2cb4 out.txt && fail "a task in flight was sent"
contains err.txt "warning: 91adc996a2352feec7b42c15a1ce2cb4: in flight: waits in queue 'k8s_scheduler' while it starts"
contains err.txt " 1 running, 0 rejected"

# A pretty-printed response whose first key is neither meta nor data, and
# envelopes that repeat a key.
jq '{version: "2.31"} + .' "$TASKS" > versioned.json
expect 0 "$RESCFG" -q schedule -c "$CONFIG" -j versioned.json "${clearml[@]}" -f clearml
cmp -s out.txt want.jsonl || fail "a response with a leading version key differs"
printf '{"meta": {}, "data": {"tasks": []}, "data": {"tasks": [{"id": "x"}]}}' > two-data.json
check_unusable "a repeated data key" "two-data.json:1:37: duplicate-key: the response gives 'data' twice" \
  -j two-data.json "${clearml[@]}"
printf '{"data": {"queues": [], "queues": [{"id": "a", "name": "b"}]}}' > two-lists.json
check_unusable "a repeated queues key" "two-lists.json:1:35: duplicate-key: the response gives 'data.queues' twice" \
  -j "$TASKS" --jobs-format clearml --clearml-queues two-lists.json

# --help teaches the flags.
expect 0 "$RESCFG" schedule --help
contains out.txt "--clearml-queues"
contains out.txt "--clearml-workers"
contains out.txt "clearml (tasks.enqueue requests)"

[ "$failures" -eq 0 ] && echo "clearml: all passed"
exit "$failures"
