#!/usr/bin/env bash
# Jobs input without surprises: JSON Lines on standard input is recognised
# by its content; a key close to a known one gets a did-you-mean warning.
set -u
source "$(dirname "$0")/harness.sh" "$@"

cat > jobs.jsonl <<'J'
{"id": "dev-1", "policy": "Dev", "profile": "4xGPU"}
{"id": "dev-2", "policy": "Dev", "profile": "4xGPU", "stat": "running", "pool": "Bare Metal Low END GPUs"}
{"id": "dev-3", "polcy": "Dev", "profile": "4xGPU", "user": "alice", "created": "2026-11-29T10:00:00Z"}
{"id": "dev-4", "policy": "Dev", "profile": "4xGPU", "stat": "running"}
J
expect 1 "$RESCFG" schedule -c "$EXAMPLE" -j - -f jsonl < jobs.jsonl
[ "$(wc -l < out.txt)" = 4 ] || fail "stdin JSON Lines not read as JSON Lines: $(cat err.txt)"
[ "$(jq -r 'select(.job == "dev-1") | .status' out.txt)" = assigned ] || fail "dev-1 from stdin"
contains err.txt "<stdin>:2:1: unknown-job-key: unknown key 'stat' in a job is ignored (in 2 entries, the first here) (did you mean 'state'?)"
contains err.txt "<stdin>:3:1: unknown-job-key: unknown key 'polcy' in a job is ignored (did you mean 'policy'?)"
grep -q "'user'\|'created'" err.txt && fail "keys far from every field are data, not typos"
# The same file by name, and YAML on stdin, are unchanged.
expect 1 "$RESCFG" schedule -c "$EXAMPLE" -j jobs.jsonl -f jsonl
contains err.txt "jobs.jsonl:2:1: unknown-job-key"
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j - -f jsonl < "$SRC/testdata/examples/worked-example-jobs.yaml"
[ "$(wc -l < out.txt)" = 8 ] || fail "YAML on stdin"
# A YAML flow document or a JSON JobList document on stdin is YAML.
printf '{apiVersion: rescfg/v1, kind: JobList, jobs: [{id: a, policy: Dev, profile: 4xGPU}]}\n' > flow.yaml
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j - -f jsonl < flow.yaml
[ "$(jq -r .status out.txt)" = assigned ] || fail "YAML flow document on stdin: $(cat out.txt err.txt)"
printf '{"apiVersion": "rescfg/v1", "kind": "JobList", "jobs": [{"id": "a", "policy": "Dev", "profile": "4xGPU"}]}\n' > doc.json
expect 0 "$RESCFG" -q schedule -c "$EXAMPLE" -j - -f jsonl < doc.json
[ "$(jq -r .status out.txt)" = assigned ] || fail "JSON JobList document on stdin: $(cat out.txt err.txt)"
# --jobs-format still decides when given.
expect 2 "$RESCFG" -q schedule -c "$EXAMPLE" -j - --jobs-format yaml < jobs.jsonl
# YAML jobs files warn the same way.
cat > typo.yaml <<'Y'
apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: a, policy: Dev, profile: 4xGPU, State: running, pool: Bare Metal Low END GPUs}
Y
expect 0 "$RESCFG" schedule -c "$EXAMPLE" -j typo.yaml -f jsonl
contains err.txt "typo.yaml:4:1: unknown-job-key: unknown key 'State' in a job is ignored (did you mean 'state'?)"

[ "$failures" -eq 0 ] && echo "jobs input: all passed"
exit "$failures"
