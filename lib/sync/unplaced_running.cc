#include "sync/unplaced_running.h"

namespace rescfg::sync {

size_t RunningInNoPool(const ScheduleReport& report) {
  size_t n = 0;
  for (size_t i : report.running) n += !report.jobs[i].pool;
  return n;
}

std::string RunningInNoPoolWarning(size_t count) {
  if (count == 0) return "";
  return std::to_string(count) + (count == 1 ? " running task holds" : " running tasks hold") +
         " in no pool: no worker reports " + (count == 1 ? "it" : "them") +
         " and rescfg did not hand " + (count == 1 ? "it" : "them") +
         " over; counted against " + (count == 1 ? "its policy" : "their policies") + " only";
}

}  // namespace rescfg::sync
