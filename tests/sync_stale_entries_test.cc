// Stale entries of pool queues (decide/stale_entries.h, sync/stale_entries.h):
// a task a person stopped or dequeued after the sync handed it over stays
// listed in its pool queue (tasks.stop and tasks.dequeue remove only the entry
// of execution.queue, the policy queue); an agent that pops it runs it again.
// Each cycle removes them, guarded by a read of the task's status.

#include <gtest/gtest.h>

#include <map>

#include "decide/stale_entries.h"
#include "support/fake_transport.h"
#include "support/scenario_text.h"
#include "sync/metrics.h"
#include "sync/move_output.h"
#include "sync/removed_count.h"
#include "sync/stale_entries.h"

namespace rescfg {
namespace {

using sync::HttpResponse;
using testing::FakeTransport;
using testing::OkAnswer;
using testing::RawAnswer;
using testing::RefusedAnswer;
using testing::TransportFailure;

constexpr const char* kConfig = R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: H100, resources: 8, queue: h100}
profiles:
  - name: 2xGPU
    allotment: 2
    links: [{pool: H100, queue: h100-2gpu}]
policies:
  - name: Dev
    profiles: [{profile: 2xGPU, queue: dev-2gpu}]
)";

// Every queue lists some tasks: the pool queue, its link queue, the policy
// queue and the k8s glue's hidden queue (no queue of the configuration).
constexpr const char* kQueues = R"({"data": {"queues": [
  {"id": "qh", "name": "h100", "entries": [{"task": "stopped1"}, {"task": "waiting1"}]},
  {"id": "ql", "name": "h100-2gpu", "entries": [{"task": "running1"}, {"task": "dequeued1"}, {"task": "deleted1"}]},
  {"id": "qd", "name": "dev-2gpu", "entries": [{"task": "policy1"}, {"task": "stopped2"}]},
  {"id": "qk", "name": "k8s_scheduler", "entries": [{"task": "stopped3"}]}]}})";

sync::ServerSnapshot ReadAs() {
  sync::ServerSnapshot snapshot;  // the read: queued and running tasks only
  snapshot.status = {{"waiting1", "queued"}, {"running1", "in_progress"}, {"policy1", "queued"}};
  return snapshot;
}

TEST(SyncStaleEntriesTest, OnlyPoolAndLinkQueueEntriesOfTasksNeitherQueuedNorRunning) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const clearml::QueueList queues = clearml::ReadQueuesText(kQueues, "queues");
  ASSERT_FALSE(queues.unusable);
  const std::vector<sync::MoveIntent> removals = sync::PlanRemovals(config, ReadAs(), queues, 7);
  std::vector<std::string> got;
  for (const sync::MoveIntent& m : removals) {
    EXPECT_EQ(m.kind, ActionKind::kRemove);
    EXPECT_EQ(m.cycle, 7);
    EXPECT_EQ(m.pool, "H100");
    got.push_back(m.task + " in " + m.to + " (" + m.to_id + ")");
  }
  EXPECT_EQ(got, (std::vector<std::string>{"stopped1 in h100 (qh)", "dequeued1 in h100-2gpu (ql)",
                                           "deleted1 in h100-2gpu (ql)"}));
}

TEST(SyncStaleEntriesTest, TheGuardLeavesQueuedAndRunningTasks) {
  for (const char* status : {"stopped", "created", "failed", "completed", "published", "closed", "unknown", ""}) {
    EXPECT_EQ(StaleEntryGuard(status), "") << status;
  }
  EXPECT_NE(StaleEntryGuard("queued"), "");
  EXPECT_NE(StaleEntryGuard("in_progress"), "");
}

struct RemovalCase {
  const char* what;
  std::string status;                  ///< what tasks.get_all says right before the removal
  std::vector<HttpResponse> remove;    ///< queues.remove_task's answers
  std::string result;
  std::vector<std::string> calls;      ///< after auth.login
};

