#!/usr/bin/env bash
# The secret lives in the sync's memory: the process is not dumpable (no
# core dump holds it; no other process of the same user reads its memory).
# The kernel shows it: the /proc/PID files of a process that is not
# dumpable belong to root, whatever user runs it. So the sync runs under
# an unprivileged user (setpriv when this test runs as root).
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 2 d)" '{"agents": []}' > setup.json
start_double setup.json

as_user=()
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null || { echo "SKIP: root without setpriv: no unprivileged user to run the sync as"; exit 0; }
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
  chmod 755 "$WORK"
  chown -R 65534:65534 state
  # the binary's directories may be closed to others: a copy in the scratch directory
  cp "$RESCFG" ./rescfg-copy && chmod 755 ./rescfg-copy
  RESCFG=$WORK/rescfg-copy
fi
"${as_user[@]}" "$RESCFG" sync --state state --clearml-server "$URL" --interval 60 >loop.out 2>loop.err &
pid=$!
wait_for "the first cycle" 30 grep -q "cycle 1:" loop.err
if kill -0 "$pid" 2>/dev/null; then
  owner=$(stat -c %u "/proc/$pid/status")
  runs_as=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
  [ "$runs_as" != 0 ] || fail "the sync runs as root: the test cannot tell"
  [ "$owner" = 0 ] || fail "the sync (uid $runs_as) is dumpable: its /proc files belong to uid $owner, not root"
  kill -TERM "$pid"
else
  fail "the sync ended before it could be looked at: $(head -3 loop.err)"
fi
wait "$pid"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync dumpable: all passed"
