#include "sync/run_starts.h"

#include <simdjson.h>

#include "jobs/run_facts.h"
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

std::string WithRunStarts(const std::string& tasks_json, const std::map<std::string, int64_t>& starts) {
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
