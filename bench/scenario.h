#pragma once
/// A deterministic, seeded generator of large scheduling scenarios: a
/// configuration (pools, profiles, policies with honourable reservations)
/// and a jobs snapshot (running and queued jobs), written as the files
/// `rescfg schedule` reads. Shared by `rescfg-gen`, the benchmarks and the
/// complexity test, so header-only.
///
/// Everything derives from the seed through SplitMix64 and integer
/// arithmetic: the same options give byte-identical files on any platform.
///
/// With `trace` set the jobs file is a trace for `rescfg simulate` (rescfg-scheduling(7),
/// THE SIMULATION CLOCK): queued jobs carry `submitted` (arrivals in waves, at `load_percent`
/// of what the pools can serve) and `duration` (heavy-tailed), running ones
/// the `duration` that remains; `enqueued` is left out.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "config/loader.h"
#include "jobs/job.h"
#include "util/sim_time.h"

namespace rescfg::bench {

enum class ReservationMode { kNone, kSome, kHeavy };

inline const char* ReservationModeName(ReservationMode m) {
  switch (m) {
    case ReservationMode::kNone: return "none";
    case ReservationMode::kSome: return "some";
    case ReservationMode::kHeavy: return "heavy";
  }
  return "some";
}

struct ScenarioOptions {
  size_t queued = 10'000;
  uint64_t seed = 1;
  /// none: no policy reserves anything, pools 60% busy; some: half the
  /// policies reserve, 40% of capacity reserved, pools 60% busy; heavy:
  /// every policy reserves, 85% of capacity reserved, pools 92% busy.
  ReservationMode reservations = ReservationMode::kSome;
  size_t pools = 32, profiles = 64, policies = 1000;
  /// Running entries per 100 queued ones (25: a fifth of the file runs).
  size_t running_per_100_queued = 25;
  /// Machines per pool (0: pools are bags of GPUs). Only the configuration
  /// changes: a pool of S GPUs becomes min(N, S) machines of S / that GPUs,
  /// the same size, and the jobs are the same.
  size_t machines_per_pool = 0;
  // Traces.
  bool trace = false;
  /// Work offered over the arrival span, in percent of the pools' capacity.
  uint32_t load_percent = 120;
  /// Arrival waves over the span: the rate rises and falls in each.
  uint32_t waves = 4;
  /// Mean duration of a job; durations follow a Pareto law of index 2
  /// (heavy tail: finite mean, infinite variance), cut at 50 times the mean.
  uint64_t mean_duration_seconds = 1800;
};

/// One jobs-file entry, compactly; the writers spell it out.
struct GenJob {
  uint32_t policy = 0, profile = 0;
  bool running = false;
  uint32_t pool = 0;               ///< running: where it runs
  uint32_t resources_milli = 0;    ///< running: what it holds, in 1/1000 GPU
  int32_t enqueued = -1;           ///< queued: seconds after the base time; -1: not given
  int8_t param = -1;               ///< dynamic profiles: index into kParamTexts; -1: not given
  int64_t submitted_us = 0;        ///< traces, queued: microseconds after the base time
  int64_t duration_us = 0;         ///< traces: queued, how long it runs; running, what remains
};

/// gpus_request values; the last one is not a quantity (the job falls back).
inline constexpr const char* kParamTexts[] = {"1", "2", "4", "8", "0.5", "1/4", "lots"};
inline constexpr int kParamCount = 7;

struct GenPool { std::string name; uint32_t size = 0; std::vector<uint32_t> exec_priority; };
struct GenProfile {
  std::string name;
  uint32_t allotment_quarters = 0;  ///< the allotment in 1/4 GPU
  bool dynamic = false, strict = false;
  std::vector<uint32_t> links;      ///< pool indexes, in precedence order
};
struct GenPolicy {
  std::string name;
  uint32_t reserved_quarters = 0;
  int64_t limit_quarters = -1;      ///< -1: no limit
  std::vector<uint32_t> profiles;
};

struct Scenario {
  ScenarioOptions options;
  std::vector<GenPool> pools;
  std::vector<GenProfile> profiles;
  std::vector<GenPolicy> policies;
  std::vector<GenJob> jobs;  ///< file order
};

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (the modulo bias is irrelevant here).
  uint32_t Below(uint64_t n) { return static_cast<uint32_t>(Next() % n); }

