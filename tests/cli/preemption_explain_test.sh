#!/usr/bin/env bash
# Preemption in `explain`, `status` and `diff --jobs`, golden outputs of the
# preemption worked example (testdata/schedule/preemption-worked-example, now
# 10:20) and of a variant where d3 is stopping already
# (testdata/preemption-outputs/jobs-stopping.yaml): r1 takes d1 in Bare Metal;
# r2 then finds Dev at its reservation in Bare Metal (d2 passed over) and waits
# for the stopping d3 in H100.
# Regenerate the goldens with UPDATE_GOLDEN=1 after a deliberate change.
set -u
source "$(dirname "$0")/harness.sh" "$@"
GOLD=$SRC/testdata/preemption-outputs
WE=$SRC/testdata/schedule/preemption-worked-example
WE30=$SRC/testdata/schedule/preemption-worked-example-30m
NOW=2026-12-05T10:20:00Z
# Copies under short names: the outputs name the files as given.
cp "$WE/config.yaml" config.yaml; cp "$WE30/config.yaml" config-30m.yaml
cp "$WE/jobs.yaml" jobs.yaml; cp "$GOLD/jobs-stopping.yaml" jobs-stopping.yaml
WE=.; WE30=.

# golden NAME WANT-EXIT CMD...: the output of CMD must equal $GOLD/NAME.
golden() {
  local name=$1 want=$2; shift 2
  expect "$want" "$@"
  if [ -n "${UPDATE_GOLDEN:-}" ]; then cp out.txt "$GOLD/$name"; return; fi
  diff -u "$GOLD/$name" out.txt >diff.txt || { fail "$name differs"; sed 's/^/  | /' diff.txt >&2; }
}

# explain: the preemptor (every candidate looked at and why), the victim (for
# whom and why), a candidate nobody needed, in text and JSON.
golden explain-r1.txt 0 "$RESCFG" -q explain r1 -c "$WE/config.yaml" -j "$WE/jobs.yaml" --now "$NOW"
golden explain-r2.json 0 "$RESCFG" -q explain r2 -c "$WE/config.yaml" -j "$WE/jobs.yaml" --now "$NOW" -f json
golden explain-d1.txt 0 "$RESCFG" -q explain d1 -c "$WE/config.yaml" -j "$WE/jobs.yaml" --now "$NOW"
golden explain-d3.txt 0 "$RESCFG" -q explain d3 -c "$WE/config.yaml" -j "$WE/jobs.yaml" --now "$NOW"
golden explain-stopping-r2.txt 0 "$RESCFG" -q explain r2 -c "$WE/config.yaml" -j "jobs-stopping.yaml" --now "$NOW"
golden explain-stopping-r2.json 0 "$RESCFG" -q explain r2 -c "$WE/config.yaml" -j "jobs-stopping.yaml" --now "$NOW" -f json
# With minRuntime 30m no Dev job has run long enough: r1 tells why.
golden explain-30m-r1.txt 0 "$RESCFG" -q explain r1 -c "config-30m.yaml" -j "$WE/jobs.yaml" --now "$NOW"
# Without --now's effect on the delay: a job that has not waited long enough.
golden explain-delay-r1.txt 0 "$RESCFG" -q explain r1 -c "$WE/config.yaml" -j "$WE/jobs.yaml" --now 2026-12-05T10:18:30Z

# explain by task name tells the same story as by id (the worked example as
# ClearML tasks, the Dev tasks' pools told by their workers): the preemptor,
# in text and JSON, and the victim.
CLEARML=(-j "$GOLD/tasks.jsonl" --jobs-format clearml --clearml-workers "$GOLD/workers.json" --now "$NOW")
for pair in research-sweep-1:r1:text research-sweep-2:r2:json dev-train-a:d1:text; do
  IFS=: read -r name id format <<<"$pair"
  expect 0 "$RESCFG" -q explain "$id" -c "$WE/config.yaml" "${CLEARML[@]}" -f "$format"; mv out.txt by-id.txt
  grep -q -i 'preempt' by-id.txt || fail "explain $id of the ClearML tasks tells no preemption story"
  expect 0 "$RESCFG" -q explain "$name" -c "$WE/config.yaml" "${CLEARML[@]}" -f "$format"
  diff -u by-id.txt out.txt >diff.txt || { fail "explain $name ($format) differs from explain $id"; sed 's/^/  | /' diff.txt >&2; }
done

# status: team cards count stopping and preempted jobs.
golden status.txt 0 "$RESCFG" -q status -c "$WE/config.yaml" -j "jobs-stopping.yaml" --now "$NOW"
golden status.json 0 "$RESCFG" -q status -c "$WE/config.yaml" -j "jobs-stopping.yaml" --now "$NOW" -f json

# diff --jobs: each job's part on each side and the count of decisions.
golden diff.txt 1 "$RESCFG" -q diff "$WE/config.yaml" "config-30m.yaml" -j "$WE/jobs.yaml" --now "$NOW"
golden diff.json 1 "$RESCFG" -q diff "$WE/config.yaml" "config-30m.yaml" -j "$WE/jobs.yaml" --now "$NOW" -f json
golden diff.md 1 "$RESCFG" -q diff "$WE/config.yaml" "config-30m.yaml" -j "$WE/jobs.yaml" --now "$NOW" -f markdown

exit $((failures > 0))
