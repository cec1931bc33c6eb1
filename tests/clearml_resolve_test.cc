/// ClearML tasks through resolution and the pass (rescfg(5), JOBS FILE, ClearML task snapshots): queued tasks
/// by their queue's name, running tasks placed by their queue or their
/// worker, queue order from `entries` then `status_changed`, names carried
/// to every output.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <random>

#include <string>
#include <vector>

#include "clearml/tasks.h"
#include "config/loader.h"
#include "decide/report.h"
#include "jobs/resolve.h"
#include "output/schedule_output.h"
#include "support/same_resolution.h"
#include "support/scenario_text.h"

namespace rescfg::clearml {
namespace {

// Pools A and B; p and q link both (link queues a-2gpu, a-4gpu, b-2gpu and
// B's pool queue b-pool), r also uses b-pool (same allotment as q), d is
// dynamic on its own link queue. Dev's policy queues: dev-p, dev-q, dev-d.
const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: A, resources: 8, queue: a-pool}
  - {name: B, resources: 8, queue: b-pool}
profiles:
  - {name: p, allotment: 2, links: [{pool: A, queue: a-2gpu}, {pool: B, queue: b-2gpu}]}
  - {name: q, allotment: 4, links: [{pool: A, queue: a-4gpu}, {pool: B}]}
  - {name: r, allotment: 4, links: [{pool: B}]}
  - {name: d, allotment: 1, dynamic: {parameter: hyperparams.Args.gpus}, links: [{pool: B, queue: b-dyn}]}
policies:
  - name: Dev
    profiles: [{profile: p, queue: dev-p}, {profile: q, queue: dev-q}, {profile: r, queue: dev-r}, {profile: d, queue: dev-d}]
)";

const char* kWorkers = R"([
  {"id": "w-a", "task": {"id": "run-a"}, "queue": {"id": "qa2", "name": "a-2gpu"}, "queues": []},
  {"id": "w-served", "task": {"id": "run-served"}, "queue": {"name": "dev-p"}, "queues": ["qa2", {"name": "a-4gpu"}]},
  {"id": "w-two", "task": {"id": "run-two"}, "queue": null, "queues": [{"name": "a-2gpu"}, {"name": "b-2gpu"}, {"name": "elsewhere"}]},
  {"id": "w-none", "task": {"id": "run-none"}, "queue": {"name": "dev-p"}, "queues": [{"name": "dev-q"}]},
  {"id": "w-dyn", "task": {"id": "run-dyn"}, "queue": {"name": "b-dyn"}}
])";

const char* kQueues = R"([
  {"id": "qa2", "name": "a-2gpu"},
  {"id": "qdq", "name": "dev-q", "entries": [{"task": "listed-2"}, {"task": "listed-1"}]}
])";

ScheduleReport Schedule(const std::string& tasks, const char* config_text = kConfig) {
  static QueueList* queues = new QueueList(ReadQueuesText(kQueues, "queues.json"));
  static WorkerList* workers = new WorkerList(ReadWorkersText(kWorkers, "workers.json"));
  EXPECT_FALSE(queues->unusable);
  EXPECT_FALSE(workers->unusable);
  LoadedConfig loaded = LoadConfigText(config_text, "config.yaml");
  EXPECT_TRUE(loaded.config);
  if (!loaded.config) return {};
  Config config = *loaded.config;
  ApplyDefaults(config);
  LoadedJobs jobs = LoadClearmlTasksText(tasks, "tasks.jsonl", {queues, workers}, DynamicParameterPaths(config));
  EXPECT_FALSE(jobs.unusable);
  return BuildSchedule(config, std::move(jobs));
}

std::string Running(const std::string& id, const std::string& queue, const std::string& extra = "") {
  return R"({"id": ")" + id + R"(", "status": "in_progress", "execution": {"queue": {"name": ")" + queue + "\"}}" +
         extra + "}\n";
}

