#!/usr/bin/env bash
# rescfg plan and provision --plan (rescfg(1), COMMANDS): the plan applies exactly what
# was reviewed, onto the revision it was made against only; damaged and
# foreign plans are unusable. And reset: the source text as provisioned,
# or with --canonical its canonical form; states of earlier versions.
set -u
source "$(dirname "$0")/harness.sh" "$@"

printf '# Our cluster, by hand.\n' > a.yaml && cat "$EXAMPLE" >> a.yaml
sed 's/resources: 8$/resources: 16/' a.yaml > b.yaml
sed 's/resources: 8$/resources: 24/' a.yaml > c.yaml
current() { "$RESCFG" history --state "$1" --format json 2>/dev/null | jq -r .current; }

# A plan against a state directory that does not exist yet: base 0; the
# directory is created (one level) to hold the key that signs plans, and
# nothing is provisioned in it.
expect 0 "$RESCFG" plan a.yaml --state st -o a.plan -m "first"
[ -f st/plan-key ] || fail "plan made no plan key"
[ "$(stat -c %a st/plan-key)" = 600 ] || fail "the plan key is not mode 0600: $(stat -c %a st/plan-key)"
[ -e st/history.jsonl ] && fail "plan provisioned something"
contains out.txt "9 changes: 9 added"
contains out.txt "Plan: revision 1 onto revision 0 of st"
contains out.txt "rescfg provision --plan a.plan --state st"
[ "$(jq -c '[.kind, .apiVersion, .base.revision, .base.sha256, .revision, .upToDate, .changes]' a.plan)" = \
  '["Plan","rescfg/v1",0,null,1,false,9]' ] || fail "plan fields: $(jq -c . a.plan | head -c 300)"
[ "$(jq -r .config.source a.plan)" = "$(cat a.yaml)" ] || fail "the plan does not carry the source text"
"$RESCFG" fmt a.yaml > a.canonical
jq -j .config.canonical a.plan | cmp -s - a.canonical || fail "the plan does not carry the canonical form"
[ "$(jq -r .config.sha256 a.plan)" = "$(sha256sum < a.canonical | cut -d' ' -f1)" ] || fail "plan config sha256"
[ "$(jq -r .signature a.plan)" = "$(head -n -2 a.plan | openssl dgst -sha256 -hmac "$(cat st/plan-key)" -r | cut -d' ' -f1)" ] \
  || fail "the signature is not the HMAC-SHA256 of head -n -2 under st/plan-key"
jq -e '.diff | length == 9 and .[0].op == "added"' a.plan >/dev/null || fail "plan diff"
# Applying it: exactly that, and the message it carries.
expect 0 "$RESCFG" provision --plan a.plan --state st
contains out.txt "Provisioned revision 1 (9 changes)"
[ "$(current st)" = 1 ] || fail "apply did not provision revision 1"
cmp -s st/revisions/000001.source.yaml a.yaml || fail "the applied source differs"
cmp -s st/revisions/000001.yaml a.canonical || fail "the applied canonical form differs"
[ "$("$RESCFG" history --state st --format json | jq -r '.revisions[0].message')" = first ] || fail "plan message"
# Applied twice: the state is no longer at the plan's base (rescfg(1), COMMANDS), and
# the message says it is this plan that moved it.
expect 1 "$RESCFG" provision --plan a.plan --state st
contains err.txt "not provisioned: the plan is already applied"
[ "$(current st)" = 1 ] || fail "a second apply made a revision"

# The race the plan guards against: someone provisions between plan and apply.
expect 0 "$RESCFG" plan b.yaml --state st -o b.plan
jq -e '.base.revision == 1 and (.base.sha256 | length) == 64 and .revision == 2' b.plan >/dev/null || fail "b.plan base"
expect 0 "$RESCFG" provision c.yaml --state st -m "someone else"
cp -a st before
expect 1 "$RESCFG" provision --plan b.plan --state st
contains err.txt "not provisioned"
contains err.txt "the plan was made against revision 1"
diff -r st before >/dev/null || fail "a refused plan touched the state"
expect 1 "$RESCFG" provision --plan b.plan --state st --dry-run
# Another state directory cannot verify the plan: its key is not the one
# that signed it (exit 2).
rm -rf other && "$RESCFG" -q provision c.yaml --state other > /dev/null
expect 2 "$RESCFG" provision --plan b.plan --state other
contains err.txt "has no plan key"
# The state rebuilt (its key kept) at the same revision number but with
# other content is no base either (exit 1).
rm -rf rebuilt && mkdir rebuilt && cp st/plan-key rebuilt/ && "$RESCFG" -q provision c.yaml --state rebuilt > /dev/null
expect 1 "$RESCFG" provision --plan b.plan --state rebuilt
contains err.txt "not the one the plan was made against"
# A plan onto a state that does not exist.
expect 2 "$RESCFG" provision --plan b.plan --state nowhere
[ -e nowhere ] && fail "a refused plan created a state directory"

