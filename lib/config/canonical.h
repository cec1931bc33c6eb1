#pragma once
/// The canonical text of a configuration: what `rescfg fmt` prints, what the
/// state directory stores and hashes, and what `git diff` shows through a
/// textconv driver.
///
/// Two configurations with the same effective values have byte-identical
/// canonical text, whatever their formatting, comments or key order.

#include <string>
#include <string_view>

#include "config/model.h"

namespace rescfg {

/// Writes `config` (defaults applied) in canonical form: entities in file
/// order, keys in a fixed order, every effective value spelled out, exact
/// quantities (fractions quoted), names and free text double-quoted.
/// Reading the result back and applying defaults gives `config` again.
std::string WriteCanonical(const Config& config);

/// The canonical list entry of one entity ("  - name: ...\n    key: ...\n"),
/// as it appears in WriteCanonical.
/// (Kubernetes settings appear only where they are not the defaults, and a
/// profile's links name their queue only where it is not the pool's.)
std::string CanonicalEntry(const Pool& pool, const Config& config);
std::string CanonicalEntry(const Profile& profile, const Config& config);
std::string CanonicalEntry(const Policy& policy, const Config& config);
/// The same against the default top-level settings (no `kubernetes:` block).
std::string CanonicalEntry(const Pool& pool);
std::string CanonicalEntry(const Policy& policy);

/// `text` as a YAML double-quoted scalar, with escapes for '"', '\' and
/// every control character.
std::string YamlQuote(std::string_view text);

}  // namespace rescfg
