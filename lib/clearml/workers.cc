#include "clearml/workers.h"

#include "jobs/json_values.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"

namespace rescfg::clearml {

using simdjson::error_code;

const Worker* WorkerList::RunningTask(std::string_view task) const {
  const uint32_t* w = by_task_.find(task);
  return w == nullptr ? nullptr : &workers[*w];
}

namespace {

error_code ReadWorker(od::object object, TextArena* arena, Worker* worker, Problem* problem) {
  std::string shape;
  for (auto member : object) {
    std::string_view key;
    od::value value;
    if (auto error = json::ReadMember(std::move(member), &key, &value)) return error;
    const char* value_at = value.raw_json_token().data();
    if (key == "id") {
      od::json_type type;
      if (auto error = value.type().get(type)) return error;
      if (type == od::json_type::string) {
        if (auto error = json::StableString(value, true, arena, &worker->id)) return error;
        continue;
      }
      if (type != od::json_type::null) shape = "worker id must be a string";
      if (auto error = json::Skip(value, 2)) return error;
    } else if (key == "task" || key == "queue") {
      if (auto error = ReadRef(value, "worker " + std::string(key), true, arena, key == "task" ? &worker->task : &worker->queue,
                               &shape)) {
        return error;
      }
    } else if (key == "queues") {
      od::json_type type;
      if (auto error = value.type().get(type)) return error;
      if (type == od::json_type::array) {
        od::array array;
        if (auto error = value.get_array().get(array)) return error;
        for (auto element : array) {
          od::value item;
          if (auto error = element.get(item)) return error;
          Ref ref;
          if (auto error = ReadRef(item, "worker queues[]", true, arena, &ref, &shape)) return error;
          if (!shape.empty()) break;
          if (!ref.empty()) worker->queues.push_back(ref);
        }
      } else {
        if (type != od::json_type::null) shape = "worker queues must be a list of queues";
        if (auto error = json::Skip(value, 2)) return error;
      }
    } else if (auto error = json::Skip(value, 2)) {
      return error;
    }
    if (!shape.empty()) {
      *problem = {simdjson::SUCCESS, value_at,
                  (worker->id.empty() ? std::string() : "worker " + std::string(worker->id) + ": ") + shape};
      return simdjson::SUCCESS;
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace

WorkerList ReadWorkersText(std::string text, const std::string& file) {
  return ReadWorkersText(Pad(std::move(text)), file);
}

WorkerList ReadWorkersText(PaddedText text, const std::string& file) {
  WorkerList list;
  list.file = file;
  list.text_ = std::make_unique<PaddedText>(std::move(text));
  list.arena_ = std::make_unique<TextArena>();
  TextArena* arena = list.arena_.get();
  auto item = [&](od::object object, const char*) -> Problem {
    Worker worker;
    Problem problem;
    if (auto error = ReadWorker(object, arena, &worker, &problem)) return {error, nullptr, ""};
    if (problem) return problem;
    list.workers.push_back(std::move(worker));
    return {};
  };
  if (!ReadResponseList(*list.text_, file, "workers", item, &list.findings)) {
    list.unusable = true;
    return list;
  }
  list.by_task_ = NameMap<uint32_t>(list.workers.size());
  list.next_claim_.assign(list.workers.size(), WorkerList::kNone);
  std::vector<uint32_t> last(list.workers.size());  // per first claim: the latest one
  for (uint32_t i = 0; i < list.workers.size(); ++i) {
    const std::string_view task = list.workers[i].task.id;
    if (task.empty()) continue;
    if (const uint32_t* first = list.by_task_.find(task)) {
      list.next_claim_[last[*first]] = i;
      last[*first] = i;
    } else {
      list.by_task_.emplace(task, i);
      last[i] = i;
    }
  }
  return list;
}

WorkerList ReadWorkersFile(const std::string& path) {
  Finding failure;
  std::optional<FileText> text = ReadInputText(path, InputKind::kWorkers, &failure);
  if (!text) {
    WorkerList list;
    list.file = failure.file;
    list.unusable = true;
    list.findings.push_back(std::move(failure));
    return list;
  }
  return ReadWorkersText(Pad(std::move(*text)), DisplayName(path));
}

}  // namespace rescfg::clearml
