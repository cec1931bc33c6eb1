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
# (A third of them under the sanitizers.)
while IFS= read -r config <&3; do
  "$RESCFG" -q export clearml-agent -c "$config" > values.yaml
  code=$?
  [ "$code" -le 1 ] || fail "export of $config: exit $code"
  "$RESCFG" -q export clearml-agent -c "$config" -f json > values.json
  $CHECK k8s "$config" values.yaml values.json || fail "values of $config"
  [ "$(jq -r .documents values.json)" = "$(cat values.yaml)" ] || fail "$config: json documents differ from the yaml"
  [ "$(jq '.findings | length' values.json)" -gt 0 ] && c=1 || c=0
  [ "$c" = "$code" ] || fail "$config: exit $code with $(jq '.findings | length' values.json) findings"

  "$RESCFG" -q export clearml-agent --chart open -c "$config" > open.yaml
  [ $? -le 1 ] || fail "open chart export of $config"
  "$RESCFG" -q export clearml-agent --chart open -c "$config" -f json > open.json
  $CHECK k8s-open "$config" open.yaml open.json || fail "open chart values of $config"

  "$RESCFG" -q export clearml-agent --mode daemon -c "$config" > daemon.sh
  [ $? -le 1 ] || fail "daemon export of $config"
  "$RESCFG" -q export clearml-agent --mode daemon -c "$config" -f json > daemon.json
  run_daemon "$config"
  $CHECK daemon "$config" daemon.json argv || fail "daemon command lines of $config"
