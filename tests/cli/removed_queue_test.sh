#!/usr/bin/env bash
# A policy queue that disappears without renamedFrom (rescfg(5), RENAMES): plan
# and provision warn removed-policy-queue (with --jobs: how many tasks wait or
# run there); a running task of the gone queue whose worker tells its pool
# keeps its GPUs there, counted against no team, never invalid-job.
set -u
source "$(dirname "$0")/harness.sh" "$@"
G=$SRC/testdata/gitops
cp "$G"/removed-*.yaml "$G"/removed-*.json .
J=(--jobs removed-tasks.json --jobs-format clearml --clearml-workers removed-workers.json)

expect 0 "$RESCFG" provision removed-before.yaml --state st -m before
expect 0 "$RESCFG" plan removed-after.yaml --state st -o p.plan
contains err.txt "removed-policy-queue: policy queue 'nlp/1xGPU' of policy 'nlp' (profile '1xGPU') is no longer served"
contains err.txt "removed-after.yaml:10:12: removed-policy-queue: policy queue 'nlp/2xGPU'"
contains err.txt "(if policy 'nlp' is now 'language', give it renamedFrom: nlp)"
[ "$(grep -c removed-policy-queue err.txt)" = 2 ] || fail "not one warning per queue: $(cat err.txt)"
expect 1 "$RESCFG" plan removed-after.yaml --state st -o s.plan --strict
[ -e s.plan ] && fail "plan --strict wrote a plan despite removed-policy-queue"
# With --jobs, each warning counts the tasks that wait there and run from it.
expect 0 "$RESCFG" plan removed-after.yaml --state st -o p.plan "${J[@]}"
contains err.txt "queue 'nlp/1xGPU' of policy 'nlp' (profile '1xGPU') is no longer served: tasks waiting there would wait for ever (unknown-queue), tasks running from it keep their GPUs but count against no team; in removed-tasks.json, 1 task waits there and 1 runs from it"
contains err.txt "'nlp/2xGPU' of policy 'nlp' (profile '2xGPU') is no longer served: tasks waiting there would wait for ever (unknown-queue), tasks running from it keep their GPUs but count against no team; in removed-tasks.json, 0 tasks wait there and 1 runs from it"
# The plan file lists the warnings for scripts; the Markdown summary for the reviewer.
jq -e '[.warnings[] | select(.code == "removed-policy-queue")] | length == 2 and
       (.[0].message | endswith("1 task waits there and 1 runs from it")) and .[0].line == 10 and
       (.[1].message | endswith("0 tasks wait there and 1 runs from it")) and .[1].path == "policies[nlp].profiles[2xGPU]" and
       (.[1].hint | contains("renamedFrom: nlp"))' p.plan >/dev/null || fail "plan file warnings: $(jq -c .warnings p.plan)"
expect 0 "$RESCFG" plan removed-after.yaml --state st -o m.plan -f markdown "${J[@]}"
contains out.txt "**2 warnings**"
contains out.txt "- \`removed-policy-queue\`: policy queue 'nlp/1xGPU' of policy 'nlp' (profile '1xGPU') is no longer served"
contains out.txt "in removed-tasks.json, 1 task waits there and 1 runs from it"
expect 0 "$RESCFG" plan removed-before.yaml --state st -o u.plan
jq -e '.warnings == []' u.plan >/dev/null || fail "an up-to-date plan has warnings: $(jq -c .warnings u.plan)"
# With renamedFrom, nothing disappears.
sed 's/name: language,/name: language, renamedFrom: nlp,/' removed-after.yaml > renamed.yaml
expect 0 "$RESCFG" plan renamed.yaml --state st -o r.plan
grep -q removed-policy-queue err.txt && fail "a followed rename warned removed-policy-queue: $(cat err.txt)"

# provision warns the same, then the tasks of the gone queues are read.
# Jobs that cannot be read refuse, as any unusable input (sync_rename_test reads a kept snapshot).
expect 2 "$RESCFG" provision removed-after.yaml --state st -m "nlp is language" --jobs-from-sync
contains err.txt "no snapshot kept there"
expect 0 "$RESCFG" provision removed-after.yaml --state st -m "nlp is language" "${J[@]}"
contains err.txt "1 task waits there and 1 runs from it"
expect 1 "$RESCFG" schedule --state st "${J[@]}" --format json
jq -e '.running[] | select(.job == "run-1") | .pool == "A100" and .resources == 2 and (.policy == null)' out.txt >/dev/null ||
  fail "run-1 does not hold 2 in A100 for no team: $(jq -c .running out.txt)"
jq -e '.running[] | select(.job == "run-2") | .pool == "A100" and .resources == 1' out.txt >/dev/null ||
  fail "run-2 does not hold 1 in A100: $(jq -c .running out.txt)"
contains out.txt "its queue 'nlp/2xGPU' is no policy queue (its team or queue was renamed or removed): it holds in pool 'A100', counted against no policy"
contains err.txt "its queue 'nlp/1xGPU' is no policy queue"
jq -e '.rejected[] | select(.job == "wait-1") | .reason == "unknown-queue"' out.txt >/dev/null ||
  fail "wait-1 is not unknown-queue: $(jq -c .rejected out.txt)"
expect 0 "$RESCFG" status --state st "${J[@]}" --format json
# 2 + 1 busy, and vision's task assigned.
jq -e '[.pools[] | select(.name == "A100")][0].inUse == 4' out.txt >/dev/null ||
  fail "A100 does not count the 3 busy GPUs and 1 assigned: $(jq -c '.pools' out.txt)"
# Without a worker to tell the pool, the task is rejected and the message says what would tell.
expect 1 "$RESCFG" schedule --state st --jobs removed-tasks.json --jobs-format clearml --format json
jq -e '.rejected[] | select(.job == "run-1") | .reason == "invalid-job"' out.txt >/dev/null || fail "run-1 with no worker is not invalid-job"
contains out.txt "the worker whose task.id is this task would tell"

exit $((failures > 0))
