#pragma once
/// Rules 1–3 of rescfg-scheduling(7), THE PASS: may a job of policy p with need s go to pool X now?

#include <cstdint>
#include <optional>

#include "schedule/context.h"
#include "schedule/pass_state.h"
#include "schedule/reservations.h"
#include "util/quantity.h"

namespace rescfg {

enum class Verdict { kAdmissible, kNoRoom, kOverLimit, kReservation };

/// What an admission check depended on, so the pass knows when to look again.
struct AdmissionTrace {
  bool rule3 = false;          ///< the reservation rule was evaluated
  bool rule3_trivial = true;   ///< ...and passed only because no other policy had an outstanding reservation
};

/// Checks one linked pool. `trace` may be null.
Verdict CheckAdmission(const ScheduleContext& ctx, const PassState& state, ReservationBook& book,
                       uint32_t policy, uint32_t pool, Quantity need, AdmissionTrace* trace);

struct Target {
  uint32_t pool = 0;
  uint32_t link = 0;  ///< index into the profile's links
};

/// The first pool in the profile's link order where the job is admissible.
std::optional<Target> FindTarget(const ScheduleContext& ctx, const PassState& state, ReservationBook& book,
                                 uint32_t policy, uint32_t profile, Quantity need, AdmissionTrace* trace);

}  // namespace rescfg
