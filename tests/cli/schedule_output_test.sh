#!/usr/bin/env bash
# `rescfg schedule -o FILE`: the file holds the same bytes as standard output
# would; on unusable input (exit 2) an existing file is left untouched.
set -u
source "$(dirname "$0")/harness.sh" "$@"
JOBS=$SRC/testdata/examples/worked-example-jobs.yaml

expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$JOBS" -f jsonl
cp out.txt stdout.jsonl
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$JOBS" -f jsonl -o result.jsonl
[ -s out.txt ] && fail "-o also wrote to standard output"
cmp -s stdout.jsonl result.jsonl || fail "-o FILE differs from standard output"
[ "$(wc -l < result.jsonl)" -eq 8 ] || fail "expected one line per job"

echo "keep me" > result.jsonl
printf 'apiVersion: rescfg/v1\nkind: JobList\njobs: [\n' > broken.yaml
expect 2 "$RESCFG" -q schedule -c "$EXAMPLE" -j broken.yaml -o result.jsonl
[ "$(cat result.jsonl)" = "keep me" ] || fail "unusable input replaced the output file"
ls result.jsonl.* 2>/dev/null && fail "a temporary file was left behind"

# A FIFO (like /dev/null, not a regular file) is written to, not replaced.
mkfifo pipe
cat pipe > from_pipe.jsonl &
reader=$!
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$JOBS" -f jsonl -o pipe
if [ -p pipe ]; then
  wait "$reader"
  cmp -s stdout.jsonl from_pipe.jsonl || fail "-o FIFO differs from standard output"
else
  fail "-o replaced a FIFO with a regular file"
  kill "$reader" 2>/dev/null
fi

[ "$failures" -eq 0 ] && echo "schedule -o: all passed"
exit "$failures"
