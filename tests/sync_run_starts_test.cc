// Run starts given to a snapshot's tasks (sync/run_starts.h): only the lines
// of running tasks are parsed; the result must be what rewriting every task
// gives, which the simple reference below does.

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <simdjson.h>

#include <map>
#include <string>
#include <vector>

#include "jobs/run_facts.h"
#include "sync/run_starts.h"
#include "util/flat_record.h"

namespace rescfg {
namespace {

/// The former implementation, kept as the reference: every task parsed and
/// minified again; a running task with a record gets its `started` replaced
/// (the field moved last).
std::string ReferenceWithRunStarts(const std::string& tasks_json, const std::map<std::string, int64_t>& starts) {
  if (starts.empty()) return tasks_json;
  simdjson::dom::parser parser;
  simdjson::dom::array tasks;
  if (parser.parse(tasks_json).get(tasks) != simdjson::SUCCESS) return tasks_json;
  std::string out = "[";
  for (simdjson::dom::element task : tasks) {
    if (out.size() > 1) out.append(",\n");
    std::string_view id, status;
    simdjson::dom::object object;
    auto start = starts.end();
    if (task.get(object) == simdjson::SUCCESS && object["id"].get(id) == simdjson::SUCCESS &&
        object["status"].get(status) == simdjson::SUCCESS && status == "in_progress") {
      start = starts.find(std::string(id));
    }
    if (start == starts.end()) {
      out.append(simdjson::minify(task));
      continue;
    }
    out.append("{");
    for (auto field : object) {
      if (field.key == "started") continue;
      AppendJsonString(&out, field.key);
      out.append(":").append(simdjson::minify(field.value)).append(",");
    }
    out.append("\"started\":");
    AppendJsonString(&out, FormatMicros(start->second));
    out.append("}");
  }
  out.append(out.size() > 1 ? "\n]\n" : "]\n");
  return out;
}

/// The snapshot's tasks as the sync keeps them: each task minified, one a line.
std::string AsKept(const std::vector<std::string>& tasks) {
  std::string out = "[";
  simdjson::dom::parser parser;
  for (const std::string& task : tasks) {
    simdjson::dom::element element;
    EXPECT_EQ(parser.parse(task).get(element), simdjson::SUCCESS) << task;
    if (out.size() > 1) out.append(",\n");
    out.append(simdjson::minify(element));
  }
  out.append(out.size() > 1 ? "\n]\n" : "]\n");
  return out;
}

TEST(RunStarts, OnlyRunningTasksWithARecordChange) {
  const std::string kept = AsKept({
      R"({"id": "a", "status": "in_progress", "started": "2026-01-01T00:00:00Z", "name": "x"})",
      R"({"id": "b", "name": "in_progress, not running", "status": "queued"})",
      R"({"id": "c", "status": "in_progress"})",
      R"({"name": "line\nbreak", "id": "d", "status": "in_progress", "n": 1.5e3})",
  });
  const std::map<std::string, int64_t> starts = {{"a", 1000000}, {"b", 0}, {"d", 2000000}};
  const std::string got = sync::WithRunStarts(kept, starts);
  EXPECT_EQ(got, ReferenceWithRunStarts(kept, starts));
  EXPECT_NE(got.find(R"("started":"1970-01-01T00:00:01Z")"), std::string::npos) << got;
  EXPECT_NE(got.find(R"({"id":"b","name":"in_progress, not running","status":"queued"})"), std::string::npos) << got;
  EXPECT_EQ(sync::WithRunStarts("[]\n", starts), "[]\n");
  EXPECT_EQ(sync::WithRunStarts(kept, {}), kept);
}

TEST(RunStarts, ALineThatIsNotJsonLeavesTheTasksAsTheyAre) {
  const std::string broken = "[{\"id\":\"a\",\"status\":\"in_progress\",\n{oops in_progress},\n{\"id\":\"b\"}\n]\n";
  EXPECT_EQ(sync::WithRunStarts(broken, {{"a", 1}}), broken);
}

RC_GTEST_PROP(RunStarts, AsEveryTaskRewritten, ()) {
  const auto tasks = *rc::gen::container<std::vector<std::string>>(rc::gen::map(
      rc::gen::tuple(rc::gen::inRange(0, 12), rc::gen::element<std::string>("queued", "in_progress", "stopped"),
                     rc::gen::element<std::string>("", "in_progress", "a,\\nb", "\\\"in_progress\\\"", "é ✓", "x\\\\"),
                     rc::gen::inRange(0, 4)),
      [](const std::tuple<int, std::string, std::string, int>& t) {
        const auto& [id, status, name, shape] = t;
        const std::string i = "\"id\": \"t" + std::to_string(id) + "\"";
        const std::string s = "\"status\": \"" + status + "\"";
        const std::string n = "\"name\": \"" + name + "\"";
        switch (shape) {
          case 0: return "{" + i + ", " + s + ", " + n + "}";
          case 1: return "{" + n + ", " + s + ", \"started\": \"2026-02-03T04:05:06Z\", " + i + "}";
          case 2: return "{" + s + ", " + i + ", \"execution\": {\"queue\": \"q\"}, \"n\": [1, 2.5, null]}";
          default: return "{" + i + ", " + n + "}";
        }
      }));
  std::map<std::string, int64_t> starts;
  for (int id : *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 12))) {
    starts["t" + std::to_string(id)] = int64_t(id) * 1'000'003;
  }
  const std::string kept = AsKept(tasks);
  RC_ASSERT(sync::WithRunStarts(kept, starts) == ReferenceWithRunStarts(kept, starts));
}

}  // namespace
}  // namespace rescfg
