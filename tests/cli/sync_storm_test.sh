#!/usr/bin/env bash
# The kill -9 storm: `rescfg sync --interval 1` is killed with kill -9 at
# random instants, again and again (100 kills; 1000 with RESCFG_TEST_DEEP),
# while the double's storm (tests/double/clearml_storm.py) runs in real
# time: agents that take 0.1 to 1 s between popping a task and starting it,
# workers that expire while their task runs, people who stop, dequeue and
# move tasks, new tasks arriving. The moves are slowed a little so that
# kills land inside them. Checked all along, from the server's records: no
# pool over its size, no task put in a queue while an agent holds it or
# after a person stopped it; and at the end, after clean cycles: no task
# lost (queued in no queue), listed twice or handed over twice.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

kills=100
[ -n "${RESCFG_TEST_DEEP:-}" ] && kills=1000
[ -n "${RESCFG_STORM_KILLS:-}" ] && kills=$RESCFG_STORM_KILLS
setup_json "$(tasks_json 30 s)" '{"agents": [], "faults": [
  {"kind": "slow", "endpoint": "tasks.enqueue", "seconds": 0.02, "count": -1},
  {"kind": "slow", "endpoint": "queues.remove_task", "seconds": 0.02, "count": -1}]}' > setup.json
start_double setup.json
seed=${RESCFG_STORM_SEED:-$(( $(date +%s) % 100000 ))}
ctl storm/start "{\"layout\": \"layout.json\", \"seed\": $seed}" >/dev/null || { fail "the storm does not start"; exit 1; }

RANDOM=$seed
codes=""
for i in $(seq 1 "$kills"); do
  "$RESCFG" sync --state state --clearml-server "$URL" --interval 1 >>storm.out 2>storm.err &
  pid=$!
  ms=$((20 + RANDOM % 600))
  sleep "$(printf "%d.%03d" $((ms / 1000)) $((ms % 1000)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  code=$?
  [ "$code" = 137 ] || codes+=" $code"
done
[ -z "$codes" ] || { fail "syncs of the storm ended by themselves (exit$codes)"; grep -v "^rescfg: cycle" storm.err | sort | uniq -c | sort -rn | head -5 >&2; }

# Calm: no more people or arrivals; clean cycles settle every journal entry.
ctl storm/calm >/dev/null
for c in 1 2 3; do
  sync_once; code=$?
  [ "$code" = 0 ] || [ "$code" = 1 ] || { fail "clean cycle $c after the storm: exit $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
  sleep 1.2  # the agents start what they popped
done
result=$(ctl storm/stop) || fail "the storm does not stop"
[ "$(jq '.violations | length' <<<"$result")" = 0 ] ||
  fail "seed $seed: $(jq -r ".violations[:5][]" <<<"$result")"
check_invariants "seed $seed, after $kills kills"
[ "$(jq '.counts.starts' <<<"$result")" -gt 0 ] || fail "seed $seed: no agent started a task: the storm proves nothing"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s) (seed $seed)" >&2; exit 1; fi
echo "sync storm: $kills kills ($(grep -c 'cycle 1:' storm.err) cycles completed before theirs), seed $seed, $(jq -c '.counts' <<<"$result"): all passed"
