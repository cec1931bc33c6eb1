#pragma once
/// The story of one preemption decision (rescfg-scheduling(7), PREEMPTION), for `explain`: off
/// unless a caller asks for it (SchedulingInput::preemption_trace), and then only for the one job
/// or holding it names. Pure data: no names, no text.

#include <cstdint>
#include <vector>

#include "config/model.h"
#include "schedule/problem.h"
#include "util/quantity.h"

namespace rescfg {

/// Why a running job is no victim candidate (kCandidate: it is one).
enum class VictimEligibility : uint8_t {
  kCandidate,
  kHandedOver,      ///< handed to a pool or in flight, not started yet
  kStopping,        ///< already asked to stop
  kNoPolicy,        ///< its policy does not exist
  kNotPreemptible,  ///< its policy says `preemptible: false`
  kNoStart,         ///< no `started` known, and minRuntime is not 0
  kTooYoung,        ///< it has run less than minRuntime
};
VictimEligibility JudgeVictim(const Config& config, const Holding& h, int64_t now_us);

/// Why a pending job does or does not preempt.
enum class PreemptorVerdict : uint8_t {
  kNotPending,         ///< placed by the pass, or not a queued job
  kReason,             ///< pending for another reason than capacity or fragmented
  kPolicyPaused,
  kBeyondReservation,  ///< used + need > min(reserved, limit) after the pass
  kDelay,              ///< it has not waited `delay` (or its wait is unknown and delay is not 0)
  kBeyondAfterEarlier, ///< earlier decisions gave its policy its share already
  kTried,              ///< it tried the pools below
};

/// One job looked at in a pool's walk, in the order looked at.
struct TraceStep {
  enum class Kind : uint8_t {
    kAwaited,     ///< a stopping job counted as free, waited for
    kTaken,       ///< taken, and still a victim at the end
    kPassedOver,  ///< taking it would leave its policy below its reservation
    kPutBack,     ///< taken, then put back by the fill-back (not needed)
    kReleased,    ///< taken, then released: the walk ended without a fit
  };
  uint32_t holding = 0;
  Kind kind = Kind::kTaken;
  Quantity used;  ///< its policy's usage when it was looked at (stopping jobs not counted)
};

/// One linked pool of the preemptor, in link order.
struct PoolTrial {
  enum class Outcome : uint8_t {
    kPaused,        ///< not tried
    kNotReached,    ///< an earlier pool yielded the decision
    kFitsAlready,   ///< it fits without stopping anything (no decision here)
    kNoFit,         ///< the walk ended without a fit: nothing from this pool
    kDecided,       ///< the decision
  };
  uint32_t pool = 0;
  Outcome outcome = Outcome::kNotReached;
  std::vector<TraceStep> steps;
};

struct PreemptionTrace {
  static constexpr uint32_t kNone = UINT32_MAX;
  /// In: the queued job whose story is told as a preemptor, or the holding whose decision is told
  /// (a victim's: `job` is then set to its preemptor).
  uint32_t job = kNone;
  uint32_t holding = kNone;
  /// Out.
  PreemptorVerdict verdict = PreemptorVerdict::kNotPending;
  uint32_t turn = 0;        ///< its place among the preemptors (1-based), 0: none
  uint32_t preemptors = 0;  ///< how many there were
  uint32_t decided_before = 0;  ///< decisions made before its turn
  Quantity used;            ///< its policy's usage when its turn came (stopping jobs not counted)
  std::vector<PoolTrial> pools;
};

}  // namespace rescfg
