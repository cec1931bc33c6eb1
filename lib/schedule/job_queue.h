#pragma once
/// One (policy, profile) queue of schedulable queued jobs, in queue order.
///
/// A StrictFIFO queue only ever places its head, so its undecided jobs are a
/// suffix. A BestEffortFIFO queue places the earliest job of some need, so it
/// keeps one sub-queue per distinct need, each consumed from its front.
/// Either way a queue offers a few *candidate slots*, and the protected jobs
/// of rescfg-scheduling(7), THE PASS are summarised without walking the whole queue.
///
/// A queue grows at its back (Append): a simulation's arrivals come later
/// in queue order than every job already queued. A new need in a
/// BestEffortFIFO queue is a new slot; slot indexes never change.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "schedule/problem.h"
#include "util/quantity.h"

namespace rescfg {

/// Protected jobs of a queue for a given room: the smallest need among them
/// and their total need, capped at the room (only min(room, total) matters).
struct ProtectedSummary {
  std::optional<Quantity> smallest;
  Quantity total_capped;
};

class JobQueue {
 public:
  JobQueue(uint32_t policy, uint32_t profile, bool strict_fifo, std::vector<uint32_t> jobs,
           const std::vector<QueuedJob>& queued);

  uint32_t policy() const { return policy_; }
  uint32_t profile() const { return profile_; }
  bool strict_fifo() const { return strict_; }

  /// Number of candidate slots (only Append adds one).
  size_t slot_count() const { return strict_ ? 1 : groups_.size(); }
  /// The job a slot offers now, if any.
  std::optional<uint32_t> SlotJob(size_t slot) const;
  /// Marks the job offered by `slot` as placed.
  void Advance(size_t slot);

  /// What Append changed: the slot the job joined, whether that slot is new
  /// (slot_count() grew) and whether the job it offers changed (it offered
  /// none before).
  struct Appended {
    size_t slot = 0;
    bool new_slot = false;
    bool offered_changed = false;
  };
  /// Adds `job` at the back: its queue order must follow every job queued here.
  Appended Append(uint32_t job, const std::vector<QueuedJob>& queued);

  /// Puts `job`, placed from this queue before, back among the undecided jobs at its place in
  /// queue order (a preempted job in a simulation). The slot it joins offers it if it comes first.
  Appended Requeue(uint32_t job, const std::vector<QueuedJob>& queued);

  ProtectedSummary Protected(Quantity room, const std::vector<QueuedJob>& queued) const;
  /// The smallest need among the protected jobs (for `room`) that `fits`
  /// accepts. Asked only when the smallest of all is of a shape a pool's
  /// machines cannot take (larger than a machine), which walks them.
  std::optional<Quantity> SmallestProtected(Quantity room, const std::vector<QueuedJob>& queued,
                                            const std::function<bool(Quantity)>& fits) const;

  /// Undecided jobs in queue order (for pending reasons at the end).
  std::vector<uint32_t> Undecided() const;
  /// The undecided jobs of a queue that is not StrictFIFO, one need at a
  /// time in order of need (as Undecided lists them): `visit(need, jobs,
  /// count)` for each need some wait with. Their need is known without
  /// reading each job.
  template <typename Visit>
  void ForEachUndecidedNeed(Visit visit) const {
    for (uint32_t index : by_need_) {
      const NeedGroup& g = groups_[index];
      if (g.next < g.jobs.size()) visit(g.need, g.jobs.data() + g.next, g.jobs.size() - g.next);
    }
  }

 private:
  struct NeedGroup {
    Quantity need;
    std::vector<uint32_t> jobs;  ///< queue order
    size_t next = 0;
  };
  /// Index of the first job at or after `from` whose need exceeds `room`.
  size_t FirstAbove(size_t from, Quantity room) const;
  Quantity MinNeed(size_t from, size_t to) const;
  /// Segment trees over jobs_ with room for at least `leaves` jobs.
  void BuildTree(const std::vector<QueuedJob>& queued, size_t leaves = 1);

  uint32_t policy_, profile_;
  bool strict_;
  // StrictFIFO
  std::vector<uint32_t> jobs_;
  size_t head_ = 0;
  std::vector<Ticks> prefix_;    ///< prefix sums of needs
  std::vector<Ticks> tree_max_;  ///< segment trees over needs (size 2n)
  std::vector<Ticks> tree_min_;
  size_t leaves_ = 0;
  // BestEffortFIFO
  std::vector<NeedGroup> groups_;  ///< in order of creation: index = slot
  std::vector<uint32_t> by_need_;  ///< indexes of groups_, ascending need
};

/// Indexes of `queued` in queue order. queue_order is normally a rank (a
/// permutation of 0..n-1), inverted in one pass; anything else is sorted.
std::vector<uint32_t> QueueOrder(const std::vector<QueuedJob>& queued);

/// The (policy, profile) queues of the jobs `schedulable` accepts, ordered
/// by (policy, profile), each in queue order; the others go to
/// `unschedulable`, in queue order. `strict_fifo`: per profile.
std::vector<JobQueue> SplitIntoQueues(const std::vector<QueuedJob>& queued, const std::vector<bool>& strict_fifo,
                                      const std::function<bool(const QueuedJob&)>& schedulable,
                                      std::vector<uint32_t>* unschedulable);
/// The same for the jobs `jobs` of `queued` only, given in queue order.
std::vector<JobQueue> SplitIntoQueues(const std::vector<QueuedJob>& queued, const std::vector<uint32_t>& jobs,
                                      const std::vector<bool>& strict_fifo,
                                      const std::function<bool(const QueuedJob&)>& schedulable,
                                      std::vector<uint32_t>* unschedulable);

}  // namespace rescfg
