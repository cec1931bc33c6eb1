#include "clearml/task_parser.h"

#include <algorithm>
#include <utility>

#include "jobs/job_fields.h"
#include "jobs/json_quick_check.h"

namespace rescfg::clearml {

namespace {

/// The ID a task's text starts with: `{"id": "..."` (blanks allowed between
/// the tokens), an ID of at most 64 bytes and no escape (its text is then
/// the ID itself); empty otherwise.
std::string_view LeadingId(std::string_view text) {
  size_t i = 0;
  auto blanks = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  };
  auto next = [&](std::string_view token) {
    blanks();
    if (text.substr(i, token.size()) != token) return false;
    i += token.size();
    return true;
  };
  if (!next("{") || !next("\"id\"") || !next(":") || !next("\"")) return {};
  constexpr size_t kLongest = 64;
  const std::string_view rest = text.substr(i, kLongest + 1);
  const size_t end = rest.find('"');
  if (end == std::string_view::npos) return {};
  const std::string_view id = rest.substr(0, end);
  return id.find('\\') == std::string_view::npos ? id : std::string_view();
}

}  // namespace

void TaskParser::LookAhead(const std::string_view* texts, size_t count, ListingAhead* out) const {
  const QueueList* queues = lookups_.queues;
  constexpr size_t kBatch = 64;
  uint64_t hashes[kBatch];
  for (size_t from = 0; from < count; from += kBatch) {
    const size_t to = std::min(count, from + kBatch);
    // The IDs (the rest of each text asked for too, up to a point: it is
    // read next), then every slot asked for, then read: the misses overlap
    // (asked for as each ID is read, they wait on the texts' misses).
    for (size_t i = from; i < to; ++i) {
      out[i] = {};
      constexpr size_t kTextAhead = 1024;
      for (size_t at = 64; at < std::min(texts[i].size(), kTextAhead); at += 64) __builtin_prefetch(texts[i].data() + at);
      if (queues == nullptr) continue;
      out[i].id = LeadingId(texts[i]);
      if (!out[i].id.empty()) hashes[i - from] = HashText(out[i].id);
    }
    for (size_t i = from; i < to; ++i) {
      if (!out[i].id.empty()) queues->PrefetchListing(hashes[i - from]);
    }
    for (size_t i = from; i < to; ++i) {
      if (!out[i].id.empty()) out[i].listing = queues->ListingOf(out[i].id, hashes[i - from]);
    }
  }
}

error_code TaskParser::Field(TaskKey key, std::string_view name, od::value value, JobEntry* entry) {
  // What is not read is checked quickly (hyperparams, most often).
  if (key == TaskKey::kOther) return json::SkipQuick(value, text_end_, 1);
  if (key == TaskKey::kParamRoot) {
    // The task's hyperparams, configuration and runtime are the roots of
    // `params` (their items' `value` is read as a {value: ...} wrapper).
    const int node = query_.Child(ParamQuery::kParams, name);
    if (node < 0) return json::SkipQuick(value, text_end_, 1);
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
        // Its listing is looked up once the task is read: start loading it
        // (unless it was looked up ahead).
        if (!error && lookups_.queues && !(ahead_ != nullptr && *entry->id == ahead_->id)) {
          hashed_id_ = *entry->id;
          id_hash_ = HashText(hashed_id_);
          lookups_.queues->PrefetchListing(id_hash_);
        }
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
    case TaskKey::kStarted:
      // When its first run began (the server keeps the first start); another type says nothing.
      if (string) return String(value, &entry->started);
      break;
    case TaskKey::kStatusMessage:
      if (string) return json::StableString(value, true, arena_, &status_message_);
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
  return json::ForEachMember(value, [&](std::string_view key, od::value field_value) -> error_code {
    if (key != "queue") return json::SkipQuick(field_value, text_end_, 2);
    constexpr uint32_t kQueueBit = 1u << static_cast<unsigned>(TaskKey::kOther);
    if (seen_ & kQueueBit) AddProblem(entry, "duplicate key 'queue' in execution");
    seen_ |= kQueueBit;
    return ReadRef(field_value, "execution.queue", in_place_, arena_, &queue_, &queue_shape_);
  });
}

void TaskParser::Take(const TaskText& text, JobEntry* entry) {
  auto keep = [&](std::string_view s) { return in_place_ ? s : arena_->Keep(s); };
  if (auto id = text.Get(TaskText::kId)) {
    entry->id = keep(*id);
    if (lookups_.queues && !(ahead_ != nullptr && *entry->id == ahead_->id)) {
      hashed_id_ = *entry->id;
      id_hash_ = HashText(hashed_id_);
    }
  }
  if (auto name = text.Get(TaskText::kName)) entry->name = keep(*name);
  if (auto status = text.Get(TaskText::kStatus)) {
    status_seen_ = true;
    status_ = *status;  // compared before the next task is read
  }
  if (auto changed = text.Get(TaskText::kStatusChanged)) entry->enqueued = keep(*changed);
  if (auto started = text.Get(TaskText::kStarted)) entry->started = keep(*started);
  if (auto message = text.Get(TaskText::kStatusMessage)) status_message_ = *message;
  if (auto queue = text.Get(TaskText::kQueue)) queue_.id = keep(*queue);
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
  } else if (std::string disagree = Disagreement(queue_); !disagree.empty()) {
    AddProblem(entry, disagree);
  } else {
    entry->queue = queue_.name.empty() ? queue_.id : queue_.name;
    entry->queue_from_id = queue_.name.empty();
  }
  if (*entry->state == "running") {
    entry->enqueued.reset();  // ignored on a running job (rescfg(5), JOBS FILE)
    entry->enqueued_mistyped = false;
    // tasks.stop on a task with a live worker only sets this; the task runs on until the agent stops it.
    if (status_message_ == "stopping") entry->stopping = "true";
  } else {
    entry->started.reset();  // a queued task's run start is that of an earlier run
  }
  Link(entry);
}

