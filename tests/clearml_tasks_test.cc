/// The ClearML task snapshot reader (rescfg(5), JOBS FILE, ClearML task snapshots): one task in each of its
/// shapes, table-driven, then the three forms of the file and what makes a
/// file unusable.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "clearml/tasks.h"
#include "jobs/job_fields.h"

namespace rescfg::clearml {
namespace {

const std::vector<std::string> kPaths = {"hyperparams.Args.cost", "configuration.test", "runtime.gpus_request"};

const char* kQueues = R"({"meta": {"result_code": 200}, "data": {"queues": [
  {"id": "q-dev", "name": "dev-4gpu", "entries": [{"task": "t-listed-2", "added": "2026-11-29T09:00:00+00:00"},
                                                  {"task": {"id": "t-listed-1"}, "added": "2026-11-29T08:00:00+00:00"}]},
  {"id": "q-pool", "name": "h100-pool", "entries": [{"task": "t-elsewhere"}]}
]}})";

const char* kWorkers = R"({"data": {"workers": [
  {"id": "node-1:gpu0", "task": {"id": "t-run", "name": "x", "running_time": 5}, "queue": {"id": "q-pool", "name": "h100-pool"},
   "queues": [{"id": "q-pool", "name": "h100-pool", "num_tasks": 0}, "q-dev"]},
  {"id": "node-2:gpu0", "task": null, "queue": null, "queues": []}
]}})";

struct Fixture {
  QueueList queues = ReadQueuesText(kQueues, "queues.json");
  WorkerList workers = ReadWorkersText(kWorkers, "workers.json");
  Companions companions{&queues, &workers};
};

Fixture& Files() {
  static Fixture* fixture = new Fixture();
  return *fixture;
}

LoadedJobs Tasks(const std::string& text, bool with_companions = true) {
  return LoadClearmlTasksText(text, "tasks.json", with_companions ? Files().companions : Companions{}, kPaths);
}

/// The one entry a one-task array reads to.
JobEntry One(const std::string& task, LoadedJobs* keep) {
  *keep = Tasks("[" + task + "]");
  EXPECT_FALSE(keep->unusable);
  if (keep->entries.size() != 1) {
    ADD_FAILURE() << "expected one entry, got " << keep->entries.size();
    return {};
  }
  return keep->entries[0];
}

std::string Param(const JobEntry& e, std::string_view path) {
  for (const auto& p : e.params) {
    if (*p.path == path) return p.text ? std::string(*p.text) : "<not a scalar>";
  }
  return "<absent>";
}

struct TaskCase {
  const char* what;
  const char* task;
  const char* invalid;  ///< expected message ("" when valid)
  const char* state;    ///< "" when not set
  const char* queue;    ///< "" when not set
  bool queue_from_id = false;
};

