#!/usr/bin/env bash
# Two syncs on two copies of one state (staging pointed at production):
# each notices the tasks the other moved (queued, listed in a pool queue,
# status_reason "rescfg: ...", unknown to its journal) and warns once per
# cycle, with a count and a metric. A sync alone never warns.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 4 a)" '{"agents": []}' > setup.json
start_double setup.json
cp -r state copy  # the second sync's state: a copy, made before either ran

# The first sync alone: it moves, and knows its own moves.
for c in 1 2; do
  sync_once --metrics first.prom; code=$?
  [ "$code" = 0 ] || [ "$code" = 1 ] || { fail "first sync, cycle $c: exit $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
  grep -q "does not know" err.txt && fail "first sync, cycle $c: warns of its own moves: $(grep 'does not know' err.txt)"
  grep -q '^rescfg_sync_foreign_moves 0$' first.prom || fail "first sync, cycle $c: the metric is not 0"
done
moved=$(jq -s '[.[] | select(.endpoint == "tasks.enqueue" and .http == 200)] | length' double.log)
[ "$moved" -gt 0 ] || fail "the first sync moved nothing: the test proves nothing"

# The second sync, on the copy: it sees the first one's moves, once per cycle.
ctl tasks "{\"tasks\": $(tasks_json 2 b 1)}" >/dev/null
STATE_DIR=copy sync_once --metrics second.prom; code=$?
[ "$code" = 0 ] || [ "$code" = 1 ] || { fail "second sync: exit $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
[ "$(grep -c "moved by a rescfg sync that this journal does not know" err.txt)" = 1 ] ||
  { fail "second sync: not one warning of the other sync's moves"; sed 's/^/  | /' err.txt | head -8 >&2; }
grep -q "$moved queued tasks were moved by a rescfg sync" err.txt ||
  fail "second sync: the warning does not count the $moved moves: $(grep 'does not know' err.txt)"
grep -q "^rescfg_sync_foreign_moves $moved\$" second.prom ||
  fail "second sync: the metric is not $moved: $(grep foreign second.prom)"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync foreign moves: all passed"
