"""Checks command outputs against a JSON Schema: every FILE.json and
FILE.yaml in DIR as a whole document, every line of FILE.jsonl against
$defs/jobLine. Usage: schema_check.py SCHEMA DIR. Exits 1 on any error or
when nothing was checked."""
import json, pathlib, sys

import yaml
from jsonschema import Draft202012Validator


def validators(schema_path):
    schema = json.load(open(schema_path))
    Draft202012Validator.check_schema(schema)
    return (Draft202012Validator(schema),
            Draft202012Validator({"$ref": "#/$defs/jobLine", "$defs": schema["$defs"]}))


def main():
    doc, line = validators(sys.argv[1])
    failures, checked = 0, 0
    for path in sorted(pathlib.Path(sys.argv[2]).iterdir()):
        text = path.read_text()
        if path.suffix == ".jsonl":
            items = [json.loads(l) for l in text.splitlines() if l.strip()]
            validator = line
        else:
            items = [json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)]
            validator = doc
        for item in items:
            checked += 1
            for error in validator.iter_errors(item):
                failures += 1
                print(f"{path.name}: {error.json_path}: {error.message}")
    print(f"{checked} documents checked, {failures} schema errors")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
