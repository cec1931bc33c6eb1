#!/usr/bin/env bash
# The README's "Recipe: rescfg in a CI pipeline", run as written: the
# workflow is taken from the README itself, and each `run:` step runs in
# order in a real git repository, with `gh` and the artifact store played by
# a stub. From the first run (no state directory yet) through plan, review,
# merge and apply, a re-run, the race the plan guards against (a provision
# between review and merge: the apply refuses, exit 1, the state untouched)
# and a merge that is not what was planned.
set -u
source "$(dirname "$0")/harness.sh" "$@"

export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK GIT_AUTHOR_NAME=admin GIT_AUTHOR_EMAIL=admin@example.com \
  GIT_COMMITTER_NAME=admin GIT_COMMITTER_EMAIL=admin@example.com
export ARTIFACTS=$WORK/artifacts GH_LOG=$WORK/gh
mkdir -p bin "$ARTIFACTS" "$GH_LOG"
ln -s "$RESCFG" bin/rescfg

# The workflow of the README, one script per step: steps/<job>-<n>.sh, or
# steps/<job>-<n>.upload holding the artifact's name and path.
python3 - "$SRC/README.md" steps <<'P' || { fail "cannot read the workflow from the README"; exit 1; }
import os, re, sys, yaml
text = open(sys.argv[1], encoding="utf-8").read()
match = re.search(r"^```yaml\n(# \.github/workflows/resources\.yml\n.*?)^```$", text, re.S | re.M)
workflow = yaml.safe_load(match.group(1))
os.makedirs(sys.argv[2])
for job in ("review", "provision"):
    for n, step in enumerate(workflow["jobs"][job]["steps"]):
        base = os.path.join(sys.argv[2], f"{job}-{n:02}")
        if "run" in step:
            open(base + ".sh", "w").write(step["run"])
        elif step["uses"].startswith("actions/upload-artifact"):
            open(base + ".upload", "w").write(step["with"]["name"] + "\n" + step["with"]["path"] + "\n")
        elif not step["uses"].startswith("actions/checkout"):
            sys.exit("unknown step " + step["uses"])
env = workflow["env"]
open(os.path.join(sys.argv[2], "env"), "w").write("".join(f"{k}={os.path.basename(v)}\n" for k, v in env.items()))
P
ls steps/review-*.sh steps/provision-*.sh > /dev/null || fail "no steps found"
grep -q '^CONFIG=resources.rescfg.yaml$' steps/env || fail "CONFIG of the workflow: $(cat steps/env)"

