#!/usr/bin/env python3
"""The promises of `rescfg sync`, checked on a state of the ClearML API test
double (GET /_double/state) against the configuration it serves.

  sync_invariants.py STATE.json LAYOUT.json

(the double answers the same check itself: POST /_double/check LAYOUT).

LAYOUT describes the configuration: {"pools": {POOL: {"size": GPUs,
"queues": [pool and link queues]}}, "policies": {POLICY: {"limit": GPUs or
null, "queues": {POLICY_QUEUE: {"need": GPUs, "to": [the link queues of its
profile]}}}}}. A task's need and policy come from the queue the test first
enqueued it to (the double remembers it); its pool from the last pool queue
it entered (it keeps that pool while parked in k8s_scheduler or running).

Checked: no task is in two queues; no queued task is in none; no pool holds
more than its size (running, parked and waiting in its queues); no policy
uses more than its limit; no task was handed over twice (entries into pool
queues made through the API, less those the API took back; a victim the
sync stopped and re-queued in its policy queue, or one a person put back in
a policy queue, may be handed over again, once per re-queue); every hand-over
took a task of a policy queue into a link queue of its own profile.
Prints a one-line JSON summary; exit 1 (with the violations on stderr) when
a promise is broken.
"""

import json
import sys
from fractions import Fraction


def check(state, layout):
    """(counts, problems) of a state of the double against a layout."""
    problems = []
    pool_of_queue = {q: p for p, spec in layout["pools"].items() for q in spec["queues"]}
    by_queue = {}
    for policy, spec in layout["policies"].items():
        for queue, qspec in spec["queues"].items():
            by_queue[queue] = (policy, Fraction(str(qspec["need"])), set(qspec["to"]))
    tasks = {t["id"]: t for t in state["tasks"]}
    origin = state["origin"]

    where = {}
    for queue in state["queues"]:
        for entry in queue["entries"]:
            where.setdefault(entry["task"], []).append(queue["name"])
    for task_id, names in where.items():
        if task_id in state.get("popped", []):
            problems.append(f"task {task_id} is in queue {names[0]} while an agent holds it")
        if len(names) > 1:
            problems.append(f"task {task_id} is in {len(names)} queues: {names}")
    for task in tasks.values():
        if task["status"] == "queued" and task["id"] not in where and task["id"] not in state.get("popped", []):
            problems.append(f"task {task['id']} ({task.get('name')}) is queued in no queue")

    # A hand-over is an entry into a pool queue made through the API; taking
    # it back (out of that pool queue while in no other) undoes it, but a
    # move from one pool queue into another is a second hand-over. A task the
    # sync stopped (preemption: tasks.stop through the API) and put back in a
    # policy queue starts a new wait: its next hand-over is a new one.
    last_pool, handovers, inside = {}, {}, {}
    stopped_by_api = set(state.get("api_stops", {}))
    for event in state["events"]:
        task_id = event["task"]
        now_in = inside.setdefault(task_id, set())
        if event["to"] is not None:
            now_in.add(event["to"])
        if event["from"] is not None:
            now_in.discard(event["from"])
        if event["to"] in pool_of_queue:
            last_pool[task_id] = pool_of_queue[event["to"]]
        if event["by"] != "api":
            if event["to"] in by_queue:
                handovers[task_id] = 0  # a person put it back in a policy queue: a new wait
            continue
        if event["to"] in by_queue and task_id in stopped_by_api:
            handovers[task_id] = 0  # re-queued after a preemption
        elif event["to"] in pool_of_queue:
            handovers[task_id] = handovers.get(task_id, 0) + 1
            known = by_queue.get(origin.get(task_id))
            if known is None:
                problems.append(f"task {task_id} of queue {origin.get(task_id)!r} (no policy queue) "
                                f"was moved into {event['to']}")
            elif event["to"] not in known[2]:
                problems.append(f"task {task_id} of {origin[task_id]} was moved into {event['to']}, "
                                f"not a link queue of its profile ({sorted(known[2])})")
        elif event["from"] in pool_of_queue and event["to"] is None and \
                not any(q in pool_of_queue for q in now_in):
            handovers[task_id] = handovers.get(task_id, 0) - 1
    for task_id, count in handovers.items():
        if count > 1:
            problems.append(f"task {task_id} was handed over {count} times")

    pool_use = {p: Fraction(0) for p in layout["pools"]}
    policy_use = {p: Fraction(0) for p in layout["policies"]}
    counts = {"handed_over": 0, "running": 0, "waiting": 0, "done": 0}
    for task in tasks.values():
        known = by_queue.get(origin.get(task["id"]))
        queues = where.get(task["id"], [])
        if task["status"] == "in_progress":
            counts["running"] += 1
            pool = last_pool.get(task["id"])
        elif task["status"] == "queued" and queues and queues[0] not in by_queue:
            counts["handed_over"] += 1
            pool = pool_of_queue.get(queues[0], last_pool.get(task["id"]))
        else:
            if task["status"] == "queued":
                counts["waiting"] += 1
            elif task["status"] in ("completed", "stopped", "failed"):
                counts["done"] += 1
            continue
        if known is None:
            continue
        if pool is not None:
            pool_use[pool] += known[1]
        policy_use[known[0]] += known[1]
    for pool, used in pool_use.items():
        if used > layout["pools"][pool]["size"]:
            problems.append(f"pool {pool} holds {used} GPUs, more than its {layout['pools'][pool]['size']}")
    for policy, used in policy_use.items():
        limit = layout["policies"][policy].get("limit")
        if limit is not None and used > limit:
            problems.append(f"policy {policy} uses {used} GPUs, more than its limit {limit}")

    counts["moves"] = sum(1 for e in state["events"] if e["by"] == "api" and e["to"] in pool_of_queue)
    counts["mutations"] = sum(1 for e in state["events"] if e["by"] == "api")
    return counts, problems


def check_records(state, lines):
    """Problems of move records (JSON lines): each "moved" one names a task the
    server saw enter that queue through the API."""
    moves = {(e["task"], e["to"]) for e in state["events"] if e["by"] == "api" and e["to"]}
    problems = []
    for line in lines:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            problems.append(f"an output line is no JSON: {line[:80]!r}")
            continue
        if record.get("result") == "moved" and (record.get("task"), record.get("to")) not in moves:
            problems.append(f"task {record.get('task')} is reported moved into {record.get('to')}, "
                            "but the server saw no such move")
    return problems


def main():
    with open(sys.argv[1]) as f:
        state = json.load(f)
    with open(sys.argv[2]) as f:
        layout = json.load(f)
    counts, problems = check(state, layout)
    print(json.dumps(counts))
    for problem in problems:
        print("invariant: " + problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
