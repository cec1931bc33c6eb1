#pragma once
/// The machines of one pool with `nodes` (rescfg-scheduling(7), THE PASS v3): a free amount per
/// machine, and where a need goes.
///
/// A need s fits when s <= g and some machine has s free (it goes to the
/// machine with the least free amount still enough, ties to the lowest
/// number), or when s is a whole multiple of g and s/g machines are entirely
/// free (it takes the lowest-numbered ones). For needs of a possible shape
/// (at most g, or a multiple of g) that is one number: s fits exactly when
/// s <= FitBound() = max(largest free, g × entirely free machines). Machines
/// sit in an ordered set by (free, number), so every operation is
/// logarithmic in the number of machines.

#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "util/quantity.h"

namespace rescfg {

/// Where a job holds on a pool's machines: its first (or only) machine and
/// how many it takes; a job of several whole machines lists them all.
struct MachineSpot {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t first = kNone;     ///< kNone: held in the pool only
  std::vector<uint32_t> more; ///< the other machines of a whole-machine job, ascending
};

class PoolMachines {
 public:
  PoolMachines() = default;
  PoolMachines(int64_t count, int64_t gpus);

  bool has_nodes() const { return !held_.empty(); }
  uint32_t count() const { return static_cast<uint32_t>(held_.size()); }
  Quantity machine_size() const { return Quantity::FromTicks(g_); }

  /// At most one machine, or a whole number of machines: the needs that can ever fit.
  bool Shaped(Quantity need) const { return need.ticks() <= g_ || need.ticks() % g_ == 0; }
  /// The largest need of a possible shape that fits now.
  Quantity FitBound() const;
  /// FitBound once `need` (which fits) is placed where Find puts it.
  Quantity FitBoundAfter(Quantity need) const;
  bool Fits(Quantity need) const { return Shaped(need) && need <= FitBound(); }
  /// Where `need` goes now; kNone when it fits nowhere.
  MachineSpot Find(Quantity need) const;

  /// Holds `need` at `spot` (from Find, or a named machine): a whole-machine
  /// job holds g on each of its machines.
  void Hold(const MachineSpot& spot, Quantity need);
  void Release(const MachineSpot& spot, Quantity need);

  Quantity Free(uint32_t machine) const { return Quantity::FromTicks(FreeTicks(machine)); }
  Quantity LargestFree() const { return by_free_.empty() ? Quantity() : Quantity::FromTicks(by_free_.rbegin()->first); }
  uint32_t EntirelyFree() const { return whole_free_; }

 private:
  Ticks FreeTicks(uint32_t m) const { return held_[m] >= g_ ? 0 : g_ - held_[m]; }
  /// Adds `delta` to what machine m holds, keeping the index in step.
  void Change(uint32_t m, Ticks delta);
  /// The amount each machine of the spot takes.
  Ticks Share(const MachineSpot& spot, Quantity need) const {
    return spot.more.empty() ? need.ticks() : g_;
  }

  Ticks g_ = 0;
  std::vector<Ticks> held_;                    ///< per machine; may exceed g (named by running jobs)
  std::set<std::pair<Ticks, uint32_t>> by_free_;  ///< (free, machine)
  uint32_t whole_free_ = 0;                   ///< machines holding nothing
};

}  // namespace rescfg
