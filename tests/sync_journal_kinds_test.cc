// The journal of `rescfg sync` carries each action's kind (move, stop,
// re-queue), and recovery judges each kind by its own rules (rescfg(1), "What
// a crash leaves behind on the stop and re-queue paths"); a journal written
// before there were kinds still reads, as moves.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/fake_transport.h"
#include "support/temp_dir.h"
#include "support/victims.h"
#include "sync/journal.h"
#include "sync/recovery.h"
#include "sync/requeue.h"
#include "util/digest.h"

namespace rescfg {
namespace {

using testing::RequeueIntent;
using testing::StopIntent;
using testing::TempDir;
using testing::VictimShows;

sync::MoveIntent MoveIntent(const std::string& task) { return testing::DevMoveIntent(task); }

std::string FileText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A journal line as the sync writes it: 16 hex digits of the record's sha256, then the record.
std::string JournalLine(const std::string& json) { return Sha256Hex(json).substr(0, 16) + " " + json + "\n"; }

std::optional<sync::Journal> Reopen(const std::string& path) {
  std::string error;
  auto journal = sync::Journal::Open(path, &error);
  EXPECT_TRUE(journal) << error;
  return journal;
}

TEST(SyncJournalKindsTest, EachKindIsWrittenAndReadBackWithItsFields) {
  TempDir dir;
  std::string error;
  auto journal = sync::Journal::Open(dir.file("journal"), &error);
  ASSERT_TRUE(journal) << error;
  std::vector<sync::MoveIntent> intents = {MoveIntent("m1"), StopIntent("v1"), RequeueIntent("v2", "C2")};
  ASSERT_TRUE(journal->Begin(&intents, &error)) << error;
  auto again = Reopen(dir.file("journal"));
  ASSERT_TRUE(again);
  ASSERT_EQ(again->unfinished().size(), 3u);
  const sync::MoveIntent& move = again->unfinished().at(intents[0].seq);
  const sync::MoveIntent& stop = again->unfinished().at(intents[1].seq);
  const sync::MoveIntent& requeue = again->unfinished().at(intents[2].seq);
  EXPECT_EQ(move.kind, ActionKind::kMove);
  EXPECT_EQ(stop.kind, ActionKind::kStop);
  EXPECT_EQ(requeue.kind, ActionKind::kRequeue);
  EXPECT_EQ(stop.preemptor, "Dev/d0");
  EXPECT_EQ(stop.reason, "rescfg: preempted for Dev/d0 in H100");
  EXPECT_EQ(stop.asked_us, testing::kStopAskedUs);
  EXPECT_EQ(requeue.changed, "C2");
  EXPECT_EQ(requeue.from_id, "qsand");
  // Moves keep the first format: their records name no kind.
  const std::string text = FileText(dir.file("journal"));
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("\"m1\"") != std::string::npos) {
      EXPECT_EQ(line.find("\"kind\""), std::string::npos) << line;
    }
    if (line.find("\"v1\"") != std::string::npos) {
      EXPECT_NE(line.find(R"("kind": "stop")"), std::string::npos) << line;
    }
    if (line.find("\"v2\"") != std::string::npos) {
      EXPECT_NE(line.find(R"("kind": "requeue")"), std::string::npos) << line;
    }
  }
  // An open stop or re-queue hands nothing to a pool: only the open move holds one.
  const clearml::Handovers handovers = again->AsHandovers();
  EXPECT_EQ(handovers.count("m1"), 1u);
  EXPECT_EQ(handovers.count("v1"), 0u);
  EXPECT_EQ(handovers.count("v2"), 0u);
}

