#pragma once
/// --now TIME of the commands that judge time (schedule, explain, status, diff, graph): the
/// instant preemption judges waits and run times at (rescfg(1)). The clock is read here, once.

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace rescfg::cmd {

/// Adds --now to `app`, checked as RFC 3339 by CLI11.
void AddNow(CLI::App* app, std::string* now);
/// The instant of --now in microseconds since 1970-01-01T00:00:00Z; the current time when not given.
int64_t NowMicros(const std::string& now);

}  // namespace rescfg::cmd
