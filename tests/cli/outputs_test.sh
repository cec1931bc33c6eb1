#!/usr/bin/env bash
# What the outputs tell (issue: outputs that tell everything): queues and
# messages in the table, running jobs in yaml/json, needSource and a
# summable number in jsonl, fallback notes on assigned jobs, teams above
# their limit, running jobs without a policy, status team and pool cards.
set -u
source "$(dirname "$0")/harness.sh" "$@"

cat > config.yaml <<'Y'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: H100, resources: 8, queue: h100-pool}
profiles:
  - {name: seventh, allotment: "1/7", links: [{pool: H100, queue: h100-seventh}]}
  - name: sized
    allotment: 1
    dynamic: {parameter: runtime.gpus_request}
    links: [{pool: H100, queue: h100-sized}]
policies:
  - {name: Dev, limit: 3, profiles: [seventh, sized]}
  - {name: Ops, profiles: [seventh]}
Y
cat > jobs.jsonl <<'J'
{"id": "r1", "policy": "Dev", "profile": "sized", "state": "running", "pool": "H100", "resources": 4}
{"id": "r2", "policy": "Gone", "profile": "seventh", "state": "running", "pool": "H100"}
{"id": "s1", "policy": "Ops", "profile": "seventh"}
{"id": "s2", "policy": "Ops", "profile": "seventh"}
{"id": "s3", "policy": "Ops", "profile": "seventh"}
{"id": "s4", "policy": "Ops", "profile": "seventh"}
{"id": "s5", "policy": "Ops", "profile": "seventh"}
{"id": "s6", "policy": "Ops", "profile": "seventh"}
{"id": "f1", "policy": "Ops", "profile": "seventh", "params": {"runtime": {"gpus_request": "lots"}}}
{"id": "d1", "policy": "Dev", "profile": "sized", "params": {"runtime": {"gpus_request": "two"}}}
{"id": "bad", "policy": "Nobody", "profile": "seventh"}
J
cat > fallback.jsonl <<'J'
{"id": "f1", "policy": "Ops", "profile": "seventh"}
{"id": "d1", "policy": "Ops", "profile": "seventh"}
J

expect 1 "$RESCFG" -q schedule -c config.yaml -j jobs.jsonl -f jsonl
cp out.txt lines.jsonl
# needSource on assigned and pending jobs only (rescfg(5), SCHEDULE OUTPUT), after the listed fields.
[ "$(jq -r 'select(.job == "s1") | .needSource' lines.jsonl)" = allotment ] || fail "assigned needSource"
[ "$(jq -r 'select(.job == "d1") | [.status, .needSource] | join(" ")' lines.jsonl)" = "pending fallback" ] || fail "pending needSource"
[ "$(jq -r 'select(.job == "r1") | has("needSource")' lines.jsonl)" = false ] || fail "running has no needSource"
[ "$(jq -r 'select(.job == "bad") | has("needSource")' lines.jsonl)" = false ] || fail "rejected has no needSource"
grep '"job": "s1"' lines.jsonl | grep -q '"reason": null, "message": null, "needSource": "allotment", "resourcesNumber": ' \
  || fail "later fields come after the documented ones: $(grep '"job": "s1"' lines.jsonl)"
# A number jq can sum, with the exact form beside it: seven sevenths are one.
[ "$(jq -r 'select(.job == "s1") | [.resources, .resourcesNumber] | @json' lines.jsonl)" = '["1/7",0.142857143]' ] \
  || fail "resourcesNumber of 1/7: $(jq -c 'select(.job == "s1")' lines.jsonl)"
[ "$(jq -s 'map(select(.status == "assigned") | .resourcesNumber) | add * 1000 | round' lines.jsonl)" = 1000 ] \
  || fail "assigned sevenths do not sum to 1 in jq"
