#!/usr/bin/env bash
# renamedFrom (rescfg(5), RENAMES): a renamed pool, profile or policy is one
# change in diff and plan (text, JSON, Markdown), kept by fmt and the
# revision, never a removal and an addition; rename-unknown against a state.
set -u
source "$(dirname "$0")/harness.sh" "$@"
G=$SRC/testdata/gitops
cp "$G/rename-before.yaml" "$G/rename-after.yaml" .
golden() { cmp -s "$1" "$G/$2" || { fail "$1 differs from testdata/gitops/$2"; diff "$1" "$G/$2" | head -20 >&2; }; }

expect 1 "$RESCFG" diff rename-before.yaml rename-after.yaml
golden out.txt rename.diff.txt
expect 1 "$RESCFG" diff -f json rename-before.yaml rename-after.yaml
golden out.txt rename.diff.json
expect 1 "$RESCFG" diff -f markdown rename-before.yaml rename-after.yaml
golden out.txt rename.diff.md

# fmt keeps the key; its canonical form reads back to itself.
expect 0 "$RESCFG" fmt rename-after.yaml
cp out.txt after.canonical
[ "$(grep -c 'renamedFrom' after.canonical)" = 3 ] || fail "fmt lost renamedFrom: $(cat after.canonical)"
expect 0 "$RESCFG" fmt after.canonical
cmp -s out.txt after.canonical || fail "fmt does not round-trip renamedFrom"

# Against a state: plan and provision show the same, the revision keeps it.
expect 0 "$RESCFG" provision rename-before.yaml --state st -m before
expect 0 "$RESCFG" plan rename-after.yaml --state st -o r.plan -f markdown
golden out.txt rename.plan.md
expect 0 "$RESCFG" provision --plan r.plan --state st -m "Dev is now Platform"
contains out.txt '~ policy "Dev" -> "Platform"'
contains out.txt "7 changes: 0 added, 0 removed, 7 changed."
expect 0 "$RESCFG" history --state st
contains out.txt "Dev is now Platform [pool A100 -> A100 bare metal; profile 1xGPU -> single; policy Dev -> Platform]"
expect 0 "$RESCFG" history --state st --format json
[ "$(jq -c '.revisions[1].renames' out.txt)" = '["pool A100 -> A100 bare metal","profile 1xGPU -> single","policy Dev -> Platform"]' ] ||
  fail "history --format json: $(jq -c '.revisions[1]' out.txt)"
# Exports name the new objects; the old queues may hold tasks until they drain.
expect 1 "$RESCFG" export clearml-agent --state st
contains err.txt "renamed-queue: policies[Platform].renamedFrom: policy Dev is now Platform: the export names queue 'Platform/single'; the old queue 'Dev/1xGPU' may still hold tasks until they drain"
expect 1 "$RESCFG" export kueue --state st
contains err.txt "kueue-renamed-queue"
expect 0 "$RESCFG" reset --state st --canonical
cmp -s out.txt after.canonical || fail "the revision does not keep renamedFrom"
# Kept, it follows nothing new and warns of nothing; removed, it is an ordinary change.
expect 0 "$RESCFG" diff rename-after.yaml --state st
contains out.txt "No changes."
[ -s err.txt ] && fail "a followed rename warned: $(cat err.txt)"
sed '/renamedFrom: Dev/d' rename-after.yaml > dropped.yaml
expect 1 "$RESCFG" diff dropped.yaml --state st
contains out.txt '~ policy "Platform": renamedFrom: "Dev" -> (none)'

# rename-unknown: a warning where a state is given, refused with --strict.
sed 's/name: Research,/name: Research, renamedFrom: Ghost,/' rename-after.yaml > ghost.yaml
expect 0 "$RESCFG" validate ghost.yaml
expect 1 "$RESCFG" diff ghost.yaml --state st
contains err.txt "ghost.yaml:17:35: rename-unknown: the provisioned configuration has no policy 'Ghost'"
expect 1 "$RESCFG" plan ghost.yaml --state st -o g.plan --strict
contains err.txt "rename-unknown"
[ -e g.plan ] && fail "plan --strict wrote a plan despite rename-unknown"
expect 1 "$RESCFG" provision ghost.yaml --state st --strict
contains err.txt "the state is unchanged"
[ "$("$RESCFG" history --state st --format json | jq -r .current)" = 2 ] || fail "provision --strict provisioned"

exit $((failures > 0))
