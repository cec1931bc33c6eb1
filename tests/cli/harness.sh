# Shared set-up of the command-line tests; sourced as
#   source "$(dirname "$0")/harness.sh" "$@"
# with the rescfg binary and the source directory as arguments. Each test
# runs in a scratch directory that is removed on exit.
RESCFG=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
EXAMPLE=$SRC/testdata/examples/worked-example.yaml
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# expect CODE CMD...: runs CMD, stdout to out.txt, stderr to err.txt.
expect() {
  local want=$1; shift
  "$@" >out.txt 2>err.txt
  local got=$?
  [ "$got" = "$want" ] || { fail "exit $got, expected $want: $*"; sed 's/^/  stderr: /' err.txt >&2; }
}
contains() { grep -qF -- "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/  | /' "$1" >&2; }; }

# poll SECONDS CMD...: runs CMD every 50 ms until it succeeds (true) or
# SECONDS pass (false): never a fixed sleep for an event.
poll() {
  local deadline=$(($(date +%s) + $1)); shift
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.05
  done
}
# wait_for LABEL SECONDS CMD...: poll, and a failure of the test when it times out.
wait_for() {
  local label=$1; shift
  poll "$@" || { fail "timed out waiting for $label"; return 1; }
}
# gone PID: the process has ended.
gone() { ! kill -0 "$1" 2>/dev/null; }
# quick_sample N: copies standard input, keeping under the sanitizers
# (RESCFG_TEST_QUICK) only every Nth line: loops over every configuration in
# testdata/ run whole in the plain suite, a sample of them where each process
# costs ten times as much.
quick_sample() {
  if [ -n "${RESCFG_TEST_QUICK:-}" ]; then awk -v n="$1" 'NR % n == 1'; else cat; fi
}
