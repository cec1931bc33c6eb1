#!/usr/bin/env bash
# The state directory and the command line under hostile conditions: every
# finding of the attack pass on the state (bad text, option values, failing
# writes, a lost newline, FIFOs and links, damaged old revisions, closed
# standard streams, YAML escapes, -o targets, temporary names, fractional
# seconds, terminal escapes) has a case here.
set -u
source "$(dirname "$0")/harness.sh" "$@"

cp "$EXAMPLE" a.yaml
sed 's/resources: 8$/resources: 16/' "$EXAMPLE" > b.yaml
sed 's/resources: 8$/resources: 24/' "$EXAMPLE" > c.yaml
JOBS=$SRC/testdata/examples/worked-example-jobs.yaml
[ -f "$JOBS" ] || JOBS=$(ls "$SRC"/testdata/examples/*jobs*.yaml | head -1)
current() { "$RESCFG" history --state "$1" --format json 2>/dev/null | jq -r .current; }
fresh() { rm -rf "$1" && "$RESCFG" -q provision a.yaml --state "$1" >/dev/null && "$RESCFG" -q provision b.yaml --state "$1" >/dev/null; }

# 1. Text that YAML escapes decode to bytes that are not UTF-8 never reaches
#    the state: refused at its line, the state untouched.
fresh st
sed 's/^\(    description: \).*/\1"eight\\_cards"/' a.yaml > bad-text.yaml
grep -q 'eight\\_cards' bad-text.yaml || fail "bad-text.yaml was not made"
expect 1 "$RESCFG" provision bad-text.yaml --state st
contains err.txt "not valid UTF-8"
[ "$(current st)" = 2 ] || fail "a refused provision changed the state"
expect 1 "$RESCFG" plan bad-text.yaml --state st -o bad.plan
[ -e bad.plan ] && fail "plan wrote a plan of an invalid configuration"
# A state that an earlier version bricked that way (its revision holds the
# raw byte): readers refuse it clearly, and provisioning the fix repairs it.
rm -rf bricked && mkdir -p bricked/revisions
"$RESCFG" fmt a.yaml | sed 's/^\(    description: \).*/\1"eight\xA0cards"/' > bricked/revisions/000001.yaml
grep -q $'eight\xA0cards' bricked/revisions/000001.yaml || fail "the bricked revision was not made"
cp bricked/revisions/000001.yaml bricked/config.yaml
printf '{"revision":1,"sha256":"%s","time":"2026-01-01T00:00:00Z","user":"old","message":"","changes":9}\n' \
  "$(sha256sum < bricked/config.yaml | cut -d' ' -f1)" > bricked/history.jsonl
expect 2 "$RESCFG" schedule --state bricked --jobs "$JOBS"
contains err.txt "not a valid configuration for this version"
expect 0 "$RESCFG" provision a.yaml --state bricked -m "the fix"
contains err.txt "the diff is against an empty configuration"
[ "$(current bricked)" = 2 ] || fail "provisioning the fix did not repair the bricked state"
expect 0 "$RESCFG" schedule --state bricked --jobs "$JOBS"

# 2. Empty or malformed option values are command-line errors (exit 2), and
#    nothing is provisioned behind them.
for args in "--expect-revision=" "--expect-revision abc" "--expect-revision -1" "--expect-revision 1x" \
            "--expect-revision 0x2" "--expect-revision +2" "--expect-revision 99999999999999999999" \
            "--lock-timeout=" "--lock-timeout -1" "--lock-timeout 99999999999" "--lock-timeout 1.5" \
            "--state=" "-m x --state="; do
  expect 2 "$RESCFG" provision c.yaml --state st $args
  grep -q "Provisioned" out.txt && fail "provision $args provisioned"
done
expect 2 "$RESCFG" provision c.yaml --state st --expect-revision " 2"
for cmd in "reset --state st -r 0" "reset --state st -r -1" "reset --state st -r=" "reset --state st --output=" \
           "history --state=" "history --state st --lock-timeout=-5" "schedule --state= --jobs $JOBS" \
           "schedule --config= --jobs $JOBS" "schedule --config a.yaml --jobs=" "status --state=" \
           "diff a.yaml --state=" "graph --state=" "plan a.yaml --state st --output=" "plan a.yaml --state= -o p" \
           "provision --plan= --state st"; do
  expect 2 "$RESCFG" $cmd
done
[ "$(current st)" = 2 ] || fail "a command-line error changed the state"
expect 0 "$RESCFG" provision b.yaml --state st --expect-revision 2 -m ""   # an empty message is allowed

# 3. Standard output that cannot be written: before the commit nothing
#    happens (exit 2); once the history line is durable the provision
#    happened, and the exit code (3) and message say so.
fresh st
"$RESCFG" provision c.yaml --state st > /dev/full 2> err.txt
code=$?
[ "$code" = 2 ] || fail "provision > /dev/full: exit $code, expected 2"
contains err.txt "not provisioned"
contains err.txt "standard output"
[ "$(current st)" = 2 ] || fail "provision > /dev/full changed the state"
# A write that fails at each step in turn: the diff, the source file, the
# revision file, the history line, config.yaml, the final report.
codes=""
for k in $(seq 1 12); do
  fresh st
  RESCFG_TEST_FAIL_WRITE=$k "$RESCFG" provision c.yaml --state st > out.txt 2> err.txt
  code=$?
  codes="$codes$code"
  rev=$(current st)
  case $code in
    0) break ;;
    2) [ "$rev" = 2 ] || fail "fail write $k: exit 2 but the state is at revision $rev"
       contains err.txt "not provisioned" ;;
    3) [ "$rev" = 3 ] || fail "fail write $k: exit 3 but the state is at revision $rev"
       contains err.txt "provisioned revision 3, but" ;;
    *) fail "fail write $k: exit $code"; cat err.txt >&2 ;;
  esac
  # Whatever failed, the next provision completes the work.
  expect 0 "$RESCFG" provision c.yaml --state st
  [ "$(current st)" = 3 ] || fail "fail write $k: the next provision did not reach revision 3"
  "$RESCFG" fmt c.yaml | cmp -s - st/config.yaml || fail "fail write $k: config.yaml was not repaired"
