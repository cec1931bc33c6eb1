"""Checks the output of `rescfg export kueue` as a cluster would.

1. Every object validates against the CRD schema of its kind and version
   (testdata/kueue-crds: the spec.versions[] entry named by its apiVersion,
   its schema.openAPIV3Schema, JSON Schema Draft 7).
2. Every CEL rule (x-kubernetes-validations) of those schemas holds. Each
   rule text is read here by hand; a rule this script does not know fails,
   so new CRDs cannot slip through unchecked. Transition rules (oldSelf)
   apply to updates only.
3. The rules of Kueue's admission webhooks: names are DNS-1123 labels of at
   most 63 characters, unique per kind; borrowingLimit and lendingLimit only
   with a cohort (a parent for Cohorts); lendingLimit <= nominalQuota; at most
   16 resource groups; a resource and a flavor in one group only.
4. With EXPORT=CONFIG: rescfg(5), KUBERNETES against the configuration: a ResourceFlavor
   per pool, a LocalQueue per policy queue, per flavor the nominal quotas add
   up to the pool's size, a policy queue's ClusterQueue lists exactly its
   profile's pools in link order, `enabled: false` holds every ClusterQueue
   (and a paused policy holds its own, as do pools that are all paused);
   reservations (the policies' Cohorts' nominal quota) within each pool's
   guaranteed capacity; no queue starved: where rescfg places a job of a policy queue on an idle
   cluster (its allotment fits the pool and its limit), the queue's
   ClusterQueue can take that much of the flavor (nominal quota and
   borrowing up the Cohort tree), unless the policy's limit is below its
   reservation plus one job of each queue in each pool (then the export may
   have to starve one, and says so in an error finding).

Usage: python3 kueue_crd_check.py CRD_DIR EXPORT.yaml[=CONFIG.yaml]...
"""
import fractions
import pathlib
import re
import sys

import jsonschema
import yaml

API = "kueue.x-k8s.io/v1beta2"
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"]
TICKS_PER_GPU = 9009000000


def all_resources(cq):
    for rg in cq.get("resourceGroups", []):
        for f in rg["flavors"]:
            for r in f["resources"]:
                yield r


# CEL rule text -> a Python reading of it (self as a dict or list).
CEL = {
    "!(self.reclaimWithinCohort == 'Never' && has(self.borrowWithinCohort) &&  self.borrowWithinCohort.policy != 'Never')":
        lambda s: not (s.get("reclaimWithinCohort", "Never") == "Never" and "borrowWithinCohort" in s
                       and s["borrowWithinCohort"].get("policy", "Never") != "Never"),
    "!has(self.cohortName) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, f.resources.all(r, !has(r.borrowingLimit)))) : true":
        lambda s: ("cohortName" in s or "resourceGroups" not in s
                   or all("borrowingLimit" not in r for r in all_resources(s))),
    "!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == 'TryNextFlavor')":
        lambda s: "preference" not in s or (s.get("whenCanBorrow", "MayStopSearch") == "TryNextFlavor"
                                            and s.get("whenCanPreempt", "TryNextFlavor") == "TryNextFlavor"),
    "!has(self.topologyName) || self.nodeLabels.size() >= 1":
        lambda s: "topologyName" not in s or len(s.get("nodeLabels", {})) >= 1,
    "self.all(x, !has(x.effect) || x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])":
        lambda s: all("effect" not in x or x["effect"] in EFFECTS for x in s),
    "self.all(x, !has(x.key) ? x.operator == 'Exists' : true)":
        lambda s: all("key" in x or x.get("operator") == "Exists" for x in s),
    "self.all(x, !has(x.operator) || x.operator in ['Equal', 'Exists'])":
        lambda s: all(x.get("operator", "Equal") in ("Equal", "Exists") for x in s),
    "self.all(x, has(x.operator) && x.operator == 'Exists' ? !has(x.value) : true)":
        lambda s: all(not (x.get("operator") == "Exists" and "value" in x) for x in s),
    "self.all(x, has(x.tolerationSeconds) ? x.effect == 'NoExecute' : true)":
        lambda s: all("tolerationSeconds" not in x or x.get("effect") == "NoExecute" for x in s),
    "self.all(x, x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])":
        lambda s: all(x.get("effect") in EFFECTS for x in s),
    "self.flavors.all(x, size(x.resources) == size(self.coveredResources))":
        lambda s: all(len(x["resources"]) == len(s["coveredResources"]) for x in s["flavors"]),
}


def check_cel(schema, value, where, errors):
    """Walks an object along its schema, evaluating every CEL rule."""
    for rule in schema.get("x-kubernetes-validations", []):
        text = rule["rule"]
        if "oldSelf" in text:
            continue  # a transition rule: updates only
        if text not in CEL:
            errors.append(f"{where}: unknown CEL rule {text!r}: teach kueue_crd_check.py to read it")
        elif not CEL[text](value):
            errors.append(f"{where}: breaks CEL rule {text!r}: {rule.get('message', '')}")
    if isinstance(value, dict):
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                check_cel(sub, value[key], f"{where}.{key}", errors)
    elif isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check_cel(schema["items"], item, f"{where}[{i}]", errors)


