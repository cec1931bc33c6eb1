#include "support/victims.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace rescfg::testing {

sync::MoveIntent DevMoveIntent(const std::string& task) {
  sync::MoveIntent m;
  m.cycle = 1;
  m.task = task;
  m.name = "train";
  m.policy = "Dev";
  m.profile = "4xGPU";
  m.pool = "H100";
  m.from = "dev-4gpu";
  m.from_id = "qdev";
  m.to = "h100-4gpu";
  m.to_id = "qh100";
  return m;
}

sync::MoveIntent StopIntent(const std::string& task) {
  return {.cycle = 1, .task = task, .name = "sandbox-run", .policy = "Sandbox", .profile = "2xGPU", .pool = "H100",
          .from = "sandbox-2gpu", .from_id = "qsand", .to = "h100-2gpu", .to_id = "qh100", .changed = kVictimChanged,
          .kind = ActionKind::kStop, .preemptor = "Dev/d0", .reason = "rescfg: preempted for Dev/d0 in H100",
          .asked_us = kStopAskedUs};
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

VictimServer::VictimServer(const VictimShows& shows, int64_t now_us)
    : clock(now_us), api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock) {
  std::string error;
  journal = sync::Journal::Open(dir.file("journal"), &error);
  EXPECT_TRUE(journal) << error;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("tasks.get_all", {OkAnswer(VictimAnswer("v1", shows))});
  server.Script("tasks.enqueue", {OkAnswer(R"({"updated": 1, "queued": 1})")});
  server.Script("queues.move_task_to_front", {OkAnswer(R"({"updated": 1})")});
}

sync::SettleOutcome VictimServer::Settle(int64_t cycle, int64_t stop_timeout_us) {
  std::string error;
  sync::SettleOutcome outcome = sync::SettlePreemptions(api, *journal, cycle, stop_timeout_us, clock, &error);
  EXPECT_TRUE(error.empty()) << error;
  return outcome;
}

std::vector<std::string> VictimServer::Calls() const {
  auto calls = server.endpoints();
  calls.erase(std::remove(calls.begin(), calls.end(), "auth.login"), calls.end());
  return calls;
}

}  // namespace rescfg::testing
