#include "jobs/near_misses.h"

#include "jobs/resolved_jobs.h"

namespace rescfg {

void NearMisses::NoteOne(const ParamValue& param, Mark mark) {
  auto [it, added] = seen_.try_emplace(std::string(*param.text), Seen{std::string(*param.path), mark, 0});
  ++it->second.count;
}

void NearMisses::Add(const NearMisses& later) {
  for (const auto& [key, s] : later.seen_) {
    auto [it, added] = seen_.try_emplace(key, s);
    if (!added) it->second.count += s.count;
  }
}

void NearMisses::AppendWarnings(const std::string& file, std::vector<Finding>* findings) const {
  for (const auto& [key, s] : seen_) {
    findings->push_back({"param-near-miss", Severity::kWarning, file, s.mark, "",
                         "params hold '" + key + "' but not the dynamic parameter '" + s.path + "' (" +
                             std::to_string(s.count) + (s.count == 1 ? " job" : " jobs") + "): they get the allotment",
                         "did you mean '" + s.path + "'?"});
  }
}

void NearMissWarnings(LoadedJobs* jobs) {
  if (jobs->resolved) {
    jobs->resolved->near_misses.AppendWarnings(jobs->file, &jobs->findings);
    return;
  }
  NearMisses seen;
  for (const JobEntry& e : jobs->entries) seen.Note(e);
  seen.AppendWarnings(jobs->file, &jobs->findings);
}

}  // namespace rescfg
