#!/usr/bin/env bash
# Builds the libFuzzer targets into build-fuzz/ (or $FUZZ_BUILD_DIR, e.g. the
# sanitized build of scripts/sanitized-build.sh) and runs each for SECONDS.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (default 60 s, every target)
#
# Each target first replays testdata/fuzz-regressions/<target>-*, then fuzzes
# from its seeds (fuzz/corpus/<target>/ and testdata/). A crash, leak, timeout
# or out-of-memory input is copied to testdata/fuzz-regressions/ and the
# script fails. The growing corpus stays in build-fuzz/corpus/.
set -euo pipefail
seconds=${1:-60}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-build-fuzz}
[[ $build = /* ]] || build=$root/$build
regressions=$root/testdata/fuzz-regressions

if [[ ! -f $build/build.ninja ]]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRESCFG_FUZZ=ON -DRESCFG_BUILD_TESTS=OFF -DRESCFG_BUILD_BENCHMARKS=OFF > /dev/null
fi
ninja -C "$build" fuzz

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for exe in "$build"/fuzz/fuzz_*; do targets+=("${exe##*/fuzz_}"); done
fi

# Seeds per target: its own corpus, plus the matching test inputs.
seeds_for() {
  local dirs=("$root/fuzz/corpus/$1")
  case $1 in
    config | diff | kueue) dirs+=("$root/testdata/valid" "$root/testdata/invalid" "$root/testdata/examples") ;;
    jobs) dirs+=("$root/testdata/jobs" "$root/testdata/examples") ;;
    state) dirs+=("$root/testdata/valid" "$root/testdata/examples") ;;
  esac
  printf '%s\n' "${dirs[@]}"
}

status=0
for target in "${targets[@]}"; do
  exe=$build/fuzz/fuzz_$target
  [[ -x $exe ]] || { echo "fuzz: no target '$target'" >&2; exit 2; }
  found=("$regressions/$target"-*)
  if [[ -e ${found[0]} ]]; then
    if ! "$exe" "${found[@]}" > "$build/$target.replay.log" 2>&1; then
      echo "fuzz: $target fails on a known regression input; see $build/$target.replay.log" >&2
      status=1
      continue
    fi
  fi
  work=$build/corpus/$target
  artifacts=$build/artifacts/$target
  mkdir -p "$work" "$artifacts"
  dict=()
  [[ $target != quantity ]] && dict=(-dict="$root/fuzz/yaml.dict")
  [[ $target == clearml ]] && dict=(-dict="$root/fuzz/clearml.dict")
  mapfile -t seeds < <(seeds_for "$target")
  log=$build/$target.log
  max_len=4096
  [[ $target == state ]] && max_len=16384  # plans carry a configuration twice
  started=$SECONDS
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" \
    "$work" "${seeds[@]}" > "$log" 2>&1 || true
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf 'fuzz: %-10s %12s executions in %ss\n' "$target" "${runs:-?}" "$((SECONDS - started))"
  for crash in "$artifacts"/*; do
    [[ -e $crash ]] || continue
    mkdir -p "$regressions"
    name=$target-$(basename "$crash")
    mv "$crash" "$regressions/$name"
    echo "fuzz: $target found testdata/fuzz-regressions/$name (log: $log)" >&2
    status=1
  done
done
exit $status
