/// ClearML snapshots of a live system: tasks handed over to a pool and
/// waiting for an agent, tasks in flight in the k8s glue's queue, running
/// tasks whose pool cannot be told (they count against their policy, in no
/// pool), the sync journal's hand-overs, snapshots that match nothing, and
/// the documents every JSON reader reads alike.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clearml/snapshot.h"
#include "clearml/tasks.h"
#include "config/loader.h"
#include "decide/report.h"
#include "output/schedule_summary.h"
#include "support/scenario_text.h"

namespace rescfg::clearml {
namespace {

// Pools A and B. p (2) links A by a-2gpu and B by b-2gpu; q (4) links A by
// a-4gpu. Dev (limit 8) queues dev-p and dev-q; Res (reserved 4) res-p.
const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: A, resources: 8, queue: a-pool}
  - {name: B, resources: 8, queue: b-pool}
profiles:
  - {name: p, allotment: 2, links: [{pool: A, queue: a-2gpu}, {pool: B, queue: b-2gpu}]}
  - {name: q, allotment: 4, links: [{pool: A, queue: a-4gpu}]}
policies:
  - name: Dev
    limit: 8
    profiles: [{profile: p, queue: dev-p}, {profile: q, queue: dev-q}]
  - name: Res
    reserved: 4
    profiles: [{profile: p, queue: res-p}]
)";

const char* kQueues = R"([
  {"id": "qdp", "name": "dev-p", "entries": [{"task": "listed"}]},
  {"id": "qdq", "name": "dev-q"},
  {"id": "qa2", "name": "a-2gpu", "entries": [{"task": "handed"}, {"task": "gone-from-tasks"}, {"task": "handed-orphan"},
                                              {"task": "handed-journal"}]},
  {"id": "qk8s", "name": "k8s_scheduler", "entries": [{"task": "flight"}, {"task": "flight-journal"},
                                                       {"task": "flight-orphan"}, {"task": "flight-pool-queue"}]}
])";

const char* kWorkers = R"([
  {"id": "w-a", "task": {"id": "run-a"}, "queue": {"name": "a-2gpu"}},
  {"id": "w-x", "task": {"id": "run-split"}, "queue": {"name": "a-2gpu"}},
  {"id": "w-y", "task": {"id": "run-split"}, "queue": {"name": "b-2gpu"}},
  {"id": "w-1", "task": {"id": "run-agree"}, "queue": {"name": "b-2gpu"}},
  {"id": "w-2", "task": {"id": "run-agree"}, "queue": {"name": "b-pool"}}
])";

Config LoadConfig(const char* text = kConfig) {
  Config config = testing::ConfigFromYaml(text);
  return config;
}

struct Read {
  QueueList queues = ReadQueuesText(kQueues, "queues.json");
  WorkerList workers;
  Handovers handovers;
  explicit Read(const char* workers_text = kWorkers) : workers(ReadWorkersText(workers_text, "workers.json")) {
    handovers["handed-journal"] = {"B", "dev-p"};
    handovers["flight-journal"] = {"B", "dev-p"};
    handovers["run-journal"] = {"B", "dev-q"};
  }
  ScheduleReport Schedule(const std::string& tasks, const Config& config) const {
    EXPECT_FALSE(queues.unusable);
    EXPECT_FALSE(workers.unusable);
    LoadedJobs jobs = LoadClearmlTasksText(tasks, "tasks.jsonl", Companions{&queues, &workers, &handovers},
                                           DynamicParameterPaths(config));
    EXPECT_FALSE(jobs.unusable);
    return BuildSchedule(config, std::move(jobs));
  }
};

std::string Task(const std::string& id, const std::string& status, const std::string& queue) {
  return R"({"id": ")" + id + R"(", "status": ")" + status + R"(", "execution": {"queue": )" + queue + "}}\n";
}
std::string Queued(const std::string& id, const std::string& queue = "\"qdp\"") { return Task(id, "queued", queue); }
std::string InProgress(const std::string& id, const std::string& queue = "\"qdp\"") {
  return Task(id, "in_progress", queue);
}

