#include "clearml/tasks.h"

#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <utility>

#include "clearml/json_scan.h"
#include "clearml/response.h"
#include "file_io.h"
#include "input_limits.h"
#include "jobs/job_fields.h"
#include "jobs/json_lines.h"
#include "jobs/resolve.h"
#include "joined_thread.h"
#include "prefault.h"
#include "jobs/json_values.h"

namespace rescfg::clearml {

namespace {

using simdjson::error_code;

/// What every task is looked up in: the companions, built once they are
/// read and only read while tasks are parsed (by two threads in large
/// files). Names entries keep are copied into the jobs' arena, which
/// outlives the companions.
struct Lookups {
  Lookups(const Companions& companions, LoadedJobs* out) : queues(companions.queues), workers(companions.workers) {
    TextArena& arena = JobsArena(out);
    if (queues) {
      for (const Queue& queue : queues->queues) queue_names.push_back(arena.Keep(queue.name));
    }
    if (workers) {
      for (const Worker& w : workers->workers) {
        TaskWorker& task_worker = out->text->workers.emplace_back();
        task_worker.id = arena.Keep(w.id);
        bool from_id = false;
        if (!w.queue.empty()) task_worker.queue = arena.Keep(QueueName(w.queue, &from_id));
        for (const Ref& ref : w.queues) task_worker.queues.push_back(arena.Keep(QueueName(ref, &from_id)));
        task_workers.push_back(&task_worker);
      }
    }
  }

  /// The queue a reference stands for (SPEC §3.1): its name; else the name
  /// of the queue with its ID; else the ID itself, taken as a name.
  std::string_view QueueName(const Ref& ref, bool* from_id) const {
    *from_id = false;
    if (!ref.name.empty()) return ref.name;
    if (queues) {
      if (const Queue* q = queues->FindById(ref.id)) return queue_names[static_cast<size_t>(q - queues->queues.data())];
    }
    *from_id = true;
    return ref.id;
  }

  const QueueList* queues;
  const WorkerList* workers;
  std::vector<std::string_view> queue_names;   ///< per queue of `queues`
  std::vector<const TaskWorker*> task_workers;  ///< per worker of `workers`
};

enum class TaskKey : uint8_t { kId, kName, kStatus, kStatusChanged, kExecution, kParamRoot, kOther };

TaskKey TaskKeyOf(std::string_view key) {
  switch (key.size()) {
    case 2: if (key == "id") return TaskKey::kId; break;
    case 4: if (key == "name") return TaskKey::kName; break;
    case 6: if (key == "status") return TaskKey::kStatus; break;
    case 7: if (key == "runtime") return TaskKey::kParamRoot; break;
    case 9: if (key == "execution") return TaskKey::kExecution; break;
    case 11: if (key == "hyperparams") return TaskKey::kParamRoot; break;
    case 13: if (key == "configuration") return TaskKey::kParamRoot; break;
    case 14: if (key == "status_changed") return TaskKey::kStatusChanged; break;
    default: break;
  }
  return TaskKey::kOther;
}

/// Reads task objects into entries; one per thread.
class TaskParser {
 public:
  TaskParser(const ParamQuery& query, const Lookups& lookups, TextArena* arena)
      : query_(query), lookups_(lookups), capture_(query), arena_(arena) {}

  /// Reads one task object into `entry`. A syntax error is returned (with
  /// `*at` where simdjson stopped, when known) and the entry is then to be
  /// reset; a value that is not an object sets `*not_object`.
  error_code Read(json::ParseSpan span, JobEntry* entry, const char** at, bool* not_object);
  /// JSON Lines: a malformed line is an invalid entry, as in a jobs file.
  void ReadLine(json::ParseSpan line, JobEntry* entry);

 private:
  error_code Field(TaskKey key, std::string_view name, od::value value, JobEntry* entry);
  error_code Execution(od::value value, JobEntry* entry);
  /// What a string field holds, viewed in place when possible.
  error_code String(od::value value, TextRef* out) {
    std::string_view text;
    if (auto error = json::StableString(value, in_place_, arena_, &text)) return error;
    *out = text;
    return simdjson::SUCCESS;
  }
  void Finish(JobEntry* entry);

