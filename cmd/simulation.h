#pragma once
/// Pieces of `rescfg simulate` that `rescfg diff --trace` shares.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "simulate/report.h"
#include "util/sim_time.h"

namespace rescfg::cmd {

/// Parses --start or --until (RFC 3339, at most 6 fractional digits); an
/// absent option is fine. Logs the error and returns false otherwise.
bool ParseTimeOption(const char* flag, const std::optional<std::string>& text, std::optional<Micros>* out);
/// --until before --start is an error (logged).
bool CheckSimulationWindow(const std::optional<Micros>& start, const std::optional<Micros>& until);
/// --until before the start the simulation took (the earliest submitted
/// time, without --start) is an error too (logged).
bool CheckSimulatedStart(const SimulationReport& report, const std::optional<Micros>& until);
/// Warns about the first rejected entries (the JSON Lines output has no messages).
void LogRejections(const SimulationReport& report, const std::string& file);

/// "rescfg: simulating: N events, reached TIME" on stderr, rewritten in
/// place at most five times a second; only when stderr is a terminal and
/// warnings are shown (not with -q).
class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  void Show(uint64_t events, Micros now);
  /// Erases the line.
  void Clear();

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace rescfg::cmd
