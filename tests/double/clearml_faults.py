"""Faults of the ClearML API test double (see clearml_server.py).

A fault is a JSON object; the first fault that matches a call is used (and
counted) for it:

  {"kind": K, "endpoint": "tasks.get_all" | "*", "skip": 0, "count": 1, ...}

`skip` lets that many matching calls through first; `count` is how many
calls it hits (-1: all). Kinds:

  status     answer HTTP `code` (default 503) without doing the call; 5xx
             other than 500 come as a proxy's HTML page, as they do in front
             of a real server; "apply": true does the call first
  drop       close the connection without an answer
  slow       wait `seconds` (default 1) and then answer normally
  html       answer 200 with an HTML page (a login page of a proxy)
  truncated  announce the whole body in Content-Length, send half and close
  huge       answer a valid envelope padded to `mb` MiB (default 300)
  shape      answer the call's data with a wrong shape: `variant` is one of
             data_null, data_list, no_meta, list_not_list, item_not_object,
             status_number, id_number, entries_not_list, code_string
  endless    tasks.get_all: every page also holds `n` (default 7) tasks
             never seen before, under the same scroll_id: a scroll
             without end
  drip       answer the envelope padded to `kb` KiB (default 1024), `rate`
             bytes a second (default 2048): a slow answer
  expire_tokens  revoke every token before the call (it then gets 401/30
             when it carries one)
  person     someone acts on a task: {"task": ID or name, "action": "stop" |
             "dequeue" | "move" | "run" | "relist" | "pop" | "delete",
             "to": QUEUE (move, relist; "pop": an agent's queues.get_next_task
             that has not started the task yet, a stopped one queued again),
             "on": "mutating" (default: the next call that changes that
             task) | ENDPOINT (the next such call that names the task) |
             "after:ENDPOINT" (right after such a call was answered),
             "when": "before" | "during" (tasks.enqueue: after the server
             read the task's status and before it changes it: 121)}
"""

import itertools
import json
import time

MUTATING = {"tasks.enqueue", "tasks.dequeue", "tasks.stop", "queues.add_task",
            "queues.remove_task", "queues.get_next_task", "queues.move_task_to_front",
            "queues.move_task_to_back"}
HTML_PAGE = (b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head>"
             b"<body><h1>Please sign in</h1><form action=\"/login\"></form></body></html>\n")


class Faults:
    def __init__(self, faults=()):
        self.faults = []
        self.add(faults)

    def add(self, faults):
        for fault in faults:
            fault = dict(fault)
            fault.setdefault("endpoint", "*")
            fault.setdefault("skip", 0)
            fault.setdefault("count", 1)
            fault.setdefault("hits", 0)
            self.faults.append(fault)

    def clear(self):
        self.faults = []

    @staticmethod
    def _live(fault):
        return fault["count"] < 0 or fault["hits"] < fault["count"]

    def _take(self, fault):
        if fault["skip"] > 0:
            fault["skip"] -= 1
            return False
        fault["hits"] += 1
        return True

    def match(self, endpoint):
        """The fault (not a person) that hits this call, or None."""
        for fault in self.faults:
            if fault["kind"] == "person" or not self._live(fault):
                continue
            if fault["endpoint"] in ("*", endpoint) and self._take(fault):
                return fault
        return None

    def persons(self, endpoint, body, model, after):
        """The persons that act on this call: before it (after=False) or after it."""
        out = []
        for fault in self.faults:
            if fault["kind"] != "person" or not self._live(fault):
                continue
            on = fault.get("on", "mutating")
            if after:
                if on == "after:" + endpoint and self._take(fault):
                    out.append(fault)
                continue
            if endpoint not in MUTATING or on not in ("mutating", endpoint):
                continue
            task = resolve_task(model, fault.get("task"))
            if task is not None and isinstance(body, dict) and body.get("task") == task and self._take(fault):
                out.append(fault)
        return out

    def pending(self):
        return [f for f in self.faults if self._live(f)]


