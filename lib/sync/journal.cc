#include "sync/journal.h"

#include <simdjson.h>

#include <fcntl.h>

#include "util/atomic_file.h"
#include "util/digest.h"
#include "util/flat_record.h"
#include "util/state_file.h"

namespace rescfg::sync {
namespace {

constexpr std::string_view kHeader = "rescfg-sync-journal 1\n";
constexpr size_t kSumDigits = 16;

void Field(std::string* out, std::string_view key, std::string_view value) {
  out->append(", ");
  AppendJsonString(out, key);
  out->append(": ");
  AppendJsonString(out, value);
}

std::string IntentJson(const MoveIntent& m, std::string_view op = "intent") {
  std::string json = "{\"op\": \"" + std::string(op) + "\", \"seq\": " + std::to_string(m.seq) + ", \"cycle\": " + std::to_string(m.cycle);
  for (auto [key, value] : {std::pair<std::string_view, const std::string&>{"task", m.task}, {"name", m.name},
                            {"policy", m.policy}, {"profile", m.profile}, {"pool", m.pool}, {"from", m.from},
                            {"from_id", m.from_id}, {"to", m.to}, {"to_id", m.to_id}}) {
    Field(&json, key, value);
  }
  if (!m.changed.empty()) Field(&json, "changed", m.changed);
  // Moves keep the first format (no kind): a journal of moves reads as before.
  if (m.kind != ActionKind::kMove) {
    Field(&json, "kind", ActionKindName(m.kind));
    Field(&json, "preemptor", m.preemptor);
    Field(&json, "reason", m.reason);
    json += ", \"asked\": " + std::to_string(m.asked_us);
  }
  return json + "}";
}

/// The kind a record names; false for a name no kind has.
bool KindOf(std::string_view name, ActionKind* kind) {
  for (ActionKind k : {ActionKind::kMove, ActionKind::kStop, ActionKind::kRequeue}) {
    if (name == ActionKindName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

std::string HandoverJson(const HandoverRecord& h) {
  std::string json = "{\"op\": \"handover\"";
  for (auto [key, value] : {std::pair<std::string_view, const std::string&>{"task", h.task}, {"pool", h.pool},
                            {"policy", h.policy}, {"profile", h.profile}, {"from", h.from}, {"from_id", h.from_id},
                            {"to", h.to}, {"to_id", h.to_id}}) {
    Field(&json, key, value);
  }
  return json + "}";
}

HandoverRecord HandoverOf(const MoveIntent& m) {
  return {m.task, m.pool, m.policy, m.profile, m.from, m.from_id, m.to, m.to_id};
}

/// Reads the string fields of `object` into `fields` (by key); false when one is missing or not a string.
bool Strings(simdjson::dom::object object, std::initializer_list<std::pair<const char*, std::string*>> fields) {
  for (const auto& [key, target] : fields) {
    std::string_view value;
    if (object[key].get(value) != simdjson::SUCCESS) return false;
    *target = std::string(value);
  }
  return true;
}

}  // namespace

std::string Journal::Line(const std::string& json) {
  return Sha256Hex(json).substr(0, kSumDigits) + " " + json + "\n";
}

std::optional<Journal> Journal::Open(const std::string& path, std::string* error) {
  return Load(path, true, error);
}

std::optional<Journal> Journal::Read(const std::string& path, std::string* error) {
  return Load(path, false, error);
}

std::optional<Journal> Journal::Load(const std::string& path, bool repair, std::string* error) {
  Journal journal(path);
  journal.read_only_ = !repair;
  bool missing = false;
  std::string read_error;
  auto text = ReadStateFile(path, &read_error, &missing);
  if (!text) {
    if (missing) return journal;
    *error = read_error;
    return std::nullopt;
  }
  std::string_view rest = *text;
  size_t intact = 0;  // bytes up to the end of the last complete line
  if (rest.starts_with(kHeader)) {
    journal.has_header_ = true;
    intact = kHeader.size();
    rest.remove_prefix(kHeader.size());
  } else if (!kHeader.starts_with(rest)) {
    *error = path + ":1: not a rescfg sync journal (the first line must be '" +
             std::string(kHeader.substr(0, kHeader.size() - 1)) + "')";
    return std::nullopt;
  } else {
    rest = {};  // empty, or its first line cut short: a crash right after its creation
  }
  for (size_t line = 2; !rest.empty(); ++line) {
    const size_t end = rest.find('\n');
    if (end == std::string_view::npos) break;  // torn by a crash while appending: never acted on
    std::string_view record = rest.substr(0, end);
    rest.remove_prefix(end + 1);
    const std::string where = path + ":" + std::to_string(line) + ": ";
    if (record.size() < kSumDigits + 2 || record[kSumDigits] != ' ') {
      *error = where + "damaged record (no checksum); the journal is left as it is for inspection";
      return std::nullopt;
    }
    const std::string json(record.substr(kSumDigits + 1));
    if (Sha256Hex(json).substr(0, kSumDigits) != record.substr(0, kSumDigits)) {
      *error = where + "damaged record (its checksum does not match); the journal is left as it is for inspection";
      return std::nullopt;
    }
    std::string why;
    if (!journal.Apply(json, &why)) {
      *error = where + why;
      return std::nullopt;
    }
    intact += end + 1;
  }
  if (intact < text->size() && repair) {
    // Appends go to the end of the file: the fragment has to go first.
    if (!TruncateDurably(path, intact, error)) return std::nullopt;
    journal.warning_ = path + ": its last " + std::to_string(text->size() - intact) +
                       " bytes, a line cut short by a crash while appending, were truncated away (what they said "
                       "was not yet acted on)";
  }
  return journal;
}

bool Journal::Apply(const std::string& json, std::string* error) {
  simdjson::dom::parser parser;
  simdjson::dom::object object;
  std::string_view op;
  if (parser.parse(json).get(object) != simdjson::SUCCESS || object["op"].get(op) != simdjson::SUCCESS) {
    *error = "a record that is not a JSON object with an \"op\"";
    return false;
  }
  uint64_t seq = 0;
  if (op == "intent" || op == "stop") {
    MoveIntent m;
    int64_t cycle = 0;
    if (object["seq"].get(seq) != simdjson::SUCCESS || object["cycle"].get(cycle) != simdjson::SUCCESS ||
        !Strings(object, {{"task", &m.task}, {"name", &m.name}, {"policy", &m.policy}, {"profile", &m.profile},
                          {"pool", &m.pool}, {"from", &m.from}, {"from_id", &m.from_id}, {"to", &m.to},
                          {"to_id", &m.to_id}})) {
      *error = "an intent record without its fields";
      return false;
    }
    std::string_view changed;  // optional: written since rescfg tells an enqueue from the server
    if (object["changed"].get(changed) == simdjson::SUCCESS) m.changed = std::string(changed);
    std::string_view kind;  // optional: moves were written without one
    if (object["kind"].get(kind) == simdjson::SUCCESS) {
      if (!KindOf(kind, &m.kind) ||
          !Strings(object, {{"preemptor", &m.preemptor}, {"reason", &m.reason}}) ||
          object["asked"].get(m.asked_us) != simdjson::SUCCESS) {
        *error = "an intent record of an unknown kind or without its fields";
        return false;
      }
    }
    if (op == "stop") {  // a victim stopped and not yet re-queued (written by Compact)
      m.seq = seq;
      m.cycle = cycle;
      stops_[m.task] = std::move(m);
      return true;
    }
    m.seq = seq;
    m.cycle = cycle;
    next_seq_ = std::max(next_seq_, seq + 1);
    unfinished_[seq] = std::move(m);
    return true;
  }
  if (op == "done") {
    std::string_view result;
    if (object["seq"].get(seq) != simdjson::SUCCESS || object["result"].get(result) != simdjson::SUCCESS) {
      *error = "a result record without its fields";
      return false;
    }
    auto it = unfinished_.find(seq);
    if (it == unfinished_.end()) {
      *error = "a result for move " + std::to_string(seq) + ", which no earlier intent announced";
      return false;
    }
    if (result == "moved") handovers_[it->second.task] = HandoverOf(it->second);
    if (it->second.kind == ActionKind::kStop && result == "stopped") stops_[it->second.task] = it->second;
    unfinished_.erase(it);
    return true;
  }
  if (op == "stop-released") {
    std::string task;
    if (!Strings(object, {{"task", &task}})) {
      *error = "a stop release record without its task";
      return false;
    }
    stops_.erase(task);
    return true;
  }
  if (op == "handover") {
    HandoverRecord h;
    if (!Strings(object, {{"task", &h.task}, {"pool", &h.pool}, {"policy", &h.policy}, {"profile", &h.profile},
                          {"from", &h.from}, {"from_id", &h.from_id}, {"to", &h.to}, {"to_id", &h.to_id}})) {
      *error = "a hand-over record without its fields";
      return false;
    }
    handovers_[h.task] = std::move(h);
    return true;
  }
  if (op == "released") {
    std::string task;
    if (!Strings(object, {{"task", &task}})) {
      *error = "a release record without its task";
      return false;
    }
    handovers_.erase(task);
    return true;
  }
  if (op == "seq") {
    if (object["next"].get(seq) != simdjson::SUCCESS) {
      *error = "a sequence record without its number";
      return false;
    }
    next_seq_ = std::max(next_seq_, seq);
    return true;
  }
  *error = "unknown record \"" + std::string(op) + "\" (written by a newer rescfg?)";
  return false;
}

clearml::Handovers Journal::AsHandovers() const {
  clearml::Handovers out;
  for (const auto& [task, h] : handovers_) out[task] = clearml::Handover{h.pool, h.from};
  for (const auto& [seq, m] : unfinished_) {
    if (m.kind == ActionKind::kMove) out.emplace(m.task, clearml::Handover{m.pool, m.from});
  }
  return out;
}

bool Journal::Writable(std::string* error) const {
  if (!read_only_) return true;
  *error = path_ + ": the journal was opened to be read only";
  return false;
}

bool Journal::Begin(std::vector<MoveIntent>* intents, std::string* error) {
  if (intents->empty()) return true;
  if (!Writable(error)) return false;
  std::string lines = has_header_ ? "" : std::string(kHeader);
  for (MoveIntent& m : *intents) {
    m.seq = next_seq_++;
    lines += Line(IntentJson(m));
  }
  if (!AppendDurably(path_, lines, error)) return false;
  has_header_ = true;
  for (const MoveIntent& m : *intents) unfinished_[m.seq] = m;
  return true;
}

void Journal::Finish(uint64_t seq, const std::string& result, bool moved) {
  auto it = unfinished_.find(seq);
  if (it == unfinished_.end()) return;
  std::string json = "{\"op\": \"done\", \"seq\": " + std::to_string(seq);
  Field(&json, "result", result);
  pending_ += Line(json + "}");
  if (moved) handovers_[it->second.task] = HandoverOf(it->second);
  if (it->second.kind == ActionKind::kStop && result == "stopped") stops_[it->second.task] = it->second;
  unfinished_.erase(it);
}

void Journal::ReleaseStop(const std::string& task) {
  if (stops_.erase(task) == 0) return;
  std::string json = "{\"op\": \"stop-released\"";
  Field(&json, "task", task);
  pending_ += Line(json + "}");
}

void Journal::Release(const std::string& task) {
  if (handovers_.erase(task) == 0) return;
  std::string json = "{\"op\": \"released\"";
  Field(&json, "task", task);
  pending_ += Line(json + "}");
}

bool Journal::Flush(std::string* error) {
  if (pending_.empty()) return true;
  if (!Writable(error)) return false;
  std::string lines = has_header_ ? "" : std::string(kHeader);
  lines += pending_;
  if (!AppendDurably(path_, lines, error)) return false;
  has_header_ = true;
  pending_.clear();
  return true;
}

bool Journal::Compact(std::string* error) {
  if (!Writable(error)) return false;
  std::string text(kHeader);
  text += Line("{\"op\": \"seq\", \"next\": " + std::to_string(next_seq_) + "}");
  for (const auto& [task, h] : handovers_) text += Line(HandoverJson(h));
  for (const auto& [task, m] : stops_) text += Line(IntentJson(m, "stop"));
  for (const auto& [seq, m] : unfinished_) text += Line(IntentJson(m));
  if (!WriteFileAtomically(path_, text, error)) return false;
  has_header_ = true;
  pending_.clear();
  return true;
}

}  // namespace rescfg::sync
