#pragma once
/// Scenarios where preemption has work: teams that reserve little or nothing run above their
/// reservation and fill the pools, while teams with a reservation have queued jobs that fit
/// inside it. Pools of machines, StrictFIFO queues, paused pools and policies among them.

#include <rapidcheck.h>

#include "support/generators.h"

namespace rescfg::testing {

rc::Gen<Scenario> GenBorrowers();

}  // namespace rescfg::testing
