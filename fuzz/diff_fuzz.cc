/// Semantic diff of two configurations, the input split at a line
/// "---8<---" (no separator: the input against itself). For every valid
/// configuration: canonical text reads back to the same configuration, a
/// configuration never differs from itself, and the diff is empty exactly
/// when the canonical texts are equal, in either direction.

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/canonical.h"
#include "config/loader.h"
#include "diff/config_diff.h"
#include "util/json_writer.h"
#include "validate/validate.h"

namespace {

using rescfg::Config;

/// A valid configuration with defaults applied, as commands see it.
std::optional<Config> Load(std::string_view text) {
  rescfg::LoadedConfig loaded = rescfg::LoadConfigText(text, "fuzz.yaml");
  if (!loaded.config || loaded.unusable || rescfg::HasErrors(loaded.findings)) return std::nullopt;
  std::vector<rescfg::Finding> findings;
  rescfg::ValidateConfig(*loaded.config, loaded.file, &findings);
  if (rescfg::HasErrors(findings)) return std::nullopt;
  Config config = *loaded.config;
  rescfg::ApplyDefaults(config);
  return config;
}

void CheckCanonical(const Config& config) {
  std::string canonical = rescfg::WriteCanonical(config);
  std::optional<Config> again = Load(canonical);
  if (!again || !(*again == config)) std::abort();
  if (rescfg::WriteCanonical(*again) != canonical) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSeparator = "\n---8<---\n";
  std::string_view old_text = text, new_text = text;
  if (size_t at = text.find(kSeparator); at != std::string_view::npos) {
    old_text = text.substr(0, at);
    new_text = text.substr(at + kSeparator.size());
  }
  std::optional<Config> old_config = Load(old_text);
  std::optional<Config> new_config = Load(new_text);
  if (old_config) CheckCanonical(*old_config);
  if (new_config) CheckCanonical(*new_config);
  if (!old_config || !new_config) return 0;

  rescfg::ConfigDiff diff = rescfg::DiffConfigs(*old_config, *new_config);
  std::string rendered = rescfg::RenderDiffText(diff);
  rescfg::JsonWriter json;
  rescfg::WriteDiffJson(diff, json);
  if (rendered.empty() || json.str().empty()) std::abort();
  bool same_text = rescfg::WriteCanonical(*old_config) == rescfg::WriteCanonical(*new_config);
  if (diff.empty() != same_text) std::abort();
  if (rescfg::DiffConfigs(*new_config, *old_config).empty() != diff.empty()) std::abort();
  if (!rescfg::DiffConfigs(*old_config, *old_config).empty()) std::abort();
  return 0;
}
