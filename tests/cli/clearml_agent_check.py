#!/usr/bin/env python3
"""Checks `rescfg export clearml-agent` output the way its readers see it.

  clearml_agent_check.py k8s CONFIG VALUES.yaml EXPORT.json
      Parses every Helm values document with PyYAML (a YAML 1.1 reader, like
      Helm's), and checks it against the configuration, read independently
      here: one document per pool in file order, each opened by its
      `# pool:` comment; the pool's queues in its execution priority order;
      maxResources and the resource-usage labels rounded down at the 6th
      digit; GPU limits, injector fractions and MIG slices of single-profile
      queues. The documents of `--format json` must be the same values.
      Each document names its chart in a `# chart:` comment, and carries the
      pool's written kubernetes.nodeLabels and tolerations in basePodTemplate.
  clearml_agent_check.py k8s-open CONFIG VALUES.yaml EXPORT.json
      The same for `--chart open`: the open-source chart's form, one
      comma-separated `queue` list in execution priority order,
      createQueueIfNotExists, and no per-queue map or monitoredResources.
  clearml_agent_check.py daemon CONFIG EXPORT.json ARGV_DIR
      ARGV_DIR holds the arguments (NUL-separated, one file per call, in
      order) a stand-in `clearml-agent` received when sh ran the command
      lines: they must be the words of the export, once per machine of a
      pool with nodes (--gpus of one machine), and those words the pool's
      queues in execution priority order with their GPU amounts.
"""
import json
import math
import os
import sys
from fractions import Fraction

import yaml

