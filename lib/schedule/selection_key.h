#pragma once
/// The selection key of the pass (rescfg-scheduling(7), THE PASS): among the
/// undecided jobs that have a target, the pass places the one with the
/// smallest key.

#include <compare>
#include <cstdint>

namespace rescfg {

struct SelectionKey {
  uint32_t exec_rank;    ///< (1) its profile's rank in its target pool's execution priority
  uint32_t policy_rank;  ///< (2) its policy's rank in its profile's policy priority
  uint32_t queue_order;  ///< (3) its queue order
  uint32_t position;     ///< (4) its file position
  uint32_t slot;         ///< the candidate slot offering it: a final unique tie-break
  auto operator<=>(const SelectionKey&) const = default;
};

}  // namespace rescfg
