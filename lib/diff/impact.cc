#include "diff/impact.h"

#include <algorithm>

namespace rescfg {
namespace {

bool SameOutcome(const JobOutcome& a, const JobOutcome& b) {
  return a.status == b.status && a.pool == b.pool && a.reason == b.reason;
}

std::optional<std::string> Owned(TextRef t) {
  if (!t) return std::nullopt;
  return std::string(*t);
}

OutcomeSummary Summary(const JobOutcome& o) { return {o.status, Owned(o.pool), Owned(o.reason),
                                                      HasMessage(o) ? std::optional(MessageOf(o)) : std::nullopt, {}, false}; }

std::string Describe(const OutcomeSummary& o) {
  std::string out = JobStatusName(o.status);
  if (o.pool) out += (o.status == JobStatus::kRunning ? " in " : " to ") + JsonQuote(*o.pool);
  if (o.reason) out += " (" + *o.reason + ")";
  return out + PreemptionPartText(o.preemption);
}

void WriteOutcome(const OutcomeSummary& o, JsonWriter& json) {
  json.BeginObject().Field("status", JobStatusName(o.status));
  json.Key("pool");
  if (o.pool) json.String(*o.pool); else json.Null();
  json.Key("reason");
  if (o.reason) json.String(*o.reason); else json.Null();
  json.Key("message");
  if (o.message) json.String(*o.message); else json.Null();
  if (o.with_preemption) WritePreemptionPartJson(o.preemption, json);
  json.EndObject();
}

}  // namespace

std::vector<std::string> ImpactParameterPaths(const Config& old_config, const Config& new_config) {
  std::vector<std::string> paths = DynamicParameterPaths(old_config);
  for (auto& p : DynamicParameterPaths(new_config)) paths.push_back(std::move(p));
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

std::vector<JobImpact> ComputeImpact(const Config& old_config, const Config& new_config,
                                     const std::vector<JobEntry>& entries, int64_t now_us,
                                     PreemptionImpact* preemption) {
  ScheduleReport before = BuildSchedule(old_config, entries, now_us);
  ScheduleReport after = BuildSchedule(new_config, entries, now_us);
  const PreemptionImpact counts = CountPreemptionImpact(before, after);
  if (preemption) *preemption = counts;
  std::vector<JobImpact> impact;
  for (size_t i = 0; i < before.jobs.size() && i < after.jobs.size(); ++i) {
    PreemptionPart was = PreemptionPartOf(before, i), is = PreemptionPartOf(after, i);
    if (SameOutcome(before.jobs[i], after.jobs[i]) && was == is) continue;
    impact.push_back({after.jobs[i].entry, Owned(after.jobs[i].id), Summary(before.jobs[i]), Summary(after.jobs[i])});
    impact.back().before.preemption = std::move(was);
    impact.back().after.preemption = std::move(is);
    impact.back().before.with_preemption = impact.back().after.with_preemption = counts.shown();
  }
  return impact;
}

std::string RenderImpactText(const std::vector<JobImpact>& impact) {
  if (impact.empty()) return "No job would be placed or wait differently.\n";
  std::string out;
  for (const auto& j : impact) {
    std::string name = j.id ? *j.id : "entry " + std::to_string(j.entry);
    out += "  " + name + ": " + Describe(j.before) + " -> " + Describe(j.after) + "\n";
  }
  return out;
}

void RenderImpactMarkdown(const std::vector<JobImpact>& impact, MarkdownDocument& doc) {
  if (impact.empty()) {
    doc.Add("No job would be placed or wait differently.");
    return;
  }
  MarkdownTable table({"Job", "Before", "After", "Why, after"});
  for (const auto& j : impact) {
    table.AddRow({j.id ? MarkdownCode(*j.id) : "entry " + std::to_string(j.entry), MarkdownText(Describe(j.before)),
                  MarkdownText(Describe(j.after)), MarkdownText(j.after.message.value_or(""))});
  }
  doc.Add(table, "jobs");
}

void WriteImpactJson(const std::vector<JobImpact>& impact, JsonWriter& json) {
  json.BeginArray();
  for (const auto& j : impact) {
    json.BeginObject();
    json.Key("job");
    if (j.id) json.String(*j.id); else json.Null();
    json.Field("entry", j.entry);
    json.Key("before");
    WriteOutcome(j.before, json);
    json.Key("after");
    WriteOutcome(j.after, json);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace rescfg
