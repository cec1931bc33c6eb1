/// rescfg export kueue never starves a queue rescfg would serve: for every
/// policy queue and every pool its profile links, when rescfg places a job
/// of that queue there on an otherwise idle cluster, the Kueue objects let
/// its ClusterQueue take at least that job's allotment in that flavor. The
/// capacity is read from the objects themselves (nominal quota, borrowing
/// limits up the Cohort tree), not from the split that made them.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <ostream>

#include "export/kueue.h"
#include "export/kueue_objects.h"
#include "export/kueue_quota.h"
#include "export/kueue_rules.h"

#include "support/kueue_export.h"

namespace rescfg {
namespace {

using Made = testing::KueueMade;
constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max() / 4;

/// The quota of `resource` in `flavor` of one object's resource groups.
const KueueResourceQuota* QuotaIn(const std::vector<KueueResourceGroup>& groups, const std::string& flavor,
                                  const std::string& resource) {
  for (const auto& g : groups)
    for (const auto& f : g.flavors)
      if (f.name == flavor)
        for (const auto& r : f.resources) if (r.name == resource) return &r;
  return nullptr;
}

/// What a ClusterQueue may take of `resource` in `flavor` when nothing else
/// is admitted anywhere: its nominal quota plus what it may borrow, which
/// its borrowing limit and each Cohort's up the tree bound, and which the
/// whole tree's quota bounds (the export sets no lending limits).
class IdleCapacity {
 public:
  explicit IdleCapacity(const KueueObjects& o) : o_(o) {
    for (const auto& c : o.cohorts) cohorts_[c.meta.name] = &c;
  }

  int64_t Of(const KueueClusterQueue& cq, const std::string& flavor, const std::string& resource) const {
    const KueueResourceQuota* own = QuotaIn(cq.groups, flavor, resource);
    if (own == nullptr) return 0;  // a flavor the queue does not list
    const int64_t nominal = own->nominal;
    const int64_t borrow = own->borrowing_limit.value_or(kUnlimited);
    return nominal + std::min(borrow, Above(cq.cohort, flavor, resource));
  }

 private:
  /// What the subtree of Cohort `name` (its own quota and its children's,
  /// which lend it all) plus what it may borrow from its parent holds.
  int64_t Above(const std::string& name, const std::string& flavor, const std::string& resource) const {
    auto it = cohorts_.find(name);
    if (it == cohorts_.end()) return 0;
    const KueueCohort& c = *it->second;
    const int64_t subtree = Subtree(name, flavor, resource);
    if (c.parent.empty()) return subtree;
    const KueueResourceQuota* own = QuotaIn(c.groups, flavor, resource);
    const int64_t borrow = own && own->borrowing_limit ? *own->borrowing_limit : kUnlimited;
    return subtree + std::min(borrow, std::max<int64_t>(0, Above(c.parent, flavor, resource) - subtree));
  }

  int64_t Subtree(const std::string& name, const std::string& flavor, const std::string& resource) const {
    int64_t sum = 0;
    const KueueCohort& c = *cohorts_.at(name);
    if (const auto* q = QuotaIn(c.groups, flavor, resource)) sum += q->nominal;
    for (const auto& child : o_.cohorts) {
      if (child.parent == name) sum += Subtree(child.meta.name, flavor, resource);
    }
    for (const auto& cq : o_.cluster_queues) {
      if (cq.cohort != name) continue;
      if (const auto* q = QuotaIn(cq.groups, flavor, resource)) sum += q->nominal;
    }
    return sum;
  }

