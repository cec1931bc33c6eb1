#!/usr/bin/env bash
# Hostile input, second round: out of memory is an error (exit 2), never an
# abort; no output lands in a state directory; an edited plan is never
# applied; and the smaller findings (too-large, CR line endings, empty
# traces, plans for a state without a parent).
set -u
source "$(dirname "$0")/harness.sh" "$@"
JOBS=$SRC/testdata/examples/worked-example-jobs.yaml
TRACE=$SRC/testdata/simulate/worked-example-trace.jsonl
SCENARIO=$SRC/testdata/schedule/clearml-worked-example

# --- Out of memory: a clear error and exit 2, under ulimit -v -------------
# (skipped under AddressSanitizer, whose shadow memory alone is past any
# such limit; the plain run of the suite holds these checks)
if grep -qa -e __asan_init -e __tsan_init "$RESCFG"; then
  echo "out of memory under ulimit -v: skipped (sanitized binary)"
else
# /dev/zero as an input grows its buffer up to the limit of that input;
# under 200 MB of address space the 4 GiB limit of jobs cannot be reached.
limited() {  # limited KB CODE CMD...: CMD under ulimit -v KB must exit CODE
  local kb=$1 want=$2; shift 2
  (ulimit -v "$kb"; exec "$@") >out.txt 2>err.txt
  local got=$?
  [ "$got" = "$want" ] || { fail "exit $got, expected $want under ulimit -v $kb: $*"; sed 's/^/  stderr: /' err.txt >&2; }
}
for args in "schedule -c $EXAMPLE -j /dev/zero" "status -c $EXAMPLE -j /dev/zero" \
            "explain dev-1 -c $EXAMPLE -j /dev/zero" "graph -c $EXAMPLE -j /dev/zero" \
            "simulate -c $EXAMPLE --trace /dev/zero"; do
  # shellcheck disable=SC2086
  limited 200000 2 "$RESCFG" $args -o out.file
  contains err.txt "out of memory"
  [ -e out.file ] && fail "$args: -o written although out of memory"
done
# The companions have limits of their own: queues 1 GiB (out of memory
# here), workers 256 MiB (too large, read in chunks within the limit).
limited 600000 2 "$RESCFG" schedule -c "$SCENARIO/config.yaml" -j "$SCENARIO/tasks.json" --jobs-format clearml \
  --clearml-queues /dev/zero
contains err.txt "out of memory"
limited 600000 2 "$RESCFG" schedule -c "$SCENARIO/config.yaml" -j "$SCENARIO/tasks.json" --jobs-format clearml \
  --clearml-queues "$SCENARIO/queues.json" --clearml-workers /dev/zero
contains err.txt "too-large"
contains err.txt "RESCFG_MAX_WORKERS_BYTES"
fi
# Over its limit an input is too-large, not unreadable.
RESCFG_MAX_JOBS_BYTES=100000 expect 2 "$RESCFG" schedule -c "$EXAMPLE" -j /dev/zero
contains err.txt "too-large"
RESCFG_MAX_JOBS_BYTES=100 expect 2 "$RESCFG" simulate -c "$EXAMPLE" --trace "$TRACE"
contains err.txt "too-large"
RESCFG_MAX_QUEUES_BYTES=100 expect 2 "$RESCFG" schedule -c "$SCENARIO/config.yaml" -j "$SCENARIO/tasks.json" \
  --jobs-format clearml --clearml-queues "$SCENARIO/queues.json"
contains err.txt "too-large"
RESCFG_MAX_CONFIG_BYTES=100 expect 2 "$RESCFG" validate "$EXAMPLE"
contains out.txt "too-large"