TEST(SyncStaleEntriesTest, EachAnswerGivesItsResult) {
  const auto removed = OkAnswer(R"({"removed": 1})");
  const std::vector<RemovalCase> cases = {
      {"stopped: removed", "stopped", {removed}, "removed", {"tasks.get_all", "queues.remove_task"}},
      {"dequeued (created): removed", "created", {removed}, "removed", {"tasks.get_all", "queues.remove_task"}},
      {"deleted: removed", "", {removed}, "removed", {"tasks.get_all", "queues.remove_task"}},
      {"enqueued again by a person meanwhile: left", "queued", {removed}, "skipped", {"tasks.get_all"}},
      {"running meanwhile: left", "in_progress", {removed}, "skipped", {"tasks.get_all"}},
      {"popped or re-enqueued between the look and the removal (703)", "stopped", {RefusedAnswer(400, 703)},
       "skipped", {"tasks.get_all", "queues.remove_task"}},
      {"removed 0", "stopped", {OkAnswer(R"({"removed": 0})")}, "skipped", {"tasks.get_all", "queues.remove_task"}},
      {"an answer without a count is not a removal", "stopped", {OkAnswer("{}")}, "skipped",
       {"tasks.get_all", "queues.remove_task"}},
      {"a count that is no number is not a removal", "stopped", {OkAnswer(R"({"removed": "x"})")}, "skipped",
       {"tasks.get_all", "queues.remove_task"}},
      {"a negative count is not a removal", "stopped", {OkAnswer(R"({"removed": -1})")}, "skipped",
       {"tasks.get_all", "queues.remove_task"}},
      {"no API envelope at all", "stopped", {RawAnswer(200, "{}")}, "failed", {"tasks.get_all", "queues.remove_task"}},
      {"data without meta", "stopped", {RawAnswer(200, R"({"data": {"removed": 1}})")}, "failed",
       {"tasks.get_all", "queues.remove_task"}},
      {"no answer (transport)", "stopped", {TransportFailure(HttpResponse::Outcome::kConnectFailed)}, "failed",
       {"tasks.get_all", "queues.remove_task"}},
      {"a refusal that says nothing of the task", "stopped", {RefusedAnswer(400, 999)}, "failed",
       {"tasks.get_all", "queues.remove_task"}},
  };
  const Config config = testing::ConfigFromYaml(kConfig);
  const clearml::QueueList queues = clearml::ReadQueuesText(kQueues, "queues");
  const std::vector<sync::MoveIntent> all = sync::PlanRemovals(config, ReadAs(), queues, 1);
  ASSERT_FALSE(all.empty());
  for (const RemovalCase& c : cases) {
    FakeTransport server;
    server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
    const std::string task = c.status.empty() ? R"({"tasks": []})"
                                              : R"({"tasks": [{"id": "stopped1", "status": ")" + c.status +
                                                    R"(", "execution": {"queue": "qd"}}]})";
    server.Script("tasks.get_all", {OkAnswer(task)});
    server.Script("queues.remove_task", c.remove);
    ManualClock clock;
    sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {1, 1, 1}, clock);
    std::vector<sync::MoveReport> reports;
    sync::CarryOutRemovals(api, {all[0]}, clock, nullptr, &reports);
    ASSERT_EQ(reports.size(), 1u) << c.what;
    EXPECT_EQ(sync::MoveResultName(reports[0].result), std::string(c.result)) << c.what << ": " << reports[0].detail;
    EXPECT_FALSE(reports[0].detail.empty()) << c.what;
    if (std::string(c.what).find("not a removal") != std::string::npos) {
      EXPECT_NE(reports[0].detail.find("no \"removed\" count"), std::string::npos) << c.what << ": " << reports[0].detail;
    }
    auto calls = server.endpoints();
    calls.erase(calls.begin());
    EXPECT_EQ(calls, c.calls) << c.what;
    if (c.calls.size() == 2) {
      EXPECT_EQ(server.requests().back().body, R"({"queue": "qh", "task": "stopped1"})") << c.what;
    }
  }
}

// The count of a queues.remove_task answer: only a whole number of at least 0 is one.
TEST(SyncStaleEntriesTest, RemovedCountOfEachAnswer) {
  const std::vector<std::pair<std::string, std::optional<int64_t>>> cases = {
      {R"({"data": {"removed": 1}})", 1},
      {R"({"data": {"removed": 0}})", 0},
      {R"({"meta": {"result_code": 200}, "data": {"removed": 3}})", 3},
      {R"({"data": {}})", std::nullopt},
      {"{}", std::nullopt},
      {R"({"data": {"removed": "x"}})", std::nullopt},
      {R"({"data": {"removed": 1.5}})", std::nullopt},
      {R"({"data": {"removed": -1}})", std::nullopt},
      {R"({"data": {"removed": null}})", std::nullopt},
      {R"({"data": null})", std::nullopt},
      {"[]", std::nullopt},
      {"not json", std::nullopt},
      {"", std::nullopt},
  };
  for (const auto& [body, count] : cases) EXPECT_EQ(sync::RemovedCount(body), count) << body;
}

TEST(SyncStaleEntriesTest, AnUnreadableTaskIsLeftForTheNextCycle) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const clearml::QueueList queues = clearml::ReadQueuesText(kQueues, "queues");
  const std::vector<sync::MoveIntent> all = sync::PlanRemovals(config, ReadAs(), queues, 1);
  ASSERT_FALSE(all.empty());
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("tasks.get_all", {TransportFailure(HttpResponse::Outcome::kConnectFailed)});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {1, 1, 1}, clock);
  std::vector<sync::MoveReport> reports;
  sync::CarryOutRemovals(api, {all[0]}, clock, nullptr, &reports);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].result, sync::MoveResult::kFailed);
  for (const std::string& endpoint : server.endpoints()) EXPECT_NE(endpoint, "queues.remove_task");
}

TEST(SyncStaleEntriesTest, RecordsAndMetricsSayWhatWasRemoved) {
  sync::MoveIntent m;
  m.kind = ActionKind::kRemove;
  m.task = "stopped1";
  m.pool = "H100";
  m.to = "h100";
  m.to_id = "qh";
  const sync::MoveReport removed{m, "2026-12-03T10:00:00.000000Z", sync::MoveResult::kRemoved, "its status is stopped", false};
  EXPECT_EQ(sync::MoveJsonLine(removed, 3),
            R"({"cycle": 3, "time": "2026-12-03T10:00:00.000000Z", "action": "remove", "task": "stopped1", )"
            R"("name": null, "policy": null, "profile": null, "pool": "H100", "from": "h100", "to": null, )"
            R"("result": "removed", "detail": "its status is stopped"})" "\n");
  sync::CycleResult cycle;
  cycle.status = sync::CycleResult::Status::kCompleted;
  cycle.moves = {removed, removed};
  cycle.moves[1].result = sync::MoveResult::kSkipped;
  sync::MetricsTotals totals;
  sync::CountCycle(cycle, &totals);
  sync::CountCycle(cycle, &totals);
  EXPECT_TRUE(totals.actions.empty());  // no preemption action
  EXPECT_TRUE(totals.moves.empty());
  const std::string text = sync::RenderMetrics(nullptr, cycle, totals, {}, 0);
  EXPECT_NE(text.find("rescfg_sync_stale_entries_total{result=\"removed\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("rescfg_sync_stale_entries_total{result=\"skipped\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(sync::CycleSummary(cycle, 3, false).find(", 1 stale entry removed"), std::string::npos)
      << sync::CycleSummary(cycle, 3, false);
}

}  // namespace
}  // namespace rescfg
