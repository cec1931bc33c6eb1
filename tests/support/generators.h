#pragma once
/// rapidcheck generators of valid configurations (with jointly honourable
/// reservations) and of job snapshots, for the scheduling properties.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "schedule/problem.h"

namespace rescfg::testing {

struct Scenario {
  std::shared_ptr<Config> config;   ///< defaults applied, valid
  std::vector<QueuedJob> queued;
  std::vector<Holding> holdings;
  std::vector<JobEntry> entries;    ///< the same jobs as a jobs file, plus malformed ones

  SchedulingInput Input() const {
    SchedulingInput input;
    input.config = config.get();
    input.queued = queued;
    input.holdings = holdings;
    return input;
  }
};

/// Printed by rapidcheck when a property fails.
void showValue(const Scenario& s, std::ostream& os);

/// Small scenarios (≤ 4 pools, profiles, policies; ≤ 16 queued jobs).
rc::Gen<Scenario> GenScenario();

/// Whether every policy's reservation can be honoured at once (Hall / max
/// flow over the pools its profiles reach).
bool ReservationsHonourable(const Config& config);

/// An exact amount from its text ("1/7", "0.5").
Quantity Q(const char* text);
/// One of the amounts written in `texts`.
rc::Gen<Quantity> OneOf(std::vector<const char*> texts);
/// The items in an order drawn by rapidcheck.
template <typename T>
std::vector<T> Shuffled(std::vector<T> items) {
  for (size_t i = items.size(); i > 1; --i) {
    size_t j = *rc::gen::inRange<size_t>(0, i);
    std::swap(items[i - 1], items[j]);
  }
  return items;
}
/// Placements and pending reasons, for failure messages.
std::string Describe(const SchedulingResult& r);

}  // namespace rescfg::testing
