#pragma once
/// Semantic checks of a loaded configuration (SPEC §2 "Validation").

#include <string>
#include <vector>

#include "config/model.h"
#include "finding.h"

namespace rescfg {

/// Appends every error and warning about `config` (as loaded, before
/// defaults) to `findings`, in a stable order.
void ValidateConfig(const Config& config, const std::string& file, std::vector<Finding>* findings);

}  // namespace rescfg
