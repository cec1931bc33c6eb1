#!/bin/bash
# rescfg validate from the command line: formats, exit codes, many files,
# --strict, and hostile input. Usage: validate_test.sh RESCFG SOURCE_DIR
set -u
rescfg=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_exit CODE ARGS...: runs rescfg validate, output in $tmp/out and $tmp/err.
expect_exit() {
  local want=$1
  shift
  timeout 10 "$rescfg" validate "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "validate $* exited $got, expected $want: $(head -c 300 "$tmp/err")"
}
contains() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
lacks() { ! grep -qF -- "$2" "$1" || fail "$1 holds: $2"; }

valid="$src/testdata/valid/minimal.yaml"
invalid="$src/testdata/invalid/unknown-reference.yaml"
warning="$src/testdata/invalid/warn-unused-pool.yaml"

# Exit codes: 0 valid, 1 invalid, 2 unusable; 2 wins over 1.
expect_exit 0 "$valid"
[ -s "$tmp/out" ] && fail "a valid file prints findings"
contains "$tmp/err" "1 file checked: all valid (0 errors, 0 warnings)"
expect_exit 1 "$valid" "$invalid"
expect_exit 2 "$invalid" "$tmp/missing.yaml" "$valid"
contains "$tmp/err" "3 files checked: 1 invalid, 1 unusable (2 errors, 0 warnings)"
expect_exit 2 "$src/testdata/invalid/yaml-syntax.yaml"
expect_exit 0 "$warning"
expect_exit 1 --strict "$warning"
contains "$tmp/err" "warnings fail with --strict"

# Jobs no ClearML agent starts as rescfg sizes them: warnings at the link,
# so --strict fails where the agent export would say so.
agents="$tmp/agents.yaml"
cat > "$agents" <<'YAML'
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: a100-metal, nodes: {count: 4, gpus: 4}}
profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: a100-metal, queue: metal-8}]}
  - {name: sized, allotment: 1, dynamic: {parameter: runtime.gpus_request}, links: [{pool: a100-metal, queue: metal-d}]}
policies:
  - {name: team, profiles: [8xGPU, sized]}
YAML
expect_exit 0 "$agents"
contains "$tmp/out" "agents.yaml:6:41: warning[multi-machine-allotment]: profiles[8xGPU].links[0]: allotment 8 of profile '8xGPU' takes whole machines of pool 'a100-metal'"
contains "$tmp/out" "agents.yaml:7:85: warning[dynamic-queue]: profiles[sized].links[0]: profile 'sized' sizes each job from its runtime.gpus_request, but the machines of pool 'a100-metal' are served by clearml-agent daemons"
expect_exit 1 --strict "$agents"
contains "$tmp/err" "1 invalid (0 errors, 2 warnings); warnings fail with --strict"

# Text: file:line:col: severity[code]: path: message (hint), one per line;
# the summary goes to stderr only.
expect_exit 1 "$invalid" "$warning"
contains "$tmp/out" "$invalid:8:46: error[unknown-reference]: profiles[two].links[0].pool: there is no pool named 'H10' (did you mean 'H100'?)"
contains "$tmp/out" "$warning:6:11: warning[unused-pool]: pools[spare]: "
[ "$(wc -l <"$tmp/out")" -eq 2 ] || fail "text output is not one line per finding"
lacks "$tmp/out" "checked"
contains "$tmp/err" "2 files checked: 1 invalid (1 error, 1 warning)"
"$rescfg" -q validate "$invalid" >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && fail "-q still prints the summary"

# Every file is checked and reported, in the order given.
expect_exit 2 "$invalid" "$tmp" "$warning"
[ "$(cut -d: -f1 "$tmp/out" | uniq | tr '\n' ' ')" = "$invalid $tmp $warning " ] ||
  fail "files not all reported in order: $(cut -d: -f1 "$tmp/out" | uniq)"

