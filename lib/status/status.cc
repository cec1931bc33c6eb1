#include "status/status.h"

#include "output/json_writer.h"
#include "output/text_table.h"

namespace rescfg {
namespace {

std::string Ranked(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += "  ";
    out += std::to_string(i + 1) + ". " + names[i];
  }
  return out.empty() ? "-" : out;
}

std::vector<std::string> Names(const std::optional<std::vector<NameRef>>& refs) {
  std::vector<std::string> out;
  for (const auto& r : refs.value_or(std::vector<NameRef>{})) out.push_back(r.name);
  return out;
}

}  // namespace

StatusReport BuildStatus(const Config& config, const ScheduleReport& schedule, std::string source,
                         bool with_jobs) {
  StatusReport status;
  status.source = std::move(source);
  status.enabled = config.enabled;
  status.with_jobs = with_jobs;
  for (const auto& pool : config.pools) {
    PoolCard card{pool.name, pool.queue, pool.resources, Quantity(), pool.resources,
                  Names(pool.execution_priority)};
    for (const auto& summary : schedule.pools) {
      if (summary.name == pool.name) {
        card.in_use = summary.in_use;
        card.free = summary.free;
      }
    }
    status.pools.push_back(std::move(card));
  }
  for (const auto& profile : config.profiles) {
    ProfileCard card;
    card.name = profile.name;
    card.allotment = profile.allotment;
    card.dynamic_parameter = profile.dynamic_parameter;
    card.queueing = profile.queueing;
    card.links = profile.links;
    card.policies = Names(profile.policy_priority);
    for (const auto& job : schedule.jobs) {
      if (job.profile != profile.name) continue;
      if (job.status == JobStatus::kRunning) ++card.running;
      if (job.status == JobStatus::kAssigned) ++card.assigned;
      if (job.status == JobStatus::kPending) ++card.pending;
    }
    status.profiles.push_back(std::move(card));
  }
  return status;
}

std::string RenderStatusTable(const StatusReport& status) {
  std::string out = "Configuration: " + status.source + (status.enabled ? "" : " (disabled)") + "\n\n";
  TextTable pools({"POOL", "IN USE", "SIZE", "FREE", "QUEUE", "EXECUTION PRIORITY"});
  pools.SetAlign(1, TextTable::Align::kRight);
  pools.SetAlign(2, TextTable::Align::kRight);
  pools.SetAlign(3, TextTable::Align::kRight);
  for (const auto& p : status.pools) {
    std::string in_use = status.with_jobs ? p.in_use.ToString() : "-";
    std::string free = status.with_jobs ? p.free.ToString() : "-";
    pools.AddRow({p.name, in_use, p.size.ToString(), free, p.queue,
                  Ranked(p.execution_priority)});
  }
  out += pools.Render() + "\n";
  TextTable profiles({"PROFILE", "ALLOTMENT", "QUEUEING", "LINKS (PRECEDENCE)", "RUNNING", "ASSIGNED",
                      "PENDING", "POLICIES (PRIORITY)"});
  for (size_t c : {4, 5, 6}) profiles.SetAlign(c, TextTable::Align::kRight);
  for (const auto& p : status.profiles) {
    std::string allotment = p.allotment.ToString();
    if (p.dynamic_parameter) allotment = *p.dynamic_parameter + " (default " + allotment + ")";
    std::vector<std::string> links;
    for (const auto& l : p.links) links.push_back(l.name.empty() ? l.pool : l.pool + " (" + l.name + ")");
    auto count = [&](size_t n) { return status.with_jobs ? std::to_string(n) : std::string("-"); };
    profiles.AddRow({p.name, allotment, QueueingName(p.queueing), Ranked(links), count(p.running),
                     count(p.assigned), count(p.pending), Ranked(p.policies)});
  }
  out += profiles.Render();
  return out;
}

std::string RenderStatusJson(const StatusReport& status) {
  JsonWriter json(2);
  json.BeginObject().Field("kind", "Status").Field("source", status.source).Field("enabled", status.enabled);
  json.Key("pools").BeginArray();
  for (const auto& p : status.pools) {
    json.BeginObject().Field("name", p.name).Field("queue", p.queue);
    json.Key("size").Amount(p.size);
    if (status.with_jobs) {
      json.Key("inUse").Amount(p.in_use).Key("free").Amount(p.free);
    } else {
      json.Key("inUse").Null().Key("free").Null();
    }
    json.Key("executionPriority").BeginArray();
    for (const auto& name : p.execution_priority) json.String(name);
    json.EndArray().EndObject();
  }
  json.EndArray();
  json.Key("profiles").BeginArray();
  for (const auto& p : status.profiles) {
    json.BeginObject().Field("name", p.name).Key("allotment").Amount(p.allotment);
    json.Key("dynamicParameter");
    if (p.dynamic_parameter) json.String(*p.dynamic_parameter); else json.Null();
    json.Field("queueing", QueueingName(p.queueing));
    json.Key("links").BeginArray();
    for (size_t i = 0; i < p.links.size(); ++i) {
      json.BeginObject().Field("rank", i + 1).Field("pool", p.links[i].pool).Key("name");
      if (p.links[i].name.empty()) json.Null(); else json.String(p.links[i].name);
      json.EndObject();
    }
    json.EndArray();
    json.Key("policyPriority").BeginArray();
    for (const auto& name : p.policies) json.String(name);
    json.EndArray();
    for (const char* key : {"running", "assigned", "pending"}) {
      size_t n = key[0] == 'r' ? p.running : key[0] == 'a' ? p.assigned : p.pending;
      json.Key(key);
      if (status.with_jobs) json.Int(static_cast<int64_t>(n)); else json.Null();
    }
    json.EndObject();
  }
  json.EndArray().EndObject();
  return json.str() + "\n";
}

}  // namespace rescfg
