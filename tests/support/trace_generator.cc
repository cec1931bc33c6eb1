#include "support/trace_generator.h"

#include <algorithm>
#include <numeric>

#include "support/scenario_text.h"
#include "support/shaped_scenarios.h"

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

/// Small pools, policies that mostly reserve, mixed needs in quarters (so
/// that a freed quarter can let a job past a reservation), no pauses.
Shape CrowdedShape() {
  Shape shape;
  shape.pools_min = 1;
  shape.pools_max = 3;
  shape.policies_min = 3;
  shape.policies_max = 6;
  shape.jobs_min = 10;
  shape.jobs_max = 30;
  shape.dynamic_in_4 = 3;
  shape.strict_in_4 = 1;
  shape.borrower_in_4 = 1;
  shape.limit_in_4 = 1;
  shape.pool_sizes = {"2", "3", "4", "5/2"};
  shape.allotments = {"1/2", "1", "2"};
  shape.needs = {"1/4", "1/2", "1", "1", "5/4", "3/2", "2"};
  shape.reserved = {"1/2", "1", "3/2", "2"};
  shape.limits = {"2", "3", "4"};
  shape.held = {"1/4", "1/2", "1"};
  return shape;
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

rc::Gen<TraceCase> GenMachinesTrace() {
  return rc::gen::exec([] { return Timed(*GenShaped(MachinesShape())); });
}

rc::Gen<TraceCase> GenCrowdedTrace() {
  return rc::gen::exec([] { return Timed(*GenShaped(CrowdedShape())); });
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
