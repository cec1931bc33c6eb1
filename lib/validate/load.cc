#include "validate/load.h"

#include "validate/validate.h"

namespace rescfg {

namespace {

LoadedConfig Validated(LoadedConfig loaded) {
  if (!loaded.config) return loaded;
  ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  if (HasErrors(loaded.findings)) {
    loaded.config.reset();
    return loaded;
  }
  ApplyDefaults(*loaded.config);
  return loaded;
}

}  // namespace

LoadedConfig LoadValidConfig(const std::string& path) { return Validated(LoadConfigFile(path)); }

LoadedConfig LoadValidConfigText(std::string_view text, const std::string& file) {
  return Validated(LoadConfigText(text, file));
}

}  // namespace rescfg
