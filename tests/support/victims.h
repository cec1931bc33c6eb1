#pragma once
/// Preemption victims for the unit tests of `rescfg sync`'s stop and
/// re-queue protocol: intents as the sync writes them, and what the fake
/// server says of a victim (tasks.get_all).

#include <cstdint>
#include <string>
#include <vector>

#include "sync/journal.h"

namespace rescfg::testing {

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
  std::string message;  ///< status_message
  std::string reason;   ///< status_reason
  std::string changed = kVictimChanged;
  std::string queue = "qh100";  ///< execution.queue
};
/// The data of a tasks.get_all answer about `task` (no task when `shows.status` is empty).
std::string VictimAnswer(const std::string& task, const VictimShows& shows);

/// Writes a stop of each task to `journal` with its result "stopped", as a cycle that asked
/// for them leaves it.
void RememberStops(sync::Journal& journal, const std::vector<std::string>& tasks);

}  // namespace rescfg::testing
