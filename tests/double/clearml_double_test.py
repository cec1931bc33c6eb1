#!/usr/bin/env python3
"""Self-test of the ClearML API test double (clearml_server.py): that it
answers as the real server's logic says, so that the tests of `rescfg sync`
built on it prove something. Run: python3 -m unittest clearml_double_test."""

import base64
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BASIC = "Basic " + base64.b64encode(b"key-1:secret-1").decode()


class Server:
    def __init__(self, setup):
        self.dir = tempfile.TemporaryDirectory()
        setup = dict(setup)
        setup.setdefault("credentials", [{"key": "key-1", "secret": "secret-1"}])
        with open(os.path.join(self.dir.name, "setup.json"), "w") as f:
            json.dump(setup, f)
        self.port_file = os.path.join(self.dir.name, "port")
        self.log = os.path.join(self.dir.name, "log.jsonl")
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "clearml_server.py"),
                                      "--port-file", self.port_file, "--setup",
                                      os.path.join(self.dir.name, "setup.json"), "--log", self.log])
        for _ in range(200):
            if os.path.exists(self.port_file):
                break
            time.sleep(0.02)
        with open(self.port_file) as f:
            self.port = int(f.read())
        self.auth = BASIC

    def reset(self, setup):
        setup = dict(setup)
        setup.setdefault("credentials", [{"key": "key-1", "secret": "secret-1"}])
        self.ctl("reset", setup)
        self.auth = BASIC
        open(self.log, "w").close()

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.dir.cleanup()

    def raw(self, path, body, auth=None, timeout=10):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if auth:
            headers["Authorization"] = auth
        try:
            conn.request("POST", path, json.dumps(body), headers)
            resp = conn.getresponse()
            return resp.status, resp.getheader("Content-Type"), resp.read()
        finally:
            conn.close()

    def call(self, endpoint, body=None, auth="default"):
        status, _, payload = self.raw("/" + endpoint, body or {}, self.auth if auth == "default" else auth)
        return status, json.loads(payload)

    def ok(self, endpoint, body=None):
        status, reply = self.call(endpoint, body)
        assert status == 200, (endpoint, body, reply)
        return reply["data"]

    def ctl(self, action, body=None):
        status, _, payload = self.raw("/_double/" + action, body or {})
        assert status == 200, payload
        return json.loads(payload)

    def task(self, task_id):
        return self.ok("tasks.get_all", {"id": [task_id]})["tasks"][0]

    def queue_of(self, task_id):
        queues = self.ok("queues.get_all", {"search_hidden": True})["queues"]
        return [q["name"] for q in queues if any(e["task"] == task_id for e in q["entries"])]

    def qid(self, name):
        return self.ok("queues.get_all", {"name": name})["queues"][0]["id"]


SERVER = None


def setUpModule():
    global SERVER
    SERVER = Server({})


def tearDownModule():
    SERVER.close()


class DoubleTest(unittest.TestCase):
    setup_doc = {}

    def setUp(self):
        self.s = SERVER
        self.s.reset(self.setup_doc)

    def refused(self, endpoint, body, http, subcode, auth="default"):
        status, reply = self.s.call(endpoint, body, auth)
        self.assertEqual((status, reply["meta"]["result_code"], reply["meta"]["result_subcode"]),
                         (http, http, subcode), reply)


class Envelope(DoubleTest):
    def test_envelope_and_unknown_endpoint(self):
        status, reply = self.s.call("v2.31/queues.get_all")
        self.assertEqual(status, 200)
        for key in ("id", "trx", "endpoint", "result_code", "result_subcode", "result_msg"):
            self.assertIn(key, reply["meta"])
        self.assertEqual(reply["meta"]["endpoint"]["name"], "queues.get_all")
        self.refused("tasks.no_such_call", {}, 404, 0)
        with open(self.s.log) as f:
            lines = [json.loads(line) for line in f]
        self.assertEqual([e["endpoint"] for e in lines], ["queues.get_all", "tasks.no_such_call"])
        with open(self.s.log) as f:
            self.assertNotIn("secret-1", f.read())


