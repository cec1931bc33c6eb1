# The kill -9 storms of `rescfg sync` (sourced after sync_lib.sh): the
# double's storm (tests/double/clearml_storm.py) acts in real time while a
# sync is killed again and again; then clean cycles, and the checks.

# storm_kill_count SUITE SANITIZED NIGHTLY: how many kills a storm makes on
# a run of the suite, under the sanitizers (RESCFG_TEST_QUICK), in the
# nightly check (RESCFG_TEST_DEEP); RESCFG_STORM_KILLS overrides them.
storm_kill_count() {
  local n=$1
  [ -n "${RESCFG_TEST_QUICK:-}" ] && n=$2
  [ -n "${RESCFG_TEST_DEEP:-}" ] && n=$3
  echo "${RESCFG_STORM_KILLS:-$n}"
}

# storm_kills KILLS SEED [SPREAD]: `rescfg sync --interval 1` started KILLS
# times, each killed with kill -9 10 to 10+SPREAD ms (400 unless given)
# after its start (the instants drawn from SEED). A sync that ends by
# itself is a failure. Each cycle appends what it counted to trace.jsonl
# (RESCFG_TEST_TRACE): kept with the work directory of a failing run, it
# shows which task the deciding cycle did not count.
storm_kills() {
  local kills=$1 spread=${3:-400} i pid ms code codes=""
  RANDOM=$2
  for i in $(seq 1 "$kills"); do
    RESCFG_TEST_TRACE=trace.jsonl "$RESCFG" sync --state state --clearml-server "$URL" --interval 1 >>storm.out 2>>storm.err &
    pid=$!
    # A cycle takes about 0.3 s: most kills land in it (reading, deciding,
    # moving, stopping, writing the journal), some in the wait for the next one.
    ms=$((10 + RANDOM % spread))
    sleep "$(printf "%d.%03d" $((ms / 1000)) $((ms % 1000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    code=$?
    [ "$code" = 137 ] || codes+=" $code"
  done
  [ -z "$codes" ] || { fail "syncs of the storm ended by themselves (exit$codes)"; grep -v "^rescfg: cycle" storm.err | sort | uniq -c | sort -rn | head -5 >&2; }
}

# storm_settle LABEL CYCLES: calm (no more people or arrivals), CYCLES clean
# cycles that settle every journal entry while the agents start what they
# popped, and more (up to 10 in all) while the last one stopped a victim (the
# next one re-queues it); then the storm's violations and the invariants.
# Sets storm_result (the storm's answer: violations and counts).
storm_settle() {
  local label=$1 cycles=$2 c=0 code
  ctl storm/calm >/dev/null
  while [ "$c" -lt "$cycles" ] || { [ "$c" -lt 10 ] && grep -q '"action": "stop"' out.txt; }; do
    c=$((c + 1))
    sync_once; code=$?
    [ "$code" = 0 ] || [ "$code" = 1 ] || { fail "$label: clean cycle $c after the storm: exit $code"; sed 's/^/  | /' err.txt | head -5 >&2; }
    sleep 1.2  # the agents start what they popped, and stop what they were asked to
  done
  storm_result=$(ctl storm/stop) || fail "$label: the storm does not stop"
  [ "$(jq '.violations | length' <<<"$storm_result")" = 0 ] ||
    fail "$label: $(jq -r ".violations[:5][]" <<<"$storm_result")"
  check_invariants "$label"
  [ "$(jq '.counts.starts' <<<"$storm_result")" -gt 0 ] || fail "$label: no agent started a task: the storm proves nothing"
}
