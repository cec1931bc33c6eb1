#include "jobs/loader.h"

#include <algorithm>

#include "file_io.h"
#include "jobs/jsonl_jobs.h"
#include "jobs/params.h"
#include "jobs/yaml_jobs.h"

namespace rescfg {

namespace {

bool EndsWith(const std::string& s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - static_cast<ptrdiff_t>(suffix.size()),
                    [](char a, char b) { return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b); });
}

LoadedJobs Load(std::string_view text, JobsFormat format, const std::string& file,
                const std::vector<std::string>& param_paths) {
  LoadedJobs result;
  result.file = file;
  const ParamQuery query(param_paths);
  if (format == JobsFormat::kJsonLines) {
    ReadJsonLinesJobs(text, query, &result);
  } else {
    ReadYamlJobs(text, query, &result);
  }
  return result;
}

}  // namespace

JobsFormat JobsFormatForPath(const std::string& path) {
  return EndsWith(path, ".jsonl") || EndsWith(path, ".ndjson") ? JobsFormat::kJsonLines
                                                               : JobsFormat::kYaml;
}

LoadedJobs LoadJobsText(std::string_view text, JobsFormat format, const std::string& file,
                        const std::vector<std::string>& param_paths) {
  return Load(text, format, file, param_paths);
}

LoadedJobs LoadJobsFile(const std::string& path, std::optional<JobsFormat> format,
                        const std::vector<std::string>& param_paths) {
  std::string error;
  std::optional<std::string> text = ReadWholeFile(path, &error);
  if (!text) {
    LoadedJobs result;
    result.file = DisplayName(path);
    result.unusable = true;
    result.findings.push_back({"unreadable", Severity::kError, result.file, {}, "", error, ""});
    return result;
  }
  return Load(*text, format.value_or(JobsFormatForPath(path)), DisplayName(path), param_paths);
}

}  // namespace rescfg
