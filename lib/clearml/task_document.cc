#include "clearml/task_document.h"

#include <algorithm>
#include <array>
#include <optional>
#include <thread>
#include <utility>

#include "clearml/task_parser.h"
#include "jobs/job_fields.h"
#include "jobs/json_lines.h"
#include "jobs/json_values.h"
#include "jobs/resolve.h"
#include "util/joined_thread.h"
#include "util/prefault.h"
#include "util/work_ranges.h"

namespace rescfg::clearml {

namespace {

/// Fewer tasks than this left to a thread are not split with the other.
constexpr size_t kLeastTaken = 4 * json::kBatchEntries;

}  // namespace

Mark DocumentReader::Within(std::string_view value, Mark mark, const char* at) const {
  if (at == nullptr || at < value.data() || at > value.data() + value.size()) return mark;
  Mark inner = json::MarkAt(value, at);
  return inner.line == 1 ? Mark{mark.line, mark.column + inner.column - 1} : Mark{mark.line + inner.line - 1, inner.column};
}

bool DocumentReader::CheckValue(std::string_view value, Mark mark, std::string* error_response) {
  json::ParseSpan span = json::PaddedSpan(value, text_.data() + text_.size(), &copy_);
  od::document doc;
  error_code error = parser_.iterate(span.text.data(), span.text.size(), span.capacity).get(doc);
  if (!error) error = json::SkipDocument(doc);
  if (!error && error_response) {
    od::object meta;
    if (!parser_.iterate(span.text.data(), span.text.size(), span.capacity).get(doc) && !doc.get_object().get(meta)) {
      error = ErrorResponse(meta, error_response);
    }
  }
  if (!error) return true;
  return Fail("json-syntax", mark, json::SyntaxMessage(error));
}

bool DocumentReader::ReadKey(std::string* key) {
  std::string_view raw;
  const Mark mark = scan_.Here();
  if (!scan_.ReadString(&raw)) return SyntaxError("expected a key in quotes");
  json::ParseSpan span = json::PaddedSpan(raw, text_.data() + text_.size(), &copy_);
  od::document doc;
  std::string_view text;
  error_code error = parser_.iterate(span.text.data(), span.text.size(), span.capacity).get(doc);
  if (!error) error = doc.get_string().get(text);
  if (error) return Fail("json-syntax", mark, json::SyntaxMessage(error));
  key->assign(text);
  scan_.SkipSpace();
  if (!scan_.Consume(':')) return SyntaxError("expected ':' after the key");
  scan_.SkipSpace();
  return true;
}

bool DocumentReader::Tasks() {
  // Room for a task every 256 bytes (ClearML's take more): a large
  // snapshot's list is not regrown, copied into fresh pages, on the way.
  spans_.reserve(text_.size() / 256);
  scan_.Advance();  // '['
  scan_.SkipSpace();
  if (scan_.Consume(']')) return true;
  for (;;) {
    scan_.SkipSpace();
    const Mark mark = scan_.Here();
    std::string_view value;
    if (!scan_.SkipValue(&value)) return SyntaxError(scan_.error());
    spans_.push_back({value, mark});
    scan_.SkipSpace();
    if (scan_.Consume(']')) return true;
    if (!scan_.Consume(',')) return SyntaxError("expected ',' or ']' after a task");
  }
}

template <typename Member>
bool DocumentReader::Members(Member&& member) {
  for (bool first = true;; first = false) {
    scan_.SkipSpace();
    if (first && scan_.Consume('}')) return true;
    std::string key;
    const Mark key_mark = scan_.Here();
    if (!ReadKey(&key)) return false;
    if (!member(key, key_mark)) return false;
    scan_.SkipSpace();
    if (scan_.Consume('}')) return true;
    if (!scan_.Consume(',')) return SyntaxError("expected ',' or '}'");
  }
}

bool DocumentReader::Data() {
  if (scan_.Peek() != '{') return Fail("bad-shape", scan_.Here(), "data must be an object");
  scan_.Advance();
  bool tasks = false;
  const bool read = Members([&](const std::string& key, Mark key_mark) {
    if (key == "tasks" && tasks) return Repeated("data.tasks", key_mark);
    if (key != "tasks") return Other(nullptr);
    tasks = true;
    if (scan_.Peek() != '[') return Fail("bad-shape", scan_.Here(), "data.tasks must be a list of tasks");
    return Tasks();
  });
  if (!read) return false;
  if (!tasks) return Fail("bad-shape", scan_.Here(), "not a tasks.get_all response: it has no data.tasks list");
  return true;
}

bool DocumentReader::Response() {
  scan_.Advance();  // '{'
  bool data = false, meta = false;
  const bool read = Members([&](const std::string& key, Mark key_mark) {
    if ((key == "data" && data) || (key == "meta" && meta)) return Repeated(key, key_mark);
    meta = meta || key == "meta";
    if (key != "data") return Other(&key);
    data = true;
    return Data();
  });
  if (!read) return false;
  if (!data) return Fail("bad-shape", {1, 1}, "not a tasks.get_all response: it has no data.tasks list");
  return true;
}

bool DocumentReader::Other(const std::string* response_key) {
  const Mark mark = scan_.Here();
  std::string_view value;
  if (!scan_.SkipValue(&value)) return SyntaxError(scan_.error());
  std::string error_response;
  const bool meta = response_key != nullptr && *response_key == "meta" && value.substr(0, 1) == "{";
  if (!CheckValue(value, mark, meta ? &error_response : nullptr)) return false;
  if (!error_response.empty()) return Fail("error-response", mark, error_response);
  return true;
}

bool DocumentReader::Find() {
  scan_.SkipSpace();
  const bool array = scan_.Peek() == '[';
  if (!(array ? Tasks() : Response())) return false;
  scan_.SkipSpace();
  if (!scan_.AtEnd()) return SyntaxError(array ? "text after the array of tasks" : "text after the response");
  return true;
}

bool DocumentReader::Parse(const ParamQuery& query, const CompanionsReady& ready, const Config* resolve_against) {
  struct Failure {
    size_t task = SIZE_MAX;
    error_code error = simdjson::SUCCESS;
    const char* at = nullptr;
  };
  const char* limit = text_.data() + text_.size();
  const size_t base = out_->entries.size();
  // Fills slots[0, to - from) from tasks [from, to); returns how many.
  auto parse = [&](size_t from, size_t to, TaskParser& parser, JobEntry* slots, size_t first_number,
                   Failure* failure) -> size_t {
    std::string copy;
    // The tasks' listings are looked up a batch ahead (TaskParser::LookAhead).
    constexpr size_t kAhead = 128;
    std::array<std::string_view, kAhead> texts;
    std::array<ListingAhead, kAhead> ahead;
    for (size_t i = from; i < to; ++i) {
      if ((i - from) % kAhead == 0) {
        const size_t count = std::min(kAhead, to - i);
        for (size_t k = 0; k < count; ++k) texts[k] = spans_[i + k].text;
        parser.LookAhead(texts.data(), count, ahead.data());
      }
      JobEntry& entry = slots[i - from];
      entry.entry = first_number + (i - from) + 1;
      entry.mark = spans_[i].mark;
      bool not_object = false;
      const char* at = nullptr;
      const error_code error = parser.Read(json::PaddedSpan(spans_[i].text, limit, &copy), &entry, &at, &not_object,
                                           &ahead[(i - from) % kAhead]);
      if (error) {
        *failure = {i, error, at};
        return i - from + 1;
      }
      if (not_object) {
        ResetEntry(&entry);
        entry.invalid = "not a task object: " + Excerpt(spans_[i].text);
      }
    }
    return to - from;
  };
  Failure first, second;
  const bool split = text_.size() >= json::kParallelBytes && spans_.size() >= 2 && std::thread::hardware_concurrency() > 1;
  const size_t half = split ? spans_.size() / 2 : spans_.size();
  // The resolution's set-up (its memory, the configuration's directory)
  // on another core while this one takes the companions and copies what
  // tasks will point at: the other core has been idle since the companions
  // were read.
  std::optional<ResolutionAsRead> set_up;
  std::optional<JoinedThread> setting_up;
  if (resolve_against != nullptr && split) {
    setting_up.emplace([&] { set_up.emplace(*resolve_against, spans_.size(), half); });
  }
  const Lookups lookups(ready(), out_);  // the companions were read meanwhile
  if (setting_up) setting_up->Join();
  TaskParser parser(query, lookups, &JobsArena(out_));
  if (resolve_against != nullptr) {
    // Each half a batch at a time, resolved at once (ResolutionAsRead); a
    // thread done with its half takes the back half of what the other has
    // left (WorkRanges), as a part of its own. When an id repeats, once
    // more knowing which (a task's slot is its place in the document,
    // wherever the parts were cut).
    std::vector<bool> repeated;
    for (bool done = false; !done;) {
      if (!set_up) set_up.emplace(*resolve_against, spans_.size(), half, repeated);
      ResolutionAsRead& resolution = *set_up;
      WorkRanges ranges(spans_.size(), half, json::kBatchEntries, kLeastTaken, ResolutionAsRead::kMaxParts);
      auto read = [&](int thread, TaskParser& reader, Failure* failure) {
        std::vector<JobEntry> batch(json::kBatchEntries);
        size_t part = static_cast<size_t>(thread);
        for (;;) {
          const WorkRanges::Batch taken = ranges.Next(thread);
          if (taken.from == taken.to) return;
          if (taken.new_range) part = resolution.AddPart(taken.from, taken.range_end - taken.from, thread);
          for (size_t k = 0; k < taken.to - taken.from; ++k) batch[k] = JobEntry();
          resolution.Resolve(part, batch.data(), parse(taken.from, taken.to, reader, batch.data(), taken.from, failure));
          if (failure->task != SIZE_MAX) return ranges.Stop(thread);  // the rest of its range is not needed
        }
      };
      TextArena second_arena;
      {
        JoinedThread worker([&] {
          if (!split) return;
          TaskParser second_parser(query, lookups, &second_arena);
          read(1, second_parser, &second);
        });
        read(0, parser, &first);
        worker.Join();
      }
      JobsArena(out_).Absorb(std::move(second_arena));
      if (first.task != SIZE_MAX || second.task != SIZE_MAX) break;  // unusable
      std::vector<bool> found;
      if (auto resolved = std::move(resolution).Finish(&found)) {
        out_->resolved = std::make_shared<ResolvedJobs>(std::move(*resolved));
        done = true;
      }
      repeated = std::move(found);
      set_up.reset();
    }
  } else if (split) {
    json::InTwoHalves(
        out_, half, spans_.size() - half, [&](JobEntry* slots) { return parse(0, half, parser, slots, base, &first); },
        [&](TextArena* arena, JobEntry* slots, size_t first_number) {
          TaskParser second_parser(query, lookups, arena);
          return parse(half, spans_.size(), second_parser, slots, first_number, &second);
        });
  } else {
    ResizePrefaulted(&out_->entries, base + spans_.size());
    parse(0, spans_.size(), parser, out_->entries.data() + base, base, &first);
  }
  // The first in file order (each thread stops at its first).
  const Failure& failure = first.task <= second.task ? first : second;
  if (failure.task == SIZE_MAX) return true;
  const TaskSpan& span = spans_[failure.task];
  return Fail("json-syntax", Within(span.text, span.mark, failure.at),
              json::SyntaxMessage(failure.error) + " (in task " + std::to_string(failure.task + 1) + ")");
}

}  // namespace rescfg::clearml