struct Case {
  const char* what;
  std::string task;
  const char* summary;   ///< testing::Summarise: id:status:pool-or-reason
  const char* resources; ///< "" when rejected
  const char* policy;    ///< "" for none
  const char* message;   ///< a part of the message ("" for none)
  bool warning;          ///< a warning on stderr too
};

TEST(ClearmlSnapshot, EachKindOfTask) {
  const Case cases[] = {
      {"queued in its policy queue: decided", Queued("listed"), "listed:assigned:A", "2", "Dev", "", false},
      {"handed over: runs in the pool of the queue listing it", Queued("handed"), "handed:running:A", "2", "Dev",
       "handed over to pool 'A': waits in its queue 'a-2gpu' for an agent", false},
      {"handed over, its execution.queue is no policy queue: the link queue tells the profile",
       Queued("handed-orphan", "\"zzz\""), "handed-orphan:running:A", "2", "",
       "handed over to pool 'A': waits in its queue 'a-2gpu' for an agent; no policy; counted in the pool only",
       false},
      {"handed over, the journal tells the policy", Queued("handed-journal", "\"zzz\""), "handed-journal:running:A",
       "2", "Dev", "counted against policy 'Dev': the sync journal says it was read in its queue 'dev-p'", false},
      {"in flight without a journal: its policy only", Queued("flight"), "flight:running:", "2", "Dev",
       "in flight: waits in queue 'k8s_scheduler' while it starts, and no sync journal says which pool it was handed "
       "to; counted against policy 'Dev' (its limit and reservation), in no pool",
       true},
      {"in flight, the journal tells the pool", Queued("flight-journal"), "flight-journal:running:B", "2", "Dev",
       "the sync journal says it was handed to pool 'B'", false},
      {"in flight from a link queue: its pool", Queued("flight-pool-queue", "\"qa2\""), "flight-pool-queue:running:A",
       "2", "", "in flight: waits in queue 'k8s_scheduler' while it starts, from queue 'a-2gpu'", false},
      {"in flight, nothing tells what it holds", Queued("flight-orphan", "\"zzz\""),
       "flight-orphan:rejected:invalid-job", "", "",
       "cannot tell what it holds: it waits in queue 'k8s_scheduler', and its queue 'zzz' is neither a policy queue",
       false},
      {"running, its worker tells", InProgress("run-a"), "run-a:running:A", "2", "Dev", "", false},
      {"running, no worker: its policy only", InProgress("nobody-runs-it"), "nobody-runs-it:running:", "2", "Dev",
       "no worker in the workers snapshot (--clearml-workers) runs it", true},
      {"running, no worker, the journal tells the pool", InProgress("run-journal", "\"qdq\""),
       "run-journal:running:B", "4", "Dev", "the sync journal says it was handed to pool 'B'", false},
      {"two workers in different pools: cannot tell", InProgress("run-split"), "run-split:running:", "2", "Dev",
       "workers 'w-x' and 'w-y' all claim it, in pools 'A' and 'B'", true},
      {"two workers in one pool: that pool", InProgress("run-agree"), "run-agree:running:B", "2", "Dev", "", false},
      {"an {id, name} that the queues file contradicts", Queued("x", R"({"id": "qdp", "name": "dev-q"})"),
       "x:rejected:invalid-job", "", "",
       "execution.queue {id: qdp, name: dev-q} disagrees with the queues file (queues.json): queue qdp is named 'dev-p'",
       false},
      {"a name that the queues file gives another ID", Queued("x", R"({"id": "q-other", "name": "dev-q"})"),
       "x:rejected:invalid-job", "", "", "queue 'dev-q' has ID qdq", false},
      {"an {id, name} that agrees", Queued("x", R"({"id": "qdq", "name": "dev-q"})"), "x:assigned:A", "4", "Dev", "",
       false},
  };
  const Read read;
  const Config config = LoadConfig();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    ScheduleReport r = read.Schedule(c.task, config);
    ASSERT_EQ(r.jobs.size(), 1u);
    const JobOutcome& j = r.jobs[0];
    EXPECT_EQ(testing::Summarise(r)[0], c.summary);
    EXPECT_EQ(j.resources ? j.resources->ToString() : "", c.resources);
    if (j.status != JobStatus::kRejected) {
      EXPECT_EQ(j.policy.value_or(""), c.policy);
    }
    if (*c.message) {
      ASSERT_TRUE(HasMessage(j));
      EXPECT_NE(MessageOf(j).find(c.message), std::string::npos) << MessageOf(j);
    } else {
      EXPECT_FALSE(HasMessage(j)) << MessageOf(j);
    }
    EXPECT_EQ(j.warning, c.warning);
    EXPECT_EQ(RunningWarnings(r, 10).size(), c.warning ? 1u : 0u);
  }
}

