#include "now.h"

#include <CLI/CLI.hpp>

#include "jobs/run_facts.h"
#include "util/clock.h"
#include "util/rfc3339.h"

namespace rescfg::cmd {

void AddNow(CLI::App* app, std::string* now) {
  app->add_option("--now", *now,
                  "The instant preemption judges waits and run times at (RFC 3339; default: the current time)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            return ParseRfc3339(text) ? std::string() : "'" + text + "' is not an RFC 3339 time such as 2026-11-29T10:20:00Z";
          },
          "TIME", "RFC 3339"));
}

int64_t NowMicros(const std::string& now) {
  if (auto t = ParseRfc3339(now)) return MicrosOf(*t);
  return SystemClock().UtcMicros();
}

}  // namespace rescfg::cmd
