#include "support/trace_generator.h"

#include <algorithm>
#include <numeric>

#include "support/scenario_text.h"

namespace rescfg::testing {

SimulationInput TraceCase::Input() const {
  SimulationInput in;
  in.config = scenario.config.get();
  in.queued = scenario.queued;
  in.submitted = submitted;
  in.duration = duration;
  in.holdings = scenario.holdings;
  in.remaining = remaining;
  in.start = start;
  in.until = until;
  return in;
}

void showValue(const TraceCase& c, std::ostream& os) {
  showValue(c.scenario, os);
  auto at = [](Micros t) { return FormatSeconds(t - kTraceBase); };
  for (size_t k = 0; k < c.submitted.size(); ++k) {
    os << "queued " << k << ": submitted +" << at(c.submitted[k]) << " duration " << FormatSeconds(c.duration[k]) << "\n";
  }
  for (size_t h = 0; h < c.remaining.size(); ++h) {
    os << "holding " << h << ": remaining " << (c.remaining[h] ? FormatSeconds(*c.remaining[h]) : "-") << "\n";
  }
  os << "start " << (c.start ? "+" + at(*c.start) : "-") << " until " << (c.until ? "+" + at(*c.until) : "-") << "\n";
}

namespace {

Scenario CrowdedScenario() {
  auto config = std::make_shared<Config>();
  Config& c = *config;
  const int pools = *rc::gen::inRange(1, 4), profiles = *rc::gen::inRange(1, 4), policies = *rc::gen::inRange(3, 7);
  for (int x = 0; x < pools; ++x) {
    Pool pool;
    pool.name = "pool-" + std::to_string(x);
    pool.resources = *OneOf({"2", "3", "4", "5/2"});
    c.pools.push_back(pool);
  }
  for (int r = 0; r < profiles; ++r) {
    Profile profile;
    profile.name = "profile-" + std::to_string(r);
    profile.allotment = *OneOf({"1/2", "1", "2"});
    if (*rc::gen::inRange(0, 3) != 0) profile.dynamic_parameter = "runtime.gpus";
    if (*rc::gen::inRange(0, 3) == 0) profile.queueing = Queueing::kStrictFIFO;
    std::vector<int> order(static_cast<size_t>(pools));
    std::iota(order.begin(), order.end(), 0);
    order = Shuffled(order);
    const int count = *rc::gen::inRange(1, pools + 1);
    for (int i = 0; i < count; ++i) profile.links.push_back(LinkTo(c.pools[order[i]].name, "link-" + std::to_string(i)));
    c.profiles.push_back(profile);
  }
  for (int p = 0; p < policies; ++p) {
    Policy policy;
    policy.name = "policy-" + std::to_string(p);
    std::vector<int> order(static_cast<size_t>(profiles));
    std::iota(order.begin(), order.end(), 0);
    order = Shuffled(order);
    const int count = *rc::gen::inRange(1, profiles + 1);
    for (int i = 0; i < count; ++i) policy.profiles.push_back({c.profiles[order[i]].name, std::nullopt, {}, {}, {}});
    if (*rc::gen::inRange(0, 4) != 0) policy.reserved = *OneOf({"1/2", "1", "3/2", "2"});
    if (*rc::gen::inRange(0, 3) == 0) {
      const Quantity limit = *OneOf({"2", "3", "4"});
      if (limit >= policy.reserved) policy.limit = limit;
    }
    c.policies.push_back(policy);
  }
  for (size_t p = c.policies.size(); !ReservationsHonourable(c) && p > 0; --p) c.policies[p - 1].reserved = {};
  ApplyDefaults(c);
  for (auto& pool : c.pools) pool.execution_priority = Shuffled(*pool.execution_priority);
  for (auto& profile : c.profiles) profile.policy_priority = Shuffled(*profile.policy_priority);

  Scenario s;
  s.config = config;
  const int jobs = *rc::gen::inRange(10, 31);
  for (int k = 0; k < jobs; ++k) {
    const uint32_t p = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
    const auto& entry = c.policies[p].profiles[*rc::gen::inRange<size_t>(0, c.policies[p].profiles.size())];
    uint32_t r = 0;
    while (c.profiles[r].name != entry.profile) ++r;
    QueuedJob job;
    job.policy = p;
    job.profile = r;
    job.need = c.profiles[r].dynamic_parameter ? *OneOf({"1/4", "1/2", "1", "1", "5/4", "3/2", "2"})
                                               : c.profiles[r].allotment;
    job.position = static_cast<uint32_t>(k);
    s.queued.push_back(job);
    JobEntry e;
    e.entry = static_cast<size_t>(k) + 1;
    e.id = Keep("job-" + std::to_string(k));
    e.policy = Keep(c.policies[p].name);
    e.profile = Keep(c.profiles[r].name);
    if (c.profiles[r].dynamic_parameter) e.params.push_back({"runtime.gpus", Keep(job.need.ToString())});
    s.entries.push_back(e);
  }
  const int running = *rc::gen::inRange(0, 4);
  for (int k = 0; k < running; ++k) {
    Holding h;
    h.pool = static_cast<uint32_t>(*rc::gen::inRange(0, pools));
    h.policy = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
    h.amount = *OneOf({"1/4", "1/2", "1"});
    s.holdings.push_back(h);
    JobEntry e;
    e.entry = s.entries.size() + 1;
    e.id = Keep("running-" + std::to_string(k));
    e.state = "running";
    e.pool = Keep(c.pools[h.pool].name);
    e.policy = Keep(c.policies[*h.policy].name);
    e.profile = Keep(c.profiles[0].name);
    e.resources = Keep(h.amount.ToString());
    s.entries.push_back(e);
  }
  return s;
}

/// Times, durations, --start and --until for a scenario.
TraceCase Timed(Scenario scenario) {
  TraceCase c;
  c.scenario = std::move(scenario);
  // Small integers of seconds: many arrivals and finishes at the same
  // microsecond; now and then a microsecond apart.
  auto seconds = [](int lo, int hi) {
    Micros t = *rc::gen::inRange(lo, hi + 1) * kMicrosPerSecond;
    if (*rc::gen::inRange(0, 8) == 0) t += *rc::gen::inRange(1, 3);
    return t;
  };
  const int spread = *rc::gen::inRange(0, 8);
  for (size_t k = 0; k < c.scenario.queued.size(); ++k) {
    c.submitted.push_back(kTraceBase + seconds(0, spread));
    c.duration.push_back(std::max<Micros>(1, seconds(1, 4)));
  }
  for (size_t h = 0; h < c.scenario.holdings.size(); ++h) {
    c.remaining.push_back(*rc::gen::arbitrary<bool>() ? std::optional<Micros>(seconds(1, 5)) : std::nullopt);
  }
  switch (*rc::gen::inRange(0, 3)) {
    case 0: c.start = kTraceBase + seconds(0, 3); break;   // after some submissions
    case 1: c.start = kTraceBase - kMicrosPerSecond; break;  // before every one
    default: break;
  }
  if (*rc::gen::arbitrary<bool>()) {
    // Never before the clock's start (the command refuses that).
    Micros from = c.start ? *c.start : kTraceBase;
    if (!c.start && !c.submitted.empty()) from = *std::min_element(c.submitted.begin(), c.submitted.end());
    c.until = from + seconds(0, 12);
  }
  // Queue order: submitted, then file position.
  std::vector<uint32_t> order(c.submitted.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return c.submitted[a] < c.submitted[b]; });
  for (uint32_t rank = 0; rank < order.size(); ++rank) c.scenario.queued[order[rank]].queue_order = rank;
  return c;
}

}  // namespace

