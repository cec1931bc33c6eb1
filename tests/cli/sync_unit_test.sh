#!/usr/bin/env bash
# The packaged systemd unit of `rescfg sync` stops, rather than restarting
# every RestartSec, when the sync exits 2 (credentials refused, an unusable
# configuration or state): restarting cannot fix those (rescfg(1), EXIT
# STATUS). Checked with systemd-analyze when it is there.
set -u
source "$(dirname "$0")/harness.sh" "$@"
unit=$SRC/packaging/systemd/rescfg-sync.service
[ -f "$unit" ] || { fail "no packaged unit at $unit"; exit 1; }
# The [Service] section's settings, comments left out.
service=$(awk '/^\[/ {s = ($0 == "[Service]")} s && !/^#/' "$unit")
grep -qx 'Restart=on-failure' <<<"$service" || fail "the unit does not restart on failure"
grep -qE '^RestartPreventExitStatus=(.* )?2( .*)?$' <<<"$service" ||
  fail "the unit restarts after exit 2 (refused credentials): RestartPreventExitStatus=2 is missing"
if command -v systemd-analyze >/dev/null 2>&1; then
  systemd-analyze verify --man=no "$unit" 2>verify.err
  grep -i 'RestartPreventExitStatus' verify.err && fail "systemd-analyze: $(cat verify.err)"
fi
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync unit: all passed"