[ "$(jq -r 'select(.job == "bad") | .resourcesNumber' lines.jsonl)" = null ] || fail "rejected resourcesNumber"
# An assigned job whose dynamic value fell back to the allotment says so.
[ "$(jq -r 'select(.job == "f1") | .status' lines.jsonl)" = assigned ] || fail "f1 should be assigned"
# (f1's profile is fixed: its parameter is ignored, no note.)
[ "$(jq -r 'select(.job == "f1") | .message' lines.jsonl)" = null ] || fail "fixed profile got a note"
cat > dyn.jsonl <<'J'
{"id": "d2", "policy": "Dev", "profile": "sized", "params": {"runtime": {"gpus_request": "two"}}}
J
expect 0 "$RESCFG" -q schedule -c config.yaml -j dyn.jsonl -f jsonl
[ "$(jq -r '[.status, .needSource] | join(" ")' out.txt)" = "assigned fallback" ] || fail "d2: $(cat out.txt)"
jq -r .message out.txt | grep -q "is not a valid amount" || fail "assigned fallback message: $(cat out.txt)"
expect 0 "$RESCFG" -q schedule -c config.yaml -j dyn.jsonl -f yaml
contains out.txt 'needSource: "fallback", message: "parameter runtime.gpus_request'

# A team running above its limit, and a running job without a policy.
expect 1 "$RESCFG" -q schedule -c config.yaml -j jobs.jsonl -f json
[ "$(jq -c '.summary | [.policiesOverLimit, .runningWithoutPolicy]' out.txt)" = '[1,1]' ] || fail "summary flags: $(jq -c .summary out.txt)"
[ "$(jq -c '.policies[] | select(.name == "Dev") | [.running, .overLimit]' out.txt)" = '[4,true]' ] || fail "Dev over its limit"
[ "$(jq -r '.running[] | select(.job == "r1") | .message' out.txt)" = "policy 'Dev' runs 4, above its limit of 3" ] \
  || fail "r1 message: $(jq -c .running out.txt)"
# yaml/json list running jobs with their warnings.
[ "$(jq -c '[.running[].job]' out.txt)" = '["r1","r2"]' ] || fail "running list: $(jq -c .running out.txt)"
jq -r '.running[] | select(.job == "r2") | .message' out.txt | grep -q "no longer exists" || fail "r2 warning"
[ "$(jq -r '.running[] | select(.job == "r2") | .queue' out.txt)" = h100-seventh ] || fail "running queue is its link's"

# The table shows the queue and the message.
expect 1 "$RESCFG" -q schedule -c config.yaml -j jobs.jsonl -f table
head -1 out.txt | grep -q 'QUEUE.*RESOURCES.*REASON.*MESSAGE' || fail "table header: $(head -1 out.txt)"
grep -E '^s1 +assigned .*h100-seventh' out.txt >/dev/null || fail "table lacks the link queue"
grep -E '^bad +rejected .*unknown-policy +line 11: policy' out.txt >/dev/null || fail "table lacks the message"
contains out.txt "1 policy above its limit; 1 running without a policy"

# status: team cards, and per pool the profiles it serves with their queue.
expect 0 "$RESCFG" -q status -c config.yaml -j jobs.jsonl
grep -E '^TEAM +RESERVED +LIMIT +USED +RUNNING +ASSIGNED +PENDING +REJECTED +STATE$' out.txt >/dev/null || fail "team header"
grep -E '^Dev +0 +3 +4 +1 +0 +1 +0 +open, above its limit$' out.txt >/dev/null || fail "Dev card: $(cat out.txt)"
grep -E '^H100 +sized +runtime.gpus_request \(default 1\) +h100-sized +-$' out.txt >/dev/null || fail "pool profile row"
expect 0 "$RESCFG" -q status -c config.yaml -j jobs.jsonl -f json
[ "$(jq -c '.teams[] | select(.name == "Ops") | [.running, .assigned, .pending, .rejected]' out.txt)" = '[0,7,0,0]' ] \
  || fail "Ops card json: $(jq -c .teams out.txt)"
[ "$(jq -c '[.pools[0].profiles[] | [.profile, .allocation, .queue]]' out.txt)" = '[["seventh","1/7","h100-seventh"],["sized",1,"h100-sized"]]' ] \
  || fail "pool profiles json: $(jq -c .pools out.txt)"

[ "$failures" -eq 0 ] && echo "outputs: all passed"
exit "$failures"
