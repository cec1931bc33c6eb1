#!/usr/bin/env bash
# One mistake, one finding: the rough edges of a new user's first hour each
# give one clear answer (a misspelt key, a list written as a string, a bare
# pool name in links, a dedented block, explain of a job placed elsewhere,
# the first plan, dynamic.invalid and the near miss of a parameter, a trace's
# enqueued, a closed standard input, scripts/example).
source "$(dirname "$0")/harness.sh" "$@"

config() {  # config FILE PROFILE-LINES POLICY-LINES
  {
    echo "apiVersion: rescfg/v1"
    echo "kind: ResourceConfiguration"
    echo "pools:"
    echo "  - {name: AWS burst, resources: 24}"
    echo "profiles:"
    printf '%s\n' "$2"
    echo "policies:"
    printf '%s\n' "$3"
  } > "$1"
}
job() { jq -c --arg id "$1" 'select(.job == $id)' out.txt; }

# A misspelt key: unknown-key with its did-you-mean, and no missing-field.
config alotment.yaml "  - {name: p, alotment: 4, links: [{pool: AWS burst}]}" "  - {name: T, profiles: [p]}"
expect 1 "$RESCFG" validate --format json alotment.yaml
jq -e '[.files[].findings[].code] == ["unknown-key"]' out.txt > /dev/null || fail "alotment: $(jq -c '[.files[].findings[].code]' out.txt)"
jq -e '.files[0].findings[0].hint | test("allotment")' out.txt > /dev/null || fail "alotment: no did-you-mean"

# profiles written as a string: the wrong type, not also empty-policy.
config profiles-string.yaml "  - {name: mig-slice, allotment: 1, links: [{pool: AWS burst}]}" \
  "  - {name: T, profiles: mig-slice}"
expect 1 "$RESCFG" validate --format json profiles-string.yaml
jq -e '[.files[].findings[].code] == ["wrong-type"]' out.txt > /dev/null ||
  fail "profiles: mig-slice: $(jq -c '[.files[].findings[].code]' out.txt)"

# links written as a string: the wrong type, not also unlinked-profile.
config links-string.yaml "  - {name: p, allotment: 1, links: AWS burst}" "  - {name: T, profiles: [p]}"
expect 1 "$RESCFG" validate --format json links-string.yaml
jq -e '[.files[].findings[].code] == ["wrong-type"]' out.txt > /dev/null ||
  fail "links: AWS burst: $(jq -c '[.files[].findings[].code]' out.txt)"

# links as bare pool names, like a policy's profiles; the canonical form writes maps.
config links-bare.yaml "  - {name: p, allotment: 1, links: [AWS burst]}" "  - {name: T, profiles: [p]}"
expect 0 "$RESCFG" validate links-bare.yaml
expect 0 "$RESCFG" fmt links-bare.yaml
contains out.txt '- {pool: "AWS burst"}'

# A dedented block says that the indentation is wrong.
cat > dedent.yaml <<'YAML'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - name: AWS burst
    resources: 24
   queue: aws
YAML
expect 2 "$RESCFG" validate dedent.yaml
contains out.txt "bad indentation"
contains out.txt "dedent.yaml:6:"

# explain of a job placed at its second link: the first pool is not given
# a free amount "when it was placed".
expect 0 "$RESCFG" explain research-1 --config "$EXAMPLE" --jobs "$SRC/testdata/examples/worked-example-jobs.yaml"
contains out.txt "was placed elsewhere (H100 Half a Superpod)"
grep -A1 '1. Bare Metal' out.txt | grep -q 'when it was placed' && fail "explain gives Bare Metal's free amount when placed"

# The first plan and the first diff onto an empty state only add.
sed 's/^kind: ResourceConfiguration$/&\nkubernetes: {namespace: ml}/' "$EXAMPLE" > ml.yaml
expect 0 "$RESCFG" plan ml.yaml --state st -o plan.json
contains out.txt '+ kubernetes.namespace = "ml"'
grep -E '^~' out.txt && fail "the first plan shows a change"