done 3< <(printf '%s\n' "$EXAMPLE" "$SRC"/testdata/valid/*.yaml "$SRC"/testdata/export/*.yaml | quick_sample 3)

# The worked example is faithful: exit 0, nothing on stderr, and exactly
# the values of rescfg(1), export clearml-agent for its H100 pool.
expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE"
[ -s err.txt ] && fail "a faithful export wrote to stderr: $(cat err.txt)"
[ "$(grep -c '^# pool: ' out.txt)" = 2 ] || fail "expected two pool documents"
[ "$(grep -cx -- '---' out.txt)" = 1 ] || fail "expected one document separator"
cp out.txt all.yaml
expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE" --pool "H100 Half a Superpod"
cat > want.yaml <<'EOF'
# pool: H100 Half a Superpod
# chart: clearml-enterprise/clearml-enterprise-agent (ClearML's Enterprise agent chart, the only one with the per-queue queues map and monitoredResources; for the open-source chart: --chart open)
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

# The pool's written node labels and tolerations hold its agent's pods to its
# machines, in both charts.
expect 0 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/kubernetes.yaml" --pool H100 -f json
[ "$(jq -c '.pools[0].values.agentk8sglue.basePodTemplate' out.txt)" = \
  '{"nodeSelector":{"cloud.example.com/zone":"","nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3"},"tolerations":[{"key":"dedicated","operator":"Equal","value":"h100","effect":"NoSchedule"},{"key":"example.com/maintenance","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]}' ] ||
  fail "basePodTemplate of H100: $(jq -c '.pools[0].values.agentk8sglue.basePodTemplate' out.txt)"
[ "$(jq -r '.chart' out.txt)" = enterprise ] || fail "json chart"

# --chart open: the open-source chart's form; the per-queue sizing it loses
# is a finding for each queue sized otherwise.
expect 1 "$RESCFG" export clearml-agent -c "$EXAMPLE" --chart open --pool "H100 Half a Superpod"
cat > want-open.yaml <<'EOF'
# pool: H100 Half a Superpod
# chart: allegroai/clearml-agent (the open-source agent chart: one list of queues, every pod from basePodTemplate)
agentk8sglue:
  queue: "h100-2gpu,h100-4gpu,h100-8gpu,h100-half"
  createQueueIfNotExists: true
  basePodTemplate:
    resources: {limits: {nvidia.com/gpu: 8}}
EOF
cmp -s out.txt want-open.yaml || { fail "open chart values differ"; diff want-open.yaml out.txt >&2; }
[ "$(grep -c 'open-chart' err.txt)" = 3 ] || fail "expected 3 open-chart findings: $(cat err.txt)"
contains err.txt "open-chart: profiles[2xGPU].links[0].queue: the open-source agent chart sizes every pod of pool 'H100 Half a Superpod' alike: queue 'h100-2gpu' ('2xGPU' (2)) is exported for '8xGPU' (8)"
expect 0 "$RESCFG" export clearml-agent -c "$EXAMPLE" --chart open --pool "Bare Metal Low END GPUs"
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/export/hostile-names.yaml" --chart open
contains err.txt "holds a comma, and the open-source agent chart's queue list is comma-separated"
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --chart open --mode daemon
contains err.txt "--chart applies to export clearml-agent --mode k8s-glue"
expect 2 "$RESCFG" export kueue -c "$EXAMPLE" --chart open
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --chart community

# --accept: reviewed codes print as notes and no longer make the exit 1;
# others still do; a code the target never reports is a usage error.
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/full.yaml" --mode daemon --accept dynamic-queue
contains err.txt "rescfg: note: "
contains err.txt "dynamic-queue: profiles[runtime-sized].dynamic"
expect 0 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/full.yaml" --mode daemon \
  --accept dynamic-queue,inexpressible-fraction
contains err.txt "(accepted)"
grep -q 'warning' err.txt && fail "accepted findings still print as warnings: $(cat err.txt)"
expect 0 "$RESCFG" export clearml-agent -c "$SRC/testdata/valid/full.yaml" --mode daemon \
  --accept dynamic-queue --accept " inexpressible-fraction," -f json
[ "$(jq -c '[.findings[] | [.code, .severity, .accepted]] | unique' out.txt)" = \
  '[["dynamic-queue","warning",true],["inexpressible-fraction","warning",true]]' ] ||
  fail "json accepted findings: $(jq -c .findings out.txt)"
expect 0 "$RESCFG" -q export clearml-agent -c "$SRC/testdata/valid/full.yaml" --mode daemon \
  --accept dynamic-queue,inexpressible-fraction
[ -s err.txt ] && fail "-q still prints accepted findings: $(cat err.txt)"
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --accept mixed-queu -o kept.yaml
contains err.txt "--accept: export clearml-agent reports no finding 'mixed-queu' (did you mean 'mixed-queue'?)"
expect 2 "$RESCFG" export clearml-agent -c "$EXAMPLE" --accept kueue-split-limit

# Pools of machines: one command line per machine, marked with its number;
# a pool without nodes of more than 8 GPUs is a finding. Queue names with
# quotes, $(...), backquotes, blanks, globs and operators reach
# clearml-agent exactly as written when sh runs the lines, and sh runs
# nothing of them.
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/export/machines.yaml" --mode daemon -o machines.sh
[ "$(grep -c '^# machine [1-4] of 4$' machines.sh)" = 4 ] || fail "A100: not one line per machine: $(cat machines.sh)"
[ "$(grep -c '^# machine [1-3] of 3$' machines.sh)" = 3 ] || fail "AWS burst: not one line per machine"
[ "$(grep -c '^clearml-agent daemon' machines.sh)" = 8 ] || fail "expected 4 + 1 + 3 command lines"
grep -q -- '--gpus 0-15 ' machines.sh || fail "Big bag: --gpus 0-15"
[ "$(grep -c -- '--gpus 0-7 ' machines.sh)" = 7 ] || fail "machines: --gpus 0-7 on each"
contains err.txt "one-agent-many-gpus: pools[Big bag].resources: pool 'Big bag': one agent for 16 GPUs assumes one machine; give the pool \`nodes\`"
contains err.txt "multi-machine-allotment: profiles[16xGPU].allotment: allotment 16 of profile '16xGPU'"
mkdir -p sandbox && rm -rf argv && mkdir argv
(cd sandbox && ARGV_DIR=$PWD/../argv PATH=$PWD/../bin:$PATH sh ../machines.sh) || fail "sh could not run machines.sh"
[ -z "$(ls -A sandbox)" ] || fail "sh ran part of a queue name: $(ls -A sandbox)"
python3 - argv <<'PY' || fail "clearml-agent did not receive the queue names as written"
import os, sys
calls = [open(os.path.join(sys.argv[1], n), "rb").read().decode().split("\0")[:-1]
         for n in sorted(os.listdir(sys.argv[1]), key=int)]
a100 = ["daemon", "--dynamic-gpus", "--gpus", "0-7", "--queue",
        "q'1 \"two\" $HOME \\ |&<>=1", "it's $(touch pwned) `touch pwned` a*=16", "--docker"]
assert calls[:4] == [a100] * 4, calls[:4]
assert calls[5] == ["daemon", "--dynamic-gpus", "--gpus", "0-7", "--queue", "burst; touch pwned=1", "--docker"], calls[5]
assert len(calls) == 8, len(calls)
PY
expect 1 "$RESCFG" export clearml-agent -c "$SRC/testdata/export/machines.yaml" --mode daemon -f json
[ "$(jq -c '[.pools[] | .machines]' out.txt)" = '[4,1,3]' ] || fail "json machines: $(jq -c '[.pools[] | .machines]' out.txt)"
expect 0 "$RESCFG" export clearml-agent -c "$SRC/testdata/export/machines.yaml" --mode daemon \
  --accept one-agent-many-gpus,multi-machine-allotment

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
