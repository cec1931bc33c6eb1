#pragma once
/// Load and validate a configuration in one call: what commands use when they
/// need a configuration to work with. Parsing is lib/config's; the checks are
/// validate.h's; this file puts the two together so that config/ never
/// reaches up to the checks.

#include <string>
#include <string_view>

#include "config/loader.h"

namespace rescfg {

/// Loads, validates and applies defaults. Errors (of any kind) leave
/// `config` empty; warnings are kept in `findings`.
LoadedConfig LoadValidConfig(const std::string& path);

/// LoadValidConfig on text already read (`file` names it in findings).
LoadedConfig LoadValidConfigText(std::string_view text, const std::string& file);

}  // namespace rescfg