# dynamic.invalid: reject, and the near miss of a parameter.
cat > dynamic.yaml <<'YAML'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: P, resources: 8}]
profiles:
  - {name: d, allotment: 1, dynamic: {parameter: runtime.gpus_request, invalid: reject}, links: [P]}
  - {name: e, allotment: 1, dynamic: {parameter: runtime.gpus_request}, links: [P]}
policies: [{name: T, profiles: [d, e]}]
YAML
cat > dynamic-jobs.jsonl <<'JSONL'
{"id": "eight", "policy": "T", "profile": "d", "params": {"runtime": {"gpus_request": "eight"}}}
{"id": "absent", "policy": "T", "profile": "d"}
{"id": "two", "policy": "T", "profile": "d", "params": {"runtime": {"gpus_request": 2}}}
{"id": "default", "policy": "T", "profile": "e", "params": {"runtime": {"gpus_request": "eight"}}}
{"id": "near", "policy": "T", "profile": "e", "params": {"runtime": {"gpu_request": 3}}}
JSONL
expect 1 "$RESCFG" schedule --config dynamic.yaml --jobs dynamic-jobs.jsonl --format jsonl
job eight | jq -e '.status == "rejected" and .reason == "invalid-job" and
  (.message | test("runtime.gpus_request is .eight.: not a quantity"))' > /dev/null ||
  fail "dynamic.invalid: reject: $(grep eight out.txt)"
job absent | jq -e '.status == "assigned" and .resources == 1' > /dev/null || fail "absent parameter"
job two | jq -e '.resources == 2' > /dev/null || fail "valid parameter"
job default | jq -e '.status == "assigned" and .resources == 1' > /dev/null ||
  fail "dynamic.invalid default"
job near | jq -e '.message | test("did you mean .runtime.gpus_request.")' > /dev/null ||
  fail "near miss not in the message: $(grep near out.txt)"
contains err.txt "did you mean 'runtime.gpus_request'"
expect 0 "$RESCFG" fmt dynamic.yaml
contains out.txt "invalid: reject"

# enqueued is ignored in a trace, whatever its type.
cat > trace.jsonl <<'JSONL'
{"id": "a", "policy": "Dev", "profile": "4xGPU", "submitted": "2026-11-29T10:00:00Z", "duration": 60, "enqueued": 5}
{"id": "b", "policy": "Dev", "profile": "4xGPU", "submitted": "2026-11-29T10:00:00Z", "duration": 60, "enqueued": {"x": 1}}
JSONL
expect 0 "$RESCFG" simulate --config "$EXAMPLE" --trace trace.jsonl --format jsonl
[ "$(jq -r .status out.txt | sort -u)" = finished ] || fail "enqueued in a trace: $(cat out.txt)"

# --jobs - on a closed standard input is unusable input.
expect 2 "$RESCFG" schedule --config "$EXAMPLE" --jobs - <&-
contains err.txt "standard input is closed"

# scripts/example shows the example's result, the build log only on failure.
mkdir -p ex/scripts ex/bin ex/build ex/testdata/examples
cp "$SRC/scripts/example" ex/scripts/
cp "$EXAMPLE" "$SRC/testdata/examples/worked-example-jobs.yaml" ex/testdata/examples/
printf '#!/bin/sh\necho "installing packages"\n' > ex/scripts/install-deps.sh
printf '#!/bin/sh\necho "[1/113] Building CXX object"\n[ -z "${FAIL_BUILD:-}" ] || { echo "error: it broke"; exit 1; }\n' > ex/bin/cmake
chmod +x ex/bin/cmake
ln -s "$RESCFG" ex/build/rescfg
PATH="$PWD/ex/bin:$PATH" expect 0 sh ex/scripts/example
grep -q 'Building CXX' out.txt err.txt && fail "scripts/example shows the build log"
contains out.txt "research-1"
grep -q 'Building CXX' ex/build/example-build.log || fail "the build log is not kept in build/example-build.log"
FAIL_BUILD=1 PATH="$PWD/ex/bin:$PATH" expect 1 sh ex/scripts/example
contains err.txt "error: it broke"

exit $((failures > 0))
