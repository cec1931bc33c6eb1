#!/usr/bin/env bash
# A large input file (8 MiB or more) is mapped from the page cache instead of
# copied: the outputs are those of the same text read from a pipe (always
# copied), with CR-only line endings too, and the file on disk is never
# changed by what rescfg does to its own view of it.
set -u
source "$(dirname "$0")/harness.sh" "$@"

python3 - <<'P'
import json
policies = [("Dev", "4xGPU"), ("Research", "4xGPU"), ("Sandbox", "2xGPU"), ("Sandbox", "0.5xGPU")]
with open("jobs.jsonl", "w") as f:
    i = 0
    while f.tell() < 9 * 1024 * 1024:
        policy, profile = policies[i % 4]
        f.write('{"id": "job-%d", "policy": "%s", "profile": "%s", "enqueued": "2026-11-29T10:%02d:%02dZ"}\n'
                % (i, policy, profile, (i // 60) % 60, i % 60))
        i += 1
    f.write('{"id": "broken", "policy": \n')  # a rejected line: its column, from the mapped text
# A ClearML snapshot of as many tasks, in the policy queue of Dev and in none.
queues = [{"id": "q-dev", "name": "dev-4gpu", "entries": []}, {"id": "q-x", "name": "elsewhere", "entries": []}]
tasks = []
i = 0
size = 0
while size < 9 * 1024 * 1024:
    q = queues[i % 2]
    task = {"id": "t%031d" % i, "name": "train-%d" % i, "status": "queued", "execution": {"queue": q["id"]},
            "hyperparams": {"Args": {"epochs": {"section": "Args", "name": "epochs", "value": "90"}}}}
    q["entries"].append({"task": task["id"], "added": "2026-11-29T10:00:00.000000+00:00"})
    text = json.dumps(task)
    size += len(text) + 2
    tasks.append(text)
    i += 1
with open("tasks.json", "w") as f:
    f.write('{"meta": {"result_code": 200}, "data": {"tasks": [\n' + ",\n".join(tasks) + "\n]}}\n")
with open("queues.json", "w") as f:
    json.dump({"meta": {"result_code": 200}, "data": {"queues": queues}}, f)
P
[ "$(stat -c %s jobs.jsonl)" -ge $((8 * 1024 * 1024)) ] || fail "jobs.jsonl is under the mapping size"

# same NAME CMD...: the outputs and exit code of the file and of the pipe agree.
same() {
  local name=$1 file=$2; shift 2
  "$RESCFG" "$@" --jobs "$file" -o file.out >file.stdout 2>file.err
  local from_file=$?
  "$RESCFG" "$@" --jobs - -o pipe.out <"$file" >pipe.stdout 2>pipe.err
  local from_pipe=$?
  [ "$from_file" = "$from_pipe" ] || fail "$name: exit $from_file from the file, $from_pipe from a pipe"
  cmp -s file.out pipe.out || fail "$name: the outputs differ"
  # Messages name the file or <stdin>: the rest is the same.
  sed "s|$file|FILE|g" file.err >a.err
  sed "s|<stdin>|FILE|g" pipe.err >b.err
  cmp -s a.err b.err || { fail "$name: the messages differ"; diff a.err b.err | head -5 >&2; }
  [ -s file.out ] || fail "$name: nothing written"
}

same "JSON Lines" jobs.jsonl schedule -c "$EXAMPLE" --jobs-format jsonl --format jsonl
grep -q '"reason": "invalid-job", "message": "line [0-9]*, column 1: ' file.out || fail "the broken line is not rejected"
sha=$(sha256sum jobs.jsonl)
tr '\n' '\r' <jobs.jsonl >cr.jsonl
same "JSON Lines with CR-only line endings" cr.jsonl schedule -c "$EXAMPLE" --jobs-format jsonl --format jsonl
"$RESCFG" schedule -c "$EXAMPLE" --jobs jobs.jsonl --format jsonl -o lf.out 2>/dev/null
"$RESCFG" schedule -c "$EXAMPLE" --jobs cr.jsonl --format jsonl -o cr.out 2>/dev/null
cmp -s lf.out cr.out || fail "CR-only line endings read otherwise than line feeds"
[ "$(sha256sum jobs.jsonl)" = "$sha" ] || fail "jobs.jsonl changed on disk"
tr '\n' '\r' <jobs.jsonl | cmp -s - cr.jsonl || fail "cr.jsonl changed on disk (its carriage returns were rewritten in place)"

same "ClearML snapshot" tasks.json schedule -c "$EXAMPLE" --jobs-format clearml --clearml-queues queues.json \
  --format jsonl
grep -q '"status": "pending"' file.out || fail "no task of the snapshot is pending"
cp file.out clearml-lf.out

# CR-only line endings in a snapshot: the same decisions, a syntax error
# named at the same line and column, and the file never rewritten (the
# document is not converted: its lines are counted as they are read).
tr '\n' '\r' <tasks.json >cr-tasks.json
sha=$(sha256sum cr-tasks.json)
same "ClearML snapshot with CR-only line endings" cr-tasks.json schedule -c "$EXAMPLE" --jobs-format clearml \
  --clearml-queues queues.json --format jsonl
cmp -s file.out clearml-lf.out || fail "a snapshot with CR-only line endings decides otherwise"
[ "$(sha256sum cr-tasks.json)" = "$sha" ] || fail "cr-tasks.json changed on disk"
# The 5000th task's status is not a string: the document is unusable, and says where.
awk 'NR == 5001 { sub(/"status": "queued"/, "\"status\": queued") } { print }' tasks.json >bad-lf.json
tr '\n' '\r' <bad-lf.json >bad-cr.json
for ending in lf cr; do
  "$RESCFG" schedule -c "$EXAMPLE" --jobs "bad-$ending.json" --jobs-format clearml --clearml-queues queues.json \
    --format jsonl -o /dev/null 2>"bad-$ending.err"
  echo "exit $?" >>"bad-$ending.err"
  sed -i "s|bad-$ending.json|FILE|g" "bad-$ending.err"
done
contains bad-lf.err "FILE:5001:"
contains bad-lf.err "exit 2"
cmp -s bad-lf.err bad-cr.err || { fail "a syntax error is placed otherwise with CR-only line endings"; diff bad-lf.err bad-cr.err | head -5 >&2; }
# A queues file with CR-only line endings names the line of its error as
# the same file with line feeds does (it is never rewritten either).
printf '{"meta": {"result_code": 200},\n "data": {"queues": [\n  {"id": "q-dev", "name": "dev-4gpu", "entries": [}\n]}}\n' >bad-queues-lf.json
tr '\n' '\r' <bad-queues-lf.json >bad-queues-cr.json
for ending in lf cr; do
  "$RESCFG" schedule -c "$EXAMPLE" --jobs tasks.json --jobs-format clearml --clearml-queues "bad-queues-$ending.json" \
    --format jsonl -o /dev/null 2>"bad-queues-$ending.err"
  echo "exit $?" >>"bad-queues-$ending.err"
  sed -i "s|bad-queues-$ending.json|FILE|g" "bad-queues-$ending.err"
done
contains bad-queues-lf.err "FILE:3:"
cmp -s bad-queues-lf.err bad-queues-cr.err ||
  { fail "a queues file's error is placed otherwise with CR-only line endings"; diff bad-queues-lf.err bad-queues-cr.err | head -5 >&2; }
# JSON Lines of tasks are still split at lone carriage returns.
python3 -c '
import json
lines = [json.dumps(t) for t in json.load(open("tasks.json"))["data"]["tasks"]]
open("tasks.jsonl", "w").write("\n".join(lines) + "\n")'
tr '\n' '\r' <tasks.jsonl >cr-tasks.jsonl
same "ClearML JSON Lines" tasks.jsonl schedule -c "$EXAMPLE" --jobs-format clearml --clearml-queues queues.json \
  --format jsonl
cp file.out clearml-lines.out
same "ClearML JSON Lines with CR-only line endings" cr-tasks.jsonl schedule -c "$EXAMPLE" --jobs-format clearml \
  --clearml-queues queues.json --format jsonl
cmp -s file.out clearml-lines.out || fail "JSON Lines of tasks with CR-only line endings decide otherwise"

exit $((failures > 0))
