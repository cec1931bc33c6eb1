#!/usr/bin/env bash
# Golden scheduling scenarios: runs `rescfg schedule --format jsonl` on every
# directory under testdata/schedule/ and compares each entry's decision with
# expected.jsonl (the derivation is in the comment block of each config.yaml);
# a file `now` gives the instant judged (--now).
#
# Usage: schedule_golden_test.sh BINARY SRCDIR [SCENARIO...]
set -u

if [ $# -lt 2 ]; then
  echo "usage: $0 BINARY SRCDIR [SCENARIO...]" >&2
  exit 2
fi
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root="$2/testdata/schedule"
shift 2
command -v jq >/dev/null || { echo "jq is required" >&2; exit 2; }

# One decision per line, keys in a fixed order; `entry` only when present.
normalise='{job, entry, status, policy, profile, pool, queue, resources, reason, node, preemptedFor, victims}
  | with_entries(select(.value != null or (.key | IN("entry", "node", "preemptedFor", "victims") | not)))'

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ $# -gt 0 ]; then
  scenarios=("$@")
else
  scenarios=()
  for dir in "$root"/*/; do scenarios+=("$(basename "$dir")"); done
fi

failed=()
for name in "${scenarios[@]}"; do
  dir="$root/$name"
  jobs=$(ls "$dir"/jobs.yaml "$dir"/jobs.jsonl "$dir"/tasks.json 2>/dev/null | head -n 1)
  # A ClearML task snapshot (tasks.json) is read with its companions.
  args=(--jobs "$(basename "$jobs")")
  # The instant judged (preemption's run times and waits), when the scenario names one.
  [ -f "$dir/now" ] && args+=(--now "$(tr -d '[:space:]' <"$dir/now")")
  if [ "$(basename "$jobs")" = tasks.json ]; then
    args+=(--jobs-format clearml)
    [ -f "$dir/queues.json" ] && args+=(--clearml-queues queues.json)
    [ -f "$dir/workers.json" ] && args+=(--clearml-workers workers.json)
  fi
  if [ ! -f "$dir/config.yaml" ] || [ -z "$jobs" ] || [ ! -f "$dir/expected.jsonl" ] ||
     [ ! -f "$dir/expected-exit" ]; then
    echo "FAIL $name: scenario is incomplete (config.yaml, jobs.* or tasks.json, expected.jsonl, expected-exit)"
    failed+=("$name")
    continue
  fi
  problems=()
  (cd "$dir" && "$binary" schedule --config config.yaml "${args[@]}" --format jsonl \
     >"$work/out" 2>"$work/err")
  code=$?
  want_code=$(tr -d '[:space:]' <"$dir/expected-exit")
  [ "$code" = "$want_code" ] || problems+=("exit status $code, expected $want_code")

  if ! jq -c "$normalise" "$dir/expected.jsonl" >"$work/want" 2>"$work/jqerr"; then
    problems+=("expected.jsonl is not valid JSON Lines: $(cat "$work/jqerr")")
  fi
  if ! jq -c "$normalise" "$work/out" >"$work/got" 2>"$work/jqerr"; then
    problems+=("output is not valid JSON Lines: $(head -c 300 "$work/jqerr")")
    : >"$work/got"
  fi
  if ! diff -u --label expected --label actual "$work/want" "$work/got" >"$work/diff"; then
    problems+=("decisions differ:"$'\n'"$(cat "$work/diff")")
  fi
  # Pending and rejected entries must say why in words, not only as a code.
  silent=$(jq -c 'select((.status == "pending" or .status == "rejected") and (.message == null or .message == ""))
                  | .job // ("entry " + (.entry | tostring))' "$work/out" 2>/dev/null)
  [ -z "$silent" ] || problems+=("no message for: $(echo $silent)")

  if [ ${#problems[@]} -eq 0 ]; then
    echo "ok   $name"
  else
    echo "FAIL $name"
    for p in "${problems[@]}"; do echo "$p" | sed 's/^/     /'; done
    if [ -s "$work/err" ]; then echo "     stderr:"; sed 's/^/       /' "$work/err" | head -n 20; fi
    failed+=("$name")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "${#failed[@]} of ${#scenarios[@]} scheduling scenarios failed: ${failed[*]}"
  exit 1
fi
echo "all ${#scenarios[@]} scheduling scenarios pass"
