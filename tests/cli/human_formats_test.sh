#!/usr/bin/env bash
# Golden files of the formats for people (testdata/human/): amounts that are
# no finite decimal as ~23.52 or MIG slices, waits as durations, and the
# Markdown of diff and plan for a pull-request comment. Machine formats of
# the same input keep exact values. UPDATE_GOLDEN=1 rewrites the files.
source "$(dirname "$0")/harness.sh" "$@"
dir=$SRC/testdata/human
cp "$dir"/*.yaml "$dir"/*.jsonl .

golden() {  # golden NAME EXPECTED-EXIT CMD...
  local name=$1 want=$2; shift 2
  expect "$want" "$@"
  if [ -n "${UPDATE_GOLDEN:-}" ]; then
    cp out.txt "$dir/$name"
  elif ! diff -u "$dir/$name" out.txt > diff.txt; then
    fail "$name differs from the golden file:"; sed 's/^/  /' diff.txt >&2
  fi
}

golden schedule.table 0 "$RESCFG" schedule --config config.yaml --jobs jobs.yaml --format table
golden status.table 0 "$RESCFG" status --config config.yaml --jobs jobs.yaml
golden simulate.table 0 "$RESCFG" -q simulate --config new.yaml --trace trace.jsonl --format table
golden diff.md 1 "$RESCFG" -q diff config.yaml new.yaml --jobs jobs.yaml --trace trace.jsonl --format markdown
golden diff-trace.txt 1 "$RESCFG" -q diff config.yaml new.yaml --trace trace.jsonl
golden plan.md 0 "$RESCFG" -q plan new.yaml --state st -o plan.json --format markdown

# What the goldens promise, said plainly.
contains "$dir/schedule.table" "~23.52"
contains "$dir/status.table" "of 56 slices"
grep -qE '[0-9]+/[0-9]+' "$dir/schedule.table" && fail "a fraction in the schedule table"
grep -qE '[0-9]h[0-9]{2}m|[0-9]d[0-9]+h' "$dir/simulate.table" || fail "no durations in the simulation table"
contains "$dir/diff.md" "| Policy | Started | Wait mean | p50 | p90 | p99 | max | GPU-hours |"
contains "$dir/plan.md" "| added | pool | AWS burst |"
# Machine formats stay exact.
expect 0 "$RESCFG" schedule --config config.yaml --jobs jobs.yaml --format json
jq -e '.pools[] | select(.name == "AWS burst") | .free == "1646669/70000"' out.txt > /dev/null ||
  fail "json is not exact: $(jq -c '.pools' out.txt)"

# Markdown never outgrows a comment: 3000 pools added, cut with a line that says so.
{
  echo "apiVersion: rescfg/v1"; echo "kind: ResourceConfiguration"; echo "pools:"
  for i in $(seq 1 3000); do echo "  - {name: pool-$i-with-a-long-name-to-fill-the-comment, resources: 8}"; done
  echo "profiles: [{name: p, allotment: 1, links: [pool-1-with-a-long-name-to-fill-the-comment]}]"
  echo "policies: [{name: T, profiles: [p]}]"
} > big.yaml
expect 1 "$RESCFG" -q diff config.yaml big.yaml --format markdown
size=$(wc -c < out.txt)
[ "$size" -le 65536 ] || fail "the Markdown diff is $size characters"
contains out.txt "*Not shown: "
contains out.txt "to keep this comment within 65536 characters"

exit $((failures > 0))
