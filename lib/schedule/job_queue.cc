#include "schedule/job_queue.h"

#include <algorithm>
#include <map>
#include <thread>
#include <unordered_map>

#include "util/joined_thread.h"

namespace rescfg {

JobQueue::JobQueue(uint32_t policy, uint32_t profile, bool strict_fifo, std::vector<uint32_t> jobs,
                   const std::vector<QueuedJob>& queued)
    : policy_(policy), profile_(profile), strict_(strict_fifo) {
  if (strict_) {
    jobs_ = std::move(jobs);
    BuildTree(queued);
    return;
  }
  std::map<Quantity, std::vector<uint32_t>> by_need;
  for (uint32_t job : jobs) by_need[queued[job].need].push_back(job);
  for (auto& [need, list] : by_need) {
    by_need_.push_back(static_cast<uint32_t>(groups_.size()));
    groups_.push_back({need, std::move(list), 0});
  }
}

void JobQueue::BuildTree(const std::vector<QueuedJob>& queued, size_t leaves) {
  prefix_.assign(jobs_.size() + 1, 0);
  for (size_t i = 0; i < jobs_.size(); ++i) prefix_[i + 1] = prefix_[i] + queued[jobs_[i]].need.ticks();
  leaves_ = leaves;
  while (leaves_ < jobs_.size()) leaves_ *= 2;
  tree_max_.assign(2 * leaves_, 0);
  tree_min_.assign(2 * leaves_, Ticks(1) << 120);
  for (size_t i = 0; i < jobs_.size(); ++i) {
    tree_max_[leaves_ + i] = tree_min_[leaves_ + i] = queued[jobs_[i]].need.ticks();
  }
  for (size_t i = leaves_ - 1; i >= 1; --i) {
    tree_max_[i] = std::max(tree_max_[2 * i], tree_max_[2 * i + 1]);
    tree_min_[i] = std::min(tree_min_[2 * i], tree_min_[2 * i + 1]);
  }
}

std::optional<uint32_t> JobQueue::SlotJob(size_t slot) const {
  if (strict_) {
    if (head_ < jobs_.size()) return jobs_[head_];
    return std::nullopt;
  }
  const NeedGroup& g = groups_[slot];
  if (g.next < g.jobs.size()) return g.jobs[g.next];
  return std::nullopt;
}

void JobQueue::Advance(size_t slot) {
  if (strict_) {
    ++head_;
  } else {
    ++groups_[slot].next;
  }
}

JobQueue::Appended JobQueue::Append(uint32_t job, const std::vector<QueuedJob>& queued) {
  const Quantity need = queued[job].need;
  if (strict_) {
    Appended out{0, false, head_ == jobs_.size()};
    jobs_.push_back(job);
    if (jobs_.size() > leaves_) {
      BuildTree(queued, 2 * leaves_);  // doubling: amortised O(1) per job
      return out;
    }
    prefix_.push_back(prefix_.back() + need.ticks());
    size_t node = leaves_ + jobs_.size() - 1;
    tree_max_[node] = tree_min_[node] = need.ticks();
    for (node /= 2; node >= 1; node /= 2) {
      tree_max_[node] = std::max(tree_max_[2 * node], tree_max_[2 * node + 1]);
      tree_min_[node] = std::min(tree_min_[2 * node], tree_min_[2 * node + 1]);
    }
    return out;
  }
  auto at = std::lower_bound(by_need_.begin(), by_need_.end(), need,
                             [&](uint32_t g, Quantity n) { return groups_[g].need < n; });
  if (at != by_need_.end() && groups_[*at].need == need) {
    NeedGroup& g = groups_[*at];
    Appended out{*at, false, g.next == g.jobs.size()};
    g.jobs.push_back(job);
    return out;
  }
  const uint32_t slot = static_cast<uint32_t>(groups_.size());
  by_need_.insert(at, slot);
  groups_.push_back({need, {job}, 0});
  return {slot, true, true};
}

JobQueue::Appended JobQueue::Requeue(uint32_t job, const std::vector<QueuedJob>& queued) {
  const auto earlier = [&](uint32_t a, uint32_t b) { return queued[a].queue_order < queued[b].queue_order; };
  if (strict_) {
    // The undecided jobs are a suffix: keep only them, the job among them (O(undecided)).
    std::vector<uint32_t> jobs(jobs_.begin() + static_cast<long>(head_), jobs_.end());
    jobs.insert(std::upper_bound(jobs.begin(), jobs.end(), job, earlier), job);
    jobs_ = std::move(jobs);
    head_ = 0;
    BuildTree(queued);
    return {0, false, true};
  }
  const Quantity need = queued[job].need;
  auto at = std::lower_bound(by_need_.begin(), by_need_.end(), need,
                             [&](uint32_t g, Quantity n) { return groups_[g].need < n; });
  if (at == by_need_.end() || groups_[*at].need != need) return Append(job, queued);
  NeedGroup& g = groups_[*at];
  auto place = std::upper_bound(g.jobs.begin() + static_cast<long>(g.next), g.jobs.end(), job, earlier);
  const bool first = place == g.jobs.begin() + static_cast<long>(g.next);
  g.jobs.insert(place, job);
  return {*at, false, first};
}

size_t JobQueue::FirstAbove(size_t from, Quantity room) const {
  // Walk up from the leaf, then down into the first subtree holding a need
  // above the room: O(log n).
  if (from >= jobs_.size()) return jobs_.size();
  size_t node = leaves_ + from;
  if (tree_max_[node] > room.ticks()) return from;
  for (;;) {
    // Move to the next subtree to the right that starts after `node`.
    while (node % 2 == 1) node /= 2;  // climb while we are a right child
    if (node <= 1) return jobs_.size();
    ++node;                            // the right sibling
    if (tree_max_[node] > room.ticks()) break;
  }
  while (node < leaves_) node = tree_max_[2 * node] > room.ticks() ? 2 * node : 2 * node + 1;
  return std::min(node - leaves_, jobs_.size());
}

Quantity JobQueue::MinNeed(size_t from, size_t to) const {
  Ticks best = Ticks(1) << 120;
  for (size_t l = from + leaves_, r = to + leaves_; l < r; l /= 2, r /= 2) {
    if (l & 1) best = std::min(best, tree_min_[l++]);
    if (r & 1) best = std::min(best, tree_min_[--r]);
  }
  return Quantity::FromTicks(best);
}

ProtectedSummary JobQueue::Protected(Quantity room, const std::vector<QueuedJob>& queued) const {
  (void)queued;
  ProtectedSummary summary;
  if (room.is_zero()) return summary;
  if (strict_) {
    size_t end = FirstAbove(head_, room);
    if (end == head_) return summary;
    summary.smallest = MinNeed(head_, end);
    Ticks total = prefix_[end] - prefix_[head_];
    summary.total_capped = Quantity::FromTicks(std::min(total, room.ticks()));
    return summary;
  }
  Ticks total = 0;
  for (uint32_t index : by_need_) {
    const NeedGroup& g = groups_[index];
    if (g.need > room) break;
    size_t remaining = g.jobs.size() - g.next;
    if (remaining == 0) continue;
    if (!summary.smallest) summary.smallest = g.need;
    total += g.need.ticks() * static_cast<Ticks>(remaining);
    if (total >= room.ticks()) break;
  }
  summary.total_capped = Quantity::FromTicks(std::min(total, room.ticks()));
  return summary;
}

std::optional<Quantity> JobQueue::SmallestProtected(Quantity room, const std::vector<QueuedJob>& queued,
                                                    const std::function<bool(Quantity)>& fits) const {
  std::optional<Quantity> smallest;
  if (room.is_zero()) return smallest;
  if (strict_) {
    const size_t end = FirstAbove(head_, room);
    for (size_t i = head_; i < end; ++i) {
      const Quantity need = queued[jobs_[i]].need;
      if ((!smallest || need < *smallest) && fits(need)) smallest = need;
    }
    return smallest;
  }
  for (uint32_t index : by_need_) {
    const NeedGroup& g = groups_[index];
    if (g.need > room) break;
    if (g.next < g.jobs.size() && fits(g.need)) return g.need;
  }
  return smallest;
}

std::vector<uint32_t> JobQueue::Undecided() const {
  if (strict_) return {jobs_.begin() + static_cast<long>(head_), jobs_.end()};
  std::vector<uint32_t> out;
  for (uint32_t index : by_need_) {
    const NeedGroup& g = groups_[index];
    out.insert(out.end(), g.jobs.begin() + static_cast<long>(g.next), g.jobs.end());
  }
  return out;
}

std::vector<uint32_t> QueueOrder(const std::vector<QueuedJob>& queued) {
  const uint32_t n = static_cast<uint32_t>(queued.size());
  std::vector<uint32_t> order(n, UINT32_MAX);
  bool rank = true;
  for (uint32_t i = 0; i < n && rank; ++i) {
    uint32_t r = queued[i].queue_order;
    rank = r < n && order[r] == UINT32_MAX;
    if (rank) order[r] = i;
  }
  if (rank) return order;
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return queued[a].queue_order < queued[b].queue_order; });
  return order;
}

