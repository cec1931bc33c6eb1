#include "schedule/preemption_trace.h"

namespace rescfg {

VictimEligibility JudgeVictim(const Config& config, const Holding& h, int64_t now_us) {
  if (h.handed_over) return VictimEligibility::kHandedOver;
  if (h.stopping) return VictimEligibility::kStopping;
  if (!h.policy) return VictimEligibility::kNoPolicy;
  if (!config.policies[*h.policy].preemptible) return VictimEligibility::kNotPreemptible;
  const int64_t min_runtime = config.preemption ? config.preemption->min_runtime_us : 0;
  if (h.started_us == kUnknownTime || now_us == kUnknownTime) {
    return min_runtime == 0 ? VictimEligibility::kCandidate : VictimEligibility::kNoStart;
  }
  return now_us - h.started_us >= min_runtime ? VictimEligibility::kCandidate : VictimEligibility::kTooYoung;
}

}  // namespace rescfg
