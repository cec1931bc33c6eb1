#include "export/kueue_quota.h"

#include <algorithm>
#include <limits>
#include <map>

#include "util/max_flow.h"

namespace rescfg {
namespace {

/// As the reservation check of validation: its jobs can fit there (on one
/// machine, or whole machines, of a pool with nodes).
bool Reaches(const Profile& profile, const Pool& pool) {
  return profile.dynamic_parameter || FitsEmptyPool(pool, profile.allotment);
}

/// Whether rescfg places a job of the profile's allotment (a dynamic
/// profile's default) in the pool when nothing else runs there.
bool PlacesAlone(const Profile& profile, const Pool& pool) { return FitsEmptyPool(pool, profile.allotment); }

/// The name of a policy queue, as its users write it.
std::string QueueName(const Policy& policy, size_t entry) {
  const PolicyProfile& p = policy.profiles[entry];
  return PolicyQueueOf(policy, p);
}

std::string PolicyPath(const Policy& policy) { return "policies[" + policy.name + "]"; }
Mark Or(Mark mark, Mark fallback) { return mark.line > 0 ? mark : fallback; }

/// "8 in 'A' and 0 in 'B'".
std::string Shares(const Config& config, const KueuePolicyQuota& q, const std::vector<int64_t>& amounts,
                   const KueueUnits& units) {
  std::string out;
  for (size_t k = 0; k < q.reach.size(); ++k) {
    if (!q.reached[k]) continue;
    std::string part = QuotaAmount(amounts[k], units).ToString() + " in '" + config.pools[q.reach[k]].name + "'";
    out += out.empty() ? part : ", " + part;
  }
  if (size_t last = out.rfind(", "); last != std::string::npos) out.replace(last, 2, " and ");
  return out;
}

/// The pools each policy's profiles link, in order, once each; and what
/// each of its queues needs in each pool where rescfg can place its jobs.
KueuePolicyQuota Reach(const Config& config, const Policy& policy, const std::map<std::string, size_t>& pools,
                       const KueueUnits& units) {
  KueuePolicyQuota q;
  for (size_t j = 0; j < policy.profiles.size(); ++j) {
    const Profile* profile = config.FindProfile(policy.profiles[j].profile);
    if (!profile) continue;
    bool first = true;
    for (const Link& link : profile->links) {
      auto it = pools.find(link.pool);
      if (it == pools.end()) continue;
      const bool fits = Reaches(*profile, config.pools[it->second]);
      auto at = std::find(q.reach.begin(), q.reach.end(), it->second);
      const size_t k = static_cast<size_t>(at - q.reach.begin());
      if (at == q.reach.end()) {
        q.reach.push_back(it->second);
        q.reached.push_back(fits);
      } else if (fits) {
        q.reached[k] = true;
      }
      // A job of its allotment (a dynamic one's default) that rescfg places
      // there when nothing else runs: the pool holds it, the limit allows it.
      if (!PlacesAlone(*profile, config.pools[it->second]) || (policy.limit && profile->allotment > *policy.limit)) {
        continue;
      }
      q.needs.push_back({j, k, QuotaUnits(profile->allotment, units), first});
      first = false;
    }
  }
  q.reserved.assign(q.reach.size(), 0);
  return q;
}

/// A reservation or limit as quota units, with a kueue-rounded finding when
/// whole GPUs cannot hold it exactly.
int64_t Units(Quantity amount, const KueueUnits& units, const std::string& path, Mark mark, const char* what,
              std::vector<ExportFinding>* findings) {
  const int64_t quota = QuotaUnits(amount, units);
  if (QuotaAmount(quota, units) != amount) {
    findings->push_back({path, mark,
                         std::string("the ") + what + " " + amount.ToString() + " is not a whole number of " +
                             units.resource + ", which Kueue counts in whole units: it is rounded down to " +
                             std::to_string(quota),
                         std::string("give a whole ") + what + ", or set kubernetes.ticksResource to count in ticks",
                         "kueue-rounded"});
  }
  return quota;
}

/// The max-flow split of every reservation; false if none honours them all.
bool SplitReservations(const Config& config, KueueQuota& quota, const std::vector<int64_t>& reserved) {
  const int source = 0, sink = 1;
  const int policies = static_cast<int>(config.policies.size());
  MaxFlow flow(2 + policies + static_cast<int>(config.pools.size()));
  Ticks total = 0;
  std::vector<std::vector<int>> edges(config.policies.size());
  for (int i = 0; i < policies; ++i) {
    if (reserved[i] == 0) continue;
    total += reserved[i];
    flow.AddEdge(source, 2 + i, reserved[i]);
    const KueuePolicyQuota& q = quota.policies[i];
    for (size_t k = 0; k < q.reach.size(); ++k) {
      edges[i].push_back(q.reached[k] ? flow.AddEdge(2 + i, 2 + policies + static_cast<int>(q.reach[k]), reserved[i])
                                      : -1);
    }
  }
  // Reservations rest only on the capacity that is always there.
  for (size_t p = 0; p < config.pools.size(); ++p) {
    flow.AddEdge(2 + policies + static_cast<int>(p), sink, quota.guaranteed[p]);
  }
  if (flow.Run(source, sink) < total) return false;
  for (int i = 0; i < policies; ++i) {
    KueuePolicyQuota& q = quota.policies[i];
    for (size_t k = 0; k < edges[i].size(); ++k) {
      if (edges[i][k] < 0) continue;
      q.reserved[k] = static_cast<int64_t>(flow.Flow(edges[i][k]));
      quota.shared[q.reach[k]] -= q.reserved[k];
    }
  }
  return true;
}

/// Caps a policy's use per pool so that the caps add up to its limit and
/// no queue of the policy is starved where rescfg would serve it: after the
/// reservation, first each queue's first pool (it runs somewhere), then its
/// other pools, get what one of its jobs needs; what is left fills the pools
/// up to their size in link order. A need the limit cannot cover is an
/// error finding (kueue-starved-queue) naming the queue and the pool.
void CapLimit(const Config& config, const Policy& policy, int64_t limit, const KueueUnits& units,
              KueueQuota& quota, KueuePolicyQuota& q, std::vector<ExportFinding>* findings) {
  Ticks reachable = 0;
  size_t reached = 0;
  for (size_t k = 0; k < q.reach.size(); ++k) {
    if (q.reached[k]) { reachable += quota.size[q.reach[k]]; ++reached; }
  }
  if (Ticks(limit) >= reachable) return;  // the pools themselves stop it first
  q.capped = true;
  q.cap = q.reserved;
  int64_t left = limit;
  for (int64_t r : q.reserved) left -= r;
  for (bool firsts : {true, false}) {
    for (const KueueQueueNeed& need : q.needs) {
      if (need.first != firsts || q.cap[need.reach] >= need.units || need.units - q.cap[need.reach] > left) continue;
      left -= need.units - q.cap[need.reach];
      q.cap[need.reach] = need.units;
    }
  }
  for (size_t k = 0; k < q.reach.size() && left > 0; ++k) {
    if (!q.reached[k]) continue;
    const int64_t more = std::min(left, quota.size[q.reach[k]] - q.cap[k]);
    q.cap[k] += more;
    left -= more;
  }
  for (const KueueQueueNeed& need : q.needs) {
    if (q.cap[need.reach] >= need.units) continue;
    const std::string& pool = config.pools[q.reach[need.reach]].name;
    const std::string queue = QueueName(policy, need.queue);
    findings->push_back({PolicyPath(policy) + ".limit", policy.limit_mark,
                         "the limit " + QuotaAmount(limit, units).ToString() + " of '" + policy.name +
                             "', split over its pools, leaves " + QuotaAmount(q.cap[need.reach], units).ToString() +
                             " in '" + pool + "', less than one job of its queue '" + queue + "' (" +
                             QuotaAmount(need.units, units).ToString() +
                             "): Kueue never admits that queue there, where rescfg places it",
                         "raise the limit to at least what one job of each of its queues needs in each pool they "
                         "link, or unlink '" + pool + "' from that queue's profile",
                         "kueue-starved-queue", Severity::kError});
  }
  if (reached < 2) return;
  findings->push_back({PolicyPath(policy) + ".limit", policy.limit_mark,
                       "the limit " + QuotaAmount(limit, units).ToString() + " of '" + policy.name +
                           "' holds across pools, but Kueue caps each flavor apart: it is split as " +
                           Shares(config, q, q.cap, units) +
                           " (nominal quota plus borrowingLimit of its Cohort), so its jobs may wait in one pool "
                           "while rescfg would place them there",
                       "a limit of " + QuotaAmount(static_cast<int64_t>(reachable), units).ToString() +
                           " or more (what its profiles reach) is exported exactly",
                       "kueue-split-limit"});
}

}  // namespace

int64_t QuotaUnits(Quantity amount, const KueueUnits& units) {
  if (units.ticks) return static_cast<int64_t>(amount.ticks());
  return static_cast<int64_t>(amount.ticks() / Quantity::kTicksPerUnit);
}

Quantity QuotaAmount(int64_t quota, const KueueUnits& units) {
  return units.ticks ? Quantity::FromTicks(quota) : Quantity::Units(quota);
}

KueueQuota SplitQuota(const Config& config, const KueueUnits& units, const std::string& file,
                      std::vector<ExportFinding>* findings, std::vector<Finding>* errors) {
  KueueQuota quota;
  Ticks total = 0;
  std::map<std::string, size_t> pools;
  for (size_t i = 0; i < config.pools.size(); ++i) {
    const Pool& pool = config.pools[i];
    pools.emplace(pool.name, i);
    if (!units.ticks && !pool.resources.is_whole()) {
      errors->push_back({"kueue-fractional-pool", Severity::kError, file, pool.resources_mark,
                         "pools[" + pool.name + "].resources",
                         "pool '" + pool.name + "' holds " + pool.resources.ToString() + " GPUs, not a whole number: " +
                             "Kueue counts " + units.resource + " in whole units, so its quota cannot add up to it",
                         "give the pool a whole size, or set kubernetes.ticksResource to count in ticks"});
    }
    const Quantity guaranteed = GuaranteedOf(pool);
    if (!units.ticks && pool.resources.is_whole() && !guaranteed.is_whole()) {
      errors->push_back({"kueue-fractional-pool", Severity::kError, file, Or(pool.guaranteed_mark, pool.mark),
                         "pools[" + pool.name + "].guaranteed",
                         "pool '" + pool.name + "' guarantees " + guaranteed.ToString() + " GPUs, not a whole " +
                             "number: Kueue counts " + units.resource + " in whole units, so the reservations " +
                             "resting on it cannot be quota",
                         "give the pool a whole guaranteed capacity, or set kubernetes.ticksResource to count in ticks"});
    }
    total += pool.resources.ticks();
    quota.size.push_back(QuotaUnits(pool.resources, units));
    quota.guaranteed.push_back(QuotaUnits(guaranteed, units));
  }
  if (units.ticks && total > Ticks(std::numeric_limits<int64_t>::max())) {
    errors->push_back({"kueue-quota-overflow", Severity::kError, file, config.kubernetes.ticks_resource_mark,
                       "kubernetes.ticksResource",
                       "the pools hold " + Quantity::FromTicks(total).ToString() + " GPUs in all, more ticks than " +
                           "Kueue's 64-bit quantities hold",
                       "count in whole GPUs: remove kubernetes.ticksResource"});
  }
  quota.shared = quota.size;
  std::vector<int64_t> reserved;
  for (const Policy& policy : config.policies) {
    quota.policies.push_back(Reach(config, policy, pools, units));
    reserved.push_back(policy.reserved.is_zero() ? 0
                                                 : Units(policy.reserved, units, PolicyPath(policy) + ".reserved",
                                                         policy.reserved_mark, "reservation", findings));
  }
  if (!errors->empty()) return quota;
  if (!SplitReservations(config, quota, reserved)) {
    errors->push_back({"kueue-internal", Severity::kError, file, {}, "policies",
                       "no split of the reservations over the pools honours them all", "run rescfg validate"});
    return quota;
  }
  for (size_t i = 0; i < config.policies.size(); ++i) {
    const Policy& policy = config.policies[i];
    KueuePolicyQuota& q = quota.policies[i];
    if (reserved[i] > 0 && std::count(q.reached.begin(), q.reached.end(), true) >= 2) {
      findings->push_back({PolicyPath(policy) + ".reserved", policy.reserved_mark,
                           "the reservation " + QuotaAmount(reserved[i], units).ToString() + " of '" + policy.name +
                               "' holds in whichever pools its jobs reach, but Kueue quota belongs to one flavor: it "
                               "is split as " + Shares(config, q, q.reserved, units) +
                               " (nominal quota of its Cohort), a split that honours every reservation at once",
                           "", "kueue-split-reservation"});
    }
    if (policy.limit) {
      const int64_t limit = Units(*policy.limit, units, PolicyPath(policy) + ".limit", policy.limit_mark, "limit",
                                  findings);
      CapLimit(config, policy, limit, units, quota, q, findings);
    }
  }
  return quota;
}

}  // namespace rescfg
