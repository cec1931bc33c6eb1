#!/usr/bin/env python3
"""A test double of the ClearML API server, for the tests of `rescfg sync`.

It is NOT a ClearML server: a small imitation, on loopback, of the calls a
loop that moves tasks between queues makes, with the shapes and the logic
of allegroai/clearml-server (API 2.31) that matter to such a loop. Python's
standard library only.

  clearml_server.py --port-file FILE [--setup SETUP.json] [--log LOG.jsonl]

It listens on 127.0.0.1, on a free port that it writes to FILE (atomically,
once it accepts connections), serves until it gets SIGTERM, keeps its state
in memory and appends every request to LOG as one JSON line {"seq", "time",
"method", "path", "endpoint", "content_type", "auth", "body", "http", "subcode",
"fault"}
(the Authorization header is never logged).

SETUP holds {"credentials": [{"key", "secret"}], "token_lifetime": seconds
(default 30 days), "token_calls": N (a token is refused after N calls),
"max_page_size": N (default 500), "queues": [{name, system_tags, entries}],
"tasks": [{..., "queue": NAME}], "workers": [...], "agents": [...] (see
clearml_agents.py), "faults": [...] (see clearml_faults.py)}.

The API (POST or GET, JSON body, optional /vX.Y/ prefix), each answer the
envelope {"meta": {id, trx, endpoint, result_code, result_subcode,
result_msg, error_stack, error_data}, "data": {...}}:
  auth.login (Basic key:secret -> {"token"}; later calls send Bearer)
  tasks.get_all, tasks.enqueue, tasks.dequeue, tasks.stop, tasks.stopped
  queues.get_all, queues.get_by_id, queues.add_task, queues.remove_task,
  queues.get_next_task, queues.move_task_to_front, workers.get_all
Refusals: HTTP 400 with result subcodes (12, 101, 110, 121, 701, 703, 706,
707); HTTP 401 with 20 (no credentials), 10 (another scheme), 21
(malformed Basic), 22 (unknown key or secret), 30 (a bad, revoked or
expired token); HTTP 404 for an unknown endpoint.

Control, without credentials, under /_double/: GET state; POST reset
{SETUP} (a fresh state), dump
{"path"}, tick {"n"}, faults {"faults": [...]}, faults/clear, tasks
{"tasks": [...]} -> {"ids"}, queues {"queues": [...]}, agents {"agents":
[...]}, person {task, action, to}, expire_tokens, check {"layout": FILE,
"records": FILE, "counts": FILE, "state": FILE} (the promises of
sync_invariants.py, and the move records of an output), shutdown.
"""

import argparse
import base64
import binascii
import json
import os
import re
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clearml_agents import Agent  # noqa: E402
from clearml_storm import Storm  # noqa: E402
from clearml_faults import HTML_PAGE, Faults, act, endless_page, mangle, send_drip  # noqa: E402
from clearml_model import ApiError, Model, now_text  # noqa: E402
from sync_invariants import check, check_records  # noqa: E402

API_VERSION = "2.31"
DEFAULT_TOKEN_LIFETIME = 2592000  # apiserver.auth.default_expiration_sec


class NotDone(Exception):
    """The call is not made: a fault answers in its place."""