def check_groups(who, groups, may_borrow, errors):
    if len(groups) > 16:
        errors.append(f"{who}: {len(groups)} resource groups, more than 16")
    seen_resources, seen_flavors = set(), set()
    for g in groups:
        if len(g["flavors"]) > 64:
            errors.append(f"{who}: a resource group with {len(g['flavors'])} flavors, more than 64")
        for r in g["coveredResources"]:
            if r in seen_resources:
                errors.append(f"{who}: resource {r} in two groups")
            seen_resources.add(r)
        for f in g["flavors"]:
            if f["name"] in seen_flavors:
                errors.append(f"{who}: flavor {f['name']} in two groups")
            seen_flavors.add(f["name"])
            if [r["name"] for r in f["resources"]] != g["coveredResources"]:
                errors.append(f"{who}: flavor {f['name']} does not list the covered resources in order")
            for r in f["resources"]:
                if r["nominalQuota"] < 0:
                    errors.append(f"{who}: negative nominalQuota")
                for limit in ("borrowingLimit", "lendingLimit"):
                    if limit in r and not may_borrow:
                        errors.append(f"{who}: {limit} without a cohort")
                    if limit in r and r[limit] < 0:
                        errors.append(f"{who}: negative {limit}")
                if "lendingLimit" in r and r["lendingLimit"] > r["nominalQuota"]:
                    errors.append(f"{who}: lendingLimit above nominalQuota")


def check_webhooks(objects, errors):
    names = set()
    flavors = {o["metadata"]["name"] for o in objects if o["kind"] == "ResourceFlavor"}
    cohorts = {o["metadata"]["name"] for o in objects if o["kind"] == "Cohort"}
    queues = {o["metadata"]["name"] for o in objects if o["kind"] == "ClusterQueue"}
    for o in objects:
        meta = o["metadata"]
        key = (o["kind"], meta.get("namespace", ""), meta["name"])
        if key in names:
            errors.append(f"{o['kind']} {meta['name']}: twice")
        names.add(key)
        if not DNS_LABEL.match(meta["name"]):
            errors.append(f"{o['kind']} {meta['name']!r}: not a DNS-1123 label of at most 63")
        spec = o.get("spec", {})
        # References resolve (Kueue keeps a ClusterQueue inactive otherwise).
        for g in spec.get("resourceGroups", []) if isinstance(spec, dict) else []:
            for f in g["flavors"]:
                if f["name"] not in flavors:
                    errors.append(f"{o['kind']} {meta['name']}: flavor {f['name']} is no ResourceFlavor")
        for ref in ("cohortName", "parentName"):
            if isinstance(spec, dict) and ref in spec and spec[ref] not in cohorts:
                errors.append(f"{o['kind']} {meta['name']}: {ref} {spec[ref]} is no Cohort")
        if o["kind"] == "LocalQueue" and spec["clusterQueue"] not in queues:
            errors.append(f"LocalQueue {meta['name']}: clusterQueue {spec['clusterQueue']} is missing")
        if o["kind"] == "ClusterQueue":
            check_groups(f"ClusterQueue {meta['name']}", spec.get("resourceGroups", []), "cohortName" in spec, errors)
        if o["kind"] == "Cohort":
            check_groups(f"Cohort {meta['name']}", spec.get("resourceGroups", []), "parentName" in spec, errors)
        if o["kind"] == "LocalQueue" and not DNS_LABEL.match(meta["namespace"]):
            errors.append(f"LocalQueue {meta['name']}: namespace {meta['namespace']!r}")


def amount(text):
    return fractions.Fraction(str(text).replace(" ", ""))


