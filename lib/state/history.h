#pragma once
/// The history of a state directory (history.jsonl): one JSON object a
/// line, one line per committed revision, in order. Pure text in, entries
/// out: the state directory (state_store) does the file work.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rescfg {

class JsonWriter;

struct HistoryEntry {
  long revision = 0;
  std::string sha256;   ///< of the revision's canonical text
  std::string time;     ///< UTC, RFC 3339
  std::string user;
  std::string message;
  long changes = 0;     ///< number of changes against the previous revision
  /// Of the source text as provisioned; empty for a revision written by a
  /// rescfg that kept the canonical text only.
  std::string source_sha256;
};

/// Writes the fields of a history entry as one JSON object. kStored is the
/// line of history.jsonl (sourceSha256 only when there is one); kOutput is
/// `rescfg history --format json` (sourceSha256 always, null when absent).
enum class HistoryForm { kStored, kOutput };
/// `renames`, shown and never stored, are those the revision made ("policy
/// Dev -> Platform", state/history_renames.h): kOutput writes them when there are some.
void WriteHistoryEntry(JsonWriter& json, const HistoryEntry& entry, HistoryForm form = HistoryForm::kStored,
                       const std::vector<std::string>& renames = {});
/// One history line as stored in history.jsonl (without the newline).
std::string HistoryLine(const HistoryEntry& entry);
/// Parses one history line; nullopt when damaged.
std::optional<HistoryEntry> ParseHistoryLine(std::string_view line);

/// The content of history.jsonl, read line by line.
struct ParsedHistory {
  std::vector<HistoryEntry> entries;  ///< the complete lines, revisions 1, 2, ...
  size_t complete_bytes = 0;          ///< length of those lines, newlines included
  enum class Tail {
    kNone,          ///< the text ends with a newline (or is empty)
    kTorn,          ///< an incomplete last line that does not parse: never committed
    kUnterminated,  ///< a last line that parses as the next revision but lacks its '\n'
  } tail = Tail::kNone;
  /// The entry of a kUnterminated tail: committed when its revision file
  /// matches its sha256 (the caller checks), corruption otherwise.
  std::optional<HistoryEntry> tail_entry;
  /// Set when a complete line is damaged or out of sequence: corruption.
  std::string error;
};
ParsedHistory ParseHistory(std::string_view text);

/// The current time in UTC as RFC 3339, e.g. 2026-11-29T10:00:00Z.
std::string UtcNow();
/// $USER, else the name of the real user, else the numeric uid.
std::string CurrentUser();
/// True for 64 lowercase hex digits.
bool IsSha256Hex(std::string_view s);

}  // namespace rescfg
