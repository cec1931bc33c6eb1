#!/bin/bash
# Every object `rescfg export kueue` writes validates against Kueue's CRD
# schema of its kind and version (testdata/kueue-crds, JSON Schema Draft 7
# with python3-jsonschema), keeps the CRDs' CEL rules and Kueue's webhook
# rules, and keeps rescfg(5), KUBERNETES against its configuration: on the worked
# example, a configuration of 1000 policies (counted in GPUs and in ticks)
# and every configuration under testdata/ that validates. The checker itself
# is shown to catch broken objects.
# Usage: kueue_crd_test.sh RESCFG SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"
python=/usr/bin/python3
check="$python $SRC/tests/kueue_crd_check.py $SRC/testdata/kueue-crds"
if ! "$python" -c 'import jsonschema, yaml; jsonschema.Draft7Validator' 2>/dev/null; then
  echo "FAIL: needs python3-jsonschema and python3-yaml; run scripts/install-deps.sh" >&2
  exit 1
fi
(cd "$SRC/testdata/kueue-crds" && sha256sum --quiet -c SHA256SUMS) || fail "the CRD copies differ from SHA256SUMS"

# export CONFIG OUT: the export must succeed (exit 0 or 1).
export_to() {
  "$RESCFG" export kueue --config "$1" -o "$2" 2>err.txt
  local code=$?
  [ "$code" = 0 ] || [ "$code" = 1 ] || { fail "export of $1 exited $code"; sed 's/^/  /' err.txt >&2; }
}

pairs=()
export_to "$EXAMPLE" worked.yaml
pairs+=("worked.yaml=$EXAMPLE")

"$python" "$SRC/tests/gen_kueue_config.py" 1000 > big.yaml
"$python" "$SRC/tests/gen_kueue_config.py" 1000 --ticks > big-ticks.yaml
expect 0 "$RESCFG" validate big.yaml big-ticks.yaml
bigs="big big-ticks"
[ -n "${RESCFG_TEST_QUICK:-}" ] && bigs=big  # under the sanitizers: one of the two
for name in $bigs; do
  export_to $name.yaml $name-out.yaml
  pairs+=("$name-out.yaml=$name.yaml")
done
[ "$(grep -c '^kind: LocalQueue' big-out.yaml)" -ge 1500 ] || fail "1000 policies gave too few LocalQueues"

# Every configuration under testdata/ that validates (a third of them under
# the sanitizers).
n=0
while IFS= read -r config; do
  "$RESCFG" validate -q "$config" > /dev/null 2>&1 || continue
  n=$((n + 1))
  out=testdata-$n.yaml
  "$RESCFG" export kueue --config "$config" -o "$out" 2> err.txt
  code=$?
  if [ "$code" = 2 ]; then
    # Only what Kueue cannot hold at all, and then nothing is written.
    grep -q ': kueue-' err.txt || { fail "$config: exit 2 without a kueue- error"; cat err.txt >&2; }
    [ -e "$out" ] && fail "$config: exit 2 but $out was written"
    continue
  fi
  [ "$code" = 1 ] || [ "$code" = 0 ] || { fail "$config: export exited $code"; continue; }
  pairs+=("$out=$config")
done < <(grep -rl --include='*.yaml' '^kind: ResourceConfiguration' "$SRC/testdata" | sort | quick_sample 3)
least=40
[ -n "${RESCFG_TEST_QUICK:-}" ] && least=12
[ "$n" -ge "$least" ] || fail "only $n configurations under testdata validate"

$check "${pairs[@]}" > check.txt 2> check-err.txt || { fail "CRD validation"; head -40 check-err.txt >&2; }
[ "$(wc -l < check.txt)" -eq "${#pairs[@]}" ] || fail "not every export was checked: $(wc -l < check.txt) of ${#pairs[@]}"
contains check.txt "big-out.yaml: 70"

# The checker catches what Kueue would refuse.
broken() {  # broken NAME SED-SCRIPT TEXT: the edited worked example fails with TEXT
  sed "$2" worked.yaml > "$1.yaml"
  if $check "$1.yaml=$EXAMPLE" > /dev/null 2> "$1.err"; then
    fail "the checker accepts $1"
  else
    contains "$1.err" "$3"
  fi
}
broken schema 's/queueingStrategy: BestEffortFIFO/queueingStrategy: Strict/' "is not one of"
broken cel-taint '0,/^    "rescfg.io\/pool": "bare-metal-low-end-gpus"$/s//&\n  nodeTaints: [{key: a, effect: Never}]/' "breaks CEL rule"
broken cel-borrowing '0,/^  cohortName: dev$/s//  namespaceSelector: {}/; s/{name: "nvidia.com\/gpu", nominalQuota: 0}/{name: "nvidia.com\/gpu", nominalQuota: 0, borrowingLimit: 1}/' "borrowingLimit must be nil"
broken webhook-name "s/name: dev-4gpu$/name: $(printf 'd%.0s' {1..64})/" "not a DNS-1123 label"
broken webhook-lending 's/{name: "nvidia.com\/gpu", nominalQuota: 8}/{name: "nvidia.com\/gpu", nominalQuota: 8, lendingLimit: 9}/' "lendingLimit above nominalQuota"
broken quota-sum 's/nominalQuota: 8}/nominalQuota: 7}/' "nominal quotas add up to"
broken hold 's/stopPolicy: None/stopPolicy: Hold/' "stopPolicy Hold"
broken flavor-ref '0,/- name: bare-metal-low-end-gpus/s//- name: h100-half-a-superpod-x/' "is no ResourceFlavor"
broken link-order '/^  name: dev-4gpu$/,/^---/{s/- name: bare-metal-low-end-gpus/- name: h100-half-a-superpod/;t;s/- name: h100-half-a-superpod/- name: bare-metal-low-end-gpus/}' "ClusterQueue dev-4gpu lists"

[ "$failures" -eq 0 ] || exit 1
echo PASS
