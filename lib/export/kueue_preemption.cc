#include "export/kueue_preemption.h"

#include "config/durations.h"

namespace rescfg {

void PreemptionFindings(const Config& config, std::vector<ExportFinding>* findings) {
  if (!config.preemption) return;
  const PreemptionSettings& p = *config.preemption;
  if (p.min_runtime_us > 0) {
    findings->push_back({"preemption.minRuntime", p.min_runtime_mark.line ? p.min_runtime_mark : p.mark,
                         "Kueue has no minimum run time: it may preempt a workload that started less than " +
                             CanonicalDuration(p.min_runtime_us) + " ago, which rescfg never does",
                         "accept it, or set minRuntime: 0 to decide as Kueue does", "kueue-min-runtime"});
  }
  if (p.delay_us > 0) {
    findings->push_back({"preemption.delay", p.delay_mark.line ? p.delay_mark : p.mark,
                         "Kueue has no preemption delay: a workload reclaims its quota as soon as it waits, not "
                         "after waiting " + CanonicalDuration(p.delay_us),
                         "accept it, or set delay: 0 to decide as Kueue does", "kueue-preemption-delay"});
  }
  for (const Policy& policy : config.policies) {
    if (policy.preemptible) continue;
    findings->push_back({"policies[" + policy.name + "].preemptible", policy.preemptible_mark,
                         "Kueue preempts any workload that borrows beyond its ClusterQueue's nominal quota: the "
                         "jobs of policy '" + policy.name + "' can be preempted there, although it is not preemptible",
                         "accept it, or keep the policy's jobs within its reservation", "kueue-not-preemptible"});
  }
  findings->push_back({"preemption", p.mark,
                       "Kueue chooses victims in its own order (among borrowing ClusterQueues, the lower priority "
                       "first, then the most recently admitted), not rescfg's (the policy furthest above its reservation, the "
                       "least favoured profile, the latest started): it may stop other jobs than rescfg would",
                       "", "kueue-victim-order"});
}

}  // namespace rescfg
