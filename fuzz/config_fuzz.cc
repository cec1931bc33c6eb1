/// The configuration loader and validator on arbitrary text: no crash, no
/// exception, and every finding is complete enough to print.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "config/loader.h"
#include "validate/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  rescfg::LoadedConfig loaded = rescfg::LoadConfigText(text, "fuzz.yaml");
  std::vector<rescfg::Finding> findings = loaded.findings;
  if (loaded.config) rescfg::ValidateConfig(*loaded.config, loaded.file, &findings);
  for (const auto& f : findings) {
    if (f.code.empty() || f.message.empty()) std::abort();
  }
  if (loaded.unusable && loaded.findings.empty()) std::abort();  // unusable says why
  return 0;
}
