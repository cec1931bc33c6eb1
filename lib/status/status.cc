#include "status/status.h"

#include <map>

#include "config/human_amount.h"
#include "status/preemption_status.h"
#include "util/json_writer.h"
#include "util/text_table.h"

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

/// The linked profiles of `pool` in its execution priority order.
std::vector<PoolProfile> ProfilesOf(const Config& config, const Pool& pool) {
  std::vector<PoolProfile> out;
  for (const std::string& name : Names(pool.execution_priority)) {
    const Profile* profile = config.FindProfile(name);
    if (profile == nullptr) continue;
    for (const Link& link : profile->links) {
      if (link.pool != pool.name) continue;
      out.push_back({profile->name, profile->allotment, profile->dynamic_parameter, link.queue, link.name});
    }
  }
  return out;
}

/// Under the machines table when a pool's machines are estimated.
constexpr const char* kEstimatedMachines =
    "estimated: Kubernetes or an autoscaler places these machines (nodes.names: none); running tasks are\n"
    "counted where a new task of their need would go, not on the machine that runs them.\n";

std::string Allocation(const Quantity& allotment, const std::optional<std::string>& dynamic) {
  return dynamic ? *dynamic + " (default " + HumanAmount(allotment) + ")" : HumanAmount(allotment);
}

}  // namespace

StatusReport BuildStatus(const Config& config, const ScheduleReport& schedule, std::string source,
                         bool with_jobs) {
  StatusReport status;
  status.source = std::move(source);
  status.enabled = config.enabled;
  status.with_jobs = with_jobs;
  for (size_t x = 0; x < config.pools.size(); ++x) {
    const Pool& pool = config.pools[x];
    PoolCard card{pool.name, pool.queue, pool.resources, Quantity(), pool.paused ? Quantity() : pool.resources,
                  pool.paused, Names(pool.execution_priority), ProfilesOf(config, pool), {}, {}, {}, {}};
    card.nodes = pool.nodes;
    if (pool.nodes) {
      const Quantity machine = Quantity::Units(pool.nodes->gpus);
      card.machine_free.assign(static_cast<size_t>(pool.nodes->count), pool.paused ? Quantity() : machine);
      card.largest_free = pool.paused ? Quantity() : machine;
    }
    card.gpu_fractions = pool.gpu_fractions;
    if (x < schedule.pools.size()) {
      card.in_use = schedule.pools[x].in_use;
      card.free = schedule.pools[x].free;
      if (pool.nodes) {
        card.machine_free = schedule.pools[x].machine_free;
        card.largest_free = schedule.pools[x].largest_free;
      }
    }
    status.pools.push_back(std::move(card));
  }
  std::map<std::string_view, ProfileCard*> profiles;
  for (const auto& profile : config.profiles) {
    ProfileCard card;
    card.name = profile.name;
    card.allotment = profile.allotment;
    card.dynamic_parameter = profile.dynamic_parameter;
    card.queueing = profile.queueing;
    card.links = profile.links;
    card.policies = Names(profile.policy_priority);
    status.profiles.push_back(std::move(card));
  }
  for (auto& card : status.profiles) profiles.emplace(card.name, &card);
  std::map<std::string_view, TeamCard*> teams;
  for (size_t p = 0; p < config.policies.size(); ++p) {
    const Policy& policy = config.policies[p];
    TeamCard card{policy.name, policy.reserved, policy.limit, Quantity(), policy.paused, false, 0, 0, 0, 0, 0, 0};
    if (p < schedule.policies.size()) {
      card.used = schedule.policies[p].used;
      card.over_limit = schedule.policies[p].over_limit;
    }
    status.teams.push_back(std::move(card));
  }
  for (auto& card : status.teams) teams.emplace(card.name, &card);
  // One walk over the jobs counts for every card.
  for (const auto& job : schedule.jobs) {
    auto count = [&](auto* card) {
      switch (job.status) {
        case JobStatus::kRunning: ++card->running; break;
        case JobStatus::kAssigned: ++card->assigned; break;
        case JobStatus::kPending: ++card->pending; break;
        case JobStatus::kRejected: break;
      }
    };
    if (job.profile) {
      if (auto it = profiles.find(*job.profile); it != profiles.end()) count(it->second);
    }
    if (job.policy) {
      if (auto it = teams.find(*job.policy); it != teams.end()) {
        count(it->second);
        // A rejected entry counts for the team it names.
        if (job.status == JobStatus::kRejected) ++it->second->rejected;
      }
    }
  }
  CountPreemptions(schedule, &status);
  return status;
}

