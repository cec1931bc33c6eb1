#pragma once
/// `--clearml-workers FILE`: the agents of a ClearML server as
/// `workers.get_all` returns them (rescfg(5), JOBS FILE, ClearML task snapshots): which task each runs, the
/// queue it took it from and the queues it serves. A running task whose
/// queue is no pool queue is placed through its worker.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clearml/response.h"
#include "util/finding.h"
#include "util/name_map.h"
#include "util/text_arena.h"

namespace rescfg::clearml {

struct Worker {
  std::string_view id;
  Ref task;               ///< what it runs now (`task.id`)
  Ref queue;              ///< the queue it took that task from
  std::vector<Ref> queues;  ///< the queues it listens to
};

class WorkerList {
 public:
  WorkerList() = default;
  WorkerList(WorkerList&&) = default;
  WorkerList& operator=(WorkerList&&) = default;

  std::string file;
  std::vector<Worker> workers;     ///< file order
  std::vector<Finding> findings;   ///< why the file is unusable, if it is
  bool unusable = false;

  /// The worker whose `task.id` is `task` (the first one, if several say so).
  const Worker* RunningTask(std::string_view task) const;
  /// The next worker after `worker` (an index) that claims the same task.
  std::optional<size_t> NextClaim(size_t worker) const {
    if (worker >= next_claim_.size() || next_claim_[worker] == kNone) return std::nullopt;
    return next_claim_[worker];
  }

 private:
  friend WorkerList ReadWorkersText(PaddedText text, const std::string& file);
  std::unique_ptr<PaddedText> text_;
  std::unique_ptr<TextArena> arena_;
  NameMap<uint32_t> by_task_;
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> next_claim_;  ///< per worker; kNone when no later worker claims its task
};

/// Parses a `workers.get_all` response (`data.workers`) or a JSON array of
/// worker objects. `id` is a string when given; `task` and `queue` are null,
/// an ID or an `{id, name, ...}` object; `queues` a list of those.
WorkerList ReadWorkersText(std::string text, const std::string& file);
WorkerList ReadWorkersText(PaddedText text, const std::string& file);

/// Reads the file ("-" is standard input); unreadable: unusable.
WorkerList ReadWorkersFile(const std::string& path);

}  // namespace rescfg::clearml
