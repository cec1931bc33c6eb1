#include "explain/job_lookup.h"

#include <vector>

#include "util/edit_distance.h"

namespace rescfg {

namespace {

/// Ids listed in a message: the first few, then how many more.
constexpr size_t kIdsShown = 10;

std::string ListIds(const std::vector<std::string>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size() && i < kIdsShown; ++i) out += (i ? ", " : "") + ids[i];
  if (ids.size() > kIdsShown) out += " and " + std::to_string(ids.size() - kIdsShown) + " more";
  return out;
}

}  // namespace

size_t FindExplainedJob(const Outcomes& jobs, std::string_view job, std::string* error) {
  const size_t none = jobs.size();
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i].id == job) return i;
  }
  size_t by_name = none;
  std::vector<std::string> named_ids;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobOutcome o = jobs[i];
    if (!o.name || *o.name != job) continue;
    const std::string id = o.id ? std::string(*o.id) : std::string();
    bool seen = false;
    for (const auto& known : named_ids) seen = seen || known == id;
    if (seen) continue;
    if (named_ids.empty()) by_name = i;
    named_ids.push_back(id);
  }
  if (named_ids.size() == 1) return by_name;
  if (named_ids.size() > 1) {
    *error = "'" + std::string(job) + "' is the name of " + std::to_string(named_ids.size()) +
             " tasks: " + ListIds(named_ids) + "; explain one by its id";
    return none;
  }
  std::vector<std::string> ids;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobOutcome o = jobs[i];
    if (o.id) ids.emplace_back(*o.id);
  }
  std::string close = ClosestMatch(job, ids);
  *error = "no job '" + std::string(job) + "' in the jobs file" + (close.empty() ? "" : "; did you mean '" + close + "'?");
  return none;
}

}  // namespace rescfg
