#!/usr/bin/env bash
# The reading of the server in a sync cycle is bounded (rescfg(1), "Bounds
# on a cycle"): a scroll without end ends after a bounded number of calls, a
# slow answer after --read-timeout, a cycle's answers after a bounded number
# of bytes, and SIGTERM ends a read at once. Nothing is moved after such a
# reading, and the next clean cycle completes.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 5)" '{"agents": []}' > setup.json
start_double setup.json
export SYNC_TIMEOUT=40

# millis: a steady enough clock for the test's own bounds.
millis() { date +%s%3N; }

# bounded LABEL WANT_TEXT MAX_SECONDS [SYNC ARGS...]: one cycle under the
# faults set ends with exit 2, says WANT_TEXT, within MAX_SECONDS, moving nothing.
bounded() {
  local label=$1 want=$2 max=$3 start took code; shift 3
  : > double.log
  start=$(millis)
  sync_once "$@"; code=$?
  took=$(($(millis) - start))
  [ "$code" = 2 ] || { fail "$label: exit $code, expected 2"; sed 's/^/  | /' err.txt | head -5 >&2; }
  grep -q -- "$want" err.txt || { fail "$label: stderr lacks '$want'"; sed 's/^/  | /' err.txt | head -5 >&2; }
  [ "$took" -le $((max * 1000)) ] || fail "$label: the cycle took $took ms (bound: $max s)"
  [ "$(mutating_calls)" = 0 ] || fail "$label: the server was changed after a bounded reading"
}

# A scroll without end: every page holds tasks never seen before.
ctl faults '{"faults": [{"kind": "endless", "endpoint": "tasks.get_all", "count": -1}]}' >/dev/null
RESCFG_TEST_READ_BOUNDS=300,1000000000 bounded "endless scroll" "more than 300 calls" 30
ctl faults/clear >/dev/null

# A slow answer (a page dripping in for minutes): --read-timeout ends it.
ctl faults '{"faults": [{"kind": "drip", "endpoint": "tasks.get_all", "rate": 4096, "kb": 4096, "count": -1}]}' >/dev/null
bounded "slow answer" "longer than 2 s (--read-timeout)" 8 --read-timeout 2
ctl faults/clear >/dev/null

# The bytes of a cycle's answers: one answer longer than the cycle's bound.
ctl faults '{"faults": [{"kind": "huge", "endpoint": "tasks.get_all", "mb": 4, "count": -1}]}' >/dev/null
RESCFG_TEST_READ_BOUNDS=20000,1000000 bounded "bytes of a cycle" "passed 1000000 bytes" 20
ctl faults/clear >/dev/null

# SIGTERM while an answer drips in: the read ends at once, the sync exits 0.
ctl faults '{"faults": [{"kind": "drip", "endpoint": "tasks.get_all", "rate": 4096, "kb": 4096, "count": -1}]}' >/dev/null
: > double.log
"$RESCFG" sync --state state --clearml-server "$URL" --interval 60 >loop.out 2>loop.err &
pid=$!
wait_for "the first page asked for" 20 grep -q '"tasks.get_all"' double.log
sleep 0.5
start=$(millis)
kill -TERM "$pid"
if poll 5 gone "$pid"; then
  wait "$pid"; code=$?
  took=$(($(millis) - start))
  [ "$code" = 0 ] || { fail "SIGTERM during a read: exit $code"; sed 's/^/  | /' loop.err | head -5 >&2; }
  [ "$took" -le 3000 ] || fail "SIGTERM during a read: the sync ended $took ms after the signal"
else
  fail "SIGTERM during a read: the sync still runs 5 s after the signal"
  kill -KILL "$pid"; wait "$pid"
fi
[ "$(mutating_calls)" = 0 ] || fail "SIGTERM during a read: the server was changed"
ctl faults/clear >/dev/null

# The bounds count per cycle: a clean cycle after them completes.
sync_once; code=$?
[ "$code" = 0 ] || [ "$code" = 1 ] || { fail "clean cycle: exit $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
check_invariants "after the bounded readings"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync read bounds: all passed"
