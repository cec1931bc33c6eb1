#pragma once
/// `rescfg export kueue` (rescfg(5), KUBERNETES): the Kueue objects that carry a
/// configuration to a Kubernetes cluster, and what Kueue cannot express.
/// The mapping, object by object, is docs/kueue.md; the parts are
///   kueue_names     object names (DNS-1123, unique, stable)
///   kueue_requests  what pods request; fractions and fixed allotments
///   kueue_quota     reservations and limits split over flavors
///   kueue_priority  WorkloadPriorityClasses from the priority lists
///   kueue_objects   the objects
///   kueue_rules     Kueue's own rules, checked before anything is written
///   kueue_writer    multi-document YAML
///   kueue_json      the same objects as JSON, for --format json
///   kueue_pools     the configuration restricted to the pools of --pool

#include <string>
#include <vector>

#include "config/model.h"
#include "export/export_result.h"

namespace rescfg {

struct KueueExportOptions {
  /// --pool: only these pools are Kubernetes (kueue_pools.h); empty: every pool.
  std::vector<std::string> pools;
};

/// Exports a valid configuration (defaults applied). `file` names it in
/// errors. Errors (nothing to write, exit 2) come out in file order, as do
/// the findings.
ExportResult ExportKueue(const Config& config, const std::string& file, const KueueExportOptions& options = {});

}  // namespace rescfg