TEST(ClearmlSnapshot, WhatRunsWithoutAPoolCountsAgainstItsPolicy) {
  const Read read;
  const Config config = LoadConfig();
  // Dev's limit is 8: in flight 2, running without a pool 2, handed over 2
  // leave room for one 2-GPU task, not for a 4-GPU one.
  ScheduleReport r = read.Schedule(Queued("flight") + InProgress("nobody-runs-it") + Queued("handed") +
                                       Queued("big", "\"qdq\"") + Queued("listed"),
                                   config);
  EXPECT_EQ(testing::Summarise(r), (std::vector<std::string>{"flight:running:", "nobody-runs-it:running:",
                                                             "handed:running:A", "big:pending:limit",
                                                             "listed:assigned:A"}));
  EXPECT_EQ(r.policies[0].used.ToString(), "8");
  // Only the handed-over task and the new one hold in A; nothing in B.
  EXPECT_EQ(r.pools[0].in_use.ToString(), "4");
  EXPECT_EQ(r.pools[1].in_use.ToString(), "0");
  EXPECT_EQ(r.running_count, 3u);
}

TEST(ClearmlSnapshot, WhatRunsWithoutAPoolUsesItsReservation) {
  // Res reserves 4 of A's 8 and has 2 in flight: 2 of its reservation are
  // used, 2 remain to cover. Dev, beyond its own (zero) reservation, may
  // take 6, not 4 as if the task in flight were nothing.
  const char* config_text = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: A, resources: 8, queue: a-pool}
profiles:
  - {name: p, allotment: 2, links: [{pool: A, queue: a-2gpu}]}
policies:
  - {name: Dev, profiles: [{profile: p, queue: dev-p}]}
  - {name: Res, reserved: 4, profiles: [{profile: p, queue: res-p}]}
)";
  const Config config = testing::ConfigFromYaml(config_text);
  std::string tasks;
  for (int k = 0; k < 4; ++k) tasks += Queued("d" + std::to_string(k));
  tasks += Queued("flight", R"({"name": "res-p"})") + Queued("r1", R"({"name": "res-p"})") +
           Queued("r2", R"({"name": "res-p"})");
  ScheduleReport r = Read().Schedule(tasks, config);
  EXPECT_EQ(testing::Summarise(r),
            (std::vector<std::string>{"d0:assigned:A", "d1:assigned:A", "d2:assigned:A", "d3:pending:capacity",
                                      "flight:running:", "r1:assigned:A", "r2:pending:capacity"}));
  EXPECT_EQ(r.policies[1].used.ToString(), "4");
}

TEST(ClearmlSnapshot, TwoWorkersGiveTheSameAnswerInEitherOrder) {
  const char* forward = R"([
    {"id": "w-x", "task": {"id": "t"}, "queue": {"name": "a-2gpu"}},
    {"id": "w-y", "task": {"id": "t"}, "queue": {"name": "b-2gpu"}}])";
  const char* backward = R"([
    {"id": "w-y", "task": {"id": "t"}, "queue": {"name": "b-2gpu"}},
    {"id": "w-x", "task": {"id": "t"}, "queue": {"name": "a-2gpu"}}])";
  const Config config = LoadConfig();
  ScheduleReport one = Read(forward).Schedule(InProgress("t"), config);
  ScheduleReport two = Read(backward).Schedule(InProgress("t"), config);
  EXPECT_EQ(testing::Summarise(one), std::vector<std::string>{"t:running:"});
  EXPECT_EQ(MessageOf(one.jobs[0]), MessageOf(two.jobs[0]));
}

