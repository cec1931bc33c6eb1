"""A storm on the ClearML API test double: agents, workers and people that
act in real time while `rescfg sync` is killed again and again (see
tests/cli/sync_storm_test.sh).

  POST /_double/storm/start {"layout": FILE, "seed": N, "poll": [1.0, 3.0], "pop_start": [0.1, 1.0],
       "run": [0.5, 3.0], "report_lag": [0.0, 0.3], "expire": 0.3, "person_rate": 1.0,
       "arrival_rate": 3.0, "arrival_queues": [policy queues], "stale_reads": 3}
  POST /_double/storm/calm   no more people or new tasks; the agents go on
  POST /_double/storm/counts -> {"counts": {...}} while it goes on
  POST /_double/storm/stop   -> {"violations": [...], "counts": {...}}

One agent per pool of LAYOUT (sync_invariants.py) serves the pool's queues
in their order within the pool's size: it looks at its queues every
`poll` seconds (random; clearml-agent sleeps between its looks), pops the
head task (queues.get_next_task) while it fits, holds each popped for a random
`pop_start` window (seconds), then starts it (in_progress, `last_worker`)
if it is still queued, and completes it after a random `run`. A running
task's worker shows up in workers.get_all only after a random `report_lag`
(the seconds between tasks.started and its first report), and stops
reporting (expires) at a random moment of the run with probability
`expire`; the task runs on. People stop (a task a worker runs is only
asked to stop, `stopping`, and its agent then reports it stopped), dequeue
and move tasks (into another policy queue of the same need), half of the
time tasks handed over that wait in a pool queue; new tasks arrive in the
policy queues.

The agents pop what a pool queue lists, as clearml-agent does
(clearml_agents.py): a stale entry (a task a person stopped or dequeued
after the sync handed it over: the server removed only the entry of its
execution.queue, the policy queue) comes back queued when it was stopped
(the server's get_next_task) and is run; one of another status is started
at once (tasks.started with force). Such a task is resurrected.

Checked at every step (every 20 ms), from the server's own records:
  - no pool holds more than its size (tasks its agent popped that are still
    queued or that it runs, and queued tasks listed in its queues); no task
    is listed in two queues;
  - no call of the API (the sync) put a task in a queue while an agent held
    it popped, or after a person stopped it;
  - no call of the API asked a task to stop that was not running, or that
    was already stopping (a stop is asked once);
  - as the storm calms, a person stops or dequeues every handed-over task
    waiting in a pool queue; no task a person stopped or dequeued was
    resurrected from a stale entry after the third read of the clean cycles
    that follow (they are not killed; the first read may have begun before
    the person's clicks), nor after `stale_reads` whole reads of the server
    by the sync (counted by their last call, workers.get_all) since the
    person's click: a sync
    removes such entries right after the read that shows them, and only a
    kill between its read and the removal, or an agent's pop in that
    instant, may leave one for the next sync.
At the end (storm/stop): no task the sync stopped is left stopped (a
victim is re-queued, unless a person stopped, dequeued or moved it: a
dequeue puts a re-queued victim back to stopped); no pool queue lists a
task that is neither queued nor running.
"""

import random
import threading
import time
from fractions import Fraction

from clearml_model import now_text

STEP = 0.02


