#pragma once
/// Whole-microsecond times, integers only: the simulation clock
/// (rescfg-scheduling(7), THE SIMULATION CLOCK) and configuration durations.
/// An instant is microseconds since 1970-01-01T00:00:00Z; a duration is
/// microseconds. Nothing here goes through floating point.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rescfg {

using Micros = int64_t;

inline constexpr Micros kMicrosPerSecond = 1'000'000;
/// The longest duration accepted, in seconds (about 317 years): sums of
/// times stay far inside 64 bits.
inline constexpr int64_t kMaxDurationSeconds = 10'000'000'000;

/// An RFC 3339 time (util/rfc3339.h) exact to the microsecond: more than 6
/// fractional digits is an error, even when they are zeros (the time is
/// read as written). On error, `*error` says why.
std::optional<Micros> ParseSimTime(std::string_view text, std::string* error);

/// A duration written as a decimal number of seconds: digits, optionally a
/// point and at most 6 more digits ("3600", "0.5", "1.000001"); greater
/// than 0 and at most kMaxDurationSeconds. No sign, no exponent, no blanks.
std::optional<Micros> ParseDurationSeconds(std::string_view text, std::string* error);

/// "2026-11-29T10:00:00.000000Z": UTC with six fractional digits.
std::string FormatSimTime(Micros t);

/// For people: "Sun 29 Nov 2026" (`with_weekday`) or "29 Nov", and the
/// time of day "10:05" (UTC), for plot titles and time axes.
std::string FormatSimDate(Micros t, bool with_weekday);
std::string FormatSimClock(Micros t);

/// Seconds as an exact decimal: "3600", "1.5", "0.000001", "-2.25".
std::string FormatSeconds(Micros d);

/// A duration for people (tables, Markdown), rounded to its last unit:
/// "0s", "<1s", "42s", "7m05s", "1h07m", "4d2h"; "-" before a negative one.
/// Machine formats keep FormatSeconds.
std::string FormatDuration(Micros d);

}  // namespace rescfg
