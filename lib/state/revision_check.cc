#include "state/revision_check.h"

#include "config/canonical.h"
#include "config/loader.h"
#include "validate/validate.h"

namespace rescfg {

std::optional<Config> LoadStoredConfig(std::string_view text, const std::string& name, bool validate,
                                       std::string* error) {
  LoadedConfig loaded = LoadConfigText(text, name);
  if (loaded.config && validate) ValidateConfig(*loaded.config, name, &loaded.findings);
  if (!loaded.config || HasErrors(loaded.findings)) {
    *error = name + ": the stored revision is not a valid configuration for this version of rescfg";
    for (const auto& f : loaded.findings) {
      if (f.severity == Severity::kError) {
        *error += " (line " + std::to_string(f.mark.line) + ": " + (f.path.empty() ? "" : f.path + ": ") +
                  f.message + ")";
        break;
      }
    }
    return std::nullopt;
  }
  ApplyDefaults(*loaded.config);
  return loaded.config;
}

std::string RoundTripProblem(std::string_view canonical) {
  std::string error;
  auto config = LoadStoredConfig(canonical, "the canonical form", /*validate=*/true, &error);
  if (!config) return error;
  const std::string again = WriteCanonical(*config);
  if (again == canonical) return "";
  size_t at = 0;
  while (at < again.size() && at < canonical.size() && again[at] == canonical[at]) ++at;
  size_t line = 1;
  for (size_t i = 0; i < at; ++i) line += canonical[i] == '\n';
  return "the canonical form does not read back as itself (first difference on line " +
         std::to_string(line) + ")";
}

}  // namespace rescfg
