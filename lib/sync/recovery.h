#pragma once
/// What a sync does with its journal at the start of every cycle, before
/// anything else is decided: each move left unfinished by a crash (or by a
/// server that stopped answering) is completed or undone from what the
/// server shows now, and each hand-over whose task started, ended or went
/// back to its policy queue is forgotten.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "clearml/queues.h"
#include "sync/api_client.h"
#include "sync/journal.h"
#include "sync/server_snapshot.h"
#include "util/clock.h"

namespace rescfg::sync {

/// Where an unfinished move stands.
enum class IntentState {
  kMoved,      ///< in its pool queue, or already taken from there by an agent's glue; also when it
               ///< was stopped or dequeued since and its entry is left there
  kNotMoved,   ///< still in its policy queue: nothing happened (it is decided again)
  kGone,       ///< no longer queued, or moved elsewhere by someone else: left alone
  kInNoQueue,  ///< queued, listed in no queue: out of its policy queue, not yet in the pool's
  kStarted,    ///< running, out of its policy queue: an agent of the pool started it; it holds there
};

/// `status` is the task's status in the snapshot ("" when it is not there:
/// neither queued nor running); `listed_in` the queue whose entries list it
/// (nullptr: none); `is_config_queue` whether that queue is a policy, pool
/// or link queue of the configuration.
IntentState JudgeIntent(const MoveIntent& intent, std::string_view status, const clearml::Queue* listed_in,
                        bool is_config_queue);
const char* IntentStateName(IntentState state);

struct RecoveryOutcome {
  bool ok = true;            ///< false: the server did not answer; the intents stay open
  bool acted = false;        ///< a call changed the server: read it again before deciding
  std::vector<std::string> notes;  ///< one line per intent, for the log
  ApiAnswer failure;
};

/// Settles every unfinished intent of `journal` (recorded with Finish, and
/// written with Flush by the caller). A task in no queue is completed: the
/// decision was made, and putting it back would move it to the end of its
/// policy queue.
RecoveryOutcome RecoverIntents(ApiClient& api, Journal& journal, const ServerSnapshot& snapshot,
                               const clearml::QueueList& queues,
                               const std::function<bool(std::string_view)>& is_config_queue, const Clock& clock);

/// Forgets the hand-overs that no longer hold: the task is neither queued
/// nor running any more (finished, stopped) and listed in no queue but a
/// policy queue (an entry left in a pool queue or the glue's is one an
/// agent may still pop), or
/// it is listed in a policy queue again (`is_policy_queue`, by name; its own
/// is known by its id). Returns how many.
size_t ReleaseHandovers(Journal& journal, const ServerSnapshot& snapshot, const clearml::QueueList& queues,
                        const std::function<bool(std::string_view)>& is_policy_queue);

}  // namespace rescfg::sync
