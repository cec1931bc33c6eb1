#!/usr/bin/env bash
# Stale entries (rescfg(1), "rescfg sync", Stale entries): a task the sync
# handed over keeps its policy queue as execution.queue, so a person who
# stops or dequeues it while it waits in its pool queue leaves its entry
# there (the server removes only the entry of execution.queue). An agent
# that pops that entry runs the task again: the double's agents do what
# clearml-agent does (tests/double/clearml_agents.py). Each cycle removes
# such entries, guarded by a fresh read of the task; --dry-run only plans.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(jq -n '[range(4) | {id: "s\(.)", name: "train-s\(.)", status: "queued", enqueue_status: "created", queue: "sandbox-2gpu"}]')" > setup.json
start_double setup.json

status_of() { ctl state | jq -r --arg t "$1" '.tasks[] | select(.id == $t) | .status'; }
listed_in() { ctl state | jq -r --arg t "$1" '[.queues[] | select(any(.entries[]; .task == $t)) | .name] | join(",")'; }
removals() { jq -sc '[.[] | select(.action == "remove") | "\(.task) \(.from) \(.to) \(.result)"]' out.txt; }

# Cycle 1 hands the four tasks to Metal; no agent has ticked: they wait in metal-2gpu.
sync_once; [ $? = 0 ] || fail "cycle 1: exit: $(head -3 err.txt)"
[ "$(listed_in s0)" = metal-2gpu ] || fail "cycle 1: s0 is not waiting in metal-2gpu: $(listed_in s0)"
# A person stops s0 and dequeues s1: their entries stay in metal-2gpu.
ctl person '{"task": "s0", "action": "stop"}' >/dev/null
ctl person '{"task": "s1", "action": "dequeue"}' >/dev/null
[ "$(status_of s0) $(listed_in s0) $(status_of s1) $(listed_in s1)" = "stopped metal-2gpu created metal-2gpu" ] ||
  fail "the double does not leave the pool queue's entries of a stop and a dequeue"
ctl tasks '{"tasks": [{"id": "n0", "name": "n0", "status": "queued", "enqueue_status": "created", "queue": "sandbox-2gpu"},
                      {"id": "n1", "name": "n1", "status": "queued", "enqueue_status": "created", "queue": "sandbox-2gpu"}]}' >/dev/null

# --dry-run plans the removals and removes nothing.
sync_once --dry-run; [ $? = 0 ] || fail "dry run: exit: $(head -3 err.txt)"
[ "$(removals)" = '["s0 metal-2gpu null planned","s1 metal-2gpu null planned"]' ] ||
  { fail "dry run: the removals are not planned: $(removals)"; sed 's/^/  | /' out.txt >&2; }
[ "$(listed_in s0)" = metal-2gpu ] || fail "dry run: the entry of s0 was removed"

# Cycle 2 removes both entries, says so, counts them, and hands n0 and n1 over.
sync_once --metrics metrics.prom; [ $? = 0 ] || fail "cycle 2: exit: $(head -3 err.txt)"
[ "$(removals)" = '["s0 metal-2gpu null removed","s1 metal-2gpu null removed"]' ] ||
  { fail "cycle 2: the stale entries are not removed: $(removals)"; sed 's/^/  | /' out.txt >&2; }
[ "$(jq -sr '[.[] | select(.action == "remove") | .detail] | join(" / ")' out.txt)" != "" ] &&
  contains out.txt "its status is stopped" && contains out.txt "its status is created"
[ -z "$(listed_in s0)$(listed_in s1)" ] || fail "cycle 2: still listed: s0 in '$(listed_in s0)', s1 in '$(listed_in s1)'"
contains err.txt "2 stale entries removed"
grep -q '^rescfg_sync_stale_entries_total{result="removed"} 2$' metrics.prom ||
  fail "cycle 2: no metric: $(grep stale_entries metrics.prom)"
# The agents run what waits in the pool, and nothing a person stopped or dequeued.
ctl tick '{"n": 2}' >/dev/null
got="$(status_of s0) $(status_of s1) $(status_of s2) $(status_of s3) $(status_of n0) $(status_of n1)"
[ "$got" = "stopped created in_progress in_progress in_progress in_progress" ] ||
  fail "after the agents' tick: s0 s1 s2 s3 n0 n1 are $got (s0 and s1 must stay as the person left them)"
check_invariants "after the removals" out.txt
sync_once; [ $? = 0 ] || fail "cycle 3: exit: $(head -3 err.txt)"
[ "$(removals)" = '[]' ] || fail "cycle 3: removes again: $(removals)"

# Races: a person enqueues a stopped, handed-over task again right after the
# sync's read of the queues and workers (the look-up of the tasks the pages
# missed sees it queued: no entry is stale), or right before the removal (the
# server's enqueue took the entry out: 703, skipped). Both are left alone.
# (The guard's read between the two is SyncStaleEntriesTest's.)
for when in "after:workers.get_all" "queues.remove_task"; do
  reset_double setup.json
  rm -rf state/sync
  sync_once; [ $? = 0 ] || fail "$when: cycle 1: exit: $(head -3 err.txt)"
  ctl person '{"task": "s2", "action": "stop"}' >/dev/null
  ctl faults "{\"faults\": [{\"kind\": \"person\", \"on\": \"$when\", \"task\": \"s2\", \"action\": \"move\",
                            \"to\": \"sandbox-2gpu\"}]}" >/dev/null
  sync_once; [ $? = 0 ] || fail "$when: cycle 2: exit: $(head -3 err.txt)"
  case $when in
    after:*) want='[]' ;;
    *) want='["s2 metal-2gpu null skipped"]' ;;
  esac
  [ "$(removals)" = "$want" ] ||
    { fail "$when: the re-enqueued task: $(removals), expected $want"; sed 's/^/  | /' out.txt >&2; }
  case $when in
    after:*) ;;
    *) contains out.txt "703" ;;
  esac
  # After the read, s2 waits in its policy queue; before the removal, the cycle
  # reads again (the removal did not go as read) and hands it over anew.
  case $when in
    after:*) want="queued sandbox-2gpu" ;;
    *) want="queued metal-2gpu" ;;
  esac
  [ "$(status_of s2) $(listed_in s2)" = "$want" ] ||
    fail "$when: s2 is $(status_of s2) in '$(listed_in s2)', not $want"
  check_invariants "$when" out.txt
