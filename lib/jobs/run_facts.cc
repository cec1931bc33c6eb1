#include "jobs/run_facts.h"

#include <cstdio>

#include "jobs/job_fields.h"

namespace rescfg {

int64_t MicrosOf(const Timestamp& t) { return t.seconds * 1'000'000 + t.nanos / 1000; }

std::string ReadRunFacts(const JobEntry& e, int64_t* started_us, bool* stopping) {
  if (e.started) {
    const std::optional<Timestamp> t = ParseRfc3339(*e.started);
    if (!t) return "started '" + Excerpt(*e.started) + "' is not an RFC 3339 time such as 2026-11-29T10:00:00Z";
    *started_us = MicrosOf(*t);
  }
  if (e.stopping) {
    if (*e.stopping == "true") {
      *stopping = true;
    } else if (*e.stopping != "false") {
      return "stopping must be true or false, not '" + Excerpt(*e.stopping) + "'";
    }
  }
  return "";
}

std::string FormatMicros(int64_t micros) {
  int64_t seconds = micros / 1'000'000, fraction = micros % 1'000'000;
  if (fraction < 0) fraction += 1'000'000, --seconds;
  int64_t days = seconds / 86400, rest = seconds % 86400;
  if (rest < 0) rest += 86400, --days;
  // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar).
  const int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2);
  char text[48];
  int n = std::snprintf(text, sizeof text, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld", static_cast<long long>(year),
                        static_cast<long long>(month), static_cast<long long>(day), static_cast<long long>(rest / 3600),
                        static_cast<long long>(rest / 60 % 60), static_cast<long long>(rest % 60));
  std::string out(text, static_cast<size_t>(n));
  if (fraction) {
    std::snprintf(text, sizeof text, ".%06lld", static_cast<long long>(fraction));
    out += text;
  }
  return out + "Z";
}

}  // namespace rescfg
