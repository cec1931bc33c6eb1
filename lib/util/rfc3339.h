#pragma once
/// RFC 3339 timestamps for a job's `enqueued` time (rescfg(5), JOBS FILE).

#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rescfg {

/// An instant in UTC: whole seconds since 1970-01-01T00:00:00Z plus
/// nanoseconds (0..999999999), plus the fractional digits beyond the ninth
/// when the text has more (exact, never rounded: two different instants
/// never tie). Orders chronologically.
struct Timestamp {
  int64_t seconds = 0;
  int32_t nanos = 0;
  /// The digits after the ninth, trailing zeros dropped ("" when none): a
  /// view of the parsed text. Compared as text, which for digit strings
  /// without trailing zeros is their order as fractions.
  std::string_view beyond_nanos;
  friend auto operator<=>(const Timestamp&, const Timestamp&) = default;
};

/// Parses an RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`,
/// `t` and `z` also accepted in lower case. Rejects everything else: a date
/// without time, a missing offset, a space instead of `T`, impossible dates
/// (Feb 30), hour 24, a leap second (:60). Any number of fractional digits.
std::optional<Timestamp> ParseRfc3339(std::string_view text);

}  // namespace rescfg
