#include "support/generators.h"

#include <algorithm>

#include "support/scenario_text.h"
#include "util/max_flow.h"

namespace rescfg::testing {

Quantity Q(const char* text) { return *ParseQuantity(text); }

rc::Gen<Quantity> OneOf(std::vector<const char*> texts) {
  return rc::gen::map(rc::gen::elementOf(texts), [](const char* t) { return Q(t); });
}

std::string Describe(const SchedulingResult& r) {
  std::string out = "placements:";
  for (const auto& p : r.placements) out += " " + std::to_string(p.job) + "->" + std::to_string(p.pool);
  out += " pending:";
  for (const auto& p : r.pending) out += " " + std::to_string(p.job) + ":" + PendingReasonName(p.reason);
  return out;
}

namespace {

bool Reaches(const Profile& profile, const Pool& pool) {
  return profile.dynamic_parameter || FitsEmptyPool(pool, profile.allotment);
}

}  // namespace

bool ReservationsHonourable(const Config& c) {
  const int P = static_cast<int>(c.policies.size()), X = static_cast<int>(c.pools.size());
  MaxFlow flow(P + X + 2);
  const int source = 0, sink = P + X + 1;
  Ticks wanted = 0;
  for (int p = 0; p < P; ++p) {
    flow.AddEdge(source, 1 + p, c.policies[p].reserved.ticks());
    wanted += c.policies[p].reserved.ticks();
    for (int x = 0; x < X; ++x) {
      bool reaches = false;
      for (const auto& entry : c.policies[p].profiles) {
        const Profile* profile = c.FindProfile(entry.profile);
        for (const auto& link : profile->links) {
          if (link.pool == c.pools[x].name && Reaches(*profile, c.pools[x])) reaches = true;
        }
      }
      if (reaches) flow.AddEdge(1 + p, 1 + P + x, Ticks(1) << 100);
    }
  }
  for (int x = 0; x < X; ++x) flow.AddEdge(1 + P + x, sink, c.pools[x].resources.ticks());
  return flow.Run(source, sink) == wanted;
}

void showValue(const Scenario& s, std::ostream& os) {
  const Config& c = *s.config;
  os << "enabled: " << c.enabled << "\n";
  for (const auto& pool : c.pools) {
    os << "pool " << pool.name << " size " << pool.resources.ToString() << (pool.paused ? " paused" : "");
    if (pool.nodes) os << " nodes " << pool.nodes->count << "x" << pool.nodes->gpus;
    os << " exec [";
    for (const auto& r : *pool.execution_priority) os << " " << r.name;
    os << " ]\n";
  }
  for (const auto& profile : c.profiles) {
    os << "profile " << profile.name << " allot " << profile.allotment.ToString()
       << (profile.dynamic_parameter ? " dynamic" : "") << (profile.queueing == Queueing::kStrictFIFO ? " strict" : "")
       << " links [";
    for (const auto& l : profile.links) os << " " << l.pool;
    os << " ] policies [";
    for (const auto& r : *profile.policy_priority) os << " " << r.name;
    os << " ]\n";
  }
  for (const auto& policy : c.policies) {
    os << "policy " << policy.name << " reserved " << policy.reserved.ToString() << " limit "
       << (policy.limit ? policy.limit->ToString() : "-") << (policy.paused ? " paused" : "") << " profiles [";
    for (const auto& e : policy.profiles) os << " " << e.profile;
    os << " ]\n";
  }
  for (size_t k = 0; k < s.queued.size(); ++k) {
    const auto& j = s.queued[k];
    os << "queued " << k << ": policy-" << j.policy << " profile-" << j.profile << " need " << j.need.ToString()
       << " order " << j.queue_order << "\n";
  }
  for (const auto& h : s.holdings) {
    os << "holding pool-" << (h.pool ? std::to_string(*h.pool) : "none") << " policy " << (h.policy ? std::to_string(*h.policy) : "-") << " "
       << h.amount.ToString();
    if (h.machine == Holding::kPoolOnly) os << " pool-only";
    else if (h.machine != Holding::kBestFit) os << " machine " << h.machine;
    os << "\n";
  }
}

rc::Gen<Scenario> GenScenario() {
  return rc::gen::exec([] {
    auto config = std::make_shared<Config>();
    Config& c = *config;
    c.enabled = *rc::gen::weightedElement<bool>({{9, true}, {1, false}});
    // Half the scenarios are crowded: small pools, several reserving teams,
    // long StrictFIFO queues of mixed needs, where the reservation rule bites.
    bool crowded = *rc::gen::arbitrary<bool>();
    int pools = *rc::gen::inRange(1, crowded ? 4 : 5), profiles = *rc::gen::inRange(1, 5);
    int policies = *rc::gen::inRange(crowded ? 2 : 1, 5);
    for (int x = 0; x < pools; ++x) {
      Pool pool;
      pool.name = "pool-" + std::to_string(x);
      pool.resources = crowded ? *OneOf({"2", "3", "4", "5/2"}) : *OneOf({"1", "2", "3", "4", "8", "1/2", "3/2", "7/2"});
      pool.paused = *rc::gen::inRange(0, 8) == 0;  // drained
      c.pools.push_back(pool);
    }
    for (int r = 0; r < profiles; ++r) {
      Profile profile;
      profile.name = "profile-" + std::to_string(r);
      profile.allotment = *OneOf({"1/7", "1/2", "1", "1", "2", "3", "4"});
      if (*rc::gen::inRange(0, crowded ? 4 : 2) != 0) profile.dynamic_parameter = "runtime.gpus";
      if (*rc::gen::inRange(0, crowded ? 4 : 2) != 0) profile.queueing = Queueing::kStrictFIFO;
      std::vector<int> order;
      for (int x = 0; x < pools; ++x) order.push_back(x);
      order = Shuffled(order);
      int count = *rc::gen::inRange(1, pools + 1);
      Quantity largest;
      for (int i = 0; i < count; ++i) {
        profile.links.push_back(LinkTo(c.pools[order[i]].name, "link-" + std::to_string(i)));
        // Some links have a queue of their own (rescfg(5), CONFIGURATION); it belongs to that pool.
        if (*rc::gen::inRange(0, 3) == 0) profile.links.back().queue = c.pools[order[i]].name + "/" + profile.name;
        largest = std::max(largest, c.pools[order[i]].resources);
      }
      if (!profile.dynamic_parameter && profile.allotment > largest) profile.allotment = Q("1/7");
      c.profiles.push_back(profile);
    }
    for (int p = 0; p < policies; ++p) {
      Policy policy;
      policy.name = "policy-" + std::to_string(p);
      std::vector<int> order;
      for (int r = 0; r < profiles; ++r) order.push_back(r);
      order = Shuffled(order);
      int count = *rc::gen::inRange(1, profiles + 1);
      Quantity largest_fixed;
      for (int i = 0; i < count; ++i) {
        const Profile& profile = c.profiles[order[i]];
        policy.profiles.push_back({profile.name, std::nullopt, {}, {}, {}});
        if (!profile.dynamic_parameter) largest_fixed = std::max(largest_fixed, profile.allotment);
      }
      policy.reserved = crowded ? *OneOf({"1", "2", "3", "1/2"}) : *OneOf({"0", "1", "2", "3", "4", "8", "1/2", "3/2"});
      if (*rc::gen::inRange(0, 2) == 0) {
        Quantity limit = *OneOf({"1", "2", "4", "8", "7/2"});
        if (limit >= policy.reserved && limit >= largest_fixed) policy.limit = limit;
      }
      policy.paused = *rc::gen::inRange(0, 8) == 0;  // frozen
      c.policies.push_back(policy);
    }
    // Jointly honourable reservations: drop reservations until Hall holds.
    for (size_t p = c.policies.size(); !ReservationsHonourable(c) && p > 0; --p) c.policies[p - 1].reserved = {};
    ApplyDefaults(c);
    for (auto& pool : c.pools) pool.execution_priority = Shuffled(*pool.execution_priority);
    for (auto& profile : c.profiles) profile.policy_priority = Shuffled(*profile.policy_priority);

    Scenario s;
    s.config = config;
    int queued = *rc::gen::inRange(crowded ? 6 : 0, 17);
    std::vector<uint32_t> order;
    for (int k = 0; k < queued; ++k) order.push_back(static_cast<uint32_t>(k));
    bool reordered = *rc::gen::inRange(0, 2) == 0;
    if (reordered) order = Shuffled(order);  // as if `enqueued` reordered them
    for (int k = 0; k < queued; ++k) {
      uint32_t p = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
      const auto& entry = c.policies[p].profiles[*rc::gen::inRange<size_t>(0, c.policies[p].profiles.size())];
      uint32_t r = 0;
      while (c.profiles[r].name != entry.profile) ++r;
      QueuedJob job;
      job.policy = p;
      job.profile = r;
      job.need = c.profiles[r].dynamic_parameter
                     ? (crowded ? *OneOf({"1/2", "1", "1", "2", "3"}) : *OneOf({"1/7", "1/2", "2/3", "1", "2", "3", "5", "9"}))
                                                 : c.profiles[r].allotment;
      job.queue_order = order[k];
      job.position = static_cast<uint32_t>(k);
      s.queued.push_back(job);

      JobEntry e;
      e.entry = static_cast<size_t>(k) + 1;
      e.id = Keep("job-" + std::to_string(k));
      e.policy = Keep(c.policies[p].name);
      e.profile = Keep(c.profiles[r].name);
      if (c.profiles[r].dynamic_parameter) e.params.push_back({"runtime.gpus", Keep(job.need.ToString())});
      if (reordered) {
        std::string second = std::to_string(order[k]);
        e.enqueued = Keep("2026-11-29T10:00:" + std::string(2 - second.size(), '0') + second + "Z");
      }
      s.entries.push_back(e);
    }
    int running = *rc::gen::inRange(0, 4);
    for (int k = 0; k < running; ++k) {
      Holding h;
      h.pool = static_cast<uint32_t>(*rc::gen::inRange(0, pools));
      if (*rc::gen::inRange(0, 4) != 0) h.policy = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
      h.amount = *OneOf({"1/7", "1/2", "1", "2", "3"});
      s.holdings.push_back(h);

      JobEntry e;
      e.entry = s.entries.size() + 1;
      e.id = Keep("running-" + std::to_string(k));
      e.state = "running";
      e.pool = Keep(c.pools[*h.pool].name);
      e.policy = Keep(h.policy ? c.policies[*h.policy].name : "gone");
      e.profile = Keep(c.profiles[0].name);
      e.resources = Keep(h.amount.ToString());
      s.entries.push_back(e);
    }
    // Running tasks whose pool cannot be told (a ClearML task no worker
    // claims): they hold in no pool and count against their policy.
    int poolless = *rc::gen::inRange(0, 3);
    for (int k = 0; k < poolless; ++k) {
      const uint32_t p = static_cast<uint32_t>(*rc::gen::inRange(0, policies));
      const PolicyProfile& entry = c.policies[p].profiles[*rc::gen::inRange<size_t>(0, c.policies[p].profiles.size())];
      const Profile& profile = *c.FindProfile(entry.profile);
      Holding h;
      h.pool = std::nullopt;
      h.policy = p;
      h.amount = profile.dynamic_parameter ? *OneOf({"1/2", "1", "2"}) : profile.allotment;
      s.holdings.push_back(h);

      JobEntry e;
      e.entry = s.entries.size() + 1;
      e.id = Keep("poolless-" + std::to_string(k));
      e.state = "running";
      e.clearml_task = true;
      e.queue = Keep(*entry.queue);
      if (profile.dynamic_parameter) e.params.push_back({"runtime.gpus", Keep(h.amount.ToString())});
      s.entries.push_back(e);
    }
    // A few entries that must be rejected, never lost.
    int bad = *rc::gen::inRange(0, 3);
    for (int k = 0; k < bad; ++k) {
      JobEntry e;
      e.entry = s.entries.size() + 1;
      switch (*rc::gen::inRange(0, 4)) {
        case 0:  // a duplicate id (or, in an empty file, no id at all)
          if (!s.entries.empty()) e.id = s.entries[0].id;
          e.policy = Keep(c.policies[0].name);
          e.profile = Keep(c.policies[0].profiles[0].profile);
          break;
        case 1: e.id = "orphan"; e.policy = "nobody"; e.profile = Keep(c.profiles[0].name); break;
        case 2: e.policy = Keep(c.policies[0].name); break;
        default: e.invalid = "not a JSON object"; break;
      }
      s.entries.push_back(e);
    }
    return s;
  });
}

}  // namespace rescfg::testing