done
[ "$codes" = 2222330 ] || fail "exit codes of the failing writes: $codes, expected 2222330"

# 4. A last history line that lost only its final newline is committed:
#    the state reports it, and the next provision completes the line.
fresh st
cp st/history.jsonl whole.jsonl
truncate -s -1 st/history.jsonl
expect 0 "$RESCFG" history --state st --format json
[ "$(jq .current out.txt)" = 2 ] || fail "an entry without its newline was not reported"
contains err.txt "lacks its final newline"
expect 0 "$RESCFG" reset --state st
cmp -s out.txt b.yaml || fail "reset of the unterminated revision"
expect 0 "$RESCFG" provision c.yaml --state st
[ "$(current st)" = 3 ] || fail "provision after a lost newline: revision $(current st)"
cmp -s <(head -c "$(stat -c %s whole.jsonl)" st/history.jsonl) whole.jsonl || fail "the entry was not kept whole"
[ "$(wc -l < st/history.jsonl)" = 3 ] || fail "history.jsonl should have three lines"
# ... but only when its revision is intact; otherwise it is corruption,
# and nothing is truncated.
fresh st
truncate -s -1 st/history.jsonl
echo "# edited" >> st/revisions/000002.yaml
cp st/history.jsonl before.jsonl
expect 2 "$RESCFG" provision c.yaml --state st
contains err.txt "corrupt"
cmp -s st/history.jsonl before.jsonl || fail "provision truncated a parseable entry"