  const KueueObjects& o_;
  std::map<std::string, const KueueCohort*> cohorts_;
};

/// One policy queue that Kueue cannot admit in a pool where rescfg places it.
struct Starved {
  std::string queue, pool;
  bool operator==(const Starved&) const = default;
  friend void PrintTo(const Starved& s, std::ostream* os) { *os << "{" << s.queue << " in " << s.pool << "}"; }
};

/// Every (policy queue, pool) where rescfg places a job of the queue on an
/// idle cluster but its ClusterQueue cannot take one there.
std::vector<Starved> StarvedQueues(const Config& config, const Made& m) {
  std::vector<Starved> out;
  IdleCapacity idle(m.objects);
  const KueueUnits& units = m.requests.units;
  size_t at = 0;
  for (size_t i = 0; i < config.policies.size(); ++i) {
    const Policy& policy = config.policies[i];
    for (size_t j = 0; j < policy.profiles.size(); ++j, ++at) {
      const Profile& profile = *config.FindProfile(policy.profiles[j].profile);
      const KueueClusterQueue& cq = m.objects.cluster_queues.at(at);
      for (const Link& link : profile.links) {
        const Pool& pool = *config.FindPool(link.pool);
        if (!FitsEmptyPool(pool, profile.allotment)) continue;               // rescfg: never there
        if (policy.limit && profile.allotment > *policy.limit) continue;      // rescfg: never at all
        const size_t p = static_cast<size_t>(&pool - config.pools.data());
        if (idle.Of(cq, m.names.flavors[p], units.resource) < QuotaUnits(profile.allotment, units)) {
          out.push_back({policy.profiles[j].queue.value_or(DefaultPolicyQueue(policy.name, profile.name)), pool.name});
        }
      }
    }
  }
  return out;
}

std::vector<Starved> StarvedFindings(const std::vector<ExportFinding>& findings) {
  std::vector<Starved> out;
  for (const ExportFinding& f : findings) {
    if (f.code != "kueue-starved-queue") continue;
    EXPECT_EQ(f.severity, Severity::kError);
    // "... in 'POOL', less than one job of its queue 'QUEUE' ..."
    const size_t pool = f.message.find(" in '") + 5, queue = f.message.find("its queue '") + 11;
    out.push_back({f.message.substr(queue, f.message.find('\'', queue) - queue),
                   f.message.substr(pool, f.message.find('\'', pool) - pool)});
  }
  return out;
}

/// Six teams on three pools, as a new user writes them: each team's limit
/// is below what its profiles reach, and its first profile is the big one.
const char* kSixTeams = R"(pools:
  - {name: H100, resources: 32}
  - {name: A100, resources: 16}
  - {name: T4, resources: 16}
profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: H100}]}
  - {name: 4xGPU, allotment: 4, links: [{pool: A100, queue: a100-4}, {pool: H100, queue: h100-4}]}
  - {name: 1xGPU, allotment: 1, links: [{pool: T4, queue: t4-1}, {pool: A100, queue: a100-1}]}
policies:
  - {name: Vision, reserved: 8, limit: 16, profiles: [8xGPU, 4xGPU, 1xGPU]}
  - {name: Speech, reserved: 8, limit: 16, profiles: [8xGPU, 1xGPU]}
  - {name: NLP, reserved: 4, limit: 12, profiles: [4xGPU, 1xGPU]}
  - {name: Robotics, reserved: 4, limit: 12, profiles: [8xGPU, 1xGPU]}
  - {name: Interns, limit: 4, profiles: [1xGPU]}
  - {name: Platform, limit: 24, profiles: [8xGPU, 4xGPU, 1xGPU]}
)";

TEST(KueueStarvation, SixTeamsEveryQueueIsAdmissibleWhereRescfgServesIt) {
  auto config = testing::ValidConfig(kSixTeams);
  ASSERT_TRUE(config.has_value());
  Made m = testing::MakeKueue(*config);
  ASSERT_TRUE(m.errors.empty());
  EXPECT_EQ(StarvedQueues(*config, m), std::vector<Starved>{});
  EXPECT_EQ(StarvedFindings(m.findings), std::vector<Starved>{});
  EXPECT_TRUE(KueueRuleViolations(m.objects).empty());
  // Speech (8 + 1 in T4 and A100 = 10 <= 16): its 1-GPU queue gets one GPU in each pool it links.
  const KueuePolicyQuota& speech = m.quota.policies[1];
  ASSERT_EQ(speech.reach.size(), 3u);  // H100, T4, A100
  EXPECT_TRUE(speech.capped);
  EXPECT_EQ(speech.cap, (std::vector<int64_t>{14, 1, 1}));
  EXPECT_EQ(std::accumulate(speech.cap.begin(), speech.cap.end(), int64_t{0}), 16);
}

TEST(KueueStarvation, ALimitTooLowForEveryPoolIsAnErrorNamingTheQueueAndThePool) {
  auto config = testing::ValidConfig(R"(pools:
  - {name: H100, resources: 32}
  - {name: T4, resources: 8}
  - {name: A100, resources: 8}
profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: H100}]}
  - {name: 1xGPU, allotment: 1, links: [{pool: T4, queue: t4-1}, {pool: A100, queue: a100-1}]}
