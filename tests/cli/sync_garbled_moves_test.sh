#!/usr/bin/env bash
# A garbled answer to a move (HTML with HTTP 200, a redirection, an envelope
# whose "data" is null) after the server acted never strands the task: the
# move's intent stays open, and the next cycle settles it from what the
# server shows (rescfg(1), "What a crash leaves behind"). A queued task of a
# policy queue that no queue lists and no move of rescfg covers is reported
# at every cycle.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json '[{"id": "g1", "name": "train-g1", "status": "queued", "queue": "sandbox-2gpu"}]' '{"agents": []}' > setup.json
start_double setup.json

for endpoint in queues.remove_task tasks.enqueue; do
  for fault in '{"kind": "html", "apply": true}' '{"kind": "status", "code": 302, "apply": true}' \
               '{"kind": "shape", "variant": "data_null"}'; do
    label="$endpoint, $fault"
    reset_double setup.json; rm -rf state/sync
    ctl faults "{\"faults\": [$(jq -c --arg e "$endpoint" '. + {endpoint: $e, count: -1}' <<<"$fault")]}" >/dev/null
    sync_once
    ctl faults/clear >/dev/null
    for c in 2 3; do
      sync_once; code=$?
      [ "$code" = 0 ] || fail "$label: cycle $c exits $code: $(head -3 err.txt)"
    done
    check_invariants "$label"
    [ "$(jq '[.queues[] | .entries[] | select(.task == "g1")] | length' double-state.json)" = 1 ] ||
      fail "$label: g1 is in no queue after two clean cycles"
  done
done

# A task queued for a policy queue, listed in none, no move of rescfg covers
# it (a person's or a tool's half-done move): said at every cycle.
reset_double setup.json; rm -rf state/sync
ctl tasks '{"tasks": [{"id": "lost1", "status": "queued", "queue": "dev-2gpu"}]}' >/dev/null
ctl person '{"task": "lost1", "action": "pop"}' >/dev/null
for c in 1 2; do
  sync_once; code=$?
  [ "$code" = 0 ] || [ "$code" = 1 ] || fail "stranded: cycle $c exits $code: $(head -3 err.txt)"
  grep -q "lost1.*listed in no queue" err.txt || { fail "stranded: cycle $c does not report lost1"; sed 's/^/  | /' err.txt >&2; }
done

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync garbled moves: all passed"
