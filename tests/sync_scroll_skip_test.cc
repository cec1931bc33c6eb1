// A ClearML server scrolls tasks.get_all by position: a task that ends
// between two pages shifts the later ones back, and the task at the border
// is on neither page. The sync's reading must not lose such a task when it
// holds a pool (a hand-over of the journal, a worker's task, a pool queue's
// entry): it would count nothing for it, release its hand-over and give
// its GPUs away.

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "config/canonical.h"
#include "config/loader.h"
#include "state/state_store.h"
#include "support/fake_transport.h"
#include "support/provisioned_state.h"
#include "support/temp_dir.h"
#include "sync/api_client.h"
#include "sync/cycle.h"
#include "sync/journal.h"
#include "sync/server_snapshot.h"

namespace rescfg {
namespace {

using sync::HttpRequest;
using sync::HttpResponse;
using testing::FakeTransport;
using testing::OkAnswer;

struct FakeTask {
  std::string id, status, queue;
};

/// tasks.get_all as the server answers it: ordered by id, a scroll counted
/// by position over the tasks whose status matches, a look-up by id paged
/// by page and page_size. `after_first_page` runs once, after the first page
/// of the first scroll (a task ends there).
class PositionScrollServer {
 public:
  PositionScrollServer(std::vector<FakeTask> tasks, size_t max_page) : tasks_(std::move(tasks)), max_page_(max_page) {
    std::sort(tasks_.begin(), tasks_.end(), [](const FakeTask& a, const FakeTask& b) { return a.id < b.id; });
  }
  std::function<void(std::vector<FakeTask>&)> after_first_page;

  HttpResponse Answer(const HttpRequest& request) {
    std::lock_guard<std::mutex> hold(mutex_);
    const std::string& body = request.body;
    std::vector<const FakeTask*> matching;
    const bool by_id = body.find("\"id\": [") != std::string::npos;
    for (const FakeTask& t : tasks_) {
      if (by_id) {
        if (body.find("\"" + t.id + "\"") != std::string::npos) matching.push_back(&t);
      } else if (t.status == "queued" || t.status == "in_progress") {
        matching.push_back(&t);
      }
    }
    size_t from = 0;
    size_t size = max_page_;
    std::string scroll;
    if (by_id) {
      const size_t page = Number(body, "\"page\": ");
      size = std::min(max_page_, Number(body, "\"page_size\": "));
      from = page * size;
      lookups_.push_back(body);
    } else {
      if (body.find("\"scroll_id\": null") != std::string::npos) position_ = 0;
      from = position_;
      scroll = ", \"scroll_id\": \"S\"";
    }
    std::string tasks;
    size_t n = 0;
    for (size_t i = from; i < matching.size() && n < size; ++i, ++n) {
      const FakeTask& t = *matching[i];
      if (!tasks.empty()) tasks += ", ";
      tasks += R"({"id": ")" + t.id + R"(", "name": ")" + t.id + R"(", "status": ")" + t.status +
               R"(", "status_changed": "2026-01-01T00:00:00+00:00", "execution": {"queue": ")" + t.queue + "\"}}";
    }
    if (!by_id) {
      position_ += n;
      if (n > 0 && after_first_page) {
        auto change = std::move(after_first_page);
        after_first_page = nullptr;
        change(tasks_);
      }
    }
    return OkAnswer(R"({"tasks": [)" + tasks + "]" + scroll + "}");
  }
  std::vector<std::string> lookups() const {
    std::lock_guard<std::mutex> hold(mutex_);
    return lookups_;
  }