policies:
  - {name: Tight, limit: 9, profiles: [{profile: 8xGPU, queue: tight-big}, {profile: 1xGPU, queue: tight-small}]}
  - {name: Tighter, limit: 8, profiles: [{profile: 8xGPU, queue: er-big}, {profile: 1xGPU, queue: er-small}]}
)");
  ASSERT_TRUE(config.has_value());
  Made m = testing::MakeKueue(*config);
  ASSERT_TRUE(m.errors.empty());
  // Tight: 8 in H100 and 1 in T4 (each queue's first pool), none left for A100.
  // Tighter: 8 in H100 (first come), nothing for its small queue anywhere.
  const std::vector<Starved> expected{{"tight-small", "A100"}, {"er-small", "T4"}, {"er-small", "A100"}};
  EXPECT_EQ(StarvedQueues(*config, m), expected);
  EXPECT_EQ(StarvedFindings(m.findings), expected);
  EXPECT_EQ(m.quota.policies[0].cap, (std::vector<int64_t>{8, 1, 0}));
  for (const ExportFinding& f : m.findings) {
    if (f.code != "kueue-starved-queue") continue;
    EXPECT_EQ(f.path, f.message.find("'Tight'") != std::string::npos ? "policies[Tight].limit" : "policies[Tighter].limit");
  }
}