std::string TaskParser::Disagreement(const Ref& ref) const {
  const QueueList* queues = lookups_.queues;
  if (queues == nullptr || ref.id.empty() || ref.name.empty()) return "";
  const Queue* by_id = queues->FindById(ref.id);
  const Queue* by_name = queues->FindByName(ref.name);
  if (by_id != nullptr && by_id->name != ref.name) {
    return "execution.queue {id: " + Excerpt(ref.id) + ", name: " + Excerpt(ref.name) + "} disagrees with the queues file (" +
           queues->file + "): queue " + Excerpt(ref.id) + " is named '" + Excerpt(by_id->name) + "'";
  }
  if (by_id == nullptr && by_name != nullptr) {
    return "execution.queue {id: " + Excerpt(ref.id) + ", name: " + Excerpt(ref.name) + "} disagrees with the queues file (" +
           queues->file + "): queue '" + Excerpt(ref.name) + "' has ID " + Excerpt(by_name->id);
  }
  return "";
}

void TaskParser::Link(JobEntry* e) const {
  const QueueList* queues = lookups_.queues;
  const WorkerList* workers = lookups_.workers;
  if (!e->queue) return;
  if (e->queue_from_id && queues) {
    if (const Queue* q = queues->FindById(*e->queue)) {
      const auto index = static_cast<size_t>(q - queues->queues.data());
      e->queue = lookups_.queue_names[index];
      e->queue_key = static_cast<uint32_t>(index + 1);
      e->queue_from_id = false;
    }
  }
  if (!e->id) return;
  if (lookups_.handovers != nullptr) {
    auto handed = lookups_.handovers->find(std::string(*e->id));
    if (handed != lookups_.handovers->end()) {
      e->handed_pool = arena_->Keep(handed->second.pool);
      e->handed_policy_queue = arena_->Keep(handed->second.policy_queue);
    }
  }
  if (*e->state == "queued" && queues) {
    // Queue order (rescfg(5), JOBS FILE, ClearML task snapshots): the place in that queue's `entries`, when
    // it lists the task; a listing in another queue says it was handed
    // over, or is in flight.
    const std::string_view id = *e->id;
    const bool hashed = id.data() == hashed_id_.data() && id.size() == hashed_id_.size();
    const bool ahead = ahead_ != nullptr && !ahead_->id.empty() && id == ahead_->id;
    if (auto listing = ahead ? ahead_->listing : queues->ListingOf(id, hashed ? id_hash_ : HashText(id))) {
      e->listed_in = lookups_.queue_names[listing->queue];
      if (e->listed_in == *e->queue) e->queue_rank = listing->position;
    }
  } else if (*e->state == "running" && workers) {
    if (const Worker* w = workers->RunningTask(*e->id)) {
      e->worker = lookups_.task_workers[static_cast<size_t>(w - workers->workers.data())];
      // Its machine (rescfg(5), JOBS FILE, ClearML task snapshots v3): the host part of the daemon's id, HOST:GPUS.
      if (e->worker->id) {
        const std::string_view id = *e->worker->id;
        if (size_t colon = id.find(':'); colon != std::string_view::npos && colon > 0) e->node = id.substr(0, colon);
      }
    }
  }
}

error_code TaskParser::Read(json::ParseSpan span, JobEntry* entry, const char** at, bool* not_object,
                            const ListingAhead* ahead) {
  in_place_ = span.in_place;
  text_end_ = span.text.data() + span.text.size();
  ahead_ = ahead;
  status_ = {};
  status_message_ = {};
  status_seen_ = status_mistyped_ = execution_mistyped_ = false;
  queue_ = {};
  queue_shape_.clear();
  seen_ = 0;
  hashed_id_ = {};
  capture_.Reset();
  if (text_first_) {
    // Most tasks: read off their text; the parser reads the others.
    TaskText text;
    if (ReadTaskText(span.text, query_, capture_, &text)) {
      Take(text, entry);
      Finish(entry);
      capture_.Collect(&entry->params, arena_);
      return simdjson::SUCCESS;
    }
    capture_.Reset();
  }
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
  if (not_object) {
    ResetEntry(entry);
    entry->invalid = "not a JSON object: " + Excerpt(line.text);
  } else if (error) {
    ResetEntry(entry);
    entry->invalid = json::SyntaxMessage(error);
    entry->mark.column = static_cast<int>(json::ErrorColumn(line.text, error, at));
    entry->invalid_at_column = true;
  }
}

}  // namespace rescfg::clearml