  /// Links the task to the companions: its queue ID to a name, a queued
  /// task to its place in its queue's `entries`, a running one to its worker.
  void Link(JobEntry* entry) const;

  const ParamQuery& query_;
  const Lookups& lookups_;
  ParamCapture capture_;
  TextArena* arena_;
  od::parser parser_;
  bool in_place_ = false;
  // The task being read.
  std::string_view status_;
  bool status_seen_ = false, status_mistyped_ = false, execution_mistyped_ = false;
  Ref queue_;
  std::string queue_shape_;
  uint32_t seen_ = 0;  ///< TaskKey bits (and one for execution.queue), for keys given twice
};

error_code TaskParser::Field(TaskKey key, std::string_view name, od::value value, JobEntry* entry) {
  if (key == TaskKey::kOther) return json::Skip(value, 1);
  if (key == TaskKey::kParamRoot) {
    // The task's hyperparams, configuration and runtime are the roots of
    // `params` (their items' `value` is read as a {value: ...} wrapper).
    const int node = query_.Child(ParamQuery::kParams, name);
    if (node < 0) return json::Skip(value, 1);
    return json::ReadParam(value, query_, capture_, node, entry, 1);
  }
  const uint32_t bit = 1u << static_cast<unsigned>(key);
  if (seen_ & bit) AddProblem(entry, "duplicate key '" + std::string(name) + "'");
  seen_ |= bit;
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::null) return json::Skip(value, 1);  // null counts as absent
  const bool string = type == od::json_type::string;
  switch (key) {
    case TaskKey::kId:
      if (string) {
        auto error = String(value, &entry->id);
        // Its listing is looked up once the task is read: start loading it.
        if (!error && lookups_.queues) lookups_.queues->PrefetchListing(*entry->id);
        return error;
      }
      AddProblem(entry, "field 'id' must be a string");
      break;
    case TaskKey::kName:
      if (string) return String(value, &entry->name);
      break;  // informative only: another type is not carried
    case TaskKey::kStatus:
      status_seen_ = true;
      // Compared before the next task is read: a view of the parsed text will do.
      if (string) return json::StableString(value, true, arena_, &status_);
      status_mistyped_ = true;
      break;
    case TaskKey::kStatusChanged:
      if (string) return String(value, &entry->enqueued);
      entry->enqueued_mistyped = true;
      break;
    case TaskKey::kExecution:
      if (type == od::json_type::object) return Execution(value, entry);
      execution_mistyped_ = true;
      break;
    default: break;
  }
  return json::Skip(value, 1);
}

error_code TaskParser::Execution(od::value value, JobEntry* entry) {
  od::object object;
  if (auto error = value.get_object().get(object)) return error;
  for (auto member : object) {
    std::string_view key;
    od::value field_value;
    if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
    if (key != "queue") {
      if (auto error = json::Skip(field_value, 2)) return error;
      continue;
    }
    constexpr uint32_t kQueueBit = 1u << static_cast<unsigned>(TaskKey::kOther);
    if (seen_ & kQueueBit) AddProblem(entry, "duplicate key 'queue' in execution");
    seen_ |= kQueueBit;
    if (auto error = ReadRef(field_value, "execution.queue", in_place_, arena_, &queue_, &queue_shape_)) return error;
  }
  return simdjson::SUCCESS;
}

void TaskParser::Finish(JobEntry* entry) {
  entry->clearml_task = true;
  if (status_mistyped_) {
    AddProblem(entry, "field 'status' must be a string");
  } else if (!status_seen_) {
    AddProblem(entry, "the task has no status; only queued and in_progress tasks are scheduled");
  } else if (status_ == "queued") {
    entry->state = "queued";
  } else if (status_ == "in_progress") {
    entry->state = "running";
  } else {
    AddProblem(entry, "task status '" + Excerpt(status_) + "' is neither queued nor in_progress");
  }
  if (!entry->state) return;
  if (execution_mistyped_) {
    AddProblem(entry, "field 'execution' must be an object");
  } else if (!queue_shape_.empty()) {
    AddProblem(entry, queue_shape_);
  } else if (queue_.empty()) {
    AddProblem(entry, "the task has no execution queue (execution.queue)");
  } else {
    entry->queue = queue_.name.empty() ? queue_.id : queue_.name;
    entry->queue_from_id = queue_.name.empty();
  }
  if (*entry->state == "running") {
    entry->enqueued.reset();  // ignored on a running job (SPEC §3)
    entry->enqueued_mistyped = false;
  }
  Link(entry);
}

void TaskParser::Link(JobEntry* e) const {
  const QueueList* queues = lookups_.queues;
  const WorkerList* workers = lookups_.workers;
  if (!e->queue) return;
  if (e->queue_from_id && queues) {
    if (const Queue* q = queues->FindById(*e->queue)) {
      e->queue = lookups_.queue_names[static_cast<size_t>(q - queues->queues.data())];
      e->queue_from_id = false;
    }
  }
  if (!e->id) return;
  if (*e->state == "queued" && queues) {
    // Queue order (SPEC §3.1): the place in that queue's `entries`, when it lists the task.
    if (auto listing = queues->ListingOf(*e->id); listing && lookups_.queue_names[listing->queue] == *e->queue) {
      e->queue_rank = listing->position;
    }
  } else if (*e->state == "running" && workers) {
    if (const Worker* w = workers->RunningTask(*e->id)) {
      e->worker = lookups_.task_workers[static_cast<size_t>(w - workers->workers.data())];
    }
  }
}

error_code TaskParser::Read(json::ParseSpan span, JobEntry* entry, const char** at, bool* not_object) {
  in_place_ = span.in_place;
  status_ = {};
  status_seen_ = status_mistyped_ = execution_mistyped_ = false;
  queue_ = {};
  queue_shape_.clear();
  seen_ = 0;
  capture_.Reset();
  od::document doc;
  bool iterated = false;
  auto read = [&]() -> error_code {
    if (auto error = parser_.iterate(span.text.data(), span.text.size(), span.capacity).get(doc)) return error;
    iterated = true;
    od::json_type type;
    if (auto error = doc.type().get(type)) return error;
    if (type != od::json_type::object) {
      *not_object = true;
      return simdjson::SUCCESS;
    }
    od::object object;
    if (auto error = doc.get_object().get(object)) return error;
    for (auto member : object) {
      std::string_view key;
      od::value field_value;
      if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
      if (auto error = Field(TaskKeyOf(key), key, field_value, entry)) return error;
    }
    // After the object only whitespace may follow.
    return doc.current_location().error() ? simdjson::SUCCESS : simdjson::TRAILING_CONTENT;
  };
  error_code error;
  try {  // results are checked before use, so this is only a safety net
    error = read();
  } catch (const simdjson::simdjson_error& e) {
    error = e.error();
  }
  if (error) {
    if (iterated) {
      if (auto location = doc.current_location(); !location.error()) *at = location.value_unsafe();
    }
    return error;
  }
  if (*not_object) return simdjson::SUCCESS;
  Finish(entry);
  capture_.Collect(&entry->params, arena_);
  return simdjson::SUCCESS;
}

/// An entry that keeps only its number and place (a task that could not be read).
void ResetEntry(JobEntry* entry) {
  JobEntry fresh;
  fresh.entry = entry->entry;
  fresh.mark = entry->mark;
  fresh.clearml_task = true;
  *entry = std::move(fresh);
}

void TaskParser::ReadLine(json::ParseSpan line, JobEntry* entry) {
  const char* at = nullptr;
  bool not_object = false;
  error_code error = Read(line, entry, &at, &not_object);
  const std::string prefix = error || not_object ? "line " + std::to_string(entry->mark.line) + ": " : "";
  if (not_object) {
    ResetEntry(entry);
    entry->invalid = prefix + "not a JSON object: " + Excerpt(line.text);
  } else if (error) {
    ResetEntry(entry);
    entry->invalid = prefix + json::SyntaxMessage(error);
  }
}

/// One task of a document: its text and where it starts.
struct TaskSpan {
  std::string_view text;
  Mark mark;
};

/// The two document forms: a response (`data.tasks`) or an array. The
/// scanner finds each task's extent; simdjson parses the tasks one by one
/// and, standing alone, every other value of the document, so that all of
/// it is checked.
class DocumentReader {
 public:
  /// With `resolve_against`, the tasks are resolved as they are parsed.
  DocumentReader(std::string_view text, const ParamQuery& query, const CompanionsReady& ready, LoadedJobs* out,
                 const Config* resolve_against)
      : text_(text), scan_(text), query_(query), ready_(ready), out_(out), resolve_against_(resolve_against) {}