TEST(SyncJournalKindsTest, AJournalWrittenBeforeKindsReadsAsMoves) {
  TempDir dir;
  const std::string fields = R"("name": "train", "policy": "Dev", "profile": "2xGPU", "pool": "H100", )"
                             R"("from": "dev-2gpu", "from_id": "qdev", "to": "h100-2gpu", "to_id": "qh100"})";
  std::ofstream(dir.file("journal"))
      << "rescfg-sync-journal 1\n"
      << JournalLine(R"({"op": "intent", "seq": 1, "cycle": 4, "task": "t1", )" + fields)
      << JournalLine(R"({"op": "intent", "seq": 2, "cycle": 4, "task": "t2", )" + fields)
      << JournalLine(R"({"op": "done", "seq": 2, "result": "moved"})");
  auto journal = Reopen(dir.file("journal"));
  ASSERT_TRUE(journal);
  ASSERT_EQ(journal->unfinished().size(), 1u);
  const sync::MoveIntent& open = journal->unfinished().at(1);
  EXPECT_EQ(open.kind, ActionKind::kMove);
  EXPECT_EQ(open.task, "t1");
  EXPECT_EQ(open.cycle, 4);
  EXPECT_TRUE(open.changed.empty());
  EXPECT_EQ(journal->handovers().count("t2"), 1u);
  EXPECT_TRUE(journal->stops().empty());
  EXPECT_EQ(journal->AsHandovers().count("t1"), 1u);  // an open move holds its pool
  // New intents follow the old ones' numbers.
  std::vector<sync::MoveIntent> next = {StopIntent("v1")};
  std::string error;
  ASSERT_TRUE(journal->Begin(&next, &error)) << error;
  EXPECT_EQ(next[0].seq, 3u);
}

TEST(SyncJournalKindsTest, OnlyAStopThatWasMadeIsRemembered) {
  TempDir dir;
  std::string error;
  auto journal = sync::Journal::Open(dir.file("journal"), &error);
  ASSERT_TRUE(journal) << error;
  std::vector<sync::MoveIntent> intents = {StopIntent("v1"), StopIntent("v2"), StopIntent("v3"), MoveIntent("m1")};
  ASSERT_TRUE(journal->Begin(&intents, &error)) << error;
  journal->Finish(intents[0].seq, "stopped", false);
  journal->Finish(intents[1].seq, "skipped", false);
  journal->Finish(intents[2].seq, "undone", false);
  journal->Finish(intents[3].seq, "moved", true);
  ASSERT_TRUE(journal->Flush(&error)) << error;
  auto expect = [](const sync::Journal& j, const char* when) {
    ASSERT_EQ(j.stops().size(), 1u) << when;
    EXPECT_EQ(j.stops().begin()->first, "v1") << when;
    EXPECT_EQ(j.stops().begin()->second.kind, ActionKind::kStop) << when;
    EXPECT_EQ(j.stops().begin()->second.asked_us, testing::kStopAskedUs) << when;
    EXPECT_EQ(j.handovers().count("m1"), 1u) << when;
    EXPECT_EQ(j.handovers().count("v1"), 0u) << when;  // a stop hands nothing over
    EXPECT_TRUE(j.unfinished().empty()) << when;
  };
  expect(*journal, "as written");
  expect(*Reopen(dir.file("journal")), "read again");
  ASSERT_TRUE(journal->Compact(&error)) << error;
  expect(*Reopen(dir.file("journal")), "compacted");
  journal->ReleaseStop("v1");
  ASSERT_TRUE(journal->Flush(&error)) << error;
  EXPECT_TRUE(Reopen(dir.file("journal"))->stops().empty());
}

TEST(SyncRecoveryKindsTest, MovesRecoveryLeavesStopsAndRequeuesToTheirOwnRules) {
  testing::VictimServer s({"stopped"});
  std::vector<sync::MoveIntent> intents = {StopIntent("v1"), RequeueIntent("v2")};
  std::string error;
  ASSERT_TRUE(s.journal->Begin(&intents, &error)) << error;
  // Neither task is queued: judged as moves, both would be closed as gone.
  sync::ServerSnapshot snapshot;
  snapshot.queues_json = R"([{"id": "qsand", "name": "sandbox-2gpu", "entries": []}])";
  const auto outcome = sync::RecoverIntents(s.api, *s.journal, snapshot,
                                            clearml::ReadQueuesText(snapshot.queues_json, "queues"),
                                            [](std::string_view) { return true; }, s.clock);
  EXPECT_TRUE(outcome.ok);
  EXPECT_FALSE(outcome.acted);
  EXPECT_TRUE(outcome.notes.empty());
  EXPECT_EQ(s.journal->unfinished().size(), 2u);
  EXPECT_TRUE(s.server.requests().empty());
}

struct OpenStopCase {
  const char* what;
  VictimShows shows;
  bool remembered;                 ///< the stop is recorded as made
  std::vector<std::string> calls;  ///< after auth.login
};

