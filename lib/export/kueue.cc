#include "export/kueue.h"

#include <algorithm>
#include <memory>

#include "export/kueue_json.h"
#include "export/kueue_names.h"
#include "export/kueue_objects.h"
#include "export/kueue_pools.h"
#include "export/kueue_preemption.h"
#include "export/renamed_queues.h"
#include "export/kueue_priority.h"
#include "export/kueue_quota.h"
#include "export/kueue_requests.h"
#include "export/kueue_rules.h"
#include "export/kueue_writer.h"

namespace rescfg {
namespace {

/// By line, keeping the order of findings on one line; unplaced ones first.
template <typename T>
void ByLine(std::vector<T>& items) {
  std::stable_sort(items.begin(), items.end(), [](const T& a, const T& b) { return a.mark.line < b.mark.line; });
}

}  // namespace

ExportResult ExportKueue(const Config& whole, const std::string& file, const KueueExportOptions& options) {
  ExportResult result;
  const Config subset = options.pools.empty() ? Config{} : KueuePoolSubset(whole, options.pools, file, &result.findings,
                                                                          &result.errors);
  if (!result.errors.empty()) return result;
  const Config& config = options.pools.empty() ? whole : subset;
  const KueueNames names = NameKueueObjects(config, file, &result.errors);
  const KueueRequests requests = DescribeRequests(config, &result.findings);
  const KueueQuota quota = SplitQuota(config, requests.units, file, &result.findings, &result.errors);
  if (!result.errors.empty()) {
    ByLine(result.errors);
    return result;
  }
  const KueuePriorities priorities = RankPolicyQueues(config, names.queues, &result.findings);
  PreemptionFindings(config, &result.findings);
  RenamedQueueFindings(config, RenameEngine::kKueue, &result.findings);
  auto objects = std::make_shared<const KueueObjects>(
      BuildKueueObjects({config, names, requests, quota, priorities}, file, &result.errors, &result.findings));
  if (result.errors.empty()) {
    for (const std::string& problem : KueueRuleViolations(*objects)) {
      result.errors.push_back({"kueue-invalid-object", Severity::kError, file, {}, "",
                               "Kueue would refuse the export: " + problem, ""});
    }
  }
  ByLine(result.errors);
  ByLine(result.findings);
  if (!result.errors.empty()) return result;
  result.text = WriteKueueYaml(*objects, requests);
  result.json_members = [objects](JsonWriter& json) { WriteKueueJson(*objects, json.Key("objects")); };
  return result;
}

}  // namespace rescfg
