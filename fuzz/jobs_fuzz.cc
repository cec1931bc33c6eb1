/// The jobs loaders (YAML JobList and JSON Lines) on arbitrary text, each
/// input read both ways: no crash, no exception, entries numbered in order.
/// YAML is also read with the fast scanner allowed and with yaml-cpp alone:
/// the two results must be identical, marks included. JSON Lines resolved
/// while read must give what resolving the read entries gives.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "decide/report.h"
#include "fuzz_config.h"
#include "jobs/loader.h"
#include "jobs/params.h"
#include "jobs/resolve.h"
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

const char* kConfig = R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: a, resources: 8}, {name: b, resources: 4, queue: b-q}]
profiles:
  - {name: p, allotment: 1, links: [{pool: a}, {pool: b}]}
  - {name: d, allotment: 2, dynamic: {parameter: runtime.gpus_request}, links: [{pool: a, queue: a-d}]}
policies:
  - {name: Dev, profiles: [{profile: p, queue: dev-p}, d]}
  - {name: Ops, profiles: [p]}
)";

const rescfg::Config& Configuration() {
  static const rescfg::Config* config = new rescfg::Config(rescfg::fuzz::LoadFuzzConfig(kConfig));
  return *config;
}

/// Resolved while read against resolved after reading: every outcome and
/// the lists the pass starts from.
bool SameResolution(const rescfg::ResolvedJobs& a, const rescfg::ResolvedJobs& b) {
  if (a.outcomes.size() != b.outcomes.size() || a.queued_outcome != b.queued_outcome || a.rejected != b.rejected ||
      a.running != b.running || a.input.queued.size() != b.input.queued.size() ||
      a.input.holdings.size() != b.input.holdings.size()) {
    return false;
  }
  for (size_t i = 0; i < a.outcomes.size(); ++i) {
    const rescfg::JobOutcome &x = a.outcomes[i], &y = b.outcomes[i];
    if (x.entry != y.entry || x.status != y.status || x.id != y.id || x.policy != y.policy || x.profile != y.profile ||
        x.pool != y.pool || x.queue != y.queue || x.reason != y.reason || rescfg::MessageOf(x) != rescfg::MessageOf(y) ||
        x.resources != y.resources || x.need_source != y.need_source) {
      return false;
    }
  }
  for (size_t q = 0; q < a.input.queued.size(); ++q) {
    const rescfg::QueuedJob &x = a.input.queued[q], &y = b.input.queued[q];
    if (x.policy != y.policy || x.profile != y.profile || x.need != y.need || x.queue_order != y.queue_order ||
        x.position != y.position) {
      return false;
    }
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
  const rescfg::Config& config = Configuration();
  const std::vector<std::string> config_paths = rescfg::DynamicParameterPaths(config);
  const rescfg::LoadedJobs read = rescfg::LoadJobsText(text, rescfg::JobsFormat::kJsonLines, "fuzz", config_paths);
  const rescfg::LoadedJobs resolved =
      rescfg::LoadJobsText(text, rescfg::JobsFormat::kJsonLines, "fuzz", config_paths, &config);
  // Read first or resolved as read: the same findings, near-miss warnings included.
  if (resolved.findings.size() != read.findings.size()) std::abort();
  for (size_t i = 0; i < read.findings.size(); ++i) {
    if (!SameFinding(read.findings[i], resolved.findings[i])) std::abort();
  }
  if (resolved.resolved) {
    if (!resolved.entries.empty()) std::abort();
    if (!SameResolution(*resolved.resolved, rescfg::ResolveJobs(config, read.entries))) std::abort();
  } else if (!Same(read, resolved)) {
    std::abort();  // a repeated id: read again, the same entries
  }
  rescfg::LoadedJobs fast, slow;
  fast.file = slow.file = "fuzz";
  rescfg::ReadYamlJobsUsing(text, kQuery, &fast, rescfg::YamlReader::kFastWhenPossible);
  if (rescfg::ReadYamlJobsUsing(text, kQuery, &slow, rescfg::YamlReader::kYamlCppOnly)) std::abort();
  if (!Same(fast, slow)) std::abort();  // the fast scanner must never change a result
  return 0;
}
