#include "jobs/resolve.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "jobs/time.h"

namespace rescfg {
namespace {

struct QueueTarget {
  uint32_t policy, profile;
};

/// Name lookups built once per configuration. Keys view the configuration's
/// own strings (queue names not written out are kept in `default_queues`),
/// so the configuration must outlive the directory.
struct Directory {
  explicit Directory(const Config& config) {
    pools.reserve(config.pools.size());
    profiles.reserve(config.profiles.size());
    policies.reserve(config.policies.size());
    for (uint32_t i = 0; i < config.pools.size(); ++i) pools.emplace(config.pools[i].name, i);
    for (uint32_t i = 0; i < config.profiles.size(); ++i) profiles.emplace(config.profiles[i].name, i);
    for (uint32_t i = 0; i < config.policies.size(); ++i) {
      policies.emplace(config.policies[i].name, i);
      for (const auto& entry : config.policies[i].profiles) {
        auto profile = profiles.find(entry.profile);
        if (profile == profiles.end()) continue;
        std::string_view queue;
        if (entry.queue) {
          queue = *entry.queue;
        } else {
          queue = default_queues.emplace_back(DefaultPolicyQueue(config.policies[i].name, entry.profile));
        }
        queues.emplace(queue, QueueTarget{i, profile->second});
        allowed.insert(Pair(i, profile->second));
      }
    }
  }
  template <typename Map>
  static std::optional<typename Map::mapped_type> Find(const Map& map, const std::optional<std::string>& name) {
    if (!name) return std::nullopt;
    auto it = map.find(std::string_view(*name));
    if (it == map.end()) return std::nullopt;
    return it->second;
  }
  bool Allowed(uint32_t policy, uint32_t profile) const { return allowed.count(Pair(policy, profile)) > 0; }
  static uint64_t Pair(uint32_t policy, uint32_t profile) { return (uint64_t(policy) << 32) | profile; }

