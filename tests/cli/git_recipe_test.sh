#!/usr/bin/env bash
# The GitOps recipe of the README, step by step in a scratch git repository:
# textconv through `rescfg fmt --canonical`, diff against an earlier commit,
# provision with --expect-revision, history, reset and roll back.
set -u
source "$(dirname "$0")/harness.sh" "$@"

export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK GIT_AUTHOR_NAME=admin GIT_AUTHOR_EMAIL=admin@example.com \
  GIT_COMMITTER_NAME=admin GIT_COMMITTER_EMAIL=admin@example.com
git init -q repo && cd repo || exit 1
echo '*.rescfg.yaml diff=rescfg' > .gitattributes
git config diff.rescfg.textconv "$RESCFG fmt --canonical"
STATE=$WORK/state
CFG=cfg.rescfg.yaml

# Commit 1: the worked example.
cp "$EXAMPLE" $CFG
git add .gitattributes $CFG && git commit -qm "Add the resource configuration"
# Commit 2: reformatting only. Raw text differs; through textconv nothing does.
cp "$SRC/testdata/gitops/worked-example-reformatted.yaml" $CFG
git commit -qam "Reformat"
[ -n "$(git diff --no-textconv HEAD~1 HEAD)" ] || fail "the reformat commit should change the raw text"
[ -z "$(git diff HEAD~1 HEAD)" ] || { fail "textconv should hide a reformat-only commit"; git diff HEAD~1 HEAD >&2; }
expect 0 "$RESCFG" diff <(git show HEAD~1:$CFG) <(git show HEAD:$CFG)
contains out.txt "No changes."
# Commit 3: a real change, seen by git through textconv and by rescfg diff.
sed 's/    resources: "8\/1"/    resources: 16/' "$SRC/testdata/gitops/worked-example-reformatted.yaml" > $CFG
git commit -qam "Grow the H100 pool to 16 GPUs"
git diff HEAD~1 HEAD > git-diff.txt
contains git-diff.txt '-    resources: 8'
contains git-diff.txt '+    resources: 16'
expect 1 "$RESCFG" diff <(git show HEAD~1:$CFG) $CFG
contains out.txt '~ pool "H100 Half a Superpod": resources: 8 -> 16'
expect 1 "$RESCFG" diff --format json <(git show HEAD~2:$CFG) <(git show HEAD:$CFG)
[ "$(jq -r '.changes[0].field' out.txt)" = resources ] || fail "diff json of git revisions"
expect 2 "$RESCFG" diff <(git show HEAD~1:no-such-file.yaml 2>/dev/null) $CFG

# Provision the first commit, then the head, guarding with --expect-revision.
expect 0 "$RESCFG" provision <(git show HEAD~2:$CFG) --state "$STATE" --expect-revision 0 -m "$(git log -1 --format=%h HEAD~2)"
contains out.txt "Provisioned revision 1"
expect 1 "$RESCFG" provision $CFG --state "$STATE" --expect-revision 0
contains err.txt "is 1, not 0"
expect 0 "$RESCFG" diff <(git show HEAD~1:$CFG) --state "$STATE"
expect 1 "$RESCFG" diff $CFG --state "$STATE"
expect 0 "$RESCFG" provision $CFG --state "$STATE" --expect-revision 1 -m "$(git log -1 --format='%h %s')"
contains out.txt "Provisioned revision 2 (1 change)"
expect 0 "$RESCFG" provision $CFG --state "$STATE" --expect-revision 2
contains out.txt "nothing to provision"

# history, text and json.
expect 0 "$RESCFG" history --state "$STATE"
contains out.txt "Grow the H100 pool to 16 GPUs"
expect 0 "$RESCFG" history --state "$STATE" --format json
[ "$(jq -c '[.current, [.revisions[].changes]]' out.txt)" = '[2,[9,1]]' ] || fail "history json: $(cat out.txt)"

# reset discards an unprovisioned local edit; textconv then shows no change.
sed -i 's/limit: 16/limit: 12/' $CFG
[ -n "$(git diff)" ] || fail "the local edit should show"
expect 0 "$RESCFG" reset --state "$STATE" -o $CFG
[ -z "$(git diff)" ] || { fail "after reset the provisioned config should equal HEAD"; git diff >&2; }
expect 0 "$RESCFG" diff $CFG --state "$STATE"

# Roll back: write revision 1 out, commit it, provision it as revision 3.
expect 0 "$RESCFG" reset --state "$STATE" --revision 1 -o $CFG
git commit -qam "Roll back to revision 1"
[ -z "$(git diff HEAD~3 HEAD)" ] || fail "the rollback commit should equal the first commit through textconv"
expect 0 "$RESCFG" provision $CFG --state "$STATE" --expect-revision 2 -m rollback
contains out.txt "Provisioned revision 3"
cmp -s "$STATE/revisions/000003.yaml" "$STATE/revisions/000001.yaml" || fail "revision 3 should equal revision 1"

# The tolerant textconv of the recipe shows an invalid commit as it is.
printf 'apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools: 3\n' > $CFG
git commit -qam "Break the configuration"
git -c diff.rescfg.textconv="$RESCFG fmt --canonical" diff HEAD~1 HEAD >/dev/null 2>&1 \
  && fail "strict textconv should fail on an invalid configuration"
git -c diff.rescfg.textconv="sh -c '\"$RESCFG\" fmt --canonical \"\$0\" 2>/dev/null || cat \"\$0\"'" \
  diff HEAD~1 HEAD > tolerant.txt 2>&1 || fail "tolerant textconv failed"
contains tolerant.txt '+pools: 3'
contains tolerant.txt '-    resources: 8'
expect 1 "$RESCFG" provision $CFG --state "$STATE" --expect-revision 3
expect 0 "$RESCFG" history --state "$STATE" --format json
[ "$(jq .current out.txt)" = 3 ] || fail "a refused provision changed the state"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "git recipe: all passed"
