#include "jobs/loader.h"

#include <simdjson.h>

#include <algorithm>
#include <map>

#include "jobs/json_lines.h"
#include "jobs/jsonl_jobs.h"
#include "jobs/near_misses.h"
#include "jobs/params.h"
#include "jobs/resolved_jobs.h"
#include "jobs/yaml_jobs.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"

namespace rescfg {

namespace {

bool EndsWith(const std::string& s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - static_cast<ptrdiff_t>(suffix.size()),
                    [](char a, char b) { return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b); });
}

/// JSON Lines entries view `source`, so it moves into the result; YAML
/// entries copy what they keep, so the source is only read.
/// `owned`, when given, holds `text` and may be moved from.
LoadedJobs Load(std::string_view text, FileText* owned, JobsFormat format, const std::string& file,
                const std::vector<std::string>& param_paths, const Config* resolve_against) {
  LoadedJobs result;
  result.file = file;
  result.text = std::make_shared<JobsText>();
  const ParamQuery query(param_paths);
  if (format == JobsFormat::kJsonLines) {
    FileText& source = result.text->source;
    source = owned ? std::move(*owned) : FileText(std::string(text));
    const json::LineParts parts = json::PrepareLines(source.writable_data(), source.size());
    if (resolve_against != nullptr) {
      result.resolved = std::make_shared<ResolvedJobs>(
          ReadAndResolveJsonLines(source.view(), query, *resolve_against, &result, &parts));
    } else {
      ReadJsonLinesJobs(source.view(), query, &result, &parts);
    }
  } else {
    ReadYamlJobs(text, query, &result);
  }
  NearMissWarnings(&result);
  return result;
}

}  // namespace

JobsFormat SniffJobsFormat(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '{') return JobsFormat::kYaml;
  size_t end = text.find('\n', start);
  std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  // A JSON document is YAML too: only a first line that is a whole JSON
  // object, and not a JobList document, means JSON Lines.
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(line.data(), line.size()).get(root) != simdjson::SUCCESS || !root.is_object()) {
    return JobsFormat::kYaml;
  }
  return root["kind"].error() == simdjson::SUCCESS ? JobsFormat::kYaml : JobsFormat::kJsonLines;
}

JobsFormat JobsFormatForPath(const std::string& path) {
  return EndsWith(path, ".jsonl") || EndsWith(path, ".ndjson") ? JobsFormat::kJsonLines
                                                               : JobsFormat::kYaml;
}

LoadedJobs LoadJobsText(std::string_view text, JobsFormat format, const std::string& file,
                        const std::vector<std::string>& param_paths, const Config* resolve_against) {
  return Load(text, nullptr, format, file, param_paths, resolve_against);
}

LoadedJobs LoadJobsFile(const std::string& path, std::optional<JobsFormat> format,
                        const std::vector<std::string>& param_paths, const Config* resolve_against) {
  Finding failure;
  std::optional<FileText> text = ReadInputText(path, InputKind::kJobs, &failure);
  if (!text) {
    LoadedJobs result;
    result.file = failure.file;
    result.unusable = true;
    result.findings.push_back(std::move(failure));
    return result;
  }
  // A pipe has no name to tell its format by: its content does. A file of
  // nothing but blanks is an empty list in any format (/dev/null as an
  // empty .jsonl); standard input keeps its format's reading (an empty
  // YAML stream is no JobList).
  JobsFormat chosen = format ? *format : path == "-" ? SniffJobsFormat(text->view()) : JobsFormatForPath(path);
  if (path != "-" && text->view().find_first_not_of(" \t\r\n") == std::string::npos) chosen = JobsFormat::kJsonLines;
  LoadedJobs result = Load(text->view(), &*text, chosen, DisplayName(path), param_paths, resolve_against);
  const size_t entries = result.resolved ? result.resolved->outcomes.size() : result.entries.size();
  if (entries > CurrentLimits().jobs_entries) {
    result.unusable = true;
    result.findings.push_back({"too-many-jobs", Severity::kError, result.file, {}, "",
                               "the file has " + std::to_string(entries) + " entries, more than the limit of " +
                                   std::to_string(CurrentLimits().jobs_entries),
                               "split the snapshot, or raise RESCFG_MAX_JOBS"});
  }
  return result;
}

}  // namespace rescfg
