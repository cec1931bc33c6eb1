#!/usr/bin/env bash
# Input limits: each refused with a clear message, each changeable through
# its environment variable, a malformed value refused.
set -u
source "$(dirname "$0")/harness.sh" "$@"
JOBS=$SRC/testdata/examples/worked-example-jobs.yaml

RESCFG_MAX_JOBS=3 expect 2 "$RESCFG" schedule -c "$EXAMPLE" -j "$JOBS"
contains err.txt "too-many-jobs"
RESCFG_MAX_JOBS=8 expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j "$JOBS"

RESCFG_MAX_CONFIG_BYTES=100 expect 2 "$RESCFG" validate "$EXAMPLE"
contains out.txt "larger than the limit"

RESCFG_MAX_NAME_LENGTH=10 expect 1 "$RESCFG" validate "$EXAMPLE"
contains out.txt "bad-name"
contains out.txt "at most 10 bytes"
RESCFG_MAX_NAME_LENGTH=100 expect 0 "$RESCFG" validate "$EXAMPLE"

RESCFG_MAX_JOBS_BYTES=10 expect 2 "$RESCFG" schedule -c "$EXAMPLE" -j "$JOBS"
contains err.txt "larger than the limit"

RESCFG_MAX_JOBS=-1 expect 2 "$RESCFG" validate "$EXAMPLE"
contains err.txt "RESCFG_MAX_JOBS"

[ "$failures" -eq 0 ] && echo "limits: all passed"
exit "$failures"
