#!/usr/bin/env bash
# `rescfg sync --metrics FILE` never writes over a file of the state
# directory (history.jsonl, a revision, the journal), as -o does not; its
# sync/ directory takes a metrics file of its own (the packaged unit's).
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json "$(tasks_json 2 a)" > setup.json
start_double setup.json
sync_once || fail "a first cycle exits $?: $(head -3 err.txt)"
for file in state/history.jsonl "$(ls state/revisions/* | head -1)" state/sync/journal; do
  [ -f "$file" ] || { fail "the state has no $file"; continue; }
  cp "$file" before
  sync_once --metrics "$file"; code=$?
  [ "$code" = 2 ] || fail "--metrics $file: exit $code, expected 2"
  cmp -s before "$file" || fail "--metrics overwrote $file"
  grep -q -- "--metrics" err.txt || { fail "--metrics $file: no message says why"; sed 's/^/  | /' err.txt >&2; }
done
sync_once --metrics state/sync/metrics.prom; code=$?
[ "$code" = 0 ] || fail "--metrics state/sync/metrics.prom: exit $code: $(head -3 err.txt)"
grep -q '^rescfg_sync_cycles_total 1$' state/sync/metrics.prom || fail "no metrics in state/sync/metrics.prom"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync metrics guard: all passed"
