#pragma once
/// A generated scenario (scenario.h) as a ClearML snapshot (rescfg(5), JOBS FILE, ClearML task snapshots): a
/// `tasks.get_all` response, the `queues.get_all` and `workers.get_all`
/// responses that go with it, and its JSON Lines twin — the same jobs as a
/// jobs file, so that both schedule to the same decisions (the ClearML output
/// adds each task's name).
///
/// Every queued job waits in its policy queue ("<policy>/<profile>") and is
/// listed in that queue's `entries` in the JSON Lines queue order (with an
/// `enqueued` time first, by time, then the rest by file position); its
/// `status_changed` is that time. ClearML orders listed tasks by their place
/// in their queue (also between queues, where the pass compares queue order
/// when execution and policy priority tie), then by file position; the twin
/// says the same with an `enqueued` time that counts the place in
/// microseconds. A running job is `in_progress` in its policy queue and runs
/// on a worker that took it from its pool's queue; it holds its need, so the
/// twin gives no `resources`. Tasks carry the fields the README's loop asks
/// for (`only_fields`).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "scenario.h"

namespace rescfg::bench {

/// A 32-digit hex ID, as ClearML writes them, derived from a kind and a number.
inline std::string ClearmlId(uint64_t kind, uint64_t n) {
  SplitMix64 a(kind * 0x100000001B3ull + n), b(~(kind * 0x100000001B3ull + n));
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%016llx%016llx", static_cast<unsigned long long>(a.Next()),
                static_cast<unsigned long long>(b.Next()));
  return buffer;
}

inline std::string TaskId(size_t i) { return ClearmlId(1, i); }

/// Per policy queue (policy, profile): its ID.
struct ClearmlQueues {
  explicit ClearmlQueues(const Scenario& s) : profiles(s.profiles.size()) {}
  size_t profiles;
  size_t Index(uint32_t policy, uint32_t profile) const { return size_t(policy) * profiles + profile; }
  std::string PolicyQueueId(uint32_t policy, uint32_t profile) const { return ClearmlId(2, Index(policy, profile)); }
  static std::string PoolQueueId(uint32_t pool) { return ClearmlId(3, pool); }
};

inline std::string PolicyQueueName(const Scenario& s, uint32_t policy, uint32_t profile) {
  return s.policies[policy].name + "/" + s.profiles[profile].name;
}

inline std::string StatusChangedText(int32_t seconds) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "2026-11-29T%02d:%02d:%02d.000000+00:00", seconds / 3600, seconds / 60 % 60,
                seconds % 60);
  return buffer;
}

/// Calls `write(text)` with consecutive pieces of the tasks.get_all response
/// (one line, as the server answers).
template <typename Write>
void WriteTasksClearml(const Scenario& s, Write write) {
  const ClearmlQueues queues(s);
  std::string out =
      "{\"meta\": {\"id\": \"" + ClearmlId(9, 0) + "\", \"trx\": \"" + ClearmlId(9, 0) +
      "\", \"endpoint\": {\"name\": \"tasks.get_all\", \"requested_version\": \"2.31\", \"actual_version\": \"1.0\"}, "
      "\"result_code\": 200, \"result_subcode\": 0, \"result_msg\": \"OK\", \"error_stack\": \"\", \"error_data\": {}}, "
      "\"data\": {\"tasks\": [";
  for (size_t i = 0; i < s.jobs.size(); ++i) {
    const GenJob& j = s.jobs[i];
    out += i ? ", {\"id\": \"" : "{\"id\": \"";
    out += TaskId(i) + "\", \"name\": \"" + JobId(i) + "\", \"status\": \"" + (j.running ? "in_progress" : "queued") +
           "\"";
    if (!j.running && j.enqueued >= 0) out += ", \"status_changed\": \"" + StatusChangedText(j.enqueued) + "\"";
    out += ", \"execution\": {\"queue\": \"" + queues.PolicyQueueId(j.policy, j.profile) +
           "\"}, \"hyperparams\": {\"Args\": {\"epochs\": {\"section\": \"Args\", \"name\": \"epochs\", \"value\": "
           "\"90\", \"type\": \"int\", \"description\": \"\"}}}, \"configuration\": {}, \"runtime\": {";
    if (j.param >= 0) out += "\"gpus_request\": " + ParamScalar(j.param);
    out += "}}";
    FlushLarge(&out, write);
  }
  write(out + "], \"total\": " + std::to_string(s.jobs.size()) + "}}\n");
}

/// The queued jobs of each policy queue in queue order (rescfg(5), JOBS FILE): with an
/// `enqueued` time first, by time, then the rest; ties by file position.
inline std::vector<std::vector<uint32_t>> QueueOrder(const Scenario& s) {
  const ClearmlQueues queues(s);
  std::vector<std::vector<uint32_t>> order(s.policies.size() * s.profiles.size());
  for (uint32_t i = 0; i < s.jobs.size(); ++i) {
    if (!s.jobs[i].running) order[queues.Index(s.jobs[i].policy, s.jobs[i].profile)].push_back(i);
  }
  for (auto& q : order) {
    std::stable_sort(q.begin(), q.end(), [&](uint32_t a, uint32_t b) {
      const int32_t ta = s.jobs[a].enqueued, tb = s.jobs[b].enqueued;
      if ((ta < 0) != (tb < 0)) return tb < 0;
      return ta >= 0 && ta < tb;
    });
  }
  return order;
}

