# Sourced by .ci/run and scripts/deep-check: `stage NAME CMD...` runs CMD and
# prints the wall time it took; `stage_total` prints every stage and the sum.
_stage_names=()
_stage_secs=()
_stage_start=$(date +%s)
stage() {
  local name=$1; shift
  echo "== $name"
  local t0; t0=$(date +%s)
  local rc=0
  "$@" || rc=$?
  local dt=$(( $(date +%s) - t0 ))
  _stage_names+=("$name"); _stage_secs+=("$dt")
  printf '== %s: %dm%02ds%s\n' "$name" $((dt / 60)) $((dt % 60)) "$([ $rc -eq 0 ] || echo " (FAILED, exit $rc)")"
  if [ $rc -ne 0 ]; then stage_total; exit $rc; fi
}
stage_total() {
  local i
  echo "== stage times"
  for i in "${!_stage_names[@]}"; do
    printf '   %6ds  %s\n' "${_stage_secs[$i]}" "${_stage_names[$i]}"
  done
  local total=$(( $(date +%s) - _stage_start ))
  printf '   %6ds  total (%dm%02ds)\n' "$total" $((total / 60)) $((total % 60))
}