class Auth(DoubleTest):
    setup_doc = {"token_calls": 2}

    def test_basic_and_tokens(self):
        self.refused("queues.get_all", {}, 401, 20, auth=None)
        self.refused("queues.get_all", {}, 401, 21, auth="Basic !!!")
        self.refused("queues.get_all", {}, 401, 22, auth="Basic " + base64.b64encode(b"key-1:wrong").decode())
        self.refused("queues.get_all", {}, 401, 10, auth="Digest x")
        self.refused("queues.get_all", {}, 401, 30, auth="Bearer made-up")
        token = self.s.ok("auth.login", {"expiration_sec": 3600})["token"]
        self.s.auth = "Bearer " + token
        self.s.ok("queues.get_all")
        self.s.ok("queues.get_all")
        self.refused("queues.get_all", {}, 401, 30)  # the third call: expired
        self.s.auth = BASIC
        self.s.auth = "Bearer " + self.s.ok("auth.login")["token"]
        self.s.ok("queues.get_all")
        self.s.ctl("expire_tokens")
        self.refused("queues.get_all", {}, 401, 30)

    def test_lifetime(self):
        self.s.reset({"token_lifetime": 0})
        self.s.auth = "Bearer " + self.s.ok("auth.login")["token"]
        self.refused("tasks.get_all", {}, 401, 30)


class Paging(DoubleTest):
    setup_doc = {"max_page_size": 100,
                 "tasks": [{"id": "t%04d" % i, "status": "queued" if i % 3 else "completed",
                            "queue": "q", "name": "n%d" % i} for i in range(350)]}

    def test_without_scroll_id_one_page_and_no_scroll(self):
        data = self.s.ok("tasks.get_all", {"size": 1000})
        self.assertEqual(len(data["tasks"]), 100)
        self.assertNotIn("scroll_id", data)

    def test_scroll_capped_pages_same_id_empty_end(self):
        body = {"status": ["queued"], "only_fields": ["id", "execution.queue"],
                "scroll_id": None, "size": 1000}
        seen, scroll, sizes = [], None, []
        while True:
            data = self.s.ok("tasks.get_all", body)
            if scroll is not None:
                self.assertEqual(data["scroll_id"], scroll)
            scroll = body["scroll_id"] = data["scroll_id"]
            sizes.append(len(data["tasks"]))
            if not data["tasks"]:
                break
            seen += data["tasks"]
        self.assertEqual(sizes, [100, 100, 33, 0])
        self.assertEqual(len({t["id"] for t in seen}), 233)
        self.assertEqual(set(seen[0]), {"id", "execution"})
        self.assertEqual(set(seen[0]["execution"]), {"queue"})

    def test_scroll_rules(self):
        self.refused("tasks.get_all", {"scroll_id": None}, 400, 12)
        first = self.s.ok("tasks.get_all", {"scroll_id": "", "size": 10})
        again = self.s.ok("tasks.get_all", {"scroll_id": "unknown", "size": 10})
        self.assertNotEqual(again["scroll_id"], first["scroll_id"])
        self.assertEqual(again["tasks"], first["tasks"])  # restarted from the beginning
        self.assertEqual(len(self.s.ok("tasks.get_all", {"id": ["t0001", "t0002"]})["tasks"]), 2)


