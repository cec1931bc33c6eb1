#include "support/borrowers.h"

#include <algorithm>

#include "support/shaped_scenarios.h"

namespace rescfg::testing {
namespace {

Shape BorrowersShape() {
  Shape shape;
  shape.pools_min = 1;
  shape.pools_max = 3;
  shape.policies_min = 2;
  shape.policies_max = 4;
  shape.jobs_min = 0;
  shape.jobs_max = 6;
  shape.holdings_max = 0;
  shape.borrower_in_4 = 2;
  shape.strict_in_4 = 2;
  shape.nodes_in_4 = 2;
  shape.pool_sizes = {"2", "3", "4", "8"};
  shape.reserved = {"1", "2", "3", "4"};
  shape.limits = {"4", "8", "16"};
  return shape;
}

/// The profiles of policy p linked to pool x (indexes).
std::vector<uint32_t> ProfilesIn(const Config& c, uint32_t p, uint32_t x) {
  std::vector<uint32_t> out;
  for (const auto& entry : c.policies[p].profiles) {
    for (uint32_t r = 0; r < c.profiles.size(); ++r) {
      if (c.profiles[r].name != entry.profile) continue;
      for (const Link& link : c.profiles[r].links) {
        if (link.pool == c.pools[x].name) out.push_back(r);
      }
    }
  }
  return out;
}

}  // namespace

rc::Gen<Scenario> GenBorrowers() {
  return rc::gen::exec([] {
    Scenario s = *GenShaped(BorrowersShape());
    auto config = std::make_shared<Config>(*s.config);
    Config& c = *config;
    const auto policies = static_cast<uint32_t>(c.policies.size());
    // The borrower: the team most of the running work is of.
    const uint32_t borrower = *rc::gen::inRange<uint32_t>(0, policies);
    for (uint32_t x = 0; x < c.pools.size(); ++x) {
      Quantity held;
      const Quantity size = c.pools[x].resources;
      // Most pools are full or nearly so.
      const Quantity target = *rc::gen::inRange(0, 4) == 0 ? size - std::min(size, Q("1")) : size;
      while (held < target) {
        Holding h;
        h.pool = x;
        h.policy = *rc::gen::inRange(0, 3) != 0 ? borrower : *rc::gen::inRange<uint32_t>(0, policies);
        const std::vector<uint32_t> profiles = ProfilesIn(c, *h.policy, x);
        Quantity amount = *OneOf({"1/2", "1", "1", "2"});
        if (!profiles.empty() && *rc::gen::arbitrary<bool>()) {
          const Profile& profile = c.profiles[profiles[*rc::gen::inRange<size_t>(0, profiles.size())]];
          if (!profile.dynamic_parameter) amount = profile.allotment;
        }
        h.amount = std::min(amount, target - held);
        held += h.amount;
        s.holdings.push_back(h);
      }
    }
    // Teams with a reservation queue jobs that fit inside it.
    for (uint32_t p = 0; p < policies; ++p) {
      if (c.policies[p].reserved.is_zero() || *rc::gen::inRange(0, 4) == 0) continue;
      const int jobs = *rc::gen::inRange(1, 4);
      for (int k = 0; k < jobs; ++k) {
        const auto& entry = c.policies[p].profiles[*rc::gen::inRange<size_t>(0, c.policies[p].profiles.size())];
        uint32_t r = 0;
        while (c.profiles[r].name != entry.profile) ++r;
        QueuedJob job;
        job.policy = p;
        job.profile = r;
        job.need = c.profiles[r].dynamic_parameter ? std::min(c.policies[p].reserved, *OneOf({"1/2", "1", "2"}))
                                                   : c.profiles[r].allotment;
        job.position = static_cast<uint32_t>(s.queued.size());
        job.queue_order = job.position;
        s.queued.push_back(job);
      }
    }
    for (Pool& pool : c.pools) pool.paused = *rc::gen::inRange(0, 10) == 0;
    for (Policy& policy : c.policies) policy.paused = *rc::gen::inRange(0, 10) == 0;
    s.config = config;
    return s;
  });
}

}  // namespace rescfg::testing
