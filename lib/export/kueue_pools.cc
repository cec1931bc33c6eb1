#include "export/kueue_pools.h"

#include <set>
#include <string_view>

#include "export/kueue_quota.h"
#include "util/edit_distance.h"

namespace rescfg {
namespace {

/// Per policy, in ticks: the share of its reservation the full split puts
/// on each pool (by index), or nothing when no split honours them all.
std::vector<std::vector<std::pair<size_t, Ticks>>> FullSplit(const Config& config, const std::string& file) {
  const KueueUnits ticks{true, "", static_cast<int64_t>(Quantity::kTicksPerUnit)};
  std::vector<ExportFinding> findings;
  std::vector<Finding> errors;
  const KueueQuota quota = SplitQuota(config, ticks, file, &findings, &errors);
  std::vector<std::vector<std::pair<size_t, Ticks>>> out(config.policies.size());
  if (!errors.empty()) return out;
  for (size_t i = 0; i < config.policies.size(); ++i) {
    const KueuePolicyQuota& q = quota.policies[i];
    for (size_t k = 0; k < q.reach.size(); ++k) {
      if (q.reserved[k] > 0) out[i].push_back({q.reach[k], Ticks(q.reserved[k])});
    }
  }
  return out;
}

/// "4 in 'A' and 2 in 'B'".
std::string Shares(const Config& config, const std::vector<std::pair<size_t, Ticks>>& shares) {
  std::string out;
  for (size_t n = 0; n < shares.size(); ++n) {
    if (n > 0) out += n + 1 == shares.size() ? " and " : ", ";
    out += Quantity::FromTicks(shares[n].second).ToString() + " in '" + config.pools[shares[n].first].name + "'";
  }
  return out;
}

/// The reservation of `policy` the exported pools carry; a finding when
/// some of it rests on pools left out.
Quantity KeptReservation(const Config& config, const Policy& policy, const std::set<std::string_view>& kept,
                         const std::vector<std::pair<size_t, Ticks>>& split, std::vector<ExportFinding>* findings) {
  Ticks inside = 0;
  std::vector<std::pair<size_t, Ticks>> outside;
  for (const auto& [pool, share] : split) {
    if (kept.count(config.pools[pool].name)) inside += share; else outside.push_back({pool, share});
  }
  if (outside.empty()) return policy.reserved;
  const Quantity carried = Quantity::FromTicks(inside);
  findings->push_back({"policies[" + policy.name + "].reserved", policy.reserved_mark,
                       "the reservation " + policy.reserved.ToString() + " of '" + policy.name +
                           "' holds in whichever pools its jobs reach; split over all of them, " +
                           Shares(config, outside) + " rests on pools this export leaves out, which rescfg alone "
                           "serves: the exported pools carry " + carried.ToString() + " of it",
                       "", "kueue-split-reservation"});
  return carried;
}

}  // namespace

Config KueuePoolSubset(const Config& config, const std::vector<std::string>& pools, const std::string& file,
                       std::vector<ExportFinding>* findings, std::vector<Finding>* errors) {
  if (pools.empty()) return config;
  std::vector<std::string> names;
  for (const Pool& pool : config.pools) names.push_back(pool.name);
  std::set<std::string_view> kept;
  for (const std::string& name : pools) {
    if (config.FindPool(name) != nullptr) {
      kept.insert(name);
      continue;
    }
    const std::string close = ClosestMatch(name, names);
    errors->push_back({"unknown-pool", Severity::kError, file, {}, "pools",
                       "--pool '" + name + "': the configuration has no pool of that name",
                       !close.empty() ? "did you mean '" + close + "'?" : ""});
  }
  if (!errors->empty()) return config;

  const auto split = FullSplit(config, file);
  Config subset = config;
  subset.pools.clear();
  for (const Pool& pool : config.pools) if (kept.count(pool.name)) subset.pools.push_back(pool);
  subset.profiles.clear();
  std::set<std::string_view> profiles;  // those left, by name
  for (const Profile& profile : config.profiles) {
    Profile copy = profile;
    copy.links.clear();
    for (const Link& link : profile.links) if (kept.count(link.pool)) copy.links.push_back(link);
    if (copy.links.empty()) continue;
    profiles.insert(profile.name);
    subset.profiles.push_back(std::move(copy));
  }
  subset.policies.clear();
  for (size_t i = 0; i < config.policies.size(); ++i) {
    Policy copy = config.policies[i];
    copy.profiles.clear();
    for (const PolicyProfile& entry : config.policies[i].profiles) {
      if (profiles.count(entry.profile)) copy.profiles.push_back(entry);
    }
    if (copy.profiles.empty()) continue;
    copy.reserved = KeptReservation(config, config.policies[i], kept, split[i], findings);
    subset.policies.push_back(std::move(copy));
  }
  return subset;
}

}  // namespace rescfg