  /// False when the document is unusable (the finding is in `out`).
  bool Read();
  /// Whether resolving as it parsed found a repeated id (ResolutionAsRead).
  bool repeated() const { return repeated_; }

 private:
  bool Response();
  bool Data();
  bool Tasks();
  bool ParseTasks();
  /// Parses a value that is not a task on its own; `meta` also tells
  /// whether the response is an error.
  bool CheckValue(std::string_view value, Mark mark, std::string* error_response);
  bool ReadKey(std::string* key);
  /// Where simdjson stopped inside a value that starts at `mark`.
  Mark Within(std::string_view value, Mark mark, const char* at) const;
  bool Fail(const char* code, Mark mark, std::string message) {
    out_->findings.push_back({code, Severity::kError, out_->file, mark, "", std::move(message), ""});
    return false;
  }
  bool SyntaxError(std::string message) { return Fail("json-syntax", scan_.Here(), "not valid JSON: " + message); }

  std::string_view text_;
  JsonScanner scan_;
  const ParamQuery& query_;
  const CompanionsReady& ready_;
  LoadedJobs* out_;
  const Config* resolve_against_;
  bool repeated_ = false;
  std::vector<TaskSpan> spans_;
  od::parser parser_;  ///< for the values that are not tasks
  std::string copy_;
};

Mark DocumentReader::Within(std::string_view value, Mark mark, const char* at) const {
  if (at == nullptr || at < value.data() || at > value.data() + value.size()) return mark;
  Mark inner = json::MarkAt(value, at);
  return inner.line == 1 ? Mark{mark.line, mark.column + inner.column - 1} : Mark{mark.line + inner.line - 1, inner.column};
}

bool DocumentReader::CheckValue(std::string_view value, Mark mark, std::string* error_response) {
  json::ParseSpan span = json::PaddedSpan(value, text_.data() + text_.size(), &copy_);
  od::document doc;
  error_code error = parser_.iterate(span.text.data(), span.text.size(), span.capacity).get(doc);
  if (!error) error = json::SkipDocument(doc);
  if (!error && error_response) {
    od::object meta;
    if (!parser_.iterate(span.text.data(), span.text.size(), span.capacity).get(doc) && !doc.get_object().get(meta)) {
      error = ErrorResponse(meta, error_response);
    }
  }
  if (!error) return true;
  return Fail("json-syntax", mark, json::SyntaxMessage(error));
}

bool DocumentReader::ReadKey(std::string* key) {
  std::string_view raw;
  const Mark mark = scan_.Here();
  if (!scan_.ReadString(&raw)) return SyntaxError("expected a key in quotes");
  json::ParseSpan span = json::PaddedSpan(raw, text_.data() + text_.size(), &copy_);
  od::document doc;
  std::string_view text;
  error_code error = parser_.iterate(span.text.data(), span.text.size(), span.capacity).get(doc);
  if (!error) error = doc.get_string().get(text);
  if (error) return Fail("json-syntax", mark, json::SyntaxMessage(error));
  key->assign(text);
  scan_.SkipSpace();
  if (!scan_.Consume(':')) return SyntaxError("expected ':' after the key");
  scan_.SkipSpace();
  return true;
}

bool DocumentReader::Tasks() {
  scan_.Advance();  // '['
  scan_.SkipSpace();
  if (scan_.Consume(']')) return true;
  for (;;) {
    scan_.SkipSpace();
    const Mark mark = scan_.Here();
    std::string_view value;
    if (!scan_.SkipValue(&value)) return SyntaxError(scan_.error());
    spans_.push_back({value, mark});
    scan_.SkipSpace();
    if (scan_.Consume(']')) return true;
    if (!scan_.Consume(',')) return SyntaxError("expected ',' or ']' after a task");
  }
}

bool DocumentReader::Data() {
  if (scan_.Peek() != '{') return Fail("bad-shape", scan_.Here(), "data must be an object");
  scan_.Advance();
  bool tasks = false;
  for (bool first = true;; first = false) {
    scan_.SkipSpace();
    if (first && scan_.Consume('}')) break;
    std::string key;
    if (!ReadKey(&key)) return false;
    if (key == "tasks" && !tasks) {
      tasks = true;
      if (scan_.Peek() != '[') return Fail("bad-shape", scan_.Here(), "data.tasks must be a list of tasks");
      if (!Tasks()) return false;
    } else {
      const Mark mark = scan_.Here();
      std::string_view value;
      if (!scan_.SkipValue(&value)) return SyntaxError(scan_.error());
      if (!CheckValue(value, mark, nullptr)) return false;
    }
    scan_.SkipSpace();
    if (scan_.Consume('}')) break;
    if (!scan_.Consume(',')) return SyntaxError("expected ',' or '}'");
  }
  if (!tasks) return Fail("bad-shape", scan_.Here(), "not a tasks.get_all response: it has no data.tasks list");
  return true;
}

bool DocumentReader::Response() {
  scan_.Advance();  // '{'
  bool data = false;
  std::string error_response;
  for (bool first = true;; first = false) {
    scan_.SkipSpace();
    if (first && scan_.Consume('}')) break;
    std::string key;
    if (!ReadKey(&key)) return false;
    if (key == "data" && !data) {
      data = true;
      if (!Data()) return false;
    } else {
      const Mark mark = scan_.Here();
      std::string_view value;
      if (!scan_.SkipValue(&value)) return SyntaxError(scan_.error());
      const bool meta = key == "meta" && value.substr(0, 1) == "{";
      if (!CheckValue(value, mark, meta ? &error_response : nullptr)) return false;
      if (!error_response.empty()) return Fail("error-response", mark, error_response);
    }
    scan_.SkipSpace();
    if (scan_.Consume('}')) break;
    if (!scan_.Consume(',')) return SyntaxError("expected ',' or '}'");
  }
  if (!data) return Fail("bad-shape", {1, 1}, "not a tasks.get_all response: it has no data.tasks list");
  return true;
}

bool DocumentReader::Read() {
  scan_.SkipSpace();
  const bool array = scan_.Peek() == '[';
  if (!(array ? Tasks() : Response())) return false;
  scan_.SkipSpace();
  if (!scan_.AtEnd()) return SyntaxError(array ? "text after the array of tasks" : "text after the response");
  return ParseTasks();
}

bool DocumentReader::ParseTasks() {
  struct Failure {
    size_t task = SIZE_MAX;
    error_code error = simdjson::SUCCESS;
    const char* at = nullptr;
  };
  const char* limit = text_.data() + text_.size();
  const size_t base = out_->entries.size();
  // Fills slots[0, to - from) from tasks [from, to); returns how many.
  auto parse = [&](size_t from, size_t to, TaskParser& parser, JobEntry* slots, size_t first_number,
                   Failure* failure) -> size_t {
    std::string copy;
    for (size_t i = from; i < to; ++i) {
      JobEntry& entry = slots[i - from];
      entry.entry = first_number + (i - from) + 1;
      entry.mark = spans_[i].mark;
      bool not_object = false;
      const char* at = nullptr;
      const error_code error = parser.Read(json::PaddedSpan(spans_[i].text, limit, &copy), &entry, &at, &not_object);
      if (error) {
        *failure = {i, error, at};
        return i - from + 1;
      }
      if (not_object) {
        ResetEntry(&entry);
        entry.invalid = "not a task object: " + Excerpt(spans_[i].text);
      }
    }
    return to - from;
  };
  Failure first, second;
  const Lookups lookups(ready_(), out_);  // the companions were read meanwhile
  TaskParser parser(query_, lookups, &JobsArena(out_));
  const bool split = text_.size() >= json::kParallelBytes && spans_.size() >= 2 && std::thread::hardware_concurrency() > 1;
  const size_t half = split ? spans_.size() / 2 : spans_.size();
  if (resolve_against_ != nullptr) {
    // Each half a batch at a time, resolved at once (ResolutionAsRead).
    ResolutionAsRead resolution(*resolve_against_, spans_.size(), half);
    auto read = [&](size_t which, size_t from, size_t to, TaskParser& reader, Failure* failure) {
      std::vector<JobEntry> batch(json::kBatchEntries);
      for (size_t at = from; at < to && failure->task == SIZE_MAX; at += batch.size()) {
        const size_t end = std::min(to, at + batch.size());
        for (size_t k = 0; k < end - at; ++k) batch[k] = JobEntry();
        resolution.Resolve(which, batch.data(), parse(at, end, reader, batch.data(), at, failure));
      }
    };
    TextArena second_arena;
    {
      JoinedThread worker([&] {
        if (!split) return;
        TaskParser second_parser(query_, lookups, &second_arena);
        read(1, half, spans_.size(), second_parser, &second);
      });
      read(0, 0, half, parser, &first);
      worker.Join();
    }
    JobsArena(out_).Absorb(std::move(second_arena));
    if (first.task == SIZE_MAX && second.task == SIZE_MAX) {
      if (auto resolved = std::move(resolution).Finish()) {
        out_->resolved = std::make_shared<ResolvedJobs>(std::move(*resolved));
      } else {
        repeated_ = true;
      }
    }
  } else if (split) {
    json::InTwoHalves(
        out_, half, spans_.size() - half, [&](JobEntry* slots) { return parse(0, half, parser, slots, base, &first); },
        [&](TextArena* arena, JobEntry* slots, size_t first_number) {
          TaskParser second_parser(query_, lookups, arena);
          return parse(half, spans_.size(), second_parser, slots, first_number, &second);
        });
  } else {
    ResizePrefaulted(&out_->entries, base + spans_.size());
    parse(0, spans_.size(), parser, out_->entries.data() + base, base, &first);
  }
  const Failure& failure = first.task != SIZE_MAX ? first : second;
  if (failure.task == SIZE_MAX) return true;
  const TaskSpan& span = spans_[failure.task];
  return Fail("json-syntax", Within(span.text, span.mark, failure.at),
              json::SyntaxMessage(failure.error) + " (in task " + std::to_string(failure.task + 1) + ")");
}

/// Whether the first object's first key says it is an API response.
bool LooksLikeResponse(std::string_view text) {
  JsonScanner scan(text);
  scan.SkipSpace();
  scan.Advance();  // '{'
  scan.SkipSpace();
  std::string_view raw;
  if (!scan.ReadString(&raw)) return false;
  return raw == "\"meta\"" || raw == "\"data\"";
}

}  // namespace

