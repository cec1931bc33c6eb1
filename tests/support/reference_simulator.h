#pragma once
/// A deliberately simple simulator written straight from rescfg-scheduling(7), THE SIMULATION CLOCK, for tests
/// only: at every event it builds the state from scratch (what runs, what
/// has joined and not started) and runs the reference scheduler on it. The
/// real simulator, which carries its pass from event to event, must agree
/// with it exactly.

#include <optional>
#include <vector>

#include "simulate/simulator.h"

namespace rescfg::reference {

struct SimulatedJob {
  std::optional<Micros> started, finished;
  uint32_t pool = 0, link = 0;
  bool joined = false;
  std::optional<PendingReason> reason;  ///< joined and never started: its reason at the end
};

struct Simulation {
  std::optional<Micros> start, end;
  uint64_t events = 0;
  std::vector<SimulatedJob> jobs;                       ///< per queued job
  std::vector<uint32_t> placement_order;                ///< queued jobs in placement order
  std::vector<std::optional<Micros>> holding_finished;  ///< per holding
  /// Events at whose outset the reservation rule alone refused some job a
  /// pool with room (the protection at work).
  uint64_t reservation_refusals = 0;
};

Simulation Simulate(const SimulationInput& input);

}  // namespace rescfg::reference
