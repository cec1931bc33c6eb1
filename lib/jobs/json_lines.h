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
#include "prefault.h"

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

/// Reads the lines of [begin, end) into `slots` (room for one entry per
/// line), numbering lines from `first_line` and entries from `first_entry`
/// + 1; returns how many entries it filled. `limit` is the end of the whole
/// text: lines are parsed in place when the parser's padding fits before it
/// (the following lines provide it); the others are copied.
/// `reader.ReadLine(ParseSpan, JobEntry*)` fills each entry.
template <typename Reader>
size_t ReadLineRange(const char* begin, const char* end, const char* limit, int first_line, size_t first_entry,
                     Reader& reader, JobEntry* slots) {
  std::string tail_copy;
  int line_number = first_line - 1;
  size_t filled = 0;
  for (const char* start = begin; start < end;) {
    ++line_number;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end - start));
    std::string_view line(start, (newline ? newline : end) - start);
    start = newline ? newline + 1 : end;
    if (IsBlank(line)) continue;
    JobEntry& entry = slots[filled++];
    entry.entry = first_entry + filled;
    entry.mark = {line_number, 1};
    reader.ReadLine(PaddedSpan(line, limit, &tail_copy), &entry);
  }
  return filled;
}

/// Reads two halves of an input at once, straight into `out->entries`
/// (no second array, no copy): `first(slots)` here fills up to `first_room`
/// slots after the entries already there, numbering them from
/// `entries.size()` + 1; `second(arena, slots, first_number)` on another
/// thread fills up to `second_room` slots after those, with its own arena,
/// numbering from `first_number` + 1. Each returns how many it filled. Slots
/// left over are removed (and the second half renumbered when the first
/// half filled fewer than its room), and the second arena is kept.
template <typename First, typename Second>
void InTwoHalves(LoadedJobs* out, size_t first_room, size_t second_room, First first, Second second) {
  const size_t base = out->entries.size();
  ResizePrefaulted(&out->entries, base + first_room + second_room);
  JobEntry* const slots = out->entries.data() + base;
  TextArena second_arena;
  size_t second_filled = 0;
  JoinedThread worker([&] { second_filled = second(&second_arena, slots + first_room, base + first_room); });
  const size_t first_filled = first(slots);
  worker.Join();
  if (first_filled < first_room) {
    for (size_t i = 0; i < second_filled; ++i) {
      JobEntry& entry = slots[first_room + i];
      entry.entry -= first_room - first_filled;
      slots[first_filled + i] = std::move(entry);
    }
  }
  out->entries.resize(base + first_filled + second_filled);
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
  const char* middle = nullptr;
  if (text.size() >= kParallelBytes && std::thread::hardware_concurrency() > 1) {
    middle = static_cast<const char*>(std::memchr(text.data() + text.size() / 2, '\n', text.size() / 2));
    if (middle != nullptr) ++middle;  // the second half starts after a newline
    if (middle == end) middle = nullptr;
  }
  using Reader = decltype(make_reader(&arena));
  Reader reader = make_reader(&arena);
  if (middle == nullptr) {
    ResizePrefaulted(&out->entries, base + CountLines(text));
    const size_t filled = ReadLineRange(text.data(), end, end, 1, base, reader, out->entries.data() + base);
    out->entries.resize(base + filled);
    done(reader, static_cast<Reader*>(nullptr));
    return;
  }
  const std::string_view first(text.data(), static_cast<size_t>(middle - text.data()));
  const std::string_view rest(middle, static_cast<size_t>(end - middle));
  const int first_lines = static_cast<int>(CountLines(first) - 1);  // `first` ends with a newline
  std::optional<Reader> second_reader;
  InTwoHalves(
      out, static_cast<size_t>(first_lines), CountLines(rest),
      [&](JobEntry* slots) { return ReadLineRange(text.data(), middle, end, 1, base, reader, slots); },
      [&](TextArena* second_arena, JobEntry* slots, size_t first_number) {
        second_reader.emplace(make_reader(second_arena));
        return ReadLineRange(middle, end, end, first_lines + 1, first_number, *second_reader, slots);
      });
  done(reader, second_reader ? &*second_reader : nullptr);
}

template <typename MakeReader>
void ReadEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader) {
  ReadEntryLines(text, out, make_reader, [](auto&, auto*) {});
}

}  // namespace rescfg::json
