#include "clearml/tasks.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "clearml/json_scan.h"
#include "clearml/response.h"
#include "clearml/task_document.h"
#include "clearml/task_parser.h"
#include "jobs/job_fields.h"
#include "jobs/json_lines.h"
#include "jobs/json_values.h"
#include "jobs/resolve.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"

namespace rescfg::clearml {

namespace {

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

/// Parses the tasks of a document (`found`: they were found); when they
/// cannot be, the entries read after `entries_before` are dropped and the
/// input is unusable.
void ParseDocument(DocumentReader& reader, bool found, const ParamQuery& query, const CompanionsReady& ready,
                   LoadedJobs* out, const Config* resolve_against, size_t entries_before) {
  if (found && reader.Parse(query, ready, resolve_against)) return;
  out->entries.resize(entries_before);
  out->resolved.reset();
  out->unusable = true;
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
    DocumentReader reader(text, out);
    ParseDocument(reader, reader.Find(), query, ready, out, resolve_against, entries_before);
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

/// A tasks file as read, and the reader of its tasks when it is one document.
struct FoundTasks {
  LoadedJobs result;                       ///< unusable, with its finding, when unreadable
  std::optional<DocumentReader> document;  ///< its findings go to `result`
  bool found = false;                      ///< the document's tasks were found (DocumentReader::Find)
};

namespace {

/// Reads the file and, when it is one document, finds its tasks.
std::unique_ptr<FoundTasks> FindTasks(const std::string& path) {
  auto found = std::make_unique<FoundTasks>();
  LoadedJobs& result = found->result;
  Finding failure;
  std::optional<FileText> text = ReadInputText(path, InputKind::kJobs, &failure);
  if (!text) {
    result.file = failure.file;
    result.unusable = true;
    result.findings.push_back(std::move(failure));
    return found;
  }
  // CR-only line endings are line endings: JSON Lines are split at them; a
  // document counts them as lines where it names a place, and is not
  // rewritten (a pass over the whole file before its scan).
  const Form form = FormOf(json::WithoutByteOrderMark(text->view()));
  if (form == Form::kLines) json::LoneCarriageReturnsToNewlines(text->writable_data(), text->size());
  result.file = DisplayName(path);
  result.text = std::make_shared<JobsText>();
  result.text->source = std::move(*text);
  if (form == Form::kDocument) {
    found->document.emplace(json::WithoutByteOrderMark(result.text->source.view()), &result);
    found->found = found->document->Find();
  }
  return found;
}

}  // namespace

TasksAhead::TasksAhead(std::string path) : path_(std::move(path)) {}

TasksAhead::~TasksAhead() = default;

void TasksAhead::Find() {
  struct Done {  // however the read ends
    std::latch& done;
    ~Done() { done.count_down(); }
  } done{found_latch_};
  if (path_ == "-") return;  // standard input is read by whoever loads the snapshot, once
  found_ = FindTasks(path_);
}

std::unique_ptr<FoundTasks> TasksAhead::Take(const std::string& path) {
  if (path != path_) return nullptr;
  found_latch_.wait();
  return std::move(found_);
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
                                const std::vector<std::string>& param_paths, const Config* resolve_against,
                                TasksAhead* ahead) {
  std::unique_ptr<FoundTasks> found = ahead != nullptr ? ahead->Take(path) : nullptr;
  if (found == nullptr) found = FindTasks(path);
  LoadedJobs& result = found->result;  // where the document's reader writes
  if (result.unusable) return std::move(result);  // unreadable
  const ParamQuery query(param_paths);
  if (found->document) {
    ParseDocument(*found->document, found->found, query, ready, &result, resolve_against, 0);
  } else {
    ReadClearmlTasks(result.text->source.view(), query, ready, &result, resolve_against);
  }
  const size_t tasks = result.resolved ? result.resolved->outcomes.size() : result.entries.size();
  if (tasks > CurrentLimits().jobs_entries) {
    result.unusable = true;
    result.findings.push_back({"too-many-jobs", Severity::kError, result.file, {}, "",
                               "the file has " + std::to_string(tasks) +
                                   " tasks, more than the limit of " + std::to_string(CurrentLimits().jobs_entries),
                               "split the snapshot, or raise RESCFG_MAX_JOBS"});
  }
  return std::move(result);
}

}  // namespace rescfg::clearml
