/// rescfg(5), CONFIGURATION: a pool or link queue belongs to one pool and is never a policy
/// queue. Validation refuses exactly the configurations where queues are
/// shared, checked on configurations whose queue names are drawn from a
/// handful so that collisions are common.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>

#include "config/model.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

std::string Draw(const std::vector<std::string>& names) { return *rc::gen::elementOf(names); }

RC_GTEST_PROP(QueueOwnership, ValidationRefusesExactlySharedQueues, ()) {
  const std::vector<std::string> queues = {"a", "b", "c", "t/p0", "t/p1"};
  Config c;
  int pools = *rc::gen::inRange(1, 4), profiles = *rc::gen::inRange(1, 3);
  for (int x = 0; x < pools; ++x) {
    Pool pool;
    pool.name = "pool" + std::to_string(x);
    pool.resources = Quantity::Units(8);
    if (*rc::gen::arbitrary<bool>()) pool.queue = Draw(queues);
    c.pools.push_back(pool);
  }
  for (int r = 0; r < profiles; ++r) {
    Profile profile;
    profile.name = "p" + std::to_string(r);
    profile.allotment = Quantity::Units(1);
    for (int x = 0; x < pools; ++x) {
      if (x > 0 && !*rc::gen::arbitrary<bool>()) continue;
      Link link = LinkTo(c.pools[x].name);
      if (*rc::gen::arbitrary<bool>()) link.queue = Draw(queues);
      profile.links.push_back(link);
    }
    c.profiles.push_back(profile);
  }
  Policy team;
  team.name = "t";
  for (int r = 0; r < profiles; ++r) {
    PolicyProfile entry;
    entry.profile = "p" + std::to_string(r);
    if (*rc::gen::arbitrary<bool>()) entry.queue = "q" + std::to_string(r);  // else the default "t/pR"
    team.profiles.push_back(entry);
  }
  c.policies.push_back(team);

  std::vector<Finding> findings;
  ValidateConfig(c, "test.yaml", &findings);
  bool refused = false;
  for (const auto& f : findings) refused |= f.code == "shared-queue" || f.code == "policy-queue-clash";

  // The rule from its words, on the effective values.
  Config effective = c;
  ApplyDefaults(effective);
  std::set<std::string> policy_queues;
  for (const auto& entry : effective.policies[0].profiles) policy_queues.insert(*entry.queue);
  std::map<std::string, std::string> owner;
  bool shared = false;
  auto own = [&](const std::string& queue, const std::string& pool) {
    if (policy_queues.count(queue)) shared = true;
    auto [it, fresh] = owner.emplace(queue, pool);
    if (!fresh && it->second != pool) shared = true;
  };
  for (const auto& pool : effective.pools) own(pool.queue, pool.name);
  for (const auto& profile : effective.profiles) {
    for (const auto& link : profile.links) own(link.queue, link.pool);
  }
  RC_ASSERT(refused == shared);
}

}  // namespace
}  // namespace rescfg
