#include "clearml/tasks.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <optional>
#include <thread>
#include <utility>

#include "clearml/json_scan.h"
#include "clearml/response.h"
#include "clearml/task_parser.h"
#include "jobs/job_fields.h"
#include "jobs/json_lines.h"
#include "jobs/json_values.h"
#include "jobs/resolve.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"
#include "util/joined_thread.h"
#include "util/prefault.h"
#include "util/work_ranges.h"

namespace rescfg::clearml {

namespace {

/// Fewer tasks than this left to a thread are not split with the other.
constexpr size_t kLeastTaken = 4 * json::kBatchEntries;

/// One task of a document: its text and where it starts.
struct TaskSpan {
  std::string_view text;
  Mark mark;
};

/// The two document forms: a response (`data.tasks`) or an array. The
/// scanner finds each task's extent; simdjson parses the tasks one by one
/// and, standing alone, every other value of the document, so that all of
/// it is checked.
class DocumentReader {
 public:
  /// With `resolve_against`, the tasks are resolved as they are parsed.
  DocumentReader(std::string_view text, const ParamQuery& query, const CompanionsReady& ready, LoadedJobs* out,
                 const Config* resolve_against)
      : text_(text), scan_(text), query_(query), ready_(ready), out_(out), resolve_against_(resolve_against) {}

  /// False when the document is unusable (the finding is in `out`).
  bool Read();

 private:
  bool Response();
  bool Data();
  bool Tasks();
  bool ParseTasks();
  /// Parses a value that is not a task on its own; `meta` also tells
  /// whether the response is an error.
  bool CheckValue(std::string_view value, Mark mark, std::string* error_response);
  bool ReadKey(std::string* key);
  /// Where simdjson stopped inside a value that starts at `mark`.
  Mark Within(std::string_view value, Mark mark, const char* at) const;
  bool Fail(const char* code, Mark mark, std::string message) {
    out_->findings.push_back({code, Severity::kError, out_->file, mark, "", std::move(message), ""});
    return false;
  }
  /// A key the response gives twice: JSON readers disagree on which one
  /// counts (the first, the last), so the response is not taken at all.
  bool Repeated(const std::string& key, Mark mark) {
    return Fail("duplicate-key", mark, "the response gives '" + key + "' twice; readers disagree on which counts");
  }
  bool SyntaxError(std::string message) { return Fail("json-syntax", scan_.Here(), "not valid JSON: " + message); }

