#include "util/input_file.h"

#include "util/file_io.h"
#include "util/input_limits.h"

namespace rescfg {

namespace {

/// Reads with `read` (ReadWholeFile or ReadFileText) under the ceiling of `kind`.
template <typename Read>
auto ReadUnderLimit(const std::string& path, InputKind kind, Finding* failure, Read read) {
  const Limits& limits = CurrentLimits();
  uint64_t max_bytes = limits.config_bytes;
  const char* variable = "RESCFG_MAX_CONFIG_BYTES";
  switch (kind) {
    case InputKind::kConfig: break;
    case InputKind::kJobs: max_bytes = limits.jobs_bytes, variable = "RESCFG_MAX_JOBS_BYTES"; break;
    case InputKind::kQueues: max_bytes = limits.queues_bytes, variable = "RESCFG_MAX_QUEUES_BYTES"; break;
    case InputKind::kWorkers: max_bytes = limits.workers_bytes, variable = "RESCFG_MAX_WORKERS_BYTES"; break;
  }
  std::string error;
  const char* code = kUnreadable;
  auto text = read(path, &error, max_bytes, &code);
  if (!text) *failure = {code, Severity::kError, DisplayName(path), {}, "", error, LimitHint(code, variable)};
  return text;
}

}  // namespace

std::optional<std::string> ReadInputFile(const std::string& path, InputKind kind, Finding* failure) {
  return ReadUnderLimit(path, kind, failure, [](auto&&... a) { return ReadWholeFile(a...); });
}

std::optional<FileText> ReadInputText(const std::string& path, InputKind kind, Finding* failure) {
  return ReadUnderLimit(path, kind, failure, [](auto&&... a) { return ReadFileText(a...); });
}

}  // namespace rescfg
