#pragma once
/// What resolving jobs-file entries against a configuration gives (rescfg(5), JOBS FILE):
/// one outcome per entry and the scheduling input of the queued ones. The
/// resolver fills it and the schedule report is built from it, so neither
/// needs the other's header.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "quantity.h"
#include "schedule/problem.h"
#include "text_arena.h"
#include "text_ref.h"

namespace rescfg {

enum class JobStatus : uint8_t { kAssigned, kPending, kRejected, kRunning };
inline const char* JobStatusName(JobStatus s) {
  switch (s) {
    case JobStatus::kAssigned: return "assigned";
    case JobStatus::kPending: return "pending";
    case JobStatus::kRejected: return "rejected";
    case JobStatus::kRunning: return "running";
  }
  return "pending";
}

/// Where a job's need came from ("allotment", "parameter", "fallback",
/// "holding", "invalid", or none), in one byte instead of a view: every
/// outcome carries it. Reads and compares as its name.
class NeedSource {
 public:
  constexpr NeedSource() = default;
  NeedSource(std::string_view name) {  // NOLINT: assigned from its name
    for (uint8_t i = 1; i < kNames.size(); ++i) {
      if (kNames[i] == name) code_ = i;
    }
  }
  NeedSource(const char* name) : NeedSource(std::string_view(name)) {}  // NOLINT
  std::string_view name() const { return kNames[code_]; }
  operator std::string_view() const { return name(); }  // NOLINT: reads as its name
  friend bool operator==(NeedSource a, NeedSource b) { return a.code_ == b.code_; }
  friend bool operator==(NeedSource a, std::string_view b) { return a.name() == b; }
  friend bool operator==(NeedSource a, const char* b) { return a.name() == std::string_view(b); }

 private:
  static constexpr std::array<std::string_view, 6> kNames = {"", "allotment", "parameter", "fallback",
                                                              "holding", "invalid"};
  uint8_t code_ = 0;
};

/// One input entry's outcome. Fields follow the JSONL object of rescfg(5), SCHEDULE OUTPUT.
/// Text views the report's arena (names and messages are stored once and
/// shared) or static text: an outcome is valid while its report lives.
struct JobOutcome {
  TextRef id;                         ///< null for an entry with no usable id
  TextRef policy, profile;            ///< resolved names, or as given when rejected
  TextRef pool, queue;                ///< assigned and running
  TextRef link;                       ///< assigned: the link's name ("" if unnamed)
  TextRef reason;                     ///< pending and rejected (static text)
  TextRef message;                    ///< pending, rejected, running with a warning
  TextRef name;                       ///< a ClearML task's name, carried to the outputs (rescfg(5), JOBS FILE, ClearML task snapshots)
  TextRef node;                       ///< running in a pool with nodes: the machine it names, if any
  std::optional<Quantity> resources;  ///< need (assigned, pending) or holding (running)
  uint32_t entry = 0;                 ///< 1-based entry number
  JobStatus status = JobStatus::kPending;
  NeedSource need_source;             ///< assigned, pending and running
  bool warning = false;               ///< running: its message is also a warning on stderr
};

/// How the tasks of a ClearML snapshot met the configuration's queues: when
/// not one task names a queue of the configuration, the input is unusable
/// (rescfg(5), JOBS FILE, ClearML task snapshots, "nothing matched"), not an empty decision.
struct QueueMatches {
  static constexpr size_t kSeen = 5;
  size_t tasks = 0;    ///< tasks with a queue
  size_t matched = 0;  ///< whose queue, or the queue listing them, is the configuration's
  size_t by_id = 0;    ///< of the others: an ID that no queues file mapped to a name
  std::vector<std::string_view> seen;  ///< the first few queues of the others (kept in an arena)

  template <typename Entry>
  void Count(bool match, const Entry& e, TextArena* arena) {
    ++tasks;
    if (match) {
      ++matched;
      return;
    }
    if (e.queue_from_id) ++by_id;
    Remember(*e.queue, arena);
  }
  void Remember(std::string_view queue, TextArena* arena) {
    if (seen.size() >= kSeen) return;
    for (std::string_view s : seen) {
      if (s == queue) return;
    }
    seen.push_back(arena->Keep(queue));
  }
  /// Adds the counts of the entries after these.
  void Add(const QueueMatches& later) {
    tasks += later.tasks;
    matched += later.matched;
    by_id += later.by_id;
    for (std::string_view s : later.seen) {
      if (seen.size() < kSeen && std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
    }
  }
};

/// The configuration's names, copied once into a report's arena so that
/// outcomes can share them (and outlive the configuration).
struct ConfigNames {
  std::vector<std::string_view> pools, queues;  ///< per pool: its name and its queue
  std::vector<std::string_view> policies, profiles;
  std::vector<std::vector<std::string_view>> links;  ///< per profile, per link: its name ("" if unnamed)
  std::vector<std::vector<std::string_view>> link_queues;  ///< per profile, per link: its queue (rescfg(5), CONFIGURATION)
};

struct ResolvedJobs {
  TextArena text;                     ///< what the outcomes' text views
  ConfigNames names;                  ///< in `text`
  std::vector<JobOutcome> outcomes;   ///< one per entry; queued ones still to be decided
  SchedulingInput input;              ///< config is left for the caller to set
  std::vector<uint32_t> queued_outcome; ///< per QueuedJob: its index in outcomes
  /// Outcomes decided by resolution alone (their status stays), in file order.
  std::vector<size_t> rejected, running;
  QueueMatches matches;  ///< ClearML snapshots: their queues (views `text`)
};

}  // namespace rescfg
