#!/usr/bin/env bash
# GPUs a sync handed over stay counted (rescfg(1), "rescfg sync"): a task it
# handed to a pool holds that pool until it is finished, also while it runs
# and no worker reports it, and while an agent has popped it and not yet
# started it (queued, listed in no queue). A running task that no worker
# reports and that the sync never handed over holds in no pool: said once
# per cycle, with a count and a metric.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

# No agents: the test plays them, through a person's calls.
setup_json "$(jq -n '[range(4) | {id: "s\(.)", name: "train-s\(.)", status: "queued", queue: "sandbox-2gpu"}]')" \
  '{"agents": []}' > setup.json
start_double setup.json

# handed_fill ACTION: four tasks fill Metal, then ACTION happens to them, then
# four more arrive; the next cycle must give these to K8s, not to Metal.
handed_fill() {
  local action=$1 prefix=$2 i
  reset_double setup.json
  rm -rf state/sync
  sync_once; [ $? = 0 ] || fail "$action: cycle 1 exit: $(head -3 err.txt)"
  [ "$(jq -s '[.[] | select(.result == "moved" and .to == "metal-2gpu")] | length' out.txt)" = 4 ] ||
    { fail "$action: cycle 1 did not fill Metal"; sed 's/^/  | /' out.txt >&2; }
  for i in 0 1 2 3; do ctl person "{\"task\": \"s$i\", \"action\": \"$action\"}" >/dev/null; done
  ctl tasks "$(jq -n --arg p "$prefix" '{tasks: [range(4) | {id: "\($p)\(.)", name: "n", status: "queued", queue: "sandbox-2gpu"}]}')" >/dev/null
  sync_once --metrics metrics.prom; [ $? = 0 ] || fail "$action: cycle 2 exit: $(head -3 err.txt)"
  grep -q '"to": "metal' out.txt && { fail "$action: Metal's 8 GPUs were given again"; sed 's/^/  | /' out.txt >&2; }
  grep -q '"task": "s' out.txt && { fail "$action: a handed-over task was decided again"; sed 's/^/  | /' out.txt >&2; }
  [ "$(jq -s '[.[] | select(.result == "moved" and .to == "k8s-2gpu")] | length' out.txt)" = 4 ] ||
    { fail "$action: cycle 2 did not give the new tasks to K8s"; sed 's/^/  | /' out.txt >&2; }
  grep -q '^rescfg_pool_in_use_gpus{pool="Metal"} 8$' metrics.prom ||
    fail "$action: Metal is not counted full: $(grep pool_in_use metrics.prom)"
}
# Item: running, no worker reports it (expired, or between tasks.started and its report).
handed_fill run n
# Item: popped by an agent, not yet started: queued, listed in no queue.
handed_fill pop p

# A running task that rescfg never handed over and no worker reports: in no
# pool, said once per cycle with the count, and a metric.
reset_double setup.json
rm -rf state/sync
ctl tasks '{"tasks": [{"id": "u1", "status": "in_progress", "queue": "sandbox-2gpu"},
                      {"id": "u2", "status": "in_progress", "queue": "dev-2gpu"}]}' >/dev/null
sync_once --metrics metrics.prom; [ $? = 0 ] || fail "untracked: exit: $(head -3 err.txt)"
[ "$(grep -c 'running tasks hold in no pool' err.txt)" = 1 ] ||
  { fail "untracked: not said once with its count"; sed 's/^/  | /' err.txt >&2; }
contains err.txt "2 running tasks hold in no pool"
grep -q '^rescfg_running_tasks_in_no_pool 2$' metrics.prom ||
  fail "untracked: no metric: $(grep -i 'no_pool' metrics.prom)"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync holding: all passed"
