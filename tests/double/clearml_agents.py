"""Agents of the ClearML API test double: they pull tasks from pool queues.

An agent serves an ordered list of queues (first = highest priority) within
a capacity of GPUs, and moves only when the test advances time
(`/_double/tick`), so that no test depends on timing luck. Per tick, each
agent in turn:

1. settles its tasks: a running task finishes (`completed`) after
   `run_ticks`; one asked to stop (`status_message: stopping`, tasks.stop
   with a live worker) is killed at the agent's next poll and reported with
   tasks.stopped (status_reason "task was stopped by tasks.stop", message
   "Changed by clearml-agent WORKER": what rescfg sent is overwritten), unless
   `ignore_stops` (an agent that never lets go: a stuck stop); one that is no
   longer in_progress (a person's dequeue) is let go. In k8s mode the glue
   then deletes the task's pod and, at its next tick, fails the task if it
   is queued or running again, unless it is queued with a status_reason
   containing "pushed back by policy manager" (clearml-agent's
   _cleanup_old_pods). A task parked
   in the pending queue (k8s mode) starts after `start_ticks`, unless a person
   took it out of there meanwhile (the glue then skips it);
2. pulls: while the head task of one of its queues fits in what is free, it
   pops it (`queues.get_next_task`) and, in `direct` mode, runs it at once
   (`in_progress`, a worker `HOST:gpuA,B` reports it); in `k8s` mode, like
   clearml-agent's k8s glue, it parks it in the hidden `k8s_scheduler` queue
   (`tasks.enqueue` with `update_execution_queue: false`), status still
   `queued`, and runs it later. A popped entry whose task is gone is dropped.
   One whose task is no longer queued (a stale entry: a person stopped or
   dequeued a task handed over with update_execution_queue: false, and the
   server removed only the entry of its execution.queue) is NOT dropped: the
   server sets a stopped task back to queued as it pops it (clearml_model.py,
   queues_get_next_task), and clearml-agent does not look at the status
   (clearml-agent ac65a93d, clearml_agent/commands/worker.py: run_tasks_loop,
   lines 1654-1690, calls tasks.started {force: true, status_message "pulled
   by agent"} on whatever get_next_task returned; run_one_task, lines
   1220-1224, again with force): a direct agent runs it, whatever its status
   was. The k8s glue (clearml_agent/glue/k8s.py run_one_task, lines 490-541)
   parks it with tasks.enqueue {update_execution_queue: false}: refused (12)
   for a task that is not queued, logged and skipped; a stopped one, queued
   again by the pop, is parked and run.

Spec: {"name", "host", "mode": "direct"|"k8s", "capacity": GPUs,
"queues": [{"queue": NAME, "gpus": N, "need_param": "runtime.gpus_request"}],
"run_ticks": 3, "start_ticks": 1, "pending_queue": "k8s_scheduler",
"report_workers": true, "pull_per_tick": null, "ignore_stops": false}.
"""

import math
from fractions import Fraction

from clearml_model import ApiError, need_of, now_text


