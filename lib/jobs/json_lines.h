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

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/json_values.h"
#include "jobs/resolve.h"
#include "util/joined_thread.h"
#include "util/prefault.h"

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

/// Turns each carriage return not followed by a line feed into a line
/// feed, so that a file with old Mac (CR-only) line endings reads as lines.
/// JSON allows a raw CR only as white space, so no valid line changes.
inline void LoneCarriageReturnsToNewlines(char* data, size_t size) {
  char* const end = data + size;
  for (char* p = data; (p = static_cast<char*>(std::memchr(p, '\r', end - p))) != nullptr; ++p) {
    if (p + 1 == end || p[1] != '\n') *p = '\n';
  }
}
inline void LoneCarriageReturnsToNewlines(std::string* text) { LoneCarriageReturnsToNewlines(text->data(), text->size()); }

inline bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

/// Calls `read(line, entry_number, line_number)` for each non-blank line
/// of [begin, end), numbering lines from `first_line` and entries from
/// `first_entry` + 1; returns how many it read. `limit` is the end of the
/// whole text: lines are parsed in place when the parser's padding fits
/// before it (the following lines provide it); the others are copied.
template <typename Read>
size_t ForEachEntryLine(const char* begin, const char* end, const char* limit, int first_line, size_t first_entry,
                        Read read) {
  std::string tail_copy;
  int line_number = first_line - 1;
  size_t filled = 0;
  for (const char* start = begin; start < end;) {
    ++line_number;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end - start));
    std::string_view line(start, (newline ? newline : end) - start);
    start = newline ? newline + 1 : end;
    if (IsBlank(line)) continue;
    read(PaddedSpan(line, limit, &tail_copy), first_entry + ++filled, line_number);
  }
  return filled;
}

/// Reads the lines of [begin, end) into `slots` (room for one entry per
/// line), as ForEachEntryLine numbers them; returns how many entries it
/// filled. `reader.ReadLine(ParseSpan, JobEntry*)` fills each entry.
template <typename Reader>
size_t ReadLineRange(const char* begin, const char* end, const char* limit, int first_line, size_t first_entry,
                     Reader& reader, JobEntry* slots) {
  JobEntry* slot = slots;
  return ForEachEntryLine(begin, end, limit, first_line, first_entry, [&](ParseSpan line, size_t number, int line_number) {
    JobEntry& entry = *slot++;
    entry.entry = number;
    entry.mark = {line_number, 1};
    reader.ReadLine(line, &entry);
  });
}

/// Entries a reader hands over at a time when resolving as it reads: few
/// enough to stay in the caches between reading and resolving.
inline constexpr size_t kBatchEntries = 128;

/// Reads the lines of [begin, end) as ReadLineRange does, a batch at a
/// time, and hands each batch to `take(entries, count)`; the entries are
/// reused after it returns. Returns how many entries it read.
template <typename Reader, typename Take>
size_t ReadLineBatches(const char* begin, const char* end, const char* limit, int first_line, size_t first_entry,
                       Reader& reader, Take take) {
  std::vector<JobEntry> batch(kBatchEntries);
  size_t in_batch = 0;
  const size_t filled =
      ForEachEntryLine(begin, end, limit, first_line, first_entry, [&](ParseSpan line, size_t number, int line_number) {
        JobEntry& entry = batch[in_batch++];
        entry = JobEntry();
        entry.entry = number;
        entry.mark = {line_number, 1};
        reader.ReadLine(line, &entry);
        if (in_batch == batch.size()) {
          take(static_cast<const JobEntry*>(batch.data()), in_batch);
          in_batch = 0;
        }
      });
  if (in_batch > 0) take(static_cast<const JobEntry*>(batch.data()), in_batch);
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

/// Where the second half of `text` starts when it is read by two
/// threads: after the newline past its middle; null when it is read whole.
inline const char* SecondHalf(std::string_view text) {
  if (text.size() < kParallelBytes || std::thread::hardware_concurrency() < 2) return nullptr;
  const char* const end = text.data() + text.size();
  const char* middle = static_cast<const char*>(std::memchr(text.data() + text.size() / 2, '\n', text.size() / 2));
  if (middle != nullptr) ++middle;  // the second half starts after a newline
  return middle == end ? nullptr : middle;
}

inline std::string_view WithoutByteOrderMark(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  return text;
}

/// How a text (after its byte order mark) is read: whole (`middle` null,
/// `first_lines` its lines) or in two parts, [start, middle) and [middle,
/// end), with `first_lines` newlines and `rest_lines` lines; a part's lines
/// bound its entries.
struct LineParts {
  const char* middle = nullptr;
  size_t first_lines = 0;
  size_t rest_lines = 0;
};

/// The LineParts of a text whose line endings are line feeds.
inline LineParts PartsOf(std::string_view text) {
  const char* const middle = SecondHalf(text);
  if (middle == nullptr) return {nullptr, CountLines(text), 0};
  const auto first = static_cast<size_t>(middle - text.data());
  return {middle, CountLines(text.substr(0, first)) - 1, CountLines(text.substr(first))};
}

/// Makes a JSON Lines text ready to read: turns its lone carriage returns
/// into line feeds (LoneCarriageReturnsToNewlines) and finds its LineParts,
/// in one pass, on two threads when it is read in two parts. The same text
/// and parts as the two steps one after the other; the first pass over a
/// large file is the one that pays for its fresh pages, so both cores share it.
LineParts PrepareLines(char* data, size_t size);

/// Appends one entry per non-blank line of `text` to `out->entries`, read
/// by readers made by `make_reader(TextArena*)`. Lines are independent, so
/// text of 8 MB or more is read as two halves on two threads, each with its
/// own reader and arena; the entries are the same. `done(first, second)`
/// then sees the readers (`second` null when there was one), for what they
/// gathered over all lines.
template <typename MakeReader, typename Done>
void ReadEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader, Done done,
                    const LineParts* parts = nullptr) {
  text = WithoutByteOrderMark(text);
  const char* const end = text.data() + text.size();
  const size_t base = out->entries.size();
  TextArena& arena = JobsArena(out);
  const LineParts lines = parts != nullptr ? *parts : PartsOf(text);
  const char* const middle = lines.middle;
  using Reader = decltype(make_reader(&arena));
  Reader reader = make_reader(&arena);
  if (middle == nullptr) {
    ResizePrefaulted(&out->entries, base + lines.first_lines);
    const size_t filled = ReadLineRange(text.data(), end, end, 1, base, reader, out->entries.data() + base);
    out->entries.resize(base + filled);
    done(reader, static_cast<Reader*>(nullptr));
    return;
  }
  const int first_lines = static_cast<int>(lines.first_lines);  // the first part ends with a newline
  std::optional<Reader> second_reader;
  InTwoHalves(
      out, static_cast<size_t>(first_lines), lines.rest_lines,
      [&](JobEntry* slots) { return ReadLineRange(text.data(), middle, end, 1, base, reader, slots); },
      [&](TextArena* second_arena, JobEntry* slots, size_t first_number) {
        second_reader.emplace(make_reader(second_arena));
        return ReadLineRange(middle, end, end, first_lines + 1, first_number, *second_reader, slots);
      });
  done(reader, second_reader ? &*second_reader : nullptr);
}

