#!/usr/bin/env bash
# fmt, diff, provision, reset, history, status and graph: outputs and exit codes.
set -u
source "$(dirname "$0")/harness.sh" "$@"

cat > bad-syntax.yaml <<'Y'
pools: [
Y
sed 's/^  - name: Dev$/  - name: Dev\n    limits: 3/' "$EXAMPLE" > invalid.yaml
sed 's/resources: 8$/resources: 16/' "$EXAMPLE" > bigger.yaml

# fmt: canonical, idempotent, exit 1 on invalid, 2 on unusable.
expect 0 "$RESCFG" fmt "$EXAMPLE"
cmp -s out.txt "$SRC/testdata/gitops/worked-example.canonical.yaml" || fail "fmt differs from the golden canonical form"
expect 0 "$RESCFG" fmt --canonical - < "$SRC/testdata/gitops/worked-example-reformatted.yaml"
cmp -s out.txt "$SRC/testdata/gitops/worked-example.canonical.yaml" || fail "fmt of the reformatted example differs"
cp out.txt canonical.yaml
expect 0 "$RESCFG" fmt canonical.yaml
cmp -s out.txt canonical.yaml || fail "fmt is not idempotent"
expect 1 "$RESCFG" fmt invalid.yaml
contains err.txt "unknown-key"
[ -s out.txt ] && fail "fmt printed output for an invalid file"
expect 2 "$RESCFG" fmt bad-syntax.yaml
contains err.txt "yaml-syntax"
expect 2 "$RESCFG" fmt no-such-file.yaml

# diff: 0 same (reformatting is not a change), 1 different, 2 unusable.
expect 0 "$RESCFG" diff "$EXAMPLE" "$SRC/testdata/gitops/worked-example-reformatted.yaml"
contains out.txt "No changes."
expect 1 "$RESCFG" diff "$EXAMPLE" bigger.yaml
contains out.txt '~ pool "Bare Metal Low END GPUs": resources: 8 -> 16'
contains out.txt "2 changes: 0 added, 0 removed, 2 changed."
expect 1 "$RESCFG" diff <(cat "$EXAMPLE") <(cat bigger.yaml)
expect 1 "$RESCFG" diff --format json "$EXAMPLE" bigger.yaml
[ "$(jq -r '.same, (.changes | length), .changes[0].old, .changes[0].new' out.txt | tr '\n' ' ')" = "false 2 8 16 " ] \
  || fail "diff json: $(cat out.txt)"
expect 0 "$RESCFG" diff -f json "$EXAMPLE" "$EXAMPLE"
[ "$(jq -c '[.same, .changes]' out.txt)" = '[true,[]]' ] || fail "same diff json"
expect 2 "$RESCFG" diff "$EXAMPLE" bad-syntax.yaml
expect 2 "$RESCFG" diff invalid.yaml "$EXAMPLE"
expect 2 "$RESCFG" diff "$EXAMPLE" no-such-file.yaml
expect 2 "$RESCFG" diff "$EXAMPLE"                         # one file without --state
expect 2 "$RESCFG" diff "$EXAMPLE" bigger.yaml --state st  # two files with --state
expect 2 "$RESCFG" diff "$EXAMPLE" --state missing-dir
contains err.txt "does not exist"

# diff --jobs: the impact on a jobs snapshot.
JOBS=$SRC/testdata/examples/worked-example-jobs.yaml
expect 1 "$RESCFG" diff "$EXAMPLE" bigger.yaml --jobs "$JOBS"
contains out.txt "Impact on the jobs in $JOBS:"
contains out.txt '  dev-3: pending (capacity) -> assigned to "Bare Metal Low END GPUs"'
contains out.txt '  research-4: pending (capacity) -> assigned to "H100 Half a Superpod"'
[ "$(grep -c ' -> ' out.txt)" = 6 ] || fail "diff --jobs should list 2 changes and 4 jobs"
expect 1 "$RESCFG" diff -f json "$EXAMPLE" bigger.yaml --jobs "$JOBS"
[ "$(jq -c '[.impact[].job]' out.txt)" = '["dev-3","dev-4","research-3","research-4"]' ] || fail "impact json: $(cat out.txt)"
[ "$(jq -c '.impact[0] | [.before.status, .before.reason, .after.status, .after.pool]' out.txt)" = \
  '["pending","capacity","assigned","Bare Metal Low END GPUs"]' ] || fail "impact json entry"
expect 0 "$RESCFG" diff "$EXAMPLE" "$EXAMPLE" --jobs "$JOBS"
contains out.txt "No job would be placed or wait differently."
printf 'jobs: [\n' > bad-jobs.yaml
expect 2 "$RESCFG" diff "$EXAMPLE" bigger.yaml --jobs bad-jobs.yaml
expect 2 "$RESCFG" diff "$EXAMPLE" bigger.yaml --jobs no-such-jobs.yaml

# Read commands on a missing state directory: exit 2, nothing created.
for cmd in "reset --state missing-dir" "history --state missing-dir" "status --state missing-dir" \
           "graph --state missing-dir"; do
  expect 2 "$RESCFG" $cmd
  contains err.txt "does not exist"
done
[ -e missing-dir ] && fail "a read command created the state directory"

# provision: invalid refused with state untouched; dry run writes nothing.
expect 1 "$RESCFG" provision invalid.yaml --state st
[ -e st ] && fail "a refused provision created the state directory"
expect 2 "$RESCFG" provision bad-syntax.yaml --state st
expect 0 "$RESCFG" provision "$EXAMPLE" --state st --dry-run
contains out.txt "Dry run: would provision revision 1 (9 changes)"
[ -e st ] && fail "a dry run created the state directory"
expect 1 "$RESCFG" provision "$EXAMPLE" --state st --expect-revision 3
[ -e st ] && fail "a refused provision created the state directory"
expect 0 "$RESCFG" provision "$EXAMPLE" --state st --expect-revision 0 -m "initial"
contains out.txt '+ pool "H100 Half a Superpod"'
contains out.txt "Provisioned revision 1 (9 changes) in st."
cmp -s st/config.yaml "$SRC/testdata/gitops/worked-example.canonical.yaml" || fail "config.yaml is not canonical"
expect 0 "$RESCFG" provision "$SRC/testdata/gitops/worked-example-reformatted.yaml" --state st
contains out.txt "Revision 1 is up to date; nothing to provision."
[ -e st/revisions/000002.yaml ] && fail "nothing to change made a revision"
expect 1 "$RESCFG" provision bigger.yaml --state st --expect-revision 0
contains err.txt "current revision of 'st' is 1, not 0"
expect 0 "$RESCFG" provision bigger.yaml --state st --dry-run
[ -e st/revisions/000002.yaml ] && fail "dry run wrote a revision"
expect 0 "$RESCFG" provision bigger.yaml --state st --expect-revision 1 -m $'bigger pools\nsecond line'
contains out.txt "Provisioned revision 2 (2 changes)"
expect 0 "$RESCFG" diff bigger.yaml --state st
expect 1 "$RESCFG" diff "$EXAMPLE" --state st
contains out.txt "resources: 16 -> 8"

# --strict refuses a configuration with warnings (a pool no profile links).
cat > warning.yaml <<'Y'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: p, resources: 8}, {name: lonely, resources: 2}]
profiles: [{name: x, allotment: 1, links: [{pool: p}]}]
policies: [{name: T, profiles: [x]}]
Y
"$RESCFG" validate warning.yaml >/dev/null 2>validate.err
if grep -q "not implemented" validate.err; then
  echo "skipped: --strict needs rescfg validate" >&2