class Storm:
    def __init__(self, double, spec, layout):
        self.double = double
        self.rng = random.Random(spec.get("seed", 1))
        self.poll = spec.get("poll", [1.0, 3.0])
        self.pop_start = spec.get("pop_start", [0.1, 1.0])
        self.run = spec.get("run", [0.5, 3.0])
        self.report_lag = spec.get("report_lag", [0.0, 0.3])
        self.expire = float(spec.get("expire", 0.3))
        self.person_rate = float(spec.get("person_rate", 1.0))
        self.arrival_rate = float(spec.get("arrival_rate", 3.0))
        self.arrival_queues = sorted(spec.get("arrival_queues") or [])  # default: every policy queue
        self.layout = layout
        self.need = {q: Fraction(str(s["need"])) for p in layout["policies"].values() for q, s in p["queues"].items()}
        self.pools = {name: {"size": Fraction(str(s["size"])), "queues": list(s["queues"]), "held": {}}
                      for name, s in layout["pools"].items()}
        self.stopped = set()
        self.let_go = {}  # task a person stopped or dequeued -> the sync's reads of the queues then
        self.stale_reads = int(spec.get("stale_reads", 3))
        self.pool_queues = {q for s in self.pools.values() for q in s["queues"]}
        self.touched = set()  # tasks a person stopped, dequeued or moved
        self.violations = []
        self.counts = {"pops": 0, "starts": 0, "completed": 0, "expired": 0, "stops": 0, "agent_stops": 0,
                       "dequeues": 0, "moves": 0, "arrivals": 0, "steps": 0, "api_stops": 0,
                       "handed_over_touched": 0, "resurrected": 0,
                       "resurrected_after_reads": 0, "swept": 0}
        self.calm = False
        self.calm_reads = None  # the sync's reads when the storm calmed (set at the first calm step)
        self.done = threading.Event()
        self.next_id = 0
        self.events_seen = len(double.model.events)
        self.stops_seen = len(double.model.api_stop_log)
        self.thread = threading.Thread(target=self.loop, daemon=True)

    # -- the double's view: the storm's agents report workers -----------------
    def tick(self, model):
        pass  # the storm moves in real time, not in ticks

    def workers(self, model):
        out, now = [], time.monotonic()
        for pool, spec in self.pools.items():
            for task_id, held in spec["held"].items():
                if held["phase"] != "running" or not held["reports"][0] <= now < held["reports"][1]:
                    continue
                out.append({"id": held["worker"], "user": {"id": "agent", "name": "agent"},
                            "company": {"id": "company"}, "ip": "127.0.0.1",
                            "task": {"id": task_id, "name": model.tasks.get(task_id, {}).get("name")},
                            "queue": {"id": held["queue"]["id"], "name": held["queue"]["name"]},
                            "queues": [{"id": q["id"], "name": q["name"]} for q in
                                       (model.queue_by_name(n) for n in spec["queues"]) if q],
                            "tags": []})
        return out

    # -- the loop ----------------------------------------------------------------
    def loop(self):
        while not self.done.is_set():
            with self.double.lock:
                if not self.done.is_set():
                    self.step(time.monotonic())
            time.sleep(STEP)

    def violation(self, text):
        if len(self.violations) < 50 and text not in self.violations:
            self.violations.append(text)

    def step(self, now):
        model = self.double.model
        self.counts["steps"] += 1
        self.check_events(model)
        for pool, spec in self.pools.items():
            self.settle(model, pool, spec, now)
            if now >= spec.get("next_poll", 0.0):
                spec["next_poll"] = now + self.rng.uniform(*self.poll)
                self.pull(model, spec, now)
        if self.calm and self.calm_reads is None:
            self.sweep(model)
        if not self.calm:
            if self.rng.random() < self.person_rate * STEP:
                self.person(model)
            if self.rng.random() < self.arrival_rate * STEP:
                self.arrive(model)
        self.check_pools(model)

    def check_events(self, model):
        popped = model.popped
        for event in model.events[self.events_seen:]:
            if event["by"] != "api" or event["to"] is None:
                continue
            if event["task"] in popped:
                self.violation(f"task {event['task']} was put in {event['to']} while an agent held it popped")
            if event["task"] in self.stopped:
                self.violation(f"task {event['task']} was put in {event['to']} after a person stopped it")
        self.events_seen = len(model.events)
        for task_id, status, message in model.api_stop_log[self.stops_seen:]:
            self.counts["api_stops"] += 1
            if status != "in_progress" or message == "stopping":
                self.violation(f"task {task_id} was asked to stop while {status}"
                               f"{' and stopping' if message == 'stopping' else ''}")
        self.stops_seen = len(model.api_stop_log)

    def finish(self, model):
        """The checks of the end, after the clean cycles."""
        self.check_events(model)
        for task_id in sorted(model.api_stops):
            task = model.tasks.get(task_id)
            if task is not None and task["status"] == "stopped" and task_id not in self.touched:
                self.violation(f"task {task_id}, stopped by the sync, is left stopped: never re-queued")
        for queue in model.queues:
            if queue["name"] not in self.pool_queues:
                continue
            for entry in queue["entries"]:
                status = (model.tasks.get(entry["task"]) or {}).get("status", "deleted")
                if status not in ("queued", "in_progress"):
                    self.violation(f"task {entry['task']} ({status}) is left listed in pool queue {queue['name']}: "
                                   "an agent would run it again")

    def check_pools(self, model):
        queue_pool = {q: p for p, s in self.pools.items() for q in s["queues"]}
        used = {p: sum((h["need"] for t, h in s["held"].items() if self.holds(model, t, h)), Fraction(0))
                for p, s in self.pools.items()}
        listed = {}
        for queue in model.queues:
            for entry in queue["entries"]:
                listed.setdefault(entry["task"], []).append(queue["name"])
        for task_id, names in listed.items():
            if len(names) > 1:
                self.violation(f"task {task_id} is listed in {names}")
        for queue in model.queues:
            pool = queue_pool.get(queue["name"])
            if pool is None:
                continue
            for entry in queue["entries"]:
                task = model.tasks.get(entry["task"])
                if task is not None and task["status"] == "queued":
                    used[pool] += self.need_of(model, task["id"])
        for pool, spec in self.pools.items():
            if used[pool] > spec["size"]:
                held = ", ".join(f"{t} {h['phase']} {h['need']}" for t, h in sorted(spec["held"].items())
                                 if self.holds(model, t, h))
                waiting = ", ".join(f"{e['task']} in {q['name']} {self.need_of(model, e['task'])}"
                                    for q in model.queues if queue_pool.get(q["name"]) == pool
                                    for e in q["entries"]
                                    if (model.tasks.get(e["task"]) or {}).get("status") == "queued")
                self.violation(f"pool {pool} holds {used[pool]} GPUs of work on {spec['size']}: "
                               f"its agent holds {held or 'nothing'}; waiting: {waiting or 'nothing'}")

    @staticmethod
    def holds(model, task_id, held):
        """Whether the server's records show the agent's task as work: popped and still
        queued, or running. One a person dequeued or stopped while popped holds nothing
        there (the agent drops it when it comes to start it)."""
        status = (model.tasks.get(task_id) or {}).get("status")
        return status == ("queued" if held["phase"] == "popped" else "in_progress")

    def need_of(self, model, task_id):
        return self.need.get(model.origin.get(task_id), Fraction(1))

    # -- agents ------------------------------------------------------------------
    def settle(self, model, pool, spec, now):
        model.actor = "agent"
        try:
            for task_id in list(spec["held"]):
                held, task = spec["held"][task_id], model.tasks.get(task_id)
                if held["phase"] == "popped":
                    if now < held["until"]:
                        continue
                    model.popped.discard(task_id)
                    if task is None or task["status"] != "queued":
                        del spec["held"][task_id]  # stopped or dequeued meanwhile: the agent skips it
                        continue
                    self.start(model, task, held, now)
                    continue
                if task is None or task["status"] != "in_progress":
                    del spec["held"][task_id]
                elif task.get("status_message") == "stopping":
                    model.tasks_stopped({"task": task_id, "status_reason": "task was stopped by tasks.stop",
                                         "status_message": f"Changed by clearml-agent {held['worker']}",
                                         "force": True})
                    task["worker_live"] = False
                    self.counts["agent_stops"] += 1
                    del spec["held"][task_id]
                elif now >= held["until"]:
                    model.change_status(task, "completed", "", "completed", force=True)
                    task["worker_live"] = False
                    self.counts["completed"] += 1
                    del spec["held"][task_id]
        finally:
            model.actor = "api"

    def start(self, model, task, held, now):
        until = now + self.rng.uniform(*self.run)
        expired = self.rng.random() < self.expire
        first = now + self.rng.uniform(*self.report_lag)
        held.update(phase="running", until=until, expired=expired,
                    reports=(first, self.rng.uniform(first, until) if expired else float("inf")))
        self.counts["starts"] += 1
        self.counts["expired"] += expired
        # tasks.started; the task itself goes on updating last_update while
        # it runs, so tasks.stop finds it run by a worker (is_run_by_worker)
        if task["status"] != "queued":  # a stale entry's task: clearml-agent forces it
            model.tasks_started({"task": task["id"], "status_message": "pulled by agent", "force": True,
                                 "last_worker": held["worker"], "worker_live": True})
            return
        model.change_status(task, "in_progress", "", "running", expected="queued",
                            last_worker=held["worker"], worker_live=True, started=now_text())

    def resurrected(self, model, task_id, status):
        """An agent popped a stale entry of `task_id` (`status` before the pop)."""
        self.counts["resurrected"] += 1
        if task_id in self.let_go:
            reads = model.api_reads - self.let_go.pop(task_id)
            self.counts["resurrected_after_reads"] = max(self.counts["resurrected_after_reads"], reads)
            # the clean cycles after the calm are never killed: each removes what it read
            calm = self.calm_reads is not None and model.api_reads >= self.calm_reads + 3
            if reads >= self.stale_reads or calm:
                self.violation(f"task {task_id}, {status} by a person, was resurrected by an agent: its stale "
                               f"entry outlived {reads} reads of the server by the sync")
        self.stopped.discard(task_id)  # it runs again: no longer as the person left it

    def pull(self, model, spec, now):
        while self.pull_one(model, spec, now):
            pass

    def pull_one(self, model, spec, now):
        """Pops one task, if the head of a queue fits: True when it did."""
        free = spec["size"] - sum((h["need"] for h in spec["held"].values()), Fraction(0))
        for name in spec["queues"]:
            queue = model.queue_by_name(name)
            if queue is None or not queue["entries"]:
                continue
            task_id = queue["entries"][0]["task"]
            if self.need_of(model, task_id) > free:
                return False  # the head waits for room: nothing behind it passes
            before = (model.tasks.get(task_id) or {}).get("status")
            model.actor = "agent"
            try:
                model.queues_get_next_task({"queue": queue["id"]})
                task = model.tasks.get(task_id)
                if task is None:
                    return True  # deleted: tasks.started fails, the agent goes on
                self.counts["pops"] += 1
                held = {"need": self.need_of(model, task_id), "phase": "popped", "queue": queue,
                        "until": now + self.rng.uniform(*self.pop_start),
                        "worker": f"{name}-node:{task_id}", "expired": False}
                spec["held"][task_id] = held
                if before not in ("queued", "in_progress"):
                    self.resurrected(model, task_id, before)
                if task["status"] != "queued":
                    self.start(model, task, held, now)  # tasks.started with force, at once
                else:
                    model.popped.add(task_id)
            finally:
                model.actor = "api"
            return True
        return False

    # -- people --------------------------------------------------------------------
    def person(self, model):
        # (a person does not click stop on a task that is already stopping)
        candidates = sorted((t for t in model.tasks.values() if t["status"] in ("queued", "in_progress")
                             and t.get("status_message") != "stopping"), key=lambda t: t["id"])
        if not candidates:
            return
        # half of the time a task handed over that waits in a pool queue
        handed = [t for t in candidates if t["status"] == "queued" and
                  any(q["name"] in self.pool_queues for q in model.queues_of(t["id"]))]
        if handed and self.rng.random() < 0.5:
            task = self.rng.choice(handed)
            action = self.rng.choice(["stop", "dequeue"])
            self.counts["handed_over_touched"] += 1
        else:
            task = self.rng.choice(candidates)
            action = self.rng.choice(["stop", "dequeue", "move"])
        model.actor = "person"
        self.touched.add(task["id"])
        try:
            if action == "stop":
                model.tasks_stop({"task": task["id"], "force": True, "status_reason": "stopped by a person"})
                self.stopped.add(task["id"])
                self.let_go[task["id"]] = model.api_reads
                self.counts["stops"] += 1
            elif action == "dequeue" and task["status"] == "queued":
                model.tasks_dequeue({"task": task["id"]})
                self.let_go[task["id"]] = model.api_reads
                self.counts["dequeues"] += 1
            elif action == "move" and task["status"] == "queued":
                here = model.queue_name((task.get("execution") or {}).get("queue"))
                listed = [q["name"] for q in model.queues_of(task["id"])]
                others = sorted(q for q, n in self.need.items() if n == self.need.get(here) and q != here)
                if here in self.need and listed == [here] and others:
                    to = self.rng.choice(others)
                    model.tasks_dequeue({"task": task["id"]})
                    model.tasks_enqueue({"task": task["id"], "queue_name": to})
                    model.origin[task["id"]] = to
                    self.counts["moves"] += 1
        except Exception:  # noqa: BLE001 - a person's failed click changes nothing more
            pass
        finally:
            model.actor = "api"

    def sweep(self, model):
        """As the storm calms, a person stops or dequeues every handed-over task that
        waits in a pool queue (an operator clearing a pool): the clean cycles that
        follow must remove the stale entries before an agent runs them again."""
        self.calm_reads = model.api_reads
        for queue in list(model.queues):
            if queue["name"] not in self.pool_queues:
                continue
            for entry in list(queue["entries"]):
                task = model.tasks.get(entry["task"])
                if task is None or task["status"] != "queued":
                    continue
                model.actor = "person"
                try:
                    if self.rng.random() < 0.5:
                        model.tasks_stop({"task": task["id"], "force": True, "status_reason": "stopped by a person"})
                        self.stopped.add(task["id"])
                    else:
                        model.tasks_dequeue({"task": task["id"]})
                finally:
                    model.actor = "api"
                self.touched.add(task["id"])
                self.let_go[task["id"]] = model.api_reads
                self.counts["swept"] += 1

    def arrive(self, model):
        queue = self.rng.choice(self.arrival_queues or sorted(self.need))
        self.next_id += 1
        model.actor = "test"
        try:
            model.create_task({"id": f"storm{self.next_id:05d}", "name": f"storm-{self.next_id}",
                               "status": "queued", "queue": queue,
                               "enqueue_status": "created"})  # a draft a person enqueued
        finally:
            model.actor = "api"
        self.counts["arrivals"] += 1
