#pragma once
/// The result of `rescfg simulate` (rescfg-scheduling(7), THE SIMULATION CLOCK) for every trace entry, with
/// per-policy and per-pool statistics: what the output formats, the plot
/// and `diff --trace` read. Pure: no I/O.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "decide/report.h"
#include "jobs/job.h"
#include "schedule/problem.h"
#include "simulate/exact.h"
#include "util/sim_time.h"
#include "simulate/simulator.h"
#include "util/text_arena.h"

namespace rescfg {

enum class SimStatus : uint8_t { kFinished, kRunning, kPending, kRejected };
const char* SimStatusName(SimStatus s);

/// One entry's story. `outcome` holds its names, pool, queue, resources,
/// reason (a pending reason, `not-submitted`, or a rejection reason) and message.
struct SimEntry {
  JobOutcome outcome;
  SimStatus status = SimStatus::kPending;
  std::optional<Micros> submitted, started, finished, wait;
  uint32_t preempted = 0;  ///< with preemption: how many times it was stopped
};

/// Waits of the started jobs of a policy, in microseconds: the mean rounded
/// half-even to the microsecond, percentiles by nearest rank.
struct WaitSummary {
  Micros mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

struct PolicyStats {
  std::string name;
  uint64_t jobs = 0, started = 0, never_started = 0;
  std::optional<WaitSummary> wait;  ///< none when no job started
  U256 usage;                       ///< ticks × microseconds held within [start, end]
  std::vector<Micros> waits;        ///< of started jobs, ascending
  std::string GpuHours() const;
  /// With preemption: jobs stopped at least once, and what their lost runs held.
  uint64_t jobs_preempted = 0;
  uint64_t stops = 0;  ///< its runs stopped, each time counted
  U256 lost;
  std::string GpuHoursLost() const;
};

struct PoolStats {
  std::string name;
  Quantity size, peak_in_use;
  U256 usage;  ///< ticks × microseconds held within [start, end]
  std::string GpuHours() const;
  /// GPU-hours over size × span, rounded half-even at the 6th decimal;
  /// none when the span is 0.
  std::optional<std::string> utilisation;
};

/// What a job held in a pool over time, for the plot.
struct UsageInterval {
  uint32_t pool = 0;
  std::optional<uint32_t> policy;
  Quantity amount;
  Micros from = 0, to = 0;
};

/// A preemption, for the plot: at `time` a job of `policy` holding `amount` in `pool` stopped.
struct PreemptionMark {
  Micros time = 0;
  uint32_t pool = 0, policy = 0;
  Quantity amount;
};

struct SimulationReport {
  TextArena text;  ///< what the entries' text views
  bool enabled = true;
  bool preemption = false;              ///< `preemption` is set and the configuration enabled
  uint64_t preemptions = 0;             ///< jobs stopped, counted each time
  std::vector<PreemptionMark> marks;    ///< only when asked for (the plot), in time order
  std::optional<Micros> start, end;
  uint64_t events = 0;
  std::vector<SimEntry> entries;        ///< input order
  std::vector<PolicyStats> policies;    ///< configuration order
  std::vector<PoolStats> pools;         ///< configuration order
  uint64_t finished = 0, running = 0, pending = 0, rejected = 0;
  std::vector<UsageInterval> intervals; ///< only when asked for (the plot)
  PassStats stats;
  PreemptionStats preemption_stats;  ///< with preemption: the decisions' work counts
};

struct SimulationOptions {
  std::optional<Micros> start, until;
  bool keep_intervals = false;
  SimulationProgress progress;
};

/// Resolves the trace against `config` (defaults applied, valid), runs the
/// simulation and assembles the report. The entries are consumed.
SimulationReport BuildSimulation(const Config& config, LoadedJobs&& jobs, const SimulationOptions& options);

/// GPU-hours of ticks × microseconds, rounded half-even at the 6th decimal.
std::string GpuHoursText(const U256& usage);

}  // namespace rescfg
