#!/usr/bin/env bash
# Many cycles of `rescfg sync --once` against the ClearML API test double, with
# a bare-metal agent and a k8s glue pulling the handed-over tasks, new tasks
# arriving, tasks finishing, and a person stopping or dequeuing tasks between
# cycles (also tasks already handed over: their entries stay in the pool
# queues, not queued any more). After every cycle and every step of the
# agents: no pool holds more than its size, no policy uses more than its
# limit, no task is in two queues, no queued task is in none, no task was
# handed over twice or to a queue of another profile; every "moved" record
# is a move the server saw. At the end, without new tasks, every task runs
# and finishes: the loop makes progress. Pages are 7 tasks (the server's
# maximum), so every cycle scrolls through several.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 14 a)" > setup.json
start_double setup.json
RANDOM=21
rounds=$((6 * ROUNDS_SCALE))
for r in $(seq 1 "$rounds"); do
  ctl tasks "{\"tasks\": $(tasks_json $((RANDOM % 4)) "r$r-" "$RANDOM")}" >/dev/null
  if [ $((r % 3)) = 0 ]; then
    # a person stops a task waiting in a policy queue, or dequeues one handed over
    curl -sf "$URL/_double/state" > before.json
    victim=$(jq -r --argjson r "$RANDOM" '[.queues[] | .name as $q | .entries[] | {task, q: $q}] as $e
      | if ($e | length) == 0 then "" else $e[$r % ($e | length)].task end' before.json)
    action=$([ $((RANDOM % 2)) = 0 ] && echo stop || echo dequeue)
    [ -n "$victim" ] && ctl person "{\"task\": \"$victim\", \"action\": \"$action\"}" >/dev/null
  fi
  sync_once; code=$?
  [ "$code" = 0 ] || fail "round $r: exit $code, expected 0: $(head -3 err.txt)"
  check_lines out.txt
  check_invariants "round $r" out.txt
  [ -n "${SYNC_TEST_TRACE:-}" ] && echo "round $r: exit $code, $(wc -l < out.txt) records, $(cat counts.json)"
  ctl tick >/dev/null
  check_invariants "round $r, after the agents"
done
moves=$(jq .moves counts.json)
[ "$moves" -gt 0 ] || fail "no task was moved in $rounds cycles"

# Drain: no new tasks; every task handed over runs and finishes.
for d in $(seq 1 40); do
  sync_once; code=$?
  [ "$code" = 0 ] || fail "drain $d: exit $code: $(head -3 err.txt)"
  ctl tick >/dev/null
  check_invariants "drain $d" || break
  [ "$(jq '.running + .handed_over + .waiting' counts.json)" = 0 ] && break
done
[ "$(jq '.running + .handed_over + .waiting' counts.json)" = 0 ] ||
  fail "tasks still wait after 40 cycles without new tasks: $(cat counts.json)"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync cycles: $rounds cycles, $moves moves, drained after $d more: all passed"