TEST(ClearmlTask, EachShapeOfATask) {
  const TaskCase cases[] = {
      {"queued, ID mapped by the queues file", R"({"id": "t1", "status": "queued", "execution": {"queue": "q-dev"}})",
       "", "queued", "dev-4gpu"},
      {"expanded reference: its name", R"({"id": "t1", "status": "queued", "execution": {"queue": {"id": "q-x", "name": "other"}}})",
       "", "queued", "other"},
      {"expanded reference that the queues file contradicts",
       R"({"id": "t1", "status": "queued", "execution": {"queue": {"id": "q-dev", "name": "other"}}})",
       "execution.queue {id: q-dev, name: other} disagrees with the queues file (queues.json): queue q-dev is named "
       "'dev-4gpu'", "queued", ""},
      {"expanded reference with an ID only", R"({"id": "t1", "status": "queued", "execution": {"queue": {"id": "q-pool"}}})",
       "", "queued", "h100-pool"},
      {"an ID no queue lists is taken as a name", R"({"id": "t1", "status": "queued", "execution": {"queue": "dev-4gpu"}})",
       "", "queued", "dev-4gpu", true},
      {"in progress", R"({"id": "t1", "status": "in_progress", "execution": {"queue": "q-dev"}})", "", "running",
       "dev-4gpu"},
      {"another status", R"({"id": "t1", "status": "completed", "execution": {"queue": "q-dev"}})",
       "task status 'completed' is neither queued nor in_progress", "", ""},
      {"another status and no queue: only the status is said", R"({"id": "t1", "status": "failed"})",
       "task status 'failed' is neither queued nor in_progress", "", ""},
      {"no status", R"({"id": "t1", "execution": {"queue": "q-dev"}})",
       "the task has no status; only queued and in_progress tasks are scheduled", "", ""},
      {"null status counts as absent", R"({"id": "t1", "status": null, "execution": {"queue": "q-dev"}})",
       "the task has no status; only queued and in_progress tasks are scheduled", "", ""},
      {"mistyped status", R"({"id": "t1", "status": 3, "execution": {"queue": "q-dev"}})",
       "field 'status' must be a string", "", ""},
      {"mistyped id", R"({"id": 7, "status": "queued", "execution": {"queue": "q-dev"}})", "field 'id' must be a string",
       "queued", "dev-4gpu"},
      {"no execution", R"({"id": "t1", "status": "queued"})", "the task has no execution queue (execution.queue)",
       "queued", ""},
      {"null queue", R"({"id": "t1", "status": "queued", "execution": {"queue": null}})",
       "the task has no execution queue (execution.queue)", "queued", ""},
      {"empty queue", R"({"id": "t1", "status": "queued", "execution": {"queue": ""}})",
       "the task has no execution queue (execution.queue)", "queued", ""},
      {"mistyped queue", R"({"id": "t1", "status": "queued", "execution": {"queue": 5}})",
       "execution.queue must be an ID or an object with id and name", "queued", ""},
      {"queue object without id or name", R"({"id": "t1", "status": "in_progress", "execution": {"queue": {"x": 1}}})",
       "execution.queue has neither an id nor a name", "running", ""},
      {"queue object with a mistyped id", R"({"id": "t1", "status": "queued", "execution": {"queue": {"id": 5}}})",
       "execution.queue.id must be a string", "queued", ""},
      {"mistyped execution", R"({"id": "t1", "status": "queued", "execution": "q-dev"})",
       "field 'execution' must be an object", "queued", ""},
      {"a key given twice", R"({"id": "t1", "status": "queued", "id": "t2", "execution": {"queue": "q-dev"}})",
       "duplicate key 'id'", "queued", "dev-4gpu"},
      {"execution.queue given twice", R"({"id": "t1", "status": "queued", "execution": {"queue": "q-dev", "queue": "q-pool"}})",
       "duplicate key 'queue' in execution", "queued", "h100-pool"},
      {"unknown keys of every type are skipped",
       R"({"id": "t1", "status": "queued", "tags": ["a", 1, null], "container": {"image": "x"}, "x": 1.5e3, "y": false,
          "execution": {"queue": "q-dev", "parameters": {"a": "b"}, "docker_cmd": null}})",
       "", "queued", "dev-4gpu"},
  };
  for (const TaskCase& c : cases) {
    SCOPED_TRACE(c.what);
    LoadedJobs keep;
    JobEntry e = One(c.task, &keep);
    EXPECT_EQ(e.invalid, c.invalid);
    EXPECT_TRUE(e.clearml_task);
    EXPECT_EQ(e.state.value_or(""), c.state);
    EXPECT_EQ(e.queue.value_or(""), c.queue);
    EXPECT_EQ(e.queue_from_id, c.queue_from_id);
  }
}

TEST(ClearmlTask, IdNameAndEscapes) {
  LoadedJobs keep;
  JobEntry e = One(R"({"id": "t\u0031", "name": "train \"big\"", "status": "queued", "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_EQ(e.id, "t1");
  EXPECT_EQ(e.name, "train \"big\"");
  e = One(R"({"status": "queued", "name": 5, "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_EQ(e.id, std::nullopt);  // resolution says the id is missing
  EXPECT_EQ(e.name, std::nullopt);  // a name that is not a string is not carried
  EXPECT_EQ(e.invalid, "");
}

/// hyperparams, configuration and runtime are the roots of `params`; their
/// items are {value: ...} wrappers.
TEST(ClearmlTask, ParametersFromTheThreeRoots) {
  LoadedJobs keep;
  JobEntry e = One(R"({"id": "t1", "status": "queued", "execution": {"queue": "q-dev"},
    "hyperparams": {"Args": {"cost": {"section": "Args", "name": "cost", "value": "4", "type": "int", "description": ""},
                             "other": {"value": "9"}}, "General": {"cost": {"value": "7"}}},
    "configuration": {"test": {"name": "test", "value": "1/7", "type": "", "description": ""}},
    "runtime": {"gpus_request": "2", "other": 1}})", &keep);
  EXPECT_EQ(e.invalid, "");
  EXPECT_EQ(Param(e, "hyperparams.Args.cost"), "4");
  EXPECT_EQ(Param(e, "configuration.test"), "1/7");
  EXPECT_EQ(Param(e, "runtime.gpus_request"), "2");
  e = One(R"({"id": "t1", "status": "queued", "execution": {"queue": "q-dev"},
    "hyperparams": {"Args": {"cost": {"value": null}}}, "runtime": {"gpus_request": {"section": "x"}}})", &keep);
  EXPECT_EQ(Param(e, "hyperparams.Args.cost"), "<absent>");
  EXPECT_EQ(Param(e, "runtime.gpus_request"), "<not a scalar>");
  e = One(R"({"id": "t1", "status": "queued", "execution": {"queue": "q-dev"}, "runtime": {}, "runtime": {}})", &keep);
  EXPECT_EQ(e.invalid, "duplicate key 'runtime' in params");
}

