#!/usr/bin/env bash
# The server counts the pages of a tasks.get_all scroll by position: a task
# that leaves the reading's filter (queued, in_progress) between two pages
# shifts the later ones back, and the task at the border is on no page. The
# sync looks up by id the tasks that hold a pool and that the scroll missed
# (rescfg(1), "rescfg sync"): a task it handed over and that runs, with no
# worker reporting it, still holds its pool, and keeps its hand-over.
#
# Pool Metal (8 GPUs) runs m1, m2, m3 and r (2 GPUs each), handed over by
# the sync; no worker reports them. Seven tasks a0..a6 wait in a queue of
# no pool: they fill the first page (7 a page), ahead of m1..r by id. A
# person dequeues a0 right after that page: m1 is on no page. Then w
# (2 GPUs) must go to K8s: Metal is full.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json '[{"id": "m1", "name": "m1", "status": "queued", "queue": "dev-2gpu"},
             {"id": "m2", "name": "m2", "status": "queued", "queue": "research-2gpu"},
             {"id": "m3", "name": "m3", "status": "queued", "queue": "research-2gpu"},
             {"id": "r", "name": "r", "status": "queued", "queue": "dev-2gpu"}]' \
  '{"agents": [{"name": "metal", "host": "metal-node-1", "mode": "direct", "capacity": 8, "run_ticks": 100,
                "report_workers": false,
                "queues": [{"queue": "metal-4gpu", "gpus": 4}, {"queue": "metal-2gpu", "gpus": 2}]}]}' > setup.json
start_double setup.json
sync_once; code=$?
[ "$code" = 0 ] || [ "$code" = 1 ] || fail "first cycle: exit $code: $(head -3 err.txt)"
[ "$(jq -s '[.[] | select(.result == "moved" and .to == "metal-2gpu")] | length' out.txt)" = 4 ] ||
  { fail "the four tasks are not all handed to Metal"; sed 's/^/  | /' out.txt >&2; }
ctl tick >/dev/null  # the agent starts them; no worker reports them
ctl queues '{"queues": [{"name": "elsewhere"}]}' >/dev/null
ctl tasks "$(jq -n '{tasks: ([range(7) | {id: "a\(.)", name: "a\(.)", status: "queued", queue: "elsewhere"}]
                             + [{id: "w", name: "w", status: "queued", queue: "dev-2gpu"}])}')" >/dev/null
ctl faults '{"faults": [{"kind": "person", "on": "after:tasks.get_all", "task": "a0", "action": "dequeue"}]}' >/dev/null
: > double.log
sync_once; code=$?
[ "$code" = 0 ] || [ "$code" = 1 ] || fail "second cycle: exit $code: $(head -3 err.txt)"
# The person dequeued a0 between the first two pages of the scroll (else
# this test proves nothing).
[ "$(ctl state | jq '.faults_pending | length')" = 0 ] || fail "the person never dequeued a0"
jq -s -e '[.[] | select(.endpoint == "tasks.get_all" and (.body | has("scroll_id")))] | length >= 2' double.log >/dev/null ||
  fail "the second cycle did not scroll"
jq -s -e '[.[] | select(.endpoint == "tasks.get_all" and (.body.id // [] | index("m1")))] | length >= 1' double.log >/dev/null ||
  fail "m1 was not looked up by id: did the scroll skip it?"
jq -e 'select(.task == "w") | .result == "moved" and .to == "k8s-2gpu"' out.txt >/dev/null ||
  { fail "w is not handed to K8s (Metal holds m1, m2, m3 and r)"; sed 's/^/  | /' out.txt err.txt >&2; }
grep -q '"task": "m1"' state/sync/journal || fail "the hand-over of m1 is released while it runs"
grep -q "holds in no pool" err.txt && fail "a running task counted in no pool: $(grep "holds in no pool" err.txt)"
check_invariants "a task skipped by the scroll"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync scroll skip: all passed"
