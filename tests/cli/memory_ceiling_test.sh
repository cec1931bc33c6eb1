#!/usr/bin/env bash
# Memory per input byte: the ceilings rescfg(1) documents (ENVIRONMENT,
# "Memory"), measured as the peak resident size of the real binary, and no
# abort when memory runs out whatever the input.
set -u
source "$(dirname "$0")/harness.sh" "$@"
[ -x /usr/bin/time ] || { echo "memory ceiling: skipped (no /usr/bin/time)"; exit 0; }
# AddressSanitizer's shadow memory and quarantine are no measure of rescfg's.
grep -qa -e __asan_init -e __tsan_init "$RESCFG" && { echo "memory ceiling: skipped (sanitized binary)"; exit 0; }
QUICK=${RESCFG_TEST_QUICK:-0}
JOBS=$([ "$QUICK" = 1 ] && echo 50000 || echo 200000)

peak_kb() {  # peak_kb CMD...: runs CMD, prints its peak resident size in KiB
  /usr/bin/time -f '%M' -o peak.txt "$@" >/dev/null 2>err.txt
  tail -1 peak.txt
}
# ceiling NAME UNITS KB PER_UNIT BASE_MB: KB * 1024 <= UNITS * PER_UNIT + BASE_MB MiB (units: bytes or entries)
ceiling() {
  local name=$1 bytes=$2 kb=$3 per_byte=$4 base=$5
  local allowed=$((bytes * per_byte + base * 1048576))
  echo "$name: $((kb / 1024)) MiB peak for $bytes units of input ($((((kb - base_kb) * 1024) / (bytes > 0 ? bytes : 1))) bytes a unit over the base)"
  [ $((kb * 1024)) -le "$allowed" ] || fail "$name: peak $((kb / 1024)) MiB over the ceiling of $((allowed / 1048576)) MiB"
}
base_kb=$(peak_kb "$RESCFG" validate "$EXAMPLE")

# Ordinary jobs: ids, policies, profiles, times, a parameter.
python3 - "$JOBS" <<'P'
import sys
n = int(sys.argv[1])
policies = [("Dev", "4xGPU"), ("Research", "4xGPU"), ("Sandbox", "2xGPU"), ("Sandbox", "0.5xGPU")]
with open("jobs.jsonl", "w") as f:
    for i in range(n):
        policy, profile = policies[i % 4]
        f.write('{"id": "job-%d", "policy": "%s", "profile": "%s", "enqueued": "2026-11-29T10:%02d:%02dZ", '
                '"params": {"runtime": {"gpus_request": 2}}}\n' % (i, policy, profile, (i // 60) % 60, i % 60))
# Entries rejected for what they lack: five times as many lines.
with open("empty-objects.jsonl", "w") as f:
    f.write("{}\n" * n * 5)
with open("not-json.jsonl", "w") as f:
    f.write("x\n" * n * 5)
P
size=$(stat -c %s jobs.jsonl)
ceiling schedule "$size" "$(peak_kb "$RESCFG" schedule -c "$EXAMPLE" -j jobs.jsonl -f jsonl)" 5 $((base_kb / 1024 + 32))
ceiling explain "$size" "$(peak_kb "$RESCFG" explain job-1 -c "$EXAMPLE" -j jobs.jsonl)" 5 $((base_kb / 1024 + 32))
# A rejected entry that carries nothing of its line (no id, policy,
# profile or name) costs a few dozen bytes, whatever the line: 48 an entry.
for file in empty-objects.jsonl not-json.jsonl; do
  lines=$((JOBS * 5))
  kb=$(peak_kb "$RESCFG" schedule -c "$EXAMPLE" -j "$file" -f jsonl)
  ceiling "rejected entries ($file)" "$lines" "$kb" 48 $((base_kb / 1024 + 8))
done

# Out of memory is an error, never an abort: a million rejected entries
# under 200 MB of address space.
python3 -c 'open("million.jsonl", "w").write("{}\n" * 1000000)'
(ulimit -v 200000; exec "$RESCFG" schedule -c "$EXAMPLE" -j million.jsonl -f jsonl -o million.out) >out.txt 2>err.txt
code=$?
case $code in
  1) ;;  # it fitted
  2) contains err.txt "out of memory"; [ -e million.out ] && fail "-o written although out of memory" ;;
  *) fail "exit $code under ulimit -v (an abort?)"; sed 's/^/  stderr: /' err.txt >&2 ;;
esac

[ "$failures" -eq 0 ] && echo "memory ceiling: all passed"
exit "$failures"
