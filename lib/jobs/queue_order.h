#pragma once
/// Queue order (rescfg(5), JOBS FILE): jobs with `enqueued` first, by time; then the
/// rest; ties by file position. ClearML tasks (rescfg(5)): those their queue's
/// `entries` list first, in that order; then by `status_changed`.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "util/rfc3339.h"

namespace rescfg {

/// One queued job's place in queue order, compared by (high, low).
struct OrderKey {
  uint64_t high;  ///< untimed last, then seconds
  uint32_t low;   ///< nanoseconds
  uint32_t queued;  ///< the job's index among the queued jobs
};

/// `rank`: a ClearML task's 1-based place in its queue's `entries` (rescfg(5),
/// JOBS FILE), which comes before any time; 0 when not listed.
OrderKey MakeOrderKey(const std::optional<Timestamp>& time, uint32_t rank, uint32_t queued);

/// Sorts `keys` into queue order, stably (keys listed in file order keep
/// it among equals); among keys equal to the nanosecond, the digits beyond
/// it (`beyond[k.queued]`, text; `beyond` empty when no time has any)
/// decide.
void SortByQueueOrder(std::vector<OrderKey>* keys, const std::vector<std::string_view>& beyond);

}  // namespace rescfg