 private:
  uint64_t state_;
};

/// "12", "0.5", "2.25" for an amount in quarters.
inline std::string QuartersText(uint64_t q) {
  static const char* const kFraction[] = {"", ".25", ".5", ".75"};
  return std::to_string(q / 4) + kFraction[q % 4];
}

/// "0.042" for an amount in thousandths.
inline std::string MilliText(uint64_t m) {
  std::string frac = std::to_string(m % 1000);
  frac.insert(0, 3 - frac.size(), '0');
  while (frac.back() == '0') frac.pop_back();
  return std::to_string(m / 1000) + (frac.empty() ? "" : "." + frac);
}

inline std::string NumberedName(const char* prefix, size_t i, int width) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%s%0*zu", prefix, width, i);
  return buffer;
}

/// floor(sqrt(v)) of a 128-bit value, exactly.
inline unsigned __int128 ISqrt(unsigned __int128 v) {
  unsigned __int128 r = 0;
  for (int bit = 63; bit >= 0; --bit) {
    unsigned __int128 c = r | (static_cast<unsigned __int128>(1) << bit);
    if (c * c <= v) r = c;
  }
  return r;
}

/// A duration of Pareto index 2 and the given mean, in microseconds, cut at
/// 50 times the mean: scale · sqrt(2^40 / u) with u uniform in [1, 2^40].
inline int64_t HeavyTailedDuration(SplitMix64* rng, uint64_t mean_us) {
  const uint64_t scale = std::max<uint64_t>(1, mean_us / 2);
  const uint64_t u = 1 + (rng->Next() >> 24);  // [1, 2^40]
  const unsigned __int128 ratio = (static_cast<unsigned __int128>(1) << 60) / u;  // 2^20 · 2^40/u
  const unsigned __int128 d = static_cast<unsigned __int128>(scale) * ISqrt(ratio) >> 10;
  return static_cast<int64_t>(std::min<unsigned __int128>(std::max<unsigned __int128>(d, 1), 50 * uint64_t(mean_us)));
}

/// The need of a generated job, in quarters of a GPU.
inline uint64_t NeedQuarters(const Scenario& s, const GenJob& j);

/// Submitted times and durations of a trace: arrivals spread over the span in
/// which the work arrives at load_percent of the total capacity, the rate in
/// each wave rising from a quarter of its peak to the peak and back.
inline void AddTraceTimes(Scenario* s, SplitMix64* rng);

