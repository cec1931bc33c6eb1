#!/usr/bin/env bash
# `rescfg sync` against a server that misbehaves: a token that expires in the
# middle of a cycle (renewed once, the cycle completes), 5xx bursts (retried;
# past the retry bound the move is `failed` or, for a read, the cycle exits
# 2), answers the server did act on but that never arrived, HTML, truncated
# bodies, large bodies and wrong shapes (exit 2 for the cycle, nothing moved,
# never a crash), and a person who stops, dequeues, moves, runs or deletes a
# task between the read and its move (`skipped`, with the server's answer).
# After each: the promises of tests/double/sync_invariants.py hold.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 10 f)" > setup.json
start_double setup.json
cp -r state pristine

# cycle LABEL FAULTS [SETUP_EXTRA]: one cycle from the initial state with these faults.
cycle() {
  setup_json "$(tasks_json 10 f)" "$(jq -n --argjson f "$2" --argjson x "${3:-{\}}" '{faults: $f} + $x')" > s.json
  reset_double s.json && rm -rf state && cp -r pristine state
  sync_once; code=$?
  [ "$code" -lt 3 ] || fail "$1: exit $code (a crash?): $(head -3 err.txt)"
  grep -q 'Sanitizer\|terminate called\|Assertion' err.txt && fail "$1: $(head -3 err.txt)"
  [ -n "${LATER:-}" ] || check_invariants "$1" out.txt
}
# then_clean LABEL: the faults gone, the next cycle leaves the promises kept
# (a server that refuses every change may leave a move half done, for the
# journal to finish at the next cycle).
then_clean() {
  cp out.txt faulty.out && cp err.txt faulty.err
  ctl check '{"layout": "layout.json", "counts": "faulty-counts.json"}' >/dev/null
  ctl faults/clear >/dev/null
  sync_once; local code=$?
  [ "$code" = 0 ] || fail "$1, the next cycle: exit $code: $(head -3 err.txt)"
  check_invariants "$1, the next cycle" out.txt
  cp faulty.out out.txt && cp faulty.err err.txt
}
moves_of() { jq -r 'select(.result == "moved") | "\(.task) \(.to)"' "$1" | sort; }
logins() { jq -s '[.[] | select(.endpoint == "auth.login")] | length' double.log; }

cycle "reference" '[]'
[ "$code" = 0 ] || fail "the reference cycle exits $code: $(head -3 err.txt)"
moves_of out.txt > reference.moves
[ -s reference.moves ] || fail "the reference cycle moves nothing"
[ "$(logins)" = 1 ] || fail "the reference cycle logged in $(logins) times, expected once"

# 1. The token expires in the middle of the reads, then in the middle of the moves.
for at in tasks.get_all:1 workers.get_all:0 tasks.enqueue:1 queues.remove_task:0 queues.add_task:1; do
  cycle "token expiry at $at" "[{\"kind\": \"expire_tokens\", \"endpoint\": \"${at%:*}\", \"skip\": ${at#*:}}]"
  if [ "$(jq -s --arg e "${at%:*}" '[.[] | select(.endpoint == $e)] | length' double.log)" -gt "${at#*:}" ]; then
    [ "$code" = 0 ] || fail "token expiry at $at: exit $code: $(head -3 err.txt)"
    case ${at%:*} in
      tasks.enqueue | queues.*) # moves run on several connections at once: each may see the 401
        [ "$(logins)" -ge 2 ] && [ "$(logins)" -le 5 ] ||
          fail "token expiry at $at: $(logins) logins, expected 2 to 5 (once per connection at most)" ;;
      *) [ "$(logins)" = 2 ] || fail "token expiry at $at: $(logins) logins, expected 2 (renewed once)" ;;
    esac
    moves_of out.txt | cmp -s - reference.moves || fail "token expiry at $at: not the reference's moves"
  fi
