/// `rescfg simulate`: replays a trace over time against a configuration
/// (rescfg-scheduling(7), THE SIMULATION CLOCK) and prints when each job would start, where, and how long it
/// would wait.

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <utility>

#include "commands.h"
#include "config_source.h"
#include "output/simulate_output.h"
#include "output_file.h"
#include "simulate/plot.h"
#include "simulate/report.h"
#include "util/sim_time.h"
#include "simulation.h"
#include "util/file_io.h"

namespace rescfg::cmd {

bool ParseTimeOption(const char* flag, const std::optional<std::string>& text, std::optional<Micros>* out) {
  if (!text) return true;
  std::string error;
  *out = ParseSimTime(*text, &error);
  if (!*out) spdlog::error("{}: {}", flag, text->empty() ? std::string("an RFC 3339 time is needed, not nothing") : error);
  return out->has_value();
}

bool CheckSimulationWindow(const std::optional<Micros>& start, const std::optional<Micros>& until) {
  if (start && until && *until < *start) {
    spdlog::error("--until {} is before --start {}", FormatSimTime(*until), FormatSimTime(*start));
    return false;
  }
  return true;
}

bool CheckSimulatedStart(const SimulationReport& report, const std::optional<Micros>& until) {
  if (until && report.start && *until < *report.start) {
    spdlog::error("--until {} is before the start of the simulation, {} (the earliest submitted time; give --start)",
                  FormatSimTime(*until), FormatSimTime(*report.start));
    return false;
  }
  return true;
}

void LogRejections(const SimulationReport& report, const std::string& file) {
  constexpr uint64_t kShown = 10;
  uint64_t shown = 0;
  for (const SimEntry& e : report.entries) {
    if (e.status != SimStatus::kRejected) continue;
    if (++shown > kShown) break;
    const JobOutcome& j = e.outcome;
    spdlog::warn("{}: {} {}: {}", file, j.id ? "job '" + std::string(*j.id) + "'" : "entry " + std::to_string(j.entry),
                 *j.reason, MessageOf(j));
  }
  if (report.rejected > kShown) {
    spdlog::warn("{}: {} more entries rejected (--format yaml lists every message)", file, report.rejected - kShown);
  }
}

ProgressLine::ProgressLine() : enabled_(isatty(STDERR_FILENO) == 1 && spdlog::should_log(spdlog::level::warn)) {}

ProgressLine::~ProgressLine() { Clear(); }

void ProgressLine::Show(uint64_t events, Micros now) {
  if (!enabled_) return;
  const auto wall = std::chrono::steady_clock::now();
  if (shown_ && wall - last_ < std::chrono::milliseconds(200)) return;
  last_ = wall;
  shown_ = true;
  std::fprintf(stderr, "\rrescfg: simulating: %llu events, reached %s\033[K", static_cast<unsigned long long>(events),
               FormatSimTime(now).c_str());
  std::fflush(stderr);
}

void ProgressLine::Clear() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

/// The picture must not overwrite the output or an input.
bool PlotPathIsFree(const std::string& plot, const SimulateOptions& options) {
  const std::pair<const char*, const std::string*> others[] = {
      {"-o", &options.output},
      {"--config", &options.config.config_file},
      {"--trace", &options.trace.file},
      {"--clearml-queues", &options.trace.clearml_queues},
      {"--clearml-workers", &options.trace.clearml_workers}};
  for (const auto& [flag, path] : others) {
    if (SameFile(plot, *path)) {
      spdlog::error("--plot {} is the same file as {} {}; give the picture a file of its own", plot, flag, *path);
      return false;
    }
  }
  return true;
}

int RunSimulate(const SimulateOptions& options) {
  std::optional<Micros> start, until;
  if (!ParseTimeOption("--start", options.start, &start) || !ParseTimeOption("--until", options.until, &until) ||
      !CheckSimulationWindow(start, until)) {
    return kExitUnusable;
  }
  if (options.plot && options.plot->empty()) {
    spdlog::error("--plot: a file name is needed, not nothing");
    return kExitUnusable;
  }
  if (options.plot && !PlotPathIsFree(*options.plot, options)) return kExitUnusable;
  auto config = LoadConfigFrom(options.config);
  if (!config) return kExitUnusable;
  auto jobs = LoadJobsFrom(options.trace, *config);
  if (!jobs) return kExitUnusable;
  const std::string file = jobs->file;

  ProgressLine progress;
  SimulationOptions simulation;
  simulation.start = start;
  simulation.until = until;
  simulation.keep_intervals = options.plot.has_value();
  simulation.progress = [&](uint64_t events, Micros now) { progress.Show(events, now); };
  SimulationReport report = BuildSimulation(*config, std::move(*jobs), simulation);
  progress.Clear();
  if (!CheckSimulatedStart(report, until)) return kExitUnusable;
  LogRejections(report, file);

  // The picture first: if it cannot be written, neither is the output.
  if (options.plot && !WriteOutput(*options.plot, RenderSimulationPlot(report))) return kExitUnusable;
  SimulateFormat format = options.format == "json"    ? SimulateFormat::kJson
                          : options.format == "jsonl" ? SimulateFormat::kJsonLines
                          : options.format == "table" ? SimulateFormat::kTable
                                                      : SimulateFormat::kYaml;
  OutputSink out;
  if (!out.Open(options.output)) return kExitUnusable;
  if (!RenderSimulation(report, format, [&](std::string_view piece) { return out.Write(piece); }) || !out.Finish()) {
    return kExitUnusable;
  }
  spdlog::info("{} events: {} finished, {} running, {} pending, {} rejected", report.events, report.finished,
               report.running, report.pending, report.rejected);
  const PassStats& work = report.stats;
  spdlog::debug("pass work: {} runs, {} placements, {} slots, {} evaluations, {} restales, {} max flows, {} repaired",
                work.runs, work.placements, work.slots, work.evaluations, work.restales, work.flows, work.repairs);
  return report.rejected == 0 ? kExitOk : kExitFindings;
}

}  // namespace rescfg::cmd