std::string RenderStatusTable(const StatusReport& status) {
  std::string out = "Configuration: " + status.source + (status.enabled ? "" : " (disabled)") + "\n\n";
  auto dash = [&](const std::string& text) { return status.with_jobs ? text : std::string("-"); };
  TextTable pools({"POOL", "IN USE", "SIZE", "FREE", "QUEUE", "STATE", "EXECUTION PRIORITY"});
  for (size_t c : {1, 2, 3}) pools.SetAlign(c, TextTable::Align::kRight);
  for (const auto& p : status.pools) {
    pools.AddRow({p.name, dash(HumanAmount(p.in_use, p.size, p.gpu_fractions)), HumanAmount(p.size),
                  dash(HumanAmount(p.free, p.size, p.gpu_fractions)), p.queue,
                  p.paused ? "paused" : "open", Ranked(p.execution_priority)});
  }
  out += pools.Render() + "\n";
  // Pools made of machines: where the free GPUs are (a job runs on one
  // machine unless it takes whole machines).
  TextTable machines({"POOL", "MACHINES", "LARGEST FREE", "FREE PER MACHINE"});
  machines.SetAlign(2, TextTable::Align::kRight);
  bool any_machines = false, any_estimated = false;
  for (const auto& p : status.pools) {
    if (!p.nodes) continue;
    any_machines = true;
    // Kubernetes or an autoscaler places them: which task runs on which is estimated.
    const bool estimated = !p.nodes->names_from_workers;
    any_estimated |= estimated;
    std::string each;
    for (const Quantity& free : p.machine_free) each += (each.empty() ? "" : " ") + free.ToString();
    machines.AddRow({p.name,
                     std::to_string(p.nodes->count) + " x " + std::to_string(p.nodes->gpus) + " GPUs" +
                         (estimated ? ", estimated" : ""),
                     dash(p.largest_free.ToString()), dash(each)});
  }
  if (any_machines) out += machines.Render();
  if (any_estimated) out += kEstimatedMachines;
  if (any_machines) out += "\n";
  TextTable served({"POOL", "PROFILE", "ALLOCATION PER TASK", "QUEUE", "LINK"});
  for (const auto& p : status.pools) {
    for (const auto& profile : p.profiles) {
      served.AddRow({p.name, profile.profile, Allocation(profile.allocation, profile.dynamic_parameter), profile.queue,
                     profile.link.empty() ? "-" : profile.link});
    }
  }
  if (served.rows() > 0) out += served.Render() + "\n";
  TextTable profiles({"PROFILE", "ALLOTMENT", "QUEUEING", "LINKS (PRECEDENCE)", "RUNNING", "ASSIGNED",
                      "PENDING", "POLICIES (PRIORITY)"});
  for (size_t c : {4, 5, 6}) profiles.SetAlign(c, TextTable::Align::kRight);
  for (const auto& p : status.profiles) {
    std::vector<std::string> links;
    for (const auto& l : p.links) links.push_back(l.name.empty() ? l.pool : l.pool + " (" + l.name + ")");
    profiles.AddRow({p.name, Allocation(p.allotment, p.dynamic_parameter), QueueingName(p.queueing), Ranked(links),
                     dash(std::to_string(p.running)), dash(std::to_string(p.assigned)), dash(std::to_string(p.pending)),
                     Ranked(p.policies)});
  }
  out += profiles.Render() + "\n";
  std::vector<std::string> team_columns{"TEAM", "RESERVED", "LIMIT", "USED", "RUNNING", "ASSIGNED", "PENDING", "REJECTED"};
  if (status.preemption) team_columns.insert(team_columns.end(), {"STOPPING", "PREEMPTED"});
  team_columns.push_back("STATE");
  TextTable teams(team_columns);
  for (size_t c = 1; c + 1 < team_columns.size(); ++c) teams.SetAlign(c, TextTable::Align::kRight);
  for (const auto& t : status.teams) {
    std::string state = t.paused ? "paused" : "open";
    if (t.over_limit) state += ", above its limit";
    std::vector<std::string> row{t.name, HumanAmount(t.reserved), t.limit ? HumanAmount(*t.limit) : "none",
                                 dash(HumanAmount(t.used)), dash(std::to_string(t.running)),
                                 dash(std::to_string(t.assigned)), dash(std::to_string(t.pending)),
                                 dash(std::to_string(t.rejected))};
    if (status.preemption) row.insert(row.end(), {dash(std::to_string(t.stopping)), dash(std::to_string(t.preempted))});
    row.push_back(state);
    teams.AddRow(row);
  }
  out += teams.Render();
  return out;
}