done
cycle "a token refused again after its renewal" '[{"kind": "expire_tokens", "endpoint": "tasks.get_all", "count": -1}]'
[ "$code" = 2 ] || fail "a token refused after renewal: exit $code, expected 2"
[ "$(logins)" = 2 ] || fail "a token refused after renewal: $(logins) logins, expected 2 (renewed once only)"
[ "$(mutating_calls)" = 0 ] || fail "a token refused after renewal, yet changing calls were made"

# 2. 5xx bursts: retried; past the bound, reads make the cycle unusable, moves fail.
burst='{"kind": "status", "code": 503, "count": 2}'
cycle "503 x2 on the reads" "[$(for e in auth.login queues.get_all tasks.get_all workers.get_all; do
  jq -c --arg e "$e" '. + {endpoint: $e}' <<<"$burst"; done | paste -sd,)]"
[ "$code" = 0 ] || fail "503 x2 on the reads: exit $code: $(head -3 err.txt)"
moves_of out.txt | cmp -s - reference.moves || fail "503 x2 on the reads: not the reference's moves"
cycle "503 x2 on the moves" "[$(for e in tasks.enqueue queues.add_task queues.remove_task tasks.dequeue; do
  jq -c --arg e "$e" '. + {endpoint: $e}' <<<"$burst"; done | paste -sd,)]"
[ "$code" = 0 ] || fail "503 x2 on the moves: exit $code: $(head -3 err.txt)"
moves_of out.txt | cmp -s - reference.moves || fail "503 x2 on the moves: not the reference's moves"
cycle "503 for ever on tasks.get_all" '[{"kind": "status", "endpoint": "tasks.get_all", "code": 503, "count": -1}]'
[ "$code" = 2 ] || fail "an unreachable tasks.get_all: exit $code, expected 2"
[ "$(mutating_calls)" = 0 ] || fail "an unreachable tasks.get_all, yet changing calls were made"
LATER=1 cycle "503 for ever on the moves" '[{"kind": "status", "endpoint": "tasks.enqueue", "code": 503, "count": -1},
  {"kind": "status", "endpoint": "queues.add_task", "code": 503, "count": -1}]'
[ "$code" = 1 ] || fail "moves that never get through: exit $code, expected 1"
check_lines out.txt
[ "$(jq -r .result out.txt | sort -u | paste -sd,)" = failed ] ||
  fail "moves that never get through are not all 'failed': $(jq -r .result out.txt | sort | uniq -c | paste -sd,)"
then_clean "503 for ever on the moves"
[ "$(jq .moves faulty-counts.json)" = 0 ] || fail "a failed move left a task in a pool queue"

# 3. Answers that do not arrive although the server acted on the call.
for e in tasks.enqueue queues.add_task queues.remove_task; do
  for kind in '"status", "code": 502, "apply": true' '"truncated"' '"drop", "apply": true'; do
    LATER=1 cycle "$e: acted on, answer lost ($kind)" "[{\"kind\": $kind, \"endpoint\": \"$e\", \"skip\": 1}]"
    [ "$code" = 0 ] || [ "$code" = 1 ] || fail "$e, $kind: exit $code: $(head -3 err.txt)"
    then_clean "$e: acted on, answer lost ($kind)"
  done
done

# 4. Answers that are no API answer: exit 2, nothing moved.
variants="html truncated data_null data_list no_meta list_not_list code_string"
[ -n "${RESCFG_TEST_QUICK:-}" ] && variants="html truncated data_null list_not_list"
for e in auth.login queues.get_all tasks.get_all workers.get_all; do
  for v in $variants; do
    [ "$e" = auth.login ] && [ "$v" = list_not_list ] && continue  # its answer holds no list
    case $v in html | truncated) f="{\"kind\": \"$v\", \"endpoint\": \"$e\", \"count\": -1}" ;;
      *) f="{\"kind\": \"shape\", \"variant\": \"$v\", \"endpoint\": \"$e\", \"count\": -1}" ;; esac
    cycle "$e answers $v" "[$f]"
    [ "$code" = 2 ] || fail "$e answers $v: exit $code, expected 2"
    [ "$(mutating_calls)" = 0 ] || fail "$e answers $v, yet changing calls were made"
    [ -s err.txt ] || fail "$e answers $v: nothing on stderr"
  done
