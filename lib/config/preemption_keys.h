#pragma once
/// Reading the top-level `preemption:` block of a configuration (rescfg(5),
/// PREEMPTION): minRuntime, delay and stopTimeout, each a duration
/// (config/durations.h) with its default when left out.
///
/// Errors: wrong-type (not a mapping, a duration that is no scalar),
/// bad-duration (at the offending value), and the loader's unknown-key
/// (with "did you mean") and duplicate-key.

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "util/finding.h"

namespace rescfg {

/// The block at `path` ("preemption"); nullopt when it is not a mapping
/// (reported). Invalid durations keep their defaults; the findings say why.
std::optional<PreemptionSettings> ReadPreemptionSettings(const YAML::Node& node, const std::string& path,
                                                         const std::string& file, std::vector<Finding>* findings);

}  // namespace rescfg
