#!/usr/bin/env bash
# `rescfg graph`: a legend, one team's or one pool's view (--policy, --pool),
# usage from a jobs snapshot, and Graphviz output that dot renders without a
# warning (every edge meets a row of its node) into a picture of some size,
# for the worked example and a six-team configuration.
# Usage: graph_test.sh BINARY SOURCE_DIR
source "$(dirname "$0")/harness.sh" "$@"
SIX=$SRC/testdata/examples/six-teams.yaml
SIX_JOBS=$SRC/testdata/examples/six-teams-jobs.yaml
JOBS=$SRC/testdata/examples/worked-example-jobs.yaml

# The goldens of the worked example are current.
expect 0 "$RESCFG" graph --config "$EXAMPLE"
cmp -s out.txt "$SRC/testdata/gitops/worked-example.mmd" || fail "graph differs from testdata/gitops/worked-example.mmd"
expect 0 "$RESCFG" graph --config "$EXAMPLE" --format dot
cmp -s out.txt "$SRC/testdata/gitops/worked-example.dot" || fail "graph differs from testdata/gitops/worked-example.dot"
# The README shows the same Mermaid picture.
awk '/^### 4\. The worked example, drawn/ {on = 1} on && /^```mermaid$/ {take = 1; next} take && /^```$/ {exit} take' \
  "$SRC/README.md" > readme.mmd
cmp -s readme.mmd "$SRC/testdata/gitops/worked-example.mmd" || fail "the README's picture of the worked example is not current"

# --- The legend says what the numbers mean, in both formats -------------------
for format in mermaid dot; do
  expect 0 "$RESCFG" graph --config "$EXAMPLE" --format $format
  contains out.txt "priority N: the policy's rank in the profile's policyPriority"
  contains out.txt "execution N: the profile's rank in the pool's executionPriority"
  contains out.txt "link N: the pool's rank in the profile's links"
done
# Graphviz: every rank is a row of a node, and the edges run row to row.
expect 0 "$RESCFG" graph --config "$EXAMPLE" --format dot
contains out.txt '<TD PORT="in1" ALIGN="LEFT">priority 2: Research</TD>'
contains out.txt '<TD PORT="x1" ALIGN="LEFT">execution 2: 4xGPU, queue h100-4gpu</TD>'
contains out.txt '  policy1:q0:e -> profile2:in1:w'
contains out.txt '  profile2:l1:e -> pool1:x1:w'
grep -q -- '-> [a-z0-9]* \[label=' out.txt && fail "an edge still carries a floating label"
# Mermaid: the same facts on the edges.
expect 0 "$RESCFG" graph --config "$EXAMPLE"
contains out.txt 'policy1 -->|"priority 2, queue Research/4xGPU"| profile2'
contains out.txt 'profile2 -->|"link 2: 4 GPU H100, execution 2, queue h100-4gpu"| pool1'

# --- Usage from a jobs snapshot on the pool nodes ------------------------------
expect 0 "$RESCFG" graph --config "$EXAMPLE" --jobs "$JOBS"
contains out.txt "in use 8 / 8: 0 running, 8 assigned"
contains out.txt "used 8, 2 jobs pending"
contains out.txt "in use X / SIZE: held by running jobs plus assigned now by the pass"
expect 0 "$RESCFG" graph --config "$SIX" --jobs "$SIX_JOBS" --format dot
contains out.txt "in use 64 / 64: 24 running, 40 assigned"   # H100 Superpod
contains out.txt "in use 4.5 / 32: 2 running, 2.5 assigned"  # L40S Inference
contains out.txt "used 96, 1 job pending"                    # NLP at its limit
"$RESCFG" -q schedule --config "$SIX" --jobs "$SIX_JOBS" --format json > schedule.json
for pool in "H100 Superpod" "A100 Cluster" "L40S Inference" "Bare Metal" Spot; do
  want=$(jq -r --arg p "$pool" '.pools[] | select(.name == $p) | "in use \(.inUse) / \(.size):"' schedule.json)
  contains out.txt "$want"
done
# JSON Lines and standard input, as for schedule.
python3 -c 'import json, sys, yaml
for job in yaml.safe_load(open(sys.argv[1]))["jobs"]: print(json.dumps(job, default=lambda t: t.isoformat().replace("+00:00", "Z")))' \
  "$SIX_JOBS" > six-jobs.jsonl
expect 0 "$RESCFG" graph --config "$SIX" --jobs six-jobs.jsonl --format dot
contains out.txt "in use 64 / 64: 24 running, 40 assigned"
expect 0 "$RESCFG" graph --config "$SIX" --jobs - --jobs-format jsonl < six-jobs.jsonl
contains out.txt "in use 64 / 64: 24 running, 40 assigned"
# A jobs file that is unusable makes the graph unusable.
printf 'jobs: [\n' > bad-jobs.yaml
expect 2 "$RESCFG" graph --config "$SIX" --jobs bad-jobs.yaml -o graph.mmd
[ -e graph.mmd ] && fail "graph wrote -o for an unusable jobs file"

