// The move protocol and the journal of `rescfg sync` against a fake
// transport: each answer of the server gives its move result; each state a
// crash can leave is completed or undone.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/fake_transport.h"
#include "support/temp_dir.h"
#include "support/victims.h"
#include "sync/journal.h"
#include "sync/metrics.h"
#include "sync/move.h"
#include "sync/move_output.h"
#include "sync/recovery.h"

namespace rescfg {
namespace {

using sync::HttpResponse;
using testing::FakeTransport;
using testing::OkAnswer;
using testing::RawAnswer;
using testing::RefusedAnswer;
using testing::TempDir;
using testing::TransportFailure;

sync::MoveIntent Intent(const std::string& task = "t1") { return testing::DevMoveIntent(task); }

std::string TaskAnswer(const std::string& status) {
  if (status.empty()) return R"({"tasks": []})";
  return R"({"tasks": [{"id": "t1", "status": ")" + status + R"(", "execution": {"queue": "qdev"}}]})";
}

struct MoveCase {
  const char* what;
  std::vector<HttpResponse> remove, enqueue;
  std::string status;  ///< what tasks.get_all says, when asked
  std::string result;
  std::vector<std::string> calls;  ///< after auth.login
  bool open = false;
};

TEST(SyncMovesTest, EachAnswerGivesItsResult) {
  const auto ok_removed = OkAnswer(R"({"removed": 1})");
  const auto ok_enqueued = OkAnswer(R"({"updated": 1, "queued": 1})");
  const auto connect = TransportFailure(HttpResponse::Outcome::kConnectFailed);
  const auto timeout = TransportFailure(HttpResponse::Outcome::kTimeout);
  const std::vector<MoveCase> cases = {
      {"both calls succeed", {ok_removed}, {ok_enqueued}, "", "moved",
       {"queues.remove_task", "tasks.enqueue"}},
      {"gone from the policy queue (703), no longer queued", {RefusedAnswer(400, 703)}, {ok_enqueued}, "created",
       "skipped", {"queues.remove_task", "tasks.get_all"}},
      // libcurl sends a request again by itself when a reused connection dies
      // before an answer: a 703 or 706 may answer our own earlier attempt.
      {"703 at once, yet queued for its policy queue in none: ours", {RefusedAnswer(400, 703)}, {ok_enqueued},
       "queued", "moved", {"queues.remove_task", "tasks.get_all", "queues.get_all", "tasks.enqueue"}},
      {"706 at once: already in its pool queue", {ok_removed}, {RefusedAnswer(400, 706)}, "", "moved",
       {"queues.remove_task", "tasks.enqueue"}},
      {"removed 0: taken meanwhile", {OkAnswer(R"({"removed": 0})")}, {ok_enqueued}, "", "skipped",
       {"queues.remove_task"}},
      // No count: whether the entry went is not known; the enqueue's guard decides.
      {"an answer without a count: on to the enqueue", {OkAnswer("{}")}, {ok_enqueued}, "", "moved",
       {"queues.remove_task", "tasks.enqueue"}},
      {"a count that is no number: on to the enqueue", {OkAnswer(R"({"removed": "x"})")}, {ok_enqueued}, "", "moved",
       {"queues.remove_task", "tasks.enqueue"}},
      {"no count, and the enqueue's guard refuses (12)", {OkAnswer("{}")}, {RefusedAnswer(400, 12)}, "created",
       "skipped", {"queues.remove_task", "tasks.enqueue", "tasks.get_all"}},
      {"stopped meanwhile (110), not put back", {ok_removed}, {RefusedAnswer(400, 110)}, "stopped", "skipped",
       {"queues.remove_task", "tasks.enqueue", "tasks.get_all"}},
      {"status changed (121), still queued: put back", {ok_removed}, {RefusedAnswer(400, 121)}, "queued", "skipped",
       {"queues.remove_task", "tasks.enqueue", "tasks.get_all", "queues.get_all", "queues.add_task"}},
      {"not enqueued any more (12): dequeued by a person", {ok_removed}, {RefusedAnswer(400, 12)}, "created",
       "skipped", {"queues.remove_task", "tasks.enqueue", "tasks.get_all"}},
      {"pool queue gone (701): put back, failed", {ok_removed}, {RefusedAnswer(400, 701)}, "queued", "failed",
       {"queues.remove_task", "tasks.enqueue", "tasks.get_all", "queues.get_all", "queues.add_task"}},
      {"5xx then success", {RawAnswer(503, "busy"), ok_removed}, {ok_enqueued}, "", "moved",
       {"queues.remove_task", "queues.remove_task", "tasks.enqueue"}},
      {"enqueue timed out but was done (706 on retry)", {ok_removed}, {timeout, RefusedAnswer(400, 706)}, "", "moved",
       {"queues.remove_task", "tasks.enqueue", "tasks.enqueue"}},
      {"remove timed out but was done (703 on retry, still queued for it)", {timeout, RefusedAnswer(400, 703)},
       {ok_enqueued}, "queued", "moved", {"queues.remove_task", "queues.remove_task", "tasks.get_all", "queues.get_all", "tasks.enqueue"}},
      {"remove unreachable: never connected", {connect}, {ok_enqueued}, "", "failed",
       std::vector<std::string>(3, "queues.remove_task"), true},
      {"enqueue unreachable: left open for the next cycle", {ok_removed}, {connect}, "queued", "failed",
       {"queues.remove_task", "tasks.enqueue", "tasks.enqueue", "tasks.enqueue"}, true},
  };
  for (const MoveCase& c : cases) {
    FakeTransport server;
    server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
    server.Script("queues.remove_task", c.remove);
    server.Script("tasks.enqueue", c.enqueue);
    server.Script("tasks.get_all", {OkAnswer(TaskAnswer(c.status))});
    server.Script("queues.add_task", {OkAnswer(R"({"added": 1})")});
    server.Script("queues.get_all", {OkAnswer(R"({"queues": []})")});  // after a 703: listed nowhere now
    ManualClock clock;
    sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {3, 1, 1}, clock);
    const sync::MoveReport report = sync::MoveTask(api, Intent(), clock);
    EXPECT_EQ(sync::MoveResultName(report.result), std::string(c.result)) << c.what << ": " << report.detail;
    auto calls = server.endpoints();
    calls.erase(calls.begin());
    EXPECT_EQ(calls, c.calls) << c.what;
    EXPECT_EQ(report.result == sync::MoveResult::kMoved, report.detail.empty()) << c.what;
    if (c.open) {
      EXPECT_TRUE(report.open) << c.what;
    }
  }
}

TEST(SyncMovesTest, ATaskAPersonEnqueuedElsewhereIsNotPutBack) {
  // The enqueue is refused (121) because a person enqueued the task meanwhile:
  // into another queue (its execution.queue says so), or listed again in one.
  for (const bool by_execution_queue : {true, false}) {
    FakeTransport server;
    server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
    server.Script("queues.remove_task", {OkAnswer(R"({"removed": 1})")});
    server.Script("tasks.enqueue", {RefusedAnswer(400, 121)});
    server.Script("tasks.get_all", {OkAnswer(by_execution_queue
                                                 ? R"({"tasks": [{"id": "t1", "status": "queued", "execution": {"queue": "qres"}}]})"
                                                 : TaskAnswer("queued"))});
    server.Script("queues.get_all", {OkAnswer(R"({"queues": [{"id": "qres", "name": "research-4gpu", "entries": [{"task": "t1"}]}]})")});
    server.Script("queues.add_task", {OkAnswer(R"({"added": 1})")});
    ManualClock clock;
    sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
    const sync::MoveReport report = sync::MoveTask(api, Intent(), clock);
    EXPECT_EQ(report.result, sync::MoveResult::kSkipped) << report.detail;
    for (const std::string& call : server.endpoints()) EXPECT_NE(call, "queues.add_task") << by_execution_queue;
    if (!by_execution_queue) {
      EXPECT_NE(report.detail.find("listed in research-4gpu now"), std::string::npos) << report.detail;
    }
  }
}

TEST(SyncMovesTest, TheEnqueueKeepsThePolicyQueueAndSaysWhy) {
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.remove_task", {OkAnswer(R"({"removed": 1})")});
  server.Script("tasks.enqueue", {OkAnswer(R"({"updated": 1})")});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  ASSERT_EQ(sync::MoveTask(api, Intent(), clock).result, sync::MoveResult::kMoved);
  const auto requests = server.requests();
  EXPECT_EQ(requests[1].body, R"({"queue": "qdev", "task": "t1"})");
  EXPECT_EQ(requests[2].body,
            R"({"task": "t1", "queue": "qh100", "update_execution_queue": false, "status_reason": "rescfg: Dev/4xGPU -> H100"})");
}

TEST(SyncMovesTest, JournalKeepsIntentsAndHandovers) {
  TempDir dir;
  const std::string path = dir.file("journal");
  std::string error;
  {
    auto journal = sync::Journal::Open(path, &error);
    ASSERT_TRUE(journal) << error;
    std::vector<sync::MoveIntent> intents = {Intent("a"), Intent("b"), Intent("c")};
    ASSERT_TRUE(journal->Begin(&intents, &error)) << error;
    journal->Finish(intents[0].seq, "moved", true);
    journal->Finish(intents[1].seq, "skipped", false);
    ASSERT_TRUE(journal->Flush(&error)) << error;
  }
  auto journal = sync::Journal::Open(path, &error);
  ASSERT_TRUE(journal) << error;
  ASSERT_EQ(journal->unfinished().size(), 1u);
  EXPECT_EQ(journal->unfinished().begin()->second.task, "c");
  ASSERT_EQ(journal->handovers().size(), 1u);
  EXPECT_EQ(journal->AsHandovers().at("a").pool, "H100");
  EXPECT_EQ(journal->AsHandovers().at("a").policy_queue, "dev-4gpu");
  journal->Release("a");
  ASSERT_TRUE(journal->Compact(&error)) << error;
  auto again = sync::Journal::Open(path, &error);
  ASSERT_TRUE(again) << error;
  EXPECT_TRUE(again->handovers().empty());
  EXPECT_EQ(again->unfinished().size(), 1u);
  // Sequence numbers keep growing across a compaction.
  std::vector<sync::MoveIntent> more = {Intent("d")};
  ASSERT_TRUE(again->Begin(&more, &error));
  EXPECT_GT(more[0].seq, again->unfinished().begin()->first);
}

TEST(SyncMovesTest, ATornLastLineIsDroppedAndADamagedOneRefused) {
  TempDir dir;
  const std::string path = dir.file("journal");
  std::string error;
  {
    auto journal = sync::Journal::Open(path, &error);
    std::vector<sync::MoveIntent> intents = {Intent("a")};
    ASSERT_TRUE(journal->Begin(&intents, &error));
  }
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  {
    std::ofstream out(path, std::ios::app);
    out << "0123456789abcdef {\"op\": \"done\", \"seq\"";  // a crash while appending
  }
  auto torn = sync::Journal::Open(path, &error);
  ASSERT_TRUE(torn) << error;
  EXPECT_EQ(torn->unfinished().size(), 1u);
  std::string damaged = text;
  damaged[damaged.find("\"a\"") + 1] = 'b';
  {
    std::ofstream out(path, std::ios::trunc);
    out << damaged;
  }
  EXPECT_FALSE(sync::Journal::Open(path, &error));
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  {
    std::ofstream out(path, std::ios::trunc);
    out << "something else\n";
  }
  EXPECT_FALSE(sync::Journal::Open(path, &error));
}

struct JudgeCase {
  std::string status;
  std::string listed;  ///< queue id, "" none
  bool config_queue;
  sync::IntentState state;
};

TEST(SyncMovesTest, EveryStateACrashLeavesIsJudged) {
  const sync::MoveIntent m = Intent();
  const std::vector<JudgeCase> cases = {
      {"queued", "qh100", true, sync::IntentState::kMoved},        // crash after the enqueue
      {"queued", "qdev", true, sync::IntentState::kNotMoved},      // crash before the remove
      {"queued", "", false, sync::IntentState::kInNoQueue},        // crash between the two
      {"queued", "qk8s", false, sync::IntentState::kMoved},        // the glue took it since
      {"queued", "qother", true, sync::IntentState::kGone},        // a person moved it elsewhere
      {"in_progress", "", false, sync::IntentState::kStarted},     // an agent started it: it holds the pool
      {"in_progress", "qk8s", false, sync::IntentState::kStarted}, // a stale entry of the glue's queue
      {"in_progress", "qdev", true, sync::IntentState::kGone},     // never left its policy queue
      {"", "", false, sync::IntentState::kGone},                   // stopped, finished, deleted
      {"stopped", "qh100", true, sync::IntentState::kMoved},       // stopped since: its entry left in the pool queue
      {"created", "qk8s", false, sync::IntentState::kMoved},       // dequeued since: the glue's entry left
      {"stopped", "qdev", true, sync::IntentState::kGone},         // stopped before the remove
      {"stopped", "qother", true, sync::IntentState::kGone},       // a person's queue
  };
  for (const JudgeCase& c : cases) {
    clearml::Queue queue{c.listed, c.listed, 1};
    EXPECT_EQ(sync::JudgeIntent(m, c.status, c.listed.empty() ? nullptr : &queue, c.config_queue), c.state)
        << c.status << " in " << c.listed;
  }
}

sync::ServerSnapshot SnapshotWith(const std::string& queues, const std::string& status) {
  sync::ServerSnapshot snapshot;
  snapshot.queues_json = R"({"meta": {}, "data": {"queues": [)" + queues + "]}}";
  if (!status.empty()) snapshot.status["t1"] = status;
  return snapshot;
}

TEST(SyncMovesTest, RecoveryCompletesAMoveLeftInNoQueue) {
  TempDir dir;
  std::string error;
  auto journal = sync::Journal::Open(dir.file("journal"), &error);
  std::vector<sync::MoveIntent> intents = {Intent()};
  intents[0].changed = "2026-12-01T00:00:00.000000+00:00";  // its status_changed when decided
  ASSERT_TRUE(journal->Begin(&intents, &error));
  const auto snapshot = SnapshotWith(
      R"({"id": "qdev", "name": "dev-4gpu", "entries": []}, {"id": "qh100", "name": "h100-4gpu", "entries": []})",
      "queued");
  const auto queues = clearml::ReadQueuesText(snapshot.queues_json, "queues");
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  // Unchanged since the decision: never enqueued, so the move is completed.
  server.Script("tasks.get_all", {OkAnswer(R"({"tasks": [{"id": "t1", "status": "queued", "status_reason": "",
                                  "status_changed": "2026-12-01T00:00:00.000000+00:00"}]})")});
  server.Script("tasks.enqueue", {OkAnswer(R"({"updated": 1})")});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  const auto outcome = sync::RecoverIntents(api, *journal, snapshot, queues, [](std::string_view) { return true; }, clock);
  EXPECT_TRUE(outcome.ok);
  EXPECT_TRUE(outcome.acted);
  EXPECT_TRUE(journal->unfinished().empty());
  EXPECT_EQ(journal->handovers().count("t1"), 1u);
  EXPECT_EQ(server.endpoints().back(), "tasks.enqueue");
}