class Moves(DoubleTest):
    setup_doc = {"queues": [{"name": "dev"}, {"name": "pool"}, {"name": "other"}],
                 "tasks": [{"id": "a", "status": "queued", "queue": "dev"},
                           {"id": "b", "status": "created"},
                           {"id": "c", "status": "in_progress", "queue": "dev"}]}

    def test_enqueue_keeps_execution_queue_and_moves(self):
        dev, pool = self.s.qid("dev"), self.s.qid("pool")
        data = self.s.ok("tasks.enqueue", {"task": "a", "queue": pool, "update_execution_queue": False,
                                           "status_reason": "rescfg: Dev/4xGPU -> H100"})
        self.assertEqual(data["queued"], 1)
        self.assertEqual(self.s.queue_of("a"), ["pool"])
        task = self.s.task("a")
        self.assertEqual((task["execution"]["queue"], task["status"], task["status_reason"]),
                         (dev, "queued", "rescfg: Dev/4xGPU -> H100"))
        self.refused("tasks.enqueue", {"task": "a", "queue": pool}, 400, 706)
        self.assertEqual(self.s.task("a")["status_reason"], "failed enqueueing")
        self.assertEqual(self.s.queue_of("a"), ["pool"])
        # a person's dequeue removes it only from the queue of execution.queue: the hazard
        self.s.ok("tasks.dequeue", {"task": "a"})
        self.assertEqual(self.s.task("a")["status"], "created")
        self.assertEqual(self.s.queue_of("a"), ["pool"])

    def test_refusals(self):
        pool = self.s.qid("pool")
        self.refused("tasks.enqueue", {"task": "b", "queue": pool, "update_execution_queue": False}, 400, 12)
        self.refused("tasks.enqueue", {"task": "c", "queue": pool}, 400, 110)
        self.refused("tasks.enqueue", {"task": "zz", "queue": pool}, 400, 101)
        self.refused("tasks.enqueue", {"task": "b", "queue": "nope"}, 400, 701)
        self.assertEqual(self.s.task("b")["status"], "created")
        self.refused("tasks.enqueue", {"task": "b"}, 400, 707)
        self.refused("queues.remove_task", {"queue": pool, "task": "a"}, 400, 703)
        self.assertEqual(self.s.ok("queues.remove_task", {"queue": self.s.qid("dev"), "task": "a"}),
                         {"removed": 1})
        self.assertEqual(self.s.task("a")["status"], "queued")  # queued in no queue now
        self.assertEqual(self.s.ok("queues.add_task", {"queue": pool, "task": "a",
                                                       "update_execution_queue": False}), {"added": 1})
        self.refused("queues.add_task", {"queue": pool, "task": "a"}, 400, 706)
        self.refused("tasks.stop", {"task": "b"}, 400, 110)  # created -> stopped

    def test_stop_and_compare_and_pop(self):
        pool, other = self.s.qid("pool"), self.s.qid("other")
        self.s.ok("tasks.enqueue", {"task": "a", "queue": pool, "update_execution_queue": False})
        self.s.ok("tasks.enqueue", {"task": "b", "queue": pool})
        self.assertEqual(self.s.ok("queues.get_next_task", {"queue": pool, "task": "b"}), {})
        self.assertEqual(self.s.ok("queues.get_next_task", {"queue": pool, "task": "a"})["entry"]["task"], "a")
        self.refused("queues.get_next_task", {"queue": "nope"}, 400, 701)
        self.s.ok("tasks.stop", {"task": "b"})
        self.assertEqual((self.s.task("b")["status"], self.s.queue_of("b")), ("stopped", []))
        self.s.ok("tasks.stop", {"task": "c"})  # no live worker: stopped at once
        self.assertEqual(self.s.task("c")["status"], "stopped")
        self.s.ok("tasks.enqueue", {"task": "c", "queue": other})  # stopped -> queued is legal
        self.assertEqual(self.s.queue_of("c"), ["other"])

    def test_persons(self):
        pool = self.s.qid("pool")
        self.s.ctl("faults", {"faults": [{"kind": "person", "task": "a", "action": "stop"}]})
        self.refused("tasks.enqueue", {"task": "a", "queue": pool, "update_execution_queue": False}, 400, 12)
        self.assertEqual(self.s.queue_of("a"), [])
        self.s.ctl("faults", {"faults": [{"kind": "person", "task": "b", "action": "move", "to": "other",
                                          "when": "during"}]})
        self.refused("tasks.enqueue", {"task": "b", "queue": pool}, 400, 121)
        self.assertEqual(self.s.queue_of("b"), ["other"])
        self.s.ctl("faults", {"faults": [{"kind": "person", "task": "b", "action": "dequeue",
                                          "on": "after:queues.get_all"}]})
        self.s.ok("queues.get_all")
        self.assertEqual((self.s.task("b")["status"], self.s.queue_of("b")), ("created", []))
        events = self.s.ctl("state")["events"]
        self.assertIn({"task": "b", "from": "other", "to": None, "by": "person"},
                      [{k: e[k] for k in ("task", "from", "to", "by")} for e in events])