class Double:
    """The model, the agents, the faults, the tokens and the request log."""

    def __init__(self, setup, log_path):
        self.lock = threading.Lock()
        self.log_path = log_path
        self.reset(setup)

    def reset(self, setup):
        """A fresh state from a setup document (the log goes on)."""
        if getattr(self, "storm", None) is not None:
            self.storm.done.set()  # a storm acts on the old model no more
        self.storm = None
        self.model = Model(setup)
        self.agents = [Agent(spec, self.model) for spec in setup.get("agents", [])]
        self.faults = Faults(setup.get("faults", []))
        self.credentials = {c["key"]: c["secret"] for c in setup.get("credentials", [])}
        self.token_lifetime = setup.get("token_lifetime")
        self.token_calls = setup.get("token_calls")
        self.tokens = {}  # token -> {"expires": epoch seconds, "calls": n}
        self.seq = 0
        self.ticks = 0
        self.calls = {}   # endpoint -> count

    def log(self, entry):
        if self.log_path:
            with open(self.log_path, "a") as out:
                out.write(json.dumps(entry) + "\n")

    # -- authentication (service_repo/auth) ----------------------------------
    def authenticate(self, header):
        """The identity for an Authorization header, or an ApiError 401."""
        if not header:
            raise ApiError(401, 20, "unauthorized (missing credentials)")
        scheme, _, value = header.partition(" ")
        if scheme == "Basic":
            try:
                key, sep, secret = base64.b64decode(value.strip(), validate=True).decode().partition(":")
            except (binascii.Error, UnicodeDecodeError):
                raise ApiError(401, 21, "unauthorized (malformed credentials)")
            if not sep:
                raise ApiError(401, 21, "unauthorized (malformed credentials)")
            if self.credentials.get(key) != secret:
                raise ApiError(401, 22, "unauthorized (invalid credentials)")
            return "basic"
        if scheme == "Bearer":
            token = self.tokens.get(value.strip())
            if token is None or token["expires"] <= time.time():
                raise ApiError(401, 30, "invalid token")
            token["calls"] += 1
            if self.token_calls is not None and token["calls"] > self.token_calls:
                raise ApiError(401, 30, "invalid token (expired)")
            return "bearer"
        raise ApiError(401, 10, "unauthorized (bad authentication header type)")

    def login(self, body):
        lifetime = DEFAULT_TOKEN_LIFETIME
        if isinstance(body.get("expiration_sec"), int) and body["expiration_sec"] > 0:
            lifetime = body["expiration_sec"]
        if self.token_lifetime is not None:
            lifetime = min(lifetime, self.token_lifetime)  # "might be overridden by the service"
        token = "tok-" + uuid.uuid4().hex + uuid.uuid4().hex
        self.tokens[token] = {"expires": time.time() + lifetime, "calls": 0}
        return {"token": token}

    # -- calls -----------------------------------------------------------------
    def call(self, endpoint, body, person_during=None):
        model = self.model
        calls = {
            "auth.login": self.login,
            "tasks.get_all": model.tasks_get_all,
            "tasks.enqueue": lambda b: model.tasks_enqueue(b, person_during),
            "tasks.dequeue": model.tasks_dequeue,
            "tasks.stop": model.tasks_stop,
            "tasks.stopped": model.tasks_stopped,
            "queues.move_task_to_front": model.queues_move_task_to_front,
            "queues.get_all": model.queues_get_all,
            "queues.get_by_id": model.queues_get_by_id,
            "queues.add_task": model.queues_add_task,
            "queues.remove_task": model.queues_remove_task,
            "queues.get_next_task": model.queues_get_next_task,
            "workers.get_all": lambda b: model.workers_get_all(
                b, [w for a in self.agents for w in a.workers(model)]),
        }
        if endpoint not in calls:
            raise ApiError(404, 0, f"Unable to find endpoint for name {endpoint} and version {API_VERSION}")
        if not isinstance(body, dict):
            raise ApiError(400, 12, "validation error: the request body is not a JSON object")
        return calls[endpoint](body)

    def tick(self, n):
        for _ in range(n):
            self.ticks += 1
            for agent in self.agents:
                agent.tick(self.model)

    def state(self):
        snap = self.model.snapshot()
        snap["workers"] += [w for a in self.agents for w in a.workers(self.model)]
        snap["ticks"] = self.ticks
        snap["calls"] = dict(self.calls)
        snap["faults_pending"] = self.faults.pending()
        return snap

    def storm_control(self, action, body):
        """The storm of clearml_storm.py: start, calm, counts, stop."""
        storm = getattr(self, "storm", None)
        if action == "start":
            with open(body["layout"]) as f:
                self.storm = Storm(self, body, json.load(f))
            self.agents.append(self.storm)
            self.storm.thread.start()
            return {}
        if storm is None:
            raise ApiError(400, 0, "no storm")
        if action == "calm":
            storm.calm = True
            return {}
        if action == "counts":  # while it goes on
            return {"counts": dict(storm.counts)}
        storm.done.set()
        storm.finish(self.model)
        return {"violations": storm.violations, "counts": storm.counts}

    def control(self, action, body):
        if action == "state":
            return self.state()
        if action == "check":  # files are relative to the double's directory
            with open(body["layout"]) as f:
                state, layout = self.state(), json.load(f)
            counts, problems = check(state, layout)
            if body.get("records"):
                with open(body["records"]) as f:
                    problems += check_records(state, f)
            for key, doc in (("counts", counts), ("state", state)):
                if body.get(key):
                    with open(body[key], "w") as out:
                        json.dump(doc, out)
            return {"problems": problems, "counts": counts}
        if action == "reset":
            self.reset(body)
            return {}
        if action == "dump":
            tmp = body["path"] + ".tmp"
            with open(tmp, "w") as out:
                json.dump(self.state(), out, indent=1)
            os.replace(tmp, body["path"])
            return {"dumped": body["path"]}
        if action == "tick":
            self.tick(int(body.get("n", 1)))
            return {"ticks": self.ticks}
        if action == "faults":
            self.faults.add(body.get("faults", []))
            return {"faults": len(self.faults.faults)}
        if action == "faults/clear":
            self.faults.clear()
            return {}
        if action == "tasks":
            self.model.actor = "test"
            try:
                return {"ids": [self.model.create_task(t)["id"] for t in body.get("tasks", [])]}
            finally:
                self.model.actor = "api"
        if action == "queues":
            return {"ids": [self.model.create_queue(q)["id"] for q in body.get("queues", [])]}
        if action == "agents":
            self.agents += [Agent(spec, self.model) for spec in body.get("agents", [])]
            return {"agents": len(self.agents)}
        if action == "person":
            act(self.model, body)
            return {}
        if action.startswith("storm/"):
            return self.storm_control(action[len("storm/"):], body)
        if action == "expire_tokens":
            self.tokens.clear()
            return {}
        raise ApiError(404, 0, f"no control {action}")


