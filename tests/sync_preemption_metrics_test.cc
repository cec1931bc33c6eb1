// What the preemption metrics of `rescfg sync --metrics` must not count
// (rescfg(1), "Stopping and re-queueing victims"): a preemption is a stop
// that was asked; skipped, failed and planned stops, re-queues, stuck stops
// and moves are not preemptions, and a cycle that did not complete changes
// nothing. And the k8s glue's cases: a victim the glue holds pending, or
// failed, is neither stopped, re-queued nor counted.

#include <gtest/gtest.h>

#include "support/fake_transport.h"
#include "support/temp_dir.h"
#include "support/victims.h"
#include "sync/metrics.h"
#include "sync/preemption_metrics.h"
#include "sync/requeue.h"
#include "sync/stop.h"

namespace rescfg {
namespace {

using sync::MoveResult;
using testing::FakeTransport;
using testing::OkAnswer;
using testing::StopIntent;
using testing::TempDir;
using testing::VictimAnswer;

sync::MoveReport Report(ActionKind kind, MoveResult result, const std::string& policy = "Sandbox",
                        const std::string& pool = "H100") {
  sync::MoveReport r;
  r.intent = StopIntent();
  r.intent.kind = kind;
  r.intent.policy = policy;
  r.intent.pool = pool;
  r.result = result;
  return r;
}

sync::CycleResult Cycle(std::vector<sync::MoveReport> moves, size_t stopping = 0,
                        sync::CycleResult::Status status = sync::CycleResult::Status::kCompleted) {
  sync::CycleResult c;
  c.status = status;
  c.moves = std::move(moves);
  c.stopping = stopping;
  return c;
}

std::string Render(const sync::MetricsTotals& totals) {
  std::string out;
  sync::RenderPreemptionMetrics(totals, &out);
  return out;
}

TEST(SyncPreemptionMetricsTest, OnlyAStopThatWasAskedIsAPreemption) {
  sync::MetricsTotals totals;
  sync::CountCycle(Cycle({Report(ActionKind::kStop, MoveResult::kStopped),
                          Report(ActionKind::kStop, MoveResult::kSkipped, "Batch"),
                          Report(ActionKind::kStop, MoveResult::kFailed, "Batch", "A100"),
                          Report(ActionKind::kRequeue, MoveResult::kRequeued, "Research"),
                          Report(ActionKind::kStop, MoveResult::kStuck, "Vision"),
                          Report(ActionKind::kMove, MoveResult::kMoved, "Dev")},
                         2),
                   &totals);
  const std::map<std::pair<std::string, std::string>, uint64_t> preempted = {{{"Sandbox", "H100"}, 1}};
  EXPECT_EQ(totals.preemptions, preempted);
  EXPECT_EQ(totals.stuck, 1u);
  EXPECT_EQ(totals.stopping, 2u);
  // Moves are not preemption actions, and stops and re-queues are not moves.
  EXPECT_EQ(totals.actions.count({"move", "moved"}), 0u);
  EXPECT_EQ(totals.moves, (std::map<std::string, uint64_t>{{"moved", 1}}));
  const std::string text = Render(totals);
  EXPECT_NE(text.find("rescfg_sync_preemptions_total{policy=\"Sandbox\",pool=\"H100\"} 1\n"), std::string::npos) << text;
  for (const char* absent : {"policy=\"Batch\"", "policy=\"Research\"", "policy=\"Vision\"", "policy=\"Dev\"",
                             "action=\"move\""}) {
    EXPECT_EQ(text.find(absent), std::string::npos) << absent << " in\n" << text;
  }
}

TEST(SyncPreemptionMetricsTest, ADryRunPlansButCountsNoPreemption) {
  sync::MetricsTotals totals;
  sync::CountCycle(Cycle({Report(ActionKind::kStop, MoveResult::kPlanned), Report(ActionKind::kMove, MoveResult::kPlanned)}),
                   &totals);
  EXPECT_TRUE(totals.preemptions.empty());
  EXPECT_EQ(Render(totals).find("rescfg_sync_preemptions_total{"), std::string::npos);
}

TEST(SyncPreemptionMetricsTest, ACycleThatDidNotCompleteCountsWhatItDidAndKeepsTheGauges) {
  sync::MetricsTotals totals;
  sync::CountCycle(Cycle({Report(ActionKind::kStop, MoveResult::kStopped), Report(ActionKind::kStop, MoveResult::kStuck)}, 3),
                   &totals);
  const auto before = totals.preemptions;
  const auto actions = totals.actions;
  sync::CountCycle(Cycle({Report(ActionKind::kStop, MoveResult::kStopped), Report(ActionKind::kRequeue, MoveResult::kRequeued)},
                         0, sync::CycleResult::Status::kUnreachable),
                   &totals);
  // What it carried out before it failed is counted: one more stop, one re-queue.
  auto want = before;
  ++want[{"Sandbox", "H100"}];
  EXPECT_EQ(totals.preemptions, want);
  auto want_actions = actions;
  ++want_actions[{"stop", "stopped"}];
  ++want_actions[{"requeue", "requeued"}];
  EXPECT_EQ(totals.actions, want_actions);
  EXPECT_EQ(totals.stopping, 3u) << "a failed cycle's gauges are not the server's";
  EXPECT_EQ(totals.stuck, 1u);
  EXPECT_EQ(totals.failed_cycles, 1);
  // Stuck and stopping are gauges: a cycle without a stuck stop sets them back.
  sync::CountCycle(Cycle({}, 1), &totals);
  EXPECT_EQ(totals.stuck, 0u);
  EXPECT_EQ(totals.stopping, 1u);
  EXPECT_EQ(totals.preemptions, want);
}

/// The k8s glue holds a task whose pod waits in its hidden queue: queued there, its
/// execution.queue still the pool's. A stop aimed at it finds it queued, not running.
TEST(SyncGlueTest, APodPendingVictimIsNeitherStoppedNorCounted) {
  TempDir dir;
  std::string error;
  auto journal = sync::Journal::Open(dir.file("journal"), &error);
  ASSERT_TRUE(journal) << error;
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("tasks.get_all",
                {OkAnswer(VictimAnswer("v1", {"queued", "", "k8s pending scheduler", testing::kVictimChanged, "qh100"}))});
  server.Script("tasks.stop", {OkAnswer(R"({"updated": 1})")});
  ManualClock clock(testing::kStopAskedUs);
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  std::vector<sync::MoveReport> reports;
  ASSERT_TRUE(sync::CarryOutStops(api, *journal, {StopIntent("v1")}, [](std::string_view) { return "H100"; }, clock,
                                  nullptr, &reports, &error))
      << error;
  EXPECT_EQ(server.endpoints(), (std::vector<std::string>{"auth.login", "tasks.get_all"}));
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].result, MoveResult::kSkipped);
  EXPECT_NE(reports[0].detail.find("not in_progress"), std::string::npos) << reports[0].detail;
  EXPECT_TRUE(journal->unfinished().empty());
  EXPECT_TRUE(journal->stops().empty());
  sync::MetricsTotals totals;
  sync::CountCycle(Cycle(reports), &totals);
  EXPECT_TRUE(totals.preemptions.empty());
}