TEST(ClearmlTask, StatusChangedAndQueueRank) {
  LoadedJobs keep;
  JobEntry e = One(R"({"id": "t-listed-1", "status": "queued", "status_changed": "2026-11-29T09:12:44.123000+00:00",
                       "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_EQ(e.enqueued, "2026-11-29T09:12:44.123000+00:00");
  EXPECT_EQ(e.queue_rank, 2u);
  e = One(R"({"id": "t-listed-2", "status": "queued", "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_EQ(e.queue_rank, 1u);
  // Listed in another queue's entries: not ordered by them.
  e = One(R"({"id": "t-elsewhere", "status": "queued", "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_EQ(e.queue_rank, 0u);
  e = One(R"({"id": "t9", "status": "queued", "status_changed": 5, "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_TRUE(e.enqueued_mistyped);
  EXPECT_EQ(e.invalid, "");  // resolution decides: it is ignored on a running task
  // Running: status_changed is ignored whatever it is.
  e = One(R"({"id": "t9", "status": "in_progress", "status_changed": 5, "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_FALSE(e.enqueued_mistyped);
  e = One(R"({"id": "t9", "status": "in_progress", "status_changed": "soon", "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_EQ(e.enqueued, std::nullopt);
}

TEST(ClearmlTask, RunningTaskFindsItsWorker) {
  LoadedJobs keep;
  JobEntry e = One(R"({"id": "t-run", "status": "in_progress", "execution": {"queue": "q-dev"}})", &keep);
  ASSERT_NE(e.worker, nullptr);
  EXPECT_EQ(e.worker->id, "node-1:gpu0");
  EXPECT_EQ(e.worker->queue, "h100-pool");
  ASSERT_EQ(e.worker->queues.size(), 2u);
  EXPECT_EQ(e.worker->queues[0], "h100-pool");
  EXPECT_EQ(e.worker->queues[1], "dev-4gpu");  // an ID, mapped
  e = One(R"({"id": "t-run", "status": "queued", "execution": {"queue": "q-dev"}})", &keep);
  EXPECT_EQ(e.worker, nullptr);  // only running tasks are placed through a worker
  keep = Tasks(R"({"id": "t-run", "status": "in_progress", "execution": {"queue": "q-dev"}})", false);
  EXPECT_EQ(keep.entries[0].worker, nullptr);
  EXPECT_EQ(keep.entries[0].queue, "q-dev");
  EXPECT_TRUE(keep.entries[0].queue_from_id);
}

const char* kThree[] = {
    R"({"id": "a", "name": "first", "status": "queued", "execution": {"queue": "q-dev"}, "runtime": {"gpus_request": "2"}})",
    R"({"id": "b", "status": "in_progress", "execution": {"queue": {"id": "q-pool", "name": "h100-pool"}}})",
    R"({"id": "c", "status": "stopped", "execution": {"queue": "q-dev"}})",
};

void ExpectThree(const LoadedJobs& jobs) {
  ASSERT_FALSE(jobs.unusable) << (jobs.findings.empty() ? "" : jobs.findings[0].message);
  ASSERT_EQ(jobs.entries.size(), 3u);
  EXPECT_EQ(jobs.entries[0].id, "a");
  EXPECT_EQ(jobs.entries[0].name, "first");
  EXPECT_EQ(jobs.entries[0].queue, "dev-4gpu");
  EXPECT_EQ(Param(jobs.entries[0], "runtime.gpus_request"), "2");
  EXPECT_EQ(jobs.entries[1].state, "running");
  EXPECT_EQ(jobs.entries[1].queue, "h100-pool");
  EXPECT_EQ(jobs.entries[2].invalid, "task status 'stopped' is neither queued nor in_progress");
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(jobs.entries[i].entry, i + 1);
}

TEST(ClearmlSnapshot, ResponseArrayAndJsonLinesReadAlike) {
  const std::string tasks = std::string(kThree[0]) + ",\n" + kThree[1] + ",\n" + kThree[2];
  ExpectThree(Tasks(R"({"meta": {"id": "x", "result_code": 200, "result_msg": "OK"}, "data": {"tasks": [)" + tasks +
                    "], \"total\": 3, \"scroll_id\": null}}"));
  ExpectThree(Tasks(R"({"data": {"tasks": [)" + tasks + "]}, \"meta\": {}}"));
  ExpectThree(Tasks("[" + tasks + "]"));
  ExpectThree(Tasks(std::string("\xEF\xBB\xBF") + "  \n[" + tasks + "]\n"));
  ExpectThree(Tasks(std::string(kThree[0]) + "\n\n" + kThree[1] + "\n" + kThree[2] + "\n"));
}

TEST(ClearmlSnapshot, MarksNameLineAndColumn) {
  auto pretty = Tasks("{\"meta\": {},\n \"data\": {\"tasks\": [\n  " + std::string(kThree[0]) + ",\n  " + kThree[1] + "]}}");
  ASSERT_EQ(pretty.entries.size(), 2u);
  EXPECT_EQ(pretty.entries[0].mark.line, 3);
  EXPECT_EQ(pretty.entries[0].mark.column, 3);
  EXPECT_EQ(pretty.entries[1].mark.line, 4);
  const std::string first = kThree[0];
  auto compact = Tasks("[" + first + "," + kThree[1] + "]");
  ASSERT_EQ(compact.entries.size(), 2u);
  EXPECT_EQ(compact.entries[1].mark.line, 1);
  EXPECT_EQ(compact.entries[1].mark.column, static_cast<int>(first.size()) + 3);
}

TEST(ClearmlSnapshot, EmptySnapshots) {
  for (const char* text : {"", "  \n\t\n", "[]", "[ ]", R"({"meta": {}, "data": {"tasks": []}})"}) {
    auto jobs = Tasks(text);
    EXPECT_FALSE(jobs.unusable) << text;
    EXPECT_TRUE(jobs.entries.empty()) << text;
  }
}

TEST(ClearmlSnapshot, ElementsThatAreNoTaskAreRejectedEntries) {
  auto jobs = Tasks(R"([42, "x", null, [1], {"id": "a", "status": "queued", "execution": {"queue": "q-dev"}}])");
  ASSERT_FALSE(jobs.unusable);
  ASSERT_EQ(jobs.entries.size(), 5u);
  EXPECT_EQ(jobs.entries[0].invalid, "not a task object: 42");
  EXPECT_EQ(jobs.entries[1].invalid, "not a task object: \"x\"");
  EXPECT_EQ(jobs.entries[3].invalid, "not a task object: [1]");
  EXPECT_EQ(jobs.entries[4].invalid, "");
  EXPECT_EQ(jobs.entries[4].entry, 5u);
}

TEST(ClearmlSnapshot, MalformedJsonLinesAreRejectedEntries) {
  auto jobs = Tasks(std::string(kThree[0]) + "\n{\"id\": \"x\", \"status\": tru}\n[1]\n" + kThree[1] + " trailing\n" +
                    kThree[2] + "\n");
  ASSERT_FALSE(jobs.unusable);
  ASSERT_EQ(jobs.entries.size(), 5u);
  EXPECT_EQ(jobs.entries[0].invalid, "");
  EXPECT_EQ(PlacedProblem(jobs.entries[1]).rfind("line 2, column 23: not valid JSON", 0), 0u) << PlacedProblem(jobs.entries[1]);
  EXPECT_EQ(jobs.entries[1].id, std::nullopt);
  EXPECT_EQ(PlacedProblem(jobs.entries[2]), "line 3: not a JSON object: [1]");
  EXPECT_EQ(PlacedProblem(jobs.entries[3]).rfind("line 4, column ", 0), 0u) << PlacedProblem(jobs.entries[3]);
  EXPECT_EQ(jobs.entries[4].id, "c");
}

struct UnusableCase {
  const char* what;
  std::string text;
  const char* code;
  int line, column;
  const char* message;  ///< a part of the message
};

TEST(ClearmlSnapshot, UnusableFiles) {
  const std::string task = kThree[0];
  const UnusableCase cases[] = {
      {"not JSON", "<html><body>502 Bad Gateway</body></html>", "bad-shape", 1, 1, "not a ClearML task snapshot"},
      {"a bare scalar", "  42", "bad-shape", 1, 3, "found '42'"},
      {"a syntax error inside a task", "[\n" + task + ",\n {\"id\": \"b\", \"status\": tru}\n]", "json-syntax", 3, 0,
       "(in task 2)"},
      {"a string left open", "[" + task + ", {\"id\": \"b]", "json-syntax", 1, 0, "string is not closed"},
      {"a bracket left open", "{\"data\": {\"tasks\": [{\"id\": \"a\"", "json-syntax", 1, 21, "never closed"},
      {"a wrong closing bracket", "[" + task + "}", "json-syntax", 1, 0, "expected ',' or ']'"},
      {"text after the array", "[" + task + "] x", "json-syntax", 1, 0, "text after the array"},
      {"text after the response", "{\"data\": {\"tasks\": []}} {}", "json-syntax", 1, 0, "text after the response"},
      {"a trailing comma", "[" + task + ",]", "json-syntax", 1, 0, "expected a value"},
      {"bad JSON in the envelope", "{\"meta\": {\"a\": 01}, \"data\": {\"tasks\": []}}", "json-syntax", 1, 10, "bad number"},
      {"a key without quotes", "{\"data\": {tasks: []}}", "json-syntax", 1, 11, "expected a key"},
      {"no data.tasks", R"({"meta": {"result_code": 200}, "data": {"total": 0}})", "bad-shape", 0, 0, "no data.tasks"},
      {"no data at all", R"({"meta": {"result_code": 200}})", "bad-shape", 1, 1, "no data.tasks"},
      {"data.tasks not a list", R"({"data": {"tasks": {"id": "a"}}})", "bad-shape", 1, 20, "must be a list"},
      {"data not an object", R"({"data": [1]})", "bad-shape", 1, 10, "data must be an object"},
      {"an error response", R"({"meta": {"result_code": 401, "result_msg": "Unauthorized"}, "data": {}})",
       "error-response", 1, 10, "result_code 401 (Unauthorized)"},
      {"not UTF-8", "[{\"id\": \"\xff\"}]", "json-syntax", 1, 0, "UTF-8"},
  };
  for (const UnusableCase& c : cases) {
    SCOPED_TRACE(c.what);
    auto jobs = Tasks(c.text);
    EXPECT_TRUE(jobs.unusable);
    EXPECT_TRUE(jobs.entries.empty());
    ASSERT_EQ(jobs.findings.size(), 1u);
    const Finding& f = jobs.findings[0];
    EXPECT_EQ(f.code, c.code);
    EXPECT_EQ(f.file, "tasks.json");
    EXPECT_NE(f.message.find(c.message), std::string::npos) << f.message;
    if (c.line > 0) {
      EXPECT_EQ(f.mark.line, c.line);
    }
    if (c.column > 0) {
      EXPECT_EQ(f.mark.column, c.column);
    }
    EXPECT_GT(f.mark.line, 0);
  }
}

/// Files of 8 MB or more are read by two threads: the entries are those of
/// one, numbered in file order, in every form.
TEST(ClearmlSnapshot, LargeFilesReadInTwoHalves) {
  constexpr int kTasks = 60'000;
  std::string lines, array = "[";
  for (int i = 0; i < kTasks; ++i) {
    std::string task = "{\"id\": \"task-" + std::to_string(i) + "\", \"name\": \"n" + std::to_string(i) +
                       "\", \"status\": \"" + (i % 3 == 0 ? "in_progress" : "queued") +
                       "\", \"execution\": {\"queue\": \"q-dev\"}, \"hyperparams\": {\"Args\": {\"cost\": {\"value\": \"" +
                       std::to_string(i % 7) + "\"}}}, \"padding\": \"" + std::string(90, 'x') + "\"}";
    lines += task + "\n";
    array += (i ? ",\n" : "") + task;
  }
  array += "]";
  ASSERT_GE(lines.size(), size_t(8) << 20);
  for (const std::string* text : {&lines, &array}) {
    auto jobs = Tasks(*text);
    ASSERT_FALSE(jobs.unusable);
    ASSERT_EQ(jobs.entries.size(), size_t(kTasks));
    for (int i = 0; i < kTasks; ++i) {
      const JobEntry& e = jobs.entries[i];
      ASSERT_EQ(e.entry, size_t(i) + 1);
      ASSERT_EQ(e.id, "task-" + std::to_string(i));
      ASSERT_EQ(e.mark.line, i + 1);
      ASSERT_EQ(e.state, i % 3 == 0 ? "running" : "queued");
      ASSERT_EQ(Param(e, "hyperparams.Args.cost"), std::to_string(i % 7));
    }
  }
  // A syntax error in the second half still makes the document unusable.
  std::string broken = array;
  broken.replace(broken.rfind("\"status\": \"queued\""), 18, "\"status\": tru");
  auto jobs = Tasks(broken);
  EXPECT_TRUE(jobs.unusable);
  ASSERT_EQ(jobs.findings.size(), 1u);
  EXPECT_EQ(jobs.findings[0].mark.line, kTasks);
}

}  // namespace
}  // namespace rescfg::clearml
