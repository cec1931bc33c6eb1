#include "config/preemption_keys.h"

#include "config/durations.h"
#include "util/yaml_input.h"

namespace rescfg {
namespace {

/// Reads one duration into `*micros` (left alone when absent or invalid).
void ReadDuration(const MapReader& map, const char* key, bool zero_allowed, const std::string& path,
                  const std::string& file, std::vector<Finding>* findings, int64_t* micros, Mark* mark) {
  auto node = map.Get(key);
  if (!node) return;
  *mark = MarkOf(*node);
  const std::string where = path + "." + key;
  if (!node->IsScalar()) {
    findings->push_back({"wrong-type", Severity::kError, file, *mark, where,
                         std::string(key) + " must be a duration such as 10m or 90, found " + DescribeNode(*node),
                         ""});
    return;
  }
  std::string error;
  auto value = ParseConfigDuration(node->Scalar(), &error);
  if (value && *value == 0 && !zero_allowed) {
    value.reset();
    error = std::string(key) + " must be longer than 0";
  }
  if (!value) {
    findings->push_back({"bad-duration", Severity::kError, file, *mark, where, error,
                         "e.g. 90, 1.5, 90s, 10m, 1h30m or 2d"});
    return;
  }
  *micros = *value;
}

}  // namespace

std::optional<PreemptionSettings> ReadPreemptionSettings(const YAML::Node& node, const std::string& path,
                                                         const std::string& file, std::vector<Finding>* findings) {
  if (!node.IsMap()) {
    findings->push_back({"wrong-type", Severity::kError, file, MarkOf(node), path,
                         "preemption must be a mapping {minRuntime, delay, stopTimeout}, found " + DescribeNode(node),
                         "write preemption: {} for the defaults (minRuntime: 10m, delay: 1m, stopTimeout: 5m)"});
    return std::nullopt;
  }
  MapReader map(node, path, {"minRuntime", "delay", "stopTimeout"}, file, findings);
  PreemptionSettings settings;
  settings.mark = MarkOf(node);
  ReadDuration(map, "minRuntime", true, path, file, findings, &settings.min_runtime_us, &settings.min_runtime_mark);
  ReadDuration(map, "delay", true, path, file, findings, &settings.delay_us, &settings.delay_mark);
  ReadDuration(map, "stopTimeout", false, path, file, findings, &settings.stop_timeout_us,
               &settings.stop_timeout_mark);
  return settings;
}

}  // namespace rescfg
