#!/usr/bin/env bash
# `rescfg sync` as a service: --dry-run moves nothing; the secret is never in
# stdout, stderr, the output and metrics files, the state directory or the
# process's command line; a credentials file readable by others is refused,
# refused credentials exit 2 having moved nothing; a second sync on the same
# state exits 2 at once, naming the holder; --interval survives a cycle that
# cannot reach the server, and stops cleanly on SIGTERM and SIGINT (exit 0,
# the lock released, a move in progress finished).
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 10 s)" > setup.json
start_double setup.json
cp -r state pristine

logged() { [ "$(jq -s --arg e "$1" '[.[] | select(.endpoint == $e)] | length' double.log)" -ge "${2:-1}" ]; }
# stop_interval PID SIGNAL LABEL: the signal ends an --interval sync with exit 0.
stop_interval() {
  kill -"$2" "$1"
  if ! poll 10 gone "$1"; then fail "$3: still running 10 s after SIG$2"; kill -9 "$1"; fi
  wait "$1"; local code=$?
  [ "$code" = 0 ] || fail "$3: exit $code after SIG$2, expected 0: $(tail -3 interval.err)"
}

# 1. --dry-run reads and decides, and moves nothing.
sync_once --dry-run; code=$?
[ "$code" = 0 ] || fail "--dry-run exits $code: $(head -3 err.txt)"
check_lines out.txt
[ -s out.txt ] || fail "--dry-run planned nothing"
[ "$(jq -r .result out.txt | sort -u)" = planned ] || fail "--dry-run results are not all 'planned'"
[ "$(mutating_calls)" = 0 ] || fail "--dry-run made $(mutating_calls) changing calls"
check_invariants "--dry-run" && [ "$(jq .mutations counts.json)" = 0 ] ||
  fail "--dry-run changed the server"
cp out.txt planned.txt

# 2. A real cycle; the secret appears nowhere.
sync_once -o moves.jsonl --metrics metrics.prom; code=$?
[ "$code" = 0 ] || fail "a cycle exits $code: $(head -3 err.txt)"
[ "$(jq -s 'map(select(.result == "moved")) | length' moves.jsonl)" = "$(wc -l < planned.txt)" ] ||
  fail "the cycle did not move what --dry-run planned"
check_invariants "the first cycle" moves.jsonl
[ ! -s out.txt ] || fail "with -o FILE, records still went to stdout"
grep -q '^# TYPE ' metrics.prom || fail "--metrics FILE holds no Prometheus text"
grep -rlF -- "$SECRET" out.txt err.txt moves.jsonl metrics.prom state && fail "the secret leaked (files above)"
grep -F -- "$SECRET" double.log >/dev/null && fail "the secret was sent in a request body"

# 3. Credentials from a file; a file readable by others is refused.
printf '%s\n%s\n' "$CLEARML_API_ACCESS_KEY" "$SECRET" > creds
chmod 600 creds
reset_double setup.json && rm -rf state && cp -r pristine state
env -u CLEARML_API_ACCESS_KEY -u CLEARML_API_SECRET_KEY \
  "$RESCFG" sync --state state --clearml-server "$URL" --once --credentials creds >out.txt 2>err.txt
code=$?
[ "$code" = 0 ] || fail "--credentials FILE: exit $code: $(head -3 err.txt)"
chmod 644 creds
env -u CLEARML_API_ACCESS_KEY -u CLEARML_API_SECRET_KEY \
  "$RESCFG" sync --state state --clearml-server "$URL" --once --credentials creds >out.txt 2>err.txt
code=$?
[ "$code" = 2 ] || fail "a credentials file readable by others: exit $code, expected 2"
grep -qF creds err.txt || fail "the refusal does not name the credentials file: $(head -3 err.txt)"
grep -rlF -- "$SECRET" out.txt err.txt state && fail "the secret leaked with --credentials"

# 4. Refused credentials: exit 2, nothing moved, the wrong secret not echoed either.
reset_double setup.json && rm -rf state && cp -r pristine state
CLEARML_API_SECRET_KEY=wrong-$SECRET sync_once; code=$?
[ "$code" = 2 ] || fail "refused credentials: exit $code, expected 2"
[ "$(mutating_calls)" = 0 ] || fail "refused credentials, yet changing calls were made"
[ -s err.txt ] || fail "refused credentials: nothing on stderr"
grep -qF -- "$SECRET" out.txt err.txt && fail "the refused secret is echoed"

