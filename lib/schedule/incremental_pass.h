#pragma once
/// The scheduling pass of rescfg-scheduling(7), THE PASS, kept alive from one event to the next.
///
/// `rescfg schedule` runs it once. A simulation (rescfg-scheduling(7), THE SIMULATION CLOCK) runs it at every
/// event, after finished jobs released what they held and new jobs joined
/// their queues; the pass keeps its queues, candidate slots, reservation
/// book and answers, and looks again only at what those changes can have
/// changed. The placements are exactly those of the pass run from scratch
/// on the state of that event (tests/simulate_properties_test.cc checks it
/// against the reference scheduler in a loop).
///
/// Why that is enough: at the end of a pass no undecided job has a target,
/// and a job's answer rests only on free capacity in its linked pools, its
/// own policy's usage and the reservation rule. Between passes free capacity
/// only rises in the pools where jobs finished, usage only falls for their
/// policies, and joining jobs queue behind every job already there (their
/// queue order is later). So the slots to look at again are those of the
/// policies whose usage fell or that have new jobs, those of a pool with
/// more room whose need now fits where it did not, and those whose
/// reservation answers the book cannot vouch for (see incremental_pass.cc).

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/model.h"
#include "schedule/problem.h"
#include "util/quantity.h"

namespace rescfg {

class IncrementalPass {
 public:
  /// `queued` holds every job that may ever join (its indexes are the jobs'
  /// ids; queue_order a rank over all of them) and must outlive the pass;
  /// `holdings` is what runs at the outset. The jobs of `initial` (in queue
  /// order; all of `queued` when null) are queued from the start.
  IncrementalPass(const Config& config, const std::vector<QueuedJob>& queued, const std::vector<Holding>& holdings,
                  const std::vector<uint32_t>* initial);
  ~IncrementalPass();
  IncrementalPass(const IncrementalPass&) = delete;
  IncrementalPass& operator=(const IncrementalPass&) = delete;

  /// Job `job` joins its queue. Its queue order must be later than that of
  /// every job that joined before.
  void Join(uint32_t job);
  /// Queued job `job`, placed in `pool`, finished: what it held there (on
  /// its machines too) and against its policy is free.
  void ReleaseJob(uint32_t job, uint32_t pool);
  /// Queued job `job`, placed by this pass and released since (ReleaseJob), is queued again at
  /// its old place in queue order: a preempted job in a simulation. The next Run looks again at
  /// its queue's slots (its policy's usage fell) as after a finish, with no pass built anew.
  void Requeue(uint32_t job);
  /// The running job of holdings[index] finished.
  void ReleaseHolding(uint32_t index);
  /// Places jobs until no undecided job has a target; appends the
  /// placements in placement order.
  void Run(std::vector<Placement>* placements);
  /// Pending reasons judged on the current state (rescfg-scheduling(7), THE PASS), with pool and
  /// policy usage. Only after Run.
  void Explain(SchedulingResult* result);

  /// Adds this pass's work counters to `stats`.
  void AddStats(PassStats* stats) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rescfg
