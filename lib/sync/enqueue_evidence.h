#pragma once
/// Whether a move's enqueue happened, told from the server, for a move
/// whose task a crash (or an enqueue whose answers were lost) left queued
/// and listed in no queue (rescfg(1), "What a crash leaves behind").
///
/// Such a task either came out of its policy queue and was never enqueued
/// (the move is to be completed), or was enqueued into its pool queue and
/// popped from there by an agent that has not started it yet (the move
/// happened; enqueueing it again would hand an agent's task over twice).
/// ClearML's queues.get_next_task pops an entry without touching the task;
/// tasks.enqueue writes the move's own status_reason and a new
/// status_changed (queues.remove_task, without update_task_status, writes
/// neither). So: the move's status_reason with a status_changed other than
/// the one read when the move was decided means enqueued; the status_changed
/// read then, unchanged, means not enqueued; anything else cannot be told,
/// and the move waits (its task holds the pool it was meant for).

#include <string>
#include <vector>

#include "sync/api_client.h"
#include "sync/journal.h"

namespace rescfg::sync {

/// What the server says of one task now.
struct TaskStatusLook {
  bool ok = false;  ///< false: the server could not be asked
  bool found = false;
  std::string status, status_reason, status_changed;
};
TaskStatusLook LookAtTaskStatus(ApiClient& api, const std::string& task);

enum class EnqueueEvidence {
  kEnqueued,     ///< the move happened: an agent holds the task
  kNotEnqueued,  ///< out of its policy queue, never enqueued: complete the move
  kCannotTell,   ///< wait
  kUnanswered,   ///< the server did not answer
};

/// Pure: the judgement from the intent (its `changed`) and the look.
EnqueueEvidence JudgeEnqueue(const MoveIntent& intent, const TaskStatusLook& look);
/// Why, for the log.
std::string EnqueueEvidenceText(EnqueueEvidence evidence);

/// Gives each intent the `status_changed` of its task in `tasks_json` (the
/// snapshot's tasks, one JSON array) as the move was decided.
void StampStatusChanged(const std::string& tasks_json, std::vector<MoveIntent>* intents);

}  // namespace rescfg::sync
