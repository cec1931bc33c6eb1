/// The explanation of one job as text for people and JSON for scripts.

#include "config/human_amount.h"
#include "explain/explain.h"
#include "util/json_writer.h"

namespace rescfg {
namespace {

std::string Describe(const Explanation& e) {
  std::string out = e.job + ": " + e.status;
  if (e.status == "assigned") out += " to " + e.pool + " (placement " + std::to_string(*e.placed_at) + ")";
  if (e.status == "running") out += " in " + e.pool;
  if (!e.reason.empty()) out += " (" + e.reason + ")";
  return out;
}

std::string NeedText(const Explanation& e) {
  if (!e.need) return "";
  std::string from = e.need_source == "parameter"  ? "from its dynamic parameter"
                     : e.need_source == "fallback" ? "the profile's allotment, since its dynamic parameter is not an amount"
                     : e.need_source == "holding"  ? "what it holds"
                                                   : "the profile's allotment";
  return HumanAmount(*e.need) + " (" + from + ")";
}

}  // namespace

std::string RenderExplanationText(const Explanation& e) {
  std::string out = Describe(e) + "\n";
  out += "  policy " + (e.policy.empty() ? "-" : e.policy) + ", profile " + (e.profile.empty() ? "-" : e.profile);
  if (!e.queue.empty()) out += ", queue " + e.queue;
  out += ", entry " + std::to_string(e.entry) + "\n";
  if (e.need) out += "  needs " + NeedText(e) + "\n";
  if (!e.need_note.empty()) out += "  " + e.need_note + "\n";
  if (e.machines_estimated) {
    out += "  machines estimated: Kubernetes or an autoscaler places the machines of " + e.pool +
           " (nodes.names: none); running tasks are counted where a new task of their need would go\n";
  }
  if (!e.pools.empty()) {
    out += "\nLinked pools, in link order:\n";
    for (size_t i = 0; i < e.pools.size(); ++i) {
      const ExplainedPool& p = e.pools[i];
      out += "  " + std::to_string(i + 1) + ". " + p.pool;
      std::string about = p.link.empty() ? "" : "link \"" + p.link + "\", ";
      out += " (" + about + "queue " + p.queue + ", size " + HumanAmount(p.size) + (p.paused ? ", paused" : "") + ")\n";
      out += "     free: " + HumanAmount(p.free_at_start, p.size, p.gpu_fractions) + " at the start of the pass, ";
      // What another pool had free when the job went elsewhere reads as if
      // it had been offered there; say where it went instead.
      if (!e.placed_at) {
        out += HumanAmount(p.free_when_decided, p.size, p.gpu_fractions) + " at the end";
      } else if (p.pool == e.pool) {
        out += HumanAmount(p.free_when_decided, p.size, p.gpu_fractions) + " when it was placed";
      } else {
        out += "was placed elsewhere (" + e.pool + ")";
      }
      if (p.largest_free_when_decided) {
        out += " (at most " + HumanAmount(*p.largest_free_when_decided, p.size, p.gpu_fractions) + " on one machine" +
               (p.machines_estimated ? ", machines estimated)" : ")");
      }
      out += "; " + p.verdict + "\n";
      if (p.ahead_total == 0) {
        out += "     nothing was placed there before it\n";
        continue;
      }
      out += "     placed there before it (" + std::to_string(p.ahead_total) + "):\n";
      for (const AheadJob& a : p.ahead) {
        out += "       " + a.job + " (" + a.policy + ", " + a.profile + ", " + HumanAmount(a.resources) + ") — " +
               AheadRuleName(a.rule) + ": " + a.detail + "\n";
      }
      if (p.ahead.size() < p.ahead_total) {
        out += "       ... and " + std::to_string(p.ahead_total - p.ahead.size()) + " more\n";
      }
    }
  }
  if (e.status == "pending" || e.status == "rejected") out += "\nReason: " + e.reason + ": " + e.message + "\n";
  if (e.status == "running" && !e.message.empty()) out += "\nNote: " + e.message + "\n";
  if (e.preemption) out += RenderPreemptionText(*e.preemption);
  return out;
}

std::string RenderExplanationJson(const Explanation& e) {
  JsonWriter json(2);
  auto text_or_null = [&](const char* key, const std::string& value) {
    json.Key(key);
    if (value.empty()) json.Null(); else json.String(value);
  };
  json.BeginObject().Field("kind", "Explanation").Field("job", e.job).Field("entry", e.entry).Field("status", e.status);
  text_or_null("policy", e.policy);
  text_or_null("profile", e.profile);
  text_or_null("queue", e.queue);
  json.Key("resources");
  if (e.need) json.Amount(*e.need); else json.Null();
  text_or_null("needSource", e.need_source);
  text_or_null("pool", e.pool);
  json.Key("placement");
  if (e.placed_at) json.Int(static_cast<int64_t>(*e.placed_at)); else json.Null();
  if (e.machines_estimated) json.Field("machinesEstimated", true);
  json.Key("pools").BeginArray();
  for (const ExplainedPool& p : e.pools) {
    json.BeginObject().Field("pool", p.pool);
    text_or_null("link", p.link);
    json.Field("queue", p.queue).Key("size").Amount(p.size).Field("paused", p.paused);
    json.Key("freeAtStart").Amount(p.free_at_start).Key("freeWhenDecided").Amount(p.free_when_decided);
    if (p.largest_free_when_decided) json.Key("largestFreeWhenDecided").Amount(*p.largest_free_when_decided);
    if (p.machines_estimated) json.Field("machinesEstimated", true);
    json.Field("verdict", p.verdict).Field("aheadTotal", p.ahead_total);
    json.Key("ahead").BeginArray();
    for (const AheadJob& a : p.ahead) {
      json.BeginObject().Field("job", a.job).Field("policy", a.policy).Field("profile", a.profile);
      json.Key("resources").Amount(a.resources).Field("rule", AheadRuleName(a.rule)).Field("detail", a.detail);
      json.EndObject();
    }
    json.EndArray().EndObject();
  }
  json.EndArray();
  text_or_null("reason", e.reason);
  text_or_null("message", e.message);
  if (e.preemption) {
    json.Key("preemption");
    WritePreemptionJson(*e.preemption, json);
  }
  json.EndObject();
  return json.str() + "\n";
}

}  // namespace rescfg