else
  expect 1 "$RESCFG" provision warning.yaml --state strict-st --strict
  [ -e strict-st ] && fail "provision --strict created the state directory"
  expect 0 "$RESCFG" provision warning.yaml --state strict-st
  contains err.txt "warning"
fi

# A directory that is not a state directory is refused.
mkdir notstate && echo hi > notstate/file
expect 2 "$RESCFG" provision "$EXAMPLE" --state notstate
contains err.txt "not a rescfg state directory"

# An empty state directory: diff against nothing, history empty.
mkdir empty
expect 1 "$RESCFG" diff "$EXAMPLE" --state empty
contains out.txt "9 changes: 9 added"
expect 0 "$RESCFG" history --state empty
contains out.txt "Nothing has been provisioned"
expect 2 "$RESCFG" reset --state empty
contains err.txt "nothing has been provisioned"

# history: text and json.
expect 0 "$RESCFG" history --state st
contains out.txt "REVISION"
contains out.txt "bigger pools second line"
[ "$(grep -c . out.txt)" = 3 ] || fail "history text should have a header and two rows"
expect 0 "$RESCFG" history --state st --format json
[ "$(jq -c '[.current, [.revisions[].revision], .revisions[1].message, .revisions[0].changes]' out.txt)" = \
  '[2,[1,2],"bigger pools\nsecond line",9]' ] || fail "history json: $(cat out.txt)"
[ "$(jq -r '.revisions[1].sha256' out.txt)" = "$(sha256sum st/revisions/000002.yaml | cut -d' ' -f1)" ] \
  || fail "history sha256 is not the revision file's"
