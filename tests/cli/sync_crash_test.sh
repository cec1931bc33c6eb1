#!/usr/bin/env bash
# `rescfg sync` killed at every step of a cycle: at each crash point of the
# command (RESCFG_TEST_CRASH_POINT=N ends it there, as kill -9 would), then at
# random instants with kill -9 while it moves tasks (the server answers the
# moves slowly, so that the kills land inside them). Every crash is followed
# by a normal cycle, sometimes after the agents took what was handed over.
# Then a journal whose last line a crash cut short, read by --jobs-from-sync
# (never changed) and by the next sync (cut off before it appends).
# After it: no task queued in no queue or in two, none handed over twice, no
# pool or policy over its size or limit, and the state directory is usable
# (not locked by the dead process).
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

tasks=$(tasks_json 12 c)
setup_json "$tasks" > setup.json
setup_json "$tasks" '{"faults": [{"kind": "slow", "endpoint": "tasks.enqueue", "seconds": 0.03, "count": -1},
  {"kind": "slow", "endpoint": "queues.add_task", "seconds": 0.03, "count": -1},
  {"kind": "slow", "endpoint": "queues.remove_task", "seconds": 0.03, "count": -1}]}' > setup-slow.json
start_double setup.json
cp -r state pristine
export STATE_DIR=st

# recover LABEL: a normal cycle after a crash completes, and the promises hold.
recover() {
  sync_once; local code=$?
  [ "$code" = 0 ] || fail "$1: the cycle after the crash exits $code: $(head -3 err.txt)"
  check_invariants "$1, after recovery" out.txt
  ctl tick >/dev/null
  sync_once || fail "$1: the second cycle after the crash exits $?: $(head -3 err.txt)"
  check_invariants "$1, a cycle later"
}

# 1. Every crash point of a cycle that moves several tasks (every third one
#    under the sanitizers, where each cycle costs ten times as much).
points=0
step=1
[ -n "${RESCFG_TEST_QUICK:-}" ] && step=3
for k in $(seq 1 "$step" 80); do
  reset_double setup.json
  rm -rf st && cp -r pristine st
  RESCFG_TEST_CRASH_POINT=$k sync_once; code=$?
  [ "$code" = 0 ] && break
  [ "$code" = 86 ] || { fail "crash point $k: exit $code: $(head -3 err.txt)"; break; }
  points=$k
  [ $((k % 2)) = 0 ] && ctl tick >/dev/null  # the agents pull what was handed over
  recover "crash point $k"
done
moved=$(jq -s '[.[] | select(.result == "moved")] | length' out.txt)
[ "$code" = 0 ] && [ "$moved" -gt 0 ] || fail "the uninterrupted cycle moved nothing (exit $code)"
[ "$points" -ge 1 ] || fail "a cycle of $moved moves reaches no crash point"

# 2. kill -9 at random instants of a cycle whose moves are slow.
reset_double setup-slow.json
rm -rf st && cp -r pristine st
start=$(date +%s%N)
sync_once
span=$((($(date +%s%N) - start) / 1000000 + 1))
kills=$((5 * ROUNDS_SCALE))
RANDOM=5
for i in $(seq 1 "$kills"); do
  reset_double setup-slow.json
  rm -rf st && cp -r pristine st
  "$RESCFG" sync --state st --clearml-server "$URL" --once >killed.out 2>killed.err &
  pid=$!
  ms=$((RANDOM % span))
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ $((i % 2)) = 0 ] && ctl tick >/dev/null
  recover "kill $i"
done

# 3. A journal whose last line a crash cut short, then a cycle that ends
#    between the recovery's appends and the rewrite of the journal (the
#    second reading of the server fails): the fragment must be gone before
#    those appends, or they are glued to it and the journal never opens again.
tasks2=$(tasks_json 2 j)
setup_json "$tasks2" '{"agents": [], "faults": [{"kind": "html", "endpoint": "tasks.enqueue", "count": -1}]}' > setup-open.json
reset_double setup-open.json
rm -rf st && cp -r pristine st
sync_once  # the enqueues get no usable answer: their intents stay open
journal=st/sync/journal
intents=$(grep -c '"op": "intent"' "$journal")
[ "$intents" -ge 1 ] || fail "torn journal: the first cycle left no open intent"
fragment='0123456789abcdef {"op": "done", "seq"'  # half a record, as a crash while appending leaves it
printf '%s' "$fragment" >> "$journal"
cp "$journal" torn-journal
"$RESCFG" -q graph --state st --jobs-from-sync >/dev/null 2>graph.err ||
  fail "torn journal: graph --jobs-from-sync exits $?: $(head -3 graph.err)"
cmp -s "$journal" torn-journal || fail "torn journal: a reader without the sync's lock changed the journal"
ctl faults/clear >/dev/null
ctl faults '{"faults": [{"kind": "html", "endpoint": "queues.get_all", "skip": 1, "count": -1}]}' >/dev/null
sync_once; code=$?
[ "$code" = 2 ] || fail "torn journal: the cycle whose second reading fails exits $code, expected 2"
grep -q "journal: its last ${#fragment} bytes.*truncated" err.txt ||
  { fail "torn journal: no warning that the torn line was truncated"; sed 's/^/  | /' err.txt | head -5 >&2; }
grep -q '{"op": "done", "seq"[0-9a-f]' "$journal" && fail "torn journal: a record was glued to the torn line"
ctl faults/clear >/dev/null
sync_once; code=$?
[ "$code" = 0 ] || { fail "torn journal: the next cycle exits $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
grep -q "truncated" err.txt && fail "torn journal: the next cycle warns again"
check_invariants "torn journal, after the next cycle"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync crash: $points crash points, $kills kills in cycles of ${span} ms, a torn journal: all passed"