def check_config(objects, config, errors):
    k8s = config.get("kubernetes") or {}
    ticks = bool(k8s.get("ticksResource"))
    resource = k8s.get("ticksResource") or k8s.get("gpuResource") or "nvidia.com/gpu"
    per_gpu = TICKS_PER_GPU if ticks else 1
    of_kind = lambda kind: [o for o in objects if o["kind"] == kind]
    pools = {p["name"]: p for p in config.get("pools") or []}
    flavor_pool = {}
    for f in of_kind("ResourceFlavor"):
        flavor_pool[f["metadata"]["name"]] = f["metadata"]["annotations"]["rescfg.io/pool"]
    if sorted(flavor_pool.values()) != sorted(pools):
        errors.append(f"ResourceFlavors {sorted(flavor_pool.values())} are not one per pool {sorted(pools)}")
    quota = {name: 0 for name in flavor_pool}
    for o in of_kind("ClusterQueue") + of_kind("Cohort"):
        for g in o["spec"].get("resourceGroups", []):
            for f in g["flavors"]:
                for r in f["resources"]:
                    if r["name"] == resource:
                        quota[f["name"]] += r["nominalQuota"]
    for flavor, total in quota.items():
        size = pool_size(pools[flavor_pool[flavor]]) * per_gpu
        if total != size:
            errors.append(f"flavor {flavor}: nominal quotas add up to {total}, not the pool's {size}")
    reserved = {name: 0 for name in flavor_pool}
    for o in of_kind("Cohort"):
        if "rescfg.io/policy" not in (o["metadata"].get("annotations") or {}):
            continue
        for g in o["spec"].get("resourceGroups", []):
            for f in g["flavors"]:
                reserved[f["name"]] += sum(r["nominalQuota"] for r in f["resources"] if r["name"] == resource)
    for flavor, total in reserved.items():
        pool = pools[flavor_pool[flavor]]
        guaranteed = amount(pool["guaranteed"]) if pool.get("guaranteed") is not None else pool_size(pool)
        if total > guaranteed * per_gpu:
            errors.append(f"flavor {flavor}: reservations hold {total}, more than the pool's guaranteed "
                          f"{guaranteed * per_gpu}")
    profiles = {p["name"]: p for p in config.get("profiles") or []}
    queues = sum(len(p.get("profiles") or []) for p in config.get("policies") or [])
    if len(of_kind("LocalQueue")) != queues or len(of_kind("ClusterQueue")) != queues:
        errors.append(f"{queues} policy queues, but {len(of_kind('LocalQueue'))} LocalQueues "
                      f"and {len(of_kind('ClusterQueue'))} ClusterQueues")
    paused = {p["name"] for p in config.get("policies") or [] if p.get("paused")}
    for cq in of_kind("ClusterQueue"):
        profile = profiles[cq["metadata"]["annotations"]["rescfg.io/profile"]]
        links = [link if isinstance(link, str) else link["pool"] for link in profile.get("links") or []]
        listed = [flavor_pool[f["name"]] for g in cq["spec"]["resourceGroups"] for f in g["flavors"]]
        if listed != links:
            errors.append(f"ClusterQueue {cq['metadata']['name']} lists {listed}, not {links}")
        all_pools_paused = all(pools[p].get("paused") for p in links)
        held = (config.get("enabled") is False or cq["metadata"]["annotations"]["rescfg.io/policy"] in paused
                or all_pools_paused)
        if (cq["spec"]["stopPolicy"] == "Hold") != held:
            errors.append(f"ClusterQueue {cq['metadata']['name']}: stopPolicy {cq['spec']['stopPolicy']}")
    check_starvation(objects, config, resource, per_gpu, {p: f for f, p in flavor_pool.items()}, errors)


def idle_capacity(objects, resource):
    """{(ClusterQueue, flavor): what it may take on an idle cluster}."""
    cohorts = {c["metadata"]["name"]: c for c in objects if c["kind"] == "Cohort"}
    cqs = [o for o in objects if o["kind"] == "ClusterQueue"]
    inf = float("inf")

    def quota(spec, flavor):
        for g in spec.get("resourceGroups", []):
            for f in g["flavors"]:
                if f["name"] == flavor:
                    for r in f["resources"]:
                        if r["name"] == resource:
                            return r
        return None

    children, members, memo = {}, {}, {}
    for c, o in cohorts.items():
        children.setdefault(o["spec"].get("parentName"), []).append(c)
    for cq in cqs:
        members.setdefault(cq["spec"].get("cohortName"), []).append(cq)

    def subtree(name, flavor):
        if ("s", name, flavor) not in memo:
            q = quota(cohorts[name]["spec"], flavor)
            total = q["nominalQuota"] if q else 0
            total += sum(subtree(c, flavor) for c in children.get(name, []))
            total += sum((quota(cq["spec"], flavor) or {}).get("nominalQuota", 0) for cq in members.get(name, []))
            memo[("s", name, flavor)] = total
        return memo[("s", name, flavor)]

    def above(name, flavor):
        if ("a", name, flavor) not in memo:
            own = subtree(name, flavor)
            parent = cohorts[name]["spec"].get("parentName")
            q = quota(cohorts[name]["spec"], flavor) or {}
            memo[("a", name, flavor)] = own if not parent else own + min(
                q.get("borrowingLimit", inf), max(0, above(parent, flavor) - own))
        return memo[("a", name, flavor)]

    out = {}
    for cq in cqs:
        for g in cq["spec"].get("resourceGroups", []):
            for f in g["flavors"]:
                q = quota(cq["spec"], f["name"])
                if q is None:
                    continue
                out[(cq["metadata"]["name"], f["name"])] = q["nominalQuota"] + min(
                    q.get("borrowingLimit", inf), above(cq["spec"]["cohortName"], f["name"]))
    return out


