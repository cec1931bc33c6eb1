#include "support/shaped_scenarios.h"

#include <algorithm>

namespace rescfg::testing {

/// Drawn at full size: rapidcheck scales inRange by the size, which would
/// make early cases all-borrower single-pool ones (the small shapes are the
/// general generator's job).
rc::Gen<Scenario> GenShaped(Shape shape) {
  return rc::gen::resize(100, rc::gen::exec([shape] {
    auto config = std::make_shared<Config>();
    Config& c = *config;
    c.enabled = true;
    int pools = *rc::gen::inRange(shape.pools_min, shape.pools_max + 1);
    int profiles = *rc::gen::inRange(1, shape.profiles_max + 1);
    int policies = *rc::gen::inRange(shape.policies_min, shape.policies_max + 1);
    for (int x = 0; x < pools; ++x) {
      Pool pool;
      pool.name = "pool-" + std::to_string(x);
      pool.resources = *OneOf(shape.pool_sizes);
      if (*rc::gen::inRange(0, 4) < shape.nodes_in_4) {
        PoolNodes nodes;
        nodes.count = *rc::gen::inRange(1, shape.machines_max + 1);
        nodes.gpus = *rc::gen::elementOf(shape.machine_gpus);
        pool.nodes = nodes;
        pool.resources = Quantity::Units(nodes.count * nodes.gpus);
      }
      c.pools.push_back(pool);
    }
    for (int r = 0; r < profiles; ++r) {
      Profile profile;
      profile.name = "profile-" + std::to_string(r);
      profile.allotment = *OneOf(shape.allotments);
      if (*rc::gen::inRange(0, 4) < shape.dynamic_in_4) profile.dynamic_parameter = "runtime.gpus";
      if (*rc::gen::inRange(0, 4) < shape.strict_in_4) profile.queueing = Queueing::kStrictFIFO;
      std::vector<int> order;
      for (int x = 0; x < pools; ++x) order.push_back(x);
      order = Shuffled(order);
      int count = *rc::gen::inRange(1, pools + 1);
      Quantity largest;
      for (int i = 0; i < count; ++i) {
        profile.links.push_back(LinkTo(c.pools[order[i]].name, "link-" + std::to_string(i)));
        largest = std::max(largest, c.pools[order[i]].resources);
      }
      if (!profile.dynamic_parameter && profile.allotment > largest) profile.allotment = largest;
      if (!profile.dynamic_parameter) {
        // A fixed allotment that fits no linked pool's machines is invalid.
        bool fits = false;
        for (const Link& link : profile.links) fits = fits || FitsEmptyPool(*c.FindPool(link.pool), profile.allotment);
        if (!fits) profile.allotment = Q("1/2");
      }
      c.profiles.push_back(profile);
    }
    for (int p = 0; p < policies; ++p) {
      Policy policy;
      policy.name = "policy-" + std::to_string(p);
      std::vector<int> order;
      for (int r = 0; r < profiles; ++r) order.push_back(r);
      order = Shuffled(order);
      int count = *rc::gen::inRange(1, profiles + 1);
      for (int i = 0; i < count; ++i) policy.profiles.push_back({c.profiles[order[i]].name, std::nullopt, {}, {}, {}});
      if (*rc::gen::inRange(0, 4) >= shape.borrower_in_4) policy.reserved = *OneOf(shape.reserved);
      if (*rc::gen::inRange(0, 4) < shape.limit_in_4) {
        Quantity limit = *OneOf(shape.limits);
        if (shape.limit_below_reserved || limit >= policy.reserved) policy.limit = limit;
      }
      c.policies.push_back(policy);
    }
    if (shape.honourable) {
      for (size_t p = c.policies.size(); !testing::ReservationsHonourable(c) && p > 0; --p) c.policies[p - 1].reserved = {};
    }
    ApplyDefaults(c);
    for (auto& pool : c.pools) pool.execution_priority = Shuffled(*pool.execution_priority);
    for (auto& profile : c.profiles) profile.policy_priority = Shuffled(*profile.policy_priority);
    if (*rc::gen::arbitrary<bool>()) {
      // Policies that reserve nothing first: they place while the reserving
      // ones still wait, so rule 3 has outstanding reservations to protect.
      for (auto& profile : c.profiles) {
        std::stable_partition(profile.policy_priority->begin(), profile.policy_priority->end(), [&](const NameRef& r) {
          return c.FindPolicy(r.name)->reserved.is_zero();
        });
      }
    }

    Scenario s;
    s.config = config;
    int queued = *rc::gen::inRange(shape.jobs_min, shape.jobs_max + 1);
    std::vector<uint32_t> order;
    for (int k = 0; k < queued; ++k) order.push_back(static_cast<uint32_t>(k));
    if (*rc::gen::arbitrary<bool>()) order = Shuffled(order);
    for (int k = 0; k < queued; ++k) {
      uint32_t p = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
      const auto& entry = c.policies[p].profiles[*rc::gen::inRange<size_t>(0, c.policies[p].profiles.size())];
      uint32_t r = 0;
      while (c.profiles[r].name != entry.profile) ++r;
      QueuedJob job;
      job.policy = p;
      job.profile = r;
      job.need = c.profiles[r].dynamic_parameter ? *OneOf(shape.needs) : c.profiles[r].allotment;
      job.queue_order = order[k];
      job.position = static_cast<uint32_t>(k);
      s.queued.push_back(job);
    }
    int running = *rc::gen::inRange(0, shape.holdings_max + 1);
    for (int k = 0; k < running; ++k) {
      Holding h;
      h.pool = static_cast<uint32_t>(*rc::gen::inRange(0, pools));
      if (*rc::gen::inRange(0, 4) != 0) h.policy = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
      h.amount = *OneOf(shape.held);
      if (shape.holdings_overfill && *rc::gen::inRange(0, 3) == 0) h.amount = c.pools[h.pool].resources + h.amount;
      if (const auto& nodes = c.pools[h.pool].nodes; nodes && *rc::gen::arbitrary<bool>()) {
        h.machine = static_cast<uint32_t>(*rc::gen::inRange<int64_t>(0, nodes->count + 1));
      }
      s.holdings.push_back(h);
    }
    if (shape.exact_fit && !s.queued.empty()) {
      // Leave some pool with exactly some queued job's need free.
      const QueuedJob& j = s.queued[*rc::gen::inRange<size_t>(0, s.queued.size())];
      const Profile& profile = c.profiles[j.profile];
      const std::string& name = profile.links[*rc::gen::inRange<size_t>(0, profile.links.size())].pool;
      uint32_t x = 0;
      while (c.pools[x].name != name) ++x;
      Quantity held;
      for (const Holding& h : s.holdings) {
        if (h.pool == x) held += h.amount;
      }
      Quantity free = Quantity::SaturatingSub(c.pools[x].resources, held);
      if (free > j.need) {
        Holding h;
        h.pool = x;
        if (*rc::gen::arbitrary<bool>()) h.policy = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
        h.amount = free - j.need;
        s.holdings.push_back(h);
      }
    }
    return s;
  }));
}

Shape MachinesShape() {
  Shape shape;
  shape.pools_min = 1;
  shape.pools_max = 3;
  shape.policies_min = 1;
  shape.policies_max = 4;
  shape.jobs_min = 4;
  shape.jobs_max = 20;
  shape.dynamic_in_4 = 3;
  shape.strict_in_4 = 1;
  shape.borrower_in_4 = 2;
  shape.nodes_in_4 = 3;
  shape.pool_sizes = {"2", "4", "8", "5/2"};
  shape.allotments = {"1/2", "1", "2", "4"};
  shape.needs = {"1/4", "1/2", "1", "1", "3/2", "2", "3", "4", "8"};
  shape.reserved = {"1/2", "1", "2", "4"};
  shape.limits = {"2", "4", "8"};
  shape.held = {"1/2", "1", "2", "3", "4"};
  return shape;
}

}  // namespace rescfg::testing