namespace {

/// Queued jobs from which the queues are made on two threads.
constexpr size_t kParallelQueueJobs = size_t(1) << 16;

/// Splits the jobs visited by `visit` (each once, any order; `visit(f)`
/// calls f(job)) into queues, each filled in the order of `in_order`.
template <typename Visit>
std::vector<JobQueue> Split(const std::vector<QueuedJob>& queued, Visit visit, const std::vector<uint32_t>& in_order,
                            const std::vector<bool>& strict_fifo,
                            const std::function<bool(const QueuedJob&)>& schedulable,
                            std::vector<uint32_t>* unschedulable) {
  // Which queue each job joins, in visiting order; then each queue's list
  // in queue order, reserved to its size.
  // Queues by (policy, profile): a flat table when the pairs are few
  // enough (a configuration's policies times its profiles), else a map.
  uint64_t policies = 0, profiles = 0;
  visit([&](uint32_t job) {
    policies = std::max<uint64_t>(policies, queued[job].policy + uint64_t(1));
    profiles = std::max<uint64_t>(profiles, queued[job].profile + uint64_t(1));
  });
  constexpr uint64_t kFlatPairs = uint64_t(1) << 22;
  std::vector<uint32_t> flat(policies * profiles <= kFlatPairs ? policies * profiles : 0, UINT32_MAX);
  std::unordered_map<uint64_t, uint32_t> index;
  std::vector<std::pair<uint32_t, uint32_t>> keys;
  std::vector<uint32_t> queue_of(queued.size(), UINT32_MAX), sizes;
  visit([&](uint32_t job) {
    const QueuedJob& j = queued[job];
    if (!schedulable(j)) return;
    uint32_t* slot;
    if (!flat.empty()) {
      slot = &flat[j.policy * profiles + j.profile];
    } else {
      slot = &index.emplace((uint64_t(j.policy) << 32) | j.profile, UINT32_MAX).first->second;
    }
    if (*slot == UINT32_MAX) {
      *slot = static_cast<uint32_t>(keys.size());
      keys.push_back({j.policy, j.profile});
      sizes.push_back(0);
    }
    queue_of[job] = *slot;
    ++sizes[*slot];
  });
  std::vector<std::vector<uint32_t>> jobs(keys.size());
  for (size_t q = 0; q < jobs.size(); ++q) jobs[q].reserve(sizes[q]);
  for (uint32_t job : in_order) {
    if (queue_of[job] == UINT32_MAX) {
      unschedulable->push_back(job);
    } else {
      jobs[queue_of[job]].push_back(job);
    }
  }
  std::vector<uint32_t> by_key(keys.size());
  for (uint32_t q = 0; q < by_key.size(); ++q) by_key[q] = q;
  std::sort(by_key.begin(), by_key.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  // Each queue is made on its own (its need groups or its trees): with many
  // jobs, the queues holding the second half of them on a thread of their own.
  auto make = [&](size_t from, size_t to, std::vector<JobQueue>* out) {
    out->reserve(out->size() + (to - from));
    for (size_t i = from; i < to; ++i) {
      const uint32_t q = by_key[i];
      out->emplace_back(keys[q].first, keys[q].second, strict_fifo[keys[q].second], std::move(jobs[q]), queued);
    }
  };
  size_t total = 0, split = 0;
  for (uint32_t size : sizes) total += size;
  for (size_t half = 0; split < by_key.size() && half < total / 2; ++split) half += sizes[by_key[split]];
  std::vector<JobQueue> queues;
  if (total < kParallelQueueJobs || split == by_key.size() || std::thread::hardware_concurrency() < 2) {
    make(0, by_key.size(), &queues);
    return queues;
  }
  std::vector<JobQueue> second;
  JoinedThread worker([&] { make(split, by_key.size(), &second); });
  queues.reserve(by_key.size());
  make(0, split, &queues);
  worker.Join();
  for (JobQueue& queue : second) queues.push_back(std::move(queue));
  return queues;
}

}  // namespace

std::vector<JobQueue> SplitIntoQueues(const std::vector<QueuedJob>& queued, const std::vector<bool>& strict_fifo,
                                      const std::function<bool(const QueuedJob&)>& schedulable,
                                      std::vector<uint32_t>* unschedulable) {
  // Visited in file order: reads `queued` in sequence.
  auto visit = [&](auto f) {
    for (uint32_t job = 0; job < queued.size(); ++job) f(job);
  };
  return Split(queued, visit, QueueOrder(queued), strict_fifo, schedulable, unschedulable);
}

std::vector<JobQueue> SplitIntoQueues(const std::vector<QueuedJob>& queued, const std::vector<uint32_t>& jobs,
                                      const std::vector<bool>& strict_fifo,
                                      const std::function<bool(const QueuedJob&)>& schedulable,
                                      std::vector<uint32_t>* unschedulable) {
  auto visit = [&](auto f) {
    for (uint32_t job : jobs) f(job);
  };
  return Split(queued, visit, jobs, strict_fifo, schedulable, unschedulable);
}

}  // namespace rescfg
