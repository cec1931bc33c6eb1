/// `rescfg diff`: a semantic diff of two configurations, or of one against
/// the provisioned state, optionally with its impact on a jobs snapshot.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>

#include "commands.h"
#include "config_source.h"
#include "config/renames.h"
#include "diff/config_diff.h"
#include "diff/impact.h"
#include "jobs/loader.h"
#include "now.h"
#include "output_file.h"
#include "simulate/comparison.h"
#include "simulation.h"
#include "state/state_store.h"
#include "util/file_io.h"
#include "util/json_writer.h"

namespace rescfg::cmd {
namespace {

/// The provisioned configuration; an empty one when nothing is provisioned
/// yet (`*nothing` set), so the diff shows what a first provision would do.
std::optional<Config> LoadStateConfig(const DiffOptions& options, std::string* label, bool* nothing) {
  const std::string dir = StateDirOrDefault(options.state_dir);
  auto store = OpenStateForReading(dir, options.lock_timeout_seconds);
  if (!store) return std::nullopt;
  std::string error;
  auto config = store->ReadConfig(store->revision(), &error);
  if (!config) spdlog::error("{}", error);
  *label = dir + " revision " + std::to_string(store->revision());
  *nothing = store->revision() == 0;
  return config;
}

/// Both configurations' simulations of the trace (diff --trace); nullopt
/// when the trace or the options are unusable (errors logged).
std::optional<std::pair<SimulationReport, SimulationReport>> SimulateBoth(const DiffOptions& options,
                                                                          const Config& old_config,
                                                                          const Config& new_config) {
  std::optional<Micros> start, until;
  if (!ParseTimeOption("--start", options.start, &start) || !ParseTimeOption("--until", options.until, &until) ||
      !CheckSimulationWindow(start, until)) {
    return std::nullopt;
  }
  std::optional<JobsFormat> format;
  if (options.trace.format == "yaml") format = JobsFormat::kYaml;
  if (options.trace.format == "jsonl") format = JobsFormat::kJsonLines;
  LoadedJobs trace = LoadJobsFile(options.trace.file, format, ImpactParameterPaths(old_config, new_config));
  LogFindings(trace.findings);
  if (trace.unusable) return std::nullopt;
  const std::string file = trace.file;
  LoadedJobs copy = trace;  // the entries share their text
  ProgressLine progress;
  SimulationOptions simulation;
  simulation.start = start;
  simulation.until = until;
  simulation.progress = [&](uint64_t events, Micros now) { progress.Show(events, now); };
  std::pair<SimulationReport, SimulationReport> both{BuildSimulation(old_config, std::move(copy), simulation),
                                                     BuildSimulation(new_config, std::move(trace), simulation)};
  progress.Clear();
  if (!CheckSimulatedStart(both.first, until) || !CheckSimulatedStart(both.second, until)) return std::nullopt;
  LogRejections(both.second, file);
  return both;
}

}  // namespace

int RunDiff(const DiffOptions& options) {
  if (options.against_state == (options.files.size() == 2)) {
    spdlog::error(options.against_state ? "with --state, give only the NEW configuration"
                                        : "give OLD and NEW configurations, or NEW with --state DIR");
    return kExitUnusable;
  }
  int exit_code = kExitOk;
  std::string old_label;
  std::optional<Config> old_config;
  bool from_nothing = false;
  if (options.against_state) {
    old_config = LoadStateConfig(options, &old_label, &from_nothing);
    if (!old_config) return kExitUnusable;
  } else {
    old_label = options.files[0];
    old_config = LoadConfigForCommand(options.files[0], kExitUnusable, &exit_code);
    if (!old_config) return exit_code;
  }
  const std::string& new_file = options.files.back();
  auto new_config = LoadConfigForCommand(new_file, kExitUnusable, &exit_code);
  if (!new_config) return exit_code;

  ConfigDiff diff = from_nothing ? DiffFromNothing(*new_config) : DiffConfigs(*old_config, *new_config);
  if (options.against_state && !from_nothing) {
    std::vector<Finding> renames;
    CheckRenamesKnown(*old_config, *new_config, new_file, &renames);
    LogFindings(renames);
  }
  std::optional<std::vector<JobImpact>> impact;
  PreemptionImpact preemption;
  if (!options.jobs.file.empty() || options.jobs.from_sync) {
    auto jobs = LoadJobsFrom(options.jobs, ImpactParameterPaths(*old_config, *new_config), nullptr, nullptr,
                             {&*old_config, &*new_config});
    if (!jobs) return kExitUnusable;
    impact = ComputeImpact(*old_config, *new_config, jobs->entries, NowMicros(options.jobs.now), &preemption);
  }
  std::optional<std::pair<SimulationReport, SimulationReport>> simulated;
  if (!options.trace.file.empty()) {
    simulated = SimulateBoth(options, *old_config, *new_config);
    if (!simulated) return kExitUnusable;
  }

  std::string out;
  if (options.format == "markdown") {
    MarkdownDocument doc;
    doc.Add("### Configuration: " + MarkdownCode(old_label) + " → " + MarkdownCode(DisplayName(new_file)));
    RenderDiffMarkdown(diff, doc);
    if (impact) {
      doc.Add("### Impact on the jobs in " + (options.jobs.from_sync ? std::string("the last sync's snapshot")
                                                           : MarkdownCode(DisplayName(options.jobs.file))));
      RenderImpactMarkdown(*impact, doc);
      RenderPreemptionImpactMarkdown(preemption, doc);
    }
    if (simulated) {
      doc.Add("### Simulation of " + MarkdownCode(DisplayName(options.trace.file)));
      RenderSimulationComparisonMarkdown(simulated->first, simulated->second, doc);
    }
    out = doc.Finish();
  } else if (options.format == "json") {
    JsonWriter json(2);
    json.BeginObject().Field("old", old_label).Field("new", DisplayName(new_file)).Field("same", diff.empty());
    json.Key("changes");
    WriteDiffJson(diff, json);
    if (impact) {
      json.Key("impact");
      WriteImpactJson(*impact, json);
      if (preemption.shown()) {
        json.Key("preemption");
        WritePreemptionImpactJson(preemption, json);
      }
    }
    if (simulated) {
      json.Key("simulation");
      WriteSimulationComparisonJson(simulated->first, simulated->second, json);
    }
    json.EndObject();
    out = json.str() + "\n";
  } else {
    out = RenderDiffText(diff);
    if (impact) {
      out += "\nImpact on the jobs in " +
           (options.jobs.from_sync ? std::string("the last sync's snapshot") : DisplayName(options.jobs.file)) + ":\n" + RenderImpactText(*impact) +
           RenderPreemptionImpactText(preemption);
    }
    if (simulated) {
      out += "\nSimulation of " + DisplayName(options.trace.file) + ":\n" +
             RenderSimulationComparisonText(simulated->first, simulated->second);
    }
  }
  if (!WriteOutput(options.output, out)) return kExitUnusable;
  return diff.empty() ? kExitOk : kExitFindings;
}

}  // namespace rescfg::cmd