/// As ReadEntryLines, but each batch of entries is resolved as soon as it
/// is read (`resolve(half, entries, count)`, half 0 from the start, half 1
/// from the second half's slots on) and none is kept: `out` receives the
/// arenas only. First `plan(room, second_from)` tells how many entries
/// there may be in all and where the second half's slots begin.
template <typename MakeReader, typename Done, typename Plan, typename Resolve>
void ReadAndResolveEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader, Done done, Plan plan,
                              Resolve resolve, const LineParts* parts = nullptr) {
  text = WithoutByteOrderMark(text);
  const char* const end = text.data() + text.size();
  TextArena& arena = JobsArena(out);
  const LineParts lines = parts != nullptr ? *parts : PartsOf(text);
  const char* const middle = lines.middle;
  using Reader = decltype(make_reader(&arena));
  Reader reader = make_reader(&arena);
  auto first_take = [&](const JobEntry* entries, size_t count) { resolve(size_t(0), entries, count); };
  if (middle == nullptr) {
    const size_t room = lines.first_lines;
    plan(room, room);
    ReadLineBatches(text.data(), end, end, 1, 0, reader, first_take);
    done(reader, static_cast<Reader*>(nullptr));
    return;
  }
  const size_t first_lines = lines.first_lines;  // the first part ends with a newline
  plan(first_lines + lines.rest_lines, first_lines);
  TextArena second_arena;
  std::optional<Reader> second_reader;
  JoinedThread worker([&] {
    second_reader.emplace(make_reader(&second_arena));
    ReadLineBatches(middle, end, end, static_cast<int>(first_lines) + 1, first_lines, *second_reader,
                    [&](const JobEntry* entries, size_t count) { resolve(size_t(1), entries, count); });
  });
  ReadLineBatches(text.data(), middle, end, 1, 0, reader, first_take);
  worker.Join();
  arena.Absorb(std::move(second_arena));
  done(reader, second_reader ? &*second_reader : nullptr);
}

/// Reads and resolves `text` against `config` with ReadAndResolveEntryLines
/// and a ResolutionAsRead; an input whose ids repeat is read twice, the
/// second time knowing which (the first reading's findings dropped).
template <typename MakeReader, typename Done>
ResolvedJobs ResolveEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader, Done done,
                               const Config& config, const LineParts* parts = nullptr) {
  const size_t findings = out->findings.size();
  std::vector<bool> repeated;
  for (;;) {
    std::optional<ResolutionAsRead> resolution;
    ReadAndResolveEntryLines(
        text, out, make_reader, done,
        [&](size_t room, size_t second_from) { resolution.emplace(config, room, second_from, repeated); },
        [&](size_t half, const JobEntry* entries, size_t count) { resolution->Resolve(half, entries, count); },
        parts);
    std::vector<bool> found;
    if (auto resolved = std::move(*resolution).Finish(&found)) return std::move(*resolved);
    repeated = std::move(found);
    out->findings.resize(findings);
  }
}

template <typename MakeReader>
void ReadEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader) {
  ReadEntryLines(text, out, make_reader, [](auto&, auto*) {});
}

}  // namespace rescfg::json
