#pragma once
/// Reading jobs files: YAML (kind: JobList) and JSON Lines.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "jobs/job.h"

namespace rescfg {

/// The format implied by a file name: .jsonl/.ndjson are JSON Lines,
/// everything else (and "-") YAML.
JobsFormat JobsFormatForPath(const std::string& path);

/// The format of jobs text read from a pipe: JSON Lines when its first
/// non-blank line is a complete JSON object without a `kind` key, else YAML.
JobsFormat SniffJobsFormat(std::string_view text);

/// Parses jobs text. `param_paths` lists the dynamic-parameter paths whose
/// values each entry should carry (rescfg(5), JOBS FILE lookup rules are applied here);
/// `resolve_against` as for LoadJobsFile.
LoadedJobs LoadJobsText(std::string_view text, JobsFormat format, const std::string& file,
                        const std::vector<std::string>& param_paths, const Config* resolve_against = nullptr);

/// Reads a jobs file ("-" is standard input); `format` overrides the
/// extension (or, for standard input, the content). With `resolve_against`,
/// JSON Lines entries are resolved against that configuration as they are
/// read: the result holds `resolved` and no entries (less memory and time
/// for large inputs; the same outcomes).
LoadedJobs LoadJobsFile(const std::string& path, std::optional<JobsFormat> format,
                        const std::vector<std::string>& param_paths, const Config* resolve_against = nullptr);

}  // namespace rescfg