class Agent:
    def __init__(self, spec, model):
        self.spec = spec
        self.name = spec.get("name", "agent")
        self.host = spec.get("host", self.name)
        self.mode = spec.get("mode", "direct")
        self.capacity = Fraction(str(spec.get("capacity", 1)))
        self.run_ticks = int(spec.get("run_ticks", 3))
        self.start_ticks = int(spec.get("start_ticks", 1))
        self.report_workers = spec.get("report_workers", True)
        self.pull_per_tick = spec.get("pull_per_tick")
        self.ignore_stops = bool(spec.get("ignore_stops", False))
        self.deleted_pods = []  # k8s: tasks whose pods ended, for the glue's next cleanup
        self.slots = list(range(max(0, math.floor(self.capacity))))  # free GPU indices
        self.held = {}  # task id -> {"need", "phase", "ticks", "queue", "gpus"}
        self.queue_specs = []
        for queue_spec in spec.get("queues", []):
            queue = model.queue_by_name(queue_spec["queue"]) or model.create_queue({"name": queue_spec["queue"]})
            self.queue_specs.append((queue, queue_spec))
        self.pending = None
        if self.mode == "k8s":
            name = spec.get("pending_queue", "k8s_scheduler")
            self.pending = model.queue_by_name(name) or model.create_queue(
                {"name": name, "system_tags": ["k8s-glue"]})

    def used(self):
        return sum((h["need"] for h in self.held.values()), Fraction(0))

    def release(self, task_id, model=None):
        held = self.held.pop(task_id)
        if model is not None:
            task = model.tasks.get(task_id)
            if task is not None:
                task["worker_live"] = False
            if self.mode == "k8s" and held["phase"] == "running":
                self.deleted_pods.append(task_id)
        self.slots.extend(held["gpus"])
        self.slots.sort()

    def worker_id(self, held):
        if held["gpus"]:
            return f"{self.host}:gpu" + ",".join(str(g) for g in held["gpus"])
        return f"{self.host}:{held['need']}"

    def tick(self, model):
        model.actor = "agent"
        try:
            self.cleanup(model)
            self.settle(model)
            self.pull(model)
        finally:
            model.actor = "api"

    def settle(self, model):
        for task_id in list(self.held):
            held, task = self.held[task_id], model.tasks.get(task_id)
            if held["phase"] == "pending":
                still_parked = task is not None and task["status"] == "queued" and \
                    any(e["task"] == task_id for e in self.pending["entries"])
                if not still_parked:
                    self.release(task_id, model)  # someone popped it from the glue's queue: skipped
                    continue
                held["ticks"] -= 1
                if held["ticks"] <= 0:
                    model.remove_entry(self.pending["id"], task_id)
                    self.start(model, task, held)
                continue
            if task is None or task["status"] != "in_progress":
                self.release(task_id, model)
            elif task.get("status_message") == "stopping" and not self.ignore_stops:
                # TaskStopSignal: "User aborted: stopping task", kill, then tasks.stopped
                model.tasks_stopped({"task": task_id, "status_reason": "task was stopped by tasks.stop",
                                     "status_message": f"Changed by clearml-agent {self.worker_id(held)}",
                                     "force": True})
                self.release(task_id, model)
            else:
                held["ticks"] -= 1
                task["last_update"] = now_text()
                if held["ticks"] <= 0:
                    model.change_status(task, "completed", "", "completed", force=True)
                    self.release(task_id, model)

    def cleanup(self, model):
        """The k8s glue's _cleanup_old_pods: a task whose pod is gone and that is queued
        or in_progress again is failed, unless the policy manager pushed it back."""
        deleted, self.deleted_pods = self.deleted_pods, []
        for task_id in deleted:
            task = model.tasks.get(task_id)
            if task is None or task["status"] not in ("queued", "in_progress") or task_id in self.held:
                continue
            if task["status"] == "queued" and \
                    "pushed back by policy manager" in (task.get("status_reason") or "").lower():
                continue  # "Task was pushed back to policy queue by policy manager, don't touch it"
            if task["status"] == "queued":
                model.tasks_dequeue({"task": task_id, "status_reason": "Pod deleted (not pending or running)"})
            model.change_status(task, "failed", "Pod deleted (not pending or running)",
                                f"Pod deleted by agent {self.host}", force=True)

    def start(self, model, task, held):
        held.update(phase="running", ticks=self.run_ticks)
        if task["status"] != "queued":  # a stale entry: tasks.started with force, as clearml-agent
            model.tasks_started({"task": task["id"], "status_message": "pulled by agent", "force": True,
                                 "last_worker": self.worker_id(held), "worker_live": True})
            return
        model.change_status(task, "in_progress", "", "running", expected="queued",
                            last_worker=self.worker_id(held), worker_live=True,
                            started=task.get("started") or now_text())  # started keeps the first start

    def pull(self, model):
        pulled = 0
        while self.pull_per_tick is None or pulled < self.pull_per_tick:
            free = self.capacity - self.used()
            for queue, queue_spec in self.queue_specs:
                if not queue["entries"]:
                    continue
                head = model.tasks.get(queue["entries"][0]["task"])
                need = need_of(head, queue_spec) if head else Fraction(0)
                if need <= free:
                    break
            else:
                return
            entry = model.queues_get_next_task({"queue": queue["id"]})["entry"]
            task = model.tasks.get(entry["task"])
            if task is None:
                continue  # deleted: tasks.started fails, and the agent goes on
            pulled += 1
            gpus = []
            if need.denominator == 1 and len(self.slots) >= need:
                gpus, self.slots = self.slots[:int(need)], self.slots[int(need):]
            held = {"need": need, "phase": "pending", "ticks": self.start_ticks,
                    "queue": queue, "gpus": gpus}
            self.held[task["id"]] = held
            if self.mode == "k8s":
                try:
                    model.tasks_enqueue({"task": task["id"], "queue": self.pending["id"],
                                         "status_reason": "k8s pending scheduler",
                                         "update_execution_queue": False})
                except ApiError:
                    self.release(task["id"])  # the glue logs it and goes on
            else:
                self.start(model, task, held)

    def workers(self, model):
        """What workers.get_all shows of this agent: one worker per running task."""
        if not self.report_workers:
            return []
        queues = [{"id": q["id"], "name": q["name"], "num_tasks": len(q["entries"])}
                  for q, _ in self.queue_specs]
        out = []
        for task_id, held in self.held.items():
            if held["phase"] != "running":
                continue
            task = model.tasks.get(task_id, {})
            out.append({"id": self.worker_id(held), "user": {"id": "agent", "name": "agent"},
                        "company": {"id": "company"}, "ip": "127.0.0.1",
                        "register_time": now_text(), "last_activity_time": now_text(),
                        "last_report_time": now_text(),
                        "task": {"id": task_id, "name": task.get("name"), "running_time": 0,
                                 "last_iteration": 0},
                        "queue": {"id": held["queue"]["id"], "name": held["queue"]["name"]},
                        "queues": queues, "tags": []})
        if not out or self.mode == "k8s":  # an idle daemon or the glue itself
            out.append({"id": f"{self.host}:{'k8s-glue' if self.mode == 'k8s' else 'idle'}",
                        "user": {"id": "agent", "name": "agent"}, "company": {"id": "company"},
                        "ip": "127.0.0.1", "register_time": now_text(),
                        "last_activity_time": now_text(), "last_report_time": now_text(),
                        "task": None, "queue": None, "queues": queues, "tags": []})
        return out
