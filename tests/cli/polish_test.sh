#!/usr/bin/env bash
# Small things a new user trips on (rescfg(1)): English ordinals and what
# the machines had in explain; a whole number's bound; explain by task name;
# graph and diff with --jobs-from-sync; plan --format markdown without the
# runner's absolute paths; a state directory only its owner reads.
# Usage: polish_test.sh BINARY SOURCE_DIR
set -u
source "$(dirname "$0")/harness.sh" "$@"
SCENARIO=$SRC/testdata/schedule/clearml-worked-example

# --- Machines: "3rd", and what one machine had ------------------------------------
cat > m.yaml <<'EOF'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - name: metal
    nodes: {count: 2, gpus: 4}
profiles:
  - {name: 1x, allotment: 1, links: [{pool: metal}]}
  - {name: 2x, allotment: 2, links: [{pool: metal}]}
  - {name: 3x, allotment: 3, links: [{pool: metal}]}
policies:
  - name: T
    profiles: [1x, 2x, 3x]
EOF
cat > mj.yaml <<'EOF'
apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: r1, policy: T, profile: 2x, state: running, pool: metal, node: n1}
  - {id: r2, policy: T, profile: 2x, state: running, pool: metal, node: n2}
  - {id: r3, policy: T, profile: 1x, state: running, pool: metal, node: n3}
  - {id: a, policy: T, profile: 1x}
  - {id: b, policy: T, profile: 3x}
EOF
expect 0 "$RESCFG" -q schedule -c m.yaml -j mj.yaml -f jsonl
contains out.txt "node 'n3' is the 3rd distinct node named in pool 'metal'"
expect 0 "$RESCFG" -q explain b -c m.yaml -j mj.yaml
contains out.txt "it needed 3 and pool metal had 3 free, at most 2 on one machine"

# --- A whole number's bound ---------------------------------------------------
sed 's/count: 2, gpus: 4/count: 1000000000000, gpus: 4/' m.yaml > big.yaml
expect 1 "$RESCFG" validate big.yaml
contains out.txt "expected a whole number from 1 to 1000000"

# --- State directory: 0700 ----------------------------------------------------
export CLEARML_API_ACCESS_KEY=k CLEARML_API_SECRET_KEY=s
expect 0 "$RESCFG" -q provision "$SCENARIO/config.yaml" --state st
[ "$(stat -c %a st)" = 700 ] || fail "state directory mode $(stat -c %a st)"
[ "$(stat -c %a st/revisions)" = 700 ] || fail "revisions directory mode $(stat -c %a st/revisions)"
expect 0 "$RESCFG" -q plan "$SCENARIO/config.yaml" --state planned -o p.plan
[ "$(stat -c %a planned)" = 700 ] || fail "plan's state directory mode $(stat -c %a planned)"

# --- A kept snapshot: graph, diff and explain by name --------------------------
mkdir -p st/sync
cp "$SCENARIO/tasks.json" "$SCENARIO/queues.json" st/sync/
echo '{"data": {"workers": []}}' > st/sync/workers.json
expect 0 "$RESCFG" -q graph --state st --jobs-from-sync
contains out.txt "used 8, 2 jobs pending"
sed 's/reserved: 8/reserved: 4/' "$SCENARIO/config.yaml" > new.yaml
expect 1 "$RESCFG" -q diff --state st new.yaml --jobs-from-sync
contains out.txt "Impact on the jobs in the last sync's snapshot:"
expect 1 "$RESCFG" -q diff --state st new.yaml --jobs-from-sync -f markdown
contains out.txt "### Impact on the jobs in the last sync's snapshot"
expect 2 "$RESCFG" -q graph --state st --jobs-from-sync -j "$SCENARIO/tasks.json"

expect 0 "$RESCFG" -q explain dev-train-3 --state st --jobs-from-sync
contains out.txt "283a69a01e29e00d8eb671e8b885e9c9: pending"
jq '.data.tasks |= map(if .name == "dev-train-4" then .name = "dev-train-3" else . end)' \
  "$SCENARIO/tasks.json" > st/sync/tasks.json
expect 2 "$RESCFG" -q explain dev-train-3 --state st --jobs-from-sync
contains err.txt "'dev-train-3' is the name of 2 tasks: 283a69a01e29e00d8eb671e8b885e9c9, 3e64d34f3b30732e9796d885ae1effe9; explain one by its id"
# An id still wins over a name.
expect 0 "$RESCFG" -q explain 283a69a01e29e00d8eb671e8b885e9c9 --state st --jobs-from-sync

# --- plan --format markdown: no absolute path of the runner ---------------------
expect 0 "$RESCFG" -q plan new.yaml --state "$PWD/st" -o "$PWD/change.plan" --format markdown
grep -qF "$PWD" out.txt && fail "the comment holds the runner's path: $(grep -F "$PWD" out.txt)"
contains out.txt 'rescfg provision --plan change.plan --state st'
outside=$(mktemp -d)
expect 0 "$RESCFG" -q plan new.yaml --state "$outside/ci-state" -o p2.plan --format markdown
grep -qF "$outside" out.txt && fail "the comment holds an absolute path outside: $(grep -F "$outside" out.txt)"
contains out.txt '--state ci-state'
rm -rf "$outside"

# --- scripts/example: a first build says how long it takes; progress on a terminal
mkdir -p ex/scripts ex/bin ex/testdata/examples
cp "$SRC/scripts/example" ex/scripts/
cp "$SRC/testdata/examples/worked-example.yaml" "$SRC/testdata/examples/worked-example-jobs.yaml" ex/testdata/examples/
printf '#!/bin/sh\necho "installing packages"\n' > ex/scripts/install-deps.sh
{
  echo '#!/bin/sh'
  echo '[ "$1" = --build ] || exit 0'
  echo 'echo "[1/113] Building CXX object"; sleep 5'
  echo 'echo "[57/113] Building CXX object"; sleep 3'
  echo "ln -sf '$RESCFG' build/rescfg"
} > ex/bin/cmake
chmod +x ex/bin/cmake
PATH="$PWD/ex/bin:$PATH" expect 0 sh ex/scripts/example
contains err.txt "a first build takes about 15 minutes on two cores"
grep -q 'compiling' err.txt && fail "progress shown when standard error is no terminal"
contains out.txt "research-1"
if command -v script > /dev/null; then
  rm ex/build/rescfg
  PATH="$PWD/ex/bin:$PATH" script -qec "sh ex/scripts/example" /dev/null > tty.txt 2>&1 < /dev/null
  contains tty.txt "compiling [1/113]"
  contains tty.txt "research-1"
fi

# --- README: contents, and the ClearML path on its first screen ----------------
head -n 60 "$SRC/README.md" > first-screen.md
contains first-screen.md "## Contents"
contains first-screen.md "rescfg sync --state"
python3 - "$SRC/README.md" <<'PY' || fail "a README contents link names no heading"
import re, sys
text = open(sys.argv[1]).read()
slugs = set()
for h in re.findall(r'^#{2,3} (.+)$', text, re.M):
    slugs.add(re.sub(r'[^a-z0-9 -]', '', h.lower()).replace(' ', '-'))
bad = [a for a in re.findall(r'\]\(#([^)]+)\)', text) if a not in slugs]
print(*bad, sep='\n')
sys.exit(1 if bad else 0)
PY

exit $((failures > 0))
