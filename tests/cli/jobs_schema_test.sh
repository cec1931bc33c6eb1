#!/bin/bash
# schemas/jobs.schema.json accepts every valid jobs file in testdata/jobs
# (and the examples) and rejects the broken ones (testdata/jobs/bad-*).
# Usage: jobs_schema_test.sh RESCFG_BINARY SOURCE_DIR
set -euo pipefail
src=${2:?usage: $0 rescfg source-dir}
exec /usr/bin/python3 - "$src" <<'PY'
import json, pathlib, sys
try:
    import jsonschema, yaml
except ImportError as e:
    sys.exit(f"jobs_schema_test: needs python3-jsonschema and python3-yaml ({e})")

src = pathlib.Path(sys.argv[1])
schema = json.loads((src / "schemas/jobs.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
document = jsonschema.Draft202012Validator(schema)
job = jsonschema.Draft202012Validator(
    {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/job"})

class Loader(yaml.SafeLoader):
    """Keeps RFC 3339 times as the strings rescfg reads."""
Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

def problems(path):
    """Schema errors of a jobs file; a file that cannot be parsed is one error."""
    try:
        if path.suffix in (".jsonl", ".ndjson"):
            errors = []
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if line.strip():
                    errors += [f"line {number}: {e.message}" for e in job.iter_errors(json.loads(line))]
            return errors
        return [e.message for e in document.iter_errors(yaml.load(path.read_text(encoding="utf-8"), Loader))]
    except (ValueError, yaml.YAMLError) as e:
        return [f"cannot parse: {e}"]

failed = 0
files = sorted((src / "testdata/jobs").glob("*.yaml")) + sorted((src / "testdata/jobs").glob("*.jsonl"))
files.append(src / "testdata/examples/worked-example-jobs.yaml")
for path in files:
    errors = problems(path)
    expect_bad = path.name.startswith("bad-")
    if bool(errors) != expect_bad:
        failed += 1
        print(f"FAIL {path.relative_to(src)}: " + ("accepted, but it is broken" if expect_bad else "; ".join(errors)))
    else:
        print(f"ok   {path.relative_to(src)}")

# A few hand-made jobs, one JSON Lines object each.
cases = [
    ({"id": "a", "policy": "Dev", "profile": "4xGPU"}, True),
    ({"id": "a", "queue": "dev-4gpu", "enqueued": "2026-11-29T10:00:00.5+02:00"}, True),
    ({"id": "a", "queue": "q", "state": "running", "pool": "P", "resources": "1/7"}, True),
    ({"id": "a", "queue": "q", "params": {"runtime.gpus_request": {"value": "2"}, "x": [1]}}, True),
    ({"policy": "Dev", "profile": "4xGPU"}, False),
    ({"id": "a", "policy": "Dev"}, False),
    ({"id": "a", "queue": "q", "state": "running"}, False),
    ({"id": "a", "queue": "q", "state": "done"}, False),
    ({"id": 7, "queue": "q"}, False),
    ({"id": "a", "queue": "q", "enqueued": "2026-11-29"}, False),
    ({"id": "a", "queue": "q", "resources": -1}, False),
    ({"id": "a", "queue": "q", "params": [1]}, False),
]
for value, valid in cases:
    if job.is_valid(value) != valid:
        failed += 1
        print(f"FAIL {json.dumps(value)}: expected {'valid' if valid else 'invalid'}")
sys.exit(1 if failed else 0)
PY