done

# An agent pops a stale entry after the sync's read, right before the removal:
# the server's pop makes the stopped task queued again, listed in no queue,
# and the agent will run it in Metal. The removal finds it queued and leaves
# it; the cycle must read again and count it there (its hand-over says where),
# so the new task goes to K8s and Metal (8 GPUs: s1, s2, s3 waiting and s0
# popped) is not over-committed; so must the next cycle, while s0 stays popped.
reset_double setup.json
rm -rf state/sync
sync_once; [ $? = 0 ] || fail "pop race: cycle 1: exit: $(head -3 err.txt)"
[ "$(listed_in s0)$(listed_in s3)" = metal-2gpumetal-2gpu ] || fail "pop race: cycle 1 did not fill Metal"
ctl person '{"task": "s0", "action": "stop"}' >/dev/null
ctl tasks '{"tasks": [{"id": "n0", "name": "n0", "status": "queued", "enqueue_status": "created", "queue": "sandbox-2gpu"}]}' >/dev/null
ctl faults '{"faults": [{"kind": "person", "on": "queues.remove_task", "task": "s0", "action": "pop"}]}' >/dev/null
sync_once; [ $? = 0 ] || fail "pop race: cycle 2: exit: $(head -3 err.txt)"
[ "$(removals)" = '["s0 metal-2gpu null skipped"]' ] ||
  { fail "pop race: the popped entry: $(removals)"; sed 's/^/  | /' out.txt >&2; }
[ "$(status_of s0) $(listed_in s0)" = "queued " ] || fail "pop race: s0 is $(status_of s0) in '$(listed_in s0)', not popped"
[ "$(listed_in n0)" = k8s-2gpu ] ||
  { fail "pop race: n0 went to '$(listed_in n0)', not k8s-2gpu: Metal holds s0 popped and s1-s3 waiting"; sed 's/^/  | /' out.txt >&2; }
ctl tasks '{"tasks": [{"id": "n1", "name": "n1", "status": "queued", "enqueue_status": "created", "queue": "sandbox-2gpu"}]}' >/dev/null
sync_once; [ $? = 0 ] || fail "pop race: cycle 3: exit: $(head -3 err.txt)"
[ "$(listed_in n1)" = k8s-2gpu ] || fail "pop race: cycle 3: n1 went to '$(listed_in n1)', not k8s-2gpu"

# A stale entry that cannot be removed (the server answers every
# queues.remove_task with a proxy's 503) may be popped at any moment: the
# cycle hands nothing to its pool (n0 would fit in Metal beside s1-s3 only
# if s0's entry were gone) and says why; once the entry goes, n0 moves.
reset_double setup.json
rm -rf state/sync
sync_once; [ $? = 0 ] || fail "entry left: cycle 1: exit: $(head -3 err.txt)"
ctl person '{"task": "s0", "action": "stop"}' >/dev/null
ctl tasks '{"tasks": [{"id": "n0", "name": "n0", "status": "queued", "enqueue_status": "created", "queue": "sandbox-2gpu"}]}' >/dev/null
ctl faults '{"faults": [{"kind": "status", "code": 503, "endpoint": "queues.remove_task", "count": -1}]}' >/dev/null
sync_once; code=$?
[ "$code" = 1 ] || fail "entry left: cycle 2: exit $code, expected 1 (a failed removal): $(head -3 err.txt)"
[ "$(jq -sr '[.[] | select(.action == "remove") | .result] | unique | join(",")' out.txt)" = failed ] ||
  { fail "entry left: the removal of s0 did not fail"; sed 's/^/  | /' out.txt >&2; }
[ "$(jq -sr '.[] | select(.task == "n0") | "\(.pool) \(.result)"' out.txt)" = "Metal skipped" ] ||
  { fail "entry left: n0 was not held back from Metal"; sed 's/^/  | /' out.txt >&2; }
contains out.txt "nothing is handed to that pool until it is gone"
[ "$(listed_in n0)" = sandbox-2gpu ] || fail "entry left: n0 is in '$(listed_in n0)', not still in sandbox-2gpu"
ctl faults/clear >/dev/null
sync_once; [ $? = 0 ] || fail "entry left: cycle 3: exit: $(head -3 err.txt)"
[ "$(removals)" = '["s0 metal-2gpu null removed"]' ] || fail "entry left: cycle 3 removals: $(removals)"
[ "$(listed_in n0)" = metal-2gpu ] || fail "entry left: cycle 3: n0 is in '$(listed_in n0)', not metal-2gpu"
check_invariants "entry left" out.txt

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync stale entries: all passed"