# gh, as the steps use it. State of the fake GitHub: $WORK/gh/pr-N (the head
# commit of pull request N), $WORK/gh/merge-SHA (which pull request a merge
# commit merged), artifacts under $ARTIFACTS/<run = head commit>/<name>/.
cat > bin/gh <<'G'
#!/usr/bin/env bash
set -eu
case "$1 $2" in
  "pr comment") cp "$5" "$GH_LOG/comment-$3.md" ;;
  "api repos/"*) sha=${2#*/commits/}; cat "$GH_LOG/merge-${sha%/pulls}" ;;
  "pr view") cat "$GH_LOG/pr-$3" ;;
  "run list") while [ $# -gt 0 ]; do [ "$1" = --commit ] && { [ -d "$ARTIFACTS/$2" ] && echo "$2"; exit 0; }; shift; done; exit 1 ;;
  "run download") cp "$ARTIFACTS/$3/$5"/* . ;;
  *) echo "gh stub: $*" >&2; exit 2 ;;
esac
G
chmod +x bin/gh
export PATH=$WORK/bin:$PATH

# run_job JOB DIR: runs the steps of JOB in DIR as the runner would (bash -e,
# pipefail), stopping at the first failing step. Prints the failing step's
# name and exit code to job.status.
run_job() {
  local job=$1 dir=$2 step code
  : > "$WORK/job.status"
  for step in "$WORK"/steps/"$job"-*; do
    case $step in
      *.sh) (cd "$dir" && bash -eo pipefail "$step") >> "$WORK/job.out" 2>> "$WORK/job.err"
            code=$?
            if [ "$code" != 0 ]; then echo "$(basename "$step") $code" > "$WORK/job.status"; return "$code"; fi ;;
      *.upload) { read -r name; read -r path; } < "$step"
                mkdir -p "$ARTIFACTS/$HEAD/$name" && cp "$dir/$path" "$ARTIFACTS/$HEAD/$name/" ;;
    esac
  done
}
# The workflow's env, with the state and the jobs snapshot in the scratch directory.
export CONFIG=resources.rescfg.yaml STATE=$WORK/var/state JOBS=$WORK/var/jobs-snapshot.jsonl GITHUB_REPOSITORY=org/cluster
mkdir -p var
python3 - "$SRC/testdata/examples/worked-example-jobs.yaml" "$JOBS" <<'P'
import json, sys, yaml
jobs = yaml.safe_load(open(sys.argv[1]))["jobs"]
open(sys.argv[2], "w").write("".join(json.dumps(j, default=str) + "\n" for j in jobs))
P

# pull_request NUMBER BRANCH: reviews the head of BRANCH as pull request NUMBER.
pull_request() {
  git -C repo checkout -q "$2"
  HEAD=$(git -C repo rev-parse HEAD)
  echo "$HEAD" > "$GH_LOG/pr-$1"
  rm -rf pr && git clone -q repo pr && git -C pr checkout -q "$HEAD"
  PR=$1 run_job review pr
}
# merge NUMBER BRANCH: merges it into main and runs the provision job there.
merge() {
  git -C repo checkout -q main
  git -C repo merge -q --no-ff -m "Merge pull request #$1 from $2" "$2" > /dev/null || return 9
  GITHUB_SHA=$(git -C repo rev-parse HEAD)
  echo "$1" > "$GH_LOG/merge-$GITHUB_SHA"
  rm -rf main && git clone -q repo main
  GITHUB_SHA=$GITHUB_SHA run_job provision main
}
current() { rescfg history --state "$STATE" --format json | jq .current; }
# refused_merge NUMBER BRANCH STEP TEXT LOG: the provision job of the merge
# fails at STEP with exit 1, LOG says TEXT, and the state is untouched.
refused_merge() {
  local code
  rm -rf state-before && cp -a "$STATE" state-before
  merge "$1" "$2"
  code=$?
  [ "$code" = 1 ] || fail "merge of #$1: exit $code, expected 1"
  grep -q "^$3 1\$" job.status || fail "merge of #$1 should fail at $3: $(cat job.status)"
  grep -q "$4" "$5" || fail "merge of #$1: no '$4' in $5: $(tail -3 "$5")"
  diff -r "$STATE" state-before > /dev/null || fail "the refused merge of #$1 touched the state"
}
# change NUMBER BRANCH SED MESSAGE: a branch off main with one edit, reviewed.
change() {
  git -C repo checkout -q -b "$2" main
  sed -i "$3" repo/$CONFIG
  git -C repo commit -qam "$4"
  pull_request "$1" "$2" || fail "review of #$1 failed: $(cat job.status) $(tail -5 job.err)"
}

git init -q -b main repo
cp "$EXAMPLE" repo/$CONFIG
git -C repo add $CONFIG && git -C repo commit -qm "Add the resource configuration"

# 1. The first pull request, before anything is provisioned: no state yet.
change 1 first 's/^kind: ResourceConfiguration$/&\n# reviewed in #1/' "Describe the cluster"
[ -f "$STATE/plan-key" ] || fail "the review made no plan key"
[ -e "$STATE/history.jsonl" ] && fail "the review provisioned something"
contains "$GH_LOG/comment-1.md" "### rescfg plan: revision 1 onto provisioned revision 0"
contains "$GH_LOG/comment-1.md" '| added | pool | H100 Half a Superpod |'
contains "$GH_LOG/comment-1.md" '| --- | --- |'
contains "$GH_LOG/comment-1.md" "flowchart LR"
[ -f "$ARTIFACTS/$HEAD/rescfg-plan/plan.json" ] || fail "no plan artifact"
merge 1 first || fail "provision of #1 failed: $(cat job.status) $(tail -5 job.err)"
[ "$(current)" = 1 ] || fail "after #1 the state is at revision $(current)"
cmp -s "$STATE/revisions/000001.source.yaml" main/$CONFIG || fail "revision 1 is not the merged file"
contains job.out "Provisioned revision 1 (9 changes)"
# The merge job run again: the plan is already applied.
GITHUB_SHA=$GITHUB_SHA run_job provision main || fail "a re-run of the merge job failed: $(cat job.status)"
contains job.out "already applied"
[ "$(current)" = 1 ] || fail "a re-run made a revision"

# 2. A change reviewed against revision 1 and merged: applied as planned.
change 2 grow 's/resources: 8$/resources: 16/' "Grow the pools"
contains "$GH_LOG/comment-2.md" "onto provisioned revision 1"
contains "$GH_LOG/comment-2.md" '| `resources` | `8` | `16` |'
contains "$GH_LOG/comment-2.md" "Impact on the current jobs"
merge 2 grow || fail "provision of #2 failed: $(cat job.status) $(tail -5 job.err)"
[ "$(current)" = 2 ] || fail "after #2 the state is at revision $(current)"
[ "$(rescfg history --state "$STATE" --format json | jq -r '.revisions[1].message')" = \
  "$(git -C repo rev-parse main) Merge pull request #2 from grow" ] || fail "history message of #2"

# 3. The race: reviewed against revision 2, then someone provisions by hand
#    before the merge. The apply refuses (exit 1) and the state is untouched.
change 3 shrink 's/resources: 16$/resources: 12/' "Shrink the pools"
sed 's/limit: 16/limit: 12/' main/$CONFIG > hotfix.yaml
rescfg -q provision hotfix.yaml --state "$STATE" -m "hotfix by hand" > /dev/null || fail "the hand provision failed"
refused_merge 3 shrink provision-02.sh "someone provisioned in between" job.err
# Recovery as the README says: a new plan of the merged head, reviewed, applied.
(cd main && rescfg plan $CONFIG --state "$STATE" -o plan.json > new-plan.txt && grep -q "limit: 12 -> 16" new-plan.txt \
   && rescfg provision --plan plan.json --state "$STATE" -m recovered > /dev/null) || fail "recovery with a new plan failed"
[ "$(current)" = 4 ] || fail "after recovery the state is at revision $(current)"

# 4. A merge that is not the file that was planned (two pull requests
#    reviewed against the same revision, both merged): refused before any
#    provision.
change 5 alpha 's/reserved: 8$/reserved: 4/' "Smaller reservations"
change 6 beta 's/^\(    description: \).*/\1"more to share"/' "Describe the sandbox"
merge 5 alpha || fail "provision of #5 failed: $(cat job.status) $(tail -3 job.err)"
refused_merge 6 beta provision-01.sh "is not the one planned in pull request #6" job.out

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "CI recipe: all passed"
