#include "diff/removed_queues.h"

#include <algorithm>

#include "config/renames.h"
#include "jobs/job_directory.h"
#include "jobs/resolve_clearml.h"

namespace rescfg {
namespace {

template <typename T>
const T* Named(const std::vector<T>& items, const std::string& name) {
  for (const auto& item : items) if (item.name == name) return &item;
  return nullptr;
}

/// The objects of `config` that are new and say nothing of where they come
/// from: what a rename without renamedFrom looks like.
template <typename T>
std::vector<const T*> Unexplained(const std::vector<T>& provisioned, const std::vector<T>& config) {
  std::vector<const T*> out;
  for (const auto& item : config) {
    if (!item.renamed_from && Named(provisioned, item.name) == nullptr) out.push_back(&item);
  }
  return out;
}

/// "if policy 'nlp' is now 'language', give it renamedFrom: nlp".
template <typename T>
std::string RenameHint(const char* kind, const std::string& old, const std::vector<const T*>& fresh, Mark* mark) {
  if (fresh.size() == 1) {
    *mark = fresh[0]->name_mark;
    return std::string("if ") + kind + " '" + old + "' is now '" + fresh[0]->name + "', give it renamedFrom: " + old;
  }
  return std::string("if ") + kind + " '" + old + "' was renamed, give the renamed " + kind + " renamedFrom: " + old;
}

/// The provisioned policy queue an entry names or defaults to ("" none).
std::string QueueOfEntry(const Config& provisioned, const JobDirectory& dir, const JobEntry& e) {
  std::optional<QueueTarget> target = JobDirectory::Find(dir.queues, e.queue);
  if (!target) target = JobDirectory::Find(dir.queues, e.handed_policy_queue);
  if (!target && !e.queue && e.policy && e.profile) {
    auto policy = JobDirectory::Find(dir.policies, e.policy);
    auto profile = JobDirectory::Find(dir.profiles, e.profile);
    if (policy && profile) target = QueueTarget{*policy, *profile};
  }
  if (!target) return "";
  const Policy& policy = provisioned.policies[target->policy];
  for (const auto& entry : policy.profiles) {
    if (entry.profile == provisioned.profiles[target->profile].name) return PolicyQueueOf(policy, entry);
  }
  return "";
}

std::string Count(size_t n, const char* one, const char* many) {
  return std::to_string(n) + (n == 1 ? one : many);
}

}  // namespace

std::vector<RemovedQueue> RemovedPolicyQueues(const Config& provisioned, const Config& config) {
  const JobDirectory now(config);
  std::vector<RemovedQueue> out;
  for (const Policy& policy : provisioned.policies) {
    for (const auto& entry : policy.profiles) {
      if (Named(provisioned.profiles, entry.profile) == nullptr) continue;
      std::string queue = PolicyQueueOf(policy, entry);
      if (now.queues.find(queue) != nullptr) continue;
      out.push_back({std::move(queue), policy.name, entry.profile});
    }
  }
  // The old default queues that a provisioned renamedFrom still serves: a
  // renamedFrom removed while tasks wait there would leave them behind.
  for (const LeftQueue& left : QueuesLeftByRenames(provisioned)) {
    if (now.queues.find(left.old_queue) != nullptr) continue;
    for (const Policy& policy : provisioned.policies) {
      for (const auto& entry : policy.profiles) {
        if (PolicyQueueOf(policy, entry) == left.queue) out.push_back({left.old_queue, policy.name, entry.profile});
      }
    }
  }
  return out;
}

void CountRemovedQueueJobs(const Config& provisioned, const std::vector<JobEntry>& entries,
                           std::vector<RemovedQueue>* removed) {
  if (removed->empty()) return;
  const JobDirectory dir(provisioned);
  QueueMemo queues(dir);
  auto removed_named = [&](const TextRef& name) {
    return name && std::any_of(removed->begin(), removed->end(), [&](const RemovedQueue& r) { return r.queue == *name; });
  };
  for (const JobEntry& e : entries) {
    // An old default queue, as named, before the policy queue it resolves to.
    const std::string queue = removed_named(e.queue)                 ? std::string(*e.queue)
                              : removed_named(e.handed_policy_queue) ? std::string(*e.handed_policy_queue)
                                                                     : QueueOfEntry(provisioned, dir, e);
    if (queue.empty()) continue;
    auto it = std::find_if(removed->begin(), removed->end(), [&](const RemovedQueue& r) { return r.queue == queue; });
    if (it == removed->end()) continue;
    const bool running = (e.state && *e.state == "running") || TaskRunsAlready(queues, e);
    ++(running ? it->running : it->waiting);
  }
}

Finding RemovedQueueFinding(const RemovedQueue& removed, const Config& provisioned, const Config& config,
                            const std::string& jobs_label) {
  Finding f;
  f.code = "removed-policy-queue";
  f.severity = Severity::kWarning;
  f.path = "policies[" + removed.policy + "].profiles[" + removed.profile + "]";
  f.message = "policy queue '" + removed.queue + "' of policy '" + removed.policy + "' (profile '" + removed.profile +
              "') is no longer served: tasks waiting there would wait for ever (unknown-queue), tasks running from "
              "it keep their GPUs but count against no team";
  if (!jobs_label.empty()) {
    f.message += "; in " + jobs_label + ", " + Count(removed.waiting, " task waits", " tasks wait") + " there and " +
                 Count(removed.running, " runs", " run") + " from it";
  }
  if (Named(config.policies, removed.policy) == nullptr) {
    f.hint = RenameHint("policy", removed.policy, Unexplained(provisioned.policies, config.policies), &f.mark);
  } else if (Named(config.profiles, removed.profile) == nullptr) {
    f.hint = RenameHint("profile", removed.profile, Unexplained(provisioned.profiles, config.profiles), &f.mark);
  } else {
    f.hint = "let its tasks drain or move them to the new queue first";
  }
  return f;
}

}  // namespace rescfg
