#include "sync/run_starts.h"

#include <simdjson.h>

#include "jobs/run_facts.h"
#include "sync/task_lines.h"
#include "util/atomic_file.h"
#include "util/flat_record.h"
#include "util/state_file.h"

namespace rescfg::sync {

bool RunStarts::Load(const std::string& path, std::string* error) {
  starts_.clear();
  bool missing = false;
  std::string read_error;
  const auto text = ReadStateFile(path, &read_error, &missing);
  if (!text) {
    if (missing) return true;
    *error = read_error;
    return false;
  }
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  if (parser.parse(*text).get(object) != simdjson::SUCCESS) {
    *error = path + ": not a JSON object of run starts; remove it to start the records again";
    return false;
  }
  for (auto field : object) {
    int64_t micros = 0;
    if (field.value.get(micros) != simdjson::SUCCESS) {
      *error = path + ": the run start of task " + std::string(field.key) + " is not a whole number of microseconds";
      return false;
    }
    starts_[std::string(field.key)] = micros;
  }
  return true;
}

void RunStarts::Update(const std::unordered_map<std::string, std::string>& status, int64_t now_us) {
  for (auto it = starts_.begin(); it != starts_.end();) {
    auto seen = status.find(it->first);
    it = (seen == status.end() || seen->second != "in_progress") ? starts_.erase(it) : std::next(it);
  }
  for (const auto& [task, state] : status) {
    if (state == "in_progress") starts_.emplace(task, now_us);
  }
}

bool RunStarts::Save(const std::string& path, std::string* error) const {
  std::string text = "{";
  for (const auto& [task, micros] : starts_) {
    text += text.size() > 1 ? ",\n" : "\n";
    AppendJsonString(&text, task);
    text += ": " + std::to_string(micros);
  }
  text += "\n}\n";
  return WriteFileAtomically(path, text, error);
}

namespace {

/// Appends `line` (one task's JSON) to `out` minified, with its `started`
/// set to its run start in `starts` when it is in_progress and has one;
/// false when it is not JSON.
bool RewriteTask(std::string_view line, const std::map<std::string, int64_t>& starts, simdjson::dom::parser* parser,
                 std::string* out) {
  simdjson::dom::element task;
  if (parser->parse(line.data(), line.size()).get(task) != simdjson::SUCCESS) return false;
  std::string_view id, status;
  simdjson::dom::object object;
  auto start = starts.end();
  if (task.get(object) == simdjson::SUCCESS && object["id"].get(id) == simdjson::SUCCESS &&
      object["status"].get(status) == simdjson::SUCCESS && status == "in_progress") {
    start = starts.find(std::string(id));
  }
  if (start == starts.end()) {
    out->append(simdjson::minify(task));
    return true;
  }
  out->append("{");
  for (auto field : object) {
    if (field.key == "started") continue;
    AppendJsonString(out, field.key);
    out->append(":").append(simdjson::minify(field.value)).append(",");
  }
  out->append("\"started\":");
  AppendJsonString(out, FormatMicros(start->second));
  out->append("}");
  return true;
}

}  // namespace

std::string WithRunStarts(const std::string& tasks_json, const std::map<std::string, int64_t>& starts) {
  if (starts.empty()) return tasks_json;
  // Only a line that mentions in_progress can be a running task: only those
  // are parsed; the others (the queued tasks) are copied as they are, which
  // is what minifying them again would give.
  std::string out = "[";
  out.reserve(tasks_json.size() + starts.size() * 40);
  simdjson::dom::parser parser;
  bool readable = true;
  ForEachTaskLine(tasks_json, [&](std::string_view task) {
    if (!readable) return;
    if (out.size() > 1) out.append(",\n");
    if (task.find("in_progress") == std::string_view::npos) {
      out.append(task);
    } else {
      readable = RewriteTask(task, starts, &parser, &out);
    }
  });
  if (!readable) return tasks_json;
  out.append(out.size() > 1 ? "\n]\n" : "]\n");
  return out;
}

std::string RunStartsPath(const SyncPaths& paths) { return paths.dir + "/run-starts"; }

bool KeepRunStarts(const SyncPaths& paths, const Clock& clock, ServerSnapshot* snapshot, std::string* error) {
  RunStarts starts;
  const std::string path = RunStartsPath(paths);
  if (!starts.Load(path, error)) return false;
  starts.Update(snapshot->status, clock.UtcMicros());
  if (!starts.Save(path, error)) return false;
  snapshot->tasks_json = WithRunStarts(snapshot->tasks_json, starts.starts());
  return true;
}

}  // namespace rescfg::sync