class Hidden(DoubleTest):
    setup_doc = {"queues": [{"name": "pool"}, {"name": "k8s_scheduler", "system_tags": ["k8s-glue"]}]}

    def test_hidden_queue(self):
        names = lambda body: [q["name"] for q in self.s.ok("queues.get_all", body)["queues"]]
        self.assertEqual(names({}), ["pool"])
        self.assertEqual(names({"search_hidden": True}), ["pool", "k8s_scheduler"])
        self.assertEqual(names({"name": "k8s_scheduler"}), ["k8s_scheduler"])


class Agents(DoubleTest):
    setup_doc = {
        "queues": [{"name": "dev"}],
        "tasks": [{"id": "t%d" % i, "status": "queued", "queue": "dev", "name": "n%d" % i} for i in range(5)],
        "agents": [{"name": "bm", "host": "node-1", "capacity": 4, "run_ticks": 2,
                    "queues": [{"queue": "bm-pool", "gpus": 2}]},
                   {"name": "glue", "host": "k8s", "mode": "k8s", "capacity": 2, "run_ticks": 1,
                    "start_ticks": 1, "queues": [{"queue": "k8s-pool", "gpus": 2}]}]}

    def hand(self, task, queue):
        self.s.ok("tasks.enqueue", {"task": task, "queue": self.s.qid(queue), "update_execution_queue": False})

    def test_direct_agent_capacity_and_finish(self):
        for t in ("t0", "t1", "t2"):
            self.hand(t, "bm-pool")
        self.s.ctl("tick")
        status = {t: self.s.task(t)["status"] for t in ("t0", "t1", "t2")}
        self.assertEqual(status, {"t0": "in_progress", "t1": "in_progress", "t2": "queued"})
        workers = {w["id"]: w for w in self.s.ok("workers.get_all")["workers"] if w["task"]}
        self.assertEqual(sorted(workers), ["node-1:gpu0,1", "node-1:gpu2,3"])
        self.assertEqual({w["queue"]["name"] for w in workers.values()}, {"bm-pool"})
        self.assertEqual(self.s.queue_of("t0"), [])
        self.s.ctl("tick", {"n": 2})
        self.assertEqual(self.s.task("t0")["status"], "completed")
        self.assertEqual(self.s.task("t2")["status"], "in_progress")

    def test_k8s_glue_parks_then_runs(self):
        dev = self.s.qid("dev")
        self.hand("t3", "k8s-pool")
        self.hand("t4", "k8s-pool")
        self.s.ctl("tick")
        self.assertEqual(self.s.queue_of("t3"), ["k8s_scheduler"])
        task = self.s.task("t3")
        self.assertEqual((task["status"], task["execution"]["queue"], task["status_reason"]),
                         ("queued", dev, "k8s pending scheduler"))
        self.assertEqual(self.s.queue_of("t4"), ["k8s-pool"])  # the pool is full
        visible = [q["name"] for q in self.s.ok("queues.get_all")["queues"]]
        self.assertNotIn("k8s_scheduler", visible)
        self.s.ctl("tick")
        self.assertEqual((self.s.task("t3")["status"], self.s.queue_of("t3")), ("in_progress", []))
        self.s.ctl("tick")
        self.assertEqual(self.s.task("t3")["status"], "completed")
        self.assertEqual(self.s.queue_of("t4"), ["k8s_scheduler"])


