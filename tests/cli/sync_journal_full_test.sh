#!/usr/bin/env bash
# A journal that cannot be written after the moves (a full disk) never
# makes the sync say "nothing was moved": it lists the moves it made, says
# their results could not be recorded, exits 2, and the next cycle settles
# them from what the server shows (rescfg(1), "What a crash leaves behind").
# Every write step of a cycle is made to fail in turn (RESCFG_TEST_FAIL_WRITE).
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 8)" '{"agents": []}' > setup.json
start_double setup.json

after_moves=0
for step in $(seq 1 30); do
  label="write step $step fails"
  reset_double setup.json; rm -rf state/sync
  RESCFG_TEST_FAIL_WRITE=$step sync_once; code=$?
  moved=$(jq -s '[.[] | select(.endpoint == "tasks.enqueue" and .http == 200)] | length' double.log)
  said=$(grep -c '"result": *"moved"' out.txt)
  if [ "$code" = 0 ] || [ "$code" = 1 ]; then
    [ "$moved" = "$said" ] || fail "$label: the server saw $moved enqueues, the output says $said moved"
    break  # past the cycle's last write step
  fi
  [ "$code" = 2 ] || { fail "$label: exit $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
  if [ "$moved" -gt 0 ]; then
    after_moves=$((after_moves + 1))
    grep -q "nothing was moved" err.txt && fail "$label: $moved tasks moved, and the sync says nothing was moved"
    grep -q "$moved moved.*could not record" err.txt ||
      { fail "$label: stderr does not say that $moved moved and could not be recorded"; sed 's/^/  | /' err.txt | head -5 >&2; }
    [ "$said" = "$moved" ] || fail "$label: the server saw $moved enqueues, the output lists $said moved"
  else
    [ "$said" = 0 ] || fail "$label: nothing reached the server, the output lists $said moved"
  fi
  # The next cycle settles the journal: every task in exactly one queue.
  sync_once; code=$?
  [ "$code" = 0 ] || [ "$code" = 1 ] || { fail "$label: the next cycle exits $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
  check_invariants "$label"
  [ "$(jq '[.queues[] | .entries[] | .task] | length' double-state.json)" = 8 ] ||
    fail "$label: after the next cycle, not every task is listed once"
done
[ "$after_moves" -gt 0 ] || fail "no write step after the moves was made to fail"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync journal full: all passed ($after_moves write steps after the moves)"
