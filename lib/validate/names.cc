/// Names that must be unique: pools, profiles, policies, link names within a
/// profile, the pools a profile links, the profiles a policy lists, and the
/// policy queues users enqueue to.

#include <map>

#include "validate/checks.h"

namespace rescfg {
namespace {

std::string OnLine(Mark mark) {
  return mark.line > 0 ? " on line " + std::to_string(mark.line) : "";
}

template <typename T>
void CheckUniqueNames(CheckContext& context, const std::vector<T>& items, const char* what,
                      std::string (*path)(const T&)) {
  for (const auto& item : items) {
    const T* first = context.First(item);
    if (first == &item) continue;
    context.Error("duplicate-name", item.name_mark, path(item) + ".name",
                  std::string(what) + " name '" + item.name + "' is already used by the " + what +
                      OnLine(first->name_mark),
                  std::string(what) + " names must be unique");
  }
}

void CheckLinks(CheckContext& context, const Profile& profile) {
  std::map<std::string_view, const Link*> pools, names;
  for (size_t i = 0; i < profile.links.size(); ++i) {
    const Link& link = profile.links[i];
    std::string path = Indexed(ProfilePath(profile), "links", i);
    if (auto [it, fresh] = pools.emplace(link.pool, &link); !fresh) {
      context.Error("duplicate-link", link.pool_mark, path + ".pool",
                    "profile '" + profile.name + "' links pool '" + link.pool + "' twice (first" +
                        OnLine(it->second->pool_mark) + ")",
                    "link each pool once; the order of links is the pool precedence");
    }
    if (link.name.empty()) continue;
    if (auto [it, fresh] = names.emplace(link.name, &link); !fresh) {
      context.Error("duplicate-name", link.name_mark, path + ".name",
                    "link name '" + link.name + "' is already used in profile '" + profile.name +
                        "'" + OnLine(it->second->name_mark),
                    "link names must be unique within a profile");
    }
  }
}

/// Every policy queue is unique: a job may name its queue instead of its
/// policy and profile, so two entries with one queue would be ambiguous.
void CheckQueues(CheckContext& context) {
  struct Owner {
    const Policy* policy;
    const PolicyProfile* entry;
  };
  std::map<std::string, Owner> queues;
  for (const auto& policy : context.config().policies) {
    // A second policy of the same name would repeat every default queue;
    // its duplicate-name error says enough.
    if (context.First(policy) != &policy) continue;
    std::map<std::string_view, const PolicyProfile*> listed;
    for (size_t i = 0; i < policy.profiles.size(); ++i) {
      const PolicyProfile& entry = policy.profiles[i];
      std::string path = Indexed(PolicyPath(policy), "profiles", i);
      if (auto [it, fresh] = listed.emplace(entry.profile, &entry); !fresh) {
        context.Error("duplicate-policy-profile", entry.profile_mark, path,
                      "policy '" + policy.name + "' lists profile '" + entry.profile +
                          "' twice (first" + OnLine(it->second->profile_mark) + ")",
                      "list each profile once");
        continue;  // its queue would be reported as well; once is enough
      }
      std::string queue = PolicyQueueOf(policy, entry);
      auto [it, fresh] = queues.emplace(queue, Owner{&policy, &entry});
      if (fresh) continue;
      const Owner& owner = it->second;
      Mark mark = entry.queue ? entry.queue_mark : entry.mark;
      context.Error("duplicate-queue", mark, entry.queue ? path + ".queue" : path,
                    "queue '" + queue + "' is already the queue of policy '" + owner.policy->name +
                        "' for profile '" + owner.entry->profile + "'" + OnLine(owner.entry->mark),
                    entry.queue ? "give this entry a queue of its own"
                                : "the default queue is \"<policy>/<profile>\"; set queue: to "
                                  "one of its own");
    }
  }
}

}  // namespace

void CheckUniqueness(CheckContext& context) {
  const Config& config = context.config();
  CheckUniqueNames<Pool>(context, config.pools, "pool", PoolPath);
  CheckUniqueNames<Profile>(context, config.profiles, "profile", ProfilePath);
  CheckUniqueNames<Policy>(context, config.policies, "policy", PolicyPath);
  for (const auto& profile : config.profiles) CheckLinks(context, profile);
  CheckQueues(context);
}

}  // namespace rescfg