# --expect-revision, --dry-run, -m and --strict with a plan.
expect 0 "$RESCFG" plan b.yaml --state st -o b2.plan -m "from the plan"
expect 1 "$RESCFG" provision --plan b2.plan --state st --expect-revision 1
expect 0 "$RESCFG" provision --plan b2.plan --state st --dry-run
contains out.txt "Dry run: would provision revision 3"
[ "$(current st)" = 2 ] || fail "a dry run provisioned"
expect 0 "$RESCFG" provision --plan b2.plan --state st --expect-revision 2 -m "merge #7"
[ "$("$RESCFG" history --state st --format json | jq -r '.revisions[2].message')" = "merge #7" ] || fail "-m with --plan"
# A configuration with one warning: a pool that no profile links.
sed 's/^pools:$/pools:\n  - {name: lonely, resources: 2}/' a.yaml > warn.yaml
expect 1 "$RESCFG" plan warn.yaml --state st -o warn.plan --strict
[ -e warn.plan ] && fail "plan --strict wrote a plan with warnings"
expect 0 "$RESCFG" plan warn.yaml --state st -o warn.plan
expect 1 "$RESCFG" provision --plan warn.plan --state st --strict
contains err.txt "--strict"
[ "$(current st)" = 3 ] || fail "provision --plan --strict provisioned"

# A plan that changes nothing: applying it changes nothing.
expect 0 "$RESCFG" plan b.yaml --state st -o same.plan
contains out.txt "up to date"
jq -e '.upToDate and .revision == 3 and .changes == 0' same.plan >/dev/null || fail "up-to-date plan"
expect 0 "$RESCFG" provision --plan same.plan --state st
contains out.txt "up to date"
[ "$(current st)" = 3 ] || fail "an up-to-date plan made a revision"

# Damaged, edited and foreign plans are unusable (exit 2), the state untouched.
cp -a st before3
unusable() {  # unusable NAME: provision --plan NAME refuses with exit 2
  expect 2 "$RESCFG" provision --plan "$1" --state st
  contains err.txt "unusable plan"
}
expect 0 "$RESCFG" plan c.yaml --state st -o c.plan
sed 's/"resources: 24/"resources: 32/; s/resources: 24/resources: 32/' c.plan > edited.plan
cmp -s c.plan edited.plan && fail "edited.plan was not edited"
unusable edited.plan
contains err.txt "signature"
head -c 200 c.plan > cut.plan && unusable cut.plan
: > empty.plan && unusable empty.plan
echo '{"kind": "Schedule", "apiVersion": "rescfg/v1"}' > foreign.plan && unusable foreign.plan
contains err.txt "not a rescfg plan"
sed 's#"apiVersion": "rescfg/v1"#"apiVersion": "rescfg/v2"#' c.plan > v2.plan && unusable v2.plan
cp a.yaml yaml.plan && unusable yaml.plan
expect 2 "$RESCFG" provision --plan no-such.plan --state st
diff -r st before3 >/dev/null || fail "an unusable plan touched the state"
expect 2 "$RESCFG" provision c.yaml --plan c.plan --state st
expect 2 "$RESCFG" provision --state st
# A plan whose configuration this rescfg no longer accepts is refused (exit 1).
python3 - c.plan bad-config.plan <<'P'
import hashlib, hmac, json, sys
text = open(sys.argv[1]).read()
plan = json.loads(text)
plan["config"]["source"] = plan["config"]["source"].replace("resources: 24", "resources: -1")
plan["config"]["sourceSha256"] = hashlib.sha256(plan["config"]["source"].encode()).hexdigest()
del plan["signature"]
body = json.dumps(plan, indent=2, ensure_ascii=False)[:-2] + ",\n"
key = open("st/plan-key").read().strip().encode()
open(sys.argv[2], "w").write(body + '  "signature": "' + hmac.new(key, body.encode(), "sha256").hexdigest() + '"\n}\n')
P
expect 1 "$RESCFG" provision --plan bad-config.plan --state st
contains err.txt "not valid under this version"
diff -r st before3 >/dev/null || fail "a refused plan touched the state"