rc::Gen<TraceCase> GenTrace() {
  return rc::gen::exec([] { return Timed(*GenScenario()); });
}

rc::Gen<TraceCase> GenCrowdedTrace() {
  return rc::gen::resize(100, rc::gen::exec([] { return Timed(CrowdedScenario()); }));
}

std::vector<JobEntry> TraceEntries(const TraceCase& c) {
  std::vector<JobEntry> entries = c.scenario.entries;
  size_t queued = 0, running = 0;
  for (JobEntry& e : entries) {
    e.enqueued.reset();
    if (!e.invalid.empty() || !e.id) continue;
    if (e.state == "running") {
      if (running < c.remaining.size() && c.remaining[running]) {
        e.duration = Keep(FormatSeconds(*c.remaining[running]));
        e.duration_style = ScalarStyle::kPlain;
      }
      ++running;
    } else if (queued < c.submitted.size() && e.id->rfind("job-", 0) == 0) {
      e.submitted = Keep(FormatSimTime(c.submitted[queued]));
      e.submitted_style = ScalarStyle::kQuoted;
      e.duration = Keep(FormatSeconds(c.duration[queued]));
      e.duration_style = ScalarStyle::kPlain;
      ++queued;
    }
  }
  return entries;
}

}  // namespace rescfg::testing
