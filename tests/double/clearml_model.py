"""The state and the calls of the ClearML API test double (see clearml_server.py).

Every call imitates the logic of allegroai/clearml-server (API 2.31) that a
loop moving tasks between queues meets: the status machine of
apiserver/bll/task/utils.py, tasks.enqueue/dequeue/stop of
apiserver/bll/task/task_operations.py, the queue operations of
apiserver/bll/queue/queue_bll.py and the scrolling of
apiserver/database/model/base.py. The whole state sits behind one lock: a
call is atomic unless a fault says otherwise.
"""

import copy
import datetime
import uuid
from fractions import Fraction

STATUSES = ("created", "queued", "in_progress", "stopped", "published", "publishing",
            "closed", "failed", "completed", "unknown")
# apiserver/bll/task/utils.py: state_machine
TRANSITIONS = {
    "created": {"queued", "in_progress"},
    "queued": {"created", "in_progress", "stopped"},
    "in_progress": {"stopped", "failed", "created", "completed"},
    "stopped": {"closed", "created", "failed", "queued", "in_progress", "published",
                "publishing", "completed"},
    "closed": {"created", "failed", "published", "publishing", "stopped"},
    "failed": {"created", "stopped", "published", "queued"},
    "publishing": {"published"},
    "published": set(),
    "completed": {"published", "in_progress", "created"},
}
HIDDEN_TAGS = ("k8s-glue",)  # services.queues.hidden_tags


class ApiError(Exception):
    """A refusal: HTTP code, result subcode and message, as apierrors/errors.conf."""

    def __init__(self, http, subcode, msg):
        super().__init__(msg)
        self.http, self.subcode, self.msg = http, subcode, msg


def bad(subcode, msg):
    return ApiError(400, subcode, msg)


def now_text():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds")


def new_id():
    return uuid.uuid4().hex


def pick(obj, fields):
    """`obj` with only `fields` (dotted paths), as only_fields projects; id always."""
    out = {"id": obj.get("id")}
    for field in fields:
        src, dst, parts = obj, out, field.split(".")
        for part in parts[:-1]:
            if not isinstance(src, dict) or part not in src:
                break
            src = src[part]
            dst = dst.setdefault(part, {})
        else:
            if isinstance(src, dict) and parts[-1] in src:
                dst[parts[-1]] = copy.deepcopy(src[parts[-1]])
    return out


def as_list(value):
    if value is None:
        return None
    return value if isinstance(value, list) else [value]


