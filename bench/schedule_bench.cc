/// Benchmarks of the stages of `rescfg schedule` on generated scenarios
/// (bench/scenario.h): loading, resolution, the scheduling pass alone, and
/// rendering JSON Lines. The end-to-end figures come from scripts/bench.sh.

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <tuple>

#include "config/loader.h"
#include "decide/report.h"
#include "jobs/loader.h"
#include "jobs/resolve.h"
#include "output/schedule_output.h"
#include "scenario.h"
#include "schedule/problem.h"

namespace rescfg::bench {
namespace {

/// A scenario with everything the stages need, built once per shape.
struct Prepared {
  Config config;
  std::vector<JobEntry> entries;
  std::shared_ptr<JobsText> text;  ///< what the entries view
  std::string jsonl, yaml;
  ResolvedJobs resolved;
};

const Prepared& Get(size_t queued, ReservationMode mode, size_t policies) {
  static std::map<std::tuple<size_t, ReservationMode, size_t>, std::unique_ptr<Prepared>> cache;
  auto& slot = cache[{queued, mode, policies}];
  if (slot) return *slot;
  ScenarioOptions options;
  options.queued = queued;
  options.reservations = mode;
  options.policies = policies;
  Scenario s = GenerateScenario(options);
  slot = std::make_unique<Prepared>();
  slot->config = *LoadScenarioConfig(s);
  LoadedJobs jobs = JobEntries(s);
  slot->entries = std::move(jobs.entries);
  slot->text = jobs.text;
  WriteJobsJsonLines(s, [&](const std::string& text) { slot->jsonl += text; });
  WriteJobsYaml(s, [&](const std::string& text) { slot->yaml += text; });
  slot->resolved = ResolveJobs(slot->config, slot->entries);
  slot->resolved.input.config = &slot->config;
  return *slot;
}

ReservationMode Mode(int64_t m) { return static_cast<ReservationMode>(m); }

void SetLabel(benchmark::State& state, ReservationMode mode, size_t policies) {
  state.SetLabel(std::string(ReservationModeName(mode)) + " reservations, " + std::to_string(policies) + " policies");
}

/// The scheduling core alone: RunSchedulingPass on a resolved input.
void BM_SchedulingPass(benchmark::State& state) {
  auto mode = Mode(state.range(1));
  size_t policies = static_cast<size_t>(state.range(2));
  const Prepared& p = Get(static_cast<size_t>(state.range(0)), mode, policies);
  PassStats stats;
  for (auto _ : state) {
    stats = {};
    SchedulingResult result = RunSchedulingPass(p.resolved.input, &stats);
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(p.resolved.input.queued.size()));
  state.counters["placements"] = double(stats.placements);
  state.counters["evaluations"] = double(stats.evaluations);
  state.counters["flows"] = double(stats.flows);
  state.counters["repairs"] = double(stats.repairs);
  SetLabel(state, mode, policies);
}
// Without reservations the pass scales to a million jobs; with them, the
// reservation rule dominates (docs/performance.md), so fewer policies.
BENCHMARK(BM_SchedulingPass)
    ->Args({10'000, 0, 1000})->Args({100'000, 0, 1000})->Args({1'000'000, 0, 1000})
    ->Args({10'000, 1, 100})->Args({100'000, 1, 100})->Args({10'000, 1, 1000})->Args({10'000, 2, 1000})
    ->Args({10'000, 2, 100})->Args({100'000, 2, 100})
    ->Unit(benchmark::kMillisecond);

/// Args: queued jobs, threads (1: one pass; 2: two halves at once on
/// inputs large enough).
void BM_ResolveJobs(benchmark::State& state) {
  const Prepared& p = Get(static_cast<size_t>(state.range(0)), ReservationMode::kNone, 1000);
  const ResolveThreads threads = state.range(1) == 1 ? ResolveThreads::kOne : ResolveThreads::kAuto;
  for (auto _ : state) {
    ResolvedJobs resolved = ResolveJobs(p.config, p.entries, threads);
    benchmark::DoNotOptimize(resolved);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(p.entries.size()));
}
BENCHMARK(BM_ResolveJobs)->Args({10'000, 2})->Args({100'000, 1})->Args({100'000, 2})->Unit(benchmark::kMillisecond);

void LoadBench(benchmark::State& state, JobsFormat format) {
  const Prepared& p = Get(static_cast<size_t>(state.range(0)), ReservationMode::kNone, 1000);
  const std::string& text = format == JobsFormat::kJsonLines ? p.jsonl : p.yaml;
  const std::vector<std::string> paths = DynamicParameterPaths(p.config);
  for (auto _ : state) {
    LoadedJobs loaded = LoadJobsText(text, format, "jobs", paths);
    benchmark::DoNotOptimize(loaded);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(p.entries.size()));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}
void BM_LoadJsonLines(benchmark::State& state) { LoadBench(state, JobsFormat::kJsonLines); }
void BM_LoadYaml(benchmark::State& state) { LoadBench(state, JobsFormat::kYaml); }
BENCHMARK(BM_LoadJsonLines)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadYaml)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

/// JSON Lines read and resolved at once (what `schedule` does), to compare
/// with BM_LoadJsonLines and BM_ResolveJobs/N/2 together.
void BM_LoadAndResolveJsonLines(benchmark::State& state) {
  const Prepared& p = Get(static_cast<size_t>(state.range(0)), ReservationMode::kNone, 1000);
  const std::vector<std::string> paths = DynamicParameterPaths(p.config);
  for (auto _ : state) {
    LoadedJobs loaded = LoadJobsText(p.jsonl, JobsFormat::kJsonLines, "jobs", paths, &p.config);
    benchmark::DoNotOptimize(loaded);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(p.entries.size()));
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(p.jsonl.size()));
}
BENCHMARK(BM_LoadAndResolveJsonLines)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_RenderJsonLines(benchmark::State& state) {
  const Prepared& p = Get(static_cast<size_t>(state.range(0)), ReservationMode::kNone, 1000);
  ScheduleReport report = BuildSchedule(p.config, p.entries);
  for (auto _ : state) {
    std::string out = RenderSchedule(report, ScheduleFormat::kJsonLines);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(report.jobs.size()));
}
BENCHMARK(BM_RenderJsonLines)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

/// As written by `schedule -o`: pieces of about a megabyte to a sink, two
/// threads rendering alternate pieces on large reports.
void BM_RenderJsonLinesPieces(benchmark::State& state) {
  const Prepared& p = Get(static_cast<size_t>(state.range(0)), ReservationMode::kNone, 1000);
  ScheduleReport report = BuildSchedule(p.config, p.entries);
  size_t bytes = 0;
  for (auto _ : state) {
    RenderSchedule(report, ScheduleFormat::kJsonLines, [&](std::string_view piece) {
      bytes += piece.size();
      return true;
    });
  }
  benchmark::DoNotOptimize(bytes);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(report.jobs.size()));
}
BENCHMARK(BM_RenderJsonLinesPieces)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace rescfg::bench
