#!/usr/bin/env bash
# A team renamed between two cycles of `rescfg sync` while its tasks run and
# wait (rescfg(5), RENAMES): Dev becomes Platform with renamedFrom, so its
# default queues Dev/2xGPU and Dev/4xGPU become Platform/2xGPU and
# Platform/4xGPU. Its running tasks keep counting (against Platform), its
# waiting tasks are moved out of the old queues as out of the new ones, no
# task is lost, doubled or uncounted, and the metrics name Platform only.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

team() {  # team NAME [RENAMED_FROM]: the configuration with the team so named
  cat <<EOC
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: Metal, resources: 8, queue: metal}
  - {name: K8s, resources: 8, queue: k8s}
profiles:
  - {name: 2xGPU, allotment: 2, links: [{pool: Metal, queue: metal-2gpu}, {pool: K8s, queue: k8s-2gpu}]}
  - {name: 4xGPU, allotment: 4, links: [{pool: K8s, queue: k8s-4gpu}, {pool: Metal, queue: metal-4gpu}]}
policies:
  - {name: $1,${2:+ renamedFrom: $2,} reserved: 4, limit: 8, profiles: [2xGPU, 4xGPU]}
  - name: Research
    reserved: 4
    limit: 12
    profiles:
      - {profile: 2xGPU, queue: research-2gpu}
      - {profile: 4xGPU, queue: research-4gpu}
EOC
}
team Dev > dev.yaml
team Platform Dev > platform.yaml
STATE_DIR=rs
"$RESCFG" -q provision dev.yaml --state rs -m "Dev" >/dev/null 2>&1 || fail "dev.yaml does not provision"
# One team whatever its name: both the old and the new queues count against it.
cat > layout.json <<'EOF2'
{"pools": {"Metal": {"size": 8, "queues": ["metal", "metal-2gpu", "metal-4gpu"]},
           "K8s": {"size": 8, "queues": ["k8s", "k8s-2gpu", "k8s-4gpu"]}},
 "policies": {
   "Platform": {"limit": 8, "queues": {"Dev/2xGPU": {"need": 2, "to": ["metal-2gpu", "k8s-2gpu"]},
                                       "Dev/4xGPU": {"need": 4, "to": ["k8s-4gpu", "metal-4gpu"]},
                                       "Platform/2xGPU": {"need": 2, "to": ["metal-2gpu", "k8s-2gpu"]},
                                       "Platform/4xGPU": {"need": 4, "to": ["k8s-4gpu", "metal-4gpu"]}}},
   "Research": {"limit": 12, "queues": {"research-2gpu": {"need": 2, "to": ["metal-2gpu", "k8s-2gpu"]},
                                        "research-4gpu": {"need": 4, "to": ["k8s-4gpu", "metal-4gpu"]}}}}}
EOF2
tasks='[{"id": "d0", "name": "d0", "status": "queued", "queue": "Dev/2xGPU"},
        {"id": "d1", "name": "d1", "status": "queued", "queue": "Dev/4xGPU"},
        {"id": "d2", "name": "d2", "status": "queued", "queue": "Dev/2xGPU"},
        {"id": "d3", "name": "d3", "status": "queued", "queue": "Dev/2xGPU"},
        {"id": "d4", "name": "d4", "status": "queued", "queue": "Dev/4xGPU"},
        {"id": "d5", "name": "d5", "status": "queued", "queue": "Dev/2xGPU"},
        {"id": "r0", "name": "r0", "status": "queued", "queue": "research-4gpu"},
        {"id": "r1", "name": "r1", "status": "queued", "queue": "research-2gpu"}]'
setup_json "$tasks" > setup.json
# The double's queues: the policy queues of both names.
jq '.queues += (["Dev/2xGPU", "Dev/4xGPU", "Platform/2xGPU", "Platform/4xGPU"] | map({name: .}))
    | .agents |= map(.run_ticks = 4)' setup.json > s.json && mv s.json setup.json
start_double setup.json

