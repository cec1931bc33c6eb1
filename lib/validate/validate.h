#pragma once
/// Semantic checks of a loaded configuration (rescfg(5), CONFIGURATION "Validation").
///
/// Codes (all errors unless marked): duplicate-name, duplicate-link,
/// duplicate-policy-profile, duplicate-queue, shared-queue,
/// policy-queue-clash, unknown-reference,
/// unlinked-profile, priority-mismatch, bad-dynamic-parameter,
/// reserved-above-limit, allotment-above-limit, allotment-too-large,
/// reservations-unsatisfiable; warnings: fractional-pool-size,
/// near-fraction, unused-pool, unused-profile, empty-policy,
/// limit-below-allotment, mixed-queue, preemption-without-reservation,
/// mig-fraction-unmapped, multi-machine-allotment, dynamic-queue. The loader's shape codes are in config/loader.h.

#include <string>
#include <vector>

#include "config/model.h"
#include "util/finding.h"

namespace rescfg {

/// Appends every error and warning about `config` (as loaded, before
/// defaults) to `findings`, ordered as SortFindings does. `findings` may
/// already hold the loader's findings: when it holds any error, the
/// reservation check is skipped, since it would work on a partial model.
void ValidateConfig(const Config& config, const std::string& file, std::vector<Finding>* findings);

/// Orders findings: those about the top level of the file first (an unknown,
/// repeated, missing or mistyped top-level key, a wrong apiVersion or kind:
/// a misspelt `pool:` comes before the unknown references it causes), then
/// the rest; each group by position (line, then column), keeping the order
/// of findings at the same position; findings without a position come first.
void SortFindings(std::vector<Finding>::iterator begin, std::vector<Finding>::iterator end);

}  // namespace rescfg
