/// rescfg-gen: writes a generated scenario (bench/scenario.h) as files:
/// DIR/config.yaml, DIR/jobs.yaml and DIR/jobs.jsonl; with the format
/// `clearml` also the same jobs as a ClearML snapshot (bench/clearml_scenario.h):
/// DIR/tasks.json, DIR/queues.json, DIR/workers.json and their JSON Lines
/// twin DIR/tasks-twin.jsonl; with --trace, a trace for `rescfg simulate`
/// instead of the snapshot: DIR/trace.yaml and DIR/trace.jsonl.
///
///   rescfg-gen --queued 100000 [--seed 1] [--reservations none|some|heavy]
///              [--policies 1000] [--formats yaml,jsonl,clearml] [--running-per-100 25]
///              [--machines 16]
///              [--trace LOAD_PERCENT [--waves 4] [--mean-duration SECONDS]] --out DIR

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "clearml_scenario.h"
#include "scenario.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: rescfg-gen --queued N [--seed S] [--reservations none|some|heavy] [--policies N]\n"
               "                  [--formats yaml,jsonl,clearml] [--running-per-100 N] [--machines N]\n"
               "                  [--trace LOAD_PERCENT [--waves N] [--mean-duration SECONDS]] --out DIR\n");
  return 2;
}

bool WriteFile(const std::string& path, auto produce) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::perror(path.c_str());
    return false;
  }
  bool ok = true;
  produce([&](const std::string& text) { ok = ok && std::fwrite(text.data(), 1, text.size(), f) == text.size(); });
  ok = std::fclose(f) == 0 && ok;
  if (!ok) std::fprintf(stderr, "%s: write failed\n", path.c_str());
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace rescfg::bench;
  ScenarioOptions options;
  std::string out, formats = "yaml,jsonl";
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) return Usage();
    std::string value = argv[++i];
    if (flag == "--queued") {
      options.queued = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--seed") {
      options.seed = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--machines") {
      options.machines_per_pool = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--running-per-100") {
      options.running_per_100_queued = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--policies") {
      options.policies = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--reservations") {
      if (value == "none") options.reservations = ReservationMode::kNone;
      else if (value == "some") options.reservations = ReservationMode::kSome;
      else if (value == "heavy") options.reservations = ReservationMode::kHeavy;
      else return Usage();
    } else if (flag == "--trace") {
      options.trace = true;
      options.load_percent = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 10));
    } else if (flag == "--waves") {
      options.waves = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 10));
    } else if (flag == "--mean-duration") {
      options.mean_duration_seconds = std::strtoull(value.c_str(), nullptr, 10);
    } else if (flag == "--formats") {
      formats = value;
    } else if (flag == "--out") {
      out = value;
    } else {
      return Usage();
    }
  }
  if (out.empty() || options.policies == 0 || (options.trace && (options.load_percent == 0 || options.mean_duration_seconds == 0))) {
    return Usage();
  }
  Scenario s = GenerateScenario(options);
  const std::string jobs = out + (options.trace ? "/trace" : "/jobs");
  bool ok = WriteFile(out + "/config.yaml", [&](auto write) { write(ConfigYaml(s)); });
  if (ok && formats.find("yaml") != std::string::npos) {
    ok = WriteFile(jobs + ".yaml", [&](auto write) { WriteJobsYaml(s, write); });
  }
  if (ok && formats.find("jsonl") != std::string::npos) {
    ok = WriteFile(jobs + ".jsonl", [&](auto write) { WriteJobsJsonLines(s, write); });
  }
  if (ok && formats.find("clearml") != std::string::npos) {
    ok = WriteFile(out + "/tasks.json", [&](auto write) { WriteTasksClearml(s, write); }) &&
         WriteFile(out + "/queues.json", [&](auto write) { WriteQueuesClearml(s, write); }) &&
         WriteFile(out + "/workers.json", [&](auto write) { WriteWorkersClearml(s, write); }) &&
         WriteFile(out + "/tasks-twin.jsonl", [&](auto write) { WriteClearmlTwinJsonLines(s, write); });
  }
  return ok ? 0 : 1;
}