def envelope(endpoint, code=200, subcode=0, msg="OK", data=None):
    call_id = uuid.uuid4().hex
    return {"meta": {"id": call_id, "trx": call_id,
                     "endpoint": {"name": endpoint, "requested_version": API_VERSION,
                                  "actual_version": API_VERSION},
                     "result_code": code, "result_subcode": subcode, "result_msg": msg,
                     "error_stack": None, "error_data": {}},
            "data": data if data is not None else {}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the real server behind its proxy
    # Headers and body go out in two writes: without TCP_NODELAY every answer
    # on a kept-alive connection waits for the client's delayed ACK (40 ms).
    disable_nagle_algorithm = True
    server_version = "clearml-double/1"

    def log_message(self, *args):  # quiet: the JSON log is the record
        pass

    def send_bytes(self, status, payload, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.handle_call()

    def do_POST(self):
        self.handle_call()

    def handle_call(self):
        double = self.server.double
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = self.path.split("?")[0]
        endpoint = re.sub(r"^/(v\d+\.\d+/)?", "", path)
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError:
            body = None
        if endpoint.startswith("_double/"):
            return self.handle_control(double, endpoint[len("_double/"):], body or {})
        entry = {"time": now_text(), "method": self.command, "path": path, "endpoint": endpoint,
                 "content_type": self.headers.get("Content-Type"),
                 "body": body if body is not None else raw.decode(errors="replace")[:2000]}
        fault, reply, status, after = None, None, 200, []
        with double.lock:
            double.seq += 1
            entry["seq"] = double.seq
            double.calls[endpoint] = double.calls.get(endpoint, 0) + 1
            try:
                fault = double.faults.match(endpoint)
                kind = fault["kind"] if fault else None
                if kind == "expire_tokens":
                    double.tokens.clear()
                entry["auth"] = double.authenticate(self.headers.get("Authorization"))
                if kind in ("status", "drop", "html") and not fault.get("apply"):
                    raise NotDone
                person_during = None
                for person in double.faults.persons(endpoint, body, double.model, after=False):
                    if person.get("when") == "during" and endpoint == "tasks.enqueue":
                        person_during = (lambda p: lambda: act(double.model, p))(person)
                    else:
                        act(double.model, person)
                data = double.call(endpoint, body, person_during)
                reply = envelope(endpoint, data=data)
                if kind == "endless" and endpoint == "tasks.get_all":
                    endless_page(reply, fault)
                after = double.faults.persons(endpoint, body, double.model, after=True)
                for person in after:
                    act(double.model, person)
            except NotDone:
                pass
            except ApiError as error:
                status = error.http
                reply = envelope(endpoint, error.http, error.subcode, error.msg)
            entry.setdefault("auth", "refused")
        entry.update(http=status, subcode=reply["meta"]["result_subcode"] if reply else None,
                     fault=fault["kind"] if fault else None)
        if fault and fault["kind"] == "slow":
            time.sleep(float(fault.get("seconds", 1)))
        self.answer(double, fault, status, reply, entry)

    def answer(self, double, fault, status, reply, entry):
        kind = fault["kind"] if fault else None
        if kind in ("status", "drop", "html", "truncated", "huge", "shape", "drip") and status != 200:
            kind = None  # a refusal (e.g. 401) wins over a fault that needs an answer
        if kind == "status":
            code = int(fault.get("code", 503))
            entry["http"] = code
            double.log(entry)
            if code == 500:
                payload = json.dumps(envelope(entry["endpoint"], 500, 0, "Internal server error")).encode()
                return self.send_bytes(code, payload)
            return self.send_bytes(code, b"<html><body><h1>%d Service Unavailable</h1></body></html>" % code,
                                   "text/html")
        double.log(entry)
        if kind == "drop":
            self.close_connection = True
            return
        if kind == "html":
            return self.send_bytes(200, HTML_PAGE, "text/html; charset=utf-8")
        payload = json.dumps(mangle(reply, fault["variant"]) if kind == "shape" else reply).encode()
        if kind == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload[:len(payload) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if kind == "huge":
            return self.send_huge(payload, int(fault.get("mb", 300)))
        if kind == "drip":
            return send_drip(self, payload, fault)
        self.send_bytes(status, payload)

    def send_huge(self, payload, mib):
        """A valid envelope of `mib` MiB: the reply with a long padding string."""
        head, tail = payload[:-1] + b', "padding": "', b'"}'
        pad = mib << 20
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(head) + pad + len(tail)))
        self.end_headers()
        chunk = b"x" * (1 << 20)
        try:
            self.wfile.write(head)
            for _ in range(mib):
                self.wfile.write(chunk)
            self.wfile.write(tail)
        except OSError:
            self.close_connection = True  # the client gave up: what it should do

    def handle_control(self, double, action, body):
        try:
            if action == "shutdown":
                self.send_bytes(200, b"{}")
                threading.Thread(target=self.server.shutdown, daemon=True).start()
                return
            with double.lock:
                data = double.control(action, body)
            self.send_bytes(200, json.dumps(data).encode())
        except (ApiError, KeyError, TypeError, ValueError, OSError) as error:
            self.send_bytes(400, json.dumps({"error": str(error)}).encode())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--setup")
    parser.add_argument("--log")
    args = parser.parse_args()
    setup = {}
    if args.setup:
        with open(args.setup) as f:
            setup = json.load(f)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.double = Double(setup, args.log)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown, daemon=True).start())
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever(poll_interval=0.05)


if __name__ == "__main__":
    main()
