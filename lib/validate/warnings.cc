/// Legal but probably unintended: fractional pools, decimals that were meant
/// as fractions, things nothing uses, limits that let little through.

#include <algorithm>
#include <set>
#include <utility>

#include "validate/checks.h"

namespace rescfg {
namespace {

/// The n from 2 to 16 whose 1/n is within 1% of `amount` without being
/// equal to it, or 0. Exact: 1/n is a whole number of ticks for n <= 16.
int NearFraction(Quantity amount) {
  for (int n = 2; n <= 16; ++n) {
    Ticks fraction = Quantity::kTicksPerUnit / n;
    Ticks diff = amount.ticks() - fraction;
    if (diff == 0) return 0;
    if (diff < 0) diff = -diff;
    if (diff * 100 <= fraction) return n;
  }
  return 0;
}

void CheckProfileWarnings(CheckContext& context, const std::set<std::string_view>& used) {
  for (const auto& profile : context.config().profiles) {
    if (int n = NearFraction(profile.allotment)) {
      Quantity whole;
      for (int i = 0; i < n; ++i) whole += profile.allotment;
      context.Warning("near-fraction", profile.allotment_mark, ProfilePath(profile) + ".allotment",
                      "allotment " + profile.allotment.ToString() + " is close to 1/" +
                          std::to_string(n) + " but not equal: " + std::to_string(n) +
                          " such jobs need " + whole.ToString() + ", not 1",
                      "use \"1/" + std::to_string(n) + "\"");
    }
    if (context.First(profile) == &profile && used.count(profile.name) == 0) {
      context.Warning("unused-profile", profile.name_mark, ProfilePath(profile),
                      "profile '" + profile.name + "' is used by no policy: no job can run with it",
                      "list it in a policy's profiles, or remove it");
    }
  }
}

/// A pool that gives fractions as MIG resources but maps no resource to the
/// fractional allotment of a profile linked to it: the agent export cannot
/// size those tasks (one warning per pool and fraction, naming the first
/// such profile). Dynamic profiles size each task themselves: not checked.
void CheckMigCoverage(CheckContext& context) {
  std::set<std::pair<const Pool*, Ticks>> said;
  for (const auto& profile : context.config().profiles) {
    const Quantity allotment = profile.allotment;
    if (profile.dynamic_parameter || allotment.is_zero() || allotment >= Quantity::Units(1)) continue;
    for (const auto& link : profile.links) {
      const Pool* pool = context.FindPool(link.pool);
      if (pool == nullptr || !pool->gpu_fractions.mig) continue;
      const auto& mig = pool->gpu_fractions.resources;  // ascending fraction
      auto at = std::lower_bound(mig.begin(), mig.end(), allotment,
                                 [](const GpuFractions::Mig& m, Quantity q) { return m.fraction < q; });
      if (at != mig.end() && at->fraction == allotment) continue;
      if (!said.insert({pool, allotment.ticks()}).second) continue;
      const std::string fraction = "\"" + allotment.ToString() + "\"";
      context.Warning("mig-fraction-unmapped", pool->gpu_fractions_mark.line ? pool->gpu_fractions_mark : pool->name_mark,
                      PoolPath(*pool) + ".gpuFractions.mig",
                      "pool '" + pool->name + "' gives fractions as MIG resources but maps none to " +
                          allotment.ToString() + ", the allotment of profile '" + profile.name +
                          "' linked to it: the agent export cannot size its tasks",
                      "add " + fraction + ": RESOURCE (the MIG slice of that size on the pool's GPUs) to its "
                      "gpuFractions.mig");
    }
  }
}

/// The smallest allotment among a policy's profiles, and whether any of them
/// is dynamic (its jobs may state a smaller need).
struct SmallestAllotment {
  const Profile* profile = nullptr;
  bool any_dynamic = false;
};

SmallestAllotment Smallest(const CheckContext& context, const Policy& policy) {
  SmallestAllotment result;
  for (const auto& entry : policy.profiles) {
    const Profile* profile = context.FindProfile(entry.profile);
    if (!profile || profile->allotment.is_zero()) continue;
    if (profile->dynamic_parameter) result.any_dynamic = true;
    if (!result.profile || profile->allotment < result.profile->allotment) result.profile = profile;
  }
  return result;
}

}  // namespace

void CheckWarnings(CheckContext& context) {
  const Config& config = context.config();
  std::set<std::string_view> linked, used;
  for (const auto& profile : config.profiles) {
    for (const auto& link : profile.links) linked.insert(link.pool);
  }
  for (const auto& policy : config.policies) {
    for (const auto& entry : policy.profiles) used.insert(entry.profile);
  }
  // A list the loader could not read hides what it names: no pool or
  // profile is then called unused for it (one mistake, one finding).
  for (const auto& profile : config.profiles) {
    if (!context.Reported(ProfilePath(profile) + ".links")) continue;
    for (const auto& pool : config.pools) linked.insert(pool.name);
    break;
  }
  for (const auto& policy : config.policies) {
    if (!context.Reported(PolicyPath(policy) + ".profiles")) continue;
    for (const auto& profile : config.profiles) used.insert(profile.name);
    break;
  }

  for (const auto& pool : config.pools) {
    if (!pool.resources.is_whole()) {
      context.Warning("fractional-pool-size", pool.resources_mark, PoolPath(pool) + ".resources",
                      "pool '" + pool.name + "' has " + pool.resources.ToString() +
                          " resources, not a whole number of GPUs",
                      "a pool's size is its physical capacity; use a whole number");
    }
    if (context.First(pool) == &pool && linked.count(pool.name) == 0) {
      context.Warning("unused-pool", pool.name_mark, PoolPath(pool),
                      "pool '" + pool.name + "' is linked by no profile: its capacity is never used",
                      "link it from a profile, or remove it");
    }
  }
  CheckProfileWarnings(context, used);
  CheckMigCoverage(context);
  for (const auto& policy : config.policies) {
    if (policy.profiles.empty()) {
      if (context.Reported(PolicyPath(policy) + ".profiles")) continue;  // said already, by the loader
      context.Warning("empty-policy", policy.profiles_mark.line ? policy.profiles_mark : policy.name_mark,
                      PolicyPath(policy) + ".profiles",
                      "policy '" + policy.name + "' lists no profiles: its users can submit nothing",
                      "add profiles: [NAME]");
      continue;
    }
    if (!policy.limit) continue;
    SmallestAllotment smallest = Smallest(context, policy);
    // With only fixed profiles, allotment-above-limit already says it.
    if (!smallest.profile || !smallest.any_dynamic || smallest.profile->allotment <= *policy.limit) {
      continue;
    }
    context.Warning("limit-below-allotment", policy.limit_mark, PolicyPath(policy) + ".limit",
                    "limit " + policy.limit->ToString() + " of policy '" + policy.name +
                        "' is below the smallest allotment it can use, " +
                        smallest.profile->allotment.ToString() + " (profile '" +
                        smallest.profile->name +
                        "'): only jobs that state a smaller need can run",
                    "raise the limit to at least " + smallest.profile->allotment.ToString());
  }
}

}  // namespace rescfg