# --- No output into a state directory --------------------------------------
expect 0 "$RESCFG" provision "$EXAMPLE" --state st
cp -a st st.before
unchanged() { diff -r st st.before >/dev/null || fail "$1 changed the state"; }
expect 2 "$RESCFG" schedule --state st -j "$JOBS" -o st/history.jsonl
contains err.txt "inside the state directory"
unchanged "schedule -o st/history.jsonl"
expect 2 "$RESCFG" reset --state st -o st/revisions/000001.yaml
unchanged "reset -o st/revisions/000001.yaml"
expect 2 "$RESCFG" reset --state st -o st/new-file.yaml
unchanged "reset -o st/new-file.yaml"
expect 2 "$RESCFG" status --state st -o ./st/../st/config.yaml
unchanged "status -o st/../st/config.yaml"
ln -s st/config.yaml link.yaml
expect 2 "$RESCFG" reset --state st -o link.yaml
unchanged "reset -o a link into the state"
ln -s st/revisions revs
expect 2 "$RESCFG" export kueue --state st -o revs/x.yaml
unchanged "export -o through a linked directory"
# Another state directory than the one read is refused too.
expect 0 "$RESCFG" provision "$EXAMPLE" --state other
expect 2 "$RESCFG" schedule --state st -j "$JOBS" -o other/history.jsonl
expect 0 "$RESCFG" history --state other
# Beside the state (not in it) is fine.
expect 0 "$RESCFG" reset --state st -o st.yaml
# --plot neither the output nor an input.
expect 2 "$RESCFG" simulate -c "$EXAMPLE" --trace "$TRACE" -o same.svg --plot same.svg
contains err.txt "same file as -o"
[ -e same.svg ] && fail "simulate wrote the plot over -o"
cp "$TRACE" trace.jsonl
expect 2 "$RESCFG" simulate -c "$EXAMPLE" --trace trace.jsonl --plot ./trace.jsonl
cmp -s trace.jsonl "$TRACE" || fail "--plot overwrote the trace"
cp "$EXAMPLE" config.yaml
expect 2 "$RESCFG" simulate -c config.yaml --trace "$TRACE" --plot config.yaml
cmp -s config.yaml "$EXAMPLE" || fail "--plot overwrote the configuration"
# fmt -w: regular files only, and none in a state directory.
mkfifo pipe.yaml
expect 2 timeout 10 "$RESCFG" fmt -w pipe.yaml
[ -p pipe.yaml ] || fail "fmt -w replaced a FIFO with a regular file"
contains err.txt "a FIFO"
expect 2 "$RESCFG" fmt -w /dev/null
expect 2 "$RESCFG" fmt -w st/config.yaml
unchanged "fmt -w st/config.yaml"

# --- Edited plans are never applied ----------------------------------------
sed 's/resources: 8$/resources: 16/' "$EXAMPLE" > b.yaml
expect 0 "$RESCFG" plan b.yaml --state st -o b.plan
contains out.txt "8 -> 16"
rm -rf st.before && cp -a st st.before
# forge IN OUT MODE KEY: MODE "99" carries a configuration of 99 under the
# reviewed diff (8 -> 16); "nothing" rewrites the diff, the count and the
# revision to "nothing to do". KEY "sha256" closes the file with a plain
# sha256 as the old checksum did, "key" signs it with the state's key.
forge() {
  python3 - "$@" <<'P'
import hashlib, hmac, json, sys
src, out, mode, key = sys.argv[1:]
plan = json.loads(open(src).read())
del plan["signature"]
if mode == "99":
    for form in ("source", "canonical"):
        assert "resources: 16" in plan["config"][form], form
        plan["config"][form] = plan["config"][form].replace("resources: 16", "resources: 99")
    plan["config"]["sha256"] = hashlib.sha256(plan["config"]["canonical"].encode()).hexdigest()
    plan["config"]["sourceSha256"] = hashlib.sha256(plan["config"]["source"].encode()).hexdigest()
else:
    plan.update(diff=[], diffText="No changes.\n", changes=0, revision=plan["base"]["revision"], upToDate=True)
body = json.dumps(plan, indent=2, ensure_ascii=False)[:-2] + ",\n"
secret = open("st/plan-key").read().strip().encode()
digest = hmac.new(secret, body.encode(), "sha256").hexdigest() if key == "key" else hashlib.sha256(body.encode()).hexdigest()
open(out, "w").write(body + '  "signature": "' + digest + '"\n}\n')
P
}
for mode in 99 nothing; do
  forge b.plan "forged-$mode.plan" "$mode" sha256
  expect 2 "$RESCFG" provision --plan "forged-$mode.plan" --state st
  contains err.txt "signature does not match"
  unchanged "a forged plan ($mode)"
  # Signed by someone holding the key: the recomputed diff still refuses it.
  forge b.plan "signed-$mode.plan" "$mode" key
  expect 2 "$RESCFG" provision --plan "signed-$mode.plan" --state st
  contains err.txt "the plan was edited"
  unchanged "a signed edited plan ($mode)"
done
# A plan made against another state directory is not applied.
expect 0 "$RESCFG" plan "$EXAMPLE" --state other -o other.plan
expect 2 "$RESCFG" provision --plan b.plan --state other
contains err.txt "signature does not match"
# The genuine plan applies.
expect 0 "$RESCFG" provision --plan b.plan --state st
contains out.txt "Provisioned revision 2"
# A state without a plan key has seen no plan: nothing to verify against.
expect 0 "$RESCFG" provision "$EXAMPLE" --state fresh
expect 2 "$RESCFG" provision --plan b.plan --state fresh
contains err.txt "has no plan key"