# plan -o - writes the plan to standard output; the state is verified whole.
expect 0 "$RESCFG" plan c.yaml --state st -o -
jq -e '.kind == "Plan"' out.txt >/dev/null || fail "plan -o - is not the plan"
expect 2 "$RESCFG" plan c.yaml --state st
sed -i 's/queue: "h100-pool"/queue: "h100"/' before3/revisions/000001.yaml
expect 2 "$RESCFG" plan c.yaml --state before3 -o x.plan
contains err.txt "000001.yaml does not match"
[ -e x.plan ] && fail "plan wrote a plan from a damaged state"

# reset: the source text as provisioned, byte for byte; --canonical.
expect 0 "$RESCFG" reset --state st -r 1
cmp -s out.txt a.yaml || fail "reset does not give back the source text"
[ "$(sha256sum < out.txt | cut -d' ' -f1)" = "$("$RESCFG" history --state st --format json | jq -r '.revisions[0].sourceSha256')" ] \
  || fail "reset output is not the recorded sourceSha256"
expect 0 "$RESCFG" reset --state st -r 1 --canonical
cmp -s out.txt a.canonical || fail "reset --canonical"
# The rollback of issue 12: the source keeps priority lists defaulted, so a
# profile added after a rollback needs no other edit.
add_profile() {  # add_profile FILE: a new profile on the pool without an executionPriority
  python3 - "$1" <<'P'
import sys, yaml
path = sys.argv[1]
doc = yaml.safe_load(open(path))
doc["profiles"].append({"name": "1xGPU", "allotment": 1, "links": [{"pool": "Bare Metal Low END GPUs", "queue": "bare-1gpu"}]})
doc["policies"][2]["profiles"].append("1xGPU")
yaml.safe_dump(doc, open(path, "w"), sort_keys=False)
P
}
expect 0 "$RESCFG" reset --state st -r 1 -o rollback.yaml
add_profile rollback.yaml
expect 0 "$RESCFG" validate rollback.yaml
expect 0 "$RESCFG" reset --state st -r 1 --canonical -o pinned.yaml
add_profile pinned.yaml
expect 1 "$RESCFG" validate pinned.yaml   # the canonical form pins executionPriority
contains out.txt "priority-mismatch"

# A state written by an earlier rescfg (canonical text only) keeps working.
rm -rf old && mkdir -p old/revisions
for r in 1 2; do
  "$RESCFG" fmt $([ $r = 1 ] && echo a.yaml || echo b.yaml) > old/revisions/00000$r.yaml
  sha=$(sha256sum < old/revisions/00000$r.yaml | cut -d' ' -f1)
  printf '{"revision":%s,"sha256":"%s","time":"2026-01-01T00:00:00Z","user":"old","message":"","changes":1}\n' $r "$sha" >> old/history.jsonl
done
cp old/revisions/000002.yaml old/config.yaml
expect 0 "$RESCFG" history --state old --format json
jq -e '[.revisions[].sourceSha256] == [null, null]' out.txt >/dev/null || fail "old history json: $(cat out.txt)"
expect 0 "$RESCFG" reset --state old
cmp -s out.txt old/revisions/000002.yaml || fail "reset of an old revision"
contains err.txt "earlier version of rescfg"
expect 0 "$RESCFG" provision c.yaml --state old
expect 0 "$RESCFG" reset --state old
cmp -s out.txt c.yaml || fail "a new revision on an old state keeps its source"
expect 0 "$RESCFG" plan a.yaml --state old -o old.plan
expect 0 "$RESCFG" provision --plan old.plan --state old
[ "$(current old)" = 4 ] || fail "plan and apply on an old state"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "plan, apply and reset: all passed"
