#pragma once
/// The line loop of JSON Lines inputs (jobs files and ClearML task
/// snapshots): one entry per non-blank line, parsed in place where the
/// padding simdjson needs fits, large files in two halves on two threads.

#include <algorithm>
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
#include "util/work_ranges.h"

namespace rescfg::json {

/// Inputs of this size or more are read by two threads.
inline constexpr size_t kParallelBytes = size_t(8) << 20;

/// Line feeds in [p, end) (memchr is much faster than a byte loop).
inline size_t CountNewlines(const char* p, const char* end) {
  size_t newlines = 0;
  for (; (p = static_cast<const char*>(std::memchr(p, '\n', end - p))) != nullptr; ++p) ++newlines;
  return newlines;
}

/// Upper bound of the entries.
inline size_t CountLines(std::string_view text) { return CountNewlines(text.data(), text.data() + text.size()) + 1; }

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
                        Read read, int* last_line = nullptr) {
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
  if (last_line != nullptr) *last_line = line_number;
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
/// reused after it returns. Returns how many entries it read; `last_line`,
/// when given, receives the number of the last line read. `buffer`, when
/// given, holds the batch (kBatchEntries entries; a caller that reads many
/// ranges makes it once).
template <typename Reader, typename Take>
size_t ReadLineBatches(const char* begin, const char* end, const char* limit, int first_line, size_t first_entry,
                       Reader& reader, Take take, int* last_line = nullptr, std::vector<JobEntry>* buffer = nullptr) {
  std::vector<JobEntry> own;
  if (buffer == nullptr) own.resize(kBatchEntries);
  std::vector<JobEntry>& batch = buffer != nullptr ? *buffer : own;
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
      },
      last_line);
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
  /// By block of kLineBlock bytes of the text (in two parts only): the line
  /// feeds before it, so that a line's number is known wherever the text is
  /// cut (NewlinesBefore).
  std::vector<size_t> newlines_before;
};

/// The blocks of LineParts::newlines_before.
inline constexpr size_t kLineBlock = size_t(1) << 20;

/// Line feeds before `at` in `text` (a text in two parts, `parts` its LineParts).
inline size_t NewlinesBefore(std::string_view text, const LineParts& parts, size_t at) {
  const size_t block = std::min(at / kLineBlock, parts.newlines_before.size() - 1);  // the end may start none
  return parts.newlines_before[block] + CountNewlines(text.data() + block * kLineBlock, text.data() + at);
}

/// The LineParts of `text` in two parts from `middle` on, its line feeds
/// counted by block (`by_block`, `newlines` in all).
inline LineParts PartsFromBlocks(std::string_view text, const char* middle, const std::vector<size_t>& by_block,
                                 size_t newlines) {
  LineParts parts;
  size_t before = 0;
  for (const size_t in_block : by_block) {
    parts.newlines_before.push_back(before);
    before += in_block;
  }
  parts.middle = middle;
  parts.first_lines = NewlinesBefore(text, parts, static_cast<size_t>(middle - text.data()));
  parts.rest_lines = newlines - parts.first_lines + 1;
  return parts;
}

