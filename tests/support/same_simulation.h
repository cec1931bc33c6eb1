#pragma once
/// The fast simulation against the reference simulator, job by job: the
/// clock, the events, the placement order, when each job joined, started
/// and finished and where, why each waiting job waits, and when the
/// holdings finished (rapidcheck assertions, for properties).

#include "simulate/simulator.h"
#include "support/reference_simulator.h"

namespace rescfg::testing {

void RcAssertSameSimulation(const SimulationResult& fast, const reference::Simulation& slow);

}  // namespace rescfg::testing