  std::deque<std::string> default_queues;  ///< stable addresses for the views below
  std::unordered_map<std::string_view, uint32_t> pools, profiles, policies;
  std::unordered_map<std::string_view, QueueTarget> queues;
  std::unordered_set<uint64_t> allowed;  ///< Pair(policy, profile) the policy lists
};

/// A job's need (SPEC §3): the allotment, or for a dynamic profile the
/// parameter's value when it is a valid quantity > 0.
Quantity NeedOf(const Profile& profile, const JobEntry& entry, std::string_view* source, std::string* note) {
  *source = "allotment";
  if (!profile.dynamic_parameter) return profile.allotment;
  for (const ParamValue& param : entry.params) {
    if (param.path != *profile.dynamic_parameter) continue;
    if (param.text) {
      QuantityError error;
      auto value = ParseQuantity(*param.text, &error);
      if (value && !value->is_zero()) {
        *source = "parameter";
        return *value;
      }
      *note = "parameter " + param.path + " = '" + param.text->substr(0, 40) + "' is not a valid amount (" +
              (value ? std::string("must be greater than 0") : error.message) + "); using the allotment " +
              profile.allotment.ToString();
    } else {
      *note = "parameter " + param.path + " is not a single value; using the allotment " + profile.allotment.ToString();
    }
    *source = "fallback";
    return profile.allotment;
  }
  return profile.allotment;
}

/// Marks the outcome rejected; the message starts with the entry's line so
/// the user can find it in the file.
void Reject(JobOutcome* out, const JobEntry& entry, const char* reason, std::string message) {
  out->status = JobStatus::kRejected;
  out->reason = reason;
  // Readers already name the line of a problem with the whole entry.
  const bool named = message.rfind("line ", 0) == 0;
  out->message = entry.mark.line > 0 && !named ? "line " + std::to_string(entry.mark.line) + ": " + message : message;
  out->pool.reset();
  out->queue.reset();
  out->resources.reset();
  out->link.reset();
}

}  // namespace

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries) {
  Directory dir(config);
  ResolvedJobs resolved;
  resolved.outcomes.resize(entries.size());
  std::unordered_set<std::string_view> seen_ids;
  struct Ordering { bool has_time; Timestamp time; uint32_t position; uint32_t queued; };
  std::vector<Ordering> ordering;
  seen_ids.reserve(entries.size());
  ordering.reserve(entries.size());
  resolved.input.queued.reserve(entries.size());
  resolved.queued_outcome.reserve(entries.size());

  for (size_t i = 0; i < entries.size(); ++i) {
    const JobEntry& e = entries[i];
    JobOutcome& out = resolved.outcomes[i];
    out.entry = e.entry;
    if (e.id && !e.id->empty()) out.id = *e.id;
    out.policy = e.policy;
    out.profile = e.profile;
    bool duplicate = out.id && !seen_ids.insert(*out.id).second;

    bool running = e.state && *e.state == "running";
    std::string invalid = e.invalid;
    if (invalid.empty() && e.state && *e.state != "running" && *e.state != "queued") {
      invalid = "state must be queued or running, not '" + e.state->substr(0, 40) + "'";
    }
    if (invalid.empty() && !out.id) invalid = e.id ? "id must not be empty" : "required field 'id' is missing";

    // Which queue, policy and profile the entry means.
    std::optional<QueueTarget> via_queue = e.queue ? Directory::Find(dir.queues, e.queue) : std::nullopt;
    std::optional<uint32_t> policy = Directory::Find(dir.policies, e.policy);
    std::optional<uint32_t> profile = Directory::Find(dir.profiles, e.profile);
    if (via_queue) {
      if (!e.policy) policy = via_queue->policy;
      if (!e.profile) profile = via_queue->profile;
    }

    if (running) {
      out.status = JobStatus::kRunning;
      out.need_source = "holding";
      std::optional<Quantity> holding;
      if (invalid.empty() && !e.pool) invalid = "required field 'pool' is missing (a running job names its pool)";
      if (invalid.empty() && e.resources) {
        QuantityError error;
        holding = ParseQuantity(*e.resources, &error);
        if (!holding) invalid = "resources: " + error.message + (error.hint.empty() ? "" : " (" + error.hint + ")");
      } else if (invalid.empty()) {
        if (!profile) {
          invalid = "cannot tell what it holds: no resources given and its profile is " +
                    std::string(e.profile || e.queue ? "unknown" : "not given");
        } else {
          std::string_view source;
          std::string note;
          holding = NeedOf(config.profiles[*profile], e, &source, &note);
        }
      }
      if (!invalid.empty()) { Reject(&out, e, "invalid-job", invalid); continue; }
      if (duplicate) { Reject(&out, e, "duplicate-id", "id '" + *out.id + "' appears earlier in the file"); continue; }
      auto pool = Directory::Find(dir.pools, e.pool);
      if (!pool) { Reject(&out, e, "unknown-pool", "pool '" + *e.pool + "' is not in the configuration"); continue; }
      out.pool = config.pools[*pool].name;
      out.queue = config.pools[*pool].queue;
      out.resources = holding;
      if (policy) out.policy = config.policies[*policy].name;
      if (profile) out.profile = config.profiles[*profile].name;
      std::vector<std::string> warnings;
      if (!policy) warnings.push_back(e.policy ? "policy '" + *e.policy + "' no longer exists; counted in the pool only"
                                               : "no policy; counted in the pool only");
      if (!profile && e.profile) warnings.push_back("profile '" + *e.profile + "' no longer exists");
      if (profile) {
        const auto& links = config.profiles[*profile].links;
        bool linked = std::any_of(links.begin(), links.end(), [&](const Link& l) { return l.pool == *out.pool; });
        if (!linked) warnings.push_back("pool '" + *out.pool + "' is not linked to profile '" + *out.profile + "'");
      }
      if (policy && profile && !dir.Allowed(*policy, *profile)) {
        warnings.push_back("policy '" + *out.policy + "' does not list profile '" + *out.profile + "'");
      }
      std::string message;
      for (const auto& w : warnings) message += (message.empty() ? "" : "; ") + w;
      if (!message.empty()) out.message = message;
      resolved.input.holdings.push_back({*pool, policy, *holding});
      continue;
    }

    // Queued.
    std::optional<Timestamp> enqueued;
    if (invalid.empty() && !e.queue && (!e.policy || !e.profile)) {
      invalid = std::string("required field '") + (e.policy ? "profile" : "policy") +
                "' is missing (give policy and profile, or queue)";
    }
    if (invalid.empty() && via_queue) {
      if (e.policy && *e.policy != config.policies[via_queue->policy].name) {
        invalid = "queue '" + *e.queue + "' belongs to policy '" + config.policies[via_queue->policy].name +
                  "', not '" + *e.policy + "'";
      } else if (e.profile && *e.profile != config.profiles[via_queue->profile].name) {
        invalid = "queue '" + *e.queue + "' is for profile '" + config.profiles[via_queue->profile].name +
                  "', not '" + *e.profile + "'";
      }
    }
    if (invalid.empty() && e.enqueued) {
      enqueued = ParseRfc3339(*e.enqueued);
      if (!enqueued) invalid = "enqueued '" + e.enqueued->substr(0, 40) + "' is not an RFC 3339 time such as 2026-11-29T10:00:00Z";
    }
    if (!invalid.empty()) { Reject(&out, e, "invalid-job", invalid); continue; }
    if (duplicate) { Reject(&out, e, "duplicate-id", "id '" + *out.id + "' appears earlier in the file"); continue; }
    if (e.queue && !via_queue) { Reject(&out, e, "unknown-queue", "no policy has a queue named '" + *e.queue + "'"); continue; }
    if (!policy) { Reject(&out, e, "unknown-policy", "policy '" + *e.policy + "' is not in the configuration"); continue; }
    if (!profile) { Reject(&out, e, "unknown-profile", "profile '" + *e.profile + "' is not in the configuration"); continue; }
    if (!dir.Allowed(*policy, *profile)) {
      Reject(&out, e, "profile-not-allowed", "policy '" + config.policies[*policy].name + "' does not list profile '" +
                                              config.profiles[*profile].name + "'");
      continue;
    }
    out.status = JobStatus::kPending;
    out.policy = config.policies[*policy].name;
    out.profile = config.profiles[*profile].name;
    std::string note;
    Quantity need = NeedOf(config.profiles[*profile], e, &out.need_source, &note);
    out.resources = need;
    if (!note.empty()) out.message = note;  // kept for pending jobs' messages
    QueuedJob job;
    job.policy = *policy;
    job.profile = *profile;
    job.need = need;
    job.position = static_cast<uint32_t>(i);
    ordering.push_back({enqueued.has_value(), enqueued.value_or(Timestamp{}), static_cast<uint32_t>(i),
                        static_cast<uint32_t>(resolved.input.queued.size())});
    resolved.input.queued.push_back(job);
    resolved.queued_outcome.push_back(i);
  }

  // Queue order: jobs with `enqueued` first, by time; then the rest; ties by file position.
  std::sort(ordering.begin(), ordering.end(), [](const Ordering& a, const Ordering& b) {
    if (a.has_time != b.has_time) return a.has_time;
    if (a.has_time && a.time != b.time) return a.time < b.time;
    return a.position < b.position;
  });
  for (uint32_t rank = 0; rank < ordering.size(); ++rank) resolved.input.queued[ordering[rank].queued].queue_order = rank;
  return resolved;
}

}  // namespace rescfg