# 5. No file in the state can make a command hang: a FIFO or a symbolic
#    link in place of a state file is refused at once (exit 2).
# check_refused NAME KIND CMD...: each CMD must refuse (exit 2) at once.
check_refused() {
  local name=$1 kind=$2 cmd code; shift 2
  for cmd in "$@"; do
    timeout 20 "$RESCFG" $cmd >out.txt 2>err.txt
    code=$?
    [ "$code" = 2 ] || fail "$kind at $name: '$cmd' exit $code, expected 2"
    grep -qE "FIFO|symbolic link" err.txt || fail "$kind at $name: '$cmd' says '$(cat err.txt)'"
  done
}
writers=("provision c.yaml --state st" "plan c.yaml --state st -o p.json" "history --state st")
readers=("reset --state st" "status --state st" "schedule --state st --jobs $JOBS")
for name in history.jsonl config.yaml lock revisions/000001.yaml revisions/000002.source.yaml; do
  for kind in fifo link; do
    fresh st
    cp "st/$name" saved 2>/dev/null || : > saved
    rm -f "st/$name"
    if [ $kind = fifo ]; then mkfifo "st/$name"; else ln -s "$WORK/saved" "st/$name"; fi
    case $name in
      revisions/000001.yaml) check_refused $name $kind "${writers[@]}" "reset --state st -r 1" ;;
      revisions/000002.source.yaml) check_refused $name $kind "${writers[@]}" "reset --state st" ;;
      *) check_refused $name $kind "${writers[@]}" "${readers[@]}" "reset --state st -r 1" ;;
    esac
    # Commands that do not rely on the file still never hang on it.
    for cmd in "${readers[@]}" "reset --state st -r 1" "diff a.yaml --state st"; do
      timeout 20 "$RESCFG" $cmd >/dev/null 2>&1
      [ $? -le 2 ] || fail "$kind at $name: '$cmd' hung or crashed"
    done
    [ $kind = fifo ] && { [ -p "st/$name" ] || fail "$name: the FIFO was replaced"; }
    [ $kind = link ] && { [ -L "st/$name" ] || fail "$name: the link was replaced"; }
  done
done
# The lock file as a dangling link: neither followed nor its target created.
fresh st
rm st/lock && ln -s "$WORK/lock-target" st/lock
expect 2 "$RESCFG" provision c.yaml --state st
[ -e lock-target ] && fail "the lock's dangling link target was created"
expect 2 "$RESCFG" history --state st
[ -e lock-target ] && fail "a reader created the lock's link target"
# revisions/ as a link to a directory.
fresh st
mv st/revisions revs && ln -s "$WORK/revs" st/revisions
expect 2 "$RESCFG" provision c.yaml --state st
contains err.txt "not a directory"

# 6. A damaged older revision is noticed by commands that write (provision,
#    its dry run, plan) before they write anything.
fresh st
sed -i 's/queue: "h100-pool"/queue: "h100"/' st/revisions/000001.yaml
cp st/history.jsonl before.jsonl
expect 2 "$RESCFG" provision c.yaml --state st
contains err.txt "000001.yaml does not match"
expect 2 "$RESCFG" provision c.yaml --state st --dry-run
expect 2 "$RESCFG" plan c.yaml --state st -o p.json
cmp -s st/history.jsonl before.jsonl || fail "provision wrote on a damaged state"
# Readers rely on the current revision only: it is intact.
expect 0 "$RESCFG" status --state st

# 7. Closed standard streams: nothing else takes their descriptor.
fresh st
# A closed standard input is unusable input (exit 2, nothing written), never
# an empty snapshot; a descriptor opened later never takes its number.
for source in "--config a.yaml" "--state st"; do
  for format in yaml jsonl; do
    "$RESCFG" schedule $source --jobs - --jobs-format $format <&- > out.txt 2> err.txt
    code=$?
    [ "$code" = 2 ] || fail "--jobs - ($source, $format) with stdin closed: exit $code, expected 2"
    [ ! -s out.txt ] || fail "--jobs - ($source, $format) with stdin closed wrote: $(cat out.txt)"
  done
