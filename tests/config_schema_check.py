"""Checks schemas/config.schema.json against the testdata.

Every valid configuration must pass; every file whose expected findings are
all shape findings must fail; files whose problems are beyond the shape
(references, capacity, warnings) must pass, since the schema describes
exactly the shape the loader accepts.

Usage: python3 config_schema_check.py SCHEMA TESTDATA_DIR
"""
import json
import pathlib
import sys

import jsonschema
import yaml

# Codes the schema can see.
SHAPE = {"unknown-key", "missing-field", "wrong-type", "bad-api-version", "bad-kind",
         "bad-value", "bad-name", "bad-dynamic-parameter", "bad-gpu-fractions", "bad-kubernetes", "bad-nodes", "bad-duration"}
# Python's YAML reader cannot tell (duplicate keys: last wins) or cannot read.
UNREADABLE = {"yaml-syntax", "invalid-utf8", "multiple-documents", "duplicate-key"}
# Amounts off the 1/9009000000 grid look like numbers to a schema; only
# these files' amounts are outside what the schema allows.
SHAPE_QUANTITY_FILES = {"bad-quantity.yaml", "bad-quantity-zero.yaml", "guaranteed-above-resources.yaml"}


def expected_codes(path):
    codes = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("# expect: "):
                break
            codes.add(line.split()[2])
    return codes


def main():
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    testdata = pathlib.Path(sys.argv[2])
    failures = []
    checked = {"pass": 0, "fail": 0}

    def errors_of(path):
        with open(path, "rb") as f:
            document = yaml.safe_load(f)
        return [e.message for e in validator.iter_errors(document)]

    for path in sorted((testdata / "valid").glob("*.yaml")) + sorted((testdata / "examples").glob("*.yaml")):
        if "kind: ResourceConfiguration" not in path.read_text(encoding="utf-8"):
            continue
        errors = errors_of(path)
        checked["pass"] += 1
        if errors:
            failures.append(f"{path}: valid configuration fails the schema: {errors[:3]}")

    for path in sorted((testdata / "invalid").glob("*.yaml")):
        codes = expected_codes(path)
        if codes & UNREADABLE:
            continue
        if "bad-quantity" in codes:
            must_fail = path.name in SHAPE_QUANTITY_FILES
        elif codes <= SHAPE:
            must_fail = True
        elif codes & SHAPE:
            continue  # a mix; not asserted
        else:
            must_fail = False
        errors = errors_of(path)
        checked["fail" if must_fail else "pass"] += 1
        if must_fail and not errors:
            failures.append(f"{path}: expects {sorted(codes)} but passes the schema")
        if not must_fail and errors:
            failures.append(f"{path}: shape is fine ({sorted(codes)}) but fails the schema: {errors[:3]}")

    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    if checked["fail"] < 10 or checked["pass"] < 10:
        print(f"FAIL: too few files checked: {checked}", file=sys.stderr)
        return 1
    print(f"schema: {checked['pass']} files pass and {checked['fail']} fail as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
