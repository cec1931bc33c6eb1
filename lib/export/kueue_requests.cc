#include "export/kueue_requests.h"

#include <algorithm>
#include <map>

namespace rescfg {
namespace {

const GpuFractions::Mig* MigFor(const Pool& pool, Quantity fraction) {
  if (!pool.gpu_fractions.mig) return nullptr;
  for (const auto& m : pool.gpu_fractions.resources) {
    if (m.fraction == fraction) return &m;
  }
  return nullptr;
}

std::string PoolPath(const Pool& pool) { return "pools[" + pool.name + "]"; }
std::string ProfilePath(const Profile& profile) { return "profiles[" + profile.name + "]"; }

/// "a, b or c".
std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

/// What one job of a fixed profile requests in a pool: "4 nvidia.com/gpu",
/// "one nvidia.com/mig-1g.10gb", or "" when pods cannot request it.
std::string RequestText(const Profile& profile, const Pool& pool, const KubernetesSettings& k8s) {
  const Quantity a = profile.allotment;
  if (a.is_whole()) return a.ToString() + " " + k8s.gpu_resource;
  if (const auto* mig = a < Quantity::Units(1) ? MigFor(pool, a) : nullptr) return "one " + mig->resource;
  return "";
}

/// kueue-fraction findings of one link whose allotment pods cannot request.
void UnrequestableFinding(const Profile& profile, size_t link, const Pool& pool, bool ticks,
                          std::vector<ExportFinding>* findings) {
  const Quantity a = profile.allotment;
  const std::string path = ProfilePath(profile) + ".links[" + std::to_string(link) + "]";
  const std::string amount = a.ToString() + " GPU";
  if (a > Quantity::Units(1)) {
    findings->push_back({path, profile.links[link].mark,
                         "a job of '" + profile.name + "' needs " + amount +
                             ", neither whole GPUs nor one MIG unit: its pods cannot request it in Kueue, which "
                             "counts extended resources in whole units",
                         "use a whole allotment, or a fraction below 1 mapped in the pool's gpuFractions",
                         "kueue-fraction"});
    return;
  }
  std::string how = pool.gpu_fractions.mig ? "its gpuFractions maps no MIG resource to " + a.ToString()
                                           : "with gpuFractions injector the fraction travels in a label, which "
                                             "Kueue does not count";
  findings->push_back({path, profile.links[link].mark,
                       "a job of '" + profile.name + "' needs " + amount + " in pool '" + pool.name +
                           "', which Kueue cannot count: " + how,
                       "map \"" + a.ToString() + "\" to a MIG resource in " + PoolPath(pool) + ".gpuFractions" +
                           (ticks ? "" : "; with kubernetes.ticksResource it is then counted exactly"),
                       "kueue-fraction"});
}

/// kueue-fixed-allotment: Kueue charges what pods request.
void FixedAllotmentFinding(const Profile& profile, const Config& config, std::vector<ExportFinding>* findings) {
  std::vector<std::string> requests;
  for (const Link& link : profile.links) {
    const Pool* pool = config.FindPool(link.pool);
    std::string text = pool ? RequestText(profile, *pool, config.kubernetes) : "";
    if (!text.empty() && std::find(requests.begin(), requests.end(), text) == requests.end()) requests.push_back(text);
  }
  std::string what = requests.empty()        ? "its pods could request that, which they cannot in its pools"
                     : requests.size() == 1 ? "its pods request " + requests.front() + " in all"
                                            : "its pods request " + Join(requests) + " in the respective pools";
  findings->push_back({ProfilePath(profile) + ".allotment", profile.allotment_mark,
                       "Kueue charges each workload what its pods request, not a profile's allotment: a job of '" +
                           profile.name + "' counts " + profile.allotment.ToString() + " only when " + what,
                       requests.empty() ? ""
                                        : "give the jobs of its LocalQueues (annotation rescfg.io/allotment) exactly "
                                          "that request",
                       "kueue-fixed-allotment"});
}

}  // namespace

KueueRequests DescribeRequests(const Config& config, std::vector<ExportFinding>* findings) {
  const KubernetesSettings& k8s = config.kubernetes;
  KueueRequests requests;
  KueueUnits& units = requests.units;
  units.ticks = !k8s.ticks_resource.empty();
  units.resource = units.ticks ? k8s.ticks_resource : k8s.gpu_resource;
  units.per_gpu = units.ticks ? Quantity::kTicksPerUnit : 1;

  std::map<std::string, size_t> pool_index;
  for (size_t i = 0; i < config.pools.size(); ++i) pool_index.emplace(config.pools[i].name, i);
  requests.pool_mig.resize(config.pools.size());

  for (const Profile& profile : config.profiles) {
    if (profile.dynamic_parameter) continue;  // each job states its need: Kueue charges what it requests
    FixedAllotmentFinding(profile, config, findings);
    if (profile.allotment.is_whole()) continue;
    for (size_t l = 0; l < profile.links.size(); ++l) {
      auto it = pool_index.find(profile.links[l].pool);
      if (it == pool_index.end()) continue;
      const Pool& pool = config.pools[it->second];
      const GpuFractions::Mig* mig = profile.allotment < Quantity::Units(1) ? MigFor(pool, profile.allotment) : nullptr;
      if (!mig) {
        UnrequestableFinding(profile, l, pool, units.ticks, findings);
        continue;
      }
      auto& offered = requests.pool_mig[it->second];
      if (units.ticks || std::any_of(offered.begin(), offered.end(),
                                     [&](const KueueMigResource& m) { return m.resource == mig->resource; })) {
        continue;
      }
      const Ticks quota = pool.resources.ticks() / mig->fraction.ticks();
      offered.push_back({mig->resource, mig->fraction, static_cast<int64_t>(quota)});
    }
  }

  for (size_t i = 0; i < config.pools.size(); ++i) {
    auto& mig = requests.pool_mig[i];
    std::sort(mig.begin(), mig.end(),
              [](const KueueMigResource& a, const KueueMigResource& b) { return a.fraction < b.fraction; });
    std::vector<std::string> resources{units.resource};
    for (const auto& m : mig) {
      if (m.resource != units.resource) resources.push_back(m.resource);
    }
    requests.pool_resources.push_back(std::move(resources));
    if (mig.empty()) continue;
    const Pool& pool = config.pools[i];
    std::string counts;
    for (const auto& m : mig) counts += (counts.empty() ? "" : ", ") + std::to_string(m.units) + " " + m.resource;
    findings->push_back({PoolPath(pool) + ".gpuFractions", pool.gpu_fractions_mark,
                         "Kueue counts MIG units apart from whole GPUs: the quota of pool '" + pool.name + "' is " +
                             pool.resources.ToString() + " " + units.resource + " and " + counts +
                             ", which together admit more than its " + pool.resources.ToString() +
                             " GPUs; reservations and limits count " + units.resource + " only",
                         "set kubernetes.ticksResource to count every request exactly, in ticks",
                         "kueue-fraction"});
  }

  if (units.ticks) {
    requests.transformations.push_back({k8s.gpu_resource, Quantity::kTicksPerUnit});
    std::map<std::string, Quantity> seen;
    for (const Pool& pool : config.pools) {
      if (!pool.gpu_fractions.mig) continue;
      for (const auto& m : pool.gpu_fractions.resources) {
        auto [it, fresh] = seen.emplace(m.resource, m.fraction);
        if (fresh) {
          requests.transformations.push_back({m.resource, static_cast<int64_t>(m.fraction.ticks())});
        } else if (it->second != m.fraction) {
          findings->push_back({PoolPath(pool) + ".gpuFractions", m.mark,
                               "'" + m.resource + "' is " + it->second.ToString() + " of a GPU in another pool and " +
                                   m.fraction.ToString() + " here: one resource transformation turns it into " +
                                   "ticks for every pool, as " + it->second.ToString(),
                               "map each MIG resource to one fraction in every pool", "kueue-transformation"});
        }
      }
    }
  }
  return requests;
}

}  // namespace rescfg
