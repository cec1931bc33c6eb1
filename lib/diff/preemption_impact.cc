#include "diff/preemption_impact.h"

#include <algorithm>

#include "decide/preemption_report.h"

namespace rescfg {
namespace {

std::string Id(const ScheduleReport& r, size_t job) { return std::string(r.jobs[job].id.value_or("?")); }

PreemptionCounts Counts(const ScheduleReport& r) {
  PreemptionCounts c;
  c.configured = r.preemption;
  c.preemptors = r.preemptions.size();
  for (const PreemptionOutcome& p : r.preemptions) {
    c.victims += p.victims.size();
    c.awaiting += p.awaiting.size();
  }
  return c;
}

std::string Side(const PreemptionCounts& c) {
  if (!c.configured) return "none (preemption off)";
  std::string out = std::to_string(c.preemptors) + (c.preemptors == 1 ? " preemptor" : " preemptors") + ", " +
                    std::to_string(c.victims) + (c.victims == 1 ? " victim" : " victims");
  if (c.awaiting) out += ", " + std::to_string(c.awaiting) + " awaited stopping";
  return out;
}

void WriteSide(const PreemptionCounts& c, JsonWriter& json) {
  json.BeginObject().Field("configured", c.configured).Field("preemptors", c.preemptors);
  json.Field("victims", c.victims).Field("awaiting", c.awaiting).EndObject();
}

}  // namespace

PreemptionPart PreemptionPartOf(const ScheduleReport& report, size_t job) {
  PreemptionPart part;
  if (report.preemptions.empty()) return part;
  if (auto* v = FindDecision(report.victim_of, job)) part.preempted_for = Id(report, report.preemptions[v->second].job);
  if (auto* p = FindDecision(report.preemptor_of, job)) {
    for (size_t k : report.preemptions[p->second].victims) part.victims.push_back(Id(report, k));
  }
  return part;
}

PreemptionImpact CountPreemptionImpact(const ScheduleReport& before, const ScheduleReport& after) {
  return {Counts(before), Counts(after)};
}

std::string PreemptionPartText(const PreemptionPart& part) {
  if (part.preempted_for) return " (preempted for " + *part.preempted_for + ")";
  if (part.victims.empty()) return "";
  std::string out = " (stops ";
  for (size_t k = 0; k < part.victims.size(); ++k) out += (k ? ", " : "") + part.victims[k];
  return out + ")";
}

void WritePreemptionPartJson(const PreemptionPart& part, JsonWriter& json) {
  json.Key("preemptedFor");
  if (part.preempted_for) json.String(*part.preempted_for); else json.Null();
  json.Key("victims").BeginArray();
  for (const auto& id : part.victims) json.String(id);
  json.EndArray();
}

std::string RenderPreemptionImpactText(const PreemptionImpact& impact) {
  if (!impact.shown()) return "";
  return "Preemptions: " + Side(impact.before) + " -> " + Side(impact.after) + "\n";
}

void RenderPreemptionImpactMarkdown(const PreemptionImpact& impact, MarkdownDocument& doc) {
  if (!impact.shown()) return;
  doc.Add("Preemptions: " + MarkdownText(Side(impact.before)) + " → " + MarkdownText(Side(impact.after)));
}

void WritePreemptionImpactJson(const PreemptionImpact& impact, JsonWriter& json) {
  json.BeginObject().Key("before");
  WriteSide(impact.before, json);
  json.Key("after");
  WriteSide(impact.after, json);
  json.EndObject();
}

}  // namespace rescfg
