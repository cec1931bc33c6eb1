#!/usr/bin/env bash
# rescfg sync without a ClearML server: what it refuses before any call
# (no cycle mode, no server, no credentials, a credentials file others may
# read, plain http:// off loopback, no state), the sync lock held by a
# running sync (a second one exits 2 naming the holder; provision is not
# blocked; SIGTERM exits 0), an unreachable server with --once (exit 2),
# and --jobs-from-sync before any sync.
# Usage: sync_cli_test.sh BINARY SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"
export CLEARML_API_ACCESS_KEY=cli-key CLEARML_API_SECRET_KEY=cli-secret-9f1c
unset CLEARML_API_HOST
"$RESCFG" -q provision "$EXAMPLE" --state state >/dev/null || fail "provision"
dead=http://127.0.0.1:9   # nothing listens there (discard port, closed)

expect 2 "$RESCFG" sync --state state --clearml-server $dead
contains err.txt "--once or --interval"
expect 2 "$RESCFG" sync --state state --once
contains err.txt "CLEARML_API_HOST"
expect 2 "$RESCFG" sync --state state --once --interval 5 --clearml-server $dead
expect 2 "$RESCFG" sync --state state --once --clearml-server http://clearml.example
contains err.txt "clear text"
expect 2 "$RESCFG" sync --state state --once --clearml-server ftp://clearml.example
expect 2 "$RESCFG" sync --state missing --once --clearml-server $dead
contains err.txt "provision"
expect 2 env -u CLEARML_API_ACCESS_KEY "$RESCFG" sync --state state --once --clearml-server $dead
contains err.txt "CLEARML_API_ACCESS_KEY"
printf 'key\nsecret-in-file\n' > creds
chmod 644 creds
expect 2 "$RESCFG" sync --state state --once --clearml-server $dead --credentials creds
contains err.txt "group or others"
chmod 600 creds
printf 'only-a-key\n' > creds1
chmod 600 creds1
expect 2 "$RESCFG" sync --state state --once --clearml-server $dead --credentials creds1
contains err.txt "two lines"

# An unreachable server: the cycle is unusable, nothing moved, exit 2.
expect 2 "$RESCFG" sync --state state --once --clearml-server $dead --credentials creds
contains err.txt "nothing was moved"
[ -s out.txt ] && fail "output of a cycle that could not run: $(cat out.txt)"
grep -q "secret-in-file" err.txt && fail "the secret is in the log"

# --jobs-from-sync before any snapshot was kept.
expect 2 "$RESCFG" schedule --state state --jobs-from-sync
contains err.txt "no snapshot kept"
expect 2 "$RESCFG" schedule --state state
contains err.txt "--jobs-from-sync"

# The sync lock: a running sync (retrying an unreachable server) holds it.
"$RESCFG" sync --state state --interval 30 --clearml-server $dead >loop.out 2>loop.err &
loop=$!
poll 5 grep -qs "nothing was moved" loop.err
expect 2 "$RESCFG" sync --state state --once --clearml-server $dead
contains err.txt "another sync runs on this state directory (process $loop"
tr '\0' ' ' < /proc/$loop/cmdline | grep -q cli-secret && fail "the secret is on the command line"
expect 0 "$RESCFG" -q provision "$EXAMPLE" --state state --lock-timeout 2
kill -TERM $loop
wait $loop
code=$?
[ $code = 0 ] || fail "SIGTERM: exit $code, expected 0"
grep -rq "cli-secret" state loop.out loop.err && fail "the secret is in the state or the output"

[ $failures = 0 ] && echo PASS
exit $((failures > 0))
