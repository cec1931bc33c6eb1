#pragma once
/// What resolving jobs-file entries against a configuration gives (rescfg(5), JOBS FILE):
/// one outcome per entry and the scheduling input of the queued ones. The
/// resolver fills it and the schedule report is built from it, so neither
/// needs the other's header.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/job_outcome.h"
#include "jobs/near_misses.h"
#include "jobs/outcomes.h"
#include "schedule/problem.h"
#include "util/quantity.h"
#include "util/text_arena.h"
#include "util/text_ref.h"

namespace rescfg {

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
  Outcomes outcomes;                  ///< one per entry; queued ones still to be decided
  SchedulingInput input;              ///< config is left for the caller to set
  std::vector<uint32_t> queued_outcome; ///< per QueuedJob: its index in outcomes
  /// Outcomes decided by resolution alone (their status stays), in file order.
  std::vector<uint32_t> rejected, running;
  QueueMatches matches;  ///< ClearML snapshots: their queues (views `text`)
  NearMisses near_misses;  ///< of every entry, whatever its outcome
  /// Per QueuedJob, when any is listed among its ClearML queue's entries
  /// (rescfg(5), JOBS FILE, ClearML task snapshots): its 1-based place there, 0 when not
  /// listed; else empty. `explain` says why a listed task came first.
  std::vector<uint32_t> listed_rank;
};

}  // namespace rescfg
