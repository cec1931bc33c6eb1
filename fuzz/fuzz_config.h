#pragma once
/// The small configuration a fuzzer resolves its inputs against: loaded
/// from YAML text the fuzzer holds, with defaults applied; it must be valid.

#include <cstdlib>

#include "config/loader.h"

namespace rescfg::fuzz {

inline Config LoadFuzzConfig(const char* text) {
  LoadedConfig loaded = LoadConfigText(text, "fuzz.yaml");
  if (!loaded.config) std::abort();
  Config config = *loaded.config;
  ApplyDefaults(config);
  return config;
}

}  // namespace rescfg::fuzz
