#include "jobs/resolve_clearml.h"

#include "config/human_amount.h"

#include <algorithm>
#include <vector>

#include "jobs/need.h"

namespace rescfg {

namespace {

std::string Str(TextRef t) { return std::string(*t); }

/// 'A', 'B' and 'C'.
std::string Names(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "'" : i + 1 == names.size() ? "' and '" : "', '") + names[i];
  }
  return text + "'";
}

/// The pool one worker tells (rescfg(5), JOBS FILE, ClearML task snapshots): that of the queue it took the
/// task from, else the one pool of the queues it serves; else none, and
/// `*why` says so.
std::optional<uint32_t> PoolOfWorker(const Config& config, const JobDirectory& dir, const TaskWorker& w,
                                     std::string* why) {
  const std::string who = "its worker '" + Str(w.id) + "'";
  if (w.queue) {
    if (const uint32_t* pool = dir.pool_queues.find(*w.queue)) return *pool;
  }
  std::vector<uint32_t> pools;
  for (TextRef q : w.queues) {
    const uint32_t* pool = dir.pool_queues.find(*q);
    if (pool != nullptr && std::find(pools.begin(), pools.end(), *pool) == pools.end()) pools.push_back(*pool);
  }
  if (pools.size() == 1) return pools[0];
  const std::string took = w.queue ? "took it from '" + Str(w.queue) + "', no pool or link queue,"
                                   : "does not say which queue it took it from";
  if (pools.empty()) {
    *why = "cannot tell which pool runs it: " + who + " " + took +
           " and serves no pool or link queue; a worker queue of the configuration would tell";
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (uint32_t x : pools) names.push_back(config.pools[x].name);
  *why = "cannot tell which pool runs it: " + who + " " + took + " and serves queues of pools " + Names(names) +
         "; the queue it took the task from would tell";
  return std::nullopt;
}

/// The pool the workers that run the task tell. Several workers may claim
/// it (snapshots of a moment when a task moved): their pool is taken only
/// when all of them tell the same one, so that the answer does not depend
/// on the order of the workers file.
std::optional<uint32_t> PoolOfWorkers(const Config& config, const JobDirectory& dir, const JobEntry& e,
                                      std::string* why) {
  const TaskWorker* w = e.worker;
  if (w == nullptr) {
    *why = "cannot tell which pool runs it: its queue '" + Str(e.queue) +
           "' is no pool or link queue, and no worker in the workers snapshot (--clearml-workers) runs it; "
           "the worker whose task.id is this task would tell";
    return std::nullopt;
  }
  if (w->also == nullptr) return PoolOfWorker(config, dir, *w, why);
  std::vector<std::string> ids;
  std::vector<uint32_t> pools;
  bool untold = false;
  for (const TaskWorker* claim = w; claim != nullptr; claim = claim->also) {
    ids.push_back(Str(claim->id));
    std::string ignored;
    if (auto pool = PoolOfWorker(config, dir, *claim, &ignored)) {
      if (std::find(pools.begin(), pools.end(), *pool) == pools.end()) pools.push_back(*pool);
    } else {
      untold = true;
    }
  }
  if (pools.size() == 1 && !untold) return pools[0];
  std::sort(ids.begin(), ids.end());
  std::vector<std::string> names;
  for (uint32_t x : pools) names.push_back(config.pools[x].name);
  std::sort(names.begin(), names.end());
  *why = "cannot tell which pool runs it: workers " + Names(ids) + " all claim it" +
         (names.empty() ? std::string() : ", in pools " + Names(names)) +
         (untold ? std::string(names.empty() ? "," : " and") + " some in no pool of the configuration" : "") +
         "; a workers snapshot where one worker runs it would tell";
  return std::nullopt;
}

/// The profile and holding that a pool or link queue tells: those of the
/// profiles whose links use it, when they agree on the need.
void ServedProfile(const Config& config, const JobDirectory& dir, const JobEntry& e, const std::string& queue,
                   uint32_t pool, TaskPlacement* p) {
  const std::vector<uint32_t>& served = dir.ProfilesServedBy(queue);
  if (served.empty()) {
    p->invalid = "cannot tell what it holds: queue '" + queue + "' of pool '" + config.pools[pool].name +
                 "' is used by no profile's link";
    return;
  }
  if (served.size() == 1) p->profile = served[0];
  NeedSource source;
  std::string fallback, names;
  bool differ = false;
  for (uint32_t r : served) {
    const Quantity need = NeedOf(config.profiles[r], e, &source, &fallback);
    names += (names.empty() ? "'" : ", '") + config.profiles[r].name + "' (" + HumanAmount(need) + ")";
    if (!p->holding) {
      p->holding = need;
    } else if (*p->holding != need) {
      differ = true;
    }
  }
  if (differ) {
    p->invalid = "cannot tell what it holds: queue '" + queue + "' serves profiles of different needs: " + names;
    p->holding.reset();
    p->profile.reset();
  } else if (served.size() > 1) {
    p->note = "queue '" + queue + "' serves profiles " + names + "; counted as " + HumanAmount(*p->holding);
  }
}

/// The pool or link queue whose profile tells what a task holds when its
/// policy queue is gone: the one its worker took it from, else the one of
/// that pool it serves, else the pool's own queue.
std::string QueueOfOrphan(const Config& config, const JobDirectory& dir, const JobEntry& e, uint32_t pool) {
  auto of_pool = [&](TextRef q) {
    const uint32_t* owner = q ? dir.pool_queues.find(*q) : nullptr;
    return owner != nullptr && *owner == pool;
  };
  if (e.worker != nullptr && e.worker->also == nullptr) {
    if (of_pool(e.worker->queue)) return Str(e.worker->queue);
    std::vector<std::string> served;
    for (TextRef q : e.worker->queues) {
      if (of_pool(q) && std::find(served.begin(), served.end(), Str(q)) == served.end()) served.push_back(Str(q));
    }
    if (served.size() == 1) return served[0];
  }
  return config.pools[pool].queue;
}

void AddNote(TaskPlacement* p, const std::string& note) {
  if (!note.empty()) p->note += (p->note.empty() ? "" : "; ") + note;
}

const char* kIdNote = " (an execution.queue ID that no queue of --clearml-queues lists is taken as a name)";

}  // namespace