def check_starvation(objects, config, resource, per_gpu, flavor_of, errors):
    pools = {p["name"]: p for p in config.get("pools") or []}
    profiles = {p["name"]: p for p in config.get("profiles") or []}
    capacity = None
    for cq in [o for o in objects if o["kind"] == "ClusterQueue"]:
        ann = cq["metadata"]["annotations"]
        policy = next(p for p in config["policies"] if p["name"] == ann["rescfg.io/policy"])
        profile = profiles[ann["rescfg.io/profile"]]
        limit = amount(policy["limit"]) if policy.get("limit") is not None else None
        needs = {}
        for entry in policy.get("profiles") or []:
            other = profiles[entry if isinstance(entry, str) else entry["profile"]]
            for link in other.get("links") or []:
                name = link if isinstance(link, str) else link["pool"]
                a = amount(other["allotment"])
                if fits(pools[name], a) and (limit is None or a <= limit):
                    needs[name] = max(needs.get(name, 0), a)
        if limit is not None and amount(policy.get("reserved") or 0) + sum(needs.values()) > limit:
            continue  # the export may have to starve a queue, and says so
        capacity = capacity or idle_capacity(objects, resource)
        for link in profile.get("links") or []:
            name = link if isinstance(link, str) else link["pool"]
            a = amount(profile["allotment"])
            if not fits(pools[name], a) or (limit is not None and a > limit):
                continue
            need = int(a * per_gpu)  # quota units, rounded down as the export counts
            got = capacity.get((cq["metadata"]["name"], flavor_of[name]), 0)
            if got < need:
                errors.append(f"ClusterQueue {cq['metadata']['name']} may take {got} in {flavor_of[name]}, "
                              f"less than one job ({need}): Kueue starves a queue rescfg serves there")


def fits(pool, a):
    """Whether a job of `a` fits the pool when nothing runs there: with nodes,
    on one machine or as whole machines the pool has."""
    nodes = pool.get("nodes")
    if not nodes:
        return a <= pool_size(pool)
    gpus = amount(nodes["gpus"])
    return a <= gpus or (a % gpus == 0 and a / gpus <= amount(nodes["count"]))


def pool_size(pool):
    if pool.get("resources") is not None:
        return amount(pool["resources"])
    nodes = pool.get("nodes") or {}
    return amount(nodes.get("count", 0)) * amount(nodes.get("gpus", 0))


def load_all(path):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: 1000 policies are 7000 objects
    with open(path, encoding="utf-8") as f:
        return [o for o in yaml.load_all(f, Loader=loader) if o is not None]


def check_export(schemas, export, config_path):
    """The errors of one export, checked against its configuration when given."""
    objects = load_all(export)
    errors = []
    if not objects:
        errors.append(f"{export} holds no object")
    for i, o in enumerate(objects):
        where = f"{export}: document {i + 1} ({o.get('kind')} {o.get('metadata', {}).get('name')})"
        if o.get("apiVersion") != API:
            errors.append(f"{where}: apiVersion {o.get('apiVersion')!r}, not {API}")
        if (o.get("kind"), o.get("apiVersion")) not in schemas:
            errors.append(f"{where}: no CRD for this kind and version")
            continue
        schema, validator = schemas[(o.get("kind"), o.get("apiVersion"))]
        for e in validator.iter_errors(o):
            errors.append(f"{where}: {'.'.join(map(str, e.path))}: {e.message}")
        check_cel(schema, o, where, errors)
    if not errors:
        check_webhooks(objects, errors)
    if config_path and not errors:
        check_config(objects, load_all(config_path)[0], errors)
    if not errors:
        kinds = sorted({o["kind"] for o in objects})
        print(f"{export}: {len(objects)} objects ({', '.join(kinds)}) valid")
    return errors


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schemas = {}
    for path in sorted(pathlib.Path(argv[1]).glob("kueue.x-k8s.io_*.yaml")):
        crd = load_all(path)[0]
        for version in crd["spec"]["versions"]:
            schema = version["schema"]["openAPIV3Schema"]
            jsonschema.Draft7Validator.check_schema(schema)
            key = (crd["spec"]["names"]["kind"], crd["spec"]["group"] + "/" + version["name"])
            schemas[key] = (schema, jsonschema.Draft7Validator(schema))
    if len(schemas) != 10:
        print(f"FAIL: expected 5 CRDs of 2 versions in {argv[1]}, found {sorted(schemas)}", file=sys.stderr)
        return 1
    failed = 0
    for arg in argv[2:]:
        export, _, config = arg.partition("=")
        errors = check_export(schemas, export, config)
        for e in errors[:20]:
            print("FAIL:", e, file=sys.stderr)
        failed += bool(errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
