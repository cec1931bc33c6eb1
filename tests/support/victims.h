#pragma once
/// Preemption victims for the unit tests of `rescfg sync`'s move, stop and
/// re-queue protocols: intents as the sync writes them, what the fake
/// server says of a victim (tasks.get_all), and a journal, server and clock
/// to settle stops with.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support/fake_transport.h"
#include "support/temp_dir.h"
#include "sync/journal.h"
#include "sync/requeue.h"
#include "util/clock.h"

namespace rescfg::testing {

/// A move of `task` from Dev/4xGPU's policy queue (dev-4gpu, id qdev) to H100 (h100-4gpu, id qh100).
sync::MoveIntent DevMoveIntent(const std::string& task = "t1");

/// When the victims' stops were asked (UTC microseconds), and the victims' status_changed.
inline constexpr int64_t kStopAskedUs = 1'764'000'000'000'000;
inline constexpr const char* kVictimChanged = "2026-12-01T00:00:00.000000+00:00";

/// A stop of `task`, a Sandbox/2xGPU task (policy queue sandbox-2gpu, id qsand) running in
/// H100 (h100-2gpu, id qh100), for the preemptor Dev/d0; asked at kStopAskedUs.
sync::MoveIntent StopIntent(const std::string& task = "v1");
/// The re-queue of that stop, decided when the victim's status_changed read `changed`.
sync::MoveIntent RequeueIntent(const std::string& task = "v1", const std::string& changed = kVictimChanged);

/// What the server says of a victim.
struct VictimShows {
  std::string status;
  std::string message = "";  ///< status_message
  std::string reason = "";   ///< status_reason
  std::string changed = kVictimChanged;
  std::string queue = "qh100";  ///< execution.queue
};
/// The data of a tasks.get_all answer about `task` (no task when `shows.status` is empty).
std::string VictimAnswer(const std::string& task, const VictimShows& shows);

/// Writes a stop of each task to `journal` with its result "stopped", as a cycle that asked
/// for them leaves it.
void RememberStops(sync::Journal& journal, const std::vector<std::string>& tasks);

/// A sync's journal (in a directory of its own), a fake server that shows v1 as `shows` and
/// accepts tasks.enqueue and queues.move_task_to_front, and a test clock at `now_us`.
class VictimServer {
 public:
  explicit VictimServer(const VictimShows& shows, int64_t now_us = kStopAskedUs + 1'000'000);
  /// The stops and re-queues settled at cycle `cycle`, stopTimeout `stop_timeout_us`.
  sync::SettleOutcome Settle(int64_t cycle = 2, int64_t stop_timeout_us = 300'000'000);
  /// The endpoints called, the login left out.
  std::vector<std::string> Calls() const;

  TempDir dir;
  FakeTransport server;
  ManualClock clock;
  sync::ApiClient api;
  std::optional<sync::Journal> journal;
};

}  // namespace rescfg::testing
