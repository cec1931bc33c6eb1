#!/usr/bin/env bash
# After a crash between a move's enqueue and its journal record, or an
# enqueue whose every answer was lost, the next cycle finds its task queued
# and listed in no queue. Whether the enqueue happened (an agent popped the
# task from the pool queue and has not started it yet) or not (the task came
# out of its policy queue and went nowhere) is told from the server: the
# enqueue writes the move's status_reason and a new status_changed. A task
# an agent holds is never enqueued again (rescfg(1), "What a crash leaves
# behind").
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json '[{"id": "e1", "name": "train-e1", "status": "queued", "queue": "sandbox-2gpu"}]' '{"agents": []}' > setup.json
start_double setup.json

# tasks.enqueue calls since the last reset_double (the double counts them).
base=0
enqueues() { echo $(($(ctl state | jq '.calls["tasks.enqueue"] // 0') - base)); }
reset() { reset_double setup.json; rm -rf state/sync; base=0; base=$(enqueues); }

# case LABEL POP: a first cycle interrupted as set up by the caller, then
# (POP=1) an agent pops the task; then a normal cycle.
settle() {
  local label=$1 pop=$2 want=$3
  [ "$pop" = 1 ] && ctl person '{"task": "e1", "action": "pop"}' >/dev/null
  ctl faults/clear >/dev/null
  sync_once --metrics metrics.prom; local code=$?
  [ "$code" = 0 ] || fail "$label: the cycle after exits $code: $(head -3 err.txt)"
  [ "$(enqueues)" = "$want" ] || { fail "$label: $(enqueues) tasks.enqueue calls, expected $want"; sed 's/^/  | /' err.txt >&2; }
  grep -q '"task": "e1"' out.txt && { fail "$label: e1 was decided again"; sed 's/^/  | /' out.txt >&2; }
  check_invariants "$label"
}

# crash_when R E: a first cycle killed at the first crash point (counted from
# the start: the state's writes have theirs) where the server saw R
# queues.remove_task and E tasks.enqueue calls.
crash_when() {
  local k code
  for k in $(seq 1 60); do
    reset
    RESCFG_TEST_CRASH_POINT=$k sync_once; code=$?
    [ "$code" = 86 ] || break
    [ "$(ctl state | jq -c '[.calls["queues.remove_task"] // 0, .calls["tasks.enqueue"] // 0]')" = "[$1,$2]" ] && return 0
  done
  fail "no crash point where the server saw $1 remove_task and $2 enqueue calls"
  return 1
}

# 1. Killed after the enqueue, before its record; an agent popped the task.
crash_when 1 1
settle "killed after the enqueue, popped" 1 1
grep -q '^rescfg_pool_in_use_gpus{pool="Metal"} 2$' metrics.prom ||
  fail "the popped task does not hold Metal: $(grep pool_in_use metrics.prom)"

# 2. Killed between the two calls: the task is in no queue, not enqueued: completed.
crash_when 1 0
settle "killed between remove_task and enqueue" 0 1
[ "$(jq '[.queues[] | select(.name == "metal-2gpu") | .entries[] | select(.task == "e1")] | length' double-state.json)" = 1 ] ||
  fail "the interrupted move was not completed into metal-2gpu"

# 2b. Killed after the enqueue, before its record; an agent popped the task
# and started it, and no worker reports it yet: it holds Metal until it ends.
crash_when 1 1
ctl person '{"task": "e1", "action": "run"}' >/dev/null
settle "killed after the enqueue, started, no worker report" 0 1
grep -q '^rescfg_pool_in_use_gpus{pool="Metal"} 2$' metrics.prom ||
  fail "the started task does not hold Metal: $(grep pool_in_use metrics.prom)"
grep -q 'running tasks hold in no pool' err.txt && fail "the started task is said to hold in no pool"

# 3. Every answer to the enqueue lost (it acted); an agent popped the task.
reset
ctl faults '{"faults": [{"kind": "drop", "endpoint": "tasks.enqueue", "apply": true, "count": -1}]}' >/dev/null
sync_once; code=$?
before=$(enqueues)
[ "$before" -ge 1 ] || fail "answers lost: no enqueue reached the server"
settle "every answer to the enqueue lost, popped" 1 "$before"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync enqueue evidence: all passed"
