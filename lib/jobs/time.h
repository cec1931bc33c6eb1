#pragma once
/// RFC 3339 timestamps for `enqueued` (SPEC §3).

#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rescfg {

/// A UTC instant, sortable.
struct Timestamp {
  int64_t seconds = 0;  ///< since 1970-01-01T00:00:00Z
  int32_t nanos = 0;
  auto operator<=>(const Timestamp&) const = default;
};

/// Parses "2026-11-29T10:00:00Z", "2026-11-29T10:00:00.5+02:00", ...
/// nullopt for anything that is not an RFC 3339 date-time with an offset.
std::optional<Timestamp> ParseRfc3339(std::string_view text);

}  // namespace rescfg