void ReadClearmlTasks(std::string_view text, const ParamQuery& query, const Companions& companions, LoadedJobs* out) {
  ReadClearmlTasks(text, query, [&] { return companions; }, out, nullptr);
}

void ReadClearmlTasks(std::string_view text, const ParamQuery& query, const CompanionsReady& ready, LoadedJobs* out,
                      const Config* resolve_against) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  const size_t entries_before = out->entries.size();
  const size_t findings_before = out->findings.size();
  JsonScanner scan(text);
  scan.SkipSpace();
  if (scan.AtEnd()) return;  // no tasks
  const char first = scan.Peek();
  bool repeated = false;  // resolving while reading met a repeated id
  if (first == '[' || (first == '{' && LooksLikeResponse(text))) {
    DocumentReader reader(text, query, ready, out, resolve_against);
    if (!reader.Read()) {
      out->entries.resize(entries_before);
      out->resolved.reset();
      out->unusable = true;
      return;
    }
    repeated = reader.repeated();
  } else if (first == '{') {
    const Lookups lookups(ready(), out);
    auto make_reader = [&](TextArena* arena) { return TaskParser(query, lookups, arena); };
    if (resolve_against == nullptr) {
      json::ReadEntryLines(text, out, make_reader);
    } else {
      std::optional<ResolutionAsRead> resolution;
      json::ReadAndResolveEntryLines(
          text, out, make_reader, [](auto&, auto*) {},
          [&](size_t room, size_t second_from) { resolution.emplace(*resolve_against, room, second_from); },
          [&](size_t half, const JobEntry* entries, size_t count) { resolution->Resolve(half, entries, count); });
      if (auto resolved = std::move(*resolution).Finish()) {
        out->resolved = std::make_shared<ResolvedJobs>(std::move(*resolved));
      } else {
        repeated = true;
      }
    }
  } else {
    out->unusable = true;
    out->findings.push_back({"bad-shape", Severity::kError, out->file, scan.Here(), "",
                             "not a ClearML task snapshot: expected a tasks.get_all response, a JSON array of tasks "
                             "or JSON Lines of tasks, found '" +
                                 Excerpt(text.substr(static_cast<size_t>(scan.position() - text.data()), 40)) + "'",
                             ""});
    return;
  }
  if (repeated) {  // read again, entries kept this time
    out->findings.resize(findings_before);
    ReadClearmlTasks(text, query, ready, out, nullptr);
  }
}

