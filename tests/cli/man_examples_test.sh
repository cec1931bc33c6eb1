#!/usr/bin/env bash
# The manual pages' examples run as they are printed: rescfg(5)'s
# configuration is a complete file that validates with --strict, its jobs
# file schedules against it without a rejection, and every command example
# of rescfg(1) (a line starting with "$ ") exits as the page says, run in
# order in one project directory. The only change made to a command: an
# absolute path under /srv/ is taken inside the scratch directory. helm and
# clearml-agent are stand-ins that check their input.
# The shipped worked example validates with --strict, and validate lists
# a misspelt top-level key before the findings it causes.
# Usage: man_examples_test.sh BINARY SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"
page1=$SRC/man/rescfg.1
page5=$SRC/man/rescfg.5

# mdoc source text to what the page shows: \e is a backslash, \(dq a double
# quote, \& nothing. Any other escape would be shown differently: refuse it.
unescape() { sed -e 's/\\(dq/"/g' -e 's/\\&//g' -e 's/\\-/-/g' -e 's/\\e/\\/g'; }
# The literal displays of a page section by section: "SECTION<TAB>N" headers
# followed by the display's lines.
displays() {
  awk '/^\.Sh / {section = substr($0, 5)} /^\.Bd -literal/ {n++; print "@@ " section "\t" n; on = 1; next}
       /^\.Ed/ {on = 0} on' "$1"
}
display() {  # display PAGE SECTION: the first literal display of SECTION
  awk -v want="$2" '/^\.Sh / {section = substr($0, 5)} /^\.Bd -literal/ && section == want && !done {on = 1; next}
       /^\.Ed/ && on {on = 0; done = 1} on' "$1" | unescape
}
for page in "$page1" "$page5"; do
  if displays "$page" | grep -v '^@@ ' | sed -e 's/\\(dq//g' -e 's/\\&//g' -e 's/\\-//g' -e 's/\\e//g' | grep -q '\\'; then
    fail "${page##*/}: an example holds an escape this test does not know"
  fi
done

# --- rescfg(5): the configuration and the jobs file --------------------------
mkdir project && cd project || exit 1
display "$page5" CONFIGURATION > resources.yaml
display "$page5" "JOBS FILE" > jobs.yaml
[ -s resources.yaml ] || fail "rescfg.5 has no configuration example"
[ -s jobs.yaml ] || fail "rescfg.5 has no jobs example"
expect 0 "$RESCFG" validate --strict resources.yaml
contains err.txt "all valid (0 errors, 0 warnings)"
expect 0 "$RESCFG" schedule --config resources.yaml --jobs jobs.yaml --format jsonl
[ "$(jq -s '[.[] | select(.status == "rejected" or .message != null)] | length' out.txt)" = 0 ] ||
  fail "the jobs example does not fit the configuration example: $(cat out.txt)"
[ "$(jq -s 'length' out.txt)" = "$(grep -c '^  - id:' jobs.yaml)" ] || fail "schedule did not report every example job"
# Every queue the jobs example names is a queue of the configuration example.
for queue in $(sed -nE 's/^ +queue: (.+)$/\1/p' jobs.yaml); do
  "$RESCFG" fmt resources.yaml | grep -qF "queue: \"$queue\"" || fail "jobs example names queue '$queue', not in the configuration"
done
# The same jobs as JSON Lines, for the examples that use jobs.jsonl.
python3 -c 'import json, sys, yaml
time = lambda t: t.isoformat().replace("+00:00", "Z")
for job in yaml.safe_load(open("jobs.yaml"))["jobs"]: print(json.dumps(job, default=time))' > jobs.jsonl ||
  fail "cannot convert the jobs example to JSON Lines"

# --- rescfg(1): the record examples are JSON ----------------------------------
display "$page1" OUTPUT | jq -e . > /dev/null || fail "the jsonl example of rescfg.1 OUTPUT is not JSON"

