#!/usr/bin/env bash
# `rescfg export clearml-agent`: Helm values of the Kubernetes glue and
# daemon command lines per pool, read back the way Helm and sh read them;
# exit codes 0/1/2, --pool, -o, --format json, --state.
set -u
source "$(dirname "$0")/harness.sh" "$@"
CHECK="python3 $SRC/tests/cli/clearml_agent_check.py"

# The stand-in for clearml-agent that sh runs: it records its arguments.
mkdir bin
cat > bin/clearml-agent <<'EOF'
#!/bin/sh
n=$(ls "$ARGV_DIR" | wc -l)
printf '%s\0' "$@" > "$ARGV_DIR/$n"
EOF
chmod +x bin/clearml-agent

# run_daemon CONFIG: sources the daemon command lines into sh.
run_daemon() {
  rm -rf argv && mkdir argv
  ARGV_DIR=$PWD/argv PATH=$PWD/bin:$PATH sh daemon.sh || fail "sh could not run the command lines of $1"
}

# Every configuration, both modes: PyYAML and sh read back what was meant.
for config in "$EXAMPLE" "$SRC"/testdata/valid/*.yaml "$SRC"/testdata/export/*.yaml; do
  "$RESCFG" -q export clearml-agent -c "$config" > values.yaml
  code=$?
  [ "$code" -le 1 ] || fail "export of $config: exit $code"
  "$RESCFG" -q export clearml-agent -c "$config" -f json > values.json
  $CHECK k8s "$config" values.yaml values.json || fail "values of $config"
  [ "$(jq -r .documents values.json)" = "$(cat values.yaml)" ] || fail "$config: json documents differ from the yaml"
  [ "$(jq '.findings | length' values.json)" -gt 0 ] && c=1 || c=0
  [ "$c" = "$code" ] || fail "$config: exit $code with $(jq '.findings | length' values.json) findings"

  "$RESCFG" -q export clearml-agent --mode daemon -c "$config" > daemon.sh
  [ $? -le 1 ] || fail "daemon export of $config"
  "$RESCFG" -q export clearml-agent --mode daemon -c "$config" -f json > daemon.json
  run_daemon "$config"
  $CHECK daemon "$config" daemon.json argv || fail "daemon command lines of $config"
done

# The worked example is faithful: exit 0, nothing on stderr, and exactly
# the values of SPEC §7.1 for its H100 pool.
expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE"
[ -s err.txt ] && fail "a faithful export wrote to stderr: $(cat err.txt)"
[ "$(grep -c '^# pool: ' out.txt)" = 2 ] || fail "expected two pool documents"
[ "$(grep -cx -- '---' out.txt)" = 1 ] || fail "expected one document separator"
cp out.txt all.yaml
expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE" --pool "H100 Half a Superpod"
cat > want.yaml <<'EOF'
# pool: H100 Half a Superpod
agentk8sglue:
  createQueues: true
  monitoredResources:
    maxResources: 8
    minResourcesFieldName: "metadata|labels|clear.ml/resource-usage"
    maxResourcesFieldName: "metadata|labels|clear.ml/resource-usage"
  queues:
    h100-2gpu:
      templateOverrides:
        labels: {clear.ml/resource-usage: "2"}
        resources: {limits: {nvidia.com/gpu: 2}}
    h100-4gpu:
      templateOverrides:
        labels: {clear.ml/resource-usage: "4"}
        resources: {limits: {nvidia.com/gpu: 4}}
    h100-8gpu:
      templateOverrides:
        labels: {clear.ml/resource-usage: "8"}
        resources: {limits: {nvidia.com/gpu: 8}}
    h100-half:
      templateOverrides:
        labels: {clear.ml/resource-usage: "0.5", clearml-injector/fraction: "0.500"}
EOF
cmp -s out.txt want.yaml || { fail "H100 values differ"; diff want.yaml out.txt >&2; }
grep -qF -- "$(cat want.yaml)" all.yaml || fail "--pool gives another document than the full export"

expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE" --mode daemon
cat > want.sh <<'EOF'
# pool: Bare Metal Low END GPUs
clearml-agent daemon --dynamic-gpus --gpus 0-7 --queue bare-metal=4 --docker

# pool: H100 Half a Superpod
clearml-agent daemon --dynamic-gpus --gpus 0-7 --queue h100-2gpu=2 h100-4gpu=4 h100-8gpu=8 h100-half=0.5 --docker
EOF
cmp -s out.txt want.sh || { fail "daemon command lines differ"; diff want.sh out.txt >&2; }
expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE" --mode daemon --pool "Bare Metal Low END GPUs"
[ "$(cat out.txt)" = "$(head -2 want.sh)" ] || fail "--pool in daemon mode: $(cat out.txt)"

# Exit 1: each point on stderr with file, line and configuration path, and
# as data in --format json; the documents are still written.
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/sevenths.yaml" -o sevenths.yaml
contains err.txt "sevenths.yaml:5:5: inexpressible-fraction: pools[one card].gpuFractions: allotment 1/7"
contains err.txt 'add gpuFractions: {mig: {"1/7": '
contains sevenths.yaml 'labels: {clear.ml/resource-usage: "0.142857", clearml-injector/fraction: "0.250"}'
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/sevenths.yaml" -f json
[ "$(jq -c '[.findings[] | [.code, .path, .line, .column]]' out.txt)" = \
  '[["inexpressible-fraction","pools[one card].gpuFractions",5,5]]' ] || fail "json findings: $(jq -c .findings out.txt)"
[ "$(jq -r '.mode' out.txt)" = k8s-glue ] || fail "json mode"
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/invalid/warn-mixed-queue.yaml"
contains err.txt "mixed-queue: pools[a].queue: queue 'shared' of pool 'a' receives tasks of profiles 'one' (1) and 'two' (2)"
contains err.txt "give each link its own queue"
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/full.yaml"
contains err.txt "dynamic-queue: profiles[runtime-sized].dynamic"
contains err.txt "CLEARML_K8S_GLUE_TEMPLATE_MODULE"
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/full.yaml" --mode daemon -f json
[ "$(jq -r '[.findings[].code] | unique | join(" ")' out.txt)" = "dynamic-queue inexpressible-fraction" ] ||
  fail "daemon findings of full.yaml: $(jq -c '[.findings[].code]' out.txt)"
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/export/hostile-names.yaml" --mode daemon
contains err.txt "option-like-queue"
expect 0 "$RESCFG" export clearml-agent -c "$SRC/testdata/export/hostile-names.yaml"

# Exit 2: an unknown --pool, an invalid configuration, a bad flag; nothing
# is written to -o, and an existing file is left alone.
echo "keep me" > kept.yaml
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --pool "H100" -o kept.yaml
contains err.txt "unknown-pool: --pool 'H100': the configuration has no pool of that name"
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --pool "H100 Half a Superpd" --mode daemon -o kept.yaml
contains err.txt "did you mean 'H100 Half a Superpod'?"
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --pool "" -o kept.yaml
contains err.txt "the pool name is empty"
expect 2 "$RESCFG" export clearml-agent -c "$SRC/testdata/invalid/duplicate-queue.yaml" -o kept.yaml
expect 2 "$RESCFG" export clearml-agent -c missing.yaml -o kept.yaml
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --mode bare-metal -o kept.yaml
[ "$(cat kept.yaml)" = "keep me" ] || fail "an unusable export replaced the output file"
ls kept.yaml.* 2>/dev/null && fail "a temporary file was left behind"

# -o writes the same bytes as standard output; --state exports what is provisioned.
expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE" --mode daemon -o daemon.out
[ -s out.txt ] && fail "-o also wrote to standard output"
cmp -s daemon.out want.sh || fail "-o FILE differs from standard output"
expect 0 "$RESCFG" -q provision "$EXAMPLE" --state st --message "first"
expect 0 "$RESCFG" export clearml-agent --state st
cmp -s out.txt all.yaml || fail "export --state differs from export --config"

[ "$failures" -eq 0 ] && echo "export clearml-agent: all passed"
exit "$failures"
