#include "util/sim_time.h"

#include "util/rfc3339.h"

namespace rescfg {
namespace {

/// Civil date of days since 1970-01-01 (H. Hinnant's algorithm).
void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

/// Floor division and its non-negative remainder.
int64_t FloorDiv(int64_t a, int64_t b, int64_t* rem) {
  int64_t q = a / b, r = a % b;
  if (r < 0) {
    r += b;
    --q;
  }
  *rem = r;
  return q;
}

void Append(std::string* out, int64_t v, int width) {
  std::string digits = std::to_string(v);
  if (static_cast<int>(digits.size()) < width) out->append(static_cast<size_t>(width) - digits.size(), '0');
  out->append(digits);
}

}  // namespace

std::optional<Micros> ParseSimTime(std::string_view text, std::string* error) {
  std::optional<Timestamp> t = ParseRfc3339(text);
  if (!t) {
    *error = "'" + std::string(text.substr(0, 40)) + "' is not an RFC 3339 time such as 2026-11-29T10:00:00Z";
    return std::nullopt;
  }
  // "YYYY-MM-DDTHH:MM:SS" is 19 bytes; a fraction follows it, if any.
  size_t digits = 0;
  if (text.size() > 19 && text[19] == '.') {
    while (20 + digits < text.size() && text[20 + digits] >= '0' && text[20 + digits] <= '9') ++digits;
  }
  if (digits > 6) {
    *error = "'" + std::string(text.substr(0, 40)) + "' has " + std::to_string(digits) +
             " fractional digits; times are exact to the microsecond (at most 6)";
    return std::nullopt;
  }
  // An offset can carry a time written in year 0000 or 9999 out of what
  // RFC 3339 can write in UTC, and every time prints in UTC.
  constexpr int64_t kFirstSecond = -62167219200;  // 0000-01-01T00:00:00Z
  constexpr int64_t kLastSecond = 253402300799;   // 9999-12-31T23:59:59Z
  if (t->seconds < kFirstSecond || t->seconds > kLastSecond) {
    *error = "'" + std::string(text.substr(0, 40)) + "' is outside the years 0000 to 9999 in UTC";
    return std::nullopt;
  }
  return t->seconds * kMicrosPerSecond + t->nanos / 1000;
}

std::optional<Micros> ParseDurationSeconds(std::string_view text, std::string* error) {
  const std::string shown = "'" + std::string(text.substr(0, 40)) + "'";
  size_t i = 0;
  int64_t whole = 0;
  bool overflow = false;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    whole = whole * 10 + (text[i] - '0');
    if (whole > kMaxDurationSeconds) {
      overflow = true;
      whole = kMaxDurationSeconds + 1;
    }
    ++i;
  }
  const bool has_whole = i > 0;
  int64_t fraction = 0;
  size_t fraction_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (fraction_digits < 6) fraction = fraction * 10 + (text[i] - '0');
      ++fraction_digits;
      ++i;
    }
    if (fraction_digits == 0) i = text.size() + 1;  // "3." is not a number
  }
  if (!has_whole || i != text.size()) {
    if (!text.empty() && text[0] == '-') {
      *error = "duration " + shown + " must be greater than 0";
    } else if (has_whole && text.find_first_of("eE") != std::string_view::npos) {
      *error = "duration " + shown + " must be written as a plain decimal number of seconds (3600, 0.5), without an exponent";
    } else {
      *error = "duration " + shown + " is not a number of seconds such as 3600 or 0.5";
    }
    return std::nullopt;
  }
  if (fraction_digits > 6) {
    *error = "duration " + shown + " has " + std::to_string(fraction_digits) +
             " fractional digits; times are exact to the microsecond (at most 6)";
    return std::nullopt;
  }
  if (overflow || (whole == kMaxDurationSeconds && fraction > 0)) {
    *error = "duration " + shown + " is longer than " + std::to_string(kMaxDurationSeconds) + " seconds";
    return std::nullopt;
  }
  for (size_t k = fraction_digits; k < 6; ++k) fraction *= 10;
  const Micros micros = whole * kMicrosPerSecond + fraction;
  if (micros == 0) {
    *error = "duration " + shown + " must be greater than 0";
    return std::nullopt;
  }
  return micros;
}

std::string FormatSimDate(Micros t, bool with_weekday) {
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  static constexpr const char* kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};  // 1970-01-01 first
  int64_t rest = 0, weekday = 0;
  const int64_t days = FloorDiv(FloorDiv(t, kMicrosPerSecond, &rest), 86400, &rest);
  FloorDiv(days, 7, &weekday);
  int64_t year = 0;
  unsigned month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  std::string out = std::to_string(day) + " " + kMonths[month - 1];
  if (with_weekday) out = std::string(kDays[weekday]) + " " + out + " " + std::to_string(year);
  return out;
}

std::string FormatSimClock(Micros t) {
  int64_t rest = 0, secs_of_day = 0;
  FloorDiv(FloorDiv(t, kMicrosPerSecond, &rest), 86400, &secs_of_day);
  std::string out;
  Append(&out, secs_of_day / 3600, 2);
  out.push_back(':');
  Append(&out, secs_of_day / 60 % 60, 2);
  return out;
}

std::string FormatSimTime(Micros t) {
  int64_t micros = 0, secs_of_day = 0;
  const int64_t seconds = FloorDiv(t, kMicrosPerSecond, &micros);
  const int64_t days = FloorDiv(seconds, 86400, &secs_of_day);
  int64_t year = 0;
  unsigned month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  std::string out;
  out.reserve(27);
  Append(&out, year, 4);
  out.push_back('-');
  Append(&out, month, 2);
  out.push_back('-');
  Append(&out, day, 2);
  out.push_back('T');
  Append(&out, secs_of_day / 3600, 2);
  out.push_back(':');
  Append(&out, secs_of_day / 60 % 60, 2);
  out.push_back(':');
  Append(&out, secs_of_day % 60, 2);
  out.push_back('.');
  Append(&out, micros, 6);
  out.push_back('Z');
  return out;
}

std::string FormatSeconds(Micros d) {
  std::string out;
  uint64_t magnitude = d < 0 ? uint64_t(0) - static_cast<uint64_t>(d) : static_cast<uint64_t>(d);
  if (d < 0) out.push_back('-');
  out += std::to_string(magnitude / kMicrosPerSecond);
  uint64_t fraction = magnitude % kMicrosPerSecond;
  if (fraction == 0) return out;
  std::string digits = std::to_string(fraction);
  digits.insert(0, 6 - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

std::string FormatDuration(Micros d) {
  if (d < 0) return "-" + FormatDuration(d == INT64_MIN ? INT64_MAX : -d);
  auto rounded = [&](int64_t unit_seconds) {
    const uint64_t unit = static_cast<uint64_t>(unit_seconds) * kMicrosPerSecond;
    return (static_cast<uint64_t>(d) + unit / 2) / unit;
  };
  auto two = [](uint64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  if (d == 0) return "0s";
  const uint64_t seconds = rounded(1);
  if (seconds == 0) return "<1s";
  if (seconds < 60) return std::to_string(seconds) + "s";
  if (seconds < 3600) return std::to_string(seconds / 60) + "m" + two(seconds % 60) + "s";
  const uint64_t minutes = rounded(60);
  if (minutes < 24 * 60) return std::to_string(minutes / 60) + "h" + two(minutes % 60) + "m";
  const uint64_t hours = rounded(3600);
  return std::to_string(hours / 24) + "d" + std::to_string(hours % 24) + "h";
}

}  // namespace rescfg