done
"$RESCFG" provision c.yaml --state st >&- 2> err.txt
code=$?
[ "$code" = 0 ] || fail "provision with stdout closed: exit $code: $(cat err.txt)"
[ -s st/lock ] && fail "provision with stdout closed wrote into the lock file"
[ "$(current st)" = 3 ] || fail "provision with stdout closed"
"$RESCFG" history --state st 2>&- >/dev/null || fail "history with stderr closed"
"$RESCFG" history --state st --lock-timeout=-1 2>&- >/dev/null && fail "history with stderr closed accepted a bad option"

# 8. YAML outputs are YAML: C1 controls, U+2028/9, U+FEFF, U+FFFE/F escaped,
#    and a job id that is not UTF-8 is rejected, never altered.
cat > odd-jobs.yaml <<'Y'
apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: "c1\u0085x\u0080y\u009f", policy: Dev, profile: 4xGPU}
  - {id: "ls\u2028ps\u2029bom\uFEFF", policy: Dev, profile: 4xGPU}
  - {id: "nc\uFFFEnc\uFFFF", policy: Research, profile: 4xGPU}
  - {id: "nb\_sp", policy: Research, profile: 4xGPU}
  - {id: "ok", policy: "D\Nev", profile: 4xGPU}
Y
expect 1 "$RESCFG" schedule --config a.yaml --jobs odd-jobs.yaml
python3 - out.txt <<'P' || fail "the schedule YAML does not read back: $(cat out.txt)"
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
ids = [a["job"] for a in doc["assignments"]]
assert ids == ["c1\x85x\x80y\x9f", "ls\u2028ps\u2029bom\ufeff", "nc\ufffenc\uffff"], ids
rejected = [(r["job"], r.get("entry"), r["reason"]) for r in doc["rejected"]]
assert rejected == [(None, 4, "invalid-job"), ("ok", None, "invalid-job")], rejected
assert "not valid UTF-8" in doc["rejected"][0]["message"]
assert doc["rejected"][1]["policy"] is None
P
grep -qP '[\x{80}-\x{9f}\x{2028}\x{2029}\x{feff}\x{fffe}\x{ffff}]' out.txt && fail "raw characters YAML refuses"
expect 1 "$RESCFG" schedule --config a.yaml --jobs odd-jobs.yaml --format json
jq -e '.assignments[0].job == "c1\u0085x\u0080y\u009f"' out.txt >/dev/null || fail "json ids"
expect 1 "$RESCFG" schedule --config a.yaml --jobs odd-jobs.yaml --format jsonl
[ "$(jq -c 'select(.status == "rejected") | [.job, .entry]' out.txt | tr -d '\n')" = '[null,4]["ok",null]' ] \
  || fail "jsonl rejected: $(cat out.txt)"

