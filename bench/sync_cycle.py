#!/usr/bin/env python3
"""One cycle of `rescfg sync` against the loopback ClearML API double: a
benchmark, not a test.

  bench/sync_cycle.py RESCFG [--double tests/double/clearml_server.py]
                      [--policies 1000] [--queued 10] [--running 2] [--page 500]

The scenario: POLICIES policies, each with QUEUED queued tasks in its policy
queue and RUNNING running tasks in a pool, and a limit one task above what
it runs, so that each policy moves exactly one task (1 000 moves by
default); ten pools with room for all of it. It prints the cycle's time,
the part spent waiting for the server and rescfg's own part, from the
sync's summary line, and the wall-clock time of the whole run.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

POOLS = 10


def config_text(policies, running):
    lines = ["apiVersion: rescfg/v1", "kind: ResourceConfiguration", "pools:"]
    size = (policies * (running + 1)) // POOLS
    for p in range(POOLS):
        lines.append(f"  - {{name: pool{p}, resources: {size}, queue: pool{p}}}")
    links = ", ".join(f"{{pool: pool{p}, queue: pool{p}-1gpu}}" for p in range(POOLS))
    lines += ["profiles:", f"  - {{name: 1xGPU, allotment: 1, links: [{links}]}}", "policies:"]
    for q in range(policies):
        lines.append(f"  - {{name: team{q}, limit: {running + 1}, profiles: [{{profile: 1xGPU, queue: team{q}}}]}}")
    return "\n".join(lines) + "\n"


def setup_json(policies, queued, running, page):
    queues = [{"name": f"team{q}"} for q in range(policies)]
    queues += [{"name": f"pool{p}"} for p in range(POOLS)] + [{"name": f"pool{p}-1gpu"} for p in range(POOLS)]
    tasks = []
    for q in range(policies):
        for i in range(queued):
            tasks.append({"id": f"q{q}-{i}", "name": f"train-{q}-{i}", "status": "queued", "queue": f"team{q}"})
        for i in range(running):
            # Running in the pool whose link queue it came from.
            tasks.append({"id": f"r{q}-{i}", "name": f"run-{q}-{i}", "status": "in_progress",
                          "queue": f"pool{(q + i) % POOLS}-1gpu"})
    return {"credentials": [{"key": "bench-key", "secret": "bench-secret"}], "max_page_size": page,
            "queues": queues, "tasks": tasks}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("rescfg")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--double", default=os.path.join(here, "..", "tests", "double", "clearml_server.py"))
    parser.add_argument("--policies", type=int, default=1000)
    parser.add_argument("--queued", type=int, default=10)
    parser.add_argument("--running", type=int, default=2)
    parser.add_argument("--page", type=int, default=500)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="rescfg-sync-bench-")
    double = None
    try:
        with open(os.path.join(work, "config.yaml"), "w") as f:
            f.write(config_text(args.policies, args.running))
        with open(os.path.join(work, "setup.json"), "w") as f:
            json.dump(setup_json(args.policies, args.queued, args.running, args.page), f)
        subprocess.run([args.rescfg, "-q", "provision", os.path.join(work, "config.yaml"), "--state",
                        os.path.join(work, "state")], check=True, stdout=subprocess.DEVNULL)
        port_file = os.path.join(work, "port")
        double = subprocess.Popen([sys.executable, args.double, "--port-file", port_file, "--setup",
                                   os.path.join(work, "setup.json")], stderr=subprocess.DEVNULL)
        for _ in range(400):
            if os.path.exists(port_file) and os.path.getsize(port_file) > 0:
                break
            time.sleep(0.05)
        url = "http://127.0.0.1:" + open(port_file).read().strip()
        env = dict(os.environ, CLEARML_API_ACCESS_KEY="bench-key", CLEARML_API_SECRET_KEY="bench-secret")
        start = time.monotonic()
        run = subprocess.run([args.rescfg, "sync", "--state", os.path.join(work, "state"), "--clearml-server", url,
                              "--once"], env=env, capture_output=True, text=True)
        wall = time.monotonic() - start
        moves = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
        summary = next((line for line in run.stderr.splitlines() if "tasks read" in line), "")
        m = re.search(r"; ([0-9.]+) s, ([0-9.]+) s waiting for the server", summary)
        if run.returncode not in (0, 1) or not m:
            print(run.stderr, file=sys.stderr)
            sys.exit(f"the sync failed (exit {run.returncode})")
        cycle, server = float(m.group(1)), float(m.group(2))
        own = cycle - server
        moved = sum(1 for r in moves if r["result"] == "moved")
        print(summary)
        print(f"tasks: {args.policies * (args.queued + args.running)}, policies: {args.policies}, moved: {moved}")
        print(f"cycle {cycle:.3f} s, waiting for the server {server:.3f} s, rescfg's own part {own:.3f} s "
              f"({100 * own / cycle if cycle else 0:.1f}% of the cycle); whole run {wall:.3f} s")
    finally:
        if double:
            double.terminate()
            double.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