TEST(SyncRecoveryKindsTest, AnOpenStopIsJudgedByWhatTheVictimShows) {
  const std::vector<OpenStopCase> cases = {
      {"stopping", {"in_progress", "stopping"}, true, {"tasks.get_all", "tasks.get_all"}},
      {"still running", {"in_progress", ""}, false, {"tasks.get_all"}},
      {"completed on its own", {"completed", ""}, false, {"tasks.get_all"}},
      {"deleted", {"", ""}, false, {"tasks.get_all"}},
      // Stopped: recorded, then re-queued in the same settling.
      {"stopped", {"stopped", ""}, false, {"tasks.get_all", "tasks.get_all", "tasks.enqueue", "queues.move_task_to_front"}},
  };
  for (const OpenStopCase& c : cases) {
    testing::VictimServer s(c.shows);
    std::string error;
    std::vector<sync::MoveIntent> intents = {StopIntent("v1")};
    ASSERT_TRUE(s.journal->Begin(&intents, &error)) << error;
    const auto outcome = s.Settle(2);
    ASSERT_TRUE(s.journal->Flush(&error)) << error;
    EXPECT_TRUE(outcome.ok) << c.what;
    EXPECT_EQ(s.Calls(), c.calls) << c.what;  // never tasks.stop: a stop is not asked again from the journal
    auto again = Reopen(s.dir.file("journal"));
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->unfinished().empty()) << c.what;
    EXPECT_EQ(again->stops().count("v1"), c.remembered ? 1u : 0u) << c.what;
  }
}

struct OpenRequeueCase {
  const char* what;
  VictimShows shows;
  std::vector<std::string> calls;  ///< after auth.login
  bool requeued;
};

TEST(SyncRecoveryKindsTest, AnOpenRequeueIsJudgedByItsOwnRules) {
  const std::string ours = "rescfg: pushed back by policy manager: preempted for Dev/d0 in H100";
  const std::vector<OpenRequeueCase> cases = {
      {"never enqueued", {"stopped", ""}, {"tasks.get_all", "tasks.enqueue", "queues.move_task_to_front"}, true},
      {"stopped again since", {"stopped", "", "", "2026-12-02T00:00:00.000000+00:00"}, {"tasks.get_all"}, false},
      {"enqueued, not at the front", {"queued", "", ours, "2026-12-02T00:00:00.000000+00:00", "qsand"},
       {"tasks.get_all", "queues.move_task_to_front"}, true},
      {"enqueued by a person", {"queued", "", "a person", "2026-12-02T00:00:00.000000+00:00", "qsand"},
       {"tasks.get_all"}, false},
      {"queued elsewhere", {"queued", "", ours, "2026-12-02T00:00:00.000000+00:00", "qother"}, {"tasks.get_all"}, false},
      {"running again", {"in_progress", ""}, {"tasks.get_all"}, false},
      {"dequeued by a person", {"created", ""}, {"tasks.get_all"}, false},
  };
  for (const OpenRequeueCase& c : cases) {
    testing::VictimServer s(c.shows);
    testing::RememberStops(*s.journal, {"v1"});
    std::vector<sync::MoveIntent> intents = {RequeueIntent("v1")};
    std::string error;
    ASSERT_TRUE(s.journal->Begin(&intents, &error)) << error;
    const auto outcome = s.Settle(3);
    EXPECT_TRUE(outcome.ok) << c.what;
    EXPECT_EQ(s.Calls(), c.calls) << c.what;
    EXPECT_EQ(outcome.reports.size(), c.requeued ? 1u : 0u) << c.what;
    if (c.requeued && !outcome.reports.empty()) {
      EXPECT_EQ(outcome.reports[0].result, sync::MoveResult::kRequeued) << c.what;
      EXPECT_EQ(outcome.reports[0].intent.kind, ActionKind::kRequeue) << c.what;
    }
    // Settled either way: the intent closed, the victim forgotten (never re-queued twice).
    EXPECT_TRUE(s.journal->unfinished().empty()) << c.what;
    EXPECT_TRUE(s.journal->stops().empty()) << c.what;
  }
}

}  // namespace
}  // namespace rescfg
