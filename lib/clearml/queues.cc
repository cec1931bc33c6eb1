#include "clearml/queues.h"

#include <array>
#include <cstdint>
#include <thread>

#include "jobs/json_values.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"
#include "util/joined_thread.h"
#include "util/quote_search.h"

namespace rescfg::clearml {

using simdjson::error_code;

const Queue* QueueList::FindById(std::string_view id) const {
  const uint64_t hash = HashText(id);
  if (PackedId packed; !hex_slots_.empty() && PackHexId(id, &packed)) {
    // An ID of this form can only be one of the queues' IDs of this form.
    for (size_t i = (hash >> 32) & hex_mask_;; i = (i + 1) & hex_mask_) {
      const uint16_t number = hex_slots_[i];
      if (number == 0) return nullptr;
      if (hex_ids_[number - 1] == packed) return &queues[number - 1];
    }
  }
  const uint32_t* q = by_id_.Find(id, hash);
  return q == nullptr ? nullptr : &queues[*q];
}

const Queue* QueueList::FindByName(std::string_view name) const {
  const uint32_t* q = by_name_.find(name);
  return q == nullptr ? nullptr : &queues[*q];
}

std::optional<Listing> QueueList::ListingOf(std::string_view task, uint64_t hash) const {
  const Listing* l = by_task_[Part(hash)].Find(task, InPart(hash));
  if (l == nullptr) return std::nullopt;
  return *l;
}

void QueueList::IndexPart(size_t part) {
  if (indexed_ || part_indexed_[part]) return;
  part_indexed_[part] = true;
  size_t count = 0;
  for (const uint64_t hash : hashes_) count += Part(hash) == part;
  // Each table takes its own entries in queue order: an ID always falls in
  // the same one, so its first listing is the one kept.
  ListingMap map(count);
  // The slots land anywhere in a table far bigger than the caches: each is
  // asked for a few entries ahead, so that its cache miss overlaps others'.
  constexpr size_t kAhead = 16;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (i + kAhead < hashes_.size() && Part(hashes_[i + kAhead]) == part) map.Prefetch(InPart(hashes_[i + kAhead]));
    if (Part(hashes_[i]) == part) map.Add(entries_[i].first, InPart(hashes_[i]), entries_[i].second);
  }
  by_task_[part] = std::move(map);
}

void QueueList::IndexListings() {
  if (indexed_) return;
  constexpr size_t kThreadEntries = size_t(1) << 16;  // below this, a thread costs more than it saves
  if (!part_indexed_[0] && !part_indexed_[1] && entries_.size() >= kThreadEntries &&
      std::thread::hardware_concurrency() > 1) {
    JoinedThread second([&] { IndexPart(1); });
    IndexPart(0);
    second.Join();
  } else {
    IndexPart(0);
    IndexPart(1);
  }
  indexed_ = true;
  hashes_ = {};
}

namespace {

/// A string field of a queue: its text, or a problem when it is not a string.
error_code QueueString(od::value value, std::string_view key, TextArena* arena, std::string_view* out,
                       Problem* problem) {
  const char* at = value.raw_json_token().data();
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type != od::json_type::string) {
    *problem = {simdjson::SUCCESS, at, "queue " + std::string(key) + " must be a string"};
    return simdjson::SUCCESS;
  }
  std::string_view text;
  if (auto error = value.get_string().get(text)) return error;
  *out = arena->Keep(text);  // side by side: every task looks its queue up by ID
  return simdjson::SUCCESS;
}

/// The task ID of a queue entry at `p` written as ClearML writes them,
/// `{"task": "<ID>", "added": "<time>"}` without escapes, read off its text:
/// what the parser would find, at a fraction of the cost (a snapshot lists a
/// million). Empty when the entry is written any other way: the parser
/// reads it. Strings' UTF-8 and control characters are stage 1's to check.
std::string_view PlainEntryTask(const char* p, const char* end) {
  constexpr std::string_view kTask = "{\"task\": \"", kAdded = "\", \"added\": \"";
  auto follows = [&](const char* at, std::string_view what) {
    return std::string_view(at, static_cast<size_t>(end - at)).starts_with(what);
  };
  if (!follows(p, kTask)) return {};
  const char* id = p + kTask.size();
  const char* id_end = QuoteOrBackslash(id, end);
  if (id_end == id || !follows(id_end, kAdded)) return {};
  const char* added_end = QuoteOrBackslash(id_end + kAdded.size(), end);
  if (!follows(added_end, "\"}")) return {};
  return {id, static_cast<size_t>(id_end - id)};
}

/// The `entries` of queue `index`: `{task, added}` objects, in queue order.
error_code Entries(od::value value, uint32_t index, TextArena* arena, const char* text_end,
                   std::vector<std::pair<std::string_view, Listing>>* listings, Queue* queue, Problem* problem) {
  od::json_type type;
  if (auto error = value.type().get(type)) return error;
  if (type == od::json_type::null) return json::Skip(value, 2);
  od::array array;
  if (type != od::json_type::array || value.get_array().get(array)) {
    *problem = {simdjson::SUCCESS, value.raw_json_token().data(), "queue entries must be a list of {task, added}"};
    return simdjson::SUCCESS;
  }
  for (auto element : array) {
    od::value entry;
    if (auto error = element.get(entry)) return error;
    const char* at = entry.raw_json_token().data();
    if (const std::string_view id = PlainEntryTask(at, text_end); !id.empty()) {
      listings->push_back({id, {index, ++queue->entries}});  // left unread: the parser steps over it
      continue;
    }
    od::object object;
    if (entry.get_object().get(object)) {
      *problem = {simdjson::SUCCESS, at, "a queue entry must be an object {task, added}"};
      return simdjson::SUCCESS;
    }
    Ref task;
    for (auto member : object) {
      std::string_view key;
      od::value field_value;
      if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
      if (key != "task") {
        if (auto error = json::Skip(field_value, 4)) return error;
        continue;
      }
      std::string shape;
      if (auto error = ReadRef(field_value, "entries[].task", true, arena, &task, &shape)) return error;
      if (!shape.empty()) {
        *problem = {simdjson::SUCCESS, at, "queue entry: " + shape};
        return simdjson::SUCCESS;
      }
    }
    if (task.id.empty()) {
      *problem = {simdjson::SUCCESS, at, "a queue entry has no task ID"};
      return simdjson::SUCCESS;
    }
    listings->push_back({task.id, {index, ++queue->entries}});
  }
  return simdjson::SUCCESS;
}

}  // namespace