  std::string_view text_;
  JsonScanner scan_;
  const ParamQuery& query_;
  const CompanionsReady& ready_;
  LoadedJobs* out_;
  const Config* resolve_against_;
  std::vector<TaskSpan> spans_;
  od::parser parser_;  ///< for the values that are not tasks
  std::string copy_;
};

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

bool DocumentReader::Data() {
  if (scan_.Peek() != '{') return Fail("bad-shape", scan_.Here(), "data must be an object");
  scan_.Advance();
  bool tasks = false;
  for (bool first = true;; first = false) {
    scan_.SkipSpace();
    if (first && scan_.Consume('}')) break;
    std::string key;
    const Mark key_mark = scan_.Here();
    if (!ReadKey(&key)) return false;
    if (key == "tasks" && tasks) return Repeated("data.tasks", key_mark);
    if (key == "tasks") {
      tasks = true;
      if (scan_.Peek() != '[') return Fail("bad-shape", scan_.Here(), "data.tasks must be a list of tasks");
      if (!Tasks()) return false;
    } else {
      const Mark mark = scan_.Here();
      std::string_view value;
      if (!scan_.SkipValue(&value)) return SyntaxError(scan_.error());
      if (!CheckValue(value, mark, nullptr)) return false;
    }
    scan_.SkipSpace();
    if (scan_.Consume('}')) break;
    if (!scan_.Consume(',')) return SyntaxError("expected ',' or '}'");
  }
  if (!tasks) return Fail("bad-shape", scan_.Here(), "not a tasks.get_all response: it has no data.tasks list");
  return true;
}

bool DocumentReader::Response() {
  scan_.Advance();  // '{'
  bool data = false, meta = false;
  std::string error_response;
  for (bool first = true;; first = false) {
    scan_.SkipSpace();
    if (first && scan_.Consume('}')) break;
    std::string key;
    const Mark key_mark = scan_.Here();
    if (!ReadKey(&key)) return false;
    if ((key == "data" && data) || (key == "meta" && meta)) return Repeated(key, key_mark);
    meta = meta || key == "meta";
    if (key == "data") {
      data = true;
      if (!Data()) return false;
    } else {
      const Mark mark = scan_.Here();
      std::string_view value;
      if (!scan_.SkipValue(&value)) return SyntaxError(scan_.error());
      const bool meta = key == "meta" && value.substr(0, 1) == "{";
      if (!CheckValue(value, mark, meta ? &error_response : nullptr)) return false;
      if (!error_response.empty()) return Fail("error-response", mark, error_response);
    }
    scan_.SkipSpace();
    if (scan_.Consume('}')) break;
    if (!scan_.Consume(',')) return SyntaxError("expected ',' or '}'");
  }
  if (!data) return Fail("bad-shape", {1, 1}, "not a tasks.get_all response: it has no data.tasks list");
  return true;
}

bool DocumentReader::Read() {
  scan_.SkipSpace();
  const bool array = scan_.Peek() == '[';
  if (!(array ? Tasks() : Response())) return false;
  scan_.SkipSpace();
  if (!scan_.AtEnd()) return SyntaxError(array ? "text after the array of tasks" : "text after the response");
  return ParseTasks();
}

bool DocumentReader::ParseTasks() {
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
  if (resolve_against_ != nullptr && split) {
    setting_up.emplace([&] { set_up.emplace(*resolve_against_, spans_.size(), half); });
  }
  const Lookups lookups(ready_(), out_);  // the companions were read meanwhile
  if (setting_up) setting_up->Join();
  TaskParser parser(query_, lookups, &JobsArena(out_));
  if (resolve_against_ != nullptr) {
    // Each half a batch at a time, resolved at once (ResolutionAsRead); a
    // thread done with its half takes the back half of what the other has
    // left (WorkRanges), as a part of its own. When an id repeats, once
    // more knowing which (a task's slot is its place in the document,
    // wherever the parts were cut).
    std::vector<bool> repeated;
    for (bool done = false; !done;) {
      if (!set_up) set_up.emplace(*resolve_against_, spans_.size(), half, repeated);
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
          TaskParser second_parser(query_, lookups, &second_arena);
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
          TaskParser second_parser(query_, lookups, arena);
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

/// Whether the first object is an API response: one of its keys is `meta`
/// or `data` (a task has neither), in whatever order they come. Values
/// before that key are skipped, not parsed; what does not scan is left for
/// the reader of JSON Lines to report.
bool LooksLikeResponse(std::string_view text) {
  JsonScanner scan(text);
  scan.SkipSpace();
  scan.Advance();  // '{'
  for (;;) {
    scan.SkipSpace();
    std::string_view raw, value;
    if (!scan.ReadString(&raw)) return false;
    if (raw == "\"meta\"" || raw == "\"data\"") return true;
    scan.SkipSpace();
    if (!scan.Consume(':')) return false;
    scan.SkipSpace();
    if (!scan.SkipValue(&value)) return false;
    scan.SkipSpace();
    if (!scan.Consume(',')) return false;
  }
}

/// What a snapshot's text is (after its byte order mark).
enum class Form { kEmpty, kDocument, kLines, kOther };

Form FormOf(std::string_view text) {
  JsonScanner scan(text);
  scan.SkipSpace();
  if (scan.AtEnd()) return Form::kEmpty;
  const char first = scan.Peek();
  if (first == '[' || (first == '{' && LooksLikeResponse(text))) return Form::kDocument;
  return first == '{' ? Form::kLines : Form::kOther;
}

}  // namespace

void ReadClearmlTasks(std::string_view text, const ParamQuery& query, const Companions& companions, LoadedJobs* out) {
  ReadClearmlTasks(text, query, [&] { return companions; }, out, nullptr);
}

void ReadClearmlTasks(std::string_view text, const ParamQuery& query, const CompanionsReady& ready, LoadedJobs* out,
                      const Config* resolve_against) {
  text = json::WithoutByteOrderMark(text);
  const size_t entries_before = out->entries.size();
  const Form form = FormOf(text);
  if (form == Form::kEmpty) return;  // no tasks
  if (form == Form::kDocument) {
    DocumentReader reader(text, query, ready, out, resolve_against);
    if (!reader.Read()) {
      out->entries.resize(entries_before);
      out->resolved.reset();
      out->unusable = true;
      return;
    }
  } else if (form == Form::kLines) {
    const Lookups lookups(ready(), out);
    auto make_reader = [&](TextArena* arena) { return TaskParser(query, lookups, arena); };
    if (resolve_against == nullptr) {
      json::ReadEntryLines(text, out, make_reader);
    } else {
      out->resolved = std::make_shared<ResolvedJobs>(
          json::ResolveEntryLines(text, out, make_reader, [](auto&, auto*) {}, *resolve_against));
    }
  } else {
    JsonScanner scan(text);
    scan.SkipSpace();
    out->unusable = true;
    out->findings.push_back({"bad-shape", Severity::kError, out->file, scan.Here(), "",
                             "not a ClearML task snapshot: expected a tasks.get_all response, a JSON array of tasks "
                             "or JSON Lines of tasks, found '" +
                                 Excerpt(text.substr(static_cast<size_t>(scan.position() - text.data()), 40)) + "'",
                             ""});
    return;
  }
}

namespace {

LoadedJobs LoadTasks(FileText text, const std::string& file, const CompanionsReady& ready,
                     const std::vector<std::string>& param_paths, const Config* resolve_against) {
  LoadedJobs result;
  result.file = file;
  result.text = std::make_shared<JobsText>();
  result.text->source = std::move(text);
  const ParamQuery query(param_paths);
  ReadClearmlTasks(result.text->source.view(), query, ready, &result, resolve_against);
  return result;
}

}  // namespace

LoadedJobs LoadClearmlTasksText(std::string text, const std::string& file, const CompanionsReady& ready,
                                const std::vector<std::string>& param_paths, const Config* resolve_against) {
  return LoadTasks(FileText(std::move(text)), file, ready, param_paths, resolve_against);
}

LoadedJobs LoadClearmlTasksText(std::string text, const std::string& file, const Companions& companions,
                                const std::vector<std::string>& param_paths) {
  return LoadClearmlTasksText(std::move(text), file, [&] { return companions; }, param_paths, nullptr);
}

LoadedJobs LoadClearmlTasksFile(const std::string& path, const CompanionsReady& ready,
                                const std::vector<std::string>& param_paths, const Config* resolve_against) {
  Finding failure;
  std::optional<FileText> text = ReadInputText(path, InputKind::kJobs, &failure);
  LoadedJobs result;
  if (!text) {
    result.file = failure.file;
    result.unusable = true;
    result.findings.push_back(std::move(failure));
    return result;
  }
  // CR-only line endings are line endings: JSON Lines are split at them; a
  // document counts them as lines where it names a place, and is not
  // rewritten (a pass over the whole file before its scan).
  if (FormOf(json::WithoutByteOrderMark(text->view())) == Form::kLines) {
    json::LoneCarriageReturnsToNewlines(text->writable_data(), text->size());
  }
  result = LoadTasks(std::move(*text), DisplayName(path), ready, param_paths, resolve_against);
  const size_t tasks = result.resolved ? result.resolved->outcomes.size() : result.entries.size();
  if (tasks > CurrentLimits().jobs_entries) {
    result.unusable = true;
    result.findings.push_back({"too-many-jobs", Severity::kError, result.file, {}, "",
                               "the file has " + std::to_string(tasks) +
                                   " tasks, more than the limit of " + std::to_string(CurrentLimits().jobs_entries),
                               "split the snapshot, or raise RESCFG_MAX_JOBS"});
  }
  return result;
}

}  // namespace rescfg::clearml
