#!/usr/bin/env python3
"""A test double of the ClearML API server, for the loop recipe's test.

It is NOT a ClearML server. It serves, on loopback, the four calls the
recipe makes, with the request and response shapes of the ClearML REST API
(every answer is {"meta": {...}, "data": {...}}; see the API schema of
allegroai/clearml-server, apiserver/schema/services, API 2.31):

  tasks.get_all    data.tasks; filters `status` (a list) and `id`;
                   `only_fields` (dotted paths); paging by `page`/`page_size`
  queues.get_all   data.queues, each with its ordered `entries`
  workers.get_all  data.workers
  tasks.enqueue    {"task", "queue" | "queue_name", "update_execution_queue"}:
                   moves the task into the queue (out of any other); with
                   update_execution_queue false it must already be queued and
                   its execution.queue stays; answers data {"updated", "queued"}

Requests must carry HTTP basic credentials (the key and secret given on the
command line), as `curl -u KEY:SECRET` sends them; others get a 401 answer.
Every request is appended to the log as one JSON line {"method", "path",
"user", "body"}; the state after each enqueue is kept in the state file, so
a test can check both.

  clearml_api_double.py STATE.json LOG.jsonl PORT_FILE KEY SECRET

STATE.json holds {"tasks": [...], "queues": [...], "workers": [...]} in the
API's shapes. The server listens on 127.0.0.1 on a free port, writes the
port to PORT_FILE and serves until it is terminated.
"""

import base64
import copy
import json
import os
import sys
import uuid
from http.server import BaseHTTPRequestHandler, HTTPServer

state_path, log_path, port_path, key, secret = sys.argv[1:6]
with open(state_path) as f:
    state = json.load(f)


def meta(endpoint, code=200, message="OK"):
    call = uuid.uuid4().hex
    return {"id": call, "trx": call, "endpoint": {"name": endpoint, "requested_version": "2.31",
                                                  "actual_version": "2.31"},
            "result_code": code, "result_subcode": 0, "result_msg": message, "error_stack": "",
            "error_data": {}}


def pick(task, fields):
    """The task with only `fields` (dotted paths), as only_fields does."""
    out = {}
    for field in fields:
        src, dst, parts = task, out, field.split(".")
        for part in parts[:-1]:
            if not isinstance(src, dict) or part not in src:
                break
            src = src[part]
            dst = dst.setdefault(part, {})
        else:
            if isinstance(src, dict) and parts[-1] in src:
                dst[parts[-1]] = copy.deepcopy(src[parts[-1]])
    return out


class Failure(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def tasks_get_all(body):
    tasks = state["tasks"]
    if "status" in body:
        tasks = [t for t in tasks if t.get("status") in body["status"]]
    if "id" in body:
        tasks = [t for t in tasks if t.get("id") in body["id"]]
    if "page" in body or "page_size" in body:
        page, size = int(body.get("page", 0)), int(body.get("page_size", 500))
        tasks = tasks[page * size:(page + 1) * size]
    if "only_fields" in body:
        tasks = [pick(t, body["only_fields"]) for t in tasks]
    return {"tasks": tasks}


def tasks_enqueue(body):
    task = next((t for t in state["tasks"] if t.get("id") == body.get("task")), None)
    if task is None:
        raise Failure(400, "Invalid task id: " + str(body.get("task")))
    if "queue" in body:
        queue = next((q for q in state["queues"] if q["id"] == body["queue"]), None)
    else:
        queue = next((q for q in state["queues"] if q["name"] == body.get("queue_name")), None)
    if queue is None:
        raise Failure(400, "Invalid queue id or name")
    keep_execution_queue = body.get("update_execution_queue", True) is False
    if keep_execution_queue and task.get("status") != "queued":
        raise Failure(400, "update_execution_queue false is allowed only for a task that is already enqueued")
    for q in state["queues"]:
        q["entries"] = [e for e in q.get("entries", []) if e["task"] != task["id"]]
    queue["entries"].append({"task": task["id"], "added": "2026-11-29T12:00:00.000000+00:00"})
    task["status"] = "queued"
    if not keep_execution_queue:
        task.setdefault("execution", {})["queue"] = queue["id"]
    with open(state_path, "w") as f:
        json.dump(state, f, indent=2)
    return {"updated": 1, "fields": {"status": "queued"}, "queued": 1}


CALLS = {
    "tasks.get_all": tasks_get_all,
    "queues.get_all": lambda body: {"queues": state["queues"]},
    "workers.get_all": lambda body: {"workers": state["workers"]},
    "tasks.enqueue": tasks_enqueue,
}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet: the log file is the record
        pass

    def answer(self, status, payload):
        text = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def handle_call(self, raw):
        endpoint = self.path.lstrip("/").split("?")[0]
        user = None
        header = self.headers.get("Authorization", "")
        if header.startswith("Basic "):
            user = base64.b64decode(header[6:]).decode(errors="replace")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"<not json>": raw.decode(errors="replace")}
        with open(log_path, "a") as log:
            log.write(json.dumps({"method": self.command, "path": self.path, "user": user,
                                  "content_type": self.headers.get("Content-Type"), "body": body}) + "\n")
        if user != key + ":" + secret:
            return self.answer(401, {"meta": meta(endpoint, 401, "Unauthorized (missing credentials)"), "data": {}})
        if endpoint not in CALLS:
            return self.answer(400, {"meta": meta(endpoint, 400, "Invalid request path /" + endpoint), "data": {}})
        if not isinstance(body, dict):
            return self.answer(400, {"meta": meta(endpoint, 400, "Invalid request body"), "data": {}})
        try:
            data = CALLS[endpoint](body)
        except Failure as failure:
            return self.answer(failure.code, {"meta": meta(endpoint, failure.code, str(failure)), "data": {}})
        self.answer(200, {"meta": meta(endpoint), "data": data})

    def do_POST(self):
        self.handle_call(self.rfile.read(int(self.headers.get("Content-Length", 0))))

    def do_GET(self):
        self.handle_call(b"")


server = HTTPServer(("127.0.0.1", 0), Handler)  # one request at a time, in order
with open(port_path + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(port_path + ".tmp", port_path)
server.serve_forever()