QueueList ReadQueuesText(std::string text, const std::string& file) {
  return ReadQueuesText(Pad(std::move(text)), file);
}

QueueList ReadQueuesText(PaddedText text, const std::string& file, bool index) {
  QueueList list;
  list.file = file;
  list.text_ = std::make_unique<PaddedText>(std::move(text));
  list.arena_ = std::make_unique<TextArena>();
  TextArena* arena = list.arena_.get();
  const char* text_end = list.text_->text.data() + list.text_->size;
  std::vector<std::pair<std::string_view, Listing>> listings;
  // Room for an entry every 64 bytes, about what {task, added} takes: the
  // list is not regrown (copied, in fresh pages) on the way.
  listings.reserve(list.text_->size / 64);
  std::vector<const char*> starts;
  auto item = [&](od::object object, const char* at) -> Problem {
    Queue queue;
    const auto index = static_cast<uint32_t>(list.queues.size());
    Problem problem;
    auto read = [&]() -> error_code {
      for (auto member : object) {
        std::string_view key;
        od::value field_value;
        if (auto error = json::ReadMember(std::move(member), &key, &field_value)) return error;
        error_code error = simdjson::SUCCESS;
        if (key == "id" || key == "name") {
          error = QueueString(field_value, key, arena, key == "id" ? &queue.id : &queue.name, &problem);
        } else if (key == "entries") {
          error = Entries(field_value, index, arena, text_end, &listings, &queue, &problem);
        } else {
          error = json::Skip(field_value, 2);
        }
        if (error || problem) return error;
      }
      return simdjson::SUCCESS;
    };
    if (auto error = read()) return {error, nullptr, ""};
    if (problem) return problem;
    if (queue.id.empty()) return {simdjson::SUCCESS, at, "a queue has no id"};
    if (queue.name.empty()) return {simdjson::SUCCESS, at, "queue " + std::string(queue.id) + " has no name"};
    list.queues.push_back(queue);
    starts.push_back(at);
    return {};
  };
  if (!ReadResponseList(*list.text_, file, "queues", item, &list.findings)) {
    list.unusable = true;
    return list;
  }
  list.by_id_ = TextKeyMap<uint32_t>(list.queues.size());
  for (uint32_t i = 0; i < list.queues.size(); ++i) {
    const Queue& q = list.queues[i];
    const uint64_t id_hash = HashText(q.id);
    const uint32_t* same_id = list.by_id_.Find(q.id, id_hash);
    const uint32_t* same_name = list.by_name_.find(q.name);
    if (same_id || same_name) {
      std::string message =
          same_id ? "queue ID " + std::string(q.id) + " is listed twice"
                  : "two queues are named '" + std::string(q.name) + "' (IDs " + std::string(list.queues[*same_name].id) +
                        " and " + std::string(q.id) + "); queue names are unique on a ClearML server";
      list.findings.push_back({"duplicate-queue", Severity::kError, file, json::MarkAt(list.text_->view(), starts[i]),
                               "", message, "fetch the queues again in one call"});
      list.unusable = true;
      return list;
    }
    list.by_id_.Add(q.id, id_hash, i);
    list.by_name_.emplace(q.name, i);
  }
  if (list.queues.size() < UINT16_MAX) {
    size_t slots = 16;
    while (slots < 2 * list.queues.size()) slots *= 2;
    list.hex_slots_.assign(slots, 0);
    list.hex_mask_ = slots - 1;
    list.hex_ids_.resize(list.queues.size());
    for (size_t i = 0; i < list.queues.size(); ++i) {
      if (!PackHexId(list.queues[i].id, &list.hex_ids_[i])) continue;
      size_t at = (HashText(list.queues[i].id) >> 32) & list.hex_mask_;
      while (list.hex_slots_[at] != 0) at = (at + 1) & list.hex_mask_;
      list.hex_slots_[at] = static_cast<uint16_t>(i + 1);
    }
  }
  list.hashes_.reserve(listings.size());
  for (const auto& entry : listings) list.hashes_.push_back(HashText(entry.first));
  list.entries_ = std::move(listings);
  if (index) list.IndexListings();
  return list;
}

QueueList ReadQueuesFile(const std::string& path, bool index) {
  Finding failure;
  std::optional<FileText> text = ReadInputText(path, InputKind::kQueues, &failure);
  if (!text) {
    QueueList list;
    list.file = failure.file;
    list.unusable = true;
    list.findings.push_back(std::move(failure));
    return list;
  }
  return ReadQueuesText(Pad(std::move(*text)), DisplayName(path), index);
}

}  // namespace rescfg::clearml
