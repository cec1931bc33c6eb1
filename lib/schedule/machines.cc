#include "schedule/machines.h"

#include <algorithm>

namespace rescfg {

PoolMachines::PoolMachines(int64_t count, int64_t gpus)
    : g_(Quantity::Units(gpus).ticks()), held_(static_cast<size_t>(count), 0), whole_free_(static_cast<uint32_t>(count)) {
  for (uint32_t m = 0; m < held_.size(); ++m) by_free_.emplace_hint(by_free_.end(), g_, m);
}

Quantity PoolMachines::FitBound() const {
  const Ticks largest = by_free_.empty() ? 0 : by_free_.rbegin()->first;
  return Quantity::FromTicks(std::max(largest, g_ * whole_free_));
}

Quantity PoolMachines::FitBoundAfter(Quantity need) const {
  const Ticks s = need.ticks();
  if (s > g_) {
    const uint32_t whole = whole_free_ - static_cast<uint32_t>(s / g_);
    if (whole > 0) return Quantity::FromTicks(g_ * whole);
    // The largest free amount among machines that are not entirely free.
    auto it = by_free_.lower_bound({g_, 0});
    const Ticks largest = it == by_free_.begin() ? 0 : std::prev(it)->first;
    return Quantity::FromTicks(largest);
  }
  auto chosen = by_free_.lower_bound({s, 0});
  const Ticks left = chosen->first - s;
  const uint32_t whole = whole_free_ - (chosen->first == g_ && held_[chosen->second] == 0 ? 1 : 0);
  // The largest free amount of the others, and what the chosen one keeps.
  auto last = std::prev(by_free_.end());
  Ticks largest = left;
  if (last != chosen) {
    largest = std::max(largest, last->first);
  } else if (last != by_free_.begin()) {
    largest = std::max(largest, std::prev(last)->first);
  }
  return Quantity::FromTicks(std::max(largest, g_ * whole));
}

MachineSpot PoolMachines::Find(Quantity need) const {
  MachineSpot spot;
  const Ticks s = need.ticks();
  if (!has_nodes() || !Shaped(need) || need > FitBound()) return spot;
  if (s <= g_) {
    spot.first = by_free_.lower_bound({s, 0})->second;
    return spot;
  }
  // Entirely free machines come last in the index, by number.
  auto it = by_free_.lower_bound({g_, 0});
  size_t k = static_cast<size_t>(s / g_);
  for (; it != by_free_.end() && k > 0; ++it) {
    if (held_[it->second] != 0) continue;
    if (spot.first == MachineSpot::kNone) {
      spot.first = it->second;
    } else {
      spot.more.push_back(it->second);
    }
    --k;
  }
  return spot;
}

void PoolMachines::Change(uint32_t m, Ticks delta) {
  by_free_.erase({FreeTicks(m), m});
  if (held_[m] == 0) --whole_free_;
  held_[m] += delta;
  if (held_[m] == 0) ++whole_free_;
  by_free_.emplace(FreeTicks(m), m);
}

void PoolMachines::Hold(const MachineSpot& spot, Quantity need) {
  if (spot.first == MachineSpot::kNone) return;
  const Ticks share = Share(spot, need);
  Change(spot.first, share);
  for (uint32_t m : spot.more) Change(m, share);
}

void PoolMachines::Release(const MachineSpot& spot, Quantity need) {
  if (spot.first == MachineSpot::kNone) return;
  const Ticks share = Share(spot, need);
  Change(spot.first, -share);
  for (uint32_t m : spot.more) Change(m, -share);
}

}  // namespace rescfg