# --- One team's view, one pool's view -----------------------------------------
nodes() { grep -oE '^ +(policy|profile|pool)[0-9]+(\{\{|\[)' out.txt | tr -d ' {[' | sort | tr '\n' ' '; }
expect 0 "$RESCFG" graph --config "$SIX" --policy Vision
# Vision (policy0) uses 4xGPU, 8xGPU, 1xGPU (profiles 1, 3, 4); they link A100,
# H100, L40S and Bare Metal (pools 0-3), not Spot.
[ "$(nodes)" = "policy0 pool0 pool1 pool2 pool3 profile1 profile3 profile4 " ] || fail "--policy Vision draws: $(nodes)"
contains out.txt "only policy Vision, and what connects it"
# The full priority list stays in the profile: the team sees who goes first.
contains out.txt "policy priority: 1. NLP, 2. Vision"
expect 0 "$RESCFG" graph --config "$SIX" --pool Spot
[ "$(nodes)" = "policy3 policy5 pool4 profile5 " ] || fail "--pool Spot draws: $(nodes)"
# Repeated: any of them; both kinds: what connects a listed policy to a listed pool.
expect 0 "$RESCFG" graph --config "$SIX" --policy Vision --policy NLP --pool "A100 Cluster"
[ "$(nodes)" = "policy0 policy1 pool1 profile3 profile4 " ] || fail "--policy Vision --policy NLP --pool 'A100 Cluster' draws: $(nodes)"
contains out.txt "only policies Vision and NLP on pool A100 Cluster, and what connects them"
expect 0 "$RESCFG" graph --config "$SIX" --policy Interns --pool "H100 Superpod"
[ "$(nodes)" = "policy5 pool0 " ] || fail "a policy that reaches no listed pool: $(nodes)"
grep -q -- '-->' out.txt && fail "edges drawn between a policy and a pool it does not reach"
# Names that do not exist are refused, with a did-you-mean.
expect 2 "$RESCFG" graph --config "$SIX" --policy Vison
contains err.txt "rescfg: error: there is no policy named 'Vison' (did you mean 'Vision'?)"
expect 2 "$RESCFG" graph --config "$SIX" --pool "H100"
contains err.txt "rescfg: error: there is no pool named 'H100'"
expect 2 "$RESCFG" graph --config "$SIX" --policy Vision NLP
contains err.txt "rescfg: error: "

# --- Graphviz renders every view, without a warning, into a real picture -----
if command -v dot > /dev/null; then
  # png_size FILE: "WIDTH HEIGHT" from the PNG header.
  png_size() { python3 -c 'import struct, sys
data = open(sys.argv[1], "rb").read(24)
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
print(*struct.unpack(">II", data[16:24]))' "$1"; }
  render() {  # render NAME MIN_WIDTH MIN_HEIGHT ARGS...
    local name=$1 width=$2 height=$3; shift 3
    "$RESCFG" graph --format dot "$@" > "$name.dot" || { fail "graph $*"; return; }
    dot -Tpng "$name.dot" -o "$name.png" 2> "$name.err" || fail "dot cannot render $name: $(cat "$name.err")"
    [ -s "$name.err" ] && fail "dot warned on $name: $(cat "$name.err")"
    local size; size=$(png_size "$name.png") || { fail "$name.png is not a PNG"; return; }
    read -r w h <<< "$size"
    [ "$w" -ge "$width" ] && [ "$h" -ge "$height" ] || fail "$name.png is only ${w}x$h"
    [ "$(stat -c %s "$name.png")" -ge 20000 ] || fail "$name.png is only $(stat -c %s "$name.png") bytes"
  }
  render worked-example 800 500 --config "$EXAMPLE"
  render worked-example-jobs 800 500 --config "$EXAMPLE" --jobs "$JOBS"
  render six-teams 900 1200 --config "$SIX"
  render six-teams-jobs 900 1200 --config "$SIX" --jobs "$SIX_JOBS"
  render six-teams-vision 700 500 --config "$SIX" --policy Vision --jobs "$SIX_JOBS"
  render six-teams-l40s 700 500 --config "$SIX" --pool "L40S Inference" --pool Spot
  # Paused pools and teams, and a disabled configuration, render too.
  sed -e 's/^    queue: spot$/    queue: spot\n    paused: true/' \
      -e 's/^  - name: Interns$/  - name: Interns\n    paused: true/' \
      -e 's/^kind: ResourceConfiguration$/kind: ResourceConfiguration\nenabled: false/' "$SIX" > paused.yaml
  expect 0 "$RESCFG" validate --strict paused.yaml
  render paused 900 1200 --config paused.yaml --jobs "$SIX_JOBS"
  contains paused.dot "paused: drained, nothing new starts"
  contains paused.dot "paused: frozen, none of its jobs starts"
  contains paused.dot "resource management is disabled"
  # SVG for a web page works the same way.
  "$RESCFG" graph --config "$SIX" --format dot | dot -Tsvg > six.svg || fail "dot -Tsvg"
  grep -q '<svg' six.svg || fail "no SVG"
  # Keep the pictures for a look when RESCFG_GRAPH_PICTURES names a directory.
  if [ -n "${RESCFG_GRAPH_PICTURES:-}" ]; then mkdir -p "$RESCFG_GRAPH_PICTURES" && cp ./*.png "$RESCFG_GRAPH_PICTURES"/; fi
else
  echo "graphviz (dot) not installed: rendering checks skipped"
fi

[ "$failures" -eq 0 ] || exit 1
echo PASS