class Model:
    """Tasks, queues, workers, scrolls and the record of every queue change."""

    def __init__(self, setup):
        self.max_page_size = int(setup.get("max_page_size", 500))
        self.tasks = {}      # id -> task object as the API returns it
        self.queues = []     # queue objects, in creation order
        self.workers = [dict(w) for w in setup.get("workers", [])]
        self.scrolls = {}    # scroll id -> position
        self.events = []     # {"seq", "task", "from", "to", "by", "status"} per change
        self.origin = {}     # task id -> the queue name it was first enqueued to (by a test)
        self.actor = "test"  # who makes the current change: test, api, agent or person
        self.enqueue_keeps_entries = bool(setup.get("enqueue_keeps_entries", False))
        self.popped = set()  # tasks an agent popped and has not started (a test's person "pop")
        self.api_stops = {}  # task id -> tasks.stop calls made through the API
        self.api_stop_log = []  # (task id, status, status_message) before each of them
        self.api_reads = 0  # workers.get_all calls through the API: the sync's last call of a read
        for queue in setup.get("queues", []):
            self.create_queue(queue)
        for task in setup.get("tasks", []):
            self.create_task(task)
        self.actor = "api"

    # -- helpers ---------------------------------------------------------------
    def create_queue(self, spec):
        queue = {"id": spec.get("id") or new_id(), "name": spec["name"],
                 "display_name": spec.get("display_name"), "created": now_text(),
                 "tags": list(spec.get("tags", [])), "system_tags": list(spec.get("system_tags", [])),
                 "metadata": {}, "last_update": now_text(),
                 "entries": [dict(e) for e in spec.get("entries", [])]}
        self.queues.append(queue)
        return queue

    def create_task(self, spec):
        """A task from a test: `queue` (a name) with status queued puts it there."""
        spec = copy.deepcopy(spec)
        queue_name = spec.pop("queue", None)
        task = {"id": spec.pop("id", None) or new_id(), "name": "task", "type": "training",
                "status": "created", "status_reason": "", "status_message": "",
                "created": now_text(), "status_changed": now_text(), "last_update": now_text(),
                "execution": {}, "hyperparams": {}, "configuration": {}, "runtime": {}}
        task.update(spec)
        if task["id"] in self.tasks:
            raise bad(12, "task id already exists")
        self.tasks[task["id"]] = task
        if queue_name is not None:
            queue = self.queue_by_name(queue_name) or self.create_queue({"name": queue_name})
            task["execution"] = dict(task.get("execution") or {}, queue=queue["id"])
            if task["status"] == "queued":
                queue["entries"].append({"task": task["id"], "added": now_text()})
                self.record(task["id"], None, queue["id"])
            self.origin[task["id"]] = queue_name
        return task

    def queue_by_id(self, queue_id):
        return next((q for q in self.queues if q["id"] == queue_id), None)

    def queue_by_name(self, name):
        return next((q for q in self.queues if q["name"] == name), None)

    def queue_name(self, queue_id):
        queue = self.queue_by_id(queue_id)
        return queue["name"] if queue else queue_id

    def queues_of(self, task_id):
        return [q for q in self.queues if any(e["task"] == task_id for e in q["entries"])]

    def record(self, task_id, src, dst):
        task = self.tasks.get(task_id, {})
        self.events.append({"seq": len(self.events) + 1, "task": task_id,
                            "from": self.queue_name(src) if src else None,
                            "to": self.queue_name(dst) if dst else None,
                            "by": self.actor, "status": task.get("status")})

    def get_task(self, task_id):
        task = self.tasks.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            raise bad(101, f"invalid task id (id={task_id})")
        return task

    def get_queue(self, queue_id):
        queue = self.queue_by_id(queue_id) if isinstance(queue_id, str) else None
        if queue is None:
            raise bad(701, f"invalid queue id (id={queue_id})")
        return queue

    def change_status(self, task, new_status, reason="", message="", force=False,
                      expected=None, **fields):
        """ChangeStatusRequest.execute: validated, conditioned on the status read."""
        current = expected or task["status"]
        if not force and new_status != current and new_status not in TRANSITIONS.get(current, ()):
            raise bad(110, f"Invalid status change (current_status={current}, new_status={new_status})")
        if task["status"] != current:
            raise bad(121, "failed changing task status. probably someone changed it before you "
                           f"(task_id={task['id']}, current_status={current}, new_status={new_status})")
        stamp = now_text()
        task.update(status=new_status, status_reason=reason or "", status_message=message or "",
                    status_changed=stamp, last_update=stamp, last_change=stamp)
        for key, value in fields.items():
            if value is None:
                task.pop(key, None)
            else:
                task[key] = value
        return {"updated": 1, "fields": {"status": new_status, "status_reason": reason or "",
                                         "status_message": message or "", "status_changed": stamp}}

    def add_entry(self, queue, task_id):
        """QueueBLL.add_task: 706 when the task is already in that queue."""
        if any(e["task"] == task_id for e in queue["entries"]):
            raise bad(706, f"failed adding task to queue since task is already queued (task={task_id})")
        queue["entries"].append({"task": task_id, "added": now_text()})
        queue["last_update"] = now_text()
        self.record(task_id, None, queue["id"])

    def remove_entry(self, queue_id, task_id):
        """QueueBLL.remove_task: 703 when the task is not in that queue."""
        queue = self.queue_by_id(queue_id)
        if queue is None or not any(e["task"] == task_id for e in queue["entries"]):
            raise bad(703, f"invalid queue id or task not in queue (id={queue_id}, task={task_id})")
        queue["entries"] = [e for e in queue["entries"] if e["task"] != task_id]
        queue["last_update"] = now_text()
        self.record(task_id, queue_id, None)
        return 1

    def remove_from_all(self, task_id, exclude=None):
        count = 0
        for queue in self.queues:
            if queue["id"] != exclude and any(e["task"] == task_id for e in queue["entries"]):
                self.remove_entry(queue["id"], task_id)
                count += 1
        return count

    def dequeue_core(self, task):
        """TaskBLL.dequeue(silent_fail=True): out of the queue of execution.queue only."""
        queue_id = (task.get("execution") or {}).get("queue")
        if task["status"] != "queued" or not queue_id:
            return
        try:
            self.remove_entry(queue_id, task["id"])
        except ApiError:
            pass  # the real server swallows it too (dequeue_and_change_status)

    # -- tasks -----------------------------------------------------------------
    def tasks_get_all(self, body):
        tasks = sorted(self.tasks.values(), key=lambda t: t["id"])  # ordered by id
        ids, statuses = as_list(body.get("id")), as_list(body.get("status"))
        if ids is not None:
            tasks = [t for t in tasks if t["id"] in ids]
        if statuses is not None:
            tasks = [t for t in tasks if t.get("status") in statuses]
        out = {}
        if "scroll_id" in body:  # a scroll starts only when the key is there
            size = body.get("size")
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise bad(12, "Integer size parameter greater than 1 should be provided when working with scroll")
            scroll = body.get("scroll_id")
            if not scroll or scroll not in self.scrolls:
                scroll = new_id()
                self.scrolls[scroll] = 0
            position = self.scrolls[scroll]
            page = tasks[position:position + min(size, self.max_page_size)]
            self.scrolls[scroll] = position + len(page)
            out["scroll_id"] = scroll
        else:
            size = body.get("page_size", self.max_page_size)
            page_no = body.get("page", 0) or 0
            if not isinstance(size, int) or size < 1:
                raise bad(12, "page_size must be >0")
            size = min(size, self.max_page_size)
            page = tasks[page_no * size:(page_no + 1) * size]
        fields = body.get("only_fields")
        page = [pick(t, fields) if fields else copy.deepcopy(t) for t in page]
        out["tasks"] = page
        return out

    def tasks_enqueue(self, body, person_during=None):
        task = self.get_task(body.get("task"))
        queue_id, queue_name = body.get("queue"), body.get("queue_name")
        if queue_id and queue_name:
            raise bad(12, "Either queue id or queue name should be provided")
        keep = body.get("update_execution_queue", True) is False
        if keep and not (task["status"] == "queued" and (task.get("execution") or {}).get("queue")):
            raise bad(12, "Cannot skip setting execution queue for a task that is not enqueued "
                          "or does not have execution queue set")
        if queue_name:
            queue = self.queue_by_name(queue_name) or self.create_queue({"name": queue_name})
            queue_id = queue["id"]
        if not queue_id:
            default = [q for q in self.queues if "default" in q["system_tags"]]
            if not default:
                raise bad(707, "no queue is tagged as the default queue for this company")
            if len(default) > 1:
                raise bad(708, "more than one queue is tagged as the default queue for this company")
            queue_id = default[0]["id"]
        read_status = task["status"]
        before = task.get("enqueue_status") if read_status == "queued" and task.get("enqueue_status") else read_status
        if person_during:
            person_during()  # someone changes the task between the read and the write
        res = self.change_status(task, "queued", body.get("status_reason", ""),
                                 body.get("status_message", ""), expected=read_status,
                                 enqueue_status=before)
        try:
            self.add_entry(self.get_queue(queue_id), task["id"])
        except ApiError:
            self.change_status(task, read_status, "failed enqueueing", force=True,
                               expected="queued", enqueue_status=None)
            raise
        if not keep:
            task.setdefault("execution", {})["queue"] = queue_id
            res["fields"]["execution.queue"] = queue_id
        if not self.enqueue_keeps_entries:  # the real server leaves other queues' entries alone
            self.remove_from_all(task["id"], exclude=queue_id)
        res["queued"] = 1
        return res

    def tasks_dequeue(self, body):
        task_id = body.get("task")
        if task_id not in self.tasks:
            self.remove_from_all(task_id)
            return {"dequeued": 1, "updated": 0}
        task = self.tasks[task_id]
        self.dequeue_core(task)
        if body.get("remove_from_all_queues"):
            self.remove_from_all(task_id)
        if task["status"] not in ("queued", "in_progress"):
            return {"dequeued": 1, "updated": 0}
        new_status = body.get("new_status") or task.get("enqueue_status") or "created"
        res = self.change_status(task, new_status, body.get("status_reason", ""),
                                 body.get("status_message", ""), force=True, enqueue_status=None)
        res["dequeued"] = 1
        return res

    def tasks_stop(self, body):
        """task_operations.stop_task: a task a live worker runs only gets status_message
        "stopping" (its agent kills it and reports tasks.stopped); any other is stopped at
        once, through the status machine (completed -> stopped: 110; a status changed
        between the read and the write: 121)."""
        task = self.get_task(body.get("task"))
        if self.actor == "api":
            self.api_stop_log.append((task["id"], task["status"], task.get("status_message")))
        queued = task["status"] == "queued"
        # is_run_by_worker: a worker reported on it lately (last_worker and a recent
        # last_update; the double's agents report at every tick and forget it when done)
        run_by_worker = bool(task.get("last_worker")) and task.get("worker_live", False)
        if queued or not run_by_worker:
            if queued:
                self.dequeue_core(task)
            res = self.change_status(task, "stopped", body.get("status_reason", ""),
                                     "Stopped by user", force=bool(body.get("force")))
        else:
            res = self.change_status(task, task["status"], body.get("status_reason", ""),
                                     "stopping", force=bool(body.get("force")))
        if self.actor == "api":
            self.api_stops[task["id"]] = self.api_stops.get(task["id"], 0) + 1
        return res

    def tasks_started(self, body):
        """services/tasks.py::started (clearml-server 0b769d48, lines 369-400) as
        clearml-agent calls it right after a pop (force: true): any status, stopped,
        created, failed or completed included, becomes in_progress."""
        task = self.get_task(body.get("task"))
        fields = {key: body[key] for key in ("last_worker", "worker_live") if key in body}
        return self.change_status(task, "in_progress", body.get("status_reason", ""),
                                  body.get("status_message", ""), force=bool(body.get("force")),
                                  started=task.get("started") or now_text(), completed=None, **fields)

    def tasks_stopped(self, body):
        """services/tasks.py::stopped, as the agent calls it once it killed the task:
        its own status_reason and message overwrite the ones of tasks.stop."""
        task = self.get_task(body.get("task"))
        return self.change_status(task, "stopped", body.get("status_reason", ""),
                                  body.get("status_message", ""), force=bool(body.get("force")),
                                  completed=now_text())

    # -- queues ----------------------------------------------------------------
    def queues_get_all(self, body):
        ids, names = as_list(body.get("id")), as_list(body.get("name"))
        queues = self.queues
        if not (body.get("search_hidden") or ids or names):
            queues = [q for q in queues if not set(q["system_tags"]) & set(HIDDEN_TAGS)]
        if ids:
            queues = [q for q in queues if q["id"] in ids]
        if names:
            queues = [q for q in queues if q["name"] in names]
        out = []
        for queue in queues:
            queue = copy.deepcopy(queue)
            cap = body.get("max_task_entries")
            if isinstance(cap, int) and cap > 0:
                queue["entries"] = queue["entries"][:cap]
            out.append(pick(queue, body["only_fields"]) if body.get("only_fields") else queue)
        return {"queues": out}

    def queues_get_by_id(self, body):
        return {"queue": copy.deepcopy(self.get_queue(body.get("queue")))}

    def queues_add_task(self, body):
        queue = self.get_queue(body.get("queue"))
        self.add_entry(queue, body.get("task"))
        task = self.tasks.get(body.get("task"))
        if task is not None and body.get("update_execution_queue", True) is not False:
            task.setdefault("execution", {})["queue"] = queue["id"]
        return {"added": 1}

    def queues_remove_task(self, body):
        task_id = body.get("task")
        removed = self.remove_entry(body.get("queue"), task_id)
        task = self.tasks.get(task_id)
        if body.get("update_task_status") and task is not None and \
                (task.get("execution") or {}).get("queue") == body.get("queue"):
            execution = dict(task.get("execution") or {})
            execution.pop("queue", None)
            self.change_status(task, task.get("enqueue_status") or "created",
                               f"Task was removed from the queue {body.get('queue')}",
                               force=True, enqueue_status=None, execution=execution)
        return {"removed": removed}

    def queues_move_task_to_front(self, body):
        """QueueBLL.reposition_task to the front: 703 when the task is not in that queue."""
        queue = self.get_queue(body.get("queue"))
        task_id = body.get("task")
        entries = [e for e in queue["entries"] if e["task"] == task_id]
        if not entries:
            raise bad(703, f"invalid queue id or task not in queue (id={queue['id']}, task={task_id})")
        queue["entries"] = entries + [e for e in queue["entries"] if e["task"] != task_id]
        queue["last_update"] = now_text()
        return {"position": 0}

    def queues_get_next_task(self, body):
        """Pops the head entry whatever its task's status: the server skips no
        entry (clearml-server 0b769d48, apiserver/bll/queue/queue_bll.py
        QueueBLL.get_next_task, lines 310-337: an atomic pop of entries[0], no look
        at the task), and apiserver/services/queues.py get_next_task (lines
        173-189) then sets a `stopped` task back to `queued` ("fix racing
        condition that can result in the task being aborted by an agent after it
        was already placed in a queue": a raw update, status_changed untouched).
        So a stale entry of a stopped task comes back as a queued task."""
        queue = self.get_queue(body.get("queue"))
        want = body.get("task")
        if not queue["entries"] or (want and queue["entries"][0]["task"] != want):
            return {}
        entry = queue["entries"][0]
        self.remove_entry(queue["id"], entry["task"])
        task = self.tasks.get(entry["task"])
        if task is not None and task["status"] == "stopped":
            task["status"] = "queued"  # the server's own fix of an agent's race
        return {"entry": dict(entry)}

    # -- workers ---------------------------------------------------------------
    def workers_get_all(self, body, agent_workers=()):
        if self.actor == "api":
            self.api_reads += 1
        return {"workers": copy.deepcopy(self.workers + list(agent_workers))}

    # -- checks of the invariants (for tests) ---------------------------------
    def snapshot(self):
        return {"tasks": copy.deepcopy(sorted(self.tasks.values(), key=lambda t: t["id"])),
                "queues": copy.deepcopy(self.queues), "workers": copy.deepcopy(self.workers),
                "events": list(self.events), "origin": dict(self.origin),
                "api_stops": dict(self.api_stops),
                "popped": sorted(self.popped)}


def need_of(task, spec):
    """The GPUs a task needs by an agent's queue spec (`gpus`, or `need_param`)."""
    param = spec.get("need_param")
    if param:
        node = task
        for part in param.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict):
            node = node.get("value")
        try:
            return Fraction(str(node))
        except (TypeError, ValueError, ZeroDivisionError):
            pass
    return Fraction(str(spec.get("gpus", 1)))