/// A victim whose pod the glue deleted and whose task it failed ("Pod deleted"): it ended,
/// not by rescfg's stop; it is let go, never re-queued, and nothing is counted for it.
TEST(SyncGlueTest, AVictimTheGlueFailedIsNotRequeuedNorCounted) {
  TempDir dir;
  std::string error;
  auto journal = sync::Journal::Open(dir.file("journal"), &error);
  ASSERT_TRUE(journal) << error;
  testing::RememberStops(*journal, {"v1"});
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("tasks.get_all", {OkAnswer(VictimAnswer(
                                     "v1", {"failed", "Pod deleted by agent w1", "Pod deleted (not pending or running)"}))});
  ManualClock clock(testing::kStopAskedUs + 10'000'000);
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  const sync::SettleOutcome outcome = sync::SettlePreemptions(api, *journal, 2, 300'000'000, clock, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(server.endpoints(), (std::vector<std::string>{"auth.login", "tasks.get_all"}));
  EXPECT_TRUE(outcome.reports.empty());
  EXPECT_TRUE(journal->stops().empty());
  sync::CycleResult cycle = Cycle(outcome.reports, journal->stops().size());
  sync::MetricsTotals totals;
  sync::CountCycle(cycle, &totals);
  EXPECT_TRUE(totals.actions.empty());
  EXPECT_TRUE(totals.preemptions.empty());
  EXPECT_EQ(totals.stopping, 0u);
}

/// While it runs, a task the glue started may name a queue of no pool (the glue's own): the
/// decision's pool stands, and the victim is stopped.
TEST(SyncGlueTest, AVictimRunningFromAQueueOfNoPoolIsStoppedForItsDecidedPool) {
  sync::VictimLook look;
  look.ok = look.found = true;
  look.status = "in_progress";
  look.queue = "qglue";
  auto pool_of = [](std::string_view id) { return std::string(id == "qa100" ? "A100" : ""); };
  EXPECT_EQ(sync::StopGuard(StopIntent(), look, pool_of), "");
  look.queue = "qa100";
  EXPECT_EQ(sync::StopGuard(StopIntent(), look, pool_of), "it runs from a queue of pool A100 now, not H100");
}

}  // namespace
}  // namespace rescfg