TEST(ClearmlSnapshot, QueueEntriesOfUnknownTasksAreIgnored) {
  // gone-from-tasks is listed in a-2gpu but not in the tasks file: nothing
  // holds for it, and the tasks that are there are read as usual.
  const Read read;
  ScheduleReport r = read.Schedule(Queued("listed"), LoadConfig());
  EXPECT_EQ(testing::Summarise(r), std::vector<std::string>{"listed:assigned:A"});
  EXPECT_EQ(r.pools[0].in_use.ToString(), "2");
}

TEST(ClearmlSnapshot, NothingMatched) {
  TextArena arena;
  QueueMatches none;
  EXPECT_FALSE(NothingMatched(none, "tasks.json", false)) << "no tasks: nothing to match";
  QueueMatches ids;
  JobEntry by_id_entry;
  by_id_entry.queue = "5a6b";
  by_id_entry.queue_from_id = true;
  ids.Count(false, by_id_entry, &arena);
  auto by_id = NothingMatched(ids, "tasks.json", false);
  ASSERT_TRUE(by_id);
  EXPECT_EQ(by_id->code, "nothing-matched");
  EXPECT_NE(by_id->message.find("no queues file was given"), std::string::npos) << by_id->message;
  EXPECT_NE(by_id->hint.find("--clearml-queues"), std::string::npos);
  // With the queues file, the queues seen are named.
  auto seen = NothingMatched(ids, "tasks.json", true);
  ASSERT_TRUE(seen);
  EXPECT_NE(seen->message.find("queues seen: '5a6b'"), std::string::npos) << seen->message;
  QueueMatches some = ids;
  some.Count(true, JobEntry{}, &arena);
  EXPECT_FALSE(NothingMatched(some, "tasks.json", false));
}

TEST(ClearmlSnapshot, MatchesCountedWhileResolvingAndAfter) {
  const Config config = LoadConfig();
  const Read read;
  const std::string tasks = Queued("a", "\"nope\"") + Queued("b", "\"qdp\"") + Queued("handed", "\"zzz\"");
  LoadedJobs jobs = LoadClearmlTasksText(tasks, "t.jsonl", Companions{&read.queues, nullptr, nullptr},
                                         DynamicParameterPaths(config));
  TextArena arena;
  const QueueMatches after = MatchQueues(config, jobs.entries, &arena);
  EXPECT_EQ(after.tasks, 3u);
  EXPECT_EQ(after.matched, 2u);  // b by its queue, handed by the queue listing it
  ScheduleReport report = BuildSchedule(config, jobs.entries);
  (void)report;
  LoadedJobs resolved = LoadClearmlTasksText(tasks, "t.jsonl", [&] { return Companions{&read.queues, nullptr, nullptr}; },
                                             DynamicParameterPaths(config), &config);
  ASSERT_TRUE(resolved.resolved);
  EXPECT_EQ(resolved.resolved->matches.tasks, 3u);
  EXPECT_EQ(resolved.resolved->matches.matched, 2u);
  EXPECT_EQ(resolved.resolved->matches.seen, std::vector<std::string_view>{"nope"});
}

TEST(ClearmlSnapshot, SummaryLineNamesTheFirstReasons) {
  const Read read;
  ScheduleReport r = read.Schedule(Queued("listed") + Queued("a", "\"nope\"") + Queued("b", "\"nope\"") +
                                       Task("c", "completed", "\"qdp\"") + Queued("handed"),
                                   LoadConfig());
  EXPECT_EQ(ScheduleSummaryLine(r), "1 assigned, 0 pending, 1 running, 3 rejected (unknown-queue 2, invalid-job 1)");
  ScheduleReport clean = read.Schedule(Queued("listed"), LoadConfig());
  EXPECT_EQ(ScheduleSummaryLine(clean), "1 assigned, 0 pending, 0 running, 0 rejected");
}

