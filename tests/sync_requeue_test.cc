// What becomes of the victims `rescfg sync` stopped (rescfg(1), "Stopping
// and re-queueing victims"): a stopped victim goes back to the head of its
// policy queue with the phrase the k8s glue looks for; one that is no
// longer stopped is let go; a stop the server never completes is stuck
// after stopTimeout; and what the preemption metrics must not count is not.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "support/victims.h"
#include "sync/metrics.h"
#include "sync/requeue.h"
#include "sync/stop.h"

namespace rescfg {
namespace {

using testing::OkAnswer;
using testing::RefusedAnswer;
using testing::StopIntent;
using testing::VictimAnswer;
using testing::VictimShows;

constexpr int64_t kSecond = 1'000'000;
constexpr int64_t kStopTimeout = 300 * kSecond;

/// A sync's journal remembering a stop of v1, and a server that shows v1 as `shows`.
struct RememberedStop : testing::VictimServer {
  explicit RememberedStop(const VictimShows& shows, int64_t now_us = testing::kStopAskedUs + kSecond)
      : VictimServer(shows, now_us) {
    testing::RememberStops(*journal, {"v1"});
  }
  sync::SettleOutcome Settle(int64_t cycle = 2) { return VictimServer::Settle(cycle, kStopTimeout); }
};

TEST(SyncRequeueTest, AStoppedVictimGoesBackToTheHeadOfItsPolicyQueue) {
  RememberedStop s({"stopped", "", "rescfg: preempted for Dev/d0 in H100", "2026-12-01T10:00:00.000000+00:00"});
  const sync::SettleOutcome outcome = s.Settle(7);
  EXPECT_TRUE(outcome.ok);
  EXPECT_TRUE(outcome.acted);
  EXPECT_EQ(s.Calls(), (std::vector<std::string>{"tasks.get_all", "tasks.enqueue", "queues.move_task_to_front"}));
  const auto requests = s.server.requests();
  const std::string reason = "rescfg: pushed back by policy manager: preempted for Dev/d0 in H100";
  EXPECT_EQ(requests[2].body, R"({"task": "v1", "queue": "qsand", "status_reason": ")" + reason + R"("})");
  EXPECT_EQ(requests[3].body, R"({"queue": "qsand", "task": "v1"})");
  ASSERT_EQ(outcome.reports.size(), 1u);
  const sync::MoveReport& report = outcome.reports[0];
  EXPECT_EQ(report.intent.kind, ActionKind::kRequeue);
  EXPECT_EQ(report.result, sync::MoveResult::kRequeued);
  EXPECT_EQ(report.intent.cycle, 7);
  EXPECT_EQ(report.intent.changed, "2026-12-01T10:00:00.000000+00:00");  // the guard of a crash's recovery
  EXPECT_TRUE(report.detail.empty()) << report.detail;
  EXPECT_TRUE(s.journal->stops().empty());  // re-queued once: forgotten
  EXPECT_TRUE(s.journal->unfinished().empty());
}

TEST(SyncRequeueTest, TheReasonCarriesThePhraseTheK8sGlueLooksFor) {
  // The glue lowercases status_reason and looks for the phrase in it; without it, it fails the task.
  std::string reason = sync::RequeueReason(StopIntent());
  EXPECT_EQ(reason, "rescfg: pushed back by policy manager: preempted for Dev/d0 in H100");
  std::transform(reason.begin(), reason.end(), reason.begin(), [](unsigned char c) { return std::tolower(c); });
  EXPECT_NE(reason.find("pushed back by policy manager"), std::string::npos);
  EXPECT_NE(sync::RequeueReason(StopIntent()).find(sync::kPushedBack), std::string::npos);
}

TEST(SyncRequeueTest, AVictimNoLongerStoppedIsLetGoNotRequeued) {
  const std::vector<std::pair<const char*, VictimShows>> cases = {
      {"running again", {"in_progress", ""}},
      {"queued again by a person", {"queued", "", "a person", testing::kVictimChanged, "qsand"}},
      {"dequeued by a person", {"created", ""}},
      {"completed on its own", {"completed", ""}},
      {"failed on its own", {"failed", ""}},
      {"published", {"published", ""}},
      {"deleted", {"", ""}},
  };
  for (const auto& [what, shows] : cases) {
    RememberedStop s(shows);
    const sync::SettleOutcome outcome = s.Settle();
    EXPECT_TRUE(outcome.ok) << what;
    EXPECT_EQ(s.Calls(), (std::vector<std::string>{"tasks.get_all"})) << what;
    EXPECT_TRUE(outcome.reports.empty()) << what;
    EXPECT_TRUE(s.journal->stops().empty()) << what << ": still remembered";
    ASSERT_EQ(outcome.notes.size(), 1u) << what;
    EXPECT_NE(outcome.notes[0].find("not re-queued"), std::string::npos) << what << ": " << outcome.notes[0];
  }
}

TEST(SyncRequeueTest, ARefusedEnqueueIsSkippedWhenTheTaskChangedAndTriedAgainOtherwise) {
  struct Case {
    const char* what;
    sync::HttpResponse answer;
    sync::MoveResult result;
    bool remembered;  ///< tried again at the next cycle
  };
  const std::vector<Case> cases = {
      {"its status changed", RefusedAnswer(400, 121), sync::MoveResult::kSkipped, false},
      {"its status forbids it", RefusedAnswer(400, 110), sync::MoveResult::kSkipped, false},
      {"refused for another reason", RefusedAnswer(403, 0, "forbidden"), sync::MoveResult::kFailed, true},
  };
  for (const Case& c : cases) {
    RememberedStop s({"stopped", ""});
    s.server.Script("tasks.enqueue", {c.answer});
    const sync::SettleOutcome outcome = s.Settle();
    EXPECT_TRUE(outcome.ok) << c.what;
    EXPECT_EQ(s.Calls(), (std::vector<std::string>{"tasks.get_all", "tasks.enqueue"})) << c.what;
    ASSERT_EQ(outcome.reports.size(), 1u) << c.what;
    EXPECT_EQ(outcome.reports[0].result, c.result) << c.what;
    EXPECT_NE(outcome.reports[0].detail.find("tasks.enqueue"), std::string::npos) << c.what;
    EXPECT_EQ(s.journal->stops().count("v1"), c.remembered ? 1u : 0u) << c.what;
    EXPECT_TRUE(s.journal->unfinished().empty()) << c.what;
  }
}

TEST(SyncRequeueTest, AFailedMoveToTheFrontLeavesTheVictimRequeuedAtTheEnd) {
  RememberedStop s({"stopped", ""});
  s.server.Script("queues.move_task_to_front", {RefusedAnswer(400, 703)});
  const sync::SettleOutcome outcome = s.Settle();
  ASSERT_EQ(outcome.reports.size(), 1u);
  EXPECT_EQ(outcome.reports[0].result, sync::MoveResult::kRequeued);
  EXPECT_NE(outcome.reports[0].detail.find("it waits at the end of sandbox-2gpu"), std::string::npos)
      << outcome.reports[0].detail;
  EXPECT_TRUE(s.journal->stops().empty());  // enqueued: never enqueued again
}

TEST(SyncStopStuckTest, AStopTheServerNeverCompletesIsStuckAfterStopTimeout) {
  // The victim's agent never kills it: in_progress and stopping at every cycle.
  RememberedStop s({"in_progress", "stopping"}, testing::kStopAskedUs + kStopTimeout);
  sync::SettleOutcome outcome = s.Settle(2);
  EXPECT_TRUE(outcome.reports.empty()) << "stuck at stopTimeout itself";
  EXPECT_EQ(s.journal->stops().count("v1"), 1u);
  s.clock.Advance(kSecond);
  for (int64_t cycle = 3; cycle <= 4; ++cycle) {  // stuck at every cycle from then on
    outcome = s.Settle(cycle);
    EXPECT_TRUE(outcome.ok);
    ASSERT_EQ(outcome.reports.size(), 1u) << "cycle " << cycle;
    const sync::MoveReport& report = outcome.reports[0];
    EXPECT_EQ(report.result, sync::MoveResult::kStuck);
    EXPECT_EQ(report.intent.kind, ActionKind::kStop);
    EXPECT_NE(report.detail.find("after its stop was asked (stopTimeout 300 s); it keeps holding H100"),
              std::string::npos)
        << report.detail;
    ASSERT_EQ(outcome.notes.size(), 1u);
    EXPECT_NE(outcome.notes[0].find("stop of task v1 stuck"), std::string::npos) << outcome.notes[0];
    EXPECT_EQ(s.journal->stops().count("v1"), 1u) << "a stuck stop keeps holding";
    s.clock.Advance(60 * kSecond);
  }
  EXPECT_NE(outcome.reports[0].detail.find("still in_progress 361 s"), std::string::npos) << outcome.reports[0].detail;
  for (const std::string& call : s.Calls()) EXPECT_EQ(call, "tasks.get_all") << "a stop is never asked again";
  // At last the agent kills it: re-queued, no longer stuck.
  s.server.Script("tasks.get_all", {OkAnswer(VictimAnswer("v1", {"stopped", ""}))});
  outcome = s.Settle(5);
  ASSERT_EQ(outcome.reports.size(), 1u);
  EXPECT_EQ(outcome.reports[0].result, sync::MoveResult::kRequeued);
}

TEST(SyncStopStuckTest, JudgeStopReadsEachState) {
  const sync::MoveIntent stop = StopIntent();
  auto look = [](const char* status, const char* message) {
    sync::VictimLook l;
    l.ok = l.found = true;
    l.status = status;
    l.status_message = message;
    return l;
  };
  const int64_t at = testing::kStopAskedUs;
  EXPECT_EQ(sync::JudgeStop(stop, look("in_progress", "stopping"), at + kStopTimeout, kStopTimeout),
            sync::StopState::kWaiting);
  EXPECT_EQ(sync::JudgeStop(stop, look("in_progress", "stopping"), at + kStopTimeout + 1, kStopTimeout),
            sync::StopState::kStuck);
  EXPECT_EQ(sync::JudgeStop(stop, look("stopped", ""), at + 10 * kStopTimeout, kStopTimeout), sync::StopState::kStopped);
  // Running without stopping, long after: someone restarted it; never stuck, let go.
  EXPECT_EQ(sync::JudgeStop(stop, look("in_progress", ""), at + 10 * kStopTimeout, kStopTimeout),
            sync::StopState::kLetGo);
  sync::VictimLook gone;
  gone.ok = true;
  EXPECT_EQ(sync::JudgeStop(stop, gone, at, kStopTimeout), sync::StopState::kLetGo);
}

}  // namespace
}  // namespace rescfg
