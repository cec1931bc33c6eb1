#pragma once
/// rapidcheck generators of configurations for the canonical-form and diff
/// properties: unique names, references that exist, awkward text.

#include <rapidcheck.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/model.h"
#include "util/quantity.h"

namespace rescfg::testing {

/// Text drawn from characters that stress quoting: YAML indicators,
/// quotes, backslashes, non-ASCII and (for free text) control characters.
inline rc::Gen<std::string> GenText(bool control) {
  std::vector<std::string> pieces = {"a", "Z", "0", "7", " ", "-", ":", "#", "'", "\"", "\\", "[", "]",
                                     "{", "}", ",", "&", "*", "!", "|", ">", "%", "@", "`", "?", "/",
                                     "\xC3\xA9", "\xE2\x86\x92", "\xF0\x9F\x92\xA1", "yes", "null",
                                     "~", "1/7", "0.5", "true"};
  if (control) {
    // Line breaks and tabs: the only control characters free text may hold
    // (rescfg(5), CONFIGURATION); U+2028 and U+FEFF are not controls, but YAML readers
    // would not keep them as written.
    for (const char* p : {"\n", "\t", "\r", "\xE2\x80\xA8", "\xEF\xBB\xBF"}) {
      pieces.push_back(p);
    }
  }
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(pieces)),
                      [](const std::vector<std::string>& parts) {
                        std::string s;
                        for (const auto& p : parts) s += p;
                        return s;
                      });
}

/// A non-empty name, made unique among `taken` by a suffix.
inline std::string GenName(std::vector<std::string>* taken) {
  std::string name = *GenText(false);
  if (name.empty()) name = "n";
  std::string unique = name;
  for (int i = 2; std::find(taken->begin(), taken->end(), unique) != taken->end(); ++i) {
    unique = name + "-" + std::to_string(i);
  }
  taken->push_back(unique);
  return unique;
}