/// The queues.get_all response: every policy queue with its entries, then
/// the pools' queues.
template <typename Write>
void WriteQueuesClearml(const Scenario& s, Write write) {
  const ClearmlQueues queues(s);
  const auto order = QueueOrder(s);
  std::string out = "{\"meta\": {\"result_code\": 200, \"result_msg\": \"OK\"}, \"data\": {\"queues\": [";
  bool first = true;
  auto queue = [&](const std::string& id, const std::string& name) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "{\"id\": \"" + id + "\", \"name\": \"" + name + "\", \"entries\": [";
  };
  for (uint32_t p = 0; p < s.policies.size(); ++p) {
    for (uint32_t r : s.policies[p].profiles) {
      queue(queues.PolicyQueueId(p, r), PolicyQueueName(s, p, r));
      const auto& waiting = order[queues.Index(p, r)];
      for (size_t k = 0; k < waiting.size(); ++k) {
        const GenJob& j = s.jobs[waiting[k]];
        out += (k ? ", {\"task\": \"" : "{\"task\": \"") + TaskId(waiting[k]) + "\", \"added\": \"" +
               StatusChangedText(std::max(j.enqueued, 0)) + "\"}";
        FlushLarge(&out, write);
      }
      out += "]}";
    }
  }
  for (uint32_t x = 0; x < s.pools.size(); ++x) {
    queue(ClearmlQueues::PoolQueueId(x), s.pools[x].name);
    out += "]}";
  }
  write(out + "\n]}}\n");
}

/// The workers.get_all response: one worker per running task, which took it
/// from its pool's queue (a pool's queue defaults to its name).
template <typename Write>
void WriteWorkersClearml(const Scenario& s, Write write) {
  std::string out = "{\"meta\": {\"result_code\": 200}, \"data\": {\"workers\": [";
  size_t n = 0;
  for (size_t i = 0; i < s.jobs.size(); ++i) {
    const GenJob& j = s.jobs[i];
    if (!j.running) continue;
    const std::string queue = "{\"id\": \"" + ClearmlQueues::PoolQueueId(j.pool) + "\", \"name\": \"" +
                              s.pools[j.pool].name + "\"";
    out += (n ? ",\n" : "\n") + std::string("{\"id\": \"") + s.pools[j.pool].name + "-node:gpu" + std::to_string(n) +
           "\", \"task\": {\"id\": \"" + TaskId(i) + "\", \"name\": \"" + JobId(i) + "\"}, \"queue\": " + queue +
           "}, \"queues\": [" + queue + ", \"num_tasks\": 0}]}";
    ++n;
    FlushLarge(&out, write);
  }
  write(out + "\n]}}\n");
}

/// "2026-11-29T00:00:00.000007Z" for the 7th place in a queue.
inline std::string PlaceTime(uint64_t place) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "2026-11-29T%02llu:%02llu:%02llu.%06lluZ",
                static_cast<unsigned long long>(place / 3'600'000'000ull),
                static_cast<unsigned long long>(place / 60'000'000ull % 60),
                static_cast<unsigned long long>(place / 1'000'000ull % 60), static_cast<unsigned long long>(place % 1'000'000));
  return buffer;
}

/// The same jobs as a JSON Lines jobs file: each names its policy queue and
/// carries its place in it as its `enqueued` time; running ones their pool
/// (holding their need).
template <typename Write>
void WriteClearmlTwinJsonLines(const Scenario& s, Write write) {
  std::vector<uint32_t> place(s.jobs.size());
  for (const auto& queue : QueueOrder(s)) {
    for (size_t k = 0; k < queue.size(); ++k) place[queue[k]] = static_cast<uint32_t>(k + 1);
  }
  std::string out;
  for (size_t i = 0; i < s.jobs.size(); ++i) {
    const GenJob& j = s.jobs[i];
    out += "{\"id\": \"" + TaskId(i) + "\", \"queue\": \"" + PolicyQueueName(s, j.policy, j.profile) + "\"";
    if (j.running) {
      out += ", \"state\": \"running\", \"pool\": \"" + s.pools[j.pool].name + "\"";
    } else {
      out += ", \"enqueued\": \"" + PlaceTime(place[i]) + "\"";
      if (j.param >= 0) out += ", \"params\": {\"runtime\": {\"gpus_request\": " + ParamScalar(j.param) + "}}";
    }
    out += "}\n";
    FlushLarge(&out, write);
  }
  write(out);
}

}  // namespace rescfg::bench
