#pragma once
/// Turning pool sizes, reservations and limits into Kueue quota.
///
/// rescfg keeps a reservation pool-agnostic: it holds in whichever pools the
/// policy's jobs reach. Kueue quota belongs to one flavor. So each
/// reservation is split over the pools its policy reaches, with the
/// maximum flow of the reservation check (source -> policy, its reservation
/// -> each pool it reaches -> sink, the pool's guaranteed capacity: nominal
/// quota that backs a reservation is never capacity that may not be there):
/// a split that honours
/// every reservation at once, filled in link order where it has a choice.
/// What no reservation takes is the pools' shared quota. Per pool, the
/// shares add up to its size (rescfg(5), KUBERNETES).
///
/// A limit caps a policy's use of all pools together; Kueue caps each flavor
/// apart. A limit no lower than the pools the policy reaches caps nothing;
/// a lower one is split over those pools so that the caps add up to the
/// limit: after the reservation, every queue of the policy gets one job's
/// worth in each pool rescfg would place it in (its first pool first), and
/// the rest fills the pools up to their size in link order.
///
/// Errors (exit 2): kueue-fractional-pool (counted in whole GPUs, a pool
/// size and its guaranteed capacity must be whole), kueue-quota-overflow (counted in ticks, all pools
/// together must fit a 64-bit quantity). Findings: kueue-rounded (counted
/// in whole GPUs, a fractional reservation or limit is rounded down),
/// kueue-split-reservation, kueue-split-limit (how they were split),
/// kueue-starved-queue (severity error: a limit too low for one job of each
/// queue in each of its pools; Kueue never admits that queue there).

#include <cstdint>
#include <string>
#include <vector>

#include "config/model.h"
#include "export/export_result.h"
#include "export/kueue_requests.h"

namespace rescfg {

/// One job of a policy queue in a pool where rescfg places it when nothing
/// else runs: Kueue must be able to admit it there too (rescfg(5), KUBERNETES v3).
struct KueueQueueNeed {
  size_t queue = 0;    ///< its entry in the policy's profiles
  size_t reach = 0;    ///< the pool, as an index into KueuePolicyQuota::reach
  int64_t units = 0;   ///< its allotment in quota units
  bool first = false;  ///< the first such pool of the queue, in link order
};

struct KueuePolicyQuota {
  std::vector<size_t> reach;      ///< pool indexes its profiles link, in their order, once each
  std::vector<bool> reached;      ///< per reach entry: its jobs fit there (dynamic, or allotment <= size)
  std::vector<int64_t> reserved;  ///< per reach entry: its share of the reservation, in quota units
  bool capped = false;            ///< the limit is lower than what it reaches: `cap` holds
  std::vector<int64_t> cap;       ///< per reach entry: at most this much there
  std::vector<KueueQueueNeed> needs;  ///< per policy queue and pool it is served in
};

struct KueueQuota {
  std::vector<int64_t> size;    ///< per pool, in quota units
  std::vector<int64_t> guaranteed;  ///< per pool: what reservations may rest on
  std::vector<int64_t> shared;  ///< per pool: what no reservation takes
  std::vector<KueuePolicyQuota> policies;
};

/// An amount as quota units: whole GPUs (rounded down) or ticks.
int64_t QuotaUnits(Quantity amount, const KueueUnits& units);
/// Quota units as an amount, for messages.
Quantity QuotaAmount(int64_t quota, const KueueUnits& units);

/// Splits the quota of a valid configuration (defaults applied).
KueueQuota SplitQuota(const Config& config, const KueueUnits& units, const std::string& file,
                      std::vector<ExportFinding>* findings, std::vector<Finding>* errors);

}  // namespace rescfg
