#include "support/victims.h"

#include <gtest/gtest.h>

namespace rescfg::testing {

sync::MoveIntent StopIntent(const std::string& task) {
  sync::MoveIntent m;
  m.kind = ActionKind::kStop;
  m.cycle = 1;
  m.task = task;
  m.name = "sandbox-run";
  m.policy = "Sandbox";
  m.profile = "2xGPU";
  m.pool = "H100";
  m.from = "sandbox-2gpu";
  m.from_id = "qsand";
  m.to = "h100-2gpu";
  m.to_id = "qh100";
  m.preemptor = "Dev/d0";
  m.reason = "rescfg: preempted for Dev/d0 in H100";
  m.asked_us = kStopAskedUs;
  m.changed = kVictimChanged;
  return m;
}

sync::MoveIntent RequeueIntent(const std::string& task, const std::string& changed) {
  sync::MoveIntent m = StopIntent(task);
  m.kind = ActionKind::kRequeue;
  m.cycle = 2;
  m.changed = changed;
  return m;
}

std::string VictimAnswer(const std::string& task, const VictimShows& shows) {
  if (shows.status.empty()) return R"({"tasks": []})";
  return R"({"tasks": [{"id": ")" + task + R"(", "status": ")" + shows.status + R"(", "status_message": ")" +
         shows.message + R"(", "status_reason": ")" + shows.reason + R"(", "status_changed": ")" + shows.changed +
         R"(", "execution": {"queue": ")" + shows.queue + R"("}}]})";
}

void RememberStops(sync::Journal& journal, const std::vector<std::string>& tasks) {
  std::vector<sync::MoveIntent> stops;
  for (const std::string& task : tasks) stops.push_back(StopIntent(task));
  std::string error;
  ASSERT_TRUE(journal.Begin(&stops, &error)) << error;
  for (const sync::MoveIntent& stop : stops) journal.Finish(stop.seq, "stopped", false);
  ASSERT_TRUE(journal.Flush(&error)) << error;
}

}  // namespace rescfg::testing
