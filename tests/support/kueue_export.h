#pragma once
/// Running the parts of rescfg export kueue one by one in tests, to look at
/// what each makes.

#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "export/kueue_names.h"
#include "export/kueue_objects.h"
#include "export/kueue_priority.h"
#include "export/kueue_quota.h"
#include "export/kueue_requests.h"

namespace rescfg::testing {

struct KueueMade {
  KueueNames names;
  KueueRequests requests;
  KueueQuota quota;
  KueuePriorities priorities;
  KueueObjects objects;
  std::vector<Finding> errors;
  std::vector<ExportFinding> findings;
};

/// The configuration of `body` (after apiVersion and kind), validated and
/// with defaults applied; nullopt when it has errors.
std::optional<Config> ValidConfig(const std::string& body);

/// The export of a valid configuration (defaults applied), stopping where
/// ExportKueue stops on errors, before the rule check.
KueueMade MakeKueue(const Config& config);

/// "code path" of each finding.
std::vector<std::string> FindingCodes(const std::vector<ExportFinding>& findings);

}  // namespace rescfg::testing
