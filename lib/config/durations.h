#pragma once
/// Durations of the configuration (rescfg(5), DURATIONS): a number of seconds
/// (`90`, `1.5`, at most 6 fractional digits) or whole units in the order d,
/// h, m, s, each at most once (`90s`, `10m`, `1h30m`, `2d`). Read from their
/// text into whole microseconds, never through floating point.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rescfg {

/// The largest duration accepted: 3650 days (about ten years), so that any
/// time plus a duration stays far inside int64 microseconds.
inline constexpr int64_t kMaxDurationMicros = int64_t{3650} * 86'400 * 1'000'000;

/// The duration `text` names, in microseconds; nullopt with `*error` set
/// (a sentence, e.g. "'1m30' is not a duration: ...") otherwise.
std::optional<int64_t> ParseConfigDuration(std::string_view text, std::string* error);

/// The canonical text of a duration: whole seconds in units, largest first,
/// zero units left out (`1h30m`, `2d`, `90` s -> `1m30s`, 0 -> `0s`); a
/// duration with a fraction of a second as plain seconds (`1.5`, `0.000001`).
/// ParseConfigDuration(CanonicalDuration(d)) == d for every 0 <= d <= kMaxDurationMicros.
std::string CanonicalDuration(int64_t micros);

}  // namespace rescfg