struct RunningCase {
  const char* what;
  std::string task;
  const char* summary;   ///< testing::Summarise of the entry
  const char* resources; ///< what it holds ("" when rejected)
  const char* policy;    ///< "" for none
  const char* profile;   ///< "" for none
  const char* message;   ///< a part of the message ("" for none)
};

TEST(ClearmlRunning, PlacedByQueueOrWorker) {
  const RunningCase cases[] = {
      {"a link queue: its pool and profile", Running("t", "a-2gpu"), "t:running:A", "2", "", "p",
       "no policy; counted in the pool only"},
      {"a pool queue one profile's link uses", Running("t", "a-4gpu"), "t:running:A", "4", "", "q",
       "no policy; counted in the pool only"},
      {"a pool queue several profiles of one need use", Running("t", "b-pool"), "t:running:B", "4", "", "",
       "queue 'b-pool' serves profiles 'q' (4), 'r' (4); counted as 4"},
      {"a pool queue no link uses", Running("t", "a-pool"), "t:rejected:invalid-job", "", "", "",
       "queue 'a-pool' of pool 'A' is used by no profile's link"},
      {"a policy queue, the worker's queue tells", Running("run-a", "dev-p"), "run-a:running:A", "2", "Dev", "p", ""},
      {"a policy queue, the one pool of the queues the worker serves", Running("run-served", "dev-p"),
       "run-served:running:A", "2", "Dev", "p", ""},
      // A pool that cannot be told: it counts against its policy, in no pool.
      {"a worker that serves queues of two pools", Running("run-two", "dev-p"), "run-two:running:", "2", "Dev", "p",
       "its worker 'w-two' does not say which queue it took it from and serves queues of pools 'A' and 'B'"},
      {"a worker that serves no pool queue", Running("run-none", "dev-p"), "run-none:running:", "2", "Dev", "p",
       "its worker 'w-none' took it from 'dev-p', no pool or link queue, and serves no pool or link queue"},
      {"no worker runs it", Running("t", "dev-p"), "t:running:", "2", "Dev", "p",
       "cannot tell which pool runs it: its queue 'dev-p' is no pool or link queue, and no worker in the workers "
       "snapshot (--clearml-workers) runs it; the worker whose task.id is this task would tell; counted against "
       "policy 'Dev' (its limit and reservation), in no pool"},
      {"a queue of nobody", Running("t", "zzz"), "t:rejected:invalid-job", "", "", "",
       "cannot tell what it holds: its queue 'zzz' is neither a policy queue nor a pool or link queue"},
      {"the need of a dynamic profile, from its hyperparams", Running("run-dyn", "dev-d",
       R"(, "hyperparams": {"Args": {"gpus": {"section": "Args", "name": "gpus", "value": "3"}}})"),
       "run-dyn:running:B", "3", "Dev", "d", ""},
      {"its worker's pool is not linked: it still holds it", Running("run-a", "dev-r"), "run-a:running:A", "4", "Dev",
       "r", "pool 'A' is not linked to profile 'r'"},
  };
  for (const RunningCase& c : cases) {
    SCOPED_TRACE(c.what);
    ScheduleReport r = Schedule(c.task);
    ASSERT_EQ(r.jobs.size(), 1u);
    const JobOutcome& j = r.jobs[0];
    EXPECT_EQ(testing::Summarise(r)[0], c.summary);
    EXPECT_EQ(j.resources ? j.resources->ToString() : "", c.resources);
    if (j.status == JobStatus::kRunning) {
      EXPECT_EQ(j.policy.value_or(""), c.policy);
      EXPECT_EQ(j.profile.value_or(""), c.profile);
    }
    if (*c.message) {
      ASSERT_TRUE(HasMessage(j));
      EXPECT_NE(MessageOf(j).find(c.message), std::string::npos) << MessageOf(j);
    } else {
      EXPECT_FALSE(HasMessage(j)) << MessageOf(j);
    }
  }
}

