#pragma once
/// Stale entries: a pool or link queue that lists a task which is neither
/// queued nor running (stopped, failed, completed, published, closed,
/// created, or deleted). A hand-over keeps the task's execution.queue on its
/// policy queue (`tasks.enqueue` with `update_execution_queue: false`), and a
/// person's `tasks.stop` or `tasks.dequeue` removes only the entry of the
/// queue named there: the pool queue's entry stays behind. An agent that
/// pops it runs the task again (the server sets a stopped task back to
/// queued as it pops it; clearml-agent starts whatever it popped), on GPUs
/// that no decision gave it. Each cycle of `rescfg sync` removes them
/// (ActionKind::kRemove, rescfg(1), "Stale entries").

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "clearml/queues.h"
#include "config/model.h"

namespace rescfg {

struct StaleEntry {
  std::string_view task;
  const clearml::Queue* queue = nullptr;  ///< the pool or link queue that lists it
  std::string_view pool;                  ///< the pool that queue serves
};

/// Whether a task with this status (as the server says now; "" for a task
/// the server does not know) leaves its entry of a pool queue stale:
/// anything but queued and in_progress.
bool StaleStatus(std::string_view status);

/// The stale entries of the configuration's pool and link queues, in queue
/// order. `status_of` gives a task's status as read ("" when the read did
/// not return it: a read of the queued and running tasks returns no other).
std::vector<StaleEntry> StaleEntries(const Config& config, const clearml::QueueList& queues,
                                     const std::function<std::string_view(std::string_view task)>& status_of);

/// The check right before a removal, on what the server says of the task
/// now (pure): "" when the entry may be removed, else why it is left. A
/// task queued again meanwhile (a person's enqueue: into its policy queue,
/// which takes it out of every other, or into this pool queue itself) or
/// running is left alone.
std::string StaleEntryGuard(std::string_view status_now);

}  // namespace rescfg