 private:
  static size_t Number(const std::string& body, const std::string& key) {
    const size_t at = body.find(key);
    return at == std::string::npos ? 0 : std::stoul(body.substr(at + key.size()));
  }
  mutable std::mutex mutex_;
  std::vector<FakeTask> tasks_;
  size_t max_page_;
  size_t position_ = 0;
  std::vector<std::string> lookups_;
};

void Complete(std::vector<FakeTask>& tasks, const std::string& id) {
  for (FakeTask& t : tasks) {
    if (t.id == id) t.status = "completed";
  }
}

TEST(SyncScrollSkipTest, TasksThatHoldAPoolAreLookedUpWhenTheScrollSkipsThem) {
  // Ordered by id: a, b, c, d, e, f, g. Pages of 2: [a, b], then b ends and
  // the second page starts at position 2 of [a, c, d, e, f, g]: d, e; c is
  // on no page. c runs for a worker; e is listed in a queue; g is the
  // journal's. x is the journal's too but ended: looked up, not added.
  PositionScrollServer tasks({{"a", "queued", "q1"}, {"b", "in_progress", "q1"}, {"c", "in_progress", "q1"},
                              {"d", "queued", "q1"}, {"e", "queued", "q1"}, {"f", "in_progress", "q1"},
                              {"g", "queued", "q1"}, {"x", "completed", "q1"}},
                             2);
  tasks.after_first_page = [](std::vector<FakeTask>& all) { Complete(all, "b"); };
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.get_all",
                {OkAnswer(R"({"queues": [{"id": "q1", "name": "dev", "entries": [{"task": "e"}, {"task": "c"}]}]})")});
  server.Script("workers.get_all", {OkAnswer(R"({"workers": [{"id": "w:0", "task": {"id": "c"}, "queue": "q1"}]})")});
  server.Handle("tasks.get_all", [&tasks](const HttpRequest& request) { return tasks.Answer(request); });
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  sync::ServerSnapshot snapshot;
  const auto outcome = sync::FetchServerSnapshot(api, sync::TaskFields({}), 2, &snapshot, {"g", "x"});
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(snapshot.status.count("c"), 1u) << snapshot.tasks_json;
  EXPECT_EQ(snapshot.status.at("c"), "in_progress");
  EXPECT_EQ(snapshot.status.count("x"), 0u) << "an ended task is not added";
  EXPECT_EQ(snapshot.tasks, 7u) << snapshot.tasks_json;  // a, b (read before it ended), c, d, e, f, g
  EXPECT_NE(snapshot.tasks_json.find("\"id\":\"c\""), std::string::npos) << snapshot.tasks_json;
  const std::vector<std::string> lookups = tasks.lookups();
  ASSERT_FALSE(lookups.empty());
  // Only what the scroll missed is looked up, without a status filter.
  EXPECT_NE(lookups[0].find(R"("id": ["c", "x"])"), std::string::npos) << lookups[0];
  EXPECT_EQ(lookups[0].find("\"status\": ["), std::string::npos) << lookups[0];
}

TEST(SyncScrollSkipTest, NothingIsLookedUpWhenTheScrollMissedNothing) {
  PositionScrollServer tasks({{"a", "queued", "q1"}, {"c", "in_progress", "q1"}}, 2);
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.get_all", {OkAnswer(R"({"queues": [{"id": "q1", "name": "dev", "entries": [{"task": "a"}]}]})")});
  server.Script("workers.get_all", {OkAnswer(R"({"workers": [{"id": "w:0", "task": {"id": "c"}}]})")});
  server.Handle("tasks.get_all", [&tasks](const HttpRequest& request) { return tasks.Answer(request); });
  ManualClock clock;
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  sync::ServerSnapshot snapshot;
  ASSERT_TRUE(sync::FetchServerSnapshot(api, sync::TaskFields({}), 2, &snapshot, {"c"}).ok);
  EXPECT_EQ(snapshot.tasks, 2u);
  EXPECT_TRUE(tasks.lookups().empty());
}

/// A state directory with a provisioned configuration: pool P of 4 GPUs,
/// profile 2xGPU (2 GPUs) linked to it through queue p-2gpu, team Dev's
/// queue dev-2gpu.
class TwoGpuPool {
 public:
  TwoGpuPool() {
    const std::string text = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n"
                             "pools:\n  - name: P\n    resources: 4\n    queue: p\n"
                             "profiles:\n  - name: 2xGPU\n    allotment: 2\n    links:\n"
                             "      - {pool: P, queue: p-2gpu}\n"
                             "policies:\n  - name: Dev\n    profiles:\n      - {profile: 2xGPU, queue: dev-2gpu}\n";
    LoadedConfig loaded = LoadConfigText(text, "config.yaml");
    EXPECT_TRUE(loaded.config.has_value());
    if (!loaded.config) return;
    ApplyDefaults(*loaded.config);
    testing::ProvisionState(state(), WriteCanonical(*loaded.config), "scroll test");
  }
  std::string state() const { return dir_.file("state"); }
  std::string journal() const { return state() + "/sync/journal"; }