TEST(ClearmlRunning, DifferentNeedsInOneQueueCannotTell) {
  // b-pool serves q (4) and r (2): the validation warns (mixed-queue), and a
  // task running from it cannot tell what it holds.
  std::string config = kConfig;
  config.replace(config.find("{name: r, allotment: 4"), 22, "{name: r, allotment: 2");
  ScheduleReport r = Schedule(Running("t", "b-pool"), config.c_str());
  EXPECT_EQ(testing::Summarise(r), std::vector<std::string>{"t:rejected:invalid-job"});
  EXPECT_EQ(MessageOf(r.jobs[0]),
            "line 1: cannot tell what it holds: queue 'b-pool' serves profiles of different needs: 'q' (4), 'r' (2)");
}

TEST(ClearmlRunning, HoldsItsGpusAgainstQueuedTasks) {
  ScheduleReport r = Schedule(Running("run-a", "dev-p") + Running("t2", "a-4gpu") +
                              R"({"id": "w", "status": "queued", "execution": {"queue": {"name": "dev-q"}}})" "\n");
  // A holds 2 + 4 of its 8: the queued task needs 4, so it goes to B.
  EXPECT_EQ(testing::Summarise(r), (std::vector<std::string>{"run-a:running:A", "t2:running:A", "w:assigned:B"}));
  EXPECT_EQ(*r.jobs[2].queue, "b-pool");
}

TEST(ClearmlQueued, QueueOrderFromEntriesThenStatusChanged) {
  std::string config = kConfig;
  config.replace(config.find("kind: ResourceConfiguration"), 27, "kind: ResourceConfiguration\nenabled: false");
  auto task = [](const std::string& id, const std::string& changed) {
    return R"({"id": ")" + id + R"(", "status": "queued", "execution": {"queue": "qdq"})" +
           (changed.empty() ? "" : R"(, "status_changed": ")" + changed + "\"") + "}\n";
  };
  ScheduleReport r = Schedule(task("late", "2026-11-29T10:00:00.000000+00:00") + task("none", "") +
                                  task("listed-1", "2026-11-29T08:00:00+00:00") + task("early", "2026-11-29T09:00:00Z") +
                                  task("listed-2", "") + task("early-too", "2026-11-29T10:00:00+01:00"),
                              config.c_str());
  std::vector<std::string> order;
  for (size_t i : r.pending) order.push_back(std::string(*r.jobs[i].id));
  // entries first (listed-2, listed-1), then by status_changed (09:00Z and
  // 10:00+01:00 are one instant: file position), then the one without.
  EXPECT_EQ(order, (std::vector<std::string>{"listed-2", "listed-1", "early", "early-too", "late", "none"}));
}

TEST(ClearmlQueued, RejectionsSayWhatTheySaw) {
  ScheduleReport r = Schedule(
      R"({"id": "a", "status": "queued", "execution": {"queue": "5a6b7c8d"}})" "\n"
      R"({"id": "b", "status": "queued", "execution": {"queue": {"id": "5a6b", "name": "nobody"}}})" "\n"
      R"({"id": "c", "status": "queued", "status_changed": "yesterday", "execution": {"queue": "qdq"}})" "\n"
      R"({"id": "d", "status": "queued", "status_changed": 5, "execution": {"queue": "qdq"}})" "\n"
      R"({"id": "a", "status": "queued", "execution": {"queue": "qdq"}})" "\n"
      R"({"status": "queued", "execution": {"queue": "qdq"}})" "\n"
      R"({"id": "e", "name": "eval", "status": "completed", "execution": {"queue": "qdq"}})" "\n");
  EXPECT_EQ(testing::Summarise(r),
            (std::vector<std::string>{"a:rejected:unknown-queue", "b:rejected:unknown-queue", "c:rejected:invalid-job",
                                      "d:rejected:invalid-job", "a:rejected:duplicate-id", "#6:rejected:invalid-job",
                                      "e:rejected:invalid-job"}));
  EXPECT_EQ(MessageOf(r.jobs[0]),
            "line 1: no policy has a queue named '5a6b7c8d' (an execution.queue ID that no queue of --clearml-queues "
            "lists is taken as a name)");
  EXPECT_EQ(MessageOf(r.jobs[1]), "line 2: no policy has a queue named 'nobody'");
  EXPECT_EQ(MessageOf(r.jobs[2]),
            "line 3: status_changed 'yesterday' is not an RFC 3339 time such as 2026-11-29T10:00:00Z");
  EXPECT_EQ(MessageOf(r.jobs[3]), "line 4: field 'status_changed' must be a string");
  EXPECT_EQ(MessageOf(r.jobs[5]), "line 6: required field 'id' is missing");
  EXPECT_EQ(MessageOf(r.jobs[6]), "line 7: task status 'completed' is neither queued nor in_progress");
  EXPECT_EQ(r.jobs[6].name, "eval");
}