LoadedJobs LoadClearmlTasksText(std::string text, const std::string& file, const CompanionsReady& ready,
                                const std::vector<std::string>& param_paths, const Config* resolve_against) {
  LoadedJobs result;
  result.file = file;
  result.text = std::make_shared<JobsText>();
  result.text->source = std::move(text);
  const ParamQuery query(param_paths);
  ReadClearmlTasks(result.text->source, query, ready, &result, resolve_against);
  return result;
}

LoadedJobs LoadClearmlTasksText(std::string text, const std::string& file, const Companions& companions,
                                const std::vector<std::string>& param_paths) {
  return LoadClearmlTasksText(std::move(text), file, [&] { return companions; }, param_paths, nullptr);
}

LoadedJobs LoadClearmlTasksFile(const std::string& path, const CompanionsReady& ready,
                                const std::vector<std::string>& param_paths, const Config* resolve_against) {
  std::string error;
  std::optional<std::string> text = ReadWholeFile(path, &error, CurrentLimits().jobs_bytes);
  LoadedJobs result;
  if (!text) {
    result.file = DisplayName(path);
    result.unusable = true;
    result.findings.push_back({"unreadable", Severity::kError, result.file, {}, "", error, ""});
    return result;
  }
  result = LoadClearmlTasksText(std::move(*text), DisplayName(path), ready, param_paths, resolve_against);
  const size_t tasks = result.resolved ? result.resolved->outcomes.size() : result.entries.size();
  if (tasks > CurrentLimits().jobs_entries) {
    result.unusable = true;
    result.findings.push_back({"too-many-jobs", Severity::kError, result.file, {}, "",
                               "the file has " + std::to_string(tasks) +
                                   " tasks, more than the limit of " + std::to_string(CurrentLimits().jobs_entries),
                               "split the snapshot, or raise RESCFG_MAX_JOBS"});
  }
  return result;
}

}  // namespace rescfg::clearml
