#include "state/history.h"

#include <cstdlib>
#include <ctime>
#include <pwd.h>
#include <simdjson.h>
#include <unistd.h>

#include "util/json_writer.h"

namespace rescfg {

bool IsSha256Hex(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string UtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm {};
  ::gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string CurrentUser() {
  if (const char* user = std::getenv("USER"); user && *user) return user;
  if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_name) return pw->pw_name;
  return std::to_string(::getuid());
}

void WriteHistoryEntry(JsonWriter& json, const HistoryEntry& entry, HistoryForm form,
                       const std::vector<std::string>& renames) {
  json.BeginObject()
      .Field("revision", int64_t(entry.revision))
      .Field("sha256", entry.sha256)
      .Field("time", entry.time)
      .Field("user", entry.user)
      .Field("message", entry.message)
      .Field("changes", int64_t(entry.changes));
  if (!entry.source_sha256.empty()) {
    json.Field("sourceSha256", entry.source_sha256);
  } else if (form == HistoryForm::kOutput) {
    json.Key("sourceSha256").Null();
  }
  if (form == HistoryForm::kOutput && !renames.empty()) {
    json.Key("renames").BeginArray();
    for (const std::string& r : renames) json.String(r);
    json.EndArray();
  }
  json.EndObject();
}

std::string HistoryLine(const HistoryEntry& entry) {
  JsonWriter json;
  WriteHistoryEntry(json, entry);
  return json.str();
}

std::optional<HistoryEntry> ParseHistoryLine(std::string_view line) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(line.data(), line.size()).get(root) != simdjson::SUCCESS) return std::nullopt;
  HistoryEntry entry;
  int64_t revision = 0, changes = 0;
  std::string_view sha, time, user, message, source_sha;
  if (root["revision"].get_int64().get(revision) || root["sha256"].get_string().get(sha) ||
      root["time"].get_string().get(time) || root["user"].get_string().get(user) ||
      root["message"].get_string().get(message) || root["changes"].get_int64().get(changes)) {
    return std::nullopt;
  }
  // Optional (absent in lines of earlier versions), but never of another type.
  simdjson::dom::element source;
  if (root["sourceSha256"].get(source) == simdjson::SUCCESS &&
      (source.get_string().get(source_sha) || !IsSha256Hex(source_sha))) {
    return std::nullopt;
  }
  if (revision <= 0 || changes < 0 || !IsSha256Hex(sha)) return std::nullopt;
  entry.revision = revision;
  entry.sha256 = sha;
  entry.time = time;
  entry.user = user;
  entry.message = message;
  entry.changes = changes;
  entry.source_sha256 = source_sha;
  return entry;
}

ParsedHistory ParseHistory(std::string_view text) {
  ParsedHistory result;
  size_t start = 0;
  while (start < text.size()) {
    const long expected = static_cast<long>(result.entries.size()) + 1;
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
    auto entry = ParseHistoryLine(line);
    if (end == std::string_view::npos) {
      // A last line without its newline: a crash while appending tore it,
      // unless it is whole and only the newline went missing.
      if (entry && entry->revision == expected) {
        result.tail = ParsedHistory::Tail::kUnterminated;
        result.tail_entry = std::move(entry);
      } else if (entry) {
        result.error = "the last line of history.jsonl records revision " + std::to_string(entry->revision) +
                       ", expected " + std::to_string(expected);
      } else {
        result.tail = ParsedHistory::Tail::kTorn;
      }
      return result;
    }
    if (!entry || entry->revision != expected) {
      result.error = "history.jsonl line " + std::to_string(expected) +
                     (entry ? " records revision " + std::to_string(entry->revision) + ", expected " +
                                  std::to_string(expected)
                            : " is damaged");
      return result;
    }
    result.entries.push_back(std::move(*entry));
    start = end + 1;
    result.complete_bytes = start;
  }
  return result;
}

}  // namespace rescfg
