#pragma once
/// plan and provision: the removed-policy-queue warnings of a change
/// (rescfg(5), RENAMES), with --jobs or --jobs-from-sync how many tasks wait
/// in each queue or run from it.

#include <vector>

#include "commands.h"
#include "config/model.h"
#include "state/plan.h"
#include "util/finding.h"

namespace rescfg::cmd {

/// Appends to `findings` one warning per policy queue of the change's base
/// that `config` no longer serves. False (errors logged) when the jobs
/// cannot be read.
bool AddRemovedQueueFindings(const PlannedChange& change, const Config& config, const JobsSource& jobs,
                             const std::string& state_dir, std::vector<Finding>* findings);

}  // namespace rescfg::cmd