def resolve_task(model, ref):
    if ref in model.tasks:
        return ref
    return next((t["id"] for t in model.tasks.values() if t.get("name") == ref), None)


def act(model, fault):
    """What a person does to a task, through the server's own calls."""
    task_id = resolve_task(model, fault.get("task"))
    if task_id is None:
        return
    action = fault.get("action", "stop")
    model.actor = "person"
    try:
        if action == "stop":
            model.tasks_stop({"task": task_id, "force": True, "status_reason": "stopped by a person"})
        elif action == "dequeue":
            model.tasks_dequeue({"task": task_id})
        elif action == "move":
            model.tasks_enqueue({"task": task_id, "queue_name": fault["to"]})
        elif action == "run":
            task = model.tasks[task_id]
            model.remove_from_all(task_id)
            model.change_status(task, "in_progress", "", "running", force=True,
                                last_worker="someone:gpu0", worker_live=True)
        elif action == "relist":
            # moved to another queue by queues.remove_task + queues.add_task: execution.queue unchanged
            model.remove_from_all(task_id)
            model.queues_add_task({"queue": model.queue_by_name(fault["to"])["id"], "task": task_id,
                                   "update_execution_queue": False})
        elif action == "pop":
            # an agent popped it (queues.get_next_task) and has not started it yet;
            # a stopped one (a stale entry) comes back queued, as the server's pop does
            model.remove_from_all(task_id)
            model.popped.add(task_id)
            if model.tasks[task_id]["status"] == "stopped":
                model.tasks[task_id]["status"] = "queued"
        elif action == "delete":
            model.remove_from_all(task_id)
            del model.tasks[task_id]
    except Exception:  # a person's failed click changes nothing more
        pass
    finally:
        model.actor = "api"


def mangle(reply, variant):
    """The reply {"meta", "data"} with a wrong shape (changed in place, returned)."""
    data = reply["data"]
    lists = [k for k, v in data.items() if isinstance(v, list)] if isinstance(data, dict) else []
    if variant == "data_null":
        reply["data"] = None
    elif variant == "data_list":
        reply["data"] = [data]
    elif variant == "no_meta":
        del reply["meta"]
    elif variant == "code_string":
        reply["meta"]["result_code"] = "200"
    elif variant == "list_not_list":
        for key in lists:
            data[key] = {"0": data[key][0] if data[key] else None}
    elif variant == "item_not_object":
        for key in lists:
            data[key] = [json.dumps(item) for item in data[key]] or ["x"]
    elif variant in ("status_number", "id_number", "entries_not_list"):
        field = {"status_number": "status", "id_number": "id", "entries_not_list": "entries"}[variant]
        for key in lists:
            for item in data[key]:
                if isinstance(item, dict):
                    item[field] = 7 if field != "entries" else "none"
    return reply


_endless_ids = itertools.count()


def endless_page(reply, fault):
    """A tasks.get_all reply with `n` tasks no page held before (an endless scroll)."""
    data = reply.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
        return reply
    for _ in range(int(fault.get("n", 7))):
        i = next(_endless_ids)
        data["tasks"].append({"id": "endless%08d" % i, "name": "endless-%d" % i, "status": "in_progress"})
    data.setdefault("scroll_id", "endless-scroll")
    return reply


def drip_bytes(payload, fault):
    """The reply padded to `kb` KiB and the pieces to send, with the pause after each."""
    kib = int(fault.get("kb", 1024))
    rate = max(1, int(fault.get("rate", 2048)))
    body = payload[:-1] + b', "padding": "' + b"x" * (kib << 10) + b'"}'
    piece = max(1, rate // 10)
    return body, [(body[i:i + piece], piece / rate) for i in range(0, len(body), piece)]


def send_drip(handler, payload, fault):
    """Sends the reply at `rate` bytes a second; stops when the client goes."""
    body, pieces = drip_bytes(payload, fault)
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    try:
        for chunk, pause in pieces:
            handler.wfile.write(chunk)
            handler.wfile.flush()
            time.sleep(pause)
    except OSError:
        pass
    handler.close_connection = True
