#pragma once
/// rapidcheck generators of valid configurations (with jointly honourable
/// reservations) and of job snapshots, for the scheduling properties.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <memory>
#include <ostream>
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

  SchedulingInput Input() const { return {config.get(), queued, holdings}; }
};

/// Printed by rapidcheck when a property fails.
void showValue(const Scenario& s, std::ostream& os);

/// Small scenarios (≤ 4 pools, profiles, policies; ≤ 16 queued jobs).
rc::Gen<Scenario> GenScenario();

/// Whether every policy's reservation can be honoured at once (Hall / max
/// flow over the pools its profiles reach).
bool ReservationsHonourable(const Config& config);

}  // namespace rescfg::testing
