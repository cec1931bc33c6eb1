#pragma once
/// Moving a task from its policy queue to the pool or link queue of its
/// assignment, guarded so that a task that changed meanwhile is left
/// alone (rescfg(1), "rescfg sync", the move protocol):
///   1. the intent is in the journal (Journal::Begin), fsynced;
///   2. queues.remove_task {queue: policy queue, task}: succeeds only if
///      the task is still listed there, and from then on nobody else can
///      take it from there (703: it is gone: skipped);
///   3. tasks.enqueue {task, queue: pool queue, update_execution_queue:
///      false, status_reason}: the server changes the status only if it is
///      still the one it just read (121), only from queued (12, 110);
///      a refusal puts the task back in its policy queue if it is still
///      queued, and the move is skipped;
///   4. the result in the journal (Journal::Finish, Flush).

#include <simdjson.h>

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "sync/api_client.h"
#include "sync/journal.h"
#include "util/clock.h"

namespace rescfg::sync {

/// How an action ended (a move, a stop or a re-queue: ActionKind); MoveResultName is its
/// one name in outputs, metrics and the journal.
enum class MoveResult { kPlanned, kMoved, kSkipped, kFailed, kStopped, kRequeued, kStuck, kRemoved };
using ActionResult = MoveResult;
/// "planned", "moved", "skipped", "failed", "stopped", "requeued", "stuck", "removed".
const char* MoveResultName(MoveResult result);

struct MoveReport {
  MoveIntent intent;
  std::string time;    ///< when the move ended, RFC 3339 UTC with microseconds
  MoveResult result = MoveResult::kPlanned;
  std::string detail;  ///< skipped and failed: the server's answer, or why
  /// The move may be half done (the server did not answer): its intent
  /// stays open in the journal, for the next cycle to complete or undo.
  bool open = false;
};

/// "rescfg: Dev/4xGPU -> H100": what the task's status_reason says.
std::string StatusReason(const MoveIntent& intent);

/// True for the refusals that mean "the task changed": skipped, not failed.
bool MeansTaskChanged(int subcode);

/// Steps 2 and 3 for one task.
MoveReport MoveTask(ApiClient& api, const MoveIntent& intent, const Clock& clock);
/// Step 3 alone, for a task already out of its policy queue (a move a
/// crash interrupted).
MoveReport CompleteMove(ApiClient& api, const MoveIntent& intent, const Clock& clock);

struct MoveOptions {
  int connections = 4;                      ///< moves at once, each on its own connection
  const std::atomic<bool>* stop = nullptr;  ///< set: no further move starts
  const Clock* clock = nullptr;             ///< the reports' times (nullptr: the system's)
};

/// Steps 1 to 4 for every intent. Moves into the same queue are made one
/// after the other, in the given (placement) order, so that the pool's
/// agents see them in that order; moves into different queues run at once
/// on up to `connections` connections. The reports come back in the given
/// order. A move that never started because of `stop` is reported skipped.
/// False (with `error`) when the journal cannot be written: then nothing
/// was moved.
bool MakeMoves(ApiClient& api, Journal& journal, std::vector<MoveIntent> intents, const MoveOptions& options,
               std::vector<MoveReport>* reports, std::string* error);

/// The time now as the output writes it: 2026-12-03T10:00:00.000000Z.
std::string UtcNowMicros(const Clock& clock);
/// UTC microseconds as the output writes them.
std::string UtcMicrosText(int64_t micros);

/// What the server says about one task: its status ("" when it has none
/// or no task has that id) and its execution.queue.
struct TaskLook {
  bool ok = false;  ///< false: the server could not be asked
  std::string status, queue;
};
TaskLook LookAtTask(ApiClient& api, const std::string& task);
/// tasks.get_all for one task (hidden ones included) with `only_fields` (the inside
/// of a JSON array); false when the server gave no readable list. `tasks` views
/// `parser`'s document.
bool GetOneTask(ApiClient& api, const std::string& task, std::string_view only_fields, simdjson::dom::parser& parser,
                simdjson::dom::array* tasks);

}  // namespace rescfg::sync