TEST(KueueStarvation, ReservationsRestOnlyOnGuaranteedCapacity) {
  auto config = testing::ValidConfig(R"(pools:
  - {name: AWS burst, resources: 24, guaranteed: 0}
  - {name: On prem, resources: 8, guaranteed: 6}
profiles:
  - {name: 1xGPU, allotment: 1, links: [{pool: AWS burst}, {pool: On prem, queue: prem-1}]}
policies:
  - {name: Dev, reserved: 4, profiles: [1xGPU]}
  - {name: Ops, reserved: 2, profiles: [1xGPU]}
)");
  ASSERT_TRUE(config.has_value());
  Made m = testing::MakeKueue(*config);
  ASSERT_TRUE(m.errors.empty());
  // The burst pool is first in link order, but holds no reservation.
  EXPECT_EQ(m.quota.policies[0].reserved, (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(m.quota.policies[1].reserved, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(m.quota.shared, (std::vector<int64_t>{24, 2}));  // every pool's size is still quota
  EXPECT_EQ(StarvedQueues(*config, m), std::vector<Starved>{});
}

TEST(KueueStarvation, AJobOfWholeMachinesNeedsThemInOneFlavor) {
  auto config = testing::ValidConfig(R"(pools:
  - {name: A100, nodes: {count: 4, gpus: 8}}
  - {name: T4, nodes: {count: 4, gpus: 4}}
profiles:
  - {name: 16xGPU, allotment: 16, links: [{pool: A100}]}
  - {name: 6xGPU, allotment: 6, links: [{pool: T4, queue: t4-6}, {pool: A100, queue: a100-6}]}
policies:
  - {name: Big, limit: 24, profiles: [16xGPU, 6xGPU]}
)");
  ASSERT_TRUE(config.has_value());
  Made m = testing::MakeKueue(*config);
  ASSERT_TRUE(m.errors.empty());
  // 6 fits no machine of 4 GPUs and is no whole number of them: rescfg never
  // places it in T4, so T4 needs nothing; A100 needs 16 (two whole machines).
  const KueuePolicyQuota& big = m.quota.policies[0];
  ASSERT_TRUE(big.capped);
  EXPECT_EQ(big.cap, (std::vector<int64_t>{24, 0}));
  EXPECT_EQ(StarvedQueues(*config, m), std::vector<Starved>{});
}

/// A random configuration that validates, with limits that are often
/// below what the policies' profiles reach.
Config GenLimited() {
  std::string yaml = *rc::gen::inRange(0, 4) == 0 ? "kubernetes: {ticksResource: rescfg.io/gpu-ticks}\n" : "";
  const int pools = *rc::gen::inRange(1, 5), profiles = *rc::gen::inRange(1, 5), policies = *rc::gen::inRange(1, 6);
  yaml += "pools:\n";
  for (int p = 0; p < pools; ++p) {
    if (*rc::gen::inRange(0, 3) == 0) {  // machines: a job fits one, or takes whole ones
      yaml += "  - {name: P" + std::to_string(p) + ", nodes: {count: " + std::to_string(*rc::gen::inRange(1, 5)) +
              ", gpus: " + std::to_string(2 << *rc::gen::inRange(0, 3)) + "}}\n";
      continue;
    }
    yaml += "  - {name: P" + std::to_string(p) + ", resources: " + std::to_string(*rc::gen::inRange(1, 33)) + "}\n";
  }
  yaml += "profiles:\n";
  for (int j = 0; j < profiles; ++j) {
    const int kind = *rc::gen::inRange(0, 5);
    yaml += "  - name: r" + std::to_string(j) + "\n    allotment: " +
            (kind == 0 ? std::string("0.5") : std::to_string(1 << *rc::gen::inRange(0, 4))) + "\n";
    if (kind == 1) yaml += "    dynamic: {parameter: runtime.gpus}\n";
    yaml += "    links:\n";
    std::vector<int> order(static_cast<size_t>(pools));
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = order.size(); i > 1; --i) {
      std::swap(order[i - 1], order[static_cast<size_t>(*rc::gen::inRange<int>(0, static_cast<int>(i)))]);
    }
    order.resize(static_cast<size_t>(*rc::gen::inRange(1, pools + 1)));
    for (int p : order) {
      yaml += "      - {pool: P" + std::to_string(p) + ", queue: q" + std::to_string(j) + "-" + std::to_string(p) + "}\n";
    }
  }
  yaml += "policies:\n";
  for (int k = 0; k < policies; ++k) {
    const int reserved = *rc::gen::inRange(0, 5);
    yaml += "  - name: T" + std::to_string(k) + "\n    reserved: " + std::to_string(reserved) + "\n";
    if (*rc::gen::inRange(0, 4) > 0) yaml += "    limit: " + std::to_string(reserved + *rc::gen::inRange(0, 24)) + "\n";
    yaml += "    profiles: [";
    const int first = *rc::gen::inRange(0, profiles), count = *rc::gen::inRange(1, profiles + 1);
    for (int u = 0; u < count; ++u) yaml += (u ? ", r" : "r") + std::to_string((first + u) % profiles);
    yaml += "]\n";
  }
  auto config = testing::ValidConfig(yaml);
  RC_PRE(config.has_value());
  return *config;
}

RC_GTEST_PROP(KueueStarvation, AQueueIsStarvedOnlyWhereAnErrorSaysSoAndOnlyWhenTheLimitIsTooLow, ()) {
  const Config config = GenLimited();
  Made m = testing::MakeKueue(config);
  RC_ASSERT(m.errors.empty());
  for (const std::string& problem : KueueRuleViolations(m.objects)) RC_FAIL(problem);
  const std::vector<Starved> starved = StarvedQueues(config, m);
  RC_ASSERT(StarvedFindings(m.findings) == starved);
  // Starving is needed only when the limit cannot hold, in every pool at
  // once, the reservation there or one job of each queue served there.
  const KueueUnits& units = m.requests.units;
  for (size_t i = 0; i < config.policies.size(); ++i) {
    const Policy& policy = config.policies[i];
    const KueuePolicyQuota& q = m.quota.policies[i];
    std::map<std::string, int64_t> need;
    for (size_t k = 0; k < q.reach.size(); ++k) need[config.pools[q.reach[k]].name] = q.reserved[k];
    for (const PolicyProfile& entry : policy.profiles) {
      const Profile& profile = *config.FindProfile(entry.profile);
      if (policy.limit && profile.allotment > *policy.limit) continue;
      for (const Link& link : profile.links) {
        if (!FitsEmptyPool(*config.FindPool(link.pool), profile.allotment)) continue;
        need[link.pool] = std::max(need[link.pool], QuotaUnits(profile.allotment, units));
      }
    }
    int64_t total = 0;
    for (const auto& [pool, units_needed] : need) total += units_needed;
    const bool any = std::any_of(starved.begin(), starved.end(), [&](const Starved& s) {
      const std::string& queue = s.queue;
      return std::any_of(policy.profiles.begin(), policy.profiles.end(), [&](const PolicyProfile& e) {
        return e.queue.value_or(DefaultPolicyQueue(policy.name, e.profile)) == queue;
      });
    });
    if (!policy.limit || total <= QuotaUnits(*policy.limit, units)) RC_ASSERT(!any);
  }
}

}  // namespace
}  // namespace rescfg