# 9a. validate does not ignore a failing standard output.
"$RESCFG" validate --format json a.yaml > /dev/full 2> err.txt
code=$?
[ "$code" = 2 ] || fail "validate > /dev/full: exit $code, expected 2"
contains err.txt "cannot write to standard output"
"$RESCFG" history --state st > /dev/full 2> err.txt && fail "history > /dev/full succeeded"
contains err.txt "cannot write to standard output"
# 9b. -o onto links, directories, setuid files, long names.
mkdir outdir && ln -s outdir dirlink
expect 2 "$RESCFG" reset --state st -o dirlink
[ -L dirlink ] || fail "-o replaced a link to a directory"
contains err.txt "directory"
expect 2 "$RESCFG" reset --state st -o outdir
echo old > target.yaml && ln -s target.yaml filelink
expect 0 "$RESCFG" reset --state st -o filelink
[ -L filelink ] || fail "-o replaced a link to a file"
cmp -s target.yaml c.yaml || fail "-o through a link did not write the target"
ln -s "$WORK/nowhere/x.yaml" dangling
expect 2 "$RESCFG" reset --state st -o dangling
[ -L dangling ] || fail "-o replaced a dangling link"
echo old > setuid.yaml && chmod 4755 setuid.yaml
expect 0 "$RESCFG" reset --state st -o setuid.yaml
[ "$(stat -c %a setuid.yaml)" = 755 ] || fail "-o kept a setuid bit: $(stat -c %a setuid.yaml)"
long=$(printf 'n%.0s' $(seq 1 250)).yaml
expect 0 "$RESCFG" reset --state st -o "$long"
cmp -s "$long" c.yaml || fail "-o with a 255-byte name"
expect 0 "$RESCFG" schedule --config a.yaml --jobs "$JOBS" -o "$long"
# 9c. Cleanup removes rescfg's own temporary files only.
fresh st
touch st/.notes.tmp-keep st/.config.yaml.tmp-x st/revisions/.000003.yaml.tmp-1-2-3 st/revisions/.mine.tmp-1-2
touch st/.config.yaml.tmp-123-4 st/revisions/.000003.yaml.tmp-99-0 st/revisions/.000003.source.yaml.tmp-99-1
expect 0 "$RESCFG" provision c.yaml --state st
for kept in st/.notes.tmp-keep st/.config.yaml.tmp-x st/revisions/.000003.yaml.tmp-1-2-3 st/revisions/.mine.tmp-1-2; do
  [ -e "$kept" ] || fail "cleanup deleted $kept"
done
for gone in st/.config.yaml.tmp-123-4 st/revisions/.000003.yaml.tmp-99-0 st/revisions/.000003.source.yaml.tmp-99-1; do
  [ -e "$gone" ] && fail "cleanup left $gone"
done
# 9d. enqueued with more than 9 fractional digits: accepted, ordered exactly.
cat > fine-jobs.yaml <<'Y'
apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: late, policy: Dev, profile: 4xGPU, enqueued: "2026-01-01T00:00:00.0000000002Z"}
  - {id: tie-b, policy: Dev, profile: 4xGPU, enqueued: "2026-01-01T00:00:00.00000000010Z"}
  - {id: after-tie, policy: Dev, profile: 4xGPU, enqueued: "2026-01-01T00:00:00.000000000100000000000000000001Z"}
  - {id: tie-d, policy: Dev, profile: 4xGPU, enqueued: "2026-01-01T00:00:00.0000000001Z"}
  - {id: first, policy: Dev, profile: 4xGPU, enqueued: "2026-01-01T00:00:00Z"}
Y
expect 0 "$RESCFG" schedule --config a.yaml --jobs fine-jobs.yaml --format json
[ "$(jq -c '[.assignments[].job, .pending[].job]' out.txt)" = '["first","tie-b","tie-d","after-tie","late"]' ] \
  || fail "queue order with fine fractions: $(jq -c '[.assignments[].job, .pending[].job]' out.txt)"
# 9e. Table and history outputs show control characters, never send them.
expect 0 "$RESCFG" provision a.yaml --state st -m $'red \e[31malert\e[0m\x07'
expect 0 "$RESCFG" history --state st
grep -q $'\e' out.txt && fail "history printed an escape sequence raw"
contains out.txt 'red \x1B[31malert\x1B[0m\x07'
printf 'apiVersion: rescfg/v1\nkind: JobList\njobs:\n  - {id: "x\\e]0;pwned\\a", policy: Dev, profile: 4xGPU}\n' > esc-jobs.yaml
expect 0 "$RESCFG" schedule --config a.yaml --jobs esc-jobs.yaml --format table
grep -q $'\e' out.txt && fail "the table printed an escape sequence raw"
contains out.txt 'x\x1B]0;pwned\x07'

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "state under hostile conditions: all passed"
