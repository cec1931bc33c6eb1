#pragma once
/// Where a ClearML task that is not simply waiting in its policy queue
/// holds (rescfg(5), JOBS FILE, ClearML task snapshots): a running task, placed by its queue, its worker or the
/// sync journal; a queued task handed over to a pool (listed in a pool or
/// link queue) or in flight (listed in a queue that is nobody's, like the
/// k8s glue's). Its pool may be unknown, or its policy, never both.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/job_directory.h"
#include "jobs/queue_memo.h"
#include "util/quantity.h"

namespace rescfg {

struct TaskPlacement {
  std::optional<uint32_t> pool;     ///< none: it holds in no pool
  std::optional<uint32_t> policy;   ///< none: it counts against no policy
  std::optional<uint32_t> profile;  ///< none when the pool's queue serves several
  std::optional<Quantity> holding;
  std::string note;      ///< for its message ("" for nothing)
  bool warning = false;  ///< the note is also a warning on stderr
  std::string invalid;   ///< why it is rejected invalid-job ("" when placed)
};

/// A queued task that already runs as far as the pools are concerned: the
/// queue whose entries list it is no policy queue.
bool TaskRunsAlready(QueueMemo& queues, const JobEntry& e);

/// Places a running task, or a queued one that TaskRunsAlready.
TaskPlacement PlaceTask(const Config& config, const JobDirectory& dir, const JobEntry& e);

/// Whether the task's queue, or the queue whose entries list it, is a
/// policy, pool or link queue of the configuration.
bool TaskMatchesQueue(QueueMemo& queues, const JobEntry& e);

}  // namespace rescfg
