#include "schedule/admission.h"

namespace rescfg {

Verdict CheckAdmission(const ScheduleContext& ctx, const PassState& state, ReservationBook& book,
                       uint32_t policy, uint32_t pool, Quantity need, AdmissionTrace* trace) {
  if (!state.Fits(ctx, pool, need)) return Verdict::kNoRoom;                       // rule 1
  Quantity after = state.used[policy] + need;
  if (after > ctx.limit[policy]) return Verdict::kOverLimit;                       // rule 2
  if (after <= ctx.reserved[policy]) return Verdict::kAdmissible;                  // within its own reservation
  if (trace) trace->rule3 = true;                                                  // rule 3
  if (book.TotalNeed() == book.Need(policy)) return Verdict::kAdmissible;          // no other reservation outstanding
  if (trace) trace->rule3_trivial = false;
  return book.KeepsOthersCovered(policy, pool, need) ? Verdict::kAdmissible : Verdict::kReservation;
}

std::optional<Target> FindTarget(const ScheduleContext& ctx, const PassState& state, ReservationBook& book,
                                 uint32_t policy, uint32_t profile, Quantity need, AdmissionTrace* trace) {
  const auto& links = ctx.links[profile];
  for (uint32_t i = 0; i < links.size(); ++i) {
    Verdict v = CheckAdmission(ctx, state, book, policy, links[i], need, trace);
    if (v == Verdict::kAdmissible) return Target{links[i], i};
    if (v == Verdict::kOverLimit) return std::nullopt;  // the limit holds for every pool
  }
  return std::nullopt;
}

}  // namespace rescfg
