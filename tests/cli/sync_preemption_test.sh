#!/usr/bin/env bash
# Preemption carried out by `rescfg sync` (rescfg(1), "Preemption"): a team
# with a reservation comes back while an unreserved team fills the pools; the
# sync stops victims (tasks.stop), re-queues them once stopped at the head of
# their policy queue (tasks.enqueue, queues.move_task_to_front), and the
# preemptor starts; no task is lost or doubled.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

provision_preemption

# Sandbox fills both pools with 8 long tasks of 2 GPUs.
setup_json "$(jq -n '[range(8) | {id: "s\(.)", name: "sand-\(.)", status: "queued", queue: "sandbox-2gpu"}]')" \
  '{}' | jq '.agents |= map(.run_ticks = 100)' > setup.json
start_double setup.json
sync_once; [ $? = 0 ] || fail "cycle 1 exit: $(head -3 err.txt)"
ctl tick '{"n": 2}' >/dev/null
[ "$(ctl state | jq '[.tasks[] | select(.status == "in_progress")] | length')" = 8 ] ||
  fail "the sandbox did not fill the pools: $(ctl state | jq -c '[.tasks[] | {id, status}]')"

# Dev comes back: one task of 2 GPUs, inside its reservation; two more
# sandbox tasks wait behind the full pools.
ctl tasks '{"tasks": [{"id": "d0", "name": "dev-0", "status": "queued", "queue": "dev-2gpu"},
                      {"id": "s8", "name": "sand-8", "status": "queued", "queue": "sandbox-2gpu"},
                      {"id": "s9", "name": "sand-9", "status": "queued", "queue": "sandbox-2gpu"}]}' >/dev/null
sync_once --metrics metrics.prom; [ $? = 0 ] || fail "cycle 2 exit: $(head -3 err.txt)"
[ "$(jq -s '[.[] | select(.action == "stop" and .result == "stopped")] | length' out.txt)" = 1 ] ||
  { fail "cycle 2: not one stop"; sed 's/^/  | /' out.txt >&2; }
victim=$(jq -rs '[.[] | select(.action == "stop")][0].task' out.txt)
case $victim in s*) ;; *) fail "cycle 2: the victim is not a sandbox task: $victim" ;; esac
ctl state > st.json
[ "$(jq -r --arg v "$victim" '.tasks[] | select(.id == $v) | .status_message' st.json)" = stopping ] ||
  fail "the victim was not asked to stop"
jq -e --arg v "$victim" '.tasks[] | select(.id == $v) | .status_reason | test("rescfg: preempted for Dev/")' st.json >/dev/null ||
  fail "the stop does not say why"

grep -qx 'rescfg_sync_stopping_tasks 1' metrics.prom || fail "cycle 2: the stopping gauge is not 1"
# A dry run meanwhile sees the stop in flight too.
sync_once --dry-run --metrics dry.prom; [ $? = 0 ] || fail "dry run exit: $(head -3 err.txt)"
grep -qx 'rescfg_sync_stopping_tasks 1' dry.prom ||
  fail "a dry run's stopping gauge: $(grep '^rescfg_sync_stopping_tasks' dry.prom)"

# The agent kills it; the next cycle re-queues it at the head of its queue.
# The server goes away right after the re-queue (the cycle reads again and
# fails): the cycle still prints the re-queue it carried out.
ctl tick >/dev/null
ctl faults '{"faults": [{"kind": "drop", "endpoint": "queues.get_all", "skip": 1, "count": -1}]}' >/dev/null
sync_once; code=$?
ctl faults/clear >/dev/null
[ "$code" = 2 ] || fail "cycle 3 with the server gone after the re-queue: exit $code"
[ "$(jq -s --arg v "$victim" '[.[] | select(.action == "requeue" and .task == $v and .result == "requeued")] | length' out.txt)" = 1 ] ||
  { fail "cycle 3: the re-queue before the failure was not printed"; sed 's/^/  | /' out.txt err.txt >&2; }
contains err.txt "nothing was moved but the stops and re-queues it printed"
sync_once; [ $? = 0 ] || fail "cycle 3 exit: $(head -3 err.txt)"
[ "$(jq -s '[.[] | select(.action == "requeue")] | length' out.txt)" = 0 ] || fail "cycle 3: a second re-queue"
ctl state > st.json
[ "$(jq -r '.queues[] | select(.name == "sandbox-2gpu") | .entries[0].task' st.json)" = "$victim" ] ||
  fail "the victim is not at the head of its policy queue: $(jq -c '.queues[] | select(.name == "sandbox-2gpu")' st.json)"
jq -e --arg v "$victim" '.tasks[] | select(.id == $v) | .status_reason | test("pushed back by policy manager")' st.json >/dev/null ||
  fail "the re-queue lacks the policy manager's phrase"
grep -q '"tasks.reset"' double.log && fail "tasks.reset was called"

# The preemptor starts; the victim survives the glue's clean-up; nothing lost or doubled.
for i in 1 2 3; do ctl tick >/dev/null; sync_once || fail "cycle $((3 + i)) exit: $(head -3 err.txt)"; done
ctl tick >/dev/null
ctl state > st.json
[ "$(jq -r '.tasks[] | select(.id == "d0") | .status' st.json)" = in_progress ] ||
  fail "the preemptor did not start: $(jq -c '.tasks[] | select(.id == "d0")' st.json)"
[ "$(jq -r --arg v "$victim" '.tasks[] | select(.id == $v) | .status' st.json)" = queued ] &&
  [ "$(jq -r '.queues[] | select(.name == "sandbox-2gpu") | .entries[0].task' st.json)" = "$victim" ] ||
  fail "the victim is not waiting: $(jq -c --arg v "$victim" '.tasks[] | select(.id == $v)' st.json)"
[ "$(jq '[.tasks[] | select(.status == "failed")] | length' st.json)" = 0 ] || fail "a task failed"
[ "$(jq '[.tasks[] | select(.status == "in_progress")] | length' st.json)" = 8 ] || fail "not 8 running"
[ "$(jq '[.queues[].entries[].task] | group_by(.) | map(select(length > 1)) | length' st.json)" = 0 ] ||
  fail "a task is listed twice"
[ "$(jq --arg v "$victim" '.api_stops[$v]' st.json)" = 1 ] || fail "the victim was stopped more than once"

# What a person stopped, and what completed, is never re-queued.
other=$(jq -r --arg v "$victim" '[.tasks[] | select(.status == "in_progress" and (.id | startswith("s")) and .id != $v)][0].id' st.json)
ctl person "{\"task\": \"$other\", \"action\": \"stop\"}" >/dev/null
ctl tick >/dev/null
sync_once; [ $? = 0 ] || fail "cycle 7 exit: $(head -3 err.txt)"
sync_once; [ $? = 0 ] || fail "cycle 8 exit: $(head -3 err.txt)"
[ "$(ctl state | jq -r --arg o "$other" '.tasks[] | select(.id == $o) | .status')" = stopped ] ||
  fail "a task a person stopped was re-queued: $(ctl state | jq -c --arg o "$other" '.tasks[] | select(.id == $o)')"
grep -q "\"task\": \"$other\"" out.txt && fail "a task a person stopped has a record"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync preemption: all passed"
