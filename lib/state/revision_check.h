#pragma once
/// What a stored revision must be: a configuration that loads, validates
/// and reads back as itself. Checked before a revision is committed (the
/// round-trip guard, so that no encoding bug can store a revision that a
/// later command refuses) and whenever one is read back.

#include <optional>
#include <string>
#include <string_view>

#include "config/model.h"

namespace rescfg {

/// The configuration of a stored revision's canonical text (defaults
/// applied). nullopt with `error` set when it does not load, or, while
/// `validate` is set, does not validate under this version's rules.
/// `name` is the file shown in messages.
std::optional<Config> LoadStoredConfig(std::string_view text, const std::string& name, bool validate,
                                       std::string* error);

/// The round-trip guard: "" when `canonical` loads, validates, and written
/// back in canonical form is byte for byte `canonical`; otherwise why not.
std::string RoundTripProblem(std::string_view canonical);

}  // namespace rescfg