/// Writes `text` to a file in the test's directory; returns its path.
std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "clearml_snapshot_" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ClearmlSnapshot, LoadingRefusesASnapshotThatMatchesNothing) {
  const Config config = LoadConfig();
  const std::string tasks = WriteFile("tasks.json", Queued("a", "\"qdp\"") + Queued("b", "\"qdq\""));
  const std::string queues = WriteFile("queues.json", kQueues);
  for (const Config* resolve : {&config, static_cast<const Config*>(nullptr)}) {
    SCOPED_TRACE(resolve ? "resolved while read" : "entries");
    const std::vector<const Config*> match = resolve ? std::vector<const Config*>{} : std::vector{&config};
    Snapshot without = LoadClearmlSnapshot({tasks, "", ""}, {}, resolve, nullptr, match);
    EXPECT_TRUE(without.unusable);
    ASSERT_FALSE(without.findings.empty());
    EXPECT_EQ(without.findings.back().code, "nothing-matched");
    Snapshot with = LoadClearmlSnapshot({tasks, queues, ""}, {}, resolve, nullptr, match);
    EXPECT_FALSE(with.unusable);
  }
  // Without a configuration to match against nothing is judged.
  EXPECT_FALSE(LoadClearmlSnapshot({tasks, "", ""}, {}).unusable);
}

TEST(ClearmlSnapshot, HandoversOnlyWhereTheQueuesSaySo) {
  // A task the journal says was handed over, back in its policy queue's
  // entries (an agent gave it back): queued again, decided again.
  const char* queues_text = R"([{"id": "qdp", "name": "dev-p", "entries": [{"task": "handed-journal"}]}])";
  QueueList queues = ReadQueuesText(queues_text, "queues.json");
  Handovers handovers{{"handed-journal", {"B", "dev-p"}}};
  const Config config = LoadConfig();
  LoadedJobs jobs = LoadClearmlTasksText(Queued("handed-journal"), "t.jsonl", Companions{&queues, nullptr, &handovers},
                                         DynamicParameterPaths(config));
  ScheduleReport r = BuildSchedule(config, std::move(jobs));
  EXPECT_EQ(testing::Summarise(r), std::vector<std::string>{"handed-journal:assigned:A"});
}