# --- rescfg(1): every command example ----------------------------------------
# The project the examples run in: a git repository whose last commit
# changed resources.yaml, a default state .rescfg where it is provisioned,
# and a state /srv/rescfg at revision 4 (four earlier versions).
# Programs of other projects that the examples hand rescfg's output to are
# stand-ins that check what they are given (never the real ones: helm would
# talk to a cluster, clearml-agent would start serving queues).
mkdir -p "$WORK/stand-ins"
cat > "$WORK/stand-ins/helm" <<'STAND_IN'
#!/bin/sh
# helm upgrade --install RELEASE CHART -f VALUES: the values file must exist and be YAML.
[ "$1" = upgrade ] || { echo "helm stand-in: only 'upgrade' is known" >&2; exit 2; }
while [ $# -gt 0 ]; do
  if [ "$1" = -f ]; then python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$2" || exit 1; fi
  shift
done
STAND_IN
cat > "$WORK/stand-ins/clearml-agent" <<'STAND_IN'
#!/bin/sh
[ "$1" = daemon ] || { echo "clearml-agent stand-in: only 'daemon' is known" >&2; exit 2; }
STAND_IN
chmod +x "$WORK/stand-ins/helm" "$WORK/stand-ins/clearml-agent"
export HOME=$WORK/home PATH="$WORK/stand-ins:$(dirname "$RESCFG"):$PATH"
mkdir -p "$HOME"
git init -q . && git config user.email ci@example.org && git config user.name CI
sed 's/limit: 16$/limit: 12/' resources.yaml > older.yaml
cp resources.yaml current.yaml && cp older.yaml resources.yaml
git add resources.yaml && git commit -qm older
cp current.yaml resources.yaml && git commit -qam current
rm older.yaml current.yaml
git update-ref refs/remotes/origin/main HEAD~1  # what a pull request is compared with
cp "$SRC/testdata/simulate/worked-example-trace.jsonl" week.jsonl  # a trace for the simulate examples
"$RESCFG" provision resources.yaml -m first > /dev/null 2>&1 || fail "provision .rescfg"
srv=$WORK/srv/rescfg
mkdir -p "$WORK/srv"
for size in 10 11 12 13; do
  sed "s/^    resources: 8$/    resources: $size/" resources.yaml > revision.yaml
  "$RESCFG" provision revision.yaml --state "$srv" -m "size $size" > /dev/null 2>&1 || fail "provision $srv"
done
rm revision.yaml

# Exit statuses other than 0 that an example has, by a piece of its text.
expected_exit() {
  case $1 in
    *"rescfg diff <(git show HEAD~1:resources.yaml) resources.yaml"*) echo 1 ;;  # different
    *"rescfg diff --state /srv/rescfg resources.yaml"*) echo 1 ;;                # different
    *"rescfg diff <(git show origin/main:resources.yaml) resources.yaml"*) echo 1 ;;  # different
    *"rescfg fmt --check resources.yaml"*) echo 1 ;;                             # not canonical yet
    *) echo 0 ;;
  esac
}
# The commands, one per record (NUL-separated), with their continuation
# lines (after a trailing backslash or pipe).
awk '/^\.Sh / {section = substr($0, 5)}
     /^\.Bd -literal/ {literal = 1; next} /^\.Ed/ {literal = 0; next}
     {line = $0; if (sub(/^\.Dl /, "", line)) {} else if (!literal) next}
     cont {printf "%s\n", line; cont = (line ~ /(\\e|\|)$/); if (!cont) printf "%c", 0; next}
     line ~ /^\$ / {sub(/^\$ /, "", line); printf "%s\n", line; cont = (line ~ /(\\e|\|)$/); if (!cont) printf "%c", 0}' \
  "$page1" > "$WORK/commands"
count=0
while IFS= read -r -d '' command; do
  command=$(printf '%s' "$command" | unescape)
  count=$((count + 1))
  run=${command//\/srv\//$WORK/srv/}
  want=$(expected_exit "$command")
  if [[ $command == *"| dot "* ]] && ! command -v dot > /dev/null; then
    echo "graphviz (dot) not installed: skipped the example: $command"
    continue
  fi
  bash -o pipefail -c "$run" > "$WORK/example.out" 2> "$WORK/example.err"
  got=$?
  if [ "$got" != "$want" ]; then
    fail "rescfg.1 example exits $got, not $want: $command"
    sed 's/^/  | /' "$WORK/example.err" | head -20 >&2
  fi
done < "$WORK/commands"
[ "$count" -ge 10 ] || fail "found only $count command examples in rescfg.1"

# --- The shipped worked example validates with --strict ----------------------
cd "$WORK" || exit 1
expect 0 "$RESCFG" validate --strict "$EXAMPLE"
contains err.txt "all valid (0 errors, 0 warnings)"
expect 0 "$RESCFG" validate --strict "$SRC/testdata/examples/six-teams.yaml"

# --- A misspelt top-level key comes before the findings it causes ------------
late=$SRC/testdata/invalid/unknown-key-top-level-late.yaml
expect 1 "$RESCFG" validate "$late"
head -1 out.txt | grep -q "error\[unknown-key\]: pool: unknown key 'pool' (did you mean 'pools'?)" ||
  fail "validate text: the unknown key is not first: $(cat out.txt)"
[ "$(grep -c 'unknown-reference' out.txt)" = 3 ] || fail "validate text: $(cat out.txt)"
expect 1 "$RESCFG" validate --format json "$late"
[ "$(jq -r '[.files[0].findings[].code] | join(" ")' out.txt)" = \
  "unknown-key unknown-reference unknown-reference unknown-reference" ] || fail "validate json order: $(cat out.txt)"
expect 1 "$RESCFG" validate --format github "$late"
head -1 out.txt | grep -q "line=22" || fail "validate github: the unknown key is not first: $(cat out.txt)"

[ "$failures" -eq 0 ] || exit 1
echo PASS
