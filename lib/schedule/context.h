#pragma once
/// Static facts of a configuration in the shape the pass reads them:
/// indexes instead of names, ranks as dense tables.

#include <cstdint>
#include <vector>

#include "config/model.h"
#include "util/quantity.h"

namespace rescfg {

struct ScheduleContext {
  explicit ScheduleContext(const Config& config);

  const Config& config;
  size_t pool_count = 0, profile_count = 0, policy_count = 0;
  std::vector<Quantity> pool_size;
  std::vector<std::vector<uint32_t>> links;  ///< per profile: pool indexes in link order
  std::vector<Quantity> largest_linked_pool; ///< per profile
  std::vector<bool> links_nodes;             ///< per profile: some linked pool has nodes
  std::vector<bool> strict_fifo;             ///< per profile
  std::vector<Quantity> reserved;            ///< per policy
  std::vector<Quantity> limit;               ///< per policy; Unlimited() when none
  std::vector<bool> pool_paused;             ///< per pool: drained, free(X) = 0
  std::vector<bool> policy_paused;           ///< per policy: frozen
  std::vector<bool> all_links_paused;        ///< per profile: every linked pool is paused
  std::vector<std::vector<uint32_t>> queues_of_policy;  ///< filled by the pass

  uint32_t ExecRank(uint32_t pool, uint32_t profile) const { return exec_rank_[pool * profile_count + profile]; }
  uint32_t PolicyRank(uint32_t profile, uint32_t policy) const { return policy_rank_[profile * policy_count + policy]; }
  bool HasLimit(uint32_t policy) const { return limit[policy] != Unlimited(); }
  /// rescfg-scheduling(7), THE PASS: a job of a paused policy, or whose profile links only paused
  /// pools, is never placed (its reason is `paused`).
  bool Paused(uint32_t policy, uint32_t profile) const { return policy_paused[policy] || all_links_paused[profile]; }
  /// Schedulable (rescfg-scheduling(7), THE PASS): not paused, and no bigger than every linked pool
  /// or the policy's limit.
  bool Schedulable(uint32_t policy, uint32_t profile, Quantity need) const {
    return !Paused(policy, profile) && FitsSomeLinkedPool(profile, need) && need <= limit[policy];
  }
  /// Whether the need fits some linked pool when that pool is empty (v3: on
  /// its machines, when it has nodes).
  bool FitsSomeLinkedPool(uint32_t profile, Quantity need) const;

  /// Larger than any sum of amounts an input can produce.
  static constexpr Quantity Unlimited() { return Quantity::FromTicks(Ticks(1) << 120); }

 private:
  std::vector<uint32_t> exec_rank_;    ///< [pool][profile]
  std::vector<uint32_t> policy_rank_;  ///< [profile][policy]
};

}  // namespace rescfg
