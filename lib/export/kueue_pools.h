#pragma once
/// `rescfg export kueue --pool NAME ...` (rescfg(5), KUBERNETES): the
/// configuration as Kueue sees it when only some pools are Kubernetes.
///
/// Only the named pools become ResourceFlavors; a profile keeps its links to
/// them (and is left out with none), a policy keeps the profiles that remain
/// (and is left out with none). A limit caps what Kueue sees, so it applies
/// whole over the exported pools: it is never split over flavors Kueue
/// never sees. A reservation holds in whichever pools its jobs reach and is
/// split over all of them as without `--pool` (the maximum flow of
/// kueue_quota.h, in ticks): the exported pools carry their shares, the rest
/// rests on pools rescfg alone serves (finding kueue-split-reservation).
///
/// Error (exit 2): unknown-pool, a name that is no pool of the configuration.

#include <string>
#include <vector>

#include "config/model.h"
#include "export/export_result.h"

namespace rescfg {

/// The configuration restricted to `pools` (each a pool name), or the
/// configuration itself when `pools` is empty. Appends an error for each
/// unknown name, and a finding for each reservation that rests partly on
/// pools left out.
Config KueuePoolSubset(const Config& config, const std::vector<std::string>& pools, const std::string& file,
                       std::vector<ExportFinding>* findings, std::vector<Finding>* errors);

}  // namespace rescfg