inline Quantity GenAmount(bool positive) {
  int kind = *rc::gen::inRange(0, 3);
  int64_t lo = positive ? 1 : 0;
  switch (kind) {
    case 0: return Quantity::Units(*rc::gen::inRange<int64_t>(lo, 2000));
    case 1: return Quantity::FromTicks(Ticks(*rc::gen::inRange<int64_t>(lo, 5'000'000'000)) *
                                       (Quantity::kTicksPerUnit / 1'000'000));
    default: {
      int64_t den = *rc::gen::inRange<int64_t>(1, 17);
      int64_t num = *rc::gen::inRange<int64_t>(lo, 200);
      return Quantity::FromTicks(Ticks(num) * (Quantity::kTicksPerUnit / den));
    }
  }
}

template <typename T>
std::vector<T> Shuffled(std::vector<T> items) {
  for (size_t i = items.size(); i > 1; --i) {
    size_t j = static_cast<size_t>(*rc::gen::inRange<int>(0, static_cast<int>(i)));
    std::swap(items[i - 1], items[j]);
  }
  return items;
}

/// A configuration as a loader would return it (before defaults): optional
/// fields sometimes given, sometimes not.
inline Config GenConfigRaw() {
  Config c;
  c.enabled = *rc::gen::arbitrary<bool>();
  std::vector<std::string> pool_names, profile_names, policy_names, queues;
  int pools = *rc::gen::inRange(0, 4), profiles = *rc::gen::inRange(0, 4), policies = *rc::gen::inRange(0, 4);
  for (int i = 0; i < pools; ++i) {
    Pool p;
    p.name = GenName(&pool_names);
    p.resources = GenAmount(true);
    if (*rc::gen::arbitrary<bool>()) p.queue = GenName(&queues);
    if (*rc::gen::arbitrary<bool>()) p.description = *GenText(true);
    p.paused = *rc::gen::inRange(0, 4) == 0;
    if (*rc::gen::inRange(0, 4) == 0) {
      p.gpu_fractions.mig = true;
      for (const char* f : {"1/7", "3/7", "1/2"}) {  // ascending, as the loader keeps them
        if (*rc::gen::arbitrary<bool>()) p.gpu_fractions.resources.push_back({*ParseQuantity(f), std::string("nvidia.com/mig-") + f[0] + "g.10gb", {}});
      }
      if (p.gpu_fractions.resources.empty()) p.gpu_fractions.resources.push_back({*ParseQuantity("1/2"), "nvidia.com/mig-3g.40gb", {}});
    }
    c.pools.push_back(p);
  }
  for (int i = 0; i < profiles; ++i) {
    Profile p;
    p.name = GenName(&profile_names);
    p.allotment = GenAmount(true);
    if (*rc::gen::arbitrary<bool>()) p.dynamic_parameter = "runtime." + GenName(&queues);
    p.queueing = *rc::gen::arbitrary<bool>() ? Queueing::kStrictFIFO : Queueing::kBestEffortFIFO;
    std::vector<std::string> link_names;
    for (const auto& pool : Shuffled(pool_names)) {
      if (!*rc::gen::arbitrary<bool>()) continue;
      Link l;
      l.pool = pool;
      if (*rc::gen::arbitrary<bool>()) l.name = GenName(&link_names);
      if (*rc::gen::inRange(0, 3) == 0) l.queue = GenName(&queues);
      p.links.push_back(l);
    }
    if (*rc::gen::arbitrary<bool>()) p.description = *GenText(true);
    c.profiles.push_back(p);
  }
  for (int i = 0; i < policies; ++i) {
    Policy p;
    p.name = GenName(&policy_names);
    p.reserved = *rc::gen::arbitrary<bool>() ? GenAmount(false) : Quantity();
    if (*rc::gen::arbitrary<bool>()) p.limit = GenAmount(false);
    for (const auto& profile : Shuffled(profile_names)) {
      if (!*rc::gen::arbitrary<bool>()) continue;
      PolicyProfile pp;
      pp.profile = profile;
      if (*rc::gen::arbitrary<bool>()) pp.queue = GenName(&queues);
      p.profiles.push_back(pp);
    }
    if (*rc::gen::arbitrary<bool>()) p.description = *GenText(true);
    p.paused = *rc::gen::inRange(0, 4) == 0;
    c.policies.push_back(p);
  }
  // Kubernetes settings (rescfg export kueue), sometimes.
  if (*rc::gen::arbitrary<bool>()) c.kubernetes.ns = *rc::gen::element<std::string>("default", "ml", "team-x");
  if (*rc::gen::arbitrary<bool>()) c.kubernetes.cohort = *rc::gen::element<std::string>("rescfg", "gpus");
  if (*rc::gen::arbitrary<bool>()) c.kubernetes.pool_label = *rc::gen::element<std::string>("rescfg.io/pool", "x.io/p");
  if (*rc::gen::arbitrary<bool>()) c.kubernetes.ticks_resource = "rescfg.io/gpu-ticks";
  for (Pool& pool : c.pools) {
    if (*rc::gen::arbitrary<bool>()) {
      std::vector<KubernetesLabel> labels;
      if (*rc::gen::arbitrary<bool>()) labels.push_back({"a.io/zone", *rc::gen::element<std::string>("", "b", "1"), {}});
      if (*rc::gen::arbitrary<bool>()) labels.push_back({"rescfg.io/pool", "p", {}});
      pool.kubernetes.node_labels = labels;
    }
    if (*rc::gen::arbitrary<bool>()) pool.kubernetes.node_taints.push_back({"dedicated", "x", "NoSchedule", {}});
    if (*rc::gen::arbitrary<bool>()) pool.kubernetes.tolerations.push_back({"dedicated", "Equal", "x", "", {}, {}});
    if (*rc::gen::arbitrary<bool>()) pool.kubernetes.tolerations.push_back({"", "Exists", "", "NoExecute", 30, {}});
  }
  for (Policy& policy : c.policies) {
    if (*rc::gen::arbitrary<bool>()) policy.kubernetes.ns = *rc::gen::element<std::string>("default", "ml", "team-y");
  }
  // Preemption (rescfg(5) PREEMPTION), sometimes: durations from 0 to 3650d, some with fractions of a second.
  for (Policy& policy : c.policies) policy.preemptible = *rc::gen::inRange(0, 4) != 0;
  if (*rc::gen::arbitrary<bool>()) {
    PreemptionSettings p;
    auto duration = [] {
      return *rc::gen::oneOf(rc::gen::element<int64_t>(0, 1, 1'500'000, 90'000'000, 5'400'000'000),
                             rc::gen::inRange<int64_t>(0, int64_t{3650} * 86'400'000'000));
    };
    if (*rc::gen::arbitrary<bool>()) p.min_runtime_us = duration();
    if (*rc::gen::arbitrary<bool>()) p.delay_us = duration();
    if (*rc::gen::arbitrary<bool>()) p.stop_timeout_us = std::max<int64_t>(1, duration());
    c.preemption = p;
  }
  // Explicit priorities: the defaults' sets in another order.
  Config defaults = c;
  ApplyDefaults(defaults);
  for (size_t i = 0; i < c.pools.size(); ++i) {
    if (*rc::gen::arbitrary<bool>()) c.pools[i].execution_priority = Shuffled(*defaults.pools[i].execution_priority);
  }
  for (size_t i = 0; i < c.profiles.size(); ++i) {
    if (*rc::gen::arbitrary<bool>()) c.profiles[i].policy_priority = Shuffled(*defaults.profiles[i].policy_priority);
  }
  return c;
}

inline rc::Gen<Config> GenConfig() {
  return rc::gen::exec([] {
    Config c = GenConfigRaw();
    ApplyDefaults(c);
    return c;
  });
}

}  // namespace rescfg::testing