 private:
  testing::TempDir dir_;
};

TEST(SyncScrollSkipTest, AHandedOverTaskTheScrollSkipsKeepsItsPoolAndItsHandover) {
  TwoGpuPool pool;
  // r was handed to pool P by an earlier cycle and runs; no worker reports
  // it (its reports expired). Pool P (4 GPUs) holds r (2): one of the two
  // waiting tasks fits, not both. Pages of 2: [a, b], then b ends and r, the
  // next one, is on no page.
  PositionScrollServer tasks({{"a", "queued", "dq"}, {"b", "in_progress", "dq"}, {"r", "in_progress", "dq"},
                              {"s", "queued", "dq"}},
                             2);
  tasks.after_first_page = [](std::vector<FakeTask>& all) { Complete(all, "b"); };
  FakeTransport server;
  server.Script("auth.login", {OkAnswer(R"({"token": "T"})")});
  server.Script("queues.get_all", {OkAnswer(R"({"queues": [{"id": "dq", "name": "dev-2gpu", "entries": [{"task": "a"}, {"task": "s"}]},)"
                                            R"( {"id": "pq", "name": "p-2gpu", "entries": []}, {"id": "p0", "name": "p", "entries": []}]})")});
  server.Script("workers.get_all", {OkAnswer(R"({"workers": []})")});
  server.Handle("tasks.get_all", [&tasks](const HttpRequest& request) { return tasks.Answer(request); });
  server.Script("queues.remove_task", {OkAnswer(R"({"removed": 1})")});
  server.Script("tasks.enqueue", {OkAnswer(R"({"queued": 1})")});
  std::string error;
  ASSERT_TRUE(sync::MakeSyncDirectory(sync::SyncPathsOf(pool.state()), &error)) << error;
  {
    auto journal = sync::Journal::Open(pool.journal(), &error);
    ASSERT_TRUE(journal) << error;
    std::vector<sync::MoveIntent> intents(1);
    sync::MoveIntent& m = intents[0];
    m.task = m.name = "r";
    m.policy = "Dev";
    m.profile = "2xGPU";
    m.pool = "P";
    m.from = "dev-2gpu";
    m.from_id = "dq";
    m.to = "p-2gpu";
    m.to_id = "pq";
    ASSERT_TRUE(journal->Begin(&intents, &error)) << error;
    journal->Finish(intents[0].seq, "moved", true);
    ASSERT_TRUE(journal->Flush(&error)) << error;
  }
  auto journal = sync::Journal::Open(pool.journal(), &error);
  ASSERT_TRUE(journal) << error;
  ASSERT_EQ(journal->handovers().count("r"), 1u);
  ManualClock clock(1'700'000'000'000'000);
  sync::ApiClient api(&server, "http://127.0.0.1:1", {"key", "secret"}, {}, clock);
  sync::CycleSettings settings;
  settings.state_dir = pool.state();
  settings.page_size = 2;
  settings.clock = &clock;
  const sync::CycleResult result = sync::RunCycle(api, *journal, settings);
  ASSERT_EQ(result.status, sync::CycleResult::Status::kCompleted) << result.error;
  EXPECT_EQ(result.Count(sync::MoveResult::kMoved), 1u) << "pool P holds r: one 2-GPU task fits, not two";
  EXPECT_EQ(journal->handovers().count("r"), 1u) << "r runs: its hand-over stays";
  auto reread = sync::Journal::Open(pool.journal(), &error);
  ASSERT_TRUE(reread) << error;
  EXPECT_EQ(reread->handovers().count("r"), 1u) << "and is on disk";
}

}  // namespace
}  // namespace rescfg
