/// rescfg export kueue on arbitrary configurations: a configuration that
/// validates either exports, as YAML documents that read back and keep
/// Kueue's rules, or is refused with errors that say why; never a crash.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "config/loader.h"
#include "export/kueue.h"
#include "validate/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  rescfg::LoadedConfig loaded = rescfg::LoadConfigText(text, "fuzz.yaml");
  if (!loaded.config) return 0;
  rescfg::ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  if (rescfg::HasErrors(loaded.findings)) return 0;
  rescfg::ApplyDefaults(*loaded.config);
  rescfg::ExportResult result = rescfg::ExportKueue(*loaded.config, loaded.file);
  for (const auto& e : result.errors) {
    if (e.code.empty() || e.message.empty()) std::abort();
  }
  for (const auto& f : result.findings) {
    if (f.code.empty() || f.message.empty() || f.path.empty()) std::abort();
  }
  if (result.errors.empty() == result.text.empty()) std::abort();  // documents, or why not
  if (result.text.empty()) return 0;
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(result.text);
    for (const auto& doc : docs) {
      if (doc.IsNull()) continue;  // the header comment
      if (!doc.IsMap() || doc["apiVersion"].as<std::string>() != "kueue.x-k8s.io/v1beta2") std::abort();
      if (doc["metadata"]["name"].as<std::string>().empty()) std::abort();
    }
  } catch (const YAML::Exception&) {
    std::abort();  // the export must read back as YAML
  }
  return 0;
}