TEST(SyncMovesTest, RecoveryLeavesTheServerAloneWhenTheMoveIsSettled) {
  for (const std::string& entries : {std::string(R"("entries": [{"task": "t1"}])"), std::string(R"("entries": [])")}) {
    TempDir dir;
    std::string error;
    auto journal = sync::Journal::Open(dir.file("journal"), &error);
    std::vector<sync::MoveIntent> intents = {Intent()};
    ASSERT_TRUE(journal->Begin(&intents, &error));
    const auto snapshot = SnapshotWith(R"({"id": "qh100", "name": "h100-4gpu", )" + entries + "}",
                                       entries.find("t1") != std::string::npos ? "queued" : "");
    const auto queues = clearml::ReadQueuesText(snapshot.queues_json, "queues");
    FakeTransport server;
    ManualClock clock;
    sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
    const auto outcome = sync::RecoverIntents(api, *journal, snapshot, queues, [](std::string_view) { return true; }, clock);
    EXPECT_TRUE(outcome.ok);
    EXPECT_FALSE(outcome.acted);
    EXPECT_TRUE(server.requests().empty());
    EXPECT_TRUE(journal->unfinished().empty());
    EXPECT_EQ(journal->handovers().size(), entries.find("t1") != std::string::npos ? 1u : 0u);
  }
}

