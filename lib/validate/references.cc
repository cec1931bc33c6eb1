/// Names that must refer to something: link pools, policies' profiles, and
/// the priority lists, which must name exactly the linked / using set.

#include <algorithm>
#include <map>
#include <set>

#include "validate/checks.h"

namespace rescfg {
namespace {

/// One priority list and what it must contain.
struct PriorityList {
  const std::vector<NameRef>& entries;
  Mark mark;
  std::string path;                        ///< e.g. pools[H100].executionPriority
  const char* item;                        ///< "profile" | "policy"
  const char* items;                       ///< "profiles" | "policies"
  const std::vector<std::string>& expected;  ///< the linked / using set, in file order
  std::string relation;                    ///< "linked to pool 'H100'"
};

void CheckPriority(CheckContext& context, const PriorityList& list, bool (*exists)(const CheckContext&, std::string_view),
                   const std::vector<std::string>& candidates, const std::set<std::string, std::less<>>& excused) {
  std::set<std::string_view> expected(list.expected.begin(), list.expected.end());
  std::set<std::string_view> seen;
  size_t unknown = 0;
  for (size_t i = 0; i < list.entries.size(); ++i) {
    const NameRef& ref = list.entries[i];
    std::string path = list.path + "[" + std::to_string(i) + "]";
    if (!exists(context, ref.name)) {
      ++unknown;
      context.Error("unknown-reference", ref.mark, path,
                    "there is no " + std::string(list.item) + " named '" + ref.name + "'",
                    context.DidYouMean(ref.name, candidates));
    } else if (!seen.insert(ref.name).second) {
      context.Error("priority-mismatch", ref.mark, path,
                    std::string(list.item) + " '" + ref.name + "' is listed twice",
                    "list each " + std::string(list.item) + " once");
    } else if (expected.count(ref.name) == 0 && excused.count(ref.name) == 0) {
      context.Error("priority-mismatch", ref.mark, path,
                    std::string(list.item) + " '" + ref.name + "' is not " + list.relation,
                    "list exactly the " + std::string(list.items) + " " + list.relation);
    }
  }
  std::vector<std::string> missing;
  for (const auto& name : list.expected) {
    if (seen.count(name) == 0) missing.push_back("'" + name + "'");
  }
  // Names that do not exist are probably the missing ones misspelt; the
  // unknown-reference findings already say so.
  if (missing.size() > unknown) {
    context.Error("priority-mismatch", list.mark, list.path,
                  "leaves out " + std::string(missing.size() > 1 ? list.items : list.item) + " " +
                      JoinNames(missing) + ", " + list.relation,
                  "list every " + std::string(list.item) + " " + list.relation +
                      " once, or leave the list out to use file order");
  }
}

bool ProfileExists(const CheckContext& context, std::string_view name) {
  return context.FindProfile(name) != nullptr;
}
bool PolicyExists(const CheckContext& context, std::string_view name) {
  return context.FindPolicy(name) != nullptr;
}

}  // namespace

void CheckReferences(CheckContext& context) {
  const Config& config = context.config();
  // Linked profiles per pool and using policies per profile, in file order.
  std::map<std::string, std::vector<std::string>, std::less<>> linked, using_policies;
  // Entries whose own finding (an unknown reference, no links) explains why
  // a priority list names them: one mistake, one finding.
  std::set<std::string, std::less<>> excused_profiles, excused_policies;
  std::set<std::string, std::less<>> duplicated_pool_hints;  // "did you mean 'a100'?" for a name used twice
  for (const auto& pool : config.pools) {
    if (context.First(pool) != &pool) duplicated_pool_hints.insert("did you mean '" + pool.name + "'?");
  }
  for (const auto& profile : config.profiles) {
    bool first = context.First(profile) == &profile;
    for (size_t i = 0; i < profile.links.size(); ++i) {
      const Link& link = profile.links[i];
      if (context.FindPool(link.pool) == nullptr) {
        excused_profiles.insert(profile.name);
        std::string hint = context.DidYouMean(link.pool, context.pool_names());
        // After a pool name used twice, a name near no other or near that
        // one: the second pool was meant to have it, as its duplicate-name
        // error says.
        if (!duplicated_pool_hints.empty() && (hint.empty() || duplicated_pool_hints.count(hint) > 0)) continue;
        context.Error("unknown-reference", link.pool_mark, Indexed(ProfilePath(profile), "links", i) + ".pool",
                      "there is no pool named '" + link.pool + "'", std::move(hint));
        continue;
      }
      if (!first) continue;
      auto& list = linked[link.pool];
      if (list.empty() || list.back() != profile.name) list.push_back(profile.name);
    }
    if (profile.links.empty()) excused_profiles.insert(profile.name);
    if (profile.links.empty() && !context.Reported(ProfilePath(profile) + ".links")) {
      context.Error("unlinked-profile", profile.links_mark.line ? profile.links_mark : profile.name_mark,
                    ProfilePath(profile) + ".links",
                    "profile '" + profile.name + "' is linked to no pool: its jobs could never run",
                    "add links: [{pool: NAME}]");
    }
  }
  for (const auto& policy : config.policies) {
    bool first = context.First(policy) == &policy;
    for (size_t i = 0; i < policy.profiles.size(); ++i) {
      const PolicyProfile& entry = policy.profiles[i];
      if (context.FindProfile(entry.profile) == nullptr) {
        excused_policies.insert(policy.name);
        context.Error("unknown-reference", entry.profile_mark,
                      Indexed(PolicyPath(policy), "profiles", i),
                      "there is no profile named '" + entry.profile + "'",
                      context.DidYouMean(entry.profile, context.profile_names()));
        continue;
      }
      if (!first) continue;
      auto& list = using_policies[entry.profile];
      if (list.empty() || list.back() != policy.name) list.push_back(policy.name);
    }
  }
  const std::vector<std::string> none;
  for (const auto& pool : config.pools) {
    if (!pool.execution_priority || context.First(pool) != &pool) continue;
    auto it = linked.find(pool.name);
    CheckPriority(context,
                  {*pool.execution_priority, pool.execution_priority_mark,
                   PoolPath(pool) + ".executionPriority", "profile", "profiles",
                   it == linked.end() ? none : it->second, "linked to pool '" + pool.name + "'"},
                  ProfileExists, context.profile_names(), excused_profiles);
  }
  for (const auto& profile : config.profiles) {
    if (!profile.policy_priority || context.First(profile) != &profile) continue;
    auto it = using_policies.find(profile.name);
    CheckPriority(context,
                  {*profile.policy_priority, profile.policy_priority_mark,
                   ProfilePath(profile) + ".policyPriority", "policy", "policies",
                   it == using_policies.end() ? none : it->second,
                   "using profile '" + profile.name + "'"},
                  PolicyExists, context.policy_names(), excused_policies);
  }
}

}  // namespace rescfg