TEST(ClearmlQueued, DocumentsNameTheColumn) {
  const std::string first = R"({"id": "a", "status": "queued", "execution": {"queue": "qdq"}})";
  ScheduleReport r = Schedule("[" + first + R"(, {"id": "b", "status": "stopped"}])");
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(MessageOf(r.jobs[1]), "line 1, column " + std::to_string(first.size() + 4) +
                                    ": task status 'stopped' is neither queued nor in_progress");
}

TEST(ClearmlOutputs, TheNameTravels) {
  ScheduleReport r = Schedule(
      R"({"id": "a", "name": "train-resnet50", "status": "queued", "execution": {"queue": "qdq"}})" "\n"
      R"({"id": "b", "name": "eval \"x\"", "status": "queued", "execution": {"queue": "qdq"}})" "\n"
      R"({"id": "c", "name": "big", "status": "queued", "execution": {"queue": "qdq"}})" "\n"
      R"({"id": "d", "name": "bad", "status": "created", "execution": {"queue": "qdq"}})" "\n"
      R"({"id": "e", "status": "queued", "execution": {"queue": "qdq"}})" "\n");
  const std::string jsonl = RenderSchedule(r, ScheduleFormat::kJsonLines);
  EXPECT_NE(jsonl.find(R"("resourcesNumber": 4, "name": "train-resnet50"})"), std::string::npos) << jsonl;
  EXPECT_NE(jsonl.find(R"("name": "eval \"x\""})"), std::string::npos) << jsonl;
  EXPECT_NE(jsonl.find(R"(is neither queued nor in_progress", "resourcesNumber": null, "name": "bad"})"), std::string::npos) << jsonl;
  // Jobs without a name carry none: the line ends as before.
  EXPECT_NE(jsonl.find(R"({"job": "e", "status": "assigned", "policy": "Dev", "profile": "q", "pool": "B", "queue": "b-pool", "resources": 4, "reason": null, "message": null, "needSource": "allotment", "resourcesNumber": 4})"
                       "\n"),
            std::string::npos)
      << jsonl;
  const std::string yaml = RenderSchedule(r, ScheduleFormat::kYaml);
  EXPECT_NE(yaml.find(R"(needSource: "allotment", name: "train-resnet50"})"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find(R"(name: "big"})"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find(R"(name: "bad"})"), std::string::npos) << yaml;
}

}  // namespace
}  // namespace rescfg::clearml