struct HandoverCase {
  const char* what;
  const char* listed_in;  ///< the queue that lists t1: qh100 (its pool queue), qdev (its policy queue),
                          ///< qres (another policy queue), qk8s (the k8s glue's), "" none
  const char* status;     ///< as read ("" neither queued nor running: not read)
  bool released;
};

TEST(SyncMovesTest, AHandoverHoldsWhileItsTaskMayStillRunInThePool) {
  const std::vector<HandoverCase> cases = {
      {"waiting in its pool queue", "qh100", "queued", false},
      {"popped by an agent, not yet started", "", "queued", false},
      {"running", "", "in_progress", false},
      {"back in its policy queue", "qdev", "queued", true},
      {"put in another policy queue by a person", "qres", "queued", true},
      {"parked by the k8s glue in its own queue", "qk8s", "queued", false},
      {"stopped, its stale entry still in the pool queue", "qh100", "stopped", false},
      {"dequeued, its stale entry still in the pool queue", "qh100", "created", false},
      {"deleted, its stale entry still in the pool queue", "qh100", "", false},
      {"stopped while parked by the k8s glue: its entry left there", "qk8s", "stopped", false},
      {"stopped, listed nowhere", "", "stopped", true},
      {"ended (not read), listed nowhere", "", "", true},
  };
  for (const HandoverCase& c : cases) {
    SCOPED_TRACE(c.what);
    TempDir dir;
    std::string error;
    auto journal = sync::Journal::Open(dir.file("journal"), &error);
    std::vector<sync::MoveIntent> intents = {Intent()};
    ASSERT_TRUE(journal->Begin(&intents, &error));
    journal->Finish(intents[0].seq, "moved", true);
    std::string queues;
    for (const auto& [id, name] : {std::pair{"qh100", "h100-4gpu"}, {"qdev", "dev-4gpu"}, {"qres", "research-4gpu"},
                                   {"qk8s", "k8s_scheduler"}}) {
      queues += std::string(queues.empty() ? "" : ", ") + R"({"id": ")" + id + R"(", "name": ")" + name +
                R"(", "entries": [)" + (std::string(c.listed_in) == id ? R"({"task": "t1"})" : "") + "]}";
    }
    const auto snapshot = SnapshotWith(queues, c.status);
    const auto is_policy_queue = [](std::string_view name) { return name == "dev-4gpu" || name == "research-4gpu"; };
    EXPECT_EQ(sync::ReleaseHandovers(*journal, snapshot, clearml::ReadQueuesText(snapshot.queues_json, "q"), is_policy_queue),
              c.released ? 1u : 0u);
    EXPECT_EQ(journal->handovers().empty(), c.released);
  }
}

