#!/usr/bin/env bash
# End-to-end performance of `rescfg schedule` on generated scenarios.
#
#   scripts/bench.sh [QUEUED_SIZES...]      default: 10000 100000 200000 1000000
#
# Builds Release into build-bench/, generates each scenario (bench/scenario.h)
# into a temporary directory and prints three tables:
#   1. JSON Lines: wall time, entries decided per second, peak RSS, file size,
#      RSS / file size, the bare simdjson parse of the same file (the floor)
#      and end-to-end / floor; then how time grows from size to size;
#   2. YAML: `schedule` on the YAML file against yaml-cpp's YAML::LoadFile;
#   3. reservations: none / some / heavy at COMPARE_SIZE queued jobs;
#   4. ClearML: the same scenario as a tasks.get_all response (with its
#      queues and workers files) against its JSON Lines twin, same decisions;
#      the two run in turn, a run of each a round, and their ratio's median is
#      that of the rounds' ratios (a slow phase of the host falls on both);
#   5. simulation: `rescfg simulate` on generated traces (arrivals in waves at
#      SIM_LOAD percent of what the pools serve, heavy-tailed durations) next
#      to `rescfg schedule` on the same file read as one snapshot, measured in
#      the same run, and how time grows with the jobs;
#   6. machines: the same jobs with every pool made of machines (32 pools of
#      MACHINES machines) against the pools as bags of GPUs;
#   7. preemption (see PREEMPT_SIZE below);
#   8. sync: one `rescfg sync --once` cycle against the loopback ClearML test
#      double (bench/sync_cycle.py), SYNC_QUEUED queued tasks per policy;
# and last, every performance target with its figure (best of RUNS and
# median; ratios of medians against medians, but table 4's of its rounds)
# and whether it is met.
# Environment: POLICIES (1000), RESERVATIONS for tables 1-2 (none|some|heavy,
# default none), COMPARE_SIZE (10000), COMPARE_POLICIES (1000), RUNS (best of,
# 3), TIMEOUT per run in seconds (600), YAML_MAX (largest size also run as
# YAML, 1000000), CLEARML_MAX (largest size also run as ClearML, 1000000),
# CLEARML_RUNNING (running tasks per 100 queued in table 4, 5: a running task
# holds its profile's allotment), KEEP=1 keeps the generated files, SEED (1);
# SECTIONS (which tables: "schedule yaml reservations clearml simulate machines preemption sync"),
# SIM_SIZES (10000 100000 1000000), SIM_RESERVATIONS (some), SIM_LOAD (120),
# SIM_RUNNING (running entries per 100 queued, 5), SIM_PREEMPTION=1 (table 5 also runs
# each trace with `preemption: {minRuntime: 10m, delay: 1m}` added to its configuration,
# against the same trace without); MACHINE_SIZES (1000000),
# MACHINES (16); PREEMPT_SIZE (1000000): table 7, preemption on against off on a
# reservation-heavy file where borrowers run (30 running per 100 queued), then `simulate` with
# preemption on a trace of PREEMPT_SIM_SIZE (100000) queued jobs against `schedule` of it;
# SYNC_QUEUED ("10 100": 10 000 and 100 000 queued tasks over 1 000 policies); WARM_GB (the memory
# available less 3 GB): how much memory is touched once before anything is measured (0: none),
# about 2 s a gigabyte the first time after boot, a tenth of that after. On a freshly booted
# virtual machine the first touch of a page of the guest's memory costs the host's fault too,
# about 2 s a gigabyte on the project's machine against 0.1-0.4 s once touched: without the
# warm-up the first runs measure the host.
# KEEP_WARM=1 (root only): where the kernel reports free memory to its host (free page reporting,
# /sys/module/page_reporting), every page freed goes back cold to the host within seconds, the
# warm-up's own pages first: KEEP_WARM=1 stops the reporting for the run (and restores it on exit)
# so that the figures measure rescfg and not the host's faults. Without it, bench.sh says so.
# Figures (docs/performance.md, seventeenth round; 2 cores, KEEP_WARM=1, both at full speed): 1M JSON
# Lines 0.85 s against a floor of 0.77 s (x1.11), 1.46 M entries and 1.17 M queued jobs/s, peak 3.37x
# the file, x3.50 from 100k; the 1M ClearML snapshot x1.35 its twin (rounds' median x1.50, the two in
# turn; x1.48 in two runs before), x1.05 at 100k; preemption on x1.05 off; simulate 100k with
# preemption x4.65 schedule; a sync cycle over 100k queued tasks 0.67 s in rescfg.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 200000 1000000)
POLICIES=${POLICIES:-1000}
RESERVATIONS=${RESERVATIONS:-none}
COMPARE_SIZE=${COMPARE_SIZE:-10000}
COMPARE_POLICIES=${COMPARE_POLICIES:-1000}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-600}
YAML_MAX=${YAML_MAX:-1000000}
SEED=${SEED:-1}
CLEARML_MAX=${CLEARML_MAX:-1000000}
CLEARML_RUNNING=${CLEARML_RUNNING:-5}
SECTIONS=${SECTIONS:-schedule yaml reservations clearml simulate machines preemption sync}
read -r -a SYNC_QUEUED <<< "${SYNC_QUEUED:-10 100}"
read -r -a MACHINE_SIZES <<< "${MACHINE_SIZES:-1000000}"
MACHINES=${MACHINES:-16}
read -r -a SIM_SIZES <<< "${SIM_SIZES:-10000 100000 1000000}"
SIM_RESERVATIONS=${SIM_RESERVATIONS:-some}
SIM_LOAD=${SIM_LOAD:-120}
SIM_RUNNING=${SIM_RUNNING:-5}
section() { [[ " $SECTIONS " == *" $1 "* ]]; }