namespace rescfg::clearml {
namespace {

/// Queue order (rescfg(5), JOBS FILE) for any mix of listed, timed and untimed
/// entries, small (a comparison sort) or large (a radix sort): listed ones
/// first by their place, then by time, then the rest, ties by position.
RC_GTEST_PROP(ClearmlQueueOrder, ListedThenTimedThenTheRest, ()) {
  const bool large = *rc::gen::arbitrary<bool>();
  const int n = *rc::gen::inRange(1, large ? 6000 : 300);
  // The entries from one seed: drawing each through rapidcheck is too slow.
  std::mt19937 rng(*rc::gen::arbitrary<uint32_t>());
  auto below = [&](int k) { return static_cast<int>(rng() % static_cast<uint32_t>(k)); };
  static const Config config = testing::ConfigFromYaml(kConfig);
  std::vector<JobEntry> entries(static_cast<size_t>(n));
  struct Key {
    uint32_t rank;
    int64_t seconds;  ///< INT64_MAX: untimed
    int nanos, position;
  };
  std::vector<Key> keys;
  for (int i = 0; i < n; ++i) {
    JobEntry& e = entries[static_cast<size_t>(i)];
    e.entry = static_cast<size_t>(i) + 1;
    e.id = testing::Keep("j" + std::to_string(i));
    e.queue = "dev-p";
    e.clearml_task = below(2) == 0;
    const int kind = below(3);  // 0 listed, 1 timed, 2 untimed
    Key key{0, INT64_MAX, 0, i};
    if (kind == 0) {
      e.queue_rank = static_cast<uint32_t>(1 + below(50));
      key.rank = e.queue_rank;
    }
    if (kind == 1 || (kind == 0 && below(2) == 0)) {
      // Times over two days; listed entries may carry one too (it does not count).
      const int hour = below(48), second = below(3), nanos = below(3) * 250;
      char text[64];
      std::snprintf(text, sizeof text, "2026-11-%02dT%02d:00:%02d.%09dZ", 28 + hour / 24, hour % 24, second, nanos);
      e.enqueued = testing::Keep(text);
      if (kind != 0) {
        key.seconds = int64_t(hour) * 3600 + second;
        key.nanos = nanos;
      }
    }
    keys.push_back(key);
  }
  ResolvedJobs r = ResolveJobs(config, entries);
  RC_ASSERT(r.input.queued.size() == size_t(n));
  std::vector<int> want(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) want[static_cast<size_t>(i)] = i;
  std::stable_sort(want.begin(), want.end(), [&](int a, int b) {
    const Key &x = keys[static_cast<size_t>(a)], &y = keys[static_cast<size_t>(b)];
    const bool lx = x.rank > 0, ly = y.rank > 0;
    if (lx != ly) return lx;
    if (lx) return x.rank < y.rank;
    if (x.seconds != y.seconds) return x.seconds < y.seconds;
    return x.nanos < y.nanos;
  });
  for (size_t rank = 0; rank < want.size(); ++rank) {
    RC_ASSERT(r.input.queued[static_cast<size_t>(want[rank])].queue_order == rank);
  }
}

/// One task of a large snapshot; `i` picks the kind: queued in policy
/// queues (two listed in their queue's `entries`), dynamic, running by a
/// link or pool queue or by the worker that runs it, and rejected ones.
/// `repeat` makes every 1000th task reuse an earlier id.
std::string LargeTask(int i, bool repeat) {
  const std::string id = repeat && i % 1000 == 999 ? "t" + std::to_string(i / 2) : "t" + std::to_string(i);
  const std::string time = R"(, "status_changed": "2026-11-29T10:00:0)" + std::to_string(i % 5) + R"(Z")";
  auto task = [&](const std::string& task_id, const std::string& status, const std::string& queue,
                  const std::string& extra) {
    return R"({"id": ")" + task_id + R"(", "name": "n)" + std::to_string(i) + R"(", "status": ")" + status +
           R"(", "execution": {"queue": {"name": ")" + queue + R"("}}, "comment": ")" + std::string(40, '.') + '"' + extra + "}";
  };
  switch (i % 11) {
    case 0: return task(id, "queued", "dev-p", time);
    case 1: return task(id, "queued", "dev-q", "");
    case 2: return task(id, "queued", "dev-d", R"(, "hyperparams": {"Args": {"gpus": {"value": ")" + std::to_string(i % 4) + R"("}}})" + time);
    case 3: return task(id, "in_progress", "a-2gpu", "");
    case 4: return task(id, "in_progress", "b-pool", "");
    case 5: return task(id, "queued", "nobody", time);
    case 6: return task(id, "stopped", "dev-p", "");
    case 7: return i == 7 ? task("listed-1", "queued", "dev-q", "") : i == 18 ? task("listed-2", "queued", "dev-q", "")
                          : i == 29 ? task("run-a", "in_progress", "dev-p", "") : task(id, "queued", "dev-p", "");
    case 8: return task(id, "in_progress", "dev-p", "");  // no worker runs it
    case 9: return R"({"id": ")" + id + R"(", "status": "queued"})";
    default: return task(id, "queued", "dev-r", R"(, "status_changed": 7)");
  }
}

/// Tasks resolved as they are parsed give what resolving the entries gives,
/// in each form (a response, an array, JSON Lines), read in two halves
/// (8 MB or more) or whole; with a repeated id, read a second time.
TEST(ClearmlResolve, WhileParsingAsAfterParsing) {
  const QueueList queues = ReadQueuesText(kQueues, "queues.json");
  const WorkerList workers = ReadWorkersText(kWorkers, "workers.json");
  const Companions companions{&queues, &workers};
  LoadedConfig loaded = LoadConfigText(kConfig, "config.yaml");
  ASSERT_TRUE(loaded.config);
  Config config = *loaded.config;
  ApplyDefaults(config);
  const std::vector<std::string> paths = DynamicParameterPaths(config);
  for (const int tasks : {70000, 2000}) {
    for (const bool repeat : {false, true}) {
      std::string lines, array = "[";
      for (int i = 0; i < tasks; ++i) {
        lines += LargeTask(i, repeat) + "\n";
        array += (i ? ",\n" : "") + LargeTask(i, repeat);
      }
      array += "]";
      ASSERT_TRUE(tasks < 10000 || lines.size() > (size_t(8) << 20));
      for (const std::string& text : {lines, array, R"({"meta": {}, "data": {"tasks": )" + array + "}}"}) {
        SCOPED_TRACE(std::to_string(tasks) + (repeat ? " tasks, an id repeats, " : " tasks, ") + text.substr(0, 9));
        const LoadedJobs read = LoadClearmlTasksText(text, "tasks.json", companions, paths);
        const LoadedJobs resolved =
            LoadClearmlTasksText(text, "tasks.json", [&] { return companions; }, paths, &config);
        ASSERT_FALSE(read.unusable);
        ASSERT_FALSE(resolved.unusable);
        EXPECT_EQ(read.findings.size(), resolved.findings.size());
        const ResolvedJobs after = ResolveJobs(config, read.entries);
        size_t status[4] = {0, 0, 0, 0};
        for (const JobOutcome& o : after.outcomes) ++status[static_cast<int>(o.status)];
        EXPECT_GT(status[static_cast<int>(JobStatus::kPending)], size_t(tasks) / 5);
        EXPECT_GT(status[static_cast<int>(JobStatus::kRunning)], size_t(tasks) / 10);
        EXPECT_GT(status[static_cast<int>(JobStatus::kRejected)], size_t(tasks) / 5);
        size_t duplicates = 0;
        for (const JobOutcome& o : after.outcomes) duplicates += o.reason == "duplicate-id";
        EXPECT_TRUE(repeat ? tasks < 10000 || duplicates > 10 : duplicates == 0) << duplicates;
        ASSERT_TRUE(resolved.resolved);  // with a repeated id, in a second reading
        EXPECT_TRUE(resolved.entries.empty());
        testing::ExpectSameResolution(after, *resolved.resolved);
      }
    }
  }
}

}  // namespace
}  // namespace rescfg::clearml