# 5. --interval holds the lock: a second sync exits 2 at once, naming the holder.
reset_double setup.json && rm -rf state && cp -r pristine state
"$RESCFG" sync --state state --clearml-server "$URL" --interval 1 >interval.out 2>interval.err &
holder=$!
wait_for "the first cycle of --interval" 20 logged workers.get_all
tr '\0' ' ' < "/proc/$holder/cmdline" > cmdline.txt
grep -qF -- "$SECRET" cmdline.txt && fail "the secret is in /proc/PID/cmdline"
start=$(date +%s%N)
sync_once; code=$?
took=$((($(date +%s%N) - start) / 1000000))
[ "$code" = 2 ] || fail "a second sync on a locked state: exit $code, expected 2"
[ "$took" -lt 3000 ] || fail "the second sync took $took ms to give up: not at once"
grep -qF "$holder" err.txt || fail "the second sync does not name the holder (pid $holder): $(head -3 err.txt)"
stop_interval "$holder" TERM "--interval"
sync_once; code=$?
[ "$code" = 0 ] || fail "after SIGTERM the state is still locked or broken: exit $code: $(head -3 err.txt)"
grep -rlF -- "$SECRET" interval.out interval.err state && fail "the secret leaked from --interval"

# 6. --interval survives a cycle that cannot reach the server, then works; SIGINT ends it.
reset_double setup.json && rm -rf state && cp -r pristine state
ctl faults '{"faults": [{"kind": "status", "endpoint": "queues.get_all", "code": 503, "count": 5}]}' >/dev/null
"$RESCFG" sync --state state --clearml-server "$URL" --interval 1 >interval.out 2>interval.err &
pid=$!
wait_for "the failing cycle" 30 logged queues.get_all 5
wait_for "a cycle after the server came back" 30 logged workers.get_all
kill -0 "$pid" 2>/dev/null || fail "--interval ended after a cycle that could not reach the server"
wait_for "the moves of the cycle" 30 logged tasks.get_all 2
stop_interval "$pid" INT "--interval after an unreachable cycle"
check_invariants "--interval" interval.out

# 7. SIGTERM in the middle of a slow move: the move in progress is finished.
reset_double setup.json && rm -rf state && cp -r pristine state
ctl faults '{"faults": [{"kind": "slow", "endpoint": "tasks.enqueue", "seconds": 0.5, "count": -1},
  {"kind": "slow", "endpoint": "queues.add_task", "seconds": 0.5, "count": -1},
  {"kind": "slow", "endpoint": "queues.remove_task", "seconds": 0.5, "count": -1}]}' >/dev/null
"$RESCFG" sync --state state --clearml-server "$URL" --interval 60 >interval.out 2>interval.err &
pid=$!
moving() { [ "$(mutating_calls)" -ge 1 ]; }
wait_for "a move" 30 moving
stop_interval "$pid" TERM "SIGTERM during a move"
check_invariants "SIGTERM during a move" interval.out

# 8. --interval keeps the configuration it read while the state's revision
# stays the same, and takes a new provision at the next cycle: provisioned
# with enabled: false it moves nothing, cycle after cycle; provisioned again
# enabled, it moves.
reset_double setup.json && rm -rf state && cp -r pristine state
{ cat config.yaml; echo "enabled: false"; } > disabled.yaml
"$RESCFG" -q provision disabled.yaml --state state -m "off" >/dev/null 2>provision.err ||
  fail "the disabled configuration does not provision: $(cat provision.err)"
"$RESCFG" sync --state state --clearml-server "$URL" --interval 1 >interval.out 2>interval.err &
pid=$!
wait_for "three cycles while disabled" 30 logged workers.get_all 3
[ "$(mutating_calls)" = 0 ] || fail "--interval disabled: $(mutating_calls) changing calls"
"$RESCFG" -q provision config.yaml --state state -m "on" >/dev/null 2>provision.err ||
  fail "the enabled configuration does not provision again: $(cat provision.err)"
moving() { [ "$(mutating_calls)" -ge 1 ]; }
wait_for "a move after the new provision" 30 moving
stop_interval "$pid" TERM "--interval across a provision"
check_invariants "--interval across a provision" interval.out

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync service: all passed"
