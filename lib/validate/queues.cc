/// The queues agents serve (rescfg(5), CONFIGURATION): a pool's queue and its links' queues
/// belong to that pool alone and are never a policy queue, or agents of two
/// pools would pull the same tasks, or a pool's agents would take users'
/// tasks before rescfg decides. And a queue whose tasks need different
/// amounts cannot be served by agents that size every task the same.

#include <map>
#include <set>

#include "validate/checks.h"

namespace rescfg {
namespace {

std::string OnLine(Mark mark) { return mark.line > 0 ? " (line " + std::to_string(mark.line) + ")" : ""; }

/// Where a pool-side queue is written: a pool's `queue` or a link's.
struct QueueUse {
  const Pool* pool;
  const Profile* profile = nullptr;  ///< null for the pool's own queue
  const Link* link = nullptr;
  Mark mark;
  std::string path;
};

}  // namespace

void CheckPoolQueues(CheckContext& context) {
  const Config& config = context.config();
  std::map<std::string, std::string, std::less<>> policy_queues;  // queue -> "policy 'P' (profile 'R')"
  for (const auto& policy : config.policies) {
    if (context.First(policy) != &policy) continue;
    for (const auto& entry : policy.profiles) {
      std::string queue = PolicyQueueOf(policy, entry);
      policy_queues.emplace(queue, "the queue of policy '" + policy.name + "' for profile '" + entry.profile + "'");
    }
  }
  std::map<std::string, QueueUse, std::less<>> owner;  // pool-side queue -> its first use
  auto use = [&](const std::string& queue, const QueueUse& u) {
    if (auto it = policy_queues.find(queue); it != policy_queues.end()) {
      context.Error("policy-queue-clash", u.mark, u.path,
                    "queue '" + queue + "' of pool '" + u.pool->name + "' is also " + it->second +
                        ": the pool's agents would take users' tasks before rescfg decides",
                    "give the pool (or link) a queue of its own");
      return;
    }
    auto [it, fresh] = owner.emplace(queue, u);
    if (fresh || it->second.pool == u.pool) return;
    context.Error("shared-queue", u.mark, u.path,
                  "queue '" + queue + "' serves pool '" + u.pool->name + "' and already pool '" +
                      it->second.pool->name + "'" + OnLine(it->second.mark) +
                      ": agents of both pools would pull the same tasks",
                  "a pool or link queue belongs to one pool; rename one of them");
  };
  for (const auto& pool : config.pools) {
    if (context.First(pool) != &pool) continue;
    const std::string queue = pool.queue.empty() ? pool.name : pool.queue;
    Mark mark = pool.queue.empty() ? pool.name_mark : pool.queue_mark;
    use(queue, {&pool, nullptr, nullptr, mark, PoolPath(pool) + (pool.queue.empty() ? ".name" : ".queue")});
  }
  for (const auto& profile : config.profiles) {
    if (context.First(profile) != &profile) continue;
    for (size_t i = 0; i < profile.links.size(); ++i) {
      const Link& link = profile.links[i];
      const Pool* pool = context.FindPool(link.pool);
      if (pool == nullptr || link.queue.empty()) continue;  // unknown pools are reported elsewhere
      use(link.queue, {pool, &profile, &link, link.queue_mark, Indexed(ProfilePath(profile), "links", i) + ".queue"});
    }
  }
}

void CheckQueueSizing(CheckContext& context) {
  const Config& config = context.config();
  std::set<std::string_view> used;
  for (const auto& policy : config.policies) {
    for (const auto& entry : policy.profiles) used.insert(entry.profile);
  }
  // Per pool-side queue, in order of first use: the profiles sending jobs there.
  struct Receiver {
    const Pool* pool;
    Mark mark;
    std::string path;
    std::vector<const Profile*> profiles;
  };
  std::map<std::string, size_t, std::less<>> index;
  std::vector<std::pair<std::string, Receiver>> queues;
  for (const auto& profile : config.profiles) {
    if (context.First(profile) != &profile || used.count(profile.name) == 0) continue;
    for (size_t i = 0; i < profile.links.size(); ++i) {
      const Link& link = profile.links[i];
      const Pool* pool = context.FindPool(link.pool);
      if (pool == nullptr) continue;
      const bool own = !link.queue.empty();
      const std::string queue = own ? link.queue : pool->queue.empty() ? pool->name : pool->queue;
      auto [it, fresh] = index.emplace(queue, queues.size());
      if (fresh) {
        Mark mark = own ? link.queue_mark : pool->queue.empty() ? pool->name_mark : pool->queue_mark;
        std::string path = own ? Indexed(ProfilePath(profile), "links", i) + ".queue" : PoolPath(*pool) + ".queue";
        queues.push_back({queue, {pool, mark, path, {}}});
      }
      queues[it->second].second.profiles.push_back(&profile);
    }
  }
  for (const auto& [queue, receiver] : queues) {
    const auto& profiles = receiver.profiles;
    if (profiles.size() < 2) continue;
    bool dynamic = false, differ = false;
    for (const Profile* p : profiles) {
      dynamic |= p->dynamic_parameter.has_value();
      differ |= p->allotment != profiles.front()->allotment;
    }
    if (!dynamic && !differ) continue;
    std::vector<std::string> names;
    for (const Profile* p : profiles) {
      names.push_back("'" + p->name + "' (" + (p->dynamic_parameter ? "dynamic" : p->allotment.ToString()) + ")");
    }
    context.Warning("mixed-queue", receiver.mark, receiver.path,
                    "queue '" + queue + "' of pool '" + receiver.pool->name + "' receives jobs of profiles " +
                        JoinNames(names) + ": no agent can give every task of it the right GPUs",
                    "give each link its own queue: links: [{pool: " + receiver.pool->name + ", queue: NAME}]");
  }
}

}  // namespace rescfg
