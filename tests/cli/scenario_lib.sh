# The jobs of a golden scenario of testdata/schedule as command-line
# arguments; sourced by the tests that run every scenario.
# scenario_args DIR: sets the array `args` to DIR's jobs: a ClearML task
# snapshot (tasks.json) with its companions, else its jobs file.
scenario_args() {
  local dir=$1
  if [ -f "$dir/tasks.json" ]; then
    args=(--jobs "$dir/tasks.json" --jobs-format clearml)
    [ -f "$dir/queues.json" ] && args+=(--clearml-queues "$dir/queues.json")
    [ -f "$dir/workers.json" ] && args+=(--clearml-workers "$dir/workers.json")
  else
    args=(--jobs "$(ls "$dir"/jobs.* | head -1)")
  fi
  return 0
}
