/// The `preemption:` block against the rest of the file (rescfg(5), PREEMPTION).

#include "validate/checks.h"

namespace rescfg {

void CheckPreemption(CheckContext& context) {
  const auto& preemption = context.config().preemption;
  if (!preemption) return;
  for (const auto& policy : context.config().policies) {
    if (!policy.reserved.is_zero()) return;
  }
  context.Warning("preemption-without-reservation", preemption->mark, "preemption",
                  "preemption is set but no policy reserves anything: preemption only gives a team back "
                  "its reservation, so no job will ever be preempted",
                  "give a policy reserved resources, or remove the preemption block");
}

}  // namespace rescfg
