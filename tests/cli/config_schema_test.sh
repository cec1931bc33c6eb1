#!/bin/bash
# schemas/config.schema.json accepts exactly the shape rescfg reads: checked
# against testdata with Python's jsonschema (Draft 2020-12) and PyYAML.
# Usage: config_schema_test.sh RESCFG SOURCE_DIR
set -eu
src=$2
python=/usr/bin/python3
if ! "$python" -c 'import jsonschema, yaml; jsonschema.Draft202012Validator' 2>/dev/null; then
  echo "FAIL: needs python3-jsonschema (>= 4) and python3-yaml; run scripts/install-deps.sh" >&2
  exit 1
fi
"$python" "$src/tests/config_schema_check.py" "$src/schemas/config.schema.json" "$src/testdata"