bool TaskRunsAlready(QueueMemo& queues, const JobEntry& e) {
  if (!e.clearml_task || (e.state && *e.state != "queued")) return false;
  // Popped by an agent and not yet started: listed in no queue, handed over
  // by the sync, or with a pool or link queue as its execution.queue (the
  // agent took it from there, whether or not a journal remembers the move).
  if (!e.listed_in) return e.handed_pool || (e.queue && queues.PoolQueue(*e.queue, e.queue_key) != nullptr);
  return queues.PolicyQueue(*e.listed_in, QueueMemo::KeyOf(e, e.listed_in)) == nullptr;
}

bool TaskMatchesQueue(QueueMemo& queues, const JobEntry& e) {
  for (TextRef q : {e.queue, e.listed_in}) {
    if (!q) continue;
    const uint32_t key = QueueMemo::KeyOf(e, q);
    if (queues.PolicyQueue(*q, key) != nullptr || queues.PoolQueue(*q, key) != nullptr) return true;
  }
  return false;
}

TaskPlacement PlaceTask(const Config& config, const JobDirectory& dir, const JobEntry& e) {
  TaskPlacement p;
  const std::string queue = Str(e.queue);
  const bool running = e.state && *e.state == "running";
  // The policy queue that tells its policy and profile: its execution.queue,
  // else the one the sync journal says it was read in.
  std::optional<QueueTarget> target = JobDirectory::Find(dir.queues, e.queue);
  const bool target_from_journal = !target && e.handed_policy_queue &&
                                   (target = JobDirectory::Find(dir.queues, e.handed_policy_queue)).has_value();
  std::optional<uint32_t> journal_pool = JobDirectory::Find(dir.pools, e.handed_pool);
  const uint32_t* queue_pool = dir.pool_queues.find(queue);
  std::string pool_queue;  // the pool or link queue that tells its pool
  std::string why;         // why no pool can be told
  std::string orphan;      // why it counts against no policy ("" when it does)
  if (running) {
    if (queue_pool != nullptr) {
      p.pool = *queue_pool;
      pool_queue = queue;
    } else if (!target) {
      // Its team or queue was renamed or removed: the pool that its worker
      // or the journal tells still holds it (rescfg(5), RENAMES).
      auto told = PoolOfWorkers(config, dir, e, &why);
      if (!told && journal_pool) told = journal_pool;
      if (!told) {
        p.invalid = "cannot tell what it holds: its queue '" + queue + "' is neither a policy queue nor a pool or link queue" +
                    (e.queue_from_id ? kIdNote : "") + "; " + why;
        return p;
      }
      p.pool = *told;
      pool_queue = QueueOfOrphan(config, dir, e, *told);
      orphan = "its queue '" + queue + "' is no policy queue (its team or queue was renamed or removed): it holds in pool '" +
               config.pools[*told].name + "', " + (told == journal_pool && !e.worker ? "to which the sync journal says it was handed, " : "") +
               "counted against no policy";
    } else if (auto by_worker = PoolOfWorkers(config, dir, e, &why)) {
      p.pool = *by_worker;
    } else if (journal_pool) {
      p.pool = *journal_pool;
      p.note = "the sync journal says it was handed to pool '" + Str(e.handed_pool) + "'";
    }
  } else {
    const std::string listed = Str(e.listed_in);
    if (const uint32_t* owner = dir.pool_queues.find(listed)) {
      // Handed over: it waits in a pool's queue for an agent.
      p.pool = *owner;
      pool_queue = listed;
      p.note = "handed over to pool '" + config.pools[*owner].name + "': waits in its queue '" + listed +
               "' for an agent";
    } else if (journal_pool && !e.listed_in) {
      p.pool = *journal_pool;
      p.note = "popped by an agent, not yet started: listed in no queue; the sync journal says it was handed to pool '" +
               Str(e.handed_pool) + "'";
    } else if (journal_pool) {
      p.pool = *journal_pool;
      p.note = "in flight: waits in queue '" + listed + "' while it starts; the sync journal says it was handed to pool '" +
               Str(e.handed_pool) + "'";
    } else if (queue_pool != nullptr && !e.listed_in) {
      p.pool = *queue_pool;
      pool_queue = queue;
      p.note = "popped by an agent, not yet started: listed in no queue; taken from pool queue '" + queue + "'";
    } else if (queue_pool != nullptr) {
      p.pool = *queue_pool;
      pool_queue = queue;
      p.note = "in flight: waits in queue '" + listed + "' while it starts, from queue '" + queue + "'";
    } else if (!target) {
      p.invalid = "cannot tell what it holds: it waits in queue '" + listed + "', and its queue '" + queue +
                  "' is neither a policy queue nor a pool or link queue" + (e.queue_from_id ? kIdNote : "");
      return p;
    } else {
      why = "in flight: waits in queue '" + listed + "' while it starts, and " +
            (e.handed_pool ? "pool '" + Str(e.handed_pool) + "', to which the sync journal says it was handed, is not in "
                                                              "the configuration"
                           : std::string("no sync journal says which pool it was handed to"));
    }
  }
  if (target) {
    p.policy = target->policy;
    p.profile = target->profile;
    NeedSource source;
    std::string fallback;
    p.holding = NeedOf(config.profiles[target->profile], e, &source, &fallback);
    if (target_from_journal) {
      AddNote(&p, "counted against policy '" + config.policies[target->policy].name + "': the sync journal says it was read in its queue '" +
                      Str(e.handed_policy_queue) + "'");
    }
  } else if (pool_queue.empty()) {
    p.invalid = "cannot tell what it holds: its queue '" + queue + "' is no policy queue, and neither is the queue '" +
                Str(e.handed_policy_queue) + "' the sync journal says it was read in";
    return p;
  } else {
    ServedProfile(config, dir, e, pool_queue, *p.pool, &p);
    if (!p.invalid.empty()) return p;
    if (!orphan.empty()) {
      AddNote(&p, orphan);
      p.warning = true;
    }
  }
  if (!p.pool) {
    AddNote(&p, why + "; counted against policy '" + config.policies[*p.policy].name +
                    "' (its limit and reservation), in no pool");
    p.warning = true;
  }
  return p;
}

}  // namespace rescfg