jq -r '.revisions[0].time' out.txt | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' \
  || fail "history time is not RFC 3339 UTC"

# reset: stdout, -o FILE (atomically), --revision N.
expect 0 "$RESCFG" reset --state st
cmp -s out.txt st/revisions/000002.yaml || fail "reset does not print the current revision"
expect 0 "$RESCFG" reset --state st --revision 1 -o restored.yaml
cmp -s restored.yaml "$SRC/testdata/gitops/worked-example.canonical.yaml" || fail "reset --revision 1 -o"
[ -s out.txt ] && fail "reset -o also printed to stdout"
expect 2 "$RESCFG" reset --state st --revision 3
contains err.txt "there is no revision 3"
expect 2 "$RESCFG" reset --state st -o no-such-dir/out.yaml

# status: table and json, from the state or a file.
expect 0 "$RESCFG" status --state st
contains out.txt "Configuration: st revision 2"
contains out.txt "1. Bare Metal Low END GPUs (4 GPU Low End)  2. H100 Half a Superpod (4 GPU H100)"
contains out.txt "1. Dev  2. Research"
contains out.txt "1. 2xGPU  2. 4xGPU  3. 8xGPU  4. 0.5xGPU"
expect 0 "$RESCFG" status --config "$EXAMPLE" --format json
[ "$(jq -c '[.pools[1].size, .pools[1].executionPriority, .profiles[2].links[1].name, .profiles[2].policyPriority]' out.txt)" = \
  '[8,["2xGPU","4xGPU","8xGPU","0.5xGPU"],"4 GPU H100",["Dev","Research"]]' ] || fail "status json: $(cat out.txt)"
expect 0 "$RESCFG" status --config "$EXAMPLE" --jobs "$JOBS"
contains out.txt "Bare Metal Low END GPUs       8     8     0  bare-metal"
grep -E '^4xGPU .* 0 +4 +4  1\. Dev  2\. Research$' out.txt >/dev/null || fail "status counts: $(cat out.txt)"
expect 0 "$RESCFG" status --config "$EXAMPLE" --jobs "$JOBS" -f json
[ "$(jq -c '[.pools[0].inUse, .pools[0].free, .profiles[2].running, .profiles[2].assigned, .profiles[2].pending]' out.txt)" = \
  '[8,0,0,4,4]' ] || fail "status json counts: $(cat out.txt)"
expect 2 "$RESCFG" status --config "$EXAMPLE" --jobs bad-jobs.yaml
expect 2 "$RESCFG" status --config bad-syntax.yaml
expect 2 "$RESCFG" status --config invalid.yaml

# graph: mermaid and dot.
expect 0 "$RESCFG" graph --config "$EXAMPLE"
contains out.txt "flowchart LR"
contains out.txt 'profile2 -->|"link 2: 4 GPU H100, execution 2, queue h100-4gpu"| pool1'
contains out.txt 'policy1 -->|"priority 2, queue Research/4xGPU"| profile2'
cmp -s out.txt "$SRC/testdata/gitops/worked-example.mmd" || fail "graph differs from testdata/gitops/worked-example.mmd"
expect 0 "$RESCFG" graph --config "$EXAMPLE" --format dot
cmp -s out.txt "$SRC/testdata/gitops/worked-example.dot" || fail "graph differs from testdata/gitops/worked-example.dot"
expect 0 "$RESCFG" graph --state st --format dot
contains out.txt "digraph rescfg {"
contains out.txt '  pool1 [label=<'
contains out.txt '<B>H100 Half a Superpod</B></FONT></TD></TR><TR><TD>16 GPUs, queue h100-pool</TD>'

# Corruption: a hand-edited revision is detected by every reader, exit 2.
cp -a st st-edited
sed -i 's/resources: 16/resources: 32/' st-edited/revisions/000002.yaml
for cmd in "history" "reset" "status" "graph"; do
  expect 2 "$RESCFG" $cmd --state st-edited
  contains err.txt "corrupt"
done
expect 2 "$RESCFG" provision "$EXAMPLE" --state st-edited
cmp -s st-edited/history.jsonl st/history.jsonl || fail "provision touched a corrupt state"

# Lock: a held lock makes commands wait, then give up with exit 2.
exec 9>st/lock
flock -x 9
expect 2 "$RESCFG" provision "$EXAMPLE" --state st --lock-timeout 0
contains err.txt "--lock-timeout"
expect 2 "$RESCFG" history --state st --lock-timeout 0
( sleep 0.5; flock -u 9 ) &
expect 0 "$RESCFG" history --state st --lock-timeout 5
wait
exec 9>&-

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "gitops: all passed"