# JSON: one document, stable keys, valid flags; parse it.
expect_exit 2 --format json "$valid" "$invalid" "$tmp/missing.yaml"
python3 - "$tmp/out" "$valid" "$invalid" <<'PY' || fail "json output"
import json, sys
doc = json.load(open(sys.argv[1]))
assert list(doc) == ["valid", "strict", "files"], list(doc)
assert doc["valid"] is False and doc["strict"] is False
files = doc["files"]
assert [f["file"] for f in files][:2] == sys.argv[2:4]
assert list(files[0]) == ["file", "valid", "unusable", "errors", "warnings", "findings"]
assert files[0]["valid"] and files[0]["findings"] == []
f = files[1]["findings"][0]
assert list(f) == ["code", "severity", "line", "column", "path", "message", "hint"], list(f)
assert (f["code"], f["severity"], f["line"], f["column"]) == ("unknown-reference", "error", 8, 46)
assert f["path"] == "profiles[two].links[0].pool" and f["hint"] == "did you mean 'H100'?"
missing = files[2]
assert missing["unusable"] and not missing["valid"]
assert missing["findings"][0]["line"] is None and missing["findings"][0]["hint"] is None
PY
# Escaping: quotes, backslashes, control characters and bad UTF-8 in names and file names.
weird="$tmp/we\"ird\\name $(printf '\xff').yaml"
printf 'apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools: [{name: "a\\"b\\\\c", resources: 1}]\nprofiles: [{name: p, allotment: 1, links: [{pool: "x\\"y"}]}]\n' >"$weird"
expect_exit 1 --format json "$weird"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); assert "\ufffd" in d["files"][0]["file"]; assert any("x\"y" in f["message"] for f in d["files"][0]["findings"])' "$tmp/out" ||
  fail "json escaping"
cp "$tmp/out" "$tmp/first.json"
expect_exit 1 --format json "$weird"
cmp -s "$tmp/out" "$tmp/first.json" || fail "json output differs between runs"

# GitHub annotations.
expect_exit 1 --format github "$invalid" "$warning"
contains "$tmp/out" "::error file=$invalid,line=8,col=46,title=unknown-reference::profiles[two].links[0].pool: there is no pool named 'H10' (did you mean 'H100'?)"
contains "$tmp/out" "::warning file=$warning,line=6,col=11,title=unused-pool::"
printf 'apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools: [{name: "50%%, a:b", resources: 8}]\n' >"$tmp/gh,1:x.yaml"
expect_exit 0 --format github "$tmp/gh,1:x.yaml"
contains "$tmp/out" "file=$tmp/gh%2C1%3Ax.yaml,line=3"
contains "$tmp/out" "pool '50%25, a:b' is linked"
expect_exit 2 --format github "$tmp/missing.yaml"
contains "$tmp/out" "::error file=$tmp/missing.yaml,title=unreadable::No such file or directory"

# Standard input.
"$rescfg" validate - <"$valid" >"$tmp/out" 2>"$tmp/err" || fail "stdin: valid file rejected"
"$rescfg" validate - <"$invalid" >"$tmp/out" 2>&1
[ $? -eq 1 ] || fail "stdin: invalid file not exit 1"
contains "$tmp/out" "<stdin>:8:46: error[unknown-reference]"

# Hostile input through the command: exit 2 (or 1), a message, no crash.
: >"$tmp/empty.yaml"
expect_exit 1 "$tmp/empty.yaml"
contains "$tmp/out" "error[wrong-type]"
head -c 20000 /dev/urandom >"$tmp/binary.yaml"
expect_exit 2 "$tmp/binary.yaml"
contains "$tmp/out" "error[invalid-utf8]"
python3 -c 'import sys; sys.stdout.write("description: " + "a" * (10 << 20) + "\n")' >"$tmp/long.yaml"
expect_exit 2 "$tmp/long.yaml"
contains "$tmp/out" "larger than the limit"
for form in '[' '- ' '{a: '; do
  python3 -c 'import sys; sys.stdout.write(sys.argv[1] * 100000 + "x\n")' "$form" >"$tmp/deep.yaml"
  expect_exit 2 "$tmp/deep.yaml"
  contains "$tmp/out" "error[yaml-syntax]"
done
expect_exit 2 "$tmp"
contains "$tmp/out" "is a directory"
expect_exit 2 "$tmp/missing.yaml"
contains "$tmp/out" "No such file or directory"
# No findings on stderr, no crash report anywhere.
lacks "$tmp/err" "terminate"
lacks "$tmp/err" "Sanitizer"

# Memory stays bounded on the largest accepted input (skipped under
# the sanitizers, which reserve terabytes of address space).
if ! ldd "$rescfg" 2>/dev/null | grep -q asan && ! grep -qa -e __asan_init -e __tsan_init "$rescfg"; then
  python3 -c 'import sys; sys.stdout.write("apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools: [" + "1," * 520000 + "1]\n")' >"$tmp/wide.yaml"
  (ulimit -v 1048576; timeout 10 "$rescfg" validate "$tmp/wide.yaml" >"$tmp/out" 2>"$tmp/err")
  [ $? -eq 2 ] || fail "1 MB flow list under a 1 GiB memory limit did not exit 2: $(head -c 300 "$tmp/err")"
  contains "$tmp/out" "error[too-large]"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "validate CLI: all checks passed"