/// The LineParts of a text whose line endings are line feeds.
inline LineParts PartsOf(std::string_view text) {
  const char* const middle = SecondHalf(text);
  if (middle == nullptr) return {nullptr, CountLines(text), 0, {}};
  std::vector<size_t> by_block;
  size_t newlines = 0;
  for (size_t at = 0; at < text.size(); at += kLineBlock) {
    by_block.push_back(CountNewlines(text.data() + at, text.data() + std::min(text.size(), at + kLineBlock)));
    newlines += by_block.back();
  }
  return PartsFromBlocks(text, middle, by_block, newlines);
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

/// Bytes of lines a thread takes at a time, and fewer than this left to a
/// thread are not split with the other.
inline constexpr size_t kLinesTaken = size_t(64) << 10;
inline constexpr size_t kLeastLinesSplit = size_t(256) << 10;

/// As ReadEntryLines, but each batch of entries is resolved as soon as it
/// is read (`resolve(part, entries, count)`) and none is kept: `out`
/// receives the arenas only. First `plan(room, second_from)` tells how many
/// entries there may be in all and where the second half's slots begin:
/// part 0 is read from the start, part 1 from the second half's slots on.
/// A thread done with its half takes the back half of the lines the other
/// has left (WorkRanges, cut at a line's start) as a part of its own,
/// `add_part(first_slot, room, thread)`. A part's entries take slots from
/// its first line's on, so the cuts decide the slots: `*cuts` receives the
/// ranges read, and when it holds some, they are read again as they were.
template <typename MakeReader, typename Done, typename Plan, typename AddPart, typename Resolve>
void ReadAndResolveEntryLines(std::string_view text, LoadedJobs* out, MakeReader make_reader, Done done, Plan plan,
                              AddPart add_part, Resolve resolve, std::vector<WorkRanges::Range>* cuts,
                              const LineParts* parts = nullptr) {
  text = WithoutByteOrderMark(text);
  const char* const end = text.data() + text.size();
  TextArena& arena = JobsArena(out);
  const LineParts lines = parts != nullptr ? *parts : PartsOf(text);
  const char* const middle = lines.middle;
  using Reader = decltype(make_reader(&arena));
  Reader reader = make_reader(&arena);
  if (middle == nullptr || lines.newlines_before.empty()) {
    const size_t room = lines.first_lines + lines.rest_lines;
    plan(room, room);
    ReadLineBatches(text.data(), end, end, 1, 0, reader, [&](const JobEntry* entries, size_t count) {
      resolve(size_t(0), entries, count);
    });
    done(reader, static_cast<Reader*>(nullptr));
    return;
  }
  const size_t first_lines = lines.first_lines;  // the first part ends with a newline
  plan(first_lines + lines.rest_lines, first_lines);
  auto line_start = [&](size_t at) -> size_t {  // the first at or after `at`
    if (at == 0 || at >= text.size() || text[at - 1] == '\n') return std::min(at, text.size());
    const auto* newline = static_cast<const char*>(std::memchr(text.data() + at, '\n', text.size() - at));
    return newline == nullptr ? text.size() : static_cast<size_t>(newline - text.data()) + 1;
  };
  WorkRanges ranges = cuts->empty() ? WorkRanges(text.size(), static_cast<size_t>(middle - text.data()), kLinesTaken,
                                                 kLeastLinesSplit, ResolutionAsRead::kMaxParts, line_start)
                                    : WorkRanges(*cuts, kLinesTaken, line_start);
  // Reads thread `t`'s lines; `entry` and `line` number the next ones.
  auto read = [&](int t, Reader& by, size_t part, size_t entry, int line) {
    std::vector<JobEntry> batch(kBatchEntries);
    for (;;) {
      const WorkRanges::Batch taken = ranges.Next(t);
      if (taken.from == taken.to) return;
      if (taken.new_range) {
        entry = NewlinesBefore(text, lines, taken.from);
        line = static_cast<int>(entry) + 1;
        part = add_part(entry, NewlinesBefore(text, lines, taken.range_end) - entry + 1, static_cast<size_t>(t));
      }
      int last_line = line - 1;
      entry += ReadLineBatches(
          text.data() + taken.from, text.data() + taken.to, end, line, entry, by,
          [&](const JobEntry* entries, size_t count) { resolve(part, entries, count); }, &last_line, &batch);
      line = last_line + 1;
    }
  };
  TextArena second_arena;
  std::optional<Reader> second_reader;
  JoinedThread worker([&] {
    second_reader.emplace(make_reader(&second_arena));
    read(1, *second_reader, 1, first_lines, static_cast<int>(first_lines) + 1);
  });
  read(0, reader, 0, 0, 1);
  worker.Join();
  *cuts = ranges.Taken();
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
  std::vector<WorkRanges::Range> cuts;  // the second reading cuts where the first did
  for (;;) {
    std::optional<ResolutionAsRead> resolution;
    ReadAndResolveEntryLines(
        text, out, make_reader, done,
        [&](size_t room, size_t second_from) { resolution.emplace(config, room, second_from, repeated); },
        [&](size_t from, size_t room, size_t thread) { return resolution->AddPart(from, room, thread); },
        [&](size_t part, const JobEntry* entries, size_t count) { resolution->Resolve(part, entries, count); }, &cuts,
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