done
# Broken items: those tasks or queues cannot be read; nothing of them is moved.
for f in 'item_not_object tasks.get_all' 'status_number tasks.get_all' 'id_number tasks.get_all' \
         'entries_not_list queues.get_all' 'item_not_object queues.get_all' 'item_not_object workers.get_all'; do
  set -- $f
  cycle "$2 with $1" "[{\"kind\": \"shape\", \"variant\": \"$1\", \"endpoint\": \"$2\", \"count\": -1}]"
  [ "$code" = 1 ] || [ "$code" = 2 ] || fail "$2 with $1: exit $code, expected 1 or 2"
  [ "$(mutating_calls)" = 0 ] || fail "$2 with $1, yet changing calls were made"
done
# A large answer (valid JSON, 40 MiB) is read; one above the transport's bound would be refused.
cycle "a 40 MiB answer" '[{"kind": "huge", "endpoint": "workers.get_all", "mb": 40}]'
[ "$code" = 0 ] || fail "a 40 MiB answer: exit $code: $(head -3 err.txt)"
if [ -n "${RESCFG_TEST_DEEP:-}" ]; then
  cycle "a 600 MiB answer" '[{"kind": "huge", "endpoint": "tasks.get_all", "mb": 600, "count": -1}]'
  [ "$code" = 2 ] || fail "a 600 MiB answer: exit $code, expected 2"
  [ "$(mutating_calls)" = 0 ] || fail "a 600 MiB answer, yet changing calls were made"
fi

# 5. A person acts on a task between the read and its move: it is skipped and left alone.
#    The last one stops it inside tasks.enqueue, between the server's reading of
#    its status and its change (121). (A person's move inside tasks.enqueue
#    keeps the status `queued`: the real server, which conditions the change on
#    the status alone, lets the enqueue take the task; no client can guard it.)
mapfile -t planned < <(cut -d' ' -f1 reference.moves)
n=0
for action in stop dequeue 'move", "to": "OTHER' run delete 'stop", "on": "tasks.enqueue", "when": "during'; do
  victim=${planned[$((n % ${#planned[@]}))]}; n=$((n + 1))
  # OTHER: a policy queue the victim is not in
  other=$(jq -r --arg t "$victim" '.origin[$t] as $q | ["sandbox-2gpu", "dev-2gpu"] | map(select(. != $q))[0]' double-state.json)
  action=${action//OTHER/$other}
  cycle "a person's $action of $victim" "[{\"kind\": \"person\", \"task\": \"$victim\", \"action\": \"$action\"}]"
  [ "$code" = 0 ] || fail "a person's ${action%%\"*} of $victim: exit $code, expected 0: $(head -3 err.txt)"
  [ "$(jq -r --arg t "$victim" 'select(.task == $t) | .result' out.txt)" = skipped ] ||
    fail "a person's ${action%%\"*} of $victim: not reported skipped: $(grep -F "$victim" out.txt)"
  jq -e --arg t "$victim" '.events | map(select(.task == $t and .by == "api" and (.to // "" | test("^(metal|k8s)")))) | length == 0' \
    double-state.json >/dev/null || fail "a person's ${action%%\"*} of $victim: it was put into a pool queue anyway"
  others=$(moves_of out.txt | grep -vc "^$victim ")
  [ "$others" = $(($(wc -l < reference.moves) - 1)) ] ||
    fail "a person's ${action%%\"*} of $victim: $others other moves, expected $(($(wc -l < reference.moves) - 1))"
done

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync faults: all passed"
