/// The jobs loaders (YAML JobList and JSON Lines) on arbitrary text, each
/// input read both ways: no crash, no exception, entries numbered in order.
/// YAML is also read with the fast scanner allowed and with yaml-cpp alone:
/// the two results must be identical, marks included.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/loader.h"
#include "jobs/params.h"
#include "jobs/yaml_jobs.h"

namespace {

bool SameMark(const rescfg::Mark& a, const rescfg::Mark& b) { return a.line == b.line && a.column == b.column; }

bool SameEntry(const rescfg::JobEntry& a, const rescfg::JobEntry& b) {
  if (a.entry != b.entry || !SameMark(a.mark, b.mark) || a.invalid != b.invalid || a.id != b.id ||
      a.policy != b.policy || a.profile != b.profile || a.queue != b.queue || a.state != b.state ||
      a.pool != b.pool || a.resources != b.resources || a.enqueued != b.enqueued ||
      a.submitted != b.submitted || a.duration != b.duration || a.submitted_style != b.submitted_style ||
      a.duration_style != b.duration_style || a.params.size() != b.params.size()) {
    return false;
  }
  for (size_t i = 0; i < a.params.size(); ++i) {
    if (a.params[i].path != b.params[i].path || a.params[i].text != b.params[i].text) return false;
  }
  return true;
}

bool SameFinding(const rescfg::Finding& a, const rescfg::Finding& b) {
  return a.code == b.code && a.severity == b.severity && a.file == b.file && SameMark(a.mark, b.mark) &&
         a.path == b.path && a.message == b.message && a.hint == b.hint;
}

bool Same(const rescfg::LoadedJobs& a, const rescfg::LoadedJobs& b) {
  if (a.unusable != b.unusable || a.entries.size() != b.entries.size() || a.findings.size() != b.findings.size()) {
    return false;
  }
  for (size_t i = 0; i < a.entries.size(); ++i) {
    if (!SameEntry(a.entries[i], b.entries[i])) return false;
  }
  for (size_t i = 0; i < a.findings.size(); ++i) {
    if (!SameFinding(a.findings[i], b.findings[i])) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> kParamPaths = {
      "runtime.gpus_request", "hyperparams.Args.cost", "hyperparams.Args.a.b", "configuration.test"};
  static const rescfg::ParamQuery kQuery(kParamPaths);
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto format : {rescfg::JobsFormat::kYaml, rescfg::JobsFormat::kJsonLines}) {
    rescfg::LoadedJobs jobs = rescfg::LoadJobsText(text, format, "fuzz", kParamPaths);
    if (jobs.unusable && jobs.findings.empty()) std::abort();  // unusable says why
    for (size_t i = 0; i < jobs.entries.size(); ++i) {
      if (i > 0 && jobs.entries[i].entry <= jobs.entries[i - 1].entry) std::abort();
    }
  }
  rescfg::LoadedJobs fast, slow;
  fast.file = slow.file = "fuzz";
  rescfg::ReadYamlJobsUsing(text, kQuery, &fast, rescfg::YamlReader::kFastWhenPossible);
  if (rescfg::ReadYamlJobsUsing(text, kQuery, &slow, rescfg::YamlReader::kYamlCppOnly)) std::abort();
  if (!Same(fast, slow)) std::abort();  // the fast scanner must never change a result
  return 0;
}
