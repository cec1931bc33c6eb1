#!/usr/bin/env bash
# Command-line manners: unknown commands, errors in one format, -o on every
# command that writes data, exit codes in --help, colour, the lock wait.
# Usage: manners_test.sh BINARY SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"

# Every line of err.txt is an error line; nothing went to stdout.
only_errors() {
  [ -s err.txt ] || fail "$1: nothing on stderr"
  if grep -vq '^rescfg: error: ' err.txt; then fail "$1: a stderr line is not an error line"; sed 's/^/  | /' err.txt >&2; fi
  [ -s out.txt ] && fail "$1: wrote to stdout: $(cat out.txt)"
  return 0
}

# --- Unknown commands, with a did-you-mean -----------------------------------
expect 2 "$RESCFG" vaildate "$EXAMPLE"
only_errors "vaildate"
contains err.txt "rescfg: error: unknown command 'vaildate' (did you mean 'validate'?)"
expect 2 "$RESCFG" -v stauts
contains err.txt "unknown command 'stauts' (did you mean 'status'?)"
expect 2 "$RESCFG" --color never shedule --jobs x
contains err.txt "unknown command 'shedule' (did you mean 'schedule'?)"
expect 2 "$RESCFG" frobnicate
only_errors "frobnicate"
contains err.txt "unknown command 'frobnicate'; the commands are validate, schedule, simulate, diff"
expect 2 "$RESCFG"
only_errors "no command"
contains err.txt "rescfg: error: a command is required: validate, schedule"
expect 2 "$RESCFG" -q
contains err.txt "a command is required"

# --- CLI11's own errors read like every other error, exit 2 ------------------
expect 2 "$RESCFG" validate --bogus "$EXAMPLE"
only_errors "unknown option"
contains err.txt "rescfg: error: the following argument was not expected: --bogus; see 'rescfg validate --help'"
expect 2 "$RESCFG" schedule --config "$EXAMPLE"
only_errors "missing option"
contains err.txt "rescfg: error: --jobs is required (or --jobs-from-sync); see 'rescfg schedule --help'"
expect 2 "$RESCFG" graph --config "$EXAMPLE" -f svg
only_errors "bad choice"
contains err.txt "svg not in {mermaid,dot}"
expect 2 "$RESCFG" validate
only_errors "missing argument"
expect 2 "$RESCFG" schedule --state st --config "$EXAMPLE" --jobs x.yaml
only_errors "excluding options"
expect 2 "$RESCFG" --color=blue validate "$EXAMPLE"
only_errors "bad --color"
expect 2 "$RESCFG" -q validate --bogus "$EXAMPLE"
only_errors "-q does not silence command-line errors"
# Help and version are data: stdout, exit 0.
expect 0 "$RESCFG" --help
contains out.txt "Subcommands:"
[ -s err.txt ] && fail "--help wrote to stderr"
expect 0 "$RESCFG" schedule --help
contains out.txt "Exit: 0 every job assigned"

# --- -o FILE on every command that writes data -------------------------------
"$RESCFG" provision "$EXAMPLE" --state st -m one >/dev/null 2>&1 || fail "provision for the -o checks"
cp "$EXAMPLE" changed.yaml
sed -i 's/resources: 8$/resources: 16/' changed.yaml
# same_as_stdout CODE NAME ARGS...: the command writes with -o exactly what
# it prints, replaces an existing file by rename (a new inode), leaves no
# temporary file behind, and exits CODE either way.
same_as_stdout() {
  local code=$1 name=$2; shift 2
  expect "$code" "$RESCFG" "$@"
  cp out.txt "want-$name.txt"
  mkdir -p "o-$name" && echo old > "o-$name/out"
  local before; before=$(stat -c %i "o-$name/out")
  expect "$code" "$RESCFG" "$@" -o "o-$name/out"
  [ -s out.txt ] && fail "$name -o still wrote to stdout"
  cmp -s "o-$name/out" "want-$name.txt" || fail "$name -o differs from its stdout"
  [ "$(stat -c %i "o-$name/out")" != "$before" ] || fail "$name -o did not replace the file atomically"
  [ "$(ls -A "o-$name")" = out ] || fail "$name -o left files behind: $(ls -A "o-$name")"
}
same_as_stdout 0 validate validate "$EXAMPLE"
same_as_stdout 1 validate-invalid validate "$SRC/testdata/invalid/unknown-key.yaml"
same_as_stdout 1 validate-json validate --format json "$SRC/testdata/invalid/unknown-key.yaml"
same_as_stdout 1 diff diff "$EXAMPLE" changed.yaml
same_as_stdout 1 diff-state diff changed.yaml --state st --format json
same_as_stdout 0 status status --state st
same_as_stdout 0 status-json status --config "$EXAMPLE" --format json
same_as_stdout 0 graph graph --config "$EXAMPLE" --format dot
same_as_stdout 0 history history --state st --format json
same_as_stdout 0 fmt fmt "$EXAMPLE"
same_as_stdout 0 completion completion bash
same_as_stdout 0 schedule schedule --config "$EXAMPLE" --jobs "$SRC/testdata/examples/worked-example-jobs.yaml"
same_as_stdout 0 reset reset --state st
# A device is written as it is.
expect 0 "$RESCFG" graph --config "$EXAMPLE" -o /dev/null
[ -c /dev/null ] || fail "-o /dev/null replaced the device"
# Unusable input: exit 2 and the file is neither created nor touched.
printf 'pools: [\n' > bad-syntax.yaml
expect 2 "$RESCFG" diff "$EXAMPLE" bad-syntax.yaml -o diff-out.txt
[ -e diff-out.txt ] && fail "diff wrote -o for unusable input"
echo keep > status-out.txt
expect 2 "$RESCFG" status --state missing-dir -o status-out.txt
[ "$(cat status-out.txt)" = keep ] || fail "status touched -o for a missing state"
expect 2 "$RESCFG" graph --config bad-syntax.yaml -o graph-out.txt
[ -e graph-out.txt ] && fail "graph wrote -o for unusable input"
# An output that cannot be written is exit 2 with an error line.
expect 2 "$RESCFG" graph --config "$EXAMPLE" -o no-such-dir/graph.mmd
only_errors "-o into a missing directory"
expect 2 "$RESCFG" completion zsh -o no-such-dir/_rescfg
contains err.txt "rescfg: error: "
expect 2 "$RESCFG" history --state st -o no-such-dir/history.txt
expect 2 "$RESCFG" validate "$EXAMPLE" -o no-such-dir/findings.txt

