/// Properties of renames (rescfg(5), RENAMES), on the scheduling scenarios
/// of support/generators.h:
/// - renaming any set of pools, profiles and policies with renamedFrom and
///   reading the same jobs (written with the old names) decides the same as
///   before, modulo names;
/// - removing a policy never frees what a running job of it holds in a pool
///   that can be told (the job's own `pool`).
/// RC_PARAMS sets the number of cases (scripts/deep-check: 10 000 nightly).

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "config/renames.h"
#include "decide/report.h"
#include "support/generators.h"

namespace rescfg {
namespace {

using Names = std::map<std::string, std::string, std::less<>>;

/// Old name -> new name for a subset of `items` drawn by rapidcheck.
template <typename T>
Names DrawRenames(const std::vector<T>& items, const char* suffix) {
  Names out;
  for (const auto& item : items) {
    if (*rc::gen::arbitrary<bool>()) out.emplace(item.name, item.name + suffix);
  }
  return out;
}

template <typename T>
void MarkRenamed(const Names& renames, std::vector<T>* items) {
  for (auto& item : *items) {
    for (const auto& [old, now] : renames) if (now == item.name) item.renamed_from = old;
  }
}

/// `config` with the renames done and written as a person would: each
/// renamed object carries renamedFrom, references follow, a policy queue
/// that was the default follows the new names, every other queue keeps its
/// value.
Config Renamed(const Config& config, const RenameMap& renames) {
  Config marked = config;
  Config out = FollowRenames(config, renames, marked);
  MarkRenamed(renames.pools, &out.pools);
  MarkRenamed(renames.profiles, &out.profiles);
  MarkRenamed(renames.policies, &out.policies);
  for (size_t i = 0; i < out.policies.size(); ++i) {
    for (size_t k = 0; k < out.policies[i].profiles.size(); ++k) {
      const PolicyProfile& was = config.policies[i].profiles[k];
      PolicyProfile& entry = out.policies[i].profiles[k];
      if (!was.queue || *was.queue == DefaultPolicyQueue(config.policies[i].name, was.profile)) {
        entry.queue = DefaultPolicyQueue(out.policies[i].name, entry.profile);
      }
    }
  }
  return out;
}

std::string Old(const Names& renames, const std::string& name) {
  for (const auto& [old, now] : renames) if (now == name) return old;
  return name;
}

RC_GTEST_PROP(RenameProperties, RenamingKeepsEveryDecisionModuloNames, ()) {
  {
    const testing::Scenario s = *testing::GenScenario();
    const Config& config = *s.config;
    RenameMap renames{DrawRenames(config.pools, "-r"), DrawRenames(config.profiles, "-r"),
                      DrawRenames(config.policies, "-r")};
    RC_PRE(!renames.empty());
    for (const auto& [old, now] : renames.pools) RC_PRE(config.FindPool(now) == nullptr);
    for (const auto& [old, now] : renames.profiles) RC_PRE(config.FindProfile(now) == nullptr);
    for (const auto& [old, now] : renames.policies) RC_PRE(config.FindPolicy(now) == nullptr);
    Config renamed = Renamed(config, renames);
    ApplyDefaults(renamed);

    const ScheduleReport before = BuildSchedule(config, s.entries);
    const ScheduleReport after = BuildSchedule(renamed, s.entries);
    RC_ASSERT(before.jobs.size() == after.jobs.size());
    for (size_t i = 0; i < before.jobs.size(); ++i) {
      const JobOutcome& b = before.jobs[i];
      const JobOutcome& a = after.jobs[i];
      RC_LOG() << "entry " << b.entry << " " << b.id.value_or("") << ": " << JobStatusName(b.status) << " "
               << b.reason.value_or("") << " -> " << JobStatusName(a.status) << " " << a.reason.value_or("") << " "
               << MessageOf(a) << "\n";
      RC_ASSERT(a.status == b.status);
      if (b.status == JobStatus::kRejected) {
        RC_ASSERT(a.reason.value_or("") == b.reason.value_or(""));
        continue;
      }
      RC_ASSERT(a.reason.value_or("") == b.reason.value_or(""));
      RC_ASSERT(Old(renames.policies, a.policy.value_or("")) == b.policy.value_or(""));
      RC_ASSERT(Old(renames.profiles, a.profile.value_or("")) == b.profile.value_or(""));
      RC_ASSERT(Old(renames.pools, a.pool.value_or("")) == b.pool.value_or(""));
      RC_ASSERT(a.queue.value_or("") == b.queue.value_or(""));
      RC_ASSERT(a.resources == b.resources);
    }
    RC_ASSERT(before.assignments == after.assignments);
    RC_ASSERT(before.pending == after.pending);
    for (size_t p = 0; p < before.pools.size(); ++p) RC_ASSERT(before.pools[p].in_use == after.pools[p].in_use);
    for (size_t p = 0; p < before.policies.size(); ++p) {
      RC_ASSERT(before.policies[p].used == after.policies[p].used);
      RC_ASSERT(before.policies[p].running == after.policies[p].running);
    }
  }
}

/// What the running jobs hold in each pool.
std::map<std::string, Quantity> RunningByPool(const ScheduleReport& r) {
  std::map<std::string, Quantity> out;
  for (uint32_t i : r.running) out[std::string(r.jobs[i].pool.value_or(""))] += r.jobs[i].resources.value_or(Quantity());
  return out;
}

RC_GTEST_PROP(RenameProperties, RemovingAPolicyFreesNothingItsRunningJobsHoldInAToldPool, ()) {
  {
    const testing::Scenario s = *testing::GenScenario();
    const Config& config = *s.config;
    RC_PRE(!config.policies.empty());
    const size_t gone = *rc::gen::inRange<size_t>(0, config.policies.size());
    const std::string name = config.policies[gone].name;
    Config without = config;
    without.policies.erase(without.policies.begin() + static_cast<long>(gone));
    for (Profile& profile : without.profiles) {
      if (!profile.policy_priority) continue;
      auto& refs = *profile.policy_priority;
      refs.erase(std::remove_if(refs.begin(), refs.end(), [&](const NameRef& r) { return r.name == name; }), refs.end());
    }

    const ScheduleReport before = BuildSchedule(config, s.entries);
    const ScheduleReport after = BuildSchedule(without, s.entries);
    for (uint32_t i : before.running) {
      const JobOutcome& b = before.jobs[i];
      const JobOutcome& a = after.jobs[i];
      auto e = std::find_if(s.entries.begin(), s.entries.end(), [&](const JobEntry& x) { return x.entry == b.entry; });
      if (e == s.entries.end() || !e->pool) continue;  // its pool cannot be told without its policy's links
      RC_LOG() << "running " << b.id.value_or("") << " of " << b.policy.value_or("") << " in " << b.pool.value_or("")
               << " -> " << JobStatusName(a.status) << " " << MessageOf(a) << "\n";
      RC_ASSERT(a.status == JobStatus::kRunning);
      RC_ASSERT(a.pool.value_or("") == b.pool.value_or(""));
      RC_ASSERT(a.resources == b.resources);
    }
    const auto held_before = RunningByPool(before);
    const auto held_after = RunningByPool(after);
    for (const auto& [pool, held] : held_before) {
      if (pool.empty()) continue;
      auto it = held_after.find(pool);
      RC_ASSERT(it != held_after.end());
      RC_ASSERT(!(it->second < held));
    }
  }
}

}  // namespace
}  // namespace rescfg
