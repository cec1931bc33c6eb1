#!/usr/bin/env bash
# The secret stays in: a loopback server is never reached through a proxy
# (http_proxy, HTTP_PROXY, ALL_PROXY would receive the Basic credentials in
# clear text); a credentials file or CA bundle that others may change, or
# that belongs to another user, is refused (exit 2).
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 2 a)" > setup.json
start_double setup.json

# 1. A proxy that records every connection it receives.
cat > proxy.py <<'PY'
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.replace(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    c, _ = s.accept()
    data = c.recv(65536)
    with open("proxy.log", "ab") as f: f.write(data + b"\n--\n")
    c.close()
PY
"$PYTHON" proxy.py proxy.port & PROXY_PID=$!
trap 'kill "$DOUBLE_PID" "$PROXY_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
poll 10 test -s proxy.port || fail "the recording proxy did not start"
proxy=http://127.0.0.1:$(cat proxy.port)
http_proxy=$proxy HTTP_PROXY=$proxy ALL_PROXY=$proxy all_proxy=$proxy sync_once; code=$?
[ "$code" = 0 ] || fail "with a proxy in the environment: exit $code: $(head -3 err.txt)"
[ -s proxy.log ] && fail "the proxy received $(grep -c -- '^--$' proxy.log) requests for a loopback server (Basic credentials in clear)"

# 2. Files others may change, or that belong to another user.
printf '%s\n%s\n' "$CLEARML_API_ACCESS_KEY" "$SECRET" > creds
chmod 602 creds
( unset CLEARML_API_ACCESS_KEY CLEARML_API_SECRET_KEY; sync_once --credentials creds ); code=$?
[ "$code" = 2 ] || fail "a credentials file writable by others: exit $code, expected 2"
grep -q "group or others" err.txt || { fail "no message says the credentials file may be changed"; sed 's/^/  | /' err.txt >&2; }
touch ca.pem; chmod 666 ca.pem
sync_once --ca-cert ca.pem; code=$?
[ "$code" = 2 ] || fail "a CA bundle writable by others: exit $code, expected 2"
if [ "$(id -u)" = 0 ]; then
  chmod 600 creds; chown 65534 creds
  ( unset CLEARML_API_ACCESS_KEY CLEARML_API_SECRET_KEY; sync_once --credentials creds ); code=$?
  [ "$code" = 2 ] || fail "a credentials file of another user: exit $code, expected 2"
  chmod 644 ca.pem; chown 65534 ca.pem
  sync_once --ca-cert ca.pem; code=$?
  [ "$code" = 2 ] || fail "a CA bundle of another user: exit $code, expected 2"
fi

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync secrets: all passed"
