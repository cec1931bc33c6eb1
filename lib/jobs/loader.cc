// Interim YAML-only loader; replaced by the streaming loaders.
#include "jobs/loader.h"

#include "file_io.h"
#include "yaml_input.h"

namespace rescfg {

JobsFormat JobsFormatForPath(const std::string& path) {
  auto ends = [&](const char* s) { std::string e(s); return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0; };
  return ends(".jsonl") || ends(".ndjson") ? JobsFormat::kJsonLines : JobsFormat::kYaml;
}

LoadedJobs LoadJobsText(std::string_view text, JobsFormat, const std::string& file,
                        const std::vector<std::string>& param_paths) {
  LoadedJobs out;
  out.file = file;
  auto root = ParseYaml(text, file, &out.findings);
  if (!root) { out.unusable = true; return out; }
  try {
    YAML::Node jobs = (*root)["jobs"];
    size_t n = 0;
    for (const auto& j : jobs) {
      JobEntry e;
      e.entry = ++n;
      e.mark = MarkOf(j);
      auto str = [&](const char* k) -> std::optional<std::string> {
        if (j[k] && j[k].IsScalar() && !j[k].IsNull()) return j[k].Scalar();
        return std::nullopt;
      };
      e.id = str("id"); e.policy = str("policy"); e.profile = str("profile"); e.queue = str("queue");
      e.state = str("state"); e.pool = str("pool"); e.resources = str("resources"); e.enqueued = str("enqueued");
      for (const auto& path : param_paths) {
        auto dot = path.find('.');
        YAML::Node p = j["params"];
        if (!p) continue;
        YAML::Node v = p[path.substr(0, dot)][path.substr(dot + 1)];
        if (v && v.IsMap() && v["value"]) v = v["value"];
        if (v && v.IsScalar()) e.params.push_back({path, v.Scalar()});
      }
      out.entries.push_back(std::move(e));
    }
  } catch (const YAML::Exception& e) {
    out.unusable = true;
  }
  return out;
}

LoadedJobs LoadJobsFile(const std::string& path, std::optional<JobsFormat> format,
                        const std::vector<std::string>& param_paths) {
  std::string error;
  auto text = ReadWholeFile(path, &error);
  if (!text) {
    LoadedJobs out;
    out.unusable = true;
    out.findings.push_back({"unreadable", Severity::kError, DisplayName(path), {}, "", error, ""});
    return out;
  }
  return LoadJobsText(*text, format.value_or(JobsFormatForPath(path)), DisplayName(path), param_paths);
}

}  // namespace rescfg
