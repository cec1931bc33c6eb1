#!/usr/bin/env bash
# A person moves a task to another queue between the sync's reading and its
# move, with queues.remove_task and queues.add_task (its execution.queue
# stays the policy queue). The move's queues.remove_task is refused (703);
# the sync reads the queues again, finds the task listed elsewhere and
# leaves it alone: a task is never listed in two queues (rescfg(1), "rescfg
# sync"). The double's tasks.enqueue keeps other queues' entries, as the
# real server does.
set -u
source "$(dirname "$0")/harness.sh" "$@"
source "$SRC/tests/cli/sync_lib.sh"
require_sync

setup_json '[{"id": "m1", "name": "train-m1", "status": "queued", "queue": "sandbox-2gpu"}]' \
  '{"agents": [], "enqueue_keeps_entries": true}' > setup.json
start_double setup.json
ctl faults '{"faults": [{"kind": "person", "on": "queues.remove_task", "task": "m1", "action": "relist", "to": "research-2gpu"}]}' >/dev/null
sync_once; code=$?
[ "$code" = 0 ] || [ "$code" = 1 ] || fail "exit $code: $(head -3 err.txt)"
check_invariants "relisted by a person during the move"
jq -e 'select(.task == "m1") | .result == "skipped" and (.detail | contains("research-2gpu"))' out.txt >/dev/null ||
  { fail "the move of m1 is not skipped naming the queue that lists it now"; sed 's/^/  | /' out.txt >&2; }
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)" >&2; exit 1; fi
echo "sync relisted: all passed"