# --- --help footers state each command's exit statuses -----------------------
# The codes named on a command's "Exit:" lines, and an example of each.
footer_codes() { "$RESCFG" "$1" --help | sed -n '/^Exit:/,$p' | grep -oE '(^|[ (;:])[012] ' | tr -dc '012\n' | sort -u | tr -d '\n'; }
while read -r cmd codes; do
  [ "$(footer_codes "$cmd")" = "$codes" ] || fail "$cmd --help states exit codes '$(footer_codes "$cmd")', expected '$codes'"
done <<'EOF'
validate 012
schedule 012
diff 012
provision 012
reset 02
history 02
status 02
fmt 012
graph 02
export 012
completion 02
explain 02
EOF
commands=$("$RESCFG" --help | awk '/^Subcommands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}')
for cmd in $commands; do
  "$RESCFG" "$cmd" --help | grep -q '^Exit: 0 ' || fail "$cmd --help has no 'Exit:' footer"
done
# The codes the footers promise, where other tests do not show them.
expect 0 "$RESCFG" reset --state st -r 1 -o reset.yaml
expect 2 "$RESCFG" reset --state st -r 7
expect 2 "$RESCFG" history --state missing-dir
expect 0 "$RESCFG" status --config "$EXAMPLE" --jobs "$SRC/testdata/jobs/bad-entries.yaml"
expect 2 "$RESCFG" status --config bad-syntax.yaml
expect 2 "$RESCFG" graph --state missing-dir

# --- Colour: the level word, only where it belongs ---------------------------
esc=$'\033'
has_colour() { grep -qF "$esc[" "$1"; }
expect 2 "$RESCFG" frobnicate
has_colour err.txt && fail "coloured into a pipe by default"
expect 2 "$RESCFG" --color always frobnicate
has_colour err.txt || fail "--color always did not colour"
grep -qE "^rescfg: (${esc}\[[0-9;]*m)+error${esc}\[m: unknown command" err.txt || fail "--color always: not the level word: $(cat -v err.txt)"
NO_COLOR=1 expect 2 "$RESCFG" --color always frobnicate
has_colour err.txt || fail "--color always should win over NO_COLOR"
expect 2 "$RESCFG" frobnicate --color=always
has_colour err.txt || fail "--color=always after the command did not colour"
expect 1 "$RESCFG" validate --color always "$SRC/testdata/invalid/unknown-key.yaml"
has_colour out.txt && fail "data on stdout was coloured"
expect 2 "$RESCFG" --color always validate --bogus
has_colour err.txt || fail "a command-line error ignores --color always"
if command -v script > /dev/null; then
  # On a terminal (script(1) gives the command one): colour unless told not to.
  on_tty() { TERM=xterm script -qec "$*" /dev/null > tty.txt 2>&1 < /dev/null; }
  on_tty "'$RESCFG' frobnicate"
  has_colour tty.txt || fail "no colour on a terminal: $(cat -v tty.txt)"
  on_tty "NO_COLOR=1 '$RESCFG' frobnicate"
  has_colour tty.txt && fail "coloured on a terminal with NO_COLOR set"
  on_tty "NO_COLOR= '$RESCFG' frobnicate"
  has_colour tty.txt || fail "an empty NO_COLOR should not turn colour off"
  on_tty "'$RESCFG' --color never frobnicate"
  has_colour tty.txt && fail "coloured on a terminal with --color never"
  on_tty "'$RESCFG' --color never validate --bogus"
  has_colour tty.txt && fail "a command-line error ignores --color never"
  on_tty "TERM=dumb '$RESCFG' frobnicate"
  has_colour tty.txt && fail "coloured on a dumb terminal"
else
  echo "script(1) not installed: terminal colour checks skipped"
fi

# --- The lock wait says what it waits for, once, after a second -------------
exec 9>st/lock
flock -x 9
( sleep 2.5; flock -u 9 ) &
expect 0 "$RESCFG" history --state st --lock-timeout 20
wait
contains err.txt "rescfg: waiting for the lock on st, held by another rescfg process (up to 20 s)"
[ "$(grep -c waiting err.txt)" = 1 ] || fail "the lock wait was announced more than once"
flock -x 9
( sleep 1.5; flock -u 9 ) &
expect 0 "$RESCFG" -q status --state st --lock-timeout 20
wait
[ -s err.txt ] && fail "-q should silence the lock wait: $(cat err.txt)"
flock -x 9
( sleep 0.3; flock -u 9 ) &
expect 0 "$RESCFG" history --state st --lock-timeout 20
wait
grep -q waiting err.txt && fail "a short wait was announced"
exec 9>&-

[ "$failures" -eq 0 ] || exit 1
echo PASS