# What the double says the team holds: its tasks that run or were handed over.
held() {
  jq '[.tasks[] as $t | .origin[$t.id] as $o
       | select($o != null and ($o | test("^(Dev|Platform)/")))
       | select($t.status == "in_progress" or ($t.status == "queued" and ([.queues[] | select(any(.entries[]; .task == $t.id)) | .name][0] // "" | test("^(metal|k8s)"))))
       | if ($o | endswith("4xGPU")) then 4 else 2 end] | add // 0' double-state.json
}
metric() { sed -n "s/^$1 //p" "$2"; }

# Cycle 1: Dev's tasks are handed over up to its limit; the agents start them.
sync_once --metrics m1.prom; [ $? = 0 ] || fail "cycle 1: exit: $(head -3 err.txt)"
check_invariants "cycle 1" out.txt
dev_used=$(metric 'rescfg_policy_used_gpus{policy="Dev"}' m1.prom)
[ "$dev_used" = 8 ] || fail "cycle 1: Dev uses $dev_used, expected its limit 8"
jq -e -s 'all(.[]; (.policy == "Dev") or (.policy == "Research"))' out.txt >/dev/null || fail "cycle 1 records: $(cat out.txt)"
ctl tick >/dev/null
check_invariants "after the agents"
[ "$(jq .running counts.json)" -gt 0 ] || fail "no task runs after cycle 1: $(cat counts.json)"

# Without renamedFrom, plan would warn that Dev's queues disappear, and count
# from the last sync's snapshot what waits and runs there: all 6 of Dev's tasks.
team Platform > forgot.yaml
expect 0 "$RESCFG" plan forgot.yaml --state rs -o forgot.plan --jobs-from-sync
contains err.txt "removed-policy-queue: policy queue 'Dev/2xGPU' of policy 'Dev'"
contains err.txt "in the last sync's snapshot, "
counted=$(grep -o '[0-9]* tasks\? waits\? there and [0-9]* runs\? from it' err.txt | awk '{n += $1 + $5} END {print n}')
[ "$counted" = 6 ] || fail "the removed-policy-queue warnings count $counted of Dev's 6 tasks: $(cat err.txt)"
rm -f forgot.plan

# The rename is provisioned while those run; a new task arrives in the new queue.
expect 0 "$RESCFG" provision platform.yaml --state rs -m "Dev is now Platform"
contains out.txt '~ policy "Dev" -> "Platform"'
ctl tasks '{"tasks": [{"id": "p0", "name": "p0", "status": "queued", "queue": "Platform/2xGPU"}]}' >/dev/null

# Cycle 2: the running tasks count against Platform, nothing is handed over
# beyond its limit, and the metrics name Platform only.
sync_once --metrics m2.prom; [ $? = 0 ] || fail "cycle 2: exit: $(head -3 err.txt)"
check_invariants "cycle 2" out.txt
held_now=$(held)
platform_used=$(metric 'rescfg_policy_used_gpus{policy="Platform"}' m2.prom)
[ "$platform_used" = "$held_now" ] || fail "cycle 2: Platform uses $platform_used, its tasks hold $held_now"
[ "$held_now" -gt 0 ] || fail "cycle 2: the team holds nothing"
grep -q 'policy="Dev"' m2.prom && fail "cycle 2 metrics still name Dev: $(grep 'policy="Dev"' m2.prom)"
[ "$(metric rescfg_running_tasks_in_no_pool m2.prom)" = 0 ] || fail "cycle 2: running tasks in no pool"
[ "$(metric rescfg_rejected_tasks m2.prom)" = 0 ] || fail "cycle 2: rejected tasks: $(cat err.txt)"
jq -e -s 'all(.[]; .policy != "Dev")' out.txt >/dev/null || fail "cycle 2 records name Dev: $(cat out.txt)"
# What the last cycle read: Dev's running tasks belong to Platform, with a note.
"$RESCFG" schedule --state rs --jobs-from-sync --format json >out.txt 2>err.txt
jq -e '[.running[] | select(.job | startswith("d"))] | length > 0 and
       all(.policy == "Platform" and (.message | contains("policy Dev is now Platform")))' out.txt >/dev/null ||
  fail "Dev's running tasks are not Platform's: $(jq -c .running out.txt)"

# renamedFrom removed now would leave Dev's waiting tasks behind: plan warns,
# with what the last cycle read still in the old queues.
expect 0 "$RESCFG" plan forgot.yaml --state rs -o forgot.plan --jobs-from-sync
contains err.txt "removed-policy-queue: policy queue 'Dev/4xGPU' of policy 'Platform' (profile '4xGPU') is no longer served"
contains err.txt "in the last sync's snapshot, 2 tasks wait there and 0 run from it (let its tasks drain or move them to the new queue first)"
cp err.txt forgot-before.txt

# Drain: every task, of either name, runs and finishes; none is moved twice.
for c in $(seq 1 30); do
  sync_once; code=$?
  [ "$code" = 0 ] || fail "drain $c: exit $code: $(head -3 err.txt)"
  check_invariants "drain $c" out.txt || break
  ctl tick >/dev/null
  check_invariants "drain $c, after the agents" || break
  [ "$(jq '.running + .handed_over + .waiting' counts.json)" = 0 ] && break
done
# Nothing lost: every task is accounted for (done, running, handed over or waiting).
[ "$(jq '.done + .running + .handed_over + .waiting' counts.json)" = 9 ] || fail "tasks lost: $(cat counts.json)"
# Every task fits (4 GPUs at most, 8 per pool): every one, Dev/4xGPU's too,
# was moved out of the queue it waited in, once, and ran to the end.
[ "$(jq .done counts.json)" = 9 ] || fail "not every task ran: $(cat counts.json); $(jq -c '[.queues[] | select(.entries != []) | {name, entries: [.entries[].task]}]' double-state.json)"
[ "$(jq .moves counts.json)" = 9 ] || fail "not one move a task: $(cat counts.json)"
# Drained, the old queues hold nothing (as a cycle reads them): renamedFrom can go.
sync_once; [ $? = 0 ] || fail "the cycle after the drain: $(head -3 err.txt)"
expect 0 "$RESCFG" plan forgot.yaml --state rs -o forgot.plan --jobs-from-sync
[ "$(grep -c "0 tasks wait there and 0 run from it" err.txt)" = 2 ] || fail "the drained old queues are not empty: $(cat err.txt)"

exit $((failures > 0))
