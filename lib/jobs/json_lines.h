#pragma once
/// The line loop of JSON Lines inputs (jobs files and ClearML task
/// snapshots): one entry per non-blank line, parsed in place where the
/// padding simdjson needs fits, large files in two halves on two threads.

#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "jobs/job.h"
#include "jobs/json_values.h"
#include "joined_thread.h"

namespace rescfg::json {

/// Inputs of this size or more are read by two threads.
inline constexpr size_t kParallelBytes = size_t(8) << 20;

/// Upper bound of the entries (memchr is much faster than a byte loop).
inline size_t CountLines(std::string_view text) {
  size_t lines = 1;
  for (const char *p = text.data(), *end = p + text.size();
       (p = static_cast<const char*>(std::memchr(p, '\n', end - p))) != nullptr; ++p) {
    ++lines;
  }
  return lines;
}

inline bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

/// Reads the lines of [begin, end) into `entries`, numbering lines from
/// `first_line` and entries from `first_entry` + 1. `limit` is the end of
/// the whole text: lines are parsed in place when the parser's padding fits
/// before it (the following lines provide it); the others are copied.
/// `reader.ReadLine(ParseSpan, JobEntry*)` fills each entry.
template <typename Reader>
void ReadLineRange(const char* begin, const char* end, const char* limit, int first_line, size_t first_entry,
                   Reader& reader, std::vector<JobEntry>* entries) {
  std::string tail_copy;
  int line_number = first_line - 1;
  size_t entry_number = first_entry;
  for (const char* start = begin; start < end;) {
    ++line_number;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end - start));
    std::string_view line(start, (newline ? newline : end) - start);
    start = newline ? newline + 1 : end;
    if (IsBlank(line)) continue;
    JobEntry& entry = entries->emplace_back();
    entry.entry = ++entry_number;
    entry.mark = {line_number, 1};
    reader.ReadLine(PaddedSpan(line, limit, &tail_copy), &entry);
  }
}

/// Reads two halves of an input at once: `first()` here, appending to
/// `out->entries`, and `second(arena, entries)` on another thread with its
/// own arena, numbering its entries from 1. Then appends the second half's
/// entries (numbered after the first's) and keeps its arena.
template <typename First, typename Second>
void InTwoHalves(LoadedJobs* out, First first, Second second) {
  TextArena second_arena;
  std::vector<JobEntry> second_entries;
  JoinedThread worker([&] { second(&second_arena, &second_entries); });
  first();
  worker.Join();
  const size_t offset = out->entries.size();
  out->entries.reserve(offset + second_entries.size());
  for (JobEntry& entry : second_entries) {
    entry.entry += offset;
    out->entries.push_back(std::move(entry));
  }
  JobsArena(out).Absorb(std::move(second_arena));
}

/// Appends one entry per non-blank line of `text` to `out->entries`, read
/// by readers made by `make_reader(TextArena*)`. Lines are independent, so
/// text of 8 MB or more is read as two halves on two threads, each with its
/// own reader and arena; the entries are the same. `done(first, second)`
/// then sees the readers (`second` null when there was one), for what they
/// gathered over all lines.
template <typename MakeReader, typename Done>
void ReadEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader, Done done) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  const char* const end = text.data() + text.size();
  const size_t base = out->entries.size();
  TextArena& arena = JobsArena(out);
  out->entries.reserve(base + CountLines(text));
  const char* middle = nullptr;
  if (text.size() >= kParallelBytes && std::thread::hardware_concurrency() > 1) {
    middle = static_cast<const char*>(std::memchr(text.data() + text.size() / 2, '\n', text.size() / 2));
    if (middle != nullptr) ++middle;  // the second half starts after a newline
    if (middle == end) middle = nullptr;
  }
  using Reader = decltype(make_reader(&arena));
  Reader reader = make_reader(&arena);
  if (middle == nullptr) {
    ReadLineRange(text.data(), end, end, 1, base, reader, &out->entries);
    done(reader, static_cast<Reader*>(nullptr));
    return;
  }
  const std::string_view first(text.data(), static_cast<size_t>(middle - text.data()));
  const int first_lines = static_cast<int>(CountLines(first) - 1);  // `first` ends with a newline
  std::optional<Reader> second_reader;
  InTwoHalves(
      out, [&] { ReadLineRange(text.data(), middle, end, 1, base, reader, &out->entries); },
      [&](TextArena* second_arena, std::vector<JobEntry>* second) {
        second->reserve(CountLines(std::string_view(middle, static_cast<size_t>(end - middle))));
        second_reader.emplace(make_reader(second_arena));
        ReadLineRange(middle, end, end, first_lines + 1, 0, *second_reader, second);
      });
  done(reader, second_reader ? &*second_reader : nullptr);
}

template <typename MakeReader>
void ReadEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader) {
  ReadEntryLines(text, out, make_reader, [](auto&, auto*) {});
}

}  // namespace rescfg::json