class Faults(DoubleTest):
    setup_doc = {"tasks": [{"id": "t%d" % i, "status": "queued", "queue": "dev"} for i in range(3)]}

    def test_burst_html_shape_slow(self):
        self.s.ctl("faults", {"faults": [{"kind": "status", "endpoint": "tasks.get_all", "count": 2, "code": 503}]})
        self.assertEqual(self.s.raw("/tasks.get_all", {}, BASIC)[0], 503)
        self.assertEqual(self.s.raw("/tasks.get_all", {}, BASIC)[0], 503)
        self.assertEqual(self.s.raw("/tasks.get_all", {}, BASIC)[0], 200)
        self.s.ctl("faults", {"faults": [{"kind": "html"}]})
        status, ctype, payload = self.s.raw("/queues.get_all", {}, BASIC)
        self.assertEqual((status, ctype.split(";")[0]), (200, "text/html"))
        self.s.ctl("faults", {"faults": [{"kind": "shape", "variant": "item_not_object"}]})
        self.assertIsInstance(self.s.ok("tasks.get_all")["tasks"][0], str)
        self.s.ctl("faults", {"faults": [{"kind": "slow", "seconds": 0.3}]})
        start = time.monotonic()
        self.s.ok("tasks.get_all")
        self.assertGreaterEqual(time.monotonic() - start, 0.3)

    def test_truncated_huge_drop(self):
        self.s.ctl("faults", {"faults": [{"kind": "truncated"}]})
        with self.assertRaises(http.client.IncompleteRead):
            self.s.raw("/tasks.get_all", {}, BASIC)
        self.s.ctl("faults", {"faults": [{"kind": "huge", "mb": 3}]})
        status, _, payload = self.s.raw("/tasks.get_all", {}, BASIC)
        self.assertGreater(len(payload), 3 << 20)
        self.assertEqual(len(json.loads(payload)["data"]["tasks"]), 3)
        self.s.ctl("faults", {"faults": [{"kind": "drop"}]})
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionError)):
            self.s.raw("/tasks.get_all", {}, BASIC)
        self.assertEqual(self.s.raw("/tasks.get_all", {}, BASIC)[0], 200)

    def test_dump(self):
        path = os.path.join(self.s.dir.name, "dump.json")
        self.s.ctl("dump", {"path": path})
        with open(path) as f:
            self.assertEqual(len(json.load(f)["tasks"]), 3)


class Invariants(unittest.TestCase):
    """sync_invariants.check on states built by hand."""
    LAYOUT = {"pools": {"Metal": {"size": 8, "queues": ["metal-2gpu"]},
                        "K8s": {"size": 8, "queues": ["k8s-2gpu"]}},
              "policies": {"Sandbox": {"limit": None, "queues": {
                  "sandbox-2gpu": {"need": 2, "to": ["metal-2gpu", "k8s-2gpu"]}}}}}

    @staticmethod
    def state(moves, api_stops):
        events = [{"task": "t1", "from": None, "to": "sandbox-2gpu", "by": "test"}]
        for to in moves:
            events += [{"task": "t1", "from": "sandbox-2gpu", "to": None, "by": "api"},
                       {"task": "t1", "from": None, "to": to, "by": "api"},
                       {"task": "t1", "from": to, "to": None, "by": "agent"},
                       {"task": "t1", "from": None, "to": "sandbox-2gpu", "by": "api"}]  # re-queued
        events.pop()
        for seq, event in enumerate(events, 1):
            event.update(seq=seq, status="queued")
        queues = [{"name": n, "entries": []} for n in ("sandbox-2gpu", "metal-2gpu", "k8s-2gpu")]
        return {"tasks": [{"id": "t1", "name": "t", "status": "in_progress"}], "queues": queues,
                "events": events, "origin": {"t1": "sandbox-2gpu"}, "api_stops": api_stops, "popped": []}

    def test_a_preempted_task_is_handed_over_again(self):
        from sync_invariants import check
        _, problems = check(self.state(["metal-2gpu", "k8s-2gpu"], {"t1": 1}), self.LAYOUT)
        self.assertEqual(problems, [])

    def test_a_second_hand_over_without_a_preemption_is_one_too_many(self):
        from sync_invariants import check
        _, problems = check(self.state(["metal-2gpu", "k8s-2gpu"], {}), self.LAYOUT)
        self.assertIn("task t1 was handed over 2 times", problems)


if __name__ == "__main__":
    unittest.main()