// The reader against a direct reading of the rules, over generated
// snapshots of kConfig: queued tasks in their policy queue, handed over
// (listed in a pool or link queue), in flight (listed in k8s_scheduler),
// running ones placed by their queue, their workers (none, one, two that
// may disagree) or the journal, and tasks the journal remembers.
namespace generated {

const std::vector<std::string> kExecQueues = {"dev-p", "dev-q", "res-p", "a-2gpu", "a-pool", "zzz"};
const std::vector<std::string> kListings = {"", "=", "a-2gpu", "b-2gpu", "k8s_scheduler", "dev-q"};
const std::vector<std::string> kWorkerQueues = {"a-2gpu", "b-2gpu", "dev-p"};

std::string PolicyOf(const std::string& q) {
  return q == "dev-p" || q == "dev-q" ? "Dev" : q == "res-p" ? "Res" : "";
}
std::string PoolOf(const std::string& q) {
  return q == "a-2gpu" || q == "a-4gpu" || q == "a-pool" ? "A" : q == "b-2gpu" || q == "b-pool" ? "B" : "";
}
/// A pool or link queue that some profile's link uses (it tells a need).
bool Serves(const std::string& q) { return q == "a-2gpu" || q == "b-2gpu" || q == "a-4gpu"; }

struct GenTask {
  std::string id, status, exec, listed;  ///< listed: "" none, else the queue
  std::vector<std::string> workers;      ///< queues of the workers that claim it
  std::optional<Handover> journal;
};

/// What the rules say: "queued" (decided by the pass), "rejected", or
/// "running" with its pool ("" for none) and policy ("" for none).
struct Expected {
  std::string status, pool, policy;
};

Expected Direct(const GenTask& t) {
  if (t.status == "completed") return {"rejected", "", ""};
  std::string target = PolicyOf(t.exec);
  if (target.empty() && t.journal) target = PolicyOf(t.journal->policy_queue);
  const std::string journal_pool = t.journal && (t.journal->pool == "A" || t.journal->pool == "B") ? t.journal->pool : "";
  std::string pool, tells;  // tells: the pool or link queue that gave the pool
  if (t.status == "queued") {
    // Listed in no queue and handed over by the journal, or with a pool's
    // queue as its execution.queue: popped by an agent, not yet started: it holds.
    if ((t.listed.empty() && !t.journal && PoolOf(t.exec).empty()) || (!t.listed.empty() && !PolicyOf(t.listed).empty())) {
      return {PolicyOf(t.exec).empty() ? "rejected" : "queued", "", PolicyOf(t.exec)};
    }
    if (!PoolOf(t.listed).empty()) {
      pool = PoolOf(t.listed), tells = t.listed;
    } else if (!journal_pool.empty()) {
      pool = journal_pool;
    } else if (!PoolOf(t.exec).empty()) {
      pool = PoolOf(t.exec), tells = t.exec;
    }
  } else {
    if (!PoolOf(t.exec).empty()) {
      pool = PoolOf(t.exec), tells = t.exec;
    } else if (target.empty()) {
      // Its policy queue is gone: the pool its workers (else the journal)
      // tell holds it, against no policy, with the need of the one queue of
      // that pool a single worker names, else of the pool's own queue.
      std::set<std::string> pools;
      bool untold = t.workers.empty();
      for (const std::string& q : t.workers) {
        if (PoolOf(q).empty()) untold = true;
        else pools.insert(PoolOf(q));
      }
      pool = !untold && pools.size() == 1 ? *pools.begin() : journal_pool;
      if (pool.empty()) return {"rejected", "", ""};
      const bool by_worker = !untold && pools.size() == 1 && t.workers.size() == 1;
      tells = by_worker ? t.workers[0] : pool == "A" ? "a-pool" : "b-pool";
    } else {
      std::set<std::string> pools;
      bool untold = t.workers.empty();
      for (const std::string& q : t.workers) {
        if (PoolOf(q).empty()) untold = true;
        else pools.insert(PoolOf(q));
      }
      if (!untold && pools.size() == 1) pool = *pools.begin();
      else pool = journal_pool;
    }
  }
  if (pool.empty() && target.empty()) return {"rejected", "", ""};
  if (target.empty() && !Serves(tells)) return {"rejected", "", ""};
  return {"running", pool, target};
}

rc::Gen<std::vector<GenTask>> GenTasks() {
  return rc::gen::exec([] {
    std::vector<GenTask> tasks;
    const int n = *rc::gen::inRange(1, 10);
    for (int k = 0; k < n; ++k) {
      GenTask t;
      t.id = "t" + std::to_string(k);
      t.status = *rc::gen::weightedElement<std::string>({{6, "queued"}, {5, "in_progress"}, {1, "completed"}});
      t.exec = *rc::gen::elementOf(kExecQueues);
      t.listed = *rc::gen::elementOf(kListings);
      if (t.listed == "=") t.listed = t.exec == "zzz" ? "" : t.exec;  // zzz is in no queues file
      const int workers = *rc::gen::inRange(0, 3);
      for (int w = 0; w < workers; ++w) t.workers.push_back(*rc::gen::elementOf(kWorkerQueues));
      if (*rc::gen::inRange(0, 3) == 0) {
        t.journal = Handover{*rc::gen::elementOf(std::vector<std::string>{"A", "B", "Gone"}),
                             *rc::gen::elementOf(std::vector<std::string>{"dev-p", "res-p", "zzz"})};
      }
      tasks.push_back(t);
    }
    return tasks;
  });
}

}  // namespace generated