inline Scenario GenerateScenario(const ScenarioOptions& o) {
  Scenario s;
  s.options = o;
  SplitMix64 rng(o.seed);
  const bool heavy = o.reservations == ReservationMode::kHeavy;

  static constexpr uint32_t kSizes[] = {8, 16, 32, 64, 128, 256, 512};
  for (size_t x = 0; x < o.pools; ++x) {
    s.pools.push_back({NumberedName("gpu-pool-", x, 2), kSizes[rng.Below(7)], {}});
  }

  // A quarter dynamic; one in eight StrictFIFO. Profile r links pool r % pools
  // first, so that every pool is linked; fixed allotments are at most 8, the
  // smallest pool, so every profile reaches every pool it links.
  static constexpr uint32_t kAllotmentQuarters[] = {1, 2, 4, 8, 16, 32};
  for (size_t r = 0; r < o.profiles; ++r) {
    GenProfile p;
    p.dynamic = r % 4 == 0;
    p.strict = r % 8 == 7;
    p.allotment_quarters = p.dynamic ? 4 : kAllotmentQuarters[rng.Below(6)];
    p.name = NumberedName("prof-", r, 2) + "-" + QuartersText(p.allotment_quarters) + "xGPU" +
             (p.dynamic ? "-dyn" : "");
    p.links.push_back(static_cast<uint32_t>(r % o.pools));
    size_t extra = 1 + rng.Below(3);
    while (p.links.size() < 1 + extra && p.links.size() < o.pools) {
      uint32_t x = rng.Below(o.pools);
      if (std::find(p.links.begin(), p.links.end(), x) == p.links.end()) p.links.push_back(x);
    }
    s.profiles.push_back(std::move(p));
  }
  // Every fourth pool states an execution priority: its linked profiles, last first.
  for (size_t x = 0; x < o.pools; x += 4) {
    for (size_t r = o.profiles; r-- > 0;) {
      const auto& links = s.profiles[r].links;
      if (std::find(links.begin(), links.end(), x) != links.end()) s.pools[x].exec_priority.push_back(uint32_t(r));
    }
  }

  // Reservations are booked against one pool each policy reaches, never more
  // than a share of that pool: a feasible flow exists by construction, so
  // the reservations can be honoured jointly (rescfg(5), CONFIGURATION Hall check).
  std::vector<uint64_t> budget(o.pools);  // quarters
  uint32_t share = o.reservations == ReservationMode::kHeavy ? 85 : o.reservations == ReservationMode::kSome ? 40 : 0;
  for (size_t x = 0; x < o.pools; ++x) budget[x] = uint64_t(s.pools[x].size) * 4 * share / 100;
  static constexpr uint32_t kReservedQuarters[] = {2, 4, 8, 16, 32, 64};
  for (size_t q = 0; q < o.policies; ++q) {
    GenPolicy p;
    p.name = NumberedName("team-", q, 4);
    p.profiles.push_back(static_cast<uint32_t>(q % o.profiles));
    size_t extra = 1 + rng.Below(3);
    while (p.profiles.size() < 1 + extra && p.profiles.size() < o.profiles) {
      uint32_t r = rng.Below(o.profiles);
      if (std::find(p.profiles.begin(), p.profiles.end(), r) == p.profiles.end()) p.profiles.push_back(r);
    }
    bool reserves = heavy || (o.reservations == ReservationMode::kSome && rng.Below(2) == 0);
    if (reserves) {
      uint32_t best = UINT32_MAX;
      for (uint32_t r : p.profiles) {
        for (uint32_t x : s.profiles[r].links) {
          if (best == UINT32_MAX || budget[x] > budget[best]) best = x;
        }
      }
      uint64_t want = kReservedQuarters[rng.Below(heavy ? 4 : 6)];
      p.reserved_quarters = static_cast<uint32_t>(std::min(want, budget[best]));
      budget[best] -= p.reserved_quarters;
    }
    if (rng.Below(10) < 6) {
      // At least the largest allotment (8 GPUs) and the reservation.
      static constexpr uint32_t kHeadroom[] = {0, 32, 64, 128};
      p.limit_quarters = std::max<int64_t>(32, 2 * int64_t(p.reserved_quarters)) + kHeadroom[rng.Below(4)];
    }
    s.policies.push_back(std::move(p));
  }

  // Who may run where: per profile, the policies that list it.
  std::vector<std::vector<uint32_t>> users(o.profiles);
  for (uint32_t q = 0; q < o.policies; ++q) {
    for (uint32_t r : s.policies[q].profiles) users[r].push_back(q);
  }
  std::vector<std::vector<uint32_t>> linked_profiles(o.pools);
  for (uint32_t r = 0; r < o.profiles; ++r) {
    if (users[r].empty()) continue;  // fewer policies than profiles
    for (uint32_t x : s.profiles[r].links) linked_profiles[x].push_back(r);
  }

  // Running jobs fill each pool to a share of its size, spread over as many
  // jobs as the pool's share of the total capacity asks for.
  const size_t running = o.queued * o.running_per_100_queued / 100;
  uint64_t total_size = 0;
  for (const auto& pool : s.pools) total_size += pool.size;
  const uint64_t fill = heavy ? 92 : 60;
  s.jobs.reserve(o.queued + running);
  size_t placed = 0;
  for (uint32_t x = 0; x < o.pools && running > 0; ++x) {
    size_t count = x + 1 == o.pools ? running - placed : running * s.pools[x].size / total_size;
    placed += count;
    if (count == 0 || linked_profiles[x].empty()) continue;
    uint64_t each = std::max<uint64_t>(1, uint64_t(s.pools[x].size) * 1000 * fill / 100 / count);
    for (size_t i = 0; i < count; ++i) {
      GenJob j;
      j.running = true;
      j.pool = x;
      j.profile = linked_profiles[x][rng.Below(linked_profiles[x].size())];
      j.policy = users[j.profile][rng.Below(users[j.profile].size())];
      j.resources_milli = static_cast<uint32_t>(each);
      s.jobs.push_back(j);
    }
  }
  // Queued jobs: busier teams submit more (a quadratic skew); most carry an
  // enqueued time within one day.
  for (size_t i = 0; i < o.queued; ++i) {
    GenJob j;
    uint64_t u = rng.Below(1u << 16);
    j.policy = static_cast<uint32_t>(u * u * o.policies >> 32);
    const auto& mine = s.policies[j.policy].profiles;
    j.profile = mine[rng.Below(mine.size())];
    if (rng.Below(10) < 8) j.enqueued = static_cast<int32_t>(rng.Below(86'400));
    if (s.profiles[j.profile].dynamic) {
      uint32_t pick = rng.Below(100);
      j.param = pick < 4 ? -1 : pick < 6 ? int8_t(kParamCount - 1) : int8_t(rng.Below(kParamCount - 1));
    }
    s.jobs.push_back(j);
  }
  for (size_t i = s.jobs.size(); i > 1; --i) std::swap(s.jobs[i - 1], s.jobs[rng.Below(i)]);
  if (o.trace) AddTraceTimes(&s, &rng);
  return s;
}

inline uint64_t NeedQuarters(const Scenario& s, const GenJob& j) {
  const GenProfile& p = s.profiles[j.profile];
  if (!p.dynamic || j.param < 0 || j.param == kParamCount - 1) return p.allotment_quarters;
  static constexpr uint64_t kQuarters[] = {4, 8, 16, 32, 2, 1};  // kParamTexts, in quarters
  return kQuarters[j.param];
}

inline void AddTraceTimes(Scenario* s, SplitMix64* rng) {
  const ScenarioOptions& o = s->options;
  const uint64_t mean_us = o.mean_duration_seconds * 1'000'000;
  unsigned __int128 work = 0;  // quarter-GPU microseconds
  for (GenJob& j : s->jobs) {
    j.duration_us = HeavyTailedDuration(rng, mean_us);
    if (!j.running) work += static_cast<unsigned __int128>(NeedQuarters(*s, j)) * static_cast<uint64_t>(j.duration_us);
  }
  uint64_t capacity = 0;  // quarters
  for (const GenPool& pool : s->pools) capacity += uint64_t(pool.size) * 4;
  const uint64_t span = std::max<uint64_t>(
      1, static_cast<uint64_t>(work * 100 / (static_cast<unsigned __int128>(capacity) * std::max<uint32_t>(1, o.load_percent))));
  const uint64_t waves = std::max<uint32_t>(1, o.waves);
  for (GenJob& j : s->jobs) {
    if (j.running) continue;
    for (;;) {  // rejection sampling against the wave's triangle, in thousandths
      const uint64_t t = static_cast<uint64_t>(rng->Next() % span);
      const uint64_t phase = static_cast<uint64_t>(static_cast<unsigned __int128>(t) * waves % span * 2000 / span);
      const uint64_t triangle = phase <= 1000 ? phase : 2000 - phase;  // 0..1000
      if (rng->Below(1000) < 250 + triangle * 3 / 4) {
        j.submitted_us = static_cast<int64_t>(t);
        break;
      }
    }
  }
}

/// The base time of generated files: 2026-11-29T00:00:00Z.
inline constexpr int64_t kBaseSeconds = 1'795'910'400;

/// A trace's submitted time as RFC 3339.
inline std::string SubmittedText(int64_t offset_us) {
  std::string text = FormatSimTime(kBaseSeconds * kMicrosPerSecond + offset_us);  // ...:SS.ffffffZ
  if (text.compare(text.size() - 8, 7, ".000000") == 0) text.erase(text.size() - 8, 7);
  return text;
}

inline std::string ConfigYaml(const Scenario& s) {
  std::string out = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools:\n";
  for (const auto& pool : s.pools) {
    out += "  - name: " + pool.name + "\n    resources: " + std::to_string(pool.size) + "\n";
    if (s.options.machines_per_pool > 0) {
      const uint32_t count = std::min<uint32_t>(static_cast<uint32_t>(s.options.machines_per_pool), pool.size);
      out += "    nodes: {count: " + std::to_string(count) + ", gpus: " + std::to_string(pool.size / count) + "}\n";
    }
    if (!pool.exec_priority.empty()) {
      out += "    executionPriority: [";
      for (size_t i = 0; i < pool.exec_priority.size(); ++i) {
        out += (i ? ", " : "") + s.profiles[pool.exec_priority[i]].name;
      }
      out += "]\n";
    }
  }
  out += "profiles:\n";
  for (const auto& p : s.profiles) {
    out += "  - name: " + p.name + "\n    allotment: " + QuartersText(p.allotment_quarters) + "\n";
    if (p.dynamic) out += "    dynamic: {parameter: runtime.gpus_request}\n";
    if (p.strict) out += "    queueing: StrictFIFO\n";
    out += "    links:\n";
    for (uint32_t x : p.links) out += "      - {pool: " + s.pools[x].name + "}\n";
  }
  out += "policies:\n";
  for (const auto& p : s.policies) {
    out += "  - name: " + p.name + "\n";
    if (p.reserved_quarters) out += "    reserved: " + QuartersText(p.reserved_quarters) + "\n";
    if (p.limit_quarters >= 0) out += "    limit: " + QuartersText(uint64_t(p.limit_quarters)) + "\n";
    out += "    profiles: [";
    for (size_t i = 0; i < p.profiles.size(); ++i) out += (i ? ", " : "") + s.profiles[p.profiles[i]].name;
    out += "]\n";
  }
  return out;
}

/// The scenario's configuration, loaded and with defaults applied; nullopt
/// when it does not load (a generator bug).
inline std::optional<Config> LoadScenarioConfig(const Scenario& s) {
  LoadedConfig loaded = LoadConfigText(ConfigYaml(s), "config.yaml");
  if (!loaded.config) return std::nullopt;
  Config config = *loaded.config;
  ApplyDefaults(config);
  return config;
}

inline std::string JobId(size_t i) { return NumberedName("job-", i, 7); }

/// "2026-11-29T03:25:07Z" for seconds after 2026-11-29T00:00:00Z (< 1 day).
inline std::string EnqueuedText(int32_t seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "2026-11-29T%02d:%02d:%02dZ", seconds / 3600, seconds / 60 % 60, seconds % 60);
  return buffer;
}

/// A parameter value as a JSON/YAML scalar: numbers bare, the rest quoted.
inline std::string ParamScalar(int8_t param) {
  std::string text = kParamTexts[param];
  bool number = text.find_first_not_of("0123456789.") == std::string::npos;
  return number ? text : "\"" + text + "\"";
}

/// Calls `write(text)` with consecutive pieces of the YAML JobList.
/// Hands `out` to `write` once it holds a megabyte, so that writers of
/// large files keep a bounded buffer.
template <typename Write>
void FlushLarge(std::string* out, Write& write) {
  if (out->size() > (1 << 20)) {
    write(*out);
    out->clear();
  }
}

template <typename Write>
void WriteJobsYaml(const Scenario& s, Write write) {
  std::string out = "apiVersion: rescfg/v1\nkind: JobList\njobs:\n";
  for (size_t i = 0; i < s.jobs.size(); ++i) {
    const GenJob& j = s.jobs[i];
    out += "  - id: " + JobId(i) + "\n    policy: " + s.policies[j.policy].name + "\n    profile: " +
           s.profiles[j.profile].name + "\n";
    if (j.running) {
      out += "    state: running\n    pool: " + s.pools[j.pool].name + "\n    resources: " + MilliText(j.resources_milli) +
             "\n";
      if (s.options.trace) out += "    duration: " + FormatSeconds(j.duration_us) + "\n";
    } else if (s.options.trace) {
      out += "    submitted: " + SubmittedText(j.submitted_us) + "\n    duration: " + FormatSeconds(j.duration_us) + "\n";
      if (j.param >= 0) out += "    params: {runtime: {gpus_request: " + ParamScalar(j.param) + "}}\n";
    } else {
      if (j.enqueued >= 0) out += "    enqueued: " + EnqueuedText(j.enqueued) + "\n";
      if (j.param >= 0) out += "    params: {runtime: {gpus_request: " + ParamScalar(j.param) + "}}\n";
    }
    FlushLarge(&out, write);
  }
  write(out);
}

/// Calls `write(text)` with consecutive pieces of the JSON Lines jobs file.
template <typename Write>
void WriteJobsJsonLines(const Scenario& s, Write write) {
  std::string out;
  for (size_t i = 0; i < s.jobs.size(); ++i) {
    const GenJob& j = s.jobs[i];
    out += "{\"id\": \"" + JobId(i) + "\", \"policy\": \"" + s.policies[j.policy].name + "\", \"profile\": \"" +
           s.profiles[j.profile].name + "\"";
    if (j.running) {
      out += ", \"state\": \"running\", \"pool\": \"" + s.pools[j.pool].name + "\", \"resources\": " +
             MilliText(j.resources_milli);
      if (s.options.trace) out += ", \"duration\": " + FormatSeconds(j.duration_us);
    } else if (s.options.trace) {
      out += ", \"submitted\": \"" + SubmittedText(j.submitted_us) + "\", \"duration\": " + FormatSeconds(j.duration_us);
      if (j.param >= 0) out += ", \"params\": {\"runtime\": {\"gpus_request\": " + ParamScalar(j.param) + "}}";
    } else {
      if (j.enqueued >= 0) out += ", \"enqueued\": \"" + EnqueuedText(j.enqueued) + "\"";
      if (j.param >= 0) out += ", \"params\": {\"runtime\": {\"gpus_request\": " + ParamScalar(j.param) + "}}";
    }
    out += "}\n";
    FlushLarge(&out, write);
  }
  write(out);
}

/// The jobs as loader output, for benchmarks and tests that skip the files.
inline LoadedJobs JobEntries(const Scenario& s) {
  LoadedJobs loaded;
  TextArena& text = JobsArena(&loaded);
  auto keep = [&](const std::string& t) { return text.Keep(t); };
  std::vector<JobEntry>& entries = loaded.entries;
  entries.resize(s.jobs.size());
  for (size_t i = 0; i < s.jobs.size(); ++i) {
    const GenJob& j = s.jobs[i];
    JobEntry& e = entries[i];
    e.entry = i + 1;
    e.id = keep(JobId(i));
    e.policy = keep(s.policies[j.policy].name);
    e.profile = keep(s.profiles[j.profile].name);
    if (j.running) {
      e.state = "running";
      e.pool = keep(s.pools[j.pool].name);
      e.resources = keep(MilliText(j.resources_milli));
      if (s.options.trace) {
        e.duration = keep(FormatSeconds(j.duration_us));
        e.duration_style = ScalarStyle::kPlain;
      }
    } else if (s.options.trace) {
      e.submitted = keep(SubmittedText(j.submitted_us));
      e.submitted_style = ScalarStyle::kPlain;
      e.duration = keep(FormatSeconds(j.duration_us));
      e.duration_style = ScalarStyle::kPlain;
      if (j.param >= 0) e.params.push_back({"runtime.gpus_request", kParamTexts[j.param]});
    } else {
      if (j.enqueued >= 0) e.enqueued = keep(EnqueuedText(j.enqueued));
      if (j.param >= 0) e.params.push_back({"runtime.gpus_request", kParamTexts[j.param]});
    }
  }
  return loaded;
}

}  // namespace rescfg::bench