[ -x /usr/bin/time ] || { echo "bench.sh: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }
# dd reads /dev/zero into one buffer of WARM_GB gigabytes: every page of it is touched once.
# By default all the memory available but 3 GB: the kernel hands out any free page, and the
# ones never touched since boot are the slow ones.
available_gb=$(awk '/^MemAvailable:/ { printf "%d", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo 4)
WARM_GB=${WARM_GB:-$(( available_gb > 4 ? available_gb - 3 : 1 ))}
reporting=/sys/module/page_reporting/parameters/page_reporting_order
restore_reporting() { :; }
if [ -r "$reporting" ]; then
  order=$(cat "$reporting")
  if [ "${KEEP_WARM:-0}" = 1 ] && [ -w "$reporting" ]; then
    restore_reporting() { echo "$order" > "$reporting"; }
    trap restore_reporting EXIT
    echo 11 > "$reporting"  # above the largest free block: nothing is reported
    echo "Free page reporting (order $order) stopped for the run (KEEP_WARM=1)."
  else
    echo "Note: free page reporting is on (order $order): memory freed goes back to the host cold, the"
    echo "warm-up cannot hold, and fresh memory costs the host's faults too (KEEP_WARM=1 as root stops it)."
  fi
fi
[ "$WARM_GB" = 0 ] || dd if=/dev/zero of=/dev/null bs="${WARM_GB}G" count=1 iflag=fullblock 2>/dev/null ||
  dd if=/dev/zero of=/dev/null bs=1G count=1 iflag=fullblock 2>/dev/null || true

build="$root/build-bench"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRESCFG_BUILD_TESTS=OFF >/dev/null
ninja -C "$build" -j 2 rescfg rescfg-gen rescfg-simdjson-floor rescfg-yamlcpp-floor >/dev/null
rescfg="$build/rescfg"
gen="$build/bench/rescfg-gen"

data=$(mktemp -d "${TMPDIR:-/tmp}/rescfg-bench.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "data in $data" >&2; else trap 'rm -rf "$data"; restore_reporting' EXIT; fi

# measure CMD... -> "SECONDS PEAK_KB" (best time of RUNS, largest RSS);
# "timeout -" when a run exceeds TIMEOUT seconds. The user CPU seconds of the
# fastest run go to $data/user (steadier than wall time on a shared machine).
measure() {
  local best="" peak=0 i start end kb rc user times=()
  for ((i = 0; i < RUNS; i++)); do
    start=$(date +%s%N)
    rc=0
    timeout "$TIMEOUT" /usr/bin/time -f '%U %M' -o "$data/time.out" "$@" >/dev/null 2>"$data/stderr" || rc=$?
    end=$(date +%s%N)
    # schedule exits 1 when it rejected entries: still a complete run.
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
      if [ "$rc" -eq 124 ]; then echo "timeout 0"; return; fi
      echo "bench.sh: failed ($rc): $*" >&2; cat "$data/stderr" >&2; exit 1
    fi
    read -r user kb < <(tail -n 1 "$data/time.out")
    local t=$(( (end - start) / 1000000 ))
    times+=("$t")
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; echo "$user" > "$data/user"; fi
    if [ "$kb" -gt "$peak" ]; then peak=$kb; fi
  done
  # The median wall time of the runs goes to $data/median.
  printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { printf "%.3f\n", t[int((NR + 1) / 2)] / 1000 }' > "$data/median"
  awk -v ms="$best" -v kb="$peak" 'BEGIN { printf "%.3f %d\n", ms / 1000, kb }'
}

# measure_in_turn FIRST SECOND (the names of two arrays, each a command): a
# run of each a round, RUNS rounds, so that a slow phase of the host (this
# project's machine has minutes of them) falls on both, not on the three runs
# of one. Prints the best time and peak of each, then the median of the
# rounds' ratios (first / second); each command's median time is in
# $data/median (first) and $data/median2 (second).
measure_in_turn() {
  local -n first=$1 second=$2
  local i ta ka tb kb best_a="" best_b="" peak_a=0 peak_b=0 as=() bs=() ratios=()
  for ((i = 0; i < RUNS; i++)); do
    read -r ta ka < <(RUNS=1 measure "${first[@]}")
    read -r tb kb < <(RUNS=1 measure "${second[@]}")
    if [ "$ta" = timeout ] || [ "$tb" = timeout ]; then echo "timeout 0 timeout 0 -"; return; fi
    as+=("$ta") bs+=("$tb") ratios+=("$(ratio "$ta" "$tb")")
    if [ -z "$best_a" ] || awk -v x="$ta" -v y="$best_a" 'BEGIN { exit !(x < y) }'; then best_a=$ta; fi
    if [ -z "$best_b" ] || awk -v x="$tb" -v y="$best_b" 'BEGIN { exit !(x < y) }'; then best_b=$tb; fi
    if [ "$ka" -gt "$peak_a" ]; then peak_a=$ka; fi
    if [ "$kb" -gt "$peak_b" ]; then peak_b=$kb; fi
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  median "${as[@]}" > "$data/median"
  median "${bs[@]}" > "$data/median2"
  echo "$best_a $peak_a $best_b $peak_b $(median "${ratios[@]}")"
}

generate() {  # DIR QUEUED MODE POLICIES [rescfg-gen OPTIONS...]
  mkdir -p "$1"
  "$gen" --queued "$2" --reservations "$3" --policies "$4" --seed "$SEED" --out "$1" "${@:5}"
}

schedule() {  # DIR FILE
  measure "$rescfg" schedule --config "$1/config.yaml" --jobs "$1/$2" --format jsonl -o /dev/null
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "timeout" || b == 0) print "-"; else printf "%.2f", a / b }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { if (t == "timeout" || t == 0) print "-"; else printf "%.0f", n / t }'; }
# growth TIMES SIZES...: how time grows between consecutive sizes (TIMES: an associative array's name).
growth() {
  local -n times=$1
  shift
  local prev="" n
  for n in "$@"; do
    if [ -n "$prev" ]; then
      printf '  %s -> %s queued (x%s jobs): x%s time\n' "$prev" "$n" "$(ratio "$n" "$prev")" "$(ratio "${times[$n]}" "${times[$prev]}")"
    fi
    prev=$n
  done
}

# target NAME BEST MEDIAN OP LIMIT: one line of the closing list of targets.
targets=()
target() {
  local verdict
  verdict=$(awk -v b="$2" -v m="$3" -v op="$4" -v l="$5" 'function ok(x) { return (op == "<=") ? x + 0 <= l + 0 : x + 0 >= l + 0 }
    BEGIN { if (b == "-" || b == "") print "-"; else if (ok(b) && ok(m)) print "met"; else if (ok(b)) print "met (best only)"; else print "NOT met" }')
  targets+=("$(printf '%-62s %12s %12s %3s %-9s %s' "$1" "$2" "$3" "$4" "$5" "$verdict")")
}

declare -A e2e e2e_median
if section schedule; then
echo "rescfg schedule --format jsonl -o /dev/null; $POLICIES policies, reservations: $RESERVATIONS; best of $RUNS"
echo
echo "JSON Lines"
printf '%10s %10s %9s %9s %9s %12s %9s %8s %9s %9s %8s\n' queued entries size_MB time_s median_s entries/s RSS_MB \
  RSS/size floor_s median_s x_floor
for n in "${sizes[@]}"; do
  dir="$data/$n"
  generate "$dir" "$n" "$RESERVATIONS" "$POLICIES"
  entries=$(wc -l < "$dir/jobs.jsonl")
  bytes=$(stat -c %s "$dir/jobs.jsonl")
  read -r t kb < <(schedule "$dir" jobs.jsonl)
  tm=$(cat "$data/median")
  read -r floor _ < <(measure "$build/bench/rescfg-simdjson-floor" "$dir/jobs.jsonl")
  fm=$(cat "$data/median")
  e2e[$n]=$t
  e2e_median[$n]=$tm
  printf '%10s %10s %9s %9s %9s %12s %9s %8s %9s %9s %8s\n' "$n" "$entries" "$(mb "$bytes")" "$t" "$tm" \
    "$(rate "$entries" "$t")" "$(mb $((kb * 1024)))" "$(ratio $((kb * 1024)) "$bytes")" "$floor" "$fm" "$(ratio "$t" "$floor")"
  if [ "$n" -ge 1000000 ]; then
    target "schedule $n JSON Lines: time / simdjson floor" "$(ratio "$t" "$floor")" "$(ratio "$tm" "$fm")" "<=" 3
    target "schedule $n JSON Lines: entries decided per second" "$(rate "$entries" "$t")" "$(rate "$entries" "$tm")" ">=" 1000000
    target "schedule $n JSON Lines: queued jobs decided per second" "$(rate "$n" "$t")" "$(rate "$n" "$tm")" ">=" 1000000
    target "schedule $n JSON Lines: peak RSS / file" "$(ratio $((kb * 1024)) "$bytes")" "$(ratio $((kb * 1024)) "$bytes")" "<=" 4
  fi
done
echo
echo "Growth (time ratio between consecutive sizes)"
growth e2e "${sizes[@]}"
for n in "${sizes[@]}"; do
  for m in "${sizes[@]}"; do
    if [ "$m" -eq $((n * 10)) ]; then
      target "schedule: 10x the jobs ($n -> $m), time ratio" "$(ratio "${e2e[$m]}" "${e2e[$n]}")" \
        "$(ratio "${e2e_median[$m]}" "${e2e_median[$n]}")" "<=" 10.5
    fi
  done
done
echo
fi

if section yaml; then
echo "YAML (schedule on jobs.yaml vs yaml-cpp YAML::LoadFile on the same file)"
printf '%10s %9s %9s %9s %8s %10s %10s %8s\n' queued size_MB time_s RSS_MB RSS/size loadfile_s loadfile_MB speedup
for n in "${sizes[@]}"; do
  [ "$n" -le "$YAML_MAX" ] || continue
  dir="$data/$n"
  [ -f "$dir/jobs.yaml" ] || generate "$dir" "$n" "$RESERVATIONS" "$POLICIES"
  bytes=$(stat -c %s "$dir/jobs.yaml")
  read -r t kb < <(schedule "$dir" jobs.yaml)
  read -r lt lkb < <(measure "$build/bench/rescfg-yamlcpp-floor" "$dir/jobs.yaml")
  printf '%10s %9s %9s %9s %8s %10s %10s %8s\n' "$n" "$(mb "$bytes")" "$t" "$(mb $((kb * 1024)))" \
    "$(ratio $((kb * 1024)) "$bytes")" "$lt" "$(mb $((lkb * 1024)))" "$(ratio "$lt" "$t")"
done
echo
fi

if section reservations; then
echo "Reservations ($COMPARE_SIZE queued, $COMPARE_POLICIES policies, JSON Lines)"
printf '%8s %9s %9s %9s\n' mode time_s RSS_MB x_none
none_t=""
for mode in none some heavy; do
  dir="$data/compare-$mode"
  generate "$dir" "$COMPARE_SIZE" "$mode" "$COMPARE_POLICIES"
  read -r t kb < <(schedule "$dir" jobs.jsonl)
  [ -n "$none_t" ] || none_t=$t
  printf '%8s %9s %9s %9s\n' "$mode" "$t" "$(mb $((kb * 1024)))" "$(ratio "$t" "$none_t")"
done

echo
fi

if section clearml; then
echo "ClearML ($CLEARML_RUNNING running per 100 queued; tasks.get_all + queues.get_all + workers.get_all"
echo "against the same jobs as JSON Lines; same: identical decisions)"
printf '%10s %10s %9s %9s %9s %9s %9s %9s %8s %5s\n' queued entries tasks_MB twin_MB clearml_s RSS_MB twin_s RSS_MB x_twin same
for n in "${sizes[@]}"; do
  [ "$n" -le "$CLEARML_MAX" ] || continue
  dir="$data/clearml-$n"
  generate "$dir" "$n" "$RESERVATIONS" "$POLICIES" --running-per-100 "$CLEARML_RUNNING" --formats clearml
  clearml=(--jobs "$dir/tasks.json" --jobs-format clearml --clearml-queues "$dir/queues.json"
           --clearml-workers "$dir/workers.json")
  # The snapshot and its twin in turn: their ratio is not one of two phases of the host.
  snapshot=("$rescfg" schedule --config "$dir/config.yaml" "${clearml[@]}" --format jsonl -o /dev/null)
  twin=("$rescfg" schedule --config "$dir/config.yaml" --jobs "$dir/tasks-twin.jsonl" --format jsonl -o /dev/null)
  read -r t kb tt tkb paired < <(measure_in_turn snapshot twin)
  target "ClearML snapshot $n: time / its JSON Lines twin" "$(ratio "$t" "$tt")" "$paired" "<=" 1.5
  "$rescfg" -q schedule --config "$dir/config.yaml" "${clearml[@]}" --format jsonl -o "$dir/clearml.out" || true
  "$rescfg" -q schedule --config "$dir/config.yaml" --jobs "$dir/tasks-twin.jsonl" --format jsonl -o "$dir/twin.out" || true
  same=no
  sed 's/, "name": "[^"]*"}$/}/' "$dir/clearml.out" | cmp -s - "$dir/twin.out" && same=yes
  printf '%10s %10s %9s %9s %9s %9s %9s %9s %8s %5s\n' "$n" "$(wc -l < "$dir/tasks-twin.jsonl")" \
    "$(mb "$(stat -c %s "$dir/tasks.json")")" "$(mb "$(stat -c %s "$dir/tasks-twin.jsonl")")" "$t" \
    "$(mb $((kb * 1024)))" "$tt" "$(mb $((tkb * 1024)))" "$(ratio "$t" "$tt")" "$same"
  [ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
done
echo
fi

if section simulate; then
echo "Simulation: rescfg simulate --trace trace.jsonl against rescfg schedule --jobs trace.jsonl (the same file as one"
echo "snapshot); $POLICIES policies, reservations: $SIM_RESERVATIONS, arrivals at $SIM_LOAD% of capacity; best of $RUNS"
printf '%10s %9s %9s %10s %8s %9s %8s %11s %8s %9s %10s\n' queued size_MB events simulate_s user_s RSS_MB RSS/size \
  schedule_s user_s x_schedule x_user
declare -A sim sim_user
for n in "${SIM_SIZES[@]}"; do
  dir="$data/trace-$n"
  mkdir -p "$dir"
  "$gen" --queued "$n" --reservations "$SIM_RESERVATIONS" --policies "$POLICIES" --seed "$SEED" \
    --trace "$SIM_LOAD" --running-per-100 "$SIM_RUNNING" --formats jsonl --out "$dir"
  bytes=$(stat -c %s "$dir/trace.jsonl")
  read -r t kb < <(measure "$rescfg" -v simulate --config "$dir/config.yaml" --trace "$dir/trace.jsonl" --format jsonl -o /dev/null)
  simm=$(cat "$data/median")
  events=$(sed -n 's/^rescfg: info: \([0-9]*\) events:.*/\1/p' "$data/stderr")
  u=$(cat "$data/user")
  read -r st _ < <(measure "$rescfg" schedule --config "$dir/config.yaml" --jobs "$dir/trace.jsonl" --format jsonl -o /dev/null)
  su=$(cat "$data/user")
  [ "$n" -ne 100000 ] || target "simulate $n: time / schedule of the same file" "$(ratio "$t" "$st")" \
    "$(ratio "$simm" "$(cat "$data/median")")" "<=" 10
  sim[$n]=$t
  sim_user[$n]=$u
  if [ "${SIM_PREEMPTION:-0}" = 1 ]; then
    { cat "$dir/config.yaml"; echo "preemption: {minRuntime: 10m, delay: 1m}"; } > "$dir/preempt.yaml"
    read -r pt pkb < <(measure "$rescfg" -v simulate --config "$dir/preempt.yaml" --trace "$dir/trace.jsonl" --format jsonl -o /dev/null)
    printf '%10s  with preemption: %s s, RSS %s MB, x%s of the same simulation without\n' "$n" "$pt" \
      "$(mb $((pkb * 1024)))" "$(ratio "$pt" "$t")"
  fi
  printf '%10s %9s %9s %10s %8s %9s %8s %11s %8s %9s %10s\n' "$n" "$(mb "$bytes")" "$events" "$t" "$u" "$(mb $((kb * 1024)))" \
    "$(ratio $((kb * 1024)) "$bytes")" "$st" "$su" "$(ratio "$t" "$st")" "$(ratio "$u" "$su")"
done
echo
echo "Growth (simulate time ratio between consecutive sizes: wall, then user CPU)"
growth sim "${SIM_SIZES[@]}"
growth sim_user "${SIM_SIZES[@]}"
fi

if section machines; then
echo "Machines: the same jobs on pools of machines (MACHINES per pool: a pool of S GPUs is min(MACHINES, S) machines"
echo "of S/that GPUs) against the same pools as bags of GPUs; $POLICIES policies, reservations: $RESERVATIONS; best of $RUNS"
printf '%10s %10s %8s %10s %8s %9s %8s\n' queued bag_s user_s machines_s user_s x_wall x_user
for n in "${MACHINE_SIZES[@]}"; do
  bag="$data/bag-$n" nodes="$data/machines-$n"
  generate "$bag" "$n" "$RESERVATIONS" "$POLICIES" --formats jsonl
  generate "$nodes" "$n" "$RESERVATIONS" "$POLICIES" --formats jsonl --machines "$MACHINES"
  read -r tb _ < <(schedule "$bag" jobs.jsonl)
  ub=$(cat "$data/user")
  read -r tm _ < <(schedule "$nodes" jobs.jsonl)
  um=$(cat "$data/user")
  printf '%10s %10s %8s %10s %8s %9s %8s\n' "$n" "$tb" "$ub" "$tm" "$um" "$(ratio "$tm" "$tb")" "$(ratio "$um" "$ub")"
done
echo
fi

if section preemption; then
n=${PREEMPT_SIZE:-1000000}
echo "Preemption: $n queued, reservations heavy, 30 running per 100 queued (borrowers above their reservations);"
echo "schedule with preemption {minRuntime: 0s, delay: 0s} against the same file and configuration without; best of $RUNS (median)"
printf '%10s %17s %8s %17s %8s %8s %8s %7s\n' queued off_s user_s on_s user_s x_wall x_user target
dir="$data/preempt-$n"
generate "$dir" "$n" heavy "$POLICIES" --running-per-100 30 --formats jsonl
{ cat "$dir/config.yaml"; echo "preemption: {minRuntime: 0s, delay: 0s}"; } > "$dir/preempt.yaml"
read -r off _ < <(schedule "$dir" jobs.jsonl)
uoff=$(cat "$data/user") moff=$(cat "$data/median")
read -r on _ < <(measure "$rescfg" schedule --config "$dir/preempt.yaml" --jobs "$dir/jobs.jsonl" --format jsonl -o /dev/null)
uon=$(cat "$data/user") mon=$(cat "$data/median")
printf '%10s %17s %8s %17s %8s %8s %8s %7s\n' "$n" "$off ($moff)" "$uoff" "$on ($mon)" "$uon" "$(ratio "$on" "$off")" \
  "$(ratio "$uon" "$uoff")" "1.30"
target "schedule $n reservation-heavy: preemption on / off" "$(ratio "$on" "$off")" "$(ratio "$mon" "$moff")" "<=" 1.3
[ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
# The simulation with preemption on a trace (table 5's kind) against `schedule` of the same file.
sn=${PREEMPT_SIM_SIZE:-100000}
dir="$data/preempt-trace-$sn"
mkdir -p "$dir"
"$gen" --queued "$sn" --reservations "$SIM_RESERVATIONS" --policies "$POLICIES" --seed "$SEED" \
  --trace "$SIM_LOAD" --running-per-100 "$SIM_RUNNING" --formats jsonl --out "$dir"
{ cat "$dir/config.yaml"; echo "preemption: {minRuntime: 10m, delay: 1m}"; } > "$dir/preempt.yaml"
read -r pt _ < <(measure "$rescfg" simulate --config "$dir/preempt.yaml" --trace "$dir/trace.jsonl" --format jsonl -o /dev/null)
pu=$(cat "$data/user") pm=$(cat "$data/median")
read -r st _ < <(measure "$rescfg" schedule --config "$dir/config.yaml" --jobs "$dir/trace.jsonl" --format jsonl -o /dev/null)
su=$(cat "$data/user") sm=$(cat "$data/median")
printf '%10s  simulate with preemption {minRuntime: 10m, delay: 1m}: %s s (median %s, user %s) against schedule %s s\n' \
  "$sn" "$pt" "$pm" "$pu" "$st"
printf '%10s  (median %s, user %s): x%s wall, x%s user; target 10\n' "" "$sm" "$su" "$(ratio "$pt" "$st")" "$(ratio "$pu" "$su")"
target "simulate $sn with preemption / schedule of the same file" "$(ratio "$pt" "$st")" "$(ratio "$pm" "$sm")" "<=" 10
echo
fi

if section sync; then
echo "Sync: one rescfg sync --once cycle against the loopback ClearML test double, 1 000 policies,"
echo "2 running tasks each (bench/sync_cycle.py; one run each: the double is slow to set up)"
for q in "${SYNC_QUEUED[@]}"; do
  out=$(python3 "$root/bench/sync_cycle.py" "$rescfg" --policies 1000 --queued "$q")
  last=$(tail -n 1 <<< "$out")
  echo "  $((q * 1000)) queued: $last"
  own=$(sed -n "s/.*rescfg's own part \([0-9.]*\) s (\([0-9.]*\)%.*/\1 \2/p" <<< "$last")
  read -r own_s own_pct <<< "$own"
  [ "$q" -ne 10 ] || target "sync cycle, $((q * 1000)) queued tasks: rescfg's share of the cycle, %" "$own_pct" "$own_pct" "<=" 10
  [ "$q" -ne 100 ] || target "sync cycle, $((q * 1000)) queued tasks: rescfg's own seconds" "$own_s" "$own_s" "<=" 1
done
echo
fi

echo "Targets (best of $RUNS, median; the ratio of medians compares medians, but the ClearML"
echo "snapshot's is the median of its rounds' ratios: it and its twin run in turn)"
printf '%-62s %12s %12s %3s %-9s %s\n' target best median "" limit status
printf '%s\n' "${targets[@]}"
