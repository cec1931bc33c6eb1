#include "jobs/job_fields.h"

#include <algorithm>
#include <cctype>

#include "jobs/job_outcome.h"
#include "util/edit_distance.h"

namespace rescfg {

JobField JobFieldOf(std::string_view key) {
  // By length first: one comparison for the fields every job has.
  switch (key.size()) {
    case 2: if (key == "id") return JobField::kId; break;
    case 4:
      if (key == "pool") return JobField::kPool;
      if (key == "node") return JobField::kNode;
      break;
    case 5:
      if (key == "queue") return JobField::kQueue;
      if (key == "state") return JobField::kState;
      break;
    case 6:
      if (key == "policy") return JobField::kPolicy;
      if (key == "params") return JobField::kParams;
      break;
    case 7:
      if (key == "profile") return JobField::kProfile;
      if (key == "started") return JobField::kStarted;
      break;
    case 8:
      if (key == "enqueued") return JobField::kEnqueued;
      if (key == "stopping") return JobField::kStopping;
      if (key == "duration") return JobField::kDuration;
      break;
    case 9:
      if (key == "resources") return JobField::kResources;
      if (key == "submitted") return JobField::kSubmitted;
      break;
    default: break;
  }
  return JobField::kOther;
}

TextRef* FieldSlot(JobEntry* e, JobField field) {
  switch (field) {
    case JobField::kId: return &e->id;
    case JobField::kPolicy: return &e->policy;
    case JobField::kProfile: return &e->profile;
    case JobField::kQueue: return &e->queue;
    case JobField::kState: return &e->state;
    case JobField::kPool: return &e->pool;
    case JobField::kNode: return &e->node;
    case JobField::kResources: return &e->resources;
    case JobField::kEnqueued: return &e->enqueued;
    case JobField::kStarted: return &e->started;
    case JobField::kStopping: return &e->stopping;
    case JobField::kSubmitted: return &e->submitted;
    case JobField::kDuration: return &e->duration;
    case JobField::kParams:
    case JobField::kOther: break;
  }
  return nullptr;
}

ScalarStyle* StyleSlot(JobEntry* e, JobField field) {
  if (field == JobField::kSubmitted) return &e->submitted_style;
  if (field == JobField::kDuration) return &e->duration_style;
  return nullptr;
}

std::string MistypedFieldMessage(std::string_view key, JobField field, std::string_view mapping) {
  std::string message = "field '" + std::string(key) + "' must be ";
  if (field == JobField::kResources) return message + "a number or a string";
  if (field == JobField::kStopping) return message + "true or false";
  if (field == JobField::kParams) return message + std::string(mapping);
  return message + "a string";
}

void AddProblem(JobEntry* e, std::string_view problem) {
  if (!e->invalid.empty()) e->invalid += "; ";
  e->invalid += problem;
}

EntryPlace PlaceOf(const JobEntry& e) {
  if (e.mark.line <= 0) return {};
  const bool column = e.invalid_at_column ? e.mark.column > 0 : e.clearml_task && e.mark.column > 1;
  return {static_cast<uint32_t>(e.mark.line), column ? static_cast<uint32_t>(e.mark.column) : 0};
}

std::string PlacedProblem(const JobEntry& e) {
  const EntryPlace place = PlaceOf(e);
  return PlaceText(place.line, place.column) + e.invalid;
}

std::string Excerpt(std::string_view text) {
  constexpr size_t kMax = 40;
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  bool cut = text.size() > kMax;
  if (cut) {
    size_t end = kMax;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text = text.substr(0, end);
  }
  std::string out(text);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  }
  return cut ? out + "..." : out;
}

void KeyTypos::Note(std::string_view key, int line) {
  const uint64_t seq = seq_++;
  auto seen = [&](Typo& t) {
    ++t.count;
    if (t.Earlier(line, seq)) t.line = line, t.seq = seq;
  };
  for (Recent& r : recent_) {
    if (r.key.size() == key.size() && r.key == key) {
      if (r.typo >= 0) seen(typos_[static_cast<size_t>(r.typo)]);
      return;
    }
  }
  static const std::vector<std::string> kFields = {"id",   "policy",   "profile",   "queue",   "state",
                                                   "pool", "resources", "enqueued", "params", "node"};
  Recent& slot = recent_[next_recent_++ % std::size(recent_)];
  slot.key.assign(key);
  slot.typo = -1;
  for (size_t i = 0; i < typos_.size(); ++i) {
    if (typos_[i].key == key) {
      slot.typo = static_cast<int>(i);
      seen(typos_[i]);
      return;
    }
  }
  if (key.size() > 16) return;
  std::string close = ClosestMatch(key, kFields);
  if (close.empty()) return;
  slot.typo = static_cast<int>(typos_.size());
  typos_.push_back({std::string(key), close, line, seq, 1});
}

void KeyTypos::Merge(const KeyTypos& other) {
  for (const Typo& t : other.typos_) {
    auto it = std::find_if(typos_.begin(), typos_.end(), [&](const Typo& mine) { return mine.key == t.key; });
    if (it == typos_.end()) {
      typos_.push_back(t);
      continue;
    }
    it->count += t.count;
    if (it->Earlier(t.line, t.seq)) it->line = t.line, it->seq = t.seq;  // one entry is one reader's
  }
}

void KeyTypos::AppendWarnings(const std::string& file, std::vector<Finding>* findings) const {
  std::vector<Typo> typos = typos_;
  std::stable_sort(typos.begin(), typos.end(), [](const Typo& a, const Typo& b) { return b.Earlier(a.line, a.seq); });
  for (const Typo& t : typos) {
    std::string message = "unknown key '" + Excerpt(t.key) + "' in a job is ignored";
    if (t.count > 1) message += " (in " + std::to_string(t.count) + " entries, the first here)";
    findings->push_back({"unknown-job-key", Severity::kWarning, file, {t.line, 1}, "",
                         message, "did you mean '" + t.field + "'?"});
  }
}

std::optional<std::string_view> FindDuplicateKey(const std::vector<std::string_view>& keys) {
  constexpr size_t kLinearLimit = 16;
  if (keys.size() <= kLinearLimit) {
    for (size_t i = 1; i < keys.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (keys[i] == keys[j]) return keys[i];
      }
    }
    return std::nullopt;
  }
  std::vector<std::string_view> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  auto it = std::adjacent_find(sorted.begin(), sorted.end());
  if (it == sorted.end()) return std::nullopt;
  return *it;
}

}  // namespace rescfg
