#pragma once
/// A ClearML tasks snapshot written as one JSON document (rescfg(5), JOBS
/// FILE, ClearML task snapshots): a tasks.get_all response or an array of
/// tasks, its tasks found by a scan and then parsed on two threads.

#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "clearml/json_scan.h"
#include "clearml/response.h"
#include "clearml/tasks.h"
#include "config/model.h"
#include "jobs/job.h"
#include "jobs/params.h"

namespace rescfg::clearml {

/// One task of a document: its text and where it starts.
struct TaskSpan {
  std::string_view text;
  Mark mark;
};

/// The two document forms: a response (`data.tasks`) or an array. The
/// scanner finds each task's extent; simdjson parses the tasks one by one
/// and, standing alone, every other value of the document, so that all of
/// it is checked. Finding the tasks needs nothing but the text, so a
/// command may have them found before it loads its configuration
/// (TasksAhead); parsing them needs the parameters it asks for.
class DocumentReader {
 public:
  /// Findings go to `out`, which must outlive the reader.
  DocumentReader(std::string_view text, LoadedJobs* out) : text_(text), scan_(text), out_(out) {}

  /// Finds the tasks and checks every other value. False when the document
  /// is unusable (the finding is in `out`).
  bool Find();
  /// Parses the tasks found into `out`'s entries; with `resolve_against`,
  /// resolves them as they are parsed (ReadClearmlTasks). False when the
  /// document is unusable.
  bool Parse(const ParamQuery& query, const CompanionsReady& ready, const Config* resolve_against);

 private:
  bool Response();
  bool Data();
  bool Tasks();
  /// Each member of the object whose '{' was read: `member(key, key_mark)`
  /// reads its value (false: unusable).
  template <typename Member>
  bool Members(Member&& member);
  /// A value the reader does not take, checked; `response_key`: its key, for
  /// a member of the response (a `meta` tells whether it is an error).
  bool Other(const std::string* response_key);
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
  LoadedJobs* out_;
  std::vector<TaskSpan> spans_;
  od::parser parser_;  ///< for the values that are not tasks
  std::string copy_;
};

}  // namespace rescfg::clearml