RC_GTEST_PROP(ClearmlSnapshot, TheReaderFollowsTheRules, ()) {
  using namespace generated;
  const std::vector<GenTask> tasks = *GenTasks();
  std::string tasks_text, workers_text = "[";
  std::map<std::string, std::vector<std::string>> listed;  // queue -> task ids
  Handovers handovers;
  int worker_count = 0;
  for (const GenTask& t : tasks) {
    tasks_text += R"({"id": ")" + t.id + R"(", "status": ")" + t.status + R"(", "execution": {"queue": {"name": ")" +
                  t.exec + "\"}}}\n";
    if (!t.listed.empty()) listed[t.listed].push_back(t.id);
    for (const std::string& q : t.workers) {
      const std::string comma = worker_count == 0 ? "" : ",";
      workers_text += comma + R"({"id": "w)" + std::to_string(worker_count++) +
                      R"(", "task": {"id": ")" + t.id + R"("}, "queue": {"name": ")" + q + "\"}}";
    }
    if (t.journal) handovers[t.id] = *t.journal;
  }
  workers_text += "]";
  // Every queue of the configuration, and the glue's, with their entries
  // (and a task that is gone, which changes nothing).
  std::string queues_text = "[";
  int id = 0;
  for (const char* q : {"dev-p", "dev-q", "res-p", "a-2gpu", "b-2gpu", "a-4gpu", "a-pool", "b-pool", "k8s_scheduler"}) {
    const std::string comma = id == 0 ? "" : ",";
    queues_text += comma + R"({"id": "q)" + std::to_string(id++) + R"(", "name": ")" + q +
                   R"(", "entries": [{"task": "gone"})";
    for (const std::string& task : listed[q]) queues_text += R"(, {"task": ")" + task + "\"}";
    queues_text += "]}";
  }
  queues_text += "]";
  const QueueList queues = ReadQueuesText(queues_text, "queues.json");
  const WorkerList workers = ReadWorkersText(workers_text, "workers.json");
  RC_ASSERT(!queues.unusable);
  RC_ASSERT(!workers.unusable);
  const Config config = LoadConfig();
  LoadedJobs jobs = LoadClearmlTasksText(tasks_text, "tasks.jsonl", Companions{&queues, &workers, &handovers},
                                         DynamicParameterPaths(config));
  RC_ASSERT(!jobs.unusable);
  const ScheduleReport report = BuildSchedule(config, std::move(jobs));
  RC_ASSERT(report.jobs.size() == tasks.size());
  for (size_t k = 0; k < tasks.size(); ++k) {
    const Expected want = Direct(tasks[k]);
    const JobOutcome& got = report.jobs[k];
    RC_LOG() << tasks[k].id << ": " << want.status << " " << want.pool << " " << want.policy << " | got "
             << JobStatusName(got.status) << " " << got.pool.value_or("") << " " << got.policy.value_or("") << " "
             << MessageOf(got) << "\n";
    if (want.status == "queued") {
      RC_ASSERT(got.status == JobStatus::kAssigned || got.status == JobStatus::kPending);
      RC_ASSERT(got.policy.value_or("") == want.policy);
    } else if (want.status == "rejected") {
      RC_ASSERT(got.status == JobStatus::kRejected);
    } else {
      RC_ASSERT(got.status == JobStatus::kRunning);
      RC_ASSERT(got.pool.value_or("") == want.pool);
      RC_ASSERT(got.policy.value_or("") == want.policy);
      // Warned: in no pool, or held for a policy queue that is gone.
      const bool orphan = tasks[k].status == "in_progress" && want.policy.empty() && PoolOf(tasks[k].exec).empty();
      RC_ASSERT(got.warning == (want.pool.empty() || orphan));
    }
  }
}

}  // namespace
}  // namespace rescfg::clearml
