#include "config/durations.h"

#include <iterator>

#include "util/sim_time.h"

namespace rescfg {
namespace {

struct Unit {
  char letter;
  int64_t micros;
};
constexpr Unit kUnits[] = {{'d', 86'400 * kMicrosPerSecond},
                           {'h', 3'600 * kMicrosPerSecond},
                           {'m', 60 * kMicrosPerSecond},
                           {'s', kMicrosPerSecond}};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

/// Reads the digits at `text[*i]` as a whole number, at most `max`: false
/// when there are none or the number is larger (no overflow either way).
bool ReadWhole(std::string_view text, size_t* i, int64_t max, int64_t* out) {
  const size_t start = *i;
  int64_t value = 0;
  bool too_big = false;
  for (; *i < text.size() && IsDigit(text[*i]); ++*i) {
    if (too_big) continue;
    const int64_t digit = text[*i] - '0';
    if (value > (max - digit) / 10) too_big = true; else value = value * 10 + digit;
  }
  *out = value;
  return *i > start && !too_big;
}

std::string TooLong() {
  return "is longer than the largest duration, 3650d";
}

std::optional<int64_t> Fail(std::string_view text, const std::string& why, std::string* error) {
  *error = "'" + std::string(text) + "' is not a duration: " + why;
  return std::nullopt;
}

/// `S` or `S.FFFFFF`: seconds.
std::optional<int64_t> ParseSeconds(std::string_view text, std::string* error) {
  size_t i = 0;
  int64_t seconds = 0;
  if (!ReadWhole(text, &i, kMaxDurationMicros / kMicrosPerSecond, &seconds)) {
    return Fail(text, TooLong(), error);
  }
  int64_t micros = seconds * kMicrosPerSecond;
  if (i < text.size()) {  // text[i] == '.', checked by the caller's shape test
    const size_t digits = text.size() - i - 1;
    if (digits == 0 || digits > 6) {
      return Fail(text, "a number of seconds has 1 to 6 digits after the point", error);
    }
    int64_t fraction = 0;
    for (size_t k = i + 1; k < text.size(); ++k) fraction = fraction * 10 + (text[k] - '0');
    for (size_t k = digits; k < 6; ++k) fraction *= 10;
    micros += fraction;
  }
  if (micros > kMaxDurationMicros) return Fail(text, TooLong(), error);
  return micros;
}

/// `1d2h3m4s` with each unit at most once, in that order.
std::optional<int64_t> ParseUnits(std::string_view text, std::string* error) {
  size_t i = 0, next_unit = 0;
  int64_t total = 0;
  while (i < text.size()) {
    int64_t count = 0;
    if (!IsDigit(text[i])) {
      return Fail(text, "expected a whole number before each unit",
                  error);
    }
    if (!ReadWhole(text, &i, kMaxDurationMicros / kMicrosPerSecond, &count)) return Fail(text, TooLong(), error);
    if (i == text.size()) {
      return Fail(text, "the number at the end has no unit (d, h, m or s)", error);
    }
    const char letter = text[i];
    size_t u = next_unit;
    while (u < std::size(kUnits) && kUnits[u].letter != letter) ++u;
    if (u == std::size(kUnits)) {
      bool known = false;
      for (const Unit& unit : kUnits) known |= unit.letter == letter;
      return Fail(text,
                  known ? std::string("the units must come in the order d, h, m, s, each at most once")
                        : "unknown unit '" + std::string(1, letter) + "' (use d, h, m or s)",
                  error);
    }
    if (count > (kMaxDurationMicros - total) / kUnits[u].micros) return Fail(text, TooLong(), error);
    total += count * kUnits[u].micros;
    next_unit = u + 1;
    ++i;
  }
  return total;
}

}  // namespace

std::optional<int64_t> ParseConfigDuration(std::string_view text, std::string* error) {
  if (text.empty()) {
    *error = "a duration must not be empty";
    return std::nullopt;
  }
  if (text.front() == '-') return Fail(text, "a duration is never negative", error);
  // Seconds: digits with at most one '.', nothing else.
  bool plain = true;
  int points = 0;
  for (char c : text) {
    if (c == '.') ++points; else if (!IsDigit(c)) plain = false;
  }
  if (plain && points <= 1 && IsDigit(text.front())) return ParseSeconds(text, error);
  if (plain) return Fail(text, "a number of seconds is written like 90 or 1.5", error);
  if (points > 0) return Fail(text, "units take whole numbers (write 1m30s, or 90.5 seconds as a number)", error);
  return ParseUnits(text, error);
}

std::string CanonicalDuration(int64_t micros) {
  if (micros % kMicrosPerSecond != 0) return FormatSeconds(micros);
  if (micros == 0) return "0s";
  std::string out;
  for (const Unit& unit : kUnits) {
    if (micros >= unit.micros) {
      out += std::to_string(micros / unit.micros) + unit.letter;
      micros %= unit.micros;
    }
  }
  return out;
}

}  // namespace rescfg
