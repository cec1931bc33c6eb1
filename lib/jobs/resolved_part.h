#pragma once
/// What resolving a range of entries gives besides their outcomes, and how
/// ranges resolved side by side become one (ResolveJobs, ResolutionAsRead).

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "jobs/near_misses.h"
#include "jobs/outcomes.h"
#include "jobs/queue_order.h"
#include "jobs/resolved_jobs.h"
#include "util/text_arena.h"

namespace rescfg {

/// What resolving a range of entries gives besides their outcomes; ranges
/// resolved side by side are joined in file order.
struct ResolvedPart {
  TextArena text;                     ///< what the range's outcomes view
  std::vector<Holding> holdings;
  std::vector<uint32_t> holding_profile;  ///< by holding, with preemption only
  std::vector<QueuedJob> queued;
  std::vector<uint32_t> queued_outcome;
  std::vector<OrderKey> ordering;     ///< `queued` indexes into this part's `queued`
  std::vector<std::string_view> beyond_nanos;  ///< by queued index; empty when no time has such digits
  std::vector<uint32_t> listed_rank;            ///< by queued index; empty when none is listed
  std::vector<uint32_t> rejected, running;  ///< outcome indexes, in file order
  QueueMatches matches;               ///< views `text`
  NearMisses near_misses;
};

/// The configuration's names, kept in `arena`, and numbered in `outcomes`.
ConfigNames CopyNames(const Config& config, TextArena* arena, Outcomes* outcomes);

/// Room for `room` entries in a part: one that later takes the next one's
/// in (JoinPart) then never reallocates; room never written costs no memory.
void ReservePart(ResolvedPart* part, size_t room);

/// Appends `part` (the entries after those already in `into`) to `into`.
void JoinPart(ResolvedPart&& part, ResolvedPart* into);

/// Running jobs that name a node (rescfg-scheduling(7), THE PASS v3): per pool, distinct names in
/// input order of first appearance are machines 1, 2, ...; a name beyond
/// the last machine holds in the pool only, with a message.
void AssignMachines(const Config& config, ResolvedPart* part, Outcomes& outcomes);

/// Puts the joined parts in queue order and into `resolved`.
void PutInQueueOrder(ResolvedPart&& joined, ResolvedJobs* resolved);

}  // namespace rescfg
