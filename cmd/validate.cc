#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands.h"
#include "config/loader.h"
#include "output/findings_output.h"
#include "output_file.h"
#include "validate/validate.h"

namespace rescfg::cmd {

int RunValidate(const ValidateOptions& options) {
  std::vector<FileFindings> files;
  for (const auto& path : options.files) {
    LoadedConfig loaded = LoadConfigFile(path);
    if (loaded.config) ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
    SortFindings(loaded.findings.begin(), loaded.findings.end());
    files.push_back({loaded.file, std::move(loaded.findings), loaded.unusable});
  }
  FindingsFormat format = options.format == "json"     ? FindingsFormat::kJson
                          : options.format == "github" ? FindingsFormat::kGithub
                                                       : FindingsFormat::kText;
  std::string out = RenderFindings(files, format, options.strict);
  if (!WriteOutput(options.output, out)) return kExitUnusable;
  // The summary is for people; -q (level error) silences it.
  if (spdlog::should_log(spdlog::level::warn)) {
    std::string summary = SummarizeFindings(files, options.strict);
    std::fprintf(stderr, "rescfg: %s\n", summary.c_str());
  }
  int exit_code = kExitOk;
  for (const auto& file : files) {
    if (file.unusable) return kExitUnusable;
    if (!file.valid(options.strict)) exit_code = kExitFindings;
  }
  return exit_code;
}

}  // namespace rescfg::cmd
