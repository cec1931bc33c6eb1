#include "status/preemption_status.h"

#include <map>
#include <string_view>

namespace rescfg {

void CountPreemptions(const ScheduleReport& schedule, StatusReport* status) {
  status->preemption = schedule.preemption || !schedule.stopping.empty();
  if (!status->preemption) return;
  std::map<std::string_view, TeamCard*> teams;
  for (auto& card : status->teams) teams.emplace(card.name, &card);
  auto team = [&](size_t entry) -> TeamCard* {
    const JobOutcome job = schedule.jobs[entry];
    if (!job.policy) return nullptr;
    auto it = teams.find(*job.policy);
    return it == teams.end() ? nullptr : it->second;
  };
  for (size_t entry : schedule.stopping) {
    if (TeamCard* card = team(entry)) ++card->stopping;
  }
  for (const auto& [entry, decision] : schedule.victim_of) {
    if (TeamCard* card = team(entry)) ++card->preempted;
  }
}

}  // namespace rescfg
