#include "output/preemption_output.h"

#include <algorithm>

#include "config/human_amount.h"
#include "util/text_table.h"

namespace rescfg {
namespace {

const std::pair<size_t, uint32_t>* Find(const std::vector<std::pair<size_t, uint32_t>>& marks, size_t job) {
  auto it = std::lower_bound(marks.begin(), marks.end(), std::pair<size_t, uint32_t>{job, 0});
  return it != marks.end() && it->first == job ? &*it : nullptr;
}

/// A JSON (or YAML flow) list of the entries' ids.
std::string IdList(const ScheduleReport& r, const std::vector<size_t>& jobs) {
  std::string out = "[";
  for (size_t k = 0; k < jobs.size(); ++k) {
    if (k) out += ", ";
    AppendJsonString(&out, *r.jobs[jobs[k]].id);
  }
  return out + "]";
}

}  // namespace

void PreemptionRecord(FlatRecord& rec, const ScheduleReport& r, const PreemptionOutcome& p, RecordStyle style) {
  const JobOutcome j = r.jobs[p.job];
  rec.Add("job", j.id).Add("policy", j.policy).Add("profile", j.profile).Add("pool", p.pool).Add("resources", j.resources);
  std::string victims = "[";
  for (size_t k = 0; k < p.victims.size(); ++k) {
    if (k) victims += ", ";
    const JobOutcome v = r.jobs[p.victims[k]];
    FlatRecord item(&victims, style);
    item.Add("job", v.id).Add("policy", v.policy).Add("profile", v.profile).Add("resources", v.resources).Add("node", v.node);
    if (p.victim_started[k].empty()) {
      item.Null("started");
    } else {
      item.Add("started", p.victim_started[k]);
    }
  }
  rec.Raw("victims", victims + "]");
  rec.Raw("awaiting", IdList(r, p.awaiting));
}

bool HasPreemptionFields(const ScheduleReport& r, size_t job) {
  if (r.preemptions.empty()) return false;
  return Find(r.victim_of, job) != nullptr || Find(r.preemptor_of, job) != nullptr;
}

void PreemptionFields(FlatRecord& rec, const ScheduleReport& r, size_t job) {
  if (auto* v = Find(r.victim_of, job)) rec.Add("preemptedFor", r.jobs[r.preemptions[v->second].job].id);
  if (auto* p = Find(r.preemptor_of, job)) rec.Raw("victims", IdList(r, r.preemptions[p->second].victims));
}

std::string PreemptionTable(const ScheduleReport& r) {
  if (r.preemptions.empty()) return "";
  TextTable table({"PREEMPTOR", "POLICY", "POOL", "RESOURCES", "VICTIM", "VICTIM POLICY", "HOLDS"});
  for (const PreemptionOutcome& p : r.preemptions) {
    const JobOutcome j = r.jobs[p.job];
    auto row = [&](size_t victim, const char* note) {
      const JobOutcome v = r.jobs[victim];
      table.AddRow({std::string(*j.id), std::string(*j.policy), std::string(p.pool),
                    j.resources ? HumanAmount(*j.resources) : "-", std::string(*v.id) + note,
                    v.policy ? std::string(*v.policy) : "-", v.resources ? HumanAmount(*v.resources) : "-"});
    };
    for (size_t v : p.victims) row(v, "");
    for (size_t v : p.awaiting) row(v, " (stopping)");
  }
  return table.Render();
}

}  // namespace rescfg
