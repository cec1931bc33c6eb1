/// The jobs loaders (YAML JobList and JSON Lines) on arbitrary text, each
/// input read both ways: no crash, no exception, entries numbered in order.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::string> kParamPaths = {
      "runtime.gpus_request", "hyperparams.Args.cost", "hyperparams.Args.a.b", "configuration.test"};
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto format : {rescfg::JobsFormat::kYaml, rescfg::JobsFormat::kJsonLines}) {
    rescfg::LoadedJobs jobs = rescfg::LoadJobsText(text, format, "fuzz", kParamPaths);
    if (jobs.unusable && jobs.findings.empty()) std::abort();  // unusable says why
    for (size_t i = 0; i < jobs.entries.size(); ++i) {
      if (i > 0 && jobs.entries[i].entry <= jobs.entries[i - 1].entry) std::abort();
    }
  }
  return 0;
}