TEST(SyncMovesTest, MovesIntoOneQueueKeepPlacementOrder) {
  TempDir dir;
  std::string error;
  auto journal = sync::Journal::Open(dir.file("journal"), &error);
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.remove_task", {OkAnswer(R"({"removed": 1})")});
  server.Script("tasks.enqueue", {OkAnswer(R"({"updated": 1})")});
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  std::vector<sync::MoveIntent> intents;
  for (int i = 0; i < 40; ++i) {
    sync::MoveIntent m = Intent("t" + std::to_string(i));
    m.to_id = i % 2 ? "qa" : "qb";
    intents.push_back(m);
  }
  std::vector<sync::MoveReport> reports;
  ASSERT_TRUE(sync::MakeMoves(api, *journal, intents, {4, nullptr}, &reports, &error)) << error;
  ASSERT_EQ(reports.size(), 40u);
  std::map<std::string, std::vector<std::string>> order;
  for (const auto& request : server.requests()) {
    if (!request.url.ends_with("tasks.enqueue")) continue;
    const std::string queue = request.body.find("\"qa\"") != std::string::npos ? "qa" : "qb";
    order[queue].push_back(request.body.substr(10, request.body.find('"', 10) - 10));
  }
  for (const auto& [queue, tasks] : order) {
    for (size_t i = 1; i < tasks.size(); ++i) {
      EXPECT_LT(std::stoi(tasks[i - 1].substr(1)), std::stoi(tasks[i].substr(1))) << queue;
    }
  }
  for (size_t i = 0; i < reports.size(); ++i) EXPECT_EQ(reports[i].intent.task, intents[i].task);
  EXPECT_TRUE(journal->unfinished().empty());
  EXPECT_EQ(journal->handovers().size(), 40u);
}