std::string RenderStatusJson(const StatusReport& status) {
  JsonWriter json(2);
  json.BeginObject().Field("kind", "Status").Field("source", status.source).Field("enabled", status.enabled);
  auto count = [&](const char* key, size_t n) {
    json.Key(key);
    if (status.with_jobs) json.Int(static_cast<int64_t>(n)); else json.Null();
  };
  auto amount = [&](const char* key, Quantity q) {
    json.Key(key);
    if (status.with_jobs) json.Amount(q); else json.Null();
  };
  json.Key("pools").BeginArray();
  for (const auto& p : status.pools) {
    json.BeginObject().Field("name", p.name).Field("queue", p.queue);
    json.Key("size").Amount(p.size);
    amount("inUse", p.in_use);
    amount("free", p.free);
    json.Field("paused", p.paused);
    if (p.nodes) {
      json.Key("nodes").BeginObject().Field("count", p.nodes->count).Field("gpus", p.nodes->gpus).EndObject();
      if (!p.nodes->names_from_workers) json.Field("machinesEstimated", true);
      amount("largestFree", p.largest_free);
      json.Key("machineFree");
      if (status.with_jobs) {
        json.BeginArray();
        for (const Quantity& free : p.machine_free) json.Amount(free);
        json.EndArray();
      } else {
        json.Null();
      }
    }
    json.Key("executionPriority").BeginArray();
    for (const auto& name : p.execution_priority) json.String(name);
    json.EndArray();
    json.Key("profiles").BeginArray();
    for (const auto& profile : p.profiles) {
      json.BeginObject().Field("profile", profile.profile).Key("allocation").Amount(profile.allocation);
      json.Key("dynamicParameter");
      if (profile.dynamic_parameter) json.String(*profile.dynamic_parameter); else json.Null();
      json.Field("queue", profile.queue).Key("link");
      if (profile.link.empty()) json.Null(); else json.String(profile.link);
      json.EndObject();
    }
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
      json.Field("queue", p.links[i].queue).EndObject();
    }
    json.EndArray();
    json.Key("policyPriority").BeginArray();
    for (const auto& name : p.policies) json.String(name);
    json.EndArray();
    count("running", p.running);
    count("assigned", p.assigned);
    count("pending", p.pending);
    json.EndObject();
  }
  json.EndArray();
  json.Key("teams").BeginArray();
  for (const auto& t : status.teams) {
    json.BeginObject().Field("name", t.name).Key("reserved").Amount(t.reserved).Key("limit");
    if (t.limit) json.Amount(*t.limit); else json.Null();
    amount("used", t.used);
    json.Field("paused", t.paused);
    json.Key("overLimit");
    if (status.with_jobs) json.Bool(t.over_limit); else json.Null();
    count("running", t.running);
    count("assigned", t.assigned);
    count("pending", t.pending);
    count("rejected", t.rejected);
    if (status.preemption) {
      count("stopping", t.stopping);
      count("preempted", t.preempted);
    }
    json.EndObject();
  }
  json.EndArray().EndObject();
  return json.str() + "\n";
}

}  // namespace rescfg