FIELD = "metadata|labels|clear.ml/resource-usage"
INJECTOR = {1: "0.0625", 2: "0.125", 4: "0.250", 6: "0.375", 8: "0.500", 10: "0.625", 12: "0.750", 14: "0.875"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def quantity(value):
    return Fraction(str(value).replace(" ", ""))


def floor6(q):
    micro = math.floor(q * 10**6)
    whole, frac = divmod(micro, 10**6)
    return str(whole) + ("." + f"{frac:06d}".rstrip("0") if frac else "")


def pool_size(pool):
    if pool.get("resources") is not None:
        return quantity(pool["resources"])
    return quantity(pool["nodes"]["count"]) * quantity(pool["nodes"]["gpus"])


def pool_queues(config, pool):
    """[(queue, [profiles])] of a pool, in its execution priority order."""
    own = pool.get("queue", pool["name"])
    profiles = {p["name"]: p for p in config.get("profiles", [])}
    linking = [p["name"] for p in config.get("profiles", []) if any(l["pool"] == pool["name"] for l in p["links"])]
    queues = {}
    for name in pool.get("executionPriority") or linking:
        link = next(l for l in profiles[name]["links"] if l["pool"] == pool["name"])
        queues.setdefault(link.get("queue", own), []).append(profiles[name])
    return list(queues.items())


def comments(text):
    names = []
    for line in text.splitlines():
        if line.startswith("# pool: "):
            name = line[len("# pool: "):]
            names.append(json.loads(name) if name.startswith('"') else name)
    return names


def charts(text):
    """The `# chart:` comment line of each document, in order."""
    return [line for line in text.splitlines() if line.startswith("# chart: ")]


def tolerations(pool):
    """The pool's tolerations as a Kubernetes pod spec lists them."""
    out = []
    for t in (pool.get("kubernetes") or {}).get("tolerations") or []:
        item = {k: v for k, v in t.items() if v not in (None, "")}
        item.setdefault("operator", "Equal")
        out.append(item)
    return out


def check_base(pool, glue):
    """basePodTemplate: the pool's written node labels and tolerations."""
    where = f"pool {pool['name']!r}"
    base = glue.get("basePodTemplate", {})
    labels = (pool.get("kubernetes") or {}).get("nodeLabels")
    want = {k: ("" if v is None else str(v)) for k, v in labels.items()} if labels else None
    check(base.get("nodeSelector") == want, f"{where}: nodeSelector {base.get('nodeSelector')}, expected {want}")
    got = base.get("tolerations")
    check((got or []) == tolerations(pool), f"{where}: tolerations {got}, expected {tolerations(pool)}")


def check_queue(pool, queue, profiles, values):
    where = f"pool {pool['name']!r} queue {queue!r}"
    overrides = values.get("templateOverrides", {})
    labels = overrides.get("labels", {})
    limits = overrides.get("resources", {}).get("limits")
    check(isinstance(labels.get("clear.ml/resource-usage"), str), f"{where}: no string resource-usage label")
    if len(profiles) != 1:
        return
    profile = profiles[0]
    allotment = quantity(profile["allotment"])
    check(labels.get("clear.ml/resource-usage") == floor6(allotment), f"{where}: label {labels} for {allotment}")
    if "dynamic" in profile:
        check(limits is None, f"{where}: a dynamic profile's queue has a GPU limit {limits}")
        return
    fractions = pool.get("gpuFractions", "injector")
    if allotment.denominator == 1:
        check(limits == {"nvidia.com/gpu": int(allotment)}, f"{where}: limits {limits} for {allotment}")
        check("clearml-injector/fraction" not in labels, f"{where}: injector label on whole GPUs")
    elif allotment < 1 and fractions == "injector" and (allotment * 16) in INJECTOR:
        check(labels.get("clearml-injector/fraction") == INJECTOR[int(allotment * 16)], f"{where}: labels {labels}")
        check(limits is None, f"{where}: injector queue with limits {limits}")
    elif isinstance(fractions, dict):
        slices = {quantity(k): v for k, v in fractions["mig"].items()}
        if allotment in slices:
            check(limits == {slices[allotment]: 1}, f"{where}: limits {limits}, expected one {slices[allotment]}")


def check_k8s(config, text, exported, open_chart=False):
    docs = list(yaml.safe_load_all(text))
    names = comments(text)
    chart = "# chart: allegroai/clearml-agent " if open_chart else "# chart: clearml-enterprise/clearml-enterprise-agent "
    check(len(charts(text)) == len(names) and all(c.startswith(chart) for c in charts(text)),
          f"documents do not each name the chart {chart!r}: {charts(text)}")
    if open_chart:
        check_open(config, docs, names, exported)
        return
    pools = [p for p in config["pools"] if p["name"] in names]
    check(names == [p["name"] for p in pools], f"# pool: comments {names} are not pools in file order")
    check(len(docs) == len(names), f"{len(docs)} documents for {len(names)} # pool: comments")
    check([p["pool"] for p in exported["pools"]] == names, "--format json pools differ from the comments")
    check(docs == [p["values"] for p in exported["pools"]], "--format json values differ from the YAML")
    for pool, doc in zip(pools, docs):
        check(list(doc) == ["agentk8sglue"], f"pool {pool['name']!r}: top-level keys {list(doc)}")
        glue = doc["agentk8sglue"]
        check_base(pool, glue)
        check(glue.get("createQueues") is True, f"pool {pool['name']!r}: createQueues is not true")
        monitored = glue.get("monitoredResources", {})
        check(monitored.get("minResourcesFieldName") == FIELD and monitored.get("maxResourcesFieldName") == FIELD,
              f"pool {pool['name']!r}: monitoredResources fields {monitored}")
        size = pool_size(pool)
        check(isinstance(monitored.get("maxResources"), (int, float)) and
              quantity(monitored["maxResources"]) == Fraction(floor6(size)),
              f"pool {pool['name']!r}: maxResources {monitored.get('maxResources')} for size {size}")
        expected = pool_queues(config, pool)
        served = glue.get("queues", {})
        want = [q for q, _ in expected] or [pool.get("queue", pool["name"])]
        check(list(served) == want, f"pool {pool['name']!r}: queues {list(served)}, expected {want}")
        for queue, profiles in expected:
            if queue in served:
                check_queue(pool, queue, profiles, served[queue])


def check_open(config, docs, names, exported):
    pools = [p for p in config["pools"] if p["name"] in names]
    check([p["pool"] for p in exported["pools"]] == names, "--format json pools differ from the comments")
    check(docs == [p["values"] for p in exported["pools"]], "--format json values differ from the YAML")
    for pool, doc in zip(pools, docs):
        where = f"pool {pool['name']!r}"
        check(list(doc) == ["agentk8sglue"], f"{where}: top-level keys {list(doc)}")
        glue = doc["agentk8sglue"]
        check_base(pool, glue)
        check(set(glue) <= {"queue", "createQueueIfNotExists", "basePodTemplate"}, f"{where}: keys {list(glue)}")
        check(glue.get("createQueueIfNotExists") is True, f"{where}: createQueueIfNotExists is not true")
        want = [q for q, _ in pool_queues(config, pool)] or [pool.get("queue", pool["name"])]
        check(glue.get("queue") == ",".join(want),
              f"{where}: queue {glue.get('queue')!r}, expected {','.join(want)!r}")


def check_daemon(config, exported, argv_dir):
    calls = sorted(os.listdir(argv_dir), key=int)
    # One command line per machine of a pool with nodes, the same words on each.
    commands = [p for p in exported["pools"] if p["argv"] is not None for _ in range(p.get("machines", 1))]
    check(len(calls) == len(commands), f"sh ran clearml-agent {len(calls)} times for {len(commands)} command lines")
    for pool_doc in exported["pools"]:
        pool = next(p for p in config["pools"] if p["name"] == pool_doc["pool"])
        nodes = pool.get("nodes")
        check(pool_doc["argv"] is None or pool_doc.get("machines", 1) == (nodes["count"] if nodes else 1),
              f"pool {pool['name']!r}: {pool_doc.get('machines')} machines")
    for call, pool_doc in zip(calls, commands):
        with open(os.path.join(argv_dir, call), "rb") as f:
            received = f.read().decode().split("\0")[:-1]
        check(received == pool_doc["argv"][1:], f"pool {pool_doc['pool']!r}: sh passed {received}")
        pool = next(p for p in config["pools"] if p["name"] == pool_doc["pool"])
        nodes = pool.get("nodes")
        size = quantity(nodes["gpus"]) if nodes else pool_size(pool)
        if size.denominator == 1:
            check(pool_doc["argv"][:6] == ["clearml-agent", "daemon", "--dynamic-gpus", "--gpus", f"0-{size - 1}",
                                           "--queue"], f"pool {pool['name']!r}: argv {pool_doc['argv']}")
        check(pool_doc["argv"][-1] == "--docker", f"pool {pool['name']!r}: argv does not end in --docker")
        words = pool_doc["argv"][6:-1]
        expected = pool_queues(config, pool)
        check([w.rsplit("=", 1)[0] for w in words] == [q for q, _ in expected],
              f"pool {pool['name']!r}: queue words {words}")
        for word, (queue, profiles) in zip(words, expected):
            amount = quantity(word.rsplit("=", 1)[1])
            check(amount.denominator == 1 or (amount < 1 and (amount * 8).denominator == 1),
                  f"{word}: not an amount the agent takes")
            if len(profiles) == 1:
                check(amount >= quantity(profiles[0]["allotment"]), f"{word}: less than the allotment")


def main():
    mode, config_file = sys.argv[1], sys.argv[2]
    with open(config_file, encoding="utf-8") as f:
        config = yaml.safe_load(f)
    if mode in ("k8s", "k8s-open"):
        with open(sys.argv[3], encoding="utf-8") as f:
            text = f.read()
        with open(sys.argv[4], encoding="utf-8") as f:
            check_k8s(config, text, json.load(f), mode == "k8s-open")
    else:
        with open(sys.argv[3], encoding="utf-8") as f:
            check_daemon(config, json.load(f), sys.argv[4])
    for failure in failures:
        print(f"FAIL: {config_file}: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


main()
