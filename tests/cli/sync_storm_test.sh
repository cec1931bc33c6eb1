#!/usr/bin/env bash
# The kill -9 storm: `rescfg sync --interval 1` is killed with kill -9 at
# random instants, again and again (100 kills; 1000 with RESCFG_TEST_DEEP),
# while the double's storm (tests/double/clearml_storm.py) runs in real
# time: agents that take 0.1 to 1 s between popping a task and starting it,
# workers that expire while their task runs, agents that run whatever they
# pop (as clearml-agent does, stale entries included), people who stop,
# dequeue and move tasks (handed-over ones waiting in pool queues among
# them, and all of those as the storm calms), new tasks arriving. The moves
# are slowed a little so that kills land inside them. Checked all along,
# from the server's records: no pool over its size, no task put in a queue
# while an agent holds it or after a person stopped it, no task a person
# stopped or dequeued resurrected from a stale entry the sync had read
# (clearml_storm.py says how often); and at the end, after clean cycles:
# no task lost (queued in no queue), listed twice or handed over twice, no
# pool queue listing a task that is neither queued nor running.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
source "$SRC/tests/cli/storm_lib.sh"
require_sync

# 100 kills on every run (about 30 s), 40 under the sanitizers
# (RESCFG_TEST_QUICK), 1000 in the nightly check (RESCFG_TEST_DEEP);
# RESCFG_STORM_KILLS and RESCFG_STORM_SEED choose them.
kills=$(storm_kill_count 100 40 1000)
setup_json "$(tasks_json 30 s)" '{"agents": [], "faults": [
  {"kind": "slow", "endpoint": "tasks.enqueue", "seconds": 0.02, "count": -1},
  {"kind": "slow", "endpoint": "queues.remove_task", "seconds": 0.02, "count": -1}]}' > setup.json
start_double setup.json
seed=${RESCFG_STORM_SEED:-$(( $(date +%s) % 100000 ))}
ctl storm/start "{\"layout\": \"layout.json\", \"seed\": $seed}" >/dev/null || { fail "the storm does not start"; exit 1; }

storm_kills "$kills" "$seed"
storm_settle "seed $seed, after $kills kills" 3

if [ "$failures" -ne 0 ]; then echo "$failures failure(s) (seed $seed)" >&2; exit 1; fi
echo "sync storm: $kills kills ($(grep -c 'cycle 1:' storm.err) cycles completed before theirs), seed $seed, $(jq -c '.counts' <<<"$storm_result"): all passed"