# --- Small ones -------------------------------------------------------------
# A plan for a state directory whose parent does not exist: refused now.
expect 2 "$RESCFG" plan "$EXAMPLE" --state no/such/state -o x.plan
contains err.txt "neither does its parent"
[ -e x.plan ] && fail "a plan was written for a state that provision could not create"
[ -e no ] && fail "plan created the parent"
# --trace /dev/null is an empty trace, as an empty .jsonl is.
: > empty.jsonl
expect 0 "$RESCFG" simulate -c "$EXAMPLE" --trace empty.jsonl -f jsonl
cp out.txt empty.out
expect 0 "$RESCFG" simulate -c "$EXAMPLE" --trace /dev/null -f jsonl
cmp -s out.txt empty.out || fail "--trace /dev/null differs from an empty .jsonl"
expect 0 "$RESCFG" schedule -c "$EXAMPLE" -j /dev/null -f jsonl
# CR-only line endings are line endings.
tr '\n' '\r' < "$TRACE" > cr.jsonl
expect 0 "$RESCFG" simulate -c "$EXAMPLE" --trace "$TRACE" -f jsonl
cp out.txt lf.out
expect 0 "$RESCFG" simulate -c "$EXAMPLE" --trace cr.jsonl -f jsonl
cmp -s out.txt lf.out || fail "a trace with CR line endings reads differently"
# A syntax error names its column.
printf '{"id": "a", "policy": "Dev", "profile": "4xGPU"}\n{"id": "b", "policy": Dev}\n' > bad.jsonl
expect 1 "$RESCFG" schedule -c "$EXAMPLE" -j bad.jsonl -f jsonl
contains out.txt "line 2, column "
# simulate: times outside the years 0000-9999 are invalid jobs.
printf '%s\n' '{"id": "early", "policy": "Dev", "profile": "4xGPU", "submitted": "0000-01-01T00:00:00+01:00", "duration": 1}' \
  '{"id": "late", "policy": "Dev", "profile": "4xGPU", "submitted": "9999-12-31T23:30:00-01:00", "duration": 1}' \
  '{"id": "ok", "policy": "Dev", "profile": "4xGPU", "submitted": "2026-01-01T00:00:00Z", "duration": 1}' > years.jsonl
expect 1 "$RESCFG" simulate -c "$EXAMPLE" --trace years.jsonl -f jsonl
[ "$(jq -r 'select(.status == "rejected") | .job + " " + .reason' out.txt | tr '\n' ' ')" = "early invalid-job late invalid-job " ] \
  || fail "times outside 0000-9999: $(cat out.txt)"
grep -qE '"(00-|-0|10000-)' out.txt && fail "a year outside 0000-9999 was printed: $(cat out.txt)"

# Helm values: a queue name whose quoted form is over the 1024 characters
# of an implicit YAML key is written as an explicit key, and parses.
python3 - <<'P'
import json
quotes = '"q' * 500                      # 1000 bytes; quoted, over 1024
plain = 'queue-' + 'x' * 1500            # plain, over 1024 (with a higher name limit)
for name, path in ((quotes, "long-quoted.yaml"), (plain, "long-plain.yaml")):
    open(path, "w").write("apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools:\n"
        "  - {name: g, resources: 8, queue: " + json.dumps(name) + "}\n"
        "profiles:\n  - {name: p, allotment: 1, links: [{pool: g, queue: " + json.dumps(name + "-p") + "}]}\n"
        "policies:\n  - {name: t, profiles: [p]}\n")
P
check_values() {  # check_values FILE: the Helm values of FILE parse and hold its long queue name
  python3 - "$1" <<'P'
import sys, yaml
text = open(sys.argv[1]).read()
docs = [d for d in yaml.safe_load_all(text) if d]
queues = docs[0]["agentk8sglue"]["queues"]
assert any(len(k) > 1000 for k in queues), list(queues)
P
}
for config in long-quoted.yaml long-plain.yaml; do
  RESCFG_MAX_NAME_LENGTH=4000 "$RESCFG" export clearml-agent -c "$config" -o "values-$config" 2>err.txt
  [ -s "values-$config" ] || { fail "no values for $config"; cat err.txt >&2; }
  check_values "values-$config" || fail "the Helm values of $config are not YAML: $(head -c 300 "values-$config")"
done
# Mermaid: a directive in a name never reaches the diagram text.
cp "$SRC/fuzz/corpus/config/mermaid-directive.yaml" mermaid.yaml
expect 0 "$RESCFG" graph -c mermaid.yaml
grep -q '%' out.txt && fail "a % of a name reached the Mermaid text: $(grep '%' out.txt | head -3)"
contains out.txt "#37;#37;{init"
# explain: a ClearML task placed first by its queue's entries names that listing.
expect 0 "$RESCFG" explain "$(jq -r '.data.tasks[] | select(.status == "queued") | .id' "$SCENARIO/tasks.json" | tail -1)" \
  -c "$SCENARIO/config.yaml" -j "$SCENARIO/tasks.json" --jobs-format clearml --clearml-queues "$SCENARIO/queues.json" -f json
jq -e '[.pools[].ahead[] | select(.rule == "queue-order") | .detail] | length > 0 and
        all(contains("in the entries of ClearML queue"))' out.txt >/dev/null \
  || fail "explain does not name the queue listing: $(jq -c '[.pools[].ahead[] | {rule, detail}]' out.txt)"

[ "$failures" -eq 0 ] && echo "hostile round 2: all passed"
exit "$failures"
