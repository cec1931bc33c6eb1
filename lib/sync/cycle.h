#pragma once
/// One cycle of `rescfg sync`: settle the journal, read the server, keep
/// the snapshot, schedule it against the provisioned configuration (read
/// again every cycle) and move the assigned tasks.

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "decide/report.h"
#include "sync/api_client.h"
#include "sync/journal.h"
#include "sync/kept_snapshot.h"
#include "sync/move.h"
#include "sync/read_bounds.h"
#include "util/clock.h"
#include "util/finding.h"

namespace rescfg {
struct ProvisionedConfig;
}  // namespace rescfg

namespace rescfg::sync {

struct CycleSettings {
  std::string state_dir;
  int64_t cycle = 1;
  bool dry_run = false;
  size_t page_size = 500;
  int connections = 4;
  int lock_timeout_seconds = 10;
  const std::atomic<bool>* stop = nullptr;
  ReadGuard* read_guard = nullptr;  ///< armed while the cycle reads the server (sync/read_bounds.h)
  const Clock* clock = nullptr;  ///< where the cycle reads time (nullptr: the system's clocks)
  /// The configuration a cycle read, kept for the next (nullptr: read anew
  /// each time): the state is still read at every cycle, and a new revision
  /// is read as soon as it is provisioned.
  ProvisionedConfig* provisioned = nullptr;
};

struct CycleResult {
  enum class Status {
    kCompleted,
    kUnusable,            ///< configuration, state or journal unusable, or the server's answers
    kCredentialsRefused,
    kUnreachable,         ///< the server did not answer within the retry bound
  };
  Status status = Status::kUnusable;
  std::string error;                 ///< why, when not completed
  std::vector<Finding> findings;     ///< the snapshot reader's, to log
  std::vector<std::string> notes;    ///< the journal's recovery, to log
  std::optional<ScheduleReport> report;
  /// Every action's report: re-queues and stuck stops, then removals of stale entries (in queue
  /// order), then moves in placement order, then stops in decision order (MoveIntent::kind tells
  /// them apart).
  std::vector<MoveReport> moves;
  size_t stopping = 0;               ///< victims rescfg stopped that have not ended yet (the journal's)
  /// The moves were made but the journal could not record their results: why (they are in `moves`).
  std::string unrecorded;
  size_t foreign_moves = 0;          ///< queued tasks another sync moved (sync/foreign_moves.h)
  size_t tasks_read = 0;
  std::map<std::string, size_t> pending_by_reason;
  std::map<std::pair<std::string, std::string>, size_t> pending_by_policy_reason;
  int64_t micros = 0, server_micros = 0;
  size_t Count(MoveResult result) const;
};

/// Runs one cycle. The journal is the sync's (opened once, under the sync
/// lock). Nothing is moved unless the cycle completes its reading.
CycleResult RunCycle(ApiClient& api, Journal& journal, const CycleSettings& settings);

/// The stderr summary: "cycle 3: 120 tasks read, 10 moved, 0 skipped, 0
/// failed, 30 pending (capacity 20, limit 10), 2 rejected; 0.532 s, 0.498 s
/// waiting for the server" (", 2 stale entries removed" before the rejected
/// count when the cycle removed some).
std::string CycleSummary(const CycleResult& result, int64_t cycle, bool dry_run);

/// Microseconds as seconds with three decimals ("0.532").
std::string Seconds(int64_t micros);

}  // namespace rescfg::sync
