#pragma once
/// Scheduling scenarios of chosen shapes, drawn at full size: many policies
/// on few pools, reservations nearly used up, StrictFIFO heads that are not
/// protected, exact fits, over-filled pools. Shared by the stress
/// properties of the pass and the simulation properties.

#include <rapidcheck.h>

#include <vector>

#include "support/generators.h"

namespace rescfg::testing {

/// A value drawn at full size (rapidcheck scales inRange by the size).
template <typename T>
T Draw(rc::Gen<T> gen) {
  return *rc::gen::resize(100, std::move(gen));
}

/// What a shape draws from.
struct Shape {
  int pools_min = 1, pools_max = 2;
  int policies_min = 4, policies_max = 8;
  int profiles_max = 3;
  int jobs_min = 10, jobs_max = 30;
  int dynamic_in_4 = 3;  ///< chance (of 4) that a profile is dynamic
  int strict_in_4 = 1;   ///< chance (of 4) that a profile is StrictFIFO
  int borrower_in_4 = 1; ///< chance (of 4) that a policy reserves nothing
  int limit_in_4 = 2;    ///< chance (of 4) that a policy has a limit
  bool limit_below_reserved = false;  ///< allow reserved > limit (kept by the pass as min)
  bool honourable = true;             ///< drop reservations until all can be honoured
  int holdings_max = 3;
  bool holdings_overfill = false;     ///< running jobs may hold more than a pool
  bool exact_fit = false;             ///< running jobs leave a pool with exactly some job's need free
  std::vector<const char*> pool_sizes{"1", "2", "3", "4"};
  std::vector<const char*> allotments{"1/2", "1", "2"};
  std::vector<const char*> needs{"1/2", "1", "1", "2", "3"};
  std::vector<const char*> reserved{"1/2", "1", "2", "3"};
  std::vector<const char*> limits{"1", "2", "3", "4", "7/2"};
  std::vector<const char*> held{"1/2", "1", "2", "3"};
  /// Pools made of machines (rescfg-scheduling(7), THE PASS v3): chance (of 4) that a pool has
  /// nodes, of 1 to `machines_max` machines of one of `machine_gpus` GPUs
  /// (its size is then theirs); running jobs in it name a machine (or one
  /// more than it has), or none.
  int nodes_in_4 = 0;
  int machines_max = 4;
  std::vector<int> machine_gpus{1, 2, 4};
};

/// Small clusters of machines: fragmentation, whole-machine jobs, best fit.
Shape MachinesShape();

/// Scenarios of the shape (queued jobs and holdings; no file entries).
rc::Gen<Scenario> GenShaped(Shape shape);

}  // namespace rescfg::testing