TEST(SyncMovesTest, OutputLinesHaveTheirKeysInOrder) {
  sync::MoveReport r{Intent(), "2026-12-03T10:00:00.000000Z", sync::MoveResult::kSkipped, "queues.remove_task: HTTP 400", false};
  EXPECT_EQ(sync::MoveJsonLine(r, 3),
            R"({"cycle": 3, "time": "2026-12-03T10:00:00.000000Z", "action": "move", "task": "t1", "name": "train", "policy": "Dev", )"
            R"("profile": "4xGPU", "pool": "H100", "from": "dev-4gpu", "to": "h100-4gpu", "result": "skipped", )"
            R"("detail": "queues.remove_task: HTTP 400"})"
            "\n");
  r.result = sync::MoveResult::kMoved;
  EXPECT_EQ(sync::MoveJsonLine(r, 3).find("detail"), std::string::npos);
}

TEST(SyncMovesTest, MetricsAreValidPrometheusText) {
  sync::CycleResult cycle;
  cycle.status = sync::CycleResult::Status::kCompleted;
  cycle.micros = 1'234'567;
  cycle.server_micros = 1'000'000;
  cycle.moves.push_back({Intent(), "", sync::MoveResult::kMoved, "", false});
  sync::MetricsTotals totals;
  sync::CountCycle(cycle, &totals);
  const std::string text = sync::RenderMetrics(nullptr, cycle, totals, {{"tasks.enqueue", 2}}, 1700000000);
  EXPECT_NE(text.find("rescfg_sync_moves_total{result=\"moved\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("rescfg_sync_cycle_duration_seconds 1.235\n"), std::string::npos) << text;
  EXPECT_NE(text.find("rescfg_sync_api_errors_total{endpoint=\"tasks.enqueue\"} 2\n"), std::string::npos);
  EXPECT_EQ(sync::LabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  // Every line is a comment or "name{labels} value".
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) continue;
    EXPECT_NE(line.find(' '), std::string::npos) << line;
    EXPECT_TRUE(std::isalpha(static_cast<unsigned char>(line[0]))) << line;
  }
}

}  // namespace
}  // namespace rescfg
